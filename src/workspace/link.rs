//! A symbolic link taken as itself, as rm, mv and git take it: located without following
//! its last component (the directories above it are resolved and contained as for any
//! path), read, made and removed — never its target.

use cap_std::fs::MetadataExt;
use rustix::fs::AtFlags;

use super::atomic::Dirty;
use super::path::{self, join, Lexed};
use super::resolve::{self, Kind};
use super::{Error, Location, Workspace};

impl Workspace {
    /// Where `raw` is, as [`Workspace::locate`] says, except that a symbolic link at its
    /// last component is the object itself: [`Kind::Link`], its real path the link's own.
    /// A path written with a trailing `/` names what the link leads to, as it does for
    /// rm and mv.
    pub fn locate_own(&self, raw: &str) -> Result<Location, Error> {
        let roots = self.roots();
        let Lexed::Inside {
            components,
            trailing_slash: false,
        } = path::lex(raw, &roots)
        else {
            return self.locate(raw);
        };
        let Some((last, parents)) = components.split_last() else {
            return self.locate(raw);
        };
        if last == ".." || parents.iter().any(|c| c == "..") {
            return self.locate(raw);
        }
        let (mut real, mut ids) = if parents.is_empty() {
            (Vec::new(), Vec::new())
        } else {
            let parent = resolve::resolve(&self.dir, parents, &roots)?;
            if parent.missing_from.is_some() || parent.kind != Some(Kind::Directory) {
                return self.locate(raw);
            }
            (parent.real, parent.ids)
        };
        real.push(last.clone());
        let link = match self.dir.symlink_metadata(join(&real)) {
            Ok(meta) if meta.file_type().is_symlink() => meta,
            _ => return self.locate(raw),
        };
        ids.push((link.dev(), link.ino()));
        Ok(Location {
            shown: join(&components),
            real: join(&real),
            trailing_slash: false,
            kind: Some(Kind::Link),
            missing_dirs: Vec::new(),
            components: real,
            shown_components: components,
            ids,
        })
    }

    /// The target of the link at `location` (located by [`Workspace::locate_own`]).
    pub fn read_link(&self, location: &Location) -> Result<String, Error> {
        let (parent, name) = self.parent_of(location)?;
        let target = rustix::fs::readlinkat(&parent, name, Vec::new())
            .map_err(|e| Error::classify(e.into()))?;
        target.into_string().map_err(|_| {
            Error::InvalidPath(path::Invalid::NonUtf8Link {
                link: location.shown.clone(),
            })
        })
    }

    /// Makes a link to `target` at `location`, where nothing may be (one `symlinkat`,
    /// which fails rather than replace: [`Error::AlreadyExists`]); its directory's sync
    /// goes to `dirty`.
    pub fn make_link(
        &self,
        location: &Location,
        target: &str,
        dirty: &mut Dirty,
    ) -> Result<(), Error> {
        let (parent, name) = self.parent_of(location)?;
        match rustix::fs::symlinkat(target, &parent, name) {
            Ok(()) => {}
            Err(rustix::io::Errno::EXIST) => return Err(Error::AlreadyExists),
            Err(e) => return Err(Error::classify(e.into())),
        }
        dirty.add(parent);
        Ok(())
    }

    /// Removes the link at `location` if it still leads to `target`: [`Error::Changed`]
    /// when something else stands there now, and nothing is removed.
    pub fn remove_link(
        &self,
        location: &Location,
        target: &str,
        dirty: &mut Dirty,
    ) -> Result<(), Error> {
        let (parent, name) = self.parent_of(location)?;
        let now = rustix::fs::readlinkat(&parent, name, Vec::new());
        if !now.is_ok_and(|now| now.as_bytes() == target.as_bytes()) {
            return Err(Error::Changed);
        }
        rustix::fs::unlinkat(&parent, name, AtFlags::empty())
            .map_err(|e| Error::classify(e.into()))?;
        dirty.add(parent);
        Ok(())
    }
}
