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
/// A kept file's head: when it was written (milliseconds since the epoch) and how many
/// lines it holds, with [`FORMAT`] set.
const HEAD: usize = 16;
/// Set in a kept file's count of lines: its digests are [`line_digest`]'s. A file
/// without it holds another function's digests, from an earlier build: not used.
const FORMAT: u64 = 1 << 63;

/// A digest of each line of `text` (its terminator included), by [`line_digest`].
#[must_use]
pub fn digests(text: &[u8]) -> Vec<u64> {
    let mut lines = Vec::with_capacity(text.len() / 32 + 1);
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', text) {
        lines.push(line_digest(&text[start..=end]));
        start = end + 1;
    }
    if start < text.len() {
        lines.push(line_digest(&text[start..]));
    }
    lines
}

/// A digest of `line`, stable across processes and builds: its bytes taken eight at a
/// time (little-endian, the last word padded with zeros), each mixed in by a multiply
/// and a rotation, then its length, finished by `fmix64` of MurmurHash3. Each step is
/// one-to-one, so two lines of one length that differ in one word never share a digest.
#[must_use]
pub fn line_digest(line: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mix = |hash: u64, word: u64| (hash ^ word).wrapping_mul(K).rotate_left(29);
    let mut words = line.chunks_exact(8);
    let mut hash = 0_u64;
    for word in &mut words {
        hash = mix(
            hash,
            u64::from_le_bytes(word.try_into().unwrap_or_default()),
        );
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        let last = rest
            .iter()
            .rev()
            .fold(0_u64, |word, &b| (word << 8) | u64::from(b));
        hash = mix(hash, last);
    }
    hash ^= line.len() as u64;
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    hash ^ (hash >> 33)
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
    bytes.extend_from_slice(&(lines.len() as u64 | FORMAT).to_le_bytes());
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
    let count = u64::from_le_bytes(bytes.get(8..16)?.try_into().ok()?);
    if count & FORMAT == 0 {
        return None;
    }
    let count = usize::try_from(count & !FORMAT).ok()?;
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
    use super::{changed_runs, digests, from_text, line_digest, to_text, unchanged};

    #[test]
    fn a_digest_a_line_its_terminator_included_and_the_same_in_every_build() {
        assert_eq!(line_digest(b"fn main() {\n"), 0x8d4f_b825_300d_2f36);
        assert_eq!(line_digest(b"a"), 0x4385_72a2_e1cb_b6a5);
        // The padding of the last word does not make two lines one.
        assert_eq!(line_digest(b"a\0"), 0xbcb6_29fa_f850_5bcd);
        let text = b"fn main() {\n\n}";
        let each = [&b"fn main() {\n"[..], b"\n", b"}"].map(line_digest);
        assert_eq!(digests(text), each);
        assert_eq!(digests(b"}\n"), [line_digest(b"}\n")]);
        assert!(digests(b"").is_empty());
    }

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
