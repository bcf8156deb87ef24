//! An apply in a session whose files moved on since the session read them (§6, staleness
//! by region): a file changed by one update or one edit item lands when every line its
//! hunks cover is one the session saw, unchanged since, as an edit does; the result names
//! the lines another program changed, and the session's ledger holds them unseen.

use std::collections::BTreeMap;

use crate::engine::journal;
use crate::engine::session_check;
use crate::refusal::Refusal;
use crate::workspace::Location;

use super::super::edit::stale_read::{self, ByRegion};
use super::super::Context;
use super::build::{Body, Built, Held, Original};
use super::Changed;

/// Whether the change to the file at `location` lands by region: `None` where the
/// whole-file rule holds (no session, a read at this version, an `expectedSha256`, more
/// than one change to the file, a move, a file that is not text or past the bound).
pub fn check(
    ctx: &Context,
    built: &Built,
    location: &Location,
    original: &Original,
) -> Option<Result<ByRegion, Refusal>> {
    ctx.session.as_ref()?;
    let real = &location.real;
    if built.guarded.contains(real) {
        return None;
    }
    let Body::Text(text) = &original.body else {
        return None;
    };
    let mut touching = built
        .effects
        .iter()
        .filter(|s| &s.real == real || s.from.as_ref() == Some(real));
    let step = touching.next()?;
    if touching.next().is_some() || step.operation != "edit" || step.from.is_some() {
        return None;
    }
    let spans = step.landed.region.as_ref()?;
    stale_read::check_spans(ctx, location, (text.as_bytes(), &original.sha256), spans)
}

/// Whether the change was published (not a dry run, nor withheld by the authorize
/// command).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Published {
    No,
    Yes,
}

/// The result's word on each file that landed by region (`staleRead`, `foreignChanges`),
/// and — once published — the session's ledger told which lines of the result it has
/// not seen, and the result's line digests kept where the journal does not keep it.
pub fn report(
    ctx: &Context,
    (built, landed): (&Built, &BTreeMap<String, (String, ByRegion)>),
    changed: &mut [Changed],
    published: Published,
) {
    for (real, (shown, by_region)) in landed {
        let Some(entry) = changed.iter_mut().find(|c| &c.path == shown) else {
            continue;
        };
        entry.stale_read = true;
        entry.foreign_changes.clone_from(&by_region.foreign);
        let Some(sha256) = entry
            .sha256
            .as_deref()
            .filter(|_| published == Published::Yes)
        else {
            continue;
        };
        session_check::note_written_lines(ctx, real, sha256, by_region.unseen_after.clone());
        if let Some(Held::Text(text)) = built.tree.get(real).map(|slot| &slot.held) {
            let kept_by_journal =
                journal::keyed(ctx).is_ok() && text.len() as u64 <= journal::RESULT_MAX_BYTES;
            if !kept_by_journal {
                crate::region::keep(&ctx.ws, sha256, text.as_bytes());
            }
        }
    }
}
