//! What an apply reports and journals, from what it built: one result entry per change,
//! in order, and one journal record per file — a file moved (and perhaps edited on the
//! way) is one record with `from`, so that an undo moves it back with its old content.

use std::collections::{BTreeMap, BTreeSet};

use crate::digest::sha256_hex;
use crate::text::diff;
use crate::workspace::Location;

use super::super::edit::MAX_DIFF_BYTES;
use super::build::{Body, Built, Effect, Held, Original, Slot, Tree};
use super::mode::executable_mode;
use super::{Changed, HunkPlaced};
use crate::engine::journal::FileRecord;
use crate::text::diff::Stat;

/// Digests of the texts a summary has hashed, found again by their content: a file's new
/// text is both its change's `sha256` and its journal record's `after`, and an original's
/// text has its digest already.
#[derive(Default)]
struct Digests<'a>(std::cell::RefCell<std::collections::HashMap<usize, Vec<(&'a str, String)>>>);

impl<'a> Digests<'a> {
    fn known(&self, text: &'a str, sha256: &str) {
        let mut by_len = self.0.borrow_mut();
        by_len
            .entry(text.len())
            .or_default()
            .push((text, sha256.to_owned()));
    }

    fn of(&self, text: &'a str) -> String {
        let found = self.0.borrow().get(&text.len()).and_then(|same| {
            same.iter()
                .find(|(t, _)| *t == text)
                .map(|(_, sha)| sha.clone())
        });
        found.unwrap_or_else(|| {
            let sha = sha256_hex(text.as_bytes());
            self.known(text, &sha);
            sha
        })
    }
}

/// The lines each diff of the result adds and removes, by the texts it was made from:
/// a record between the same two texts is counted from its diff, not by another.
#[derive(Debug, Default)]
pub struct Counted<'a>(Vec<(&'a str, &'a str, Stat)>);

impl Counted<'_> {
    /// The stat of a diff made of `old` → `new`, if one was.
    fn get(&self, old: &str, new: &str) -> Option<Stat> {
        self.0
            .iter()
            .find(|(o, n, _)| {
                o.len() == old.len() && n.len() == new.len() && *o == old && *n == new
            })
            .map(|&(_, _, stat)| stat)
    }
}

/// The result's changes, the journal's records, and what each change's diff counted.
pub fn summary<'a>(
    built: &'a Built,
    located: &BTreeMap<&str, &Location>,
    originals: &BTreeMap<String, Original>,
) -> (Vec<Changed>, Vec<FileRecord>, Counted<'a>) {
    let location = |real: &str| located.values().find(|l| l.real == real);
    let shown = |real: &str| location(real).map_or_else(|| real.to_owned(), |l| l.shown.clone());
    let digests = Digests::default();
    for original in originals.values() {
        if let Body::Text(text) = &original.body {
            digests.known(text, &original.sha256);
        }
    }
    let mut changes = Vec::new();
    let mut counted = Counted::default();
    for Effect {
        operation,
        real,
        from,
        landed,
        base_sha256,
        before,
        after,
        executable,
    } in &built.effects
    {
        let (old, new) = (
            before.as_deref().unwrap_or(""),
            after.as_deref().unwrap_or(""),
        );
        // A patch's update is diffed where its hunks landed; anything else, whole.
        let diff = landed
            .spans
            .as_ref()
            .and_then(|spans| diff::unified_regions(&shown(real), old, new, spans, MAX_DIFF_BYTES))
            .unwrap_or_else(|| diff::unified(&shown(real), old, new, MAX_DIFF_BYTES));
        counted.0.push((old, new, diff.stat));
        let created = after.is_some() && base_sha256.is_none()
            || *operation == "move" && !originals.contains_key(real);
        changes.push(Changed {
            path: shown(real),
            operation,
            from: from.as_deref().map(shown),
            base_sha256: base_sha256.clone(),
            sha256: after.as_deref().map(|t| digests.of(t)),
            bytes: after.as_deref().map(str::len),
            created,
            created_directories: match (after, location(real)) {
                (Some(_), Some(l)) => l.missing_dirs.clone(),
                _ => Vec::new(),
            },
            hunks: landed
                .placed
                .iter()
                .map(|p| HunkPlaced {
                    line: p.line,
                    offset: p.offset,
                    recounted: p.recounted,
                })
                .collect(),
            mode: executable.map(|x| if x { "100755" } else { "100644" }),
            stale_read: false,
            foreign_changes: Vec::new(),
            diff: diff.text,
        });
    }
    (changes, records(built, originals, &digests), counted)
}

/// Whether `slot` leaves the executable bit of `original`, its origin, as it was.
fn unchanged_mode(original: &Original, slot: &Slot) -> bool {
    slot.executable
        .is_none_or(|x| x == executable_mode(original.file.mode))
}

/// One record per path whose content differs at the end from what it was; a file that
/// ends at another path than its original's, now absent, is one record of a move.
fn records<'a>(
    built: &'a Built,
    originals: &BTreeMap<String, Original>,
    digests: &Digests<'a>,
) -> Vec<FileRecord> {
    let digest = |held: &'a Held, real: &str| match held {
        Held::Absent => None,
        Held::Text(text) => Some(digests.of(text)),
        Held::Opaque => originals.get(real).map(|o| o.sha256.clone()),
    };
    let mut records = Vec::new();
    let mut in_moves: BTreeSet<&str> = BTreeSet::new();
    for (real, slot) in &built.tree {
        let Some(origin) = slot.origin.as_deref().filter(|o| *o != real) else {
            continue;
        };
        let (Some(source), Some(vacated)) = (originals.get(origin), built.tree.get(origin)) else {
            continue;
        };
        if vacated.held != Held::Absent || in_moves.contains(origin) {
            continue;
        }
        let before = originals.get(real).map(|o| o.sha256.clone());
        let after = digest(&slot.held, real);
        // A file moved with its mode changed is put back as its kept version, with the
        // mode it had, not renamed back as it is.
        let from_before = (after.as_deref() != Some(source.sha256.as_str())
            || !unchanged_mode(source, slot))
        .then(|| source.sha256.clone());
        // The journal keeps one version per record: a file moved and edited onto one
        // that existed is recorded as that file's delete and a write instead.
        if from_before.is_some() && before.is_some() {
            continue;
        }
        records.push(FileRecord {
            path: real.clone(),
            from: Some(origin.to_owned()),
            before,
            after,
            from_before,
            bytes: 0,
            unfinished: false,
            mode: None,
            link: None,
        });
        in_moves.insert(origin);
        in_moves.insert(real);
    }
    for (real, slot) in &built.tree {
        if in_moves.contains(real.as_str()) {
            continue;
        }
        let before = originals.get(real).map(|o| o.sha256.clone());
        let after = digest(&slot.held, real);
        // A mode changed alone is a record whose versions are the same: an undo puts the
        // kept version back, with the mode the journal recorded for it.
        let mode_changed = originals
            .get(real)
            .is_some_and(|o| after.is_some() && !unchanged_mode(o, slot));
        if before != after || mode_changed {
            records.push(FileRecord::write(real, before, after));
        }
    }
    records
}

/// The lines the change adds to and removes from the file of `record`, from its original
/// (for a move that changed the content, its source's) to what the change leaves there;
/// `None` when either is not text. A file moved as it is gains and loses nothing. A
/// record between the texts of one of the result's diffs takes that diff's count.
pub fn stat(
    record: &FileRecord,
    originals: &BTreeMap<String, Original>,
    tree: &Tree,
    counted: &Counted<'_>,
) -> Option<Stat> {
    let new = match tree.get(&record.path).map(|slot| &slot.held) {
        Some(Held::Text(text)) => text.as_str(),
        Some(Held::Opaque) => return None,
        Some(Held::Absent) | None => "",
    };
    let old = match (&record.from, &record.from_before) {
        (Some(_), None) => new,
        (Some(from), Some(_)) => originals.get(from)?.text()?,
        (None, _) => match originals.get(&record.path) {
            Some(original) => original.text()?,
            None => "",
        },
    };
    Some(
        counted
            .get(old, new)
            .unwrap_or_else(|| crate::text::diff::stat(old, new)),
    )
}
