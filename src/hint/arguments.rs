//! Hints for what the caller or the workspace's owner must fix: an argument (a field
//! unknown, missing or malformed), a policy's refusal, a config or state stitch cannot use.

use serde_json::Value;

use super::{text, Caller};
use crate::refusal::{key, Refusal};

/// The allowed fields a refusal lists, if it lists them.
fn allowed(refusal: &Refusal) -> Vec<&str> {
    refusal
        .detail(key::ALLOWED)
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Whether the refusal is about `field` being no field of the tool at all. A field of an
/// item (`changes[2].content`) is named by its place; the allowed names are the item's.
/// By flags no field is unknown (the command line refuses an unknown flag itself), and
/// the allowed names are the command's flags, not fields.
fn unknown(refusal: &Refusal, field: &str, d: Caller) -> bool {
    if d == Caller::Flags {
        return false;
    }
    let names = allowed(refusal);
    let name = field.rsplit('.').next().unwrap_or(field);
    !names.is_empty() && !names.contains(&field) && !names.contains(&name)
}

/// The hint of an `INVALID_ARGUMENT`: the named field, spelled as the caller spells it.
pub(super) fn invalid_argument(refusal: &Refusal, d: Caller) -> String {
    match text(refusal, key::FIELD) {
        // The root is the command line's; a model that sends `root` among the
        // arguments is told the allowed fields instead.
        Some("root") if refusal.detail(key::ALLOWED).is_none() => {
            "Pass --root (or STITCH_ROOT) naming an existing directory.".into()
        }
        Some(field) if unknown(refusal, field, d) => format!(
            "Drop `{field}`: the allowed fields are {}.",
            allowed(refusal).join(", ")
        ),
        Some("arguments") => {
            "Send the arguments as one JSON object of fields, e.g. {\"path\": \"src/main.rs\"}.".into()
        }
        Some("stdin") if text(refusal, key::REASON) == Some(key::RAW_CONTROL) => {
            "Inside a JSON string write a newline as \\n and a tab as \\t; or pass the text by flags from files: --old-from FILE and --new-from FILE (edit), --from FILE (write).".into()
        }
        Some("stdin") => {
            "Send exactly one JSON object of arguments on stdin, or pass them as flags.".into()
        }
        Some("insertAfter") if refusal.detail("totalLines").is_some() => {
            let total = refusal.detail("totalLines").and_then(Value::as_u64).unwrap_or(0);
            format!(
                "`{}` has {total} lines: pass {} from 0 (the top) to {total} (the end).",
                text(refusal, key::PATH).unwrap_or("the file"),
                d.name("insertAfter")
            )
        }
        Some(_) if text(refusal, key::REASON) == Some("no writer") => format!(
            "Start the program that writes the FIFO before (or while) calling stitch, or pass {} a regular file.",
            text(refusal, key::FLAG).unwrap_or("--from")
        ),
        Some(field) => format!(
            "Fix the `{}` argument and call again.",
            match (d, text(refusal, key::FLAG)) {
                (Caller::Flags, Some(flag)) => flag,
                _ => d.name(field),
            }
        ),
        None => match (text(refusal, key::DID_YOU_MEAN), text(refusal, key::USAGE)) {
            (Some(command), Some(usage)) => format!(
                "stitch's command for that is `{command}`: call `{usage}` (`stitch --help` lists every command)."
            ),
            _ => "Fix the arguments and call again.".into(),
        },
    }
}

/// The hint of a policy's refusal: the authorize command's own words, or what a person
/// must do about an untrusted config; none for a plain `deny` or `readOnly`.
pub(super) fn denied(refusal: &Refusal) -> Option<String> {
    Some(match (text(refusal, key::RULE), text(refusal, key::REASON)) {
        (Some("authorize"), Some(reason)) => match text(refusal, "config") {
            Some(config) if config != ".stitch/config.json" => format!(
                "Your own authorize command ({config}) said: {reason}. Change the request to satisfy it."
            ),
            _ => format!(
                "The workspace's authorize command said: {reason}. Change the request to satisfy it."
            ),
        },
        (Some("untrusted-config"), _) => "A person must review .stitch/config.json and, if they accept the command it runs, trust it with `stitch config trust` at a terminal (a model or a script cannot); then retry. Reads, lists and searches still work.".into(),
        _ => return None,
    })
}

/// The hint of an unusable config or state: who must fix what.
pub(super) fn invalid_config(refusal: &Refusal) -> String {
    match text(refusal, key::FIELD) {
        Some(state) if state.starts_with(".stitch") => format!(
            "The workspace owner must remove or replace `{state}` (stitch keeps its own state there); `stitch config check` shows the problem."
        ),
        _ => match text(refusal, key::PATH) {
            Some(own) if !own.starts_with(".stitch") => {
                format!("Fix your own config {own}; `stitch config check` shows the problem.")
            }
            _ => "The workspace owner must fix .stitch/config.json; `stitch config check` shows the problem.".into(),
        },
    }
}

/// The hint of an `INVALID_PATH`: the spelling to use, or the symlink to go around.
pub(super) fn invalid_path(refusal: &Refusal) -> String {
    match text(refusal, key::SUGGESTION) {
        Some(s) => format!("Use the path `{s}` instead."),
        None if refusal.detail(key::SYMLINK).is_some() => format!(
            "The symlink `{}` cannot be followed: use a path that does not go through it.",
            text(refusal, key::SYMLINK).unwrap_or_default()
        ),
        None => "Use a non-empty, workspace-relative path with `/` separators.".into(),
    }
}

/// The hint of an `INVALID_PATTERN`: a regex rewritten to run in linear time or to
/// compile smaller, a glob fixed, or a search made literal.
pub(super) fn invalid_pattern(refusal: &Refusal) -> String {
    match refusal.detail(key::REWRITE).and_then(Value::as_bool) {
        Some(true) => "Regexes run in linear time: rewrite without look-around or backreferences, or search literally.".into(),
        _ if matches!(text(refusal, key::FIELD), Some("pattern" | "include")) => {
            "Fix the glob (globset syntax: `*`, `**`, `?`, `[ab]`, `{a,b}`).".into()
        }
        _ if refusal.detail("limit").is_some() => "The regex compiles larger than a search may hold: use fewer or shorter repetitions (a smaller `{n}`), or search literally.".into(),
        _ => "Fix the pattern, or search literally (without regex).".into(),
    }
}
