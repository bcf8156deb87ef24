//! Bounded unified diffs: output never exceeds the byte cap, is cut only at line boundaries, and the diff work itself is time-limited.

use std::ops::Range;
use std::time::{Duration, Instant};

use similar::{Algorithm, ChangeTag, DiffOp, TextDiff};

pub use crate::affix::{common_prefix, common_suffix};

mod stat;

pub use stat::{stat, stat_bytes, stat_splice, Stat};

/// How long the line diff may search for a minimal edit script before settling for a coarser (still correct) one.
const DIFF_TIMEOUT: Duration = Duration::from_millis(500);

/// Lines of unchanged context around each change, as in `diff -u`.
const CONTEXT: usize = 3;

/// The marker that keeps a last line without `\n` from running into the next diff line.
const NO_NEWLINE: &str = "\\ No newline at end of file\n";

/// A rendered unified diff and whether it had to be cut to fit the byte cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diff {
    /// The diff text; empty when the inputs are equal.
    pub text: String,
    /// Whether lines were dropped to respect the cap.
    pub truncated: bool,
    /// The lines the diff adds and removes, the whole diff's (however much of it the cap
    /// let through): as [`stat`] counts them.
    pub stat: Stat,
}

/// Output accumulated line by line, refusing any line that would exceed the cap.
struct Capped {
    text: String,
    max_bytes: usize,
    truncated: bool,
}

impl Capped {
    /// Appends `line` whole if it fits, otherwise marks the output truncated; returns whether it fitted.
    fn push(&mut self, line: &str) -> bool {
        if self.truncated || self.text.len() + line.len() > self.max_bytes {
            self.truncated = true;
            return false;
        }
        self.text.push_str(line);
        true
    }
}

/// A unified diff of `old` → `new` with 3 lines of context and headers `--- a/{path}` / `+++ b/{path}`, cut at a line boundary to at most `max_bytes` bytes.
///
/// A line that lacks a final newline is followed by `\ No newline at end of file`, and the pair is kept or dropped together,
/// so the output always parses as a patch. Equal inputs give empty text.
#[must_use]
pub fn unified(path: &str, old: &str, new: &str, max_bytes: usize) -> Diff {
    unified_moved((path, path), old, new, max_bytes)
}

/// [`unified`] of a file that also moved: headers `--- a/{from}` / `+++ b/{to}`.
#[must_use]
pub fn unified_moved((from, to): (&str, &str), old: &str, new: &str, max_bytes: usize) -> Diff {
    // Only the region between the common prefix and suffix (plus context) can differ:
    // diffing just that keeps an edit of a 100 MiB file as cheap as one of a small file.
    let (skip, old_mid, new_mid) = changed_region(old, new);
    render((from, to), skip, old_mid, new_mid, max_bytes)
}

/// The diff of an edit given as `old`'s first `head` bytes, then `middle`, then `old`'s
/// last `tail` bytes: only the lines around the middle are looked at.
#[must_use]
pub fn unified_splice(
    path: &str,
    old: &str,
    head: usize,
    middle: &str,
    tail: usize,
    max_bytes: usize,
) -> Diff {
    let o = old.as_bytes();
    let line_start = |end: usize| memchr::memrchr(b'\n', &o[..end]).map_or(0, |i| i + 1);
    let mut start = line_start(head);
    for _ in 0..CONTEXT {
        if start == 0 {
            break;
        }
        start = line_start(start - 1);
    }
    let skip = memchr::memchr_iter(b'\n', &o[..start]).count();
    let kept = o.len() - tail;
    let mut end = kept;
    for _ in 0..=CONTEXT {
        let Some(i) = memchr::memchr(b'\n', &o[end..]) else {
            end = o.len();
            break;
        };
        end += i + 1;
    }
    let new_window = [&old[start..head], middle, &old[kept..end]].concat();
    render((path, path), skip, &old[start..end], &new_window, max_bytes)
}

/// Renders the diff of two windows whose first lines are line `skip + 1` of the file.
fn render(
    (from, to): (&str, &str),
    skip: usize,
    old_mid: &str,
    new_mid: &str,
    max_bytes: usize,
) -> Diff {
    let (old_lines, new_lines) = (lines(old_mid), lines(new_mid));
    let ops = line_ops(&old_lines, &new_lines);
    render_ops((from, to), skip, &old_lines, &new_lines, ops, max_bytes)
}

/// The line diff of `old_lines` → `new_lines`, within [`DIFF_TIMEOUT`]. Where either
/// side is empty, the one insertion or deletion, without a diff (whose line interning
/// would hash every line of a file added or removed whole).
fn line_ops(old_lines: &[&str], new_lines: &[&str]) -> Vec<DiffOp> {
    match (old_lines.len(), new_lines.len()) {
        (0, 0) => Vec::new(),
        (0, new_len) => vec![DiffOp::Insert {
            old_index: 0,
            new_index: 0,
            new_len,
        }],
        (old_len, 0) => vec![DiffOp::Delete {
            old_index: 0,
            old_len,
            new_index: 0,
        }],
        _ => TextDiff::configure()
            .timeout(DIFF_TIMEOUT)
            .newline_terminated(true)
            .diff_slices(old_lines, new_lines)
            .ops()
            .to_vec(),
    }
}

/// A unified diff of `old` → `new`, as [`unified`] gives it, when every change lies in
/// `regions` — line ranges of `old` and of `new`, ascending, as an apply placed its hunks
/// (0-based, lines cut as [`unified`] cuts them): only the regions are diffed, and the
/// lines between them are checked to be the same, so a change of many thousands of hunks
/// costs its bytes, not a diff of the whole file. `None` when the texts do not bear the
/// regions out; the caller diffs them whole.
#[must_use]
pub fn unified_regions(
    path: &str,
    old: &str,
    new: &str,
    regions: &[(Range<usize>, Range<usize>)],
    max_bytes: usize,
) -> Option<Diff> {
    let (old_lines, new_lines) = (lines(old), lines(new));
    let deadline = Instant::now() + DIFF_TIMEOUT;
    let mut ops = Vec::with_capacity(regions.len() * 3 + 1);
    let (mut o, mut n) = (0, 0);
    let whole = (
        old_lines.len()..old_lines.len(),
        new_lines.len()..new_lines.len(),
    );
    for (old_range, new_range) in regions.iter().chain(std::iter::once(&whole)) {
        let (same_old, same_new) = (
            old_lines.get(o..old_range.start)?,
            new_lines.get(n..new_range.start)?,
        );
        if same_old != same_new {
            return None;
        }
        push(
            &mut ops,
            DiffOp::Equal {
                old_index: o,
                new_index: n,
                len: same_old.len(),
            },
        );
        let (old_part, new_part) = (
            old_lines.get(old_range.clone())?,
            new_lines.get(new_range.clone())?,
        );
        let local = similar::capture_diff_slices_deadline(
            Algorithm::Myers,
            old_part,
            new_part,
            Some(deadline),
        );
        for op in local {
            push(&mut ops, shifted(op, old_range.start, new_range.start));
        }
        (o, n) = (old_range.end, new_range.end);
    }
    Some(render_ops(
        (path, path),
        0,
        &old_lines,
        &new_lines,
        ops,
        max_bytes,
    ))
}

/// Appends `op` to `ops`, an equal run joined to the one before it (as one diff of the
/// whole texts has it, so the context is cut where that diff cuts it); an empty op is
/// dropped.
fn push(ops: &mut Vec<DiffOp>, op: DiffOp) {
    if let DiffOp::Equal { len, .. } = op {
        if len == 0 {
            return;
        }
        if let Some(DiffOp::Equal { len: before, .. }) = ops.last_mut() {
            *before += len;
            return;
        }
    }
    ops.push(op);
}

/// `op`, whose indexes count from lines `old` and `new`, counted from the first lines.
fn shifted(op: DiffOp, old: usize, new: usize) -> DiffOp {
    match op {
        DiffOp::Equal {
            old_index,
            new_index,
            len,
        } => DiffOp::Equal {
            old_index: old_index + old,
            new_index: new_index + new,
            len,
        },
        DiffOp::Delete {
            old_index,
            old_len,
            new_index,
        } => DiffOp::Delete {
            old_index: old_index + old,
            old_len,
            new_index: new_index + new,
        },
        DiffOp::Insert {
            old_index,
            new_index,
            new_len,
        } => DiffOp::Insert {
            old_index: old_index + old,
            new_index: new_index + new,
            new_len,
        },
        DiffOp::Replace {
            old_index,
            old_len,
            new_index,
            new_len,
        } => DiffOp::Replace {
            old_index: old_index + old,
            old_len,
            new_index: new_index + new,
            new_len,
        },
    }
}

/// Renders `ops`, the diff of the lines `old_lines` → `new_lines`, whose first lines are
/// line `skip + 1` of the file.
fn render_ops(
    (from, to): (&str, &str),
    skip: usize,
    old_lines: &[&str],
    new_lines: &[&str],
    ops: Vec<DiffOp>,
    max_bytes: usize,
) -> Diff {
    let stat = stat::of_ops(&ops);
    let mut out = Capped {
        text: String::new(),
        max_bytes,
        truncated: false,
    };
    let mut first = true;
    'hunks: for group in similar::group_diff_ops(ops, CONTEXT) {
        let (Some(head), Some(tail)) = (group.first(), group.last()) else {
            continue;
        };
        if first {
            first = false;
            if !out.push(&format!("--- a/{from}\n")) || !out.push(&format!("+++ b/{to}\n")) {
                break;
            }
        }
        let header = format!(
            "@@ -{} +{} @@\n",
            range(
                skip + head.old_range().start,
                tail.old_range().end - head.old_range().start
            ),
            range(
                skip + head.new_range().start,
                tail.new_range().end - head.new_range().start
            ),
        );
        if !out.push(&header) {
            break;
        }
        let mut line = String::new();
        for op in &group {
            for change in op.iter_changes(old_lines, new_lines) {
                line.clear();
                line.push(match change.tag() {
                    ChangeTag::Equal => ' ',
                    ChangeTag::Delete => '-',
                    ChangeTag::Insert => '+',
                });
                line.push_str(change.value());
                if change.missing_newline() {
                    line.push('\n');
                    line.push_str(NO_NEWLINE);
                }
                if !out.push(&line) {
                    break 'hunks;
                }
            }
        }
    }
    Diff {
        text: out.text,
        truncated: out.truncated,
        stat,
    }
}

/// `text` cut into lines as similar's `diff_lines` cuts it — after each `\n`, `\r\n` or
/// lone `\r`, the terminator kept — found with memchr rather than char by char.
fn lines(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut lines = Vec::with_capacity(bytes.len() / 32 + 1);
    let mut start = 0;
    while let Some(i) = memchr::memchr2(b'\n', b'\r', &bytes[start..]) {
        let mut end = start + i + 1;
        if bytes[end - 1] == b'\r' && bytes.get(end) == Some(&b'\n') {
            end += 1;
        }
        lines.push(&text[start..end]);
        start = end;
    }
    if start < bytes.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// A hunk range as `diff -u` writes it: 1-based start, and the length unless it is 1
/// (an empty range names the line before it).
fn range(start: usize, len: usize) -> String {
    match len {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        _ => format!("{},{len}", start + 1),
    }
}

/// The lines of `old` and `new` that can differ, with [`CONTEXT`] lines either side:
/// returns how many whole lines were skipped at the start, and the two middles.
fn changed_region<'a>(old: &'a str, new: &'a str) -> (usize, &'a str, &'a str) {
    let (o, n) = (old.as_bytes(), new.as_bytes());
    let prefix = common_prefix(o, n);
    // Back up to the start of the line the first difference is on, then `CONTEXT` more.
    // Byte searches for `\n` keep every cut on a character boundary.
    let line_start = |end: usize| memchr::memrchr(b'\n', &o[..end]).map_or(0, |i| i + 1);
    let mut start = line_start(prefix);
    let mut skip = memchr::memchr_iter(b'\n', &o[..start]).count();
    for _ in 0..CONTEXT {
        if start == 0 {
            break;
        }
        start = line_start(start - 1);
        skip -= 1;
    }
    let max_suffix = (o.len() - start).min(n.len() - start);
    let suffix = common_suffix(&o[o.len() - max_suffix..], &n[n.len() - max_suffix..]);
    // Keep the suffix from the end of the line the last difference is on, plus context.
    let mut old_end = o.len() - suffix;
    let mut new_end = n.len() - suffix;
    for _ in 0..=CONTEXT {
        let Some(i) = memchr::memchr(b'\n', &o[old_end..]) else {
            old_end = o.len();
            new_end = n.len();
            break;
        };
        old_end += i + 1;
        new_end += i + 1;
    }
    (skip, &old[start..old_end], &new[start..new_end])
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_are_cut_where_similar_cuts_them() {
        use similar::DiffableStr;
        for text in [
            "",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "a\rb\r",
            "\r\n\r\n\n\r\r",
            "x\r\r\ny\n\nz",
            "é\r\nü\rß\n€",
        ] {
            assert_eq!(super::lines(text), text.tokenize_lines(), "{text:?}");
        }
    }

    use super::*;

    fn numbered(count: usize, line: impl Fn(usize) -> String) -> String {
        let mut text = String::new();
        for i in 0..count {
            text.push_str(&line(i));
            text.push('\n');
        }
        text
    }

    /// A diff counts the lines it adds and removes as [`stat`] does, however much of it
    /// the cap lets through: a file added or removed whole (no diff run), lines changed
    /// among many, an insertion alone, and a cap that cuts the text.
    #[test]
    fn a_diff_counts_what_stat_counts() {
        let many = numbered(300, |i| format!("line {i}"));
        let changed = many
            .replace("line 7\n", "seven\n")
            .replace("line 250\n", "");
        let inserted = many.replace("line 9\n", "line 9\nnew\nnewer\n");
        for (old, new) in [
            ("", many.as_str()),
            (many.as_str(), ""),
            (many.as_str(), changed.as_str()),
            (many.as_str(), inserted.as_str()),
            ("a\r\nb", "a\nb\n"),
        ] {
            for cap in [usize::MAX, 40] {
                let diff = unified("f.txt", old, new, cap);
                assert_eq!(diff.stat, stat(old, new), "{old:.20?} -> {new:.20?}");
                assert_eq!(diff.truncated, cap == 40);
            }
        }
        assert_eq!(
            unified("f.txt", &many, &changed, usize::MAX).stat,
            Stat {
                added: 1,
                removed: 2
            }
        );
    }

    #[test]
    fn equal_inputs_give_an_empty_diff() {
        let diff = unified("f.txt", "a\nb\n", "a\nb\n", 1000);
        assert_eq!(diff.text, "");
        assert!(!diff.truncated);
    }

    #[test]
    fn renders_headers_hunks_and_context() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
        let new = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
        let diff = unified("src/x.rs", old, new, 10_000);
        let expected =
            "--- a/src/x.rs\n+++ b/src/x.rs\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n";
        assert_eq!(diff.text, expected);
        assert!(!diff.truncated);
    }

    #[test]
    fn missing_final_newline_is_marked() {
        let diff = unified("f", "a\nb", "a\nc", 10_000);
        assert_eq!(
            diff.text,
            "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
        );
        let added = unified("f", "a", "a\n", 10_000);
        assert_eq!(
            added.text,
            "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"
        );
    }

    #[test]
    fn truncates_at_line_boundaries_within_the_cap() {
        let old = numbered(200, |i| format!("line {i}"));
        let new = old.replace("line 1", "LINE 1");
        let full = unified("f", &old, &new, usize::MAX);
        assert!(!full.truncated);
        for cap in [0, 5, 17, 40, 100, 333] {
            let cut = unified("f", &old, &new, cap);
            assert!(cut.truncated, "cap {cap}");
            assert!(cut.text.len() <= cap);
            assert!(full.text.starts_with(&cut.text));
            assert!(cut.text.is_empty() || cut.text.ends_with('\n'));
        }
        let exact = unified("f", &old, &new, full.text.len());
        assert_eq!(exact, full);
    }

    #[test]
    fn a_change_deep_in_a_large_text_is_numbered_from_the_file_start() {
        let old = numbered(100_000, |i| format!("line {i}"));
        let new = old.replace("line 77777\n", "LINE 77777\n");
        let diff = unified("f", &old, &new, 10_000);
        assert_eq!(
            diff.text,
            "--- a/f\n+++ b/f\n@@ -77775,7 +77775,7 @@\n line 77774\n line 77775\n line 77776\n-line 77777\n+LINE 77777\n line 77778\n line 77779\n line 77780\n"
        );
        let at_end = unified("f", "a\nb\nc", "a\nb\nd", 1000);
        assert_eq!(
            at_end.text,
            "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n b\n-c\n\\ No newline at end of file\n+d\n\\ No newline at end of file\n"
        );
        let accented = unified("f", "caf\u{e9}\n", "caf\u{e8}\n", 1000);
        assert_eq!(
            accented.text,
            "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-caf\u{e9}\n+caf\u{e8}\n"
        );
        let inserted = unified("f", "a\nb\n", "a\nx\nb\n", 1000);
        assert_eq!(
            inserted.text,
            "--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n a\n+x\n b\n"
        );
    }

    #[test]
    fn a_splice_diffs_like_the_whole_texts() {
        let old = numbered(5000, |i| format!("line {i}"));
        for (from, to, with) in [
            (0, 6, "LINE"),
            (20, 26, "x\ny\n"),
            (old.len() - 10, old.len() - 1, "z"),
        ] {
            let new = format!("{}{with}{}", &old[..from], &old[to..]);
            let spliced = unified_splice("f", &old, from, with, old.len() - to, 100_000);
            assert_eq!(spliced, unified("f", &old, &new, 100_000), "{from}..{to}");
        }
    }

    #[test]
    fn large_inputs_stay_bounded() {
        let old = numbered(100_000, |i| (i * 7 % 1013).to_string());
        let new = numbered(100_000, |i| (i * 11 % 1019).to_string());
        let diff = unified("big", &old, &new, 4096);
        assert!(diff.truncated);
        assert!(diff.text.len() <= 4096);
        assert!(diff.text.starts_with("--- a/big\n+++ b/big\n@@ "));
    }
}
