//! What the discovery tools (list, glob, search) share: locating the directory they walk,
//! with the refusals that go with it, and reporting walked paths and what a walk left out.

use crate::policy::Access;
use schemars::JsonSchema;
use serde::Serialize;

use crate::refusal::{key, Code, Outcome, Refusal};
use crate::workspace::walk::Omitted;
use crate::workspace::{Kind, Location};

use super::{refuse, Context};

/// What a discovery tool may start its walk from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// A directory only (list, glob).
    Directory,
    /// A directory, or a single file (search can search one file).
    DirectoryOrFile,
}

/// Locates `raw` as where a walk starts, as `start` allows.
pub fn locate(ctx: &Context, raw: &str, start: Start) -> Outcome<Location> {
    let location = ctx.ws.locate(raw).map_err(|e| refuse::path(ctx, raw, e))?;
    refuse::protected(ctx, &location, Access::Read)?;
    super::approve::rules(ctx, &location, Access::Read)?;
    match location.kind {
        None => Err(refuse::not_found(ctx, &location.shown).into()),
        Some(Kind::Directory) => Ok(location),
        Some(Kind::File) if start == Start::DirectoryOrFile => {
            refuse::file_path(raw, &location)?;
            Ok(location)
        }
        Some(_) => Err(Refusal::new(
            Code::NotADirectory,
            format!("`{}` is not a directory", location.shown),
        )
        .with(key::PATH, location.shown.as_str())
        .into()),
    }
}

/// What a walk left out for a reason of its own, as every discovery result reports it
/// (each count only when above zero): `skippedNonUtf8`, names that are not valid UTF-8
/// (they cannot be shown without being mistaken for other names), and
/// `skippedIgnoreFiles`, directories not entered because an ignore file in them is a
/// FIFO, a device, huge or a link out, and `skippedUnreadable`, entries the walk could
/// not read (a directory it may not open, one that vanished meanwhile, one that could
/// not be looked up again through the root handle or is another file there now).
#[derive(Debug, Clone, Copy, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
// The fields are the wire's `skipped…` keys, which say what was left out and why.
#[allow(clippy::struct_field_names)]
pub struct Left {
    #[serde(skip_serializing_if = "is_zero")]
    pub skipped_non_utf8: usize,
    #[serde(skip_serializing_if = "is_zero")]
    pub skipped_ignore_files: usize,
    #[serde(skip_serializing_if = "is_zero")]
    pub skipped_unreadable: usize,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference.
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl From<Omitted> for Left {
    fn from(omitted: Omitted) -> Self {
        Left {
            skipped_non_utf8: omitted.non_utf8,
            skipped_ignore_files: omitted.ignore_files,
            skipped_unreadable: omitted.unreadable,
        }
    }
}

/// What a limit cut from a discovery result: the fact the result carries as its `hint`,
/// which the envelope phrases in the caller's dialect (`crate::hint::cut`). It
/// serializes as these facts only where nothing phrases it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cut {
    /// The limit reached: how many items the result shows.
    pub shown: usize,
    /// Whose limit it is, and so what narrows the call.
    pub narrow: crate::hint::Narrow,
    /// How far the caller may raise the limit.
    pub cap: u64,
}

/// Spells a walked (real) path as the caller named the directory, when a link made
/// the two differ.
#[must_use]
pub fn respell(shown: &str, real: &str, path: &str) -> String {
    if shown == real {
        return path.to_owned();
    }
    let rest = if real == "." {
        path
    } else {
        match path.strip_prefix(real).and_then(|r| r.strip_prefix('/')) {
            Some(rest) => rest,
            None => return path.to_owned(),
        }
    };
    if shown == "." {
        rest.to_owned()
    } else {
        format!("{shown}/{rest}")
    }
}
