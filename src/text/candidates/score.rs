//! Scoring passages against a snippet: a bounded similarity over normalised text, a classification of the difference, and the final non-overlapping choice.

use std::time::{Duration, Instant};

use similar::TextDiff;

use super::{Candidate, Difference};

/// The lowest similarity worth showing; below it a passage is noise rather than a near miss.
pub(super) const MIN_SIMILARITY: f64 = 0.5;

/// Above this many bytes a character diff gets costly, so the similarity is computed over lines instead.
const CHAR_RATIO_LIMIT: usize = 2000;

/// Line endings unified, each line trimmed and its whitespace runs collapsed, so similarity measures content.
pub(super) fn normalise(text: &str) -> String {
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    lines.join("\n")
}

/// The similarity of `passage` to the snippet, rounded to 3 decimals and capped below 1.0 unless identical.
#[allow(
    clippy::cast_precision_loss,
    reason = "text lengths are far below 2^52"
)]
pub(super) fn similarity(
    passage: &str,
    snippet: &str,
    normal_snippet: &str,
    deadline: Instant,
) -> f64 {
    if passage == snippet {
        return 1.0;
    }
    let normal = normalise(passage);
    let (a, b) = (normal.as_str(), normal_snippet);
    let bound = 2.0 * a.len().min(b.len()) as f64 / (a.len() + b.len()).max(1) as f64;
    let ratio = if a == b {
        1.0
    } else if bound < MIN_SIMILARITY {
        bound
    } else {
        let mut config = TextDiff::configure();
        config.deadline(deadline.max(Instant::now() + Duration::from_millis(5)));
        let diff = if a.len().max(b.len()) <= CHAR_RATIO_LIMIT {
            config.diff_chars(a, b)
        } else {
            config.diff_lines(a, b)
        };
        f64::from(diff.ratio())
    };
    ((ratio * 1000.0).round() / 1000.0).min(0.999)
}

/// The part of a one-line `passage` that lines up with a shorter one-line `snippet`:
/// as many characters as the snippet has, from where their first shared run of two or
/// more characters places the snippet's start. Agents often send part of a line; the
/// candidate must then be that part, exactly as the file has it, or a retry would
/// replace the whole line.
pub(super) fn narrow<'a>(passage: &'a str, snippet: &str, deadline: Instant) -> Option<&'a str> {
    if passage.contains('\n')
        || snippet.contains('\n')
        || passage.len() * 4 < snippet.len() * 5
        || passage.len() > CHAR_RATIO_LIMIT
    {
        return None;
    }
    let mut config = TextDiff::configure();
    config.deadline(deadline.max(Instant::now() + Duration::from_millis(5)));
    let diff = config.diff_chars(passage, snippet);
    let anchor = diff
        .ops()
        .iter()
        .find(|op| op.tag() == similar::DiffTag::Equal && op.old_range().len() >= 2)?;
    let start = anchor
        .old_range()
        .start
        .saturating_sub(anchor.new_range().start);
    let end = start + snippet.chars().count();
    let byte = |chars: usize| {
        passage
            .char_indices()
            .nth(chars)
            .map_or(passage.len(), |(i, _)| i)
    };
    let narrowed = &passage[byte(start)..byte(end)];
    (narrowed.len() < passage.len()).then_some(narrowed)
}

/// Names the mildest normalisation under which passage and snippet are equal, checked cumulatively in order.
pub(super) fn classify(passage: &str, snippet: &str) -> Difference {
    let (a, b) = (passage.replace("\r\n", "\n"), snippet.replace("\r\n", "\n"));
    if a == b {
        return Difference::LineEndings;
    }
    let dedent = |t: &str| {
        t.split('\n')
            .map(str::trim_start)
            .collect::<Vec<_>>()
            .join("\n")
    };
    if dedent(&a) == dedent(&b) {
        return Difference::Indentation;
    }
    let squeeze = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    if squeeze(&a) == squeeze(&b) {
        Difference::Whitespace
    } else {
        Difference::Content
    }
}

/// The best `max` candidates, best first, skipping any that overlap a better one so each passage is reported once.
///
/// Ties prefer a line count closer to the snippet's `lines`, then the earlier passage, so the order is deterministic.
pub(super) fn select(mut scored: Vec<Candidate>, lines: usize, max: usize) -> Vec<Candidate> {
    scored.sort_by(|a, b| {
        let off = |c: &Candidate| (c.end_line + 1 - c.start_line).abs_diff(lines);
        b.similarity
            .total_cmp(&a.similarity)
            .then(off(a).cmp(&off(b)))
            .then(a.start_line.cmp(&b.start_line))
    });
    let mut chosen: Vec<Candidate> = Vec::new();
    for candidate in scored {
        if chosen.len() == max {
            break;
        }
        let overlaps = chosen
            .iter()
            .any(|c| c.start_line <= candidate.end_line && candidate.start_line <= c.end_line);
        if !overlaps {
            chosen.push(candidate);
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(5)
    }

    #[test]
    fn normalise_trims_and_collapses_each_line() {
        assert_eq!(normalise("  a   b \r\n\tc\n"), "a b\nc\n");
    }

    #[test]
    fn similarity_is_rounded_and_capped() {
        let snippet = "let total = sum(values);";
        assert!((similarity(snippet, snippet, &normalise(snippet), far()) - 1.0).abs() < 1e-12);
        let indented = "    let total = sum(values);";
        let s = similarity(indented, snippet, &normalise(snippet), far());
        assert!((s - 0.999).abs() < 1e-12);
        let typo = "let totl = sum(values);";
        let s = similarity(typo, snippet, &normalise(snippet), far());
        assert!(s > 0.9 && s < 0.999);
        assert!(((s * 1000.0).round() / 1000.0 - s).abs() < 1e-12);
        let short = similarity("x", snippet, &normalise(snippet), far());
        assert!(short < MIN_SIMILARITY);
    }

    #[test]
    fn classify_picks_the_mildest_difference() {
        assert_eq!(classify("a\r\nb\r\n", "a\nb\n"), Difference::LineEndings);
        assert_eq!(classify("  a\n\tb", "a\nb"), Difference::Indentation);
        assert_eq!(classify("  a\r\n  b", "a\nb"), Difference::Indentation);
        assert_eq!(classify("f(a, b)", "f(a,b)"), Difference::Whitespace);
        assert_eq!(classify("a  \nb", "a\nb"), Difference::Whitespace);
        assert_eq!(classify("f(a, c)", "f(a, b)"), Difference::Content);
    }
}
