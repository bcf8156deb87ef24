//! The stdio framing of MCP: one JSON-RPC message a line, each way.
//!
//! Lines are read with a bound: a line past it is skipped to its newline without being
//! held in memory, so no input can grow the server without limit. Every message out is
//! written whole, under one lock, through the envelope module (the one writer of stdout),
//! so concurrent calls never interleave their lines and nothing but protocol messages
//! ever reaches stdout.

use std::io::{BufRead, ErrorKind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde_json::Value;

/// One line of input.
#[derive(Debug)]
pub enum Received {
    /// A line's bytes, without its newline (or the trailing `\r` of a CRLF).
    Message(Vec<u8>),
    /// A line longer than the bound; its bytes were skipped.
    TooLong,
    /// A line within the bound that this process had no memory to hold; its bytes were
    /// skipped.
    Unserved,
    /// Stdin is closed.
    End,
}

/// Reads lines of at most a given number of bytes.
pub struct Reader<R> {
    input: R,
}

impl<R: BufRead> Reader<R> {
    pub fn new(input: R) -> Self {
        Reader { input }
    }

    /// The next line, of at most `limit` bytes (looked at as the line arrives, so a bound
    /// lowered meanwhile holds for it). A last line without a newline counts as a line.
    /// The line's buffer grows fallibly: a line the process cannot hold is skipped as
    /// [`Received::Unserved`], never an abort.
    pub fn next_line(&mut self, limit: &AtomicUsize) -> std::io::Result<Received> {
        let mut line = Vec::new();
        let mut over = false;
        let mut unserved = false;
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(buffer) => buffer,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buffer.is_empty() {
                return Ok(match (over, line.is_empty()) {
                    (true, _) if unserved => Received::Unserved,
                    (true, _) => Received::TooLong,
                    (false, true) => Received::End,
                    (false, false) => Received::Message(trim_cr(line)),
                });
            }
            let (chunk, done) = match memchr::memchr(b'\n', buffer) {
                Some(at) => (&buffer[..at], Some(at + 1)),
                None => (buffer, None),
            };
            if !over {
                if line.len() + chunk.len() > limit.load(Ordering::Relaxed) {
                    over = true;
                    line = Vec::new();
                } else if grow(&mut line, chunk.len()) {
                    line.extend_from_slice(chunk);
                } else {
                    over = true;
                    unserved = true;
                    line = Vec::new();
                }
            }
            let consumed = done.unwrap_or(chunk.len());
            self.input.consume(consumed);
            if done.is_some() {
                return Ok(if unserved {
                    Received::Unserved
                } else if over {
                    Received::TooLong
                } else {
                    Received::Message(trim_cr(line))
                });
            }
        }
    }
}

/// Makes room for `more` bytes in `line`, doubling as `Vec` does, but fallibly.
fn grow(line: &mut Vec<u8>, more: usize) -> bool {
    let spare = line.capacity() - line.len();
    if spare >= more {
        return true;
    }
    let wanted = more.max(line.len());
    line.try_reserve(wanted).is_ok() || line.try_reserve_exact(more).is_ok()
}

fn trim_cr(mut line: Vec<u8>) -> Vec<u8> {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    line
}

/// Writes whole messages to stdout, one a line, from any thread.
#[derive(Debug, Default)]
pub struct Writer {
    lock: Mutex<()>,
}

impl Writer {
    /// Writes `message` as one line. Compact JSON escapes every newline inside strings,
    /// so a message is always exactly one line.
    pub fn send(&self, message: &Value) {
        let text = message.to_string();
        let _held = self
            .lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        crate::envelope::emit_plain(&text);
    }
}

#[cfg(test)]
mod tests {
    use super::{AtomicUsize, Reader, Received};

    fn lines(input: &[u8], limit: usize) -> Vec<String> {
        let mut reader = Reader::new(std::io::BufReader::with_capacity(4, input));
        let mut out = Vec::new();
        loop {
            match reader.next_line(&AtomicUsize::new(limit)).unwrap() {
                Received::Message(m) => out.push(String::from_utf8(m).unwrap()),
                Received::TooLong => out.push("<too long>".into()),
                Received::Unserved => out.push("<unserved>".into()),
                Received::End => return out,
            }
        }
    }

    #[test]
    fn lines_are_bounded_and_framed() {
        assert_eq!(lines(b"ab\r\ncd\n\nlast", 8), ["ab", "cd", "", "last"]);
        assert_eq!(
            lines(b"short\nthis line is long\nok\n", 8),
            ["short", "<too long>", "ok"]
        );
        assert_eq!(lines(b"123456789", 8), ["<too long>"]);
        assert!(lines(b"", 8).is_empty());
    }
}
