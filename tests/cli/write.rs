//! `write_file`: creating with parents, replacing only when asked (overwrite or a
//! matching digest), dry runs, what cannot be written, and what a replacement keeps.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};

use serde_json::json;

use crate::support::{names_in, sha256sum, TestWorkspace};

#[test]
fn creates_a_file_and_its_missing_parents() {
    let ws = TestWorkspace::new();
    ws.dir("a");
    let content = "fresh\ncontent\n";
    let run = ws.stitch(
        "write",
        &json!({"path": "a/b/c/new.txt", "content": content}),
    );
    let data = run.ok();
    assert_eq!(data["path"], "a/b/c/new.txt");
    assert_eq!(data["created"], true);
    assert_eq!(data["createdDirectories"], json!(["a/b", "a/b/c"]));
    assert_eq!(data["applied"], true);
    assert_eq!(data["bytes"], content.len());
    assert_eq!(data["sha256"], sha256sum(content.as_bytes()));
    assert!(data.get("previousSha256").is_none(), "{}", run.stdout);
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
    let details = run.refused("ALREADY_EXISTS");
    assert_eq!(details["path"], "a.txt");
    assert!(run.hint().contains("overwrite"), "{}", run.stdout);
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
    let data = run.ok();
    assert_eq!(data["created"], false);
    assert_eq!(data["previousSha256"], sha256sum(b"original\n"));
    assert_eq!(data["sha256"], sha256sum(b"replaced\n"));
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
    let details = run.refused("STALE_VERSION");
    assert_eq!(details["path"], "a.txt");
    assert_eq!(details["expectedSha256"], seen);
    assert_eq!(
        details["actualSha256"],
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
    let details = run.refused("STALE_VERSION");
    assert_eq!(details["expectedSha256"], seen);
    assert!(details.get("actualSha256").is_none(), "{}", run.stdout);
    assert!(!ws.exists("gone.txt"));
}

#[test]
fn a_dry_run_changes_nothing() {
    let ws = TestWorkspace::new();
    let run = ws.stitch(
        "write",
        &json!({"path": "new/dir/a.txt", "content": "x\n", "dryRun": true}),
    );
    let data = run.ok();
    assert_eq!(data["applied"], false);
    assert_eq!(data["created"], true);
    assert_eq!(data["createdDirectories"], json!(["new", "new/dir"]));
    assert_eq!(data["sha256"], sha256sum(b"x\n"));
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
    let data = replace.ok();
    assert_eq!(data["applied"], false);
    assert_eq!(data["previousSha256"], sha256sum(b"old\n"));
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
    assert_eq!(run.refused("NOT_A_FILE")["path"], "d");
    assert_eq!(ws.read_string("d/inside.txt"), "keep\n");
}

#[test]
fn a_parent_that_is_a_file_is_not_a_directory() {
    let ws = TestWorkspace::new();
    ws.file("f", "plain file\n");
    let run = ws.stitch("write", &json!({"path": "f/x.txt", "content": "x"}));
    run.refused("NOT_A_DIRECTORY");
    assert_eq!(ws.read_string("f"), "plain file\n");

    let deeper = ws.stitch("write", &json!({"path": "f/sub/x.txt", "content": "x"}));
    deeper.refused("NOT_A_DIRECTORY");
}

#[test]
fn a_trailing_slash_is_an_invalid_path_with_a_suggestion() {
    let ws = TestWorkspace::new();
    let run = ws.stitch("write", &json!({"path": "notes/", "content": "x"}));
    let details = run.refused("INVALID_PATH");
    assert_eq!(details["suggestion"], "notes");
    assert!(run.hint().contains("notes"), "{}", run.stdout);
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
