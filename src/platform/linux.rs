//! Linux's fast path for writes: an anonymous `O_TMPFILE` given its name by `linkat`
//! (open(2) on `O_TMPFILE`, linkat(2) on `AT_EMPTY_PATH`), a no-clobber rename with
//! `renameat2(RENAME_NOREPLACE)`, and copies in the kernel with copy_file_range(2); and
//! a pidfd (pidfd_open(2), Linux 5.3) to wait on a child's exit with poll(2).

use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};

use rustix::fs::{AtFlags, Mode, OFlags, RenameFlags, CWD};
use rustix::io::Errno;
use rustix::process::{Pid, PidfdFlags};

/// Opens an anonymous file in `dir` for writing: `None` where the filesystem has no
/// `O_TMPFILE`, and the caller uses a named temp file.
pub fn anonymous_temp(dir: impl AsFd) -> Result<Option<OwnedFd>, Errno> {
    match rustix::fs::openat(
        dir,
        ".",
        OFlags::WRONLY | OFlags::CLOEXEC | OFlags::TMPFILE,
        Mode::from_raw_mode(0o666),
    ) {
        Ok(fd) => Ok(Some(fd)),
        Err(Errno::OPNOTSUPP | Errno::ISDIR | Errno::INVAL | Errno::NOENT) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Gives an anonymous file the name `name` in `dir`; fails if the name exists.
pub fn link_anonymous(fd: BorrowedFd<'_>, dir: impl AsFd, name: &str) -> Result<(), Errno> {
    debug_assert!(!name.contains('/'));
    match rustix::fs::linkat(fd, "", &dir, name, AtFlags::EMPTY_PATH) {
        // Without CAP_DAC_READ_SEARCH, AT_EMPTY_PATH is refused; the /proc link works.
        Err(Errno::NOENT | Errno::PERM | Errno::ACCESS) => {
            let proc_path = format!("/proc/self/fd/{}", fd.as_raw_fd());
            rustix::fs::linkat(CWD, proc_path.as_str(), &dir, name, AtFlags::SYMLINK_FOLLOW)
        }
        other => other,
    }
}

/// Renames `old` in `old_dir` to `new` in `new_dir`, failing with `EEXIST` rather than
/// replace a file that is there.
pub fn rename_noreplace(
    old_dir: impl AsFd,
    old: &str,
    new_dir: impl AsFd,
    new: &str,
) -> Result<(), Errno> {
    match rustix::fs::renameat_with(&old_dir, old, &new_dir, new, RenameFlags::NOREPLACE) {
        // A filesystem without the flag: link, then unlink, which never clobbers either.
        Err(Errno::INVAL | Errno::NOSYS) => {
            super::posix::link_then_unlink(old_dir, old, new_dir, new)
        }
        other => other,
    }
}

/// Copies `len` bytes of `source` from `offset` to the end of `file`, in the kernel.
/// False when the kernel cannot (another filesystem, no support).
pub fn copy_range(
    source: impl AsFd,
    offset: u64,
    file: impl AsFd,
    len: usize,
) -> std::io::Result<bool> {
    let mut from = offset;
    let mut left = len;
    while left > 0 {
        match rustix::fs::copy_file_range(&source, Some(&mut from), &file, None, left) {
            // A source shorter than expected, or a filesystem the kernel cannot copy on.
            Ok(0) | Err(Errno::XDEV | Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {
                return Ok(false)
            }
            Ok(n) => left -= n,
            Err(e) => return Err(e.into()),
        }
    }
    Ok(true)
}

/// Drops the clean cached pages of `file`, a file about to be replaced
/// (posix_fadvise(2), `POSIX_FADV_DONTNEED`), so that the last close of the replaced
/// file has little left to free. Advice only: an error changes nothing.
pub fn forget_cache(file: impl AsFd) {
    let _ = rustix::fs::fadvise(file, 0, None, rustix::fs::Advice::DontNeed);
}

/// A descriptor that becomes readable when the process `pid` exits, where the kernel
/// has pidfds.
pub fn exit_fd(pid: Pid) -> Option<OwnedFd> {
    rustix::process::pidfd_open(pid, PidfdFlags::empty()).ok()
}

/// The birth time of the open file `fd` in nanoseconds since the epoch, 0 where the
/// filesystem keeps none.
#[must_use]
pub fn born_nanos(fd: BorrowedFd<'_>) -> u128 {
    use rustix::fs::{statx, StatxFlags};
    match statx(fd, "", AtFlags::EMPTY_PATH, StatxFlags::BTIME) {
        Ok(x) if x.stx_mask & StatxFlags::BTIME.bits() != 0 => {
            let secs = u128::try_from(x.stx_btime.tv_sec).unwrap_or(0);
            secs * 1_000_000_000 + u128::from(x.stx_btime.tv_nsec)
        }
        _ => 0,
    }
}
