//! The journal's storage under `.stitch/journal/`: entries being made (`pending/`), entries
//! made (`entries/`), and kept versions of files, named by their sha256 (`objects/`; kept
//! under `pending/` beside their entry until its change is published).
//!
//! It follows the rules of stitch's own state (see `workspace/state.rs`): nothing here is
//! followed through a link, every file is opened without blocking and checked to be a
//! regular file, and read with a bound. A planted name that is not a regular file is
//! skipped when entries are listed, and [`Error::State`] when it stands where a kept
//! version should be. Only regular files are ever removed, by name in their directory.
//!
//! A replaced file's own inode is kept by a hard link (link(2)) — no copy, so keeping the
//! version of a large file costs one system call — unless the file has other links (which
//! could change it in place later) or the journal lies on another filesystem; then its
//! bytes are copied. Either way the kept version is synced before the entry that names it.

use std::io::Write;
use std::os::fd::AsFd;

use cap_std::fs::{Dir, OpenOptions, OpenOptionsExt};
use rustix::fs::AtFlags;
use rustix::io::Errno;

use super::atomic::sync_dir;
use super::atomic::Dirty;
use super::state::{
    create_file, each_name, look, open_dir_made, open_file, read_bounded, read_dir, read_file,
    Expect, STATE_DIR,
};
use super::temp_name::unique_name;
use super::{Error, Location, OpenFile, Staged, StateProblem, Workspace};
use crate::platform;

/// Where under `.stitch/journal/` an entry file lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shelf {
    /// Written before its change is published; reconciled by the next call if the
    /// process that wrote it died.
    Pending,
    /// The change was published.
    Entries,
}

impl Shelf {
    fn name(self) -> &'static str {
        match self {
            Shelf::Pending => "pending",
            Shelf::Entries => "entries",
        }
    }
}

const OBJECTS: &str = "objects";

/// The journal's directories, opened once a call.
#[derive(Debug, Default)]
pub struct Dirs {
    journal: std::sync::OnceLock<Dir>,
    pending: std::sync::OnceLock<Dir>,
    entries: std::sync::OnceLock<Dir>,
    objects: std::sync::OnceLock<Dir>,
}

/// An entry written but not yet synced.
#[derive(Debug)]
pub struct Unsynced<'a> {
    file: cap_std::fs::File,
    dir: &'a Dir,
}

impl Unsynced<'_> {
    /// Syncs the entry and the directory that names it (and the versions it keeps) side
    /// by side with `other` (the sync of the change's new versions): the entry's two on
    /// threads of their own, `other` on the caller's; once this returns `Ok` for the
    /// entry, it survives a crash. None of the
    /// three waits for another's flush of the disk's cache: issued at once, their flushes
    /// are served together, where one after another each waits a flush of its own (on
    /// the disk measured in bench/notes.md, the three syncs cost about one). `meanwhile`
    /// runs once the directory's sync (the shortest) returned, on its thread, while the
    /// other two still wait on the disk: work that needs no sync, done in their shadow.
    /// Both results, once all three are done and `meanwhile` has run.
    pub fn sync_beside<R: Send>(
        &self,
        other: impl FnOnce() -> R + Send,
        meanwhile: &(dyn Fn() + Sync),
    ) -> (Result<(), Error>, R) {
        let sync_data = || self.file.sync_data().map_err(Error::Io);
        let sync_name = || {
            let synced = sync_dir(self.dir);
            meanwhile();
            synced
        };
        std::thread::scope(|scope| {
            // The entry's two syncs each on a thread, `other` on this one. A thread that
            // cannot be made (a process or thread limit reached) is no reason to fail the
            // change: its sync then runs here, after `other`.
            let data = std::thread::Builder::new().spawn_scoped(scope, sync_data);
            let name = std::thread::Builder::new().spawn_scoped(scope, sync_name);
            let theirs = other();
            let joined =
                |spawned: std::io::Result<std::thread::ScopedJoinHandle<'_, Result<(), Error>>>,
                 here: &dyn Fn() -> Result<(), Error>| match spawned {
                    Ok(handle) => handle.join().unwrap_or_else(|_| {
                        Err(Error::Io(std::io::Error::other("a sync panicked")))
                    }),
                    Err(_) => here(),
                };
            let data = joined(data, &sync_data);
            let name = joined(name, &sync_name);
            (data.and(name), theirs)
        })
    }
}

/// How a version was kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    /// The file's own inode, hard-linked.
    Linked,
    /// Its bytes, copied.
    Copied,
    /// A version with this digest was kept already.
    Present,
}

/// A kept object as a listing sees it, for pruning.
#[derive(Debug, Clone)]
pub struct ObjectName {
    pub name: String,
    /// Seconds since its inode last changed (a fresh link counts), so that a version
    /// being kept right now is never taken for an orphan.
    pub age_secs: u64,
}

fn io(e: Errno) -> Error {
    Error::Io(e.into())
}

/// The workspace-relative name of a journal path, for refusals.
#[must_use]
pub fn shown(sub: &str, name: &str) -> String {
    format!("{STATE_DIR}/journal/{sub}/{name}")
}

impl Workspace {
    /// `.stitch/journal/<sub>/`, created when `create` asks; `None` when missing. Once
    /// opened, kept for the rest of the call.
    fn journal_sub(&self, sub: &str, create: bool) -> Result<Option<&Dir>, Error> {
        let slot = match sub {
            "pending" => &self.journal.pending,
            "entries" => &self.journal.entries,
            _ => &self.journal.objects,
        };
        if let Some(dir) = slot.get() {
            return Ok(Some(dir));
        }
        let Some(dir) = self.open_journal_sub(sub, create)? else {
            return Ok(None);
        };
        Ok(Some(slot.get_or_init(|| dir)))
    }

    fn open_journal_sub(&self, sub: &str, create: bool) -> Result<Option<Dir>, Error> {
        let journal = if let Some(journal) = self.journal.journal.get() {
            journal
        } else {
            let Some(journal) = self.state_subdir_opt("journal", create)? else {
                return Ok(None);
            };
            self.journal.journal.get_or_init(|| journal)
        };
        open_dir_made(journal, sub, &format!("{STATE_DIR}/journal/{sub}"), create)
    }

    fn objects(&self) -> Result<&Dir, Error> {
        self.journal_sub(OBJECTS, true)?
            .ok_or_else(|| Error::Io(std::io::ErrorKind::NotFound.into()))
    }

    fn pending(&self) -> Result<&Dir, Error> {
        self.journal_sub(Shelf::Pending.name(), true)?
            .ok_or_else(|| Error::Io(std::io::ErrorKind::NotFound.into()))
    }

    /// Keeps the version of the file at `location`, open as `file`, whose digest is
    /// `sha`: its inode hard-linked where it can be, else its bytes (`bytes` when the
    /// caller holds them) copied. A new version is kept under `pending/`, beside the entry
    /// that names it, so that one sync of that directory makes both durable
    /// ([`Workspace::journal_write`]); [`Workspace::journal_commit`] moves it to
    /// `objects/`.
    pub fn keep_version(
        &self,
        location: &Location,
        file: &OpenFile,
        sha: &str,
        bytes: Option<&[u8]>,
    ) -> Result<Kept, Error> {
        let kept = self.objects()?;
        let objects = self.pending()?;
        // A version already kept under this name is relied on only once it is shown to
        // be this version (size, then digest): a name in the journal proves nothing, as
        // anyone who can commit files can plant one. What does not match is removed and
        // kept anew below.
        let size = bytes.map_or(file.size, |b| b.len() as u64);
        if holds(objects, sha, size)? {
            return Ok(Kept::Present);
        }
        let stat = rustix::fs::fstat(file.fd()).map_err(io)?;
        // The file's own inode, linked, is this version by construction: no kept copy
        // needs reading first (one under `objects/` is replaced by it at the commit).
        if stat.st_nlink == 1 {
            if let Some(kept) = self.link_read_inode(location, &stat, objects, sha)? {
                return Ok(kept);
            }
        }
        if holds(kept, sha, size)? {
            // Named under `pending/` too, so that a prune that removes the one under
            // `objects/` meanwhile leaves this change its own name for it.
            match rustix::fs::linkat(kept, sha, objects, sha, AtFlags::empty()) {
                Ok(()) => {
                    if holds(objects, sha, size)? {
                        return Ok(Kept::Present);
                    }
                }
                Err(Errno::EXIST) if holds(objects, sha, size)? => return Ok(Kept::Present),
                // Pruned between the look and the link, or no links here: kept anew.
                Err(_) => {}
            }
        }
        let mode = permission_bits(&stat);
        match bytes {
            Some(bytes) => copy_in(objects, sha, mode, |out| out.write_all(bytes)),
            None => copy_in(objects, sha, mode, |out| copy_fd(file, out)),
        }?;
        Ok(Kept::Copied)
    }

    /// Keeps a change's result `sha` (its bytes, `parts` in order) under `objects/`, once
    /// the change is published, so that an undo can merge and a diff can be shown: a
    /// copy, not synced, never replacing what is there — whatever stands under the name
    /// is checked by its digest before it is ever used, and a torn or planted one is
    /// replaced by the next change that keeps that version. Best effort: a result that
    /// cannot be kept only takes those two away.
    pub fn keep_result(&self, sha: &str, parts: &[&[u8]]) {
        let Ok(objects) = self.objects() else {
            return;
        };
        let path = shown(OBJECTS, sha);
        let mut options = OpenOptions::new();
        options.write(true).create_new(true).mode(0o600);
        let Ok(mut file) = create_file(objects, sha, &path, &mut options) else {
            return;
        };
        if parts
            .iter()
            .try_for_each(|part| file.write_all(part))
            .is_err()
        {
            drop(file);
            let _ = rustix::fs::unlinkat(objects, sha, AtFlags::empty());
        }
    }

    /// Links the inode of the file at `location` (`stat`, as read) into `objects` (the
    /// pending shelf) as `sha`: `Some` when it is kept so, or found kept already; `None`
    /// when it must be copied (another filesystem, no hard links there, too many).
    fn link_read_inode(
        &self,
        location: &Location,
        stat: &rustix::fs::Stat,
        objects: &Dir,
        sha: &str,
    ) -> Result<Option<Kept>, Error> {
        let (parent, name) = match location.real.rsplit_once('/') {
            Some((parent, name)) => (self.dir.open_dir(parent).map_err(Error::classify)?, name),
            None => (
                self.dir.try_clone().map_err(Error::Io)?,
                location.real.as_str(),
            ),
        };
        match rustix::fs::linkat(&parent, name, objects, sha, AtFlags::empty()) {
            Ok(()) => {
                // The name may have been swapped since the file was opened: only the
                // inode that was read counts.
                let linked =
                    rustix::fs::statat(objects, sha, AtFlags::SYMLINK_NOFOLLOW).map_err(io)?;
                if linked.st_ino == stat.st_ino && linked.st_dev == stat.st_dev {
                    return Ok(Some(Kept::Linked));
                }
                let _ = rustix::fs::unlinkat(objects, sha, AtFlags::empty());
                Ok(None)
            }
            Err(Errno::EXIST) => Ok(None),
            // Another filesystem, no hard links there, or too many: copy.
            Err(Errno::XDEV | Errno::PERM | Errno::MLINK | Errno::OPNOTSUPP | Errno::ACCESS) => {
                Ok(None)
            }
            Err(e) => Err(io(e)),
        }
    }

    /// Looks again at the version `sha` kept under `pending/` by a hard link to `file`'s
    /// inode, once its change is published: if another program wrote to the file since it
    /// was opened, the name is given a copy of `bytes` (what was read) instead, or, with
    /// no bytes to copy, removed. Best effort: a version that cannot be put right is
    /// refused by the undo that needs it.
    pub fn recheck_linked(&self, sha: &str, file: &OpenFile, bytes: Option<&[u8]>) {
        if file.unchanged_but_for_links().unwrap_or(false) {
            return;
        }
        let Ok(Some(pending)) = self.journal_sub(Shelf::Pending.name(), false) else {
            return;
        };
        // Only the inode that was linked is taken away: the name may hold another by now.
        #[allow(clippy::unnecessary_cast)] // st_dev and st_ino are not u64 everywhere
        let same = rustix::fs::statat(pending, sha, AtFlags::SYMLINK_NOFOLLOW)
            .is_ok_and(|now| file.seen().same_file(now.st_dev as u64, now.st_ino as u64));
        if !same || rustix::fs::unlinkat(pending, sha, AtFlags::empty()).is_err() {
            return;
        }
        if let Some(bytes) = bytes {
            let _ = copy_in(pending, sha, file.mode & 0o7777, |out| out.write_all(bytes));
        }
    }

    /// The bytes and permission bits of the kept version `sha`, read with the bound
    /// `limit`. [`Error::NotFound`] when it is missing; [`Error::State`] when it is a
    /// link, not a regular file or too large. The caller checks the digest.
    pub fn kept_version(&self, sha: &str, limit: u64) -> Result<(Vec<u8>, u32), Error> {
        let path = shown(OBJECTS, sha);
        let objects = self.journal_sub(OBJECTS, false)?.ok_or(Error::NotFound)?;
        if look(objects, sha, &path, Expect::File)?.is_none() {
            // Kept by a change whose process died before it moved the version over.
            self.adopt_kept(sha);
            if look(objects, sha, &path, Expect::File)?.is_none() {
                return Err(Error::NotFound);
            }
        }
        let (bytes, meta) = read_file(objects, sha, &path, limit)?;
        Ok((
            bytes,
            cap_std::fs::PermissionsExt::mode(&meta.permissions()) & 0o7777,
        ))
    }

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
            .journal_sub(Shelf::Pending.name(), true)?
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
    /// (`kept`) to `objects/`: its change was published. With `own`, the versions are
    /// this process's own, kept from what it read: each replaces whatever stands under
    /// its name in `objects/` (a result kept earlier, or one planted). Not synced: what a
    /// crash leaves under `pending/` is reconciled by the next call.
    pub fn journal_commit(&self, name: &str, kept: &[&str], own: bool) -> Result<(), Error> {
        let pending = self
            .journal_sub(Shelf::Pending.name(), false)?
            .ok_or(Error::NotFound)?;
        self.journal_adopt(kept, own);
        let entries = self
            .journal_sub(Shelf::Entries.name(), true)?
            .ok_or(Error::NotFound)?;
        // Whatever stands under the name is moved, never followed: a planted link or
        // special file there is skipped by every listing.
        match rustix::fs::renameat(pending, name, entries, name) {
            Err(Errno::NOENT) => Err(Error::NotFound),
            moved => moved.map_err(io),
        }
    }

    /// Moves the versions `kept` from `pending/` to `objects/`, as
    /// [`Workspace::journal_commit`] does (`own`: over whatever stands there).
    pub fn journal_adopt(&self, kept: &[&str], own: bool) {
        for sha in kept {
            if own {
                self.adopt_own(sha);
            } else {
                self.adopt_kept(sha);
            }
        }
    }

    /// Moves the kept version `sha`, made by this process from what it read, from
    /// `pending/` to `objects/`, over whatever stands there under its name.
    fn adopt_own(&self, sha: &str) {
        let (Ok(Some(pending)), Ok(objects)) = (
            self.journal_sub(Shelf::Pending.name(), false),
            self.objects(),
        ) else {
            return;
        };
        if rustix::fs::renameat(pending, sha, objects, sha).is_err() {
            self.adopt_kept(sha);
        }
    }

    /// Moves the kept version `sha` from `pending/` to `objects/` (where one with that
    /// name already is, the pending one goes).
    pub fn adopt_kept(&self, sha: &str) {
        let (Ok(Some(pending)), Ok(objects)) = (
            self.journal_sub(Shelf::Pending.name(), false),
            self.objects(),
        ) else {
            return;
        };
        if !present(pending, sha).unwrap_or(false) {
            return;
        }
        if let Err(Errno::EXIST) = platform::rename_noreplace(pending, sha, objects, sha) {
            remove_regular(pending, sha);
        }
    }

    /// The names (valid UTF-8 only) of what lies on `shelf`; empty when it does not exist.
    pub fn journal_list(&self, shelf: Shelf) -> Result<Vec<String>, Error> {
        let Some(dir) = self.journal_sub(shelf.name(), false)? else {
            return Ok(Vec::new());
        };
        list(dir)
    }

    /// Calls `each` with the name of every entry on `shelf`, none kept: for a tally.
    pub fn journal_each(&self, shelf: Shelf, each: impl FnMut(&str)) -> Result<(), Error> {
        match self.journal_sub(shelf.name(), false)? {
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
        let Some(dir) = self.journal_sub(shelf.name(), false)? else {
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
        let dir = self.journal_sub(shelf.name(), false).ok()??;
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
        let dir = self.journal_sub(shelf.name(), false).ok()??;
        let path = shown(shelf.name(), name);
        if !matches!(look(dir, name, &path, Expect::File), Ok(Some(()))) {
            return None;
        }
        let file = open_file(dir, name, &path, OpenOptions::new().read(true)).ok()?;
        identity(&file).ok()
    }

    /// Removes the entry `name` from `shelf`, if it is a regular file.
    pub fn journal_remove(&self, shelf: Shelf, name: &str) {
        if let Ok(Some(dir)) = self.journal_sub(shelf.name(), false) {
            remove_regular(dir, name);
        }
    }

    /// The kept versions' names (64 hex digits only) and ages, under `objects/` or, with
    /// `on_shelf`, those still under `pending/`.
    pub fn journal_objects(&self, on_shelf: bool) -> Result<Vec<ObjectName>, Error> {
        let sub = if on_shelf {
            Shelf::Pending.name()
        } else {
            OBJECTS
        };
        let Some(dir) = self.journal_sub(sub, false)? else {
            return Ok(Vec::new());
        };
        super::state::sweep_dir(dir);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let mut names = Vec::new();
        for name in list(dir)? {
            if !crate::digest::is_sha256_hex(&name) {
                continue;
            }
            let Ok(stat) = rustix::fs::statat(dir, name.as_str(), AtFlags::SYMLINK_NOFOLLOW) else {
                continue;
            };
            let ctime = u64::try_from(stat.st_ctime).unwrap_or(0);
            names.push(ObjectName {
                name,
                age_secs: now.saturating_sub(ctime),
            });
        }
        Ok(names)
    }

    /// Whether anything at all lies under `pending/`: one directory read, the whole cost
    /// of a call's recovery when no change was left unfinished.
    #[must_use]
    pub fn journal_pending_any(&self) -> bool {
        let Ok(Some(dir)) = self.journal_sub(Shelf::Pending.name(), false) else {
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
        let Ok(Some(dir)) = self.journal_sub(shelf.name(), false) else {
            return false;
        };
        let path = shown(shelf.name(), name);
        matches!(look(dir, name, &path, Expect::File), Ok(Some(())))
    }

    /// Keeps the staged new version `staged` under `pending/` as `name`, beside the entry
    /// that will name it, so that the sync of that directory which makes the entry
    /// durable makes this name durable too; published, it is renamed from there.
    pub fn journal_keep_new(&self, staged: &mut Staged<'_>, name: &str) -> Result<(), Error> {
        staged.keep_as(self.pending()?, name)
    }

    /// Publishes the new version kept under `pending/` as `name` at `location` — only if
    /// it is a regular file of at most `limit` bytes whose sha256 is `sha` — by one
    /// rename: over the file there with `replace`, else never clobbering one. False when
    /// there is no such version to publish. The directory goes to `dirty`.
    pub fn journal_put_new(
        &self,
        name: &str,
        sha: &str,
        limit: u64,
        location: &Location,
        replace: bool,
        dirty: &mut Dirty,
    ) -> Result<bool, Error> {
        let Some(pending) = self.journal_sub(Shelf::Pending.name(), false)? else {
            return Ok(false);
        };
        let path = shown(Shelf::Pending.name(), name);
        if !matches!(look(pending, name, &path, Expect::File), Ok(Some(()))) {
            return Ok(false);
        }
        let Ok(file) = open_file(pending, name, &path, OpenOptions::new().read(true)) else {
            return Ok(false);
        };
        let Ok(checked) = rustix::fs::fstat(&file) else {
            return Ok(false);
        };
        match read_bounded(file, &path, limit) {
            Ok(bytes) if crate::digest::sha256_hex(&bytes) == sha => {}
            _ => return Ok(false),
        }
        // The name must still be the file whose bytes were checked: one swapped in under
        // it meanwhile is not published.
        let same = rustix::fs::statat(pending, name, AtFlags::SYMLINK_NOFOLLOW)
            .is_ok_and(|now| now.st_dev == checked.st_dev && now.st_ino == checked.st_ino);
        if !same {
            return Ok(false);
        }
        let (parent, target) = self.parent_of(location)?;
        if replace {
            rustix::fs::renameat(pending, name, &parent, target).map_err(io)?;
        } else {
            platform::rename_noreplace(pending, name, &parent, target).map_err(io)?;
        }
        dirty.add(parent);
        Ok(true)
    }

    /// Moves the entry `name` from `pending/` to `entries/` as `bytes` (the entry
    /// rewritten: what finishing it found), and the versions it kept (`kept`) to
    /// `objects/`. The new file is written under a temp name and renamed into place, so
    /// that a process killed meanwhile leaves the pending entry to be finished again.
    pub fn journal_commit_as(&self, name: &str, bytes: &[u8], kept: &[&str]) -> Result<(), Error> {
        let entries = self
            .journal_sub(Shelf::Entries.name(), true)?
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

    /// Removes the kept version `name`, if it is a regular file.
    pub fn journal_remove_object(&self, name: &str) {
        if let Ok(Some(dir)) = self.journal_sub(OBJECTS, false) {
            remove_regular(dir, name);
        }
    }
}

/// Whether a regular file named `sha` is in `objects`; a planted link or special file
/// there is the state's problem.
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

fn present(objects: &Dir, sha: &str) -> Result<bool, Error> {
    Ok(look(objects, sha, &shown(OBJECTS, sha), Expect::File)?.is_some())
}

/// A stat's permission bits, as std's `PermissionsExt` takes them: `mode_t` is a `u32` on
/// Linux and a `u16` on macOS and FreeBSD.
#[allow(clippy::useless_conversion)]
fn permission_bits(stat: &rustix::fs::Stat) -> u32 {
    u32::from(stat.st_mode) & 0o7777
}

/// Whether `dir` holds, under the name `sha`, a regular file of `size` bytes whose digest
/// is `sha`. Anything else standing there — planted by a clone, damaged, a link, a FIFO,
/// another version — is removed (never followed, never opened for more than a look), so
/// that the caller keeps its own version under the name.
fn holds(dir: &Dir, sha: &str, size: u64) -> Result<bool, Error> {
    let path = shown(OBJECTS, sha);
    let regular = match look(dir, sha, &path, Expect::File) {
        Ok(None) => return Ok(false),
        Ok(Some(())) => true,
        Err(Error::State { .. }) => false,
        Err(e) => return Err(e),
    };
    let matches = regular
        && match open_file(dir, sha, &path, OpenOptions::new().read(true)) {
            Ok(file) => file.metadata().is_ok_and(|m| m.len() == size) && digest_of(&file) == sha,
            Err(Error::State { .. }) => false,
            Err(e) => return Err(e),
        };
    if matches {
        return Ok(true);
    }
    match rustix::fs::unlinkat(dir, sha, AtFlags::empty()) {
        Ok(()) | Err(Errno::NOENT) => Ok(false),
        Err(_) => Err(Error::State {
            path,
            problem: StateProblem::NotARegularFile,
        }),
    }
}

/// The sha256 of a file's bytes as hex, or an empty string when it cannot be read.
fn digest_of(file: &cap_std::fs::File) -> String {
    use sha2::Digest;
    use std::io::Read;
    let mut hasher = sha2::Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    let mut reader = file;
    loop {
        match reader.read(&mut buffer) {
            Ok(0) => return crate::digest::hex(&hasher.finalize()),
            Ok(n) => hasher.update(&buffer[..n]),
            Err(_) => return String::new(),
        }
    }
}

fn list(dir: &Dir) -> Result<Vec<String>, Error> {
    let mut names = Vec::new();
    each_name(dir, |name| names.push(name.to_owned()))?;
    Ok(names)
}

fn remove_regular(dir: &Dir, name: &str) {
    if dir.symlink_metadata(name).is_ok_and(|m| m.is_file()) {
        let _ = dir.remove_file(name);
    }
}

/// Writes a new object `sha` in `objects` through a temp name: `fill` writes its bytes,
/// then the mode is set, the file synced and linked to its name (never replacing one).
fn copy_in(
    objects: &Dir,
    sha: &str,
    mode: u32,
    fill: impl FnOnce(&mut cap_std::fs::File) -> std::io::Result<()>,
) -> Result<(), Error> {
    use std::os::unix::fs::PermissionsExt;
    let temp = unique_name(sha);
    let path = shown(OBJECTS, sha);
    let mut options = OpenOptions::new();
    options.write(true).create_new(true).mode(0o600);
    let mut file = open_file(objects, &temp, &path, &mut options)?;
    let written = fill(&mut file)
        .and_then(|()| {
            file.set_permissions(cap_std::fs::Permissions::from_std(
                std::fs::Permissions::from_mode(mode),
            ))
        })
        .and_then(|()| file.sync_all());
    drop(file);
    let linked = written.map_err(Error::Io).and_then(|()| {
        match rustix::fs::linkat(objects, temp.as_str(), objects, sha, AtFlags::empty()) {
            Ok(()) | Err(Errno::EXIST) => Ok(()),
            Err(e) => Err(io(e)),
        }
    });
    let _ = objects.remove_file(&temp);
    linked?;
    if present(objects, sha)? {
        Ok(())
    } else {
        Err(Error::State {
            path,
            problem: StateProblem::NotARegularFile,
        })
    }
}

/// Copies the whole of `file` (from its start, whatever was read of it) to `out`.
fn copy_fd(file: &OpenFile, out: &mut cap_std::fs::File) -> std::io::Result<()> {
    let mut buffer = vec![0u8; 1 << 16];
    let mut offset = 0u64;
    loop {
        let n = rustix::io::pread(file.fd().as_fd(), &mut buffer, offset)?;
        if n == 0 {
            return Ok(());
        }
        out.write_all(&buffer[..n])?;
        offset += n as u64;
    }
}
