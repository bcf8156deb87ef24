//! The journal's kept versions (`objects/`, and `pending/` beside a new entry): a
//! replaced file's own inode hard-linked where it can be, else its bytes copied, synced
//! before the entry that names it; a name already there is relied on only once it is
//! shown to hold that version, and anything planted in its place is removed.

use std::io::Write;
use std::os::fd::AsFd;

use cap_std::fs::{Dir, OpenOptions, OpenOptionsExt};
use rustix::fs::AtFlags;
use rustix::io::Errno;

use super::{
    io, list, remove_regular, shown, Kept, Missing, ObjectName, Provenance, Shelf, OBJECTS,
};
use crate::platform;
use crate::workspace::atomic::Dirty;
use crate::workspace::state::{create_file, look, open_file, read_bounded, read_file, Expect};
use crate::workspace::temp_name::unique_name;
use crate::workspace::{Error, Location, OpenFile, Staged, StateProblem, Workspace};

impl Workspace {
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
        let named = match bytes {
            Some(bytes) => copy_in(objects, sha, mode, |out| out.write_all(bytes)),
            None => copy_in(objects, sha, mode, |out| copy_fd(file, out)),
        }?;
        // The name, linked or found there, moved on at once: by another change's commit
        // that keeps the same version, to `objects/`, where it is now.
        if named || holds(kept, sha, size)? {
            return Ok(if named { Kept::Copied } else { Kept::Present });
        }
        Err(Error::State {
            path: shown(OBJECTS, sha),
            problem: StateProblem::NotARegularFile,
        })
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
                // inode that was read counts. And a name here is a version's digest,
                // shared by every change that keeps that version: another's commit may
                // have moved it on to `objects/` already, where the caller finds it.
                let linked = match rustix::fs::statat(objects, sha, AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(linked) => linked,
                    Err(Errno::NOENT) => return Ok(None),
                    Err(e) => return Err(io(e)),
                };
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
    /// no bytes to copy, removed. The name is looked for under `objects/` too: another
    /// change that kept the same version relied on it, and its commit may have moved it
    /// there already. Best effort: a version that cannot be put right is refused by the
    /// undo that needs it.
    pub fn recheck_linked(&self, sha: &str, file: &OpenFile, bytes: Option<&[u8]>) {
        if file.unchanged_but_for_links().unwrap_or(false) {
            return;
        }
        let pending = self.journal_sub(Shelf::Pending.name(), Missing::Leave);
        let objects = self.journal_sub(OBJECTS, Missing::Leave);
        for dir in [pending, objects].into_iter().flatten().flatten() {
            // Only the inode that was linked is taken away: the name may hold another by
            // now.
            #[allow(clippy::unnecessary_cast)] // st_dev and st_ino are not u64 everywhere
            let same = rustix::fs::statat(dir, sha, AtFlags::SYMLINK_NOFOLLOW)
                .is_ok_and(|now| file.seen().same_file(now.st_dev as u64, now.st_ino as u64));
            if !same || rustix::fs::unlinkat(dir, sha, AtFlags::empty()).is_err() {
                continue;
            }
            if let Some(bytes) = bytes {
                let _ = copy_in(dir, sha, file.mode & 0o7777, |out| out.write_all(bytes));
            }
            return;
        }
    }

    /// The bytes and permission bits of the kept version `sha`, read with the bound
    /// `limit`. [`Error::NotFound`] when it is missing; [`Error::State`] when it is a
    /// link, not a regular file or too large. The caller checks the digest.
    pub fn kept_version(&self, sha: &str, limit: u64) -> Result<(Vec<u8>, u32), Error> {
        let path = shown(OBJECTS, sha);
        let objects = self
            .journal_sub(OBJECTS, Missing::Leave)?
            .ok_or(Error::NotFound)?;
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

    /// Moves the versions `kept` from `pending/` to `objects/`, as
    /// [`Workspace::journal_commit`] does ([`Provenance::Own`]: over whatever stands there).
    pub fn journal_adopt(&self, kept: &[&str], provenance: Provenance) {
        for sha in kept {
            match provenance {
                Provenance::Own => self.adopt_own(sha),
                Provenance::Found => self.adopt_kept(sha),
            }
        }
    }

    /// Moves the kept version `sha`, made by this process from what it read, from
    /// `pending/` to `objects/`, over whatever stands there under its name.
    pub(super) fn adopt_own(&self, sha: &str) {
        let (Ok(Some(pending)), Ok(objects)) = (
            self.journal_sub(Shelf::Pending.name(), Missing::Leave),
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
            self.journal_sub(Shelf::Pending.name(), Missing::Leave),
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

    /// The kept versions' names (64 hex digits only) and ages, under `objects/`.
    pub fn journal_objects(&self) -> Result<Vec<ObjectName>, Error> {
        self.objects_in(OBJECTS)
    }

    /// The kept versions' names and ages still under `pending/`, beside their entries.
    pub fn journal_pending_objects(&self) -> Result<Vec<ObjectName>, Error> {
        self.objects_in(Shelf::Pending.name())
    }

    /// The kept versions' names and ages under `.stitch/journal/<sub>/`.
    fn objects_in(&self, sub: &str) -> Result<Vec<ObjectName>, Error> {
        let Some(dir) = self.journal_sub(sub, Missing::Leave)? else {
            return Ok(Vec::new());
        };
        crate::workspace::state::sweep_dir(dir);
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
        let Some(pending) = self.journal_sub(Shelf::Pending.name(), Missing::Leave)? else {
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

    /// Removes the kept version `name`, if it is a regular file.
    pub fn journal_remove_object(&self, name: &str) {
        if let Ok(Some(dir)) = self.journal_sub(OBJECTS, Missing::Leave) {
            remove_regular(dir, name);
        }
    }
}

/// Whether a regular file named `sha` is in `objects`; a planted link or special file
/// there is the state's problem.
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
            // Moved on since the look (another change's commit took it to `objects/`).
            Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
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

/// Writes a new object `sha` in `objects` through a temp name: `fill` writes its bytes,
/// then the mode is set, the file synced and linked to its name (never replacing one).
/// Whether the name stands once linked: one that another change keeping the same version
/// moved on at once is not.
fn copy_in(
    objects: &Dir,
    sha: &str,
    mode: u32,
    fill: impl FnOnce(&mut cap_std::fs::File) -> std::io::Result<()>,
) -> Result<bool, Error> {
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
    present(objects, sha)
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

#[cfg(test)]
mod tests {
    use std::os::unix::fs::MetadataExt;

    use crate::digest::sha256_hex;
    use crate::workspace::Workspace;

    /// A version kept by a hard link to the file an edit read, which another change
    /// that kept the same version moved on to `objects/` at its commit, is put right there
    /// when the file was written in place before the edit's publish.
    #[test]
    fn a_linked_version_moved_on_to_objects_is_put_right_there() {
        let root = tempfile::tempdir().unwrap();
        let (a, objects) = (
            root.path().join("a.txt"),
            root.path().join(".stitch/journal/objects"),
        );
        std::fs::write(&a, "one\n").unwrap();
        std::fs::create_dir_all(&objects).unwrap();
        std::fs::create_dir_all(root.path().join(".stitch/journal/pending")).unwrap();
        let ws = Workspace::open(root.path()).unwrap();
        let file = ws.open_file(&ws.locate("a.txt").unwrap()).unwrap();
        let sha = sha256_hex(b"one\n");
        std::fs::hard_link(&a, objects.join(&sha)).unwrap();
        // Another program writes the file in place: the linked name holds its bytes too.
        std::fs::write(&a, "two\n").unwrap();
        assert_eq!(std::fs::read(objects.join(&sha)).unwrap(), b"two\n");
        ws.recheck_linked(&sha, &file, Some(b"one\n"));
        assert_eq!(std::fs::read(objects.join(&sha)).unwrap(), b"one\n");
        let ino = |p: &std::path::Path| std::fs::metadata(p).unwrap().ino();
        assert_ne!(ino(&objects.join(&sha)), ino(&a), "a copy, not the file");
        assert_eq!(
            std::fs::read(&a).unwrap(),
            b"two\n",
            "the file is left as written"
        );
    }
}
