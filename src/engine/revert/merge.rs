//! An undo that merges, as `git revert` does: a file that moved on since the change is
//! given the reverse of the change (its kept result → its kept original) as a three-way
//! merge onto its current text, so work done since in other lines stays. Where later work
//! overlaps the lines the change made — or the merge cannot be made: a file the change
//! created, deleted or moved, a result not kept, a file that is not text — nothing
//! changes: such a file stays expected at the version the change left it, so that the
//! pipeline's check of every file's version — the one check every tool's files pass —
//! refuses the undo, and [`explain`] names each file, the overlapping lines (today's
//! numbering) and the later changes that touched it.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};
use similar::{DiffOp, TextDiff};

use crate::digest::sha256_hex;
use crate::refusal::{key, Code, Failure, Refusal};

use super::super::journal::{self, Entry, FileRecord, Now};
use super::plan::Step;
use crate::engine::Context;

/// An undo's plan once the files that moved on are merged: the versions every file must
/// be at now, the steps, and the merged contents the steps put in place (by digest).
#[derive(Debug)]
pub struct Merged {
    pub after: BTreeMap<String, Option<String>>,
    pub steps: Vec<Step>,
    pub contents: BTreeMap<String, Vec<u8>>,
    pub paths: BTreeSet<String>,
    /// Each merged file as it is now, before the merge: what the syntax gate compares
    /// the merged result with.
    pub ours: BTreeMap<String, Vec<u8>>,
    /// Each file that moved on and cannot be merged: what it is now, and why. It stays
    /// in `after` at the version the change left it, which the pipeline's check refuses.
    pub unmerged: BTreeMap<String, (Now, Unmerged)>,
}

impl Merged {
    /// The digest the file at `path` has now, for the pipeline's check, when it moved on
    /// and cannot be merged: `""` — no digest at all — for what is not a regular file.
    #[must_use]
    pub fn moved_on(&self, path: &str) -> Option<&str> {
        self.unmerged
            .get(path)
            .map(|(now, _)| now.sha256().unwrap_or(""))
    }
}

/// Why a file that moved on cannot be merged.
#[derive(Debug)]
pub enum Unmerged {
    /// Later work overlaps these lines (1-based, inclusive, today's numbering).
    Conflicts(Vec<(usize, usize)>),
    /// No merge can be made; the sentence says why.
    Cannot(&'static str),
}

/// Merges every file of `target` that is not at its version `after` now, as the module
/// says; one that cannot be is left in [`Merged::unmerged`], for the pipeline's check.
pub fn plan(
    ctx: &Context,
    target: &Entry,
    after: &BTreeMap<String, Option<String>>,
    steps: &[Step],
) -> Merged {
    let mut merged = Merged {
        after: after.clone(),
        steps: steps.to_vec(),
        contents: BTreeMap::new(),
        paths: BTreeSet::new(),
        ours: BTreeMap::new(),
        unmerged: BTreeMap::new(),
    };
    for (path, expected) in after {
        let now = journal::current(ctx, path);
        if now.is(expected.as_deref()) {
            continue;
        }
        match merge_one(ctx, target, path, &now) {
            Ok((bytes, before, ours)) => {
                let sha = sha256_hex(&bytes);
                for step in &mut merged.steps {
                    if matches!(step, Step::Put { path: p, sha: s } if p == path && *s == before) {
                        *step = Step::Put {
                            path: path.clone(),
                            sha: sha.clone(),
                        };
                    }
                }
                merged
                    .after
                    .insert(path.clone(), now.sha256().map(str::to_owned));
                merged.contents.insert(sha, bytes);
                merged.paths.insert(path.clone());
                merged.ours.insert(path.clone(), ours);
            }
            Err(why) => {
                merged.unmerged.insert(path.clone(), (now, why));
            }
        }
    }
    merged
}

/// The pipeline's `STALE_VERSION` for the files of `target` that moved on, worded for an
/// undo: each file that cannot be merged, why, its conflicting lines and the later
/// changes that touched it. Any other failure is as it is.
#[must_use]
pub fn explain(ctx: &Context, target: &Entry, merged: &mut Merged, failure: Failure) -> Failure {
    let stale = matches!(&failure, Failure::Refused(r) if r.code() == Code::StaleVersion);
    if !stale || merged.unmerged.is_empty() {
        return failure;
    }
    let refused = std::mem::take(&mut merged.unmerged)
        .into_iter()
        .map(|(path, (now, why))| {
            let expected = merged.after.get(&path).cloned().flatten();
            (path, expected, now, why)
        })
        .collect();
    refusal(ctx, target, refused)
}

/// The merged bytes of the file at `path` (now `now`), the version before the change
/// they stand for, and the file's bytes now.
fn merge_one(
    ctx: &Context,
    target: &Entry,
    path: &str,
    now: &Now,
) -> Result<(Vec<u8>, String, Vec<u8>), Unmerged> {
    let record = in_place(target, path).ok_or(Unmerged::Cannot(
        "the change created, deleted or moved it, and it is not as the change left it",
    ))?;
    let (Some(before), Some(after)) = (&record.before, &record.after) else {
        return Err(Unmerged::Cannot("the change created or deleted it"));
    };
    let Some(ours_sha) = now.sha256() else {
        return Err(Unmerged::Cannot("it is no longer a file"));
    };
    let limit = ctx.limits.max_file_bytes;
    // Kept versions are relied on only once their bytes are shown to be the version.
    let kept = |sha: &str| {
        ctx.ws
            .kept_version(sha, limit)
            .ok()
            .map(|(bytes, _)| bytes)
            .filter(|bytes| sha256_hex(bytes) == sha)
    };
    let base = kept(after).ok_or(Unmerged::Cannot(
        "the change's result is not kept, so it cannot be merged",
    ))?;
    let theirs = kept(before).ok_or(Unmerged::Cannot(
        "its version before the change is not kept",
    ))?;
    let ours = current_bytes(ctx, path, ours_sha)
        .ok_or(Unmerged::Cannot("it changed again while it was read"))?;
    let (Ok(base), Ok(ours_text), Ok(theirs)) = (
        std::str::from_utf8(&base),
        std::str::from_utf8(&ours),
        std::str::from_utf8(&theirs),
    ) else {
        return Err(Unmerged::Cannot("it is not text, so it cannot be merged"));
    };
    match diffy::merge(base, ours_text, theirs) {
        Ok(text) => Ok((text.into_bytes(), before.clone(), ours.clone())),
        Err(_) => Err(Unmerged::Conflicts(conflicts(base, ours_text, theirs))),
    }
}

/// The record of `target` that changed `path` in place, when that is all it did there.
fn in_place<'e>(target: &'e Entry, path: &str) -> Option<&'e FileRecord> {
    let mut touching = target
        .files
        .iter()
        .filter(|f| f.path == path || f.from.as_deref() == Some(path));
    let record = touching.next()?;
    let plain = touching.next().is_none()
        && record.path == path
        && record.from.is_none()
        && record.link.is_none();
    plain.then_some(record)
}

/// The bytes of the file at `path`, if they are the version `sha`.
fn current_bytes(ctx: &Context, path: &str, sha: &str) -> Option<Vec<u8>> {
    let location = ctx.ws.locate_own(path).ok()?;
    let mut file = ctx.ws.open_file(&location).ok()?;
    if file.size > ctx.limits.max_file_bytes {
        return None;
    }
    let bytes = file.read_all().ok()?;
    (sha256_hex(&bytes) == sha).then_some(bytes)
}

/// The lines of `ours` (1-based, inclusive) whose changes since `base` overlap or touch
/// the lines the revert (`base` → `theirs`) changes.
fn conflicts(base: &str, ours: &str, theirs: &str) -> Vec<(usize, usize)> {
    let reverted = changed(base, theirs);
    let mut lines: Vec<(usize, usize)> = changed(base, ours)
        .into_iter()
        .filter(|o| reverted.iter().any(|t| t.0 <= o.1 && o.0 <= t.1))
        .map(|o| (o.2 + 1, o.3.max(o.2 + 1)))
        .collect();
    if lines.is_empty() {
        // Changes side by side that the merge would not order: the revert's own lines.
        lines = reverted
            .iter()
            .map(|t| (t.0 + 1, t.1.max(t.0 + 1)))
            .collect();
    }
    lines.dedup();
    lines
}

/// Each change from `old` to `new` by lines: its range in `old` and in `new` (0-based,
/// end exclusive).
fn changed(old: &str, new: &str) -> Vec<(usize, usize, usize, usize)> {
    TextDiff::from_lines(old, new)
        .ops()
        .iter()
        .filter(|op| !matches!(op, DiffOp::Equal { .. }))
        .map(|op| {
            let (o, n) = (op.old_range(), op.new_range());
            (o.start, o.end, n.start, n.end)
        })
        .collect()
}

/// `STALE_VERSION`: the files of `target` that moved on and cannot be merged, each with
/// why, its conflicting lines and the later changes that touched it.
fn refusal(
    ctx: &Context,
    target: &Entry,
    refused: Vec<(String, Option<String>, Now, Unmerged)>,
) -> Failure {
    let later = later_changes(ctx, target);
    let names: Vec<String> = refused.iter().map(|(p, ..)| format!("`{p}`")).collect();
    let message = format!(
        "{} changed since change {} in a way an undo cannot merge, so it cannot be undone without losing that work",
        names.join(", "),
        target.id
    );
    let one = refused
        .first()
        .map(|(p, ..)| p.clone())
        .filter(|_| refused.len() == 1);
    let listed: Vec<Value> = refused
        .into_iter()
        .map(|(path, expected, now, why)| {
            let changed_by: Vec<&str> = later
                .iter()
                .filter(|(_, paths)| paths.contains(&path))
                .map(|(id, _)| id.as_str())
                .collect();
            let mut one = json!({
                "path": path,
                "expectedSha256": expected,
                "actualSha256": now.sha256(),
                "changedBy": changed_by,
            });
            match why {
                Unmerged::Conflicts(lines) => {
                    one["conflicts"] = lines
                        .iter()
                        .map(|(start, end)| json!({"start": start, "end": end}))
                        .collect();
                }
                Unmerged::Cannot(reason) => one[key::REASON] = json!(reason),
            }
            one
        })
        .collect();
    let mut refusal = Refusal::new(Code::StaleVersion, message)
        .with("id", target.id.as_str())
        .with("operation", "undo")
        .with("paths", listed);
    if let Some(path) = one {
        refusal = refusal.with(key::PATH, path);
    }
    refusal.into()
}

/// The entries after `target` (newest first), each with the paths it touched.
fn later_changes(ctx: &Context, target: &Entry) -> Vec<(String, BTreeSet<String>)> {
    let Ok(store) = journal::Store::open(ctx) else {
        return Vec::new();
    };
    let Ok(listing) = store.newest_first() else {
        return Vec::new();
    };
    listing
        .take_while(|e| e.id > target.id)
        .map(|e| {
            let paths = e
                .files
                .iter()
                .flat_map(|f| std::iter::once(f.path.clone()).chain(f.from.clone()))
                .collect();
            (e.id, paths)
        })
        .collect()
}
