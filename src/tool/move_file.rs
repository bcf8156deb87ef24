//! `move_file`: move or rename a file, its content and mode unchanged, creating missing
//! parents; journaled so that `undo_change` moves it back (§12).
//!
//! Both ends are checked as every mutation checks its path (containment, reserved places,
//! deny and readOnly, the session's rules) and locked in one order. The destination is
//! replaced only with `overwrite` (or a matching session observation), and then its
//! version is kept by the journal before the rename replaces it.

use crate::policy::Access;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::refusal::{key, Outcome};
use crate::workspace::{Kind, Location, OpenFile};

use super::args::{self, invalid, Request};
use super::{refuse, Context};
use crate::engine::change::{ChangeSet, Expected, FileOp, Op};
use crate::engine::journal::entry::link_version;
use crate::engine::payload::Payload;
use crate::engine::pipeline::{self, Plan, Steps};

/// The arguments of `move_file`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MoveRequest {
    /// The file to move, relative to the workspace root.
    pub from: String,
    /// Where it goes, relative to the workspace root. Missing parent directories are created.
    #[serde(alias = "path")]
    pub to: String,
    /// Replace a file at the destination (default false: an existing one is ALREADY_EXISTS).
    #[serde(default)]
    pub overwrite: bool,
    /// Move only if the source's current SHA-256 (from read_file) is this; otherwise STALE_VERSION.
    #[serde(alias = "expected_sha256")]
    pub expected_sha256: Option<crate::digest::Sha256>,
    /// Check everything and report the result without moving (default false).
    #[serde(default, alias = "dry_run")]
    pub dry_run: bool,
}

impl Request for MoveRequest {
    const TOOL: &'static str = crate::names::MOVE_FILE;
    const DESCRIPTION: &'static str = "Move or rename a file of the workspace (from → to), content and mode unchanged (a symbolic link is moved itself, as mv does), creating missing parent directories of the destination (named in createdDirectories); a directory left empty is removed. A file at the destination is replaced only with overwrite: true. The change is journaled: undo_change with the returned id moves it back. Returns from, path, sha256, createdDirectories, applied, id. Refusals: NOT_FOUND (the source does not exist: details.nearNames); NOT_A_FILE (a directory or special file); ALREADY_EXISTS (the destination exists: pass overwrite: true, or pick another path); STALE_VERSION (a file changed since you read it: re-read it, then retry); NOT_OBSERVED (in a session, a file was never read: read it, then retry); NOT_A_DIRECTORY (a parent component is a file); DENIED (policy, .git/ or .stitch/ at either end); INVALID_PATH, OUTSIDE_ROOT, INVALID_ARGUMENT (fix the path or field); INVALID_CONFIG (the workspace owner must fix it); BUSY (retry).";
    const FIELDS: &'static [&'static str] =
        &["from", "to", "overwrite", "expectedSha256", "dryRun"];
}

/// What `move_file` returns, in this order.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MoveResult {
    pub from: String,
    pub path: String,
    pub sha256: String,
    pub created_directories: Vec<String>,
    /// False on a dry run.
    pub applied: bool,
    /// The digest of the file the move replaced, when it replaced one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_sha256: Option<String>,
    /// The journal entry, for undo_change (absent on a dry run, or with the journal off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// The file at the destination, open, and its digest, when there is one.
fn destination(ctx: &Context, to: &Location) -> Outcome<(Option<OpenFile>, Option<String>)> {
    let to_shown = to.shown.as_str();
    match to.kind {
        // A link at the destination is not replaced: what it leads to would be the
        // caller's concern.
        Some(Kind::Directory | Kind::Other | Kind::Link) => {
            Err(refuse::not_a_file(to_shown).into())
        }
        Some(Kind::File) => {
            let mut file = ctx
                .ws
                .open_file(to)
                .map_err(|e| refuse::path(ctx, to_shown, e))?;
            let actual = file
                .sha256()
                .map_err(|e| anyhow::Error::new(e).context("hashing the file to replace"))?;
            Ok((Some(file), Some(actual)))
        }
        None => Ok((None, None)),
    }
}

/// Moves the file named in `arguments`.
pub fn run(ctx: &Context, arguments: Value) -> Outcome<MoveResult> {
    let req: MoveRequest = args::parse(arguments)?;
    pipeline::run(ctx, &req)
}

impl Plan for MoveRequest {
    type Output = MoveResult;

    fn paths(&self) -> Vec<&str> {
        vec![&self.from, &self.to]
    }

    fn own_links(&self) -> bool {
        true
    }

    fn build(&self, ctx: &Context, at: &[Location], steps: Steps<'_>) -> Outcome<MoveResult> {
        move_file(ctx, self, (&at[0], &at[1]), steps)
    }
}

/// The file to move, open, and its digest — or, for a symbolic link (moved as itself,
/// as mv moves it), no file, its version and its target.
fn source(ctx: &Context, from: &Location) -> Outcome<(Option<OpenFile>, String, Option<String>)> {
    let shown = from.shown.as_str();
    if from.kind == Some(Kind::Link) {
        let target = ctx
            .ws
            .read_link(from)
            .map_err(|e| refuse::path(ctx, shown, e))?;
        return Ok((None, link_version(&target), Some(target)));
    }
    let mut file = ctx
        .ws
        .open_file(from)
        .map_err(|e| refuse::path(ctx, shown, e))?;
    let sha256 = file
        .sha256()
        .map_err(|e| anyhow::Error::new(e).context("hashing the file to move"))?;
    Ok((Some(file), sha256, None))
}

/// Refuses to move a symbolic link to `target` to `to` unless, read from there, it
/// leads where any path may (§5): inside the root, not into `.stitch/` or `.git/`.
fn leads_inside(ctx: &Context, to: &Location, target: &str) -> Outcome<()> {
    let from_there = if target.starts_with('/') {
        target.to_owned()
    } else {
        match to.real.rsplit_once('/') {
            Some((parent, _)) => format!("{parent}/{target}"),
            None => target.to_owned(),
        }
    };
    let location = ctx
        .ws
        .locate(&from_there)
        .map_err(|e| refuse::path(ctx, &to.shown, e))?;
    refuse::protected(ctx, &location, Access::Change)?;
    Ok(())
}

/// Checks both ends (under the locks) and moves the file.
fn move_file(
    ctx: &Context,
    req: &MoveRequest,
    (from, to): (&Location, &Location),
    steps: Steps<'_>,
) -> Outcome<MoveResult> {
    let (from_shown, to_shown) = (from.shown.clone(), to.shown.clone());
    match from.kind {
        None => {
            return Err(refuse::not_found(ctx, &from_shown)
                .with(key::OPERATION, "move")
                .into())
        }
        Some(Kind::Directory | Kind::Other) => return Err(refuse::not_a_file(&from_shown).into()),
        Some(Kind::File | Kind::Link) => {}
    }
    if from.real == to.real {
        return Err(invalid(
            "path",
            format!("`{to_shown}` is where `{from_shown}` already is"),
        )
        .into());
    }
    let (source, sha256, link) = source(ctx, from)?;
    if let Some(target) = &link {
        leads_inside(ctx, to, target)?;
    }
    let size = source
        .as_ref()
        .map_or_else(|| link.as_ref().map_or(0, |t| t.len() as u64), |s| s.size);
    let (replaced, previous) = destination(ctx, to)?;
    let file_op = FileOp {
        at: to,
        op: Op::Move {
            from,
            from_base: source.as_ref(),
            from_before: None,
            new: None,
            link: link.clone(),
            from_expect: Expected::Any.or_named(req.expected_sha256.as_deref()),
            from_read: None,
            // A file is moved as mv moves it: whoever may write its directory.
            from_writable: false,
        },
        before: previous.clone(),
        expect: Expected::Any.creating(req.overwrite),
        after: Some(sha256.clone()),
        base: replaced.as_ref(),
        keep: crate::engine::journal::Keep::Nothing,
        mutation: crate::engine::session_check::Mutation::Write,
        looked_at_publish: false,
        shown_as: "move",
        bytes: Some(size),
    }
    .keeping_base(None);
    // The content moves as it is: no line is added or removed.
    let stat = Some(crate::text::diff::Stat::default());
    let change = ChangeSet::of(MoveRequest::TOOL, vec![file_op]).counted(vec![stat]);
    // Both ends at once: a session that read neither is told of both in one refusal.
    let checked = steps.check_change(&change)?;
    let payload = Payload {
        overwrite: Some(req.overwrite),
        creates_directories: Some(to.missing_dirs.iter().map(String::as_str).collect()),
        ..Payload::of_file(ctx, &change, req.dry_run)
    };
    let mut id = None;
    if let Some(approved) = checked.authorize(&to_shown, &payload)? {
        id = approved.commit(change)?;
    }
    Ok(MoveResult {
        from: from_shown,
        path: to_shown,
        sha256,
        created_directories: to.missing_dirs.clone(),
        applied: !req.dry_run,
        previous_sha256: previous,
        id,
    })
}
