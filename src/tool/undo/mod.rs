//! `undo_change`: take a change back, refused when a file moved on since (§11).
//!
//! Every file of the entry must be at the entry's version after the change, or the undo is
//! `STALE_VERSION` naming each file that moved on, and nothing changes: work done since —
//! by an editor, by bash, by another agent — is never lost to an undo. The files are then
//! brought back to their versions before, through the same steps as every mutation
//! (locks in one order, policy, authorize, a journal entry of its own, atomic publishes),
//! so undoing the undo redoes the change.

mod steps;

use std::collections::BTreeMap;

use crate::engine::revert::{merge, plan};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::refusal::{key, Code, Outcome, Refusal};
use crate::workspace::Location;

use super::args::{self, Request};
use super::syntax_gate::{self, Asked, Gated};
use super::Context;
use crate::engine::journal::{self, Entry};
use crate::engine::pipeline::{self, Steps};

/// The arguments of `undo_change`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct UndoRequest {
    /// The change to take back, from list_changes (default: the newest change, of this session when there is one, that is neither undone nor an undo, so repeated undos walk back in time; an undo's id redoes its change).
    pub id: Option<String>,
    /// Check everything and report the result without changing anything (default false).
    #[serde(default, alias = "dry_run")]
    pub dry_run: bool,
    /// Redo: take back an undo, so that the change it undid stands again (default false). Without id, the newest undo (of this session when there is one) not itself taken back; with id, that undo.
    #[serde(default)]
    pub redo: bool,
    /// Undo even if a merged file's result breaks its syntax; the result lists syntaxErrors (default false).
    #[serde(default, alias = "allow_syntax_errors")]
    pub allow_syntax_errors: bool,
}

impl Request for UndoRequest {
    const TOOL: &'static str = crate::names::UNDO_CHANGE;
    const DESCRIPTION: &'static str = "Take back a change stitch made (a write, edit, delete, move or undo) from its journal: every file it touched is restored to its version before, all or nothing, and the undo is journaled itself (undo an undo to redo). Without id, the newest change not yet undone (of this session when there is one); repeated calls walk back in time. A file changed since in other lines is merged, as git revert does (merged: true). redo: true takes back the newest undo. Returns id (the undo's own entry), undid, files: [{path, from, sha256, diff, merged}], applied. Refusals: STALE_VERSION (later work overlaps the change's lines, or a file cannot be merged: details.paths names each with conflicts and changedBy, and nothing was changed — undo those later changes first, or leave it); SYNTAX_ERROR (a merged file would not parse at details.line, though it did: leave it, or pass allowSyntaxErrors: true and fix the file after); NOT_FOUND (nothing to undo, or no such id: call list_changes); DENIED (policy, .git/ or .stitch/); INVALID_CONFIG (a kept version is missing or damaged, or stitch's state is unusable); INVALID_ARGUMENT (fix the named field); BUSY (retry).";
    const FIELDS: &'static [&'static str] = &["id", "dryRun", "redo", "allowSyntaxErrors"];
}

/// One file the undo restored.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RestoredFile {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The restored version's sha256; null when the file was removed.
    pub sha256: Option<String>,
    /// A unified diff from what was there to what is restored, bounded in size.
    pub diff: String,
    /// The file had moved on since the change: the change's lines were taken back by a
    /// three-way merge, and the work done since stays.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged: Option<bool>,
}

/// What `undo_change` returns, in this order.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UndoResult {
    /// The undo's own journal entry (absent on a dry run, or with the journal off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The entry taken back.
    pub undid: String,
    pub files: Vec<RestoredFile>,
    /// False on a dry run.
    pub applied: bool,
    /// The syntax errors a merged file is left with, when the gate only warns, was
    /// overridden (allowSyntaxErrors) or the call was a dry run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub syntax_errors: Vec<super::syntax_gate::SyntaxReport>,
    /// Files of a known language the gate did not check: over `maxGateBytes`, or their
    /// parse took longer than `maxGateMillis`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub syntax_unchecked: Vec<super::syntax_gate::Unchecked>,
}

/// Takes back the change `arguments` name.
pub fn run(ctx: &Context, arguments: Value) -> Outcome<UndoResult> {
    let req: UndoRequest = args::parse(arguments)?;
    let store = journal::Store::open(ctx)
        .map_err(|reason| nothing(ctx, req.id.as_deref(), Some(&reason)))?;
    // What a change cut short left pending was settled before the call (`tool::run`).
    let target = if req.redo {
        pick_undo(ctx, &store, req.id.as_deref())?
    } else {
        pick(ctx, &store, req.id.as_deref())?
    }
    .ok_or_else(|| nothing(ctx, req.id.as_deref(), None))?;
    let after = plan::after(&target.files);
    let steps = plan::steps(&target.files);
    pipeline::run(
        ctx,
        &UndoPlan {
            target: &target,
            after: &after,
            steps: &steps,
            dry_run: req.dry_run,
            allow_syntax_errors: req.allow_syntax_errors,
        },
    )
}

/// An undo's plan: the entry taken back, the versions its files must be at now, and the
/// steps that restore them.
struct UndoPlan<'a> {
    target: &'a Entry,
    after: &'a BTreeMap<String, Option<String>>,
    steps: &'a [plan::Step],
    dry_run: bool,
    allow_syntax_errors: bool,
}

impl pipeline::Plan for UndoPlan<'_> {
    type Output = UndoResult;

    fn paths(&self) -> Vec<&str> {
        self.after.keys().map(String::as_str).collect()
    }

    /// The entry's paths are real paths: a symbolic link at one is what stands there.
    fn own_links(&self) -> bool {
        true
    }

    /// The files are looked at against the entry's versions after, not a session's
    /// record: an undo needs no read first, only that no work was done since.
    fn build(&self, ctx: &Context, at: &[Location], steps: Steps<'_>) -> Outcome<UndoResult> {
        // A file that moved on since is merged where it can be.
        let mut merged = merge::plan(ctx, self.target, self.after, self.steps);
        // Every file through the check every mutation's files go through: each must be
        // the version the entry left (or, merged, today's), and one that moved on and
        // cannot be merged is the check's STALE_VERSION, worded for an undo. Each file
        // the undo replaces or removes is opened and read as it is now.
        let originals = steps::originals(ctx, &merged)?;
        let located: BTreeMap<&str, &Location> =
            self.after.keys().map(String::as_str).zip(at).collect();
        // The inverse of the entry as one change, checked as every tool's is: each file at
        // the version it is read at, expected at the one the entry left (or, merged,
        // today's). A kept version that cannot be read is refused once the check passed,
        // so that a file that moved on is named first, as it always was.
        let (kept, unreadable) = steps::kept(ctx, self.target, &merged, &originals);
        let records = steps::records(&merged.after, &merged.steps);
        let change = steps::change(
            self.target,
            &located,
            (&records, &originals),
            &kept,
            &merged,
        );
        let checked = match steps.check_change(&change) {
            Ok(checked) => checked,
            Err(failure) => {
                drop(change);
                drop(records);
                return Err(merge::explain(ctx, self.target, &mut merged, failure));
            }
        };
        if let Some(failure) = unreadable {
            return Err(failure);
        }
        let asked = Asked {
            field: None,
            allow: self.allow_syntax_errors,
            dry_run: self.dry_run,
        };
        let syntax_gate::Caveats {
            errors: syntax_errors,
            unchecked: syntax_unchecked,
        } = gate(ctx, &merged, asked)?;
        steps::run(
            ctx,
            self.target,
            (&merged, &originals, &records, &kept),
            (change, checked, self.dry_run),
        )
        .map(|result| UndoResult {
            syntax_errors,
            syntax_unchecked,
            ..result
        })
    }
}

/// The entry to undo: the one named, or the newest that is neither undone nor an undo
/// (of this session, when there is one).
fn pick(ctx: &Context, store: &journal::Store<'_>, id: Option<&str>) -> Outcome<Option<Entry>> {
    if let Some(id) = id {
        return Ok(store.get(id));
    }
    let session = ctx.session.as_ref().map(|s| s.id().to_owned());
    let mut entries = store.newest_first()?;
    while let Some(e) = entries.next() {
        if e.undoes.is_none()
            && !entries.undone().contains(&e.id)
            && (session.is_none() || e.session == session)
        {
            return Ok(Some(e));
        }
    }
    Ok(None)
}

/// The undo a redo takes back: the one named (which must be an undo), or the newest undo
/// (of this session, when there is one) that is not itself taken back.
fn pick_undo(
    ctx: &Context,
    store: &journal::Store<'_>,
    id: Option<&str>,
) -> Outcome<Option<Entry>> {
    if let Some(id) = id {
        let named = store.get(id);
        if named.as_ref().is_some_and(|e| e.undoes.is_none()) {
            return Err(args::invalid(
                "id",
                format!(
                    "Change `{id}` is not an undo, so there is nothing to redo: undo it instead"
                ),
            )
            .into());
        }
        return Ok(named);
    }
    // An undo of a change, not a redo (an undo of an undo): redoing twice never undoes.
    let undoes_a_change = |e: &Entry| {
        e.undoes
            .as_ref()
            .and_then(|t| store.get(t))
            .is_some_and(|c| c.undoes.is_none())
    };
    let session = ctx.session.as_ref().map(|s| s.id().to_owned());
    let mut entries = store.newest_first()?;
    while let Some(e) = entries.next() {
        if !entries.undone().contains(&e.id)
            && (session.is_none() || e.session == session)
            && undoes_a_change(&e)
        {
            return Ok(Some(e));
        }
    }
    Ok(None)
}

/// `NOT_FOUND`: nothing to undo, or no change `id`.
#[cold]
fn nothing(ctx: &Context, id: Option<&str>, off: Option<&str>) -> crate::refusal::Failure {
    let _ = ctx;
    let message = match (id, off) {
        (Some(id), None) => format!("There is no change `{id}` in the journal"),
        (None, None) => "There is no change left to undo in the journal".to_owned(),
        (_, Some(reason)) => format!("There is nothing to undo: {reason}"),
    };
    let mut refusal = Refusal::new(Code::NotFound, message)
        .with(key::OPERATION, "undo")
        .with(key::NEAR_NAMES, Vec::<String>::new());
    if let Some(id) = id {
        refusal = refusal.with("id", id);
    }
    refusal.into()
}

/// The syntax gate on each merged file: its merged result against the file as it is now
/// (a file restored whole is a version the journal kept, and is not gated).
fn gate(ctx: &Context, merged: &merge::Merged, asked: Asked) -> Outcome<syntax_gate::Caveats> {
    let mut files = Vec::new();
    for step in &merged.steps {
        if let plan::Step::Put { path, sha } = step {
            if let (Some(ours), Some(new)) = (merged.ours.get(path), merged.contents.get(sha)) {
                files.push(Gated {
                    path,
                    old: Some(ours),
                    new,
                    change_index: None,
                });
            }
        }
    }
    syntax_gate::check(ctx, &files, asked)
}
