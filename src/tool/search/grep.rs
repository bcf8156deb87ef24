//! Content matching with ripgrep's crates: building the matcher and collecting the
//! matching lines of one file, with context.

use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{Searcher, SearcherBuilder, Sink, SinkMatch};

use crate::refusal::{key, Code, Refusal};

/// The longest line text a match returns, in bytes; longer lines are cut.
pub const MAX_LINE_BYTES: usize = 1000;

/// One matching line and its context (in path mode, a matching path: all empty).
#[derive(Debug, Clone, Default)]
pub struct Hit {
    pub line: u64,
    pub text: String,
    /// `text` is a window of a longer line.
    pub cut: bool,
    pub before: Vec<String>,
    pub after: Vec<String>,
    /// Where the query matches in `text`: byte ranges on character boundaries, left to
    /// right, for the text form to highlight as rg does.
    pub spans: Vec<(usize, usize)>,
}

/// The most memory a compiled regex may take: a larger one is `INVALID_PATTERN`.
pub const REGEX_SIZE_LIMIT: usize = 8 << 20;
/// The most memory each search thread's lazy DFA cache may take. Past it the regex
/// engine clears the cache or falls back to a slower engine that needs none: a regex
/// built to grow its DFA costs time, never memory (the regex crate allows 1000 MiB).
pub const DFA_SIZE_LIMIT: usize = 4 << 20;

/// Builds the matcher: literal unless `regex`, in linear time either way, its compiled
/// size and cache bounded.
pub fn matcher(query: &str, regex: bool, case_sensitive: bool) -> Result<RegexMatcher, Refusal> {
    RegexMatcherBuilder::new()
        .fixed_strings(!regex)
        .case_insensitive(!case_sensitive)
        .size_limit(REGEX_SIZE_LIMIT)
        .dfa_size_limit(DFA_SIZE_LIMIT)
        .build(query)
        .map_err(|e| {
            let reason = e.to_string();
            let rewrite = reason.contains("look-around") || reason.contains("backreference");
            let mut refusal = Refusal::new(
                Code::InvalidPattern,
                format!(
                    "The regex `{query}` does not compile: {}",
                    first_line(&reason)
                ),
            )
            .with(key::FIELD, "query")
            .with("pattern", query)
            .with(key::REASON, reason.clone());
            if rewrite {
                refusal = refusal.with(key::REWRITE, true);
            }
            if reason.contains("size limit") {
                refusal = refusal.with("limit", REGEX_SIZE_LIMIT);
            }
            refusal
        })
}

fn first_line(text: &str) -> &str {
    text.lines()
        .rev()
        .find(|l| l.starts_with("error:"))
        .unwrap_or_else(|| text.lines().next().unwrap_or(text))
}

/// A searcher that numbers lines. Context is cut from the text afterwards, so that
/// every match carries its own, even where two matches' contexts overlap.
#[must_use]
pub fn searcher() -> Searcher {
    SearcherBuilder::new().line_number(true).build()
}

/// The first `limit` matching lines of `bytes`, each with up to `context` lines either
/// side, and whether the file has more. The search of the file stops at the limit, and
/// context is found only around the lines kept, by scanning back and on from each (no
/// index of the file's lines): memory and time follow the limit, not the file.
pub fn hits(
    matcher: &RegexMatcher,
    searcher: &mut Searcher,
    bytes: &[u8],
    context: usize,
    limit: usize,
) -> (Vec<Hit>, bool) {
    let mut sink = Collect {
        matcher,
        hits: Vec::new(),
        starts: Vec::new(),
        limit,
        more: false,
    };
    // Searching a slice in memory cannot fail with I/O; a matcher error ends the file.
    let _ = searcher.search_slice(matcher, bytes, &mut sink);
    let more = sink.more;
    let mut hits = sink.hits;
    if context > 0 {
        for (hit, &start) in hits.iter_mut().zip(&sink.starts) {
            hit.before = before(bytes, start, context);
            hit.after = after(bytes, start, context);
        }
    }
    (hits, more)
}

/// The text of up to `context` lines before the line that starts at byte `start`, in
/// file order, found by scanning back from it.
fn before(bytes: &[u8], start: usize, context: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut end = start;
    while end > 0 && lines.len() < context {
        let begin = memchr::memrchr(b'\n', &bytes[..end - 1]).map_or(0, |pos| pos + 1);
        lines.push(line_text(&bytes[begin..end]));
        end = begin;
    }
    lines.reverse();
    lines
}

/// The text of up to `context` lines after the line that starts at byte `start`, found
/// by scanning on from it.
fn after(bytes: &[u8], start: usize, context: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut begin = crate::text::lines::line_end(bytes, start);
    while begin < bytes.len() && lines.len() < context {
        let end = crate::text::lines::line_end(bytes, begin);
        lines.push(line_text(&bytes[begin..end]));
        begin = end;
    }
    lines
}

/// Line text without its terminator, lossily decoded and cut to [`MAX_LINE_BYTES`].
#[must_use]
pub fn line_text(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    let text = String::from_utf8_lossy(bytes);
    if text.len() <= MAX_LINE_BYTES {
        return text.into_owned();
    }
    let mut cut = MAX_LINE_BYTES;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text[..cut].to_owned()
}

struct Collect<'m> {
    matcher: &'m RegexMatcher,
    hits: Vec<Hit>,
    /// Where each hit's line starts in the file, so its context is found from there.
    starts: Vec<usize>,
    /// The most hits to keep.
    limit: usize,
    /// A match was found past `limit`.
    more: bool,
}

/// The text of a matching line: whole when short, else a window of at most
/// [`MAX_LINE_BYTES`] around the first match, so the match is always shown.
fn match_text(matcher: &RegexMatcher, line: &[u8]) -> (String, bool) {
    use grep_matcher::Matcher;
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.len() <= MAX_LINE_BYTES {
        return (String::from_utf8_lossy(line).into_owned(), false);
    }
    let (start, end) = matcher
        .find(line)
        .ok()
        .flatten()
        .map_or((0, 0), |m| (m.start(), m.end()));
    let room = MAX_LINE_BYTES.saturating_sub(end - start) / 2;
    // Window edges moved off UTF-8 continuation bytes, so no character is split.
    let continuation = |i: usize| i < line.len() && line[i] & 0xC0 == 0x80;
    let mut from = start.saturating_sub(room);
    while continuation(from) {
        from += 1;
    }
    let mut to = (end + room).min(line.len()).max(from);
    while continuation(to) {
        to -= 1;
    }
    (String::from_utf8_lossy(&line[from..to]).into_owned(), true)
}

/// Where `matcher` matches in `text`, as byte ranges on character boundaries (empty
/// matches left out: there is nothing to highlight).
fn spans(matcher: &RegexMatcher, text: &str) -> Vec<(usize, usize)> {
    use grep_matcher::Matcher;
    let mut spans = Vec::new();
    let _ = matcher.find_iter(text.as_bytes(), |m| {
        if m.start() < m.end() && text.is_char_boundary(m.start()) && text.is_char_boundary(m.end())
        {
            spans.push((m.start(), m.end()));
        }
        true
    });
    spans
}

impl Sink for Collect<'_> {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, Self::Error> {
        if self.hits.len() >= self.limit {
            self.more = true;
            return Ok(false);
        }
        let (text, cut) = match_text(self.matcher, mat.bytes());
        let spans = spans(self.matcher, &text);
        self.hits.push(Hit {
            line: mat.line_number().unwrap_or(0),
            text,
            cut,
            before: Vec::new(),
            after: Vec::new(),
            spans,
        });
        self.starts
            .push(usize::try_from(mat.absolute_byte_offset()).unwrap_or(usize::MAX));
        Ok(true)
    }
}
