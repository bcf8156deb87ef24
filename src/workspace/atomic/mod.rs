//! Atomic, faithful writes: a reader sees the old file or the new one, never a torn one.
//!
//! New content goes to a temp file that no one can see under the target's name, is
//! synced, and is then given the name: without ever clobbering a file that appeared
//! meanwhile when creating, by a rename over the target when replacing. The directory
//! is synced last. A process killed at any moment leaves either nothing or a name under
//! the reserved `.stitch/tmp/` (swept later), never a visible temp file.
//!
//! Where the platform has anonymous files (Linux's `O_TMPFILE`, see open(2)), the temp
//! file has no name until `linkat` gives it one — the target's when creating, a staged
//! one under `.stitch/tmp/` when replacing. Elsewhere it is a named file created
//! `O_EXCL | O_NOFOLLOW` under `.stitch/tmp/`, published by `renameat` (replace) or a
//! no-replace rename (create). Only when `.stitch/` lies on another filesystem than the
//! target is the temp name staged beside the target instead.
//!
//! [`Workspace::stage`] and [`Staged`] split a write in three steps (fill, sync,
//! publish), so that a caller can fill and sync the temp file while it still works out
//! whether to publish it; dropped unpublished, a `Staged` leaves nothing behind.

mod batch;
mod fill;
mod kept;

use std::fs::File;
use std::os::fd::AsFd;
use std::sync::atomic::{AtomicBool, Ordering};

use cap_std::fs::{Dir, MetadataExt};
use rustix::fs::{AtFlags, Mode, OFlags};
use rustix::io::Errno;

pub use batch::{sync_all, sync_all_beside, Dirty};
pub use fill::Reuse;

use super::temp_name::unique_name;
use super::{Error, Location, OpenFile, Workspace};
use crate::platform;

/// Whether the write creates a file or replaces one, and what to keep when replacing.
#[derive(Debug, Clone, Copy)]
pub enum WriteMode {
    /// Create the file; fail with [`Error::AlreadyExists`] if it appears meanwhile.
    CreateNew,
    /// Create the file with these permission bits (a file brought back from the journal);
    /// fail with [`Error::AlreadyExists`] if it appears meanwhile.
    CreateWith { mode: u32 },
    /// Create the file executable wherever the umask leaves it readable (a diff's `new
    /// file mode 100755`, as `git apply` creates one); fail with [`Error::AlreadyExists`]
    /// if it appears meanwhile.
    CreateExecutable,
    /// Replace the file, keeping its permission bits and, where permitted, its owner.
    Replace { mode: u32, uid: u32, gid: u32 },
}

fn io(e: Errno) -> Error {
    Error::classify(e.into())
}

/// An error met creating a temp name under `.stitch/tmp/`: one that says the state is
/// not writable there (EACCES, EROFS) is the state's problem, not the caller's.
fn staging_error(e: Errno) -> Error {
    super::state::opening(&format!("{}/tmp", super::state::STATE_DIR), e.into())
}

/// A temporary file that is not yet visible under its final name.
enum Temp {
    /// An anonymous file: no name at all until linked.
    Anonymous(File),
    /// A file named `name` in `dir`: `.stitch/tmp/`, or the target's directory when
    /// `.stitch/` is on another filesystem.
    Named { fd: File, dir: Dir, name: String },
}

impl Temp {
    fn file(&self) -> &File {
        match self {
            Temp::Anonymous(fd) | Temp::Named { fd, .. } => fd,
        }
    }

    /// Removes a named temp file after a failure; an anonymous one vanishes on close.
    fn discard(&self) {
        if let Temp::Named { dir, name, .. } = self {
            let _ = rustix::fs::unlinkat(dir, name.as_str(), AtFlags::empty());
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

    /// Writes `bytes` over `base`, the file open at `location`, atomically — only if it
    /// is still that file, unchanged since it was opened ([`Error::Changed`] otherwise).
    pub fn replace_atomic(
        &self,
        location: &Location,
        bytes: &[u8],
        base: &OpenFile,
        mode: WriteMode,
    ) -> Result<(), Error> {
        self.stage(location, &[bytes], None, mode)?
            .over(base)
            .publish()
    }

    /// Writes the concatenation of `parts` as the file at `location.real`, atomically,
    /// copying what it shares with `reuse.source` in the kernel where the platform can
    /// (`copy_file_range`) instead of from memory. The result is the parts exactly: if
    /// the source changed meanwhile, or the copy is not supported, everything is
    /// written from memory.
    pub fn write_atomic_parts(
        &self,
        location: &Location,
        parts: &[&[u8]],
        reuse: Option<Reuse<'_>>,
        mode: WriteMode,
    ) -> Result<(), Error> {
        self.stage(location, parts, reuse, mode)?.publish()
    }

    /// The first half of [`Workspace::write_atomic_parts`]: the new content in a temp
    /// file no one can see under the target's name, not yet synced. Nothing is visible
    /// until [`Staged::publish`]; a `Staged` dropped unpublished leaves nothing behind.
    pub fn stage<'a>(
        &'a self,
        location: &Location,
        parts: &[&[u8]],
        reuse: Option<Reuse<'a>>,
        mode: WriteMode,
    ) -> Result<Staged<'a>, Error> {
        let (parent, name) = self.parent_of(location)?;
        let temp = match platform::anonymous_temp(&parent).map_err(io)? {
            Some(fd) => Temp::Anonymous(File::from(fd)),
            None => self.named_temp(&parent, name)?,
        };
        let mut staged = Staged {
            ws: self,
            parent,
            name: name.to_owned(),
            temp: Some(temp),
            mode,
            replaced: None,
            base: reuse.map(|reuse| reuse.source),
            synced: AtomicBool::new(false),
            outlives: false,
        };
        let spliced = fill::fill(staged.file(), parts, reuse, mode)?;
        staged.replaced = reuse.filter(|_| spliced).map(|reuse| reuse.source);
        Ok(staged)
    }

    /// Creates a named temp file for a write into `parent`: under `.stitch/tmp/` (swept
    /// first of what killed processes left there), or beside the target when `.stitch/`
    /// is on another filesystem, where no rename could publish it.
    fn named_temp(&self, parent: &Dir, name: &str) -> Result<Temp, Error> {
        let staging = self.staging()?;
        let same_fs = match (staging.dir_metadata(), parent.dir_metadata()) {
            (Ok(a), Ok(b)) => a.dev() == b.dev(),
            _ => false,
        };
        let dir = if same_fs {
            staging
        } else {
            parent.try_clone().map_err(Error::Io)?
        };
        let tmp = unique_name(name);
        let fd = rustix::fs::openat(
            &dir,
            tmp.as_str(),
            OFlags::WRONLY | OFlags::CLOEXEC | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW,
            Mode::from_raw_mode(0o666),
        )
        .map_err(|e| if same_fs { staging_error(e) } else { io(e) })?;
        Ok(Temp::Named {
            fd: File::from(fd),
            dir,
            name: tmp,
        })
    }

    /// Names an anonymous temp file under `.stitch/tmp/`, then renames it over the
    /// target, so that no temp name ever appears beside the target.
    fn replace_anonymous(&self, fd: &File, parent: &Dir, name: &str) -> Result<(), Error> {
        let staging = self.staging()?;
        let tmp = unique_name(name);
        match platform::link_anonymous(fd.as_fd(), &staging, &tmp) {
            Ok(()) => {}
            // The target is on another filesystem than `.stitch/`: stage beside it.
            Err(Errno::XDEV) => {
                platform::link_anonymous(fd.as_fd(), parent, &tmp).map_err(io)?;
                return rustix::fs::renameat(parent, tmp.as_str(), parent, name).map_err(io);
            }
            Err(e) => return Err(staging_error(e)),
        }
        rustix::fs::renameat(&staging, tmp.as_str(), parent, name).map_err(|e| {
            let _ = rustix::fs::unlinkat(&staging, tmp.as_str(), AtFlags::empty());
            io(e)
        })
    }
}

/// A temp file holding a write's new content, not yet visible under the target's name.
pub struct Staged<'a> {
    ws: &'a Workspace,
    parent: Dir,
    name: String,
    /// `None` once published.
    temp: Option<Temp>,
    mode: WriteMode,
    /// The file being replaced, when the content was copied from it in the kernel.
    replaced: Option<&'a super::OpenFile>,
    /// The file being replaced, as it was read: it must still be that file, unchanged,
    /// when the rename replaces it.
    base: Option<&'a super::OpenFile>,
    /// The content has reached the disk: publishing it may follow.
    synced: AtomicBool,
    /// Its name (one the journal gave it) outlives it when it is dropped unpublished: a
    /// change cut short past its commit point is finished from there by a later call.
    outlives: bool,
}

impl std::fmt::Debug for Staged<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Staged").field("name", &self.name).finish()
    }
}

impl<'a> Staged<'a> {
    /// Publishes only over `base`, the file the content was made from, as it was read:
    /// [`Staged::publish`] is then [`Error::Changed`] if another program changed it.
    #[must_use]
    pub fn over(mut self, base: &'a super::OpenFile) -> Self {
        self.base = Some(base);
        self
    }

    fn file(&self) -> &File {
        match &self.temp {
            Some(temp) => temp.file(),
            None => unreachable!("a published temp file is not written again"),
        }
    }

    /// Whether [`Staged::sync`] has succeeded: the content is on the disk.
    #[must_use]
    pub fn is_synced(&self) -> bool {
        self.synced.load(Ordering::Acquire)
    }

    /// Syncs the content to the disk (on another thread if the caller likes: the
    /// handle is shared); [`Staged::publish`] syncs first if this has not succeeded.
    pub fn sync(&self) -> Result<(), Error> {
        if self.synced.load(Ordering::Acquire) {
            return Ok(());
        }
        fill::sync(self.file(), self.replaced)?;
        self.synced.store(true, Ordering::Release);
        Ok(())
    }

    /// Gives the synced temp file the target's name — without ever clobbering a file
    /// that appeared meanwhile when creating, by a rename over the target when
    /// replacing — and syncs the directory.
    pub fn publish(self) -> Result<(), Error> {
        let parent = self.publish_unsynced()?;
        sync_dir(&parent)
    }

    /// [`Staged::publish`] but for the directory's sync, which the caller owes: `dirty`
    /// takes the directory, so that a change of many files syncs each directory once.
    pub fn publish_into(self, dirty: &mut Dirty) -> Result<(), Error> {
        let parent = self.publish_unsynced()?;
        dirty.add(parent);
        Ok(())
    }

    /// Publishes, and hands back the target's directory, not yet synced.
    fn publish_unsynced(mut self) -> Result<Dir, Error> {
        if !self.synced.load(Ordering::Acquire) {
            self.sync()?;
        }
        let Some(temp) = self.temp.take() else {
            return self.parent.try_clone().map_err(Error::Io);
        };
        let (ws, parent, name) = (self.ws, &self.parent, self.name.as_str());
        if let (Some(base), WriteMode::Replace { .. }) = (self.base, self.mode) {
            if let Err(e) = super::guard::still_as_read(parent, name, base) {
                temp.discard();
                return Err(e);
            }
        }
        let published = match &temp {
            Temp::Anonymous(fd) => match self.mode {
                WriteMode::CreateNew
                | WriteMode::CreateWith { .. }
                | WriteMode::CreateExecutable => {
                    platform::link_anonymous(fd.as_fd(), parent, name).map_err(io)
                }
                WriteMode::Replace { .. } => ws.replace_anonymous(fd, parent, name),
            },
            Temp::Named {
                dir, name: staged, ..
            } => match self.mode {
                WriteMode::CreateNew
                | WriteMode::CreateWith { .. }
                | WriteMode::CreateExecutable => {
                    platform::rename_noreplace(dir, staged, parent, name).map_err(io)
                }
                WriteMode::Replace { .. } => {
                    rustix::fs::renameat(dir, staged.as_str(), parent, name).map_err(io)
                }
            },
        };
        if let Err(e) = published {
            temp.discard();
            return Err(e);
        }
        parent.try_clone().map_err(Error::Io)
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        if let Some(temp) = &self.temp {
            if !self.outlives {
                temp.discard();
            }
        }
    }
}

/// Syncs a directory so that a new name in it survives a crash. cap-std's handles may
/// be `O_PATH`, which cannot be synced, so the directory is opened for reading first.
pub(super) fn sync_dir(dir: &Dir) -> Result<(), Error> {
    let fd = rustix::fs::openat(
        dir,
        ".",
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(io)?;
    platform::sync(&fd).map_err(io)
}
