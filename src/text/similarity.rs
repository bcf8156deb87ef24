//! One similarity measure for every comparison of near-identical text: the share of two
//! sequences' items they have in common, in order — the items a Myers diff keeps, as
//! difflib's and `similar`'s ratio count them — `2 · kept / (len a + len b)`, 1.0 for two
//! empty sequences. Over characters it says how alike two lines are; the candidates also
//! take it over lines (a long text) and over tokens.

use std::hash::Hash;
use std::time::Instant;

use similar::{capture_diff_slices, capture_diff_slices_deadline, Algorithm, DiffOp};

/// How many items two sequences keep in common, in order, of how many they hold
/// together: the measure, before it is a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shared {
    pub kept: usize,
    pub total: usize,
}

impl Shared {
    /// The share, 0..=1 (1.0 for two empty sequences).
    #[must_use]
    pub fn ratio(self) -> f64 {
        if self.total == 0 {
            return 1.0;
        }
        #[allow(
            clippy::cast_precision_loss,
            reason = "text lengths are far below 2^52"
        )]
        let ratio = 2.0 * self.kept as f64 / self.total as f64;
        ratio
    }

    /// The share as `similar` reckons it, in single precision: the candidates' scores and
    /// their order (a corpus of real mistakes measures them) were set with it.
    #[must_use]
    pub fn ratio_f32(self) -> f64 {
        if self.total == 0 {
            return 1.0;
        }
        #[allow(
            clippy::cast_precision_loss,
            reason = "as similar's get_diff_ratio reckons it"
        )]
        let ratio = 2.0 * self.kept as f32 / self.total as f32;
        f64::from(ratio)
    }
}

/// The share of items `a` and `b` have in common, in order, 0..=1. With a `deadline`, a
/// diff that reaches it gives a coarser (lower) figure rather than a late one.
#[must_use]
pub fn ratio<T: Hash + Eq + Ord>(a: &[T], b: &[T], deadline: Option<Instant>) -> f64 {
    shared(a, b, deadline).ratio()
}

/// What `a` and `b` keep in common, in order, as [`ratio`] counts it.
#[must_use]
pub fn shared<T: Hash + Eq + Ord>(a: &[T], b: &[T], deadline: Option<Instant>) -> Shared {
    let total = a.len() + b.len();
    if total == 0 {
        return Shared { kept: 0, total };
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
    Shared { kept, total }
}

/// How alike two texts are by characters, 0..=1: [`ratio`] over their `char`s.
#[must_use]
pub fn chars(a: &str, b: &str, deadline: Option<Instant>) -> f64 {
    if a == b {
        return 1.0;
    }
    chars_shared(a, b, deadline).ratio()
}

/// What two texts keep in common by characters, as [`chars`] counts it.
#[must_use]
pub fn chars_shared(a: &str, b: &str, deadline: Option<Instant>) -> Shared {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    shared(&a, &b, deadline)
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
