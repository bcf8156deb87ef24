//! The only place a lock is taken: advisory, exclusive, cross-process (fs4).
//!
//! Mutations lock a file under `.stitch/locks/`, chosen by hashing the real path of the
//! target into one of [`SHARDS`] lock files. Lock files are never replaced (the data
//! file is, by rename, which is why it is never the thing locked), so a lock holds for
//! as long as its descriptor is open. Different files rarely share a shard, so they
//! rarely wait on each other.

// The one place allowed to take locks: see clippy.toml.
#![allow(clippy::disallowed_methods)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use fs4::FileExt;
use fs4::TryLockError;

use crate::workspace::{self, Workspace};

/// How many lock files the paths of a workspace are spread over.
pub const SHARDS: u64 = 256;

/// How long to wait for a lock, and what to do once the wait becomes noticeable (200 ms):
/// the front end says so on stderr, so a waiting call is never silent. A front end that
/// can withdraw a call (the MCP server, on `notifications/cancelled`) gives a [`Cancel`].
#[derive(Debug, Clone)]
pub struct Wait {
    pub timeout: Duration,
    pub notice: fn(),
    pub cancel: Option<Cancel>,
}

/// A signal that the call waiting for a lock is no longer wanted. Clones share it.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// Withdraws the call: a wait for a lock ends with [`Error::Cancelled`].
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether the call was withdrawn.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// How often a cancellable wait looks at its [`Cancel`]. The lock itself is handed over
/// the moment it is free, whatever this is.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// A held lock; released when dropped (the descriptor closes).
#[derive(Debug)]
pub struct Guard {
    _file: std::fs::File,
}

/// Why no lock was obtained.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Another process held it for longer than the timeout.
    #[error("another process held the lock for {waited:?}")]
    Busy { waited: Duration },
    /// The call was withdrawn while it waited.
    #[error("the call was cancelled while it waited for the lock")]
    Cancelled,
    #[error("opening the lock file")]
    Workspace(#[source] workspace::Error),
    #[error("taking the lock")]
    Io(#[source] std::io::Error),
}

/// The lock shard of a real workspace-relative path (FNV-1a, stable across processes).
#[must_use]
pub fn shard(real_path: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in real_path.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash % SHARDS
}

/// Takes the locks of every path in `real_paths`, in one order (by lock file), each lock
/// file once, so that two calls that lock several paths never deadlock; `wait.timeout`
/// covers each.
pub fn acquire_all(ws: &Workspace, real_paths: &[&str], wait: &Wait) -> Result<Vec<Guard>, Error> {
    let mut shards: Vec<u64> = real_paths.iter().map(|p| shard(p)).collect();
    shards.sort_unstable();
    shards.dedup();
    shards
        .into_iter()
        .map(|s| acquire_named(ws, &format!("{s:02x}.lock"), wait))
        .collect()
}

/// Takes the exclusive lock of the lock file `name`, waiting up to `wait.timeout`.
///
/// The uncontended case is one `try_lock`. Under contention a second thread blocks in
/// `flock` (so the lock passes on the moment it is free, with no polling delay) while
/// this thread waits for it up to the timeout, or until the call is cancelled. A second thread
/// left waiting after a timeout or a cancellation takes the lock once it is free and
/// lets it go at once (its descriptor closes); in a one-call process, the exit ends it.
pub fn acquire_named(ws: &Workspace, name: &str, wait: &Wait) -> Result<Guard, Error> {
    let timeout = wait.timeout;
    // A call withdrawn before it reached its lock stops here too, whether or not the
    // lock would be free.
    if wait.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
        return Err(Error::Cancelled);
    }
    let file = ws.lock_file(name).map_err(Error::Workspace)?;
    match FileExt::try_lock(&file) {
        // Withdrawn on the way here: let the lock go rather than change anything.
        Ok(()) if wait.cancel.as_ref().is_some_and(Cancel::is_cancelled) => {
            return Err(Error::Cancelled)
        }
        Ok(()) => return Ok(Guard { _file: file }),
        Err(TryLockError::WouldBlock) => {}
        Err(TryLockError::Error(e)) => return Err(Error::Io(e)),
    }
    let start = Instant::now();
    // The duplicate shares the open file description, and so the flock.
    let shared = file.try_clone().map_err(Error::Io)?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(FileExt::lock(&shared));
    });
    let notice_at = Duration::from_millis(200).min(timeout);
    let mut noticed = notice_at >= timeout;
    loop {
        if wait.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
            return Err(Error::Cancelled);
        }
        let elapsed = start.elapsed();
        if elapsed >= timeout {
            return Err(Error::Busy { waited: elapsed });
        }
        if !noticed && elapsed >= notice_at {
            noticed = true;
            (wait.notice)();
        }
        let next = if noticed { timeout } else { notice_at };
        let mut slice = next.saturating_sub(elapsed);
        if wait.cancel.is_some() {
            slice = slice.min(CANCEL_POLL);
        }
        match rx.recv_timeout(slice) {
            // The lock came, but the call may have been withdrawn meanwhile: it lets the
            // lock go (the descriptor closes) rather than change anything.
            Ok(Ok(())) if wait.cancel.as_ref().is_some_and(Cancel::is_cancelled) => {
                return Err(Error::Cancelled)
            }
            Ok(Ok(())) => return Ok(Guard { _file: file }),
            Ok(Err(e)) => return Err(Error::Io(e)),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(Error::Busy {
                    waited: start.elapsed(),
                })
            }
        }
    }
}

/// The journal's lock file under `.stitch/locks/` (no shard's name: shards are hex).
const JOURNAL: &str = "journal.lock";

/// The journal's lock, held shared by every change from the moment it keeps its first
/// version to the moment its entry is committed, so that a prune (which holds it
/// exclusively, [`journal_exclusive`]) never sees a change in flight: what no entry names
/// then is named by nothing, and goes at once. Waits up to `wait.timeout` for a prune to
/// finish.
pub fn journal_shared(ws: &Workspace, wait: &Wait) -> Result<Guard, Error> {
    let file = ws.lock_file(JOURNAL).map_err(Error::Workspace)?;
    let start = Instant::now();
    loop {
        match FileExt::try_lock_shared(&file) {
            Ok(()) => return Ok(Guard { _file: file }),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(e)) => return Err(Error::Io(e)),
        }
        if wait.cancel.as_ref().is_some_and(Cancel::is_cancelled) {
            return Err(Error::Cancelled);
        }
        let waited = start.elapsed();
        if waited >= wait.timeout {
            return Err(Error::Busy { waited });
        }
        // A prune is short: a few milliseconds between looks.
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The journal's lock held exclusively, if no change is in flight right now (no wait:
/// a prune that cannot have it is left to a later change).
#[must_use]
pub fn journal_exclusive(ws: &Workspace) -> Option<Guard> {
    let file = ws.lock_file(JOURNAL).ok()?;
    FileExt::try_lock(&file).ok()?;
    Some(Guard { _file: file })
}
