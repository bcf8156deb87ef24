//! One place checks every mutation's files: a guard planted there (the debug build's
//! `STITCH_TEST_GUARD`) refuses write, edit, delete, move, apply and undo alike, and
//! nothing changes.

use serde_json::json;

use crate::support::{Run, TestWorkspace};

const GUARDED: &str = "a.txt";

fn guarded(ws: &TestWorkspace, tool: &str, args: &serde_json::Value) -> Run {
    let mut cmd = ws.cmd();
    cmd.env("STITCH_TEST_GUARD", GUARDED)
        .arg(tool)
        .write_stdin(serde_json::to_vec(args).unwrap());
    Run::from(cmd)
}

#[cfg(debug_assertions)]
#[test]
fn a_guard_added_in_one_place_refuses_every_tool() {
    let ws = TestWorkspace::new();
    ws.file(GUARDED, "one\n");
    ws.file("b.txt", "b\n");
    // A change to undo, made before the guard.
    ws.run(&["edit", GUARDED, "--old", "one", "--new", "two"])
        .ok();
    let calls = [
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
    ];
    for (tool, args) in calls {
        let run = guarded(&ws, tool, &args);
        let refused = run.refused("DENIED");
        assert_eq!(refused["rule"], "test", "{tool}: {}", run.stdout);
        assert_eq!(refused["path"], GUARDED, "{tool}");
        assert_eq!(ws.read_string(GUARDED), "two\n", "{tool} changed the file");
        assert_eq!(ws.read_string("b.txt"), "b\n", "{tool} changed b.txt");
    }
    // Without it, each goes through.
    ws.run(&["undo"]).ok();
    assert_eq!(ws.read_string(GUARDED), "one\n");
}
