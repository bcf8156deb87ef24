//! A Codex chunk whose `@@ ANCHOR` line is not in the file while its own lines are: the
//! refusal says so (`difference: "anchor"`), with the line of the file most like the
//! anchor, so that the retry changes the anchor, or drops it, rather than the chunk.

use serde_json::json;

use crate::patch::Hunk;
use crate::refusal::{key, Code, Refusal};
use crate::text::lines::line_starts;

/// How like the caller's anchor a line must be to be offered in its place.
const LIKE: f64 = 0.5;

/// `NO_MATCH` for a chunk of `shown` (text `text`) whose anchor `anchor` is not there
/// while its old side is, once or more; `None` when its old side is not there either
/// (then the chunk's lines are what is wrong, and edit_file's candidates say how).
pub fn no_anchor(shown: &str, text: &str, hunk: &Hunk, anchor: &str) -> Option<Refusal> {
    if hunk.old.is_empty() {
        return None;
    }
    let starts = line_starts(text.as_bytes());
    let line_at = |i: usize| {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        let raw = &text[starts[i]..end];
        raw.strip_suffix('\n')
            .map_or(raw, |r| r.strip_suffix('\r').unwrap_or(r))
    };
    let count = starts.len();
    let found: Vec<usize> = (0..(count + 1).saturating_sub(hunk.old.len()))
        .filter(|&at| {
            hunk.old
                .iter()
                .enumerate()
                .all(|(k, l)| line_at(at + k) == l)
        })
        .collect();
    let &first = found.first()?;
    let nearest = (0..first)
        .rev()
        .filter(|&i| !line_at(i).trim().is_empty())
        .map(|i| {
            (
                i,
                strsim::normalized_levenshtein(line_at(i).trim(), anchor.trim()),
            )
        })
        .filter(|&(_, like)| like >= LIKE)
        .fold(None, |best: Option<(usize, f64)>, (i, like)| match best {
            Some((_, b)) if b >= like => best,
            _ => Some((i, like)),
        });
    let lines: Vec<usize> = found.iter().map(|at| at + 1).collect();
    let mut refusal = Refusal::new(
        Code::NoMatch,
        match found.len() {
            1 => format!(
                "The anchor line `{anchor}` of a chunk is not in `{shown}`, but the chunk's lines are, once, at line {}",
                first + 1
            ),
            n => format!(
                "The anchor line `{anchor}` of a chunk is not in `{shown}`; the chunk's lines are there {n} times"
            ),
        },
    )
    .with(key::PATH, shown)
    .with(key::ANCHOR, anchor)
    .with("difference", "anchor");
    if let Some((line, _)) = nearest {
        refusal = refusal.with(
            key::NEAREST_ANCHOR,
            json!({"line": line + 1, "text": line_at(line)}),
        );
    }
    refusal = refusal.with(key::LINES, lines);
    Some(refusal)
}
