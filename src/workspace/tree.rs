//! Deleting and moving files in the tree, durably: unlinkat(2) and renameat(2) (or a
//! no-replace rename) relative to the parents' handles, the directories synced after,
//! and the directories a delete or move leaves empty removed, as `git apply` does.

use cap_std::fs::Dir;
use rustix::fs::AtFlags;

use super::atomic::{sync_dir, Dirty};
use super::{Error, Location, Workspace};
use crate::platform;

/// Whether a move may replace a file at its destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replace {
    /// Never: a file that is there (or appears) is [`Error::AlreadyExists`].
    Never,
    /// Yes, by one rename over it.
    Allowed,
}

impl Workspace {
    /// The parent directory of a real path, opened, and the last name.
    fn parent_of_real<'a>(&self, real: &'a str) -> Result<(Dir, &'a str), Error> {
        match real.rsplit_once('/') {
            Some((parent, name)) => Ok((self.dir.open_dir(parent).map_err(Error::classify)?, name)),
            None => Ok((self.dir.try_clone().map_err(Error::Io)?, real)),
        }
    }

    /// Removes the file at `location.real` and syncs its directory.
    pub fn remove(&self, location: &Location) -> Result<(), Error> {
        let mut dirty = Dirty::default();
        self.remove_into(location, &mut dirty)?;
        dirty.sync()
    }

    /// [`Workspace::remove`] but for the directory's sync, which `dirty` takes.
    pub fn remove_into(&self, location: &Location, dirty: &mut Dirty) -> Result<(), Error> {
        let (parent, name) = self.parent_of_real(&location.real)?;
        rustix::fs::unlinkat(&parent, name, AtFlags::empty())
            .map_err(|e| Error::classify(e.into()))?;
        dirty.add(parent);
        Ok(())
    }

    /// [`Workspace::remove_into`] of the file open as `base`, only if it is still that
    /// file under its name, as it was read: [`Error::Changed`] when another program wrote
    /// to it or put another file in its place since, and nothing is removed.
    pub fn remove_unchanged(
        &self,
        location: &Location,
        base: &super::OpenFile,
        dirty: &mut Dirty,
    ) -> Result<(), Error> {
        let (parent, name) = self.parent_of_real(&location.real)?;
        super::guard::still_as_read(&parent, name, base)?;
        rustix::fs::unlinkat(&parent, name, AtFlags::empty())
            .map_err(|e| Error::classify(e.into()))?;
        dirty.add(parent);
        Ok(())
    }

    /// Moves the file at `from.real` to `to.real` (whose parents exist), and syncs both
    /// directories.
    pub fn rename(&self, from: &Location, to: &Location, replace: Replace) -> Result<(), Error> {
        let mut dirty = Dirty::default();
        self.rename_into(from, to, replace, &mut dirty)?;
        dirty.sync()
    }

    /// [`Workspace::rename`] but for the directories' syncs, which `dirty` takes.
    pub fn rename_into(
        &self,
        from: &Location,
        to: &Location,
        replace: Replace,
        dirty: &mut Dirty,
    ) -> Result<(), Error> {
        let (old_dir, old) = self.parent_of_real(&from.real)?;
        let (new_dir, new) = self.parent_of_real(&to.real)?;
        match replace {
            Replace::Never => platform::rename_noreplace(&old_dir, old, &new_dir, new),
            Replace::Allowed => rustix::fs::renameat(&old_dir, old, &new_dir, new),
        }
        .map_err(|e| Error::classify(e.into()))?;
        dirty.add(new_dir);
        dirty.add(old_dir);
        Ok(())
    }

    /// Removes the directories each of `paths` left empty, as `git apply` does (§12): for
    /// every change a commit publishes, and for every change a recovery finishes or
    /// drops. A directory that holds anything (a file put back at the path) stays.
    pub fn vacate<'p>(&self, paths: impl IntoIterator<Item = &'p str>) {
        for path in paths {
            self.remove_emptied_parents(path);
        }
    }

    /// Removes the directories above `real` that are empty now, innermost first, up to
    /// (never including) the root; returns the ones removed.
    pub fn remove_emptied_parents(&self, real: &str) -> Vec<String> {
        let mut removed = Vec::new();
        let mut path = real;
        while let Some((parent, _)) = path.rsplit_once('/') {
            if self.dir.remove_dir(parent).is_err() {
                break;
            }
            removed.push(parent.to_owned());
            path = parent;
        }
        if let Some(last) = removed.last() {
            let top = last.rsplit_once('/').map_or("", |(p, _)| p);
            let dir = if top.is_empty() {
                self.dir.try_clone().ok()
            } else {
                self.dir.open_dir(top).ok()
            };
            if let Some(dir) = dir {
                let _ = sync_dir(&dir);
            }
        }
        removed
    }
}
