//! Filling a temp file: the new content, written from memory or with its unchanged head
//! and tail copied in the kernel where the platform can, then the kept mode and owner,
//! then a sync to the disk.

use std::io::{Seek, Write};
use std::os::fd::OwnedFd;
use std::os::unix::fs::PermissionsExt;

use super::WriteMode;
use crate::platform;
use crate::workspace::{Error, OpenFile};

/// What a new content shares with the file it replaces: its first `prefix` bytes and
/// its last `suffix` bytes are the source's.
#[derive(Debug, Clone, Copy)]
pub struct Reuse<'a> {
    pub source: &'a OpenFile,
    pub prefix: usize,
    pub suffix: usize,
}

/// Shared parts smaller than this are written from memory: a kernel copy saves nothing.
const REUSE_MIN: usize = 1 << 20;

/// Writes the content and applies the kept mode and owner. True when the shared head
/// and tail were copied from the source in the kernel.
pub(super) fn fill(
    fd: &OwnedFd,
    parts: &[&[u8]],
    reuse: Option<Reuse<'_>>,
    mode: WriteMode,
) -> Result<bool, Error> {
    let mut file = std::fs::File::from(fd.try_clone().map_err(Error::Io)?);
    let spliced = reuse.is_some_and(|reuse| splice(&mut file, parts, reuse).unwrap_or(false));
    if !spliced {
        file.set_len(0).map_err(Error::Io)?;
        file.seek(std::io::SeekFrom::Start(0)).map_err(Error::Io)?;
        for part in parts {
            file.write_all(part).map_err(Error::Io)?;
        }
    }
    if let WriteMode::Replace { mode, uid, gid } = mode {
        if rustix::process::geteuid().is_root() {
            std::os::unix::fs::fchown(&file, Some(uid), Some(gid)).map_err(Error::Io)?;
        }
        file.set_permissions(std::fs::Permissions::from_mode(mode))
            .map_err(Error::Io)?;
    }
    Ok(spliced)
}

/// Syncs the filled temp file to the disk. `replaced`: the file it will replace, when
/// its head and tail were copied from it: while the sync waits on the disk, the other
/// core drops that file's cached pages, which its last close after the rename would
/// otherwise free one by one on the critical path.
pub(super) fn sync(fd: &OwnedFd, replaced: Option<&OpenFile>) -> Result<(), Error> {
    let sync = || platform::sync(fd).map_err(|e| Error::Io(e.into()));
    match replaced {
        Some(replaced) => std::thread::scope(|scope| {
            scope.spawn(|| platform::forget_cache(replaced.fd()));
            sync()
        }),
        None => sync(),
    }
}

/// Writes the parts with their shared head and tail copied from the source in the
/// kernel. Returns false (having written nothing usable) when that cannot be done
/// faithfully.
fn splice(file: &mut std::fs::File, parts: &[&[u8]], reuse: Reuse<'_>) -> std::io::Result<bool> {
    let Reuse {
        source,
        prefix,
        suffix,
    } = reuse;
    let total: usize = parts.iter().map(|p| p.len()).sum();
    let source_len = usize::try_from(source.size).unwrap_or(usize::MAX);
    if prefix + suffix < REUSE_MIN || prefix + suffix > total || suffix > source_len {
        return Ok(false);
    }
    if !platform::copy_range(source.fd(), 0, &*file, prefix)? {
        return Ok(false);
    }
    // The bytes from `prefix` to `total - suffix`, wherever they fall among the parts.
    let mut at = 0;
    for part in parts {
        let (from, to) = (prefix.max(at), (total - suffix).min(at + part.len()));
        if from < to {
            file.write_all(&part[from - at..to - at])?;
        }
        at += part.len();
    }
    if !platform::copy_range(source.fd(), (source_len - suffix) as u64, &*file, suffix)? {
        return Ok(false);
    }
    // What was copied is what was read only if nobody changed the source meanwhile.
    source.unchanged()
}
