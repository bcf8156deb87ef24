//! Applying an update's hunks to a file's text, exactly: each hunk's old side must be
//! found as whole lines — a unified hunk at its stated line, else the nearest exact match
//! (its offset reported, as `git apply` reports one); a Codex chunk after the previous
//! chunk and its anchor, and the only match there; a SEARCH block exactly once. The one
//! normalisation is edit's: a file whose lines all end in CRLF matches and receives the
//! hunk's lines with CRLF. Lines the hunks do not touch keep their bytes.

use super::{Hunk, Placement};

/// Where each hunk landed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// The 1-based line of the old side in the file as it was.
    pub line: usize,
    /// How far from the stated line (unified hunks), when not zero.
    pub offset: Option<i64>,
}

/// The new text, and where each hunk landed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    pub text: String,
    pub placed: Vec<Placed>,
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
}

/// One line of the file: its text, and its terminator (`\n`, `\r\n`, or none at the end).
struct Line<'a> {
    text: &'a str,
    end: &'a str,
}

/// One line (with its terminator, if any) split into its text and terminator.
fn line(l: &str) -> Line<'_> {
    let (text, end) = match l.strip_suffix("\r\n") {
        Some(t) => (t, "\r\n"),
        None => match l.strip_suffix('\n') {
            Some(t) => (t, "\n"),
            None => (l, ""),
        },
    };
    Line { text, end }
}

fn lines(text: &str) -> Vec<Line<'_>> {
    // Cut after each `\n`, found with memchr (as `split_inclusive` cuts, a line at a time).
    let mut lines = Vec::with_capacity(text.len() / 32 + 1);
    let mut start = 0;
    for newline in memchr::memchr_iter(b'\n', text.as_bytes()) {
        lines.push(line(&text[start..=newline]));
        start = newline + 1;
    }
    if start < text.len() {
        lines.push(line(&text[start..]));
    }
    lines
}

/// Where `old` occurs as whole lines in `file`, from line `from` on.
fn occurrences(file: &[Line<'_>], old: &[String], from: usize) -> Vec<usize> {
    if old.is_empty() {
        return Vec::new();
    }
    (from..=file.len().saturating_sub(old.len()))
        .filter(|&at| old.iter().enumerate().all(|(k, l)| file[at + k].text == l))
        .collect()
}

/// Where `hunk` (number `index`) goes in `file`, whose lines before `after` the previous
/// hunks took.
fn place(file: &[Line<'_>], hunk: &Hunk, index: usize, after: usize) -> Result<usize, HunkFailure> {
    let only = |found: Vec<usize>| match found.as_slice() {
        [] => Err(HunkFailure::NoMatch { hunk: index }),
        [one] => Ok(*one),
        many => Err(HunkFailure::Ambiguous {
            hunk: index,
            lines: many.iter().map(|l| l + 1).collect(),
        }),
    };
    match hunk.placement {
        Placement::Anywhere => only(occurrences(file, &hunk.old, 0)),
        Placement::After => {
            let mut from = after;
            if let Some(anchor) = &hunk.anchor {
                let Some(found) = (from..file.len()).find(|&i| file[i].text == anchor.as_str())
                else {
                    return Err(HunkFailure::NoAnchor { hunk: index });
                };
                from = found;
                // The anchor line itself may open the old side, or precede it.
                if hunk.old.first().map(String::as_str) != Some(anchor.as_str()) {
                    from += 1;
                }
            }
            if hunk.old.is_empty() {
                // An addition with no context: at the end of the file (Codex's `*** End
                // of File`, or no anchor), else right after the anchor.
                return Ok(if hunk.at_end || hunk.anchor.is_none() {
                    file.len()
                } else {
                    from
                });
            }
            let found = occurrences(file, &hunk.old, from);
            only(if hunk.at_end {
                found
                    .into_iter()
                    .filter(|&at| at + hunk.old.len() == file.len())
                    .collect()
            } else {
                found
            })
        }
        Placement::Near => {
            let stated = hunk.old_start.unwrap_or(1).saturating_sub(1);
            if hunk.old.is_empty() {
                return Ok(stated.min(file.len()).max(after));
            }
            occurrences(file, &hunk.old, after)
                .into_iter()
                .min_by_key(|&at| (at.abs_diff(stated), at))
                .ok_or(HunkFailure::NoMatch { hunk: index })
        }
    }
}

/// Whether a deletion's hunk names the whole of `text`: its old side every line of the
/// file, in order (each line matched as any hunk's is, its terminator aside, so a CRLF
/// file matches), and the last line unterminated exactly when the hunk says so (`\ No
/// newline at end of file`, [`Hunk::at_end`]).
#[must_use]
pub fn is_whole(text: &str, hunk: &Hunk) -> bool {
    let file = lines(text);
    file.len() == hunk.old.len()
        && file.iter().zip(&hunk.old).all(|(l, old)| l.text == old)
        && file.last().is_none_or(|l| l.end.is_empty() == hunk.at_end)
}

/// Applies `hunks` in order to `text`.
pub fn apply(text: &str, hunks: &[Hunk]) -> Result<Applied, HunkFailure> {
    let file = lines(text);
    let crlf = !file.is_empty()
        && file.iter().all(|l| l.end == "\r\n" || l.end.is_empty())
        && file.iter().any(|l| l.end == "\r\n");
    let newline = if crlf { "\r\n" } else { "\n" };
    // Each hunk's span of file lines and its replacement, in order.
    let mut spans: Vec<(usize, usize, &Hunk)> = Vec::new();
    let mut placed = Vec::new();
    let mut after = 0;
    for (index, hunk) in hunks.iter().enumerate() {
        let at = place(&file, hunk, index, after)?;
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
        });
        spans.push((at, at + hunk.old.len(), hunk));
        after = at + hunk.old.len();
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end, hunk) in spans {
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
    Ok(Applied { text: out, placed })
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

    #[test]
    fn lines_are_cut_as_split_inclusive_cuts_them() {
        for text in ["", "a", "a\n", "a\r\nb", "\n\n", "x\ry\r\n\nz\r", "é\nü"] {
            let ours: Vec<(&str, &str)> =
                super::lines(text).iter().map(|l| (l.text, l.end)).collect();
            let theirs: Vec<(&str, &str)> = text
                .split_inclusive('\n')
                .map(|l| {
                    let l = super::line(l);
                    (l.text, l.end)
                })
                .collect();
            assert_eq!(ours, theirs, "{text:?}");
            let joined: String = ours.iter().flat_map(|(t, e)| [*t, *e]).collect();
            assert_eq!(joined, text);
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

    #[test]
    fn no_newline_at_end_is_kept_or_given() {
        let h = hunks("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n");
        assert_eq!(apply("a", &h).unwrap().text, "b");
        let h = hunks("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n");
        assert_eq!(apply("a", &h).unwrap().text, "b\n");
    }
}
