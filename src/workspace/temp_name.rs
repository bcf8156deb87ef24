//! Temp names: the one pattern every temp file stitch creates is named by, and the one
//! test of it the sweep of `.stitch/tmp/` applies, so the sweep removes stitch's own
//! names and nothing else.

use std::sync::atomic::{AtomicU32, Ordering};

/// The suffix of every temp name stitch creates; only such names are swept.
pub(super) const TEMP_SUFFIX: &str = ".stitch-tmp";

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// A temp name for `name` that no other call uses: `.{name}.{pid}.{time}{n}.stitch-tmp`,
/// the pattern the sweep recognises as its own.
pub(super) fn unique_name(name: &str) -> String {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let short: String = name.chars().take(40).collect();
    format!(
        ".{short}.{}.{nanos:x}{n}{}",
        std::process::id(),
        TEMP_SUFFIX
    )
}

/// Whether `name` is one [`unique_name`] made: what the sweep may remove.
pub(super) fn is_temp_name(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(TEMP_SUFFIX)
}
