//! Whether another program holds a file open for writing, as Linux's file leases tell
//! (fcntl(2), "Leases"): a read lease is refused with `EAGAIN` while any other open file
//! description has the file open for writing. The lease is taken and given back at once;
//! it is a question, never held.
//!
//! A program that rewrites a file in place (truncates it and writes it back in pieces)
//! holds it open for writing from the truncation to its last piece, pauses included; a
//! check of the file's times and size sees only the pieces. The answer is `None` where
//! the kernel will not say: the caller neither owns the file nor has `CAP_LEASE`, the
//! filesystem has no leases (NFS, FUSE), or `fs.leases-enable` is 0.

use std::os::fd::{AsRawFd, BorrowedFd};

/// `F_SETSIG` (asm-generic/fcntl.h, the same on every Linux architecture), which the
/// libc crate does not name.
const F_SETSIG: libc::c_int = 10;

/// `Some(true)` when another open file description has `fd`'s file open for writing,
/// `Some(false)` when none has, `None` when the kernel will not say. `fd` must be open
/// for reading only.
// fcntl(2) with F_SETSIG and F_SETLEASE takes an int argument and touches no memory of
// ours; rustix has no binding for either.
#[allow(unsafe_code)]
pub fn open_for_writing_elsewhere(fd: BorrowedFd<'_>) -> Option<bool> {
    let raw = fd.as_raw_fd();
    // A writer that opens the file while the lease is held is made to wait for its
    // release, and the holder is sent a signal: SIGURG, whose default is to ignore it,
    // rather than SIGIO, whose default ends the process.
    // SAFETY: see above; `raw` is a descriptor borrowed for the call.
    if unsafe { libc::fcntl(raw, F_SETSIG, libc::SIGURG) } != 0 {
        return None;
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(raw, libc::F_SETLEASE, libc::F_RDLCK) } == 0 {
        // SAFETY: as above.
        unsafe { libc::fcntl(raw, libc::F_SETLEASE, libc::F_UNLCK) };
        return Some(false);
    }
    match std::io::Error::last_os_error().raw_os_error() {
        Some(libc::EAGAIN) => Some(true),
        _ => None,
    }
}
