//! apply_patch's structured forms (§12): a `changes` list of write, edit, delete and move
//! items landing whole or not at all, and OpenAI's Responses API `apply_patch`
//! operations taken as a harness hands them over — inside the list, alone as the
//! arguments, or as an `apply_patch_call` item's `operation`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::support::{envelope_of, sha256sum, McpServer, TestWorkspace, SHA256};

/// The workspace's files, stitch's own state aside.
fn tree(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    crate::support::tree(root)
        .into_iter()
        .filter(|(path, _)| !path.starts_with(".stitch"))
        .collect()
}

fn project(ws: &TestWorkspace) {
    ws.file("src/app.py", "def greet():\n    print(\"hi\")\n")
        .file("src/util.py", "X = 1\nY = 2\n")
        .file("old.txt", "old\n");
}

#[test]
fn a_changes_list_of_every_op_lands_whole() {
    let ws = TestWorkspace::new();
    project(&ws);
    let util = sha256sum(b"X = 1\nY = 2\n");
    let run = ws.stitch(
        "apply",
        &json!({"changes": [
            {"op": "write", "path": "docs/NOTES.md", "content": "first note\n"},
            {"op": "edit", "path": "src/app.py", "oldText": "\"hi\"", "newText": "\"hello\""},
            {"op": "delete", "path": "old.txt"},
            {"op": "move", "from": "src/util.py", "to": "src/lib/util.py", "expectedSha256": util},
        ]}),
    );
    run.assert_envelope(&json!({"ok": true, "data": {
        "dialect": "changes",
        "applied": true,
        "id": crate::support::STRING,
        "changes": [
            {"path": "docs/NOTES.md", "operation": "write", "sha256": SHA256, "bytes": 11,
             "created": true, "createdDirectories": ["docs"],
             "diff": "--- a/docs/NOTES.md\n+++ b/docs/NOTES.md\n@@ -0,0 +1 @@\n+first note\n"},
            {"path": "src/app.py", "operation": "edit", "baseSha256": SHA256, "sha256": SHA256,
             "bytes": 32,
             "diff": "--- a/src/app.py\n+++ b/src/app.py\n@@ -1,2 +1,2 @@\n def greet():\n-    print(\"hi\")\n+    print(\"hello\")\n"},
            {"path": "old.txt", "operation": "delete", "baseSha256": SHA256,
             "diff": "--- a/old.txt\n+++ b/old.txt\n@@ -1 +0,0 @@\n-old\n"},
            {"path": "src/lib/util.py", "operation": "move", "from": "src/util.py",
             "baseSha256": util, "sha256": util, "bytes": 12, "created": true,
             "createdDirectories": ["src/lib"], "diff": ""},
        ]
    }}));
    // Directories show with no bytes.
    let after: BTreeMap<PathBuf, Vec<u8>> = [
        ("docs", ""),
        ("docs/NOTES.md", "first note\n"),
        ("src", ""),
        ("src/app.py", "def greet():\n    print(\"hello\")\n"),
        ("src/lib", ""),
        ("src/lib/util.py", "X = 1\nY = 2\n"),
    ]
    .into_iter()
    .map(|(p, c)| (PathBuf::from(p), c.as_bytes().to_vec()))
    .collect();
    assert_eq!(tree(&ws.root()), after);
}

#[test]
fn a_failing_item_names_its_index_and_changes_no_file() {
    let ws = TestWorkspace::new();
    project(&ws);
    let before = tree(&ws.root());
    let run = ws.stitch(
        "apply",
        &json!({"changes": [
            {"op": "write", "path": "new.txt", "content": "new\n"},
            {"op": "delete", "path": "old.txt"},
            {"op": "edit", "path": "src/util.py", "oldText": "Z = 3", "newText": "Z = 4"},
        ]}),
    );
    let details = run.refused("NO_MATCH");
    assert_eq!(details["changeIndex"], 2, "{}", run.stdout);
    assert_eq!(details["path"], "src/util.py");
    assert!(details["candidates"].is_array(), "edit's own candidates");
    assert_eq!(
        tree(&ws.root()),
        before,
        "no file changed, no temp file left"
    );
    // A stale version of the second item: STALE_VERSION, naming it.
    let run = ws.stitch(
        "apply",
        &json!({"changes": [
            {"op": "write", "path": "new.txt", "content": "new\n"},
            {"op": "delete", "path": "old.txt", "expectedSha256": sha256sum(b"older\n")},
        ]}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "STALE_VERSION",
        "details": {
            "message": "`old.txt` has changed: its sha256 is not the expectedSha256",
            "path": "old.txt",
            "expectedSha256": sha256sum(b"older\n"),
            "actualSha256": sha256sum(b"old\n"),
            "changeIndex": 1
        },
        "_hint": "Re-read the file, then retry."
    }));
    // A write onto an existing file without overwrite, as write_file refuses it.
    let run = ws.stitch(
        "apply",
        &json!({"changes": [{"op": "write", "path": "old.txt", "content": "new\n"}]}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "ALREADY_EXISTS",
        "details": {
            "message": "`old.txt` already exists and overwrite was not set",
            "path": "old.txt",
            "sha256": sha256sum(b"old\n"),
            "operation": "write",
            "overwrite": false,
            "changeIndex": 0
        },
        "_hint": "Read `old.txt` and set overwrite: true (or its sha256 as expectedSha256) in changes[0], or change it with an {op: \"edit\"} item instead."
    }));
    assert_eq!(tree(&ws.root()), before);
    let run = ws.stitch(
        "apply",
        &json!({"changes": [{"op": "write", "path": "old.txt", "content": "new\n", "overwrite": true}]}),
    );
    assert_eq!(run.ok()["changes"][0]["operation"], "edit");
    assert_eq!(ws.read_string("old.txt"), "new\n");
}

#[test]
fn a_move_then_an_edit_of_the_new_path_is_one_change() {
    let ws = TestWorkspace::new();
    project(&ws);
    let run = ws.stitch(
        "apply",
        &json!({"changes": [
            {"op": "move", "from": "src/app.py", "to": "app/main.py"},
            {"op": "edit", "path": "app/main.py", "oldText": "greet", "newText": "welcome"},
        ]}),
    );
    let data = run.ok();
    assert_eq!(data["changes"][0]["operation"], "move");
    assert_eq!(data["changes"][1]["operation"], "edit");
    assert_eq!(
        data["changes"][1]["diff"],
        "--- a/app/main.py\n+++ b/app/main.py\n@@ -1,2 +1,2 @@\n-def greet():\n+def welcome():\n     print(\"hi\")\n"
    );
    assert!(!ws.exists("src/app.py"));
    assert_eq!(
        ws.read_string("app/main.py"),
        "def welcome():\n    print(\"hi\")\n"
    );
    let history = ws.run(&["history", "--limit", "1"]);
    assert_eq!(
        history.ok()["changes"][0]["files"],
        json!([{
            "path": "app/main.py",
            "from": "src/app.py",
            "before": null,
            "after": sha256sum(b"def welcome():\n    print(\"hi\")\n"),
            "added": 1,
            "removed": 1
        }])
    );
}

const UPDATE_BODY: &str = "@@ def greet():\n-    print(\"hi\")\n+    print(\"hello\")\n";

#[test]
fn responses_operations_apply_inside_changes() {
    let ws = TestWorkspace::new();
    project(&ws);
    let run = ws.stitch(
        "apply",
        &json!({"changes": [
            {"type": "create_file", "path": "docs/a.md", "diff": "+# A\n+\n+text\n+\n"},
            {"type": "update_file", "path": "src/app.py", "diff": UPDATE_BODY},
            {"type": "delete_file", "path": "old.txt"},
            {"op": "edit", "path": "src/util.py", "oldText": "Y = 2", "newText": "Y = 3"},
        ]}),
    );
    let data = run.ok();
    assert_eq!(data["dialect"], "changes");
    let operations: Vec<&str> = data["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["operation"].as_str().unwrap())
        .collect();
    assert_eq!(operations, ["write", "edit", "delete", "edit"]);
    assert_eq!(data["changes"][1]["hunks"], json!([{"line": 2}]));
    // create_file's lines are joined as the OpenAI Agents SDK joins them: a final newline
    // is a last, empty `+` line.
    assert_eq!(ws.read_string("docs/a.md"), "# A\n\ntext\n");
    assert_eq!(
        ws.read_string("src/app.py"),
        "def greet():\n    print(\"hello\")\n"
    );
    assert!(!ws.exists("old.txt"));
    assert_eq!(ws.read_string("src/util.py"), "X = 1\nY = 3\n");
}

#[test]
fn a_responses_operation_alone_is_taken_as_it_comes() {
    let ws = TestWorkspace::new();
    project(&ws);
    // As the arguments themselves.
    let run = ws.stitch(
        "apply",
        &json!({"type": "update_file", "path": "src/app.py", "diff": UPDATE_BODY}),
    );
    run.assert_envelope(&json!({"ok": true, "data": {
        "dialect": "changes",
        "applied": true,
        "id": crate::support::STRING,
        "changes": [{
            "path": "src/app.py", "operation": "edit", "baseSha256": SHA256, "sha256": SHA256,
            "bytes": 32, "hunks": [{"line": 2}],
            "diff": "--- a/src/app.py\n+++ b/src/app.py\n@@ -1,2 +1,2 @@\n def greet():\n-    print(\"hi\")\n+    print(\"hello\")\n"
        }]
    }}));
    // As `operation`, and as the whole apply_patch_call item a Responses API reply holds.
    let run = ws.stitch(
        "apply",
        &json!({"operation": {"type": "create_file", "path": "b.txt", "diff": "+one\n+two\n+\n"}}),
    );
    assert_eq!(run.ok()["changes"][0]["operation"], "write");
    assert_eq!(ws.read_string("b.txt"), "one\ntwo\n");
    let run = ws.stitch(
        "apply",
        &json!({
            "type": "apply_patch_call",
            "id": "apc_1",
            "call_id": "call_1",
            "status": "completed",
            "created_by": "model",
            "operation": {"type": "delete_file", "path": "b.txt"}
        }),
    );
    assert_eq!(run.ok()["changes"][0]["operation"], "delete");
    assert!(!ws.exists("b.txt"));
}

#[test]
fn a_responses_diff_that_does_not_parse_names_its_line() {
    let ws = TestWorkspace::new();
    project(&ws);
    let run = ws.stitch(
        "apply",
        &json!({"changes": [
            {"op": "delete", "path": "old.txt"},
            {"type": "update_file", "path": "src/app.py", "diff": "@@\n-    print(\"hi\")\n?oops\n"},
        ]}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_PATCH",
        "details": {
            "message": "The patch does not parse at line 3: expected a chunk line starting with ` ` (context), `-` (removed) or `+` (added), or `@@`",
            "dialect": "codex",
            "patchLine": 3,
            "line": "?oops",
            "expected": "a chunk line starting with ` ` (context), `-` (removed) or `+` (added), or `@@`",
            "field": "changes[1].diff",
            "changeIndex": 1
        },
        "_hint": "Fix line 3 of `changes[1].diff` as details.expected says, and send the call again."
    }));
    let run = ws.stitch(
        "apply",
        &json!({"type": "create_file", "path": "c.txt", "diff": "+one\ntwo\n"}),
    );
    let details = run.refused("INVALID_PATCH");
    assert_eq!(
        (&details["field"], &details["patchLine"]),
        (&json!("diff"), &json!(2))
    );
    assert!(ws.exists("old.txt"));
}

#[test]
fn mistakes_in_the_arguments_are_named_by_field_and_index() {
    let ws = TestWorkspace::new();
    project(&ws);
    let before = tree(&ws.root());
    // A field the op does not take.
    ws.stitch(
        "apply",
        &json!({"changes": [
            {"op": "write", "path": "a.txt", "content": "a\n"},
            {"op": "delete", "path": "old.txt", "content": "x"},
        ]}),
    )
    .assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "A `delete` change has no field `changes[1].content`; its fields are op, path, expectedSha256",
            "field": "changes[1].content",
            "allowed": ["op", "path", "expectedSha256"],
            "changeIndex": 1
        },
        "_hint": "Drop `changes[1].content`: the allowed fields are op, path, expectedSha256."
    }));
    // An unknown op.
    let run = ws.stitch(
        "apply",
        &json!({"changes": [{"op": "rename", "path": "old.txt"}]}),
    );
    let details = run.refused("INVALID_ARGUMENT");
    assert_eq!(details["field"], "changes[0].op");
    assert_eq!(details["changeIndex"], 0);
    assert_eq!(
        details["message"],
        "The field `changes[0].op` is not valid: unknown variant `rename`, expected one of `write`, `edit`, `delete`, `move`"
    );
    // A field no item has.
    let run = ws.stitch(
        "apply",
        &json!({"changes": [{"op": "edit", "path": "src/app.py", "old": "a", "newText": "b"}]}),
    );
    let details = run.refused("INVALID_ARGUMENT");
    assert_eq!(details["field"], "changes[0].old");
    assert_eq!(run.hint(), "Drop `changes[0].old`: the allowed fields are op, path, oldText, newText, replaceAll, expectedReplacements, edits, expectedSha256.");
    // A missing field, and an item with neither op nor type.
    let run = ws.stitch(
        "apply",
        &json!({"changes": [{"op": "write", "path": "a.txt"}]}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "A `write` change needs the field `changes[0].content`",
            "field": "changes[0].content",
            "allowed": ["op", "path", "content", "overwrite", "expectedSha256"],
            "changeIndex": 0
        },
        "_hint": "Fix the `changes[0].content` argument and call again."
    }));
    let run = ws.stitch("apply", &json!({"changes": [{"path": "a.txt"}]}));
    assert_eq!(run.refused("INVALID_ARGUMENT")["field"], "changes[0].op");
    // edit_file's own refusals, named by the item.
    let run = ws.stitch(
        "apply",
        &json!({"changes": [{"op": "edit", "path": "src/app.py", "oldText": "", "newText": "b"}]}),
    );
    let details = run.refused("INVALID_ARGUMENT");
    assert_eq!(
        (&details["field"], &details["changeIndex"]),
        (&json!("changes[0].oldText"), &json!(0))
    );
    // Both forms, or neither.
    ws.stitch("apply", &json!({"patch": "x", "changes": []}))
        .assert_envelope(&json!({
            "ok": false,
            "error": "INVALID_ARGUMENT",
            "details": {
                "message": "apply_patch takes exactly one of `patch`, `changes` and `operation`, but got both `patch` and `changes`",
                "field": "changes",
                "allowed": ["patch", "changes", "operation", "dryRun", "okIfApplied", "allowSyntaxErrors"]
            },
            "_hint": "Fix the `changes` argument and call again."
        }));
    let run = ws.stitch("apply", &json!({"dryRun": true}));
    assert_eq!(
        run.message(),
        "apply_patch needs `patch` (the text of a patch) or `changes` (a list of changes)"
    );
    let run = ws.stitch("apply", &json!({"changes": []}));
    assert_eq!(run.refused("INVALID_ARGUMENT")["field"], "changes");
    let run = ws.stitch("apply", &json!({"call_id": "c", "patch": "x"}));
    assert_eq!(run.refused("INVALID_ARGUMENT")["field"], "call_id");
    assert_eq!(tree(&ws.root()), before, "no refusal changed a file");
}

#[test]
fn a_changes_list_applied_already_is_a_success_with_ok_if_applied() {
    let ws = TestWorkspace::new();
    project(&ws);
    let changes = json!([
        {"op": "edit", "path": "src/app.py", "oldText": "    print(\"hi\")", "newText": "    print(\"hello\")"},
        {"op": "delete", "path": "old.txt"},
        {"op": "write", "path": "n.txt", "content": "n\n"},
    ]);
    let first = ws.stitch("apply", &json!({"changes": changes}));
    let id = &first.ok()["id"];
    let again = ws.stitch("apply", &json!({"changes": changes, "okIfApplied": true}));
    assert_eq!(
        again.ok(),
        &json!({"dialect": "changes", "applied": false, "alreadyApplied": true, "appliedBy": id, "changes": []})
    );
}

#[test]
fn an_mcp_client_hands_a_responses_operation_over_as_the_arguments() {
    let ws = TestWorkspace::new();
    project(&ws);
    let mut server = McpServer::start(&ws, &["--no-session"], &[]);
    server.initialize("2025-06-18");
    let result = server.call(
        "apply_patch",
        &json!({"type": "update_file", "path": "src/app.py", "diff": UPDATE_BODY}),
    );
    let envelope = envelope_of(&result);
    assert_eq!(envelope["data"]["dialect"], "changes", "{envelope}");
    assert_eq!(
        envelope["data"]["changes"][0]["hunks"],
        json!([{"line": 2}])
    );
    let result = server.call(
        "apply_patch",
        &json!({"changes": [{"type": "delete_file", "path": "old.txt"}], "dryRun": null}),
    );
    assert_eq!(envelope_of(&result)["data"]["applied"], true);
    assert_eq!(
        ws.read_string("src/app.py"),
        "def greet():\n    print(\"hello\")\n"
    );
    assert!(!ws.exists("old.txt"));
}
