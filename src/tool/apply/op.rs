//! One part of an apply ([`Part`]: one item of its request), in the one shape every form
//! it came in is brought to — a patch's file change, a `changes` item, a Responses API
//! operation — with what it does ([`Action`]), the version its file must be at, and how
//! a file it writes may meet one that exists. (The engine's change of a whole call is
//! `engine::change::ChangeSet`, each file's operation an `engine::change::Op`.)

use crate::patch::{self, FileChange};

use super::super::edit::request::{EditItem, Form};

/// How a written file may meet one that exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Added {
    /// A patch's added file (Codex `*** Add File`, a new file of a diff, `create_file`):
    /// never replaces one.
    ByPatch,
    /// A `write` item: replaces one as write_file does (`overwrite`, a matching
    /// `expectedSha256`, or the session's observation of it).
    ByWrite { overwrite: bool },
}

/// What one part of an apply does, in the one shape every form is brought to.
#[derive(Debug, Clone)]
pub enum Action {
    /// The file's whole content; a new file executable when `executable` says so.
    Write {
        path: String,
        content: String,
        added: Added,
        executable: Option<bool>,
    },
    /// A file removed; a deletion's hunk (`whole`), when the patch has one, names what
    /// the file must hold.
    Delete {
        path: String,
        whole: Option<patch::Hunk>,
    },
    /// A patch's hunks, a move after them when `move_to` says where, and the executable
    /// bit set or cleared when `executable` says.
    Update {
        path: String,
        move_to: Option<String>,
        hunks: Vec<patch::Hunk>,
        executable: Option<bool>,
    },
    /// edit_file's replacements, and the form they came in.
    Edit {
        path: String,
        items: Vec<EditItem>,
        form: Form,
    },
    Move {
        from: String,
        to: String,
        overwrite: bool,
    },
}

/// One part of an apply — one item of its request, one file change of its patch — and
/// the version its file must be at.
#[derive(Debug, Clone)]
pub struct Part {
    pub op: Action,
    pub expected_sha256: Option<String>,
}

impl Part {
    /// A patch's file change.
    #[must_use]
    pub fn of_patch(change: FileChange) -> Part {
        let op = match change {
            FileChange::Add {
                path,
                content,
                executable,
            } => Action::Write {
                path,
                content,
                added: Added::ByPatch,
                executable,
            },
            FileChange::Delete { path, whole } => Action::Delete { path, whole },
            FileChange::Update {
                path,
                move_to,
                hunks,
                executable,
            } => Action::Update {
                path,
                move_to,
                hunks,
                executable,
            },
        };
        Part {
            op,
            expected_sha256: None,
        }
    }

    /// The path and whole text of a file the patch adds (not a `write` item, which may
    /// replace one).
    #[must_use]
    pub fn added(&self) -> Option<(&str, &str)> {
        match &self.op {
            Action::Write {
                path,
                content,
                added: Added::ByPatch,
                ..
            } => Some((path, content)),
            _ => None,
        }
    }

    /// Every path the change names, as the caller wrote them.
    #[must_use]
    pub fn paths(&self) -> Vec<&str> {
        match &self.op {
            Action::Write { path, .. }
            | Action::Delete { path, .. }
            | Action::Edit { path, .. } => {
                vec![path]
            }
            Action::Update { path, move_to, .. } => std::iter::once(path.as_str())
                .chain(move_to.as_deref())
                .collect(),
            Action::Move { from, to, .. } => vec![from, to],
        }
    }
}
