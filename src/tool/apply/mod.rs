//! `apply_patch`: one change across files, all or nothing, in the formats models emit
//! (§12). The patch is parsed ([`crate::patch`]), every path is checked and locked in one
//! order, every new content is built in memory against the tree as the earlier changes
//! leave it, the authorize hook is asked once with the whole change, every new version is
//! staged and synced, and only then is the one journal entry made and each file published.
//! A refusal before that point changes nothing; `undo_change` takes the whole change back.
//!
//! The change comes as a patch's text, or structured ([`changes`]): a `changes` list, or
//! OpenAI Responses API `apply_patch` operations. Every form is brought to one list of
//! changes, built in memory ([`build`]) and reported and journaled ([`summary`]) alike.

mod already_applied;
mod anchor;
mod budget;
mod build;
mod by_region;
mod change_set;
mod changes;
mod draft;
mod gate;
mod mode;
mod not_applied;
mod op;
mod refusals;
mod summary;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::digest::sha256_hex;
use crate::patch::{self, Format, PatchError};
use crate::refusal::{Code, Outcome, Refusal};
use crate::workspace::{Kind, Location};

use super::args::{self, Request};
use super::{refuse, syntax_gate, textfile, Context};
use crate::engine::change::ChangeSet;
use crate::engine::journal;
use crate::engine::payload::Payload;
use crate::engine::pipeline::{self, Steps};
use budget::Budget;
use build::{Body, Original};
use by_region::Published;
use change_set::{change, LandedByRegion};

/// The arguments of `apply_patch`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplyRequest {
    /// The patch: a Codex patch (`*** Begin Patch` … `*** End Patch`), a unified diff (as
    /// `git diff` prints it), or SEARCH/REPLACE blocks. Or instead changes.
    pub patch: Option<String>,
    /// Instead of patch: the changes as a list, applied in order, each to the files as the earlier ones left them: {op: "write", path, content, overwrite?}, {op: "edit", path, oldText, newText, replaceAll?, expectedReplacements? (or edits)}, {op: "delete", path}, {op: "move", from, to, overwrite?}, each with expectedSha256?; or OpenAI Responses API apply_patch operations {type: "create_file" | "update_file", path, diff} and {type: "delete_file", path}.
    #[schemars(with = "Option<Vec<changes::ChangeItem>>")]
    pub changes: Option<Vec<Value>>,
    /// Instead of patch: one OpenAI Responses API apply_patch operation, as an apply_patch_call item carries it.
    #[schemars(with = "Option<changes::Operation>")]
    pub operation: Option<Value>,
    /// Check everything and report the result without changing a file (default false).
    #[serde(default, alias = "dry_run")]
    pub dry_run: bool,
    /// A patch already applied whole succeeds with applied: false and alreadyApplied: true.
    #[serde(default, alias = "ok_if_applied")]
    pub ok_if_applied: bool,
    /// Apply even if a file's result breaks its syntax (a later change completes it); the result lists syntaxErrors (default false).
    #[serde(default, alias = "allow_syntax_errors")]
    pub allow_syntax_errors: bool,
    // A Responses API operation given as the arguments themselves (`type`, `path`, `diff`),
    // and the other fields of an `apply_patch_call` item that carries one in `operation`:
    // taken as a harness hands them over, not offered to a model.
    #[serde(rename = "type")]
    #[schemars(skip)]
    pub kind: Option<String>,
    #[schemars(skip)]
    pub path: Option<String>,
    #[schemars(skip)]
    pub diff: Option<String>,
    #[schemars(skip)]
    pub id: Option<String>,
    #[serde(rename = "call_id")]
    #[schemars(skip)]
    pub call_id: Option<String>,
    #[schemars(skip)]
    pub status: Option<String>,
    #[serde(rename = "created_by")]
    #[schemars(skip)]
    pub created_by: Option<String>,
}

impl Request for ApplyRequest {
    const TOOL: &'static str = crate::names::APPLY_PATCH;
    const DESCRIPTION: &'static str = "Apply one change to several files, all or nothing: every hunk must match exactly, or no file changes. The patch may be a Codex patch, a unified diff (git diff), or SEARCH/REPLACE blocks:\n*** Begin Patch\n*** Update File: src/app.py\n@@ def greet():\n-    print(\"hi\")\n+    print(\"hello\")\n*** Add File: NOTES.md\n+first note\n*** Delete File: old.txt\n*** End Patch\nOr instead of patch, changes: a list applied in order ({op: \"write\", path, content, overwrite?}, {op: \"edit\", path, oldText, newText or edits, as edit_file takes them}, {op: \"delete\", path}, {op: \"move\", from, to, overwrite?}, each with expectedSha256?), where OpenAI Responses API apply_patch operations ({type: \"create_file\" | \"update_file\", path, diff}, {type: \"delete_file\", path}) are taken as they come. Returns dialect, applied, id (show_change shows the change, undo_change takes it back whole; with okIfApplied, a patch applied already is alreadyApplied: true, with appliedBy: the id of the change that applied it when the journal holds it) and per file path, operation, sha256 and a diff (hunks with the line each landed on, and its offset from a unified diff's stated line; mode when a diff's mode lines set the executable bit — symbolic links in a diff are refused). Refusals: INVALID_PATCH (fix the named line of the patch, or of a diff); INVALID_ARGUMENT (fix the field named: details.changeIndex names the item of changes); NO_MATCH (a hunk's old side is not in the file: details name changeIndex, hunkIndex and path, with candidates as edit_file gives them; re-read the file and fix that hunk; difference: \"anchor\" when only a chunk's @@ line is wrong, with nearestAnchor); AMBIGUOUS_MATCH (add context lines or an @@ anchor); ALREADY_EXISTS (an added or moved-to file exists: change an existing file with *** Update File: or a diff against it; replace one only with a changes item that sets overwrite: true); NOT_FOUND; STALE_VERSION; NOT_OBSERVED (in a session, read the files first: details.paths names every one); DENIED; SYNTAX_ERROR (a file's result would not parse at details.line, though it did: fix change details.changeIndex there, or pass allowSyntaxErrors: true if a later change completes it); BUSY (retry).";
    const FIELDS: &'static [&'static str] = &[
        "patch",
        "changes",
        "operation",
        "dryRun",
        "okIfApplied",
        "allowSyntaxErrors",
    ];
}

/// What `apply_patch` returns, in this order.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApplyResult {
    /// `codex`, `unified`, `search-replace` or `changes`.
    pub dialect: &'static str,
    /// False on a dry run, and when the patch was applied already.
    pub applied: bool,
    /// The patch was found applied whole already (okIfApplied).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub already_applied: bool,
    /// With `alreadyApplied`: the journal entry of the change whose result the files
    /// still are, when the journal holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied_by: Option<String>,
    /// The journal entry, for undo_change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub changes: Vec<Changed>,
    /// The syntax errors the change leaves, when the gate only warns, was overridden
    /// (allowSyntaxErrors) or the call was a dry run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub syntax_errors: Vec<syntax_gate::SyntaxReport>,
    /// Files of a known language the gate did not check: over `maxGateBytes`, or their
    /// parse took longer than `maxGateMillis`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub syntax_unchecked: Vec<syntax_gate::Unchecked>,
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
    /// The file's mode as the change set it (`100755` or `100644`), when it set it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<&'static str>,
    /// In a session, the file had moved on since the session read it, in other lines
    /// than the change's: it landed by region. Re-read before changes that depend on the
    /// lines in `foreignChanges`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stale_read: bool,
    /// The lines another program changed since the session's read (the file's numbering
    /// before this change).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub foreign_changes: Vec<super::edit::stale_read::Lines>,
    pub diff: String,
}

/// Where a hunk landed.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HunkPlaced {
    pub line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<i64>,
    /// The hunk's header counts disagreed with its body: it was applied by its body, as
    /// `git apply --recount` does.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub recounted: bool,
}

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

/// Applies the change named in `arguments`.
pub fn run(ctx: &Context, arguments: Value) -> Outcome<ApplyResult> {
    let req: ApplyRequest = args::parse(arguments)?;
    let (dialect, changes) = if let Some(changes) = changes::changes_of(&req)? {
        (Format::Changes, changes)
    } else {
        let text = req.patch.as_deref().unwrap_or_default();
        let patch = patch::parse(text).map_err(|e| invalid_patch(&e))?;
        let changes = patch.changes.into_iter().map(op::Part::of_patch);
        (patch.dialect, changes.collect())
    };
    // The files the patch adds are parsed whole by the gate: begun now, on a thread of
    // their own, while the change is located, locked, read and built.
    let ahead = syntax_gate::Ahead::begin(ctx, changes.iter().filter_map(op::Part::added));
    pipeline::run(
        ctx,
        &ApplyPlan {
            req: &req,
            dialect,
            changes: &changes,
            ahead: ahead.as_ref(),
        },
    )
}

/// A change across files, parsed: the request, its dialect and the list of changes.
struct ApplyPlan<'r> {
    req: &'r ApplyRequest,
    dialect: Format,
    changes: &'r [op::Part],
    /// The gate's parses of the files the patch adds, begun before the locks.
    ahead: Option<&'r syntax_gate::Ahead>,
}

impl pipeline::Plan for ApplyPlan<'_> {
    type Output = ApplyResult;

    /// Every path a change names, each once, in order.
    fn paths(&self) -> Vec<&str> {
        let mut raws: Vec<&str> = self.changes.iter().flat_map(op::Part::paths).collect();
        raws.sort_unstable();
        raws.dedup();
        raws
    }

    fn build(&self, ctx: &Context, at: &[Location], steps: Steps<'_>) -> Outcome<ApplyResult> {
        let budget = Budget::start();
        let raws = self.paths();
        let located: BTreeMap<&str, &Location> = raws.iter().copied().zip(at.iter()).collect();
        apply(ctx, self, &located, steps, &budget)
    }
}

/// Reads the files the change touches (under the locks), builds their new versions,
/// checks and publishes them: the rest of [`run`].
fn apply(
    ctx: &Context,
    &ApplyPlan {
        req,
        dialect,
        changes,
        ahead,
    }: &ApplyPlan<'_>,
    located: &BTreeMap<&str, &Location>,
    steps: Steps<'_>,
    budget: &Budget,
) -> Outcome<ApplyResult> {
    for location in located.values() {
        if location.kind.is_some_and(|k| k != Kind::File) {
            return Err(refuse::not_a_file(&location.shown).into());
        }
    }
    let originals = load_originals(ctx, located)?;
    let built = match build::build(ctx, changes, located, &originals, budget) {
        Ok(built) => built,
        Err(refusal) if req.ok_if_applied && refusal.code() != Code::Busy => {
            let plan = (dialect, changes);
            return applied_already(ctx, plan, (located, &originals), budget, refusal);
        }
        Err(refusal) => return Err(refusal.into()),
    };
    let landed = landed_by_region(ctx, &built, located, &originals)?;
    // The session's rules for every file the change touches, read off the change (each
    // at its version as first read: an existing one must have been read at its
    // version, a new one must not have appeared since it was seen absent); and a file
    // the caller may not write is not replaced or removed behind its back. Each part's
    // expectedSha256 was held to the tree as the parts before it leave it, while the
    // change was built.
    let (mut changed, records, counted) = summary::summary(&built, located, &originals);
    let change = change(
        located,
        (&originals, &landed),
        (&records, &counted),
        &built.tree,
    );
    let checked = steps.check_change(&change)?;
    let gate = || gate::check(ctx, (req, ahead), &built, located, &originals);
    let first = located.keys().next().copied().unwrap_or_default();
    let payload = payload(ctx, &changed, &change, req);
    // When the patch adds files large enough that their parses were begun ahead (the
    // gate's dearest part), nothing is to be asked between the gate and the commit (no
    // authorize command, not a dry run) and no directory is to be made, the gate runs
    // beside the commit's first steps: the new versions are staged and synced in its
    // shadow, and its refusal comes before the journal entry. Otherwise it runs first:
    // its thread would cost about what it hides, or a process killed while it ran would
    // leave a directory made for a change that never was.
    let beside = ahead.is_some()
        && !req.dry_run
        && ctx.policy.hooks.is_empty()
        && located.values().all(|l| l.missing_dirs.is_empty());
    let (id, caveats) = if beside {
        let approved = checked.authorize(first, &payload)?;
        gate::commit_beside(approved, change, gate, budget)?
    } else {
        let caveats = gate()?;
        budget.check()?;
        let Some(approved) = checked.authorize(first, &payload)? else {
            by_region::report(ctx, (&built, &landed), &mut changed, Published::No);
            return Ok(ApplyResult {
                dialect: dialect.as_str(),
                applied: false,
                already_applied: false,
                applied_by: None,
                id: None,
                changes: changed,
                syntax_errors: caveats.errors,
                syntax_unchecked: caveats.unchecked,
            });
        };
        (approved.commit(change)?, caveats)
    };
    by_region::report(ctx, (&built, &landed), &mut changed, Published::Yes);
    Ok(ApplyResult {
        dialect: dialect.as_str(),
        applied: true,
        already_applied: false,
        applied_by: None,
        id,
        changes: changed,
        syntax_errors: caveats.errors,
        syntax_unchecked: caveats.unchecked,
    })
}

/// With `okIfApplied`, a change that did not build (`refusal`): answered as applied
/// already when every part of it is there in the files as they are; else refused, the
/// refusal naming the parts applied already and the first that is not.
fn applied_already(
    ctx: &Context,
    (dialect, changes): (Format, &[op::Part]),
    (located, originals): (&BTreeMap<&str, &Location>, &BTreeMap<String, Original>),
    budget: &Budget,
    refusal: Refusal,
) -> Outcome<ApplyResult> {
    let each = already_applied::applied_each(changes, located, originals);
    if each.iter().all(|&applied| applied) {
        let paths: Vec<&str> = located.values().map(|l| l.real.as_str()).collect();
        return Ok(ApplyResult {
            dialect: dialect.as_str(),
            applied: false,
            already_applied: true,
            applied_by: journal::result_of(ctx, &paths),
            id: None,
            changes: Vec::new(),
            syntax_errors: Vec::new(),
            syntax_unchecked: Vec::new(),
        });
    }
    let hunks = |change: &op::Part| already_applied::applied_hunks(change, located, originals);
    let found = not_applied::AlreadyApplied {
        changes: &each,
        hunks: &hunks,
    };
    let rest = |kept: &[op::Part]| build::build(ctx, kept, located, originals, budget);
    Err(not_applied::blame(refusal, changes, &found, rest).into())
}

/// The files that moved on since the session read them and still take their hunks,
/// where their lines are unchanged since (by region, §6).
fn landed_by_region(
    ctx: &Context,
    built: &build::Built,
    located: &BTreeMap<&str, &Location>,
    originals: &BTreeMap<String, Original>,
) -> Outcome<LandedByRegion> {
    let mut landed = BTreeMap::new();
    for location in located.values() {
        let slot = built.tree.get(&location.real);
        let Some(original) = originals.get(&location.real) else {
            continue;
        };
        if build::unchanged(original, slot) {
            continue;
        }
        if let Some(by) = by_region::check(ctx, built, location, original).transpose()? {
            landed.insert(location.real.clone(), (location.shown.clone(), by));
        }
    }
    Ok(landed)
}

/// The files as they are, read once (under the locks); one that is not text is kept by
/// its digest, which is all a delete needs.
fn load_originals(
    ctx: &Context,
    located: &BTreeMap<&str, &Location>,
) -> Outcome<BTreeMap<String, Original>> {
    let mut originals: BTreeMap<String, Original> = BTreeMap::new();
    for location in located.values() {
        if location.kind == Some(Kind::File) && !originals.contains_key(&location.real) {
            let original = match textfile::load_any(ctx, location)? {
                Ok(loaded) => {
                    let text = loaded.text().to_owned();
                    Original {
                        sha256: sha256_hex(text.as_bytes()),
                        file: loaded.file,
                        body: Body::Text(text),
                    }
                }
                Err(mut not_text) => Original {
                    sha256: not_text.sha256.clone(),
                    file: not_text.file.take().expect("a file just read is open"),
                    body: Body::Opaque(not_text),
                },
            };
            originals.insert(location.real.clone(), original);
        }
    }
    Ok(originals)
}

/// What the authorize command is told: the whole change, and every directory it makes.
fn payload<'a>(
    ctx: &'a Context,
    changed: &'a [Changed],
    change: &'a ChangeSet<'_>,
    req: &ApplyRequest,
) -> Payload<'a> {
    let mut creates: Vec<&str> = changed
        .iter()
        .flat_map(|c| c.created_directories.iter().map(String::as_str))
        .collect();
    creates.sort_unstable();
    creates.dedup();
    Payload {
        creates_directories: Some(creates),
        ..Payload::of_files(ctx, change, req.dry_run)
    }
}
