//! Changes the session did not make: an external change, a deletion or an appearance after
//! the read is `STALE_VERSION` until the file is read again.

use std::fs;

use serde_json::json;

use crate::support::{sha256sum, TestWorkspace, SHA256};

use super::{assert_stale, session, workspace_with_text, TEXT};

#[test]
fn an_external_change_after_the_read_is_stale() {
    let ws = workspace_with_text();
    session(&ws, "s1", &["read", "a.txt"]).ok();
    let external = "alpha\nbeta, changed by someone else\ngamma\n";
    fs::write(ws.path("a.txt"), external).unwrap();

    // The edit needs the line someone else changed (an edit of another line would land
    // by region: session::region).
    let edit = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    );
    edit.assert_envelope(&json!({
        "ok": false,
        "error": "STALE_VERSION",
        "details": {
            "message": "`a.txt` has changed since this session last read it, in lines this edit needs",
            "actualSha256": SHA256,
            "expectedSha256": SHA256,
            "foreignChanges": [{"startLine": 2, "endLine": 2}],
            "path": "a.txt",
            "session": "s1"
        },
        "_hint": "Re-read the file, then retry."
    }));
    assert_eq!(
        edit.envelope["details"]["expectedSha256"],
        sha256sum(TEXT.as_bytes())
    );
    assert_eq!(
        edit.envelope["details"]["actualSha256"],
        sha256sum(external.as_bytes())
    );
    assert_eq!(ws.read_string("a.txt"), external);

    let write = session(
        &ws,
        "s1",
        &["write", "a.txt", "--content", "mine\n", "--overwrite"],
    );
    write.assert_envelope(&json!({
        "ok": false,
        "error": "STALE_VERSION",
        "details": {
            "message": "`a.txt` has changed since this session last read it",
            "actualSha256": SHA256,
            "expectedSha256": SHA256,
            "path": "a.txt",
            "session": "s1"
        },
        "_hint": "Re-read the file, then retry."
    }));
    assert_eq!(
        write.envelope["details"]["expectedSha256"],
        sha256sum(TEXT.as_bytes())
    );
    assert_eq!(
        write.envelope["details"]["actualSha256"],
        sha256sum(external.as_bytes())
    );
    assert_eq!(ws.read_string("a.txt"), external);

    // Re-reading is the remedy.
    session(&ws, "s1", &["read", "a.txt"]).ok();
    session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "gamma", "--new", "GAMMA"],
    )
    .ok();
    assert_eq!(
        ws.read_string("a.txt"),
        "alpha\nbeta, changed by someone else\nGAMMA\n"
    );
}

#[test]
fn staleness_is_checked_before_matching() {
    let ws = workspace_with_text();
    session(&ws, "s1", &["read", "a.txt"]).ok();
    fs::write(ws.path("a.txt"), "changed\n").unwrap();
    let run = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "not in the file", "--new", "x"],
    );
    assert_stale(&run, "a.txt");
    assert_eq!(ws.read_string("a.txt"), "changed\n");
}

// ---------------------------------------------------------------------------------------
// Deletion and absence

#[test]
fn a_deleted_file_is_stale_then_recorded_absent_then_recreated() {
    let ws = workspace_with_text();
    session(&ws, "s1", &["read", "a.txt"]).ok();
    fs::remove_file(ws.path("a.txt")).unwrap();

    // The session saw it present: its disappearance is a stale version.
    let edit = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    );
    let details = assert_stale(&edit, "a.txt");
    assert_eq!(details["expectedSha256"], sha256sum(TEXT.as_bytes()));
    assert!(details.get("actualSha256").is_none(), "{}", edit.stdout);
    assert!(!ws.exists("a.txt"));
    let write = session(&ws, "s1", &["write", "a.txt", "--content", "back\n"]);
    assert_stale(&write, "a.txt");
    assert!(!ws.exists("a.txt"));

    // Re-reading finds it missing and records the absence.
    let reread = session(&ws, "s1", &["read", "a.txt"]);
    assert_eq!(reread.refused("NOT_FOUND")["path"], "a.txt");

    // An edit of a file recorded absent is NOT_FOUND while it stays absent.
    for _ in 0..2 {
        let edit = session(
            &ws,
            "s1",
            &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
        );
        assert_eq!(
            edit.refused("NOT_FOUND")["path"],
            "a.txt",
            "{}",
            edit.stdout
        );
        assert!(!ws.exists("a.txt"));
    }

    // A write may recreate it, without overwrite, and edits chain from there.
    let write = session(&ws, "s1", &["write", "a.txt", "--content", "back\n"]);
    let data = write.ok();
    assert_eq!(data["created"], true);
    assert_eq!(data["sha256"], sha256sum(b"back\n"));
    assert_eq!(ws.read_string("a.txt"), "back\n");
    session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "back", "--new", "BACK"],
    )
    .ok();
    assert_eq!(ws.read_string("a.txt"), "BACK\n");
}

#[test]
fn a_file_recorded_absent_that_appears_is_stale_until_read() {
    let ws = TestWorkspace::new();
    let missing = session(&ws, "s1", &["read", "later.txt"]);
    missing.refused("NOT_FOUND");

    let external = "made by someone else\n";
    fs::write(ws.path("later.txt"), external).unwrap();

    for _ in 0..2 {
        let write = session(
            &ws,
            "s1",
            &["write", "later.txt", "--content", "mine\n", "--overwrite"],
        );
        let details = assert_stale(&write, "later.txt");
        assert_eq!(details["actualSha256"], sha256sum(external.as_bytes()));
        assert_eq!(ws.read_string("later.txt"), external);

        let edit = session(
            &ws,
            "s1",
            &["edit", "later.txt", "--old", "someone", "--new", "me"],
        );
        let details = assert_stale(&edit, "later.txt");
        assert_eq!(details["actualSha256"], sha256sum(external.as_bytes()));
        assert_eq!(ws.read_string("later.txt"), external);
    }

    session(&ws, "s1", &["read", "later.txt"]).ok();
    session(
        &ws,
        "s1",
        &["edit", "later.txt", "--old", "someone", "--new", "me"],
    )
    .ok();
    assert_eq!(ws.read_string("later.txt"), "made by me else\n");
}

#[test]
fn a_write_of_a_never_seen_absent_file_creates_it() {
    let ws = TestWorkspace::new();
    let run = session(
        &ws,
        "s1",
        &["write", "new/dir/f.txt", "--content", "fresh\n"],
    );
    let data = run.ok();
    assert_eq!(data["created"], true);
    assert_eq!(data["createdDirectories"], json!(["new", "new/dir"]));
    assert_eq!(ws.read_string("new/dir/f.txt"), "fresh\n");
    // What it wrote, it has seen.
    session(
        &ws,
        "s1",
        &["edit", "new/dir/f.txt", "--old", "fresh", "--new", "FRESH"],
    )
    .ok();
    assert_eq!(ws.read_string("new/dir/f.txt"), "FRESH\n");
}

#[test]
fn an_edit_of_a_never_seen_absent_file_is_not_found() {
    let ws = TestWorkspace::new();
    let run = session(&ws, "s1", &["edit", "nope.txt", "--old", "a", "--new", "b"]);
    assert_eq!(run.refused("NOT_FOUND")["path"], "nope.txt");
    assert!(!ws.exists("nope.txt"));
}
