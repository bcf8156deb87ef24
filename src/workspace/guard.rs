//! Checks made before a file is replaced: that this process may write it and keep its
//! owner (a rename would replace a file its mode forbids writing, and hand it to the
//! caller), and that it is still, under its name, the file that was read whole.
//!
//! The write check is `faccessat(2)` with `AT_EACCESS` relative to the parent's handle:
//! the kernel answers for the effective user, ACLs and read-only mounts included. A file
//! another program holds open for writing (where the platform can tell) counts as
//! changed: it may be between two pieces of an in-place rewrite.

use cap_std::fs::Dir;
use rustix::fs::{Access, AtFlags};
use rustix::io::Errno;

use super::{Error, Location, NotWritable, OpenFile, Workspace};

impl Workspace {
    /// Refuses to replace `file` (open at `location`) when this process may not write
    /// it ([`NotWritable::Mode`]) or could not keep its owner ([`NotWritable::Owner`]),
    /// and, with `writer`, when another program writes it now ([`Error::Changed`]; a
    /// caller whose publish asks that again just before its rename leaves it out).
    pub fn check_replaceable(
        &self,
        location: &Location,
        file: &OpenFile,
        writer: bool,
    ) -> Result<(), Error> {
        let (parent, name) = self.parent_of(location)?;
        match rustix::fs::accessat(&parent, name, Access::WRITE_OK, AtFlags::EACCESS) {
            Ok(()) => {}
            Err(Errno::ACCESS | Errno::PERM | Errno::ROFS) => {
                return Err(Error::NotWritable(NotWritable::Mode))
            }
            Err(e) => return Err(Error::classify(e.into())),
        }
        let euid = rustix::process::geteuid();
        if !euid.is_root() && file.uid != euid.as_raw() {
            return Err(Error::NotWritable(NotWritable::Owner));
        }
        // Another program writing it now: what was read may be the head of its rewrite.
        if writer && file.written_elsewhere() {
            return Err(Error::Changed);
        }
        Ok(())
    }

    /// Whether the file open as `base` is still the file at `location`, as it was read:
    /// [`Error::Changed`] when another program wrote to it or put another in its place.
    pub fn still_as_read(&self, location: &Location, base: &OpenFile) -> Result<(), Error> {
        let (parent, name) = self.parent_of(location)?;
        still_as_read(&parent, name, base)
    }

    /// The directory holding `location` and the last component's name.
    pub(super) fn parent_of<'l>(&self, location: &'l Location) -> Result<(Dir, &'l str), Error> {
        match location.real.rsplit_once('/') {
            Some((parent, name)) => Ok((self.dir.open_dir(parent).map_err(Error::classify)?, name)),
            None => Ok((
                self.dir.try_clone().map_err(Error::classify)?,
                location.real.as_str(),
            )),
        }
    }
}

/// Whether `base` is still the file named `name` in `parent`, as it was when opened:
/// [`Error::Changed`] when another program rewrote it in place or renamed another file
/// over it since. Called under the lock, just before the rename that replaces it.
pub(super) fn still_as_read(parent: &Dir, name: &str, base: &OpenFile) -> Result<(), Error> {
    if !base.unchanged_but_for_links().map_err(Error::Io)? || base.written_elsewhere() {
        return Err(Error::Changed);
    }
    // `st_dev` and `st_ino` are narrower than `u64` on some platforms.
    #[allow(clippy::unnecessary_cast)]
    match rustix::fs::statat(parent, name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat)
            if base
                .seen()
                .same_file(stat.st_dev as u64, stat.st_ino as u64) =>
        {
            Ok(())
        }
        Ok(_) | Err(Errno::NOENT) => Err(Error::Changed),
        Err(e) => Err(Error::classify(e.into())),
    }
}
