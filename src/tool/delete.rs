//! `delete_file`: delete a file, journaled so that `undo_change` brings it back (§12).
//!
//! The file's own inode is kept by the journal (a hard link) before its name is removed,
//! so a delete copies nothing, and an undo restores its bytes and mode.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::refusal::{key, Outcome};
use crate::workspace::{Kind, Location};

use super::args::{self, Request};
use super::{refuse, Context};
use crate::engine::change::{ChangeSet, Expected, FileOp, Op};
use crate::engine::journal::entry::link_version;
use crate::engine::payload::Payload;
use crate::engine::pipeline::{self, Plan, Steps};

/// The arguments of `delete_file`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DeleteRequest {
    /// The file to delete, relative to the workspace root. A directory is NOT_A_FILE.
    #[serde(alias = "file_path")]
    pub path: String,
    /// Delete only if the file's current SHA-256 (from read_file) is this; otherwise STALE_VERSION.
    #[serde(alias = "expected_sha256")]
    pub expected_sha256: Option<crate::digest::Sha256>,
    /// Check everything and report the result without deleting (default false).
    #[serde(default, alias = "dry_run")]
    pub dry_run: bool,
}

impl Request for DeleteRequest {
    const TOOL: &'static str = crate::names::DELETE_FILE;
    const DESCRIPTION: &'static str = "Delete a file of the workspace; a symbolic link is deleted itself, never its target (as rm does). The change is journaled: undo_change with the returned id brings the file back, bytes and mode. A directory left empty is removed. Returns path, previousSha256, applied, id. Refusals: NOT_FOUND (details.nearNames lists the closest existing paths); NOT_A_FILE (a directory or special file); STALE_VERSION (the file changed since you read it: re-read it, then retry); NOT_OBSERVED (in a session, the file was never read: read it, then retry); DENIED (policy, .git/ or .stitch/: leave it alone); INVALID_PATH, OUTSIDE_ROOT, INVALID_ARGUMENT (fix the path or field); INVALID_CONFIG (the workspace owner must fix it); BUSY (retry).";
    const FIELDS: &'static [&'static str] = &["path", "expectedSha256", "dryRun"];
}

/// What `delete_file` returns, in this order.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeleteResult {
    pub path: String,
    /// The digest of the file deleted.
    pub previous_sha256: String,
    /// False on a dry run.
    pub applied: bool,
    /// The journal entry, for undo_change (absent on a dry run, or with the journal off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// Deletes the file named in `arguments`.
pub fn run(ctx: &Context, arguments: Value) -> Outcome<DeleteResult> {
    let req: DeleteRequest = args::parse(arguments)?;
    pipeline::run(ctx, &req)
}

impl Plan for DeleteRequest {
    type Output = DeleteResult;

    fn paths(&self) -> Vec<&str> {
        vec![&self.path]
    }

    fn own_links(&self) -> bool {
        true
    }

    fn build(&self, ctx: &Context, at: &[Location], steps: Steps<'_>) -> Outcome<DeleteResult> {
        delete(ctx, self, &at[0], steps)
    }
}

/// Checks the file at `location` (under the lock) and deletes it.
fn delete(
    ctx: &Context,
    req: &DeleteRequest,
    location: &Location,
    steps: Steps<'_>,
) -> Outcome<DeleteResult> {
    let shown = location.shown.clone();
    match location.kind {
        None => {
            return Err(refuse::not_found(ctx, &shown)
                .with(key::OPERATION, "delete")
                .into())
        }
        Some(Kind::Directory | Kind::Other) => return Err(refuse::not_a_file(&shown).into()),
        Some(Kind::Link) => return delete_link(ctx, req, location, steps),
        Some(Kind::File) => {}
    }
    let mut file = ctx
        .ws
        .open_file(location)
        .map_err(|e| refuse::path(ctx, &shown, e))?;
    // Within the size limit the bytes are held, so that the journal can copy them if a
    // writer appends through the kept inode after the unlink.
    let held = if file.size <= ctx.limits.max_file_bytes {
        let bytes = file
            .read_all()
            .map_err(|e| anyhow::Error::new(e).context("reading the file to delete"))?;
        if !file.read_whole(bytes.len()).unwrap_or(false) {
            return Err(refuse::changed(&shown).into());
        }
        Some(bytes)
    } else {
        None
    };
    let actual = match &held {
        Some(bytes) => crate::digest::sha256_hex(bytes),
        None => file
            .sha256()
            .map_err(|e| anyhow::Error::new(e).context("hashing the file to delete"))?,
    };
    let stat = held
        .as_deref()
        .and_then(|bytes| crate::text::diff::stat_bytes(bytes, b""));
    let file_op = FileOp::delete(location, actual.clone(), Some(&file))
        .expecting(Expected::Any.or_named(req.expected_sha256.as_deref()))
        .keeping_base(held.as_deref())
        .shown("delete", Some(file.size));
    let change = ChangeSet::of(DeleteRequest::TOOL, vec![file_op]).counted(vec![stat]);
    let checked = steps.check_change(&change)?;
    let payload = Payload::of_file(ctx, &change, req.dry_run);
    let mut id = None;
    if let Some(approved) = checked.authorize(&shown, &payload)? {
        id = approved.commit(change)?;
    }
    Ok(result(req, shown, actual, id))
}

/// Deletes the symbolic link at `location` itself (never what it leads to), journaled
/// with its target so that an undo makes it again.
fn delete_link(
    ctx: &Context,
    req: &DeleteRequest,
    location: &Location,
    steps: Steps<'_>,
) -> Outcome<DeleteResult> {
    let shown = location.shown.clone();
    let target = ctx
        .ws
        .read_link(location)
        .map_err(|e| refuse::path(ctx, &shown, e))?;
    let actual = link_version(&target);
    let file_op = FileOp {
        op: Op::Unlink {
            target: target.clone(),
        },
        ..FileOp::delete(location, actual.clone(), None)
    }
    .expecting(Expected::Any.or_named(req.expected_sha256.as_deref()))
    .shown("delete", Some(target.len() as u64));
    let change = ChangeSet::of(DeleteRequest::TOOL, vec![file_op]);
    let checked = steps.check_change(&change)?;
    let payload = Payload::of_file(ctx, &change, req.dry_run);
    let mut id = None;
    if let Some(approved) = checked.authorize(&shown, &payload)? {
        id = approved.commit(change)?;
    }
    Ok(result(req, shown, actual, id))
}

/// What `delete_file` returns for the file (or link) `shown` of version `actual`.
fn result(req: &DeleteRequest, shown: String, actual: String, id: Option<String>) -> DeleteResult {
    DeleteResult {
        path: shown,
        previous_sha256: actual,
        applied: !req.dry_run,
        id,
    }
}
