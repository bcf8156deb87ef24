//! One similarity measure for every comparison of near-identical text: the share of two
//! sequences' items they have in common, in order — the items a Myers diff keeps, as
//! difflib's and `similar`'s ratio count them — `2 · kept / (len a + len b)`, 1.0 for two
//! empty sequences. Over characters it says how alike two lines are; the candidates also
//! take it over lines (a long text) and over tokens.

use std::hash::Hash;
use std::time::Instant;

use similar::{capture_diff_slices, capture_diff_slices_deadline, Algorithm, DiffOp};

/// The share of items `a` and `b` have in common, in order, 0..=1. With a `deadline`, a
/// diff that reaches it gives a coarser (lower) figure rather than a late one.
#[must_use]
pub fn ratio<T: Hash + Eq + Ord>(a: &[T], b: &[T], deadline: Option<Instant>) -> f64 {
    let total = a.len() + b.len();
    if total == 0 {
        return 1.0;
    }
    let ops = match deadline {
        Some(deadline) => capture_diff_slices_deadline(Algorithm::Myers, a, b, Some(deadline)),
        None => capture_diff_slices(Algorithm::Myers, a, b),
    };
    let kept: usize = ops
        .iter()
        .map(|op| match *op {
            DiffOp::Equal { len, .. } => len,
            _ => 0,
        })
        .sum();
    #[allow(
        clippy::cast_precision_loss,
        reason = "text lengths are far below 2^52"
    )]
    let ratio = 2.0 * kept as f64 / total as f64;
    ratio
}

/// How alike two texts are by characters, 0..=1: [`ratio`] over their `char`s.
#[must_use]
pub fn chars(a: &str, b: &str, deadline: Option<Instant>) -> f64 {
    if a == b {
        return 1.0;
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    ratio(&a, &b, deadline)
}

#[cfg(test)]
mod tests {
    use super::{chars, ratio};

    #[test]
    fn the_share_kept_in_order_over_both_lengths() {
        assert!((chars("abcd", "abxd", None) - 0.75).abs() < 1e-12);
        assert!((chars("", "", None) - 1.0).abs() < 1e-12);
        assert!(chars("", "a", None).abs() < 1e-12);
        assert!((ratio(&["a\n", "b\n"], &["a\n", "c\n"], None) - 0.5).abs() < 1e-12);
    }
}
