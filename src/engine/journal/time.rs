//! Entry ids and times: nanoseconds since the epoch as 20 digits (increasing, sortable as
//! text), and RFC 3339 in UTC.

use std::time::{SystemTime, UNIX_EPOCH};

/// Nanoseconds since the epoch, now.
#[must_use]
pub fn now_nanos() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

/// The id for `nanos`.
#[must_use]
pub fn id(nanos: u128) -> String {
    format!("{nanos:020}")
}

/// `nanos` as RFC 3339 in UTC, to the second: `2026-12-01T22:30:05Z`.
#[must_use]
pub fn rfc3339(nanos: u128) -> String {
    let secs = u64::try_from(nanos / 1_000_000_000).unwrap_or(0);
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil(i64::try_from(days).unwrap_or(0));
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
/// `civil_from_days`, http://howardhinnant.github.io/date_algorithms.html).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let m = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn formats_utc() {
        assert_eq!(super::rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(
            super::rfc3339(1_764_628_205_000_000_000),
            "2025-12-01T22:30:05Z"
        );
        assert_eq!(
            super::rfc3339(951_782_400_000_000_000),
            "2000-02-29T00:00:00Z"
        );
        assert_eq!(super::id(5).len(), 20);
    }
}
