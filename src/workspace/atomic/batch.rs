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

/// [`sync_all`], with `meanwhile` run on this thread while the syncs wait on the disk,
/// each share of them on a thread of its own (a share whose thread cannot be made is
/// synced here, after `meanwhile`). Both results, once all have run.
pub fn sync_all_beside<R>(
    staged: &[&Staged<'_>],
    meanwhile: impl FnOnce() -> R,
) -> (R, Result<(), Error>) {
    if staged.is_empty() {
        return (meanwhile(), Ok(()));
    }
    let each = |share: &[&Staged<'_>]| share.iter().try_for_each(|s| s.sync());
    let chunk = staged.len().div_ceil(staged.len().min(MAX_THREADS));
    std::thread::scope(|scope| {
        let spawned: Vec<_> = staged
            .chunks(chunk)
            .map(|share| {
                let thread = std::thread::Builder::new().spawn_scoped(scope, move || each(share));
                (share, thread)
            })
            .collect();
        let theirs = meanwhile();
        let mut result = Ok(());
        for (share, thread) in spawned {
            let synced = match thread {
                Ok(handle) => handle
                    .join()
                    .unwrap_or_else(|_| Err(Error::Io(std::io::Error::other("a sync panicked")))),
                Err(_) => each(share),
            };
            if result.is_ok() {
                result = synced;
            }
        }
        (theirs, result)
    })
}

/// Directories a change has published into (or removed from), each held once, to be
/// synced together when the last file is in place.
#[derive(Debug, Default)]
pub struct Dirty {
    /// Each directory, with its device and inode: `None` for the first until a second one
    /// is added, and for one whose identity cannot be had (never taken for another).
    dirs: Vec<(Option<(u64, u64)>, Dir)>,
}

fn identity(dir: &Dir) -> Option<(u64, u64)> {
    dir.dir_metadata().ok().map(|meta| (meta.dev(), meta.ino()))
}

impl Dirty {
    /// Adds `dir`, unless the same directory (by device and inode) is held already. The
    /// first one is looked at only when a second comes: a change of one file has nothing
    /// to tell it from.
    pub fn add(&mut self, dir: Dir) {
        if let [(first @ None, held)] = self.dirs.as_mut_slice() {
            *first = identity(held);
        }
        let id = if self.dirs.is_empty() {
            None
        } else {
            identity(&dir)
        };
        if id.is_none() || !self.dirs.iter().any(|(held, _)| *held == id) {
            self.dirs.push((id, dir));
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

    /// [`Dirty::sync`], with `meanwhile` run on this thread while the directories' syncs
    /// wait on the disk, each share of them on a thread of its own (a share whose thread
    /// cannot be made is synced here, after `meanwhile`): work that needs no sync, done in
    /// the shadow of their flushes. One directory is synced here, then `meanwhile` runs:
    /// a thread made for one sync costs more than it hides on a loaded machine.
    pub fn sync_beside(self, meanwhile: impl FnOnce()) -> Result<(), Error> {
        if self.dirs.len() <= 1 {
            let synced = self.sync();
            meanwhile();
            return synced;
        }
        let each = |share: &[(Option<(u64, u64)>, Dir)]| {
            share.iter().try_for_each(|(_, dir)| sync_dir(dir))
        };
        let chunk = self.dirs.len().div_ceil(self.dirs.len().min(MAX_THREADS));
        std::thread::scope(|scope| {
            let spawned: Vec<_> = self
                .dirs
                .chunks(chunk)
                .map(|share| {
                    let thread =
                        std::thread::Builder::new().spawn_scoped(scope, move || each(share));
                    (share, thread)
                })
                .collect();
            meanwhile();
            let mut result = Ok(());
            for (share, thread) in spawned {
                let synced = match thread {
                    Ok(handle) => handle.join().unwrap_or_else(|_| {
                        Err(Error::Io(std::io::Error::other("a sync panicked")))
                    }),
                    Err(_) => each(share),
                };
                if result.is_ok() {
                    result = synced;
                }
            }
            result
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{sync_all_beside, Dirty};
    use crate::workspace::{Workspace, WriteMode};
    use cap_std::ambient_authority;
    use cap_std::fs::Dir;

    #[test]
    fn each_directory_is_held_once_however_often_it_is_added() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir(root.path().join("a")).unwrap();
        let open = |name: &str| Dir::open_ambient_dir(root.path().join(name), ambient_authority());
        let mut dirty = Dirty::default();
        dirty.add(open(".").unwrap());
        assert_eq!(dirty.dirs.len(), 1);
        dirty.add(open(".").unwrap());
        assert_eq!(
            dirty.dirs.len(),
            1,
            "the same directory through a second handle"
        );
        dirty.add(open("a").unwrap());
        dirty.add(open("a").unwrap());
        dirty.add(open(".").unwrap());
        assert_eq!(dirty.dirs.len(), 2);
        assert!(dirty.dirs.iter().all(|(id, _)| id.is_some()));
        dirty.sync().unwrap();
    }

    #[test]
    fn files_synced_beside_other_work_are_all_synced_once_it_is_done() {
        let root = tempfile::tempdir().unwrap();
        let ws = Workspace::open(root.path()).unwrap();
        let names: Vec<String> = (0..11).map(|i| format!("f{i}.txt")).collect();
        let staged: Vec<_> = names
            .iter()
            .map(|name| {
                let at = ws.locate(name).unwrap();
                ws.stage(&at, &[name.as_bytes()], None, WriteMode::CreateNew)
                    .unwrap()
            })
            .collect();
        let files: Vec<_> = staged.iter().collect();
        assert!(files.iter().all(|s| !s.is_synced()));
        let (theirs, synced) = sync_all_beside(&files, || {
            // Run here, while the syncs are on threads of their own.
            std::thread::current().id()
        });
        synced.unwrap();
        assert_eq!(theirs, std::thread::current().id());
        assert!(files.iter().all(|s| s.is_synced()));
        let (nothing, synced) = sync_all_beside(&[], || 7);
        assert_eq!((nothing, synced.is_ok()), (7, true));
        for one in staged {
            one.publish().unwrap();
        }
        for name in &names {
            assert_eq!(
                std::fs::read(root.path().join(name)).unwrap(),
                name.as_bytes()
            );
        }
    }
}
