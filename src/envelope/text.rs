//! The text style, for people at a terminal and for pipelines: read content as it is
//! (optionally numbered), results as short lines (or NUL-terminated names with `--null`),
//! refusals on stderr as `error[CODE]: message`, the facts the hint refers to, and the
//! hint. The exit status is the envelope's, except that a `glob` or `search` that matched
//! nothing exits 1, as grep and ripgrep do. Results are rendered from their types: each
//! tool's result has its own shape.

mod journal;
mod refusal;

use std::fmt::Write as _;

use serde_json::Value;

use super::{stderr_line, write_raw, EXIT_REFUSED};
use crate::tool::output::{Match, Output};

/// How results are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Number read's lines.
    pub number: bool,
    /// End each name with NUL instead of a newline (`list`, `glob`, `search`).
    pub null: bool,
}

/// Shows one call as text: `output` when it succeeded, else the refusal in `envelope`.
/// Returns the exit status: the envelope's `status`, or 1 when a glob or search matched
/// nothing.
pub fn emit(output: Option<&Output>, envelope: &Value, status: u8, layout: Layout) -> u8 {
    let Some(output) = output else {
        stderr_line(refusal::render(envelope).trim_end_matches('\n'));
        return status;
    };
    write_raw(result(output, layout).as_bytes());
    match output {
        Output::Glob(g) if g.matches.is_empty() => EXIT_REFUSED,
        Output::Search(s) if s.matches.is_empty() => EXIT_REFUSED,
        _ => status,
    }
}

/// The text of a successful result.
fn result(output: &Output, layout: Layout) -> String {
    let mut out = String::new();
    // The name's end: NUL, or a newline.
    let end = if layout.null { '\0' } else { '\n' };
    let cut = match output {
        Output::Read(r) => {
            if layout.number {
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
            if e.already_applied {
                let _ = writeln!(out, "already applied {}: unchanged", e.path);
            } else {
                let verb = if e.applied { "edited" } else { "would edit" };
                let _ = writeln!(out, "{verb} {}: {} replacement(s)", e.path, e.replacements);
            }
            if !e.skipped_edits.is_empty() {
                let skipped: Vec<String> =
                    e.skipped_edits.iter().map(ToString::to_string).collect();
                let _ = writeln!(out, "already applied: edits[{}]", skipped.join(", "));
            }
            None
        }
        Output::Write(w) => {
            let verb = match (w.applied, w.created) {
                _ if w.unchanged => "unchanged",
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
                // A kind mark for people; with --null, the exact name for programs.
                let mark = match entry.kind {
                    _ if layout.null => "",
                    "directory" => "/",
                    "symlink" => "@",
                    _ => "",
                };
                let _ = write!(out, "{}{mark}{end}", entry.path);
            }
            l.truncated
                .then_some((l.entries.len(), ("entry", "entries")))
        }
        Output::Glob(g) => {
            for path in &g.matches {
                let _ = write!(out, "{path}{end}");
            }
            g.truncated
                .then_some((g.matches.len(), ("match", "matches")))
        }
        Output::Search(s) => {
            for m in &s.matches {
                search_lines(&mut out, m, layout.null);
            }
            s.truncated
                .then_some((s.matches.len(), ("match", "matches")))
        }
        Output::Delete(_) | Output::Move(_) | Output::History(_) | Output::Undo(_) => {
            journal::result(&mut out, output);
            None
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
    if let Some((shown, what)) = cut {
        let what = if shown == 1 { what.0 } else { what.1 };
        stderr_line(&format!(
            "stitch: the limit cut the result after {shown} {what}; raise --limit (or narrow \
             the call) to see the rest"
        ));
    }
    out
}

/// `path:line:text`, with context lines as `path-line-text`, as grep prints them; a path
/// alone in path mode. With `null`, as `rg --null`: NUL takes the place of the separator
/// after the path (`path\0line:text`), and ends a path printed alone.
fn search_lines(out: &mut String, m: &Match, null: bool) {
    let (Some(line), Some(text)) = (m.line, m.text.as_deref()) else {
        let end = if null { '\0' } else { '\n' };
        let _ = write!(out, "{}{end}", m.path);
        return;
    };
    let path = &m.path;
    let (hit, near) = if null { ("\0", "\0") } else { (":", "-") };
    let before = m.before.as_deref().unwrap_or_default();
    for (i, text) in before.iter().enumerate() {
        let n = line - (before.len() - i) as u64;
        let _ = writeln!(out, "{path}{near}{n}-{text}");
    }
    let _ = writeln!(out, "{path}{hit}{line}:{text}");
    for (i, text) in m.after.as_deref().unwrap_or_default().iter().enumerate() {
        let _ = writeln!(out, "{path}{near}{}-{text}", line + 1 + i as u64);
    }
}
