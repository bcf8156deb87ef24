//! The one integration-test binary: every test runs the real `stitch` binary and asserts
//! the serialized envelope, the exit status and the files on disk.

// The clippy.toml bans on `std::fs` and lock calls guard the product's containment; the
// tests lay out fixtures, inspect results and hold locks with `std::fs` on purpose.
#![allow(clippy::disallowed_methods)]

// What every suite shares, and the only thing suites share: the workspace, the command
// builder, whole-envelope assertions, snapshots, locks, mounts and the per-tool requests.
mod support;

// One JSON line for every call, usage errors included.
mod envelope;
// The documents: relative links and anchors resolve, each says who it is for.
mod docs;
// How a command line is taken: stdin read for JSON only when no tool argument was given,
// and never waited on in silence; global options; values that begin with `-`.
mod invocation;
// read_file: paging, digests, line endings, BOM, non-text, argument parsing.
mod read;
// Several files in one call, images and PDFs, edit's insert form, `stitch text-editor`.
mod reading;
// write_file: create, replace only when asked, atomic and faithful replacement.
mod write;
// apply_patch: one change across files, all or nothing, in the formats models emit.
mod apply;
// apply_patch's changes list and OpenAI Responses API operations, whole or not at all.
mod apply_changes;
// apply_patch on files that move or are not text: binary deletes, a move and edit undone.
mod apply_moves;
mod apply_recount;
// apply_patch at its edges: a context line like a chunk header, hints followed literally,
// stale deletions, modes and links in a diff, many thousands of hunks.
mod apply_edges;
// apply_patch replaying real commits made by git through every dialect, byte for byte.
mod apply_replay;
// apply_patch against fixture folders (input tree, patch, expected tree or refusal).
mod patch_cases;
// edit_file: exact snippets, counts, candidates, edits[] all or nothing, diffs.
mod edit;
// Realistic mistakes over real text: copying candidates[0] repairs at least 97% of them.
mod candidates;
// Bytes outside the replaced span never change: line endings, tabs, BOM, Unicode.
mod faithful;
// Nothing outside the root is read or written, lexically or through symlinks.
mod containment;
// Concurrent mutations lose nothing; a held lock is BUSY, not a wait forever.
mod concurrency;
// A write killed at any moment leaves the old file or the new one, and no temp file.
mod crash;
// A multi-file apply killed at any moment is all old or all new once the next call of
// any kind has run (it finishes a change past its commit point); two overlapping applies
// at once never deadlock, lose or tear a change.
mod apply_crash;
// The journal: history and undo across processes, delete and move, bounds, foreign and
// planted entries, a killed journaled edit.
mod journal;
// list_directory: byte order, depth, ignore rules, limits, symlinks in and out of the root.
mod list;
// glob: `*` within a directory, `**` across, relative to --path, sorted, ignore rules.
mod glob;
// search_files: literal or linear-time regex, context, path mode, deterministic limits.
mod search;
// Every refusal code in the contract is produced by a real call.
mod coverage;
mod syntax;
// Tool definitions: JSON Schema that validates requests, in every host's format, and the
// output schema every success matches.
mod schema;
// Hints name flags and commands to a call by flags, fields and tools to a call by JSON.
mod dialect;
// Every hint, over every tool and dialect, names only what its tool takes, and followed to
// the letter never gets the same refusal back.
mod hints;
// --format text: plain content, short lines, refusals with their facts on stderr, exit 1
// when glob or search matched nothing, --null.
mod text;
// How the binary was linked: static where glibc's static archives are, never a PIE.
mod linking;
// Completions and man pages equal what the CLI generates; every --help shows an example.
mod generated;
// Sessions: read before write, every transition of the ledger across processes.
mod session;
// Policy: deny, readOnly, limits, the authorize hook, malformed configs, .stitch/.
mod policy;
// Hostile paths against every tool: `..`, absolute, sibling prefixes, symlinks out, loops,
// /proc magic links, NUL, over-long, trailing `/`, leading `-`, Unicode, protected names.
mod adversarial;
// A path component swapped with a symlink out (renameat2 RENAME_EXCHANGE) while stitch
// reads, writes and walks beneath it: nothing outside is read or written. Linux only:
// renameat2(2) is Linux's.
#[cfg(target_os = "linux")]
mod race;
// The containment, adversarial and race suites again with openat2 refused (seccomp),
// proving cap-std's fallback walk. Linux only: openat2(2) and seccomp(2) are Linux's.
#[cfg(target_os = "linux")]
mod fallback;
// Full disk, read-only filesystem, immutable and unreadable files: INTERNAL_SERVER_ERROR
// with nothing leaked and nothing changed (cases the machine cannot set up say so).
mod faults;
// 64 processes editing and writing one file (expectedSha256) for several rounds: every
// success forms one chain of versions, no update is lost, every refusal is typed.
mod stress;
// Generated malformed input for every tool (proptest): one envelope, exit 0/1/2, no
// panic, nothing written outside, nothing created unless the call succeeded.
mod fuzz;
// A planted workspace: its own state, special files, symlink fan-out, hooks, odd names.
mod hostile;
// `stitch mcp` over pipes with raw JSON-RPC: each revision's handshake, protocol faults,
// tools and their envelopes, sessions, cancellation, two servers and the CLI at once.
mod mcp;
