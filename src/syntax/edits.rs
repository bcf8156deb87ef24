//! The edits that take one text to another, as tree-sitter's incremental parse is told
//! them. A parse reuses what no edit touches, so each run of changed lines is an edit of
//! its own, less the bytes its two sides share at either end: a change of two places in
//! a function is two small edits, and the statements between them are reused, where one
//! edit from the first difference to the last would have them lexed and parsed again.

use std::ops::Range;
use std::time::{Duration, Instant};

use tree_sitter::{InputEdit, Point};

use crate::affix::{common_prefix, common_suffix};

/// How long the line diff may look for separate runs before settling for fewer, longer
/// ones (each still exact).
const DIFF_TIME: Duration = Duration::from_millis(1);

/// The edits that take `from` to `to` by `runs` (theirs, [`runs`]), in the order a tree
/// of `from` is to be edited with them: the last first, so that each is in the
/// coordinates of `from`.
pub(super) fn edits(
    from: &[u8],
    to: &[u8],
    runs: Vec<(Range<usize>, Range<usize>)>,
) -> Vec<InputEdit> {
    let mut rows = Rows::default();
    let mut edits: Vec<InputEdit> = runs
        .into_iter()
        .map(|(was, now)| {
            let start_position = rows.at(from, was.start);
            let old_end_position = rows.at(from, was.end);
            InputEdit {
                start_byte: was.start,
                old_end_byte: was.end,
                new_end_byte: was.start + now.len(),
                start_position,
                old_end_position,
                new_end_position: after(start_position, &to[now]),
            }
        })
        .collect();
    edits.reverse();
    edits
}

/// The changed runs from `from` to `to`, in order, as the byte ranges of each text: the
/// lines between the common start and end of the texts that a line diff finds changed,
/// each less the bytes its two sides share at either end.
pub(super) fn runs(from: &[u8], to: &[u8]) -> Vec<(Range<usize>, Range<usize>)> {
    if from == to {
        return Vec::new();
    }
    let prefix = common_prefix(from, to);
    let suffix = common_suffix(&from[prefix..], &to[prefix..]);
    // Whole lines: from the start of the line the first difference is in to the end of
    // the line the last one is in (the same bytes in both texts outside the difference).
    let start = memchr::memrchr(b'\n', &from[..prefix]).map_or(0, |i| i + 1);
    let from_end = from.len() - suffix;
    let tail = memchr::memchr(b'\n', &from[from_end..]).map_or(suffix, |i| i + 1);
    let (from_end, to_end) = (from_end + tail, to.len() - suffix + tail);
    let a: Vec<&[u8]> = from[start..from_end]
        .split_inclusive(|&b| b == b'\n')
        .collect();
    let b: Vec<&[u8]> = to[start..to_end].split_inclusive(|&b| b == b'\n').collect();
    let (a_at, b_at) = (offsets(start, &a), offsets(start, &b));
    let deadline = Instant::now() + DIFF_TIME;
    let mut runs = Vec::new();
    let diff =
        similar::capture_diff_slices_deadline(similar::Algorithm::Myers, &a, &b, Some(deadline));
    for op in diff.iter().filter(|op| op.tag() != similar::DiffTag::Equal) {
        let (lines_a, lines_b) = (op.old_range(), op.new_range());
        // As many lines for as many: line by line (a change on each of two lines is two
        // runs, each of a token, where one run would hold the lines between them).
        let pairs: Vec<_> = if lines_a.len() == lines_b.len() {
            lines_a
                .zip(lines_b)
                .map(|(i, j)| (i..i + 1, j..j + 1))
                .collect()
        } else {
            vec![(lines_a, lines_b)]
        };
        for (lines_a, lines_b) in pairs {
            let was = a_at[lines_a.start]..a_at[lines_a.end];
            let now = b_at[lines_b.start]..b_at[lines_b.end];
            if from[was.clone()] == to[now.clone()] {
                continue;
            }
            let same_start = common_prefix(&from[was.clone()], &to[now.clone()]);
            let (was, now) = (
                was.start + same_start..was.end,
                now.start + same_start..now.end,
            );
            let same_end = common_suffix(&from[was.clone()], &to[now.clone()]);
            runs.push((was.start..was.end - same_end, now.start..now.end - same_end));
        }
    }
    runs
}

/// Where each of `lines` starts, and where the last ends, from `start`.
fn offsets(start: usize, lines: &[&[u8]]) -> Vec<usize> {
    let mut at = vec![start];
    at.extend(lines.iter().scan(start, |end, line| {
        *end += line.len();
        Some(*end)
    }));
    at
}

/// The rows and columns of a text's offsets, asked in order: each answer counts the line
/// breaks from the last one.
#[derive(Default)]
struct Rows {
    at: usize,
    row: usize,
    line_start: usize,
}

impl Rows {
    /// The row and byte column of offset `to` in `text`, no earlier than the last asked.
    fn at(&mut self, text: &[u8], to: usize) -> Point {
        let passed = &text[self.at..to];
        if let Some(last) = memchr::memrchr(b'\n', passed) {
            self.row += memchr::memchr_iter(b'\n', passed).count();
            self.line_start = self.at + last + 1;
        }
        self.at = to;
        Point::new(self.row, to - self.line_start)
    }
}

/// The point after `inserted` put at `start`.
fn after(start: Point, inserted: &[u8]) -> Point {
    match memchr::memrchr(b'\n', inserted) {
        Some(last) => Point::new(
            start.row + memchr::memchr_iter(b'\n', inserted).count(),
            inserted.len() - last - 1,
        ),
        None => Point::new(start.row, start.column + inserted.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::{edits, runs};
    use crate::syntax::Language;

    /// `from` with `runs` put in, the last first, as a tree is edited.
    fn replay(from: &[u8], to: &[u8]) -> Vec<u8> {
        let mut text = from.to_vec();
        for (was, now) in runs(from, to).into_iter().rev() {
            text.splice(was, to[now].iter().copied());
        }
        text
    }

    #[test]
    fn separate_changes_are_separate_small_edits() {
        let from = b"fn f47() {\n    let v = 1;\n    47\n}\n";
        let to = b"fn f470() {\n    let v = 1;\n    470\n}\n";
        assert_eq!(runs(from, to), [(6..6, 6..7), (32..32, 33..34)]);
        let edits = edits(from, to, runs(from, to));
        assert_eq!(
            edits
                .iter()
                .map(|e| (e.start_byte, e.old_end_byte, e.new_end_byte))
                .collect::<Vec<_>>(),
            [(32, 32, 33), (6, 6, 7)]
        );
        assert_eq!(
            (edits[0].start_position.row, edits[0].start_position.column),
            (2, 6)
        );
        assert_eq!(
            (
                edits[0].new_end_position.row,
                edits[0].new_end_position.column
            ),
            (2, 7)
        );
        assert!(runs(from, from).is_empty());
        assert_eq!(runs(b"a\nb", b"a\nb\n"), [(3..3, 3..4)]);
        assert_eq!(runs(b"", b"x\ny\n"), [(0..0, 0..4)]);
        assert_eq!(runs(b"x\ny\n", b"x\n"), [(2..4, 2..2)]);
    }

    /// Edits of texts cut and spliced at random lines and bytes: they take the one text
    /// to the other exactly, and the parse from an edited tree is the fresh parse's.
    #[test]
    fn the_edits_take_one_text_to_the_other() {
        let lines = [
            "fn f(a: i32) -> i32 {\n",
            "    let v = [a, (2), 3];\n",
            "    v.iter().sum::<i32>()\n",
            "}\n",
            "\n",
            "    // note\n",
            "struct S { a: u8 }\n",
        ];
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        let mut random = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            usize::try_from(seed >> 33).unwrap() % n
        };
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&Language::Rust.grammar()).unwrap();
        let mut edited = 0;
        for _ in 0..400 {
            let from: String = (0..random(30))
                .map(|_| lines[random(lines.len())])
                .collect();
            let mut to: Vec<u8> = from.clone().into_bytes();
            for _ in 0..=random(4) {
                let at = random(to.len() + 1);
                let (end, put): (usize, &[u8]) = match random(3) {
                    0 => (at, lines[random(lines.len())].as_bytes()),
                    1 => ((at + random(8)).min(to.len()), b""),
                    _ => (at, b"x("),
                };
                to.splice(at..end, put.iter().copied());
            }
            let from = from.as_bytes();
            assert_eq!(replay(from, &to), to);
            let mut tree = parser.parse(from, None).unwrap();
            for edit in edits(from, &to, runs(from, &to)) {
                tree.edit(&edit);
                edited += 1;
            }
            let again = parser.parse(&to, Some(&tree)).unwrap();
            let fresh = parser.parse(&to, None).unwrap();
            assert_eq!(
                again.root_node().to_sexp(),
                fresh.root_node().to_sexp(),
                "{:?} -> {:?}",
                String::from_utf8_lossy(from),
                String::from_utf8_lossy(&to)
            );
        }
        assert!(edited > 600, "{edited}");
    }
}
