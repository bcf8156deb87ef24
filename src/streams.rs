//! The one writer of stdout and stderr: a leaf that any layer may call, so that nothing
//! below the envelope reaches up into it to say a line (ripgrep's `messages.rs`). What is
//! written to stdout is decided by [`crate::envelope`] alone.

use std::io::Write;

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
/// envelope.
#[allow(clippy::print_stderr)]
pub fn stderr_line(line: &str) {
    eprintln!("{line}");
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
