//! The journal's bounds: at most `limits.journalEntries` entries and `limits.journalBytes`
//! bytes of kept content. Checked at the end of every journaled mutation from the names
//! alone (each entry's file name carries the bytes it keeps); only past a bound are the
//! entries read, the oldest of ours removed — to a tenth below the bound for large
//! bounds, so that this costs once in many calls — and the kept versions that no entry
//! names any more removed with them. Foreign entries are neither counted nor removed.

use std::collections::HashSet;

use crate::workspace::journal::Shelf;

use super::super::Context;
use super::{entries, entry, Keyed};

/// A kept version younger than this may belong to an entry being made right now.
pub const IN_FLIGHT_SECS: u64 = 2;

/// Holds the journal to its bounds, as the module says.
pub fn bound(ctx: &Context, keyed: &Keyed) {
    let (max_entries, max_bytes) = (ctx.limits.journal_entries, ctx.limits.journal_bytes);
    let (mut count, mut total) = (0u64, 0u64);
    let tallied = ctx.ws.journal_each(Shelf::Entries, |name| {
        if let Some((_, kept)) = entry::parse_name(name) {
            count += 1;
            total = total.saturating_add(kept);
        }
    });
    if tallied.is_err() || (count <= max_entries && total <= max_bytes) {
        return;
    }
    let Ok((valid, _)) = entries(ctx, keyed, Shelf::Entries) else {
        return;
    };
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
    let mut named: HashSet<String> = HashSet::new();
    let pending = entries(ctx, keyed, Shelf::Pending).map_or_else(|_| Vec::new(), |(p, _)| p);
    for (_, e) in valid[first_kept..].iter().chain(pending.iter()) {
        for file in &e.files {
            named.extend(file.kept_versions().cloned());
        }
    }
    let Ok(objects) = ctx.ws.journal_objects(false) else {
        return;
    };
    for object in objects {
        if !named.contains(&object.name) && object.age_secs >= IN_FLIGHT_SECS {
            ctx.ws.journal_remove_object(&object.name);
        }
    }
}
