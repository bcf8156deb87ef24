//! Where the caller expects a digest — `expectedSha256`, or an undo's version left — the
//! commit's last look hashes the file once more just before publishing: a write that kept
//! the file's size and put its modification time back, made after the check, is never
//! published over (the call is built once more from a fresh read, and refused as stale or
//! merged as after any other change). The window is held open by the debug build's
//! `STITCH_TEST_PAUSE`.

use std::fs;
use std::io::Write;

use serde_json::json;

use super::verified::paused;
use crate::support::{sha256sum, TestWorkspace, SHA256};

/// Rewrites `rel` in place with `bytes` (as long as what is there), then puts its
/// modification time back: the size, the inode and the times are as they were read.
fn rewrite_keeping_times(ws: &TestWorkspace, rel: &str, bytes: &str) {
    let path = ws.path(rel);
    let before = fs::metadata(&path).unwrap();
    assert_eq!(
        before.len(),
        bytes.len() as u64,
        "a rewrite of the same size"
    );
    let mut file = fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.write_all(bytes.as_bytes()).unwrap();
    file.set_modified(before.modified().unwrap()).unwrap();
    drop(file);
    let after = fs::metadata(&path).unwrap();
    assert_eq!(after.modified().unwrap(), before.modified().unwrap());
}

#[test]
fn a_write_expecting_a_digest_is_stale_when_the_file_was_rewritten_after_the_check() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let seen = sha256sum(b"one\n");
    let args = [
        "write",
        "a.txt",
        "--content",
        "mine\n",
        "--expected-sha256",
        &seen,
    ];
    let (run, pauses) = paused(&ws, "before-publish", &args, || {
        rewrite_keeping_times(&ws, "a.txt", "two\n");
    });
    run.assert_envelope(&json!({
        "ok": false,
        "error": "STALE_VERSION",
        "details": {
            "message": "`a.txt` has changed: its sha256 is not the --expected-sha256",
            "actualSha256": SHA256,
            "expectedSha256": SHA256,
            "path": "a.txt"
        },
        "_hint": "Re-read the file, then retry."
    }));
    assert_eq!(run.envelope["details"]["expectedSha256"], seen);
    assert_eq!(run.envelope["details"]["actualSha256"], sha256sum(b"two\n"));
    assert_eq!(pauses, 1, "refused at the last look, then at the check");
    assert_eq!(ws.read_string("a.txt"), "two\n", "the other write stands");
}

#[test]
fn an_edit_expecting_a_digest_is_stale_when_the_file_was_rewritten_after_the_check() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "let x = 1;\n");
    let seen = sha256sum(b"let x = 1;\n");
    let args = [
        "edit",
        "a.txt",
        "--old",
        "x = 1",
        "--new",
        "x = 2",
        "--expected-sha256",
        &seen,
    ];
    let (run, _) = paused(&ws, "before-publish", &args, || {
        rewrite_keeping_times(&ws, "a.txt", "let y = 1;\n");
    });
    let details = run.refused("STALE_VERSION");
    assert_eq!(details["expectedSha256"], seen);
    assert_eq!(details["actualSha256"], sha256sum(b"let y = 1;\n"));
    assert_eq!(ws.read_string("a.txt"), "let y = 1;\n");
}

#[test]
fn an_undo_merges_a_rewrite_made_after_its_check_instead_of_publishing_over_it() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a\n1\n2\n3\nb\n");
    let edited = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "oldText": "b", "newText": "c"}),
    );
    let id = edited.ok()["id"].as_str().unwrap().to_owned();
    let (run, pauses) = paused(&ws, "before-publish", &["undo", &id], || {
        rewrite_keeping_times(&ws, "a.txt", "x\n1\n2\n3\nc\n");
    });
    let data = run.ok();
    assert_eq!(data["files"][0]["merged"], true, "{}", run.stdout);
    assert_eq!(pauses, 2, "built once more from a fresh read, and merged");
    assert_eq!(
        ws.read_string("a.txt"),
        "x\n1\n2\n3\nb\n",
        "the other write stays"
    );
}
