//! One whitespace normaliser for every comparison of text by its content: whitespace
//! runs collapsed to one space and the ends trimmed — of the whole text ([`collapsed`]),
//! or of each line, line breaks kept ([`lines`]) — so that texts that differ only in
//! spacing, indentation or line endings (`\r` is whitespace) compare equal.

/// `text` with every whitespace run, line breaks included, collapsed to one space, and
/// its ends trimmed.
#[must_use]
pub fn collapsed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` line by line (split at `\n`), each line [`collapsed`]: the line breaks stay.
#[must_use]
pub fn lines(text: &str) -> String {
    text.split('\n')
        .map(collapsed)
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::{collapsed, lines};

    #[test]
    fn spacing_is_set_aside_and_line_breaks_kept_only_by_lines() {
        assert_eq!(collapsed("  a \t b\r\n c "), "a b c");
        assert_eq!(lines("  a   b \r\n\tc\n"), "a b\nc\n");
        assert_eq!(lines(""), "");
    }
}
