//! The last steps every mutation runs, once its checks have passed and the authorize hook
//! approved, with its new contents staged and synced: the journal entry made durable, the
//! change published, the entry committed, and the session's ledger told what each file is
//! now. A failure to publish leaves no entry behind; a failure before it changes nothing.

use crate::refusal::Outcome;

use super::super::journal::{self, About, Planned};
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
    let versions: Vec<(String, Option<String>, Option<String>)> = change
        .files
        .iter()
        .map(|p| {
            (
                p.record.path.clone(),
                p.record.after.clone(),
                p.record.from.clone(),
            )
        })
        .collect();
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
    for (path, after, from) in versions {
        if let Some(from) = from {
            session_check::note_removed(ctx, &from);
        }
        match after {
            Some(sha) => session_check::note_written(ctx, &path, &sha),
            None => session_check::note_removed(ctx, &path),
        }
    }
    Ok(id)
}
