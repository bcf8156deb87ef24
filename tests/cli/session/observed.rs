//! Read before write: an unseen file cannot be changed; a read (whole, windowed, through a
//! symlink) authorizes the change, and edits chain without re-reading.

use serde_json::json;

use crate::support::{sha256sum, SHA256, STRING};

use super::{assert_not_observed, session, session_json, workspace_with_text, TEXT};

#[test]
fn an_unseen_edit_is_not_observed() {
    let ws = workspace_with_text();
    let run = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_OBSERVED",
        "details": {
            "message": "This session has not read `a.txt`, so it cannot change it",
            "actualSha256": SHA256,
            "path": "a.txt",
            "session": "s1"
        },
        "_hint": "Read the file, then retry."
    }));
    assert_eq!(
        run.envelope["details"]["actualSha256"],
        sha256sum(TEXT.as_bytes())
    );
    assert_eq!(ws.read_string("a.txt"), TEXT);
}

#[test]
fn an_unseen_write_over_an_existing_file_is_not_observed_even_with_overwrite() {
    let ws = workspace_with_text();
    for request in [
        json!({"path": "a.txt", "content": "clobbered\n"}),
        json!({"path": "a.txt", "content": "clobbered\n", "overwrite": true}),
        json!({"path": "a.txt", "content": "clobbered\n",
               "expectedSha256": sha256sum(TEXT.as_bytes())}),
    ] {
        let run = session_json(&ws, "s1", "write", &request);
        assert_not_observed(&run, "a.txt");
        assert_eq!(ws.read_string("a.txt"), TEXT, "{request}");
    }
    // The flag spelling too.
    let run = session(
        &ws,
        "s1",
        &["write", "a.txt", "--content", "clobbered\n", "--overwrite"],
    );
    assert_not_observed(&run, "a.txt");
    assert_eq!(ws.read_string("a.txt"), TEXT);
}

#[test]
fn not_observed_is_checked_before_matching() {
    let ws = workspace_with_text();
    let run = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "not in the file", "--new", "x"],
    );
    assert_not_observed(&run, "a.txt");
}

// ---------------------------------------------------------------------------------------
// Read, then change

#[test]
fn a_read_authorizes_an_edit() {
    let ws = workspace_with_text();
    let read = session(&ws, "s1", &["read", "a.txt"]);
    read.assert_envelope(&json!({
        "ok": true,
        "data": {
            "bom": false,
            "bytes": 17,
            "content": "alpha\nbeta\ngamma\n",
            "endLine": 3,
            "lineEnding": "lf",
            "path": "a.txt",
            "sha256": SHA256,
            "startLine": 1,
            "totalLines": 3,
            "truncated": false
        }
    }));
    assert_eq!(read.envelope["data"]["sha256"], sha256sum(TEXT.as_bytes()));
    let run = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    );
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "applied": true,
            "id": STRING,
            "baseSha256": SHA256,
            "bytes": 17,
            "diff": "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n",
            "path": "a.txt",
            "replacements": 1,
            "sha256": SHA256
        }
    }));
    assert_eq!(
        run.envelope["data"]["baseSha256"],
        sha256sum(TEXT.as_bytes())
    );
    assert_eq!(ws.read_string("a.txt"), "alpha\nBETA\ngamma\n");
}

#[test]
fn a_read_authorizes_a_write_without_overwrite() {
    let ws = workspace_with_text();
    session(&ws, "s1", &["read", "a.txt"]).ok();
    let run = session(&ws, "s1", &["write", "a.txt", "--content", "new\n"]);
    let data = run.ok();
    assert_eq!(data["created"], false);
    assert_eq!(data["previousSha256"], sha256sum(TEXT.as_bytes()));
    assert_eq!(ws.read_string("a.txt"), "new\n");
}

#[test]
fn edits_chain_without_rereading() {
    let ws = workspace_with_text();
    session(&ws, "s1", &["read", "a.txt"]).ok();
    let first = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "alpha", "--new", "ALPHA"],
    );
    first.ok();
    let second = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    );
    assert_eq!(second.ok()["baseSha256"], first.ok()["sha256"]);
    let third = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "gamma", "--new", "GAMMA"],
    );
    assert_eq!(third.ok()["baseSha256"], second.ok()["sha256"]);
    assert_eq!(ws.read_string("a.txt"), "ALPHA\nBETA\nGAMMA\n");
    // A write records its version too: the session may replace its own write, and
    // edit the result, without reading.
    session(&ws, "s1", &["write", "a.txt", "--content", "one\ntwo\n"]).ok();
    session(&ws, "s1", &["edit", "a.txt", "--old", "two", "--new", "2"]).ok();
    assert_eq!(ws.read_string("a.txt"), "one\n2\n");
}

#[test]
fn a_dry_run_records_nothing() {
    let ws = workspace_with_text();
    session(&ws, "s1", &["read", "a.txt"]).ok();
    let dry = session(
        &ws,
        "s1",
        &[
            "edit",
            "a.txt",
            "--old",
            "beta",
            "--new",
            "BETA",
            "--dry-run",
        ],
    );
    assert_eq!(dry.ok()["applied"], false);
    assert_eq!(ws.read_string("a.txt"), TEXT);
    // The session's record is still the version it read, which is still on disk.
    session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "gamma", "--new", "GAMMA"],
    )
    .ok();
    assert_eq!(ws.read_string("a.txt"), "alpha\nbeta\nGAMMA\n");
}

#[test]
fn a_windowed_read_authorizes_a_full_write() {
    let ws = workspace_with_text();
    let read = session(
        &ws,
        "s1",
        &["read", "a.txt", "--offset", "2", "--limit", "1"],
    );
    let data = read.ok();
    assert_eq!(data["content"], "beta\n");
    assert_eq!(
        data["sha256"],
        sha256sum(TEXT.as_bytes()),
        "the whole file's"
    );
    let run = session(&ws, "s1", &["write", "a.txt", "--content", "rewritten\n"]);
    let data = run.ok();
    assert_eq!(data["created"], false);
    assert_eq!(data["previousSha256"], sha256sum(TEXT.as_bytes()));
    assert_eq!(ws.read_string("a.txt"), "rewritten\n");
}

#[test]
fn a_read_through_a_symlink_authorizes_a_change_of_its_target() {
    let ws = workspace_with_text();
    ws.symlink("a.txt", "link.txt");
    session(&ws, "s1", &["read", "link.txt"]).ok();
    session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    )
    .ok();
    assert_eq!(ws.read_string("a.txt"), "alpha\nBETA\ngamma\n");
}
