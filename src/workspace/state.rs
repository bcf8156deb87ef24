//! The reserved state directory `.stitch/`: the config, lock files, session ledgers,
//! the journal and staged temp files.
//!
//! The workspace may have been planted by someone else, `.stitch/` included, so nothing
//! here is trusted: `.stitch` must be a real directory of the root, every state file is
//! looked at with `lstat` before it is opened (opening some devices has effects), every
//! state path is opened with `O_NOFOLLOW` (directories as `O_PATH | O_DIRECTORY`, looked
//! at only when that fails, to name what stands there; files with `O_NONBLOCK`), its
//! type is checked on the open descriptor, and files are read with a size bound. A
//! state path that is a symlink, a FIFO, a device, the wrong kind or too large is
//! [`Error::State`], never a problem of the caller's path. Only names stitch creates
//! itself (its own naming patterns, regular files) are ever deleted, through the
//! directory handle, never through a link.

use std::io::Read;

use cap_fs_ext::{DirExt, FollowSymlinks, OpenOptionsFollowExt};
use cap_std::fs::{Dir, File, OpenOptions, OpenOptionsExt};
use rustix::fs::OFlags;

use super::error::StateProblem;
use super::{Error, Workspace};

/// The name of the reserved directory at the root.
pub const STATE_DIR: &str = ".stitch";

/// The config's size bound.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

const GITIGNORE: &str =
    "# stitch's state: locks, ledgers and temporary files.\n*\n!.gitignore\n!config.json\n";

/// What each known name under `.stitch/` must be, checked once per call before any
/// change, so that a planted one refuses the call up front.
const KNOWN: [(&str, Expect); 6] = [
    ("tmp", Expect::Dir),
    ("journal", Expect::Dir),
    ("locks", Expect::Dir),
    ("sessions", Expect::Dir),
    ("config.json", Expect::File),
    (".gitignore", Expect::File),
];

/// `.stitch`, opened and checked, and whether its config was there when it was.
#[derive(Debug)]
pub(super) struct StateDir {
    dir: Dir,
    has_config: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Expect {
    Dir,
    File,
}

#[cold]
fn state(path: impl Into<String>, problem: StateProblem) -> Error {
    Error::State {
        path: path.into(),
        problem,
    }
}

/// Sorts an error met opening a state path: a link met with `O_NOFOLLOW`, or a wrong
/// kind, is the state's problem; anything else is a cause with no case.
pub(super) fn opening(path: &str, e: std::io::Error) -> Error {
    use rustix::io::Errno;
    match e.raw_os_error().map(Errno::from_raw_os_error) {
        Some(Errno::LOOP) => state(path, StateProblem::Symlink),
        Some(Errno::NOTDIR) => state(path, StateProblem::NotADirectory),
        Some(Errno::ISDIR) => state(path, StateProblem::NotARegularFile),
        // Escapes (cap-std's PermissionDenied without an errno, or EXDEV) can only come
        // from a link, which the checks above should have caught: a swap meanwhile.
        Some(Errno::XDEV) => state(path, StateProblem::Changed),
        Some(Errno::ACCESS | Errno::PERM) => state(path, StateProblem::Denied),
        Some(Errno::ROFS) => state(path, StateProblem::ReadOnly),
        None if e.kind() == std::io::ErrorKind::PermissionDenied => {
            state(path, StateProblem::Changed)
        }
        _ => Error::Io(e),
    }
}

/// Looks at `name` in `dir` without following it: `Ok(None)` when it does not exist.
pub(super) fn look(dir: &Dir, name: &str, path: &str, expect: Expect) -> Result<Option<()>, Error> {
    let meta = match dir.symlink_metadata(name) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(opening(path, e)),
    };
    let file_type = meta.file_type();
    if file_type.is_symlink() {
        return Err(state(path, StateProblem::Symlink));
    }
    match expect {
        Expect::Dir if !file_type.is_dir() => Err(state(path, StateProblem::NotADirectory)),
        Expect::File if !file_type.is_file() => Err(state(path, StateProblem::NotARegularFile)),
        _ => Ok(Some(())),
    }
}

/// Opens the directory `name` in `dir`, never through a link.
pub(super) fn open_dir(dir: &Dir, name: &str, path: &str) -> Result<Dir, Error> {
    dir.open_dir_nofollow(name).map_err(|e| opening(path, e))
}

/// What opening a directory of stitch's own that does not exist does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Missing {
    /// Makes it (a change is about to write there).
    Make,
    /// Leaves it missing (a reader finds nothing there).
    Leave,
}

/// [`open_dir_opt`], creating the directory first when it does not exist and `missing`
/// asks for it.
pub(super) fn open_dir_made(
    dir: &Dir,
    name: &str,
    path: &str,
    missing: Missing,
) -> Result<Option<Dir>, Error> {
    if let Some(opened) = open_dir_opt(dir, name, path)? {
        return Ok(Some(opened));
    }
    if missing == Missing::Leave {
        return Ok(None);
    }
    match dir.create_dir(name) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(opening(path, e)),
    }
    open_dir(dir, name, path).map(Some)
}

/// Opens the directory `name` in `dir`, never through a link: `Ok(None)` when it does
/// not exist. Opened first and looked at only when that fails (an `O_PATH` open of a
/// directory has no effect on anything), so that the refusal names what is there.
pub(super) fn open_dir_opt(dir: &Dir, name: &str, path: &str) -> Result<Option<Dir>, Error> {
    match dir.open_dir_nofollow(name) {
        Ok(opened) => Ok(Some(opened)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => match look(dir, name, path, Expect::Dir)? {
            None => Ok(None),
            Some(()) => Err(opening(path, e)),
        },
    }
}

/// Opens the regular file `name` in `dir` with `options`, never through a link and
/// never blocking, and checks on the descriptor that it is a regular file.
pub(super) fn open_file(
    dir: &Dir,
    name: &str,
    path: &str,
    options: &mut OpenOptions,
) -> Result<File, Error> {
    Ok(open_checked(dir, name, path, options)?.0)
}

/// [`open_file`], with the metadata it checked.
fn open_checked(
    dir: &Dir,
    name: &str,
    path: &str,
    options: &mut OpenOptions,
) -> Result<(File, cap_std::fs::Metadata), Error> {
    let file = dir
        .open_with(name, never_through_a_link(options))
        .map_err(|e| opening(path, e))?;
    let meta = file.metadata().map_err(Error::Io)?;
    if !meta.is_file() {
        return Err(state(path, StateProblem::NotARegularFile));
    }
    Ok((file, meta))
}

/// Opens the regular file `name` in `dir` as [`open_file`] does and reads it with a bound
/// of `limit` bytes, as [`read_bounded`] does; with the metadata of the open file.
pub(super) fn read_file(
    dir: &Dir,
    name: &str,
    path: &str,
    limit: u64,
) -> Result<(Vec<u8>, cap_std::fs::Metadata), Error> {
    let (file, meta) = open_checked(dir, name, path, OpenOptions::new().read(true))?;
    Ok((read_sized(file, meta.len(), path, limit)?, meta))
}

/// Creates the regular file `name` in `dir` (never one that is there, never through a
/// link) with `options`, which must ask for `create_new`: what `O_EXCL` made is a regular
/// file, so it is not looked at again.
pub(super) fn create_file(
    dir: &Dir,
    name: &str,
    path: &str,
    options: &mut OpenOptions,
) -> Result<File, Error> {
    dir.open_with(name, never_through_a_link(options))
        .map_err(|e| opening(path, e))
}

/// `options` for a state file: never through a link, never blocking, never a terminal.
fn never_through_a_link(options: &mut OpenOptions) -> &mut OpenOptions {
    options.follow(FollowSymlinks::No).custom_flags(
        (OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC)
            .bits()
            .cast_signed(),
    )
}

/// Reads an open state file, refusing it past `limit` bytes without reading more.
pub(super) fn read_bounded(file: File, path: &str, limit: u64) -> Result<Vec<u8>, Error> {
    let size = file.metadata().map_err(Error::Io)?.len();
    read_sized(file, size, path, limit)
}

/// [`read_bounded`] of a file whose size, as its metadata said, is `size`.
fn read_sized(mut file: File, size: u64, path: &str, limit: u64) -> Result<Vec<u8>, Error> {
    if size > limit {
        return Err(state(path, StateProblem::TooLarge { limit }));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    (&mut file)
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(Error::Io)?;
    if bytes.len() as u64 > limit {
        return Err(state(path, StateProblem::TooLarge { limit }));
    }
    Ok(bytes)
}

impl Workspace {
    /// The `.stitch` directory, opened without following links and with every known name
    /// under it checked; `None` when it does not exist and `missing` leaves it so.
    fn state_dir(&self, missing: Missing) -> Result<Option<&Dir>, Error> {
        Ok(self.checked_state_dir(missing)?.map(|state| &state.dir))
    }

    fn checked_state_dir(&self, missing: Missing) -> Result<Option<&StateDir>, Error> {
        if let Some(state) = self.state.get() {
            return Ok(Some(state));
        }
        let dir = match open_dir_opt(&self.dir, STATE_DIR, STATE_DIR)? {
            Some(dir) => Some(dir),
            None => self.create_state_dir(missing)?,
        };
        let Some(dir) = dir else { return Ok(None) };
        let mut has_config = false;
        for (name, expect) in KNOWN {
            let present = look(&dir, name, &format!("{STATE_DIR}/{name}"), expect)?.is_some();
            has_config |= present && name == "config.json";
        }
        Ok(Some(
            self.state.get_or_init(|| StateDir { dir, has_config }),
        ))
    }

    /// Creates `.stitch` (when `missing` asks) with its `.gitignore`, and opens it.
    #[cold]
    fn create_state_dir(&self, missing: Missing) -> Result<Option<Dir>, Error> {
        if missing == Missing::Leave {
            return Ok(None);
        }
        match self.dir.create_dir(STATE_DIR) {
            Ok(()) => {
                // Best effort: a missing .gitignore only means git may show the folder.
                if let Ok(new) = self.dir.open_dir_nofollow(STATE_DIR) {
                    let mut options = OpenOptions::new();
                    options.write(true).create_new(true);
                    if let Ok(mut file) = open_file(&new, ".gitignore", "", &mut options) {
                        let _ = std::io::Write::write_all(&mut file, GITIGNORE.as_bytes());
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(opening(STATE_DIR, e)),
        }
        open_dir(&self.dir, STATE_DIR, STATE_DIR).map(Some)
    }

    /// Opens `.stitch/<sub>/`, creating it (and `.stitch`) when `missing` asks; `None`
    /// when it does not exist and `missing` leaves it so.
    fn state_subdir(&self, sub: &str, missing: Missing) -> Result<Option<Dir>, Error> {
        let Some(state_dir) = self.state_dir(missing)? else {
            return Ok(None);
        };
        open_dir_made(state_dir, sub, &format!("{STATE_DIR}/{sub}"), missing)
    }

    /// Opens `.stitch/<sub>/`, creating it when `missing` asks; `None` when it does not
    /// exist and `missing` leaves it so.
    pub(super) fn state_subdir_opt(
        &self,
        sub: &str,
        missing: Missing,
    ) -> Result<Option<Dir>, Error> {
        self.state_subdir(sub, missing)
    }

    /// Opens `.stitch/<sub>/`, creating it if needed.
    pub(super) fn state_subdir_created(&self, sub: &str) -> Result<Dir, Error> {
        self.state_subdir(sub, Missing::Make)?
            .ok_or_else(|| Error::Io(std::io::ErrorKind::NotFound.into()))
    }

    /// Opens `.stitch/tmp/`, where temp files are staged, creating it if needed, and
    /// sweeps what killed processes left there.
    pub(super) fn staging(&self) -> Result<Dir, Error> {
        let staging = self.state_subdir_created("tmp")?;
        sweep(&staging);
        Ok(staging)
    }

    /// Opens (creating if needed, never truncating) the lock file `name` under
    /// `.stitch/locks/`. Lock files are never replaced, so a lock on one holds.
    pub fn lock_file(&self, name: &str) -> Result<std::fs::File, Error> {
        let dir = if let Some(dir) = self.locks.get() {
            dir
        } else {
            let dir = self.state_subdir_created("locks")?;
            self.locks.get_or_init(|| dir)
        };
        let path = format!("{STATE_DIR}/locks/{name}");
        // A planted device must not even be opened: opening some has effects.
        look(dir, name, &path, Expect::File)?;
        let mut options = OpenOptions::new();
        options.read(true).write(true).create(true);
        open_file(dir, name, &path, &mut options).map(File::into_std)
    }

    /// Reads `.stitch/<sub>/<name>` with a bound of `limit` bytes, `None` when it does
    /// not exist.
    pub fn read_state(&self, sub: &str, name: &str, limit: u64) -> Result<Option<Vec<u8>>, Error> {
        let Some(dir) = self.state_subdir(sub, Missing::Leave)? else {
            return Ok(None);
        };
        let path = format!("{STATE_DIR}/{sub}/{name}");
        if look(&dir, name, &path, Expect::File)?.is_none() {
            return Ok(None);
        }
        let file = open_file(&dir, name, &path, OpenOptions::new().read(true))?;
        read_bounded(file, &path, limit).map(Some)
    }

    /// Replaces `.stitch/<sub>/<name>` atomically: a new temp name (`O_EXCL`, never
    /// through a link), fsync, rename over.
    pub fn write_state(&self, sub: &str, name: &str, bytes: &[u8]) -> Result<(), Error> {
        use std::io::Write;
        let dir = self.state_subdir_created(sub)?;
        let path = format!("{STATE_DIR}/{sub}/{name}");
        look(&dir, name, &path, Expect::File)?;
        let temp = super::temp_name::unique_name(name);
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        let mut file = open_file(&dir, &temp, &path, &mut options)?;
        let written = file
            .write_all(bytes)
            .and_then(|()| file.sync_all())
            .map_err(Error::Io)
            .and_then(|()| dir.rename(&temp, &dir, name).map_err(|e| opening(&path, e)));
        if written.is_err() {
            let _ = dir.remove_file(&temp);
        }
        written
    }

    /// Writes `.stitch/<sub>/<name>` if nothing is there yet: straight under its name,
    /// not synced — for state that is the same bytes whoever writes it and is checked
    /// when read (a torn one is refused then). Whether it was written now.
    pub fn write_state_once(&self, sub: &str, name: &str, bytes: &[u8]) -> Result<bool, Error> {
        use std::io::Write;
        let dir = self.state_subdir_created(sub)?;
        let path = format!("{STATE_DIR}/{sub}/{name}");
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        let mut file = match open_file(&dir, name, &path, &mut options) {
            Ok(file) => file,
            Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::AlreadyExists => return Ok(false),
            Err(e) => return Err(e),
        };
        file.write_all(bytes).map_err(Error::Io)?;
        Ok(true)
    }

    /// Keeps `keep` files of `.stitch/<sub>/` whose names `ours` recognises, removing
    /// the rest, and sweeps temp names a killed process left there. The files are ranked
    /// by `rank` of their first `RANK_BYTES` bytes (what stitch wrote there, not a
    /// timestamp anyone may set), highest kept; `written`, the file just written, is
    /// never removed. Only regular files are ever removed, by name in the directory.
    pub fn prune_state(
        &self,
        sub: &str,
        ours: impl Fn(&str) -> bool,
        keep: usize,
        written: &str,
        rank: impl Fn(&[u8]) -> u64,
    ) -> Result<(), Error> {
        let dir = self.state_subdir_created(sub)?;
        sweep(&dir);
        let mut names: Vec<String> = Vec::new();
        for entry in dir.entries().map_err(Error::Io)? {
            let Ok(entry) = entry else { continue };
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            // `DirEntry::metadata` does not follow a link.
            let Ok(meta) = entry.metadata() else { continue };
            if ours(&name) && meta.is_file() && name != written {
                names.push(name);
            }
        }
        let keep = keep.saturating_sub(1);
        // Under the bound, nothing is opened: the names are all it takes to know.
        if names.len() <= keep {
            return Ok(());
        }
        let mut files: Vec<(u64, String)> = Vec::with_capacity(names.len());
        for name in names {
            let path = format!("{STATE_DIR}/{sub}/{name}");
            let mut head = Vec::with_capacity(RANK_BYTES);
            // One that cannot be read ranks lowest: it goes first.
            if let Ok(file) = open_file(&dir, &name, &path, OpenOptions::new().read(true)) {
                let _ = file.take(RANK_BYTES as u64).read_to_end(&mut head);
            }
            files.push((rank(&head), name));
        }
        files.sort_unstable_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        for (_, name) in files.into_iter().skip(keep) {
            // Another process may have pruned it first.
            let _ = dir.remove_file(&name);
        }
        Ok(())
    }
}

impl Workspace {
    /// Whether stitch can keep its state here, as a mutation will need to: `.stitch`
    /// (or, before it exists, the root where it would be made), `tmp/`, `locks/`,
    /// `sessions/` and every lock file writable by this process. [`Error::State`] names
    /// the first that is not (permission denied, a read-only filesystem). Nothing is
    /// created: `faccessat(2)` with `AT_EACCESS` answers for the effective user.
    pub fn probe_state(&self) -> Result<(), Error> {
        use rustix::fs::{Access, AtFlags};
        let writable = |dir: &Dir, name: &str, path: &str| {
            rustix::fs::accessat(dir, name, Access::WRITE_OK, AtFlags::EACCESS)
                .map_err(|e| opening(path, e.into()))
        };
        let Some(state_dir) = self.state_dir(Missing::Leave)? else {
            return writable(&self.dir, ".", STATE_DIR);
        };
        writable(state_dir, ".", STATE_DIR)?;
        for sub in ["tmp", "locks", "sessions"] {
            let path = format!("{STATE_DIR}/{sub}");
            if look(state_dir, sub, &path, Expect::Dir)?.is_some() {
                writable(state_dir, sub, &path)?;
            }
        }
        let Some(locks) = self.state_subdir("locks", Missing::Leave)? else {
            return Ok(());
        };
        for entry in locks.entries().map_err(Error::Io)?.flatten() {
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            let is_lock = std::path::Path::new(&name)
                .extension()
                .is_some_and(|ext| ext == "lock");
            if is_lock && entry.file_type().is_ok_and(|t| t.is_file()) {
                writable(&locks, &name, &format!("{STATE_DIR}/locks/{name}"))?;
            }
        }
        Ok(())
    }
}

/// How much of each file [`Workspace::prune_state`] reads to rank it.
pub const RANK_BYTES: usize = 64;

impl Workspace {
    /// The bytes of `.stitch/config.json` (at most `MAX_CONFIG_BYTES`), `None` when
    /// there is none. `.stitch` and everything known under it are checked first.
    pub fn read_config(&self) -> Result<Option<Vec<u8>>, Error> {
        let Some(state) = self.checked_state_dir(Missing::Leave)? else {
            return Ok(None);
        };
        // Looked at (never followed, a regular file) when `.stitch` was checked.
        if !state.has_config {
            return Ok(None);
        }
        let path = format!("{STATE_DIR}/config.json");
        match read_file(&state.dir, "config.json", &path, MAX_CONFIG_BYTES) {
            Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            read => Ok(Some(read?.0)),
        }
    }

    /// The root's canonical absolute path: the working directory of the authorize
    /// command. Never shown in an envelope.
    #[must_use]
    pub fn root_path(&self) -> &std::path::Path {
        &self.canonical
    }
}

/// How old a staged name must be before it is taken for the leftover of a killed
/// process: a live write holds one for microseconds.
const STALE_STAGING: std::time::Duration = std::time::Duration::from_secs(600);

/// Sweeps `dir` as [`sweep`] does: for the journal's directories.
pub(super) fn sweep_dir(dir: &Dir) {
    sweep(dir);
}

/// Removes staged names that a killed process left in a state directory: only regular
/// files named by [`super::temp_name::unique_name`]'s pattern, by name in the directory (never through a
/// link). The directory is almost always empty, so this is one directory read.
fn sweep(staging: &Dir) {
    let mut ours = Vec::new();
    let listed = each_name(staging, |name| {
        if super::temp_name::is_temp_name(name) {
            ours.push(name.to_owned());
        }
    });
    if listed.is_err() {
        return;
    }
    let now = std::time::SystemTime::now();
    for name in ours {
        let Ok(meta) = staging.symlink_metadata(&name) else {
            continue;
        };
        let old = meta.is_file()
            && meta.modified().is_ok_and(|t| {
                now.duration_since(t.into_std())
                    .is_ok_and(|age| age > STALE_STAGING)
            });
        if old {
            let _ = staging.remove_file(&name);
        }
    }
}

/// `dir`'s entries, read through a descriptor of its own (`dir` itself is an `O_PATH`
/// handle, which getdents(2) does not take).
pub(super) fn read_dir(dir: &Dir) -> Result<rustix::fs::Dir, rustix::io::Errno> {
    use rustix::fs::Mode;
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::NONBLOCK;
    rustix::fs::Dir::new(rustix::fs::openat(dir, ".", flags, Mode::empty())?)
}

/// Calls `each` with every name in `dir` that is UTF-8 (`.` and `..` aside), read in one
/// pass of getdents(2) with no name allocated on the way.
pub(super) fn each_name(dir: &Dir, mut each: impl FnMut(&str)) -> Result<(), Error> {
    for entry in read_dir(dir).map_err(|e| Error::Io(e.into()))? {
        let Ok(entry) = entry else { break };
        match entry.file_name().to_str() {
            Ok("." | "..") | Err(_) => {}
            Ok(name) => each(name),
        }
    }
    Ok(())
}
