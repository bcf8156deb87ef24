//! What a successful call returns: one typed result per tool, serialized as the
//! envelope's `data` in each result's own field order, and rendered as text from the
//! same types.

use serde::Serialize;

pub use super::apply::ApplyResult;
pub use super::config_check::ConfigReport;
pub use super::delete::DeleteResult;
pub use super::edit::EditResult;
pub use super::glob::GlobResult;
pub use super::history::HistoryResult;
pub use super::list::ListResult;
pub use super::media::MediaResult;
pub use super::move_file::MoveResult;
pub use super::read::ReadResult;
pub use super::read_files::{FileAnswer, ReadFilesResult};
pub use super::search::{Match, SearchResult};
pub use super::show::ShowResult;
pub use super::syntax_gate::{SyntaxReport, Unchecked, UncheckedReason};
pub use super::undo::UndoResult;
pub use super::walked::Cut;
pub use super::write::WriteResult;

/// The result of one successful call.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Output {
    Read(ReadResult),
    /// `read_file` of an image or a PDF.
    Media(MediaResult),
    ReadFiles(ReadFilesResult),
    Write(WriteResult),
    Edit(EditResult),
    List(ListResult),
    Glob(GlobResult),
    Search(SearchResult),
    Delete(DeleteResult),
    Move(MoveResult),
    History(HistoryResult),
    Show(ShowResult),
    Undo(UndoResult),
    Apply(ApplyResult),
    /// `stitch config check`'s report.
    Config(ConfigReport),
}

impl Output {
    /// Whether a file of this result landed by region (§6): its envelope then carries a
    /// hint to read the lines another program changed.
    #[must_use]
    pub fn landed_by_region(&self) -> bool {
        match self {
            Output::Edit(edit) => edit.stale_read,
            Output::Apply(apply) => apply.changes.iter().any(|c| c.stale_read),
            _ => false,
        }
    }

    /// What a limit cut from a discovery result, which its envelope phrases as the
    /// `hint`, in the caller's dialect.
    #[must_use]
    pub fn cut(&self) -> Option<Cut> {
        match self {
            Output::List(list) => list.hint,
            Output::Glob(glob) => glob.hint,
            Output::Search(search) => search.hint,
            _ => None,
        }
    }
}
