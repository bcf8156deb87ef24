//! Atomic, faithful writes: a reader sees the old file or the new one, never a torn one.
//!
//! New content goes to an anonymous `O_TMPFILE` in the target's directory, is fsynced,
//! and is then given a name: linked straight to the target when creating (which fails
//! rather than clobber a file that appeared meanwhile), or linked under `.stitch/tmp/`
//! and renamed over the target when replacing. A process killed at any moment leaves
//! either nothing or an entry under the reserved `.stitch/`, never a visible temp file.
//! Where `O_TMPFILE` is missing, a named temp file in the target's directory is used.
//! The directory is fsynced last. See open(2) on `O_TMPFILE` and linkat(2).

use std::io::{Seek, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::atomic::{AtomicU32, Ordering};

use cap_std::fs::Dir;
use rustix::fs::{AtFlags, Mode, OFlags, RenameFlags, CWD};
use rustix::io::Errno;

use super::{Error, Location, OpenFile, Workspace};

/// Whether the write creates a file or replaces one, and what to keep when replacing.
#[derive(Debug, Clone, Copy)]
pub enum WriteMode {
    /// Create the file; fail with [`Error::AlreadyExists`] if it appears meanwhile.
    CreateNew,
    /// Replace the file, keeping its permission bits and, where permitted, its owner.
    Replace { mode: u32, uid: u32, gid: u32 },
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// A temp name for `name` that no other call uses: `.{name}.{pid}.{time}{n}.stitch-tmp`,
/// the pattern the sweep recognises as its own.
pub(super) fn unique_name(name: &str) -> String {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let short: String = name.chars().take(40).collect();
    format!(
        ".{short}.{}.{nanos:x}{n}{}",
        std::process::id(),
        super::state::TEMP_SUFFIX
    )
}

fn io(e: Errno) -> Error {
    Error::classify(e.into())
}

/// A temporary file that is not yet visible under its final name.
enum Temp {
    Anonymous(OwnedFd),
    Named { fd: OwnedFd, name: String },
}

impl Temp {
    fn fd(&self) -> &OwnedFd {
        match self {
            Temp::Anonymous(fd) | Temp::Named { fd, .. } => fd,
        }
    }
}

impl Workspace {
    /// Creates each directory in `dirs` (outermost first); one that exists already is fine.
    pub fn create_dirs(&self, dirs: &[String]) -> Result<(), Error> {
        for dir in dirs {
            match self.dir.create_dir(dir) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && self.dir.is_dir(dir) => {
                }
                Err(e) => return Err(Error::classify(e)),
            }
        }
        Ok(())
    }

    /// Removes the directories in `dirs` (created by [`Workspace::create_dirs`]) that
    /// are still empty, innermost first: a write that failed leaves nothing behind.
    pub fn remove_empty_dirs(&self, dirs: &[String]) {
        for dir in dirs.iter().rev() {
            // Not empty any more (another writer) or gone: leave it.
            let _ = self.dir.remove_dir(dir);
        }
    }

    /// Writes `bytes` as the file at `location.real`, atomically.
    pub fn write_atomic(
        &self,
        location: &Location,
        bytes: &[u8],
        mode: WriteMode,
    ) -> Result<(), Error> {
        self.write_atomic_parts(location, &[bytes], None, mode)
    }

    /// Writes the concatenation of `parts` as the file at `location.real`, atomically,
    /// copying what it shares with `reuse.source` in the kernel (`copy_file_range`)
    /// instead of from memory. The result is the parts exactly: if the source changed
    /// meanwhile, or the copy is not supported, everything is written from memory.
    pub fn write_atomic_parts(
        &self,
        location: &Location,
        parts: &[&[u8]],
        reuse: Option<Reuse<'_>>,
        mode: WriteMode,
    ) -> Result<(), Error> {
        let (parent, name) = match location.real.rsplit_once('/') {
            Some((parent, name)) => (self.dir.open_dir(parent).map_err(Error::classify)?, name),
            None => (
                self.dir.try_clone().map_err(Error::classify)?,
                location.real.as_str(),
            ),
        };
        let temp = open_temp(&parent, name)?;
        let written = fill(temp.fd(), parts, reuse, mode);
        if let Err(e) = written {
            discard(&parent, &temp);
            return Err(e);
        }
        let published = match (mode, &temp) {
            (WriteMode::CreateNew, Temp::Anonymous(fd)) => {
                link_anonymous(fd, &parent, name).map_err(io)
            }
            (WriteMode::CreateNew, Temp::Named { name: staged, .. }) => rustix::fs::renameat_with(
                &parent,
                staged.as_str(),
                &parent,
                name,
                RenameFlags::NOREPLACE,
            )
            .map_err(io),
            (WriteMode::Replace { .. }, Temp::Anonymous(fd)) => {
                self.replace_anonymous(fd, &parent, name)
            }
            (WriteMode::Replace { .. }, Temp::Named { name: staged, .. }) => {
                rustix::fs::renameat(&parent, staged.as_str(), &parent, name).map_err(io)
            }
        };
        if let Err(e) = published {
            discard(&parent, &temp);
            return Err(e);
        }
        sync_dir(&parent)
    }

    /// Names an anonymous temp file under `.stitch/tmp/`, then renames it over the
    /// target, so that no temp name ever appears beside the target.
    fn replace_anonymous(&self, fd: &OwnedFd, parent: &Dir, name: &str) -> Result<(), Error> {
        let staging = self.state_subdir_created("tmp")?;
        sweep(&staging);
        let tmp = unique_name(name);
        match link_anonymous(fd, &staging, &tmp) {
            Ok(()) => {}
            // The target is on another filesystem than `.stitch/`: stage beside it.
            Err(Errno::XDEV) => {
                link_anonymous(fd, parent, &tmp).map_err(io)?;
                return rustix::fs::renameat(parent, tmp.as_str(), parent, name).map_err(io);
            }
            Err(e) => return Err(io(e)),
        }
        rustix::fs::renameat(&staging, tmp.as_str(), parent, name).map_err(|e| {
            let _ = rustix::fs::unlinkat(&staging, tmp.as_str(), AtFlags::empty());
            io(e)
        })
    }
}

/// Fsyncs a directory so that a new name in it survives a crash. cap-std's handles are
/// `O_PATH`, which cannot be synced, so the directory is opened for reading first.
fn sync_dir(dir: &Dir) -> Result<(), Error> {
    let fd = rustix::fs::openat(
        dir,
        ".",
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(io)?;
    rustix::fs::fsync(&fd).map_err(io)
}

/// How old a staged name must be before it is taken for the leftover of a killed
/// process: a live write holds one for microseconds.
const STALE_STAGING: std::time::Duration = std::time::Duration::from_secs(600);

/// Removes staged names that a killed process left in a state directory: only regular
/// files named by [`unique_name`]'s pattern, by name in the directory (never through a
/// link). The directory is almost always empty, so this is one directory read.
pub(super) fn sweep(staging: &Dir) {
    let Ok(entries) = staging.entries() else {
        return;
    };
    let now = std::time::SystemTime::now();
    for entry in entries.flatten() {
        let ours = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with('.') && n.ends_with(super::state::TEMP_SUFFIX));
        if !ours {
            continue;
        }
        // `DirEntry::metadata` does not follow a link.
        let Ok(meta) = entry.metadata() else { continue };
        let old = meta.is_file()
            && meta.modified().is_ok_and(|t| {
                now.duration_since(t.into_std())
                    .is_ok_and(|age| age > STALE_STAGING)
            });
        if old {
            let _ = staging.remove_file(entry.file_name());
        }
    }
}

/// Opens an anonymous temp file in `parent`, or a named one where the filesystem has
/// no `O_TMPFILE`.
fn open_temp(parent: &Dir, name: &str) -> Result<Temp, Error> {
    let flags = OFlags::WRONLY | OFlags::CLOEXEC;
    match rustix::fs::openat(
        parent,
        ".",
        flags | OFlags::TMPFILE,
        Mode::from_raw_mode(0o666),
    ) {
        Ok(fd) => return Ok(Temp::Anonymous(fd)),
        Err(Errno::OPNOTSUPP | Errno::ISDIR | Errno::INVAL | Errno::NOENT) => {}
        Err(e) => return Err(io(e)),
    }
    let tmp = unique_name(name);
    let fd = rustix::fs::openat(
        parent,
        tmp.as_str(),
        flags | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW,
        Mode::from_raw_mode(0o666),
    )
    .map_err(io)?;
    Ok(Temp::Named { fd, name: tmp })
}

/// Writes the content, applies the kept mode and owner, and fsyncs.
fn fill(
    fd: &OwnedFd,
    parts: &[&[u8]],
    reuse: Option<Reuse<'_>>,
    mode: WriteMode,
) -> Result<(), Error> {
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
            let owner = (
                Some(rustix::fs::Uid::from_raw(uid)),
                Some(rustix::fs::Gid::from_raw(gid)),
            );
            rustix::fs::fchown(fd, owner.0, owner.1).map_err(io)?;
        }
        rustix::fs::fchmod(fd, Mode::from_raw_mode(mode)).map_err(io)?;
    }
    file.sync_all().map_err(Error::Io)
}

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
    if !copy_range(source, 0, file, prefix)? {
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
    if !copy_range(source, source_len - suffix, file, suffix)? {
        return Ok(false);
    }
    // What was copied is what was read only if nobody changed the source meanwhile.
    source.unchanged()
}

/// Copies `len` bytes of `source` from `offset` to the end of `file`, in the kernel.
/// False when the kernel cannot (another filesystem, no support).
fn copy_range(
    source: &OpenFile,
    offset: usize,
    file: &mut std::fs::File,
    len: usize,
) -> std::io::Result<bool> {
    let mut from = offset as u64;
    let mut left = len;
    while left > 0 {
        match rustix::fs::copy_file_range(source.fd(), Some(&mut from), &*file, None, left) {
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

/// Gives an anonymous file the name `name` in `dir`; fails if the name exists.
fn link_anonymous(fd: &OwnedFd, dir: &Dir, name: &str) -> Result<(), Errno> {
    debug_assert!(!name.contains('/'));
    match rustix::fs::linkat(fd, "", dir, name, AtFlags::EMPTY_PATH) {
        // Without CAP_DAC_READ_SEARCH, AT_EMPTY_PATH is refused; the /proc link works.
        Err(Errno::NOENT | Errno::PERM | Errno::ACCESS) => {
            let proc_path = format!("/proc/self/fd/{}", fd.as_raw_fd());
            rustix::fs::linkat(CWD, proc_path.as_str(), dir, name, AtFlags::SYMLINK_FOLLOW)
        }
        other => other,
    }
}

/// Removes a named temp file after a failure; an anonymous one vanishes on close.
fn discard(parent: &Dir, temp: &Temp) {
    if let Temp::Named { name, .. } = temp {
        let _ = rustix::fs::unlinkat(parent, name.as_str(), AtFlags::empty());
    }
}
