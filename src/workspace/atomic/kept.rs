//! A staged new version given a name in a directory of stitch's own state before it is
//! published — the journal's, so that a change past its commit point can be finished by
//! a later process even if this one dies: the new version is then durable and findable,
//! not an anonymous file that dies with its process. Published, it is renamed from
//! there onto its target (one rename, as a named temp file's is); dropped unpublished,
//! the name goes with it.

use std::os::fd::AsFd;

use cap_std::fs::Dir;
use rustix::io::Errno;

use super::{Error, Staged, Temp};
use crate::platform;

impl Staged<'_> {
    /// Leaves the name [`Staged::keep_as`] gave when this is dropped unpublished (see the
    /// module): once the change's entry is durable, what was not published yet is
    /// finished from there. Without a kept name, nothing changes.
    pub fn outlive(&mut self) {
        self.outlives = matches!(self.temp, Some(Temp::Named { .. }));
    }

    /// Names the staged file `name` in `dir` (which must be on the target's filesystem),
    /// never replacing a name there: [`Error::AlreadyExists`] when it is taken. Called
    /// again, it moves the name. Another filesystem (`EXDEV`), or no way to link an
    /// anonymous file, is an [`Error::Io`] the caller may take as "cannot keep here".
    pub fn keep_as(&mut self, dir: &Dir, name: &str) -> Result<(), Error> {
        let kept_dir = dir.try_clone().map_err(Error::Io)?;
        let Some(temp) = self.temp.take() else {
            return Err(Error::Io(std::io::Error::other(
                "a published file is not kept",
            )));
        };
        let linked = match &temp {
            Temp::Anonymous(fd) => platform::link_anonymous(fd.as_fd(), dir, name),
            Temp::Named {
                dir: old_dir,
                name: old,
                ..
            } => platform::rename_noreplace(old_dir, old, dir, name),
        };
        match linked {
            Ok(()) => {
                let fd = match temp {
                    Temp::Anonymous(fd) | Temp::Named { fd, .. } => fd,
                };
                self.temp = Some(Temp::Named {
                    fd,
                    dir: kept_dir,
                    name: name.to_owned(),
                });
                Ok(())
            }
            Err(e) => {
                self.temp = Some(temp);
                Err(match e {
                    Errno::EXIST => Error::AlreadyExists,
                    e => Error::Io(e.into()),
                })
            }
        }
    }
}
