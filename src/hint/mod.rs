//! Hints: the one next step most likely to succeed, composed from a refusal's code and
//! facts at the envelope boundary.
//!
//! Lower layers never write hints; they state facts. Keeping every remedy here means the
//! same code always gets the same advice, and the docs can quote it from one place.

use serde_json::Value;

use crate::names;
use crate::refusal::{key, Code, Refusal};

pub mod codes;
mod dialect;
mod landed;
mod syntax;

pub use dialect::{cut, flag, Dialect, Narrow};
pub use landed::landed_hint;

/// The remedy for `STALE_VERSION`, quoted verbatim by the docs.
pub const REREAD: &str = "Re-read the file, then retry";
/// The remedy for `NOT_OBSERVED`, quoted verbatim by the docs.
pub const READ_FIRST: &str = "Read the file, then retry";
/// `details.reason` of JSON arguments whose string holds a raw newline, tab or other
/// control character.
pub const RAW_CONTROL: &str = "rawControlCharacter";

/// Up to this many matches, an `AMBIGUOUS_MATCH` hint offers replacing them all as an
/// equal way out; past it, the hint leads with lengthening the snippet.
const AMBIGUOUS_HANDFUL: u64 = 5;
/// A refusal as the caller reads it, in `dialect`: `error`, `details` (the message first,
/// then the facts) and `_hint` when one helps — the envelope's keys after `ok`, and what a
/// result that answers for several files carries for each one refused.
#[must_use]
pub fn refusal_fields(refusal: &Refusal, dialect: Dialect) -> serde_json::Map<String, Value> {
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
pub fn compose(refusal: &Refusal, dialect: Dialect) -> Option<String> {
    let path = text(refusal, key::PATH).unwrap_or("the file");
    let (d, tool) = (dialect, |name| dialect.tool(name));
    let hint = match refusal.code() {
        Code::InvalidArgument => invalid_argument(refusal, d),
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
            _ if refusal.detail("limit").is_some() => "The regex compiles larger than a search may hold: use fewer or shorter repetitions (a smaller `{n}`), or search literally.".into(),
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
            Some(near) if text(refusal, key::OPERATION) == Some("edit") => format!(
                "Did you mean `{near}`? If `{path}` is a new file, create it with {} instead.",
                tool("write_file")
            ),
            Some(near) => format!("Did you mean `{near}`? Otherwise list the parent directory."),
            None => match text(refusal, key::OPERATION) {
                Some("edit") => format!("Create the file with {}, or list the parent directory.", tool(names::WRITE_FILE)),
                Some("undo" | "show") => format!("List the changes there are with {}.", tool(names::LIST_CHANGES)),
                _ => "List the parent directory to see what exists.".into(),
            },
        },
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
            d.name("expectedSha256")
        ),
        Code::TooLarge => too_large(refusal, d, path),
        Code::NoMatch => no_match(refusal, d, path),
        Code::AmbiguousMatch if refusal.detail(HUNK_INDEX).is_some() => {
            "Add context lines to the hunk (in a Codex patch, or an `@@ ANCHOR` line before it) until its old side matches once.".into()
        }
        // Past a handful of matches, replacing them all is rarely what was meant: the
        // hint leads with the longer snippet and names the count replaceAll would change.
        Code::AmbiguousMatch => match refusal.detail(key::OCCURRENCES).and_then(Value::as_u64) {
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
        },
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
        // A server at its bound on concurrent calls says how many; a lock wait does not.
        Code::Busy if refusal.detail("limit").is_some() => {
            "The server is running as many calls as it takes at once: retry when one has answered.".into()
        }
        Code::Busy if text(refusal, key::REASON) == Some(key::CHANGED_WHILE_READ) => format!(
            "Another program is rewriting `{path}`: retry once it has finished."
        ),
        Code::Busy if text(refusal, key::REASON) == Some(key::OUT_OF_TIME) => "The change could not be made in the time stitch may hold its files' locks: retry when the machine is less busy, or send it as several smaller patches.".into(),
        Code::Busy => "Another call holds the lock: retry in a moment.".into(),
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
pub fn in_dialect(message: &str, dialect: Dialect, named: &[&str]) -> String {
    if dialect == Dialect::Json {
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

/// The hint of a change onto a file that exists: write_file's and move_file's remedy,
/// or apply_patch's own ways out.
fn already_exists(refusal: &Refusal, d: Dialect, path: &str) -> String {
    if refusal.detail(key::CHANGE_INDEX).is_some() {
        return apply_exists(refusal, d, path);
    }
    format!(
        "Read `{path}` and pass {} (or its sha256 as {}), or change it with {}.",
        d.switch("overwrite"),
        d.name("expectedSha256"),
        d.tool(names::EDIT_FILE)
    )
}

/// The hint of an apply_patch change onto a file that exists: apply's own ways out,
/// never a flag apply does not take. A patch changes an existing file by updating it
/// (`*** Update File:`, a diff against it), and replaces one only by a `changes` item
/// that says `overwrite: true` — by flags, sent to `stitch apply --json`.
fn apply_exists(refusal: &Refusal, d: Dialect, path: &str) -> String {
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
        Dialect::Json => format!("send changes: [{item}] instead"),
        Dialect::Flags => {
            format!("send {{\"changes\": [{item}]}} on stdin to `stitch apply --json`")
        }
    };
    if moved {
        format!("`{path}` exists: move the file to a path that is free, or, to replace `{path}`, {replace}.")
    } else {
        format!("`{path}` exists: change it with `*** Update File: {path}` (or a diff against it) instead of adding it, or, to replace it whole, {replace}.")
    }
}

/// The hint of a policy's refusal: the authorize command's own words, or what a person
/// must do about an untrusted config; none for a plain `deny` or `readOnly`.
fn denied(refusal: &Refusal) -> Option<String> {
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
fn invalid_config(refusal: &Refusal) -> String {
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

/// The detail of a refusal about one hunk of a patch: its 0-based index in its file.
const HUNK_INDEX: &str = "hunkIndex";

/// The next step past an undo refused because its files moved on: the later changes to
/// take back first, when the journal names them; never "re-read", which changes nothing.
fn undo_moved_on(refusal: &Refusal, d: Dialect) -> String {
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
fn not_observed(refusal: &Refusal, d: Dialect) -> String {
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
fn too_large(refusal: &Refusal, d: Dialect, path: &str) -> String {
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

/// The hint of an edit whose `oldText` is not in the file: accept an edit already
/// applied, copy a candidate, or re-read.
fn no_match(refusal: &Refusal, d: Dialect, path: &str) -> String {
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
            Dialect::Flags => " (--old-from and --new-from FILE for several lines)",
            Dialect::Json => "",
        };
        if first.get("newText").is_some() {
            // By flags, the repaired text is what `--new` takes (the text style shows it
            // as "repaired --new"); in JSON it is the candidate's `newText`.
            let carried = match d {
                Dialect::Flags => "that repaired --new",
                Dialect::Json => "that newText",
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
fn hunk_no_match(refusal: &Refusal, d: Dialect, path: &str) -> String {
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
fn unknown(refusal: &Refusal, field: &str, d: Dialect) -> bool {
    if d == Dialect::Flags {
        return false;
    }
    let names = allowed(refusal);
    let name = field.rsplit('.').next().unwrap_or(field);
    !names.is_empty() && !names.contains(&field) && !names.contains(&name)
}

/// The hint of an `INVALID_ARGUMENT`: the named field, spelled as the caller spells it.
fn invalid_argument(refusal: &Refusal, d: Dialect) -> String {
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
        Some("stdin") if text(refusal, key::REASON) == Some(RAW_CONTROL) => {
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
                (Dialect::Flags, Some(flag)) => flag,
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

/// The hint of an insert whose `expectedLine` is not what its line holds now: read the
/// lines around it, then name the line meant.
fn unexpected_line(refusal: &Refusal, d: Dialect, path: &str) -> String {
    let line = refusal.detail("line").and_then(Value::as_u64).unwrap_or(1);
    let actual = text(refusal, "actualLine").unwrap_or_default();
    let from = line.saturating_sub(3).max(1);
    let read = match d {
        Dialect::Flags => format!(
            "stitch read {} --offset {from} --limit 7",
            dialect::shell_word(path)
        ),
        Dialect::Json => format!(
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
    use super::{in_dialect, Dialect};

    #[test]
    fn a_sentence_by_flags_names_flags_but_not_inside_quotes() {
        assert_eq!(
            in_dialect(
                "oldText appears 2 times in `oldText.txt`, but expectedReplacements is 3",
                Dialect::Flags,
                &[]
            ),
            "--old appears 2 times in `oldText.txt`, but --expected-replacements is 3"
        );
        // A field with no flag, and plain words, stay as they are; JSON is untouched.
        assert_eq!(
            in_dialect("edits[1] needs the field path", Dialect::Flags, &["path"]),
            "edits[1] needs the field path"
        );
        assert_eq!(
            in_dialect("oldText is empty", Dialect::Json, &[]),
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
                Dialect::Flags,
                &["limit"]
            ),
            "--limit 9 is out of range: the --limit must be from 1 to 5"
        );
        assert_eq!(
            in_dialect("offset 9 is past the end", Dialect::Flags, &[]),
            "offset 9 is past the end"
        );
        assert_eq!(
            in_dialect("got both flags and --json", Dialect::Flags, &["json"]),
            "got both flags and --json"
        );
        assert_eq!(
            in_dialect(
                "`a` exists and overwrite was not set",
                Dialect::Json,
                &["overwrite"]
            ),
            "`a` exists and overwrite was not set"
        );
    }
}
