//! `search_files`: lines (or paths) matching a literal or a linear-time regex, in
//! (path, line) order.
//!
//! The walk is parallel, so results are gathered per file into a map ordered by path.
//! Once `limit` matches are held, a file whose path sorts after the last one kept cannot
//! enter the result and is not searched: the scan stops paying for what order rules out.
//! A search summed up per file (`-l`, `-c`, `-q`) is bounded by its own [`Summary`]
//! instead: every file with a match, or the first match.

mod grep;
mod tally;

pub use tally::Summary;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use grep_matcher::Matcher;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::refusal::Outcome;
use crate::workspace::walk::{EntryKind, Listed, Omitted, Walk};
use crate::workspace::Kind;

use super::args::{self, invalid, Request};
use super::walked::{respell, Cut, Left};
use super::{count_limit, glob, walked, Context};
use grep::Hit;

/// The arguments of `search_files`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SearchRequest {
    /// The text to find (literal by default).
    pub query: String,
    /// Treat query as a regular expression (linear time: no look-around or backreferences). Default false.
    #[serde(default)]
    pub regex: bool,
    /// Match case exactly (default true).
    #[serde(default = "yes", alias = "case_sensitive")]
    pub case_sensitive: bool,
    /// Only search files matching this glob; a glob without `/` matches file names, e.g. `*.rs`.
    pub include: Option<String>,
    /// The directory (or single file) to search (default ".").
    #[serde(default = "dot")]
    pub path: String,
    /// Lines of context before and after each match, 0-10 (default 0).
    #[schemars(extend("default" = 0))]
    pub context: Option<u64>,
    /// What the query matches: `content` (default) or `path` (workspace-relative file paths).
    #[schemars(extend("default" = "content"))]
    pub mode: Option<Mode>,
    /// The most matches to return (default 100, at most 1000).
    #[schemars(extend("default" = crate::policy::Limits::DEFAULT.search))]
    pub limit: Option<u64>,
    /// Include files hidden by ignore rules and hidden names (default false).
    #[serde(default, alias = "include_ignored")]
    pub include_ignored: bool,
    /// How the front end sums the matches up (`-l`, `-c`, `-q`): never the caller's
    /// argument.
    #[serde(skip)]
    pub summary: Option<Summary>,
}

fn yes() -> bool {
    true
}

fn dot() -> String {
    ".".to_owned()
}

impl Request for SearchRequest {
    const TOOL: &'static str = crate::names::SEARCH_FILES;
    const DESCRIPTION: &'static str = "Search file contents for literal text (or a regex with regex: true), like ripgrep: returns matches {path, line, text, before, after} in (path, line) order (text is a window around the match, with textTruncated, for lines over 1000 bytes), truncated, scannedFiles, skippedBinary, skippedLarge and skippedNonUtf8 (names that are not UTF-8, never shown) and skippedUnreadable (entries the walk could not read). mode: path matches workspace-relative paths instead. include narrows to a glob; context adds lines around each match. Refusals: INVALID_PATTERN (the regex does not compile; look-around and backreferences are not supported because regexes run in linear time: rewrite, or search literally); INVALID_ARGUMENT (empty query, context over 10, limit out of range); NOT_FOUND; OUTSIDE_ROOT; DENIED.";
    const FIELDS: &'static [&'static str] = &[
        "query",
        "regex",
        "caseSensitive",
        "include",
        "path",
        "context",
        "mode",
        "limit",
        "includeIgnored",
    ];
}

/// What a search matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// File contents, line by line.
    Content,
    /// Workspace-relative file paths.
    Path,
}

/// The most context lines either side of a match.
pub const MAX_CONTEXT: u64 = 10;

/// Matches found so far, per file, in path order, trimmed to what can still be shown.
#[derive(Default)]
struct Gathered {
    files: BTreeMap<String, Vec<Hit>>,
    total: usize,
    /// Matches were dropped or files skipped because `limit` was reached.
    cut: bool,
}

impl Gathered {
    /// Adds a file's hits; `more`: the file had more than it gave.
    fn add(&mut self, path: String, hits: Vec<Hit>, more: bool, limit: usize) {
        self.cut |= more;
        self.total += hits.len();
        self.files.insert(path, hits);
        while let Some((_, last)) = self.files.last_key_value() {
            if self.total - last.len() < limit {
                break;
            }
            self.total -= last.len();
            self.files.pop_last();
            self.cut = true;
        }
    }

    /// The path beyond which nothing can enter the result, once `limit` is reached.
    fn bound(&self, limit: usize) -> Option<&String> {
        (self.total >= limit)
            .then(|| self.files.last_key_value().map(|(k, _)| k))
            .flatten()
    }
}

/// Searches as `arguments` asks.
/// `summary` is how the front end sums the matches up, if it does.
pub fn run(ctx: &Context, arguments: Value, summary: Option<Summary>) -> Outcome<SearchResult> {
    let req = SearchRequest {
        summary,
        ..args::parse(arguments)?
    };
    let (context, mode, asked) = checks(ctx, &req)?;
    // Summed up per file, the search takes every file (or stops at the first match).
    let limit = req.summary.map_or(asked, Summary::total);
    let matcher = grep::matcher(&req.query, req.regex, req.case_sensitive)?;
    let include = match &req.include {
        Some(g) => Some((glob::compile(g, "include")?, g.contains('/'))),
        None => None,
    };
    let location = walked::locate(ctx, &req.path, walked::Start::DirectoryOrFile)?;
    let single_file = location.kind == Some(Kind::File);
    let prefix = if single_file || location.real == "." {
        0
    } else {
        location.real.len() + 1
    };
    let search = Search {
        ctx,
        req: &req,
        matcher,
        location: &location,
        single_file,
        include,
        prefix,
        context,
        mode,
        limit,
        found: Mutex::new(Gathered::default()),
        full: AtomicBool::new(false),
        counts: Mutex::new(BTreeMap::new()),
        scanned: AtomicUsize::new(0),
        skipped: Skipped::default(),
    };
    let omitted = visit_all(ctx, &req, &location, single_file, &|entry| {
        search.visit(entry)
    });
    Ok(search.result(omitted))
}

/// One search under way: what it looks for and where, and what it has found so far, as
/// the walk's threads add to it.
struct Search<'a> {
    ctx: &'a Context,
    req: &'a SearchRequest,
    matcher: grep_regex::RegexMatcher,
    location: &'a crate::workspace::Location,
    single_file: bool,
    /// The `include` glob, and whether it holds a `/` (then it matches the path below
    /// the searched directory, else the file name).
    include: Option<(globset::GlobMatcher, bool)>,
    /// The length of the searched directory's path and its `/`, cut off a walked path
    /// before `include` matches it.
    prefix: usize,
    context: usize,
    mode: Mode,
    limit: usize,
    found: Mutex<Gathered>,
    /// `limit` matches are held: a file sorting after the last one kept is passed over.
    full: AtomicBool,
    /// `-c`: each file's number of matching lines, by its path.
    counts: Mutex<BTreeMap<String, u64>>,
    scanned: AtomicUsize,
    skipped: Skipped,
}

impl Search<'_> {
    /// Whether `include` admits the walked `path`.
    fn included(&self, path: &str) -> bool {
        match &self.include {
            None => true,
            Some((glob, true)) => glob.is_match(&path[self.prefix..]),
            Some((glob, false)) => glob.is_match(path.rsplit('/').next().unwrap_or(path)),
        }
    }

    /// Searches one walked entry and gathers its hits; whether the walk goes on.
    fn visit(&self, entry: Listed) -> bool {
        if entry.target != Some(EntryKind::File) || !self.included(&entry.path) {
            return true;
        }
        let limit = self.limit;
        if self.full.load(Ordering::Relaxed) {
            let mut found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
            if found.bound(limit).is_some_and(|bound| entry.path > *bound) {
                // It may hold matches that the limit leaves out.
                found.cut = true;
                return true;
            }
        }
        self.scanned.fetch_add(1, Ordering::Relaxed);
        let Some((hits, more)) = self.hits(&entry) else {
            return true;
        };
        let mut found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
        found.add(entry.path, hits, more, limit);
        if found.total >= limit {
            self.full.store(true, Ordering::Relaxed);
        }
        // `-q` has its answer at the first match: the walk stops.
        self.req.summary != Some(Summary::Quiet) || found.total == 0
    }

    /// What one walked file gives: in path mode, one hit when its path matches (and it
    /// is confirmed inside the root), else its content's hits ([`file_hits`]); and
    /// whether it has more. `None` when it gives nothing.
    fn hits(&self, entry: &Listed) -> Option<(Vec<Hit>, bool)> {
        let ctx = self.ctx;
        if self.mode == Mode::Path {
            let shown = respell(&self.location.shown, &self.location.real, &entry.path);
            if !self.matcher.is_match(shown.as_bytes()).unwrap_or(false)
                || !confirmed(ctx, entry, &self.skipped)
            {
                return None;
            }
            return Some((vec![Hit::default()], false));
        }
        file_hits(
            ctx,
            self.req.summary,
            &self.matcher,
            &entry.path,
            Taken {
                context: self.context,
                limit: self.limit,
            },
            &self.skipped,
            &self.counts,
        )
    }

    /// The result, once the walk is over and `omitted` what it left out.
    fn result(self, mut omitted: Omitted) -> SearchResult {
        let Search {
            ctx,
            req,
            location,
            single_file,
            context,
            mode,
            limit,
            ..
        } = self;
        omitted.unreadable += self.skipped.unreadable.load(Ordering::Relaxed);
        let found = self
            .found
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        // `-q` stops at its answer, which cuts nothing it was asked for.
        let truncated = req.summary.is_none() && (found.cut || found.total > limit);
        let counts = self
            .counts
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let matches = listing(
            found.files,
            location,
            single_file,
            limit,
            |hit, shown, path| Match {
                count: counts.get(path).copied(),
                ..render(shown, hit, mode, context)
            },
        );
        SearchResult {
            matches,
            truncated,
            scanned_files: self.scanned.into_inner(),
            skipped_binary: self.skipped.binary.into_inner(),
            skipped_large: self.skipped.large.into_inner(),
            denied: omitted.denied,
            left: omitted.into(),
            hint: truncated.then(|| Cut {
                shown: limit,
                narrow: crate::hint::Narrow::Search,
                cap: ctx.limits.search.saturating_mul(count_limit::RAISE),
            }),
        }
    }
}

/// Visits the one file searched, or every entry of the walk below the directory;
/// returns what the walk left out.
fn visit_all(
    ctx: &Context,
    req: &SearchRequest,
    location: &crate::workspace::Location,
    single_file: bool,
    visit: &(dyn Fn(Listed) -> bool + Sync),
) -> Omitted {
    if single_file {
        visit(Listed {
            path: location.real.clone(),
            kind: EntryKind::File,
            target: Some(EntryKind::File),
            bytes: None,
            ino: None,
        });
        return Omitted::default();
    }
    ctx.ws.walk_parallel(&walk_of(ctx, req, location), visit)
}

/// The walk of a search below `location`: every depth, file sizes not looked up, the
/// policy's `deny` left out.
fn walk_of(ctx: &Context, req: &SearchRequest, location: &crate::workspace::Location) -> Walk {
    Walk {
        start: location.real.clone(),
        depth: None,
        include_ignored: req.include_ignored,
        sizes: false,
        exclude: ctx.policy.deny.clone(),
    }
}

/// What `search_files` returns, in this order.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    /// In (path, line) order.
    pub matches: Vec<Match>,
    pub truncated: bool,
    pub scanned_files: usize,
    /// Files with NUL bytes, passed over.
    pub skipped_binary: usize,
    /// Files over `maxFileBytes`, passed over.
    pub skipped_large: usize,
    /// Entries the policy's `deny` left out.
    pub denied: usize,
    #[serde(flatten)]
    pub left: Left,
    /// How to narrow, when the limit cut the matches.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<String>")]
    pub hint: Option<Cut>,
}

/// One match: a line of a file, or (in path mode) a file.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Match {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The line was longer than the window shown.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub text_truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<Vec<String>>,
    /// The file's number of matching lines, for `-c`, which prints no JSON.
    #[serde(skip)]
    pub count: Option<u64>,
    /// Where the query matches in `text` (byte ranges), for the text form to highlight;
    /// not part of the JSON result.
    #[serde(skip)]
    pub spans: Vec<(usize, usize)>,
}

/// How many of a file's matching lines a search takes: the first `limit`, each with
/// `context` lines either side.
#[derive(Debug, Clone, Copy)]
struct Taken {
    context: usize,
    limit: usize,
}

/// Files a content search passed over, by why.
#[derive(Debug, Default)]
struct Skipped {
    /// Files with NUL bytes.
    binary: AtomicUsize,
    /// Files over `maxFileBytes`, or more than this process can hold now.
    large: AtomicUsize,
    /// Files that could not be looked up again or read through the root handle
    /// (searched without permission, vanished, no longer a regular file): added to the
    /// walk's `skippedUnreadable`.
    unreadable: AtomicUsize,
}

/// Whether one walked entry is really inside the root (see `Workspace::confirm`); one
/// that is not is counted as unreadable.
fn confirmed(ctx: &Context, entry: &Listed, skipped: &Skipped) -> bool {
    let mut one = vec![entry.clone()];
    let left_out = ctx.ws.confirm(&mut one);
    skipped.unreadable.fetch_add(left_out, Ordering::Relaxed);
    left_out == 0
}

/// The first `limit` matching lines of one walked file, and whether it has more; `None`
/// when it has none, is binary (counted) or could not be read.
fn content_hits(
    ctx: &Context,
    matcher: &grep_regex::RegexMatcher,
    path: &str,
    Taken { context, limit }: Taken,
    skipped: &Skipped,
) -> Option<(Vec<Hit>, bool)> {
    let bytes = match ctx.ws.read_walked(path, ctx.limits.max_file_bytes) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => {
            skipped.large.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        Err(crate::workspace::Error::Io(e)) if e.kind() == std::io::ErrorKind::OutOfMemory => {
            skipped.large.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        Err(_) => {
            skipped.unreadable.fetch_add(1, Ordering::Relaxed);
            return None;
        }
    };
    let binary = &skipped.binary;
    if memchr::memchr(0, &bytes).is_some() {
        binary.fetch_add(1, Ordering::Relaxed);
        return None;
    }
    let (hits, more) = grep::hits(matcher, &mut grep::searcher(), &bytes, context, limit);
    (!hits.is_empty()).then_some((hits, more))
}

/// What one walked file gives the result: its hits and whether it has more, as the
/// summary asks — `-c` counts every matching line into `counts` and gives one entry,
/// `-l` and `-q` the first match, a plain search its first `limit` hits with context.
fn file_hits(
    ctx: &Context,
    summary: Option<Summary>,
    matcher: &grep_regex::RegexMatcher,
    path: &str,
    taken: Taken,
    skipped: &Skipped,
    counts: &Mutex<BTreeMap<String, u64>>,
) -> Option<(Vec<Hit>, bool)> {
    match summary {
        Some(Summary::Count) => {
            let n = content_count(ctx, matcher, path, skipped)?;
            let mut counts = counts.lock().unwrap_or_else(PoisonError::into_inner);
            counts.insert(path.to_owned(), n);
            Some((vec![Hit::default()], false))
        }
        Some(Summary::Files | Summary::Quiet) => {
            let first = Taken {
                context: 0,
                limit: 1,
            };
            let (hits, _) = content_hits(ctx, matcher, path, first, skipped)?;
            Some((hits, false))
        }
        None => content_hits(ctx, matcher, path, taken, skipped),
    }
}

/// The number of matching lines of one walked file (`-c`); `None` when it has none, is
/// binary (counted) or could not be read, as for [`content_hits`].
fn content_count(
    ctx: &Context,
    matcher: &grep_regex::RegexMatcher,
    path: &str,
    skipped: &Skipped,
) -> Option<u64> {
    let bytes = searchable(ctx, path, skipped)?;
    let n = tally::count(matcher, &mut grep::searcher(), &bytes);
    (n > 0).then_some(n)
}

/// The first `limit` hits in (path, line) order, rendered with the caller's spelling
/// (`render` takes the hit, the path as shown and the path as walked).
fn listing(
    files: BTreeMap<String, Vec<Hit>>,
    location: &crate::workspace::Location,
    single_file: bool,
    limit: usize,
    render: impl Fn(&Hit, &str, &str) -> Match,
) -> Vec<Match> {
    let mut matches = Vec::new();
    for (path, hits) in files {
        let shown = if single_file {
            location.shown.clone()
        } else {
            respell(&location.shown, &location.real, &path)
        };
        for hit in &hits {
            if matches.len() == limit {
                return matches;
            }
            matches.push(render(hit, &shown, &path));
        }
    }
    matches
}

/// The bytes of one walked file to search, or `None` when it is over maxFileBytes or
/// binary (each counted in `skipped`) or could not be read.
fn searchable(ctx: &Context, path: &str, skipped: &Skipped) -> Option<Vec<u8>> {
    let Some(bytes) = ctx.ws.read_walked(path, ctx.limits.max_file_bytes).ok()? else {
        skipped.large.fetch_add(1, Ordering::Relaxed);
        return None;
    };
    if memchr::memchr(0, &bytes).is_some() {
        skipped.binary.fetch_add(1, Ordering::Relaxed);
        return None;
    }
    Some(bytes)
}

/// Checks the arguments that need no workspace: returns (context, mode, limit).
fn checks(
    ctx: &Context,
    req: &SearchRequest,
) -> Result<(usize, Mode, usize), crate::refusal::Refusal> {
    if req.query.is_empty() {
        return Err(invalid("query", "query is empty"));
    }
    let context = req.context.unwrap_or(0);
    if context > MAX_CONTEXT {
        return Err(invalid(
            "context",
            format!("context must be from 0 to {MAX_CONTEXT}"),
        ));
    }
    let mode = req.mode.unwrap_or(Mode::Content);
    let limit = count_limit::count(req.limit, ctx.limits.search)?;
    Ok((usize::try_from(context).unwrap_or(0), mode, limit))
}

/// One hit as the result lists it: matched by its path, the path alone; else with its
/// line, text and spans, and the lines around it when `context` asks for any.
fn render(shown: &str, hit: &Hit, mode: Mode, context: usize) -> Match {
    let path_mode = mode == Mode::Path;
    let context = |lines: &Vec<String>| (context > 0).then(|| lines.clone());
    Match {
        path: shown.to_owned(),
        line: (!path_mode).then_some(hit.line),
        text: (!path_mode).then(|| hit.text.clone()),
        text_truncated: !path_mode && hit.cut,
        before: if path_mode {
            None
        } else {
            context(&hit.before)
        },
        after: if path_mode { None } else { context(&hit.after) },
        count: None,
        spans: if path_mode {
            Vec::new()
        } else {
            hit.spans.clone()
        },
    }
}
