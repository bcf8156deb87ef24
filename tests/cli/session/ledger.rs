//! The ledger: sessions never see each other's reads, and a ledger that cannot be read is
//! treated as empty, which fails closed.

use std::fs;

use serde_json::Value;

use crate::support::sha256sum;

use super::{assert_not_observed, assert_stale, ledger_path, session, workspace_with_text, TEXT};

#[test]
fn sessions_are_isolated_from_each_other() {
    let ws = workspace_with_text();
    session(&ws, "agent-a", &["read", "a.txt"]).ok();

    let edit = session(
        &ws,
        "agent-b",
        &["edit", "a.txt", "--old", "beta", "--new", "B"],
    );
    assert_eq!(assert_not_observed(&edit, "a.txt")["session"], "agent-b");
    let write = session(
        &ws,
        "agent-b",
        &["write", "a.txt", "--content", "b\n", "--overwrite"],
    );
    assert_not_observed(&write, "a.txt");
    assert_eq!(ws.read_string("a.txt"), TEXT);

    // Both read; A's edit makes B's record stale, not A's.
    session(&ws, "agent-b", &["read", "a.txt"]).ok();
    session(
        &ws,
        "agent-a",
        &["edit", "a.txt", "--old", "beta", "--new", "A"],
    )
    .ok();
    let after_a = "alpha\nA\ngamma\n";
    // B's edit needs the line A changed (another line would land by region).
    let edit = session(
        &ws,
        "agent-b",
        &["edit", "a.txt", "--old", "beta", "--new", "B"],
    );
    let details = assert_stale(&edit, "a.txt");
    assert_eq!(details["expectedSha256"], sha256sum(TEXT.as_bytes()));
    assert_eq!(details["actualSha256"], sha256sum(after_a.as_bytes()));
    assert_eq!(ws.read_string("a.txt"), after_a);
    session(
        &ws,
        "agent-a",
        &["edit", "a.txt", "--old", "gamma", "--new", "G"],
    )
    .ok();
    assert_eq!(ws.read_string("a.txt"), "alpha\nA\nG\n");
}

// ---------------------------------------------------------------------------------------
// A ledger that cannot be read

fn corrupt_ledger_fails_closed(corrupt: impl FnOnce(&[u8]) -> Vec<u8>) {
    let ws = workspace_with_text();
    session(&ws, "s1", &["read", "a.txt"]).ok();
    let ledger = ledger_path(&ws, "s1");
    let valid = fs::read(&ledger).expect("the read left a ledger");
    serde_json::from_slice::<Value>(&valid).expect("the ledger is JSON");
    fs::write(&ledger, corrupt(&valid)).unwrap();

    let edit = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    );
    assert_not_observed(&edit, "a.txt");
    let write = session(
        &ws,
        "s1",
        &["write", "a.txt", "--content", "x\n", "--overwrite"],
    );
    assert_not_observed(&write, "a.txt");
    assert_eq!(ws.read_string("a.txt"), TEXT);

    session(&ws, "s1", &["read", "a.txt"]).ok();
    session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    )
    .ok();
    assert_eq!(ws.read_string("a.txt"), "alpha\nBETA\ngamma\n");
    let rewritten = fs::read(&ledger).unwrap();
    serde_json::from_slice::<Value>(&rewritten).expect("the ledger is JSON again");
}

#[test]
fn a_garbage_ledger_is_treated_as_empty() {
    corrupt_ledger_fails_closed(|_| b"\x00\xffnot json at all {{{".to_vec());
}

#[test]
fn a_truncated_ledger_is_treated_as_empty() {
    corrupt_ledger_fails_closed(|valid| valid[..valid.len() / 2].to_vec());
}

#[test]
fn a_ledger_of_the_wrong_shape_is_treated_as_empty() {
    corrupt_ledger_fails_closed(|_| br#"{"entries": [1, 2, 3]}"#.to_vec());
}

#[test]
fn an_empty_ledger_file_is_treated_as_empty() {
    corrupt_ledger_fails_closed(|_| Vec::new());
}

// ---------------------------------------------------------------------------------------
// Re-reads

#[test]
fn re_reading_an_unchanged_file_leaves_the_ledger_as_it_is() {
    use std::os::unix::fs::MetadataExt;
    let ws = workspace_with_text();
    session(&ws, "agent-a", &["read", "a.txt"]).ok();
    let ledger = ledger_path(&ws, "agent-a");
    let before = fs::metadata(&ledger).unwrap();
    let bytes = fs::read(&ledger).unwrap();
    session(&ws, "agent-a", &["read", "a.txt"]).ok();
    let after = fs::metadata(&ledger).unwrap();
    assert_eq!(
        (after.ino(), after.mtime_nsec()),
        (before.ino(), before.mtime_nsec())
    );
    assert_eq!(fs::read(&ledger).unwrap(), bytes);
    // A changed file is a new version: the ledger is rewritten, and edits go through.
    ws.file("a.txt", "alpha\nbeta\ndelta\n");
    session(&ws, "agent-a", &["read", "a.txt"]).ok();
    assert_ne!(fs::metadata(&ledger).unwrap().ino(), before.ino());
    session(
        &ws,
        "agent-a",
        &["edit", "a.txt", "--old", "delta", "--new", "D"],
    )
    .ok();
    assert_eq!(ws.read_string("a.txt"), "alpha\nbeta\nD\n");
}
