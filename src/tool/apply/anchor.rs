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
    wrong_anchor(shown, text, hunk, anchor, AnchorAt::Absent)
}

/// `NO_MATCH` for a hunk of `shown` whose old side is in the file, exactly, but not where
/// the hunk may go: before its anchor (`difference: "anchor"`), or before the hunk ahead
/// of it in the patch (`difference: "order"`); `None` when its old side is not there.
pub fn misplaced(shown: &str, text: &str, hunks: &[Hunk], index: usize) -> Option<Refusal> {
    let hunk = hunks.get(index)?;
    // A hunk that must end the file is refused for where it is, not for its order.
    if hunk.at_end {
        return None;
    }
    if let Some(anchor) = &hunk.anchor {
        return wrong_anchor(shown, text, hunk, anchor, AnchorAt::OnlyAfter);
    }
    if index == 0 {
        return None;
    }
    let found = exact(text, &hunk.old);
    let &first = found.first()?;
    Some(
        Refusal::new(
            Code::NoMatch,
            format!(
                "A hunk's old side is in `{shown}` at line {}, but before the hunk ahead of it in the patch: the hunks of a file apply in the file's order",
                first + 1
            ),
        )
        .with(key::PATH, shown)
        .with("difference", "order")
        .with(key::LINES, found.iter().map(|l| l + 1).collect::<Vec<_>>()),
    )
}

/// The lines of `text`, without their terminators.
fn lines_of(text: &str) -> Vec<&str> {
    let starts = line_starts(text.as_bytes());
    (0..starts.len())
        .map(|i| {
            let end = starts.get(i + 1).copied().unwrap_or(text.len());
            let raw = &text[starts[i]..end];
            raw.strip_suffix('\n')
                .map_or(raw, |r| r.strip_suffix('\r').unwrap_or(r))
        })
        .collect()
}

/// The 0-based lines of `text` where `old` starts, as whole lines.
fn exact(text: &str, old: &[String]) -> Vec<usize> {
    if old.is_empty() {
        return Vec::new();
    }
    let lines = lines_of(text);
    (0..(lines.len() + 1).saturating_sub(old.len()))
        .filter(|&at| old.iter().enumerate().all(|(k, l)| lines[at + k] == l))
        .collect()
}

/// Where a chunk's anchor is, for a chunk whose lines are in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AnchorAt {
    /// Nowhere in the file.
    Absent,
    /// Only after the chunk's lines.
    OnlyAfter,
}

/// The refusal of a chunk whose lines are in the file while its anchor is as `anchor_is` says:
/// absent, or only after them.
fn wrong_anchor(
    shown: &str,
    text: &str,
    hunk: &Hunk,
    anchor: &str,
    anchor_is: AnchorAt,
) -> Option<Refusal> {
    let lines = lines_of(text);
    let line_at = |i: usize| lines[i];
    let found = exact(text, &hunk.old);
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
            _ if anchor_is == AnchorAt::OnlyAfter => format!(
                "The chunk's lines are in `{shown}` at line {}, but not after its anchor line `{anchor}`",
                first + 1
            ),
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
