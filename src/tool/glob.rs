//! `glob`: files whose path below `path` matches a globset pattern, in byte order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use globset::{GlobBuilder, GlobMatcher};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::refusal::{Code, Outcome, Refusal};
use crate::workspace::walk::{EntryKind, Walk};

use super::args::{self, invalid, Request};
use super::list::respell;
use super::{dir, limits, Context};

/// The arguments of `glob`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GlobRequest {
    /// A glob relative to path: `*` stays within a directory, `**` crosses directories, e.g. `**/*.rs`.
    pub pattern: String,
    /// The directory to search below (default ".").
    #[serde(default = "dot")]
    pub path: String,
    /// Include files hidden by ignore rules and hidden names (default false).
    #[serde(default, alias = "include_ignored")]
    pub include_ignored: bool,
    /// The most matches to return (default 1000, at most 10000).
    pub limit: Option<u64>,
}

fn dot() -> String {
    ".".to_owned()
}

impl Request for GlobRequest {
    const TOOL: &'static str = "glob";
    const DESCRIPTION: &'static str = "Find files whose path below path matches a glob: `*` matches within one directory, `**` across directories (`**/*.rs`, `src/*.toml`). Returns matches (workspace-relative file paths in byte order), truncated and scannedFiles. Ignored and hidden files are skipped unless includeIgnored. Refusals: INVALID_PATTERN (the glob does not compile: fix it); OUTSIDE_ROOT (the pattern or path leaves the workspace); NOT_FOUND; NOT_A_DIRECTORY; INVALID_ARGUMENT; DENIED.";
    const FIELDS: &'static [&'static str] = &["pattern", "path", "includeIgnored", "limit"];
}

/// The longest glob accepted: globset's regex compilation fails (and panics) on huge ones.
pub const MAX_GLOB_BYTES: usize = 4096;

/// Compiles a glob in which `*` does not cross `/` and `**` does.
pub fn compile(pattern: &str, field: &str) -> Result<GlobMatcher, Refusal> {
    if pattern.len() > MAX_GLOB_BYTES {
        let reason = format!("longer than {MAX_GLOB_BYTES} bytes");
        return Err(Refusal::new(
            Code::InvalidPattern,
            format!("The glob in `{field}` is {} bytes, {reason}", pattern.len()),
        )
        .with("field", field)
        .with("pattern", pattern.chars().take(100).collect::<String>())
        .with("reason", reason));
    }
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| {
            let reason = e.kind().to_string();
            Refusal::new(
                Code::InvalidPattern,
                format!("The glob `{pattern}` does not compile: {reason}"),
            )
            .with("field", field)
            .with("pattern", pattern)
            .with("reason", reason)
        })
}

/// The pattern with `.` and `..` components resolved lexically, and an absolute one
/// (inside the root, searched from the root) made relative. Refuses one that climbs out
/// of the directory it is relative to.
fn normalise(ctx: &Context, pattern: &str, path: &str) -> Result<String, Refusal> {
    let outside = || {
        Refusal::new(
            Code::OutsideRoot,
            format!("The glob `{pattern}` reaches outside the directory it searches"),
        )
        .with("pattern", pattern)
        .with("field", "pattern")
    };
    let relative = if pattern.starts_with('/') {
        let root_relative = ctx.ws.relative_spelling(pattern).ok_or_else(outside)?;
        if path != "." {
            return Err(Refusal::new(
                Code::InvalidPattern,
                format!("The glob `{pattern}` is absolute; with path `{path}` it must be relative to it"),
            )
            .with("pattern", pattern)
            .with("field", "pattern")
            .with("reason", "an absolute pattern needs path `.`"));
        }
        root_relative
    } else {
        pattern.to_owned()
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in relative.split('/') {
        match part {
            "." => {}
            ".." => {
                parts.pop().ok_or_else(outside)?;
            }
            other => parts.push(other),
        }
    }
    Ok(parts.join("/"))
}

/// Finds the files the pattern in `arguments` matches.
pub fn run(ctx: &Context, arguments: Value) -> Outcome {
    let req: GlobRequest = args::parse(arguments)?;
    if req.pattern.is_empty() {
        return Err(invalid("pattern", "pattern is empty; try `**/*` for every file").into());
    }
    let limit = limits::count(req.limit, ctx.limits.glob)?;
    let pattern = normalise(ctx, &req.pattern, &req.path)?;
    let matcher = compile(&pattern, "pattern")?;
    let location = dir::locate(ctx, &req.path, false)?;
    let walk = Walk {
        start: location.real.clone(),
        depth: None,
        include_ignored: req.include_ignored,
        sizes: false,
        exclude: ctx.policy.deny.clone(),
    };
    let prefix = if location.real == "." {
        0
    } else {
        location.real.len() + 1
    };
    let scanned = AtomicUsize::new(0);
    let found = Mutex::new(Vec::new());
    let denied = ctx.ws.walk_parallel(&walk, &|entry| {
        if entry.target == Some(EntryKind::File) {
            scanned.fetch_add(1, Ordering::Relaxed);
            if matcher.is_match(&entry.path[prefix..]) {
                found
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .push(entry);
            }
        }
        true
    });
    let mut found = found
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    found.sort_unstable_by(|a, b| a.path.cmp(&b.path));
    let truncated = found.len() > limit;
    found.truncate(limit);
    ctx.ws.confirm(&mut found);
    let matches: Vec<String> = found
        .iter()
        .map(|entry| respell(&location.shown, &location.real, &entry.path))
        .collect();
    let mut data = json!({
        "matches": matches,
        "truncated": truncated,
        "scannedFiles": scanned.into_inner(),
        "denied": denied,
    });
    if truncated {
        data["hint"] = json!(limits::cut_hint(
            &format!("the first {limit} matches in byte order"),
            "narrow the pattern or path",
            ctx.limits.glob
        ));
    }
    Ok(data)
}
