//! Filling a temp file: the new content, written from memory or with its unchanged head
//! and tail copied in the kernel where the platform can, then the kept mode and owner,
//! then a sync to the disk.

use std::fs::File;
use std::io::{IoSlice, Seek, Write};
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
    mut file: &File,
    parts: &[&[u8]],
    reuse: Option<Reuse<'_>>,
    mode: WriteMode,
) -> Result<bool, Error> {
    let tried = reuse.filter(|reuse| worth_splicing(parts, reuse));
    let spliced = tried.is_some_and(|reuse| splice(file, parts, reuse).unwrap_or(false));
    if !spliced {
        // A fresh temp file is empty; one a failed splice wrote to is emptied first.
        if tried.is_some() {
            file.set_len(0).map_err(Error::Io)?;
            file.seek(std::io::SeekFrom::Start(0)).map_err(Error::Io)?;
        }
        write_parts(file, parts).map_err(Error::Io)?;
    }
    if let WriteMode::Replace { mode, uid, gid } = mode {
        if rustix::process::geteuid().is_root() {
            std::os::unix::fs::fchown(file, Some(uid), Some(gid)).map_err(Error::Io)?;
        } else if gid != rustix::process::getegid().as_raw() {
            // An owner may give a file to any group it belongs to; a group it is not in
            // cannot be kept, and the file is not taken over into the caller's.
            std::os::unix::fs::fchown(file, None, Some(gid))
                .map_err(|_| Error::NotWritable(crate::workspace::NotWritable::Owner))?;
        }
        file.set_permissions(std::fs::Permissions::from_mode(mode))
            .map_err(Error::Io)?;
    }
    if let WriteMode::CreateWith { mode } = mode {
        file.set_permissions(std::fs::Permissions::from_mode(mode))
            .map_err(Error::Io)?;
    }
    if matches!(mode, WriteMode::CreateExecutable) {
        // Created 0666 less the umask: the execute bits follow the read bits it left.
        let created = file.metadata().map_err(Error::Io)?.permissions().mode();
        let executable = created | ((created & 0o444) >> 2);
        file.set_permissions(std::fs::Permissions::from_mode(executable & 0o7777))
            .map_err(Error::Io)?;
    }
    Ok(spliced)
}

/// Syncs the filled temp file to the disk. `replaced`: the file it will replace, when
/// its head and tail were copied from it: while the sync waits on the disk, the other
/// core drops that file's cached pages, which its last close after the rename would
/// otherwise free one by one on the critical path.
pub(super) fn sync(file: &File, replaced: Option<&OpenFile>) -> Result<(), Error> {
    let sync = || platform::sync(file).map_err(|e| Error::Io(e.into()));
    match replaced {
        Some(replaced) => std::thread::scope(|scope| {
            scope.spawn(|| platform::forget_cache(replaced.fd()));
            sync()
        }),
        None => sync(),
    }
}

/// Whether the shared head and tail are large enough to copy in the kernel, and fit
/// both the parts and the source.
fn worth_splicing(parts: &[&[u8]], reuse: &Reuse<'_>) -> bool {
    let total: usize = parts.iter().map(|p| p.len()).sum();
    let source_len = usize::try_from(reuse.source.size).unwrap_or(usize::MAX);
    let shared = reuse.prefix + reuse.suffix;
    shared >= REUSE_MIN && shared <= total && reuse.suffix <= source_len
}

/// Writes the parts in order, as few calls as the kernel allows (one, usually).
fn write_parts(mut file: &File, parts: &[&[u8]]) -> std::io::Result<()> {
    let mut slices: Vec<IoSlice<'_>> = parts
        .iter()
        .filter(|part| !part.is_empty())
        .map(|part| IoSlice::new(part))
        .collect();
    let mut slices = &mut slices[..];
    while !slices.is_empty() {
        match file.write_vectored(slices) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => IoSlice::advance_slices(&mut slices, n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Writes the parts with their shared head and tail copied from the source in the
/// kernel. Returns false (having written nothing usable) when that cannot be done
/// faithfully.
fn splice(mut file: &File, parts: &[&[u8]], reuse: Reuse<'_>) -> std::io::Result<bool> {
    let Reuse {
        source,
        prefix,
        suffix,
    } = reuse;
    let total: usize = parts.iter().map(|p| p.len()).sum();
    let source_len = usize::try_from(source.size).unwrap_or(usize::MAX);
    if !platform::copy_range(source.fd(), 0, file, prefix)? {
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
    if !platform::copy_range(source.fd(), (source_len - suffix) as u64, file, suffix)? {
        return Ok(false);
    }
    // What was copied is what was read only if nobody changed the source meanwhile.
    source.unchanged()
}
