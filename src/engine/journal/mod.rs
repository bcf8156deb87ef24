//! The journal (§11): every change stitch makes is one entry, written and synced before the
//! change is published, so that any later process can list it and take it back.
//!
//! A mutation hands [`prepare`] the files it will change — each with its version before and
//! after, and how to keep the version before — once every check has passed and just before
//! it publishes; then [`Pending::commit`] after. An entry is made under `pending/` and moved
//! to `entries/` once its change is published. A change of several files keeps its new
//! versions beside the entry (also [`prepare`]), so that one left pending by a process
//! that died past the commit point is finished by the next call of any kind
//! ([`super::recover`]); an entry without them is kept when its files are at their new
//! versions, dropped when they are not. Entries are authenticated ([`entry`]); one that
//! does not verify is foreign: never listed, undone, counted in the bounds or removed.
//! What the entries say of the files now is looked up in [`lookup`].

pub mod entry;
pub mod lookup;
pub(super) mod prune;
mod store;
pub mod time;

use crate::refusal::{Failure, Outcome};
use crate::workspace::home::Home;
use crate::workspace::journal_files::{Kept, Provenance, Shelf, Unsynced};
use crate::workspace::{Location, OpenFile, Staged};

use crate::engine::{refuse, Context};
pub use entry::{Entry, FileRecord};
use lookup::undo_stat;
pub use lookup::{applied_by, current, result_of, stat, Now};
pub use store::{scan, Store};

/// The key and root an entry is authenticated under.
#[derive(Debug, Clone)]
pub struct Keyed {
    pub(super) key: [u8; crate::workspace::KEY_BYTES],
    pub(super) root: Vec<u8>,
    /// The key's id, as the names of its entries carry it ([`entry::key_id`]).
    id: String,
}

/// Whether the journal is on in `ctx`: the key, or why it is off. Looked up once a call.
pub fn keyed(ctx: &Context) -> Result<&Keyed, String> {
    ctx.journal_key
        .get_or_init(|| look_up(ctx))
        .as_ref()
        .map_err(Clone::clone)
}

fn look_up(ctx: &Context) -> Result<Keyed, String> {
    if !ctx.policy.journal {
        return Err("journal: false in a config turns the journal off".into());
    }
    let home = Home::from_env();
    match home.journal_key() {
        Ok(key) => Ok(Keyed {
            key,
            root: ctx.ws.root_path().as_os_str().as_encoded_bytes().to_vec(),
            id: entry::key_id(&key),
        }),
        Err(_) => Err(format!(
            "the journal's key ({}) cannot be made or read, so the journal is off",
            home.key_shown()
        )),
    }
}

/// How the version of a file before a change is kept.
#[derive(Debug, Clone, Copy)]
pub enum Keep<'a> {
    /// Nothing to keep: the file was absent, or its content stays (a move).
    Nothing,
    /// The file at `location`, open as `file`: its inode linked, or its bytes (`bytes`
    /// when they are in memory) copied.
    File {
        location: &'a Location,
        file: &'a OpenFile,
        bytes: Option<&'a [u8]>,
    },
}

/// One file of a change about to be published, and how its version before is kept.
#[derive(Debug)]
pub struct Planned<'a> {
    pub record: FileRecord,
    pub keep: Keep<'a>,
}

/// A version kept by a hard link to the replaced file's own inode: a writer that held
/// the file open may append through it after the publish, so it is looked at again then
/// ([`recheck`]).
#[derive(Debug)]
pub struct Linked<'a> {
    sha: String,
    file: &'a OpenFile,
    bytes: Option<&'a [u8]>,
}

/// Looks again at each version `linked` kept by a hard link, once its change is published
/// and before its entry is committed: one that another program wrote through since it
/// was read is replaced by a copy of what was read (its bytes, when the change held
/// them), or else removed, so that an undo refuses it as missing rather than restore
/// bytes that are not the version its entry names.
pub fn recheck(ctx: &Context, linked: &[Linked<'_>]) {
    for one in linked {
        ctx.ws.recheck_linked(&one.sha, one.file, one.bytes);
    }
}

/// The most bytes of a change's result the journal keeps (a copy, so small files only).
pub const RESULT_MAX_BYTES: u64 = 1 << 20;

/// A new version a change makes, to be kept once it is published.
#[derive(Debug)]
pub struct Made<'a> {
    pub sha: String,
    pub parts: Vec<&'a [u8]>,
}

impl Made<'_> {
    fn len(&self) -> u64 {
        self.parts.iter().map(|p| p.len() as u64).sum()
    }
}

/// The bytes of `results` the journal keeps, counted in the entry's name with the
/// versions it keeps before, so that the bounds hold them too.
#[must_use]
pub fn results_bytes(results: &[Made<'_>]) -> u64 {
    results
        .iter()
        .map(Made::len)
        .filter(|&len| len <= RESULT_MAX_BYTES)
        .sum()
}

/// Keeps each of `results` small enough under `objects/`, while its entry is synced
/// (in the shadow of the disk's flushes, [`Unsynced::sync_beside`]) and before it is
/// committed, the journal's lock held shared. A copy kept for a change that is then not
/// published is named by no entry, and goes with the next prune like any such version.
/// The bytes are not hashed again here: every reader of a kept version checks it against
/// its name's digest before relying on it (§11), so a copy that is not the version named
/// (a result torn by a crash, planted, or damaged) only takes away the merge and the diff
/// it would have given, as a missing one does.
pub fn keep_results(ws: &crate::workspace::Workspace, results: &[Made<'_>]) {
    for made in results.iter().filter(|m| m.len() <= RESULT_MAX_BYTES) {
        ws.keep_result(&made.sha, &made.parts);
    }
}

/// A change's entry, written and synced, its change not yet published.
#[derive(Debug)]
#[must_use = "commit the entry once the change is published, or abandon it"]
pub struct Pending {
    pub id: String,
    name: String,
    /// The versions the entry names as before, kept under `pending/` until the commit.
    kept: Vec<String>,
    rolls_forward: bool,
    /// How many files the change has (each may have a new version kept beside it).
    files: usize,
    /// The journal's lock, shared, until the entry is committed or abandoned (none for a
    /// record-only entry, which keeps nothing a prune could take).
    shared: Option<crate::lock::Guard>,
    /// The entry only records the change so that it can be finished after a crash: it
    /// goes once the change is published ([`Entry::record_only`]).
    record_only: bool,
}

/// What an entry says besides its files.
#[derive(Debug, Default)]
pub struct About {
    pub undoes: Option<String>,
    pub edits: Vec<[String; 2]>,
}

/// Writes the entry of a change by `tool` to `files`, keeping each version before, once
/// every check has passed and just before publishing: the entry written, with what syncs
/// it (which must succeed before anything is published); `None` when the journal is off.
/// `stat` holds the lines each file gained and lost, as the tool counted them (empty when
/// it did not). The change's new versions `staged` (one per file of `files`, `None` for a file the
/// change removes or moves; empty for a change of one file) are each kept under `pending/` beside
/// the entry, which says so (`rollForward`), so that once the entry is durable the
/// change can be finished by a later call if this process dies. Where a new version
/// cannot be kept there (another filesystem), the entry does not say so, and a crash
/// after its commit point is reconciled as a single file's would be.
pub fn prepare<'w, 'p>(
    ctx: &'w Context,
    tool: &str,
    (files, stat): (Vec<Planned<'p>>, Vec<Option<entry::Stat>>),
    (about, results): (&About, u64),
    staged: &mut [Option<Staged<'_>>],
) -> Outcome<Option<(Pending, Unsynced<'w>, Vec<Linked<'p>>)>> {
    let Ok(keyed) = keyed(ctx) else {
        return record_only(ctx, tool, files, staged);
    };
    // Held until the entry is committed or abandoned: no prune runs while this change
    // keeps versions and names them.
    let shared = crate::lock::journal_shared(&ctx.ws, &ctx.wait)
        .map_err(|e| refuse::lock(ctx, ".stitch/journal", e))?;
    let (records, linked, kept_bytes) = keep_before(ctx, files)?;
    let kept_bytes = kept_bytes + results;
    // An undo that counted nothing itself keeps its change's counts, the other way round.
    let stat = match &about.undoes {
        Some(target) if stat.is_empty() => undo_stat(ctx, &records, target),
        _ => stat,
    };
    let nanos = time::now_nanos();
    let session = ctx.session.as_ref().map(|s| s.id().to_owned());
    let rolling = staged.iter().any(Option::is_some);
    let entry = |id: String, nanos: u128, rolling: bool| Entry {
        id,
        time: time::rfc3339(nanos),
        tool: tool.to_owned(),
        session: session.clone(),
        undoes: about.undoes.clone(),
        files: records.clone(),
        edits: about.edits.clone(),
        stat: stat.clone(),
        roll_forward: rolling,
        record_only: false,
    };
    // An entry is bounded where it is written by the rule that reads it: one that could
    // not be read back is refused before anything is kept beside it or published.
    let largest = entry::encode(
        &entry(time::id(nanos), nanos, true),
        &keyed.key,
        &keyed.root,
    );
    if largest.len() as u64 > entry::MAX_ENTRY_BYTES {
        for sha in records.iter().flat_map(FileRecord::kept_versions) {
            ctx.ws.adopt_kept(sha);
        }
        return Err(too_large(records.len(), largest.len()));
    }
    let written = write_under_free_id(ctx, keyed, &entry, staged, (nanos, rolling), kept_bytes)?;
    let kept = records
        .iter()
        .flat_map(FileRecord::kept_versions)
        .cloned()
        .collect();
    Ok(Some((
        Pending {
            id: written.id,
            name: written.name,
            kept,
            rolls_forward: written.rolling,
            files: staged.len(),
            shared: Some(shared),
            record_only: false,
        },
        written.unsynced,
        linked,
    )))
}

/// An entry written under `pending/`, not yet synced.
struct Written<'w> {
    id: String,
    name: String,
    unsynced: Unsynced<'w>,
    /// Whether the change's new versions were kept beside it.
    rolling: bool,
}

/// Writes the entry `entry` makes (of an id, its time and whether it rolls forward)
/// under the first id from `nanos` that no other process took, with the new versions
/// `staged` kept beside it when `rolling` (and when they can be: else it does not roll
/// forward).
fn write_under_free_id<'w>(
    ctx: &'w Context,
    keyed: &Keyed,
    entry: &dyn Fn(String, u128, bool) -> Entry,
    staged: &mut [Option<Staged<'_>>],
    (mut nanos, mut rolling): (u128, bool),
    kept_bytes: u64,
) -> Outcome<Written<'w>> {
    loop {
        let id = time::id(nanos);
        if rolling {
            match keep_new(ctx, &id, staged) {
                Ok(()) => {}
                // Another process's change took this nanosecond: the next one.
                Err(crate::workspace::Error::AlreadyExists) => {
                    nanos += 1;
                    continue;
                }
                Err(_) => rolling = false,
            }
        }
        let entry = entry(id, nanos, rolling);
        let name = entry::file_name(&entry.id, kept_bytes, &keyed.id);
        let bytes = entry::encode(&entry, &keyed.key, &keyed.root);
        match ctx.ws.journal_write(&name, &bytes) {
            Ok(unsynced) => {
                return Ok(Written {
                    id: entry.id,
                    name,
                    unsynced,
                    rolling,
                })
            }
            // Another process took this nanosecond: the next one (the new versions kept
            // are renamed to it).
            Err(crate::workspace::Error::AlreadyExists) => nanos += 1,
            Err(e) => return Err(state_failure(ctx, e)),
        }
    }
}

/// Keeps the version before of each file of `files` that has one: its records (with the
/// size and mode kept), the versions kept by a hard link (looked at again after the
/// publish), and the bytes kept.
fn keep_before<'p>(
    ctx: &Context,
    files: Vec<Planned<'p>>,
) -> Outcome<(Vec<FileRecord>, Vec<Linked<'p>>, u64)> {
    let mut records = Vec::with_capacity(files.len());
    let mut linked = Vec::new();
    let mut kept_bytes = 0u64;
    for Planned { mut record, keep } in files {
        if let (
            Keep::File {
                location,
                file,
                bytes,
            },
            Some(before),
        ) = (keep, record.before.as_ref().or(record.from_before.as_ref()))
        {
            let kept = ctx
                .ws
                .keep_version(location, file, before, bytes)
                .map_err(|e| state_failure(ctx, e))?;
            record.bytes = file.size;
            record.mode = Some(file.mode & 0o7777);
            kept_bytes += record.bytes;
            if kept == Kept::Linked {
                linked.push(Linked {
                    sha: before.clone(),
                    file,
                    bytes,
                });
            }
        }
        records.push(record);
    }
    Ok((records, linked, kept_bytes))
}

/// With the journal off or without a key, a change of several files whose new versions
/// are staged still writes an entry that records it (§11: crash atomicity never depends
/// on the journal): its new versions kept beside it, nothing of the versions before, the
/// entry authenticated under its own file's identity ([`entry::record_key`]) — so that
/// a later call can finish the change if this process dies — and removed once the change
/// is published. `None` when there is nothing to record, or it cannot be kept.
fn record_only<'w, 'p>(
    ctx: &'w Context,
    tool: &str,
    files: Vec<Planned<'p>>,
    staged: &mut [Option<Staged<'_>>],
) -> Outcome<Option<(Pending, Unsynced<'w>, Vec<Linked<'p>>)>> {
    if !staged.iter().any(Option::is_some) {
        return Ok(None);
    }
    let root = ctx.ws.root_path().as_os_str().as_encoded_bytes().to_vec();
    let home = record_home_key();
    let records: Vec<FileRecord> = files.into_iter().map(|p| p.record).collect();
    let mut nanos = time::now_nanos();
    let entry = |nanos: u128| Entry {
        id: time::id(nanos),
        time: time::rfc3339(nanos),
        tool: tool.to_owned(),
        session: None,
        undoes: None,
        files: records.clone(),
        edits: Vec::new(),
        stat: Vec::new(),
        roll_forward: true,
        record_only: true,
    };
    let largest = entry::encode(&entry(nanos), &[0; 32], &root);
    if largest.len() as u64 > entry::MAX_ENTRY_BYTES {
        return Err(too_large(records.len(), largest.len()));
    }
    loop {
        let entry = entry(nanos);
        match keep_new(ctx, &entry.id, staged) {
            Ok(()) => {}
            Err(crate::workspace::Error::AlreadyExists) => {
                nanos += 1;
                continue;
            }
            // Nowhere to keep them (another filesystem): the change goes unrecorded, as a
            // change of one file is.
            Err(_) => return Ok(None),
        }
        let name = entry::file_name(&entry.id, 0, entry::RECORD_KEY);
        let written = ctx.ws.journal_write_as(&name, |identity| {
            entry::encode(
                &entry,
                &entry::record_key(identity, home.as_ref().map(|k| &k[..])),
                &root,
            )
        });
        match written {
            Ok(unsynced) => {
                let pending = Pending {
                    id: entry.id,
                    name,
                    kept: Vec::new(),
                    rolls_forward: true,
                    files: staged.len(),
                    shared: None,
                    record_only: true,
                };
                return Ok(Some((pending, unsynced, Vec::new())));
            }
            Err(crate::workspace::Error::AlreadyExists) => nanos += 1,
            Err(e) => return Err(state_failure(ctx, e)),
        }
    }
}

/// The user's journal key, when it can be had, for a record-only entry
/// ([`entry::record_key`]): with the journal merely off, it binds the record to this user.
#[must_use]
pub fn record_home_key() -> Option<[u8; crate::workspace::KEY_BYTES]> {
    Home::from_env().journal_key().ok()
}

/// The refusal of a change of `files` files whose entry (`bytes` long) is over what the
/// journal reads back.
fn too_large(files: usize, bytes: usize) -> Failure {
    crate::refusal::Refusal::new(
        crate::refusal::Code::TooLarge,
        format!(
            "This change of {files} files needs a journal entry of {bytes} bytes, over the {} the journal can read back, so it could not be undone",
            entry::MAX_ENTRY_BYTES
        ),
    )
    .with(crate::refusal::key::FIELD, "changes")
    .with("files", files)
    .with("entryBytes", bytes)
    .with("limit", entry::MAX_ENTRY_BYTES)
    .into()
}

/// Keeps each staged new version under `pending/`, named for the entry `id`.
fn keep_new(
    ctx: &Context,
    id: &str,
    staged: &mut [Option<Staged<'_>>],
) -> Result<(), crate::workspace::Error> {
    for (index, one) in staged.iter_mut().enumerate() {
        if let Some(one) = one {
            ctx.ws
                .journal_keep_new(one, &entry::new_version_name(id, index))?;
        }
    }
    Ok(())
}

impl Pending {
    /// The change was published (and its hard-linked versions looked at again,
    /// [`recheck`]): the versions the entry names as before move to `objects/` now, ahead
    /// of [`Pending::commit`]. Each may replace a copy kept there (a change's result),
    /// which frees that copy's inode: work for the disk, done while the change's
    /// directories are synced. Not synced: a crash leaves each under one name or the other,
    /// and both are looked in.
    pub fn adopt(&mut self, ws: &crate::workspace::Workspace) {
        let kept: Vec<&str> = self.kept.iter().map(String::as_str).collect();
        ws.journal_adopt(&kept, Provenance::Own);
        self.kept.clear();
    }

    /// The change was published: the entry moves to `entries/`, and the journal is held
    /// to its bounds; its id. A record-only entry goes instead (no id).
    pub fn commit(self, ctx: &Context) -> Option<String> {
        if self.record_only {
            ctx.ws.journal_remove(Shelf::Pending, &self.name);
            return None;
        }
        let kept: Vec<&str> = self.kept.iter().map(String::as_str).collect();
        let committed = ctx
            .ws
            .journal_commit(&self.name, &kept, Provenance::Own)
            .is_ok();
        // The prune below takes the journal's lock for itself.
        drop(self.shared);
        if committed {
            if let Ok(keyed) = keyed(ctx) {
                prune::bound(ctx, keyed, &self.name);
            }
        }
        Some(self.id)
    }

    /// Whether the entry is in the journal (not only a record of the change, kept while
    /// it is published).
    #[must_use]
    pub fn journaled(&self) -> bool {
        !self.record_only
    }

    /// Whether the entry keeps the change's new versions (`rollForward`), so that a later
    /// call can finish the change.
    #[must_use]
    pub fn rolls_forward(&self) -> bool {
        self.rolls_forward
    }

    /// The change was not published: the entry goes.
    pub fn abandon(self, ctx: &Context) {
        ctx.ws.journal_remove(Shelf::Pending, &self.name);
        if self.rolls_forward {
            for index in 0..self.files {
                ctx.ws
                    .journal_remove(Shelf::Pending, &entry::new_version_name(&self.id, index));
            }
        }
        // Versions no entry names are pruned later, like any other.
        for sha in &self.kept {
            ctx.ws.adopt_kept(sha);
        }
    }
}

pub fn state_failure(ctx: &Context, e: crate::workspace::Error) -> Failure {
    refuse::path(ctx, ".stitch/journal", e)
}

/// Whether the entry `name` may be this key's: its name carries this key's id, or no
/// key id at all (an entry named before key ids).
#[must_use]
pub fn maybe_ours(keyed: &Keyed, name: &str) -> bool {
    entry::key_of(name).is_none_or(|key| key == keyed.id)
}
