//! What the journal says of the files now: what is at a path ([`current`]), which entry
//! an "already applied" result names ([`applied_by`], [`result_of`]), and the lines each
//! file of an entry gained and lost ([`stat`]), an undo's read off the change it undid.

use super::entry::{self, Entry, FileRecord};
use super::Store;
use crate::engine::Context;

/// What is at a path now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Now {
    Absent,
    /// A regular file with this digest (or a symbolic link, with its version).
    File(String),
    /// Something that cannot be told apart: a directory, a special file, an error.
    Other,
}

impl Now {
    /// Whether this is the version `expected` (`None`: absent).
    #[must_use]
    pub fn is(&self, expected: Option<&str>) -> bool {
        match (self, expected) {
            (Now::Absent, None) => true,
            (Now::File(sha), Some(expected)) => sha == expected,
            _ => false,
        }
    }

    /// The digest, when it is a regular file.
    #[must_use]
    pub fn sha256(&self) -> Option<&str> {
        match self {
            Now::File(sha) => Some(sha),
            _ => None,
        }
    }
}

/// What is at the real path `real` now: a symbolic link there is taken as itself, its
/// version [`entry::link_version`] of its target.
pub fn current(ctx: &Context, real: &str) -> Now {
    use crate::workspace::Kind;
    let Ok(location) = ctx.ws.locate_own(real) else {
        return Now::Other;
    };
    match location.kind {
        None => Now::Absent,
        Some(Kind::Link) => ctx
            .ws
            .read_link(&location)
            .map_or(Now::Other, |target| Now::File(entry::link_version(&target))),
        Some(Kind::File) => match ctx
            .ws
            .open_file(&location)
            .and_then(|mut f| f.sha256().map_err(crate::workspace::Error::Io))
        {
            Ok(sha) => Now::File(sha),
            Err(_) => Now::Other,
        },
        Some(_) => Now::Other,
    }
}

/// The newest change in the journal (not taken back) that applied every edit of `edits`
/// (each an `oldText` and its `newText`) to the file at the real path `real`, whose result
/// is still in `current_text`: the change an "already applied" result names.
pub fn applied_by(
    ctx: &Context,
    real: &str,
    edits: &[(&str, &str)],
    current_text: &str,
) -> Option<String> {
    let store = Store::open(ctx).ok()?;
    let mut listing = store.newest_first().ok()?;
    let wanted: Vec<[String; 2]> = edits
        .iter()
        .map(|(old, new)| {
            [
                crate::digest::sha256_hex(old.as_bytes()),
                crate::digest::sha256_hex(new.as_bytes()),
            ]
        })
        .collect();
    let now = crate::digest::sha256_hex(current_text.as_bytes());
    // The result is still there when the file is the version the edit wrote, or when its
    // newText is there once and what its oldText stood for is not (the file changed since
    // by other edits): a file changed back by hand, with newText elsewhere, is not.
    let still_there = |after: Option<&String>| {
        after == Some(&now)
            || edits.iter().all(|(old_text, new_text)| {
                crate::text::matching::locate(current_text, new_text, "")
                    .offsets
                    .len()
                    == 1
                    && !crate::text::applied::old_still_there(current_text, old_text, new_text)
            })
    };
    while let Some(e) = listing.next() {
        let found = !listing.undone().contains(&e.id)
            && wanted.iter().all(|w| e.edits.contains(w))
            && e.files
                .iter()
                .any(|f| f.path == real && still_there(f.after.as_ref()));
        if found {
            return Some(e.id);
        }
    }
    None
}

/// The newest change in the journal (not taken back) whose result every file of `files`
/// (real paths) still is, and which touched each of them: the change an "already applied"
/// patch names.
pub fn result_of(ctx: &Context, files: &[&str]) -> Option<String> {
    let store = Store::open(ctx).ok()?;
    let mut listing = store.newest_first().ok()?;
    let entry = loop {
        let e = listing.next()?;
        let found = !listing.undone().contains(&e.id)
            && files.iter().all(|path| {
                e.files
                    .iter()
                    .any(|f| f.path == *path || f.from.as_deref() == Some(path))
            });
        if found {
            break e;
        }
    };
    entry
        .files
        .iter()
        .flat_map(FileRecord::states_after)
        .all(|(path, after)| current(ctx, path).is(after))
        .then(|| entry.id.clone())
}

/// The lines each file of `entry` gained and lost (in the order of its files): as the
/// entry kept them, or — for an undo that kept none — its target's, the other way round,
/// the target read from `store`, as an undo puts each file back to its version before.
#[must_use]
pub fn stat(entry: &Entry, store: &Store<'_>) -> Vec<Option<entry::Stat>> {
    stat_within(entry, store, 0)
}

/// [`stat`], at most [`STAT_DEPTH`] undos of undos deep.
fn stat_within(entry: &Entry, store: &Store<'_>, depth: usize) -> Vec<Option<entry::Stat>> {
    if entry.stat.len() == entry.files.len() {
        return entry.stat.clone();
    }
    let target = entry
        .undoes
        .as_ref()
        .filter(|_| depth < STAT_DEPTH)
        .and_then(|id| store.get(id));
    let Some(target) = target else {
        return vec![None; entry.files.len()];
    };
    reversed(&entry.files, &target, store, depth)
}

/// The lines each of `files`, the records of an undo of `target`, gained and lost:
/// `target`'s, the other way round.
fn reversed(
    files: &[FileRecord],
    target: &Entry,
    store: &Store<'_>,
    depth: usize,
) -> Vec<Option<entry::Stat>> {
    let counted = stat_within(target, store, depth + 1);
    files
        .iter()
        .map(|file| {
            // The target's record of this file: the same path, or the move this one takes back.
            let index = target.files.iter().position(|t| match &file.from {
                Some(from) => t.path == *from && t.from.as_ref() == Some(&file.path),
                None => t.path == file.path && t.from.is_none(),
            })?;
            counted.get(index).copied().flatten().map(|s| entry::Stat {
                added: s.removed,
                removed: s.added,
            })
        })
        .collect()
}

/// The lines each of `files`, the records of an undo of the change `target`, gains and
/// loses, for its entry: the target's the other way round (empty when none are known).
pub(super) fn undo_stat(
    ctx: &Context,
    files: &[FileRecord],
    target: &str,
) -> Vec<Option<entry::Stat>> {
    let Ok(store) = Store::open(ctx) else {
        return Vec::new();
    };
    let Some(entry) = store.get(target) else {
        return Vec::new();
    };
    let stat = reversed(files, &entry, &store, 0);
    if stat.iter().all(Option::is_none) {
        Vec::new()
    } else {
        stat
    }
}

/// How many undos of undos [`stat`] follows back.
const STAT_DEPTH: usize = 64;
