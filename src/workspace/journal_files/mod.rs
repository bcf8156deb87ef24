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
//!
//! The entry files are `entries.rs`'s and the kept versions `objects.rs`'s; what both use (the
//! journal's directories, opened once a call) is here.

use cap_std::fs::Dir;
use rustix::io::Errno;

use super::atomic::sync_dir;
use super::state::{each_name, open_dir_made, Missing, STATE_DIR};
use super::{Error, Workspace};

mod entries;
mod objects;

pub use entries::FileIdentity;

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

/// Whose kept versions a commit moves to `objects/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provenance {
    /// This process's own, kept from what it read: each replaces whatever stands under
    /// its name (a result kept earlier, or one planted).
    Own,
    /// Left by a process that died: where one with that name already stands, the one
    /// found goes.
    Found,
}

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
    /// `.stitch/journal/<sub>/`, made when missing if `missing` says so; `None` when
    /// missing. Once opened, kept for the rest of the call.
    fn journal_sub(&self, sub: &str, missing: Missing) -> Result<Option<&Dir>, Error> {
        let slot = match sub {
            "pending" => &self.journal.pending,
            "entries" => &self.journal.entries,
            _ => &self.journal.objects,
        };
        if let Some(dir) = slot.get() {
            return Ok(Some(dir));
        }
        let Some(dir) = self.open_journal_sub(sub, missing)? else {
            return Ok(None);
        };
        Ok(Some(slot.get_or_init(|| dir)))
    }

    fn open_journal_sub(&self, sub: &str, missing: Missing) -> Result<Option<Dir>, Error> {
        let journal = if let Some(journal) = self.journal.journal.get() {
            journal
        } else {
            let Some(journal) = self.state_subdir_opt("journal", missing)? else {
                return Ok(None);
            };
            self.journal.journal.get_or_init(|| journal)
        };
        open_dir_made(journal, sub, &format!("{STATE_DIR}/journal/{sub}"), missing)
    }

    fn objects(&self) -> Result<&Dir, Error> {
        self.journal_sub(OBJECTS, Missing::Make)?
            .ok_or_else(|| Error::Io(std::io::ErrorKind::NotFound.into()))
    }

    fn pending(&self) -> Result<&Dir, Error> {
        self.journal_sub(Shelf::Pending.name(), Missing::Make)?
            .ok_or_else(|| Error::Io(std::io::ErrorKind::NotFound.into()))
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
