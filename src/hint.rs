//! Hints: the one next step most likely to succeed, composed from a refusal's code and
//! facts at the envelope boundary.
//!
//! Lower layers never write hints; they state facts. Keeping every remedy here means the
//! same code always gets the same advice, and the docs can quote it from one place.

use serde_json::Value;

use crate::refusal::{key, Code, Refusal};

/// The remedy for `STALE_VERSION`, quoted verbatim by the docs.
pub const REREAD: &str = "Re-read the file, then retry";
/// The remedy for `NOT_OBSERVED`, quoted verbatim by the docs.
pub const READ_FIRST: &str = "Read the file, then retry";

fn text<'a>(refusal: &'a Refusal, key: &str) -> Option<&'a str> {
    refusal.detail(key).and_then(Value::as_str)
}

/// The hint for a refusal, or `None` where no action of the caller can help.
#[must_use]
pub fn compose(refusal: &Refusal) -> Option<String> {
    let path = text(refusal, key::PATH).unwrap_or("the file");
    let hint = match refusal.code() {
        Code::InvalidArgument => match text(refusal, key::FIELD) {
            Some("root") => "Pass --root (or STITCH_ROOT) naming an existing directory.".into(),
            Some(field) => format!("Fix the `{field}` argument and call again."),
            None => "Fix the arguments and call again.".into(),
        },
        Code::InvalidPath => match text(refusal, key::SUGGESTION) {
            Some(s) => format!("Use the path `{s}` instead."),
            None if refusal.detail(key::SYMLINK).is_some() => format!(
                "The symlink `{}` cannot be followed: use a path that does not go through it.",
                text(refusal, key::SYMLINK).unwrap_or_default()
            ),
            None => "Use a non-empty, workspace-relative path with `/` separators.".into(),
        },
        Code::InvalidPattern => match refusal.detail(key::REWRITE).and_then(Value::as_bool) {
            Some(true) => "Regexes run in linear time: rewrite without look-around or backreferences, or search literally.".into(),
            _ if matches!(text(refusal, key::FIELD), Some("pattern" | "include")) => {
                "Fix the glob (globset syntax: `*`, `**`, `?`, `[ab]`, `{a,b}`).".into()
            }
            _ => "Fix the pattern, or search literally (without regex).".into(),
        },
        Code::OutsideRoot => match text(refusal, key::INSIDE_TARGET) {
            Some(inside) => format!("The link's target is inside the workspace: use `{inside}`."),
            None => "Use a path inside the workspace.".into(),
        },
        Code::NotFound => match refusal
            .detail(key::NEAR_NAMES)
            .and_then(Value::as_array)
            .and_then(|names| names.first())
            .and_then(Value::as_str)
        {
            Some(near) => format!("Did you mean `{near}`? Otherwise list the parent directory."),
            None => match text(refusal, key::OPERATION) {
                Some("edit") => "Create the file with write_file, or list the parent directory.".into(),
                _ => "List the parent directory to see what exists.".into(),
            },
        },
        Code::NotAFile => format!("`{path}` is not a regular file: list it instead."),
        Code::NotADirectory => match text(refusal, key::NOT_A_DIRECTORY) {
            Some(file) => format!("`{file}` is a file: pick a path whose parent components are directories."),
            None => format!("`{path}` is a file: read it with read_file, or list its parent directory."),
        },
        Code::AlreadyExists => format!(
            "Read `{path}` and pass overwrite: true (or its sha256 as expectedSha256), or change it with edit_file."
        ),
        Code::Denied => match (text(refusal, key::RULE), text(refusal, key::REASON)) {
            (Some("authorize"), Some(reason)) => format!(
                "The workspace's authorize command said: {reason}. Change the request to satisfy it."
            ),
            _ => return None,
        },
        Code::NotText => format!(
            "`{path}` cannot be read or edited as text; to replace it whole, use write_file with its sha256 as expectedSha256."
        ),
        Code::TooLarge => match text(refusal, key::FIELD) {
            Some("oldText" | "newText") => "Edit a smaller part of the file at a time: shorten oldText and newText.".into(),
            Some("stdin") => "Send one JSON object holding only the arguments; pass large text with --from FILE, or split the work.".into(),
            Some("content") => "Split the content into smaller files.".into(),
            Some("result") => "Make the edit smaller, or split the file first.".into(),
            _ => format!(
                "`{path}` is over the workspace's maxFileBytes: work on smaller files, or ask the workspace owner to raise limits.maxFileBytes."
            ),
        },
        Code::NoMatch => {
            if refusal.detail(key::ALREADY_APPLIED) == Some(&Value::Bool(true)) {
                "newText is already in the file, so the edit may be applied already: re-read the file to confirm; otherwise copy a candidate's text exactly as oldText.".into()
            } else if refusal
                .detail(key::CANDIDATES)
                .and_then(Value::as_array)
                .is_some_and(|c| !c.is_empty())
            {
                "Copy the candidate's text exactly as oldText and retry.".into()
            } else {
                format!("Re-read `{path}` and copy oldText exactly from it.")
            }
        }
        Code::AmbiguousMatch => {
            "Add surrounding lines to oldText until it matches once, or pass replaceAll: true.".into()
        }
        Code::MatchCountMismatch => {
            "Check the count: re-read the file, then set expectedReplacements to the number of matches you intend.".into()
        }
        Code::StaleVersion => format!("{REREAD}."),
        Code::NotObserved => format!("{READ_FIRST}."),
        Code::InvalidConfig => match text(refusal, key::FIELD) {
            Some(state) if state.starts_with(".stitch") => format!(
                "The workspace owner must remove or replace `{state}` (stitch keeps its own state there); `stitch config check` shows the problem."
            ),
            _ => "The workspace owner must fix .stitch/config.json; `stitch config check` shows the problem.".into(),
        },
        Code::Busy => "Another call holds the lock: retry in a moment.".into(),
    };
    Some(hint)
}
