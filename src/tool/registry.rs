//! The one list of tools. Dispatch, the schemas of every format, the names `stitch
//! schema` accepts (and so the completions), and the tests all read it: adding a tool is
//! one entry here and one module beside this file.

use serde_json::Value;

use super::args::Request;
use super::output::Output;
use super::{edit, glob, list, read, schema, search, write, Context};
use crate::refusal::Outcome;

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
    /// What it does and how to recover from each refusal, for a model.
    pub description: &'static str,
    /// The JSON Schema of its arguments, generated from its request type.
    pub schema: fn() -> Value,
    /// Runs it with one JSON object of arguments.
    pub run: fn(&Context, Value) -> Outcome<Output>,
}

/// Every tool, in the contract's order.
pub const TOOLS: &[ToolSpec] = &[
    ToolSpec {
        name: read::ReadRequest::TOOL,
        command: "read",
        title: "Read a file",
        annotations: READS,
        carries_content: false,
        description: read::ReadRequest::DESCRIPTION,
        schema: schema::of::<read::ReadRequest>,
        run: |ctx, arguments| read::run(ctx, arguments).map(Output::Read),
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
        description: write::WriteRequest::DESCRIPTION,
        schema: schema::of::<write::WriteRequest>,
        run: |ctx, arguments| write::run(ctx, arguments).map(Output::Write),
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
        description: edit::EditRequest::DESCRIPTION,
        schema: schema::of::<edit::EditRequest>,
        run: |ctx, arguments| edit::run(ctx, arguments).map(Output::Edit),
    },
    ToolSpec {
        name: list::ListRequest::TOOL,
        command: "list",
        title: "List a directory",
        annotations: READS,
        carries_content: false,
        description: list::ListRequest::DESCRIPTION,
        schema: schema::of::<list::ListRequest>,
        run: |ctx, arguments| list::run(ctx, arguments).map(Output::List),
    },
    ToolSpec {
        name: glob::GlobRequest::TOOL,
        command: "glob",
        title: "Find files by glob",
        annotations: READS,
        carries_content: false,
        description: glob::GlobRequest::DESCRIPTION,
        schema: schema::of::<glob::GlobRequest>,
        run: |ctx, arguments| glob::run(ctx, arguments).map(Output::Glob),
    },
    ToolSpec {
        name: search::SearchRequest::TOOL,
        command: "search",
        title: "Search files",
        annotations: READS,
        carries_content: false,
        description: search::SearchRequest::DESCRIPTION,
        schema: schema::of::<search::SearchRequest>,
        run: |ctx, arguments| search::run(ctx, arguments).map(Output::Search),
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
        .map(|t| t.command)
        .filter(|c| TOOLS.iter().all(|t| t.name != *c));
    TOOLS.iter().map(|t| t.name).chain(commands)
}

#[cfg(test)]
mod tests {
    use super::{find, names, TOOLS};

    /// Each entry is reachable by both its names, has a subcommand on the command line,
    /// and a schema whose properties are the fields its request parses.
    #[test]
    fn every_tool_is_wired_everywhere() {
        let command = crate::cli::command();
        for tool in TOOLS {
            assert_eq!(find(tool.name).map(|t| t.command), Some(tool.command));
            assert_eq!(find(tool.command).map(|t| t.name), Some(tool.name));
            assert!(
                command.find_subcommand(tool.command).is_some(),
                "{} has no subcommand",
                tool.command
            );
            let schema = (tool.schema)();
            assert!(schema["properties"].is_object(), "{}", tool.name);
            assert!(!tool.title.is_empty() && !tool.description.is_empty());
            assert!(
                !(tool.annotations.read_only && tool.annotations.destructive),
                "{}",
                tool.name
            );
        }
        let all: Vec<&str> = names().collect();
        let mut unique = all.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), all.len(), "no name twice: {all:?}");
    }
}
