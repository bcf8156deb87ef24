//! The journal's bounds and its switch: at most limits.journalEntries entries and
//! limits.journalBytes bytes of kept content, the oldest going first and the versions no
//! entry names removed; `journal: false` turns it off. A replaced file's inode is kept by a
//! hard link, not copied.

use std::fs;
use std::os::unix::fs::MetadataExt;

use serde_json::json;

use crate::support::{sha256sum, TestWorkspace};

fn count(ws: &TestWorkspace, sub: &str) -> usize {
    fs::read_dir(ws.path(&format!(".stitch/journal/{sub}"))).map_or(0, |d| {
        d.filter(|e| {
            !e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with('.')
        })
        .count()
    })
}

#[test]
fn past_journal_entries_the_oldest_go_first() {
    let ws = TestWorkspace::new();
    ws.user_config(&json!({"limits": {"journalEntries": 3}}));
    ws.file("a.txt", "v0\n");
    for i in 1..=5 {
        let (old, new) = (format!("v{}", i - 1), format!("v{i}"));
        ws.run(&["edit", "a.txt", "--old", &old, "--new", &new])
            .ok();
    }
    let history = ws.run(&["history"]);
    let changes = history.ok()["changes"].as_array().unwrap().clone();
    assert_eq!(changes.len(), 3);
    assert_eq!(changes[2]["files"][0]["before"], sha256sum(b"v2\n"));
    assert_eq!(count(&ws, "entries"), 3);
    // Versions no kept entry names go once they are no longer fresh.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    ws.run(&["edit", "a.txt", "--old", "v5", "--new", "v6"])
        .ok();
    assert_eq!(
        count(&ws, "objects"),
        4,
        "v3, v4 and v5 are kept, and v6, the newest result; older ones removed"
    );
}

#[test]
fn past_journal_bytes_the_oldest_go_first() {
    let ws = TestWorkspace::new();
    // Each edit keeps 60 bytes before and its 60-byte result: 120 counted.
    ws.user_config(&json!({"limits": {"journalBytes": 200}}));
    let line = "x".repeat(59);
    ws.file("a.txt", format!("{line}0"));
    ws.run(&["edit", "a.txt", "--old", "x0", "--new", "x1"])
        .ok();
    ws.run(&["edit", "a.txt", "--old", "x1", "--new", "x2"])
        .ok();
    let history = ws.run(&["history"]);
    assert_eq!(history.ok()["changes"].as_array().unwrap().len(), 1);
}

#[test]
fn journal_false_turns_it_off_and_history_says_why() {
    let ws = TestWorkspace::new();
    ws.file(".stitch/config.json", r#"{"journal": false}"#);
    ws.file("a.txt", "one\n");
    ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"])
        .ok();
    ws.run(&["history"]).assert_envelope(&json!({
        "ok": true,
        "data": {
            "changes": [],
            "truncated": false,
            "foreign": 0,
            "journalOff": "journal: false in a config turns the journal off"
        }
    }));
    assert!(!ws.exists(".stitch/journal/entries"));
    let undo = ws.run(&["undo"]);
    assert_eq!(undo.envelope["error"], "NOT_FOUND");
    assert_eq!(ws.read_string("a.txt"), "two\n");
}

#[test]
fn no_key_can_be_made_so_the_journal_is_off() {
    let ws = TestWorkspace::new();
    // A file where the key's directory belongs.
    fs::remove_dir_all(ws.home().join("data/stitch")).unwrap();
    fs::write(ws.home().join("data/stitch"), "not a directory").unwrap();
    ws.file("a.txt", "one\n");
    ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"])
        .ok();
    let history = ws.run(&["history"]);
    let off = history.ok()["journalOff"].as_str().unwrap().to_owned();
    assert!(off.contains("$XDG_DATA_HOME/stitch/key"), "{off}");
}

#[test]
fn the_replaced_inode_is_kept_by_a_link() {
    let ws = TestWorkspace::new();
    // Past 1 MiB an edit takes its two-core path, staging early.
    let mut text = "line of text\n".repeat(200_000);
    text.push_str("version = 1\n");
    ws.file("big.txt", &text);
    let inode = fs::metadata(ws.path("big.txt")).unwrap().ino();
    ws.run(&[
        "edit",
        "big.txt",
        "--old",
        "version = 1",
        "--new",
        "version = 2",
    ])
    .ok();
    let object = ws.path(&format!(
        ".stitch/journal/objects/{}",
        sha256sum(text.as_bytes())
    ));
    assert_eq!(fs::metadata(&object).unwrap().ino(), inode);
    ws.run(&["write", "small.txt", "--content", "a"]).ok();
    let small = fs::metadata(ws.path("small.txt")).unwrap().ino();
    ws.run(&["write", "small.txt", "--content", "b", "--overwrite"])
        .ok();
    // Kept by a link of the replaced inode, which takes the place of the copy kept as
    // the result of the write that made it.
    let object = ws.path(&format!(".stitch/journal/objects/{}", sha256sum(b"a")));
    assert_eq!(fs::metadata(&object).unwrap().ino(), small);
    for _ in 0..3 {
        ws.run(&["undo"]).ok();
    }
    assert!(
        ws.read_string("big.txt") == text,
        "the edit of big.txt is undone"
    );
}
