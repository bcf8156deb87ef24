//! `read_file`: a text file, paged by lines, with the whole file's digest; or an image
//! or a PDF, told by its leading bytes, whole and base64-encoded ([`super::media`]).

use crate::policy::Access;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::digest::sha256_hex;
use crate::refusal::{key, Code, Outcome, Refusal};
use crate::region;
use crate::text::lines::{self, BOM};

use super::args::{self, invalid, Request};
use super::media::{self, MediaResult};
use super::{approve, refuse, textfile, Context};
use crate::engine::session_check;
use crate::session::Seen;

/// The arguments of `read_file`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReadRequest {
    /// The file, relative to the workspace root (an absolute path inside the root is accepted).
    #[serde(alias = "file_path")]
    pub path: String,
    /// First line to return, 1-based (default 1). Past the last line is INVALID_ARGUMENT with totalLines.
    #[schemars(extend("default" = 1))]
    pub offset: Option<u64>,
    /// How many lines to return (default 2000).
    #[schemars(extend("default" = DEFAULT_LIMIT))]
    pub limit: Option<u64>,
    /// Cap on the returned text in bytes (default and maximum 262144); a longer single line is cut and truncated is true.
    #[schemars(extend("default" = crate::policy::Limits::DEFAULT.max_read_bytes))]
    pub max_bytes: Option<u64>,
    /// Prefix each line of content with its number and a tab, as `cat -n` prints it
    /// (default false): for reading only, never to copy into oldText; sha256 is still the
    /// raw file's.
    #[serde(default, alias = "line_numbers")]
    pub line_numbers: bool,
}

impl Request for ReadRequest {
    const TOOL: &'static str = crate::names::READ_FILE;
    const DESCRIPTION: &'static str = "Read a text file of the workspace, paged by lines. Returns content (exact bytes of the lines, line endings included, without a leading BOM), sha256 of the whole file (pass it as expectedSha256 to edit_file or write_file to guard against concurrent changes), totalLines, startLine, endLine, truncated and nextOffset (call again with offset: nextOffset to read on), lineEnding and bom. An image (PNG, JPEG, GIF, WebP) or a PDF, told by its leading bytes whatever its name, comes back whole instead: {path, media: {mime, bytes, sha256}, base64}, within maxBytes (a PDF's pages cannot be chosen). Refusals: NOT_FOUND (details.nearNames lists the closest existing paths: use one, or list_directory the parent); NOT_A_FILE (it is a directory or special file: use list_directory); NOT_TEXT (binary or invalid UTF-8: it cannot be read as text); TOO_LARGE (over the size limit); INVALID_ARGUMENT (fix the named field; offset past the end carries totalLines); INVALID_PATH (use details.suggestion); OUTSIDE_ROOT (use a path inside the workspace); NOT_A_DIRECTORY (a parent component is a file); DENIED (the workspace policy forbids it: leave it alone); INVALID_CONFIG (the workspace owner must fix .stitch/config.json); BUSY (retry).";
    const FIELDS: &'static [&'static str] = &["path", "offset", "limit", "maxBytes", "lineNumbers"];
}

/// The page's text as returned: `content` itself or, with `line_numbers`, each line
/// prefixed by its number (from `first`) and a tab, as `cat -n`. The room is reserved
/// whole and fallibly, as the page's size follows the file and the limits: `None` when
/// it cannot be had.
fn returned(content: &str, first: u64, line_numbers: bool) -> Option<String> {
    use std::fmt::Write as _;
    let mut out = String::new();
    if !line_numbers {
        out.try_reserve_exact(content.len()).ok()?;
        out.push_str(content);
        return Some(out);
    }
    let count = lines::count_lines(content.as_bytes());
    let width = (first + count as u64).to_string().len().max(6) + 1;
    out.try_reserve_exact(content.len().checked_add(count.checked_mul(width)?)?)
        .ok()?;
    for (i, line) in content.split_inclusive('\n').enumerate() {
        let _ = write!(out, "{:>6}\t{line}", first + i as u64);
    }
    Some(out)
}

/// What `read_file` returns, in this order.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadResult {
    pub path: String,
    /// The lines, byte-exact with their line endings, without a leading BOM.
    pub content: String,
    /// The whole file's digest, whatever the window.
    pub sha256: String,
    pub bytes: usize,
    pub total_lines: usize,
    pub start_line: u64,
    pub end_line: u64,
    pub truncated: bool,
    pub line_ending: &'static str,
    pub bom: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u64>,
}

/// What `read_file` returns: a page of text, or an image or a PDF whole.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Read {
    Text(ReadResult),
    Media(MediaResult),
}

impl Read {
    /// The call's output.
    #[must_use]
    pub fn into_output(self) -> super::Output {
        match self {
            Read::Text(text) => super::Output::Read(text),
            Read::Media(media) => super::Output::Media(media),
        }
    }
}

/// The default number of lines in one page.
pub const DEFAULT_LIMIT: u64 = 2000;

/// Reads the file named in `arguments`.
pub fn run(ctx: &Context, arguments: Value) -> Outcome<Read> {
    let req: ReadRequest = args::parse(arguments)?;
    let cap = ctx.limits.max_read_bytes;
    let window = Window::of(&req, cap)?;
    let max_bytes = window.max_bytes;
    let location = ctx
        .ws
        .locate(&req.path)
        .map_err(|e| refuse::path(ctx, &req.path, e))?;
    refuse::file_path(&req.path, &location)?;
    refuse::protected(ctx, &location, Access::Read)?;
    approve::rules(ctx, &location, Access::Read)?;
    if location.kind.is_none() {
        session_check::note_read(ctx, &location.shown, &location.real, Seen::Absent)?;
        return Err(refuse::not_found(ctx, &location.shown).into());
    }
    let loaded = match textfile::load_any(ctx, &location)? {
        Ok(loaded) => loaded,
        // A file that is not text was still seen whole: a session may replace it.
        Err(not_text) => {
            session_check::note_read(
                ctx,
                &location.shown,
                &location.real,
                Seen::Present(not_text.sha256.clone()),
            )?;
            return binary(location.shown, &not_text, (max_bytes, cap));
        }
    };
    let sha256 = sha256_hex(loaded.bytes());
    // What tells later which lines changed since this read (§6, staleness by region),
    // kept by the ledger's own write: computed only when the ledger is written.
    let lines = || {
        let bytes = loaded.bytes();
        let text = media::sniff(bytes).is_none() && bytes.len() as u64 <= region::MAX_REGION_BYTES;
        text.then(|| region::digests(bytes))
    };
    session_check::note_read_lines(
        ctx,
        &location.shown,
        &location.real,
        Seen::Present(sha256.clone()),
        lines,
    )?;
    // A PDF may be all ASCII: its leading bytes, not its being text, say what it is.
    if let Some(kind) = media::sniff(loaded.bytes()) {
        let bytes = loaded.bytes();
        within(&location.shown, kind, bytes.len(), (max_bytes, cap))?;
        return Ok(Read::Media(MediaResult::new(
            location.shown,
            kind,
            bytes,
            sha256,
        )));
    }
    paged(
        ctx,
        location.shown,
        &loaded,
        sha256,
        (&window, req.line_numbers),
    )
}

/// The lines a read asks for: from `offset` (1-based), at most `limit` of them and
/// `max_bytes` bytes.
struct Window {
    offset: u64,
    limit: u64,
    max_bytes: u64,
}

impl Window {
    /// The window `req` asks for, checked; `cap` is the most bytes a read returns.
    fn of(req: &ReadRequest, cap: u64) -> Result<Window, Refusal> {
        let offset = req.offset.unwrap_or(1);
        let limit = req.limit.unwrap_or(DEFAULT_LIMIT);
        let max_bytes = req.max_bytes.unwrap_or(cap);
        if offset == 0 {
            return Err(invalid(
                "offset",
                "offset counts lines from 1, so it cannot be 0",
            ));
        }
        if limit == 0 {
            return Err(invalid("limit", "limit must be at least 1 line"));
        }
        if max_bytes == 0 || max_bytes > cap {
            return Err(
                invalid("maxBytes", format!("maxBytes must be from 1 to {cap}")).with("cap", cap),
            );
        }
        Ok(Window {
            offset,
            limit,
            max_bytes,
        })
    }
}

/// The window of a text file that was read whole (`loaded`, its digest `sha256`), as the
/// result shows it: paged, numbered when asked, its line ending and BOM told.
fn paged(
    ctx: &Context,
    shown: String,
    loaded: &textfile::Loaded,
    sha256: String,
    (window, line_numbers): (&Window, bool),
) -> Outcome<Read> {
    let Window {
        offset,
        limit,
        max_bytes,
    } = *window;
    let text = loaded.text();
    let (bom, body) = match text.strip_prefix(BOM) {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let page = page(body, offset, limit, max_bytes).map_err(|total| {
        Refusal::new(
            Code::InvalidArgument,
            format!("offset {offset} is past the last line of `{shown}`, which has {total} lines"),
        )
        .with(key::FIELD, "offset")
        .with(key::PATH, shown.as_str())
        .with("totalLines", total)
    })?;
    let content = returned(page.content, offset, line_numbers).ok_or_else(|| {
        let size = loaded.bytes().len() as u64;
        textfile::out_of_memory(&shown, size, ctx.limits.max_file_bytes)
    })?;
    Ok(Read::Text(ReadResult {
        path: shown,
        truncated: page.cut || page.next_offset.is_some(),
        content,
        sha256,
        bytes: loaded.bytes().len(),
        total_lines: page.total_lines,
        start_line: offset,
        end_line: page.end_line,
        line_ending: lines::line_ending(body.as_bytes()).as_str(),
        bom,
        next_offset: page.next_offset,
    }))
}

/// A file that is not text: an image or a PDF (within `max_bytes`), else `NOT_TEXT`.
fn binary(
    shown: String,
    not_text: &textfile::NotText,
    (max_bytes, cap): (u64, u64),
) -> Outcome<Read> {
    let Some(kind) = media::sniff(&not_text.content) else {
        return Err(not_text.refusal(&shown).into());
    };
    let bytes = &not_text.content;
    within(&shown, kind, bytes.len(), (max_bytes, cap))?;
    Ok(Read::Media(MediaResult::new(
        shown,
        kind,
        bytes,
        not_text.sha256.clone(),
    )))
}

/// Refuses a media file over the bytes a read returns (`max_bytes`, at most `cap`): it
/// is returned whole or not at all.
fn within(
    shown: &str,
    kind: media::MediaType,
    bytes: usize,
    (max_bytes, cap): (u64, u64),
) -> Outcome<()> {
    if bytes as u64 > max_bytes {
        return Err(media::too_large(shown, kind, bytes, max_bytes, cap).into());
    }
    Ok(())
}

/// One page of a text.
#[derive(Debug, PartialEq, Eq)]
struct Page<'a> {
    content: &'a str,
    total_lines: usize,
    end_line: u64,
    next_offset: Option<u64>,
    /// The one line returned was longer than `max_bytes` and was cut.
    cut: bool,
}

/// The lines `offset..offset+limit` of `body`, within `max_bytes`; a first line longer
/// than `max_bytes` is cut at a character boundary. `Err(total)` when `offset` is past
/// the last line.
///
/// The lines are found by scanning, and the rest are counted, never indexed: a page
/// costs the memory of what it returns, whatever the file's line count.
fn page(body: &str, offset: u64, limit: u64, max_bytes: u64) -> Result<Page<'_>, usize> {
    let bytes = body.as_bytes();
    let first = usize::try_from(offset - 1).unwrap_or(usize::MAX);
    let found = lines::line_start(bytes, first);
    // Counted from the page on, so a page near the end is one scan of the file.
    let total = found.map_or_else(
        || lines::count_lines(bytes),
        |begin| first + lines::count_lines(&bytes[begin..]),
    );
    let Some(begin) = found else {
        if total == 0 && offset == 1 {
            return Ok(Page {
                content: "",
                total_lines: 0,
                end_line: 0,
                next_offset: None,
                cut: false,
            });
        }
        return Err(total);
    };
    let budget = usize::try_from(max_bytes).unwrap_or(usize::MAX);
    let wanted = usize::try_from(limit).unwrap_or(usize::MAX);
    let mut end = lines::line_end(bytes, begin);
    if end - begin > budget {
        let mut cut = begin + budget;
        while !body.is_char_boundary(cut) {
            cut -= 1;
        }
        return Ok(Page {
            content: &body[begin..cut],
            total_lines: total,
            end_line: offset,
            next_offset: (first + 1 < total).then_some(offset + 1),
            cut: true,
        });
    }
    let mut taken = 1;
    while taken < wanted && end < bytes.len() {
        let next = lines::line_end(bytes, end);
        if next - begin > budget {
            break;
        }
        end = next;
        taken += 1;
    }
    let end_line = offset + taken as u64 - 1;
    Ok(Page {
        content: &body[begin..end],
        total_lines: total,
        end_line,
        next_offset: (end < bytes.len()).then_some(end_line + 1),
        cut: false,
    })
}

#[cfg(test)]
mod tests {
    use super::page;

    #[test]
    fn pages_by_lines_and_bytes() {
        let body = "a\nbb\nccc\n";
        let p = page(body, 1, 2, 100).unwrap();
        assert_eq!(
            (p.content, p.end_line, p.next_offset),
            ("a\nbb\n", 2, Some(3))
        );
        let p = page(body, 3, 10, 100).unwrap();
        assert_eq!((p.content, p.end_line, p.next_offset), ("ccc\n", 3, None));
        let p = page(body, 1, 10, 5).unwrap();
        assert_eq!((p.content, p.next_offset), ("a\nbb\n", Some(3)));
        assert_eq!(page(body, 4, 1, 100), Err(3));
        assert_eq!(page("", 1, 1, 100).unwrap().total_lines, 0);
    }

    #[test]
    fn cuts_a_long_line_at_a_char_boundary() {
        let body = "ééé\nx";
        let p = page(body, 1, 10, 3).unwrap();
        assert_eq!(p.content, "é");
        assert_eq!(p.next_offset, Some(2));
    }
}
