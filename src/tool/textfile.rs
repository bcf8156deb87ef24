//! Loading a workspace file as text: the checks read and edit share.

use crate::refusal::{key, Code, Outcome, Refusal};
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

    /// Frees the text and closes the file. For a large file both give back memory page
    /// by page (the buffer; the cache of a file just replaced), so they run on two cores.
    pub fn release(self) {
        let Loaded { text, file } = self;
        if text.len() < RELEASE_APART {
            return;
        }
        std::thread::scope(|scope| {
            scope.spawn(move || drop(text));
            drop(file);
        });
    }
}

/// From this size on [`Loaded::release`] frees the text on another thread.
const RELEASE_APART: usize = 8 << 20;

/// A regular file within the size limit that is not text: what `NOT_TEXT` says of it.
/// It was still read whole, so its digest is known.
#[derive(Debug)]
pub struct NotText {
    pub sha256: String,
    /// The file that was read, open, for a caller that goes on with it (a delete keeps
    /// the very inode it hashed); `None` once taken.
    pub file: Option<OpenFile>,
    /// What was read, for a caller that tells media files from other binary ones.
    pub content: Vec<u8>,
    bytes: u64,
    reason: &'static str,
}

impl NotText {
    /// `NOT_TEXT` for the file shown as `shown`, with its digest, so that a caller (or
    /// a session) can replace it whole.
    #[cold]
    pub fn refusal(&self, shown: &str) -> Refusal {
        let reason = self.reason;
        Refusal::new(Code::NotText, format!("`{shown}` is not text ({reason})"))
            .with(key::PATH, shown)
            .with("bytes", self.bytes)
            .with(key::REASON, reason)
            .with(key::SHA256, self.sha256.as_str())
    }
}

/// Opens and reads a regular file within the size limit: its text, or why it is not
/// text.
///
/// A file that another program changes while it is read (truncated and written back in
/// place, as editors, formatters and `>` do) is read once more; changed again, it is
/// `BUSY` ([`refuse::changed`]): what was read is never taken for the file.
pub fn load_any(ctx: &Context, location: &Location) -> Outcome<Result<Loaded, NotText>> {
    let shown = location.shown.as_str();
    let mut attempt = 0;
    let (file, bytes) = loop {
        let (file, bytes) = read_once(ctx, location)?;
        let whole = file
            .read_whole(bytes.len())
            .map_err(|e| anyhow::Error::new(e).context("checking a file read"))?;
        if whole {
            break (file, bytes);
        }
        attempt += 1;
        if attempt == READ_ATTEMPTS {
            return Err(refuse::changed(shown).into());
        }
    };
    let size = bytes.len() as u64;
    let not_text = |reason: &'static str, bytes: Vec<u8>, file: OpenFile| NotText {
        sha256: crate::digest::sha256_hex(&bytes),
        file: Some(file),
        content: bytes,
        bytes: size,
        reason,
    };
    if memchr::memchr(0, &bytes).is_some() {
        return Ok(Err(not_text(BINARY, bytes, file)));
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) => Ok(Loaded { text, file }),
        Err(e) => Err(not_text(INVALID_UTF8, e.into_bytes(), file)),
    })
}

/// How many times a file is read before one that keeps changing is `BUSY`.
const READ_ATTEMPTS: u32 = 2;

/// Opens the file and reads it, within the size limit.
fn read_once(ctx: &Context, location: &Location) -> Outcome<(OpenFile, Vec<u8>)> {
    let shown = location.shown.as_str();
    let mut file = ctx
        .ws
        .open_file(location)
        .map_err(|e| refuse::path(ctx, shown, e))?;
    let limit = ctx.limits.max_file_bytes;
    if file.size > limit {
        return Err(too_large(shown, file.size, limit).into());
    }
    let bytes = file.read_all().map_err(|e| match e.kind() {
        std::io::ErrorKind::OutOfMemory => out_of_memory(shown, file.size, limit).into(),
        _ => crate::refusal::Failure::from(anyhow::Error::new(e).context("reading a file")),
    })?;
    let size = bytes.len() as u64;
    if size > limit {
        return Err(too_large(shown, size, limit).into());
    }
    Ok((file, bytes))
}

/// Opens and reads a regular text file within the size limit; one that is not text is
/// `NOT_TEXT`.
pub fn load(ctx: &Context, location: &Location) -> Outcome<Loaded> {
    load_any(ctx, location)?.map_err(|not_text| not_text.refusal(&location.shown).into())
}

/// `TOO_LARGE` for a file within the limits that this process cannot hold in memory.
#[cold]
pub fn out_of_memory(shown: &str, bytes: u64, limit: u64) -> Refusal {
    Refusal::new(
        Code::TooLarge,
        format!("`{shown}` is {bytes} bytes, more than stitch can hold in memory now"),
    )
    .with(key::PATH, shown)
    .with("bytes", bytes)
    .with("limit", limit)
    .with(key::REASON, "memory")
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
    .with(key::PATH, shown)
    .with("bytes", bytes)
    .with("limit", limit)
}
