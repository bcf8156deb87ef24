//! Sessions (§6): read before write. Every transition of a session's ledger — unseen,
//! read, written, changed externally, deleted, recorded absent, reappeared, corrupt —
//! each step a separate `stitch` process, asserting the serialized envelope and the file
//! on disk.

use serde_json::Value;

use crate::support::{Run, TestWorkspace};

mod apply_region;
mod concurrent;
mod ids;
mod ledger;
mod observed;
mod region;
mod region_store;
mod stale;

/// The hint of `NOT_OBSERVED`, verbatim.
const READ_FIRST: &str = "Read the file, then retry.";
/// The hint of `STALE_VERSION`, verbatim.
const REREAD: &str = "Re-read the file, then retry.";

const TEXT: &str = "alpha\nbeta\ngamma\n";

fn workspace_with_text() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("a.txt", TEXT);
    ws
}

/// Runs `stitch --session <id> <args>`.
fn session(ws: &TestWorkspace, id: &str, args: &[&str]) -> Run {
    let mut all = vec!["--session", id];
    all.extend_from_slice(args);
    ws.run(&all)
}

/// Runs `stitch --session <id> <command> --json` with `request` on stdin.
fn session_json(ws: &TestWorkspace, id: &str, command: &str, request: &Value) -> Run {
    ws.run_with_stdin(&["--session", id, command, "--json"], request.to_string())
}

/// Asserts `NOT_OBSERVED` for `path`, with its verbatim hint; returns `details`.
#[track_caller]
fn assert_not_observed<'a>(run: &'a Run, path: &str) -> &'a Value {
    let details = run.refused("NOT_OBSERVED");
    assert_eq!(run.hint(), READ_FIRST, "{}", run.stdout);
    assert_eq!(details["path"], path, "{}", run.stdout);
    assert!(run.message().contains(path), "{}", run.stdout);
    details
}

/// Asserts `STALE_VERSION` for `path`, with its verbatim hint; returns `details`.
#[track_caller]
fn assert_stale<'a>(run: &'a Run, path: &str) -> &'a Value {
    let details = run.refused("STALE_VERSION");
    assert_eq!(run.hint(), REREAD, "{}", run.stdout);
    assert_eq!(details["path"], path, "{}", run.stdout);
    assert!(run.message().contains(path), "{}", run.stdout);
    details
}

fn ledger_path(ws: &TestWorkspace, id: &str) -> std::path::PathBuf {
    ws.path(&format!(".stitch/sessions/{id}.json"))
}
