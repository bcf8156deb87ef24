//! One place checks every mutation's files, and one executor publishes them: a guard
//! planted in the check (the debug build's `STITCH_TEST_GUARD`) or in the commit's last
//! look before publishing (`STITCH_TEST_GUARD_COMMIT`) refuses write, edit, delete, move,
//! apply and undo alike, and nothing changes. A tool that published by a way of its own
//! would get past the second guard.

use serde_json::json;

use crate::support::{Run, TestWorkspace};

const GUARDED: &str = "a.txt";

fn guarded(ws: &TestWorkspace, guard: &str, tool: &str, args: &serde_json::Value) -> Run {
    let mut cmd = ws.cmd();
    cmd.env(guard, GUARDED)
        .arg(tool)
        .write_stdin(serde_json::to_vec(args).unwrap());
    Run::from(cmd)
}

/// Every tool's call that would change `a.txt`.
fn calls() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        (
            "write",
            json!({"path": GUARDED, "content": "x\n", "overwrite": true}),
        ),
        (
            "edit",
            json!({"path": GUARDED, "oldText": "two", "newText": "three"}),
        ),
        ("delete", json!({"path": GUARDED})),
        ("move", json!({"from": GUARDED, "to": "c.txt"})),
        (
            "move",
            json!({"from": "b.txt", "to": GUARDED, "overwrite": true}),
        ),
        (
            "apply",
            json!({"patch": "*** Begin Patch\n*** Update File: a.txt\n-two\n+three\n*** End Patch\n"}),
        ),
        ("undo", json!({})),
    ]
}

/// Each call refused by the guard `guard` with rule `rule`, nothing changed and nothing
/// journaled; without the guard, the undo goes through.
fn every_tool_is_refused_by(guard: &str, rule: &str) {
    let ws = TestWorkspace::new();
    ws.file(GUARDED, "one\n");
    ws.file("b.txt", "b\n");
    // A change to undo, made before the guard.
    ws.run(&["edit", GUARDED, "--old", "one", "--new", "two"])
        .ok();
    let entries = || {
        ws.run(&["history"]).ok()["changes"]
            .as_array()
            .unwrap()
            .len()
    };
    let before = entries();
    for (tool, args) in calls() {
        let run = guarded(&ws, guard, tool, &args);
        let refused = run.refused("DENIED");
        assert_eq!(refused["rule"], rule, "{tool}: {}", run.stdout);
        assert_eq!(refused["path"], GUARDED, "{tool}");
        assert_eq!(ws.read_string(GUARDED), "two\n", "{tool} changed the file");
        assert_eq!(ws.read_string("b.txt"), "b\n", "{tool} changed b.txt");
        assert!(!ws.exists("c.txt"), "{tool} made c.txt");
        assert_eq!(entries(), before, "{tool} left an entry");
    }
    // Without it, each goes through.
    ws.run(&["undo"]).ok();
    assert_eq!(ws.read_string(GUARDED), "one\n");
}

#[cfg(debug_assertions)]
#[test]
fn a_guard_added_in_one_place_refuses_every_tool() {
    every_tool_is_refused_by("STITCH_TEST_GUARD", "test");
}

#[cfg(debug_assertions)]
#[test]
fn a_guard_added_to_the_commit_refuses_every_tool_before_anything_is_published() {
    every_tool_is_refused_by("STITCH_TEST_GUARD_COMMIT", "test-commit");
}
