//! edit_file's insert form: `insertAfter: N` with `newText` and no `oldText` (by flags
//! `--insert-after N --new TEXT`), guarded by the session (the lines around N unchanged
//! since its read), `expectedSha256` or `expectedLine`; journaled like any edit.

use serde_json::json;

use crate::support::{McpServer, TestWorkspace, SHA256, STRING};

/// By flags: the text becomes whole lines after line N, 0 is the top, and the result is
/// edit_file's.
#[test]
fn inserts_whole_lines_after_a_line_by_flags() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\n");
    ws.run(&[
        "edit",
        "a.txt",
        "--insert-after",
        "1",
        "--new",
        "one and a half",
    ])
    .assert_envelope(&json!({"ok": true, "data": {
            "path": "a.txt", "baseSha256": SHA256, "sha256": SHA256, "replacements": 1,
            "bytes": 23, "applied": true, "id": STRING,
            "diff": "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,3 @@\n one\n+one and a half\n two\n"}}));
    ws.run(&["edit", "a.txt", "--insert-after", "0", "--new", "zero\n"])
        .ok();
    assert_eq!(ws.read_string("a.txt"), "zero\none\none and a half\ntwo\n");
    // Journaled: undo takes the insert back.
    ws.run(&["undo"]).ok();
    assert_eq!(ws.read_string("a.txt"), "one\none and a half\ntwo\n");
}

/// By JSON (the text-editor's own field names too), a CRLF file gets CRLF lines; the
/// end of the file is N = totalLines.
#[test]
fn inserts_by_json_in_the_files_line_endings() {
    let ws = TestWorkspace::new();
    ws.file("w.txt", "a\r\nb\r\n");
    let data = ws
        .stitch(
            "edit",
            &json!({"path": "w.txt", "insertAfter": 2, "newText": "c\nd"}),
        )
        .ok()
        .clone();
    assert_eq!(data["lineEndings"], "crlf");
    ws.stitch(
        "edit",
        &json!({"path": "w.txt", "insert_line": 0, "new_str": "top"}),
    )
    .ok();
    assert_eq!(ws.read_string("w.txt"), "top\r\na\r\nb\r\nc\r\nd\r\n");
}

/// expectedLine guards what line N holds; a mismatch is STALE_VERSION with the line as
/// it is, and the hint quotes the read to run; N past the end says how many lines there
/// are.
#[test]
fn expected_line_and_the_end_are_guarded() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\n");
    ws.stitch("edit", &json!({"path": "a.txt", "insertAfter": 2, "expectedLine": "deux", "newText": "x"}))
        .assert_envelope(&json!({"ok": false, "error": "STALE_VERSION",
            "details": {"message": "Line 2 of `a.txt` does not hold expectedLine now",
                        "path": "a.txt", "line": 2, "expectedLine": "deux", "actualLine": "two"},
            "_hint": "Line 2 of `a.txt` now holds \"two\": read the lines around it (`read_file {\"path\": \"a.txt\", \"offset\": 1, \"limit\": 7}`), then call again with the insertAfter and expectedLine of the line you mean."}));
    ws.run(&["edit", "a.txt", "--insert-after", "3", "--new", "x"])
        .assert_envelope(&json!({"ok": false, "error": "INVALID_ARGUMENT",
            "details": {"message": "--insert-after 3 is past the last line of `a.txt`, which has 2 lines",
                        "field": "insertAfter", "path": "a.txt", "totalLines": 2},
            "_hint": "`a.txt` has 2 lines: pass --insert-after from 0 (the top) to 2 (the end)."}));
    ws.stitch(
        "edit",
        &json!({"path": "a.txt", "insertAfter": 2, "expectedLine": "two", "newText": "x"}),
    )
    .ok();
    assert_eq!(ws.read_string("a.txt"), "one\ntwo\nx\n");
    // What only a replacement takes is refused with an insert.
    ws.stitch(
        "edit",
        &json!({"path": "a.txt", "insertAfter": 1, "oldText": "one", "newText": "x"}),
    )
    .assert_envelope(&json!({"ok": false, "error": "INVALID_ARGUMENT",
            "details": {"message": "insertAfter inserts newText at a line; it takes no oldText",
                        "field": "oldText"},
            "_hint": "Fix the `oldText` argument and call again."}));
    ws.stitch("edit", &json!({"path": "a.txt", "insertAfter": 1, "expectedSha256": "0".repeat(64), "newText": "x"}))
        .refused("STALE_VERSION");
}

/// In a session: unread is NOT_OBSERVED; after a read, a formatter's change elsewhere
/// lets the insert land by region (staleRead, foreignChanges); a change next to line N
/// refuses it, naming the lines.
#[test]
fn a_session_guards_the_lines_around_the_insert() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "1\n2\n3\n4\n5\n6\n");
    let session = |args: &[&str]| {
        let mut all = vec!["--session", "s1"];
        all.extend_from_slice(args);
        ws.run(&all)
    };
    session(&["edit", "a.txt", "--insert-after", "1", "--new", "x"]).refused("NOT_OBSERVED");
    session(&["read", "a.txt"]).ok();
    ws.file("a.txt", "1\n2\n3\n4\nfive\n6\n");
    let data = session(&["edit", "a.txt", "--insert-after", "1", "--new", "x"])
        .ok()
        .clone();
    assert_eq!(data["staleRead"], true);
    assert_eq!(
        data["foreignChanges"],
        json!([{"startLine": 5, "endLine": 5}])
    );
    // Line 6 (was 5) is foreign: inserting after line 5 needs lines 5 and 6.
    let details = session(&["edit", "a.txt", "--insert-after", "5", "--new", "y"])
        .refused("STALE_VERSION")
        .clone();
    assert_eq!(
        details["foreignChanges"],
        json!([{"startLine": 6, "endLine": 6}])
    );
    assert_eq!(ws.read_string("a.txt"), "1\nx\n2\n3\n4\nfive\n6\n");
}

/// Over MCP (a session by default): read, then insert.
#[test]
fn inserts_over_mcp() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let mut server = McpServer::start(&ws, &[], &[]);
    server.initialize("2025-06-18");
    let refused = server.call(
        "edit_file",
        &json!({"path": "a.txt", "insertAfter": 1, "newText": "two"}),
    );
    assert_eq!(refused["isError"], true);
    assert_eq!(refused["structuredContent"]["error"], "NOT_OBSERVED");
    server.call("read_file", &json!({"path": "a.txt"}));
    let done = server.call(
        "edit_file",
        &json!({"path": "a.txt", "insertAfter": 1, "newText": "two"}),
    );
    assert_eq!(done["isError"], false, "{done}");
    assert_eq!(done["structuredContent"]["replacements"], 1);
    server.close(std::time::Duration::from_secs(5));
    assert_eq!(ws.read_string("a.txt"), "one\ntwo\n");
}
