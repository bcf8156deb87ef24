//! The one integration-test binary: every test runs the real `stitch` binary and asserts
//! the serialized envelope, the exit status and the files on disk.

mod support;

mod envelope;
// list_directory: byte order, depth, ignore rules, limits, symlinks in and out of the root.
mod list;
// glob: `*` within a directory, `**` across, relative to --path, sorted, ignore rules.
mod glob;
// search_files: literal or linear-time regex, context, path mode, deterministic limits.
mod search;
