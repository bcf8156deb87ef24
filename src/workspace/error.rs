//! The workspace's own error type: facts about paths and files, never refusals.

use std::io;

use super::path::Invalid;

/// What went wrong below the tool layer. The tool layer turns each case it has a
/// meaning for into a refusal; [`Error::Io`] is a cause with no case.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("invalid path: {0:?}")]
    InvalidPath(Invalid),
    /// The path leads outside the root, lexically or through `link`.
    #[error("the path leads outside the root (through {link:?})")]
    Outside {
        link: Option<String>,
        /// For an absolute link target that lies inside the root: its relative spelling.
        inside_target: Option<String>,
    },
    /// More than 40 links were followed.
    #[error("more than 40 symlinks followed, at {link}")]
    Loop { link: String },
    #[error("not found")]
    NotFound,
    /// `at` is not a directory but a path goes through it.
    #[error("{at} is not a directory")]
    NotADirectory { at: String },
    /// The object is not a regular file.
    #[error("not a regular file")]
    NotAFile,
    #[error("already exists")]
    AlreadyExists,
    /// Another program changed the file while it was read, or between the read and the
    /// rename that would replace it: what was read is not the file whole.
    #[error("changed by another program meanwhile")]
    Changed,
    /// The file may not be replaced by this process: its mode or owner forbids writing
    /// it, or its owner could not be kept on the replacement.
    #[error("not writable: {0:?}")]
    NotWritable(NotWritable),
    /// stitch's own state under `.stitch/` is unusable: `path` (such as `.stitch/tmp`)
    /// is a symlink, a special file, the wrong kind or too large. Never the caller's
    /// path's fault.
    #[error("{path} {}", problem.reason())]
    State { path: String, problem: StateProblem },
    #[error(transparent)]
    Io(io::Error),
}

/// Why a file may not be replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotWritable {
    /// Its permission bits (or owner, or an ACL) do not let this process write it.
    Mode,
    /// It belongs to another user (or a group this process is not in), which a
    /// replacement made by this process could not keep as its owner.
    Owner,
}

impl NotWritable {
    /// A phrase for the refusal's sentence and `details.reason`.
    #[must_use]
    pub fn reason(self) -> &'static str {
        match self {
            NotWritable::Mode => "its permissions do not let this process write it",
            NotWritable::Owner => {
                "its owner is another user or group, which a replacement made by this process could not keep"
            }
        }
    }
}

/// What is wrong with a piece of stitch's own state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateProblem {
    Symlink,
    NotADirectory,
    NotARegularFile,
    TooLarge {
        limit: u64,
    },
    /// It was replaced between the look and the open.
    Changed,
    /// This process may not write it (its mode, its owner): stitch could not keep its
    /// locks, ledgers or staged files there.
    Denied,
    /// It is on a read-only filesystem.
    ReadOnly,
}

impl StateProblem {
    /// A phrase for the refusal's sentence and `details.reason`.
    #[must_use]
    pub fn reason(self) -> String {
        match self {
            StateProblem::Symlink => {
                "is a symbolic link; stitch never follows links in its own state".into()
            }
            StateProblem::NotADirectory => "is not a directory".into(),
            StateProblem::NotARegularFile => {
                "is not a regular file (a directory, FIFO, socket or device)".into()
            }
            StateProblem::TooLarge { limit } => {
                format!("is larger than its bound of {limit} bytes")
            }
            StateProblem::Changed => "was replaced while stitch opened it".into(),
            StateProblem::Denied => {
                "cannot be opened or written by this process (permission denied)".into()
            }
            StateProblem::ReadOnly => "is on a read-only filesystem".into(),
        }
    }
}

impl Error {
    /// Sorts an I/O error from cap-std into a case, or keeps it as a cause.
    #[must_use]
    pub fn classify(e: io::Error) -> Error {
        // cap-std reports an escape as PermissionDenied with no OS error behind it
        // (`openat2` says EXDEV, which it maps the same way).
        if e.kind() == io::ErrorKind::PermissionDenied && e.raw_os_error().is_none() {
            return Error::Outside {
                link: None,
                inside_target: None,
            };
        }
        match e.raw_os_error().map(rustix::io::Errno::from_raw_os_error) {
            Some(rustix::io::Errno::NOENT) => Error::NotFound,
            Some(rustix::io::Errno::EXIST) => Error::AlreadyExists,
            Some(rustix::io::Errno::LOOP) => Error::Loop {
                link: String::new(),
            },
            // A path that resolving links made longer than the kernel takes.
            Some(rustix::io::Errno::NAMETOOLONG) => Error::InvalidPath(Invalid::TooLong {
                bytes: super::path::MAX_PATH_BYTES + 1,
            }),
            Some(rustix::io::Errno::XDEV) => Error::Outside {
                link: None,
                inside_target: None,
            },
            _ => Error::Io(e),
        }
    }
}
