//! The caller's own inputs: stdin, and files named by `--from`-style flags.
//!
//! These are the caller's files, outside the workspace's containment by design (the
//! caller can read them anyway); they are never workspace paths.

use std::io::Read;
use std::path::Path;

/// Reads all of stdin as raw bytes.
pub fn stdin_bytes() -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::io::stdin().lock().read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Whether stdin is a terminal (never read by surprise).
#[must_use]
pub fn stdin_is_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal()
}

/// Reads a `--from FILE` argument: `-` is stdin, anything else a file of the caller's.
#[allow(clippy::disallowed_methods)] // The caller's own file, not a workspace path.
pub fn from_file(path: &Path) -> std::io::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        stdin_bytes()
    } else {
        std::fs::read(path)
    }
}
