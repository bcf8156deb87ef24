//! The reserved state directory `.stitch/`: lock files, and later ledgers.
//!
//! It is created on first need with a `.gitignore` that keeps everything but
//! `config.json` out of git. Its files are opened through the root handle like any other.

use cap_std::fs::{Dir, OpenOptions};

use super::{Error, Workspace};

/// The name of the reserved directory at the root.
pub const STATE_DIR: &str = ".stitch";

const GITIGNORE: &str =
    "# stitch's state: locks, ledgers and temporary files.\n*\n!.gitignore\n!config.json\n";

impl Workspace {
    /// Opens (creating if needed) `.stitch/<sub>/`.
    pub(super) fn state_subdir(&self, sub: &str) -> Result<Dir, Error> {
        let path = format!("{STATE_DIR}/{sub}");
        match self.dir.open_dir(&path) {
            Ok(dir) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::classify(e)),
        }
        match self.dir.create_dir(STATE_DIR) {
            Ok(()) => {
                // Best effort: a missing .gitignore only means git may show the folder.
                let _ = self.dir.write(format!("{STATE_DIR}/.gitignore"), GITIGNORE);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(Error::classify(e)),
        }
        match self.dir.create_dir(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(Error::classify(e)),
        }
        self.dir.open_dir(&path).map_err(Error::classify)
    }

    /// Opens (creating if needed, never truncating) the lock file `name` under
    /// `.stitch/locks/`. Lock files are never replaced, so a lock on one holds.
    pub fn lock_file(&self, name: &str) -> Result<std::fs::File, Error> {
        let dir = self.state_subdir("locks")?;
        let mut options = OpenOptions::new();
        options.read(true).write(true).create(true);
        dir.open_with(name, &options)
            .map(cap_std::fs::File::into_std)
            .map_err(Error::classify)
    }
}

impl Workspace {
    /// Reads `.stitch/<sub>/<name>`, `None` when it does not exist.
    pub fn read_state(&self, sub: &str, name: &str) -> Result<Option<Vec<u8>>, Error> {
        match self.dir.read(format!("{STATE_DIR}/{sub}/{name}")) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::classify(e)),
        }
    }

    /// Replaces `.stitch/<sub>/<name>` atomically (temp file, fsync, rename).
    pub fn write_state(&self, sub: &str, name: &str, bytes: &[u8]) -> Result<(), Error> {
        use std::io::Write;
        let dir = self.state_subdir(sub)?;
        let temp = format!(".{name}.{}.tmp", std::process::id());
        let mut options = OpenOptions::new();
        options.write(true).create(true).truncate(true);
        let mut file = dir.open_with(&temp, &options).map_err(Error::classify)?;
        file.write_all(bytes).map_err(Error::Io)?;
        file.sync_all().map_err(Error::Io)?;
        dir.rename(&temp, &dir, name).map_err(Error::classify)
    }

    /// Keeps the `keep` most recently modified files of `.stitch/<sub>/` whose names end
    /// with `suffix`, removing the rest.
    pub fn prune_state(&self, sub: &str, suffix: &str, keep: usize) -> Result<(), Error> {
        let dir = self.state_subdir(sub)?;
        let mut files: Vec<(std::time::SystemTime, std::ffi::OsString)> = Vec::new();
        for entry in dir.entries().map_err(Error::classify)? {
            let entry = entry.map_err(Error::classify)?;
            let name = entry.file_name();
            if !name.to_string_lossy().ends_with(suffix) {
                continue;
            }
            let modified = entry
                .metadata()
                .and_then(|m| m.modified())
                .map_or(std::time::UNIX_EPOCH, cap_std::time::SystemTime::into_std);
            files.push((modified, name));
        }
        if files.len() <= keep {
            return Ok(());
        }
        files.sort_unstable_by_key(|f| std::cmp::Reverse(f.0));
        for (_, name) in files.into_iter().skip(keep) {
            // Another process may have pruned it first.
            let _ = dir.remove_file(&name);
        }
        Ok(())
    }
}

impl Workspace {
    /// The bytes of `.stitch/config.json`, `None` when there is none.
    pub fn read_config(&self) -> Result<Option<Vec<u8>>, Error> {
        match self.dir.read(format!("{STATE_DIR}/config.json")) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::classify(e)),
        }
    }

    /// The root's canonical absolute path: the working directory of the authorize
    /// command. Never shown in an envelope.
    #[must_use]
    pub fn root_path(&self) -> &std::path::Path {
        &self.canonical
    }
}
