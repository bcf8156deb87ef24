//! The journal's bounds: at most `limits.journalEntries` entries and `limits.journalBytes`
//! bytes of kept content. Checked at the end of a journaled mutation from the names alone
//! (each entry's file name carries the bytes it keeps); only past a bound are the entries
//! read — one at a time, never a whole shelf at once — the oldest of ours removed — to a
//! tenth below the bound for large bounds, so that
//! this costs once in many calls — and the kept versions that no entry names any more
//! removed with them, at once: the prune holds the journal's lock exclusively, so no
//! change is in flight with a version kept and not yet named. Foreign entries are neither
//! counted nor removed, and what they name stays (another key's, on a shared checkout).
//!
//! Listing the names costs in proportion to the entries (a third of a millisecond for a
//! thousand, more than the rest of the journal's work on a small edit), so past
//! [`CHECKED_EVERY_TIME`] entries allowed a change checks the bounds only when its id
//! falls in one of [`CHECK_ONE_IN`] (by its digest, whatever the clock's granularity), or
//! when it keeps a sizeable share of the bytes allowed: a journal passes its entry bound
//! by about [`CHECK_ONE_IN`] entries at most on average, and its byte bound by a few
//! percent, before the check that brings it to a tenth below.

use std::collections::HashSet;

use sha2::{Digest, Sha256};

use crate::workspace::journal_files::Shelf;

use super::store::read_ours;
use super::{entry, maybe_ours, scan, Entry, Keyed};
use crate::engine::Context;

/// A kept version younger than this may belong to an entry being made right now.
pub const IN_FLIGHT_SECS: u64 = 2;

/// Bounds allowing at most this many entries are checked at every change.
pub const CHECKED_EVERY_TIME: u64 = 200;

/// Past [`CHECKED_EVERY_TIME`], about one change in this many checks the bounds.
pub const CHECK_ONE_IN: u8 = 16;

/// A change that keeps more than this share of `limits.journalBytes` (one part in it)
/// checks the bounds whatever its id.
const SIZEABLE_SHARE: u64 = 256;

/// Holds the journal to its bounds, as the module says, after the entry `name` was
/// committed.
pub fn bound(ctx: &Context, keyed: &Keyed, name: &str) {
    let (max_entries, max_bytes) = (ctx.limits.journal_entries, ctx.limits.journal_bytes);
    if !due(name, max_entries, max_bytes) {
        return;
    }
    let (mut count, mut total) = (0u64, 0u64);
    let tallied = ctx.ws.journal_each(Shelf::Entries, |name| {
        if let Some((_, kept)) = entry::parse_name(name).filter(|_| maybe_ours(keyed, name)) {
            count += 1;
            total = total.saturating_add(kept);
        }
    });
    if tallied.is_err() || (count <= max_entries && total <= max_bytes) {
        return;
    }
    // No change is in flight while the journal's lock is held exclusively: every version
    // one keeps is named by its entry, under `pending/` or `entries/`, before it lets go.
    let Some(_alone) = crate::lock::journal_exclusive(&ctx.ws) else {
        return;
    };
    // The entries are read one at a time: only their names and ids are kept here.
    let Ok(listed) = scan(ctx, keyed, Shelf::Entries, |_, _| {}) else {
        return;
    };
    let valid = listed.ours;
    let slack = |max: u64| if max >= 20 { max / 10 } else { 0 };
    let (target_entries, target_bytes) = (
        max_entries - slack(max_entries),
        max_bytes - slack(max_bytes),
    );
    let kept_of = |name: &str| entry::parse_name(name).map_or(0, |(_, kept)| kept);
    let mut count = valid.len() as u64;
    let mut bytes: u64 = valid.iter().map(|(name, _)| kept_of(name)).sum();
    let mut first_kept = 0;
    while first_kept < valid.len() && (count > target_entries || bytes > target_bytes) {
        let name = &valid[first_kept].0;
        ctx.ws.journal_remove(Shelf::Entries, name);
        count -= 1;
        bytes = bytes.saturating_sub(kept_of(name));
        first_kept += 1;
    }
    // Named: by the entries that stay, by those pending (a change that died, settled by
    // recovery), and by every entry another key wrote, on either shelf.
    let mut named: HashSet<String> = listed.foreign_kept;
    let name_all = |named: &mut HashSet<String>, e: &Entry| {
        for file in &e.files {
            // The versions kept before, and the result kept for undo's merge.
            named.extend(file.kept_versions().cloned());
            named.extend(file.after.iter().cloned());
        }
    };
    let Ok(pending) = scan(ctx, keyed, Shelf::Pending, |_, e| name_all(&mut named, e)) else {
        return;
    };
    named.extend(pending.foreign_kept);
    for (name, _) in &valid[first_kept..] {
        // Read again, one at a time: one that cannot be read now leaves every version.
        let Some(e) = read_ours(ctx, keyed, Shelf::Entries, name) else {
            return;
        };
        name_all(&mut named, &e);
    }
    // Another key's entries left unread may name any version: none is removed then.
    if listed.unread || pending.unread {
        return;
    }
    let Ok(objects) = ctx.ws.journal_objects() else {
        return;
    };
    for object in objects {
        if !named.contains(&object.name) {
            ctx.ws.journal_remove_object(&object.name);
        }
    }
}

/// Whether the change committed as `name` checks the bounds (see the module).
fn due(name: &str, max_entries: u64, max_bytes: u64) -> bool {
    let Some((id, kept)) = entry::parse_name(name) else {
        return true;
    };
    max_entries <= CHECKED_EVERY_TIME
        || kept.saturating_mul(SIZEABLE_SHARE) > max_bytes
        || Sha256::digest(id.as_bytes())[0] % CHECK_ONE_IN == 0
}

#[cfg(test)]
mod tests {
    use super::{due, CHECKED_EVERY_TIME, CHECK_ONE_IN};
    use crate::engine::journal::entry::file_name;

    #[test]
    fn small_bounds_and_sizeable_changes_are_checked_every_time() {
        let name = file_name("00000000000000000001", 10, "k");
        assert!(due(&name, CHECKED_EVERY_TIME, 1 << 30));
        assert!(due(
            &file_name("00000000000000000001", 1 << 23, "k"),
            1000,
            1 << 30
        ));
    }

    #[test]
    fn past_them_about_one_change_in_sixteen_is_checked() {
        let checked = (0..16_000u64)
            .filter(|n| {
                due(
                    &file_name(&format!("{:020}", n * 1000), 10, "k"),
                    1000,
                    1 << 30,
                )
            })
            .count();
        let expected = 16_000 / usize::from(CHECK_ONE_IN);
        assert!(
            (expected * 8 / 10..=expected * 12 / 10).contains(&checked),
            "{checked} of 16000 checked, about {expected} expected"
        );
    }
}
