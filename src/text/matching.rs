//! Exact snippet matching with exactly one normalisation (LF snippets in all-CRLF files), and byte-faithful replacement.

use std::borrow::Cow;

use super::lines::{line_ending, LineEnding};

/// The byte offsets of the non-overlapping occurrences of `needle` in `haystack`, left to right, so callers can count and replace them.
///
/// An empty needle matches nothing, because "replace the empty string" is never a meaningful edit.
#[must_use]
pub fn find_all(haystack: &[u8], needle: &[u8]) -> Vec<usize> {
    if needle.is_empty() {
        return Vec::new();
    }
    memchr::memmem::find_iter(haystack, needle).collect()
}

/// The outcome of looking for a snippet, after the CRLF rule, so the caller replaces exactly what was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located<'a> {
    /// The snippet as searched for: borrowed as given, or owned when CRLF-adapted.
    pub old: Cow<'a, str>,
    /// The replacement as it will be written: borrowed as given, or owned when its newlines were made CRLF.
    pub new: Cow<'a, str>,
    /// The byte offsets of the non-overlapping occurrences of `old` in the text.
    pub offsets: Vec<usize>,
    /// Whether the occurrences were only found after turning the snippet's bare `\n` into `\r\n`.
    pub crlf_adapted: bool,
    /// Whether the replacement's bare `\n` were turned into `\r\n` to follow the file's convention.
    pub new_converted: bool,
}

/// Looks for `old` in `text`, exactly first, then with the one CRLF normalisation.
///
/// When `old` has no exact match, the text's line endings are all CRLF, and `old` contains `\n` but no `\r\n`,
/// every bare `\n` in `old` and `new` becomes `\r\n` and the search is repeated. `crlf_adapted` is true only when
/// that adapted search found occurrences. When `old` matched as given in an all-CRLF text, a `new` that contains
/// `\n` but no `\r` is written with `\r\n` all the same, so an edit never leaves a file with mixed
/// line endings; `new_converted` says so. Files with mixed line endings only match exactly, and `new` is then
/// written as given, since no single adaptation would be right for them.
#[must_use]
pub fn locate<'a>(text: &str, old: &'a str, new: &'a str) -> Located<'a> {
    let offsets = find_all(text.as_bytes(), old.as_bytes());
    let crlf_file = || line_ending(text.as_bytes()) == LineEnding::Crlf;
    let convert_new =
        |found: bool| found && new.contains('\n') && !new.contains('\r') && crlf_file();
    let adaptable =
        offsets.is_empty() && old.contains('\n') && !old.contains("\r\n") && crlf_file();
    if adaptable {
        let adapted_old = to_crlf(old);
        let adapted_offsets = find_all(text.as_bytes(), adapted_old.as_bytes());
        if !adapted_offsets.is_empty() {
            let adapted_new = to_crlf(new);
            let converted = adapted_new != new;
            return Located {
                old: Cow::Owned(adapted_old),
                new: Cow::Owned(adapted_new),
                offsets: adapted_offsets,
                crlf_adapted: true,
                new_converted: converted,
            };
        }
    }
    let converted = convert_new(!offsets.is_empty());
    Located {
        old: Cow::Borrowed(old),
        new: if converted {
            Cow::Owned(to_crlf(new))
        } else {
            Cow::Borrowed(new)
        },
        offsets,
        crlf_adapted: false,
        new_converted: converted,
    }
}

/// Turns every bare `\n` (one not preceded by `\r`) into `\r\n`, leaving existing `\r\n` alone.
fn to_crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16 + 2);
    let mut prev = None;
    for ch in text.chars() {
        if ch == '\n' && prev != Some('\r') {
            out.push('\r');
        }
        out.push(ch);
        prev = Some(ch);
    }
    out
}

/// Replaces the occurrences of length `old_len` at `offsets` (sorted, non-overlapping) by `new`, copying every other byte untouched.
///
/// # Panics
///
/// Panics if an offset span is out of bounds, out of order, or not on a character boundary, which
/// cannot happen for offsets that [`find_all`] or [`locate`] returned for the same text and snippet.
#[must_use]
pub fn replace_at(text: &str, offsets: &[usize], old_len: usize, new: &str) -> String {
    let grown = new.len().saturating_sub(old_len) * offsets.len();
    let mut out = String::with_capacity(text.len() + grown);
    let mut copied = 0;
    for &offset in offsets {
        assert!(
            offset >= copied,
            "replacement offsets overlap or are unsorted"
        );
        out.push_str(&text[copied..offset]);
        out.push_str(new);
        copied = offset + old_len;
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_non_overlapping_occurrences() {
        assert_eq!(find_all(b"aaaa", b"aa"), vec![0, 2]);
        assert_eq!(find_all(b"abcabc", b"bc"), vec![1, 4]);
        assert_eq!(find_all(b"abc", b"x"), Vec::<usize>::new());
        assert_eq!(find_all(b"abc", b""), Vec::<usize>::new());
    }

    #[test]
    fn exact_match_is_preferred_and_borrowed() {
        let found = locate("a\nb\n", "a\nb", "c");
        assert_eq!(found.offsets, vec![0]);
        assert!(!found.crlf_adapted);
        assert!(matches!(found.old, Cow::Borrowed(_)));
    }

    #[test]
    fn lf_snippet_is_adapted_in_crlf_file() {
        let text = "one\r\ntwo\r\nthree\r\n";
        let found = locate(text, "one\ntwo", "uno\ndos\r\ntres");
        assert!(found.crlf_adapted);
        assert_eq!(found.offsets, vec![0]);
        assert_eq!(found.old, "one\r\ntwo");
        assert_eq!(found.new, "uno\r\ndos\r\ntres");
        let out = replace_at(text, &found.offsets, found.old.len(), &found.new);
        assert_eq!(out, "uno\r\ndos\r\ntres\r\nthree\r\n");
    }

    #[test]
    fn new_text_follows_an_all_crlf_file_however_old_text_was_spelled() {
        let text = "one\r\ntwo\r\nthree\r\n";
        let copied = locate(text, "one\r\ntwo", "uno\ndos");
        assert!(!copied.crlf_adapted);
        assert!(copied.new_converted);
        assert_eq!(copied.new, "uno\r\ndos");
        let one_line = locate(text, "two", "2\n2");
        assert!(one_line.new_converted);
        assert_eq!(one_line.new, "2\r\n2");
        let typed = locate(text, "one\ntwo", "uno\ndos");
        assert!(typed.crlf_adapted && typed.new_converted);
        assert_eq!(typed.new, "uno\r\ndos");
        let no_newline = locate(text, "two", "dos");
        assert!(!no_newline.new_converted);
        let has_cr = locate(text, "two", "a\rb\nc");
        assert!(!has_cr.new_converted);
        assert_eq!(has_cr.new, "a\rb\nc");
        let mixed = locate("one\r\ntwo\nthree\r\n", "one", "uno\n");
        assert!(!mixed.new_converted);
        assert_eq!(mixed.new, "uno\n");
        let lf = locate("one\ntwo\n", "one", "uno\ndos");
        assert!(!lf.new_converted);
    }

    #[test]
    fn mixed_files_and_crlf_snippets_are_not_adapted() {
        let mixed = locate("one\r\ntwo\nthree\r\n", "one\ntwo", "x");
        assert!(mixed.offsets.is_empty());
        assert!(!mixed.crlf_adapted);
        let partial = locate("a\r\nb\r\nc\r\n", "a\r\nb\nc", "x");
        assert!(partial.offsets.is_empty());
        assert!(!partial.crlf_adapted);
        let no_newline = locate("a\r\nb\r\n", "z", "x");
        assert!(!no_newline.crlf_adapted);
    }

    #[test]
    fn failed_adaptation_returns_original_strings() {
        let found = locate("a\r\nb\r\n", "a\nc", "x\ny");
        assert!(found.offsets.is_empty());
        assert!(!found.crlf_adapted);
        assert_eq!(found.old, "a\nc");
        assert_eq!(found.new, "x\ny");
    }

    #[test]
    fn to_crlf_only_touches_bare_newlines() {
        assert_eq!(to_crlf("a\r\nb\nc"), "a\r\nb\r\nc");
        assert_eq!(to_crlf("\n\n"), "\r\n\r\n");
        assert_eq!(to_crlf("é\n"), "é\r\n");
    }

    #[test]
    fn replace_copies_everything_else_verbatim() {
        let text = "x=1; y=1; \u{feff}z=1;";
        let offsets = find_all(text.as_bytes(), b"=1");
        assert_eq!(
            replace_at(text, &offsets, 2, "=22"),
            "x=22; y=22; \u{feff}z=22;"
        );
        assert_eq!(replace_at(text, &[], 2, "q"), text);
        assert_eq!(replace_at("abab", &[0, 2], 2, ""), "");
    }
}
