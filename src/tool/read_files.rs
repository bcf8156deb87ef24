//! `read_files`: several files in one call, each read by `read_file`'s rules (window,
//! limits, `lineNumbers`, deny rules, the session's observation) and answered in order,
//! a refusal inline where its file is. A bound on the bytes of all files together stops
//! reading; the files left are listed in `notRead`, never dropped in silence.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::refusal::{key, Code, Failure, Outcome, Refusal};

use super::args::{self, invalid, Request};
use super::read::{self, Read};
use super::{glob, Context};

/// The arguments of `read_files`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReadFilesRequest {
    /// The files to read, in order, relative to the workspace root. Give paths or glob.
    pub paths: Option<Vec<String>>,
    /// A glob of files to read instead of paths (`*` stays within a directory, `**` crosses them), relative to path; ignored and hidden files are skipped.
    pub glob: Option<String>,
    /// With glob: the directory it is relative to (default ".").
    pub path: Option<String>,
    /// First line to return of each file, 1-based (default 1).
    pub offset: Option<u64>,
    /// How many lines to return of each file (default 2000).
    pub limit: Option<u64>,
    /// Cap on the returned text of each file in bytes (default and maximum 262144).
    pub max_bytes: Option<u64>,
    /// Prefix each line with its number and a tab, as `cat -n` prints it (default false).
    #[serde(default, alias = "line_numbers")]
    pub line_numbers: bool,
    /// Cap on the bytes returned for all files together (default 4 × maxReadBytes = 1048576); the files past it are listed in notRead.
    #[schemars(extend("default" = crate::policy::Limits::DEFAULT.max_read_bytes * 4))]
    pub max_total_bytes: Option<u64>,
}

impl Request for ReadFilesRequest {
    const TOOL: &'static str = crate::names::READ_FILES;
    const DESCRIPTION: &'static str = "Read several files in one call: paths (a list) or glob (with path), each read as read_file reads it (offset, limit, maxBytes and lineNumbers apply to each). Returns files, in order: each {path, ok: true, ...read_file's result} or {path, ok: false, error, details, _hint} — a file refused (missing, denied, binary, too large) is reported in its place and does not refuse the others: act on its _hint. maxTotalBytes (default 1048576) bounds the bytes of all files together: the files it left unread are in notRead with the reason; read them in a further call. Images and PDFs come whole, base64-encoded, as read_file returns them. Refusals of the whole call: INVALID_ARGUMENT (give paths or glob, not both; fix the named field); INVALID_PATTERN (the glob does not compile); NOT_FOUND or NOT_A_DIRECTORY (the glob's path); OUTSIDE_ROOT; DENIED; INVALID_CONFIG.";
    const FIELDS: &'static [&'static str] = &[
        "paths",
        "glob",
        "path",
        "offset",
        "limit",
        "maxBytes",
        "lineNumbers",
        "maxTotalBytes",
    ];
}

/// A file the bound on the total left unread.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotRead {
    pub path: String,
    /// Why it was not read.
    pub reason: String,
}

/// One file of the answer, in its place: read, or refused.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum FileAnswer {
    /// `{path, ok: true, ...}` as read_file returns it.
    Read(Map<String, Value>),
    /// `{path, ok: false, error, details, _hint}`: the refusal, which the envelope phrases
    /// in the caller's dialect.
    Refused(RefusedFile),
}

/// A file refused, and why: the facts its item is phrased from.
#[derive(Debug)]
pub struct RefusedFile {
    pub path: String,
    pub refusal: Refusal,
}

impl Serialize for RefusedFile {
    /// The facts alone (path, `ok`, code), where nothing phrases the refusal.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry(key::PATH, &self.path)?;
        map.serialize_entry("ok", &false)?;
        map.serialize_entry("error", self.refusal.code().as_str())?;
        map.end()
    }
}

/// What `read_files` returns, in this order.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadFilesResult {
    /// One item a file, in order: `{path, ok: true, ...}` as read_file returns it, or
    /// `{path, ok: false, error, details, _hint}`.
    #[schemars(with = "Vec<Map<String, Value>>")]
    pub files: Vec<FileAnswer>,
    /// The files past maxTotalBytes, not read.
    pub not_read: Vec<NotRead>,
    /// The bytes returned, all files together (text, or a media file's size).
    pub total_bytes: u64,
    /// With glob: the matches were more than a glob returns; the rest are not listed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub glob_truncated: bool,
}

impl ReadFilesResult {
    /// How many files were refused.
    #[must_use]
    pub fn refused(&self) -> usize {
        self.files
            .iter()
            .filter(|f| matches!(f, FileAnswer::Refused(_)))
            .count()
    }
}

/// Reads the files named in `arguments`.
pub fn run(ctx: &Context, arguments: Value) -> Outcome<ReadFilesResult> {
    let req: ReadFilesRequest = args::parse(arguments)?;
    let cap = ctx.limits.max_read_bytes;
    let total_cap = cap.saturating_mul(40);
    let max_total = req.max_total_bytes.unwrap_or(cap.saturating_mul(4));
    if max_total == 0 || max_total > total_cap {
        return Err(invalid(
            "maxTotalBytes",
            format!("maxTotalBytes must be from 1 to {total_cap}"),
        )
        .with("cap", total_cap)
        .into());
    }
    let (paths, glob_truncated) = paths_of(ctx, &req)?;
    let per_file = req.max_bytes.unwrap_or(cap);
    let mut result = ReadFilesResult {
        files: Vec::with_capacity(paths.len()),
        not_read: Vec::new(),
        total_bytes: 0,
        glob_truncated,
    };
    for path in paths {
        let left = max_total.saturating_sub(result.total_bytes);
        if left == 0 {
            result.not_read.push(NotRead {
                path,
                reason: format!("maxTotalBytes ({max_total}) was reached before this file"),
            });
            continue;
        }
        let mut arguments = json!({"path": path, "lineNumbers": req.line_numbers});
        let window = [
            ("offset", req.offset),
            ("limit", req.limit),
            ("maxBytes", Some(per_file.min(left))),
        ];
        for (field, value) in window {
            if let Some(value) = value {
                arguments[field] = json!(value);
            }
        }
        match read::run(ctx, arguments) {
            Ok(read) => {
                let (bytes, fields) = entry(&path, read, req.line_numbers)?;
                result.total_bytes += bytes;
                result.files.push(FileAnswer::Read(fields));
            }
            // A media file larger than what the bound leaves, but within a file's own
            // limit: it is left for another call, as the files after it are.
            Err(Failure::Refused(refusal)) if over_what_is_left(&refusal, left, per_file) => {
                result.not_read.push(NotRead {
                    path,
                    reason: format!(
                        "it is {} bytes, more than the {left} bytes maxTotalBytes ({max_total}) left",
                        refusal.detail("bytes").and_then(Value::as_u64).unwrap_or(0)
                    ),
                });
            }
            Err(Failure::Refused(refusal)) => {
                result
                    .files
                    .push(FileAnswer::Refused(RefusedFile { path, refusal }));
            }
            Err(internal) => return Err(internal),
        }
    }
    Ok(result)
}

/// The files to read: the paths given, or the glob's matches (and whether the glob's
/// limit cut them).
fn paths_of(ctx: &Context, req: &ReadFilesRequest) -> Outcome<(Vec<String>, bool)> {
    match (&req.paths, &req.glob) {
        (Some(_), Some(_)) => Err(invalid("glob", "Pass either paths or glob, not both").into()),
        (None, None) => Err(invalid(
            "paths",
            "read_files needs the field `paths` (a list of files) or `glob`",
        )
        .into()),
        (Some(_), None) if req.path.is_some() => Err(invalid(
            "path",
            "path is the directory a glob is relative to; with paths, name each file in paths",
        )
        .into()),
        (Some(paths), None) if paths.is_empty() => {
            Err(invalid("paths", "paths must name at least one file").into())
        }
        (Some(paths), None) => Ok((paths.clone(), false)),
        (None, Some(pattern)) => {
            let mut arguments = json!({"pattern": pattern});
            if let Some(path) = &req.path {
                arguments["path"] = json!(path);
            }
            let found = glob::run(ctx, arguments)?;
            Ok((found.matches, found.truncated))
        }
    }
}

/// A file read: its bytes against the bound — the file's bytes it returned, as `maxBytes`
/// counts them, without the line numbers `lineNumbers` put before each line — and its
/// item.
fn entry(path: &str, read: Read, line_numbers: bool) -> Outcome<(u64, Map<String, Value>)> {
    let bytes = match &read {
        Read::Text(text) if line_numbers => {
            let numbers: u64 = (text.start_line..=text.end_line)
                .map(|line| line.to_string().len().max(6) as u64 + 1)
                .sum();
            (text.content.len() as u64).saturating_sub(numbers)
        }
        Read::Text(text) => text.content.len() as u64,
        Read::Media(media) => media.media.bytes as u64,
    };
    let value = match read {
        Read::Text(text) => serde_json::to_value(text),
        Read::Media(media) => serde_json::to_value(media),
    }
    .map_err(|e| anyhow::Error::new(e).context("serializing a read"))?;
    let mut fields = Map::new();
    fields.insert(key::PATH.into(), Value::String(path.to_owned()));
    fields.insert("ok".into(), Value::Bool(true));
    if let Value::Object(read) = value {
        // The path as read_file shows it (an absolute path made relative).
        fields.extend(read);
    }
    Ok((bytes, fields))
}

/// Whether `refusal` is a media file over what the bound left (`left`) while within the
/// bytes each file may return (`per_file`).
fn over_what_is_left(refusal: &Refusal, left: u64, per_file: u64) -> bool {
    let bytes = refusal.detail("bytes").and_then(Value::as_u64);
    refusal.code() == Code::TooLarge
        && refusal.detail("mime").is_some()
        && left < per_file
        && bytes.is_some_and(|b| b <= per_file)
}
