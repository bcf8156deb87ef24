//! The caller's own inputs: stdin, and files named by `--from`-style flags.
//!
//! These are the caller's files, outside the workspace's containment by design (the
//! caller can read them anyway); they are never workspace paths. Every read is bounded:
//! past its limit the input is refused without being read to its end, so `yes | stitch
//! list` cannot grow memory. A named file is opened without blocking, so a FIFO with no
//! writer cannot hang the call; nor is it read as empty for want of a writer: it is
//! waited on as a silent stdin is (a notice, then a bound), and then refused.

use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};

/// Why an input could not be had.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// It holds more than the limit, which is all that was read.
    #[error("more than {limit} bytes")]
    TooLarge { limit: u64 },
    /// A FIFO that no program opened to write within the bound: nothing was read, and
    /// its end-of-file is not taken for empty content.
    #[error("no writer within {waited:?}")]
    NoWriter { waited: Duration },
    #[error(transparent)]
    Io(std::io::Error),
}

/// Reads `input` to its end, or refuses it once it passes `limit` bytes.
fn bounded(input: impl Read, limit: u64) -> Result<Vec<u8>, Error> {
    let mut bytes = Vec::new();
    input
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Error::Io)?;
    if bytes.len() as u64 > limit {
        return Err(Error::TooLarge { limit });
    }
    Ok(bytes)
}

/// Reads stdin as raw bytes, at most `limit` of them.
pub fn stdin_bytes(limit: u64) -> Result<Vec<u8>, Error> {
    bounded(std::io::stdin().lock(), limit)
}

/// Whether stdin stirs within `wait`: a byte to read, its end, or an error a read would
/// report. It reads nothing, so what arrived is still there for [`stdin_bytes`].
///
/// poll(2) on fd 0 says so without consuming input; a regular file or `/dev/null` is
/// ready at once. An interrupted wait goes on for the time that is left.
pub fn stdin_stirs_within(wait: Duration) -> std::io::Result<bool> {
    stirs_within(&std::io::stdin(), wait)
}

/// Whether `input` stirs within `wait`, as [`stdin_stirs_within`] says of stdin. A FIFO
/// opened before any writer has none of poll's events until one comes (a hang-up only
/// once a writer came and left), which is how a writer that never came is told apart
/// from one that wrote nothing.
fn stirs_within(input: &impl std::os::fd::AsFd, wait: Duration) -> std::io::Result<bool> {
    let deadline = Instant::now() + wait;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let timeout = Timespec::try_from(left).unwrap_or_default();
        let mut fds = [PollFd::new(input, PollFlags::IN)];
        match poll(&mut fds, Some(&timeout)) {
            // Any event, readable, hang-up, error or an fd poll cannot watch, is for a
            // read to find out.
            Ok(n) if n > 0 => return Ok(true),
            Ok(_) if left.is_zero() => return Ok(false),
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
}

/// Whether stdin is a terminal (never read by surprise).
#[must_use]
pub fn stdin_is_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal()
}

/// How long a FIFO named by `--from` waits for a writer: a notice after the first,
/// [`Error::NoWriter`] after both.
#[derive(Debug, Clone, Copy)]
pub struct WriterWait {
    pub notice_after: Duration,
    pub give_up_after: Duration,
}

/// Reads a `--from FILE` argument, at most `limit` bytes: `-` is stdin, anything else a
/// file of the caller's. A FIFO (or a pipe) is waited on for its first byte or its
/// writer's end as `wait` says, with `notice` called once the first wait has passed.
#[allow(clippy::disallowed_methods)] // The caller's own file, not a workspace path.
pub fn from_file(
    path: &Path,
    limit: u64,
    wait: WriterWait,
    notice: impl FnOnce(),
) -> Result<Vec<u8>, Error> {
    use std::os::unix::fs::OpenOptionsExt;
    if path.as_os_str() == "-" {
        return stdin_bytes(limit);
    }
    // Opening a FIFO for reading blocks until a writer comes; O_NONBLOCK does not.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(
            (rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY)
                .bits()
                .cast_signed(),
        )
        .open(path)
        .map_err(Error::Io)?;
    let meta = file.metadata().map_err(Error::Io)?;
    if meta.is_dir() {
        return Err(Error::Io(std::io::ErrorKind::IsADirectory.into()));
    }
    if !meta.is_file() {
        use std::os::unix::fs::FileTypeExt;
        if meta.file_type().is_fifo()
            && !stirs_within(&file, wait.notice_after).map_err(Error::Io)?
        {
            notice();
            let rest = wait.give_up_after.saturating_sub(wait.notice_after);
            if !stirs_within(&file, rest).map_err(Error::Io)? {
                return Err(Error::NoWriter {
                    waited: wait.give_up_after,
                });
            }
        }
        // A pipe the caller made (`--from <(cmd)`) is read as it comes, as cat would.
        let flags = rustix::fs::fcntl_getfl(&file).map_err(|e| Error::Io(e.into()))?;
        rustix::fs::fcntl_setfl(&file, flags - rustix::fs::OFlags::NONBLOCK)
            .map_err(|e| Error::Io(e.into()))?;
    }
    bounded(file, limit)
}
