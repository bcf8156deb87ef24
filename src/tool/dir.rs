//! Locating the directory a discovery tool walks, with the refusals that go with it.

use crate::refusal::{Code, Outcome, Refusal};
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
        .with("path", location.shown.as_str())
        .into()),
    }
}
