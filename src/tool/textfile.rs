//! Loading a workspace file as text: the checks read and edit share.

use crate::refusal::{Code, Outcome, Refusal};
use crate::workspace::{Location, OpenFile};

use super::{refuse, Context};

/// A text file's raw bytes (valid UTF-8, no NUL) and what was learned opening it.
#[derive(Debug)]
pub struct Loaded {
    text: String,
    pub file: OpenFile,
}

impl Loaded {
    /// The file's text, validated once when loaded.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The file's raw bytes.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
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
        .read_all()
        .map_err(|e| anyhow::Error::new(e).context("reading a file"))?;
    let size = bytes.len() as u64;
    if size > limit {
        return Err(too_large(shown, size, limit).into());
    }
    // The digest lets a caller replace the file with expectedSha256, and lets a
    // session record what it saw.
    let refuse = |reason: &str, bytes: &[u8]| {
        Refusal::new(Code::NotText, format!("`{shown}` is not text ({reason})"))
            .with("path", shown)
            .with("bytes", size)
            .with("reason", reason)
            .with("sha256", crate::digest::sha256_hex(bytes))
    };
    if memchr::memchr(0, &bytes).is_some() {
        return Err(refuse(BINARY, &bytes).into());
    }
    let text = String::from_utf8(bytes).map_err(|e| refuse(INVALID_UTF8, e.as_bytes()))?;
    Ok(Loaded { text, file })
}

/// The reason of `NOT_TEXT` for a file with NUL bytes.
const BINARY: &str = "binary: contains NUL bytes";
/// The reason of `NOT_TEXT` for a file that is not UTF-8.
const INVALID_UTF8: &str = "invalid UTF-8";

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
