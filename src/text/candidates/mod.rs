//! The closest passages for a snippet that did not match: each candidate is an exact slice of the file, found within a time budget.

mod score;
mod select;
mod votes;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use self::score::{classify, narrow, normalise, similarity, MIN_SIMILARITY};
use self::select::{select, Scored};
use super::lines::line_starts;

/// What the search for candidates holds for each line of the file: its start, its slice,
/// its length, fingerprint and vote (8 + 16 + 8 + 8 + 8 bytes), and room for the starts
/// kept.
const BYTES_PER_LINE: usize = 56;

/// How many of the best-voted window starts are scored with a real similarity.
const TOP_STARTS: usize = 24;

/// How many starts are always scored, even past the deadline, so a tiny budget still yields an answer.
const ALWAYS_SCORED: usize = 3;

/// The kind of difference between a candidate and the snippet, so the caller can say what went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Difference {
    /// Only whitespace differs (after line endings and indentation are set aside).
    Whitespace,
    /// Only leading whitespace of lines differs.
    Indentation,
    /// Only `\r\n` versus `\n` differs.
    LineEndings,
    /// The text itself differs.
    Content,
}

impl Difference {
    /// The stable name used in machine-readable output.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Difference::Whitespace => "whitespace",
            Difference::Indentation => "indentation",
            Difference::LineEndings => "line-endings",
            Difference::Content => "content",
        }
    }
}

/// A passage of the file that resembles the snippet, with enough detail to retry the edit.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The first line of the passage, 1-based.
    pub start_line: usize,
    /// The last line of the passage, 1-based and inclusive.
    pub end_line: usize,
    /// The file's exact bytes for those lines, so copying it as the new snippet matches exactly.
    pub text: String,
    /// How alike the passage and snippet are once whitespace and line endings are normalised, in 0..=1 and
    /// rounded to 3 decimals; 1.0 only for an identical passage.
    pub similarity: f64,
    /// What kind of difference separates the passage from the snippet.
    pub difference: Difference,
}

/// The file's lines, kept as offsets so candidate text is always sliced from the original.
struct FileLines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> FileLines<'a> {
    fn new(text: &'a str) -> Self {
        FileLines {
            text,
            starts: line_starts(text.as_bytes()),
        }
    }

    /// The byte range of line `index` (0-based) including its terminator.
    fn full(&self, index: usize) -> (usize, usize) {
        let end = self
            .starts
            .get(index + 1)
            .copied()
            .unwrap_or(self.text.len());
        (self.starts[index], end)
    }

    /// The bytes of line `index` without its `\n` or `\r\n` terminator.
    fn content(&self, index: usize) -> &'a [u8] {
        let (start, end) = self.full(index);
        let line = &self.text.as_bytes()[start..end];
        match line.strip_suffix(b"\n") {
            Some(line) => line.strip_suffix(b"\r").unwrap_or(line),
            None => line,
        }
    }

    /// The exact text of lines `first..=last`, with or without the last line's terminator.
    fn span(&self, first: usize, last: usize, terminated: bool) -> &'a str {
        let start = self.starts[first];
        let end = if terminated {
            self.full(last).1
        } else {
            self.full(last).0 + self.content(last).len()
        };
        &self.text[start..end]
    }

    fn all(&self) -> Vec<&'a [u8]> {
        (0..self.starts.len()).map(|i| self.content(i)).collect()
    }
}

/// Up to `max` passages of `text` most like `snippet`, best first, non-overlapping, each with similarity >= 0.5.
///
/// Voting on line fingerprints and bigram overlap narrows a file of any size to a few dozen window starts, which are
/// then scored with a character diff; every stage watches `budget`, so even a 10 MiB text answers in about that time.
/// A passage identical to the snippet (which the caller would normally have matched) is reported as `LineEndings`.
#[must_use]
pub fn closest(text: &str, snippet: &str, max: usize, budget: Duration) -> Vec<Candidate> {
    let started = Instant::now();
    let deadline = started + budget;
    let snippet_lines = FileLines::new(snippet).all();
    if max == 0 || snippet.trim().is_empty() || text.is_empty() {
        return Vec::new();
    }
    // The file's line index, its lines and their votes take about this much a line: a
    // file within the limits whose index cannot be had has no candidates, rather than
    // aborting the allocator.
    let room = super::lines::count_lines(text.as_bytes()).saturating_mul(BYTES_PER_LINE);
    if Vec::<u8>::new().try_reserve_exact(room).is_err() {
        return Vec::new();
    }
    let file = FileLines::new(text);
    let starts = voted_starts(&file, &snippet_lines, started, budget);
    let n = snippet_lines.len();
    let normal_snippet = normalise(snippet);
    let wanted = Wanted {
        snippet,
        terminated: snippet.ends_with('\n'),
        snippet_ends: normal_snippet.trim_end_matches('\n').split('\n').collect(),
        flat_snippet: score::flat(snippet),
        normal_snippet: &normal_snippet,
        deadline,
    };
    let mut seen = HashSet::new();
    let mut scored = Vec::new();
    for (rank, &start) in starts.iter().enumerate() {
        if rank >= ALWAYS_SCORED && Instant::now() >= deadline {
            break;
        }
        // The snippet's size, a line fewer or more (a near miss that adds or drops one),
        // from the voted start or the lines beside it.
        for (first, count) in [
            (Some(start), n),
            (Some(start), n - 1),
            (Some(start), n + 1),
            (Some(start + 1), n - 1),
            (start.checked_sub(1), n + 1),
            (start.checked_sub(1), n),
        ] {
            let Some(first) = first.filter(|&f| f < file.starts.len()) else {
                continue;
            };
            if count == 0 {
                continue;
            }
            let last = (first + count).min(file.starts.len()) - 1;
            if !seen.insert((first, last)) {
                continue;
            }
            scored.extend(wanted.scored(&file, first, last));
        }
    }
    let widened: Vec<Candidate> = select(scored, n, max)
        .into_iter()
        .map(|c| widen(&file, c, snippet, &normal_snippet, deadline))
        .collect();
    apart(widened)
}

/// The window starts (0-based first lines) the votes favour, most votes first (the
/// earlier of two as many), at most [`TOP_STARTS`] of them.
fn voted_starts(
    file: &FileLines<'_>,
    snippet_lines: &[&[u8]],
    started: Instant,
    budget: Duration,
) -> Vec<usize> {
    let votes = votes::vote(&file.all(), snippet_lines, started, budget);
    let mut starts: Vec<usize> = (0..votes.len()).filter(|&i| votes[i] > 0.0).collect();
    let by_votes = |a: &usize, b: &usize| votes[*b].total_cmp(&votes[*a]).then(a.cmp(b));
    if starts.len() > TOP_STARTS {
        starts.select_nth_unstable_by(TOP_STARTS, by_votes);
        starts.truncate(TOP_STARTS);
    }
    starts.sort_by(by_votes);
    starts
}

/// The snippet a search scores windows against, in the forms the scores compare, and
/// when scoring must stop.
struct Wanted<'s> {
    snippet: &'s str,
    /// Whether the snippet ends with a line terminator (then a window takes its last).
    terminated: bool,
    normal_snippet: &'s str,
    /// The normalised snippet's lines.
    snippet_ends: Vec<&'s str>,
    flat_snippet: String,
    deadline: Instant,
}

impl Wanted<'_> {
    /// Lines `first..=last` of the file scored against the snippet — or the part of them
    /// that is closer ([`narrow`]) — when they are alike enough to be a candidate.
    fn scored(&self, file: &FileLines<'_>, first: usize, last: usize) -> Option<Scored> {
        let (snippet, normal_snippet, deadline) =
            (self.snippet, self.normal_snippet, self.deadline);
        let mut passage = file.span(first, last, self.terminated);
        let mut similarity = similarity(passage, snippet, normal_snippet, deadline);
        let mut raw = None;
        if let Some(part) = narrow(passage, snippet, deadline) {
            let closer = score::similarity(part, snippet, normal_snippet, deadline);
            // Equal once whitespace is set aside, the part is still the closer when
            // it leaves out what the snippet left out (the line's indentation).
            let (whole, exact) = (
                score::char_ratio(passage, snippet, deadline),
                score::char_ratio(part, snippet, deadline),
            );
            if closer > similarity || (closer >= similarity && exact > whole) {
                (passage, similarity, raw) = (part, closer, Some(exact));
            } else {
                raw = Some(whole);
            }
        }
        (similarity >= MIN_SIMILARITY).then(|| Scored {
            flat: score::flat(passage) == self.flat_snippet,
            ends: score::ends(passage, &self.snippet_ends, deadline),
            raw: raw.unwrap_or_else(|| score::char_ratio(passage, snippet, deadline)),
            candidate: Candidate {
                start_line: first + 1,
                end_line: last + 1,
                text: passage.to_owned(),
                similarity,
                difference: classify(passage, snippet),
            },
        })
    }
}

/// Candidates best first once more after widening (a widened one is scored anew), each
/// region once: a candidate that overlaps a better one is the same passage, not another.
fn apart(mut found: Vec<Candidate>) -> Vec<Candidate> {
    found.sort_by(|a, b| b.similarity.total_cmp(&a.similarity));
    let mut kept: Vec<Candidate> = Vec::with_capacity(found.len());
    for c in found {
        let overlaps = kept
            .iter()
            .any(|k| k.start_line <= c.end_line && c.start_line <= k.end_line);
        if !overlaps {
            kept.push(c);
        }
    }
    kept
}

/// The text without any whitespace.
fn squash(text: &[u8]) -> Vec<u8> {
    text.iter()
        .copied()
        .filter(|c| !c.is_ascii_whitespace())
        .collect()
}

/// A candidate widened over the lines the file continues a line on, where the snippet
/// holds that line whole (remembered as one line): its last line is the start of the
/// snippet's last line and the file's next lines give the rest, or its first line is the
/// end of the snippet's first line and the file's lines before it give the start —
/// whitespace set aside, exactly. Otherwise the candidate as it is.
fn widen(
    file: &FileLines,
    c: Candidate,
    snippet: &str,
    normal_snippet: &str,
    deadline: Instant,
) -> Candidate {
    const MAX_PIECES: usize = 6;
    let lines: Vec<&str> = snippet.trim_end_matches(['\n', '\r']).split('\n').collect();
    let (Some(head), Some(tail)) = (lines.first(), lines.last()) else {
        return c;
    };
    let (mut first, mut last) = (c.start_line - 1, c.end_line - 1);
    let total = file.starts.len();
    let (whole_tail, whole_head) = (squash(tail.as_bytes()), squash(head.as_bytes()));
    // A line the next continues, without its continuation `\`.
    let cont = |i: usize| {
        let line = file.content(i).trim_ascii_end();
        squash(line.strip_suffix(b"\\").unwrap_or(line))
    };
    let mut have = cont(last);
    if !have.is_empty() && whole_tail.len() > have.len() && whole_tail.starts_with(&have) {
        let mut next = last + 1;
        while next < total && next <= last + MAX_PIECES && whole_tail.starts_with(&have) {
            let mut whole = have.clone();
            whole.extend(squash(file.content(next)));
            if whole == whole_tail {
                last = next;
                break;
            }
            have.extend(cont(next));
            next += 1;
        }
    }
    let mut have = squash(file.content(first));
    if !have.is_empty() && whole_head.len() > have.len() && whole_head.ends_with(&have) {
        let mut before = first;
        while before > 0 && first - before < MAX_PIECES && whole_head.ends_with(&have) {
            before -= 1;
            let mut joined = cont(before);
            joined.extend(&have);
            have = joined;
            if have == whole_head {
                first = before;
                break;
            }
        }
    }
    if (first, last) == (c.start_line - 1, c.end_line - 1) {
        return c;
    }
    let passage = file.span(first, last, snippet.ends_with('\n'));
    Candidate {
        start_line: first + 1,
        end_line: last + 1,
        text: passage.to_owned(),
        similarity: similarity(passage, snippet, normal_snippet, deadline),
        difference: classify(passage, snippet),
    }
}

/// The whole of `text` as the one candidate for a snippet that must match all of it (a
/// deletion's old side): lines 1 to the last, scored as any candidate is. `None` for an
/// empty file, which has no passage to offer.
#[must_use]
pub fn whole(text: &str, snippet: &str, budget: Duration) -> Option<Candidate> {
    let deadline = Instant::now() + budget;
    let file = FileLines::new(text);
    let last = file.starts.len().checked_sub(1)?;
    let passage = file.span(0, last, snippet.ends_with('\n'));
    Some(Candidate {
        start_line: 1,
        end_line: last + 1,
        text: passage.to_owned(),
        similarity: similarity(passage, snippet, &normalise(snippet), deadline),
        difference: classify(passage, snippet),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_file_is_one_candidate() {
        let found = whole("a\nb\nnewer\n", "a\nb", BUDGET).unwrap();
        assert_eq!((found.start_line, found.end_line), (1, 3));
        assert_eq!(found.text, "a\nb\nnewer");
        assert_eq!(found.difference, Difference::Content);
        assert!(found.similarity < 1.0, "{found:?}");
        assert_eq!(whole("", "a", BUDGET), None);
    }
    use std::fmt::Write;

    const BUDGET: Duration = Duration::from_secs(2);

    fn numbered(count: usize) -> String {
        let mut text = String::new();
        for i in 0..count {
            let (f, arg) = (i % 17, i * 31 % 997);
            writeln!(text, "    let value_{i} = compute_{f}(input, {arg});").unwrap();
        }
        text
    }

    #[test]
    fn a_line_remembered_whole_takes_the_lines_the_file_continues_it_on() {
        let text = "fn main() {\n    run(alpha_value, beta_value,\n        gamma_value);\n    done();\n}\n";
        let found = closest(
            text,
            "    run(alpha_value, beta_value, gamma_value);",
            3,
            BUDGET,
        );
        assert_eq!(
            (found[0].start_line, found[0].end_line),
            (2, 3),
            "{found:?}"
        );
        let found = closest(
            text,
            "    run(alpha_value, beta_value, gamma_value);\n    done();",
            3,
            BUDGET,
        );
        assert_eq!(
            (found[0].start_line, found[0].end_line),
            (2, 4),
            "{found:?}"
        );
    }

    #[test]
    fn a_line_remembered_cut_finds_its_passage_among_near_identical_lines() {
        let text = "steps:\n      - name: check nostd\n        run: cargo check --no-default-features\n      - name: test nostd\n        run: cargo test --no-default-features\n      - name: check constrandom\n        run: cargo check --no-default-features --features compile-time-rng\n      - name: test constrandom\n        run: cargo test --no-default-features --features compile-time-rng\n";
        let snippet = "        run: cargo check --no-default-features \\\n            --features compile-time-rng\n      - name: test constrandom";
        let found = closest(text, snippet, 3, BUDGET);
        assert_eq!(
            (found[0].start_line, found[0].end_line),
            (7, 8),
            "{found:?}"
        );
    }

    #[test]
    fn a_passage_widened_onto_another_candidate_is_reported_once() {
        let text = "fn f<F, G>(f: F, g: G)\nwhere\n    F: FnMut(&str, &mut fmt::Formatter) -> fmt::Result,\n    G: FnMut(&mut fmt::Formatter) -> fmt::Result,\n{\n    todo!()\n}\n";
        let snippet =
            "    F: FnMut(&str, &mut fmt::Formatter) -> fmt::Result, G: FnMut(&mut fmt::Formatter) -> fmt::Result,";
        let found = closest(text, snippet, 3, BUDGET);
        assert_eq!(
            (found[0].start_line, found[0].end_line),
            (3, 4),
            "{found:?}"
        );
        for (i, a) in found.iter().enumerate() {
            for b in &found[i + 1..] {
                assert!(
                    a.end_line < b.start_line || b.end_line < a.start_line,
                    "{found:?}"
                );
            }
        }
    }

    #[test]
    fn part_of_a_line_with_a_typo_finds_that_part() {
        let text =
            "fn main() {\n    let total = compute(alpha, beta); // sum\n    let short = 1;\n}\n";
        let found = closest(text, "compute(alpah, beta)", 3, BUDGET);
        assert_eq!(found[0].start_line, 2);
        assert_eq!(found[0].text, "compute(alpha, beta)");
        assert_eq!(found[0].difference, Difference::Content);
        assert!(found[0].similarity > 0.8, "{found:?}");
    }

    #[test]
    fn finds_indentation_only_difference_with_exact_text() {
        let text = "fn main() {\n    let a = 1;\n    let b = 2;\n    println!(\"{a}{b}\");\n}\n";
        let found = closest(text, "let a = 1;\nlet b = 2;", 3, BUDGET);
        assert_eq!(found[0].start_line, 2);
        assert_eq!(found[0].end_line, 3);
        assert_eq!(found[0].text, "    let a = 1;\n    let b = 2;");
        assert_eq!(found[0].difference, Difference::Indentation);
        assert!(text.contains(&found[0].text));
    }

    #[test]
    fn lf_snippet_in_crlf_file_is_a_line_ending_difference() {
        let text = "alpha\r\nbeta\r\ngamma\r\ndelta\r\n";
        let found = closest(text, "beta\ngamma\n", 3, BUDGET);
        assert_eq!(found[0].text, "beta\r\ngamma\r\n");
        assert_eq!(found[0].difference, Difference::LineEndings);
        assert_eq!((found[0].start_line, found[0].end_line), (2, 3));
    }

    #[test]
    fn typo_is_a_content_difference_with_high_similarity() {
        let text = format!(
            "{}    let total = compute_sum(values);\n{}",
            numbered(40),
            numbered(40)
        );
        // The snippet left the indentation out, so the candidate does too: a retry then
        // replaces the same part of the line, and the indentation stays.
        let found = closest(&text, "let totl = compute_sum(values);", 3, BUDGET);
        assert_eq!(found[0].text, "let total = compute_sum(values);");
        assert_eq!(found[0].start_line, 41);
        assert_eq!(found[0].difference, Difference::Content);
        assert!(found[0].similarity > 0.8, "{}", found[0].similarity);
    }

    #[test]
    fn nothing_similar_gives_nothing() {
        let found = closest(&numbered(200), "zzzz qqqq xxxx\nwwww", 5, BUDGET);
        assert!(found.is_empty(), "{found:?}");
        assert!(closest("", "a", 3, BUDGET).is_empty());
        assert!(closest("a\n", " \n", 3, BUDGET).is_empty());
        assert!(closest("a\n", "a", 0, BUDGET).is_empty());
    }

    #[test]
    fn final_terminator_follows_the_snippet() {
        let text = "one\r\n  two\r\nthree\r\n";
        let with = closest(text, "two\nthree\n", 1, BUDGET);
        assert_eq!(with[0].text, "  two\r\nthree\r\n");
        let without = closest(text, "two\nthree", 1, BUDGET);
        assert_eq!(without[0].text, "  two\r\nthree");
        let last = closest("a\nb", "  b\n", 1, BUDGET);
        assert_eq!(last[0].text, "b");
    }

    #[test]
    fn candidates_are_ordered_and_do_not_overlap() {
        let block = "if ready {\n    start_engine(fast);\n    log(\"go\");\n}\n";
        let near = "if ready {\n    start_engine(slow);\n    log(\"go\");\n}\n";
        let text = format!(
            "{}{near}{}{block}{}",
            numbered(30),
            numbered(30),
            numbered(30)
        );
        let snippet = "if ready {\n    start_engine(fats);\n    log(\"go\");\n}";
        let found = closest(&text, snippet, 5, BUDGET);
        assert!(found.len() >= 2, "{found:?}");
        assert_eq!(found[0].start_line, 65);
        assert_eq!(found[0].text, block.trim_end());
        assert_eq!(found[1].start_line, 31);
        for pair in found.windows(2) {
            assert!(pair[0].similarity >= pair[1].similarity);
        }
        for (i, a) in found.iter().enumerate() {
            for b in &found[i + 1..] {
                assert!(a.end_line < b.start_line || b.end_line < a.start_line);
            }
        }
    }

    #[test]
    fn a_budget_spent_before_the_search_began_still_answers_for_a_small_file() {
        // As when the process was held up by a loaded machine between the refusal's start
        // and the search: the first lines and the best starts are always looked at.
        let text = "def greet():\n    name = \"world\"\n    print(\"hello\", name)\n";
        let snippet = "    name = 'world'\n    print('hello', name)";
        let found = closest(text, snippet, 3, Duration::ZERO);
        assert_eq!(found.first().map(|c| c.start_line), Some(2), "{found:?}");
    }

    #[test]
    fn ten_mib_text_is_searched_within_budget() {
        let mut text = numbered(120_000);
        let planted = "    if retries > limit {\n        return Err(Error::TooManyRetries(retries));\n    }\n    let backoff = base_delay * 2u32.pow(retries);\n    sleep(backoff);\n";
        text.push_str(planted);
        text.push_str(&numbered(120_000));
        while text.len() < 10 << 20 {
            text.push_str("    // filler comment line to pad the synthetic file out\n");
        }
        let snippet = "if retries > limit {\n    return Err(Error::TooManyRetires(retries));\n}\nlet backoff = base_delay * 2u32.pow(retries);\nsleep(backoff);\n";
        // Unoptimised builds hash ~10x slower, so they get a budget that still covers the whole text.
        let (budget, bound) = if cfg!(debug_assertions) {
            (Duration::from_secs(3), Duration::from_secs(5))
        } else {
            (Duration::from_millis(300), Duration::from_secs(1))
        };
        let started = Instant::now();
        let found = closest(&text, snippet, 3, budget);
        let elapsed = started.elapsed();
        assert!(elapsed < bound, "{elapsed:?}");
        assert_eq!(found[0].text, planted);
        assert_eq!(found[0].start_line, 120_001);
        assert_eq!(found[0].difference, Difference::Content);
    }
}
