//! Hints: the one next step most likely to succeed, composed from a refusal's code and
//! facts at the envelope boundary.
//!
//! Lower layers never write hints; they state facts. Keeping every remedy here means the
//! same code always gets the same advice, and the docs can quote it from one place.

use serde_json::Value;

use crate::names;
use crate::refusal::{key, Code, Refusal};

mod arguments;
pub mod codes;
mod dialect;
mod files;
mod landed;
mod syntax;

use arguments::{denied, invalid_argument, invalid_config, invalid_path, invalid_pattern};
pub use dialect::{cut, flag, Caller, Narrow};
use files::{already_exists, busy, not_found, not_observed, too_large, undo_moved_on};
pub use landed::landed_hint;

/// The remedy for `STALE_VERSION`, quoted verbatim by the docs.
pub const REREAD: &str = "Re-read the file, then retry";
/// The remedy for `NOT_OBSERVED`, quoted verbatim by the docs.
pub const READ_FIRST: &str = "Read the file, then retry";

/// Up to this many matches, an `AMBIGUOUS_MATCH` hint offers replacing them all as an
/// equal way out; past it, the hint leads with lengthening the snippet.
const AMBIGUOUS_HANDFUL: u64 = 5;
/// A refusal as the caller reads it, in `dialect`: `error`, `details` (the message first,
/// then the facts) and `_hint` when one helps — the envelope's keys after `ok`, and what a
/// result that answers for several files carries for each one refused.
#[must_use]
pub fn refusal_fields(refusal: &Refusal, dialect: Caller) -> serde_json::Map<String, Value> {
    let mut details = serde_json::Map::new();
    details.insert(
        "message".into(),
        Value::String(in_dialect(refusal.message(), dialect, &refusal.named())),
    );
    for (key, value) in refusal.details() {
        details.insert(key.clone(), value.clone());
    }
    let mut fields = serde_json::Map::new();
    fields.insert(
        "error".into(),
        Value::String(refusal.code().as_str().into()),
    );
    fields.insert("details".into(), Value::Object(details));
    if let Some(hint) = compose(refusal, dialect) {
        fields.insert("_hint".into(), Value::String(hint));
    }
    fields
}

fn text<'a>(refusal: &'a Refusal, key: &str) -> Option<&'a str> {
    refusal.detail(key).and_then(Value::as_str)
}

/// The hint for a refusal, in the caller's dialect, or `None` where no action of the
/// caller can help.
#[must_use]
pub fn compose(refusal: &Refusal, dialect: Caller) -> Option<String> {
    let path = text(refusal, key::PATH).unwrap_or("the file");
    let (d, tool) = (dialect, |name| dialect.tool(name));
    let hint = match refusal.code() {
        Code::InvalidArgument => invalid_argument(refusal, d),
        Code::InvalidPath => invalid_path(refusal),
        Code::InvalidPattern => invalid_pattern(refusal),
        Code::OutsideRoot => match text(refusal, key::INSIDE_TARGET) {
            Some(inside) => format!("The link's target is inside the workspace: use `{inside}`."),
            None => "Use a path inside the workspace.".into(),
        },
        Code::NotFound => not_found(refusal, d, path),
        // A patch's deletion or move of a link: the tools that act on the link itself.
        Code::NotAFile if refusal.detail(key::SYMLINK).is_some() => format!(
            "To remove or rename the link `{path}` itself, use {} or {}; to change the file it leads to, name that file in the patch.",
            tool(names::DELETE_FILE),
            tool(names::MOVE_FILE)
        ),
        Code::NotAFile => format!("`{path}` is not a regular file: list it instead."),
        Code::NotADirectory => match text(refusal, key::NOT_A_DIRECTORY) {
            Some(file) => format!("`{file}` is a file: pick a path whose parent components are directories."),
            None => format!("`{path}` is a file: read it with {}, or list its parent directory.", tool(names::READ_FILE)),
        },
        Code::AlreadyExists => already_exists(refusal, d, path),
        Code::Denied => denied(refusal)?,
        Code::InvalidPatch => invalid_patch(refusal),
        Code::NotText => format!(
            "`{path}` cannot be read or edited as text; to replace it whole, use {} with its sha256 as {}.",
            tool(names::WRITE_FILE),
            d.name(key::EXPECTED_SHA256)
        ),
        Code::TooLarge => too_large(refusal, d, path),
        Code::NoMatch => no_match(refusal, d, path),
        Code::AmbiguousMatch => ambiguous_match(refusal, d),
        Code::MatchCountMismatch => format!(
            "Check the count: re-read the file, then set {} to the number of matches you intend.",
            d.name("expectedReplacements")
        ),
        // Reading never changes what an undo found: it names the way out instead.
        Code::StaleVersion if text(refusal, key::OPERATION) == Some("undo") => {
            undo_moved_on(refusal, d)
        }
        Code::StaleVersion if refusal.detail("expectedLine").is_some() => unexpected_line(refusal, d, path),
        Code::StaleVersion => format!("{REREAD}."),
        Code::NotObserved => not_observed(refusal, d),
        Code::InvalidConfig => invalid_config(refusal),
        Code::SyntaxError => syntax::syntax_error(refusal, d),
        Code::Busy => busy(refusal, path),
    };
    Some(hint)
}

/// A refusal's sentence in the caller's dialect: by flags, the JSON field names it uses
/// (`oldText`, `replaceAll`) become their flags (`--old`, `--replace-all`), and so do the
/// plain-word fields it names (`named`: `limit`, `offset`, `overwrite`, which read as
/// English too, so only where the refusal says the word is its argument). Only names
/// with a flag are touched, never one already after a `-` (`--json`), and nothing
/// between backticks, where the sentence quotes the caller's own values.
#[must_use]
pub fn in_dialect(message: &str, dialect: Caller, named: &[&str]) -> String {
    if dialect == Caller::Json {
        return message.to_owned();
    }
    let mut out = String::with_capacity(message.len() + 16);
    let mut quoted = false;
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String, quoted: bool| {
        let camel = word.starts_with(|c: char| c.is_ascii_lowercase())
            && word.chars().any(|c| c.is_ascii_uppercase());
        let after_dash = out.ends_with('-');
        match flag(word).filter(|f| {
            (camel || named.contains(&word.as_str()))
                && !quoted
                && !after_dash
                && f.starts_with("--")
        }) {
            Some(spelled) => out.push_str(spelled),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in message.chars() {
        if c.is_ascii_alphanumeric() {
            word.push(c);
            continue;
        }
        flush(&mut word, &mut out, quoted);
        if c == '`' {
            quoted = !quoted;
        }
        out.push(c);
    }
    flush(&mut word, &mut out, quoted);
    out
}

/// The hint of a patch that does not parse: the line to fix, of the patch or — for a
/// Responses API operation — of its `diff`, whose lines are numbered within it.
fn invalid_patch(refusal: &Refusal) -> String {
    match (
        refusal.detail("patchLine").and_then(Value::as_u64),
        text(refusal, key::FIELD),
    ) {
        (Some(line), Some(field)) => format!(
            "Fix line {line} of `{field}` as details.expected says, and send the call again."
        ),
        (Some(line), None) => format!(
            "Fix line {line} of the patch as details.expected says, and send the whole patch again."
        ),
        (None, _) => "Fix the patch and send it again.".into(),
    }
}

/// The detail of a refusal about one hunk of a patch: its 0-based index in its file.
const HUNK_INDEX: &str = "hunkIndex";

/// The hint of an `AMBIGUOUS_MATCH`: a hunk's old side, or an edit's `oldText`, made to
/// match once.
fn ambiguous_match(refusal: &Refusal, d: Caller) -> String {
    if refusal.detail(HUNK_INDEX).is_some() {
        return "Add context lines to the hunk (in a Codex patch, or an `@@ ANCHOR` line before it) until its old side matches once.".into();
    }
    // Past a handful of matches, replacing them all is rarely what was meant: the
    // hint leads with the longer snippet and names the count replaceAll would change.
    match refusal.detail(key::OCCURRENCES).and_then(Value::as_u64) {
        Some(count) if count > AMBIGUOUS_HANDFUL => format!(
            "{} matches {count} times, so it is too short to place: add surrounding lines to it until it matches once ({} would change all {count}).",
            d.name("oldText"),
            d.switch("replaceAll")
        ),
        _ => format!(
            "Add surrounding lines to {} until it matches once, or pass {}.",
            d.name("oldText"),
            d.switch("replaceAll")
        ),
    }
}

/// The hint of an edit whose `oldText` is not in the file: accept an edit already
/// applied, copy a candidate, or re-read.
fn no_match(refusal: &Refusal, d: Caller, path: &str) -> String {
    let (old, new) = (d.name("oldText"), d.name("newText"));
    if text(refusal, key::REASON) == Some(key::PARTLY_APPLIED) {
        return partly_applied(refusal);
    }
    if refusal.detail(HUNK_INDEX).is_some() {
        return hunk_no_match(refusal, d, path);
    }
    let first = refusal
        .detail(key::CANDIDATES)
        .and_then(Value::as_array)
        .and_then(|c| c.first());
    if let Some(moved) = refusal.detail(key::MOVED_ON) {
        let lines = match (moved.get("startLine"), moved.get("endLine")) {
            (Some(a), Some(b)) if a == b => format!("line {a}"),
            (Some(a), Some(b)) => format!("lines {a}-{b}"),
            _ => "the passage".to_owned(),
        };
        let differ = if lines.starts_with("lines") {
            "differ"
        } else {
            "differs"
        };
        return format!(
            "`{path}` moved on since {old} was read: {old} quotes an earlier version, and {lines} now {differ}. Re-read {lines} and write both {old} and {new} again from today's text."
        );
    }
    if let Some(id) = refusal.detail(key::APPLIED_BY).and_then(Value::as_str) {
        return format!(
            "The edit is already applied: change {id} made it, and `{path}` is still at its result. Pass {} to accept that (nothing changes).",
            d.switch("okIfApplied")
        );
    }
    if refusal.detail(key::ALREADY_APPLIED) == Some(&Value::Bool(true)) {
        // Otherwise the repaired call, where one is offered: never the candidate's text
        // with the caller's own newText, which may carry the caller's mistake.
        let otherwise = if first.is_some_and(|c| c.get("newText").is_some()) {
            format!("retry with {old} = candidates[0].text and {new} = candidates[0].newText")
        } else {
            format!("re-read the passage and write both {old} and {new} again from it")
        };
        format!(
            "{new} is already in the file, once and where {old} would stand, so the edit may be applied already: re-read the file to confirm (or pass {} to accept that); otherwise {otherwise}.",
            d.switch("okIfApplied")
        )
    } else if let Some(first) = first {
        let several = match d {
            Caller::Flags => " (--old-from and --new-from FILE for several lines)",
            Caller::Json => "",
        };
        if first.get("newText").is_some() {
            // By flags, the repaired text is what `--new` takes (the text style shows it
            // as "repaired --new"); in JSON it is the candidate's `newText`.
            let carried = match d {
                Caller::Flags => "that repaired --new",
                Caller::Json => "that newText",
            };
            format!(
                "Retry with {old} = candidates[0].text and {new} = candidates[0].newText{several}: {carried} is your change carried onto the file's text."
            )
        } else {
            let lines = match (first.get("startLine"), first.get("endLine")) {
                (Some(a), Some(b)) if a == b => format!("line {a}"),
                (Some(a), Some(b)) => format!("lines {a}-{b}"),
                _ => "the passage".to_owned(),
            };
            format!(
                "Your change could not be carried onto the file's text without doubt: re-read {lines} of `{path}` and write both {old} and {new} again from it."
            )
        }
    } else {
        format!("Re-read `{path}` and copy {old} exactly from it.")
    }
}

/// The hint of a hunk of a patch whose old side is not in the file: the patch is
/// rewritten, in any dialect, so neither `oldText` nor `--old` is named.
fn hunk_no_match(refusal: &Refusal, d: Caller, path: &str) -> String {
    match text(refusal, "difference") {
        Some("anchor") => return wrong_anchor(refusal),
        Some("order") => return format!(
            "Put the hunks of `{path}` in the order their lines come in the file (this hunk's old side is at line {}), and send the patch again.",
            refusal
                .detail(key::LINES)
                .and_then(|l| l.get(0))
                .unwrap_or(&Value::Null)
        ),
        _ => {}
    }
    if refusal.detail(key::ALREADY_APPLIED) == Some(&Value::Bool(true)) {
        return format!(
            "The hunk's new side is already in `{path}` where its old side would be, so the patch may be applied already: re-read the file to confirm (or pass {} to accept that); otherwise rewrite the hunk's old and new sides from the file's text.",
            d.switch("okIfApplied")
        );
    }
    if text(refusal, key::OPERATION) == Some("delete") {
        return format!(
            "Re-read `{path}`: it is not what the deletion's hunk says it holds, and may hold newer work. Delete it only if you still mean to, with its whole content as the hunk's `-` lines."
        );
    }
    let first = refusal
        .detail(key::CANDIDATES)
        .and_then(Value::as_array)
        .and_then(|c| c.first());
    match first {
        Some(first) if first.get("newText").is_some() => "Rewrite the hunk from the file's text and send the patch again: its old side (context and `-` lines) from candidates[0].text, its new side (context and `+` lines) from candidates[0].newText, which is your change carried onto the file's text.".into(),
        Some(first) => {
            let lines = match (first.get("startLine"), first.get("endLine")) {
                (Some(a), Some(b)) if a == b => format!("line {a}"),
                (Some(a), Some(b)) => format!("lines {a}-{b}"),
                _ => "the passage".to_owned(),
            };
            format!(
                "Your change could not be carried onto the file's text without doubt: re-read {lines} of `{path}` and write the hunk's old and new sides again from it."
            )
        }
        None => format!(
            "Re-read `{path}` and write the hunk's old side (its context and `-` lines) exactly as the file has it."
        ),
    }
}

/// The hint of an `okIfApplied` change found applied in part: send it again without what
/// is there already (whole changes, and hunks of one); the rest applies.
fn partly_applied(refusal: &Refusal) -> String {
    let listed = |value: Option<&Value>| -> Vec<String> {
        value
            .and_then(Value::as_array)
            .map(|a| a.iter().map(ToString::to_string).collect())
            .unwrap_or_default()
    };
    let mut done = Vec::new();
    let changes = listed(refusal.detail("appliedChanges"));
    if !changes.is_empty() {
        done.push(format!("changes {}", changes.join(", ")));
    }
    if let Some(hunks) = refusal.detail("appliedHunks") {
        done.push(format!(
            "hunks {} of change {}",
            listed(hunks.get("hunks")).join(", "),
            hunks.get(key::CHANGE_INDEX).unwrap_or(&Value::Null)
        ));
    }
    format!(
        "Send the change again without what is applied already ({}, counted from 0 in the order given): the rest applies as it is.",
        done.join(" and ")
    )
}

/// The hint of a Codex chunk whose lines are in the file but whose `@@ ANCHOR` line is
/// not: change the anchor to the file's line most like it, or drop it when the lines
/// match once — never rewrite the chunk's lines, which are right.
fn wrong_anchor(refusal: &Refusal) -> String {
    let lines: Vec<u64> = refusal
        .detail(key::LINES)
        .and_then(Value::as_array)
        .map(|l| l.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let nearest = refusal.detail(key::NEAREST_ANCHOR).and_then(|n| {
        Some((
            n.get("line")?.as_u64()?,
            n.get("text")?.as_str()?.to_owned(),
        ))
    });
    match (lines.as_slice(), nearest) {
        ([at], Some((line, anchor))) => format!(
            "Only the chunk's `@@` line is wrong: make it `@@ {anchor}` (line {line} of the file), or drop the anchor (a bare `@@`): the chunk's lines match once, at line {at}. Send the patch again."
        ),
        ([at], None) => format!(
            "Only the chunk's `@@` line is wrong: drop the anchor (a bare `@@`), since the chunk's lines match once, at line {at}, and send the patch again."
        ),
        (_, Some((line, anchor))) => format!(
            "Only the chunk's `@@` line is wrong: make it `@@ {anchor}` (line {line} of the file), the line before the place you mean, and send the patch again."
        ),
        (_, None) => "The chunk's `@@` line is not in the file: make it a line of the file that comes before the place you mean, or add context lines until the chunk matches once, and send the patch again.".into(),
    }
}

/// The hint of an insert whose `expectedLine` is not what its line holds now: read the
/// lines around it, then name the line meant.
fn unexpected_line(refusal: &Refusal, d: Caller, path: &str) -> String {
    let line = refusal.detail("line").and_then(Value::as_u64).unwrap_or(1);
    let actual = text(refusal, "actualLine").unwrap_or_default();
    let from = line.saturating_sub(3).max(1);
    let read = match d {
        Caller::Flags => format!(
            "stitch read {} --offset {from} --limit 7",
            dialect::shell_word(path)
        ),
        Caller::Json => format!(
            "{} {{\"path\": {}, \"offset\": {from}, \"limit\": 7}}",
            names::READ_FILE,
            Value::String(path.to_owned())
        ),
    };
    format!(
        "Line {line} of `{path}` now holds {actual:?}: read the lines around it (`{read}`), then call again with the {} and {} of the line you mean.",
        d.name("insertAfter"),
        d.name("expectedLine")
    )
}

#[cfg(test)]
mod tests {
    use super::{in_dialect, Caller};

    #[test]
    fn a_sentence_by_flags_names_flags_but_not_inside_quotes() {
        assert_eq!(
            in_dialect(
                "oldText appears 2 times in `oldText.txt`, but expectedReplacements is 3",
                Caller::Flags,
                &[]
            ),
            "--old appears 2 times in `oldText.txt`, but --expected-replacements is 3"
        );
        // A field with no flag, and plain words, stay as they are; JSON is untouched.
        assert_eq!(
            in_dialect("edits[1] needs the field path", Caller::Flags, &["path"]),
            "edits[1] needs the field path"
        );
        assert_eq!(
            in_dialect("oldText is empty", Caller::Json, &[]),
            "oldText is empty"
        );
    }

    /// A plain-word field is spelled as its flag only where the refusal names it; a
    /// word already after a dash is a flag.
    #[test]
    fn a_named_plain_word_is_spelled_as_its_flag() {
        assert_eq!(
            in_dialect(
                "limit 9 is out of range: the limit must be from 1 to 5",
                Caller::Flags,
                &["limit"]
            ),
            "--limit 9 is out of range: the --limit must be from 1 to 5"
        );
        assert_eq!(
            in_dialect("offset 9 is past the end", Caller::Flags, &[]),
            "offset 9 is past the end"
        );
        assert_eq!(
            in_dialect("got both flags and --json", Caller::Flags, &["json"]),
            "got both flags and --json"
        );
        assert_eq!(
            in_dialect(
                "`a` exists and overwrite was not set",
                Caller::Json,
                &["overwrite"]
            ),
            "`a` exists and overwrite was not set"
        );
    }
}
