//! One typed change: what a mutation does to each of its files — each operation with the
//! version it expects ([`Expected`]) — as one value that the pipeline checks
//! (`Steps::check_change`), the commit publishes ([`super::execute`]), the journal records ([`FileOp::record`]), the
//! authorize hook is shown ([`super::payload::Payload::of_files`]) and the session's
//! ledger is told — so that what is checked, shown, journaled and published cannot drift
//! apart. write, edit, delete, move, apply and undo each convert their request into one,
//! and recovery rolls an entry forward through the same operations.

use crate::text::diff::Stat;
use crate::workspace::{Location, OpenFile, Reuse, Staged, WriteMode};

use super::journal::entry::FileRecord;
use super::journal::{About, Keep, Made, Planned};
use super::session_check::Mutation;

/// A change about to be published: which tool makes it, what it does to each file (in
/// the order it is published), what its entry says besides, and the new versions kept
/// once it is published (so that an undo can merge).
#[derive(Debug)]
pub struct ChangeSet<'a> {
    pub tool: &'static str,
    pub files: Vec<FileOp<'a>>,
    pub about: About,
    /// The new versions the change makes, kept once it is published (up to
    /// [`super::journal::RESULT_MAX_BYTES`] each) so that an undo can merge.
    pub results: Vec<Made<'a>>,
    /// The lines each file gains and loses, when the tool counted them (in the order of
    /// `files`; `None` for a file that is not text): kept in the entry for
    /// `history --stat`.
    pub stat: Vec<Option<Stat>>,
}

impl<'a> ChangeSet<'a> {
    /// A change by `tool` of `files`, with nothing more to say of it.
    #[must_use]
    pub fn of(tool: &'static str, files: Vec<FileOp<'a>>) -> ChangeSet<'a> {
        ChangeSet {
            tool,
            files,
            about: About::default(),
            results: Vec::new(),
            stat: Vec::new(),
        }
    }

    /// This change, keeping its new version `sha` (its bytes: `parts`, in order).
    #[must_use]
    pub fn keeping(mut self, sha: &str, parts: Vec<&'a [u8]>) -> ChangeSet<'a> {
        self.results.push(Made {
            sha: sha.to_owned(),
            parts,
        });
        self
    }

    /// This change, with the lines each of its files gains and loses.
    #[must_use]
    pub fn counted(self, stat: Vec<Option<Stat>>) -> ChangeSet<'a> {
        ChangeSet { stat, ..self }
    }

    /// The journal's record of each file, and how its version before is kept.
    #[must_use]
    pub fn planned(&self) -> Vec<Planned<'a>> {
        self.files
            .iter()
            .map(|file| Planned {
                record: file.record(),
                keep: file.keep,
            })
            .collect()
    }
}

/// The version the caller expects a file to be at before the change (the workspace's
/// `state::Expect`, what kind of entry its own state holds, is another thing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected<'a> {
    /// Whatever is there.
    Any,
    /// Nothing: the change creates the file, and an existing one is not replaced
    /// (`ALREADY_EXISTS`, naming `overwrite`) unless the session read its current version.
    Absent,
    /// The version with this digest (`expectedSha256`; `STALE_VERSION` otherwise).
    Digest(&'a str),
    /// Exactly the version a change left (`None`: absent), as an undo expects every file
    /// of the change it takes back to be: anything else is `STALE_VERSION`.
    Left(Option<&'a str>),
}

impl<'a> Expected<'a> {
    /// This expectation, or the digest the caller named, if any.
    #[must_use]
    pub fn or_named(self, named: Option<&'a str>) -> Expected<'a> {
        named.map_or(self, Expected::Digest)
    }

    /// This expectation, for a change that creates the file: unless `overwrite` (or a
    /// digest is expected), an existing file is not replaced.
    #[must_use]
    pub fn creating(self, overwrite: bool) -> Expected<'a> {
        match self {
            Expected::Any if !overwrite => Expected::Absent,
            other => other,
        }
    }
}

/// A version of a file as read: its digest, `None` when it is absent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsRead(pub Option<String>);

/// New content a change publishes at a path.
#[derive(Debug)]
pub enum New<'a> {
    /// Bytes in memory, staged by the commit in a temp file no one can see (`reuse`: the
    /// unchanged head and tail copied from the file replaced, in the kernel), with `mode`.
    Bytes {
        parts: Vec<&'a [u8]>,
        mode: WriteMode,
        reuse: Option<Reuse<'a>>,
    },
    /// Staged already — and synced — by the tool: a large file's edit, streamed to its
    /// temp file while its digests were computed (or why it could not be).
    Staged(Result<Staged<'a>, crate::workspace::Error>),
    /// The new version kept under the journal's `pending/` as this name: a change
    /// rolled forward by recovery.
    Kept(String),
}

/// What a change does to one path.
#[derive(Debug)]
pub enum Op<'a> {
    /// New content at the path (created, or replacing the file there).
    Write(New<'a>),
    /// The file at the path removed.
    Delete,
    /// The file at `from` brought to the path: renamed as it is (`new` is `None`), or its
    /// new content published at the path and `from` removed. `from_before` names the
    /// version `from` had when the move also changed the content; `link`, the target of a
    /// symbolic link moved as itself; `from_base`, the file at `from` as read;
    /// `from_expect`, the version expected of it.
    Move {
        from: &'a Location,
        from_base: Option<&'a OpenFile>,
        from_before: Option<String>,
        new: Option<New<'a>>,
        link: Option<String>,
        /// The version the source is expected to be at.
        from_expect: Expected<'a>,
        /// The version of the source as read (`None`: absent), when the tool read it
        /// apart from the version the move takes (`from_before`, else `after`): an
        /// undo's, which may have moved on since — the check then refuses it (`""`: no
        /// digest, what is there is not a file).
        from_read: Option<AsRead>,
        /// Whether the source is held to the permissions rule (the caller may write it),
        /// as apply and undo hold every file they remove; a move, as mv, does not.
        from_writable: bool,
    },
    /// A symbolic link to `target` made at the path.
    Link { target: String },
    /// Not known yet: the tool could not make the new content (an edit whose text did
    /// not match), and the change is only checked, so that a guard's refusal (a file the
    /// session never read) comes before the tool's own. Never published.
    Unmade,
    /// The symbolic link to `target` at the path removed (only the link).
    Unlink { target: String },
}

/// One file of a change: where, what, its version before and after, the file it replaces
/// or removes as it was read (looked at once more just before publishing), and how its
/// version before is kept.
#[derive(Debug)]
pub struct FileOp<'a> {
    pub at: &'a Location,
    pub op: Op<'a>,
    /// The version at the path before (`None`: absent), as read.
    pub before: Option<String>,
    /// The version the change expects at the path: whatever is there, nothing, or the
    /// digest the caller named.
    pub expect: Expected<'a>,
    /// The version at the path after (`None`: absent).
    pub after: Option<String>,
    /// The file at the path as read, which the change replaces or removes: it must still
    /// be that file, unchanged, when the change is published.
    pub base: Option<&'a OpenFile>,
    pub keep: Keep<'a>,
    /// What the session's rules are asked about the file (a write, an edit, an edit by
    /// region, an undo).
    pub mutation: Mutation,
    /// Whether the check leaves the question of another writer to the last look just
    /// before the rename (an edit's staged result is published over the file only if it
    /// is still as read, a writer elsewhere included): the check does not ask it first.
    pub looked_at_publish: bool,
    /// What the authorize hook is told the operation is (`create`, `replace`, `edit`,
    /// `write`, `delete`, `move`).
    pub shown_as: &'static str,
    /// The size the hook is told of, when it is.
    pub bytes: Option<u64>,
}

impl<'a> FileOp<'a> {
    /// `op` at `at` from version `before` to `after`, over the file `base` as read,
    /// shown to the hook as `shown_as`: any version expected, nothing kept yet, asked of
    /// the session's rules as a write.
    fn plain(
        at: &'a Location,
        op: Op<'a>,
        (before, after): (Option<String>, Option<String>),
        base: Option<&'a OpenFile>,
        shown_as: &'static str,
    ) -> FileOp<'a> {
        FileOp {
            at,
            op,
            before,
            expect: Expected::Any,
            after,
            base,
            keep: Keep::Nothing,
            mutation: Mutation::Write,
            looked_at_publish: false,
            shown_as,
            bytes: None,
        }
    }

    /// New content `new` (version `after`) at `at`, over the file `base` of version
    /// `before` there, if any.
    #[must_use]
    pub fn write(
        at: &'a Location,
        (before, after): (Option<String>, String),
        new: New<'a>,
        base: Option<&'a OpenFile>,
    ) -> FileOp<'a> {
        FileOp::plain(at, Op::Write(new), (before, Some(after)), base, "write")
    }

    /// The file `base` (version `before`) at `at` removed.
    #[must_use]
    pub fn delete(at: &'a Location, before: String, base: Option<&'a OpenFile>) -> FileOp<'a> {
        FileOp::plain(at, Op::Delete, (Some(before), None), base, "delete")
    }

    /// An operation not known yet at `at` (its version `before`, the file `base` as
    /// read): only checked, never published ([`Op::Unmade`]).
    #[must_use]
    pub fn unmade(
        at: &'a Location,
        before: Option<String>,
        base: Option<&'a OpenFile>,
    ) -> FileOp<'a> {
        FileOp::plain(at, Op::Unmade, (before, None), base, "edit")
    }

    /// This operation, the session's rules asked about it as `mutation`.
    #[must_use]
    pub fn mutating(self, mutation: Mutation) -> FileOp<'a> {
        FileOp { mutation, ..self }
    }

    /// This operation, published over the file it replaces only if that file is still
    /// as read, a writer elsewhere included, looked at just before the rename: the check
    /// leaves the question of a writer to that last look.
    #[must_use]
    pub fn looked_at_publish(self) -> FileOp<'a> {
        FileOp {
            looked_at_publish: true,
            ..self
        }
    }

    /// This operation, keeping the file it replaces or removes (its bytes, when they are
    /// in memory).
    #[must_use]
    pub fn keeping_base(self, bytes: Option<&'a [u8]>) -> FileOp<'a> {
        let keep = match self.base {
            Some(file) => Keep::File {
                location: self.at,
                file,
                bytes,
            },
            None => Keep::Nothing,
        };
        FileOp { keep, ..self }
    }

    /// This operation, expecting the file at its path to be at `expect`.
    #[must_use]
    pub fn expecting(self, expect: Expected<'a>) -> FileOp<'a> {
        FileOp { expect, ..self }
    }

    /// This operation, shown to the hook as `operation` of `bytes` bytes.
    #[must_use]
    pub fn shown(self, operation: &'static str, bytes: Option<u64>) -> FileOp<'a> {
        FileOp {
            shown_as: operation,
            bytes,
            ..self
        }
    }

    /// The path a move takes the file from.
    #[must_use]
    pub fn from(&self) -> Option<&'a Location> {
        match &self.op {
            Op::Move { from, .. } => Some(from),
            _ => None,
        }
    }

    /// The journal's record of this operation.
    #[must_use]
    pub fn record(&self) -> FileRecord {
        let mut record = FileRecord::write(&self.at.real, self.before.clone(), self.after.clone());
        match &self.op {
            Op::Write(_) | Op::Delete | Op::Unmade => {}
            Op::Move {
                from,
                from_before,
                link,
                ..
            } => {
                record.from = Some(from.real.clone());
                record.from_before.clone_from(from_before);
                record.link.clone_from(link);
            }
            Op::Link { target } | Op::Unlink { target } => record.link = Some(target.clone()),
        }
        record
    }

    /// The paths this operation leaves: its own when it removes the file there, and a
    /// move's source.
    pub fn vacated(&self) -> impl Iterator<Item = &str> {
        let removed = self.after.is_none().then_some(self.at.real.as_str());
        removed
            .into_iter()
            .chain(self.from().map(|from| from.real.as_str()))
    }
}
