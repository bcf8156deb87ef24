//! Cheap, deadline-bounded voting for where a near-miss snippet might start: exact votes from whitespace-free line
//! hashes, fuzzy votes from bigram overlap, or from token overlap when one long token (a hash, a name) differs; and
//! votes with line breaks set aside — two lines of the snippet that are one line of the file, or one line of the
//! snippet that is two of the file (a continuation `\` dropped either way).

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How many of the snippet's unmatched lines get the (costlier) fuzzy scan; the longest are the most distinctive.
const FUZZY_LINES: usize = 8;

/// The bigram Dice coefficient a file line needs before it votes for a fuzzy match.
const FUZZY_MIN_DICE: f64 = 0.5;

/// How many lines are processed between deadline checks, so checking the clock stays negligible.
const CHECK_EVERY: usize = 1024;

/// A line's fingerprint with all whitespace removed, so indentation and spacing never hide a match.
fn fingerprint(line: &[u8]) -> (u64, usize) {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut len = 0;
    for &byte in line.iter().filter(|b| !b.is_ascii_whitespace()) {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        len += 1;
    }
    (hash, len)
}

/// A line without the continuation `\\` (and the whitespace around it) that ends it, if any.
fn uncontinued(line: &[u8]) -> &[u8] {
    let line = line.trim_ascii_end();
    line.strip_suffix(b"\\")
        .map_or(line, <[u8]>::trim_ascii_end)
}

/// The fingerprint of two lines read as one: the first without its continuation `\\`,
/// then the second.
fn joined_fingerprint(first: &[u8], second: &[u8]) -> (u64, usize) {
    let (mut hash, mut len) = fingerprint(uncontinued(first));
    for &byte in second.iter().filter(|b| !b.is_ascii_whitespace()) {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        len += 1;
    }
    (hash, len)
}

/// Writes the byte bigrams of the line's non-whitespace bytes into `out`, reusing its allocation.
fn bigrams(line: &[u8], out: &mut Vec<u16>) {
    out.clear();
    let mut prev: Option<u8> = None;
    for &byte in line.iter().filter(|b| !b.is_ascii_whitespace()) {
        if let Some(p) = prev {
            out.push((u16::from(p) << 8) | u16::from(byte));
        }
        prev = Some(byte);
    }
}

/// Whether a byte belongs to a word token: letters, digits, `_`, and any byte of a non-ASCII character.
fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte >= 0x80
}

/// Writes the sorted hashes of the line's tokens (words, and every other non-whitespace byte) into `out`.
fn token_hashes(line: &[u8], out: &mut Vec<u64>) {
    out.clear();
    let mut i = 0;
    while i < line.len() {
        if line[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if is_word(line[start]) {
            while i < line.len() && is_word(line[i]) {
                i += 1;
            }
        }
        out.push(fingerprint(&line[start..i]).0);
    }
    out.sort_unstable();
}

/// The Dice coefficient of two sorted token-hash multisets.
#[allow(
    clippy::cast_precision_loss,
    reason = "token counts are far below 2^52"
)]
fn token_dice(a: &[u64], b: &[u64]) -> f64 {
    let (mut i, mut j, mut shared) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    2.0 * shared as f64 / (a.len() + b.len()).max(1) as f64
}

/// The fewest tokens a snippet line needs before token overlap may vote: with fewer, one token is most of the line.
const MIN_TOKENS: usize = 3;

/// One snippet line prepared for fuzzy comparison: its index, its bigram multiset as a dense count table, and its
/// sorted token hashes.
struct FuzzyLine {
    index: usize,
    counts: Vec<u8>,
    total: usize,
    tokens: Vec<u64>,
}

impl FuzzyLine {
    /// Builds the count table for the snippet line at `index`.
    fn new(index: usize, line: &[u8], scratch: &mut Vec<u16>) -> Self {
        bigrams(line, scratch);
        let mut counts = vec![0u8; 1 << 16];
        for &gram in scratch.iter() {
            let slot = &mut counts[usize::from(gram)];
            *slot = slot.saturating_add(1);
        }
        let mut tokens = Vec::new();
        token_hashes(line, &mut tokens);
        FuzzyLine {
            index,
            counts,
            total: scratch.len(),
            tokens,
        }
    }

    /// Whether a file line with `total` bigrams could reach the Dice threshold at all (`2·min/(a+b)`).
    fn could_match(&self, total: usize) -> bool {
        let (small, large) = (self.total.min(total), self.total.max(total));
        small > 0 && 3 * small >= large
    }

    /// The Dice coefficient between this line and the file line's bigrams; `seen` must be all zero and is left so.
    #[allow(
        clippy::cast_precision_loss,
        reason = "bigram counts are far below 2^52"
    )]
    fn dice(&self, grams: &[u16], seen: &mut [u8]) -> f64 {
        let mut shared = 0usize;
        for &gram in grams {
            let slot = &mut seen[usize::from(gram)];
            *slot = slot.saturating_add(1);
            if *slot <= self.counts[usize::from(gram)] {
                shared += 1;
            }
        }
        for &gram in grams {
            seen[usize::from(gram)] = 0;
        }
        2.0 * shared as f64 / (self.total + grams.len()) as f64
    }
}

/// Votes for each possible window start (index = 0-based first line), given the file's and snippet's lines without terminators.
///
/// Exact votes weigh `1/sqrt(occurrences)` so common lines such as `}` count little; fuzzy votes weigh `dice²` and run
/// only for snippet lines with no exact match anywhere. Hashing stops at `started + budget`, fuzzy scanning at 60% of it.
pub(super) fn vote(
    file: &[&[u8]],
    snippet: &[&[u8]],
    started: Instant,
    budget: Duration,
) -> Vec<f64> {
    let hard_deadline = started + budget;
    let fuzzy_deadline = started + budget.mul_f64(0.6);
    let Exact {
        mut votes,
        matched,
        lens,
        hashes,
    } = vote_exact(file, snippet, hard_deadline);
    let seen = Measured {
        lens: &lens,
        hashes: &hashes,
    };
    vote_joined(file, snippet, &matched, &seen, &mut votes, hard_deadline);
    vote_fuzzy(file, snippet, &matched, &lens, &mut votes, fuzzy_deadline);
    votes
}

/// What the exact pass gives: the votes, whether each snippet line matched a file line,
/// and what it learned of each file line it reached ([`Measured`]).
struct Exact {
    votes: Vec<f64>,
    matched: Vec<bool>,
    lens: Vec<usize>,
    hashes: Vec<u64>,
}

/// The exact votes: each file line equal to a snippet line (whitespace set aside) votes
/// for the window that puts them together, weighing `1/sqrt(occurrences)`. Hashing stops
/// at `deadline`.
#[allow(
    clippy::cast_precision_loss,
    reason = "occurrence counts are far below 2^52"
)]
fn vote_exact(file: &[&[u8]], snippet: &[&[u8]], deadline: Instant) -> Exact {
    let mut slots: HashMap<u64, usize> = HashMap::new();
    let mut slot_lines: Vec<Vec<usize>> = Vec::new();
    for (index, line) in snippet.iter().enumerate() {
        let (hash, len) = fingerprint(line);
        if len > 0 {
            let slot = *slots.entry(hash).or_insert_with(|| {
                slot_lines.push(Vec::new());
                slot_lines.len() - 1
            });
            slot_lines[slot].push(index);
        }
    }
    let mut occurrences = vec![0usize; slot_lines.len()];
    let mut hits: Vec<(usize, usize)> = Vec::new();
    let mut lens = Vec::with_capacity(file.len());
    let mut hashes = Vec::with_capacity(file.len());
    for (line_no, line) in file.iter().enumerate() {
        // The first lines are always taken, so that a call held up before it began (a
        // loaded machine) still answers for a small file.
        if line_no > 0 && line_no % CHECK_EVERY == 0 && Instant::now() >= deadline {
            break;
        }
        let (hash, len) = fingerprint(line);
        lens.push(len);
        hashes.push(hash);
        if let Some(&slot) = slots.get(&hash).filter(|_| len > 0) {
            occurrences[slot] += 1;
            hits.push((line_no, slot));
        }
    }
    let mut votes = vec![0.0f64; file.len()];
    for &(line_no, slot) in &hits {
        let weight = 1.0 / (occurrences[slot] as f64).sqrt();
        for &index in &slot_lines[slot] {
            votes[line_no.saturating_sub(index)] += weight;
        }
    }
    let matched: Vec<bool> = snippet
        .iter()
        .map(|line| {
            let (hash, _) = fingerprint(line);
            slots.get(&hash).is_some_and(|&slot| occurrences[slot] > 0)
        })
        .collect();
    Exact {
        votes,
        matched,
        lens,
        hashes,
    }
}

/// The fuzzy votes, for the longest snippet lines that matched no file line exactly:
/// each file line like one of them (by bigrams, or by tokens for a line of several)
/// votes `dice²`. `lens` are the file lines' whitespace-free lengths the exact pass
/// reached; scanning stops at `deadline`.
fn vote_fuzzy(
    file: &[&[u8]],
    snippet: &[&[u8]],
    matched: &[bool],
    lens: &[usize],
    votes: &mut [f64],
    deadline: Instant,
) {
    let mut unmatched: Vec<usize> = (0..snippet.len())
        .filter(|&i| !matched[i] && fingerprint(snippet[i]).1 >= 2)
        .collect();
    unmatched.sort_by_key(|&i| std::cmp::Reverse(fingerprint(snippet[i]).1));
    unmatched.truncate(FUZZY_LINES);
    let mut grams = Vec::new();
    let fuzzy: Vec<FuzzyLine> = unmatched
        .iter()
        .map(|&i| FuzzyLine::new(i, snippet[i], &mut grams))
        .collect();
    if fuzzy.is_empty() {
        return;
    }
    let mut seen = vec![0u8; 1 << 16];
    let mut file_tokens = Vec::new();
    for (line_no, &len) in lens.iter().enumerate() {
        if line_no > 0 && line_no % CHECK_EVERY == 0 && Instant::now() >= deadline {
            break;
        }
        let total = len.saturating_sub(1);
        if !fuzzy.iter().any(|f| f.could_match(total)) {
            continue;
        }
        bigrams(file[line_no], &mut grams);
        let mut tokenised = false;
        for line in fuzzy.iter().filter(|f| f.could_match(total)) {
            let mut dice = line.dice(&grams, &mut seen);
            if dice < FUZZY_MIN_DICE && line.tokens.len() >= MIN_TOKENS {
                if !tokenised {
                    token_hashes(file[line_no], &mut file_tokens);
                    tokenised = true;
                }
                dice = dice.max(token_dice(&line.tokens, &file_tokens));
            }
            if dice >= FUZZY_MIN_DICE {
                votes[line_no.saturating_sub(line.index)] += dice * dice;
            }
        }
    }
}

/// What the exact pass learned of each file line it reached: its whitespace-free length
/// and fingerprint.
struct Measured<'a> {
    lens: &'a [usize],
    hashes: &'a [u64],
}

/// The fewest whitespace-free bytes a line read as one from two must hold to vote.
const MIN_JOINED: usize = 8;

/// Votes with line breaks set aside, for the snippet's lines that match no line of the
/// file: two adjacent snippet lines that are one file line (the caller cut it), and one
/// snippet line that is two adjacent file lines (the caller joined them), a continuation
/// `\\` dropped in either. Each such line votes as two exact lines would. The file's pairs
/// are hashed only where their lengths add up to an unmatched snippet line's, so a file
/// costs one more pass over its lengths.
#[allow(
    clippy::cast_precision_loss,
    reason = "occurrence counts are far below 2^52"
)]
fn vote_joined(
    file: &[&[u8]],
    snippet: &[&[u8]],
    matched: &[bool],
    seen: &Measured,
    votes: &mut [f64],
    deadline: Instant,
) {
    let mut hits = cut_by_caller(snippet, matched, seen);
    hits.extend(joined_by_caller(
        file, snippet, matched, seen.lens, deadline,
    ));
    let mut occurrences: HashMap<usize, usize> = HashMap::new();
    for &(_, i) in &hits {
        *occurrences.entry(i).or_default() += 1;
    }
    for (line_no, i) in hits {
        let weight = 2.0 / (occurrences[&i] as f64).sqrt();
        votes[line_no.saturating_sub(i)] += weight;
    }
}

/// The file lines that two adjacent snippet lines, not both matched, are as one (the
/// caller cut the line): (file line, the pair's first snippet line). Only a file line as
/// long as one of the pairs is looked up.
fn cut_by_caller(snippet: &[&[u8]], matched: &[bool], seen: &Measured) -> Vec<(usize, usize)> {
    // The snippet's pairs, by the fingerprint of the line they would be, with the index
    // of the pair's first line.
    let mut pairs: HashMap<u64, Vec<usize>> = HashMap::new();
    for i in 0..snippet.len().saturating_sub(1) {
        if matched[i] && matched[i + 1] {
            continue;
        }
        let (hash, len) = joined_fingerprint(snippet[i], snippet[i + 1]);
        if len >= MIN_JOINED {
            pairs.entry(hash).or_default().push(i);
        }
    }
    let mut hits = Vec::new();
    if pairs.is_empty() {
        return hits;
    }
    let mut lengths = Vec::new();
    for i in 0..snippet.len().saturating_sub(1) {
        let len = joined_fingerprint(snippet[i], snippet[i + 1]).1;
        if lengths.len() <= len {
            lengths.resize(len + 1, false);
        }
        lengths[len] = true;
    }
    for (line_no, &len) in seen.lens.iter().enumerate() {
        if !lengths.get(len).copied().unwrap_or(false) {
            continue;
        }
        if let Some(at) = pairs.get(&seen.hashes[line_no]) {
            hits.extend(at.iter().map(|&i| (line_no, i)));
        }
    }
    hits
}

/// The unmatched snippet lines that two adjacent file lines are as one (the caller
/// joined them, a continuation `\\` dropped or not): (the pair's first file line, the
/// snippet line). Only pairs whose lengths (`lens`) add up to such a line's are hashed;
/// scanning stops at `deadline`.
fn joined_by_caller(
    file: &[&[u8]],
    snippet: &[&[u8]],
    matched: &[bool],
    lens: &[usize],
    deadline: Instant,
) -> Vec<(usize, usize)> {
    // The snippet's unmatched lines, by their length, as a file pair would have to add up.
    let mut wholes: HashMap<usize, Vec<(u64, usize)>> = HashMap::new();
    for (i, line) in snippet.iter().enumerate().filter(|(i, _)| !matched[*i]) {
        let (hash, len) = fingerprint(line);
        if len >= MIN_JOINED {
            wholes.entry(len).or_default().push((hash, i));
        }
    }
    let mut hits = Vec::new();
    if wholes.is_empty() {
        return hits;
    }
    let mut whole_lengths = vec![false; wholes.keys().max().map_or(0, |m| m + 1)];
    for &len in wholes.keys() {
        whole_lengths[len] = true;
    }
    for line_no in 0..lens.len().saturating_sub(1) {
        if line_no > 0 && line_no % CHECK_EVERY == 0 && Instant::now() >= deadline {
            break;
        }
        let sum = lens[line_no] + lens[line_no + 1];
        // The first line's continuation `\\` is not part of the line read as one.
        for len in [sum, sum.saturating_sub(1)] {
            if !whole_lengths.get(len).copied().unwrap_or(false) {
                continue;
            }
            let Some(candidates) = wholes.get(&len) else {
                continue;
            };
            let (hash, _) = joined_fingerprint(file[line_no], file[line_no + 1]);
            hits.extend(
                candidates
                    .iter()
                    .filter(|(h, _)| *h == hash)
                    .map(|&(_, i)| (line_no, i)),
            );
        }
    }
    hits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<&[u8]> {
        text.lines().map(str::as_bytes).collect()
    }

    #[test]
    fn fingerprint_ignores_whitespace_only() {
        assert_eq!(fingerprint(b"  a  b\t"), fingerprint(b"ab"));
        assert_ne!(fingerprint(b"ab"), fingerprint(b"ba"));
        assert_eq!(fingerprint(b" \t ").1, 0);
    }

    #[test]
    fn dice_measures_bigram_overlap() {
        let mut grams = Vec::new();
        let line = FuzzyLine::new(0, b"night", &mut grams);
        let mut seen = vec![0u8; 1 << 16];
        bigrams(b"nacht", &mut grams);
        assert!((line.dice(&grams, &mut seen) - 0.25).abs() < 1e-9);
        bigrams(b"night", &mut grams);
        assert!((line.dice(&grams, &mut seen) - 1.0).abs() < 1e-9);
        assert!(seen.iter().all(|&c| c == 0));
    }

    #[test]
    fn exact_lines_vote_for_the_aligned_start() {
        let file = lines("x\nalpha\nbeta\ngamma\ny\n");
        let snippet = lines("  alpha\nbeta\ngamma");
        let votes = vote(&file, &snippet, Instant::now(), Duration::from_secs(5));
        let best = (0..votes.len()).max_by(|&a, &b| votes[a].total_cmp(&votes[b]));
        assert_eq!(best, Some(1));
        assert!((votes[1] - 3.0).abs() < 1e-9);
    }

    #[test]
    fn a_line_with_one_other_token_gets_a_fuzzy_vote() {
        let file = lines(
            "jobs:\n  - uses: actions/checkout@8e5e7e5ab8b370d6c329ec480221332ada57f0ab # v3\n",
        );
        let snippet =
            lines("  - uses: actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11 # v3");
        let votes = vote(&file, &snippet, Instant::now(), Duration::from_secs(5));
        assert!(votes[1] > 0.5, "{votes:?}");
        assert!(votes[0] < f64::EPSILON);
    }

    #[test]
    fn lines_read_as_one_vote_for_the_passage_either_way() {
        let file = lines(
            "fn a() {}\nlet total = compute(alpha_value,\n    beta_value);\nfn b() {}\nlet sum = add(first_value, second_value);\n",
        );
        // The caller joined the file's two lines.
        let snippet = lines("let total = compute(alpha_value, beta_value);\nfn b() {}");
        let votes = vote(&file, &snippet, Instant::now(), Duration::from_secs(5));
        let best = (0..votes.len()).max_by(|&a, &b| votes[a].total_cmp(&votes[b]));
        assert_eq!(best, Some(1), "{votes:?}");
        // The caller cut the file's line in two, with a continuation `\\`.
        let snippet = lines("fn b() {}\nlet sum = add(first_value, \\\n    second_value);");
        let votes = vote(&file, &snippet, Instant::now(), Duration::from_secs(5));
        assert!(votes[3] >= 3.0, "{votes:?}");
        assert_eq!(uncontinued(b"a b \\  "), b"a b");
    }

    #[test]
    fn typo_lines_get_fuzzy_votes() {
        let file = lines("fn main() {}\nlet total = compute_sum(values);\nreturn;\n");
        let snippet = lines("let totl = compute_sum(values);");
        let votes = vote(&file, &snippet, Instant::now(), Duration::from_secs(5));
        assert!(votes[1] > 0.8);
        assert!(votes[0] < f64::EPSILON && votes[2] < f64::EPSILON);
    }
}
