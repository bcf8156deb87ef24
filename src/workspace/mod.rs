//! Containment: the only code that touches the filesystem.
//!
//! The root is opened once as a cap-std [`Dir`]; every open, create, rename and walk is
//! relative to that handle, so the kernel (`openat2` with `RESOLVE_BENEATH`, or
//! cap-std's `O_NOFOLLOW` component walk where `openat2` is missing) refuses any path
//! that leads outside. No workspace path is handed to a path-based syscall. The rest of
//! the crate sees workspace-relative strings and this module's [`Error`], which states
//! facts and knows nothing of refusals or hints.

// The one place allowed to call the filesystem: see clippy.toml.
#![allow(clippy::disallowed_methods)]

mod atomic;
mod error;
mod file;
mod guard;
pub mod home;
pub mod journal_files;
mod key;
mod link;
pub mod path;
mod program;
mod resolve;
mod state;
mod temp_name;
mod tree;
mod user_state;
pub mod walk;

use std::path::{Path, PathBuf};

use cap_std::ambient_authority;
use cap_std::fs::Dir;

pub use atomic::{sync_all, sync_all_beside, Dirty, Reuse, Staged, WriteMode};
pub use error::{Error, NotWritable, StateProblem};
pub use file::OpenFile;
pub use key::KEY_BYTES;
pub use program::Program;
pub use resolve::Kind;
pub use tree::Replace;
pub use user_state::UserDir;

use path::{join, Lexed};

/// The workspace: one root directory handle and the spellings of its path.
#[derive(Debug)]
pub struct Workspace {
    dir: Dir,
    /// The root as the caller named it, made absolute.
    given: PathBuf,
    /// The root with every symlink resolved.
    canonical: PathBuf,
    /// `.stitch`, once opened and checked (see [`state`]).
    state: std::sync::OnceLock<state::StateDir>,
    /// `.stitch/journal/`'s directories, once opened.
    journal: journal_files::Dirs,
    /// `.stitch/locks/`, once opened: a change takes its files' locks and the journal's.
    locks: std::sync::OnceLock<Dir>,
    /// stitch's user-level directories, by identity, once looked up (see [`user_state`]).
    user_state: std::sync::OnceLock<user_state::UserState>,
}

/// Why the root itself cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum RootError {
    #[error("the root does not exist")]
    Missing,
    #[error("the root is not a directory")]
    NotADirectory,
    #[error(transparent)]
    Io(std::io::Error),
}

/// A caller's path, located: how to show it and where it really is.
#[derive(Debug, Clone)]
pub struct Location {
    /// The lexically normalised path the caller wrote, workspace-relative.
    pub shown: String,
    /// The real path below the root, links followed.
    pub real: String,
    /// The caller wrote a trailing `/`.
    pub trailing_slash: bool,
    /// The kind of the object, when it exists.
    pub kind: Option<Kind>,
    /// Directories (workspace-relative, outermost first) that do not exist yet on the
    /// way to the object, the object itself excluded.
    pub missing_dirs: Vec<String>,
    /// The real components, for protection checks.
    components: Vec<String>,
    /// The components the caller wrote, for protection checks.
    shown_components: Vec<String>,
    /// The (device, inode) of each leading real component that exists, for protection
    /// checks by identity.
    ids: Vec<(u64, u64)>,
}

/// Whether components name `.stitch` or something below it (in any letter case, for
/// case-insensitive filesystems).
fn reserved(components: &[String]) -> bool {
    components
        .first()
        .is_some_and(|n| n.eq_ignore_ascii_case(state::STATE_DIR))
}

impl Location {
    /// Whether the path (as written or as resolved) is `.stitch` or below it.
    #[must_use]
    pub fn is_reserved(&self) -> bool {
        reserved(&self.components) || reserved(&self.shown_components)
    }

    /// Whether the path is reserved only where it resolves: a symlink leads into
    /// `.stitch/` from a path spelled elsewhere.
    #[must_use]
    pub fn is_reserved_through_link(&self) -> bool {
        reserved(&self.components) && !reserved(&self.shown_components)
    }

    /// Whether the path (as written or as resolved) lies in a `.git` directory.
    #[must_use]
    pub fn is_git(&self) -> bool {
        let any = |c: &[String]| c.iter().any(|n| n.eq_ignore_ascii_case(".git"));
        any(&self.components) || any(&self.shown_components)
    }

    /// Whether this is the root itself.
    #[must_use]
    pub fn is_root(&self) -> bool {
        self.components.is_empty()
    }
}

/// The shell's spelling of the working directory (`$PWD`), when it names the same
/// directory as `cwd`, the open working directory: a caller in a directory reached
/// through a symlink writes absolute paths that way, and they must count as inside the
/// root.
fn logical_cwd(cwd: &Dir) -> Option<PathBuf> {
    use cap_std::fs::MetadataExt;
    let pwd = PathBuf::from(std::env::var_os("PWD")?);
    if !pwd.is_absolute() {
        return None;
    }
    let (a, b) = (std::fs::metadata(&pwd).ok()?, cwd.dir_metadata().ok()?);
    (std::os::unix::fs::MetadataExt::dev(&a) == b.dev()
        && std::os::unix::fs::MetadataExt::ino(&a) == b.ino())
    .then_some(pwd)
}

/// Sorts an error met opening the root.
fn root_error(e: std::io::Error) -> RootError {
    match e.kind() {
        std::io::ErrorKind::NotFound => RootError::Missing,
        std::io::ErrorKind::NotADirectory => RootError::NotADirectory,
        _ => RootError::Io(e),
    }
}

impl Workspace {
    /// Opens the root once; every later access is relative to this handle.
    pub fn open(root: &Path) -> Result<Workspace, RootError> {
        let (dir, given, canonical) = if root == Path::new(".") {
            // The working directory, the usual root: the kernel spells it with every link
            // resolved (getcwd(2)), and fails when it was removed.
            let dir = Dir::open_ambient_dir(".", ambient_authority()).map_err(root_error)?;
            let canonical = std::env::current_dir().map_err(root_error)?;
            let given = logical_cwd(&dir).unwrap_or_else(|| canonical.clone());
            (dir, given, canonical)
        } else {
            let given = std::path::absolute(root).map_err(RootError::Io)?;
            let canonical = match std::fs::canonicalize(&given) {
                Ok(c) => c,
                // A component on the way is a file: there is no such directory.
                Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {
                    return Err(RootError::Missing)
                }
                Err(e) => return Err(root_error(e)),
            };
            let dir = Dir::open_ambient_dir(&canonical, ambient_authority()).map_err(root_error)?;
            (dir, given, canonical)
        };
        Ok(Workspace {
            dir,
            given,
            canonical,
            state: std::sync::OnceLock::new(),
            journal: journal_files::Dirs::default(),
            locks: std::sync::OnceLock::new(),
            user_state: std::sync::OnceLock::new(),
        })
    }

    /// The same root, through a new descriptor of the directory opened at start: a
    /// long-running front end keeps serving the directory it opened, whatever is renamed
    /// or swapped at its path later.
    pub fn try_clone(&self) -> std::io::Result<Workspace> {
        Ok(Workspace {
            dir: self.dir.try_clone()?,
            given: self.given.clone(),
            canonical: self.canonical.clone(),
            state: std::sync::OnceLock::new(),
            journal: journal_files::Dirs::default(),
            locks: std::sync::OnceLock::new(),
            user_state: std::sync::OnceLock::new(),
        })
    }

    fn roots(&self) -> [&Path; 2] {
        [self.given.as_path(), self.canonical.as_path()]
    }

    /// The root-relative spelling of an absolute path inside the root, lexically (no
    /// links followed), or `None` when it lies elsewhere.
    #[must_use]
    pub fn relative_spelling(&self, absolute: &str) -> Option<String> {
        match path::lex(absolute, &self.roots()) {
            Lexed::Inside { components, .. } => Some(join(&components)),
            Lexed::Invalid(_) | Lexed::Outside => None,
        }
    }

    /// Lexes and resolves a caller's path. Nothing is created.
    pub fn locate(&self, raw: &str) -> Result<Location, Error> {
        let roots = self.roots();
        let (components, trailing_slash) = match path::lex(raw, &roots) {
            Lexed::Inside {
                components,
                trailing_slash,
            } => (components, trailing_slash),
            Lexed::Invalid(invalid) => return Err(Error::InvalidPath(invalid)),
            Lexed::Outside => {
                return Err(Error::Outside {
                    link: None,
                    inside_target: None,
                })
            }
        };
        let resolved = resolve::resolve(&self.dir, &components, &roots)?;
        let missing_dirs = match resolved.missing_from {
            Some(from) => (from + 1..resolved.real.len())
                .map(|end| join(&resolved.real[..end]))
                .collect(),
            None => Vec::new(),
        };
        Ok(Location {
            shown: join(&components),
            real: join(&resolved.real),
            trailing_slash,
            kind: resolved.kind,
            missing_dirs,
            components: resolved.real,
            shown_components: components,
            ids: resolved.ids,
        })
    }
}
