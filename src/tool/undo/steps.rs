//! Carrying out an undo's steps: every kept version read and checked against its digest,
//! every file it replaces or removes opened, the whole change shown to the authorize
//! hook, new contents staged and synced — all before anything changes; then the undo's own
//! entry, then the steps, then the directories left empty removed (by the commit).

use std::collections::{BTreeMap, BTreeSet};

use crate::digest::sha256_hex;
use crate::refusal::{Code, Failure, Outcome, Refusal};
use crate::workspace::{Dirty, Kind, Location, OpenFile, Replace, Staged, WriteMode};

use super::super::args::Request;
use super::super::{edit::MAX_DIFF_BYTES, refuse, Context};
use super::{RestoredFile, UndoRequest, UndoResult};
use crate::engine::commit::Change;
use crate::engine::journal::{entry::link_version, About, Entry, FileRecord, Keep, Planned};
use crate::engine::kill_hook;
use crate::engine::payload::{FileChange, Payload};
use crate::engine::pipeline::Checked;
use crate::engine::undo::merge::Merged;
use crate::engine::undo::plan::Step;

/// A file as it is now, before the undo.
pub struct Original {
    location: Location,
    pub file: OpenFile,
}

/// Runs the steps of `merged`, the undo of `target`, whose files are at `merged.after`
/// now (checked).
pub fn run(
    ctx: &Context,
    target: &Entry,
    (merged, originals): (&Merged, &BTreeMap<String, Original>),
    (checked, dry_run): (Checked<'_>, bool),
) -> Outcome<UndoResult> {
    let (after, steps) = (&merged.after, merged.steps.as_slice());
    let mut kept: BTreeMap<String, (Vec<u8>, u32)> = BTreeMap::new();
    for step in steps {
        if let Step::Put { path, sha } = step {
            // A merged file keeps its own mode: only its lines go back.
            if let (Some(bytes), Some(original)) = (merged.contents.get(sha), originals.get(path)) {
                kept.insert(sha.clone(), (bytes.clone(), original.file.mode & 0o7777));
                continue;
            }
        }
        if let Step::Put { sha, .. } | Step::MoveBack { sha: Some(sha), .. } = step {
            if !kept.contains_key(sha) {
                let (bytes, mode) = kept_version(ctx, sha)?;
                kept.insert(
                    sha.clone(),
                    (bytes, recorded_mode(target, sha).unwrap_or(mode)),
                );
            }
        }
    }
    let records = records(after, steps);
    let mut files = restored(ctx, &records, originals, &kept);
    for file in &mut files {
        file.merged = merged.paths.contains(&file.path).then_some(true);
    }
    let payload = payload(ctx, target, &records, dry_run);
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
    // Everything new is staged and synced before the entry; nothing is visible yet.
    let staged = stage_all(ctx, &records, originals, &kept)?;
    let planned: Vec<Planned<'_>> = records
        .iter()
        .map(|(record, original)| Planned {
            record: record.clone(),
            keep: match original.and_then(|p| originals.get(p)) {
                Some(o) => Keep::File {
                    location: &o.location,
                    file: &o.file,
                    bytes: None,
                },
                None => Keep::Nothing,
            },
        })
        .collect();
    let about = About {
        undoes: Some(target.id.clone()),
        edits: Vec::new(),
    };
    let mut change = Change {
        tool: UndoRequest::TOOL,
        files: planned,
        about,
        results: Vec::new(),
    };
    for (record, _) in &records {
        if let Some((bytes, _)) = record.after.as_ref().and_then(|sha| kept.get(sha)) {
            change = change.keeping(record.after.as_deref().unwrap_or_default(), vec![bytes]);
        }
    }
    let id = approved.commit(change, staged, |staged, dirty| {
        // Each file is published only over the file read above, unchanged: a step that
        // comes back to a path an earlier step changed has nothing of it to compare.
        let mut touched: BTreeSet<String> = BTreeSet::new();
        for (done, ((record, _), staged)) in records.iter().zip(staged).enumerate() {
            let mut base = |path: &str| {
                let first = touched.insert(path.to_owned());
                originals.get(path).filter(|_| first).map(|o| &o.file)
            };
            let bases = Bases {
                at: base(&record.path),
                from: record.from.as_deref().and_then(&mut base),
            };
            apply(ctx, record, staged, bases, dirty)?;
            kill_hook::published(done + 1)?;
        }
        Ok(())
    })?;
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
/// entry left (`after`), read from this very descriptor (whether the caller may write
/// it is the pipeline's check).
pub fn originals(
    ctx: &Context,
    after: &BTreeMap<String, Option<String>>,
) -> Outcome<BTreeMap<String, Original>> {
    let mut originals: BTreeMap<String, Original> = BTreeMap::new();
    for (path, sha) in after {
        if sha.is_some() {
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
            originals.insert(path.clone(), Original { location, file });
        }
    }
    Ok(originals)
}

/// The undo's own records, step by step from the versions `after` (what is there now),
/// each with the path whose file as it is now must be kept (when the step replaces or
/// removes a file no earlier step touched).
fn records<'s>(
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

/// Stages (to be synced beside the entry) the new content of every record that puts a kept version in place
/// (`None` for the others), creating the directories it needs; nothing is visible yet.
fn stage_all<'w>(
    ctx: &'w Context,
    records: &'w [(FileRecord, Option<&str>)],
    originals: &'w BTreeMap<String, Original>,
    kept: &BTreeMap<String, (Vec<u8>, u32)>,
) -> Outcome<Vec<Option<Staged<'w>>>> {
    let mut staged: Vec<Option<Staged<'_>>> = Vec::new();
    let mut created_dirs: Vec<String> = Vec::new();
    let mut first: BTreeSet<&str> = BTreeSet::new();
    for (record, _) in records {
        let Some(sha) = record.after.as_ref().filter(|_| staged_content(record)) else {
            first.insert(record.path.as_str());
            if let Some(from) = &record.from {
                first.insert(from.as_str());
            }
            staged.push(None);
            continue;
        };
        let (bytes, mode) = &kept[sha];
        let location = ctx
            .ws
            .locate(&record.path)
            .map_err(|e| refuse::path(ctx, &record.path, e))?;
        let write_mode = match (&record.before, originals.get(&record.path)) {
            (Some(_), Some(original)) => WriteMode::Replace {
                mode: *mode,
                uid: original.file.uid,
                gid: original.file.gid,
            },
            _ => WriteMode::CreateWith { mode: *mode },
        };
        ctx.ws
            .create_dirs(&location.missing_dirs)
            .map_err(|e| refuse::path(ctx, &record.path, e))?;
        created_dirs.extend(location.missing_dirs.iter().cloned());
        let one = ctx
            .ws
            .stage(&location, &[bytes], None, write_mode)
            .map_err(|e| {
                ctx.ws.remove_empty_dirs(&created_dirs);
                refuse::path(ctx, &record.path, e)
            })?;
        // Published only over the file read, as it was read (the first step at a path).
        let base = originals
            .get(&record.path)
            .filter(|_| record.before.is_some() && first.insert(record.path.as_str()));
        staged.push(Some(match base {
            Some(original) => one.over(&original.file),
            None => one,
        }));
    }
    Ok(staged)
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

/// The files as read before the undo that one step replaces, removes or moves: at its
/// path, and at the path it moves from.
#[derive(Clone, Copy)]
struct Bases<'a> {
    at: Option<&'a OpenFile>,
    from: Option<&'a OpenFile>,
}

/// Carries out one step of the undo, recorded as `record`, each file it removes or moves
/// looked at once more just before (`bases`): another program's write since it was read
/// is [`crate::workspace::Error::Changed`], never lost.
fn apply(
    ctx: &Context,
    record: &FileRecord,
    staged: Option<Staged<'_>>,
    bases: Bases<'_>,
    dirty: &mut Dirty,
) -> Outcome<()> {
    let located = |path: &str| {
        ctx.ws
            .locate_own(path)
            .map_err(|e| refuse::path(ctx, path, e))
    };
    let remove = |location: &Location, base: Option<&OpenFile>, dirty: &mut Dirty| match base {
        Some(base) => ctx.ws.remove_unchanged(location, base, dirty),
        None => ctx.ws.remove_into(location, dirty),
    };
    if let Some(from) = &record.from {
        let (source, dest) = (located(from)?, located(&record.path)?);
        if let Some(staged) = staged {
            // Moved back as its version before: the new name's file is published, the
            // one at the old name removed.
            staged
                .publish()
                .map_err(|e| refuse::path(ctx, &record.path, e))?;
            return remove(&source, bases.from, dirty).map_err(|e| refuse::path(ctx, from, e));
        }
        if let Some(base) = bases.from {
            ctx.ws
                .still_as_read(&source, base)
                .map_err(|e| refuse::path(ctx, from, e))?;
        }
        ctx.ws
            .create_dirs(&dest.missing_dirs)
            .and_then(|()| ctx.ws.rename_into(&source, &dest, Replace::Never, dirty))
            .map_err(|e| refuse::path(ctx, &record.path, e))?;
        return Ok(());
    }
    if let Some(staged) = staged {
        return staged
            .publish_into(dirty)
            .map_err(|e| refuse::path(ctx, &record.path, e));
    }
    let location = located(&record.path)?;
    if let Some(target) = &record.link {
        // A symbolic link made again, or removed: only the link, never what it leads to.
        return match record.after {
            Some(_) => ctx
                .ws
                .create_dirs(&location.missing_dirs)
                .and_then(|()| ctx.ws.make_link(&location, target, dirty)),
            None => ctx.ws.remove_link(&location, target, dirty),
        }
        .map_err(|e| refuse::path(ctx, &record.path, e));
    }
    remove(&location, bases.at, dirty).map_err(|e| refuse::path(ctx, &record.path, e))
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
    let shown = crate::workspace::journal::shown("objects", sha);
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
    originals: &BTreeMap<String, Original>,
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

/// What the authorize command is told about this undo: the whole change.
fn payload<'a>(
    ctx: &'a Context,
    target: &'a Entry,
    records: &'a [(FileRecord, Option<&str>)],
    dry_run: bool,
) -> Payload<'a> {
    let changes = records
        .iter()
        .map(|(r, _)| FileChange {
            path: &r.path,
            operation: match (&r.from, &r.after) {
                (Some(_), _) => "move",
                (None, Some(_)) => "write",
                (None, None) => "delete",
            },
            from: r.from.as_deref(),
            base_sha256: r.before.as_deref(),
            result_sha256: r.after.as_deref(),
            bytes: None,
        })
        .collect();
    Payload {
        undoes: Some(&target.id),
        changes: Some(changes),
        ..Payload::of(ctx, UndoRequest::TOOL, dry_run)
    }
}
