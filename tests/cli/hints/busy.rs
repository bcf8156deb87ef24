//! Rows of the table for `BUSY`: every mutating tool refused because another program
//! holds the lock of the file it changes. The setup makes the lock files (a first edit)
//! and keeps them locked for the rest of the test process, so the refusal comes after
//! `--lock-timeout 0.2` every time, by flags, by JSON and over MCP. Its hint asks to retry
//! in a moment — once the holder lets go, which no step of the caller's can bring about —
//! so there is no call to follow it with here (`a_held_lock_is_busy_after_the_timeout`
//! shows the same call succeeding once the lock is free).

use serde_json::json;

use super::cases::{Case, BASE};
use crate::support::{hold_every_lock, TestWorkspace};

/// The lock wait of these rows.
const WAIT: &[&str] = &["--lock-timeout", "0.2"];

/// `a.txt`, edited once so that its lock file exists, and every lock held from now on
/// (the holder outlives the workspace: a lock on a removed file harms nothing).
fn held(ws: &TestWorkspace) {
    ws.file("a.txt", "one\n");
    ws.stitch(
        "edit",
        &json!({"path": "a.txt", "oldText": "one", "newText": "two"}),
    )
    .ok();
    std::mem::forget(hold_every_lock(ws));
}

pub const CASES: &[Case] = &[
    Case {
        name: "edit: the file's lock is held",
        setup: held,
        flags: Some(&["a.txt", "--old", "two", "--new", "three"]),
        args: || json!({"path": "a.txt", "oldText": "two", "newText": "three"}),
        global: WAIT,
        code: "BUSY",
        ..BASE
    },
    Case {
        name: "write: the file's lock is held",
        command: "write",
        tool: "write_file",
        setup: held,
        flags: Some(&["a.txt", "--content", "three\n", "--overwrite"]),
        args: || json!({"path": "a.txt", "content": "three\n", "overwrite": true}),
        global: WAIT,
        code: "BUSY",
        ..BASE
    },
    Case {
        name: "delete: the file's lock is held",
        command: "delete",
        tool: "delete_file",
        setup: held,
        flags: Some(&["a.txt"]),
        args: || json!({"path": "a.txt"}),
        global: WAIT,
        code: "BUSY",
        ..BASE
    },
    Case {
        name: "apply: the file's lock is held",
        command: "apply",
        tool: "apply_patch",
        setup: held,
        flags: Some(&[
            "--patch",
            "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-two\n+three\n",
        ]),
        args: || json!({"patch": "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-two\n+three\n"}),
        global: WAIT,
        code: "BUSY",
        ..BASE
    },
];
