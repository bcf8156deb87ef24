//! The one list of tools. Dispatch, the schemas of every format, the names `stitch
//! schema` accepts (and so the completions), and the tests all read it: adding a tool is
//! one entry here and one module beside this file.

use serde_json::Value;

use super::args::Request;
use super::output::Output;
use super::{
    apply, delete, derived, edit, glob, history, list, move_file, read, read_files, search, show,
    undo, write, Context,
};
use crate::refusal::{Code, Outcome};

/// What a host may assume of a tool before calling it (MCP's tool annotations).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Annotations {
    /// It changes nothing.
    pub read_only: bool,
    /// It may replace what is there.
    pub destructive: bool,
    /// Calling it again with the same arguments changes nothing more.
    pub idempotent: bool,
}

const READS: Annotations = Annotations {
    read_only: true,
    destructive: false,
    idempotent: true,
};

/// One tool: its names, what hosts are told of it, and how it runs.
#[derive(Debug)]
pub struct ToolSpec {
    /// The wire name, in schemas, envelopes and hooks (`read_file`).
    pub name: &'static str,
    /// The subcommand (`read`).
    pub command: &'static str,
    /// A short human title, for hosts' approval prompts.
    pub title: &'static str,
    pub annotations: Annotations,
    /// Its arguments carry file contents (`content`, `oldText`, `newText`), so they may
    /// be as large as files are.
    pub carries_content: bool,
    /// Every argument is optional, so with no tool argument on the command line it runs
    /// with its defaults and never reads stdin unless `--json` asks (§1).
    pub stdin_only_when_asked: bool,
    /// What it does and how to recover from each refusal, for a model.
    pub description: &'static str,
    /// The JSON Schema of its arguments, generated from its request type.
    pub schema: fn() -> Value,
    /// The JSON Schema of a success's `data`, generated from its result type.
    pub output: fn() -> Value,
    /// The refusal codes it can return, in the contract's order (for its man page).
    pub refusals: &'static [Code],
    /// Runs it with one JSON object of arguments.
    pub run: fn(&Context, Value, super::Shape) -> Outcome<Output>,
}

// What each tool can refuse with. Every tool can be refused by a malformed config
// (INVALID_CONFIG) and by JSON arguments that are wrong (INVALID_ARGUMENT) or too large
// for the bound on stdin (TOO_LARGE), and can name a path that is malformed, leaves the
// root, or is denied by the policy.

const READ_REFUSALS: &[Code] = &[
    Code::InvalidArgument,
    Code::InvalidPath,
    Code::OutsideRoot,
    Code::NotFound,
    Code::NotAFile,
    Code::NotADirectory,
    Code::NotText,
    Code::TooLarge,
    Code::Denied,
    Code::InvalidConfig,
    Code::Busy,
];

/// `read_files` refuses the whole call for its arguments and its glob only; each file's
/// refusal is inline.
const READ_FILES_REFUSALS: &[Code] = &[
    Code::InvalidArgument,
    Code::InvalidPath,
    Code::InvalidPattern,
    Code::OutsideRoot,
    Code::NotFound,
    Code::NotADirectory,
    Code::TooLarge,
    Code::Denied,
    Code::InvalidConfig,
];

const WRITE_REFUSALS: &[Code] = &[
    Code::InvalidArgument,
    Code::InvalidPath,
    Code::OutsideRoot,
    Code::NotAFile,
    Code::NotADirectory,
    Code::AlreadyExists,
    Code::TooLarge,
    Code::StaleVersion,
    Code::NotObserved,
    Code::Denied,
    Code::InvalidConfig,
    Code::SyntaxError,
    Code::Busy,
];

const EDIT_REFUSALS: &[Code] = &[
    Code::InvalidArgument,
    Code::InvalidPath,
    Code::OutsideRoot,
    Code::NotFound,
    Code::NotAFile,
    Code::NotADirectory,
    Code::NotText,
    Code::TooLarge,
    Code::NoMatch,
    Code::AmbiguousMatch,
    Code::MatchCountMismatch,
    Code::StaleVersion,
    Code::NotObserved,
    Code::Denied,
    Code::InvalidConfig,
    Code::SyntaxError,
    Code::Busy,
];

const LIST_REFUSALS: &[Code] = &[
    Code::InvalidArgument,
    Code::InvalidPath,
    Code::OutsideRoot,
    Code::NotFound,
    Code::NotADirectory,
    Code::TooLarge,
    Code::Denied,
    Code::InvalidConfig,
];

const GLOB_REFUSALS: &[Code] = &[
    Code::InvalidArgument,
    Code::InvalidPath,
    Code::InvalidPattern,
    Code::OutsideRoot,
    Code::NotFound,
    Code::NotADirectory,
    Code::TooLarge,
    Code::Denied,
    Code::InvalidConfig,
];

/// `search_files` refuses as `glob` does: both walk a directory and compile a pattern.
const SEARCH_REFUSALS: &[Code] = GLOB_REFUSALS;

const APPLY_REFUSALS: &[Code] = &[
    Code::InvalidArgument,
    Code::InvalidPath,
    Code::OutsideRoot,
    Code::NotFound,
    Code::NotAFile,
    Code::NotADirectory,
    Code::AlreadyExists,
    Code::NotText,
    Code::TooLarge,
    Code::NoMatch,
    Code::AmbiguousMatch,
    Code::StaleVersion,
    Code::NotObserved,
    Code::Denied,
    Code::InvalidConfig,
    Code::SyntaxError,
    Code::InvalidPatch,
    Code::Busy,
];

const DELETE_REFUSALS: &[Code] = &[
    Code::InvalidArgument,
    Code::InvalidPath,
    Code::OutsideRoot,
    Code::NotFound,
    Code::NotAFile,
    Code::NotADirectory,
    Code::TooLarge,
    Code::StaleVersion,
    Code::NotObserved,
    Code::Denied,
    Code::InvalidConfig,
    Code::Busy,
];

const MOVE_REFUSALS: &[Code] = &[
    Code::InvalidArgument,
    Code::InvalidPath,
    Code::OutsideRoot,
    Code::NotFound,
    Code::NotAFile,
    Code::NotADirectory,
    Code::AlreadyExists,
    Code::TooLarge,
    Code::StaleVersion,
    Code::NotObserved,
    Code::Denied,
    Code::InvalidConfig,
    Code::Busy,
];

const HISTORY_REFUSALS: &[Code] = &[
    Code::InvalidArgument,
    Code::InvalidPath,
    Code::OutsideRoot,
    Code::NotADirectory,
    Code::TooLarge,
    Code::Denied,
    Code::InvalidConfig,
];

const SHOW_REFUSALS: &[Code] = &[
    Code::InvalidArgument,
    Code::NotFound,
    Code::TooLarge,
    Code::InvalidConfig,
];

const UNDO_REFUSALS: &[Code] = &[
    Code::InvalidArgument,
    Code::InvalidPath,
    Code::OutsideRoot,
    Code::NotFound,
    Code::NotADirectory,
    Code::AlreadyExists,
    Code::TooLarge,
    Code::StaleVersion,
    Code::Denied,
    Code::InvalidConfig,
    Code::SyntaxError,
    Code::Busy,
];

/// What a change that cannot be repeated to the same effect is: it may replace or remove
/// what is there, and a second call does something else (or refuses).
const CHANGES: Annotations = Annotations {
    read_only: false,
    destructive: true,
    idempotent: false,
};

/// Every tool, in the contract's order.
pub const TOOLS: &[ToolSpec] = &[
    ToolSpec {
        name: read::ReadRequest::TOOL,
        command: "read",
        title: "Read a file",
        annotations: READS,
        carries_content: false,
        stdin_only_when_asked: false,
        description: read::ReadRequest::DESCRIPTION,
        schema: derived::of::<read::ReadRequest>,
        output: derived::of_output::<read::Read>,
        refusals: READ_REFUSALS,
        run: |ctx, arguments, _| read::run(ctx, arguments).map(read::Read::into_output),
    },
    ToolSpec {
        name: read_files::ReadFilesRequest::TOOL,
        // `stitch read a b` and `stitch read --glob G`: the command line reads several
        // files when it names more than one, or a glob (`crate::cli`).
        command: "read",
        title: "Read several files",
        annotations: READS,
        carries_content: false,
        stdin_only_when_asked: false,
        description: read_files::ReadFilesRequest::DESCRIPTION,
        schema: derived::of::<read_files::ReadFilesRequest>,
        output: derived::of_output::<read_files::ReadFilesResult>,
        refusals: READ_FILES_REFUSALS,
        run: |ctx, arguments, _| read_files::run(ctx, arguments).map(Output::ReadFiles),
    },
    ToolSpec {
        name: write::WriteRequest::TOOL,
        command: "write",
        title: "Write a file",
        annotations: Annotations {
            read_only: false,
            destructive: true,
            // The same content again leaves the file untouched; a second create is refused.
            idempotent: true,
        },
        carries_content: true,
        stdin_only_when_asked: false,
        description: write::WriteRequest::DESCRIPTION,
        schema: derived::of::<write::WriteRequest>,
        output: derived::of_output::<write::WriteResult>,
        refusals: WRITE_REFUSALS,
        run: |ctx, arguments, shape| write::run(ctx, arguments, shape.diff).map(Output::Write),
    },
    ToolSpec {
        name: edit::EditRequest::TOOL,
        command: "edit",
        title: "Edit a file",
        annotations: Annotations {
            read_only: false,
            destructive: true,
            // A newText that holds its oldText matches again.
            idempotent: false,
        },
        carries_content: true,
        stdin_only_when_asked: false,
        description: edit::EditRequest::DESCRIPTION,
        schema: derived::of::<edit::EditRequest>,
        output: derived::of_output::<edit::EditResult>,
        refusals: EDIT_REFUSALS,
        run: |ctx, arguments, _| edit::run(ctx, arguments).map(Output::Edit),
    },
    ToolSpec {
        name: list::ListRequest::TOOL,
        command: "list",
        title: "List a directory",
        annotations: READS,
        carries_content: false,
        stdin_only_when_asked: true,
        description: list::ListRequest::DESCRIPTION,
        schema: derived::of::<list::ListRequest>,
        output: derived::of_output::<list::ListResult>,
        refusals: LIST_REFUSALS,
        run: |ctx, arguments, _| list::run(ctx, arguments).map(Output::List),
    },
    ToolSpec {
        name: glob::GlobRequest::TOOL,
        command: "glob",
        title: "Find files by glob",
        annotations: READS,
        carries_content: false,
        stdin_only_when_asked: false,
        description: glob::GlobRequest::DESCRIPTION,
        schema: derived::of::<glob::GlobRequest>,
        output: derived::of_output::<glob::GlobResult>,
        refusals: GLOB_REFUSALS,
        run: |ctx, arguments, _| glob::run(ctx, arguments).map(Output::Glob),
    },
    ToolSpec {
        name: search::SearchRequest::TOOL,
        command: "search",
        title: "Search files",
        annotations: READS,
        carries_content: false,
        stdin_only_when_asked: false,
        description: search::SearchRequest::DESCRIPTION,
        schema: derived::of::<search::SearchRequest>,
        output: derived::of_output::<search::SearchResult>,
        refusals: SEARCH_REFUSALS,
        run: |ctx, arguments, shape| search::run(ctx, arguments, shape.summary).map(Output::Search),
    },
    ToolSpec {
        name: apply::ApplyRequest::TOOL,
        command: "apply",
        title: "Apply a patch across files",
        annotations: CHANGES,
        carries_content: true,
        stdin_only_when_asked: false,
        description: apply::ApplyRequest::DESCRIPTION,
        schema: derived::of::<apply::ApplyRequest>,
        output: derived::of_output::<apply::ApplyResult>,
        refusals: APPLY_REFUSALS,
        run: |ctx, arguments, _| apply::run(ctx, arguments).map(Output::Apply),
    },
    ToolSpec {
        name: delete::DeleteRequest::TOOL,
        command: "delete",
        title: "Delete a file",
        annotations: CHANGES,
        carries_content: false,
        stdin_only_when_asked: false,
        description: delete::DeleteRequest::DESCRIPTION,
        schema: derived::of::<delete::DeleteRequest>,
        output: derived::of_output::<delete::DeleteResult>,
        refusals: DELETE_REFUSALS,
        run: |ctx, arguments, _| delete::run(ctx, arguments).map(Output::Delete),
    },
    ToolSpec {
        name: move_file::MoveRequest::TOOL,
        command: "move",
        title: "Move a file",
        annotations: CHANGES,
        carries_content: false,
        stdin_only_when_asked: false,
        description: move_file::MoveRequest::DESCRIPTION,
        schema: derived::of::<move_file::MoveRequest>,
        output: derived::of_output::<move_file::MoveResult>,
        refusals: MOVE_REFUSALS,
        run: |ctx, arguments, _| move_file::run(ctx, arguments).map(Output::Move),
    },
    ToolSpec {
        name: history::HistoryRequest::TOOL,
        command: "history",
        title: "List changes",
        annotations: READS,
        carries_content: false,
        stdin_only_when_asked: true,
        description: history::HistoryRequest::DESCRIPTION,
        schema: derived::of::<history::HistoryRequest>,
        output: derived::of_output::<history::HistoryResult>,
        refusals: HISTORY_REFUSALS,
        run: |ctx, arguments, _| history::run(ctx, arguments).map(Output::History),
    },
    ToolSpec {
        name: show::ShowRequest::TOOL,
        command: "show",
        title: "Show a change",
        annotations: READS,
        carries_content: false,
        stdin_only_when_asked: false,
        description: show::ShowRequest::DESCRIPTION,
        schema: derived::of::<show::ShowRequest>,
        output: derived::of_output::<show::ShowResult>,
        refusals: SHOW_REFUSALS,
        run: |ctx, arguments, _| show::run(ctx, arguments).map(Output::Show),
    },
    ToolSpec {
        name: undo::UndoRequest::TOOL,
        command: "undo",
        title: "Undo a change",
        annotations: CHANGES,
        carries_content: false,
        stdin_only_when_asked: true,
        description: undo::UndoRequest::DESCRIPTION,
        schema: derived::of::<undo::UndoRequest>,
        output: derived::of_output::<undo::UndoResult>,
        refusals: UNDO_REFUSALS,
        run: |ctx, arguments, _| undo::run(ctx, arguments).map(Output::Undo),
    },
];

/// The tool named `name`, by its wire name or its subcommand.
#[must_use]
pub fn find(name: &str) -> Option<&'static ToolSpec> {
    TOOLS.iter().find(|t| t.name == name || t.command == name)
}

/// Every name [`find`] knows: wire names, then the subcommands that differ from them.
pub fn names() -> impl Iterator<Item = &'static str> {
    let commands = TOOLS
        .iter()
        .enumerate()
        .filter(|(i, t)| {
            TOOLS[..*i]
                .iter()
                .all(|earlier| earlier.command != t.command)
        })
        .map(|(_, t)| t.command)
        .filter(|c| TOOLS.iter().all(|t| t.name != *c));
    TOOLS.iter().map(|t| t.name).chain(commands)
}

#[cfg(test)]
mod tests {
    use super::TOOLS;
    use crate::refusal::Code;

    /// Each tool's list of refusals is in the contract's order, once each, and holds
    /// every code its description tells a model about.
    #[test]
    fn refusals_are_listed_once_in_order_and_cover_the_description() {
        for tool in TOOLS {
            let positions: Vec<usize> = tool
                .refusals
                .iter()
                .map(|c| Code::ALL.iter().position(|a| a == c).unwrap())
                .collect();
            assert!(positions.windows(2).all(|w| w[0] < w[1]), "{}", tool.name);
            for code in Code::ALL {
                if tool.description.contains(code.as_str()) {
                    assert!(
                        tool.refusals.contains(&code),
                        "{} describes {} but does not list it",
                        tool.name,
                        code.as_str()
                    );
                }
            }
        }
    }
}
