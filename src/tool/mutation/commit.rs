//! The last steps every mutation runs, once its checks have passed and the authorize hook
//! approved, with its new contents staged and synced: the journal entry made durable, the
//! change published, the entry committed, and the session's ledger told what each file is
//! now. A failure to publish leaves no entry behind; a failure before it changes nothing.
//!
//! A change of several files ([`commit_staged`]) keeps its new versions beside its entry,
//! syncs them side by side, publishes each file and syncs each directory once: once the
//! entry is durable, the change is finished by the next call even if this process dies.

use crate::refusal::Outcome;
use crate::workspace::{sync_all, Dirty, Staged};

use super::super::journal::{self, About, Pending, Planned};
use super::super::Context;
use super::session_check;

/// A change about to be published: which tool makes it, and what it does to each file
/// (with how each file's version before is kept).
#[derive(Debug)]
pub struct Change<'a> {
    pub tool: &'static str,
    pub files: Vec<Planned<'a>>,
    pub about: About,
}

impl<'a> Change<'a> {
    /// A change by `tool` of `files`, with nothing more to say of it.
    #[must_use]
    pub fn of(tool: &'static str, files: Vec<Planned<'a>>) -> Change<'a> {
        Change {
            tool,
            files,
            about: About::default(),
        }
    }
}

/// Journals `change`, runs `publish`, commits the entry, and records in the session what
/// each file is now. Returns the entry's id (`None` with the journal off).
pub fn commit(
    ctx: &Context,
    change: Change<'_>,
    publish: impl FnOnce() -> Outcome<()>,
) -> Outcome<Option<String>> {
    commit_syncing(ctx, change, (), |()| Ok(()), |()| publish())
}

/// [`commit`] for a change whose new contents (`staged`) are staged but not yet synced:
/// `sync` syncs them on another core while the entry is written and synced here, since
/// both must reach the disk before anything is published and neither needs the other;
/// then `publish` publishes them.
pub fn commit_syncing<T: Sync>(
    ctx: &Context,
    change: Change<'_>,
    staged: T,
    sync: impl FnOnce(&T) -> Outcome<()> + Send,
    publish: impl FnOnce(T) -> Outcome<()>,
) -> Outcome<Option<String>> {
    let versions = versions(&change);
    // The entry is written first, then both it and the new contents are synced at once:
    // their metadata then reaches the disk in one commit of the filesystem's journal. The
    // syncing thread is started before the entry is written, so that its start-up is not
    // on the critical path, and waits for the entry before it syncs.
    let pending = if ctx.policy.journal && journal::keyed(ctx).is_ok() {
        let ready = std::sync::Barrier::new(2);
        let (prepared, synced) = std::thread::scope(|scope| {
            let (staged, ready) = (&staged, &ready);
            let syncing = scope.spawn(move || {
                ready.wait();
                sync(staged)
            });
            let prepared = journal::prepare(ctx, change.tool, change.files, &change.about);
            ready.wait();
            let prepared = prepared.map(|p| {
                p.map(|(pending, unsynced)| {
                    let entry = unsynced.sync();
                    (pending, entry)
                })
            });
            let synced = syncing
                .join()
                .unwrap_or_else(|_| Err(anyhow::anyhow!("a sync panicked").into()));
            (prepared, synced)
        });
        match (prepared?, synced) {
            (None, synced) => {
                synced?;
                None
            }
            (Some((pending, entry)), synced) => {
                if let Err(e) = entry {
                    pending.abandon(ctx);
                    return Err(journal::state_failure(ctx, e));
                }
                if let Err(e) = synced {
                    pending.abandon(ctx);
                    return Err(e);
                }
                Some(pending)
            }
        }
    } else {
        sync(&staged)?;
        None
    };
    let id = journal::publish_under(ctx, pending, || publish(staged))?;
    record(ctx, versions);
    Ok(id)
}

/// [`commit`] for a change of several files whose new versions are `staged` (one per file
/// of `change`, `None` for a file it removes or moves), not yet synced. Each new version is
/// kept beside the entry (§12's roll forward), then the new versions are synced side by
/// side while the entry is synced here; then `publish` publishes them, handing each
/// directory it touched to the [`Dirty`] it is given, and each of those is synced once.
pub fn commit_staged<'w>(
    ctx: &'w Context,
    change: Change<'_>,
    mut staged: Vec<Option<Staged<'w>>>,
    publish: impl FnOnce(Vec<Option<Staged<'w>>>, &mut Dirty) -> Outcome<()>,
) -> Outcome<Option<String>> {
    let versions = versions(&change);
    let prepared = if ctx.policy.journal && journal::keyed(ctx).is_ok() {
        journal::prepare_keeping(ctx, change.tool, change.files, &change.about, &mut staged)?
    } else {
        None
    };
    let (entry, synced) = std::thread::scope(|scope| {
        let files: Vec<&Staged<'_>> = staged.iter().flatten().collect();
        let syncing = (!files.is_empty()).then(|| scope.spawn(move || sync_all(&files)));
        let entry = prepared.as_ref().map(|(_, unsynced)| unsynced.sync());
        let synced = syncing.map_or(Ok(()), |s| {
            s.join().unwrap_or_else(|_| {
                Err(crate::workspace::Error::Io(std::io::Error::other(
                    "a sync panicked",
                )))
            })
        });
        (entry, synced)
    });
    let pending = prepared.map(|(pending, _)| pending);
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
    let published = publish(staged, &mut dirty);
    let started = !dirty.is_empty();
    let outcome = published.and_then(|()| {
        dirty
            .sync()
            .map_err(|e| anyhow::Error::new(e).context("syncing directories").into())
    });
    match (outcome, pending) {
        (Ok(()), pending) => {
            let id = pending.map(|p| p.commit(ctx));
            record(ctx, versions);
            Ok(id)
        }
        // Past the commit point, some file already published: the change is finished by
        // the next call, as after a crash, so the tree ends all-new rather than half.
        (Err(e), Some(pending)) if started && pending.rolls_forward() => {
            // The entry stays under `pending/` for the next call of any kind to finish
            // (`journal::recover`), as after a crash.
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
