//! `apply_patch`: one change across files, all or nothing, in the formats models emit
//! (§12). The patch is parsed ([`crate::patch`]), every path is checked and locked in one
//! order, every new content is built in memory against the tree as the earlier changes
//! leave it, the authorize hook is asked once with the whole change, every new version is
//! staged and synced, and only then is the one journal entry made and each file published.
//! A refusal before that point changes nothing; `undo_change` takes the whole change back.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::digest::sha256_hex;
use crate::patch::{self, FileChange, HunkFailure, Patch, PatchError};
use crate::refusal::{key, Code, Outcome, Refusal};
use crate::workspace::{Kind, Location, OpenFile, Staged, WriteMode};

use super::args::{self, Request};
use super::edit::{request::EditItem, snippet, MAX_DIFF_BYTES};
use super::journal::{FileRecord, Keep, Planned};
use super::mutation::commit::{commit_staged, Change};
use super::mutation::kill_hook;
use super::mutation::session_check::{self, Mutation};
use super::mutation::target;
use super::{approve, refuse, textfile, Context};

/// The arguments of `apply_patch`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplyRequest {
    /// The patch: a Codex patch (`*** Begin Patch` … `*** End Patch`), a unified diff (as
    /// `git diff` prints it), or SEARCH/REPLACE blocks.
    pub patch: String,
    /// Check everything and report the result without changing a file (default false).
    #[serde(default, alias = "dry_run")]
    pub dry_run: bool,
    /// A patch already applied whole succeeds with applied: false and alreadyApplied: true.
    #[serde(default, alias = "ok_if_applied")]
    pub ok_if_applied: bool,
}

impl Request for ApplyRequest {
    const TOOL: &'static str = super::registry::names::APPLY_PATCH;
    const DESCRIPTION: &'static str = "Apply one change to several files, all or nothing: every hunk must match exactly, or no file changes. The patch may be a Codex patch, a unified diff (git diff), or SEARCH/REPLACE blocks:\n*** Begin Patch\n*** Update File: src/app.py\n@@ def greet():\n-    print(\"hi\")\n+    print(\"hello\")\n*** Add File: NOTES.md\n+first note\n*** Delete File: old.txt\n*** End Patch\nReturns dialect, applied, id (undo_change takes the whole change back) and per file path, operation, sha256 and a diff (hunks with the line each landed on, and its offset from a unified diff's stated line). Refusals: INVALID_PATCH (fix the named line of the patch); NO_MATCH (a hunk's old side is not in the file: details name changeIndex, hunkIndex and path, with candidates as edit_file gives them; re-read the file and fix that hunk); AMBIGUOUS_MATCH (add context lines or an @@ anchor); ALREADY_EXISTS (an added file exists); NOT_FOUND; STALE_VERSION; NOT_OBSERVED (in a session, read the files first); DENIED; BUSY (retry).";
    const FIELDS: &'static [&'static str] = &["patch", "dryRun", "okIfApplied"];
}

/// What `apply_patch` returns, in this order.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApplyResult {
    /// `codex`, `unified` or `search-replace`.
    pub dialect: &'static str,
    /// False on a dry run, and when the patch was applied already.
    pub applied: bool,
    /// The patch was found applied whole already (okIfApplied).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub already_applied: bool,
    /// The journal entry, for undo_change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub changes: Vec<Changed>,
}

/// One file of the change.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Changed {
    pub path: String,
    /// `write` (added), `edit`, `delete` or `move`.
    pub operation: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_sha256: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<usize>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub created: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub created_directories: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hunks: Vec<HunkPlaced>,
    pub diff: String,
}

/// Where a hunk landed.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HunkPlaced {
    pub line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<i64>,
}

/// A file as the change finds it on disk.
struct Original {
    file: OpenFile,
    text: String,
    sha256: String,
}

/// What a path holds as the changes go: its text, or nothing.
type Tree = BTreeMap<String, Option<String>>;

/// `INVALID_PATCH`: the patch does not parse.
#[cold]
fn invalid_patch(e: &PatchError) -> Refusal {
    Refusal::new(
        Code::InvalidPatch,
        format!(
            "The patch does not parse at line {}: expected {}",
            e.line, e.expected
        ),
    )
    .with(
        "dialect",
        e.dialect.map_or(Value::Null, |d| json!(d.as_str())),
    )
    .with("patchLine", e.line)
    .with("line", e.found.as_str())
    .with("expected", e.expected.as_str())
}

/// Applies the patch named in `arguments`.
pub fn run(ctx: &Context, arguments: Value) -> Outcome<ApplyResult> {
    let req: ApplyRequest = args::parse(arguments)?;
    let patch = patch::parse(&req.patch).map_err(|e| invalid_patch(&e))?;
    let mut raws: Vec<&str> = Vec::new();
    for change in &patch.changes {
        raws.push(change.path());
        if let FileChange::Update {
            move_to: Some(to), ..
        } = change
        {
            raws.push(to);
        }
    }
    raws.sort_unstable();
    raws.dedup();
    let targets = target::acquire_all(ctx, &raws)?;
    let located: BTreeMap<&str, &Location> =
        raws.iter().copied().zip(targets.locations.iter()).collect();
    for location in located.values() {
        if location.kind.is_some_and(|k| k != Kind::File) {
            return Err(refuse::not_a_file(&location.shown).into());
        }
    }
    // The files as they are, read once (under the locks).
    let mut originals: BTreeMap<String, Original> = BTreeMap::new();
    for location in located.values() {
        if location.kind == Some(Kind::File) && !originals.contains_key(&location.real) {
            let loaded = textfile::load(ctx, location)?;
            let text = loaded.text().to_owned();
            let sha256 = sha256_hex(text.as_bytes());
            originals.insert(
                location.real.clone(),
                Original {
                    file: loaded.file,
                    text,
                    sha256,
                },
            );
        }
    }
    let built = match build(ctx, &patch, &located, &originals) {
        Ok(built) => built,
        Err(refusal) if req.ok_if_applied && applied_already(&patch, &located, &originals) => {
            let _ = refusal;
            return Ok(ApplyResult {
                dialect: patch.dialect.as_str(),
                applied: false,
                already_applied: true,
                id: None,
                changes: Vec::new(),
            });
        }
        Err(refusal) => return Err(refusal.into()),
    };
    // The session's rules for every file the change touches: an existing one must have
    // been read at its version, a new one must not have appeared since it was seen
    // absent; and a file the caller may not write is not replaced behind its back.
    for location in located.values() {
        let (real, shown) = (&location.real, location.shown.as_str());
        let after = built.tree.get(real).cloned().flatten();
        match originals.get(real) {
            Some(original) if after.as_deref() != Some(original.text.as_str()) => {
                session_check::check(ctx, shown, real, Some(&original.sha256), Mutation::Write)?;
                ctx.ws
                    .check_replaceable(location, &original.file)
                    .map_err(|e| refuse::path(ctx, shown, e))?;
            }
            None if after.is_some() => {
                session_check::check(ctx, shown, real, None, Mutation::Write)?;
            }
            _ => {}
        }
    }
    let (changes, records) = summary(&built, &located, &originals);
    approve::authorize(
        ctx,
        raws.first().copied().unwrap_or_default(),
        &payload(ctx, &changes, &req),
    )?;
    if req.dry_run {
        return Ok(ApplyResult {
            dialect: patch.dialect.as_str(),
            applied: false,
            already_applied: false,
            id: None,
            changes,
        });
    }
    let id = publish(ctx, &located, &originals, &records, &built.tree)?;
    for record in &records {
        if record.after.is_none() {
            ctx.ws.remove_emptied_parents(&record.path);
        }
    }
    Ok(ApplyResult {
        dialect: patch.dialect.as_str(),
        applied: true,
        already_applied: false,
        id,
        changes,
    })
}

/// The tree the patch leaves, and what each change did.
struct Built {
    tree: Tree,
    steps: Vec<Step>,
}

/// One change of the patch, as built: its operation, its path (real), its source (real,
/// for a move) and where its hunks landed.
struct Step {
    operation: &'static str,
    real: String,
    from: Option<String>,
    placed: Vec<HunkPlaced>,
}

/// Builds every new content in memory, each change against the tree the earlier ones left.
fn build(
    ctx: &Context,
    patch: &Patch,
    located: &BTreeMap<&str, &Location>,
    originals: &BTreeMap<String, Original>,
) -> Result<Built, Refusal> {
    let mut tree: Tree = originals
        .iter()
        .map(|(real, o)| (real.clone(), Some(o.text.clone())))
        .collect();
    for location in located.values() {
        tree.entry(location.real.clone()).or_insert(None);
    }
    let mut steps = Vec::new();
    for (index, change) in patch.changes.iter().enumerate() {
        let location = located[change.path()];
        let (real, shown) = (location.real.clone(), location.shown.clone());
        let indexed = |r: Refusal| r.with("changeIndex", index);
        match change {
            FileChange::Add { content, .. } => {
                if tree[&real].is_some() {
                    return Err(indexed(
                        Refusal::new(
                            Code::AlreadyExists,
                            format!("The patch adds `{shown}`, which already exists"),
                        )
                        .with(key::PATH, shown.as_str()),
                    ));
                }
                tree.insert(real.clone(), Some(content.clone()));
                steps.push(Step {
                    operation: "write",
                    real,
                    from: None,
                    placed: Vec::new(),
                });
            }
            FileChange::Delete { .. } => {
                if tree[&real].is_none() {
                    return Err(indexed(
                        refuse::not_found(ctx, &shown).with(key::OPERATION, "delete"),
                    ));
                }
                tree.insert(real.clone(), None);
                steps.push(Step {
                    operation: "delete",
                    real,
                    from: None,
                    placed: Vec::new(),
                });
            }
            FileChange::Update { move_to, hunks, .. } => {
                let Some(text) = tree[&real].clone() else {
                    return Err(indexed(
                        refuse::not_found(ctx, &shown).with(key::OPERATION, "edit"),
                    ));
                };
                let applied = patch::apply(&text, hunks)
                    .map_err(|failure| indexed(hunk_refusal(&shown, &text, hunks, &failure)))?;
                let placed: Vec<HunkPlaced> = applied
                    .placed
                    .iter()
                    .map(|p| HunkPlaced {
                        line: p.line,
                        offset: p.offset,
                    })
                    .collect();
                if let Some(to) = move_to {
                    let dest = located[to.as_str()];
                    if dest.real != real && tree[&dest.real].is_some() {
                        return Err(indexed(
                            Refusal::new(
                                Code::AlreadyExists,
                                format!(
                                    "The patch moves `{shown}` to `{}`, which already exists",
                                    dest.shown
                                ),
                            )
                            .with(key::PATH, dest.shown.as_str()),
                        ));
                    }
                    tree.insert(real.clone(), None);
                    tree.insert(dest.real.clone(), Some(applied.text));
                    steps.push(Step {
                        operation: "move",
                        real: dest.real.clone(),
                        from: Some(real),
                        placed,
                    });
                } else {
                    tree.insert(real.clone(), Some(applied.text));
                    steps.push(Step {
                        operation: "edit",
                        real,
                        from: None,
                        placed,
                    });
                }
            }
        }
    }
    Ok(Built { tree, steps })
}

/// The refusal of a hunk that did not land: edit_file's, with the hunk named.
fn hunk_refusal(shown: &str, text: &str, hunks: &[patch::Hunk], failure: &HunkFailure) -> Refusal {
    let (index, refusal) = match failure {
        HunkFailure::NoMatch { hunk } | HunkFailure::NoAnchor { hunk } => {
            let h = &hunks[*hunk];
            let item = EditItem {
                old_text: h.old.join("\n"),
                new_text: h.new.join("\n"),
                replace_all: false,
                expected_replacements: None,
            };
            let mut refusal = snippet::no_match(shown, text, &item, None);
            if let (HunkFailure::NoAnchor { .. }, Some(anchor)) = (failure, &h.anchor) {
                refusal = Refusal::new(
                    Code::NoMatch,
                    format!("The anchor line `{anchor}` of a chunk is not in `{shown}` after the chunk before it"),
                )
                .with(key::PATH, shown)
                .with(key::CANDIDATES, refusal.detail(key::CANDIDATES).cloned().unwrap_or(json!([])));
            }
            (*hunk, refusal)
        }
        HunkFailure::Ambiguous { hunk, lines } => (
            *hunk,
            Refusal::new(
                Code::AmbiguousMatch,
                format!("A hunk's old side appears {} times in `{shown}`, so where it goes is ambiguous", lines.len()),
            )
            .with(key::PATH, shown)
            .with("occurrences", lines.len())
            .with(key::LINES, lines.clone()),
        ),
    };
    refusal.with("hunkIndex", index)
}

/// Whether the patch is applied whole already: every update's hunks undone by their new
/// sides, every added file there with its content, every deleted file gone.
fn applied_already(
    patch: &Patch,
    located: &BTreeMap<&str, &Location>,
    originals: &BTreeMap<String, Original>,
) -> bool {
    let text_of = |raw: &str| originals.get(&located[raw].real).map(|o| o.text.as_str());
    patch.changes.iter().all(|change| match change {
        FileChange::Add { path, content } => text_of(path) == Some(content.as_str()),
        FileChange::Delete { path } => text_of(path).is_none(),
        FileChange::Update {
            path,
            move_to,
            hunks,
        } => {
            let at = move_to.as_deref().unwrap_or(path);
            let reversed: Vec<patch::Hunk> = hunks
                .iter()
                .map(|h| patch::Hunk {
                    old: h.new.clone(),
                    new: h.old.clone(),
                    ..h.clone()
                })
                .collect();
            text_of(at).is_some_and(|t| patch::apply(t, &reversed).is_ok())
                && (move_to.is_none() || text_of(path).is_none())
        }
    })
}

/// The result's changes, and the journal's records (a move that also edits is a delete of
/// its source and a write of its destination, so an undo restores both).
fn summary(
    built: &Built,
    located: &BTreeMap<&str, &Location>,
    originals: &BTreeMap<String, Original>,
) -> (Vec<Changed>, Vec<FileRecord>) {
    let shown = |real: &str| {
        located
            .values()
            .find(|l| l.real == real)
            .map_or_else(|| real.to_owned(), |l| l.shown.clone())
    };
    let missing = |real: &str| {
        located
            .values()
            .find(|l| l.real == real)
            .map(|l| l.missing_dirs.clone())
            .unwrap_or_default()
    };
    let mut changes = Vec::new();
    for Step {
        operation,
        real,
        from,
        placed,
    } in &built.steps
    {
        let before = from
            .as_deref()
            .and_then(|f| originals.get(f))
            .or_else(|| originals.get(real));
        let after = built.tree.get(real).cloned().flatten();
        let old_text = before.map_or("", |o| o.text.as_str());
        let new_text = after.as_deref().unwrap_or("");
        let diff = crate::text::diff::unified(&shown(real), old_text, new_text, MAX_DIFF_BYTES);
        changes.push(Changed {
            path: shown(real),
            operation,
            from: from.as_deref().map(shown),
            base_sha256: before.map(|o| o.sha256.clone()),
            sha256: after.as_deref().map(|t| sha256_hex(t.as_bytes())),
            bytes: after.as_deref().map(str::len),
            created: *operation == "write"
                || (*operation == "move" && !originals.contains_key(real)),
            created_directories: if after.is_some() {
                missing(real)
            } else {
                Vec::new()
            },
            hunks: placed
                .iter()
                .map(|p| HunkPlaced {
                    line: p.line,
                    offset: p.offset,
                })
                .collect(),
            diff: diff.text,
        });
    }
    // One record per path whose content differs at the end from what it was.
    let mut records = Vec::new();
    for (real, now) in &built.tree {
        let before = originals.get(real).map(|o| o.sha256.clone());
        let after = now.as_deref().map(|t| sha256_hex(t.as_bytes()));
        if before != after {
            records.push(FileRecord::write(real, before, after));
        }
    }
    (changes, records)
}

/// What the authorize command is told: the whole change.
fn payload(ctx: &Context, changes: &[Changed], req: &ApplyRequest) -> Value {
    let mut creates: Vec<&String> = changes
        .iter()
        .flat_map(|c| &c.created_directories)
        .collect();
    creates.sort();
    creates.dedup();
    let mut payload = json!({
        "tool": ApplyRequest::TOOL,
        "changes": changes.iter().map(|c| {
            let mut one = json!({"path": c.path, "operation": c.operation});
            if let Some(from) = &c.from { one["from"] = json!(from); }
            if let Some(base) = &c.base_sha256 { one["baseSha256"] = json!(base); }
            if let Some(sha) = &c.sha256 { one["resultSha256"] = json!(sha); }
            if let Some(bytes) = c.bytes { one["bytes"] = json!(bytes); }
            one
        }).collect::<Vec<_>>(),
        "createsDirectories": creates,
        "dryRun": req.dry_run,
    });
    if let Some(session) = &ctx.session {
        payload["session"] = json!(session.id());
    }
    payload
}

/// Stages every new version, then journals the change (the new versions kept beside the
/// entry and synced side by side) and publishes each file.
fn publish(
    ctx: &Context,
    located: &BTreeMap<&str, &Location>,
    originals: &BTreeMap<String, Original>,
    records: &[FileRecord],
    tree: &Tree,
) -> Outcome<Option<String>> {
    let location_of = |real: &str| -> &Location {
        located
            .values()
            .find(|l| l.real == real)
            .copied()
            .expect("every record's path was located")
    };
    let mut created: Vec<String> = Vec::new();
    let mut staged: Vec<Option<Staged<'_>>> = Vec::new();
    for record in records {
        let location = location_of(&record.path);
        match tree.get(&record.path).cloned().flatten() {
            Some(text) => staged.push(Some(stage_one(
                ctx,
                location,
                &text,
                originals,
                &mut created,
            )?)),
            None => staged.push(None),
        }
    }
    let planned: Vec<Planned<'_>> = records
        .iter()
        .map(|record| Planned {
            record: record.clone(),
            keep: match originals.get(&record.path) {
                Some(o) => Keep::File {
                    location: location_of(&record.path),
                    file: &o.file,
                    bytes: Some(o.text.as_bytes()),
                },
                None => Keep::Nothing,
            },
        })
        .collect();
    let change = Change::of(ApplyRequest::TOOL, planned);
    let id = commit_staged(ctx, change, staged, |staged, dirty| {
        // Every file replaced or removed is looked at once more before any is published,
        // so a file another program rewrote meanwhile refuses the whole change.
        for record in records {
            if let Some(original) = originals.get(&record.path) {
                let still = original.file.unchanged_but_for_links().unwrap_or(false)
                    && !original.file.written_elsewhere();
                if !still {
                    return Err(refuse::changed(&location_of(&record.path).shown).into());
                }
            }
        }
        for (done, (record, staged)) in records.iter().zip(staged).enumerate() {
            let location = location_of(&record.path);
            match staged {
                Some(staged) => staged
                    .publish_into(dirty)
                    .map_err(|e| refuse::path(ctx, &location.shown, e))?,
                None => ctx
                    .ws
                    .remove_into(location, dirty)
                    .map_err(|e| refuse::path(ctx, &location.shown, e))?,
            }
            kill_hook::published(done + 1);
        }
        Ok(())
    })
    .inspect_err(|_| ctx.ws.remove_empty_dirs(&created))?;
    Ok(id)
}

/// Stages the new version of one file (synced later, beside the others), creating its
/// missing directories.
fn stage_one<'w>(
    ctx: &'w Context,
    location: &Location,
    text: &str,
    originals: &'w BTreeMap<String, Original>,
    created: &mut Vec<String>,
) -> Outcome<Staged<'w>> {
    ctx.ws
        .create_dirs(&location.missing_dirs)
        .map_err(|e| refuse::path(ctx, &location.shown, e))?;
    created.extend(location.missing_dirs.iter().cloned());
    let mode = match originals.get(&location.real) {
        Some(o) => WriteMode::Replace {
            mode: o.file.mode,
            uid: o.file.uid,
            gid: o.file.gid,
        },
        None => WriteMode::CreateNew,
    };
    let mut staged = ctx
        .ws
        .stage(location, &[text.as_bytes()], None, mode)
        .map_err(|e| refuse::path(ctx, &location.shown, e))?;
    if let Some(o) = originals.get(&location.real) {
        staged = staged.over(&o.file);
    }
    Ok(staged)
}
