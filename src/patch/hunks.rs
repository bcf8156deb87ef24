//! Applying an update's hunks to a file's text, exactly: each hunk's old side must be
//! found as whole lines — a unified hunk at its stated line, else the nearest exact match
//! (its offset reported, as `git apply` reports one); a Codex chunk after the previous
//! chunk and its anchor, and the only match there; a SEARCH block exactly once (in the
//! text the blocks before it left, when it is not found after them). The one
//! normalisation is edit's: a file whose lines all end in CRLF matches and receives the
//! hunk's lines with CRLF. Lines the hunks do not touch keep their bytes.

use std::ops::Range;
use std::time::Instant;

use super::place::{place, Index};
use super::{Hunk, Placement};
use crate::text::lines::{with_ends, Line};

/// Where each hunk landed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// The 1-based line of the old side in the file as it was.
    pub line: usize,
    /// How far from the stated line (unified hunks), when not zero.
    pub offset: Option<i64>,
    /// The hunk's header counts disagreed with its body, which was taken as it is.
    pub recounted: bool,
}

/// The lines each hunk replaced, 0-based and in order: in the text before, and in the
/// text after.
pub type Spans = Vec<(Range<usize>, Range<usize>)>;

/// The new text, where each hunk landed, and the lines each replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub text: String,
    pub placed: Vec<Placed>,
    /// Each hunk's lines (0-based) in the text as it was and in the new text, in order:
    /// outside them, the two texts' lines are the same. `None` when the hunks were not
    /// placed in one pass (SEARCH blocks out of order).
    pub spans: Option<Spans>,
}

/// Why a hunk could not be placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HunkFailure {
    /// The old side is nowhere it may be.
    NoMatch { hunk: usize },
    /// The old side matches more than once where it must match once (1-based lines).
    Ambiguous { hunk: usize, lines: Vec<usize> },
    /// A Codex anchor line is not in the file after the previous chunk.
    NoAnchor { hunk: usize },
    /// The deadline passed before hunk `hunk` was placed.
    OutOfTime { hunk: usize },
}

/// Whether a deletion's hunk names the whole of `text`: its old side every line of the
/// file, in order (each line matched as any hunk's is, its terminator aside, so a CRLF
/// file matches), and the last line unterminated exactly when the hunk says so (`\ No
/// newline at end of file`, [`Hunk::at_end`]).
#[must_use]
pub fn is_whole(text: &str, hunk: &Hunk) -> bool {
    let file = with_ends(text);
    file.len() == hunk.old.len()
        && file.iter().zip(&hunk.old).all(|(l, old)| l.text == old)
        && file.last().is_none_or(|l| l.end.is_empty() == hunk.at_end)
}

/// How many hunks are placed between two looks at the clock.
const HUNKS_PER_LOOK: usize = 256;

/// Applies `hunks` in order to `text`.
pub fn apply(text: &str, hunks: &[Hunk]) -> Result<Applied, HunkFailure> {
    apply_until(text, hunks, None)
}

/// Applies `hunks` in order to `text`, giving up once `deadline` has passed. The file's
/// lines are cut and indexed once, each hunk is placed from the one before it, and the
/// new text is built once: the work is linear in the hunks and the bytes. SEARCH blocks,
/// which may come in any order, are the exception: a block not found after the one before
/// it is looked for in the text the blocks before it left, as Aider applies them one
/// after another (then `spans` is `None`).
pub fn apply_until(
    text: &str,
    hunks: &[Hunk],
    deadline: Option<Instant>,
) -> Result<Applied, HunkFailure> {
    let first = pass(text, hunks, 0, deadline)?;
    if first.next == hunks.len() {
        return Ok(Applied {
            text: first.text,
            placed: first.placed,
            spans: Some(first.spans),
        });
    }
    let (mut text, mut placed, mut next) = (first.text, first.placed, first.next);
    while next < hunks.len() {
        let more = pass(&text, hunks, next, deadline)?;
        placed.extend(more.placed);
        (text, next) = (more.text, more.next);
    }
    Ok(Applied {
        text,
        placed,
        spans: None,
    })
}

/// What one pass over a text did: the new text, where its hunks landed and the lines they
/// replaced, and the first hunk it left for another pass.
struct Sweep {
    text: String,
    placed: Vec<Placed>,
    spans: Spans,
    next: usize,
}

/// Places `hunks` from number `first` on in `text`, each after the one before it, up to
/// a SEARCH block that is not found after the one before it, and builds the new text.
fn pass(
    text: &str,
    hunks: &[Hunk],
    first: usize,
    deadline: Option<Instant>,
) -> Result<Sweep, HunkFailure> {
    let file = with_ends(text);
    let index = Index::new(&file, hunks.len() - first);
    // Each hunk's span of file lines and its replacement, in order.
    let mut spans: Vec<(usize, usize, &Hunk)> = Vec::new();
    let mut placed = Vec::new();
    let mut after = 0;
    let mut next = hunks.len();
    for (number, hunk) in hunks.iter().enumerate().skip(first) {
        if number % HUNKS_PER_LOOK == HUNKS_PER_LOOK - 1
            && deadline.is_some_and(|d| Instant::now() >= d)
        {
            return Err(HunkFailure::OutOfTime { hunk: number });
        }
        // A SEARCH block that is not found after the blocks before it — before them, or
        // only in what they wrote — is looked for again in the text they leave.
        let at = match place(&file, &index, hunk, number, after) {
            Ok(at) if at >= after => at,
            Err(failure) if hunk.placement != Placement::Anywhere || spans.is_empty() => {
                return Err(failure);
            }
            _ => {
                next = number;
                break;
            }
        };
        let offset = match hunk.placement {
            Placement::Near => {
                let stated = hunk.old_start.unwrap_or(1).saturating_sub(1);
                let delta =
                    i64::try_from(at).unwrap_or(i64::MAX) - i64::try_from(stated).unwrap_or(0);
                (delta != 0 && !hunk.old.is_empty()).then_some(delta)
            }
            _ => None,
        };
        placed.push(Placed {
            line: at + 1,
            offset,
            recounted: hunk.recounted,
        });
        spans.push((at, at + hunk.old.len(), hunk));
        after = at + hunk.old.len();
    }
    let (text, spans) = rebuilt(&file, &spans);
    Ok(Sweep {
        text,
        placed,
        spans,
        next,
    })
}

/// The file with each span's lines replaced by its hunk's new side (with the file's line
/// ending), and the lines each span took in the file and takes in the new text.
fn rebuilt(file: &[Line<'_>], spans: &[(usize, usize, &Hunk)]) -> (String, Spans) {
    let crlf = !file.is_empty()
        && file.iter().all(|l| l.end == "\r\n" || l.end.is_empty())
        && file.iter().any(|l| l.end == "\r\n");
    let newline = if crlf { "\r\n" } else { "\n" };
    let bytes = file.iter().map(|l| l.text.len() + l.end.len()).sum();
    let mut out = String::with_capacity(bytes);
    let mut replaced = Vec::with_capacity(spans.len());
    let mut new_at = 0;
    let mut at = 0;
    for &(start, end, hunk) in spans {
        new_at += start - at;
        replaced.push((start..end, new_at..new_at + hunk.new.len()));
        new_at += hunk.new.len();
        for line in &file[at..start] {
            out.push_str(line.text);
            out.push_str(line.end);
        }
        // The last line of the file keeps its lack of a final newline unless the hunk
        // says otherwise.
        let touches_end = end == file.len();
        let last_unterminated = file.last().is_some_and(|l| l.end.is_empty());
        for (k, line) in hunk.new.iter().enumerate() {
            out.push_str(line);
            let last = k + 1 == hunk.new.len();
            let bare = last
                && touches_end
                && (hunk.new_no_newline
                    || (last_unterminated && !hunk.at_end && hunk.placement != Placement::Near));
            if !bare {
                out.push_str(newline);
            }
        }
        // A file that ended without a newline, extended by a hunk at its end: the
        // added lines are whole lines; the old last line got its newline above.
        at = end;
    }
    for line in &file[at..] {
        out.push_str(line.text);
        out.push_str(line.end);
    }
    (out, replaced)
}

#[cfg(test)]
mod tests {
    use super::super::{parse, FileChange};
    use super::{apply, HunkFailure};

    fn hunks(patch: &str) -> Vec<super::Hunk> {
        match parse(patch).unwrap().changes.remove(0) {
            FileChange::Update { hunks, .. } => hunks,
            other => panic!("{other:?}"),
        }
    }

    proptest::proptest! {
        /// The diff made from where the hunks landed is the diff of the whole texts when
        /// lines are distinct, and, where lines repeat, a diff that takes the old text to
        /// the new one.
        #[test]
        fn the_diff_of_the_landed_hunks_is_the_whole_diff(
            file in proptest::collection::vec(0..6u8, 1..60),
            edits in proptest::collection::vec((0..60usize, 0..3usize, 0..3usize), 1..6),
            distinct in proptest::bool::ANY,
            final_newline in proptest::bool::ANY,
        ) {
            use crate::text::diff::{unified, unified_regions};
            let line = |i: usize, l: u8| if distinct { format!("l{i}") } else { format!("l{l}") };
            let old_lines: Vec<String> = file.iter().enumerate().map(|(i, l)| line(i, *l)).collect();
            let mut text = old_lines.join("\n");
            if final_newline {
                text.push('\n');
            }
            // Hunks at ascending places, apart, each with a line of context before it.
            let mut hunks = Vec::new();
            let mut from = 0;
            for (at, removed, added) in edits {
                let at = from + at % 8;
                if at + removed + 1 > old_lines.len() {
                    break;
                }
                let old: Vec<String> = old_lines[at..=at + removed].to_vec();
                let mut new = vec![old[0].clone()];
                new.extend((0..added).map(|k| format!("new {at} {k}")));
                hunks.push(super::Hunk {
                    old,
                    new,
                    old_start: Some(at + 1),
                    placement: super::Placement::Near,
                    ..super::Hunk::default()
                });
                from = at + removed + 2;
            }
            proptest::prop_assume!(!hunks.is_empty());
            let done = apply(&text, &hunks).unwrap();
            let spans = done.spans.as_ref().expect("one pass");
            let regions = unified_regions("f", &text, &done.text, spans, usize::MAX)
                .expect("the texts bear the regions out");
            if distinct {
                proptest::prop_assert_eq!(&regions, &unified("f", &text, &done.text, usize::MAX));
            }
            if !regions.text.is_empty() {
                let back = apply(&text, &self::hunks(&regions.text)).unwrap();
                proptest::prop_assert_eq!(back.text, done.text);
            }
        }
    }

    #[test]
    fn a_unified_hunk_lands_at_its_line_or_the_nearest_match() {
        let h = hunks("--- a/f\n+++ b/f\n@@ -2,2 +2,2 @@\n b\n-c\n+C\n");
        let done = apply("a\nb\nc\nd\n", &h).unwrap();
        assert_eq!(done.text, "a\nb\nC\nd\n");
        assert_eq!(done.placed[0].offset, None);
        // Two lines were added above since the diff was made: an offset of 2.
        let done = apply("x\ny\na\nb\nc\nd\n", &h).unwrap();
        assert_eq!(done.text, "x\ny\na\nb\nC\nd\n");
        assert_eq!(done.placed[0].offset, Some(2));
        assert_eq!(
            apply("a\nb\nz\n", &h),
            Err(HunkFailure::NoMatch { hunk: 0 })
        );
    }

    #[test]
    fn a_codex_chunk_follows_its_anchor_and_must_be_alone_there() {
        let h = hunks(
            "*** Begin Patch\n*** Update File: f\n@@ fn two()\n-    x\n+    y\n*** End Patch\n",
        );
        let text = "fn one()\n    x\nfn two()\n    x\n";
        assert_eq!(
            apply(text, &h).unwrap().text,
            "fn one()\n    x\nfn two()\n    y\n"
        );
        let h = hunks("*** Begin Patch\n*** Update File: f\n@@\n-    x\n+    y\n*** End Patch\n");
        assert_eq!(
            apply(text, &h),
            Err(HunkFailure::Ambiguous {
                hunk: 0,
                lines: vec![2, 4]
            })
        );
    }

    #[test]
    fn crlf_files_get_crlf_and_search_blocks_match_once() {
        let h = hunks("a.txt\n<<<<<<< SEARCH\nb\n=======\nB\nB2\n>>>>>>> REPLACE\n");
        assert_eq!(
            apply("a\r\nb\r\nc\r\n", &h).unwrap().text,
            "a\r\nB\r\nB2\r\nc\r\n"
        );
        assert_eq!(
            apply("b\nb\n", &h),
            Err(HunkFailure::Ambiguous {
                hunk: 0,
                lines: vec![1, 2]
            })
        );
    }

    #[test]
    fn a_deletion_names_the_whole_file_or_nothing() {
        let whole = |old: &[&str], at_end| super::Hunk {
            old: old.iter().map(|l| (*l).to_owned()).collect(),
            at_end,
            ..super::Hunk::default()
        };
        assert!(super::is_whole("a\nb\n", &whole(&["a", "b"], false)));
        assert!(super::is_whole("a\r\nb\r\n", &whole(&["a", "b"], false)));
        assert!(super::is_whole("a\nb", &whole(&["a", "b"], true)));
        assert!(super::is_whole("", &whole(&[], false)));
        // Newer work after, before or inside; a final newline gained or lost.
        assert!(!super::is_whole("a\nb\nc\n", &whole(&["a", "b"], false)));
        assert!(!super::is_whole("z\na\nb\n", &whole(&["a", "b"], false)));
        assert!(!super::is_whole("a\nB\n", &whole(&["a", "b"], false)));
        assert!(!super::is_whole("a\nb", &whole(&["a", "b"], false)));
        assert!(!super::is_whole("a\nb\n", &whole(&["a", "b"], true)));
    }

    /// SEARCH blocks apply one after another, as Aider applies them: a block that lands
    /// before the one before it, or across it, is looked for in the text that one left.
    #[test]
    fn search_blocks_out_of_order_apply_one_after_another() {
        let h = hunks("f\n<<<<<<< SEARCH\nd\n=======\nD\n>>>>>>> REPLACE\nf\n<<<<<<< SEARCH\na\n=======\nA\n>>>>>>> REPLACE\n");
        let done = apply("a\nb\nc\nd\n", &h).unwrap();
        assert_eq!(done.text, "A\nb\nc\nD\n");
        assert_eq!((done.placed[1].line, done.spans), (1, None));
        let h = hunks("f\n<<<<<<< SEARCH\nb\nc\n=======\nB\n>>>>>>> REPLACE\nf\n<<<<<<< SEARCH\nB\nd\n=======\nC\n>>>>>>> REPLACE\n");
        assert_eq!(apply("a\nb\nc\nd\n", &h).unwrap().text, "a\nC\n");
    }

    #[test]
    fn no_newline_at_end_is_kept_or_given() {
        let h = hunks("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n");
        assert_eq!(apply("a", &h).unwrap().text, "b");
        let h = hunks("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n");
        assert_eq!(apply("a", &h).unwrap().text, "b\n");
    }
}
