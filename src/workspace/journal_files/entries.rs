//! The journal's entry files: written under `pending/` without replacing one, synced
//! beside the change's new versions, committed to `entries/` with the versions they keep,
//! listed, read with a bound, and removed — each a regular file, never followed through a
//! link. An entry's key is derived from the identity of its own file ([`FileIdentity`]).

use std::io::Write;
use std::os::fd::AsFd;

use cap_std::fs::{OpenOptions, OpenOptionsExt};
use rustix::fs::AtFlags;
use rustix::io::Errno;

use super::{io, list, remove_regular, shown, Missing, Provenance, Shelf, Unsynced};
use crate::platform;
use crate::workspace::state::{
    create_file, each_name, look, open_file, read_bounded, read_dir, Expect,
};
use crate::workspace::temp_name::unique_name;
use crate::workspace::{Error, Workspace};

impl Workspace {
    /// Writes a new entry file `name` under `pending/` (never replacing one), not yet
    /// synced: [`Unsynced::sync_beside`] makes it durable.
    pub fn journal_write(&self, name: &str, bytes: &[u8]) -> Result<Unsynced<'_>, Error> {
        self.write_entry(name, |_| Ok(bytes.to_vec()))
    }

    /// Writes a new entry file `name` under `pending/` as [`Workspace::journal_write`]
    /// does, its bytes made by `bytes` from the new file's own identity (see
    /// [`FileIdentity`]): what no one can know before the file exists.
    pub fn journal_write_as(
        &self,
        name: &str,
        bytes: impl FnOnce(FileIdentity) -> Vec<u8>,
    ) -> Result<Unsynced<'_>, Error> {
        self.write_entry(name, |file| identity(file).map(bytes))
    }

    /// Creates the entry file `name` under `pending/` and writes into it what `bytes`
    /// makes of the new file (asked of it only once it exists).
    fn write_entry(
        &self,
        name: &str,
        bytes: impl FnOnce(&cap_std::fs::File) -> Result<Vec<u8>, Error>,
    ) -> Result<Unsynced<'_>, Error> {
        let pending = self
            .journal_sub(Shelf::Pending.name(), Missing::Make)?
            .ok_or(Error::NotFound)?;
        let path = shown(Shelf::Pending.name(), name);
        let mut options = OpenOptions::new();
        options.write(true).create_new(true).mode(0o600);
        let mut file = match create_file(pending, name, &path, &mut options) {
            Ok(file) => file,
            Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(Error::AlreadyExists)
            }
            Err(e) => return Err(e),
        };
        // Created under its name before its bytes, so that one data sync makes the name
        // durable too and the directory's sync costs nothing more. A process killed before
        // that sync leaves a torn entry, which does not verify; its change was never
        // published, and reconciliation drops it.
        let bytes = match bytes(&file) {
            Ok(bytes) => bytes,
            Err(e) => {
                let _ = pending.remove_file(name);
                return Err(e);
            }
        };
        if let Err(e) = file.write_all(&bytes) {
            let _ = pending.remove_file(name);
            return Err(Error::Io(e));
        }
        Ok(Unsynced { file, dir: pending })
    }

    /// Moves the entry `name` from `pending/` to `entries/`, and the versions it kept
    /// (`kept`) to `objects/`: its change was published. [`Provenance::Own`] are this
    /// process's own, kept from what it read: each replaces whatever stands under its
    /// name in `objects/` (a result kept earlier, or one planted). Not synced: what a
    /// crash leaves under `pending/` is reconciled by the next call.
    pub fn journal_commit(
        &self,
        name: &str,
        kept: &[&str],
        provenance: Provenance,
    ) -> Result<(), Error> {
        let pending = self
            .journal_sub(Shelf::Pending.name(), Missing::Leave)?
            .ok_or(Error::NotFound)?;
        self.journal_adopt(kept, provenance);
        let entries = self
            .journal_sub(Shelf::Entries.name(), Missing::Make)?
            .ok_or(Error::NotFound)?;
        // Whatever stands under the name is moved, never followed: a planted link or
        // special file there is skipped by every listing.
        match rustix::fs::renameat(pending, name, entries, name) {
            Err(Errno::NOENT) => Err(Error::NotFound),
            moved => moved.map_err(io),
        }
    }

    /// The names (valid UTF-8 only) of what lies on `shelf`; empty when it does not exist.
    pub fn journal_list(&self, shelf: Shelf) -> Result<Vec<String>, Error> {
        let Some(dir) = self.journal_sub(shelf.name(), Missing::Leave)? else {
            return Ok(Vec::new());
        };
        list(dir)
    }

    /// Calls `each` with the name of every entry on `shelf`, none kept: for a tally.
    pub fn journal_each(&self, shelf: Shelf, each: impl FnMut(&str)) -> Result<(), Error> {
        match self.journal_sub(shelf.name(), Missing::Leave)? {
            Some(dir) => each_name(dir, each),
            None => Ok(()),
        }
    }

    /// The bytes of the entry `name` on `shelf`, or `None` when it is missing, is not a
    /// regular file (a link, a FIFO, a device) or is over `limit`: such a name is skipped,
    /// never followed, never waited on.
    pub fn journal_read(
        &self,
        shelf: Shelf,
        name: &str,
        limit: u64,
    ) -> Result<Option<Vec<u8>>, Error> {
        let Some(dir) = self.journal_sub(shelf.name(), Missing::Leave)? else {
            return Ok(None);
        };
        let path = shown(shelf.name(), name);
        match look(dir, name, &path, Expect::File) {
            Ok(Some(())) => {}
            Ok(None) | Err(Error::State { .. }) => return Ok(None),
            Err(e) => return Err(e),
        }
        let file = match open_file(dir, name, &path, OpenOptions::new().read(true)) {
            Ok(file) => file,
            Err(Error::State { .. }) => return Ok(None),
            Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        match read_bounded(file, &path, limit) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(Error::State { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Seconds since the entry `name` on `shelf` was last written or given its name (its
    /// inode's change time: a link or a rename counts), if it is a regular file.
    #[must_use]
    pub fn journal_age_secs(&self, shelf: Shelf, name: &str) -> Option<u64> {
        let dir = self.journal_sub(shelf.name(), Missing::Leave).ok()??;
        let stat = rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW).ok()?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?
            .as_secs();
        Some(now.saturating_sub(u64::try_from(stat.st_ctime).unwrap_or(0)))
    }

    /// The identity of the entry `name` on `shelf` ([`FileIdentity`]), if it is a
    /// regular file.
    #[must_use]
    pub fn journal_identity(&self, shelf: Shelf, name: &str) -> Option<FileIdentity> {
        let dir = self.journal_sub(shelf.name(), Missing::Leave).ok()??;
        let path = shown(shelf.name(), name);
        if !matches!(look(dir, name, &path, Expect::File), Ok(Some(()))) {
            return None;
        }
        let file = open_file(dir, name, &path, OpenOptions::new().read(true)).ok()?;
        identity(&file).ok()
    }

    /// Removes the entry `name` from `shelf`, if it is a regular file.
    pub fn journal_remove(&self, shelf: Shelf, name: &str) {
        if let Ok(Some(dir)) = self.journal_sub(shelf.name(), Missing::Leave) {
            remove_regular(dir, name);
        }
    }

    /// Whether anything at all lies under `pending/`: one directory read, the whole cost
    /// of a call's recovery when no change was left unfinished.
    #[must_use]
    pub fn journal_pending_any(&self) -> bool {
        let Ok(Some(dir)) = self.journal_sub(Shelf::Pending.name(), Missing::Leave) else {
            return false;
        };
        read_dir(dir).is_ok_and(|names| {
            names
                .map_while(Result::ok)
                .any(|e| !matches!(e.file_name().to_bytes(), b"." | b".."))
        })
    }

    /// Whether the entry `name` is still a regular file on `shelf`.
    #[must_use]
    pub fn journal_present(&self, shelf: Shelf, name: &str) -> bool {
        let Ok(Some(dir)) = self.journal_sub(shelf.name(), Missing::Leave) else {
            return false;
        };
        let path = shown(shelf.name(), name);
        matches!(look(dir, name, &path, Expect::File), Ok(Some(())))
    }

    /// Moves the entry `name` from `pending/` to `entries/` as `bytes` (the entry
    /// rewritten: what finishing it found), and the versions it kept (`kept`) to
    /// `objects/`. The new file is written under a temp name and renamed into place, so
    /// that a process killed meanwhile leaves the pending entry to be finished again.
    pub fn journal_commit_as(&self, name: &str, bytes: &[u8], kept: &[&str]) -> Result<(), Error> {
        let entries = self
            .journal_sub(Shelf::Entries.name(), Missing::Make)?
            .ok_or(Error::NotFound)?;
        let temp = unique_name(name);
        let path = shown(Shelf::Entries.name(), name);
        let mut options = OpenOptions::new();
        options.write(true).create_new(true).mode(0o600);
        let mut file = open_file(entries, &temp, &path, &mut options)?;
        let written = file
            .write_all(bytes)
            .and_then(|()| file.sync_data())
            .map_err(Error::Io)
            .and_then(|()| rustix::fs::renameat(entries, temp.as_str(), entries, name).map_err(io));
        if written.is_err() {
            remove_regular(entries, &temp);
        }
        written?;
        for sha in kept {
            self.adopt_kept(sha);
        }
        self.journal_remove(Shelf::Pending, name);
        Ok(())
    }
}

/// What tells one file from every other, now and later, and what no one can know before
/// it is made: its device and inode, and its birth time to the nanosecond where the
/// filesystem keeps one (zero where it does not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileIdentity {
    pub dev: u64,
    pub ino: u64,
    pub born_nanos: u128,
}

impl FileIdentity {
    /// The identity as bytes, to derive a key from.
    #[must_use]
    pub fn to_bytes(self) -> [u8; 32] {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&self.dev.to_le_bytes());
        bytes[8..16].copy_from_slice(&self.ino.to_le_bytes());
        bytes[16..].copy_from_slice(&self.born_nanos.to_le_bytes());
        bytes
    }
}

#[allow(clippy::unnecessary_cast)] // st_dev and st_ino are not u64 everywhere
fn identity(file: &cap_std::fs::File) -> Result<FileIdentity, Error> {
    let stat = rustix::fs::fstat(file).map_err(io)?;
    Ok(FileIdentity {
        dev: stat.st_dev as u64,
        ino: stat.st_ino as u64,
        born_nanos: platform::born_nanos(file.as_fd()),
    })
}
