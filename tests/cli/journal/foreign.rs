//! What stitch did not write is never undone: entries under another key, copied from
//! another workspace, or planted (a link out, a FIFO, an oversized file), and kept
//! versions whose bytes do not match their names. Skipped or refused, never followed,
//! never waited on.

use std::fs;
use std::time::Duration;

use serde_json::json;

use crate::support::{sha256sum, TestWorkspace};

fn entries_dir(ws: &TestWorkspace) -> std::path::PathBuf {
    ws.path(".stitch/journal/entries")
}

#[test]
fn a_journal_under_another_key_is_foreign_and_never_undone() {
    let ws = TestWorkspace::new();
    fs::remove_dir_all(ws.home().join("data/stitch")).unwrap();
    ws.file("a.txt", "mine\n");
    ws.run(&["edit", "a.txt", "--old", "mine", "--new", "changed"])
        .ok();
    // Made on first use, for this user only.
    let key = ws.home().join("data/stitch/key");
    assert_eq!(fs::read(&key).unwrap().len(), 32);
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&fs::metadata(&key).unwrap().permissions()) & 0o777,
        0o600
    );
    fs::write(&key, [7u8; 32]).unwrap();
    ws.run(&["history"]).assert_envelope(&json!({
        "ok": true,
        "data": {"changes": [], "truncated": false, "foreign": 1}
    }));
    let undo = ws.run(&["undo"]);
    assert_eq!(undo.envelope["error"], "NOT_FOUND");
    assert_eq!(ws.read_string("a.txt"), "changed\n");
}

#[test]
fn a_journal_copied_from_another_workspace_is_foreign() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"])
        .ok();
    // The same user, the same key, another place: the entries name another root.
    let other = ws.beside("other");
    fs::create_dir_all(other.join(".stitch/journal")).unwrap();
    for sub in ["entries", "objects"] {
        let from = ws.path(&format!(".stitch/journal/{sub}"));
        let to = other.join(format!(".stitch/journal/{sub}"));
        fs::create_dir_all(&to).unwrap();
        for entry in fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
    fs::write(other.join("a.txt"), "two\n").unwrap();
    let mut cmd = ws.std_cmd_at(&other);
    cmd.arg("undo").stdin(std::process::Stdio::null());
    let run = crate::support::Run::from_output(cmd.output().unwrap());
    assert_eq!(run.envelope["error"], "NOT_FOUND");
    assert_eq!(fs::read_to_string(other.join("a.txt")).unwrap(), "two\n");
}

#[test]
fn planted_entries_are_skipped_never_followed_never_waited_on() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"])
        .ok();
    let dir = entries_dir(&ws);
    let secret = ws.outside_file("secret.entry", "not for stitch");
    std::os::unix::fs::symlink(&secret, dir.join("09999999999999999990-0.entry")).unwrap();
    let fifo = dir.join("09999999999999999991-0.entry");
    crate::hostile::mkfifo(&fifo);
    fs::write(
        dir.join("09999999999999999992-0.entry"),
        vec![b'x'; 2 << 20],
    )
    .unwrap();
    fs::write(dir.join("09999999999999999993-0.entry"), "0000\n{}").unwrap();
    let mut cmd = ws.cmd();
    cmd.arg("history").timeout(Duration::from_secs(20));
    let run = crate::support::Run::from(cmd);
    let data = run.ok();
    assert_eq!(data["foreign"], 4);
    assert_eq!(data["changes"].as_array().unwrap().len(), 1);
    // The newest change stitch made is what a bare undo takes back.
    ws.run(&["undo"]).ok();
    assert_eq!(ws.read_string("a.txt"), "one\n");
    assert_eq!(fs::read_to_string(secret).unwrap(), "not for stitch");
    assert!(
        dir.join("09999999999999999992-0.entry").exists(),
        "foreign entries are not removed"
    );
}

#[test]
fn a_kept_version_that_does_not_match_its_name_is_refused_and_nothing_changes() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"])
        .ok();
    let name = sha256sum(b"one\n");
    let object = ws.path(&format!(".stitch/journal/objects/{name}"));
    fs::write(&object, "tampered\n").unwrap();
    ws.run(&["undo"]).assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_CONFIG",
        "details": {
            "message": format!("stitch's own state is unusable: the kept version `.stitch/journal/objects/{name}` does not match its sha256"),
            "path": format!(".stitch/journal/objects/{name}"),
            "field": format!(".stitch/journal/objects/{name}"),
            "reason": "does not match its sha256"
        },
        "_hint": crate::support::ANY
    }));
    assert_eq!(ws.read_string("a.txt"), "two\n");
    // A link planted in its place is not followed either.
    fs::remove_file(&object).unwrap();
    let outside = ws.outside_file("one.txt", "one\n");
    std::os::unix::fs::symlink(&outside, &object).unwrap();
    let linked = ws.run(&["undo"]);
    assert_eq!(linked.envelope["error"], "INVALID_CONFIG");
    assert_eq!(ws.read_string("a.txt"), "two\n");
}

#[test]
fn a_planted_link_for_the_journal_refuses_every_change() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    ws.dir(".stitch");
    std::os::unix::fs::symlink(ws.outside(), ws.path(".stitch/journal")).unwrap();
    let run = ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"]);
    assert_eq!(run.envelope["error"], "INVALID_CONFIG");
    assert_eq!(run.envelope["details"]["path"], ".stitch/journal");
    assert_eq!(ws.read_string("a.txt"), "one\n");
    assert!(fs::read_dir(ws.outside()).unwrap().next().is_none());
}

#[test]
fn thousands_of_planted_megabytes_leave_ours_listed_and_undoable() {
    let ws = TestWorkspace::new();
    ws.user_config(&json!({"limits": {"journalEntries": 2}}));
    ws.file("a.txt", "one\n");
    ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"])
        .ok();
    // Planted: entries named for another key, and entries named as they were before key
    // ids, each just under what an entry may hold — far more than a call reads of them.
    let junk = format!("{}\n{}", "0".repeat(64), "x".repeat((1 << 20) - 100));
    for i in 0..30u64 {
        let id = format!("{:020}", 1_000 + i);
        fs::write(
            entries_dir(&ws).join(format!("{id}-0-0123456789abcdef.entry")),
            &junk,
        )
        .unwrap();
    }
    for i in 0..12u64 {
        let id = format!("{:020}", 2_000 + i);
        fs::write(entries_dir(&ws).join(format!("{id}-0.entry")), &junk).unwrap();
    }
    ws.run(&["edit", "a.txt", "--old", "two", "--new", "three"])
        .ok();
    let history = ws.run(&["history"]);
    let changes = history.ok()["changes"].as_array().unwrap().clone();
    assert_eq!(changes.len(), 2, "{}", history.stdout);
    assert_eq!(history.ok()["foreign"], 42);
    // The bound holds for ours; the planted entries are neither counted nor removed.
    ws.run(&["edit", "a.txt", "--old", "three", "--new", "four"])
        .ok();
    let history = ws.run(&["history"]);
    assert_eq!(history.ok()["changes"].as_array().unwrap().len(), 2);
    assert_eq!(history.ok()["foreign"], 42);
    ws.run(&["undo"]).ok();
    assert_eq!(ws.read_string("a.txt"), "three\n");
}
