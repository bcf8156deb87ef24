//! `show_change`: one change of the journal as `list_changes` lists it, and per file what
//! it did and its diff, from the versions the journal keeps (§11).
//!
//! The version before is read from the journal's kept versions and checked against its
//! digest; the version after from the kept versions too when they hold it (a later
//! change kept it as its own before), else from the workspace while the file is still at
//! it. Where neither has a version, or it is not text, or the policy denies the path, the
//! file says why (`diffUnavailable`) instead of a diff: a change is always shown.

use crate::policy::Access;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::digest::sha256_hex;
use crate::refusal::{key, Code, Failure, Outcome, Refusal};
use crate::text::diff;
use crate::workspace::Kind;

use super::args::{self, Request};
use super::edit::MAX_DIFF_BYTES;
use super::history::{self, ChangedFile};
use super::{approve, refuse, textfile, Context};
use crate::engine::journal::{self, entry::link_version, FileRecord};

/// The arguments of `show_change`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ShowRequest {
    /// The change to show: an id from list_changes, or the id a change's result returned.
    pub id: String,
}

impl Request for ShowRequest {
    const TOOL: &'static str = crate::names::SHOW_CHANGE;
    const DESCRIPTION: &'static str = "Show one change stitch made in this workspace (a write, edit, apply, delete, move or undo), by the id its result or list_changes gave: the change as list_changes lists it, and per file its operation (create, edit, delete or move) and a unified diff of what it did, from the versions the journal keeps. Returns id, time, tool, session, undoes, undone, files: [{path, from, before, after, added, removed, operation, diff, diffTruncated, diffUnavailable}] (diffUnavailable says why a file has no diff: a version no longer kept, not text, or denied by the policy). Changes nothing. Refusals: NOT_FOUND (no change with that id, or the journal is off: call list_changes); INVALID_ARGUMENT (fix the named field); INVALID_CONFIG (the workspace owner must fix stitch's state).";
    const FIELDS: &'static [&'static str] = &["id"];
}

/// What `show_change` returns, in this order: the change as `list_changes` lists it,
/// each file with what it did.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShowResult {
    pub id: String,
    pub time: String,
    pub tool: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undoes: Option<String>,
    /// Whether a later undo (not itself undone) took it back.
    pub undone: bool,
    pub files: Vec<ShownFile>,
}

/// One file of the change shown.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShownFile {
    #[serde(flatten)]
    pub file: ChangedFile,
    /// `create`, `edit`, `delete` or `move`.
    pub operation: &'static str,
    /// The change as a unified diff, bounded in size (empty for a file moved as it was).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub diff_truncated: bool,
    /// Why there is no diff: a version the journal no longer keeps (and the workspace no
    /// longer has), one that is not text, or a path the policy denies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff_unavailable: Option<String>,
}

/// Shows the change `arguments` name.
pub fn run(ctx: &Context, arguments: Value) -> Outcome<ShowResult> {
    let req: ShowRequest = args::parse(arguments)?;
    let store = journal::Store::open(ctx).map_err(|reason| not_found(&req.id, Some(&reason)))?;
    // Walked newest first down to the entry, every entry that could take it back is seen.
    let mut entries = store.newest_first()?;
    let entry = loop {
        match entries.next() {
            Some(e) if e.id == req.id => break e,
            Some(e) if e.id.as_str() < req.id.as_str() => return Err(not_found(&req.id, None)),
            Some(_) => {}
            None => return Err(not_found(&req.id, None)),
        }
    };
    let listed = history::listed(&entry, &store, entries.undone());
    let entry = &entry;
    let files = entry
        .files
        .iter()
        .zip(listed.files)
        .map(|(record, file)| shown(ctx, record, file))
        .collect();
    Ok(ShowResult {
        id: listed.id,
        time: listed.time,
        tool: listed.tool,
        session: listed.session,
        undoes: listed.undoes,
        undone: listed.undone,
        files,
    })
}

/// `NOT_FOUND`: no change `id`, or the journal is off (`off` says why).
#[cold]
fn not_found(id: &str, off: Option<&str>) -> Failure {
    let message = match off {
        None => format!("There is no change `{id}` in the journal"),
        Some(reason) => format!("There is no change `{id}` to show: {reason}"),
    };
    Refusal::new(Code::NotFound, message)
        .with(key::OPERATION, "show")
        .with(key::NEAR_NAMES, Vec::<String>::new())
        .with("id", id)
        .into()
}

/// The file `record` of a change, listed as `file`, with its operation and its diff.
fn shown(ctx: &Context, record: &FileRecord, file: ChangedFile) -> ShownFile {
    let operation = match (&record.from, &record.before, &record.after) {
        (Some(_), _, _) => "move",
        (None, None, _) => "create",
        (None, _, None) => "delete",
        (None, Some(_), Some(_)) => "edit",
    };
    let (diff, diff_truncated, diff_unavailable) = match versions(ctx, record) {
        Ok((old, new)) => {
            let from = record.from.as_deref().unwrap_or(&file.path);
            let diff = diff::unified_moved((from, &file.path), &old, &new, MAX_DIFF_BYTES);
            (Some(diff.text), diff.truncated, None)
        }
        Err(reason) => (None, false, Some(reason)),
    };
    ShownFile {
        file,
        operation,
        diff,
        diff_truncated,
        diff_unavailable,
    }
}

/// The texts before and after the change of `record` (empty for absent), or why they
/// cannot be had. A moved file's text before is the one it had at its source.
fn versions(ctx: &Context, record: &FileRecord) -> Result<(String, String), String> {
    for path in std::iter::once(&record.path).chain(record.from.as_ref()) {
        let location = ctx.ws.locate_own(path).map_err(|_| unreadable(path))?;
        if refuse::protected(ctx, &location, Access::Read).is_err()
            || approve::rules(ctx, &location, Access::Read).is_err()
        {
            return Err(format!("the workspace policy denies reading `{path}`"));
        }
    }
    // A file moved as it was has nothing to diff, wherever its content is now.
    if record.from.is_some() && record.from_before.is_none() {
        return Ok((String::new(), String::new()));
    }
    let (before, before_at) = match &record.from {
        Some(from) => (record.from_before.as_ref(), from),
        None => (record.before.as_ref(), &record.path),
    };
    let old = text_of(ctx, record, before, before_at, "before")?;
    let new = text_of(ctx, record, record.after.as_ref(), &record.path, "after")?;
    Ok((old, new))
}

/// Why `path` cannot be looked at.
fn unreadable(path: &str) -> String {
    format!("`{path}` cannot be located in the workspace")
}

/// The text of the version `sha` (`None`: absent, so empty) of the file of `record`, which
/// may still be at `path`: a link's text is its target, as git shows one.
fn text_of(
    ctx: &Context,
    record: &FileRecord,
    sha: Option<&String>,
    path: &str,
    side: &str,
) -> Result<String, String> {
    let Some(sha) = sha else {
        return Ok(String::new());
    };
    if let Some(target) = record.link.as_ref().filter(|t| link_version(t) == *sha) {
        return Ok(target.clone());
    }
    match kept(ctx, sha).or_else(|| in_workspace(ctx, path, sha)) {
        Some(Fetched::Text(text)) => Ok(text),
        Some(Fetched::NotText) => Err(format!("the version {side} the change is not text")),
        None => Err(format!(
            "the version {side} the change is no longer kept, nor in the workspace"
        )),
    }
}

/// A version, once found: its text, or that it is not text.
enum Fetched {
    Text(String),
    NotText,
}

impl Fetched {
    /// What `bytes` are: text is valid UTF-8 without NUL, as stitch reads it.
    fn of(bytes: Vec<u8>) -> Fetched {
        match String::from_utf8(bytes) {
            Ok(text) if !text.contains('\0') => Fetched::Text(text),
            _ => Fetched::NotText,
        }
    }
}

/// The kept version `sha`, when the journal has it and it matches its digest.
fn kept(ctx: &Context, sha: &str) -> Option<Fetched> {
    let (bytes, _) = ctx.ws.kept_version(sha, ctx.limits.max_file_bytes).ok()?;
    (sha256_hex(&bytes) == sha).then(|| Fetched::of(bytes))
}

/// The file at the real path `path`, when it is still the version `sha`.
fn in_workspace(ctx: &Context, path: &str, sha: &str) -> Option<Fetched> {
    let location = ctx.ws.locate_own(path).ok()?;
    if location.kind != Some(Kind::File) {
        return None;
    }
    match textfile::load_any(ctx, &location).ok()? {
        Ok(loaded) => {
            (sha256_hex(loaded.bytes()) == sha).then(|| Fetched::Text(loaded.text().to_owned()))
        }
        Err(not_text) => (not_text.sha256 == sha).then_some(Fetched::NotText),
    }
}
