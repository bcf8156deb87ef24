//! A file's text cut into lines, each with its terminator (`\n`, `\r\n`, or none at the
//! end), once, so that placing and rebuilding hunks never cut it again.

/// One line of the file: its text, and its terminator (`\n`, `\r\n`, or none at the end).
pub(super) struct Line<'a> {
    pub(super) text: &'a str,
    pub(super) end: &'a str,
}

/// One line (with its terminator, if any) split into its text and terminator.
fn line(l: &str) -> Line<'_> {
    let (text, end) = match l.strip_suffix("\r\n") {
        Some(t) => (t, "\r\n"),
        None => match l.strip_suffix('\n') {
            Some(t) => (t, "\n"),
            None => (l, ""),
        },
    };
    Line { text, end }
}

/// The lines of `text`, each with its terminator, in order.
pub(super) fn lines(text: &str) -> Vec<Line<'_>> {
    // Cut after each `\n`, found with memchr (as `split_inclusive` cuts, a line at a time).
    let mut lines = Vec::with_capacity(text.len() / 32 + 1);
    let mut start = 0;
    for newline in memchr::memchr_iter(b'\n', text.as_bytes()) {
        lines.push(line(&text[start..=newline]));
        start = newline + 1;
    }
    if start < text.len() {
        lines.push(line(&text[start..]));
    }
    lines
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_are_cut_as_split_inclusive_cuts_them() {
        for text in ["", "a", "a\n", "a\r\nb", "\n\n", "x\ry\r\n\nz\r", "é\nü"] {
            let ours: Vec<(&str, &str)> =
                super::lines(text).iter().map(|l| (l.text, l.end)).collect();
            let theirs: Vec<(&str, &str)> = text
                .split_inclusive('\n')
                .map(|l| {
                    let l = super::line(l);
                    (l.text, l.end)
                })
                .collect();
            assert_eq!(ours, theirs, "{text:?}");
            let joined: String = ours.iter().flat_map(|(t, e)| [*t, *e]).collect();
            assert_eq!(joined, text);
        }
    }
}
