//! delete_file and move_file: what they return, what they keep, and every guard a
//! mutation has, at both ends of a move.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use serde_json::json;

use crate::support::{sha256sum, TestWorkspace, SHA256, STRING};

#[test]
fn a_delete_removes_the_file_and_the_directory_it_empties() {
    let ws = TestWorkspace::new();
    ws.file("docs/old/notes.md", "old notes\n");
    ws.file("docs/keep.md", "keep\n");
    let run = ws.stitch("delete", &json!({"path": "docs/old/notes.md"}));
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "path": "docs/old/notes.md",
            "previousSha256": sha256sum(b"old notes\n"),
            "applied": true,
            "id": STRING
        }
    }));
    assert!(!ws.exists("docs/old"));
    assert!(ws.exists("docs/keep.md"));
}

#[test]
fn a_delete_refuses_what_it_must_not_remove() {
    let ws = TestWorkspace::new();
    ws.file("src/main.rs", "fn main() {}\n");
    ws.file(".git/config", "[core]\n");
    ws.file("vendor/lib.rs", "// vendored\n");
    ws.dir("src/dir");
    ws.file(
        ".stitch/config.json",
        json!({"readOnly": ["vendor/**"]}).to_string(),
    );
    ws.run(&["delete", "src/mian.rs"]).assert_envelope(&json!({
        "ok": false,
        "error": "NOT_FOUND",
        "details": {
            "message": "`src/mian.rs` does not exist",
            "path": "src/mian.rs",
            "nearNames": ["src/main.rs"],
            "operation": "delete"
        },
        "_hint": "Did you mean `src/main.rs`? Otherwise list the parent directory."
    }));
    ws.run(&["delete", "src/dir"]).assert_envelope(&json!({
        "ok": false,
        "error": "NOT_A_FILE",
        "details": {"message": "`src/dir` is not a regular file", "path": "src/dir"},
        "_hint": "`src/dir` is not a regular file: list it instead."
    }));
    let git = ws.run(&["delete", ".git/config"]);
    assert_eq!(git.envelope["details"]["rule"], "git");
    let read_only = ws.run(&["delete", "vendor/lib.rs"]);
    assert_eq!(read_only.envelope["details"]["rule"], "readOnly");
    let reserved = ws.run(&["delete", ".stitch/config.json"]);
    assert_eq!(reserved.envelope["details"]["rule"], "reserved");
    let stale = ws.run(&[
        "delete",
        "src/main.rs",
        "--expected-sha256",
        &"0".repeat(64),
    ]);
    assert_eq!(stale.envelope["error"], "STALE_VERSION");
    let unseen = ws.run(&["--session", "s", "delete", "src/main.rs"]);
    assert_eq!(unseen.envelope["error"], "NOT_OBSERVED");
    let dry = ws.run(&["delete", "src/main.rs", "--dry-run"]);
    dry.assert_envelope(&json!({
        "ok": true,
        "data": {"path": "src/main.rs", "previousSha256": SHA256, "applied": false}
    }));
    for kept in [".git/config", "vendor/lib.rs", "src/main.rs"] {
        assert!(ws.exists(kept), "{kept}");
    }
    // Read in the session first: then the session may delete it.
    ws.run(&["--session", "s", "read", "src/main.rs"]).ok();
    ws.run(&["--session", "s", "delete", "src/main.rs"]).ok();
    assert!(!ws.exists("src/main.rs"));
}

#[test]
fn a_move_keeps_content_and_mode_and_creates_parents() {
    let ws = TestWorkspace::new();
    ws.file("bin/tool.sh", "#!/bin/sh\necho hi\n");
    fs::set_permissions(ws.path("bin/tool.sh"), fs::Permissions::from_mode(0o755)).unwrap();
    let inode = std::os::unix::fs::MetadataExt::ino(&fs::metadata(ws.path("bin/tool.sh")).unwrap());
    let run = ws.run(&["move", "bin/tool.sh", "scripts/dev/tool.sh"]);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "from": "bin/tool.sh",
            "path": "scripts/dev/tool.sh",
            "sha256": sha256sum(b"#!/bin/sh\necho hi\n"),
            "createdDirectories": ["scripts", "scripts/dev"],
            "applied": true,
            "id": STRING
        }
    }));
    assert_eq!(
        ws.read_string("scripts/dev/tool.sh"),
        "#!/bin/sh\necho hi\n"
    );
    assert_eq!(ws.mode("scripts/dev/tool.sh"), 0o755);
    let moved =
        std::os::unix::fs::MetadataExt::ino(&fs::metadata(ws.path("scripts/dev/tool.sh")).unwrap());
    assert_eq!(moved, inode, "a move renames, it does not copy");
    assert!(!ws.exists("bin"));
}

#[test]
fn a_move_guards_both_ends() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a\n");
    ws.file("b.txt", "b\n");
    ws.file("vendor/v.txt", "v\n");
    ws.file("secret/k.txt", "k\n");
    ws.file(
        ".stitch/config.json",
        json!({"readOnly": ["vendor/**"], "deny": ["secret/**"]}).to_string(),
    );
    ws.run(&["move", "a.txt", "b.txt"]).assert_envelope(&json!({
        "ok": false,
        "error": "ALREADY_EXISTS",
        "details": {
            "message": "`b.txt` already exists and --overwrite was not set",
            "path": "b.txt",
            "sha256": sha256sum(b"b\n")
        },
        "_hint": "Read `b.txt` and pass --overwrite (or its sha256 as --expected-sha256), or change it with stitch edit."
    }));
    let into_read_only = ws.run(&["move", "a.txt", "vendor/a.txt"]);
    assert_eq!(into_read_only.envelope["details"]["rule"], "readOnly");
    let out_of_read_only = ws.run(&["move", "vendor/v.txt", "v.txt"]);
    assert_eq!(out_of_read_only.envelope["details"]["rule"], "readOnly");
    let out_of_denied = ws.run(&["move", "secret/k.txt", "k.txt"]);
    assert_eq!(out_of_denied.envelope["details"]["rule"], "deny");
    let into_state = ws.stitch("move", &json!({"from": "a.txt", "to": ".stitch/a.txt"}));
    assert_eq!(into_state.envelope["details"]["rule"], "reserved");
    let into_git = ws.stitch("move", &json!({"from": "a.txt", "to": ".git/a.txt"}));
    assert_eq!(into_git.envelope["details"]["rule"], "git");
    let outside = ws.run(&["move", "a.txt", "../a.txt"]);
    assert_eq!(outside.envelope["error"], "OUTSIDE_ROOT");
    let same = ws.run(&["move", "a.txt", "./a.txt"]);
    assert_eq!(same.envelope["error"], "INVALID_ARGUMENT");
    let dry = ws.run(&["move", "a.txt", "c.txt", "--dry-run"]);
    assert_eq!(dry.ok()["applied"], false);
    assert!(ws.exists("a.txt") && !ws.exists("c.txt"));
    // Overwriting replaces, and the journal keeps what was replaced.
    ws.run(&["move", "a.txt", "b.txt", "--overwrite"]).ok();
    assert_eq!(ws.read_string("b.txt"), "a\n");
    ws.run(&["undo"]).ok();
    assert_eq!(
        (ws.read_string("a.txt"), ws.read_string("b.txt")),
        ("a\n".into(), "b\n".into())
    );
}

/// A hook in the workspace that records its payload outside the root, then runs `then`;
/// the workspace's config names it, and a person trusts that config.
fn recording_hook(ws: &TestWorkspace, then: &str) -> std::path::PathBuf {
    let out = ws.outside().join("payload.json");
    ws.file(
        "hooks/approve",
        format!("#!/bin/sh\ncat > '{}'\n{then}", out.display()),
    );
    fs::set_permissions(ws.path("hooks/approve"), fs::Permissions::from_mode(0o755)).unwrap();
    ws.file(
        ".stitch/config.json",
        json!({"authorize": ["./hooks/approve"]}).to_string(),
    );
    ws.trust();
    out
}

#[test]
fn the_hook_sees_a_move_delete_and_undo_whole_and_may_refuse_them() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a\n");
    let out = recording_hook(&ws, "exit 0\n");
    ws.run(&["move", "a.txt", "docs/a.txt"]).ok();
    let payload: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&out).unwrap()).unwrap();
    crate::support::assert_json(
        &json!({
            "tool": "move_file",
            "path": "docs/a.txt",
            "from": "a.txt",
            "operation": "move",
            "bytes": 2,
            "overwrite": false,
            "createsDirectories": ["docs"],
            "resultSha256": sha256sum(b"a\n"),
            "dryRun": false
        }),
        &payload,
    );
    ws.run(&["undo"]).ok();
    let payload: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(payload["tool"], "undo_change");
    assert_eq!(
        payload["changes"],
        json!([{"path": "a.txt", "operation": "move", "from": "docs/a.txt", "resultSha256": sha256sum(b"a\n")}])
    );
    // A hook that refuses: nothing is deleted, and no entry is made.
    let out = recording_hook(&ws, "echo 'no deletes today' >&2\nexit 1\n");
    let run = ws.run(&["delete", "a.txt"]);
    assert_eq!(run.envelope["error"], "DENIED");
    assert_eq!(run.envelope["details"]["reason"], "no deletes today");
    assert!(ws.exists("a.txt"));
    let payload: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(payload["operation"], "delete");
    let history = ws.run(&["history"]);
    assert_eq!(history.ok()["changes"].as_array().unwrap().len(), 2);
}

#[test]
fn an_untrusted_hook_refuses_delete_move_and_undo_before_anything() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a\n");
    ws.run(&["write", "b.txt", "--content", "b\n"]).ok();
    ws.file(
        ".stitch/config.json",
        json!({"authorize": ["./nobody"]}).to_string(),
    );
    for args in [
        &["delete", "a.txt"][..],
        &["move", "a.txt", "c.txt"],
        &["undo"],
    ] {
        let run = ws.run(args);
        assert_eq!(
            run.envelope["details"]["rule"], "untrusted-config",
            "{args:?}"
        );
    }
    assert!(ws.exists("a.txt") && ws.exists("b.txt") && !ws.exists("c.txt"));
    // Listing changes only reads.
    ws.run(&["history"]).ok();
}
