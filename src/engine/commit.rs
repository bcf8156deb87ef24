//! The last steps every mutation runs, once its checks have passed and the authorize hook
//! approved, with its new contents staged: the journal entry written, the new contents and
//! the entry synced, the change published, the directories synced, the entry committed,
//! the directories the change left empty removed (`Workspace::vacate`), and the session's ledger
//! told what each file is now — one function, [`commit`], for every tool. A failure
//! before anything is published changes nothing and leaves no entry; past the commit
//! point, a change of several files is finished by the next call.

use crate::refusal::Outcome;
use crate::workspace::{sync_all, Dirty, Staged};

use super::journal::{self, About, Made, Pending, Planned};
use super::kill_hook::{self, Moment};
use super::session_check;
use crate::tool::Context;

/// A change about to be published: which tool makes it, and what it does to each file
/// (with how each file's version before is kept).
#[derive(Debug)]
pub struct Change<'a> {
    pub tool: &'static str,
    pub files: Vec<Planned<'a>>,
    pub about: About,
    /// The new versions the change makes, kept once it is published (up to
    /// [`journal::RESULT_MAX_BYTES`] each) so that an undo can merge.
    pub results: Vec<Made<'a>>,
}

impl<'a> Change<'a> {
    /// A change by `tool` of `files`, with nothing more to say of it.
    #[must_use]
    pub fn of(tool: &'static str, files: Vec<Planned<'a>>) -> Change<'a> {
        Change {
            tool,
            files,
            about: About::default(),
            results: Vec::new(),
        }
    }

    /// This change, keeping its new version `sha` (its bytes: `parts`, in order).
    #[must_use]
    pub fn keeping(mut self, sha: &str, parts: Vec<&'a [u8]>) -> Change<'a> {
        self.results.push(Made {
            sha: sha.to_owned(),
            parts,
        });
        self
    }
}

/// The last steps of every mutation — write, edit, delete, move, undo, apply — in one
/// function over the typed plan `change` and its new versions `staged` (one per file of
/// `change`, `None` for a file it removes or moves), staged but not yet synced: the
/// journal entry is written (for a change of several files, each new version kept beside
/// it: §12's roll forward), the new versions and the entry are synced side by side, then
/// `publish` publishes each file, handing every directory it touched to the [`Dirty`] it
/// is given, and each of those is synced once; the entry is committed and the session's
/// ledger told what each file is now. `stat`, the lines each file gained and lost as the
/// tool counted them, goes into the entry. Returns the entry's id (`None` with the journal
/// off).
pub(super) fn commit<'w>(
    ctx: &'w Context,
    (change, stat): (Change<'_>, Vec<Option<journal::entry::Stat>>),
    mut staged: Vec<Option<Staged<'w>>>,
    publish: impl FnOnce(Vec<Option<Staged<'w>>>, &mut Dirty) -> Outcome<()>,
) -> Outcome<Option<String>> {
    let versions = versions(&change);
    // A change of several files is recorded even with the journal off, so that a crash
    // past its commit point is finished by a later call (§11).
    let prepared = if journal::keyed(ctx).is_ok() || change.files.len() > 1 {
        // One file's change is one rename or unlink: there is nothing to finish after a
        // crash, so its new version is not kept beside the entry.
        let keep: &mut [Option<Staged<'w>>] = if change.files.len() > 1 {
            &mut staged
        } else {
            &mut []
        };
        let results = journal::results_bytes(&change.results);
        journal::prepare(
            ctx,
            change.tool,
            (change.files, stat),
            (&change.about, results),
            keep,
        )?
    } else {
        None
    };
    let files: Vec<&Staged<'_>> = staged.iter().flatten().collect();
    let (entry, synced) = match prepared.as_ref().map(|(_, unsynced, _)| unsynced) {
        None => (None, sync_all(&files)),
        // The new versions, the entry and its directory synced side by side.
        Some(unsynced) => {
            let (entry, synced) = unsynced.sync_beside(|| sync_all(&files));
            (Some(entry), synced)
        }
    };
    drop(files);
    let (pending, linked) = match prepared {
        Some((pending, _, linked)) => (Some(pending), linked),
        None => (None, Vec::new()),
    };
    let failed = match (entry, synced) {
        (Some(Err(e)), _) => Some(journal::state_failure(ctx, e)),
        (_, Err(e)) => Some(anyhow::Error::new(e).context("syncing new versions").into()),
        _ => None,
    };
    if let Some(failure) = failed {
        if let Some(pending) = pending {
            pending.abandon(ctx);
        }
        return Err(failure);
    }
    // Past the commit point: what is not published yet stays kept for a later call to
    // finish, whatever stops this one.
    if pending.as_ref().is_some_and(Pending::rolls_forward) {
        for one in staged.iter_mut().flatten() {
            one.outlive();
        }
    }
    let mut dirty = Dirty::default();
    kill_hook::pause(Moment::BeforePublish);
    let published = publish(staged, &mut dirty);
    kill_hook::pause(Moment::AfterPublish);
    let started = !dirty.is_empty();
    let outcome = published.and_then(|()| {
        dirty
            .sync()
            .map_err(|e| anyhow::Error::new(e).context("syncing directories").into())
    });
    match (outcome, pending) {
        (Ok(()), pending) => {
            journal::recheck(ctx, &linked);
            if pending.as_ref().is_some_and(Pending::journaled) {
                journal::keep_results(ctx, &change.results);
            }
            let id = pending.and_then(|p| p.commit(ctx));
            ctx.ws.vacate(versions.iter().flat_map(vacated));
            record(ctx, versions);
            Ok(id)
        }
        // Past the commit point, some file already published: the entry stays under
        // `pending/`, and the next call of any kind settles it as after a crash
        // (`journal::recover`): a change that keeps its new versions is finished, so the
        // tree ends all-new rather than half; one file's change, published, is kept.
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

/// Each file's path, version after and source (for a move), for the session's ledger.
fn versions(change: &Change<'_>) -> Vec<(String, Option<String>, Option<String>)> {
    change
        .files
        .iter()
        .map(|p| {
            (
                p.record.path.clone(),
                p.record.after.clone(),
                p.record.from.clone(),
            )
        })
        .collect()
}

/// The paths a file of a change leaves: its own when the change removes it, and a move's
/// source.
fn vacated(
    (path, after, from): &(String, Option<String>, Option<String>),
) -> impl Iterator<Item = &str> {
    let removed = after.is_none().then_some(path.as_str());
    removed.into_iter().chain(from.as_deref())
}

/// Tells the session's ledger what each file is now.
fn record(ctx: &Context, versions: Vec<(String, Option<String>, Option<String>)>) {
    for (path, after, from) in versions {
        if let Some(from) = from {
            session_check::note_removed(ctx, &from);
        }
        match after {
            Some(sha) => session_check::note_written(ctx, &path, &sha),
            None => session_check::note_removed(ctx, &path),
        }
    }
}
