//! The text style, for people at a terminal: read content as it is (optionally
//! numbered), results as short lines, refusals as `error[CODE]: message` with the hint
//! on the next line, on stderr. The exit status is the envelope's.

use std::fmt::Write as _;

use serde_json::Value;

use super::{stderr_line, write_raw};

/// Shows one rendered envelope as text.
pub fn emit(envelope: &Value, number: bool) {
    if envelope["ok"] == Value::Bool(true) {
        write_raw(result(&envelope["data"], number).as_bytes());
    } else {
        let code = envelope["error"]
            .as_str()
            .unwrap_or("INTERNAL_SERVER_ERROR");
        let message = envelope["details"]["message"]
            .as_str()
            .unwrap_or("internal error");
        stderr_line(&format!("error[{code}]: {message}"));
        if let Some(hint) = envelope["_hint"].as_str() {
            stderr_line(&format!("hint: {hint}"));
        }
    }
}

fn str_of<'a>(data: &'a Value, key: &str) -> &'a str {
    data[key].as_str().unwrap_or_default()
}

/// The text of a successful result, told apart by the fields each tool returns.
fn result(data: &Value, number: bool) -> String {
    let mut out = String::new();
    if let Some(content) = data["content"].as_str() {
        if number {
            let first = data["startLine"].as_u64().unwrap_or(1);
            for (i, line) in content.split_inclusive('\n').enumerate() {
                let _ = write!(out, "{:>6}\t{line}", first + i as u64);
            }
        } else {
            out.push_str(content);
        }
        if data["truncated"] == Value::Bool(true) {
            if let Some(next) = data["nextOffset"].as_u64() {
                stderr_line(&format!("(more: --offset {next})"));
            }
        }
    } else if let Some(diff) = data["diff"].as_str() {
        out.push_str(diff);
        let verb = if data["applied"] == Value::Bool(true) {
            "edited"
        } else {
            "would edit"
        };
        let _ = writeln!(
            out,
            "{verb} {}: {} replacement(s)",
            str_of(data, "path"),
            data["replacements"]
        );
    } else if data.get("createdDirectories").is_some() {
        let verb = match (data["applied"].as_bool(), data["created"].as_bool()) {
            (Some(true), Some(true)) => "created",
            (Some(true), _) => "replaced",
            (_, Some(true)) => "would create",
            _ => "would replace",
        };
        let _ = writeln!(
            out,
            "{verb} {} ({} bytes)",
            str_of(data, "path"),
            data["bytes"]
        );
    } else if let Some(entries) = data["entries"].as_array() {
        for entry in entries {
            let mark = match str_of(entry, "kind") {
                "directory" => "/",
                "symlink" => "@",
                _ => "",
            };
            let _ = writeln!(out, "{}{mark}", str_of(entry, "path"));
        }
    } else if let Some(matches) = data["matches"].as_array() {
        for m in matches {
            match m {
                Value::String(path) => {
                    let _ = writeln!(out, "{path}");
                }
                _ if m.get("line").is_none() => {
                    let _ = writeln!(out, "{}", str_of(m, "path"));
                }
                _ => search_lines(&mut out, m),
            }
        }
    } else {
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(data).unwrap_or_default()
        );
    }
    if data["truncated"] == Value::Bool(true) && data.get("content").is_none() {
        if let Some(hint) = data["hint"].as_str() {
            stderr_line(hint);
        }
    }
    out
}

/// `path:line:text`, with context lines as `path-line-text`, as grep prints them.
fn search_lines(out: &mut String, m: &Value) {
    let path = str_of(m, "path");
    let line = m["line"].as_u64().unwrap_or(0);
    let lines = |key: &str| m[key].as_array().cloned().unwrap_or_default();
    let before = lines("before");
    for (i, text) in before.iter().enumerate() {
        let n = line - (before.len() - i) as u64;
        let _ = writeln!(out, "{path}-{n}-{}", text.as_str().unwrap_or_default());
    }
    let _ = writeln!(out, "{path}:{line}:{}", str_of(m, "text"));
    for (i, text) in lines("after").iter().enumerate() {
        let _ = writeln!(
            out,
            "{path}-{}-{}",
            line + 1 + i as u64,
            text.as_str().unwrap_or_default()
        );
    }
}
