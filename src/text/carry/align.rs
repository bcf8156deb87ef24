//! How two texts line up: the runs they share in order, the stretches between them, each
//! line of one paired with the line of the other it is (equal once whitespace is set
//! aside, or alike enough), and how far apart two texts or two lines are.

use similar::{capture_diff_slices, Algorithm, DiffOp};

use super::chars::word;
use super::{lf, Parts, MIN_PART, PAIRED};
use crate::text::normal::collapsed;
use crate::text::similarity;

/// The runs two sequences share, in order on both sides: `(a_start, b_start, len)`. Runs
/// that would not keep both sides in order are left out, so the stretches between runs
/// are always well formed.
fn shared_runs<T: Eq + std::hash::Hash + Ord>(a: &[T], b: &[T]) -> Vec<(usize, usize, usize)> {
    let mut runs = Vec::new();
    let (mut a_end, mut b_end) = (0, 0);
    for op in capture_diff_slices(Algorithm::Myers, a, b) {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            if old_index >= a_end && new_index >= b_end && len > 0 {
                runs.push((old_index, new_index, len));
                (a_end, b_end) = (old_index + len, new_index + len);
            }
        }
    }
    runs
}

/// Shared runs `(a_start, b_start, len)`.
type SharedRuns = Vec<(usize, usize, usize)>;
/// Stretches between runs `(a_start, a_len, b_start, b_len)`.
type Stretches = Vec<(usize, usize, usize, usize)>;

/// The shared runs, and the stretches between them, each with something on one side at
/// least.
pub(super) fn stretches<T: Eq + std::hash::Hash + Ord>(
    a: &[T],
    b: &[T],
) -> (SharedRuns, Stretches) {
    let runs = shared_runs(a, b);
    let mut gaps = Vec::new();
    let (mut a_at, mut b_at) = (0, 0);
    for &(ai, bi, len) in runs.iter().chain([(a.len(), b.len(), 0)].iter()) {
        if ai > a_at || bi > b_at {
            gaps.push((a_at, ai - a_at, b_at, bi - b_at));
        }
        (a_at, b_at) = (ai + len, bi + len);
    }
    (runs, gaps)
}

/// How the lines of one text map onto another's.
pub(super) struct Alignment {
    /// For each line of the first text, the line of the second it is (changed or not).
    pub(super) paired: Vec<Option<usize>>,
    /// For each gap before line i of the first text (and one after the last), the lines
    /// of the second text that sit there and pair with none.
    pub(super) inserted: Vec<Vec<usize>>,
}

/// How lines that differ are paired within a stretch where both texts differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pairing {
    /// In order, each line with the next one like it enough.
    BySimilarity,
    /// Line for line where the stretch has as many lines on both sides (the caller's
    /// change of a line is that line changed, however much), else by similarity.
    LineForLine,
}

/// Aligns `a`'s lines with `b`'s: equal once whitespace is set aside, or, within a stretch
/// that differs, paired as `pairing` says.
pub(super) fn align(a: &[&str], b: &[&str], pairing: Pairing, parts: Parts) -> Alignment {
    let na: Vec<String> = a.iter().map(|l| collapsed(l)).collect();
    let nb: Vec<String> = b.iter().map(|l| collapsed(l)).collect();
    let mut paired = vec![None; a.len()];
    let (runs, gaps) = stretches(&na, &nb);
    for (old_index, new_index, len) in runs {
        for i in 0..len {
            paired[old_index + i] = Some(new_index + i);
        }
    }
    for (old_index, old_len, new_index, new_len) in gaps {
        if old_len == 0 || new_len == 0 {
            continue;
        }
        if pairing == Pairing::LineForLine && old_len == new_len {
            for i in 0..old_len {
                paired[old_index + i] = Some(new_index + i);
            }
            continue;
        }
        // In order: each line of `a` takes the next line of `b` like it enough — or that
        // it is the start or the end of (a line copied from its middle, or cut short).
        let mut next = new_index;
        let cut = |x: &str, y: &str| x.len() >= MIN_PART && (y.starts_with(x) || y.ends_with(x));
        let part = |x: &str, y: &str| cut(x, y) || (parts == Parts::Mirrored && cut(y, x));
        for i in old_index..old_index + old_len {
            let found = (next..new_index + new_len).find(|&j| {
                similarity::chars(&na[i], &nb[j], None) >= PAIRED || part(&na[i], &nb[j])
            });
            if let Some(j) = found {
                paired[i] = Some(j);
                next = j + 1;
            }
        }
    }
    let mut inserted = vec![Vec::new(); a.len() + 1];
    let mut taken = vec![false; b.len()];
    for j in paired.iter().flatten() {
        taken[*j] = true;
    }
    // An unpaired line of `b` sits before the first line of `a` paired after it.
    let mut gap_of_next = vec![a.len(); b.len() + 1];
    for (i, j) in paired.iter().enumerate().rev() {
        if let Some(j) = j {
            for g in gap_of_next.iter_mut().take(*j + 1) {
                *g = (*g).min(i);
            }
        }
    }
    for j in 0..b.len() {
        if !taken[j] {
            inserted[gap_of_next[j]].push(j);
        }
    }
    Alignment { paired, inserted }
}

/// How far apart two texts are in tokens (words, single other characters): how many
/// tokens that are not whitespace differ, and how many runs of whitespace, with line
/// endings set aside.
#[must_use]
pub fn token_distance(a: &str, b: &str) -> (usize, usize) {
    let (a, b) = (tokens(&lf(a)), tokens(&lf(b)));
    let mut distance = (0, 0);
    for (ai, al, bi, bl) in stretches(&a, &b).1 {
        let count = |side: &[String]| {
            let space = side.iter().filter(|t| t.trim().is_empty()).count();
            (side.len() - space, space)
        };
        let (x, y) = (count(&a[ai..ai + al]), count(&b[bi..bi + bl]));
        distance.0 += x.0.max(y.0);
        distance.1 += x.1.max(y.1);
    }
    distance
}

fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut last: Option<u8> = None;
    for c in text.chars() {
        let class = if word(c) {
            0
        } else if c.is_whitespace() {
            1
        } else {
            2
        };
        match out.last_mut() {
            Some(token) if class != 2 && last == Some(class) => token.push(c),
            _ => out.push(c.to_string()),
        }
        last = Some(class);
    }
    out
}
