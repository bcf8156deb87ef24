//! Hints about the files a change meets: one that exists where the change would create
//! it, one the session has not read, one that moved on since a change, one too large, one
//! not found, one another call or program holds.

use serde_json::Value;

use super::{text, Caller, READ_FIRST};
use crate::names;
use crate::refusal::{key, Refusal};

/// The hint of a change onto a file that exists: write_file's and move_file's remedy,
/// or apply_patch's own ways out.
pub(super) fn already_exists(refusal: &Refusal, d: Caller, path: &str) -> String {
    if refusal.detail(key::CHANGE_INDEX).is_some() {
        return apply_exists(refusal, d, path);
    }
    format!(
        "Read `{path}` and pass {} (or its sha256 as {}), or change it with {}.",
        d.switch("overwrite"),
        d.name(key::EXPECTED_SHA256),
        d.tool(names::EDIT_FILE)
    )
}

/// The hint of an apply_patch change onto a file that exists: apply's own ways out,
/// never a flag apply does not take. A patch changes an existing file by updating it
/// (`*** Update File:`, a diff against it), and replaces one only by a `changes` item
/// that says `overwrite: true` — by flags, sent to `stitch apply --json`.
pub(super) fn apply_exists(refusal: &Refusal, d: Caller, path: &str) -> String {
    let index = refusal
        .detail(key::CHANGE_INDEX)
        .and_then(Value::as_u64)
        .unwrap_or_default();
    let moved = text(refusal, key::OPERATION) == Some("move");
    if refusal.detail(key::OVERWRITE).is_some() {
        // The item itself takes `overwrite`.
        return if moved {
            format!("Set overwrite: true in changes[{index}] to replace `{path}`, or move the file to a path that is free.")
        } else {
            format!("Read `{path}` and set overwrite: true (or its sha256 as expectedSha256) in changes[{index}], or change it with an {{op: \"edit\"}} item instead.")
        };
    }
    let item = if moved {
        format!("{{\"op\": \"move\", \"from\": …, \"to\": \"{path}\", \"overwrite\": true}}")
    } else {
        format!("{{\"op\": \"write\", \"path\": \"{path}\", \"content\": …, \"overwrite\": true}}")
    };
    let replace = match d {
        Caller::Json => format!("send changes: [{item}] instead"),
        Caller::Flags => {
            format!("send {{\"changes\": [{item}]}} on stdin to `stitch apply --json`")
        }
    };
    if moved {
        format!("`{path}` exists: move the file to a path that is free, or, to replace `{path}`, {replace}.")
    } else {
        format!("`{path}` exists: change it with `*** Update File: {path}` (or a diff against it) instead of adding it, or, to replace it whole, {replace}.")
    }
}

/// The next step past an undo refused because its files moved on: the later changes to
/// take back first, when the journal names them; never "re-read", which changes nothing.
pub(super) fn undo_moved_on(refusal: &Refusal, d: Caller) -> String {
    let by_later = refusal
        .detail("paths")
        .and_then(Value::as_array)
        .is_some_and(|paths| {
            paths.iter().any(|p| {
                p.get("changedBy")
                    .and_then(Value::as_array)
                    .is_some_and(|ids| !ids.is_empty())
            })
        });
    if by_later {
        format!(
            "Later changes overlap what this change did: undo those listed in changedBy first (newest first), then this one again; or leave it in place. {} shows each change.",
            d.tool(names::LIST_CHANGES)
        )
    } else {
        "The file was changed outside stitch where this change made its lines: taking it back would lose that work. Leave it in place, or edit those lines back yourself.".into()
    }
}

/// The hint of a change whose files this session has not read: every one of them, so
/// that one round of reads lets the change through.
pub(super) fn not_observed(refusal: &Refusal, d: Caller) -> String {
    let paths: Vec<String> = refusal
        .detail(key::PATHS)
        .and_then(Value::as_array)
        .map(|paths| {
            paths
                .iter()
                .filter_map(Value::as_str)
                .map(|p| format!("`{p}`"))
                .collect()
        })
        .unwrap_or_default();
    if paths.len() < 2 {
        return format!("{READ_FIRST}.");
    }
    format!(
        "Read the files first, each of them ({}) with {}, then retry.",
        paths.join(", "),
        d.tool(names::READ_FILE)
    )
}

/// The next step past a `TOO_LARGE`, by the field or the file that was too large.
pub(super) fn too_large(refusal: &Refusal, d: Caller, path: &str) -> String {
    match text(refusal, key::FIELD) {
        Some("oldText" | "newText") => format!(
            "Edit a smaller part of the file at a time: shorten {} and {}.",
            d.name("oldText"),
            d.name("newText")
        ),
        Some("stdin") => "Send one JSON object holding only the arguments; pass large text with --from FILE, or split the work.".into(),
        Some("content") => "Split the content into smaller files.".into(),
        Some("result") => "Make the edit smaller, or split the file first.".into(),
        // An image or a PDF is returned whole or not at all.
        _ if refusal.detail("mime").is_some() => {
            let limit = refusal.detail("limit").and_then(Value::as_u64).unwrap_or(0);
            let cap = refusal.detail("cap").and_then(Value::as_u64).unwrap_or(0);
            let bytes = refusal.detail("bytes").and_then(Value::as_u64).unwrap_or(0);
            if limit < cap && bytes <= cap {
                format!("Pass {} {bytes} (up to {cap}) to read it whole.", d.name("maxBytes"))
            } else {
                format!("`{path}` is larger than any read returns (limits.maxReadBytes, {cap}): ask the workspace owner to raise limits.maxReadBytes, or use a smaller copy of it.")
            }
        }
        Some("changes") => "Split the change: apply it as several smaller patches, each touching fewer files.".into(),
        _ if text(refusal, key::REASON) == Some("memory") => format!(
            "`{path}` is within the limits but too large for the memory stitch has now: work on smaller files, or lower limits.maxFileBytes to what this machine can hold."
        ),
        _ => format!(
            "`{path}` is over the workspace's limits.maxFileBytes: work on smaller files, or ask the workspace owner to raise limits.maxFileBytes."
        ),
    }
}

/// The hint of a `NOT_FOUND`: the nearest existing name, else where to look (or, for an
/// edit, how to create the file).
pub(super) fn not_found(refusal: &Refusal, d: Caller, path: &str) -> String {
    let tool = |name| d.tool(name);
    match refusal
        .detail(key::NEAR_NAMES)
        .and_then(Value::as_array)
        .and_then(|names| names.first())
        .and_then(Value::as_str)
    {
        Some(near) if text(refusal, key::OPERATION) == Some("edit") => format!(
            "Did you mean `{near}`? If `{path}` is a new file, create it with {} instead.",
            tool(names::WRITE_FILE)
        ),
        Some(near) => format!("Did you mean `{near}`? Otherwise list the parent directory."),
        None => match text(refusal, key::OPERATION) {
            Some("edit") => format!(
                "Create the file with {}, or list the parent directory.",
                tool(names::WRITE_FILE)
            ),
            Some("undo" | "show") => format!(
                "List the changes there are with {}.",
                tool(names::LIST_CHANGES)
            ),
            _ => "List the parent directory to see what exists.".into(),
        },
    }
}

/// The hint of a `BUSY`: what the file or the server was busy with, and when to retry.
pub(super) fn busy(refusal: &Refusal, path: &str) -> String {
    // A server at its bound on concurrent calls says how many; a lock wait does not.
    if refusal.detail("limit").is_some() {
        return "The server is running as many calls as it takes at once: retry when one has answered.".into();
    }
    match text(refusal, key::REASON) {
        Some(key::CHANGED_WHILE_READ) => {
            format!("Another program is rewriting `{path}`: retry once it has finished.")
        }
        Some(key::OUT_OF_TIME) => "The change could not be made in the time stitch may hold its files' locks: retry when the machine is less busy, or send it as several smaller patches.".into(),
        _ => "Another call holds the lock: retry in a moment.".into(),
    }
}
