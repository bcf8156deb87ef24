//! The journal (§11) and the tools that change the tree (§12): every change listed and
//! taken back by a later process, refused when a file moved on; delete and move with
//! every guard; the journal's bounds, its key, and planted state under it.

// history and undo across processes: bytes and mode back, walking back, redo, stale files.
mod undo;
// delete_file and move_file: results, guards at both ends, dry runs.
mod tree;
// Entries under another key, or planted, damaged, special or oversized: never undone.
mod foreign;
// limits.journalEntries, limits.journalBytes, journal: false; kept versions by hard link.
mod bounds;
// Kept versions verified before they are relied on; undo and delete look again before
// they publish, and a kept inode written through after is replaced by what was read.
mod verified;
// A journaled edit killed at any moment: the old or the new file, and a journal that agrees.
mod crash;
// The store: entries bounded where they are written, the byte bound held at once, and
// two keys on one checkout never removing what the other's entries name.
mod store;
// Where a digest is expected, the last look hashes the file once more: a rewrite that
// kept the size and the times is never published over.
mod rehashed;
// A symbolic link deleted and moved as itself, kept as a link, made again by undo.
mod links;
// A guard planted where every mutation's files are checked refuses every tool alike.
mod guarded;
// An undo merges as git revert does, or names the overlapping lines and later changes.
mod merge;
// `stitch show` and `history --stat` on every tool's changes, an id on every result,
// appliedBy on one already applied, and --no-diff.
mod show;
