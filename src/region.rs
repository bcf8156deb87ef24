//! What tells which lines of a file changed since a session observed it (§6, staleness
//! by region): a digest per line of each version a session read — kept in the session's
//! ledger beside the version (as [`to_text`] writes them) or, for a version of many lines
//! or one the ledger has no room for, under `.stitch/lines/<sha256 of the version>` — and
//! the mapping of today's lines onto the
//! lines observed — unchanged, same order, through the lines inserted or removed
//! elsewhere — so that an edit whose lines a formatter or another agent did not touch
//! still lands, and one whose lines they did is refused naming them.

use similar::{capture_diff_slices, Algorithm, DiffOp};

use crate::workspace::Workspace;

/// Files up to this size are tracked by line; past it the whole-file rule stays.
pub const MAX_REGION_BYTES: u64 = 4 << 20;

/// How many versions' line digests a workspace keeps.
const KEEP: usize = 1024;

const DIR: &str = "lines";
const HEAD: usize = 16;

/// A digest of each line of `text` (its terminator included), FNV-1a: stable across
/// processes and builds.
#[must_use]
pub fn digests(text: &[u8]) -> Vec<u64> {
    text.split_inclusive(|&b| b == b'\n')
        .map(|line| {
            line.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, &b| {
                (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            })
        })
        .collect()
}

/// How many characters [`to_text`] writes a line.
pub const TEXT_PER_LINE: usize = 11;

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The line digests `lines` as text: each as 11 digits of base 64 (RFC 4648's alphabet),
/// the most significant first, in order.
#[must_use]
pub fn to_text(lines: &[u64]) -> String {
    let mut out = Vec::with_capacity(lines.len() * TEXT_PER_LINE);
    for line in lines {
        out.extend(
            (0..TEXT_PER_LINE)
                .rev()
                .map(|i| BASE64[((line >> (i * 6)) & 63) as usize]),
        );
    }
    String::from_utf8(out).unwrap_or_default()
}

/// The line digests [`to_text`] wrote, if `text` is whole: a length a multiple of 11,
/// nothing but the alphabet's digits, each line's first digit under 16 (64 bits).
#[must_use]
pub fn from_text(text: &str) -> Option<Vec<u64>> {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(TEXT_PER_LINE) {
        return None;
    }
    let digit = |b: u8| -> Option<u64> {
        let value = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        Some(u64::from(value))
    };
    bytes
        .chunks_exact(TEXT_PER_LINE)
        .map(|chunk| {
            let first = digit(chunk[0]).filter(|&d| d < 16)?;
            chunk[1..]
                .iter()
                .try_fold(first, |line, &b| Some((line << 6) | digit(b)?))
        })
        .collect()
}

/// Keeps the line digests of the version `sha` (its bytes: `text`), once; best effort.
pub fn keep(ws: &Workspace, sha: &str, text: &[u8]) {
    if text.len() as u64 > MAX_REGION_BYTES {
        return;
    }
    keep_digests(ws, sha, &digests(text));
}

/// Keeps `lines`, the line digests of the version `sha`, under `.stitch/lines/`, once;
/// best effort.
pub fn keep_digests(ws: &Workspace, sha: &str, lines: &[u64]) {
    if !crate::digest::is_sha256_hex(sha) {
        return;
    }
    let mut bytes = Vec::with_capacity(HEAD + lines.len() * 8);
    bytes.extend_from_slice(&now_millis().to_le_bytes());
    bytes.extend_from_slice(&(lines.len() as u64).to_le_bytes());
    for line in lines {
        bytes.extend_from_slice(&line.to_le_bytes());
    }
    if let Ok(true) = ws.write_state_once(DIR, sha, &bytes) {
        // The bound is held from time to time, not on every read.
        if sha.as_bytes()[0].is_multiple_of(16) {
            let _ = ws.prune_state(DIR, crate::digest::is_sha256_hex, KEEP, sha, rank);
        }
    }
}

/// The line digests kept for the version `sha`, if they are there whole.
#[must_use]
pub fn kept(ws: &Workspace, sha: &str) -> Option<Vec<u64>> {
    let limit = HEAD as u64 + MAX_REGION_BYTES * 8;
    let bytes = ws.read_state(DIR, sha, limit).ok()??;
    let count = usize::try_from(u64::from_le_bytes(bytes.get(8..16)?.try_into().ok()?)).ok()?;
    let body = bytes.get(HEAD..)?;
    if body.len() != count.checked_mul(8)? {
        return None;
    }
    Some(
        body.chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect(),
    )
}

/// For each line of today's text (`now`), whether it is a line the session observed
/// (`seen`, minus the ranges `unseen`, 1-based inclusive): unchanged, in order.
#[must_use]
pub fn unchanged(seen: &[u64], unseen: &[(usize, usize)], now: &[u64]) -> Vec<bool> {
    let mut same = vec![false; now.len()];
    for op in capture_diff_slices(Algorithm::Myers, seen, now) {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            for i in 0..len {
                let observed = !unseen
                    .iter()
                    .any(|&(start, end)| (start..=end).contains(&(old_index + i + 1)));
                same[new_index + i] = observed;
            }
        }
    }
    same
}

/// The runs of lines not unchanged, 1-based inclusive, in today's numbering.
#[must_use]
pub fn changed_runs(unchanged: &[bool]) -> Vec<(usize, usize)> {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (i, &same) in unchanged.iter().enumerate() {
        if same {
            continue;
        }
        match runs.last_mut() {
            Some(run) if run.1 == i => run.1 = i + 1,
            _ => runs.push((i + 1, i + 1)),
        }
    }
    runs
}

fn now_millis() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn rank(head: &[u8]) -> u64 {
    head.get(..8)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

#[cfg(test)]
mod tests {
    use super::{changed_runs, digests, from_text, to_text, unchanged};

    #[test]
    fn digests_as_text_come_back_whole_or_not_at_all() {
        let lines = digests(b"a\nb\n\nlast");
        assert_eq!(lines.len(), 4);
        let text = to_text(&lines);
        assert_eq!(text.len(), 44);
        assert_eq!(from_text(&text), Some(lines));
        let edges = vec![0, u64::MAX, 63 << 58];
        assert_eq!(to_text(&edges), "AAAAAAAAAAAP//////////PwAAAAAAAAA");
        assert_eq!(from_text("AAAAAAAAAAAP//////////PwAAAAAAAAA"), Some(edges));
        assert_eq!(from_text(""), Some(Vec::new()));
        // Too short, a digit past 64 bits, one not of the alphabet, a padding.
        for torn in ["AAAAAAAAAA", "QAAAAAAAAAA", "AAAAAAAAAA-", "AAAAAAAAAA="] {
            assert_eq!(from_text(torn), None, "{torn}");
        }
    }

    #[test]
    fn lines_inserted_above_shift_and_stay_unchanged() {
        let seen = digests(b"a\nb\nc\nd\n");
        let now = digests(b"x\ny\na\nb\nC\nd\n");
        let same = unchanged(&seen, &[], &now);
        assert_eq!(same, [false, false, true, true, false, true]);
        assert_eq!(changed_runs(&same), [(1, 2), (5, 5)]);
        // A line the session never saw in this form is not unchanged.
        let same = unchanged(&seen, &[(2, 2)], &now);
        assert_eq!(same, [false, false, true, false, false, true]);
    }
}
