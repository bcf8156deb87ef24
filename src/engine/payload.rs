//! What an authorize command is shown of a mutation (SPEC §7): one typed payload for every
//! tool — the one-file fields for write, edit, delete and move, the list of `changes` for
//! apply and undo — so that a field is spelled, and a session or dry run told, in one place.
//! What a change does to its files is not described again by hand: it is read off the
//! change itself ([`Payload::of_file`], [`Payload::of_files`]).

use serde::Serialize;

use super::change::ChangeSet;
use crate::engine::Context;

/// A mutation as the authorize hook sees it; `None` fields are left out.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Payload<'a> {
    pub tool: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overwrite: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub creates_directories: Option<Vec<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_sha256: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_sha256: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replacements: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undoes: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<Vec<PayloadFile<'a>>>,
    pub dry_run: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<&'a str>,
}

/// One file of a change of several (apply, undo), as the authorize hook is shown it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PayloadFile<'a> {
    pub path: &'a str,
    pub operation: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_sha256: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_sha256: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
}

impl<'a> Payload<'a> {
    /// The payload of a call of `tool` in `ctx` (its session named), with nothing else
    /// said yet.
    #[must_use]
    pub fn of(ctx: &'a Context, tool: &'static str, dry_run: bool) -> Payload<'a> {
        Payload {
            tool,
            path: None,
            from: None,
            operation: None,
            bytes: None,
            overwrite: None,
            creates_directories: None,
            base_sha256: None,
            result_sha256: None,
            replacements: None,
            diff: None,
            undoes: None,
            changes: None,
            dry_run,
            session: ctx.session.as_ref().map(crate::session::Session::id),
        }
    }
}

impl<'a> Payload<'a> {
    /// The payload of a change of one file (write, edit, delete, move): its path, source,
    /// operation, size and versions before and after, read off `change`.
    #[must_use]
    pub fn of_file(ctx: &'a Context, change: &'a ChangeSet<'_>, dry_run: bool) -> Payload<'a> {
        let mut payload = Payload::of(ctx, change.tool, dry_run);
        if let Some(file) = change.files.first() {
            payload.path = Some(&file.at.shown);
            payload.from = file.from().map(|from| from.shown.as_str());
            payload.operation = Some(file.shown_as);
            payload.bytes = file.bytes;
            payload.base_sha256 = file.before.as_deref();
            payload.result_sha256 = file.after.as_deref();
        }
        payload
    }

    /// The payload of a change of several files (apply, undo): each file's path,
    /// operation, source, versions and size, read off `change`.
    #[must_use]
    pub fn of_files(ctx: &'a Context, change: &'a ChangeSet<'_>, dry_run: bool) -> Payload<'a> {
        let changes = change
            .files
            .iter()
            .map(|file| PayloadFile {
                path: &file.at.shown,
                operation: file.shown_as,
                from: file.from().map(|from| from.shown.as_str()),
                base_sha256: file.before.as_deref(),
                result_sha256: file.after.as_deref(),
                bytes: file.bytes,
            })
            .collect();
        Payload {
            changes: Some(changes),
            ..Payload::of(ctx, change.tool, dry_run)
        }
    }
}
