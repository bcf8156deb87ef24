//! Taking changes back, each call its own process: the bytes and the mode come back,
//! repeated undos walk back, undoing an undo redoes, and a file that moved on since is
//! never overwritten.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use serde_json::{json, Value};

use crate::support::{sha256sum, TestWorkspace, NUMBER, SHA256, STRING};

/// The ids of the journal's changes, newest first.
pub fn ids(ws: &TestWorkspace) -> Vec<String> {
    let run = ws.run(&["history", "--limit", "100"]);
    run.ok()["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn an_undo_restores_the_bytes_and_the_mode() {
    let ws = TestWorkspace::new();
    let original = b"first\r\nsecond\r\n\tthird\r\n";
    ws.file("src/a.txt", original);
    fs::set_permissions(ws.path("src/a.txt"), fs::Permissions::from_mode(0o751)).unwrap();
    ws.run(&["edit", "src/a.txt", "--old", "second", "--new", "2nd"])
        .ok();
    assert_eq!(ws.read("src/a.txt"), b"first\r\n2nd\r\n\tthird\r\n");
    let run = ws.run(&["undo"]);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "id": STRING,
            "undid": STRING,
            "files": [{
                "path": "src/a.txt",
                "sha256": sha256sum(original),
                "diff": "--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,3 +1,3 @@\n first\r\n-2nd\r\n+second\r\n \tthird\r\n"
            }],
            "applied": true
        }
    }));
    assert_eq!(ws.read("src/a.txt"), original);
    assert_eq!(ws.mode("src/a.txt"), 0o751);
    let history = ws.run(&["history"]);
    history.assert_envelope(&json!({
        "ok": true,
        "data": {
            "changes": [
                {
                    "id": run.envelope["data"]["id"],
                    "time": STRING,
                    "tool": "undo_change",
                    "undoes": run.envelope["data"]["undid"],
                    "undone": false,
                    "files": [{"path": "src/a.txt", "before": SHA256, "after": sha256sum(original), "added": 1, "removed": 1}]
                },
                {
                    "id": run.envelope["data"]["undid"],
                    "time": STRING,
                    "tool": "edit_file",
                    "undone": true,
                    "files": [{"path": "src/a.txt", "before": sha256sum(original), "after": SHA256, "added": 1, "removed": 1}]
                }
            ],
            "truncated": false,
            "foreign": 0
        }
    }));
}

#[test]
fn repeated_undos_walk_back_in_time_until_nothing_is_left() {
    let ws = TestWorkspace::new();
    ws.run(&["write", "notes/v.txt", "--content", "v1\n"]).ok();
    ws.run(&["edit", "notes/v.txt", "--old", "v1", "--new", "v2"])
        .ok();
    ws.run(&["edit", "notes/v.txt", "--old", "v2", "--new", "v3"])
        .ok();
    ws.run(&["undo"]).ok();
    assert_eq!(ws.read_string("notes/v.txt"), "v2\n");
    ws.run(&["undo"]).ok();
    assert_eq!(ws.read_string("notes/v.txt"), "v1\n");
    ws.run(&["undo"]).ok();
    assert!(!ws.exists("notes/v.txt"));
    assert!(!ws.exists("notes"), "the directory the write made goes too");
    ws.run(&["undo"]).assert_envelope(&json!({
        "ok": false,
        "error": "NOT_FOUND",
        "details": {
            "message": "There is no change left to undo in the journal",
            "operation": "undo",
            "nearNames": []
        },
        "_hint": "List the changes there are with stitch history."
    }));
    assert_eq!(ids(&ws).len(), 6);
}

#[test]
fn undoing_an_undo_redoes_the_change() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\n");
    ws.run(&["edit", "a.txt", "--old", "alpha", "--new", "beta"])
        .ok();
    let undo = ws.run(&["undo"]);
    let undo_id = undo.ok()["id"].as_str().unwrap().to_owned();
    assert_eq!(ws.read_string("a.txt"), "alpha\n");
    let redo = ws.stitch("undo", &json!({"id": undo_id}));
    assert_eq!(redo.ok()["undid"], json!(undo_id));
    assert_eq!(ws.read_string("a.txt"), "beta\n");
    let history = ws.run(&["history"]);
    let undone: Vec<&Value> = history.ok()["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["undone"])
        .collect();
    // The redo stands; the undo it took back is undone; the edit stands again.
    assert_eq!(undone, [&json!(false), &json!(true), &json!(false)]);
}

#[test]
fn a_file_written_from_outside_since_is_stale_and_nothing_changes() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"])
        .ok();
    let edit_id = ids(&ws)[0].clone();
    fs::write(ws.path("a.txt"), "two, and work done by hand\n").unwrap();
    let run = ws.stitch("undo", &json!({}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "STALE_VERSION",
        "details": {
            "message": format!("`a.txt` changed since change {edit_id} in a way an undo cannot merge, so it cannot be undone without losing that work"),
            "id": edit_id,
            "operation": "undo",
            "paths": [{
                "path": "a.txt",
                "expectedSha256": sha256sum(b"two\n"),
                "actualSha256": sha256sum(b"two, and work done by hand\n"),
                // Written by hand, not by a change of the journal.
                "changedBy": [],
                "conflicts": [{"start": 1, "end": 1}],
            }],
            "path": "a.txt"
        },
        "_hint": "The file was changed outside stitch where this change made its lines: taking it back would lose that work. Leave it in place, or edit those lines back yourself."
    }));
    assert_eq!(ws.read_string("a.txt"), "two, and work done by hand\n");
    assert_eq!(ids(&ws), [edit_id], "a refused undo is no entry");
    let dry = ws.run(&["undo", "--dry-run"]);
    assert_eq!(dry.envelope["error"], "STALE_VERSION");
}

#[test]
fn a_created_a_deleted_and_a_moved_file_are_undone() {
    let ws = TestWorkspace::new();
    ws.file("keep/x.txt", "x\n");
    ws.file("old/place.txt", "moved\n");
    ws.file("dest.txt", "replaced\n");
    fs::set_permissions(ws.path("old/place.txt"), fs::Permissions::from_mode(0o700)).unwrap();
    ws.run(&["write", "new/dir/made.txt", "--content", "made\n"])
        .ok();
    ws.run(&["delete", "keep/x.txt"]).ok();
    ws.run(&["move", "old/place.txt", "dest.txt", "--overwrite"])
        .ok();
    assert!(!ws.exists("old") && !ws.exists("keep"));
    assert_eq!(ws.read_string("dest.txt"), "moved\n");

    let run = ws.run(&["undo"]);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "id": STRING,
            "undid": STRING,
            "files": [
                {"path": "old/place.txt", "from": "dest.txt", "sha256": sha256sum(b"moved\n"), "diff": ""},
                {"path": "dest.txt", "sha256": sha256sum(b"replaced\n"), "diff": "--- a/dest.txt\n+++ b/dest.txt\n@@ -0,0 +1 @@\n+replaced\n"}
            ],
            "applied": true
        }
    }));
    assert_eq!(ws.read_string("old/place.txt"), "moved\n");
    assert_eq!(ws.mode("old/place.txt"), 0o700);
    assert_eq!(ws.read_string("dest.txt"), "replaced\n");
    ws.run(&["undo"]).ok();
    assert_eq!(ws.read_string("keep/x.txt"), "x\n");
    ws.run(&["undo"]).ok();
    assert!(
        !ws.exists("new"),
        "the created file and its directories are gone"
    );
    let _ = NUMBER;
}

#[test]
fn nothing_to_undo_names_list_changes_to_a_json_caller() {
    let ws = TestWorkspace::new();
    ws.stitch("undo", &json!({"id": "00000000000000000001"}))
        .assert_envelope(&json!({
            "ok": false,
            "error": "NOT_FOUND",
            "details": {
                "message": "There is no change `00000000000000000001` in the journal",
                "operation": "undo",
                "nearNames": [],
                "id": "00000000000000000001"
            },
            "_hint": "List the changes there are with list_changes."
        }));
}

#[test]
fn history_filters_by_path_and_by_session() {
    let ws = TestWorkspace::new();
    ws.run(&["--session", "s1", "write", "a/one.txt", "--content", "1"])
        .ok();
    ws.run(&["--session", "s2", "write", "b/two.txt", "--content", "2"])
        .ok();
    let paths = |run: crate::support::Run| -> Vec<String> {
        run.ok()["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["files"][0]["path"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(paths(ws.run(&["history", "a"])), ["a/one.txt"]);
    assert_eq!(
        paths(ws.run(&["--session", "s2", "history"])),
        ["b/two.txt"]
    );
    assert_eq!(
        paths(ws.stitch("history", &json!({"session": "s1"}))),
        ["a/one.txt"]
    );
    assert_eq!(paths(ws.run(&["history"])), ["b/two.txt", "a/one.txt"]);
    let cut = ws.run(&["history", "--limit", "1"]);
    assert_eq!(cut.ok()["truncated"], true);
    // In a session, a bare undo takes back that session's newest change.
    ws.run(&["--session", "s1", "undo"]).ok();
    assert!(!ws.exists("a/one.txt") && ws.exists("b/two.txt"));
}

#[test]
fn ok_if_applied_trusts_the_journal_for_a_short_new_text() {
    let ws = TestWorkspace::new();
    ws.file("Cargo.toml", "version = \"1.2.0\"\ndep = \"1.3.0\"\n");
    ws.run(&["edit", "Cargo.toml", "--old", "1.2.0", "--new", "1.3.1"])
        .ok();
    let again = ws.run(&[
        "edit",
        "Cargo.toml",
        "--old",
        "1.2.0",
        "--new",
        "1.3.1",
        "--ok-if-applied",
    ]);
    assert_eq!(again.ok()["alreadyApplied"], true);
    // Never seen by the journal: a short newText that merely occurs is no evidence.
    let other = ws.run(&[
        "edit",
        "Cargo.toml",
        "--old",
        "1.2.9",
        "--new",
        "1.3.0",
        "--ok-if-applied",
    ]);
    assert_eq!(other.envelope["error"], "NO_MATCH");
}
