//! The journal's store holds what it promises: an entry is bounded where it is written,
//! so a change whose entry could not be read back is refused before anything changes; the
//! byte bound holds at once, not once the versions are old; and a checkout shared under
//! two keys (two users, a host and a container) never loses what the other key's entries
//! name, to a prune or to a recovery.

use std::fmt::Write;
use std::fs;
use std::time::Duration;

use serde_json::json;

use crate::support::{sha256sum, TestWorkspace};

/// The bytes of every kept version under `.stitch/journal/objects/`.
fn kept_bytes(ws: &TestWorkspace) -> u64 {
    fs::read_dir(ws.path(".stitch/journal/objects")).map_or(0, |dir| {
        dir.map(|e| e.unwrap().metadata().unwrap().len()).sum()
    })
}

/// The names under `.stitch/journal/pending/`.
fn pending(ws: &TestWorkspace) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(ws.path(".stitch/journal/pending")).map_or_else(
        |_| Vec::new(),
        |dir| {
            dir.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        },
    );
    names.sort();
    names
}

/// The environment of a second user of the same checkout: the same config, another key.
fn other_key(ws: &TestWorkspace) -> [(&'static str, String); 1] {
    let data = ws.beside("other-data");
    [("XDG_DATA_HOME", data.to_string_lossy().into_owned())]
}

#[test]
fn a_change_whose_entry_could_not_be_read_back_is_refused_before_anything_changes() {
    let ws = TestWorkspace::new();
    // 600 new files under a directory path of about 1,750 bytes: each file's record
    // carries it, and the entry would pass the 1 MiB the journal reads back.
    let deep: Vec<String> = (0..7).map(|i| format!("{i}{}", "d".repeat(240))).collect();
    let deep = deep.join("/");
    let mut patch = String::from("*** Begin Patch\n");
    for i in 0..600 {
        writeln!(patch, "*** Add File: {deep}/f{i:03}.txt\n+{i}").unwrap();
    }
    patch.push_str("*** End Patch\n");
    let run = ws.stitch("apply", &json!({"patch": patch}));
    let refused = run.refused("TOO_LARGE");
    assert_eq!(refused["field"], "changes");
    assert_eq!(refused["files"], 600);
    assert!(refused["entryBytes"].as_u64().unwrap() > 1 << 20);
    assert!(run.hint().contains("Split the change"), "{}", run.hint());
    assert!(!ws.exists("0d"), "nothing was created");
    assert!(!ws.path(&format!("{deep}/f000.txt")).exists());
    assert_eq!(pending(&ws), Vec::<String>::new());
    let history = ws.run(&["history"]);
    assert_eq!(history.ok()["changes"], json!([]));
}

#[test]
fn the_byte_bound_holds_right_after_the_change_that_passes_it() {
    let ws = TestWorkspace::new();
    ws.user_config(&json!({"limits": {"journalBytes": 200_000}}));
    let version = |i: usize| format!("{i:04}{}\n", "x".repeat(60_000 - 5));
    ws.file("a.txt", version(0));
    for i in 1..=16 {
        ws.stitch(
            "write",
            &json!({"path": "a.txt", "content": version(i), "overwrite": true}),
        )
        .ok();
        let kept = kept_bytes(&ws);
        assert!(
            kept <= 200_000,
            "after write {i}: {kept} bytes kept, over the 200000 allowed"
        );
    }
    // What stays is the newest, and undoable.
    let history = ws.run(&["history"]);
    let changes = history.ok()["changes"].as_array().unwrap().clone();
    assert!(!changes.is_empty() && changes.len() <= 3, "{changes:?}");
    let newest = changes[0]["id"].as_str().unwrap().to_owned();
    ws.stitch("undo", &json!({"id": newest})).ok();
    assert_eq!(ws.read_string("a.txt"), version(15));
}

#[test]
fn a_prune_under_one_key_keeps_what_another_keys_entries_name() {
    let ws = TestWorkspace::new();
    ws.user_config(&json!({"limits": {"journalEntries": 1}}));
    ws.file("a.txt", "the container's file\n");
    ws.file("b.txt", "b0\n");
    let other = other_key(&ws);
    let other: Vec<(&str, &str)> = other.iter().map(|(k, v)| (*k, v.as_str())).collect();
    // The other user edits a.txt: its entry, under its key, names a.txt's version.
    let edited = ws.run_with_env(
        &other,
        &["edit", "a.txt", "--old", "container's", "--new", "edited"],
    );
    edited.ok();
    let history = ws.run_with_env(&other, &["history"]);
    let id = history.ok()["changes"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // Old enough that no rule about changes in flight protects it.
    std::thread::sleep(Duration::from_millis(2100));
    // This user's changes pass its own bound three times over: each prunes.
    for i in 1..=3 {
        let (old, new) = (format!("b{}", i - 1), format!("b{i}"));
        ws.run(&["edit", "b.txt", "--old", &old, "--new", &new])
            .ok();
    }
    let object = ws.path(&format!(
        ".stitch/journal/objects/{}",
        sha256sum(b"the container's file\n")
    ));
    assert!(object.exists(), "the other key's kept version was pruned");
    ws.run_with_env(&other, &["undo", &id]).ok();
    assert_eq!(ws.read_string("a.txt"), "the container's file\n");
}

#[cfg(debug_assertions)]
#[test]
fn a_recovery_under_one_key_leaves_another_keys_unfinished_change_to_it() {
    let ws = TestWorkspace::new();
    for name in ["a.txt", "b.txt", "c.txt"] {
        ws.file(name, "old\n");
    }
    let patch = "*** Begin Patch\n\
        *** Update File: a.txt\n-old\n+new\n\
        *** Update File: b.txt\n-old\n+new\n\
        *** Update File: c.txt\n-old\n+new\n\
        *** End Patch\n";
    let data = ws.beside("other-data");
    // The other user's apply dies after publishing one file of three.
    let output = ws
        .spawnable()
        .env("XDG_DATA_HOME", &data)
        .env("STITCH_TEST_KILL_AFTER_PUBLISHING", "1")
        .args(["apply", "--patch", patch])
        .output()
        .unwrap();
    assert!(
        !output.status.success(),
        "the hook kills the call: {output:?}"
    );
    assert_eq!(ws.read_string("a.txt"), "new\n");
    assert_eq!(ws.read_string("b.txt"), "old\n");
    let left = pending(&ws);
    assert!(!left.is_empty());
    // This user's calls, once what was left is old, leave it all where it is.
    std::thread::sleep(Duration::from_millis(2100));
    ws.run(&["list"]).ok();
    assert_eq!(
        pending(&ws),
        left,
        "another key's pending change was removed"
    );
    // The other user's next call finishes its change.
    let data = data.to_string_lossy().into_owned();
    ws.run_with_env(&[("XDG_DATA_HOME", data.as_str())], &["list"])
        .ok();
    for name in ["a.txt", "b.txt", "c.txt"] {
        assert_eq!(ws.read_string(name), "new\n", "{name}");
    }
    assert_eq!(pending(&ws), Vec::<String>::new());
}
