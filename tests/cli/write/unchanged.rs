//! A write whose content equals the file's bytes leaves the file untouched once the
//! guards allowed it: same inode, same modification time, no temp file, and the result
//! says `unchanged: true` with `applied: false`.

use std::fs::{self, File};
use std::os::unix::fs::MetadataExt;
use std::time::{Duration, SystemTime};

use serde_json::json;

use crate::support::{sha256sum, tree, TestWorkspace, SHA256, STRING};

const CONTENT: &str = "line one\nline two\n";

/// A workspace holding `a.txt` with an mtime an hour in the past, so a rewrite would
/// show as a later mtime however coarse the filesystem's clock.
fn aged() -> (TestWorkspace, u64, SystemTime) {
    let ws = TestWorkspace::new();
    ws.file("a.txt", CONTENT);
    let past = SystemTime::now() - Duration::from_secs(3600);
    File::options()
        .write(true)
        .open(ws.path("a.txt"))
        .unwrap()
        .set_modified(past)
        .unwrap();
    let meta = fs::metadata(ws.path("a.txt")).unwrap();
    (ws, meta.ino(), meta.modified().unwrap())
}

fn assert_untouched(ws: &TestWorkspace, ino: u64, mtime: SystemTime) {
    let meta = fs::metadata(ws.path("a.txt")).unwrap();
    assert_eq!(meta.ino(), ino, "the file was replaced");
    assert_eq!(meta.modified().unwrap(), mtime, "the file was rewritten");
    assert_eq!(ws.read_string("a.txt"), CONTENT);
}

#[test]
fn an_identical_overwrite_leaves_the_file_untouched() {
    let (ws, ino, mtime) = aged();
    let before = tree(&ws.root());
    let run = ws.stitch(
        "write",
        &json!({"path": "a.txt", "content": CONTENT, "overwrite": true}),
    );
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "applied": false,
            "bytes": 18,
            "created": false,
            "createdDirectories": [],
            "path": "a.txt",
            "previousSha256": SHA256,
            "sha256": SHA256,
            "unchanged": true
        }
    }));
    let digest = sha256sum(CONTENT.as_bytes());
    assert_eq!(run.envelope["data"]["sha256"], digest);
    assert_eq!(run.envelope["data"]["previousSha256"], digest);
    assert_untouched(&ws, ino, mtime);
    let after = tree(&ws.root());
    let (before, after): (Vec<_>, Vec<_>) = (before.keys().collect(), after.keys().collect());
    // The lock is stitch's own state; nothing else appeared, no temp file above all.
    let new: Vec<_> = after
        .iter()
        .filter(|p| {
            !before.contains(p) && (!p.starts_with(".stitch") || p.starts_with(".stitch/tmp/"))
        })
        .collect();
    assert!(new.is_empty(), "{new:?}");
}

#[test]
fn a_different_write_still_replaces_the_file() {
    let (ws, _, mtime) = aged();
    let run = ws.stitch(
        "write",
        &json!({"path": "a.txt", "content": "line one\nline 2\n", "overwrite": true}),
    );
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "applied": true,
            "id": STRING,
            "bytes": 16,
            "created": false,
            "createdDirectories": [],
            "path": "a.txt",
            "previousSha256": SHA256,
            "sha256": SHA256
        }
    }));
    let meta = fs::metadata(ws.path("a.txt")).unwrap();
    assert!(meta.modified().unwrap() > mtime);
    assert_eq!(ws.read_string("a.txt"), "line one\nline 2\n");
}

#[test]
fn identical_content_with_a_matching_digest_is_unchanged() {
    let (ws, ino, mtime) = aged();
    let digest = sha256sum(CONTENT.as_bytes());
    let run = ws.run(&[
        "write",
        "a.txt",
        "--content",
        CONTENT,
        "--expected-sha256",
        &digest,
    ]);
    let data = run.ok();
    assert_eq!(data["unchanged"], true);
    assert_eq!(data["applied"], false);
    assert_untouched(&ws, ino, mtime);
}

#[test]
fn identical_content_is_still_refused_without_permission() {
    let (ws, ino, mtime) = aged();
    let run = ws.stitch("write", &json!({"path": "a.txt", "content": CONTENT}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "ALREADY_EXISTS",
        "details": {
            "message": "`a.txt` already exists and overwrite was not set",
            "path": "a.txt",
            "sha256": SHA256
        },
        "_hint": "Read `a.txt` and pass overwrite: true (or its sha256 as expectedSha256), or change it with edit_file."
    }));
    assert_untouched(&ws, ino, mtime);

    let stale = ws.stitch(
        "write",
        &json!({"path": "a.txt", "content": CONTENT, "expectedSha256": sha256sum(b"older\n")}),
    );
    stale.refused("STALE_VERSION");
    assert_untouched(&ws, ino, mtime);
}

#[test]
fn in_a_session_identical_content_of_an_unread_file_is_not_observed() {
    let (ws, ino, mtime) = aged();
    let unread = ws.run(&[
        "--session",
        "s1",
        "write",
        "a.txt",
        "--content",
        CONTENT,
        "--overwrite",
    ]);
    unread.refused("NOT_OBSERVED");
    assert_untouched(&ws, ino, mtime);

    ws.run(&["--session", "s1", "read", "a.txt"]).ok();
    let seen = ws.run(&["--session", "s1", "write", "a.txt", "--content", CONTENT]);
    assert_eq!(seen.ok()["unchanged"], true);
    assert_untouched(&ws, ino, mtime);
    // The session still holds the version, so an edit chains from it.
    let edit = ws.run(&[
        "--session",
        "s1",
        "edit",
        "a.txt",
        "--old",
        "line two",
        "--new",
        "line 2",
    ]);
    edit.ok();
    assert_eq!(ws.read_string("a.txt"), "line one\nline 2\n");
}

#[test]
fn an_identical_dry_run_says_unchanged_too() {
    let (ws, ino, mtime) = aged();
    let run = ws.run(&[
        "write",
        "a.txt",
        "--content",
        CONTENT,
        "--overwrite",
        "--dry-run",
    ]);
    let data = run.ok();
    assert_eq!(
        (&data["applied"], &data["unchanged"]),
        (&json!(false), &json!(true))
    );
    assert_untouched(&ws, ino, mtime);
}
