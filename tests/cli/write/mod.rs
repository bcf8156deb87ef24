//! `write_file`: creating with parents, replacing only when asked (overwrite or a
//! matching digest), dry runs, what cannot be written, and what a replacement keeps.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};

use serde_json::json;

use crate::support::{names_in, sha256sum, TestWorkspace, SHA256, STRING};

#[test]
fn creates_a_file_and_its_missing_parents() {
    let ws = TestWorkspace::new();
    ws.dir("a");
    let content = "fresh\ncontent\n";
    let run = ws.stitch(
        "write",
        &json!({"path": "a/b/c/new.txt", "content": content}),
    );
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "applied": true,
            "id": STRING,
            "bytes": 14,
            "created": true,
            "createdDirectories": ["a/b", "a/b/c"],
            "path": "a/b/c/new.txt",
            "sha256": SHA256
        }
    }));
    assert_eq!(
        run.envelope["data"]["sha256"],
        sha256sum(content.as_bytes())
    );
    assert_eq!(ws.read_string("a/b/c/new.txt"), content);
}

#[test]
fn a_file_at_the_root_creates_no_directories() {
    let ws = TestWorkspace::new();
    let run = ws.run(&["write", "top.txt", "--content", "x"]);
    let data = run.ok();
    assert_eq!(data["createdDirectories"], json!([]));
    assert_eq!(ws.read_string("top.txt"), "x");
}

#[test]
fn an_existing_file_is_not_replaced_without_permission() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "original\n");
    let run = ws.stitch("write", &json!({"path": "a.txt", "content": "clobbered\n"}));
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
    assert_eq!(ws.read_string("a.txt"), "original\n");
}

#[test]
fn overwrite_replaces_and_reports_the_previous_digest() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "original\n");
    let run = ws.stitch(
        "write",
        &json!({"path": "a.txt", "content": "replaced\n", "overwrite": true}),
    );
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "applied": true,
            "id": STRING,
            "bytes": 9,
            "created": false,
            "createdDirectories": [],
            "path": "a.txt",
            "previousSha256": SHA256,
            "sha256": SHA256
        }
    }));
    assert_eq!(
        run.envelope["data"]["previousSha256"],
        sha256sum(b"original\n")
    );
    assert_eq!(run.envelope["data"]["sha256"], sha256sum(b"replaced\n"));
    assert_eq!(ws.read_string("a.txt"), "replaced\n");
}

#[test]
fn a_matching_expected_sha256_replaces() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "v1\n");
    let run = ws.stitch(
        "write",
        &json!({"path": "a.txt", "content": "v2\n", "expectedSha256": sha256sum(b"v1\n")}),
    );
    let data = run.ok();
    assert_eq!(data["previousSha256"], sha256sum(b"v1\n"));
    assert_eq!(ws.read_string("a.txt"), "v2\n");
}

#[test]
fn a_mismatched_expected_sha256_is_stale() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "v1 changed by someone else\n");
    let seen = sha256sum(b"v1\n");
    let run = ws.stitch(
        "write",
        &json!({"path": "a.txt", "content": "v2\n", "expectedSha256": seen}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "STALE_VERSION",
        "details": {
            "message": "`a.txt` has changed: its sha256 is not the expectedSha256",
            "actualSha256": SHA256,
            "expectedSha256": SHA256,
            "path": "a.txt"
        },
        "_hint": "Re-read the file, then retry."
    }));
    assert_eq!(run.envelope["details"]["expectedSha256"], seen);
    assert_eq!(
        run.envelope["details"]["actualSha256"],
        sha256sum(b"v1 changed by someone else\n")
    );
    assert_eq!(ws.read_string("a.txt"), "v1 changed by someone else\n");
}

#[test]
fn expected_sha256_on_a_missing_file_is_stale() {
    let ws = TestWorkspace::new();
    let seen = sha256sum(b"v1\n");
    let run = ws.stitch(
        "write",
        &json!({"path": "gone.txt", "content": "v2\n", "expectedSha256": seen}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "STALE_VERSION",
        "details": {
            "message": "`gone.txt` does not exist, so it cannot have the expectedSha256",
            "expectedSha256": SHA256,
            "path": "gone.txt"
        },
        "_hint": "Re-read the file, then retry."
    }));
    assert_eq!(run.envelope["details"]["expectedSha256"], seen);
    assert!(!ws.exists("gone.txt"));
}

#[test]
fn a_dry_run_changes_nothing() {
    let ws = TestWorkspace::new();
    let run = ws.stitch(
        "write",
        &json!({"path": "new/dir/a.txt", "content": "x\n", "dryRun": true}),
    );
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "applied": false,
            "bytes": 2,
            "created": true,
            "createdDirectories": ["new", "new/dir"],
            "path": "new/dir/a.txt",
            "sha256": SHA256
        }
    }));
    assert_eq!(run.envelope["data"]["sha256"], sha256sum(b"x\n"));
    assert!(!ws.exists("new"), "no directory created on a dry run");

    ws.file("b.txt", "old\n");
    let replace = ws.run(&[
        "write",
        "b.txt",
        "--content",
        "new\n",
        "--overwrite",
        "--dry-run",
    ]);
    replace.assert_envelope(&json!({
        "ok": true,
        "data": {
            "applied": false,
            "bytes": 4,
            "created": false,
            "createdDirectories": [],
            "path": "b.txt",
            "previousSha256": SHA256,
            "sha256": SHA256
        }
    }));
    assert_eq!(
        replace.envelope["data"]["previousSha256"],
        sha256sum(b"old\n")
    );
    assert_eq!(ws.read_string("b.txt"), "old\n");
}

#[test]
fn a_directory_is_not_a_file() {
    let ws = TestWorkspace::new();
    ws.file("d/inside.txt", "keep\n");
    let run = ws.stitch(
        "write",
        &json!({"path": "d", "content": "x", "overwrite": true}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_A_FILE",
        "details": {"message": "`d` is not a regular file", "path": "d"},
        "_hint": "`d` is not a regular file: list it instead."
    }));
    assert_eq!(ws.read_string("d/inside.txt"), "keep\n");
}

#[test]
fn a_parent_that_is_a_file_is_not_a_directory() {
    let ws = TestWorkspace::new();
    ws.file("f", "plain file\n");
    let run = ws.stitch("write", &json!({"path": "f/x.txt", "content": "x"}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_A_DIRECTORY",
        "details": {
            "message": "`f` is not a directory, so `f/x.txt` cannot lie below it",
            "notADirectory": "f",
            "path": "f/x.txt"
        },
        "_hint": "`f` is a file: pick a path whose parent components are directories."
    }));
    assert_eq!(ws.read_string("f"), "plain file\n");

    let deeper = ws.stitch("write", &json!({"path": "f/sub/x.txt", "content": "x"}));
    deeper.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_A_DIRECTORY",
        "details": {
            "message": "`f` is not a directory, so `f/sub/x.txt` cannot lie below it",
            "notADirectory": "f",
            "path": "f/sub/x.txt"
        },
        "_hint": "`f` is a file: pick a path whose parent components are directories."
    }));
}

#[test]
fn a_trailing_slash_is_an_invalid_path_with_a_suggestion() {
    let ws = TestWorkspace::new();
    let run = ws.stitch("write", &json!({"path": "notes/", "content": "x"}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_PATH",
        "details": {
            "message": "The file path `notes/` ends with `/`",
            "path": "notes/",
            "suggestion": "notes"
        },
        "_hint": "Use the path `notes` instead."
    }));
    assert!(!ws.exists("notes"));
}

#[test]
fn a_replacement_keeps_the_mode() {
    let ws = TestWorkspace::new();
    ws.file("run.sh", "#!/bin/sh\necho one\n");
    fs::set_permissions(ws.path("run.sh"), fs::Permissions::from_mode(0o751)).unwrap();
    let run = ws.stitch(
        "write",
        &json!({"path": "run.sh", "content": "#!/bin/sh\necho two\n", "overwrite": true}),
    );
    run.ok();
    assert_eq!(ws.read_string("run.sh"), "#!/bin/sh\necho two\n");
    assert_eq!(ws.mode("run.sh"), 0o751);
}

#[test]
fn writing_through_an_inside_symlink_replaces_the_target_and_keeps_the_link() {
    let ws = TestWorkspace::new();
    ws.file("real/target.txt", "old\n")
        .symlink("real/target.txt", "link.txt");
    let run = ws.stitch(
        "write",
        &json!({"path": "link.txt", "content": "new\n", "overwrite": true}),
    );
    run.ok();
    assert_eq!(ws.read_string("real/target.txt"), "new\n");
    let link = ws.path("link.txt");
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert_eq!(
        fs::read_link(&link).unwrap(),
        std::path::Path::new("real/target.txt")
    );
    assert_eq!(names_in(&ws.path("real")), ["target.txt"]);
}

#[test]
fn a_hardlinked_file_is_replaced_not_written_in_place() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "shared old\n");
    fs::hard_link(ws.path("a.txt"), ws.path("b.txt")).unwrap();
    let run = ws.stitch(
        "write",
        &json!({"path": "a.txt", "content": "a's new\n", "overwrite": true}),
    );
    run.ok();
    assert_eq!(ws.read_string("a.txt"), "a's new\n");
    assert_eq!(ws.read_string("b.txt"), "shared old\n");
    assert_ne!(
        fs::metadata(ws.path("a.txt")).unwrap().ino(),
        fs::metadata(ws.path("b.txt")).unwrap().ino()
    );
}

#[test]
fn from_a_file_writes_its_bytes_exactly() {
    let ws = TestWorkspace::new();
    let content = "line one\r\n\tline two\r\nno final newline ✓";
    let source = ws.outside_file("source.txt", content);
    let run = ws.run(&["write", "copy.txt", "--from", source.to_str().unwrap()]);
    let data = run.ok();
    assert_eq!(data["bytes"], content.len());
    assert_eq!(ws.read("copy.txt"), content.as_bytes());
}

#[test]
fn from_stdin_writes_its_bytes_exactly() {
    let ws = TestWorkspace::new();
    let content = "from stdin\n\nwith a blank line\n";
    let run = ws.run_with_stdin(&["write", "piped.txt", "--from", "-"], content);
    run.ok();
    assert_eq!(ws.read_string("piped.txt"), content);
}

#[test]
fn content_is_required() {
    let ws = TestWorkspace::new();
    let run = ws.stitch("write", &json!({"path": "a.txt"}));
    assert_eq!(run.refused("INVALID_ARGUMENT")["field"], "content");
    assert!(!ws.exists("a.txt"));
}

#[test]
fn a_malformed_expected_sha256_is_invalid() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "v1\n");
    let run = ws.stitch(
        "write",
        &json!({"path": "a.txt", "content": "v2\n", "expectedSha256": "abc"}),
    );
    assert_eq!(run.refused("INVALID_ARGUMENT")["field"], "expectedSha256");
    assert_eq!(ws.read_string("a.txt"), "v1\n");
}

// Content equal to the file's: the file is left alone.
mod unchanged;
// A malformed expectedSha256, refused alike by every tool that takes one.
mod expected_sha256;
