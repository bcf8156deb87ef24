//! Recovery (§11, §12): what a process that died left under `pending/`, settled by the
//! next call in the workspace, of any kind, before it does anything else.
//!
//! Nothing pending (the rule) costs one directory read. Otherwise each entry that verifies
//! is settled under its files' locks, taken without waiting: an entry whose files another
//! process holds is being made right now, and that process settles it. An entry that
//! keeps its new versions (`rollForward`) is past its commit point once it and they are
//! there: every file still at its version before is brought to its version after (a new
//! version renamed into place, a delete unlinked, a move renamed), a file at neither is
//! left as it is and marked `unfinished`, and the entry is committed. One whose new
//! versions are not all there, with every file untouched, never reached its commit point
//! and is dropped. An entry without kept new versions is kept when some file is at its new
//! version and dropped when none is. An entry that does not verify is never acted on: one
//! another key wrote (it parses) is left, with all it names, to that key's recovery; a
//! torn one (it does not parse) goes once it is old. Leftovers (kept versions and new
//! versions no entry names) go once they are old enough not to belong to a change being
//! made right now. Each file is brought forward by the commit's own executor
//! ([`execute::publish_one`]), once recovery has seen it at its version before.

use std::collections::HashSet;

use crate::workspace::journal_files::{Provenance, Shelf};
use crate::workspace::{Dirty, Location};

use super::change::{Expected, FileOp, New, Op};
use super::execute;
use super::journal::entry::{self, Entry, FileRecord, Found};
use super::journal::{current, keyed, prune, Keep, Keyed};
use crate::engine::Context;

/// Settles what a process that died left pending, if anything is: the first step of
/// every call.
pub fn recover(ctx: &Context) {
    // With the journal off too: a change of several files is recorded all the same.
    if !ctx.ws.journal_pending_any() {
        return;
    }
    reconcile(ctx, keyed(ctx).ok());
}

/// What the entry `name` (of id `id`, its file `bytes`) under `pending/` is: ours when it
/// verifies under the key (`keyed`, when the journal is on) or is a record-only entry
/// that verifies under its own file's identity; else another key's, or torn.
fn found(ctx: &Context, keyed: Option<&Keyed>, name: &str, id: &str, bytes: &[u8]) -> Found {
    let root = ctx.ws.root_path().as_os_str().as_encoded_bytes();
    if let Some(keyed) = keyed {
        if let Some(entry) = entry::decode(bytes, &keyed.key, &keyed.root, id) {
            return Found::Ours(entry);
        }
    }
    let recorded = ctx
        .ws
        .journal_identity(Shelf::Pending, name)
        .and_then(|identity| {
            let home = super::journal::record_home_key();
            let key = entry::record_key(identity, home.as_ref().map(|k| &k[..]));
            entry::decode(bytes, &key, root, id)
        })
        .filter(|entry| entry.record_only);
    if let Some(entry) = recorded {
        return Found::Ours(entry);
    }
    // No key verifies it here: parsed only to tell another key's from a torn one.
    entry::classify(bytes, &[], root, id)
}

/// Settles every entry under `pending/`, as the module says.
pub fn reconcile(ctx: &Context, keyed: Option<&Keyed>) {
    let now = crate::lock::Wait {
        timeout: std::time::Duration::ZERO,
        notice: || {},
        cancel: None,
    };
    // Shared, as a change holds it: a prune running right now is left to finish, and
    // this is settled by a later call.
    let Ok(_shared) = crate::lock::journal_shared(&ctx.ws, &now) else {
        return;
    };
    let Ok(names) = ctx.ws.journal_list(Shelf::Pending) else {
        return;
    };
    let mut others = Others::default();
    let mut entry_ids: HashSet<&str> = HashSet::new();
    for name in &names {
        let Some((id, _)) = entry::parse_name(name) else {
            continue;
        };
        entry_ids.insert(id);
        let Some(entry) = read_ours(ctx, keyed, (name, id), &mut others, &mut entry_ids) else {
            continue;
        };
        others.named_before.extend(kept_by(&entry));
        let paths: Vec<&str> = entry
            .files
            .iter()
            .flat_map(|f| f.states_after().into_iter().map(|(p, _)| p))
            .collect();
        let Ok(_guards) = crate::lock::acquire_all(&ctx.ws, &paths, &now) else {
            continue;
        };
        // Its own process may have committed or dropped it before the locks were free.
        if !ctx.ws.journal_present(Shelf::Pending, name) {
            continue;
        }
        if entry.roll_forward {
            finish(ctx, keyed, name, entry);
        } else {
            settle(ctx, name, &entry);
        }
    }
    sweep(
        ctx,
        &names,
        &entry_ids,
        (&others.named_before, others.pending),
    );
}

/// What reading `pending/` found besides this key's own entries.
#[derive(Debug, Default)]
struct Others {
    /// The versions the entries read name as kept.
    named_before: Vec<String>,
    /// Another key's entry is pending: the kept versions beside it may be its own.
    pending: bool,
}

/// The pending entry `name` (of id `id`) when it is this key's own (or a record of this
/// workspace's). Another key's is left to that key's recovery and noted in `others`; a
/// torn one goes once it is old, and its id leaves `entry_ids`, so that the new versions
/// kept for it go too, as orphans.
fn read_ours<'n>(
    ctx: &Context,
    keyed: Option<&Keyed>,
    (name, id): (&str, &'n str),
    others: &mut Others,
    entry_ids: &mut HashSet<&'n str>,
) -> Option<Entry> {
    // Another key's, by its name: left unread.
    let foreign = entry::key_of(name).is_some_and(|key| {
        key != entry::RECORD_KEY
            && keyed.is_none_or(|keyed| !super::journal::maybe_ours(keyed, name))
    });
    if foreign {
        others.pending = true;
        return None;
    }
    let Ok(Some(bytes)) = ctx
        .ws
        .journal_read(Shelf::Pending, name, entry::MAX_ENTRY_BYTES)
    else {
        return None;
    };
    match found(ctx, keyed, name, id, &bytes) {
        Found::Ours(entry) => Some(entry),
        // Another key's (a checkout shared by several users or containers): its own
        // recovery settles it; what it names stays.
        Found::Foreign(entry) => {
            others.pending = true;
            others.named_before.extend(kept_by(&entry));
            None
        }
        // Torn by a process killed while writing it (its change was never published),
        // or not an entry at all: nothing to finish, and it goes once it is old.
        Found::Torn => {
            if ctx
                .ws
                .journal_age_secs(Shelf::Pending, name)
                .is_some_and(|age| age >= prune::IN_FLIGHT_SECS)
            {
                ctx.ws.journal_remove(Shelf::Pending, name);
                entry_ids.remove(id);
            }
            None
        }
    }
}

/// What no entry of ours names any more under `pending/`, once it is old enough not to
/// belong to a change being made right now: kept versions (moved to `objects/`, where
/// the bounds hold them; left alone while another key's entry is pending, as they may be
/// its own) and new versions (removed).
fn sweep(
    ctx: &Context,
    names: &[String],
    entry_ids: &HashSet<&str>,
    (named_before, others_pending): (&[String], bool),
) {
    // A version kept by a process that died before it wrote the entry naming it.
    let orphans = if others_pending {
        Ok(Vec::new())
    } else {
        ctx.ws.journal_pending_objects()
    };
    if let Ok(orphans) = orphans {
        for orphan in orphans {
            if orphan.age_secs >= prune::IN_FLIGHT_SECS && !named_before.contains(&orphan.name) {
                ctx.ws.adopt_kept(&orphan.name);
            }
        }
    }
    // A new version whose entry was never written, or went without it.
    for name in names {
        let orphan = entry::parse_new_version_name(name).is_some_and(|id| !entry_ids.contains(id));
        if orphan
            && ctx
                .ws
                .journal_age_secs(Shelf::Pending, name)
                .is_some_and(|age| age >= prune::IN_FLIGHT_SECS)
        {
            ctx.ws.journal_remove(Shelf::Pending, name);
        }
    }
}

/// The versions `entry` names as kept.
fn kept_by(entry: &Entry) -> impl Iterator<Item = String> + '_ {
    entry
        .files
        .iter()
        .flat_map(FileRecord::kept_versions)
        .cloned()
}

/// An entry without kept new versions: kept when some file is at its new version (its
/// change was published: one rename per file), dropped when none is.
fn settle(ctx: &Context, name: &str, entry: &Entry) {
    let published = entry.files.iter().any(|f| {
        f.states_after()
            .iter()
            .all(|(path, sha)| current(ctx, path).is(*sha))
    });
    let kept: Vec<&str> = entry
        .files
        .iter()
        .flat_map(FileRecord::kept_versions)
        .map(String::as_str)
        .collect();
    remove_new_versions(ctx, entry);
    if published && !entry.record_only {
        let _ = ctx.ws.journal_commit(name, &kept, Provenance::Found);
    } else {
        drop_entry(ctx, name, &kept);
    }
}

/// An entry that keeps its new versions: finished, or dropped when it never reached its
/// commit point, as the module says.
fn finish(ctx: &Context, keyed: Option<&Keyed>, name: &str, mut entry: Entry) {
    let kept: Vec<String> = entry
        .files
        .iter()
        .flat_map(FileRecord::kept_versions)
        .cloned()
        .collect();
    let kept: Vec<&str> = kept.iter().map(String::as_str).collect();
    let all_kept = entry.files.iter().enumerate().all(|(index, f)| {
        (f.from.is_some() && f.from_before.is_none())
            || f.after.is_none()
            || f.link.is_some()
            || ctx
                .ws
                .journal_present(Shelf::Pending, &entry::new_version_name(&entry.id, index))
    });
    if !all_kept && untouched(ctx, &entry) {
        remove_new_versions(ctx, &entry);
        drop_entry(ctx, name, &kept);
        // The directories made for the files it would have created go too.
        let created = entry.files.iter().filter(|f| f.before.is_none());
        ctx.ws.vacate(created.map(|f| f.path.as_str()));
        return;
    }
    let mut dirty = Dirty::default();
    let mut vacated = Vec::new();
    let id = entry.id.clone();
    for (index, file) in entry.files.iter_mut().enumerate() {
        let done = roll_forward(ctx, (&id, index), file, &mut dirty, &mut vacated);
        if file.after.is_none() && done {
            vacated.push(file.path.clone());
        }
        file.unfinished = !done;
    }
    // Best effort: what cannot be synced now is at least published.
    let _ = dirty.sync();
    remove_new_versions(ctx, &entry);
    ctx.ws.vacate(vacated.iter().map(String::as_str));
    record_finished(ctx, keyed, name, &entry, &kept);
}

/// Brings one `file` of the entry `id` (its `index`-th) to its new version: its kept new
/// version put in place, a link made, the file removed, or a move done. The source a move
/// emptied goes into `vacated`. Whether it is done.
fn roll_forward(
    ctx: &Context,
    (id, index): (&str, usize),
    file: &FileRecord,
    dirty: &mut Dirty,
    vacated: &mut Vec<String>,
) -> bool {
    let before = file.before.as_deref();
    match (&file.from, &file.after) {
        (None, Some(after)) if file.link.is_some() => make_link(
            ctx,
            &file.path,
            (before, after),
            file.link.as_deref().unwrap_or_default(),
            dirty,
        ),
        (None, Some(after)) => put(ctx, id, index, &file.path, before, after, dirty),
        (None, None) => remove(ctx, &file.path, before, dirty),
        // A move that changed the content: the new version at the new path, then the
        // source (still at its version before) removed.
        (Some(from), Some(after)) if file.from_before.is_some() => {
            let done = put(ctx, id, index, &file.path, before, after, dirty)
                && remove(ctx, from, file.from_before.as_deref(), dirty);
            if done {
                vacated.push(from.clone());
            }
            done
        }
        (Some(from), after) => {
            let moved = move_back(ctx, from, &file.path, before, after.as_deref(), dirty);
            if moved {
                vacated.push(from.clone());
            }
            moved
        }
    }
}

/// Commits a finished entry (rewritten when some file could not be finished, so that it
/// says which); one only recorded, not journaled, goes.
fn record_finished(ctx: &Context, keyed: Option<&Keyed>, name: &str, entry: &Entry, kept: &[&str]) {
    match keyed {
        _ if entry.record_only => ctx.ws.journal_remove(Shelf::Pending, name),
        Some(keyed) if entry.files.iter().any(|f| f.unfinished) => {
            let bytes = entry::encode(entry, &keyed.key, &keyed.root);
            let _ = ctx.ws.journal_commit_as(name, &bytes, kept);
        }
        _ => {
            let _ = ctx.ws.journal_commit(name, kept, Provenance::Found);
        }
    }
}

/// Whether every path the entry touches is still as it was before the change.
fn untouched(ctx: &Context, entry: &Entry) -> bool {
    let mut seen: HashSet<&str> = HashSet::new();
    entry.files.iter().all(|f| {
        let here = !seen.insert(&f.path) || current(ctx, &f.path).is(f.before.as_deref());
        // A move's source held the content it moves (or, moved and changed, its own).
        let held = f.from_before.as_deref().or(f.after.as_deref());
        let source = f
            .from
            .as_deref()
            .is_none_or(|from| !seen.insert(from) || current(ctx, from).is(held));
        here && source
    })
}

/// Brings `path` to the new version `after` kept for the `index`th file of entry `id`,
/// if it is still at `before`. True when the file is at `after` now.
fn put(
    ctx: &Context,
    id: &str,
    index: usize,
    path: &str,
    before: Option<&str>,
    after: &str,
    dirty: &mut Dirty,
) -> bool {
    let now = current(ctx, path);
    if now.is(Some(after)) {
        return true;
    }
    if !now.is(before) {
        return false;
    }
    let Ok(location) = ctx.ws.locate_own(path) else {
        return false;
    };
    if ctx.ws.create_dirs(&location.missing_dirs).is_err() {
        return false;
    }
    let name = entry::new_version_name(id, index);
    let op = Op::Write(New::Kept(name));
    forward(ctx, &location, op, (before, Some(after)), dirty)
}

/// Publishes `op` at `at` (from its version `before` to `after`) through the commit's
/// executor; true when it is done.
fn forward(
    ctx: &Context,
    at: &Location,
    op: Op<'_>,
    (before, after): (Option<&str>, Option<&str>),
    dirty: &mut Dirty,
) -> bool {
    let file = FileOp {
        at,
        op,
        before: before.map(str::to_owned),
        // Recovery has seen the file at `before` just now.
        expect: Expected::Left(before),
        after: after.map(str::to_owned),
        base: None,
        keep: Keep::Nothing,
        // Not checked: recovery publishes straight through the executor.
        mutation: crate::engine::session_check::Mutation::Write,
        looked_at_publish: false,
        shown_as: "write",
        bytes: None,
    };
    execute::publish_one(ctx, &file, None, dirty).is_ok()
}

/// Makes the symbolic link to `target` (version `after`) at `path` if it is still at
/// `before` — nothing: a link is only made where nothing was. True when the link is
/// there now.
fn make_link(
    ctx: &Context,
    path: &str,
    (before, after): (Option<&str>, &str),
    target: &str,
    dirty: &mut Dirty,
) -> bool {
    let now = current(ctx, path);
    if now.is(Some(after)) {
        return true;
    }
    if before.is_some() || !now.is(None) || entry::link_version(target) != after {
        return false;
    }
    let Ok(location) = ctx.ws.locate_own(path) else {
        return false;
    };
    let op = Op::Link {
        target: target.to_owned(),
    };
    forward(ctx, &location, op, (before, Some(after)), dirty)
}

/// Removes `path` if it is still at `before`. True when it is absent now.
fn remove(ctx: &Context, path: &str, before: Option<&str>, dirty: &mut Dirty) -> bool {
    let now = current(ctx, path);
    if now.is(None) {
        return true;
    }
    if !now.is(before) {
        return false;
    }
    let Ok(location) = ctx.ws.locate_own(path) else {
        return false;
    };
    forward(ctx, &location, Op::Delete, (before, None), dirty)
}

/// Moves `from` (holding `after`) to `to` if `to` is still at `before`. True when the
/// move is done: `to` at `after`, `from` absent.
fn move_back(
    ctx: &Context,
    from: &str,
    to: &str,
    before: Option<&str>,
    after: Option<&str>,
    dirty: &mut Dirty,
) -> bool {
    let (source, dest) = (current(ctx, from), current(ctx, to));
    if dest.is(after) && source.is(None) {
        return true;
    }
    if !dest.is(before) || !source.is(after) {
        return false;
    }
    let (Ok(source), Ok(dest)) = (ctx.ws.locate_own(from), ctx.ws.locate_own(to)) else {
        return false;
    };
    let op = Op::Move {
        from: &source,
        from_base: None,
        from_before: None,
        new: None,
        link: None,
        from_expect: Expected::Any,
        from_read: None,
        from_writable: false,
    };
    forward(ctx, &dest, op, (before, after), dirty)
}

/// Drops an entry whose change never happened; the versions it kept are pruned later,
/// like any other no entry names.
fn drop_entry(ctx: &Context, name: &str, kept: &[&str]) {
    ctx.ws.journal_remove(Shelf::Pending, name);
    for sha in kept {
        ctx.ws.adopt_kept(sha);
    }
}

/// Removes whatever new versions of `entry` are still kept under `pending/`.
fn remove_new_versions(ctx: &Context, entry: &Entry) {
    for index in 0..entry.files.len() {
        ctx.ws
            .journal_remove(Shelf::Pending, &entry::new_version_name(&entry.id, index));
    }
}

#[cfg(test)]
mod tests;
