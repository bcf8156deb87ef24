//! Line endings and line indexing: one definition of "a line" (it ends after its `\n`, inclusive) shared by every caller, and texts cut into lines by it.

/// The UTF-8 byte order mark, kept here so callers detect and preserve it the same way.
pub const BOM: &str = "\u{feff}";

/// The line-ending convention of a text, so edits can keep a file's style and reports can name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnding {
    /// Every line break is a bare `\n`.
    Lf,
    /// Every line break is `\r\n`.
    Crlf,
    /// Both bare `\n` and `\r\n` occur.
    Mixed,
    /// The text has no `\n` at all.
    None,
}

impl LineEnding {
    /// The stable lower-case name used in machine-readable output.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "lf",
            LineEnding::Crlf => "crlf",
            LineEnding::Mixed => "mixed",
            LineEnding::None => "none",
        }
    }
}

/// Classifies the text's line breaks: `Lf` when only bare `\n` occurs, `Crlf` when only `\r\n`, `Mixed` when both, `None` when there is no `\n`.
#[must_use]
pub fn line_ending(text: &[u8]) -> LineEnding {
    let mut lf = false;
    let mut crlf = false;
    for pos in memchr::memchr_iter(b'\n', text) {
        if pos > 0 && text[pos - 1] == b'\r' {
            crlf = true;
        } else {
            lf = true;
        }
        if lf && crlf {
            return LineEnding::Mixed;
        }
    }
    match (lf, crlf) {
        (true, false) => LineEnding::Lf,
        (false, true) => LineEnding::Crlf,
        (true, true) => LineEnding::Mixed,
        (false, false) => LineEnding::None,
    }
}

/// `text` without the line-number prefix a numbered read puts on each line (`  12\t…`,
/// `12: …`, `12→…`), when every line carries one and the numbers count up by one; `None`
/// otherwise.
#[must_use]
pub fn strip_numbers(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut expected: Option<u64> = None;
    for line in text.split_inclusive('\n') {
        let (number, body) = number_prefix(line)?;
        if expected.is_some_and(|e| e != number) {
            return None;
        }
        expected = Some(number + 1);
        out.push_str(body);
    }
    expected.map(|_| out)
}

/// `text` with the line-number prefix taken off each line that carries one, the other
/// lines as they are: a `newText` written over a numbered `oldText`, where the caller
/// numbered the lines it copied and not the lines it added.
#[must_use]
pub fn strip_numbers_where_present(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| match number_prefix(line) {
            // A bare number is a numbered blank line only with the padding a read puts
            // before it; a line of the caller's own may be a number.
            Some((_, body)) if body.trim().is_empty() && !line.starts_with(' ') => line,
            Some((_, body)) => body,
            None => line,
        })
        .collect()
}

/// A line's number and the line after its prefix, when it carries one.
fn number_prefix(line: &str) -> Option<(u64, &str)> {
    let rest = line.trim_start_matches(' ');
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 9 {
        return None;
    }
    let number: u64 = rest[..digits].parse().ok()?;
    let after = &rest[digits..];
    let body = ["\t", ": ", ":\t", "→", " | "]
        .iter()
        .find_map(|sep| after.strip_prefix(sep))
        .or_else(|| {
            matches!(after, "" | "\n" | "\r\n" | ":\n").then_some(after.trim_start_matches(':'))
        })?;
    Some((number, body))
}

/// The byte offset where each line starts, so lines can be sliced and offsets mapped to line numbers.
///
/// A line ends after its `\n` (inclusive): empty text has no lines, `"a\n"` has one and `"a\nb"` has two.
#[must_use]
pub fn line_starts(text: &[u8]) -> Vec<usize> {
    if text.is_empty() {
        return Vec::new();
    }
    let mut starts = Vec::with_capacity(text.len() / 40 + 1);
    starts.push(0);
    starts.extend(
        memchr::memchr_iter(b'\n', text)
            .map(|pos| pos + 1)
            .filter(|&next| next < text.len()),
    );
    starts
}

/// The number of lines under the same rules as [`line_starts`], computed without allocating so large files are cheap to measure.
#[must_use]
pub fn count_lines(text: &[u8]) -> usize {
    let breaks = memchr::memchr_iter(b'\n', text).count();
    match text.last() {
        Some(&last) if last != b'\n' => breaks + 1,
        _ => breaks,
    }
}

/// The byte offset where line `index` (0-based) starts, found by scanning: `None` when
/// the text has no such line. No index of the text is built, so a caller that wants a
/// few lines of a large file pays for the scan, never for memory.
#[must_use]
pub fn line_start(text: &[u8], index: usize) -> Option<usize> {
    let start = match index.checked_sub(1) {
        None => 0,
        Some(before) => memchr::memchr_iter(b'\n', text).nth(before)? + 1,
    };
    (start < text.len()).then_some(start)
}

/// The byte offset just past the line that starts at `start`: after its `\n`, or the
/// end of the text for a last line without one.
#[must_use]
pub fn line_end(text: &[u8], start: usize) -> usize {
    memchr::memchr(b'\n', &text[start..]).map_or(text.len(), |pos| start + pos + 1)
}

/// The 1-based line numbers holding each of `offsets` (ascending, as matches are
/// found), counted by scanning the text between them: no index of the file's lines.
#[must_use]
pub fn lines_of(text: &[u8], offsets: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(offsets.len());
    let (mut at, mut line) = (0usize, 1usize);
    for &offset in offsets {
        let offset = offset.min(text.len());
        if offset < at {
            (at, line) = (0, 1);
        }
        line += memchr::memchr_iter(b'\n', &text[at..offset]).count();
        at = offset;
        out.push(line);
    }
    out
}

/// The 1-based line number holding byte `offset`, given the text's [`line_starts`]; a binary search keeps it cheap for repeated lookups.
///
/// Offsets past the end map to the last line, and an empty `starts` yields 1 so the result is always a usable line number.
#[must_use]
pub fn line_of(starts: &[usize], offset: usize) -> usize {
    starts.partition_point(|&start| start <= offset).max(1)
}

/// One line of a text, split from its terminator (`\n`, `\r\n`, or none at the end), so
/// that code placing and rebuilding lines cuts a text once and compares lines without
/// their endings.
pub struct Line<'a> {
    /// The line without its terminator.
    pub text: &'a str,
    /// `"\n"`, `"\r\n"`, or `""` for a last line without one.
    pub end: &'a str,
}

/// One line (with its terminator, if any) split into its text and terminator.
fn split_end(l: &str) -> Line<'_> {
    let (text, end) = match l.strip_suffix("\r\n") {
        Some(t) => (t, "\r\n"),
        None => match l.strip_suffix('\n') {
            Some(t) => (t, "\n"),
            None => (l, ""),
        },
    };
    Line { text, end }
}

/// The lines of `text` in order, each split from its terminator, cut where
/// [`line_starts`] cuts (after each `\n`): empty text has none.
#[must_use]
pub fn with_ends(text: &str) -> Vec<Line<'_>> {
    // Cut after each `\n`, found with memchr (as `split_inclusive` cuts, a line at a time).
    let mut lines = Vec::with_capacity(text.len() / 32 + 1);
    let mut start = 0;
    for newline in memchr::memchr_iter(b'\n', text.as_bytes()) {
        lines.push(split_end(&text[start..=newline]));
        start = newline + 1;
    }
    if start < text.len() {
        lines.push(split_end(&text[start..]));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_with_ends_are_cut_as_split_inclusive_cuts_them() {
        for text in ["", "a", "a\n", "a\r\nb", "\n\n", "x\ry\r\n\nz\r", "é\nü"] {
            let ours: Vec<(&str, &str)> = with_ends(text).iter().map(|l| (l.text, l.end)).collect();
            let theirs: Vec<(&str, &str)> = text
                .split_inclusive('\n')
                .map(|l| {
                    let l = split_end(l);
                    (l.text, l.end)
                })
                .collect();
            assert_eq!(ours, theirs, "{text:?}");
            let joined: String = ours.iter().flat_map(|(t, e)| [*t, *e]).collect();
            assert_eq!(joined, text);
        }
    }

    #[test]
    fn classifies_line_endings() {
        assert_eq!(line_ending(b"a\nb\n"), LineEnding::Lf);
        assert_eq!(line_ending(b"a\r\nb\r\n"), LineEnding::Crlf);
        assert_eq!(line_ending(b"a\r\nb\n"), LineEnding::Mixed);
        assert_eq!(line_ending(b"a\nb\r\n"), LineEnding::Mixed);
        assert_eq!(line_ending(b"abc"), LineEnding::None);
        assert_eq!(line_ending(b""), LineEnding::None);
        assert_eq!(line_ending(b"\n"), LineEnding::Lf);
        assert_eq!(line_ending(b"a\rb"), LineEnding::None);
        assert_eq!(LineEnding::Crlf.as_str(), "crlf");
        assert_eq!(LineEnding::Mixed.as_str(), "mixed");
        assert_eq!(LineEnding::Lf.as_str(), "lf");
        assert_eq!(LineEnding::None.as_str(), "none");
    }

    #[test]
    fn starts_follow_the_inclusive_rule() {
        assert_eq!(line_starts(b""), Vec::<usize>::new());
        assert_eq!(line_starts(b"a"), vec![0]);
        assert_eq!(line_starts(b"a\n"), vec![0]);
        assert_eq!(line_starts(b"a\nb"), vec![0, 2]);
        assert_eq!(line_starts(b"a\r\nb\r\n"), vec![0, 3]);
        assert_eq!(line_starts(b"\n\n"), vec![0, 1]);
    }

    #[test]
    fn count_agrees_with_starts() {
        for text in [
            &b""[..],
            b"a",
            b"a\n",
            b"a\nb",
            b"\n",
            b"\n\n",
            b"x\r\ny\r\nz",
        ] {
            assert_eq!(count_lines(text), line_starts(text).len(), "{text:?}");
        }
        assert_eq!(count_lines(b"a\nb"), 2);
        assert_eq!(count_lines(b"a\n"), 1);
    }

    #[test]
    fn scanning_agrees_with_starts() {
        for text in [&b""[..], b"a", b"a\n", b"a\nb", b"\n\n", b"x\r\ny\r\nz\n"] {
            let starts = line_starts(text);
            for index in 0..=starts.len() {
                assert_eq!(
                    line_start(text, index),
                    starts.get(index).copied(),
                    "{text:?}"
                );
            }
            for (i, &start) in starts.iter().enumerate() {
                let end = starts.get(i + 1).copied().unwrap_or(text.len());
                assert_eq!(line_end(text, start), end, "{text:?}");
            }
        }
    }

    #[test]
    fn maps_offsets_to_lines() {
        let text = b"ab\ncd\nef";
        let starts = line_starts(text);
        assert_eq!(line_of(&starts, 0), 1);
        assert_eq!(line_of(&starts, 2), 1);
        assert_eq!(line_of(&starts, 3), 2);
        assert_eq!(line_of(&starts, 5), 2);
        assert_eq!(line_of(&starts, 6), 3);
        assert_eq!(line_of(&starts, 100), 3);
        assert_eq!(line_of(&[], 0), 1);
        let offsets = [0, 2, 3, 5, 6, 100, 3];
        let indexed: Vec<usize> = offsets.iter().map(|&o| line_of(&starts, o)).collect();
        assert_eq!(lines_of(text, &offsets), indexed);
    }

    #[test]
    fn bom_is_the_utf8_mark() {
        assert_eq!(BOM.as_bytes(), &[0xEF, 0xBB, 0xBF]);
    }
}
