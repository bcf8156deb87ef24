//! Syncing many files and directories at once, for a change of several files: the
//! staged new versions synced side by side (each fsync(2) waits on the disk, not on the
//! core, so up to [`MAX_THREADS`] run at once and their metadata shares the filesystem's
//! journal commits), and each directory a change published into synced once, after the
//! last rename into it, however many files it received.

use cap_std::fs::{Dir, MetadataExt};

use super::{sync_dir, Error, Staged};

/// The most syncs in flight at once: enough to keep a disk's queue full, few enough
/// that a change of thousands of files does not start thousands of threads.
const MAX_THREADS: usize = 8;

/// Runs `each` on every item, spread over up to [`MAX_THREADS`] threads (on this one
/// alone for a single item); the first error, if any, once all have run.
fn in_parallel<T: Sync>(
    items: &[T],
    each: impl Fn(&T) -> Result<(), Error> + Sync,
) -> Result<(), Error> {
    if items.len() <= 1 {
        return items.iter().try_for_each(each);
    }
    let threads = items.len().min(MAX_THREADS);
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let each = &each;
        let mut chunks = items.chunks(chunk);
        // This thread takes the first share itself rather than wait idle.
        let mine = chunks.next().unwrap_or_default();
        let others: Vec<_> = chunks
            .map(|share| scope.spawn(move || share.iter().try_for_each(each)))
            .collect();
        let mut result = mine.iter().try_for_each(each);
        for other in others {
            let joined = other
                .join()
                .unwrap_or_else(|_| Err(Error::Io(std::io::Error::other("a sync panicked"))));
            if result.is_ok() {
                result = joined;
            }
        }
        result
    })
}

/// Syncs every staged file in `staged` to the disk, side by side.
pub fn sync_all(staged: &[&Staged<'_>]) -> Result<(), Error> {
    in_parallel(staged, |s| s.sync())
}

/// Directories a change has published into (or removed from), each held once, to be
/// synced together when the last file is in place.
#[derive(Debug, Default)]
pub struct Dirty {
    /// Each directory, with its device and inode once a second one needed telling apart.
    dirs: Vec<(Option<(u64, u64)>, Dir)>,
}

/// A directory's device and inode; `None` when they cannot be had (it is then never taken
/// for another, and synced on its own).
fn identity(dir: &Dir) -> Option<(u64, u64)> {
    dir.dir_metadata().ok().map(|meta| (meta.dev(), meta.ino()))
}

impl Dirty {
    /// Adds `dir`, unless the same directory (by device and inode) is held already. The
    /// first one is not looked at: a change of one file has nothing to tell it from.
    pub fn add(&mut self, dir: Dir) {
        if self.dirs.is_empty() {
            self.dirs.push((None, dir));
            return;
        }
        if let [(first @ None, held)] = self.dirs.as_mut_slice() {
            *first = Some(identity(held).unwrap_or((u64::MAX, u64::MAX)));
        }
        let Some(id) = identity(&dir) else {
            self.dirs.push((Some((u64::MAX, u64::MAX)), dir));
            return;
        };
        let unknown = (u64::MAX, u64::MAX);
        if !self
            .dirs
            .iter()
            .any(|(held, _)| *held == Some(id) && id != unknown)
        {
            self.dirs.push((Some(id), dir));
        }
    }

    /// Whether no directory is held: nothing was published into one.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.dirs.is_empty()
    }

    /// Syncs every directory held, side by side: once this returns, every name the
    /// change gave or took survives a crash.
    pub fn sync(self) -> Result<(), Error> {
        in_parallel(&self.dirs, |(_, dir)| sync_dir(dir))
    }
}
