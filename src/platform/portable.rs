//! The portable write path, plain POSIX: no anonymous files (a named temp file is used,
//! under `.stitch/tmp/`), a no-clobber publish by link(2) then unlink(2), and contents
//! written from memory rather than copied in the kernel. Also built on Linux with
//! `--cfg stitch_portable`, so the test suite runs it there too.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use rustix::io::Errno;

/// There are no anonymous files here: the caller always uses a named temp file.
#[allow(clippy::unnecessary_wraps)] // The Linux binding can fail.
pub fn anonymous_temp(_dir: impl AsFd) -> Result<Option<OwnedFd>, Errno> {
    Ok(None)
}

/// Never called: [`anonymous_temp`] makes no anonymous file to link.
pub fn link_anonymous(_fd: BorrowedFd<'_>, _dir: impl AsFd, _name: &str) -> Result<(), Errno> {
    Err(Errno::NOSYS)
}

/// Renames `old` in `old_dir` to `new` in `new_dir` without ever replacing a file that
/// is there.
pub fn rename_noreplace(
    old_dir: impl AsFd,
    old: &str,
    new_dir: impl AsFd,
    new: &str,
) -> Result<(), Errno> {
    super::posix::link_then_unlink(old_dir, old, new_dir, new)
}

/// There is no kernel copy here: the caller writes from memory.
#[allow(clippy::unnecessary_wraps)] // The Linux binding can fail.
pub fn copy_range(
    _source: impl AsFd,
    _offset: u64,
    _file: impl AsFd,
    _len: usize,
) -> std::io::Result<bool> {
    Ok(false)
}

/// No pidfds here: the caller checks on the child at a short tick.
pub fn exit_fd(_pid: rustix::process::Pid) -> Option<OwnedFd> {
    None
}

/// Nothing to drop: the replaced file's cache is left to its last close.
pub fn forget_cache(_file: impl AsFd) {}

/// Whether another program holds the file open for writing: this platform cannot say.
#[must_use]
pub fn open_for_writing_elsewhere(_fd: BorrowedFd<'_>) -> Option<bool> {
    None
}

/// No birth time is looked at here: 0.
#[must_use]
pub fn born_nanos(_fd: BorrowedFd<'_>) -> u128 {
    0
}
