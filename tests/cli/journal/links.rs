//! A symbolic link is deleted and moved as itself, as rm, mv and git take it — never what
//! it leads to — and the journal keeps it as a link, so undo makes it again.

use std::fs;
use std::path::Path;

use serde_json::json;

use crate::support::{sha256sum, TestWorkspace};

/// The version the journal gives a link to `target`.
fn link_version(target: &str) -> String {
    sha256sum(format!("stitch symlink\0{target}").as_bytes())
}

fn link_target(path: &Path) -> Option<String> {
    let meta = fs::symlink_metadata(path).ok()?;
    meta.file_type()
        .is_symlink()
        .then(|| fs::read_link(path).unwrap().to_string_lossy().into_owned())
}

fn with_a_link() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("docs/README.md", "the real one\n");
    ws.symlink("docs/README.md", "README.md");
    ws
}

#[test]
fn delete_removes_the_link_and_undo_makes_it_again() {
    let ws = with_a_link();
    let deleted = ws.stitch("delete", &json!({"path": "README.md"}));
    let id = deleted.ok()["id"].clone();
    deleted.assert_envelope(&json!({
        "ok": true,
        "data": {
            "path": "README.md",
            "previousSha256": link_version("docs/README.md"),
            "applied": true,
            "id": id,
        },
    }));
    assert_eq!(link_target(&ws.path("README.md")), None);
    assert!(!ws.path("README.md").exists());
    assert_eq!(ws.read_string("docs/README.md"), "the real one\n");
    let history = ws.run(&["history"]);
    let file = &history.ok()["changes"][0]["files"][0];
    assert_eq!(file["path"], "README.md");
    assert_eq!(file["before"], link_version("docs/README.md"));
    let undo = ws.stitch("undo", &json!({"id": id}));
    let undo_id = undo.ok()["id"].clone();
    assert_eq!(
        link_target(&ws.path("README.md")).as_deref(),
        Some("docs/README.md")
    );
    assert_eq!(ws.read_string("README.md"), "the real one\n");
    // Undoing the undo removes the link again, and only the link.
    ws.stitch("undo", &json!({"id": undo_id})).ok();
    assert_eq!(link_target(&ws.path("README.md")), None);
    assert_eq!(ws.read_string("docs/README.md"), "the real one\n");
}

#[test]
fn delete_removes_a_dangling_link_and_one_that_leads_outside() {
    let ws = TestWorkspace::new();
    ws.symlink("gone.txt", "dangling");
    let outside = ws.outside_file("secret", "outside\n");
    ws.symlink(&outside, "out");
    ws.run(&["delete", "dangling"]).ok();
    ws.run(&["delete", "out"]).ok();
    assert_eq!(link_target(&ws.path("dangling")), None);
    assert_eq!(link_target(&ws.path("out")), None);
    assert_eq!(fs::read_to_string(&outside).unwrap(), "outside\n");
}

#[test]
fn move_moves_the_link_and_undo_moves_it_back() {
    let ws = with_a_link();
    let moved = ws.stitch("move", &json!({"from": "README.md", "to": "INDEX.md"}));
    assert_eq!(moved.ok()["sha256"], link_version("docs/README.md"));
    assert_eq!(
        link_target(&ws.path("INDEX.md")).as_deref(),
        Some("docs/README.md")
    );
    assert_eq!(link_target(&ws.path("README.md")), None);
    assert_eq!(ws.read_string("docs/README.md"), "the real one\n");
    ws.run(&["undo"]).ok();
    assert_eq!(
        link_target(&ws.path("README.md")).as_deref(),
        Some("docs/README.md")
    );
    assert!(!ws.path("INDEX.md").exists());
    assert_eq!(ws.read_string("docs/README.md"), "the real one\n");
}

#[test]
fn a_link_is_not_moved_where_it_would_lead_outside() {
    let ws = with_a_link();
    ws.dir("deeper");
    let run = ws.stitch(
        "move",
        &json!({"from": "README.md", "to": "../elsewhere/README.md"}),
    );
    run.refused("OUTSIDE_ROOT");
    // Read from deeper/, docs/README.md is deeper/docs/README.md: inside, dangling, allowed.
    ws.stitch(
        "move",
        &json!({"from": "README.md", "to": "deeper/README.md"}),
    )
    .ok();
    // A link climbing out of the root from its new place is refused.
    ws.symlink("../x", "deeper/up");
    let run = ws.stitch("move", &json!({"from": "deeper/up", "to": "up"}));
    run.refused("OUTSIDE_ROOT");
    assert_eq!(link_target(&ws.path("deeper/up")).as_deref(), Some("../x"));
}

#[test]
fn an_undo_finds_a_link_changed_since_and_refuses() {
    let ws = with_a_link();
    ws.run(&["move", "README.md", "INDEX.md"]).ok();
    // Someone points the moved link elsewhere.
    fs::remove_file(ws.path("INDEX.md")).unwrap();
    std::os::unix::fs::symlink("docs/other.md", ws.path("INDEX.md")).unwrap();
    ws.run(&["undo"]).refused("STALE_VERSION");
    assert_eq!(
        link_target(&ws.path("INDEX.md")).as_deref(),
        Some("docs/other.md")
    );
}

#[test]
fn a_patch_never_deletes_or_moves_what_a_link_leads_to() {
    let ws = with_a_link();
    let patches = [
        "*** Begin Patch\n*** Delete File: README.md\n*** End Patch\n",
        "*** Begin Patch\n*** Update File: README.md\n*** Move to: INDEX.md\n@@\n-the real one\n+moved\n*** End Patch\n",
        "diff --git a/README.md b/README.md\ndeleted file mode 100644\n--- a/README.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-the real one\n",
    ];
    for patch in patches {
        let run = ws.stitch("apply", &json!({"patch": patch}));
        let refused = run.refused("NOT_A_FILE");
        assert_eq!(refused["path"], "README.md", "{}", run.stdout);
        assert!(run.hint().contains("delete_file"), "{}", run.hint());
        assert_eq!(
            link_target(&ws.path("README.md")).as_deref(),
            Some("docs/README.md")
        );
        assert_eq!(ws.read_string("docs/README.md"), "the real one\n");
    }
    // The file the link leads to, named by its own path, is changed as any file.
    let patch = "*** Begin Patch\n*** Update File: docs/README.md\n@@\n-the real one\n+changed\n*** End Patch\n";
    ws.stitch("apply", &json!({"patch": patch})).ok();
    // The hint's way: delete_file removes the link itself.
    ws.stitch("delete", &json!({"path": "README.md"})).ok();
    assert_eq!(ws.read_string("docs/README.md"), "changed\n");
}
