//! `list_changes`: the workspace's journal of changes, newest first (§11).

use crate::policy::Access;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::refusal::Outcome;

use super::args::{self, invalid, Request};
use super::{approve, refuse, Context};
use crate::engine::journal::{self, Entry};

/// The arguments of `list_changes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HistoryRequest {
    /// Only changes that touched this file (or anything below this directory), relative to the workspace root.
    #[serde(default, alias = "file_path")]
    pub path: Option<String>,
    /// The most changes to return, newest first (default 20).
    #[schemars(extend("default" = DEFAULT_LIMIT))]
    pub limit: Option<u64>,
    /// Only the changes made in this session.
    pub session: Option<String>,
}

/// The default number of changes listed.
const DEFAULT_LIMIT: u64 = 20;
/// The most changes one call may list.
const MAX_LIMIT: u64 = 10_000;

impl Request for HistoryRequest {
    const TOOL: &'static str = crate::names::LIST_CHANGES;
    const DESCRIPTION: &'static str = "List the changes stitch made in this workspace (writes, edits, deletes, moves, undos), newest first, from its journal: any process's, any session's. Returns changes: [{id, time, tool, session, undoes, undone, files: [{path, from, before, after, unfinished, added, removed}]}] (before/after are sha256 digests, null for absent; added/removed: the lines the change added and removed; unfinished: a change its process left midway was finished later, but this file had been changed in between and was left as it was), truncated, and foreign (entries that stitch did not write under this user's key: never listed or undone). Pass an id to show_change to see a change's diff, or to undo_change to take it back. Refusals: INVALID_ARGUMENT (fix the named field); INVALID_PATH, OUTSIDE_ROOT (fix the path); INVALID_CONFIG (the workspace owner must fix stitch's state).";
    const FIELDS: &'static [&'static str] = &["path", "limit", "session"];
}

/// One change as listed.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListedChange {
    pub id: String,
    pub time: String,
    pub tool: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undoes: Option<String>,
    /// Whether a later undo (not itself undone) took it back.
    pub undone: bool,
    pub files: Vec<ChangedFile>,
}

/// One file of a listed change.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangedFile {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The sha256 before the change; null when the file did not exist.
    pub before: Option<String>,
    /// The sha256 after the change; null when the change removed it.
    pub after: Option<String>,
    /// True when the change's process died midway and a later call finished it, but this
    /// file had been changed by someone else in between: it was left as it was, at
    /// neither `before` nor `after`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unfinished: bool,
    /// The lines the change added to the file (counted when it was made; absent when the
    /// file is not text, or the change did not count).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub added: Option<u64>,
    /// The lines the change removed from the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<u64>,
}

/// What `list_changes` returns, in this order.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct HistoryResult {
    pub changes: Vec<ListedChange>,
    pub truncated: bool,
    /// Entries that do not verify under this user's key: ignored.
    pub foreign: usize,
    /// Why the journal is off, when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub journal_off: Option<String>,
}

/// Lists the journal as `arguments` ask.
pub fn run(ctx: &Context, arguments: Value) -> Outcome<HistoryResult> {
    let req: HistoryRequest = args::parse(arguments)?;
    let limit = req.limit.unwrap_or(DEFAULT_LIMIT);
    if limit == 0 || limit > MAX_LIMIT {
        return Err(invalid("limit", format!("limit must be from 1 to {MAX_LIMIT}")).into());
    }
    let within = match &req.path {
        None => None,
        Some(raw) => {
            let location = ctx.ws.locate(raw).map_err(|e| refuse::path(ctx, raw, e))?;
            refuse::protected(ctx, &location, Access::Read)?;
            approve::rules(ctx, &location, Access::Read)?;
            Some(location.real)
        }
    };
    let store = match journal::Store::open(ctx) {
        Ok(store) => store,
        Err(reason) => {
            return Ok(HistoryResult {
                changes: Vec::new(),
                truncated: false,
                foreign: 0,
                journal_off: Some(reason),
            })
        }
    };
    // Entries are read one at a time, newest first, and only those listed are kept.
    let mut entries = store.newest_first()?;
    let touches = |e: &Entry| {
        within.as_deref().is_none_or(|within| {
            e.files.iter().any(|f| {
                std::iter::once(&f.path)
                    .chain(f.from.as_ref())
                    .any(|p| under(p, within))
            })
        })
    };
    let wanted = |e: &Entry| (req.session.is_none() || e.session == req.session) && touches(e);
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let mut changes: Vec<ListedChange> = Vec::new();
    let mut truncated = false;
    while let Some(e) = entries.next() {
        if !wanted(&e) {
            continue;
        }
        if changes.len() == limit {
            truncated = true;
            break;
        }
        changes.push(listed(&e, &store, entries.undone()));
    }
    // The rest are walked only to count what is not this key's.
    entries.by_ref().for_each(drop);
    Ok(HistoryResult {
        truncated,
        changes,
        foreign: entries.foreign(),
        journal_off: None,
    })
}

/// The change `e` as listed, from the journal's `store`, `undone` holding the entries
/// taken back.
pub fn listed(
    e: &Entry,
    store: &journal::Store<'_>,
    undone: &std::collections::HashSet<String>,
) -> ListedChange {
    let stat = journal::stat(e, store);
    ListedChange {
        id: e.id.clone(),
        time: e.time.clone(),
        tool: e.tool.clone(),
        session: e.session.clone(),
        undoes: e.undoes.clone(),
        undone: undone.contains(&e.id),
        files: e
            .files
            .iter()
            .zip(stat)
            .map(|(f, stat)| ChangedFile {
                path: f.path.clone(),
                from: f.from.clone(),
                before: f.before.clone(),
                after: f.after.clone(),
                unfinished: f.unfinished,
                added: stat.map(|s| s.added),
                removed: stat.map(|s| s.removed),
            })
            .collect(),
    }
}

/// Whether `path` is `within` or below it (the root, `""`, holds everything).
fn under(path: &str, within: &str) -> bool {
    within.is_empty()
        || path == within
        || path
            .strip_prefix(within)
            .is_some_and(|rest| rest.starts_with('/'))
}
