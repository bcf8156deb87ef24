//! Scoring passages against a snippet: a bounded similarity over normalised text (by
//! characters, and by tokens so that one changed token — a hash, a version, a name —
//! still reads as a near miss), how well a passage's ends line up with the snippet's,
//! the part of a line a snippet covers, and a classification of the difference.

use std::time::{Duration, Instant};

use similar::TextDiff;

use crate::text::similarity;

use super::Difference;

/// The lowest similarity worth showing; below it a passage is noise rather than a near miss.
pub(super) const MIN_SIMILARITY: f64 = 0.5;

/// Above this many bytes a character diff gets costly, so the similarity is computed over lines instead.
const CHAR_RATIO_LIMIT: usize = 2000;

/// Line endings unified, each line trimmed and its whitespace runs collapsed, so
/// similarity measures content (the one normaliser, [`crate::text::normal::lines`]).
pub(super) use crate::text::normal::lines as normalise;

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
        let deadline = deadline.max(Instant::now() + Duration::from_millis(5));
        char_ratio(a, b, deadline).max(token_ratio(a, b, deadline))
    };
    ((ratio * 1000.0).round() / 1000.0).min(0.999)
}

/// The share of characters two texts have in common, in order (by lines when long): the
/// one measure, [`crate::text::similarity`].
pub(super) fn char_ratio(a: &str, b: &str, deadline: Instant) -> f64 {
    let shared = if a.len().max(b.len()) <= CHAR_RATIO_LIMIT {
        similarity::chars_shared(a, b, Some(deadline))
    } else {
        similarity::shared(&lines(a), &lines(b), Some(deadline))
    };
    shared.ratio_f32()
}

/// The lines of `text`, each with its end (`\n`, `\r\n`, or a lone `\r`), as `similar`
/// cuts lines.
fn lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let end = match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => i + 2,
            b'\r' | b'\n' => i + 1,
            _ => {
                i += 1;
                continue;
            }
        };
        lines.push(&text[start..end]);
        (start, i) = (end, end);
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// The share of tokens two texts have in common, in order: a word (letters, digits,
/// `_`), a line break, or any other single character; other whitespace is no token. A
/// 40-digit hash or a renamed identifier is then one token of many, not most of the
/// characters.
fn token_ratio(a: &str, b: &str, deadline: Instant) -> f64 {
    let (a, b) = (tokens(a), tokens(b));
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    similarity::shared(&a, &b, Some(deadline)).ratio_f32()
}

/// The tokens of `text`, as [`token_ratio`] counts them.
pub(super) fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut word = None;
    for (i, c) in text.char_indices() {
        let part = c.is_alphanumeric() || c == '_';
        match (part, word) {
            (true, None) => word = Some(i),
            (true, Some(_)) => continue,
            (false, Some(start)) => {
                out.push(&text[start..i]);
                word = None;
            }
            (false, None) => {}
        }
        if !part && (c == '\n' || !c.is_whitespace()) {
            out.push(&text[i..i + c.len_utf8()]);
        }
    }
    if let Some(start) = word {
        out.push(&text[start..]);
    }
    out
}

/// How well the first and last lines of `passage` match those of the snippet (given
/// normalised, as lines), each by its character similarity, averaged: 1.0 when both
/// ends line up.
pub(super) fn ends(passage: &str, snippet_lines: &[&str], deadline: Instant) -> f64 {
    let normal = normalise(passage);
    let lines: Vec<&str> = normal.trim_end_matches('\n').split('\n').collect();
    let (Some(first), Some(last)) = (snippet_lines.first(), snippet_lines.last()) else {
        return 0.0;
    };
    let deadline = deadline.max(Instant::now() + Duration::from_millis(2));
    let line = |a: &str, b: &str| {
        if a == b {
            1.0
        } else if a.len().max(b.len()) > CHAR_RATIO_LIMIT {
            0.0
        } else {
            char_ratio(a, b, deadline).max(token_ratio(a, b, deadline))
        }
    };
    let head = line(lines[0], first);
    let tail = line(lines[lines.len() - 1], last);
    f64::midpoint(head, tail)
}

/// The text with its line breaks set aside: no whitespace, and no continuation `\` where
/// a line ends. A line cut in two and the same line whole read alike.
pub(super) fn flat(text: &str) -> String {
    text.split('\n')
        .map(|line| {
            let line = line.trim_end();
            line.strip_suffix('\\').unwrap_or(line)
        })
        .flat_map(str::chars)
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// The part of a one-line `passage` that lines up with a shorter one-line `snippet`:
/// from where their first shared run of two or more characters places the snippet's
/// start to where their last one places its end. Agents often send part of a line; the
/// candidate must then be that part, exactly as the file has it, or a retry would
/// replace the whole line.
pub(super) fn narrow<'a>(passage: &'a str, snippet: &str, deadline: Instant) -> Option<&'a str> {
    if passage.contains('\n')
        || snippet.contains('\n')
        || passage.len() <= snippet.len()
        || passage.len() > CHAR_RATIO_LIMIT
    {
        return None;
    }
    let mut config = TextDiff::configure();
    config.deadline(deadline.max(Instant::now() + Duration::from_millis(5)));
    let diff = config.diff_chars(passage, snippet);
    let shared =
        |op: &&similar::DiffOp| op.tag() == similar::DiffTag::Equal && op.old_range().len() >= 2;
    let first = diff.ops().iter().find(shared)?;
    let last = diff.ops().iter().rev().find(shared)?;
    // A snippet that starts with whitespace starts where the line does; one that does not
    // never starts inside the line's indentation.
    let indent = passage.chars().take_while(|c| c.is_whitespace()).count();
    let start = if snippet.starts_with(char::is_whitespace) {
        0
    } else {
        first
            .old_range()
            .start
            .saturating_sub(first.new_range().start)
            .max(indent)
    };
    let snippet_chars = snippet.chars().count();
    let mut end = last.old_range().end + (snippet_chars - last.new_range().end);
    // Never inside a word: a part that ends in `gamm` of `gamma` would, copied as oldText,
    // leave the rest of the word behind.
    let chars: Vec<char> = passage.chars().collect();
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut start = start.min(chars.len());
    end = end.min(chars.len());
    while start > 0 && start < chars.len() && word(chars[start - 1]) && word(chars[start]) {
        start -= 1;
    }
    while end > 0 && end < chars.len() && word(chars[end - 1]) && word(chars[end]) {
        end += 1;
    }
    if end <= start {
        return None;
    }
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
    fn one_changed_token_is_still_similar() {
        let file = "- uses: actions/checkout@8e5e7e5ab8b370d6c329ec480221332ada57f0ab # v3";
        let typed = "- uses: actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11 # v3";
        let s = similarity(file, typed, &normalise(typed), far());
        assert!(s > 0.8, "{s}");
        assert_eq!(
            tokens("a_b(c, 12)\n"),
            ["a_b", "(", "c", ",", "12", ")", "\n"]
        );
    }

    #[test]
    fn narrow_maps_both_ends_of_a_part() {
        let line = "        let total = compute(alpha, beta); // sum";
        assert_eq!(
            narrow(line, "compute(alpah, beta)", far()),
            Some("compute(alpha, beta)")
        );
        assert_eq!(
            narrow(line, "total = compute(a, beta)", far()),
            Some("total = compute(alpha, beta)")
        );
        assert_eq!(narrow("x = f(a, b);", "x = f(a,b);", far()), None);
        assert_eq!(narrow("      x = f(a);", "\tx = f(b);", far()), None);
        assert_eq!(
            narrow("      x = f(a);", "  x = f(b)", far()),
            Some("      x = f(a)")
        );
    }

    #[test]
    fn flat_sets_line_breaks_aside() {
        assert_eq!(flat("run(a, \\\n    b);\r\n"), flat("run(a, b);"));
        assert_eq!(flat("run(a,\n    b);"), "run(a,b);");
        assert_ne!(flat("run(a, \\b);"), flat("run(a, b);"));
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
