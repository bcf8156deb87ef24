//! Loading a workspace file as text: the checks read and edit share.

use crate::refusal::{Code, Outcome, Refusal};
use crate::workspace::{Location, OpenFile};

use super::{refuse, Context};

/// A text file's raw bytes (valid UTF-8, no NUL) and what was learned opening it.
#[derive(Debug)]
pub struct Loaded {
    pub bytes: Vec<u8>,
    pub file: OpenFile,
}

impl Loaded {
    /// The bytes as text; checked valid when loaded.
    #[must_use]
    pub fn text(&self) -> &str {
        // Checked in `load`; an invalid file never becomes a `Loaded`.
        std::str::from_utf8(&self.bytes).unwrap_or_default()
    }
}

/// Opens and reads a regular text file within the size limit.
pub fn load(ctx: &Context, location: &Location) -> Outcome<Loaded> {
    let shown = location.shown.as_str();
    let mut file = ctx
        .ws
        .open_file(location)
        .map_err(|e| refuse::path(ctx, shown, e))?;
    let limit = ctx.limits.max_file_bytes;
    if file.size > limit {
        return Err(too_large(shown, file.size, limit).into());
    }
    let bytes = file
        .read_all(limit)
        .map_err(|e| anyhow::Error::new(e).context("reading a file"))?;
    let size = bytes.len() as u64;
    if size > limit {
        return Err(too_large(shown, size, limit).into());
    }
    if let Some(reason) = not_text(&bytes) {
        return Err(
            Refusal::new(Code::NotText, format!("`{shown}` is not text ({reason})"))
                .with("path", shown)
                .with("bytes", size)
                .with("reason", reason)
                .into(),
        );
    }
    Ok(Loaded { bytes, file })
}

/// Why `bytes` cannot be handled as text, if it cannot.
#[must_use]
pub fn not_text(bytes: &[u8]) -> Option<&'static str> {
    if memchr::memchr(0, bytes).is_some() {
        Some("binary: contains NUL bytes")
    } else if std::str::from_utf8(bytes).is_err() {
        Some("invalid UTF-8")
    } else {
        None
    }
}

/// `TOO_LARGE` for a file over the limit.
#[cold]
pub fn too_large(shown: &str, bytes: u64, limit: u64) -> Refusal {
    Refusal::new(
        Code::TooLarge,
        format!("`{shown}` is {bytes} bytes, over the limit of {limit}"),
    )
    .with("path", shown)
    .with("bytes", bytes)
    .with("limit", limit)
}
