//! The text of the journal's tools and of delete and move: one line a change or a file,
//! and an undo's diff.

use std::fmt::Write as _;

use crate::tool::output::Output;

/// Writes the text of `output` (a delete, move, history or undo) to `out`; an undo's
/// diff goes through `diff`, which colours it where the caller asked.
pub fn result(out: &mut String, output: &Output, diff: impl Fn(&mut String, &str)) {
    match output {
        Output::Delete(d) => {
            let verb = if d.applied { "deleted" } else { "would delete" };
            let _ = writeln!(out, "{verb} {}", d.path);
            if let Some(id) = &d.id {
                let _ = writeln!(out, "change {id} (stitch undo {id} brings it back)");
            }
        }
        Output::Move(m) => {
            let verb = if m.applied { "moved" } else { "would move" };
            let _ = writeln!(out, "{verb} {} -> {}", m.from, m.path);
            if let Some(id) = &m.id {
                let _ = writeln!(out, "change {id} (stitch undo {id} moves it back)");
            }
        }
        Output::History(h) => {
            if let Some(off) = &h.journal_off {
                let _ = writeln!(out, "the journal is off: {off}");
            }
            for change in &h.changes {
                let files: Vec<String> = change
                    .files
                    .iter()
                    .map(|f| match &f.from {
                        Some(from) => format!("{from} -> {}", f.path),
                        None => f.path.clone(),
                    })
                    .collect();
                let mark = if change.undone { " (undone)" } else { "" };
                let undoes = change
                    .undoes
                    .as_ref()
                    .map(|id| format!(" undoes {id}"))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "{} {} {}{undoes}{mark} {}",
                    change.id,
                    change.time,
                    change.tool,
                    files.join(", ")
                );
            }
        }
        Output::Undo(u) => {
            for file in &u.files {
                diff(out, &file.diff);
            }
            let verb = if u.applied { "undid" } else { "would undo" };
            let _ = writeln!(out, "{verb} change {}", u.undid);
        }
        _ => {}
    }
}
