//! A change cut short past its commit point — killed, or failed by I/O — is finished by
//! the next call of any kind (a read, a listing), with or without a usable journal; a
//! record copied into place is never acted on, and a file changed between the crash and
//! the recovery is left as it is, the history saying so.

use std::fs;
use std::time::Duration;

use serde_json::json;

use crate::support::TestWorkspace;

use super::{
    expected, history_of_b, is_entry, killed_after, lay_out, patch, pending, snapshot,
    staging_left, FILES,
};

#[cfg(debug_assertions)]
#[test]
fn a_change_killed_after_its_first_file_is_finished_by_the_next_read() {
    let ws = TestWorkspace::new();
    lay_out(&ws, 10);
    ws.file("unrelated.txt", "x\n");
    killed_after(&ws, 1);
    let id = json!(pending(&ws)
        .iter()
        .find(|n| is_entry(n))
        .and_then(|n| n.split('-').next())
        .unwrap());
    // A read of another file finishes the change first.
    let read = ws.run(&["read", "unrelated.txt"]);
    assert_eq!(read.ok()["content"], "x\n");
    assert_eq!(snapshot(&ws), expected(10, "B", true));
    assert_eq!(pending(&ws), Vec::<String>::new());
    assert_eq!(staging_left(&ws), 0);
    let history = ws.run(&["history"]);
    assert_eq!(history.ok(), &history_of_b(&ws, &id, None));
    // It is one change, taken back whole.
    let undo = ws.run(&["undo"]);
    assert_eq!(undo.ok()["undid"], id);
    assert_eq!(snapshot(&ws), expected(10, "A", false));
}

/// A change killed past its commit point in a workspace whose journal cannot be used
/// (`off` sets it up) is finished by the next call all the same, and leaves no history.
#[cfg(debug_assertions)]
fn finished_without_the_journal(off: impl Fn(&TestWorkspace)) {
    let ws = TestWorkspace::new();
    off(&ws);
    lay_out(&ws, 10);
    killed_after(&ws, 1);
    ws.run(&["list"]).ok();
    assert_eq!(snapshot(&ws), expected(10, "B", true));
    assert_eq!(pending(&ws), Vec::<String>::new());
    assert_eq!(staging_left(&ws), 0);
    let history = ws.run(&["history"]);
    assert_eq!(history.ok()["changes"], json!([]));
    assert!(history.ok()["journalOff"].is_string(), "{}", history.stdout);
}

#[cfg(debug_assertions)]
#[test]
fn with_journal_false_from_a_clone_a_change_killed_midway_is_finished() {
    finished_without_the_journal(|ws| {
        ws.file(".stitch/config.json", r#"{"journal": false}"#);
    });
}

#[cfg(debug_assertions)]
#[test]
fn without_a_journal_key_a_change_killed_midway_is_finished() {
    // The key's directory cannot be made: a file stands where it would be.
    finished_without_the_journal(|ws| {
        let stitch = ws.home().join("data/stitch");
        let _ = fs::remove_dir_all(&stitch);
        fs::create_dir_all(ws.home().join("data")).unwrap();
        fs::write(stitch, "").unwrap();
    });
}

#[cfg(debug_assertions)]
#[test]
fn a_record_copied_into_place_is_never_acted_on() {
    let ws = TestWorkspace::new();
    ws.file(".stitch/config.json", r#"{"journal": false}"#);
    lay_out(&ws, 10);
    killed_after(&ws, 1);
    // The record and its new versions as a clone or an archive would bring them: the
    // same names and bytes, other files, made under another user's key.
    fs::write(ws.home().join("data/stitch/key"), [7u8; 32]).unwrap();
    let dir = ws.path(".stitch/journal/pending");
    for name in pending(&ws) {
        let bytes = fs::read(dir.join(&name)).unwrap();
        fs::remove_file(dir.join(&name)).unwrap();
        fs::write(dir.join(&name), bytes).unwrap();
    }
    let torn = snapshot(&ws);
    let left = pending(&ws);
    std::thread::sleep(Duration::from_millis(2100));
    ws.run(&["list"]).ok();
    assert_eq!(snapshot(&ws), torn, "a copied record changed the tree");
    assert_eq!(
        pending(&ws),
        left,
        "a record that parses is not removed as torn"
    );
}

#[cfg(debug_assertions)]
#[test]
fn a_change_killed_midway_is_finished_by_a_listing_too() {
    let ws = TestWorkspace::new();
    lay_out(&ws, 10);
    killed_after(&ws, 4);
    let listed = ws.run(&["list"]);
    assert!(listed.ok()["entries"].is_array(), "{}", listed.stdout);
    assert_eq!(snapshot(&ws), expected(10, "B", true));
    assert_eq!(pending(&ws), Vec::<String>::new());
}

#[cfg(debug_assertions)]
#[test]
fn a_file_changed_between_the_crash_and_the_recovery_is_left_as_it_is_and_history_says_so() {
    let ws = TestWorkspace::new();
    lay_out(&ws, 10);
    killed_after(&ws, 2);
    let id = json!(pending(&ws)
        .iter()
        .find(|n| is_entry(n))
        .and_then(|n| n.split('-').next())
        .unwrap());
    // Someone edits a file the change had not reached yet (src/deep/c.txt, the third).
    let theirs = "their own version\n";
    fs::write(ws.path(FILES[2]), theirs).unwrap();
    let history = ws.run(&["history"]);
    let mut want = expected(10, "B", true);
    want[2] = Some(theirs.as_bytes().to_vec());
    assert_eq!(snapshot(&ws), want, "every other file is finished");
    let mut listed = history_of_b(&ws, &id, None);
    for file in listed["changes"][0]["files"].as_array_mut().unwrap() {
        if file["path"] == FILES[2] {
            file["unfinished"] = json!(true);
        }
    }
    assert_eq!(history.ok(), &listed);
    assert_eq!(pending(&ws), Vec::<String>::new());
    // Their work is never undone behind their back.
    let undo = ws.run(&["undo"]);
    undo.refused("STALE_VERSION");
    assert!(undo.stdout.contains(FILES[2]), "{}", undo.stdout);
    assert_eq!(fs::read_to_string(ws.path(FILES[2])).unwrap(), theirs);
}

#[cfg(debug_assertions)]
#[test]
fn a_change_that_fails_after_its_first_file_is_finished_by_the_next_call() {
    let ws = TestWorkspace::new();
    lay_out(&ws, 10);
    ws.file("unrelated.txt", "x\n");
    let patch = ws.outside_file("fail.patch", patch("A", "B", true));
    // An I/O failure (here a debug build's hook) once the first file is published: the
    // call fails with no cause shown, and the entry stays pending, past its commit point.
    let output = ws
        .spawnable()
        .env("STITCH_TEST_FAIL_AFTER_PUBLISHING", "1")
        .args(["apply", "--from"])
        .arg(&patch)
        .output()
        .unwrap();
    let run = crate::support::Run::from_output(output);
    assert_eq!(
        run.envelope["error"], "INTERNAL_SERVER_ERROR",
        "{}",
        run.stdout
    );
    assert_ne!(
        snapshot(&ws),
        expected(10, "A", false),
        "one file was published"
    );
    assert_ne!(snapshot(&ws), expected(10, "B", true), "the rest was not");
    assert_eq!(pending(&ws).iter().filter(|n| is_entry(n)).count(), 1);
    // The next call of any kind finishes it: all new, listed once, undone whole.
    assert_eq!(ws.run(&["read", "unrelated.txt"]).ok()["content"], "x\n");
    assert_eq!(snapshot(&ws), expected(10, "B", true));
    let history = ws.run(&["history"]);
    let changes = &history.ok()["changes"];
    assert_eq!(changes.as_array().unwrap().len(), 1, "{changes}");
    assert!(changes[0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f.get("unfinished").is_none()));
    ws.run(&["undo"]).ok();
    assert_eq!(snapshot(&ws), expected(10, "A", false));
    assert_eq!(pending(&ws).iter().filter(|n| is_entry(n)).count(), 0);
}
