//! `tools/list` and `tools/call`: the same schemas as `stitch schema --format mcp`, and
//! each call's envelope as the result — `structuredContent` = `data` on success, the
//! whole envelope (code, facts, hint) with `isError: true` on a refusal.

use serde_json::{json, Value};

use super::started;
use crate::support::{assert_json, envelope_of, McpServer, TestWorkspace, SHA256, STRING};

/// Asserts a successful call: `isError: false`, the envelope `{"ok": true, "data": data}`
/// as the text item and `data` as `structuredContent`, with `data` as `expected` says.
#[track_caller]
fn assert_success(result: &Value, expected: &Value) {
    assert_json(
        &json!({"content": [{"type": "text", "text": STRING}],
                        "structuredContent": expected, "isError": false}),
        result,
    );
    assert_json(&json!({"ok": true, "data": expected}), &envelope_of(result));
    assert_eq!(envelope_of(result)["data"], result["structuredContent"]);
}

/// Asserts a refusal: `isError: true`, the envelope `expected` as the text item and as
/// `structuredContent`.
#[track_caller]
fn assert_refusal(result: &Value, expected: &Value) {
    assert_json(
        &json!({"content": [{"type": "text", "text": STRING}],
                        "structuredContent": expected, "isError": true}),
        result,
    );
    assert_json(expected, &envelope_of(result));
    assert_eq!(envelope_of(result), result["structuredContent"]);
}

#[test]
fn tools_list_is_what_stitch_schema_prints() {
    let ws = TestWorkspace::new();
    let mut server = started(&ws, &[]);
    let listed = server.result("tools/list", &json!({}));
    let printed = ws
        .cmd()
        .args(["schema", "--format", "mcp"])
        .output()
        .unwrap();
    let printed: Value = serde_json::from_slice(&printed.stdout).unwrap();
    assert_eq!(listed, printed);
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "read_file",
            "read_files",
            "write_file",
            "edit_file",
            "list_directory",
            "glob",
            "search_files",
            "apply_patch",
            "delete_file",
            "move_file",
            "list_changes",
            "show_change",
            "undo_change"
        ]
    );
    for tool in listed["tools"].as_array().unwrap() {
        assert!(tool["inputSchema"]["properties"].is_object(), "{tool}");
        let read_only = !matches!(
            tool["name"].as_str(),
            Some(
                "write_file"
                    | "edit_file"
                    | "apply_patch"
                    | "delete_file"
                    | "move_file"
                    | "undo_change"
            )
        );
        assert_eq!(tool["annotations"]["readOnlyHint"], read_only, "{tool}");
        assert_eq!(tool["annotations"]["destructiveHint"], !read_only, "{tool}");
    }
}

#[test]
fn the_journal_tools_are_called_like_the_others() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let mut server = McpServer::start(&ws, &["--no-session"], &[]);
    server.initialize("2025-06-18");
    let moved = server.call("move_file", &json!({"from": "a.txt", "to": "b/a.txt"}));
    assert_eq!(envelope_of(&moved)["data"]["path"], "b/a.txt");
    let listed = server.call("list_changes", &json!({}));
    assert_eq!(
        envelope_of(&listed)["data"]["changes"][0]["tool"],
        "move_file"
    );
    let undone = server.call("undo_change", &json!({}));
    assert_eq!(envelope_of(&undone)["data"]["applied"], true);
    assert_eq!(ws.read_string("a.txt"), "one\n");
    let deleted = server.call("delete_file", &json!({"path": "a.txt"}));
    assert_eq!(envelope_of(&deleted)["data"]["applied"], true);
    assert!(!ws.exists("a.txt"));
}

#[test]
fn read_write_and_edit_return_their_envelopes() {
    let ws = TestWorkspace::new();
    ws.file("src/a.txt", "one\ntwo\n");
    let mut server = started(&ws, &["--no-session"]);
    let read = server.call("read_file", &json!({"path": "src/a.txt"}));
    assert_success(
        &read,
        &json!({"path": "src/a.txt", "content": "one\ntwo\n", "sha256": SHA256, "bytes": 8,
                "totalLines": 2, "startLine": 1, "endLine": 2, "truncated": false,
                "lineEnding": "lf", "bom": false}),
    );
    let write = server.call(
        "write_file",
        &json!({"path": "new/b.txt", "content": "bee\n"}),
    );
    assert_success(
        &write,
        &json!({"path": "new/b.txt", "sha256": SHA256, "bytes": 4, "created": true,
                "createdDirectories": ["new"], "applied": true, "id": STRING}),
    );
    assert_eq!(ws.read_string("new/b.txt"), "bee\n");
    let edit = server.call(
        "edit_file",
        &json!({"path": "src/a.txt", "old_string": "two", "new_string": "deux"}),
    );
    assert_success(
        &edit,
        &json!({"path": "src/a.txt", "baseSha256": SHA256, "sha256": SHA256,
                "replacements": 1, "bytes": 9, "applied": true, "id": STRING, "diff": STRING}),
    );
    assert_eq!(ws.read_string("src/a.txt"), "one\ndeux\n");
    let listed = server.call("list_directory", &json!({"path": "."}));
    assert_eq!(listed["isError"], false);
    assert_eq!(
        listed["structuredContent"]["entries"],
        json!([{"path": "new", "kind": "directory"}, {"path": "src", "kind": "directory"}])
    );
}

#[test]
fn an_ambiguous_edit_shows_the_model_its_code_facts_and_hint() {
    let ws = TestWorkspace::new();
    ws.file("a.rs", "let x = 1;\nlet y = 2;\nlet x = 1;\n");
    let mut server = started(&ws, &["--no-session"]);
    let result = server.call(
        "edit_file",
        &json!({"path": "a.rs", "oldText": "let x = 1;", "newText": "let x = 3;"}),
    );
    assert_refusal(
        &result,
        &json!({"ok": false, "error": "AMBIGUOUS_MATCH",
                "details": {"message": "oldText appears 2 times in `a.rs`, so the edit is ambiguous",
                            "path": "a.rs", "occurrences": 2, "lines": [1, 3]},
                "_hint": "Add surrounding lines to oldText until it matches once, or pass replaceAll: true."}),
    );
    assert_eq!(
        ws.read_string("a.rs"),
        "let x = 1;\nlet y = 2;\nlet x = 1;\n"
    );
}

#[test]
fn refusals_speak_the_json_dialect() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\n");
    let mut server = started(&ws, &["--no-session"]);
    let result = server.call("write_file", &json!({"path": "a.txt", "content": "beta\n"}));
    assert_eq!(result["isError"], true);
    assert_eq!(result["structuredContent"]["error"], "ALREADY_EXISTS");
    let hint = result["structuredContent"]["_hint"].as_str().unwrap();
    assert!(
        hint.contains("overwrite: true") && hint.contains("edit_file"),
        "{hint}"
    );
    assert!(!hint.contains("--"), "no flags in an MCP hint: {hint}");
}

#[test]
fn nothing_a_client_sends_moves_the_root() {
    let ws = TestWorkspace::new();
    let secret = ws.outside_file("secret.txt", "s3cret\n");
    let mut server = McpServerWithRoots::start(&ws);
    // A root among the arguments is an unknown field, refused.
    let result = server.call(
        "read_file",
        &json!({"path": "secret.txt", "root": ws.outside()}),
    );
    assert_eq!(
        result["structuredContent"]["error"], "INVALID_ARGUMENT",
        "{result}"
    );
    // An absolute path outside is outside, whatever roots the client declared.
    let result = server.call("read_file", &json!({"path": secret}));
    assert_eq!(
        result["structuredContent"]["error"], "OUTSIDE_ROOT",
        "{result}"
    );
    let result = server.call("read_file", &json!({"path": "../outside/secret.txt"}));
    assert_eq!(
        result["structuredContent"]["error"], "OUTSIDE_ROOT",
        "{result}"
    );
    assert!(!result.to_string().contains("s3cret"));
}

/// A server whose client declared roots (the outside directory among them).
struct McpServerWithRoots;

impl McpServerWithRoots {
    fn start(ws: &TestWorkspace) -> crate::support::McpServer {
        let mut server = crate::support::McpServer::start(ws, &["--no-session"], &[]);
        server.result(
            "initialize",
            &json!({"protocolVersion": "2025-06-18",
                    "capabilities": {"roots": {"listChanged": true}},
                    "clientInfo": {"name": "stitch-tests", "version": "0"}}),
        );
        server.notify("notifications/initialized", &json!({}));
        server.notify("notifications/roots/list_changed", &json!({}));
        server
    }
}

#[test]
fn arguments_that_are_not_an_object_are_the_tools_refusal() {
    let ws = TestWorkspace::new();
    let mut server = started(&ws, &["--no-session"]);
    let result = server.result(
        "tools/call",
        &json!({"name": "read_file", "arguments": [1]}),
    );
    assert_eq!(result["isError"], true, "{result}");
    assert_eq!(result["structuredContent"]["error"], "INVALID_ARGUMENT");
    // No arguments at all are the tool's defaults: the root is listed.
    let result = server.result("tools/call", &json!({"name": "list_directory"}));
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(result["structuredContent"]["path"], ".");
}
