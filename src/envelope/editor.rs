//! The answers of `stitch text-editor`, in the words Anthropic's text-editor tool uses:
//! what a harness puts in the `tool_result` as it is. In text, exactly that text on
//! stdout (exit 0, or 1 for a refusal); in JSON, the envelope with `data.text` (a
//! refusal's envelope carries it as `details.text`).
//!
//! The shapes follow the tool's documentation
//! (<https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/text-editor-tool>): `view`
//! numbers each line as `N: text`; the documented errors open with their own sentences
//! ("Error: File not found", "Error: Found 3 matches for replacement text. Please provide
//! more context to make a unique match.", "Error: No match found for replacement. Please
//! check your text and try again."), followed here by stitch's facts and hint, with the
//! tool's parameters named as the tool names them.

use std::fmt::Write as _;

use serde_json::{json, Map, Value};

use super::{render, write_raw, write_stdout, EXIT_INTERNAL, EXIT_OK, EXIT_REFUSED};
use crate::hint::Caller;
use crate::refusal::{Failure, Outcome};
use crate::tool::Output;

/// A command a stitch tool served.
#[derive(Debug)]
pub struct Answered {
    /// The text-editor command (`view`, `create`, ...).
    pub command: String,
    /// The path as the command named it.
    pub path: String,
    /// The stitch tool that served it.
    pub tool: &'static str,
    pub output: Output,
    /// `view`: the first line shown; `insert`: the line the text went after.
    pub line: u64,
    /// `view`: the last line the range asked for (`None`: to the end).
    pub until: Option<u64>,
}

/// Writes the answer to one command and returns the exit status.
#[must_use]
pub fn emit(outcome: Outcome<Answered>, text: bool, pretty: bool) -> u8 {
    let (envelope, answer, status) = match outcome {
        Ok(answered) => {
            let answer = success(&answered);
            let result = render(&Ok(answered.output), Caller::Json).0;
            let mut data = Map::new();
            data.insert("text".into(), Value::String(answer.clone()));
            data.insert("tool".into(), Value::String(answered.tool.into()));
            data.insert("result".into(), result["data"].clone());
            (json!({"ok": true, "data": data}), answer, EXIT_OK)
        }
        Err(failure) => {
            let internal = matches!(failure, Failure::Internal(_));
            let (mut envelope, status) = render(&Err(failure), Caller::Json);
            let answer = refusal(&envelope);
            envelope["details"]["text"] = Value::String(answer.clone());
            // In text, what the tool_result carries and 1 (the harness's is_error); in
            // JSON, the envelope's own status.
            let status = match (text, internal) {
                (_, true) => EXIT_INTERNAL,
                (true, false) => EXIT_REFUSED,
                (false, false) => status,
            };
            (envelope, answer, status)
        }
    };
    if text {
        write_raw(answer.as_bytes());
        if !answer.ends_with('\n') {
            write_raw(b"\n");
        }
    } else if pretty {
        write_stdout(&serde_json::to_string_pretty(&envelope).unwrap_or_default());
    } else {
        write_stdout(&envelope.to_string());
    }
    status
}

/// The text of a command that succeeded.
fn success(a: &Answered) -> String {
    match &a.output {
        Output::Read(r) => {
            let mut out = String::new();
            for (i, line) in r.content.split_inclusive('\n').enumerate() {
                let line = line.trim_end_matches('\n').trim_end_matches('\r');
                let _ = writeln!(out, "{}: {line}", a.line + i as u64);
            }
            if r.content.is_empty() {
                let _ = writeln!(out, "(`{}` is empty)", a.path);
            }
            let asked_more = a.until.is_none_or(|until| r.end_line < until);
            if let Some(next) = r.next_offset.filter(|_| asked_more) {
                let _ = writeln!(
                    out,
                    "<response clipped: lines {}-{} of {} shown; view_range [{next}, -1] shows the rest>",
                    r.start_line, r.end_line, r.total_lines
                );
            }
            out
        }
        Output::Media(m) => format!(
            "`{}` is {} ({}, {} bytes), not text: the text editor views text files only.",
            a.path,
            if m.is_image() { "an image" } else { "a PDF" },
            m.media.mime,
            m.media.bytes
        ),
        Output::List(l) => {
            let mut out = format!(
                "Here's the files and directories up to 2 levels deep in {}, excluding hidden items:\n",
                a.path
            );
            for entry in &l.entries {
                let mark = if entry.kind == "directory" { "/" } else { "" };
                let _ = writeln!(out, "{}{mark}", entry.path);
            }
            if l.truncated {
                out.push_str("<response clipped>\n");
            }
            out
        }
        Output::Write(w) => format!("File created successfully at: {}", w.path),
        Output::Edit(e) => {
            let mut out = if a.command == "insert" {
                format!("Successfully inserted text after line {}.", a.line)
            } else {
                "Successfully replaced text at exactly one location.".to_owned()
            };
            if !e.foreign_changes.is_empty() {
                let runs: Vec<String> = e
                    .foreign_changes
                    .iter()
                    .map(|r| format!("{}-{}", r.start_line, r.end_line))
                    .collect();
                let _ = write!(
                    out,
                    "\nLines {} changed since you viewed the file: view them again before you edit them.",
                    runs.join(", ")
                );
            }
            out
        }
        Output::Undo(_) => format!("Last edit to {} undone successfully.", a.path),
        _ => String::new(),
    }
}

/// The text of a refusal: the documented sentence where the tool documents one, then
/// stitch's message, facts and hint in the tool's terms.
fn refusal(envelope: &Value) -> String {
    let code = envelope["error"].as_str().unwrap_or_default();
    let details = &envelope["details"];
    let message = words(details["message"].as_str().unwrap_or("internal error"));
    let message = message.trim_end_matches('.');
    let hint = envelope["_hint"].as_str().map(words);
    let path = details["path"].as_str().unwrap_or_default();
    let mut out = match code {
        "NOT_FOUND" if details["operation"] == "undo" => format!("Error: {message}."),
        "NOT_FOUND" => format!("Error: File not found: {path}"),
        "AMBIGUOUS_MATCH" => return format!(
            "Error: Found {} matches for replacement text. Please provide more context to make a unique match. The matches begin at lines {}.\nAdd surrounding lines to old_str until it matches once.",
            details["occurrences"],
            numbers(&details["lines"])
        ),
        "NO_MATCH" => return no_match(details),
        "ALREADY_EXISTS" => {
            return format!(
                "Error: File already exists at: {path}. Cannot overwrite files using command `create`.\nTo change it, view it, then use str_replace or insert."
            )
        }
        "INVALID_ARGUMENT" if details["field"] == "insertAfter" && details.get("totalLines").is_some() => {
            let total = &details["totalLines"];
            return format!(
                "Error: Invalid `insert_line` parameter: it should be within the range of lines of the file: [0, {total}].\n{message}."
            );
        }
        "DENIED" => format!("Error: Permission denied. {message}."),
        "INTERNAL_SERVER_ERROR" => "Error: internal error".to_owned(),
        _ => format!("Error: {message}."),
    };
    if let Some(hint) = hint {
        out.push('\n');
        out.push_str(&hint);
    }
    out
}

/// `NO_MATCH`: the documented sentence, then the closest passage and, where stitch
/// could carry the change onto it, the `new_str` that makes it there.
fn no_match(details: &Value) -> String {
    let mut out =
        "Error: No match found for replacement. Please check your text and try again.".to_owned();
    let Some(candidate) = details["candidates"].as_array().and_then(|c| c.first()) else {
        out.push_str("\nView the file to see its text as it is now.");
        return out;
    };
    let _ = write!(
        out,
        "\nThe closest passage, lines {}-{} ({} differs), is:\n{}",
        candidate["startLine"],
        candidate["endLine"],
        candidate["difference"].as_str().unwrap_or("content"),
        candidate["text"].as_str().unwrap_or_default()
    );
    match candidate["newText"].as_str() {
        Some(new) => {
            let _ = write!(
                out,
                "\nTo make your change there, call str_replace with that passage as old_str and this as new_str:\n{new}"
            );
        }
        None => out.push_str("\nView those lines, then write old_str and new_str again."),
    }
    out
}

/// Line numbers as a list, each once: `3, 9, 12`.
fn numbers(value: &Value) -> String {
    let mut lines: Vec<u64> = value
        .as_array()
        .map(|v| v.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    lines.dedup();
    lines
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A sentence about stitch's tools and fields in the text-editor tool's terms.
fn words(sentence: &str) -> String {
    const TERMS: [(&str, &str); 13] = [
        ("Re-read the file", "View the file again"),
        ("List the parent directory", "View the parent directory"),
        ("list the parent directory", "view the parent directory"),
        ("Read the file", "View the file"),
        ("read_file", "view"),
        ("list_directory", "view"),
        ("write_file", "create"),
        ("edit_file", "str_replace"),
        ("oldText", "old_str"),
        ("newText", "new_str"),
        ("insertAfter", "insert_line"),
        ("content", "file_text"),
        ("list_changes", "the journal (stitch history)"),
    ];
    let mut out = sentence.to_owned();
    for (from, to) in TERMS {
        out = replace_word(&out, from, to);
    }
    out
}

/// `text` with every whole-word `from` replaced by `to`.
fn replace_word(text: &str, from: &str, to: &str) -> String {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let before = out.chars().last().or_else(|| rest[..at].chars().last());
        let before = rest[..at].chars().last().or(before);
        let after = rest[at + from.len()..].chars().next();
        out.push_str(&rest[..at]);
        if word(before) || word(after) {
            out.push_str(from);
        } else {
            out.push_str(to);
        }
        rest = &rest[at + from.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::{replace_word, words};

    #[test]
    fn names_are_the_tools_own() {
        assert_eq!(
            words("Add surrounding lines to oldText until it matches once."),
            "Add surrounding lines to old_str until it matches once."
        );
        assert_eq!(
            replace_word("oldTexts oldText", "oldText", "x"),
            "oldTexts x"
        );
        assert_eq!(
            words("Re-read the file, then retry."),
            "View the file again, then retry."
        );
    }
}
