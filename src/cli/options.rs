//! Each tool's options: clap's derive types, serialized by name into the tool's JSON
//! arguments ([`super::flags`]).

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

/// Take the tool's arguments as one JSON object on stdin.
#[derive(Debug, Args)]
pub struct JsonFlag {
    /// Read the tool's arguments as one JSON object from stdin.
    #[arg(long)]
    pub json: bool,
}

/// `stitch read`.
#[derive(Debug, Args, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadArgs {
    /// The file, relative to the root; several files are read in one call (with --glob,
    /// the directory the glob is relative to).
    #[arg(value_name = "PATH")]
    #[serde(skip)]
    pub path: Vec<String>,
    /// First line to return, 1-based.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub offset: Option<u64>,
    /// Number of lines to return.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub limit: Option<u64>,
    /// Cap on the returned text, in bytes.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_bytes: Option<u64>,
    /// Prefix each line with its number and a tab, as cat -n does (for reading only; the
    /// sha256 is still the raw file's).
    #[arg(short = 'n', long)]
    #[serde(rename = "lineNumbers", skip_serializing_if = "std::ops::Not::not")]
    pub number: bool,
    /// Read every file matching this glob (relative to PATH, default .), in one call.
    #[arg(long, value_name = "GLOB", allow_hyphen_values = true)]
    pub glob: Option<String>,
    /// With several files: cap on the bytes returned for all of them together.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_total_bytes: Option<u64>,
    #[command(flatten)]
    #[serde(skip)]
    pub json: JsonFlag,
}

/// `stitch write`.
#[derive(Debug, Args, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WriteArgs {
    /// The file, relative to the root.
    pub path: Option<String>,
    /// The new content.
    #[arg(
        long,
        value_name = "TEXT",
        conflicts_with = "from",
        allow_hyphen_values = true
    )]
    pub content: Option<String>,
    /// Read the new content from FILE (- = stdin), as raw bytes.
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    #[serde(skip)]
    pub from: Option<PathBuf>,
    /// Replace the file if it exists.
    #[arg(long)]
    pub overwrite: bool,
    /// Replace only if the file's current SHA-256 is HEX.
    #[arg(long, value_name = "HEX", allow_hyphen_values = true)]
    pub expected_sha256: Option<String>,
    /// Check everything, change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Apply even if the result breaks the file's syntax (a later change completes it).
    #[arg(long)]
    pub allow_syntax_errors: bool,
    /// Print the one summary line, without the diff; implies --format text.
    #[arg(long)]
    #[serde(skip)]
    pub no_diff: bool,
    #[command(flatten)]
    #[serde(skip)]
    pub json: JsonFlag,
}

/// `stitch edit`.
#[derive(Debug, Args, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EditArgs {
    /// The file, relative to the root.
    pub path: Option<String>,
    /// The exact text to replace.
    #[arg(
        long,
        value_name = "TEXT",
        conflicts_with = "old_from",
        allow_hyphen_values = true
    )]
    #[serde(rename = "oldText")]
    pub old: Option<String>,
    /// The replacement text.
    #[arg(
        long,
        value_name = "TEXT",
        conflicts_with = "new_from",
        allow_hyphen_values = true
    )]
    #[serde(rename = "newText")]
    pub new: Option<String>,
    /// Read the text to replace from FILE (- = stdin).
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    #[serde(skip)]
    pub old_from: Option<PathBuf>,
    /// Read the replacement from FILE (- = stdin).
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    #[serde(skip)]
    pub new_from: Option<PathBuf>,
    /// Replace every occurrence.
    #[arg(long)]
    pub replace_all: bool,
    /// Refuse unless exactly N occurrences match.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub expected_replacements: Option<u64>,
    /// Refuse unless the file's current SHA-256 is HEX.
    #[arg(long, value_name = "HEX", allow_hyphen_values = true)]
    pub expected_sha256: Option<String>,
    /// Compute the result and diff, change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Succeed, changing nothing, when the edit is already applied.
    #[arg(long)]
    pub ok_if_applied: bool,
    /// Apply even if the result breaks the file's syntax (a later change completes it).
    #[arg(long)]
    pub allow_syntax_errors: bool,
    /// Insert the --new text after line N instead of replacing --old (0 = at the top).
    #[arg(long, value_name = "N", allow_negative_numbers = true, conflicts_with_all = ["old", "old_from"])]
    pub insert_after: Option<u64>,
    /// With --insert-after: insert only if line N holds exactly TEXT now.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub expected_line: Option<String>,
    /// Print the one summary line, without the diff; implies --format text.
    #[arg(long)]
    #[serde(skip)]
    pub no_diff: bool,
    #[command(flatten)]
    #[serde(skip)]
    pub json: JsonFlag,
}

/// `stitch apply`.
#[derive(Debug, Args, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApplyArgs {
    /// The patch text.
    #[arg(
        long,
        value_name = "TEXT",
        conflicts_with = "from",
        allow_hyphen_values = true
    )]
    pub patch: Option<String>,
    /// Read the patch from FILE (- = stdin), as raw bytes.
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    #[serde(skip)]
    pub from: Option<PathBuf>,
    /// Check everything, change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// A patch applied whole already is a success that changes nothing.
    #[arg(long)]
    pub ok_if_applied: bool,
    /// Apply even if the result breaks the file's syntax (a later change completes it).
    #[arg(long)]
    pub allow_syntax_errors: bool,
    /// Print the one summary line, without the diff; implies --format text.
    #[arg(long)]
    #[serde(skip)]
    pub no_diff: bool,
    #[command(flatten)]
    #[serde(skip)]
    pub json: JsonFlag,
}

/// `stitch delete`.
#[derive(Debug, Args, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeleteArgs {
    /// The file, relative to the root.
    pub path: Option<String>,
    /// Delete only if the file's current SHA-256 is HEX.
    #[arg(long, value_name = "HEX", allow_hyphen_values = true)]
    pub expected_sha256: Option<String>,
    /// Check everything, change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the one summary line, without the diff; implies --format text.
    #[arg(long)]
    #[serde(skip)]
    pub no_diff: bool,
    #[command(flatten)]
    #[serde(skip)]
    pub json: JsonFlag,
}

/// `stitch move`.
#[derive(Debug, Args, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveArgs {
    /// The file to move, relative to the root.
    pub from: Option<String>,
    /// Where it goes, relative to the root.
    pub to: Option<String>,
    /// Replace a file at TO.
    #[arg(long)]
    pub overwrite: bool,
    /// Move only if FROM's current SHA-256 is HEX.
    #[arg(long, value_name = "HEX", allow_hyphen_values = true)]
    pub expected_sha256: Option<String>,
    /// Check everything, change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the one summary line, without the diff; implies --format text.
    #[arg(long)]
    #[serde(skip)]
    pub no_diff: bool,
    #[command(flatten)]
    #[serde(skip)]
    pub json: JsonFlag,
}

/// `stitch history`.
#[derive(Debug, Args, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryArgs {
    /// Only changes that touched this file (or anything below this directory).
    pub path: Option<String>,
    /// The most changes to list.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub limit: Option<u64>,
    /// Each change on a line, then each of its files on a line of its own with the lines
    /// it added and removed (+N -M), as git log --stat; implies --format text.
    #[arg(long)]
    #[serde(skip)]
    pub stat: bool,
    #[command(flatten)]
    #[serde(skip)]
    pub json: JsonFlag,
}

/// `stitch show`.
#[derive(Debug, Args, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShowArgs {
    /// The change to show (an id from stitch history, or from a change's result).
    pub id: Option<String>,
    #[command(flatten)]
    #[serde(skip)]
    pub json: JsonFlag,
}

/// `stitch undo`.
#[derive(Debug, Args, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UndoArgs {
    /// The change to take back (an id from stitch history) [default: the newest not yet undone].
    pub id: Option<String>,
    /// Check everything, change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Redo: take back the newest undo (or the undo ID names), so its change stands again.
    #[arg(long)]
    pub redo: bool,
    /// Apply even if the result breaks the file's syntax (a later change completes it).
    #[arg(long)]
    pub allow_syntax_errors: bool,
    /// Print the one summary line, without the diff; implies --format text.
    #[arg(long)]
    #[serde(skip)]
    pub no_diff: bool,
    #[command(flatten)]
    #[serde(skip)]
    pub json: JsonFlag,
}

/// `stitch redo`: `undo --redo`.
#[derive(Debug, Args, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RedoArgs {
    /// The undo to take back (an id from stitch history) [default: the newest undo not yet taken back].
    pub id: Option<String>,
    /// Check everything, change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the one summary line, without the diff; implies --format text.
    #[arg(long)]
    #[serde(skip)]
    pub no_diff: bool,
    #[command(flatten)]
    #[serde(skip)]
    pub json: JsonFlag,
}

/// The options list, glob and search share.
#[derive(Debug, Args, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WalkFlags {
    /// Include what ignore rules and hidden names hide (never .stitch/).
    #[arg(long)]
    #[serde(rename = "includeIgnored")]
    pub all: bool,
    /// The most entries or matches to return.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub limit: Option<u64>,
    /// End each name with NUL instead of a newline, for names holding newlines (as
    /// `find -print0`, `rg --null`); implies --format text.
    #[arg(short = '0', long)]
    #[serde(skip)]
    pub null: bool,
    #[command(flatten)]
    #[serde(skip)]
    pub json: JsonFlag,
}

/// `stitch list`.
#[derive(Debug, Args, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListArgs {
    /// The directory, relative to the root [default: .].
    pub path: Option<String>,
    /// How many levels to descend (1 = the directory's own entries).
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub depth: Option<u64>,
    #[command(flatten)]
    #[serde(flatten)]
    pub walk: WalkFlags,
}

/// `stitch glob`.
#[derive(Debug, Args, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GlobArgs {
    /// The glob, relative to --path (a pattern that begins with `-` is a pattern).
    #[arg(allow_hyphen_values = true)]
    pub pattern: Option<String>,
    /// The directory to search below [default: .].
    #[arg(long, value_name = "DIR", allow_hyphen_values = true)]
    pub path: Option<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub walk: WalkFlags,
}

/// `stitch search`.
#[derive(Debug, Args, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchArgs {
    /// The text (or, with --regex, the pattern) to find (`-> bool` is a query, not an option).
    #[arg(allow_hyphen_values = true)]
    pub query: Option<String>,
    /// The directory (or file) to search [default: .].
    #[arg(long, value_name = "DIR", allow_hyphen_values = true)]
    pub path: Option<String>,
    /// Treat the query as a regular expression (linear time: no look-around or backreferences).
    #[arg(long)]
    pub regex: bool,
    /// Match case-insensitively.
    #[arg(short = 'i', long)]
    #[serde(skip)]
    pub ignore_case: bool,
    /// Only search files matching this glob (a glob without `/` matches file names).
    #[arg(long, value_name = "GLOB", allow_hyphen_values = true)]
    #[serde(rename = "include")]
    pub glob: Option<String>,
    /// Lines of context before and after each match (0-10).
    #[arg(short = 'C', long, value_name = "N", allow_negative_numbers = true)]
    pub context: Option<u64>,
    /// Match contents (default) or workspace-relative paths.
    #[arg(long, value_name = "MODE", value_parser = ["content", "path"])]
    pub mode: Option<String>,
    /// Same as --mode path.
    #[arg(long, conflicts_with = "mode")]
    #[serde(skip)]
    pub paths_only: bool,
    /// Print only the paths of files with a match, each once, every one of them (as rg
    /// -l; --limit does not apply); implies --format text.
    #[arg(short = 'l', long, conflicts_with_all = ["count", "quiet"])]
    #[serde(skip)]
    pub files_with_matches: bool,
    /// Print each file with a match and its number of matching lines, path:count (as rg
    /// -c), counting every match (--limit does not apply); implies --format text.
    #[arg(short = 'c', long, conflicts_with = "quiet")]
    #[serde(skip)]
    pub count: bool,
    /// Print nothing: exit 0 at the first match, 1 when nothing matched (as rg -q).
    #[arg(short = 'q', long)]
    #[serde(skip)]
    pub quiet: bool,
    #[command(flatten)]
    #[serde(flatten)]
    pub walk: WalkFlags,
}
