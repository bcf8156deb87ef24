//! The one writer of stdout and stderr: a leaf that any layer may call, so that nothing
//! below the envelope reaches up into it to say a line (ripgrep's `messages.rs`). What is
//! written to stdout is decided by [`crate::envelope`] alone.
//!
//! Nothing from the workspace reaches a terminal raw: a line on stderr is quoted
//! ([`Quote::text`]) when stderr is a terminal, whoever composed it, and JSON shown at a
//! terminal has the characters JSON leaves as they are (DEL, C1 controls, the marks that
//! reorder or hide text) escaped as `\uXXXX` ([`json_for_terminal`]).

pub mod quote;

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::Write;

pub use quote::{is_unsafe, Quote};

/// Writes bytes to stdout as they are, flushed. A closed pipe leaves nobody to tell; the
/// exit status still says what happened.
#[allow(clippy::disallowed_methods)]
pub fn stdout_raw(bytes: &[u8]) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = out.write_all(bytes);
    let _ = out.flush();
}

/// A line for a person watching stderr (a lock wait, a debug cause). Never part of the
/// envelope. At a terminal its control characters are shown as escapes, so a name or a
/// config's text quoted in it cannot drive the terminal.
#[allow(clippy::print_stderr)]
pub fn stderr_line(line: &str) {
    let quote = Quote {
        terminal: is_terminal(&std::io::stderr()),
    };
    eprintln!("{}", quote.text(line));
}

/// Whether stdout is a terminal (a person reads it).
#[allow(clippy::disallowed_methods)]
#[must_use]
pub fn stdout_is_terminal() -> bool {
    is_terminal(&std::io::stdout())
}

/// Whether `stream` is a terminal.
pub fn is_terminal(stream: &impl std::io::IsTerminal) -> bool {
    stream.is_terminal()
}

/// Serialized JSON as a terminal may show it: every character [`is_unsafe`] that the
/// serializer leaves as it is (it escapes the C0 controls inside strings; outside them a
/// newline or a tab is layout) written as a `\uXXXX` escape, which is the same JSON
/// value. Such characters occur only inside strings, where the escape is valid.
#[must_use]
pub fn json_for_terminal(json: &str) -> Cow<'_, str> {
    let left = |c: char| u32::from(c) >= 0x7f && is_unsafe(c);
    if !json.chars().any(left) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if left(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::json_for_terminal;

    #[test]
    fn json_at_a_terminal_escapes_what_the_serializer_leaves() {
        let value = serde_json::json!({"deny": ["a\u{1b}[2J\u{9b}2J\u{202e}b\u{7f}"]});
        let json = serde_json::to_string(&value).unwrap();
        let shown = json_for_terminal(&json);
        assert_eq!(shown, r#"{"deny":["a\u001b[2J\u009b2J\u202eb\u007f"]}"#);
        let back: serde_json::Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(back, value);
        assert_eq!(
            json_for_terminal("{\"a\":\"caf\u{e9}\"}"),
            "{\"a\":\"caf\u{e9}\"}"
        );
        // A pretty document's layout stays.
        assert_eq!(json_for_terminal("{\n  \"a\": 1\n}"), "{\n  \"a\": 1\n}");
    }
}
