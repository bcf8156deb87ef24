//! macOS: fsync(2) only hands data to the drive, which may keep it in its cache;
//! `F_FULLFSYNC` asks the drive to write it to its medium (see fcntl(2) on macOS).

use std::os::fd::AsFd;

/// Flushes a file's (or directory's) data to the medium, falling back to fsync(2) on
/// filesystems that do not support `F_FULLFSYNC`.
pub fn sync(fd: impl AsFd) -> rustix::io::Result<()> {
    match rustix::fs::fcntl_fullfsync(&fd) {
        Ok(()) => Ok(()),
        Err(_) => rustix::fs::fsync(fd),
    }
}
