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
