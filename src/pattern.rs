//! Globs as stitch compiles them everywhere — the glob tool, search's `include`, the
//! policy's `deny` and `readOnly`: `*` does not cross `/`, `**` does, and no pattern is
//! longer than [`MAX_GLOB_BYTES`] (globset's regex compilation fails, and has panicked,
//! on huge ones).

use globset::{Glob, GlobBuilder};

/// The longest glob accepted.
pub const MAX_GLOB_BYTES: usize = 4096;

/// Why a glob was not compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GlobError {
    #[error("longer than {MAX_GLOB_BYTES} bytes")]
    TooLong,
    /// globset's own reason.
    #[error("{0}")]
    Invalid(String),
}

/// Compiles `pattern` with `*` kept within one directory.
pub fn glob(pattern: &str) -> Result<Glob, GlobError> {
    if pattern.len() > MAX_GLOB_BYTES {
        return Err(GlobError::TooLong);
    }
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map_err(|e| GlobError::Invalid(e.kind().to_string()))
}
