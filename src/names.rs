//! The tools' names, spelled once: each wire name (schemas, envelopes, hooks, the journal,
//! hints) and the subcommand that serves it. A leaf that imports nothing, so the
//! registry, the hints and the tools all read it from below.

pub const READ_FILE: &str = "read_file";
pub const READ_FILES: &str = "read_files";
pub const WRITE_FILE: &str = "write_file";
pub const EDIT_FILE: &str = "edit_file";
pub const LIST_DIRECTORY: &str = "list_directory";
pub const GLOB: &str = "glob";
pub const SEARCH_FILES: &str = "search_files";
pub const DELETE_FILE: &str = "delete_file";
pub const MOVE_FILE: &str = "move_file";
pub const LIST_CHANGES: &str = "list_changes";
pub const UNDO_CHANGE: &str = "undo_change";
pub const APPLY_PATCH: &str = "apply_patch";
pub const SHOW_CHANGE: &str = "show_change";

/// Each tool's wire name with its subcommand. The registry's unit tests hold every
/// entry of the catalogue to this table.
pub const COMMANDS: &[(&str, &str)] = &[
    (READ_FILE, "read"),
    // Several paths, or a glob, on `stitch read` (`crate::cli`).
    (READ_FILES, "read"),
    (WRITE_FILE, "write"),
    (EDIT_FILE, "edit"),
    (LIST_DIRECTORY, "list"),
    (GLOB, "glob"),
    (SEARCH_FILES, "search"),
    (APPLY_PATCH, "apply"),
    (DELETE_FILE, "delete"),
    (MOVE_FILE, "move"),
    (LIST_CHANGES, "history"),
    (SHOW_CHANGE, "show"),
    (UNDO_CHANGE, "undo"),
];

/// The subcommand of the tool whose wire name is `name`.
#[must_use]
pub fn command(name: &str) -> Option<&'static str> {
    COMMANDS.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
}
