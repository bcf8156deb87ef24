//! `write_file`: create a file, or replace one explicitly, atomically.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::digest::sha256_hex;
use crate::refusal::{key, Failure, Outcome};
use crate::workspace::{Kind, Location, OpenFile, WriteMode};

use super::args::{self, Request};
use super::syntax_gate::{self, Asked, Caveats, Gated, SyntaxReport, Unchecked};
use super::{refuse, textfile, Context};
use crate::engine::change::{ChangeSet, Expected, FileOp, New};
use crate::engine::payload::Payload;
use crate::engine::pipeline::{self, Plan, Steps};
use crate::engine::stale;

/// The arguments of `write_file`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WriteRequest {
    /// The file to create or replace, relative to the workspace root. Missing parent directories are created.
    #[serde(alias = "file_path")]
    pub path: String,
    /// The complete new content of the file.
    pub content: String,
    /// Replace the file if it exists (default false: an existing file is ALREADY_EXISTS).
    #[serde(default)]
    pub overwrite: bool,
    /// Replace only if the file's current SHA-256 (from read_file) is this; otherwise STALE_VERSION.
    #[serde(alias = "expected_sha256")]
    pub expected_sha256: Option<crate::digest::Sha256>,
    /// Check everything and report the result without writing (default false).
    #[serde(default, alias = "dry_run")]
    pub dry_run: bool,
    /// Write even if the content breaks the file's syntax (a later change completes it); the result lists syntaxErrors (default false).
    #[serde(default, alias = "allow_syntax_errors")]
    pub allow_syntax_errors: bool,
    /// The result carries the write's diff, for a front end that shows it as text:
    /// never the caller's argument.
    #[serde(skip)]
    pub diff: bool,
}

impl Request for WriteRequest {
    const TOOL: &'static str = crate::names::WRITE_FILE;
    const DESCRIPTION: &'static str = "Create a file with the given content, creating missing parent directories (named in createdDirectories), atomically. An existing file is replaced only with overwrite: true or a matching expectedSha256 (or, in a session, when this session read its current version). Returns path, sha256, bytes, created, createdDirectories, applied, id (the journal entry, for show_change and undo_change), previousSha256; content equal to the file's leaves it untouched and says unchanged: true with applied: false. Refusals: ALREADY_EXISTS (read the file, then pass overwrite: true or its sha256 as expectedSha256, or change it with edit_file); STALE_VERSION (the file changed since you read it: re-read the file, then retry); NOT_OBSERVED (in a session, the file was never read: read the file, then retry); NOT_A_FILE (the path is a directory); NOT_A_DIRECTORY (a parent component is a file: pick another path); TOO_LARGE (split the content); INVALID_PATH, OUTSIDE_ROOT, INVALID_ARGUMENT (fix the path or field); DENIED (policy, .git/ or .stitch/: leave it alone, or satisfy details.reason); SYNTAX_ERROR (the content would not parse at details.line, though the file did: fix content there, or pass allowSyntaxErrors: true if a later change completes it); BUSY (retry).";
    const FIELDS: &'static [&'static str] = &[
        "path",
        "content",
        "overwrite",
        "expectedSha256",
        "dryRun",
        "allowSyntaxErrors",
    ];
}

/// Writes the file named in `arguments`; the result carries the diff when `diff` asks.
pub fn run(ctx: &Context, arguments: Value, diff: bool) -> Outcome<WriteResult> {
    let req = WriteRequest {
        diff,
        ..args::parse(arguments)?
    };
    pipeline::run(ctx, &req)
}

impl Plan for WriteRequest {
    type Output = WriteResult;

    fn paths(&self) -> Vec<&str> {
        vec![&self.path]
    }

    fn build(&self, ctx: &Context, at: &[Location], steps: Steps<'_>) -> Outcome<WriteResult> {
        write_once(ctx, self, &at[0], steps)
    }

    fn gave_up(&self, _: &Context, at: &[Location], failure: Failure) -> Failure {
        match &self.expected_sha256 {
            Some(expected) => stale(&at[0].shown, expected, None).into(),
            None => failure,
        }
    }
}

/// Checks the file at `location` (under the lock) and writes it.
fn write_once(
    ctx: &Context,
    req: &WriteRequest,
    location: &Location,
    steps: Steps<'_>,
) -> Outcome<WriteResult> {
    let bytes = req.content.as_bytes();
    let shown = location.shown.clone();
    if bytes.len() as u64 > ctx.limits.max_file_bytes {
        return Err(
            textfile::too_large(&shown, bytes.len() as u64, ctx.limits.max_file_bytes)
                .with(key::FIELD, "content")
                .into(),
        );
    }
    let replaced = replaced(ctx, location)?;
    let previous = replaced.as_ref().map(|(_, actual)| actual.clone());
    let sha256 = sha256_hex(bytes);
    let base = replaced.as_ref().map(|(file, _)| file);
    let change = change(req, location, base, (previous.clone(), &sha256));
    let checked = steps.check_change(&change)?;
    let diff = req.diff.then(|| text_diff(ctx, location, bytes));
    let Caveats {
        errors: syntax_errors,
        unchecked: syntax_unchecked,
    } = gate(ctx, req, location, replaced.is_some())?;
    let payload = Payload {
        overwrite: Some(req.overwrite),
        creates_directories: Some(location.missing_dirs.iter().map(String::as_str).collect()),
        ..Payload::of_file(ctx, &change, req.dry_run)
    };
    let approved = checked.authorize(&shown, &payload)?;
    // Content equal to the file's (same digest, so same bytes) is not rewritten: the
    // inode and mtime stay, and no build sees a change.
    let unchanged = previous.as_deref() == Some(sha256.as_str());
    let mut id = None;
    match approved {
        Some(approved) if unchanged => approved.unchanged(&location.real, &sha256),
        Some(approved) => {
            let stat = stat(ctx, location, base.map(|file| file.size), bytes);
            id = approved.commit(change.counted(vec![stat]))?;
        }
        None => {}
    }
    Ok(WriteResult {
        path: shown,
        sha256,
        bytes: bytes.len(),
        created: previous.is_none(),
        created_directories: location.missing_dirs.clone(),
        applied: !req.dry_run && !unchanged,
        id,
        previous_sha256: previous,
        unchanged,
        syntax_errors,
        syntax_unchecked,
        diff,
    })
}

/// The write as one change: the content over the file it replaces (`base`, at digest
/// `previous`) or as a new file, expected at the version the caller named (and, without
/// `overwrite`, onto no file), its content kept as the result `sha256`.
fn change<'a>(
    req: &'a WriteRequest,
    location: &'a Location,
    base: Option<&'a OpenFile>,
    (previous, sha256): (Option<String>, &str),
) -> ChangeSet<'a> {
    let bytes = req.content.as_bytes();
    let new = New::Bytes {
        parts: vec![bytes],
        mode: match base {
            Some(file) => WriteMode::Replace {
                mode: file.mode,
                uid: file.uid,
                gid: file.gid,
            },
            None => WriteMode::CreateNew,
        },
        reuse: None,
    };
    let operation = if previous.is_some() {
        "replace"
    } else {
        "create"
    };
    let expect = Expected::Any
        .or_named(req.expected_sha256.as_deref())
        .creating(req.overwrite);
    let file = FileOp::write(location, (previous, sha256.to_owned()), new, base)
        .expecting(expect)
        .keeping_base(None)
        .shown(operation, Some(bytes.len() as u64));
    ChangeSet::of(WriteRequest::TOOL, vec![file]).keeping(sha256, vec![bytes])
}

/// The file the write replaces, opened and hashed (under the lock), with its digest;
/// `None` when there is none. Refused when the path is not a regular file, or the file
/// changed while it was hashed.
fn replaced(ctx: &Context, location: &Location) -> Outcome<Option<(OpenFile, String)>> {
    let shown = &location.shown;
    match location.kind {
        Some(Kind::Directory | Kind::Other | Kind::Link) => Err(refuse::not_a_file(shown).into()),
        Some(Kind::File) => {
            let mut file = ctx
                .ws
                .open_file(location)
                .map_err(|e| refuse::path(ctx, shown, e))?;
            let actual = file
                .sha256()
                .map_err(|e| anyhow::Error::new(e).context("hashing the file to replace"))?;
            if !file
                .unchanged()
                .map_err(|e| anyhow::Error::new(e).context("checking the file hashed"))?
            {
                return Err(refuse::changed(shown).into());
            }
            Ok(Some((file, actual)))
        }
        None => Ok(None),
    }
}

/// The syntax gate on the write: the file replaced (read again only when the gate wants
/// it) and the new content.
fn gate(
    ctx: &Context,
    req: &WriteRequest,
    location: &Location,
    replacing: bool,
) -> Outcome<Caveats> {
    if !syntax_gate::wanted(ctx, &location.shown) {
        return Ok(Caveats::default());
    }
    let old = replacing
        .then(|| textfile::load_any(ctx, location).ok()?.ok())
        .flatten();
    let file = Gated {
        path: &location.shown,
        old: old.as_ref().map(textfile::Loaded::bytes),
        new: req.content.as_bytes(),
        change_index: None,
    };
    let asked = Asked {
        field: Some("content"),
        allow: req.allow_syntax_errors,
        dry_run: req.dry_run,
    };
    syntax_gate::check(ctx, &[file], asked)
}

/// What `write_file` returns, in this order.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WriteResult {
    pub path: String,
    pub sha256: String,
    pub bytes: usize,
    pub created: bool,
    pub created_directories: Vec<String>,
    /// Whether the file was written: false on a dry run, and when it already held the
    /// content (`unchanged`).
    pub applied: bool,
    /// The journal entry, for undo_change and show_change (absent when nothing was
    /// written, or with the journal off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The digest of the file replaced, when one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_sha256: Option<String>,
    /// The file already held exactly this content, so it was left alone (same inode,
    /// same modification time).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub unchanged: bool,
    /// The syntax errors the content leaves, when the gate only warns, was overridden
    /// (allowSyntaxErrors) or the call was a dry run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub syntax_errors: Vec<SyntaxReport>,
    /// Files of a known language the gate did not check: over `maxGateBytes`, or their
    /// parse took longer than `maxGateMillis`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub syntax_unchecked: Vec<Unchecked>,
    /// The change as a unified diff, for a person reading text output only (never in
    /// the JSON result).
    #[serde(skip)]
    #[schemars(skip)]
    pub diff: Option<String>,
}

/// The largest file a write reads again to count the lines it replaces.
const STAT_BYTES: u64 = 8 << 20;

/// The lines the write adds and removes, when the file replaced (of `replacing` bytes,
/// if any) and the new content are text. A replaced file over [`STAT_BYTES`] is not read
/// again for it: the entry then has no count.
fn stat(
    ctx: &Context,
    location: &Location,
    replacing: Option<u64>,
    bytes: &[u8],
) -> Option<crate::text::diff::Stat> {
    match replacing {
        None => return crate::text::diff::stat_bytes(b"", bytes),
        Some(size) if size > STAT_BYTES || bytes.len() as u64 > STAT_BYTES => return None,
        Some(_) => {}
    }
    let loaded = textfile::load_any(ctx, location).ok()?.ok()?;
    crate::text::diff::stat_bytes(loaded.bytes(), bytes)
}

/// The write as a unified diff, for text output: the old text is read for it only then.
fn text_diff(ctx: &Context, location: &crate::workspace::Location, bytes: &[u8]) -> String {
    let old = match location.kind {
        Some(Kind::File) => textfile::load(ctx, location)
            .map(|l| l.text().to_owned())
            .unwrap_or_default(),
        _ => String::new(),
    };
    let new = String::from_utf8_lossy(bytes);
    crate::text::diff::unified(&location.shown, &old, &new, super::edit::MAX_DIFF_BYTES).text
}
