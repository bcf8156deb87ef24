//! The text of the journal's tools and of delete and move: a change as one line (its id,
//! age, tool, session, files with the lines each gained and lost, undone or not), or with
//! `--stat` each file on a line of its own; a change shown with each file's diff; and the
//! summary line of a delete, a move or an undo, with the change's id.

use std::fmt::Write as _;

use crate::streams::quote::Quote;
use crate::tool::output::Output;

use super::{change, ShowDiff};

/// Writes the text of `output` (a delete, move, history, show or undo) to `out`, names
/// quoted by `q`; with `stat`, a history's files each on a line of their own. Diffs go
/// through `diff`, which colours them (or leaves them out) as the caller asked.
pub fn result(out: &mut String, output: &Output, q: Quote, stat: bool, diff: ShowDiff) {
    match output {
        Output::Delete(d) => {
            let verb = if d.applied { "deleted" } else { "would delete" };
            let _ = writeln!(out, "{verb} {}{}", q.name(&d.path), change(d.id.as_deref()));
        }
        Output::Move(m) => {
            let verb = if m.applied { "moved" } else { "would move" };
            let _ = writeln!(
                out,
                "{verb} {} -> {}{}",
                q.name(&m.from),
                q.name(&m.path),
                change(m.id.as_deref())
            );
        }
        Output::History(h) => {
            if let Some(off) = &h.journal_off {
                let _ = writeln!(out, "the journal is off: {off}");
            }
            for listed in &h.changes {
                let head = Head {
                    id: &listed.id,
                    tool: &listed.tool,
                    session: listed.session.as_deref(),
                    undoes: listed.undoes.as_deref(),
                    undone: listed.undone,
                };
                let files = listed.files.iter().map(|f| File {
                    path: &f.path,
                    from: f.from.as_deref(),
                    added: f.added,
                    removed: f.removed,
                });
                line(out, &head, files, q, stat);
            }
        }
        Output::Show(s) => {
            let head = Head {
                id: &s.id,
                tool: &s.tool,
                session: s.session.as_deref(),
                undoes: s.undoes.as_deref(),
                undone: s.undone,
            };
            let _ = writeln!(out, "change {}", head.text());
            for shown in &s.files {
                let f = &shown.file;
                let file = File {
                    path: &f.path,
                    from: f.from.as_deref(),
                    added: f.added,
                    removed: f.removed,
                };
                let _ = writeln!(out, "{} {}", shown.operation, file.text(q));
                match (&shown.diff, &shown.diff_unavailable) {
                    (Some(text), _) => diff(out, text),
                    (None, Some(why)) => {
                        let _ = writeln!(out, "(no diff: {why})");
                    }
                    (None, None) => {}
                }
            }
        }
        Output::Undo(u) => {
            for file in &u.files {
                diff(out, &file.diff);
            }
            let verb = if u.applied { "undid" } else { "would undo" };
            let id =
                u.id.as_ref()
                    .map(|id| format!(" as change {id}"))
                    .unwrap_or_default();
            let _ = writeln!(out, "{verb} change {}{id}", u.undid);
            super::syntax_errors(out, (&u.syntax_errors, &u.syntax_unchecked), q);
        }
        _ => {}
    }
}

/// What a change's line says of it besides its files.
struct Head<'a> {
    id: &'a str,
    tool: &'a str,
    session: Option<&'a str>,
    undoes: Option<&'a str>,
    undone: bool,
}

impl Head<'_> {
    /// Its id, age, tool (and the change an undo takes back), session (`-` for none).
    fn text(&self) -> String {
        let undoes = self
            .undoes
            .map(|id| format!(" undoes {id}"))
            .unwrap_or_default();
        format!(
            "{}  {}  {}{undoes}  {}",
            self.id,
            age(self.id),
            self.tool,
            self.session.unwrap_or("-")
        )
    }
}

/// One file of a change as a line shows it.
struct File<'a> {
    path: &'a str,
    from: Option<&'a str>,
    added: Option<u64>,
    removed: Option<u64>,
}

impl File<'_> {
    /// Its path (`from -> path` for a move) and the lines it gained and lost, when counted.
    fn text(&self, q: Quote) -> String {
        let path = match self.from {
            Some(from) => format!("{} -> {}", q.name(from), q.name(self.path)),
            None => q.name(self.path).into_owned(),
        };
        match (self.added, self.removed) {
            (Some(added), Some(removed)) => format!("{path} +{added} -{removed}"),
            _ => path,
        }
    }
}

/// A change as history shows it: one line, or with `stat` a line and then each file on
/// one of its own.
fn line<'a>(
    out: &mut String,
    head: &Head<'_>,
    files: impl Iterator<Item = File<'a>>,
    q: Quote,
    stat: bool,
) {
    let undone = if head.undone { "  undone" } else { "" };
    if stat {
        let _ = writeln!(out, "{}{undone}", head.text());
        for file in files {
            let _ = writeln!(out, "    {}", file.text(q));
        }
    } else {
        let files: Vec<String> = files.map(|f| f.text(q)).collect();
        let _ = writeln!(out, "{}  {}{undone}", head.text(), files.join(", "));
    }
}

/// How long ago the change `id` (nanoseconds since the epoch) was made, as a person
/// reads it: `12s ago`, `5m ago`, `3h ago`, `2d ago`.
fn age(id: &str) -> String {
    let Ok(then) = id.parse::<u128>() else {
        return "-".to_owned();
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let secs = now.saturating_sub(then) / 1_000_000_000;
    match secs {
        0..60 => format!("{secs}s ago"),
        60..3_600 => format!("{}m ago", secs / 60),
        3_600..172_800 => format!("{}h ago", secs / 3_600),
        _ => format!("{}d ago", secs / 86_400),
    }
}
