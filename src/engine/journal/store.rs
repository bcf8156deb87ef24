//! The journal's store of entries as a type of its own (as jj keeps its operations in an
//! `OpStore`): what is on a shelf, read one entry at a time. A listing ([`Listing`]) walks
//! the committed entries newest first and holds one at a time, with the ids taken back so
//! far; [`Store::get`] reads one entry by its id; [`scan`] reads a whole shelf for a
//! prune. A listing returns only this key's entries; another key's are counted from their
//! names, and those that must be read to be told apart cost a call at most
//! [`FOREIGN_BUDGET`] bytes, the rest counted in `foreign`.

use std::collections::HashSet;

use crate::engine::Context;
use crate::refusal::Outcome;
use crate::workspace::journal_files::Shelf;

use super::{entry, keyed, state_failure, Entry, Keyed};

/// The most bytes one call reads of entries that turn out not to verify (another key's,
/// planted, copied, damaged): past it, the rest are counted in `foreign` unread, so
/// thousands of planted entries cost a call little.
pub const FOREIGN_BUDGET: u64 = 8 << 20;

/// The journal's committed entries, under the key of a call.
#[derive(Debug)]
pub struct Store<'c> {
    ctx: &'c Context,
    keyed: &'c Keyed,
    /// The names of the entries that may be this key's, with their ids, oldest first,
    /// and how many names are not (listed once a call).
    names: std::cell::OnceCell<(Vec<(String, String)>, usize)>,
}

impl<'c> Store<'c> {
    /// The store of `ctx`'s journal, or why the journal is off.
    pub fn open(ctx: &'c Context) -> Result<Store<'c>, String> {
        Ok(Store {
            ctx,
            keyed: keyed(ctx)?,
            names: std::cell::OnceCell::new(),
        })
    }

    /// The names on `entries/` that may be this key's (its id in the name, or none), with
    /// their ids, oldest first; and how many are not.
    fn names(&self) -> Outcome<&(Vec<(String, String)>, usize)> {
        if let Some(names) = self.names.get() {
            return Ok(names);
        }
        let listed = self
            .ctx
            .ws
            .journal_list(Shelf::Entries)
            .map_err(|e| state_failure(self.ctx, e))?;
        let mut ours = Vec::new();
        let mut others = 0;
        for name in listed {
            if name.starts_with('.') {
                continue;
            }
            match entry::parse_name(&name) {
                Some((id, _)) if super::maybe_ours(self.keyed, &name) => {
                    ours.push((id.to_owned(), name));
                }
                _ => others += 1,
            }
        }
        ours.sort();
        Ok(self.names.get_or_init(|| (ours, others)))
    }

    /// The committed entries, newest first, read as they are walked.
    pub fn newest_first(&self) -> Outcome<Listing<'_, 'c>> {
        let (names, others) = self.names()?;
        Ok(Listing {
            store: self,
            names: names.iter().rev(),
            budget: FOREIGN_BUDGET,
            foreign: *others,
            undone: HashSet::new(),
        })
    }

    /// The committed entry `id`, when there is one of this key's.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<Entry> {
        let (names, _) = self.names().ok()?;
        let first = names.partition_point(|(one, _)| one.as_str() < id);
        names[first..]
            .iter()
            .take_while(|(one, _)| one == id)
            .find_map(|(_, name)| match self.read(name, id) {
                EntryRead::Ours(entry) => Some(entry),
                _ => None,
            })
    }

    /// The entry `name` (of id `id`), read and verified.
    fn read(&self, name: &str, id: &str) -> EntryRead {
        let Ok(Some(bytes)) =
            self.ctx
                .ws
                .journal_read(Shelf::Entries, name, entry::MAX_ENTRY_BYTES)
        else {
            return EntryRead::Unread;
        };
        match entry::classify(&bytes, &self.keyed.key, &self.keyed.root, id) {
            entry::Found::Ours(entry) => EntryRead::Ours(entry),
            _ => EntryRead::Not(bytes.len() as u64),
        }
    }
}

/// What reading one entry found.
enum EntryRead {
    Ours(Entry),
    /// Not this key's (so many bytes read).
    Not(u64),
    /// Missing, not a regular file, or over the bound.
    Unread,
}

/// The committed entries of a [`Store`], newest first, each read when it is reached.
#[derive(Debug)]
pub struct Listing<'s, 'c> {
    store: &'s Store<'c>,
    names: std::iter::Rev<std::slice::Iter<'s, (String, String)>>,
    budget: u64,
    foreign: usize,
    undone: HashSet<String>,
}

impl Listing<'_, '_> {
    /// Whether the entry `id`, already walked, stands taken back: undone by a later entry
    /// that is not itself taken back.
    #[must_use]
    pub fn undone(&self) -> &HashSet<String> {
        &self.undone
    }

    /// How many entries are not this key's (or could not be read), of those walked so
    /// far and of those whose names say so: exact once the listing is walked to its end.
    #[must_use]
    pub fn foreign(&self) -> usize {
        self.foreign
    }
}

impl Iterator for Listing<'_, '_> {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        for (id, name) in self.names.by_ref() {
            let ours = entry::key_of(name) == Some(self.store.keyed.id.as_str());
            if !ours && self.budget == 0 {
                self.foreign += 1;
                continue;
            }
            match self.store.read(name, id) {
                EntryRead::Ours(entry) => {
                    // Walked newest first, every entry that could take this one back is
                    // already seen.
                    if !self.undone.contains(&entry.id) {
                        if let Some(target) = &entry.undoes {
                            self.undone.insert(target.clone());
                        }
                    }
                    return Some(entry);
                }
                EntryRead::Not(bytes) => {
                    self.foreign += 1;
                    self.budget = self.budget.saturating_sub(bytes);
                }
                EntryRead::Unread => self.foreign += 1,
            }
        }
        None
    }
}

/// What lies on a shelf: the names of the entries that verify (oldest first, with their
/// ids), how many do not, the versions named by those another key wrote (which no prune
/// or recovery of ours removes), and whether some were left unread ([`FOREIGN_BUDGET`])
/// though asked for. The entries themselves are not kept: each is handed to the scan's
/// caller as it is read, so a shelf is never held in memory whole.
#[derive(Debug, Default)]
pub struct Scan {
    pub ours: Vec<(String, String)>,
    pub foreign: usize,
    pub foreign_kept: HashSet<String>,
    pub unread: bool,
}

/// Reads every entry on `shelf` ([`Scan`]), one at a time, for a prune: ours (each handed
/// to `each` with its name), and another key's for the versions they name, within the
/// budget.
pub fn scan(
    ctx: &Context,
    keyed: &Keyed,
    shelf: Shelf,
    mut each: impl FnMut(&str, &Entry),
) -> Outcome<Scan> {
    let names = ctx
        .ws
        .journal_list(shelf)
        .map_err(|e| state_failure(ctx, e))?;
    let mut scan = Scan::default();
    let mut budget = FOREIGN_BUDGET;
    for name in names {
        if name.starts_with('.') {
            continue;
        }
        let Some((id, _)) = entry::parse_name(&name) else {
            scan.foreign += 1;
            continue;
        };
        let ours = entry::key_of(&name) == Some(keyed.id.as_str());
        if !ours && budget == 0 {
            scan.foreign += 1;
            scan.unread = true;
            continue;
        }
        let Ok(Some(bytes)) = ctx.ws.journal_read(shelf, &name, entry::MAX_ENTRY_BYTES) else {
            scan.foreign += 1;
            continue;
        };
        match entry::classify(&bytes, &keyed.key, &keyed.root, id) {
            entry::Found::Ours(entry) => {
                each(&name, &entry);
                let id = entry.id;
                scan.ours.push((name, id));
            }
            found => {
                scan.foreign += 1;
                budget = budget.saturating_sub(bytes.len() as u64);
                if let entry::Found::Foreign(entry) = found {
                    for file in &entry.files {
                        scan.foreign_kept.extend(file.kept_versions().cloned());
                    }
                }
            }
        }
    }
    scan.ours.sort_by(|a, b| a.1.cmp(&b.1));
    Ok(scan)
}

/// The entry `name` on `shelf`, when it is ours and verifies.
#[must_use]
pub fn read_ours(ctx: &Context, keyed: &Keyed, shelf: Shelf, name: &str) -> Option<Entry> {
    let (id, _) = entry::parse_name(name)?;
    let bytes = ctx
        .ws
        .journal_read(shelf, name, entry::MAX_ENTRY_BYTES)
        .ok()??;
    entry::decode(&bytes, &keyed.key, &keyed.root, id)
}
