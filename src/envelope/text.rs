//! The text style, for people at a terminal: read content as it is (optionally
//! numbered), results as short lines, refusals as `error[CODE]: message` with the hint
//! on the next line, on stderr. The exit status is the envelope's. Results are rendered
//! from their types: each tool's result has its own shape.

use std::fmt::Write as _;

use serde_json::Value;

use super::{stderr_line, write_raw};
use crate::tool::output::{Match, Output};

/// Shows one call as text: `output` when it succeeded, else the refusal in `envelope`.
pub fn emit(output: Option<&Output>, envelope: &Value, number: bool) {
    if let Some(output) = output {
        write_raw(result(output, number).as_bytes());
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

/// The text of a successful result.
fn result(output: &Output, number: bool) -> String {
    let mut out = String::new();
    let cut_hint = match output {
        Output::Read(r) => {
            if number {
                for (i, line) in r.content.split_inclusive('\n').enumerate() {
                    let _ = write!(out, "{:>6}\t{line}", r.start_line + i as u64);
                }
            } else {
                out.push_str(&r.content);
            }
            if let Some(next) = r.next_offset {
                stderr_line(&format!("(more: --offset {next})"));
            }
            None
        }
        Output::Edit(e) => {
            out.push_str(&e.diff);
            let verb = if e.applied { "edited" } else { "would edit" };
            let _ = writeln!(out, "{verb} {}: {} replacement(s)", e.path, e.replacements);
            None
        }
        Output::Write(w) => {
            let verb = match (w.applied, w.created) {
                (true, true) => "created",
                (true, false) => "replaced",
                (false, true) => "would create",
                (false, false) => "would replace",
            };
            let _ = writeln!(out, "{verb} {} ({} bytes)", w.path, w.bytes);
            None
        }
        Output::List(l) => {
            for entry in &l.entries {
                let mark = match entry.kind {
                    "directory" => "/",
                    "symlink" => "@",
                    _ => "",
                };
                let _ = writeln!(out, "{}{mark}", entry.path);
            }
            l.hint.as_deref()
        }
        Output::Glob(g) => {
            for path in &g.matches {
                let _ = writeln!(out, "{path}");
            }
            g.hint.as_deref()
        }
        Output::Search(s) => {
            for m in &s.matches {
                search_lines(&mut out, m);
            }
            s.hint.as_deref()
        }
        Output::Config(report) => {
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(report).unwrap_or_default()
            );
            None
        }
    };
    if let Some(hint) = cut_hint {
        stderr_line(hint);
    }
    out
}

/// `path:line:text`, with context lines as `path-line-text`, as grep prints them; a path
/// alone in path mode.
fn search_lines(out: &mut String, m: &Match) {
    let (Some(line), Some(text)) = (m.line, m.text.as_deref()) else {
        let _ = writeln!(out, "{}", m.path);
        return;
    };
    let path = &m.path;
    let before = m.before.as_deref().unwrap_or_default();
    for (i, text) in before.iter().enumerate() {
        let n = line - (before.len() - i) as u64;
        let _ = writeln!(out, "{path}-{n}-{text}");
    }
    let _ = writeln!(out, "{path}:{line}:{text}");
    for (i, text) in m.after.as_deref().unwrap_or_default().iter().enumerate() {
        let _ = writeln!(out, "{path}-{}-{text}", line + 1 + i as u64);
    }
}
