//! What every POSIX system shares: `fsync`, and the path limits of its kernels.

use std::os::fd::AsFd;

use super::PathLimits;

/// Linux's `PATH_MAX` and `NAME_MAX` (limits.h).
#[allow(dead_code)] // Used where the target is Linux.
pub const LINUX_LIMITS: PathLimits = PathLimits {
    path_max: 4096,
    name_max: 255,
};

/// macOS's and FreeBSD's `PATH_MAX` and `NAME_MAX` (sys/syslimits.h).
#[allow(dead_code)] // Used where the target is not Linux.
pub const BSD_LIMITS: PathLimits = PathLimits {
    path_max: 1024,
    name_max: 255,
};

/// The CPU time the calling thread has used so far: clock_gettime(2) of
/// `CLOCK_THREAD_CPUTIME_ID`, which a busy machine's queue does not inflate.
#[must_use]
pub fn thread_cpu_time() -> std::time::Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    std::time::Duration::new(
        u64::try_from(t.tv_sec).unwrap_or(0),
        u32::try_from(t.tv_nsec).unwrap_or(0),
    )
}

/// Flushes a file's (or directory's) data and metadata to the disk: fsync(2).
#[allow(dead_code)] // macOS has its own.
pub fn sync(fd: impl AsFd) -> rustix::io::Result<()> {
    rustix::fs::fsync(fd)
}

/// Gives `old` in `old_dir` the name `new` in `new_dir` without ever replacing a file
/// that is there — linkat(2) fails with `EEXIST` — then removes the old name. Where a
/// no-replace rename is missing, this is the no-clobber publish.
pub fn link_then_unlink(
    old_dir: impl AsFd,
    old: &str,
    new_dir: impl AsFd,
    new: &str,
) -> rustix::io::Result<()> {
    rustix::fs::linkat(&old_dir, old, &new_dir, new, rustix::fs::AtFlags::empty())?;
    // The new name is in place; an old name left behind is swept later as a stale temp.
    let _ = rustix::fs::unlinkat(&old_dir, old, rustix::fs::AtFlags::empty());
    Ok(())
}
