//! `glob`: files whose path below `path` matches a globset pattern, in byte order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use globset::GlobMatcher;

use crate::pattern::GlobError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::refusal::{key, Code, Outcome, Refusal};
use crate::workspace::walk::{EntryKind, Walk};

use super::args::{self, invalid, Request};
use super::walked::{respell, Cut, Left};
use super::{count_limit, walked, Context};

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
    #[schemars(extend("default" = crate::policy::Limits::DEFAULT.glob))]
    pub limit: Option<u64>,
}

fn dot() -> String {
    ".".to_owned()
}

impl Request for GlobRequest {
    const TOOL: &'static str = crate::names::GLOB;
    const DESCRIPTION: &'static str = "Find files whose path below path matches a glob: `*` matches within one directory, `**` across directories (`**/*.rs`, `src/*.toml`). Returns matches (workspace-relative file paths in byte order), truncated, scannedFiles and skippedNonUtf8 (names that are not UTF-8, never shown) and skippedUnreadable (entries the walk could not read). Ignored and hidden files are skipped unless includeIgnored. Refusals: INVALID_PATTERN (the glob does not compile: fix it); OUTSIDE_ROOT (the pattern or path leaves the workspace); NOT_FOUND; NOT_A_DIRECTORY; INVALID_ARGUMENT; DENIED.";
    const FIELDS: &'static [&'static str] = &["pattern", "path", "includeIgnored", "limit"];
}

/// Compiles a glob in which `*` does not cross `/` and `**` does.
pub fn compile(pattern: &str, field: &str) -> Result<GlobMatcher, Refusal> {
    match crate::pattern::glob(pattern) {
        Ok(glob) => Ok(glob.compile_matcher()),
        Err(e @ GlobError::TooLong) => {
            let reason = e.to_string();
            Err(Refusal::new(
                Code::InvalidPattern,
                format!("The glob in `{field}` is {} bytes, {reason}", pattern.len()),
            )
            .with(key::FIELD, field)
            .with("pattern", pattern.chars().take(100).collect::<String>())
            .with(key::REASON, reason))
        }
        Err(GlobError::Invalid(reason)) => Err(Refusal::new(
            Code::InvalidPattern,
            format!("The glob `{pattern}` does not compile: {reason}"),
        )
        .with(key::FIELD, field)
        .with("pattern", pattern)
        .with(key::REASON, reason)),
    }
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
        .with(key::FIELD, "pattern")
    };
    let relative = if pattern.starts_with('/') {
        let root_relative = ctx.ws.relative_spelling(pattern).ok_or_else(outside)?;
        if path != "." {
            return Err(Refusal::new(
                Code::InvalidPattern,
                format!("The glob `{pattern}` is absolute; with path `{path}` it must be relative to it"),
            )
            .with("pattern", pattern)
            .with(key::FIELD, "pattern")
            .with(key::REASON, "an absolute pattern needs path `.`"));
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

/// The most `/`-separated components a path matched by `pattern` can have, or `None`
/// when there is no such bound (`**`) or the pattern is not plain enough to be sure.
///
/// `*`, `?` and character classes never match `/` (the glob is compiled with
/// `literal_separator`), so only literal slashes count; an alternation counts its
/// longest branch (`{a,b/c}` is 2 components). The walk of `*.md` then reads one
/// directory, not the tree.
#[must_use]
pub fn components_at_most(pattern: &str) -> Option<usize> {
    if pattern.contains("**") {
        return None;
    }
    let chars: Vec<char> = pattern.chars().collect();
    let mut at = 0;
    let slashes = slashes_in(&chars, &mut at, Within::Pattern)?;
    (at == chars.len()).then_some(slashes + 1)
}

/// What a sequence of a glob is read within: the pattern itself, or a branch of an
/// alternation (`{a,b}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Within {
    Pattern,
    Branch,
}

/// The most literal slashes in the sequence starting at `chars[*at]`, up to the end or,
/// within an alternation's branch, the `,` or `}` that ends it (left unread).
fn slashes_in(chars: &[char], at: &mut usize, within: Within) -> Option<usize> {
    let mut slashes = 0;
    while let Some(&c) = chars.get(*at) {
        match c {
            ',' | '}' if within == Within::Branch => return Some(slashes),
            '/' => {
                slashes += 1;
                *at += 1;
            }
            '\\' => {
                // An escaped character is itself, an escaped `/` a separator.
                slashes += usize::from(*chars.get(*at + 1)? == '/');
                *at += 2;
            }
            '[' => *at = class_end(chars, *at)?,
            '{' => {
                *at += 1;
                let mut longest = 0;
                loop {
                    longest = longest.max(slashes_in(chars, at, Within::Branch)?);
                    let end = *chars.get(*at)?;
                    *at += 1;
                    if end == '}' {
                        break;
                    }
                }
                slashes += longest;
            }
            _ => *at += 1,
        }
    }
    (within == Within::Pattern).then_some(slashes)
}

/// The index just past the character class opened at `chars[open]`, as globset parses
/// it (`!` or `^` negates, a `]` first is literal); `None` for a POSIX class inside
/// (`[[:alpha:]]`) or no closing `]`, which are left unbounded.
fn class_end(chars: &[char], open: usize) -> Option<usize> {
    let mut at = open + 1;
    if matches!(chars.get(at), Some('!' | '^')) {
        at += 1;
    }
    let first = at;
    loop {
        match *chars.get(at)? {
            ']' if at > first => return Some(at + 1),
            '[' if chars.get(at + 1) == Some(&':') => return None,
            _ => at += 1,
        }
    }
}

/// Finds the files the pattern in `arguments` matches.
pub fn run(ctx: &Context, arguments: Value) -> Outcome<GlobResult> {
    let req: GlobRequest = args::parse(arguments)?;
    if req.pattern.is_empty() {
        return Err(invalid("pattern", "pattern is empty; try `**/*` for every file").into());
    }
    let limit = count_limit::count(req.limit, ctx.limits.glob)?;
    let pattern = normalise(ctx, &req.pattern, &req.path)?;
    let matcher = compile(&pattern, "pattern")?;
    let location = walked::locate(ctx, &req.path, walked::Start::Directory)?;
    let walk = Walk {
        start: location.real.clone(),
        // A pattern without `**` cannot match deeper than it has components.
        depth: components_at_most(&pattern),
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
    let omitted = ctx.ws.walk_parallel(&walk, &|entry| {
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
    let mut omitted = omitted;
    omitted.unreadable += ctx.ws.confirm(&mut found);
    let matches: Vec<String> = found
        .iter()
        .map(|entry| respell(&location.shown, &location.real, &entry.path))
        .collect();
    Ok(GlobResult {
        matches,
        truncated,
        scanned_files: scanned.into_inner(),
        denied: omitted.denied,
        left: omitted.into(),
        hint: truncated.then(|| Cut {
            shown: limit,
            narrow: crate::hint::Narrow::Glob,
            cap: ctx.limits.glob.saturating_mul(count_limit::RAISE),
        }),
    })
}

/// What `glob` returns, in this order.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GlobResult {
    /// File paths, sorted in byte order.
    pub matches: Vec<String>,
    pub truncated: bool,
    pub scanned_files: usize,
    /// Entries the policy's `deny` left out.
    pub denied: usize,
    #[serde(flatten)]
    pub left: Left,
    /// How to narrow, when the limit cut the matches.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub hint: Option<Cut>,
}

#[cfg(test)]
mod tests {
    use super::{compile, components_at_most};

    #[test]
    fn a_pattern_without_double_star_has_a_fixed_depth() {
        assert_eq!(components_at_most("*.md"), Some(1));
        assert_eq!(components_at_most("src/*/mod.rs"), Some(3));
        assert_eq!(components_at_most("a\\/b"), Some(2));
        assert_eq!(components_at_most("a\\*b"), Some(1));
    }

    #[test]
    fn an_alternation_counts_its_longest_branch() {
        assert_eq!(components_at_most("{a,b/c}"), Some(2));
        assert_eq!(components_at_most("x/{a,b/{c,d/e}}/f"), Some(5));
        assert_eq!(components_at_most("{a/b,c}/d"), Some(3));
        assert_eq!(components_at_most("a,b/c"), Some(2));
    }

    #[test]
    fn character_classes_add_no_component() {
        assert_eq!(components_at_most("[/]x"), Some(1));
        assert_eq!(components_at_most("[]/,}]"), Some(1));
        assert_eq!(components_at_most("{[,}],b}/c"), Some(2));
        assert_eq!(components_at_most("*.[!a]"), Some(1));
        // globset compiles classes without `/` under literal_separator; if that ever
        // changed, the bound above would be wrong.
        for class in ["a[/]b", "a[!x]b", "a[^x]b", "a[.-0]b"] {
            assert!(
                !compile(class, "pattern").unwrap().is_match("a/b"),
                "{class}"
            );
        }
    }

    #[test]
    fn doubt_means_no_bound() {
        assert_eq!(components_at_most("**/*.md"), None);
        assert_eq!(components_at_most("src/**"), None);
        assert_eq!(components_at_most("a**"), None);
        assert_eq!(components_at_most("[[:alpha:]]/x"), None);
        assert_eq!(components_at_most("[ab"), None);
        assert_eq!(components_at_most("{a,b"), None);
        assert_eq!(components_at_most("a\\"), None);
        assert_eq!(components_at_most("a}b"), Some(1));
    }
}
