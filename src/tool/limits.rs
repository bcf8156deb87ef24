//! Size and count limits: the defaults of the contract, overridable by policy.

use super::args::invalid;
use crate::refusal::Refusal;

/// The limits one call runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Cap on the text `read_file` returns (and the most its `maxBytes` may ask for).
    pub max_read_bytes: u64,
    /// Largest file that read, write and edit will handle.
    pub max_file_bytes: u64,
    /// Default number of entries `list_directory` returns.
    pub list: u64,
    /// Default number of matches `glob` returns.
    pub glob: u64,
    /// Default number of matches `search_files` returns.
    pub search: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_read_bytes: 262_144,
            max_file_bytes: 268_435_456,
            list: 500,
            glob: 1000,
            search: 100,
        }
    }
}

/// How far a caller may raise a default count limit.
pub const RAISE: u64 = 10;

/// The `hint` of a result that `limit` cut: what was shown, how to narrow, how far the
/// limit may be raised.
#[must_use]
pub fn cut_hint(shown: &str, narrow: &str, default: u64) -> String {
    format!(
        "Showing {shown}: {narrow}, or raise limit (up to {}).",
        default.saturating_mul(RAISE)
    )
}

/// The caller's `limit`, or the default; at least 1 and at most ten times the default.
pub fn count(requested: Option<u64>, default: u64) -> Result<usize, Refusal> {
    let cap = default.saturating_mul(RAISE);
    match requested {
        None => Ok(usize::try_from(default).unwrap_or(usize::MAX)),
        Some(n) if (1..=cap).contains(&n) => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        Some(n) => Err(invalid(
            "limit",
            format!("limit {n} is out of range: it must be from 1 to {cap}"),
        )
        .with("cap", cap)),
    }
}
