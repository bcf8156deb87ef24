//! Carrying out an undo's steps: every kept version read and checked against its digest,
//! every file it replaces or removes opened, and the inverse of the entry made one change
//! ([`ChangeSet`]) — shown to the authorize hook and published by the commit's one executor,
//! like any tool's: new contents staged and synced, the undo's own entry, the last look
//! at every file it replaces or removes, the steps, the directories left empty removed.

use std::collections::{BTreeMap, BTreeSet};

use crate::digest::sha256_hex;
use crate::refusal::{Code, Failure, Outcome, Refusal};
use crate::workspace::{Kind, Location, OpenFile, WriteMode};

use super::super::args::Request;
use super::super::{edit::MAX_DIFF_BYTES, refuse, Context};
use super::{RestoredFile, UndoRequest, UndoResult};
use crate::engine::change::{AsRead, ChangeSet, Expected, FileOp, New, Op};
use crate::engine::journal::{entry::link_version, About, Entry, FileRecord, Keep};
use crate::engine::payload::Payload;
use crate::engine::pipeline::Cleared;
use crate::engine::revert::merge::Merged;
use crate::engine::revert::plan::Step;
use crate::engine::session_check::Mutation;

/// One of the undo's records, with the path whose file as it is now is kept.
pub type Record<'s> = (FileRecord, Option<&'s str>);

/// A file as it is now, before the undo: the current version the undo replaces or
/// removes (an apply's `Original` is the file an apply read).
pub struct Current {
    location: Location,
    pub file: OpenFile,
}

/// Every version the undo puts back, by digest, with the mode it is put back with — a
/// merged file's merged text, or a kept version read and checked against its digest —
/// and the first failure to read one (a kept version missing or damaged), which the
/// caller reports once the check passed. A version that could not be read is left out.
pub fn kept(
    ctx: &Context,
    target: &Entry,
    merged: &Merged,
    originals: &BTreeMap<String, Current>,
) -> (KeptBytes, Option<Failure>) {
    let mut kept: KeptBytes = BTreeMap::new();
    let mut unreadable = None;
    for step in &merged.steps {
        if let Step::Put { path, sha } = step {
            // A merged file keeps its own mode: only its lines go back.
            if let (Some(bytes), Some(original)) = (merged.contents.get(sha), originals.get(path)) {
                kept.insert(sha.clone(), (bytes.clone(), original.file.mode & 0o7777));
                continue;
            }
        }
        if let Step::Put { sha, .. } | Step::MoveBack { sha: Some(sha), .. } = step {
            if !kept.contains_key(sha) && unreadable.is_none() {
                match kept_version(ctx, sha) {
                    Ok((bytes, mode)) => {
                        let mode = recorded_mode(target, sha).unwrap_or(mode);
                        kept.insert(sha.clone(), (bytes, mode));
                    }
                    Err(failure) => unreadable = Some(failure),
                }
            }
        }
    }
    (kept, unreadable)
}

/// The versions an undo puts back, by digest: their bytes and mode.
pub type KeptBytes = BTreeMap<String, (Vec<u8>, u32)>;

/// Shows the undo `change` of `target` (checked: `checked`) to the authorize hook and
/// publishes it, `merged` and its `records` saying what each file becomes.
pub fn run(
    ctx: &Context,
    target: &Entry,
    (merged, originals, records, kept): (
        &Merged,
        &BTreeMap<String, Current>,
        &[Record<'_>],
        &KeptBytes,
    ),
    (change, checked, dry_run): (ChangeSet<'_>, Cleared<'_>, bool),
) -> Outcome<UndoResult> {
    let mut files = restored(ctx, records, originals, kept);
    for file in &mut files {
        file.merged = merged.paths.contains(&file.path).then_some(true);
    }
    let payload = Payload {
        undoes: Some(&target.id),
        ..Payload::of_files(ctx, &change, dry_run)
    };
    let Some(approved) = checked.authorize(&target.id, &payload)? else {
        return Ok(UndoResult {
            id: None,
            undid: target.id.clone(),
            files,
            applied: false,
            syntax_errors: Vec::new(),
            syntax_unchecked: Vec::new(),
        });
    };
    let id = approved.commit(change)?;
    Ok(UndoResult {
        id,
        undid: target.id.clone(),
        files,
        applied: true,
        syntax_errors: Vec::new(),
        syntax_unchecked: Vec::new(),
    })
}

/// Every file the undo replaces or removes, opened and checked to be the version the
/// entry left (or the merge found: `merged.after`), read from this very descriptor (whether the caller may write
/// it is the pipeline's check).
pub fn originals(ctx: &Context, merged: &Merged) -> Outcome<BTreeMap<String, Current>> {
    let mut originals: BTreeMap<String, Current> = BTreeMap::new();
    for (path, sha) in &merged.after {
        // One that moved on and cannot be merged is refused by the pipeline's check.
        if sha.is_some() && !merged.unmerged.contains_key(path) {
            let location = ctx
                .ws
                .locate_own(path)
                .map_err(|e| refuse::path(ctx, path, e))?;
            // A symbolic link the entry left (a link moved or made) is the link itself:
            // it must still lead where it did. Nothing of it is kept or opened.
            if location.kind == Some(Kind::Link) {
                let target = ctx
                    .ws
                    .read_link(&location)
                    .map_err(|e| refuse::path(ctx, path, e))?;
                if Some(link_version(&target)) != *sha {
                    return Err(refuse::changed(path).into());
                }
                continue;
            }
            let file = ctx
                .ws
                .open_file(&location)
                .map_err(|e| refuse::path(ctx, path, e))?;
            // The file opened here is the one the undo replaces or removes: it must be the
            // version the entry left, read from this very descriptor (the look before the
            // locks was another open). Another program's write in between is looked at
            // once more by the pipeline, whose next look names it as moved on.
            let mut file = file;
            let now = file
                .sha256()
                .map_err(|e| anyhow::Error::new(e).context("hashing a file to undo"))?;
            if Some(&now) != sha.as_ref() {
                return Err(refuse::changed(path).into());
            }
            originals.insert(path.clone(), Current { location, file });
        }
    }
    Ok(originals)
}

/// The undo's own records, step by step from the versions `after` (what is there now),
/// each with the path whose file as it is now must be kept (when the step replaces or
/// removes a file no earlier step touched).
pub fn records<'s>(
    after: &BTreeMap<String, Option<String>>,
    steps: &'s [Step],
) -> Vec<(FileRecord, Option<&'s str>)> {
    let mut state = after.clone();
    let mut touched: BTreeSet<String> = BTreeSet::new();
    let mut records: Vec<(FileRecord, Option<&str>)> = Vec::new();
    for step in steps {
        let (record, keep_original) = match step {
            Step::MoveBack {
                from,
                to,
                sha,
                link,
            } => {
                let moved = state.get(from).cloned().flatten();
                // Put back as another version, the file at `from` is gone: it is kept, so
                // that undoing the undo can bring it back.
                let keep = (sha.is_some() && moved.is_some() && !touched.contains(from))
                    .then_some(from.as_str());
                let record = FileRecord {
                    path: to.clone(),
                    from: Some(from.clone()),
                    before: state.get(to).cloned().flatten(),
                    after: sha.clone().or_else(|| moved.clone()),
                    from_before: sha.as_ref().and(moved),
                    bytes: 0,
                    unfinished: false,
                    mode: None,
                    link: link.clone(),
                };
                state.insert(to.clone(), record.after.clone());
                state.insert(from.clone(), None);
                touched.insert(from.clone());
                touched.insert(to.clone());
                (record, keep)
            }
            Step::Put { path, .. } | Step::Link { path, .. } | Step::Remove { path, .. } => {
                let new = sha_of(step);
                let before = state.get(path).cloned().flatten();
                let original =
                    (!touched.contains(path) && before.is_some()).then_some(path.as_str());
                let record = FileRecord {
                    path: path.clone(),
                    from: None,
                    before,
                    after: new.clone(),
                    from_before: None,
                    bytes: 0,
                    unfinished: false,
                    mode: None,
                    link: match step {
                        Step::Link { target, .. } => Some(target.clone()),
                        Step::Remove { link, .. } => link.clone(),
                        _ => None,
                    },
                };
                state.insert(path.clone(), new);
                touched.insert(path.clone());
                (record, original)
            }
        };
        records.push((record, keep_original));
    }
    records
}

/// The undo as one change: each record's operation at its path — a kept version put in
/// place, a file removed or moved back, a symbolic link made again or removed — each
/// over the file read before the undo, unchanged (the first step at a path: a step that
/// comes back to a path an earlier step changed has nothing of it to compare), the file
/// it replaces or removes kept, and each version it puts back kept as its result. Each
/// step expects its paths as the steps before it leave them (`Expected::Left`), the
/// first at a path the version the entry left (or the merge found: `merged.after`),
/// read as it is now (`merged.moved_on`: a file that moved on and cannot be merged,
/// which the check refuses). A version `kept` lacks (unreadable: refused after the
/// check) is staged empty and never published.
pub fn change<'a>(
    target: &Entry,
    located: &BTreeMap<&str, &'a Location>,
    (records, originals): (&'a [Record<'_>], &'a BTreeMap<String, Current>),
    kept: &'a KeptBytes,
    merged: &'a Merged,
) -> ChangeSet<'a> {
    let location_of = |path: &str| -> &'a Location {
        located
            .get(path)
            .copied()
            .expect("every path of the undo was located")
    };
    let mut touched: BTreeSet<String> = BTreeSet::new();
    let mut files = Vec::with_capacity(records.len());
    let mut results = Vec::new();
    for (record, keep_original) in records {
        // The first step at a path finds it as it is now: the version the entry left (or
        // the merge found), or what a file that moved on is now. A later step finds it as
        // the steps before it leave it, and only the first step at a path is checked.
        let before = if touched.contains(&record.path) {
            record.before.clone()
        } else {
            as_read(merged, &record.path)
        };
        let first_from = (record.from.as_deref())
            .filter(|from| !touched.contains(*from) && *from != record.path);
        let from_read = first_from.map(|from| AsRead(as_read(merged, from)));
        let from_expect = first_from.map_or(Expected::Any, |from| {
            Expected::Left(merged.after.get(from).and_then(Option::as_deref))
        });
        let mut base = |path: &str| {
            let first = touched.insert(path.to_owned());
            originals.get(path).filter(|_| first).map(|o| &o.file)
        };
        let at_base = base(&record.path);
        let from_base = record.from.as_deref().and_then(&mut base);
        let new = new_content(record, originals, kept).map(|(sha, bytes, new)| {
            results.push((sha, bytes));
            new
        });
        let source = record.from.as_deref().map(|from| MoveSource {
            location: location_of(from),
            base: from_base,
            expect: from_expect,
            read: from_read,
        });
        let (op, shown_as) = op_of(record, new, source);
        files.push(FileOp {
            at: location_of(&record.path),
            op,
            before,
            // Each step finds its path as the steps before it leave it.
            expect: Expected::Left(record.before.as_deref()),
            after: record.after.clone(),
            base: at_base,
            keep: keep_of(*keep_original, originals),
            // An undo needs no read first, only that no work was done since.
            mutation: Mutation::Undo,
            looked_at_publish: false,
            shown_as,
            bytes: None,
        });
    }
    let mut change = ChangeSet {
        about: About {
            undoes: Some(target.id.clone()),
            edits: Vec::new(),
        },
        ..ChangeSet::of(UndoRequest::TOOL, files)
    };
    for (sha, bytes) in results {
        change = change.keeping(&sha, vec![bytes]);
    }
    change
}

/// How the undo keeps the file it replaces or removes at `path` (`None`: none): the file
/// as read before the undo.
fn keep_of<'a>(path: Option<&str>, originals: &'a BTreeMap<String, Current>) -> Keep<'a> {
    match path.and_then(|p| originals.get(p)) {
        Some(o) => Keep::File {
            location: &o.location,
            file: &o.file,
            bytes: None,
        },
        None => Keep::Nothing,
    }
}

/// A move's source as the undo's check holds it: where it is, the file read there
/// before the undo (at the first step there), the version it is expected at and the
/// version it is read at.
struct MoveSource<'a> {
    location: &'a Location,
    base: Option<&'a OpenFile>,
    expect: Expected<'a>,
    read: Option<AsRead>,
}

/// A record's operation, and what it is shown as: a move back (from `source`), a
/// symbolic link made again or removed, a kept version put in place (`new`), or a file
/// removed.
fn op_of<'a>(
    record: &FileRecord,
    new: Option<New<'a>>,
    source: Option<MoveSource<'a>>,
) -> (Op<'a>, &'static str) {
    match (source, &record.link, &record.after, new) {
        (Some(source), link, _, new) => (
            Op::Move {
                from: source.location,
                from_base: source.base,
                from_before: record.from_before.clone(),
                new,
                link: link.clone(),
                from_expect: source.expect,
                from_read: source.read,
                // What an undo removes, at either end of a move, is the caller's to write.
                from_writable: true,
            },
            "move",
        ),
        (None, Some(target), Some(_), _) => (
            Op::Link {
                target: target.clone(),
            },
            "write",
        ),
        (None, Some(target), None, _) => (
            Op::Unlink {
                target: target.clone(),
            },
            "delete",
        ),
        (None, None, _, Some(new)) => (Op::Write(new), "write"),
        (None, None, _, None) => (Op::Delete, "delete"),
    }
}

/// The version at `path` as the undo reads it: what a file that moved on and cannot be
/// merged is now, else the version the entry left (or the merge found).
fn as_read(merged: &Merged, path: &str) -> Option<String> {
    merged.moved_on(path).map_or_else(
        || merged.after.get(path).cloned().flatten(),
        |now| Some(now.to_owned()),
    )
}

/// The new content of `record`, when it is a version put in place: its digest, its bytes
/// and how it is staged — with the mode `kept` has for it, over the file there now (its
/// owner kept) or as a new file. A version `kept` lacks (unreadable: refused after the
/// check) is staged empty and never published.
fn new_content<'a>(
    record: &FileRecord,
    originals: &'a BTreeMap<String, Current>,
    kept: &'a KeptBytes,
) -> Option<(String, &'a [u8], New<'a>)> {
    let sha = record.after.as_ref().filter(|_| staged_content(record))?;
    let (bytes, mode) = kept
        .get(sha)
        .map_or((&[][..], 0o644), |(b, m)| (b.as_slice(), *m));
    let mode = match (&record.before, originals.get(&record.path)) {
        (Some(_), Some(original)) => WriteMode::Replace {
            mode,
            uid: original.file.uid,
            gid: original.file.gid,
        },
        _ => WriteMode::CreateWith { mode },
    };
    let new = New::Bytes {
        parts: vec![bytes],
        mode,
        reuse: None,
    };
    Some((sha.clone(), bytes, new))
}

/// Whether the record's new content is a kept version put in place (not a rename, not a
/// symbolic link made).
fn staged_content(record: &FileRecord) -> bool {
    record.link.is_none() && (record.from.is_none() || record.from_before.is_some())
}

fn sha_of(step: &Step) -> Option<String> {
    match step {
        Step::Put { sha, .. } => Some(sha.clone()),
        Step::Link { target, .. } => Some(link_version(target)),
        _ => None,
    }
}

/// The permission bits the entry `target` recorded for its version `sha`, when it did:
/// what an undo restores, rather than the kept file's own.
fn recorded_mode(target: &Entry, sha: &str) -> Option<u32> {
    target
        .files
        .iter()
        .find(|f| f.kept_versions().any(|kept| kept == sha) && f.mode.is_some())
        .and_then(|f| f.mode)
        .map(|mode| mode & 0o7777)
}

/// The kept version `sha`, checked against its digest: a missing or damaged one is
/// `INVALID_CONFIG` naming it, and nothing changes.
fn kept_version(ctx: &Context, sha: &str) -> Outcome<(Vec<u8>, u32)> {
    let shown = crate::workspace::journal_files::shown("objects", sha);
    let damaged = |reason: &str| -> Failure {
        Refusal::new(
            Code::InvalidConfig,
            format!("stitch's own state is unusable: the kept version `{shown}` {reason}"),
        )
        .with(crate::refusal::key::PATH, shown.as_str())
        .with(crate::refusal::key::FIELD, shown.as_str())
        .with(crate::refusal::key::REASON, reason)
        .into()
    };
    match ctx.ws.kept_version(sha, ctx.limits.max_file_bytes) {
        Ok((bytes, mode)) if sha256_hex(&bytes) == sha => Ok((bytes, mode)),
        Ok(_) => Err(damaged("does not match its sha256")),
        Err(crate::workspace::Error::NotFound) => Err(damaged("is missing")),
        Err(crate::workspace::Error::State { path, problem }) => {
            Err(refuse::state(&path, problem).into())
        }
        Err(e) => Err(refuse::path(ctx, &shown, e)),
    }
}

/// What the result says of each file: its restored version and the diff to it.
fn restored(
    ctx: &Context,
    records: &[(FileRecord, Option<&str>)],
    originals: &BTreeMap<String, Current>,
    kept: &BTreeMap<String, (Vec<u8>, u32)>,
) -> Vec<RestoredFile> {
    records
        .iter()
        .map(|(record, original)| {
            let old = original
                .and_then(|p| originals.get(p))
                .and_then(|o| text_of(ctx, &o.location));
            let new = record
                .after
                .as_ref()
                .filter(|_| staged_content(record))
                .and_then(|sha| kept.get(sha))
                .and_then(|(bytes, _)| std::str::from_utf8(bytes).ok().map(str::to_owned));
            // A plain move back changes no content; one that puts a version back shows it.
            let diff = if staged_content(record) {
                crate::text::diff::unified(
                    &record.path,
                    old.as_deref().unwrap_or(""),
                    new.as_deref().unwrap_or(""),
                    MAX_DIFF_BYTES,
                )
                .text
            } else {
                String::new()
            };
            RestoredFile {
                path: record.path.clone(),
                from: record.from.clone(),
                sha256: record.after.clone(),
                diff,
                merged: None,
            }
        })
        .collect()
}

/// The text of the file at `location`, when it is text within the limit.
fn text_of(ctx: &Context, location: &Location) -> Option<String> {
    let mut file = ctx.ws.open_file(location).ok()?;
    if file.size > ctx.limits.max_file_bytes {
        return None;
    }
    String::from_utf8(file.read_all().ok()?).ok()
}
