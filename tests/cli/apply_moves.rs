//! apply_patch on files that move or are not text (§12, §11): a binary file deleted by a
//! unified diff or a Codex patch needs only its digest; a file moved and edited in one
//! change is one journal record (`from`), and one undo puts it back at its old path with
//! its old bytes.

use serde_json::json;

use crate::support::{sha256sum, TestWorkspace};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\xff";

#[test]
fn a_binary_file_deleted_by_a_git_diff_goes_and_comes_back() {
    let ws = TestWorkspace::new();
    ws.file("img/logo.png", PNG).file("a.txt", "a\n");
    let diff = "diff --git a/img/logo.png b/img/logo.png\ndeleted file mode 100644\nindex 3f2a1b4..0000000\nBinary files a/img/logo.png and /dev/null differ\ndiff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n";
    let run = ws.run(&["apply", "--patch", diff]);
    let data = run.ok();
    assert_eq!(data["dialect"], "unified");
    assert_eq!(
        data["changes"][0],
        json!({"path": "img/logo.png", "operation": "delete", "baseSha256": sha256sum(PNG), "diff": ""})
    );
    assert!(!ws.exists("img/logo.png"));
    assert!(!ws.exists("img"), "the directory left empty goes");
    assert_eq!(ws.read_string("a.txt"), "b\n");
    ws.run(&["undo"]).ok();
    assert_eq!(ws.read("img/logo.png"), PNG);
    assert_eq!(ws.read_string("a.txt"), "a\n");
}

#[test]
fn a_binary_file_deleted_by_a_codex_patch_goes() {
    let ws = TestWorkspace::new();
    ws.file("logo.png", PNG);
    let run = ws.run(&[
        "apply",
        "--patch",
        "*** Begin Patch\n*** Delete File: logo.png\n*** End Patch\n",
    ]);
    assert_eq!(run.ok()["changes"][0]["baseSha256"], sha256sum(PNG));
    assert!(!ws.exists("logo.png"));
    // Deleted by a changes item too, at the version named.
    ws.file("logo.png", PNG);
    let run = ws.stitch(
        "apply",
        &json!({"changes": [{"op": "delete", "path": "logo.png", "expectedSha256": sha256sum(PNG)}]}),
    );
    assert_eq!(run.ok()["changes"][0]["operation"], "delete");
    assert!(!ws.exists("logo.png"));
}

#[test]
fn a_binary_file_changed_by_a_patch_is_refused() {
    let ws = TestWorkspace::new();
    ws.file("logo.png", PNG);
    let run = ws.run(&[
        "apply",
        "--patch",
        "diff --git a/logo.png b/logo.png\nindex 1..2 100644\nBinary files a/logo.png and b/logo.png differ\n",
    ]);
    let details = run.refused("INVALID_PATCH");
    assert_eq!(details["patchLine"], 3);
    assert_eq!(
        details["expected"],
        "a text patch (binary patches are not applied)"
    );
    let run = ws.run(&[
        "apply",
        "--patch",
        "*** Begin Patch\n*** Update File: logo.png\n@@\n-x\n+y\n*** End Patch\n",
    ]);
    let details = run.refused("NOT_TEXT");
    assert_eq!(
        (&details["path"], &details["changeIndex"]),
        (&json!("logo.png"), &json!(0))
    );
    assert_eq!(ws.read("logo.png"), PNG);
}

/// Asserts that the newest entry records the move of `from` to `to` as one file, and that
/// one undo puts `old` back at `from` and nothing at `to`.
fn one_record_and_undone(ws: &TestWorkspace, from: &str, to: &str, old: &str, new: &str) {
    assert_eq!(ws.read_string(to), new);
    assert!(!ws.exists(from));
    let history = ws.run(&["history", "--limit", "1"]);
    assert_eq!(
        history.ok()["changes"][0]["files"],
        json!([{
            "path": to,
            "from": from,
            "before": null,
            "after": sha256sum(new.as_bytes()),
            // OLD and NEW differ in one line.
            "added": 1,
            "removed": 1
        }])
    );
    let undo = ws.run(&["undo"]);
    let data = undo.ok();
    assert_eq!(data["files"][0]["path"], from);
    assert_eq!(data["files"][0]["from"], to);
    assert_eq!(data["files"][0]["sha256"], sha256sum(old.as_bytes()));
    assert_eq!(ws.read_string(from), old);
    assert!(!ws.exists(to));
}

const OLD: &str = "fn helper() -> u32 {\n    1\n}\n";
const NEW: &str = "fn helper() -> u32 {\n    2\n}\n";

#[test]
fn a_codex_move_with_chunks_is_one_record_and_undo_moves_it_back() {
    use std::os::unix::fs::PermissionsExt;
    let ws = TestWorkspace::new();
    ws.file("src/util.rs", OLD);
    let mode = |rel: &str| {
        std::fs::metadata(ws.path(rel))
            .unwrap()
            .permissions()
            .mode()
            & 0o7777
    };
    std::fs::set_permissions(
        ws.path("src/util.rs"),
        std::fs::Permissions::from_mode(0o750),
    )
    .unwrap();
    let patch = "*** Begin Patch\n*** Update File: src/util.rs\n*** Move to: src/text/util.rs\n@@ fn helper() -> u32 {\n-    1\n+    2\n*** End Patch\n";
    let run = ws.run(&["apply", "--patch", patch]);
    let data = run.ok();
    assert_eq!(data["changes"][0]["operation"], "move");
    assert_eq!(data["changes"][0]["from"], "src/util.rs");
    assert_eq!(
        mode("src/text/util.rs"),
        0o750,
        "a moved file keeps its mode, edited or not"
    );
    one_record_and_undone(&ws, "src/util.rs", "src/text/util.rs", OLD, NEW);
    assert!(
        !ws.exists("src/text"),
        "the directory the undo emptied goes"
    );
    // Undoing the undo redoes the change, from the version the undo kept.
    let history = ws.run(&["history", "--limit", "1"]);
    let undo_id = history.ok()["changes"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    ws.run(&["undo", &undo_id]).ok();
    assert_eq!(ws.read_string("src/text/util.rs"), NEW);
    assert!(!ws.exists("src/util.rs"));
}

#[test]
fn a_unified_rename_with_hunks_is_one_record_and_undo_moves_it_back() {
    let ws = TestWorkspace::new();
    ws.file("a/helper.rs", OLD);
    let diff = "diff --git a/a/helper.rs b/b/helper.rs\nsimilarity index 80%\nrename from a/helper.rs\nrename to b/helper.rs\n--- a/a/helper.rs\n+++ b/b/helper.rs\n@@ -1,3 +1,3 @@\n fn helper() -> u32 {\n-    1\n+    2\n }\n";
    ws.run(&["apply", "--patch", diff]).ok();
    one_record_and_undone(&ws, "a/helper.rs", "b/helper.rs", OLD, NEW);
}

#[test]
fn a_changes_move_then_edit_is_one_record_and_undo_moves_it_back() {
    let ws = TestWorkspace::new();
    ws.file("one.rs", OLD);
    ws.stitch(
        "apply",
        &json!({"changes": [
            {"op": "move", "from": "one.rs", "to": "two.rs"},
            {"op": "edit", "path": "two.rs", "oldText": "    1", "newText": "    2"},
        ]}),
    )
    .ok();
    one_record_and_undone(&ws, "one.rs", "two.rs", OLD, NEW);
}

#[test]
fn a_move_onto_a_file_undoes_to_both_files() {
    let ws = TestWorkspace::new();
    ws.file("one.rs", OLD).file("two.rs", "taken\n");
    let run = ws.stitch(
        "apply",
        &json!({"changes": [{"op": "move", "from": "one.rs", "to": "two.rs"}]}),
    );
    let details = run.refused("ALREADY_EXISTS");
    assert_eq!(details["path"], "two.rs");
    ws.stitch(
        "apply",
        &json!({"changes": [
            {"op": "move", "from": "one.rs", "to": "two.rs", "overwrite": true},
            {"op": "edit", "path": "two.rs", "oldText": "    1", "newText": "    2"},
        ]}),
    )
    .ok();
    assert_eq!(ws.read_string("two.rs"), NEW);
    ws.run(&["undo"]).ok();
    assert_eq!(ws.read_string("one.rs"), OLD);
    assert_eq!(ws.read_string("two.rs"), "taken\n");
}
