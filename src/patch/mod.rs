//! Patches as models emit them — Codex's `*** Begin Patch`, unified diffs as `git diff`
//! and `diff -u` print them, and Aider's SEARCH/REPLACE blocks — parsed into one shape:
//! a list of file changes, each an add, a delete or an update (optionally a move) made
//! of hunks. The dialect is recognised from the text. A patch that does not parse is a
//! [`PatchError`] naming the 1-based line, what was there and what was expected. The body
//! of one Codex file change (an OpenAI Responses API `apply_patch` operation's `diff`) is
//! parsed by the same code ([`update_body`], [`create_body`]). Pure functions over text:
//! nothing here touches a file.

mod codex;
mod hunks;
mod place;
mod search_replace;
mod unified;

pub use codex::{create_body, update_body};
pub use hunks::{apply, apply_until, is_whole, Applied, HunkFailure, Placed, Spans};

/// The patch formats recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Codex,
    Unified,
    SearchReplace,
    /// The structured `changes` list (and the Responses API's operations).
    Changes,
}

impl Format {
    /// The name results and refusals carry.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Codex => "codex",
            Format::Unified => "unified",
            Format::SearchReplace => "search-replace",
            Format::Changes => "changes",
        }
    }
}

/// A parsed patch: its dialect and its changes, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Patch {
    pub dialect: Format,
    pub changes: Vec<FileChange>,
}

/// One file's change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileChange {
    /// A new file with this content, executable when the patch says so (a diff's `new
    /// file mode 100755`).
    Add {
        path: String,
        content: String,
        executable: Option<bool>,
    },
    /// The file removed. A unified diff's deletion hunk (`+++ /dev/null`, `-` lines
    /// only) says what the file holds: `whole`, its old side the file's whole content,
    /// which must be what the file holds now. Without one, the file is removed as named.
    Delete { path: String, whole: Option<Hunk> },
    /// The file's text changed hunk by hunk, moved when `move_to` says where, and its
    /// executable bit set or cleared when the patch says (a diff's `old mode`/`new mode`).
    Update {
        path: String,
        move_to: Option<String>,
        hunks: Vec<Hunk>,
        executable: Option<bool>,
    },
}

impl FileChange {
    /// The path the change names first.
    #[must_use]
    pub fn path(&self) -> &str {
        match self {
            FileChange::Add { path, .. }
            | FileChange::Delete { path, .. }
            | FileChange::Update { path, .. } => path,
        }
    }
}

/// One hunk: the lines it expects (`old`, context included) and the lines it leaves
/// (`new`), without line terminators.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hunk {
    pub old: Vec<String>,
    pub new: Vec<String>,
    /// Codex's `@@ ANCHOR`: a line to find first, after the previous hunk.
    pub anchor: Option<String>,
    /// A unified diff's stated first line of the old side (1-based).
    pub old_start: Option<usize>,
    /// The hunk sits at the end of the file (Codex's `*** End of File`, or a unified
    /// diff's "\ No newline at end of file" after its old side).
    pub at_end: bool,
    /// The new side ends the file without a final newline.
    pub new_no_newline: bool,
    /// Where the hunk must match: `Anywhere` once (SEARCH/REPLACE), `After` the previous
    /// hunk (Codex), or `Near` the stated line (unified).
    pub placement: Placement,
    /// A unified hunk whose header's counts disagreed with its body, read by its body.
    pub recounted: bool,
}

/// How a hunk is placed in the file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Placement {
    /// Exactly one match in the file — or, for a block not found after the one before
    /// it, in the text the blocks before it left (Aider applies them one by one).
    #[default]
    Anywhere,
    /// The only match after the previous hunk (and after its anchor).
    After,
    /// At the stated line, else the nearest exact match.
    Near,
}

/// Why a patch does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {expected}, not {found:?}")]
pub struct PatchError {
    /// As far as it was recognised.
    pub dialect: Option<Format>,
    /// The 1-based line of the patch text.
    pub line: usize,
    /// That line as it is.
    pub found: String,
    /// What was expected there.
    pub expected: String,
}

fn error(
    dialect: Option<Format>,
    line: usize,
    found: &str,
    expected: impl Into<String>,
) -> PatchError {
    PatchError {
        dialect,
        line,
        found: found.to_owned(),
        expected: expected.into(),
    }
}

/// Parses `text` in the dialect it is written in.
pub fn parse(text: &str) -> Result<Patch, PatchError> {
    // The lines, without their terminators; a final newline ends the last line rather
    // than starting an empty one.
    let body = text.strip_suffix('\n').unwrap_or(text);
    let lines: Vec<&str> = body
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let first = lines.iter().position(|l| !l.trim().is_empty());
    let Some(first) = first else {
        return Err(error(
            None,
            1,
            "",
            "a patch: `*** Begin Patch`, a unified diff (`diff --git` or `---`/`+++`), or SEARCH/REPLACE blocks",
        ));
    };
    let head = lines[first].trim();
    if codex::recognises(&lines) {
        return codex::parse(&lines);
    }
    if lines.iter().any(|l| l.trim_end() == "<<<<<<< SEARCH") {
        return search_replace::parse(&lines);
    }
    if head.starts_with("diff --git ")
        || head.starts_with("--- ")
        || lines.iter().any(|l| l.starts_with("@@ -"))
    {
        return unified::parse(&lines);
    }
    Err(error(
        None,
        first + 1,
        lines[first],
        "a patch: `*** Begin Patch`, a unified diff (`diff --git` or `---`/`+++`), or SEARCH/REPLACE blocks",
    ))
}
