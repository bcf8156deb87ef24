//! `list_directory`: a directory's entries, optionally recursive, in byte order.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::workspace::walk::{Listed, Walk};

use super::args::{self, invalid, Request};
use super::walked::{respell, Cut, Left};
use super::{count_limit, walked, Context};

/// The arguments of `list_directory`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ListRequest {
    /// The directory to list, relative to the workspace root (default ".").
    #[serde(default = "dot", alias = "file_path")]
    pub path: String,
    /// How many levels to descend, 1 = the directory's own entries (default 1).
    #[schemars(extend("default" = 1))]
    pub depth: Option<u64>,
    /// Include entries hidden by .gitignore/.ignore rules and hidden names (default false).
    #[serde(default, alias = "include_ignored")]
    pub include_ignored: bool,
    /// The most entries to return (default 500, at most 5000).
    #[schemars(extend("default" = crate::policy::Limits::DEFAULT.list))]
    pub limit: Option<u64>,
}

fn dot() -> String {
    ".".to_owned()
}

impl Request for ListRequest {
    const TOOL: &'static str = crate::names::LIST_DIRECTORY;
    const DESCRIPTION: &'static str = "List a directory of the workspace: entries {path, kind (file, directory, symlink, other), bytes} sorted by path, skipping .gitignore/.ignore'd and hidden entries unless includeIgnored (skipped counts them, and skippedNonUtf8 the names that are not UTF-8, which are never shown, and skippedUnreadable the entries the walk could not read). A directory reached through several symlinks is walked once, under its own path; the links are listed as symlinks. depth descends into subdirectories. truncated says the limit cut the list (hint says how to narrow). Refusals: NOT_FOUND (use details.nearNames); NOT_A_DIRECTORY (it is a file: use read_file); OUTSIDE_ROOT; INVALID_PATH; INVALID_ARGUMENT (depth or limit out of range); DENIED.";
    const FIELDS: &'static [&'static str] = &["path", "depth", "includeIgnored", "limit"];
}

/// The deepest a listing may go.
pub const MAX_DEPTH: u64 = 64;

/// Lists the directory named in `arguments`.
pub fn run(ctx: &Context, arguments: Value) -> crate::refusal::Outcome<ListResult> {
    let req: ListRequest = args::parse(arguments)?;
    let depth = req.depth.unwrap_or(1);
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(invalid("depth", format!("depth must be from 1 to {MAX_DEPTH}")).into());
    }
    let limit = count_limit::count(req.limit, ctx.limits.list)?;
    let location = walked::locate(ctx, &req.path, walked::Start::Directory)?;
    let depth = usize::try_from(depth).unwrap_or(usize::MAX);
    let walk = Walk {
        start: location.real.clone(),
        depth: Some(depth),
        include_ignored: req.include_ignored,
        sizes: true,
        exclude: ctx.policy.deny.clone(),
    };
    let mut entries: Vec<Listed> = Vec::new();
    let omitted = ctx.ws.walk(&walk, |entry| entries.push(entry));
    // Everything the ignore rules, the policy or an unspellable name left out, each
    // entry once.
    let skipped = if req.include_ignored {
        omitted.denied + omitted.non_utf8 + omitted.unreadable
    } else {
        let mut all = 0usize;
        let everything = Walk {
            include_ignored: true,
            sizes: false,
            exclude: None,
            ..walk
        };
        let left = ctx.ws.walk(&everything, |_| all += 1);
        (all + left.non_utf8 + left.unreadable).saturating_sub(entries.len())
    };
    entries.sort_unstable_by(|a, b| a.path.cmp(&b.path));
    let truncated = entries.len() > limit;
    entries.truncate(limit);
    let mut omitted = omitted;
    omitted.unreadable += ctx.ws.confirm(&mut entries);
    let entries = entries
        .into_iter()
        .map(|e| ListEntry {
            path: respell(&location.shown, &location.real, &e.path),
            kind: e.kind.as_str(),
            bytes: e.bytes,
        })
        .collect();
    Ok(ListResult {
        path: location.shown,
        entries,
        truncated,
        skipped,
        left: omitted.into(),
        hint: truncated.then(|| Cut {
            shown: limit,
            narrow: crate::hint::Narrow::List,
            cap: ctx.limits.list.saturating_mul(count_limit::RAISE),
        }),
    })
}

/// What `list_directory` returns, in this order.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListResult {
    pub path: String,
    /// Sorted by path, in byte order.
    pub entries: Vec<ListEntry>,
    pub truncated: bool,
    /// Entries left out by ignore rules, the policy or an unspellable name.
    pub skipped: usize,
    #[serde(flatten)]
    pub left: Left,
    /// How to narrow, when the limit cut the list.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub hint: Option<Cut>,
}

/// One listed entry.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ListEntry {
    pub path: String,
    /// `file`, `directory`, `symlink` or `other`.
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
}
