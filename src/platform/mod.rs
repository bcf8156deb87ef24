//! Platform bindings: the one place that knows which operating system it runs on.
//!
//! Portable code calls the names re-exported here; each is bound to one implementation
//! by the `cfg`'d `use` lines below, never by `cfg` inside a function body (cap-std's
//! pattern). Linux has a fast path for writes — anonymous `O_TMPFILE` files given a
//! name with `linkat`, `renameat2(RENAME_NOREPLACE)`, `copy_file_range` — and every
//! other platform (and Linux built with `--cfg stitch_portable`, which the test suite
//! runs too) uses plain POSIX calls with the same guarantees: a named temp file,
//! published by `renameat` or `linkat` + `unlinkat`, and contents written from memory.
//! Durability and path limits follow the operating system itself, whatever the path.

// The write path: Linux's own, or portable POSIX.
#[cfg(all(target_os = "linux", not(stitch_portable)))]
mod linux;
#[cfg(any(not(target_os = "linux"), stitch_portable))]
mod portable;

// With them, what a child's exit can be waited on with: a pidfd on Linux, a tick
// elsewhere.
#[cfg(all(target_os = "linux", not(stitch_portable)))]
pub use linux::{
    anonymous_temp, copy_range, exit_fd, forget_cache, link_anonymous, rename_noreplace,
};
#[cfg(any(not(target_os = "linux"), stitch_portable))]
pub use portable::{
    anonymous_temp, copy_range, exit_fd, forget_cache, link_anonymous, rename_noreplace,
};

// Whether another program holds a file open for writing: Linux's leases say; elsewhere
// nothing does, and the answer is "cannot say".
#[cfg(all(target_os = "linux", not(stitch_portable)))]
mod lease;
#[cfg(all(target_os = "linux", not(stitch_portable)))]
pub use lease::open_for_writing_elsewhere;
#[cfg(any(not(target_os = "linux"), stitch_portable))]
pub use portable::open_for_writing_elsewhere;

// A file's birth time, which no one can know before the file is made: statx(2) on Linux
// where the filesystem keeps one; elsewhere none (0), and a file's device and inode alone
// tell it apart.
#[cfg(all(target_os = "linux", not(stitch_portable)))]
pub use linux::born_nanos;
#[cfg(any(not(target_os = "linux"), stitch_portable))]
pub use portable::born_nanos;

// Durability: macOS's fsync does not reach the disk, F_FULLFSYNC does.
#[cfg(target_os = "macos")]
mod apple;
mod posix;

#[cfg(target_os = "macos")]
pub use apple::sync;
#[cfg(not(target_os = "macos"))]
pub use posix::sync;

// The CPU time the calling thread has used: what bounds the syntax gate's parse.
pub use posix::thread_cpu_time;

// Path limits, as the kernel counts them (PATH_MAX includes the final NUL).
#[cfg(not(target_os = "linux"))]
pub use posix::BSD_LIMITS as LIMITS;
#[cfg(target_os = "linux")]
pub use posix::LINUX_LIMITS as LIMITS;

/// The kernel's limits on a path and on one name in it, in bytes.
#[derive(Debug, Clone, Copy)]
pub struct PathLimits {
    /// `PATH_MAX`: the buffer a path must fit in, its final NUL included.
    pub path_max: usize,
    /// `NAME_MAX`: the longest single name.
    pub name_max: usize,
}

// The binary's own start on Linux with glibc, in place of std's (src/main.rs).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod start;
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub use start::prepare as prepare_start;
