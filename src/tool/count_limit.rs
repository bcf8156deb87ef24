//! Count limits as a call asks for them: the caller's `limit` checked against the
//! policy's default.

use super::args::invalid;
use crate::refusal::Refusal;

/// How far a caller may raise a default count limit.
pub const RAISE: u64 = 10;

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
