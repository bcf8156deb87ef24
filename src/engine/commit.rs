//! The last steps every mutation runs, once its checks have passed and the authorize hook
//! approved, with its new contents staged: the journal entry written, the new contents and
//! the entry synced, the change published, the directories synced, the entry committed,
//! the directories the change left empty removed (`Workspace::vacate`), and the session's
//! ledger told what each file is now — one function, [`commit`], over one typed
//! [`ChangeSet`], for every tool. A failure
//! before anything is published changes nothing and leaves no entry; past the commit
//! point, a change of several files is finished by the next call.

use crate::refusal::Outcome;
use crate::workspace::journal_files::Unsynced;
use crate::workspace::{sync_all, sync_all_beside, Dirty, Staged};

use super::change::{ChangeSet, FileOp};
use super::execute;
use super::journal::{self, Linked, Pending};
use super::kill_hook::{self, Moment};
use super::session_check;
use crate::engine::Context;

/// The last steps of every mutation — write, edit, delete, move, undo, apply — in one
/// function over its typed `change`: the directories it needs made and its new contents
/// staged ([`execute::stage`]); the journal entry written (for a change of several files,
/// each new version kept beside it: §12's roll forward); the new versions and the entry
/// synced side by side; every file published by the one executor ([`execute::publish`]:
/// the last look at each file it replaces or removes, then each operation), every
/// directory it touched synced once; the entry committed, the directories it left empty
/// removed and the session's ledger told what each file is now. The change's `stat`, the
/// lines each file gained and lost as the tool counted them, goes into the entry. A
/// tool's `last` check is finished once the new contents are staged (and synced, while
/// it ran), before the entry is written ([`LastCheck`]). Returns the entry's id (`None`
/// with the journal off).
pub(super) fn commit<'w>(
    ctx: &'w Context,
    mut change: ChangeSet<'w>,
    last: Option<LastCheck<'_>>,
) -> Outcome<Option<String>> {
    let mut created = Vec::new();
    let staged = match last {
        None => execute::stage(ctx, &mut change, &mut created),
        Some(last) => stage_beside(ctx, &mut change, &mut created, last),
    };
    let committed = staged.and_then(|staged| journal_and_publish(ctx, &change, staged));
    if committed.is_err() {
        ctx.ws.remove_empty_dirs(&created);
    }
    committed
}

/// A check a tool finishes beside the commit's first steps (apply's syntax gate, begun on
/// a thread of its own): while it runs, the change's new versions are staged and — when
/// it is still running then — synced, so that its time passes in the shadow of their
/// flushes. It is finished before the journal entry is written, so a refusal from it
/// changes nothing, whatever stops the process: no entry, nothing to finish.
pub struct LastCheck<'s> {
    /// Whether the check has its answer already.
    pub ready: &'s dyn Fn() -> bool,
    /// Its answer, waited for.
    pub finish: Box<dyn FnOnce() -> Outcome<()> + 's>,
}

impl std::fmt::Debug for LastCheck<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LastCheck").finish_non_exhaustive()
    }
}

/// Stages the change's new versions while `last` runs, and syncs them while it still
/// does; its refusal comes first, before a failure to stage or sync, as it would have
/// had it ended before the commit began.
fn stage_beside<'w>(
    ctx: &'w Context,
    change: &mut ChangeSet<'w>,
    created: &mut Vec<String>,
    last: LastCheck<'_>,
) -> Outcome<Vec<Option<Staged<'w>>>> {
    let staged = match execute::stage(ctx, change, created) {
        Ok(staged) => staged,
        Err(failure) => {
            (last.finish)()?;
            return Err(failure);
        }
    };
    if (last.ready)() {
        (last.finish)()?;
        return Ok(staged);
    }
    let files: Vec<&Staged<'_>> = staged.iter().flatten().collect();
    let (checked, synced) = sync_all_beside(&files, last.finish);
    checked?;
    synced.map_err(|e| anyhow::Error::new(e).context("syncing new versions"))?;
    Ok(staged)
}

/// The entry [`journal::prepare`] wrote, with what syncs it and the versions it kept by a
/// hard link: `None` when the change writes none (the journal off, one file).
type Prepared<'w, 'p> = Option<(Pending, Unsynced<'w>, Vec<Linked<'p>>)>;

/// [`commit`] once the new versions are staged: the entry written and synced beside
/// them ([`prepare_entry`], [`sync_before_publish`]), the change published, and then
/// the entry committed or left for recovery ([`settle`]).
fn journal_and_publish<'w>(
    ctx: &'w Context,
    change: &ChangeSet<'w>,
    mut staged: Vec<Option<Staged<'w>>>,
) -> Outcome<Option<String>> {
    let prepared = prepare_entry(ctx, change, &mut staged)?;
    let (mut pending, linked) = sync_before_publish(ctx, change, &staged, prepared)?;
    // Past the commit point: what is not published yet stays kept for a later call to
    // finish, whatever stops this one.
    if pending.as_ref().is_some_and(Pending::rolls_forward) {
        for one in staged.iter_mut().flatten() {
            one.outlive();
        }
    }
    let mut dirty = Dirty::default();
    kill_hook::pause(Moment::BeforePublish);
    let published = execute::publish(ctx, change, staged, &mut dirty);
    kill_hook::pause(Moment::AfterPublish);
    let started = !dirty.is_empty();
    // A version kept by a hard link was the file's own inode until now: one written to
    // meanwhile is put right, published or not — a change refused at the last look
    // leaves its kept versions to `objects/`, where another change may rely on them.
    journal::recheck(ctx, &linked);
    let outcome = published.and_then(|()| {
        // The versions kept before moved to `objects/` while the directories are synced.
        dirty
            .sync_beside(|| {
                if let Some(pending) = pending.as_mut() {
                    pending.adopt(&ctx.ws);
                }
            })
            .map_err(|e| anyhow::Error::new(e).context("syncing directories").into())
    });
    settle(ctx, change, outcome, pending, started)
}

/// Writes the change's entry when it needs one, keeping each version before (and, for a
/// change of several files, each new one) beside it. A change of several files is
/// recorded even with the journal off, so that a crash past its commit point is
/// finished by a later call (§11).
fn prepare_entry<'w>(
    ctx: &'w Context,
    change: &ChangeSet<'w>,
    staged: &mut [Option<Staged<'w>>],
) -> Outcome<Prepared<'w, 'w>> {
    if journal::keyed(ctx).is_err() && change.files.len() <= 1 {
        return Ok(None);
    }
    // One file's change is one rename or unlink: there is nothing to finish after a
    // crash, so its new version is not kept beside the entry.
    let keep: &mut [Option<Staged<'w>>] = if change.files.len() > 1 {
        staged
    } else {
        &mut []
    };
    let results = journal::results_bytes(&change.results);
    journal::prepare(
        ctx,
        change.tool,
        (change.planned(), change.stat.clone()),
        (&change.about, results),
        keep,
    )
}

/// Syncs the new versions, and the entry and its directory side by side with them (the
/// results kept meanwhile, in the shadow of the flushes). A failure abandons the entry:
/// nothing was published.
fn sync_before_publish<'w, 'p>(
    ctx: &'w Context,
    change: &ChangeSet<'w>,
    staged: &[Option<Staged<'w>>],
    prepared: Prepared<'w, 'p>,
) -> Outcome<(Option<Pending>, Vec<Linked<'p>>)> {
    // Those synced while a last check ran are not synced again.
    let files: Vec<&Staged<'_>> = staged.iter().flatten().filter(|s| !s.is_synced()).collect();
    let (entry, synced) = match prepared.as_ref().map(|(_, unsynced, _)| unsynced) {
        None => (None, sync_all(&files)),
        Some(unsynced) => {
            let journaled = prepared.as_ref().is_some_and(|(p, _, _)| p.journaled());
            let keep = || {
                if journaled {
                    journal::keep_results(&ctx.ws, &change.results);
                }
            };
            let (entry, synced) = unsynced.sync_beside(|| sync_all(&files), &keep);
            (Some(entry), synced)
        }
    };
    let (pending, linked) = match prepared {
        Some((pending, _, linked)) => (Some(pending), linked),
        None => (None, Vec::new()),
    };
    let failed = match (entry, synced) {
        (Some(Err(e)), _) => Some(journal::state_failure(ctx, e)),
        (_, Err(e)) => Some(anyhow::Error::new(e).context("syncing new versions").into()),
        _ => None,
    };
    match failed {
        Some(failure) => {
            if let Some(pending) = pending {
                pending.abandon(ctx);
            }
            Err(failure)
        }
        None => Ok((pending, linked)),
    }
}

/// Once the change was published (or failed to be, `started` saying whether any file
/// already was): the entry committed, the directories the change left empty removed and
/// the ledger told; or, past the commit point, the entry left under `pending/` for the
/// next call of any kind to settle as after a crash (`recover`): a change that keeps its
/// new versions is finished, so the tree ends all-new rather than half; one file's
/// change, published, is kept. Before any file was published, the entry is abandoned.
fn settle(
    ctx: &Context,
    change: &ChangeSet<'_>,
    outcome: Outcome<()>,
    pending: Option<Pending>,
    started: bool,
) -> Outcome<Option<String>> {
    match (outcome, pending) {
        (Ok(()), pending) => {
            let id = pending.and_then(|p| p.commit(ctx));
            ctx.ws.vacate(change.files.iter().flat_map(FileOp::vacated));
            record(ctx, change);
            Ok(id)
        }
        (Err(e), Some(pending)) if started => {
            drop(pending);
            Err(e)
        }
        (Err(e), Some(pending)) => {
            pending.abandon(ctx);
            Err(e)
        }
        (Err(e), None) => Err(e),
    }
}

/// Tells the session's ledger what each file of `change` is now.
fn record(ctx: &Context, change: &ChangeSet<'_>) {
    for file in &change.files {
        if let Some(from) = file.from() {
            session_check::note_removed(ctx, &from.real);
        }
        match &file.after {
            Some(sha) => session_check::note_written(ctx, &file.at.real, sha),
            None => session_check::note_removed(ctx, &file.at.real),
        }
    }
}
