//! What the discovery tools (list, glob, search) share: locating the directory they walk,
//! with the refusals that go with it, and reporting walked paths and what a walk left out.

use serde_json::{json, Value};

use crate::refusal::{key, Code, Outcome, Refusal};
use crate::workspace::walk::Omitted;
use crate::workspace::{Kind, Location};

use super::{refuse, Context};

/// Locates `raw` as a directory to walk; `allow_file` lets a single file through
/// (search can search one file).
pub fn locate(ctx: &Context, raw: &str, allow_file: bool) -> Outcome<Location> {
    let location = ctx.ws.locate(raw).map_err(|e| refuse::path(ctx, raw, e))?;
    refuse::protected(&location, false)?;
    super::approve::rules(ctx, &location, false)?;
    match location.kind {
        None => Err(refuse::not_found(ctx, &location.shown).into()),
        Some(Kind::Directory) => Ok(location),
        Some(Kind::File) if allow_file => {
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

/// Adds to a walk's result what it left out for a reason of its own, each count only
/// when above zero: `skippedNonUtf8`, names that are not valid UTF-8 (they cannot be
/// shown without being mistaken for other names), and `skippedIgnoreFiles`, directories
/// not entered because an ignore file in them is a FIFO, a device, huge or a link out.
pub fn with_omitted(data: &mut Value, omitted: Omitted) {
    if omitted.non_utf8 > 0 {
        data["skippedNonUtf8"] = json!(omitted.non_utf8);
    }
    if omitted.ignore_files > 0 {
        data["skippedIgnoreFiles"] = json!(omitted.ignore_files);
    }
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
