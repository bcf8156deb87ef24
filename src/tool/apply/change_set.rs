//! Apply's change as the engine's one value ([`ChangeSet`]): for each file the journal
//! records, the operation that makes its new version over the file read there (or
//! removes it, or moves it), how it is staged, and the version before, kept.

use std::collections::BTreeMap;

use crate::affix::{common_prefix, common_suffix};
use crate::engine::change::{ChangeSet, Expected, FileOp, New, Op};
use crate::engine::journal::{FileRecord, Keep};
use crate::engine::session_check::Mutation;
use crate::workspace::{Location, Reuse, WriteMode};

use super::super::edit::stale_read::ByRegion;
use super::build::{self, Body, Held, Original, Slot, Tree};
use super::{mode, summary, ApplyRequest};
use crate::tool::args::Request;

/// The files whose change lands by region (real path → its shown path and what the
/// check by region found).
pub type LandedByRegion = BTreeMap<String, (String, ByRegion)>;

/// The change as one value: for each file the journal records, its new text over the
/// file read there (or its removal, or its move), the version before kept, and each new
/// text kept once published, for an undo's merge.
pub fn change<'a>(
    located: &BTreeMap<&str, &'a Location>,
    (originals, landed): (&'a BTreeMap<String, Original>, &LandedByRegion),
    (records, counted): (&[FileRecord], &summary::Counted<'_>),
    tree: &'a Tree,
) -> ChangeSet<'a> {
    let sources = Sources {
        located,
        originals,
        landed,
        tree,
    };
    let mut files = Vec::with_capacity(records.len());
    let mut results = Vec::new();
    for record in records {
        files.push(sources.file_op(record, &mut results));
    }
    let stat = records
        .iter()
        .map(|record| summary::stat(record, originals, tree, counted))
        .collect();
    let mut change = ChangeSet::of(ApplyRequest::TOOL, files).counted(stat);
    for (sha, bytes) in results {
        change = change.keeping(&sha, vec![bytes]);
    }
    change
}

/// What the change's operations are made from: the files located, as read, as they land
/// and as the change leaves them.
struct Sources<'a, 'l> {
    located: &'l BTreeMap<&'l str, &'a Location>,
    originals: &'a BTreeMap<String, Original>,
    landed: &'l LandedByRegion,
    tree: &'a Tree,
}

impl<'a> Sources<'a, '_> {
    /// The location of a record's real path.
    fn location_of(&self, real: &str) -> &'a Location {
        self.located
            .values()
            .find(|l| l.real == real)
            .copied()
            .expect("every record's path was located")
    }

    /// The operation of one record; a new text is added to `results` by its digest, to
    /// be kept once published.
    fn file_op(&self, record: &FileRecord, results: &mut Vec<(String, &'a [u8])>) -> FileOp<'a> {
        let originals = self.originals;
        let at = self.location_of(&record.path);
        let new = match self.tree.get(&record.path) {
            Some(
                slot @ Slot {
                    held: Held::Text(text),
                    ..
                },
            ) => {
                if let Some(sha) = &record.after {
                    results.push((sha.clone(), text.as_bytes()));
                }
                Some(New::Bytes {
                    parts: vec![text.as_bytes()],
                    mode: write_mode(at, slot, originals),
                    reuse: shared(originals.get(&record.path), text),
                })
            }
            _ => None,
        };
        let bytes = new.as_ref().and_then(|new| match new {
            New::Bytes { parts, .. } => Some(parts.iter().map(|p| p.len() as u64).sum()),
            _ => None,
        });
        let op = match (&record.from, new) {
            (Some(from), new) => Op::Move {
                from: self.location_of(from),
                from_base: originals.get(from).map(|o| &o.file),
                from_before: record.from_before.clone(),
                new,
                link: None,
                from_expect: Expected::Any,
                from_read: None,
                // What an apply removes, at either end of a move, is the caller's to write.
                from_writable: true,
            },
            (None, Some(new)) => Op::Write(new),
            (None, None) => Op::Delete,
        };
        FileOp {
            at,
            op,
            before: record.before.clone(),
            // Each change's expectedSha256 is held to the tree as the changes before it
            // leave it, while the change is built.
            expect: Expected::Any,
            after: record.after.clone(),
            base: originals.get(&record.path).map(|o| &o.file),
            keep: self.keep(record),
            // A file that lands by region is not asked the session's whole-file rule.
            mutation: if self.landed.contains_key(&record.path) {
                Mutation::EditByRegion
            } else {
                Mutation::Write
            },
            looked_at_publish: false,
            shown_as: shown_as(record),
            bytes,
        }
    }

    /// How a record's version before is kept: from the original it was read from, if
    /// any.
    fn keep(&self, record: &FileRecord) -> Keep<'a> {
        match kept_original(record, self.originals) {
            Some((real, o)) => Keep::File {
                location: self.location_of(real),
                file: &o.file,
                bytes: o.bytes(),
            },
            None => Keep::Nothing,
        }
    }
}

/// What a record's change is shown as: a move, a delete, a new file written, or an edit.
fn shown_as(record: &FileRecord) -> &'static str {
    match (&record.from, &record.before, &record.after) {
        (Some(_), ..) => "move",
        (None, _, None) => "delete",
        (None, None, Some(_)) => "write",
        (None, Some(_), Some(_)) => "edit",
    }
}

/// What a file's new text shares with the original it replaces: the unchanged head and
/// tail, which the stage copies from the file read in the kernel when they are large
/// enough to be worth it (`Workspace::stage`; a small file is written from memory as
/// before). Hunks between them are written from memory.
fn shared<'o>(original: Option<&'o Original>, text: &str) -> Option<Reuse<'o>> {
    let original = original?;
    let Body::Text(old) = &original.body else {
        return None;
    };
    let (old, new) = (old.as_bytes(), text.as_bytes());
    let prefix = common_prefix(old, new);
    let room = old.len().min(new.len()) - prefix;
    let suffix = common_suffix(&old[old.len() - room..], &new[new.len() - room..]);
    Some(Reuse {
        source: &original.file,
        prefix,
        suffix,
    })
}

/// The original a record's version before is kept from: the file at its path, or — for a
/// move that changed the content onto a new path — the file at its source.
fn kept_original<'o>(
    record: &FileRecord,
    originals: &'o BTreeMap<String, Original>,
) -> Option<(&'o str, &'o Original)> {
    if let Some((real, o)) = originals.get_key_value(&record.path) {
        return Some((real, o));
    }
    let from = record
        .from
        .as_deref()
        .filter(|_| record.from_before.is_some())?;
    originals
        .get_key_value(from)
        .map(|(real, o)| (real.as_str(), o))
}

/// How the new version of one file is staged. A file moved here from its origin onto no
/// file keeps the origin's permission bits, as a plain move does; the executable bits are
/// then as the change set them, if it did (a new `100755` file is executable wherever the
/// umask leaves it readable, as `git apply` makes one).
fn write_mode(
    location: &Location,
    slot: &Slot,
    originals: &BTreeMap<String, Original>,
) -> WriteMode {
    let executable = slot.executable;
    match originals.get(&location.real) {
        Some(o) => WriteMode::Replace {
            mode: mode::with_executable(o.file.mode, executable),
            uid: o.file.uid,
            gid: o.file.gid,
        },
        None => match build::base_mode(&location.real, slot, originals) {
            Some(mode) => WriteMode::CreateWith {
                mode: mode::with_executable(mode, executable),
            },
            None if executable == Some(true) => WriteMode::CreateExecutable,
            None => WriteMode::CreateNew,
        },
    }
}
