//! The program an authorize command runs, found as it is run and, when it lies inside
//! the workspace, read through the root handle, so that trust can pin its bytes: a tool
//! or a `git pull` that rewrites `./scripts/approve` ends the trust instead of running
//! new code under it.
//!
//! A program spelled with a `/` is that path (relative ones from the root, where the hook
//! runs); a bare name is looked for along `PATH` as execvp(3) does — the first directory
//! holding an executable file of that name — where a relative or empty entry is a
//! directory of the workspace. A program inside that leads out through a symlink cannot
//! be pinned, and nor can one that cannot be spelled as a workspace path: trust then
//! cannot be had (fail closed). Programs outside are the person's own.

use std::ffi::OsStr;
use std::path::Path;

use super::{Error, Kind, OpenFile, Workspace};

/// Where an authorize command's program is, as far as trust is concerned.
#[derive(Debug)]
pub enum Program {
    /// Outside the workspace (or, for a name looked for along `PATH`, nowhere): the
    /// person's own, not pinned.
    Outside,
    /// Inside the workspace at `shown` (workspace-relative): the file open for reading,
    /// or `None` where nothing runnable is there now (nothing, a directory, a FIFO).
    Inside {
        shown: String,
        file: Option<OpenFile>,
    },
    /// Inside the workspace but not pinnable: `reason` says why.
    Unpinnable { shown: String, reason: &'static str },
}

/// The reason of a program that leads out of the root through a link.
const LEADS_OUT: &str = "leads outside the workspace through a symbolic link";

impl Workspace {
    /// The program at `path` — absolute, or relative to the root — as the hook would run
    /// it.
    #[must_use]
    pub fn program_at(&self, path: &str) -> Program {
        let relative = if Path::new(path).is_absolute() {
            match self.relative_spelling(path) {
                Some(relative) => relative,
                None => return Program::Outside,
            }
        } else {
            path.to_owned()
        };
        match self.program_inside(&relative) {
            Ok(found) => found,
            Err(program) => program,
        }
    }

    /// The program named `name` (no `/`), found along `path_var` as execvp(3) finds it.
    /// Found nowhere, nothing runs and nothing is pinned; should it appear inside the
    /// workspace later, what is pinned changes, and the trust with it.
    #[must_use]
    pub fn program_on_path(&self, name: &str, path_var: &OsStr) -> Program {
        for dir in path_var.as_encoded_bytes().split(|&b| b == b':') {
            let Ok(dir) = std::str::from_utf8(dir) else {
                continue;
            };
            let dir = if dir.is_empty() { "." } else { dir };
            let candidate = format!("{}/{name}", dir.trim_end_matches('/'));
            let relative = if Path::new(dir).is_absolute() {
                self.relative_spelling(&candidate)
            } else {
                Some(candidate.clone())
            };
            // Where the hook would find it: relative entries are from the root, where the
            // hook runs.
            let at = self.root_path().join(&candidate);
            let Some(relative) = relative else {
                if runnable_unchecked(&at) {
                    return Program::Outside;
                }
                continue;
            };
            match self.program_inside(&relative) {
                Ok(found) if runnable(&found) => return found,
                Ok(_) => {}
                // A directory on PATH that lies (or leads) outside: the person's own.
                Err(
                    Program::Outside
                    | Program::Unpinnable {
                        reason: LEADS_OUT, ..
                    },
                ) => {
                    if runnable_unchecked(&at) {
                        return Program::Outside;
                    }
                }
                Err(program) => return program,
            }
        }
        Program::Outside
    }

    /// The program at the workspace-relative `relative`: `Ok` with what is there, or
    /// `Err` with what to answer at once (outside lexically, or not pinnable).
    fn program_inside(&self, relative: &str) -> Result<Program, Program> {
        // How it is named to people: normalised, as a located path is.
        let shown = || {
            self.relative_spelling(relative)
                .unwrap_or_else(|| relative.to_owned())
        };
        let location = match self.locate(relative) {
            Ok(location) => location,
            Err(Error::Outside { link: None, .. }) => return Err(Program::Outside),
            Err(Error::Outside { link: Some(_), .. }) => {
                return Err(Program::Unpinnable {
                    shown: shown(),
                    reason: LEADS_OUT,
                })
            }
            Err(Error::InvalidPath(_)) => {
                return Err(Program::Unpinnable {
                    shown: shown(),
                    reason: "cannot be spelled as a workspace path",
                })
            }
            Err(_) => {
                return Ok(Program::Inside {
                    shown: shown(),
                    file: None,
                })
            }
        };
        let file = match location.kind {
            Some(Kind::File) => self.open_file(&location).ok(),
            _ => None,
        };
        Ok(Program::Inside {
            shown: location.shown,
            file,
        })
    }
}

/// Whether a found program can be executed: some execute bit is set.
fn runnable(program: &Program) -> bool {
    matches!(program, Program::Inside { file: Some(file), .. } if file.mode & 0o111 != 0)
}

/// Whether the absolute `path` outside the workspace is an executable regular file, as
/// execvp(3) looks. Path-based: never a workspace path.
#[allow(clippy::disallowed_methods)]
fn runnable_unchecked(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
