//! Text for a terminal: control characters in names and in echoed text are shown as
//! escapes, never sent raw, so a planted name or line cannot set the window title, clear
//! the screen or move the cursor over what was printed before. A name holding one is
//! quoted as git's `core.quotePath` does (`"a\033]0;x\007"`, C escapes, octal for the
//! rest); in echoed text each one becomes `\x1b` (tab and newline stay, and a carriage
//! return before a newline). Pipes and `--null` keep the raw bytes: this runs only when
//! the stream is a terminal.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` may not reach a terminal raw: a control character, or one of the
/// invisible marks that reorder or hide what a terminal shows (bidirectional overrides
/// and isolates, zero-width marks, the byte-order mark), which would let a planted name
/// or line read as something it is not.
#[must_use]
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{61c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}')
}

/// Whether output goes to a terminal, and is quoted.
#[derive(Debug, Clone, Copy)]
pub struct Quote {
    pub terminal: bool,
}

impl Quote {
    /// `name` as a terminal may show it: as it is, or quoted.
    #[must_use]
    pub fn name(self, name: &str) -> Cow<'_, str> {
        if !self.terminal || !name.chars().any(is_unsafe) {
            return Cow::Borrowed(name);
        }
        let mut out = String::from("\"");
        for c in name.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\u{7}' => out.push_str("\\a"),
                '\u{8}' => out.push_str("\\b"),
                '\t' => out.push_str("\\t"),
                '\n' => out.push_str("\\n"),
                '\u{b}' => out.push_str("\\v"),
                '\u{c}' => out.push_str("\\f"),
                '\r' => out.push_str("\\r"),
                c if is_unsafe(c) => {
                    let mut bytes = [0u8; 4];
                    for byte in c.encode_utf8(&mut bytes).bytes() {
                        let _ = write!(out, "\\{byte:03o}");
                    }
                }
                c => out.push(c),
            }
        }
        out.push('"');
        Cow::Owned(out)
    }

    /// `text` (lines of a file, a message) as a terminal may show it: every control
    /// character but tab, newline and a carriage return ending a line as `\xNN` (`\u{NN}`
    /// past ASCII).
    #[must_use]
    pub fn text(self, text: &str) -> Cow<'_, str> {
        let unsafe_at = |i: usize, c: char| {
            is_unsafe(c)
                && c != '\t'
                && c != '\n'
                && !(c == '\r' && text[i + 1..].starts_with('\n'))
        };
        if !self.terminal || !text.char_indices().any(|(i, c)| unsafe_at(i, c)) {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len() + 8);
        for (i, c) in text.char_indices() {
            if !unsafe_at(i, c) {
                out.push(c);
            } else if c.is_ascii() {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            } else {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
        }
        Cow::Owned(out)
    }
}

#[cfg(test)]
mod tests {
    use super::Quote;

    const TERMINAL: Quote = Quote { terminal: true };

    #[test]
    fn names_with_controls_are_quoted_as_git_does() {
        assert_eq!(TERMINAL.name("src/main.rs"), "src/main.rs");
        assert_eq!(
            TERMINAL.name("a\u{1b}]0;owned\u{7}b\"c\\.txt"),
            "\"a\\033]0;owned\\ab\\\"c\\\\.txt\""
        );
        assert_eq!(TERMINAL.name("new\nline"), "\"new\\nline\"");
        assert_eq!(TERMINAL.name("c1\u{9b}2J"), "\"c1\\302\\2332J\"");
        let pipe = Quote { terminal: false };
        assert_eq!(pipe.name("a\u{1b}b"), "a\u{1b}b");
    }

    #[test]
    fn text_keeps_tabs_and_line_ends_and_escapes_the_rest() {
        assert_eq!(TERMINAL.text("a\tb\r\nc\n"), "a\tb\r\nc\n");
        assert_eq!(TERMINAL.text("x\u{1b}[2Jy\rz\n"), "x\\x1b[2Jy\\x0dz\n");
        assert_eq!(TERMINAL.text("\u{9b}"), "\\u{9b}");
    }

    #[test]
    fn marks_that_reorder_or_hide_text_are_escaped_too() {
        assert_eq!(
            TERMINAL.text("ok = \"user\u{202e} \u{2066}// admin\u{2069}\u{2066}\";\n"),
            "ok = \"user\\u{202e} \\u{2066}// admin\\u{2069}\\u{2066}\";\n"
        );
        assert_eq!(TERMINAL.text("zero\u{200b}width"), "zero\\u{200b}width");
        assert_eq!(
            TERMINAL.name("txt.\u{202e}exe"),
            "\"txt.\\342\\200\\256exe\""
        );
        assert_eq!(TERMINAL.text("caf\u{e9} \u{4e2d}"), "caf\u{e9} \u{4e2d}");
    }
}
