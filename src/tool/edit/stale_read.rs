//! An edit after a stale read — in a session whose file moved on since the session read
//! it (§6, staleness by region): it lands when every line it changes is one the session
//! observed, unchanged since — mapped through the lines another program inserted, removed
//! or changed elsewhere — and is refused naming the changed lines when it is not.

use std::ops::Range;

use schemars::JsonSchema;
use serde::Serialize;

use crate::digest::sha256_hex;
use crate::refusal::{key, Code, Refusal};
use crate::region::{changed_runs, digests, unchanged, MAX_REGION_BYTES};
use crate::session::INLINE_LINES;
use crate::workspace::Location;

use super::super::Context;
use super::edited::Edited;
use crate::engine::session_check;

/// A run of lines, 1-based and inclusive, in the file's numbering before the edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Lines {
    pub start_line: usize,
    pub end_line: usize,
}

/// An edit that lands by region: the lines another program changed since the session's
/// read, and what the session has then not seen of the edit's result.
#[derive(Debug)]
pub struct ByRegion {
    pub foreign: Vec<Lines>,
    pub unseen_after: Vec<(usize, usize)>,
}

/// Whether the edit of the file at `location` (now `text`, version `now_sha`) may land by
/// region: `None` where the whole-file rule holds (no session, a read at this version, an
/// `expectedSha256`, a file past the bound, lines not known); `Some(Ok)` when it lands;
/// `Some(Err)` — `STALE_VERSION` naming the lines that changed — when it does not.
/// An insert after line N (`insert_after`) changes no line: the lines around it, N and
/// N + 1 where they exist, must be unchanged instead.
pub fn check(
    ctx: &Context,
    location: &Location,
    (text, now_sha): (&[u8], &str),
    expected: Option<&str>,
    edited: Option<&Edited<'_>>,
    insert_after: Option<u64>,
) -> Option<Result<ByRegion, Refusal>> {
    if expected.is_some() {
        return None;
    }
    let Since {
        seen_sha,
        same,
        foreign,
    } = since(ctx, location, (text, now_sha))?;
    let landed = edited.and_then(|edited| {
        let span = span_lines(edited);
        let seen_whole = match insert_after.and_then(|n| usize::try_from(n).ok()) {
            Some(n) => (n.max(1)..=n + 1).all(|line| line > same.len() || same[line - 1]),
            None => (span.0..=span.1).all(|line| same.get(line - 1).copied().unwrap_or(false)),
        };
        seen_whole.then(|| unseen_after(edited, &foreign, span))
    });
    Some(match landed {
        Some(unseen_after) => Ok(ByRegion {
            foreign,
            unseen_after,
        }),
        None => Err(stale(ctx, location, (&seen_sha, now_sha), &foreign)),
    })
}

/// What changed in the file at `location` (now `text`, version `now_sha`) since the
/// session's read: the version it saw, whether each line of today's text is one it saw
/// unchanged, and the runs of lines that are not. `None` where the whole-file rule holds
/// (no session, a read at this version of every line, a file past the bound, lines not
/// known).
struct Since {
    seen_sha: String,
    same: Vec<bool>,
    foreign: Vec<Lines>,
}

fn since(ctx: &Context, location: &Location, (text, now_sha): (&[u8], &str)) -> Option<Since> {
    if text.len() as u64 > MAX_REGION_BYTES {
        return None;
    }
    let (seen_sha, unseen, lines) = session_check::seen_lines(ctx, &location.real)?;
    // At the version the session saw, every line of which it saw: the whole-file rule.
    if seen_sha == now_sha && unseen.is_empty() {
        return None;
    }
    // Kept by the ledger (a torn list is none), or else where [`seen_digests`] looks.
    let seen = match lines {
        Some(text) => crate::region::from_text(&text).filter(|l| l.len() <= INLINE_LINES)?,
        None => seen_digests(ctx, &seen_sha)?,
    };
    let same = unchanged(&seen, &unseen, &digests(text));
    let foreign = changed_runs(&same)
        .into_iter()
        .map(|(start_line, end_line)| Lines {
            start_line,
            end_line,
        })
        .collect();
    Some(Since {
        seen_sha,
        same,
        foreign,
    })
}

/// The line digests of the version `sha` the session saw, where its ledger does not keep
/// them: kept under `.stitch/lines/` when it read it, or from the version the journal
/// kept (a change's result), checked by its digest.
fn seen_digests(ctx: &Context, sha: &str) -> Option<Vec<u64>> {
    if let Some(lines) = crate::region::kept(&ctx.ws, sha) {
        return Some(lines);
    }
    let (bytes, _) = ctx.ws.kept_version(sha, MAX_REGION_BYTES).ok()?;
    (sha256_hex(&bytes) == sha).then(|| digests(&bytes))
}

/// The first and last line (1-based) the edit changes, in the file before it.
fn span_lines(edited: &Edited<'_>) -> (usize, usize) {
    let bytes = edited.original.as_bytes();
    let end = bytes.len() - edited.tail;
    let newlines = |b: &[u8]| memchr::memchr_iter(b'\n', b).count();
    let first = 1 + newlines(&bytes[..edited.head]);
    let mut last = 1 + newlines(&bytes[..end.max(edited.head)]);
    // A span that ends with a line's newline ends on that line.
    if end > edited.head && bytes[end - 1] == b'\n' {
        last -= 1;
    }
    (first, last.max(first))
}

/// The lines of the edit's result the session has not seen: the other program's, those
/// after the edit shifted by the lines it added or removed.
fn unseen_after(
    edited: &Edited<'_>,
    foreign: &[Lines],
    (_, last): (usize, usize),
) -> Vec<(usize, usize)> {
    let bytes = edited.original.as_bytes();
    let old = &bytes[edited.head..bytes.len() - edited.tail];
    let newlines = |b: &[u8]| memchr::memchr_iter(b'\n', b).count();
    let (added, removed) = (newlines(edited.middle.as_bytes()), newlines(old));
    let shift = |line: usize| {
        if line > last {
            (line + added).saturating_sub(removed)
        } else {
            line
        }
    };
    foreign
        .iter()
        .map(|run| (shift(run.start_line), shift(run.end_line)))
        .collect()
}

/// `STALE_VERSION`: the file moved on since the session read it, in lines this edit
/// touches (or its text no longer matches): `foreignChanges` names every run of lines
/// that changed, so that only those need reading again.
fn stale(
    ctx: &Context,
    location: &Location,
    (seen, now): (&str, &str),
    foreign: &[Lines],
) -> Refusal {
    let shown = location.shown.as_str();
    let mut refusal = Refusal::new(
        Code::StaleVersion,
        format!("`{shown}` has changed since this session last read it, in lines this edit needs"),
    )
    .with(key::PATH, shown)
    .with(key::EXPECTED_SHA256, seen)
    .with(key::ACTUAL_SHA256, now)
    .with(
        "foreignChanges",
        serde_json::to_value(foreign).unwrap_or_default(),
    );
    if let Some(session) = &ctx.session {
        refusal = refusal.with("session", session.id());
    }
    refusal
}

/// The same rule for a change placed as hunks (an apply's update of the file, or its
/// edit item): `spans` holds each hunk's lines, 0-based, in the file as it is now and in
/// the result. The change lands by region when every line of every hunk's old side — and,
/// for a hunk that only inserts, the lines either side of where it goes — is one the
/// session saw, unchanged since; the lines another program changed are then mapped
/// through every hunk into the result's numbering.
pub fn check_spans(
    ctx: &Context,
    location: &Location,
    (text, now_sha): (&[u8], &str),
    spans: &[(Range<usize>, Range<usize>)],
) -> Option<Result<ByRegion, Refusal>> {
    let Since {
        seen_sha,
        same,
        foreign,
    } = since(ctx, location, (text, now_sha))?;
    let seen_line = |line: usize| line > same.len() || same[line - 1];
    let landed = spans.iter().all(|(old, _)| {
        if old.is_empty() {
            // Between lines `old.start` and `old.start + 1` (1-based).
            (old.start.max(1)..=old.start + 1).all(seen_line)
        } else {
            (old.start + 1..=old.end).all(|line| same.get(line - 1).copied().unwrap_or(false))
        }
    });
    Some(if landed {
        let shift = |line: usize| shifted(spans, line);
        let unseen_after = foreign
            .iter()
            .map(|run| (shift(run.start_line), shift(run.end_line)))
            .collect();
        Ok(ByRegion {
            foreign,
            unseen_after,
        })
    } else {
        Err(stale(ctx, location, (&seen_sha, now_sha), &foreign))
    })
}

/// Line `line` (1-based, outside every hunk) of the file as it is now, in the result's
/// numbering: moved by the lines each hunk before it added or removed.
fn shifted(spans: &[(Range<usize>, Range<usize>)], line: usize) -> usize {
    let before = spans.iter().filter(|(old, _)| old.end < line);
    let (added, removed) = before.fold((0, 0), |(a, r), (old, new)| (a + new.len(), r + old.len()));
    (line + added).saturating_sub(removed).max(1)
}

/// The lines an edit replaced, as one hunk's span (0-based, in the file before and in the
/// result), for [`check_spans`].
pub fn edit_span(edited: &Edited<'_>) -> (Range<usize>, Range<usize>) {
    let (first, last) = span_lines(edited);
    let bytes = edited.original.as_bytes();
    let old = &bytes[edited.head..bytes.len() - edited.tail];
    let newlines = |b: &[u8]| memchr::memchr_iter(b'\n', b).count();
    let (added, removed) = (newlines(edited.middle.as_bytes()), newlines(old));
    let old_lines = (first - 1)..last;
    let new_len = (old_lines.len() + added).saturating_sub(removed);
    (
        old_lines.clone(),
        old_lines.start..old_lines.start + new_len,
    )
}
