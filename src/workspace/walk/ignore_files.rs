//! The ignore files a walk reads, looked at before the walker opens them.
//!
//! The `ignore` walker reads `.gitignore` and `.ignore` in every directory it enters,
//! with a plain blocking `open` and no size bound. In a planted workspace either may be
//! a FIFO (the open waits forever for a writer), a device (`/dev/zero`'s numbers: one
//! endless line), a huge file, or a link to any of these. So a directory is entered only
//! when each of its ignore files is absent, or a regular file of at most
//! [`MAX_IGNORE_FILE_BYTES`] — reached through a link only when the link stays inside
//! the root and on the directory's own filesystem (a procfs file such as `kmsg` also
//! claims to be a small regular file, and blocks). `.git/info/exclude` is not read at
//! all: the walker finds it through a `.git` file's `gitdir:` line, which may name any
//! place on the machine.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// The ignore files the walker reads in each directory it enters.
const NAMES: [&str; 2] = [".gitignore", ".ignore"];

/// The largest ignore file a walk reads. A real one is a few kilobytes.
pub const MAX_IGNORE_FILE_BYTES: u64 = 1 << 20;

/// Whether the walker may read the ignore files of `dir`, an absolute path below (or
/// at) `root`, the canonical root.
// The walker reads by path; these look at the same paths, first.
#[allow(clippy::disallowed_methods)]
pub(super) fn safe(dir: &Path, root: &Path) -> bool {
    let Ok(here) = std::fs::symlink_metadata(dir) else {
        // Gone or unreadable: the walker reports that itself, reading nothing.
        return true;
    };
    NAMES.iter().all(|name| {
        let path = dir.join(name);
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            return true;
        };
        if meta.file_type().is_symlink() {
            let inside = std::fs::canonicalize(&path).is_ok_and(|real| real.starts_with(root));
            inside
                && std::fs::metadata(&path).is_ok_and(|target| {
                    target.is_file()
                        && target.len() <= MAX_IGNORE_FILE_BYTES
                        && target.dev() == here.dev()
                })
        } else {
            meta.is_file() && meta.len() <= MAX_IGNORE_FILE_BYTES
        }
    })
}
