//! A refusal as text, for stderr: `error[CODE]: message`, then the facts the hint refers
//! to — NO_MATCH's candidates with their line ranges and exact text, the lines an
//! ambiguous or miscounted snippet matched, NOT_FOUND's near names, the allowed fields of
//! an unknown one — then `hint: ...`. Rendered from the envelope, so text and JSON
//! callers are told the same facts.

use std::fmt::Write as _;

use serde_json::Value;

use crate::hint::Caller;
use crate::refusal::key;

/// The lines a refusal shows on stderr, each ending in a newline. Its facts are labelled
/// in the caller's `dialect`: by flags, the allowed list holds the command's arguments
/// and a repaired text is what `--new` takes.
pub fn render(envelope: &Value, dialect: Caller) -> String {
    let code = envelope["error"]
        .as_str()
        .unwrap_or("INTERNAL_SERVER_ERROR");
    let details = &envelope["details"];
    let message = details["message"].as_str().unwrap_or("internal error");
    let mut out = format!("error[{code}]: {message}\n");
    facts(&mut out, details, dialect);
    if let Some(hint) = envelope["_hint"].as_str() {
        let _ = writeln!(out, "hint: {hint}");
    }
    out
}

/// The facts in `details` that a hint may point at, one heading a line.
fn facts(out: &mut String, details: &Value, dialect: Caller) {
    if let Some(index) = details[key::EDIT_INDEX].as_u64() {
        let _ = writeln!(out, "in edits[{index}]");
    }
    // The repaired text is a hunk's new side in a patch, else what --new or newText takes.
    let repaired = match dialect {
        _ if details.get("hunkIndex").is_some() => "repaired new side of the hunk",
        Caller::Flags => "repaired --new",
        Caller::Json => "repaired newText",
    };
    for candidate in list(details, key::CANDIDATES) {
        candidate_lines(out, candidate, repaired);
    }
    let lines = joined(list(details, key::LINES));
    if !lines.is_empty() {
        match details.get(key::MORE_LINES).and_then(Value::as_u64) {
            Some(more) => {
                let _ = writeln!(out, "matched at lines: {lines} (and {more} more lines)");
            }
            None => {
                let _ = writeln!(out, "matched at lines: {lines}");
            }
        }
    }
    let near = joined(list(details, key::NEAR_NAMES));
    if !near.is_empty() {
        let _ = writeln!(out, "near names: {near}");
    }
    // SYNTAX_ERROR: the line and the caret under the error.
    if let (Some(excerpt), Some(line)) = (details["excerpt"].as_str(), details["line"].as_u64()) {
        let _ = writeln!(out, "at line {line}:");
        for text in excerpt.lines() {
            let _ = writeln!(out, "  {text}");
        }
    }
    let allowed = joined(list(details, key::ALLOWED));
    if !allowed.is_empty() {
        let what = match dialect {
            Caller::Flags => "arguments",
            Caller::Json => "fields",
        };
        let _ = writeln!(out, "allowed {what}: {allowed}");
    }
}

/// One NO_MATCH candidate: its line range and how it differs, then its exact text and
/// the repaired text where one is offered (under the label `repaired`), each verbatim
/// between fences of `~` (never re-indented), so a person can paste them back as they are.
fn candidate_lines(out: &mut String, candidate: &Value, repaired: &str) {
    let start = candidate["startLine"].as_u64().unwrap_or_default();
    let end = candidate["endLine"].as_u64().unwrap_or(start);
    let range = if start == end {
        format!("line {start}")
    } else {
        format!("lines {start}-{end}")
    };
    let difference = candidate["difference"].as_str().unwrap_or("content");
    let _ = write!(out, "candidate, {range} (differs in {difference}");
    if let Some(similarity) = candidate["similarity"].as_f64() {
        let _ = write!(out, ", similarity {similarity}");
    }
    out.push_str("):\n");
    fenced(out, candidate["text"].as_str().unwrap_or_default());
    if let Some(new) = candidate["newText"].as_str() {
        let _ = writeln!(out, "{repaired}:");
        fenced(out, new);
    }
}

/// `text` verbatim between two fence lines of `~`, longer than any run of `~` that opens
/// a line of it. A text that does not end in a newline says so after the fence.
fn fenced(out: &mut String, text: &str) {
    let longest = text
        .lines()
        .map(|l| l.len() - l.trim_start_matches('~').len())
        .max()
        .unwrap_or(0);
    let fence = "~".repeat(longest.max(2) + 1);
    let _ = writeln!(out, "{fence}");
    out.push_str(text);
    if !text.ends_with('\n') {
        out.push('\n');
    }
    let _ = writeln!(out, "{fence}");
    if !text.is_empty() && !text.ends_with('\n') {
        out.push_str("(no newline at the end)\n");
    }
}

/// The array at `details[key]`, or nothing.
fn list<'a>(details: &'a Value, key: &str) -> &'a [Value] {
    details[key].as_array().map_or(&[], Vec::as_slice)
}

/// Numbers and strings joined with `, `.
fn joined(values: &[Value]) -> String {
    values
        .iter()
        .map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}
