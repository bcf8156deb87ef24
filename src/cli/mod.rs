//! The command line: clap's derive types, and [`command`] for completions and man pages.
//!
//! Flags are one of the two ways to pass a tool's arguments; the other is one JSON
//! object on stdin. Flags are turned into that same JSON object
//! ([`flags`]), so both go through one parser and one set of checks. [`run`] is the
//! front end: one parse of the command line, then its one answer; [`call()`] is the only
//! code that turns clap's types into a call of the tool layer.

pub mod aliases;
mod call;
mod deferred;
pub mod flags;
mod front;
mod options;
mod parser;
mod stdin;
pub mod text_editor;
pub mod trust;
mod usage;
#[cfg(test)]
mod wiring;

pub use call::{call, dialect, settings};
pub use front::run;
pub use options::{
    ApplyArgs, DeleteArgs, EditArgs, GlobArgs, HistoryArgs, JsonFlag, ListArgs, MoveArgs, ReadArgs,
    RedoArgs, SearchArgs, ShowArgs, UndoArgs, WalkFlags, WriteArgs,
};
pub use parser::command_for;

use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand};

use deferred::Deferred;

/// The rules every tool's `--help` states after its options: where the arguments come
/// from, when stdin is waited on, and values that begin with `-`.
macro_rules! tool_after_help {
    () => {
        "Arguments come as flags, or as one JSON object on stdin (--json). With no tool \
         arguments and stdin not a terminal, stdin is read for JSON: if nothing arrives \
         within 200 ms stitch says so on stderr, and after 2 s of silence it takes stdin as \
         empty (no arguments). To avoid the wait, pass the arguments as flags, pass --json \
         (which waits for its JSON), or redirect </dev/null. Global options (--root, \
         --format, --pretty, ...) are not tool arguments.\n\n\
         A value that begins with '-' is a value, for every option that takes text and \
         for a query or pattern: --content '- ship it', --old '-x', stitch search '-> bool'. \
         A path that begins with '-' is written ./-name."
    };
}

/// What `glob` and `search` add to their `--help`: their exit status in text mode.
macro_rules! text_exit_help {
    () => {
        "With --format text (or --null), a search that matched nothing exits 1, as grep and \
         rg do; a glob or list that found nothing exits 0 with no output, as fd and find \
         do; a result cut by --limit says so on stderr."
    };
}

/// stitch: safe, exact file tools over one workspace.
///
/// Every call prints one JSON envelope on stdout: {"ok":true,"data":...} or a typed
/// refusal {"ok":false,"error":CODE,"details":{"message":…},"_hint":…}.
/// Exit status: 0 success, 1 refusal, 2 invalid invocation, 3 internal error.
#[derive(Debug, Parser)]
#[command(
    name = "stitch",
    version,
    about,
    long_about,
    max_term_width = 100,
    after_help = tool_after_help!()
)]
pub struct Cli {
    /// The workspace: nothing outside it is ever read or written [default: current directory].
    #[arg(
        long,
        env = "STITCH_ROOT",
        global = true,
        help_heading = "Global options",
        value_name = "DIR",
        allow_hyphen_values = true
    )]
    pub root: Option<PathBuf>,
    /// Turn on read-before-write guards for this session.
    ///
    /// With a session, changing a file this session has not read is NOT_OBSERVED: Read the
    /// file, then retry. Changing a file that changed since the session read it is
    /// STALE_VERSION: Re-read the file, then retry. Writes and edits record what they wrote,
    /// so edits chain without re-reading.
    #[arg(
        long,
        env = "STITCH_SESSION",
        global = true,
        help_heading = "Global options",
        value_name = "ID",
        allow_hyphen_values = true
    )]
    pub session: Option<String>,
    /// How long a mutation waits for another process's lock before BUSY.
    #[arg(
        long,
        env = "STITCH_LOCK_TIMEOUT",
        global = true,
        help_heading = "Global options",
        value_name = "SECS",
        allow_negative_numbers = true,
        default_value = "30"
    )]
    pub lock_timeout: f64,
    /// Indent the envelope.
    #[arg(long, global = true, help_heading = "Global options")]
    pub pretty: bool,
    /// Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set),
    /// always or never. Never in JSON.
    #[arg(long, global = true, help_heading = "Global options", value_name = "WHEN",
          value_parser = ["auto", "always", "never"])]
    pub color: Option<String>,
    /// Output: auto (the default: text when stdout is a terminal, json otherwise), json (the
    /// envelope) or text for people and pipelines (refusals as error[CODE]: message on
    /// stderr, with their facts; search exits 1 when nothing matched); for schema:
    /// json-schema, anthropic, openai, openai-responses or mcp.
    #[arg(long, env = "STITCH_FORMAT",
        help_heading = "Global options", global = true, value_name = "FORMAT",
          value_parser = ["auto", "json", "text", "json-schema", "anthropic", "openai",
              "openai-responses", "mcp"])]
    // The doc comment is the option's --help text, where `[CODE]` is literal.
    #[allow(rustdoc::broken_intra_doc_links)]
    pub format: Option<String>,
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read a text file, paged by lines; an image or a PDF whole; or several files at once.
    ///
    /// Several paths, or --glob, read every file in one call (read_files), each as one
    /// file is read; --max-total-bytes bounds them all together.
    ///
    /// Example: stitch read src/main.rs --offset 100 --limit 50
    ///
    /// Example: stitch read src/a.rs src/b.rs --glob '*.toml'
    ///
    /// Example: stitch read src --glob '**/*.rs' --limit 40
    #[command(after_help = tool_after_help!())]
    Read(Deferred<ReadArgs>),
    /// Create a file (or replace one, explicitly), creating missing parents.
    ///
    /// Example: stitch write notes/todo.md --content '- ship it'
    #[command(after_help = tool_after_help!())]
    Write(Deferred<WriteArgs>),
    /// Replace exact snippets in one file, atomically.
    ///
    /// To insert lines instead: --insert-after N --new TEXT (0 = at the top).
    ///
    /// Example: stitch edit src/a.rs --old 'let x = 1;' --new 'let x = 2;'
    #[command(after_help = tool_after_help!())]
    Edit(Deferred<EditArgs>),
    /// List a directory, optionally recursively.
    ///
    /// Example: stitch list src --depth 2
    #[command(after_help = tool_after_help!())]
    List(Deferred<ListArgs>),
    /// Find files by glob pattern (* stays within a directory, ** crosses them).
    ///
    /// Example: stitch glob '**/*.rs' --path src
    #[command(after_help = concat!(tool_after_help!(), "\n\n", text_exit_help!()))]
    Glob(Deferred<GlobArgs>),
    /// Search file contents (or paths) by literal text or regex.
    ///
    /// Example: stitch search 'fn main' --glob '*.rs' --context 2
    #[command(after_help = concat!(tool_after_help!(), "\n\n", text_exit_help!()))]
    Search(Deferred<SearchArgs>),
    /// Apply one change across files, all or nothing: a Codex patch, a unified diff or
    /// SEARCH/REPLACE blocks (journaled: stitch undo takes the whole change back).
    ///
    /// With --json, a changes list (write, edit, delete, move) or OpenAI Responses API
    /// apply_patch operations instead of a patch.
    ///
    /// Example: git diff > change.patch && stitch apply --from change.patch
    #[command(after_help = tool_after_help!())]
    Apply(Deferred<ApplyArgs>),
    /// Delete a file (journaled: stitch undo brings it back).
    ///
    /// Example: stitch delete notes/old.md
    #[command(after_help = tool_after_help!())]
    Delete(Deferred<DeleteArgs>),
    /// Move or rename a file, creating missing parents (journaled: stitch undo moves it back).
    ///
    /// Example: stitch move src/util.rs src/text/util.rs
    #[command(name = "move", after_help = tool_after_help!())]
    Move(Deferred<MoveArgs>),
    /// List the changes stitch made in this workspace, newest first.
    ///
    /// With the global --session, only that session's changes.
    ///
    /// In text, one line a change: its id, age, tool, session, files with the lines each
    /// gained and lost (+N -M), and whether it was undone; --stat puts each file on a line
    /// of its own, as git log --stat does.
    ///
    /// Example: stitch history src/main.rs --limit 5
    #[command(after_help = tool_after_help!())]
    History(Deferred<HistoryArgs>),
    /// Show one change: each file's operation and diff, from the versions the journal keeps.
    ///
    /// Example: stitch show 01733400000000000000
    #[command(after_help = tool_after_help!())]
    Show(Deferred<ShowArgs>),
    /// Take a change back (default: the newest not yet undone), refused when a file moved on since.
    ///
    /// Repeated undos walk back in time; undoing an undo redoes its change.
    ///
    /// Example: stitch undo
    #[command(after_help = tool_after_help!())]
    Undo(Deferred<UndoArgs>),
    /// Take back the newest undo (of this session, with --session), so its change stands again.
    ///
    /// The same as stitch undo --redo: repeated redos walk forward; a redo is never redone.
    ///
    /// Example: stitch redo
    #[command(after_help = tool_after_help!())]
    Redo(Deferred<RedoArgs>),
    /// Serve one command of Anthropic's text-editor tool (str_replace_based_edit_tool), read as
    /// JSON on stdin, with stitch's own tools and guards.
    ///
    /// Pass the model's tool_use.input as it came: {"command": "view" | "create" |
    /// "str_replace" | "insert" | "undo_edit", "path": ..., ...}. In text, prints exactly
    /// what the tool_result carries (exit 0, or 1 for a refusal, whose message and hint it
    /// is); in JSON, the envelope with data.text (a refusal's in details.text).
    ///
    /// Example: echo '{"command":"view","path":"src/main.rs","view_range":[1,20]}' | stitch text-editor
    #[command(name = "text-editor")]
    // The doc comment is the command's --help text, where `[1,20]` is literal JSON.
    #[allow(rustdoc::broken_intra_doc_links)]
    TextEditor(Deferred<TextEditorArgs>),
    /// Print the tool definitions: name, description and JSON Schema of the arguments.
    ///
    /// Example: stitch schema --format anthropic > tools.json
    Schema(Deferred<SchemaArgs>),
    /// Check the configs (the user's and the workspace's), or trust the workspace's.
    ///
    /// Example: stitch config check
    #[command(subcommand)]
    Config(ConfigCommand),
    /// Serve the tools to an MCP host over stdio until stdin closes.
    ///
    /// Newline-delimited JSON-RPC 2.0 (protocol revisions 2025-06-18, 2025-11-25 and
    /// 2026-07-28). Each connection is its own session, so read-before-write guards are on;
    /// --session names the session, --no-session turns the guards off. Stdout carries
    /// protocol messages only; logs go to stderr.
    ///
    /// Example: stitch mcp --root ~/project
    Mcp(Deferred<McpArgs>),
}

/// `stitch text-editor`: its command comes as JSON on stdin only.
#[derive(Debug, Args)]
pub struct TextEditorArgs {}

/// `stitch mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Turn the read-before-write guards off (by default each connection is a fresh session).
    #[arg(long)]
    pub no_session: bool,
}

/// `stitch schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Only this tool (a tool name such as edit_file, or a subcommand such as edit).
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(crate::tool::registry::names()))]
    pub tool: Option<String>,
}

/// `stitch config`.
#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Validate the configs and print, for each setting in force, the config it came
    /// from, and whether the workspace's config is trusted.
    ///
    /// Shows the authorize program trust pins (its path and sha256) when it lies inside
    /// the workspace, and warns when stitch's user-level state (~/.config/stitch,
    /// ~/.local/share/stitch) lies inside it, as with a root at $HOME.
    Check,
    /// Trust this workspace's .stitch/config.json, at a terminal, after reviewing it.
    ///
    /// Shows the config and what trusting it enables (its authorize command, its raised
    /// limits), and asks for a yes on the terminal. With no terminal on stdin it refuses
    /// (exit 2): neither a model nor a script can trust on a person's behalf. The trust is
    /// recorded under $XDG_DATA_HOME/stitch/trusted/ (default ~/.local/share/stitch/trusted/)
    /// for these exact bytes in this place: any change of the file, or a move of the
    /// workspace, ends it. When the authorize program lies inside the workspace, its bytes
    /// are pinned too, and shown with their sha256: any change to it ends the trust.
    ///
    /// Example: stitch config trust
    Trust,
    /// Stop trusting this workspace's .stitch/config.json.
    ///
    /// Example: stitch config untrust
    Untrust,
}

impl Command {
    /// How `search` prints its matches in text: lines, paths (`-l`), counts (`-c`) or
    /// nothing (`-q`); `None` for lines and for every other command.
    #[must_use]
    pub fn search_summary(&self) -> Option<crate::tool::Summary> {
        use crate::tool::Summary;
        match self {
            Command::Search(a) if a.quiet => Some(Summary::Quiet),
            Command::Search(a) if a.count => Some(Summary::Count),
            Command::Search(a) if a.files_with_matches => Some(Summary::Files),
            _ => None,
        }
    }

    /// Whether `--no-diff` asks for a mutation's summary line alone.
    #[must_use]
    pub fn no_diff(&self) -> bool {
        match self {
            Command::Write(a) => a.no_diff,
            Command::Edit(a) => a.no_diff,
            Command::Apply(a) => a.no_diff,
            Command::Delete(a) => a.no_diff,
            Command::Move(a) => a.no_diff,
            Command::Undo(a) => a.no_diff,
            Command::Redo(a) => a.no_diff,
            _ => false,
        }
    }

    /// Whether `history --stat` asks for each file on a line of its own.
    #[must_use]
    pub fn stat(&self) -> bool {
        matches!(self, Command::History(a) if a.stat)
    }

    /// Whether an option shapes text output (`--null`, search's `-l`, `-c` and `-q`,
    /// `--no-diff`, `history --stat`), and so implies it.
    #[must_use]
    pub fn shapes_text(&self) -> bool {
        self.null() || self.search_summary().is_some() || self.no_diff() || self.stat()
    }

    /// Whether `--null` asks for NUL-terminated names (`list`, `glob`, `search`).
    #[must_use]
    pub fn null(&self) -> bool {
        match self {
            Command::List(a) => a.walk.null,
            Command::Glob(a) => a.walk.null,
            Command::Search(a) => a.walk.null,
            _ => false,
        }
    }
}

/// The whole clap command tree, for completions, man pages and help (a call parses
/// with [`command_for`]).
#[must_use]
pub fn command() -> clap::Command {
    Cli::command()
}
