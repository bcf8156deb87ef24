//! The protocol: the handshake of each revision, discovery, ping, and every protocol
//! fault answered while the server reads on.

use std::time::{Duration, Instant};

use serde_json::json;

use super::{modern_meta, started};
use crate::support::{assert_json, McpServer, TestWorkspace, ANY, STRING};

/// What every revision's handshake and discovery say of the server.
const INSTRUCTIONS: &str = "File tools over one workspace. Paths are relative to the \
    workspace root. Every result is a JSON envelope; a refusal has a code, the facts in \
    details, and a _hint: follow the hint. Every change is journaled under the id its \
    result returns: list_changes lists them, show_change shows one with its diff, and \
    undo_change takes one back unless a file moved on since. Read a file with read_file \
    before you write or edit it; writes and edits chain without re-reading.";

#[test]
fn initialize_answers_each_revision_it_knows_and_its_newest_otherwise() {
    let ws = TestWorkspace::new();
    for (asked, answered) in [
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        ("2024-11-05", "2025-11-25"),
        ("2099-01-01", "2025-11-25"),
    ] {
        let mut server = McpServer::start(&ws, &[], &[]);
        let result = server.initialize(asked);
        assert_json(
            &json!({
                "protocolVersion": answered,
                "capabilities": {"tools": {"listChanged": false}},
                "serverInfo": {"name": "stitch", "title": "stitch", "version": STRING},
                "instructions": INSTRUCTIONS,
            }),
            &result,
        );
        assert_eq!(server.result("ping", &json!({})), json!({}));
    }
}

#[test]
fn the_2026_revision_is_discovered_and_carried_on_each_request() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\n");
    let mut server = McpServer::start(&ws, &["--no-session"], &[]);
    let discovered = server.result("server/discover", &json!({"_meta": modern_meta()}));
    assert_json(
        &json!({
            "resultType": "complete",
            "supportedVersions": ["2026-07-28", "2025-11-25", "2025-06-18"],
            "capabilities": {"tools": {"listChanged": false}},
            "instructions": "File tools over one workspace. Paths are relative to the \
                workspace root. Every result is a JSON envelope; a refusal has a code, the \
                facts in details, and a _hint: follow the hint. Every change is journaled \
                under the id its result returns: list_changes lists them, show_change shows \
                one with its diff, and undo_change takes one back unless a file moved on \
                since.",
            "ttlMs": 3_600_000,
            "cacheScope": "public",
            "_meta": {"io.modelcontextprotocol/serverInfo":
                {"name": "stitch", "title": "stitch", "version": STRING}},
        }),
        &discovered,
    );
    // No handshake: a list and a call, each naming its revision.
    let listed = server.result("tools/list", &json!({"_meta": modern_meta()}));
    assert_eq!(listed["resultType"], "complete");
    assert_eq!(listed["ttlMs"], 3_600_000);
    assert_eq!(listed["cacheScope"], "public");
    assert_eq!(
        listed["tools"].as_array().unwrap().len(),
        stitch::registry::TOOLS.len()
    );
    let read = server.result(
        "tools/call",
        &json!({"_meta": modern_meta(), "name": "read_file", "arguments": {"path": "a.txt"}}),
    );
    assert_eq!(read["resultType"], "complete");
    assert_eq!(read["isError"], false);
    assert_eq!(read["structuredContent"]["content"], "alpha\n");
    assert_eq!(
        read["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "stitch"
    );
    // The modern revision has no ping.
    let error = server.error("ping", &json!({"_meta": modern_meta()}));
    assert_eq!(error["code"], -32601, "{error}");
}

#[test]
fn an_unsupported_revision_on_a_request_names_the_supported_ones() {
    let ws = TestWorkspace::new();
    let mut server = McpServer::start(&ws, &[], &[]);
    let error = server.error(
        "tools/list",
        &json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "1900-01-01"}}),
    );
    assert_json(
        &json!({
            "code": -32022,
            "message": "Unsupported protocol version",
            "data": {"supported": ["2026-07-28", "2025-11-25", "2025-06-18"],
                     "requested": "1900-01-01"},
        }),
        &error,
    );
}

#[test]
fn a_malformed_line_is_a_parse_error_and_the_server_reads_on() {
    let ws = TestWorkspace::new();
    let mut server = started(&ws, &[]);
    server.send_line(r#"{"jsonrpc": "2.0", "id": 9, "method": "ping""#);
    let reply = server
        .next_message(Duration::from_secs(10))
        .expect("a reply");
    assert_json(
        &json!({"jsonrpc": "2.0", "id": null,
                "error": {"code": -32700, "message": "Parse error: the line is not JSON"}}),
        &reply,
    );
    server.send_line("\u{1}not json at all");
    let reply = server
        .next_message(Duration::from_secs(10))
        .expect("a reply");
    assert_eq!(reply["error"]["code"], -32700);
    assert_eq!(server.result("ping", &json!({})), json!({}));
}

#[test]
fn faults_in_a_request_are_json_rpc_errors() {
    let ws = TestWorkspace::new();
    let mut server = started(&ws, &[]);
    let error = server.error("resources/list", &json!({}));
    assert_json(
        &json!({"code": -32601, "message": "Method not found: resources/list",
                "data": {"method": "resources/list"}}),
        &error,
    );
    let error = server.error(
        "tools/call",
        &json!({"name": "frobnicate", "arguments": {}}),
    );
    let tools: Vec<&str> = stitch::registry::TOOLS.iter().map(|t| t.name).collect();
    assert_json(
        &json!({"code": -32602, "message": "Unknown tool: frobnicate",
                "data": {"tools": tools}}),
        &error,
    );
    // A misspelt name is told the one it resembles, as clap does for a subcommand.
    let error = server.error("tools/call", &json!({"name": "edit_flie", "arguments": {}}));
    assert_json(
        &json!({"code": -32602, "message": "Unknown tool: edit_flie; did you mean edit_file?",
                "data": {"tools": tools, "didYouMean": "edit_file"}}),
        &error,
    );
    // The subcommand is not a tool name.
    let error = server.error("tools/call", &json!({"name": "read", "arguments": {}}));
    assert_eq!(error["code"], -32602);
    let error = server.error("tools/call", &json!({"arguments": {}}));
    assert_eq!(error["code"], -32602);
    for (line, id) in [
        (r#"{"id": 3, "method": "ping"}"#, json!(3)),
        (
            r#"[{"jsonrpc": "2.0", "id": 4, "method": "ping"}]"#,
            json!(null),
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 5, "method": "ping", "params": [1]}"#,
            json!(5),
        ),
        (
            r#"{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}"#,
            json!(null),
        ),
    ] {
        server.send_line(line);
        let reply = server
            .next_message(Duration::from_secs(10))
            .expect("a reply");
        assert_json(
            &json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": ANY}}),
            &reply,
        );
    }
    // Notifications, known or not, and replies to nothing get no answer.
    server.notify("notifications/roots/list_changed", &json!({}));
    server.notify("notifications/whatever", &json!({}));
    server.send_line(r#"{"jsonrpc": "2.0", "id": 77, "result": {}}"#);
    assert_eq!(server.result("ping", &json!({})), json!({}));
}

#[test]
fn closing_stdin_ends_the_server_promptly_with_status_0() {
    let ws = TestWorkspace::new();
    let mut server = started(&ws, &[]);
    let start = Instant::now();
    let status = server.close(Duration::from_secs(2));
    let status = status.unwrap_or_else(|| panic!("still running 2 s after stdin closed"));
    assert!(status.success(), "{status:?}");
    assert!(start.elapsed() < Duration::from_secs(2));
    assert_eq!(server.next_message(Duration::from_millis(100)), None);
}

#[test]
fn a_root_that_is_no_directory_stops_the_server_at_start() {
    let ws = TestWorkspace::new();
    let output = std::process::Command::new(assert_cmd::cargo::cargo_bin!("stitch"))
        .env_clear()
        .current_dir(ws.root())
        .args(["--root", "no-such-dir", "mcp"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "stitch mcp: The workspace root does not exist\n"
    );
}

#[test]
fn a_line_past_the_bound_is_refused_unread_and_the_server_reads_on() {
    let ws = TestWorkspace::new();
    // The bound follows the largest arguments a tool takes: two texts of maxFileBytes.
    ws.file(
        ".stitch/config.json",
        r#"{"limits": {"maxFileBytes": 1000}}"#,
    );
    let mut server = started(&ws, &["--no-session"]);
    let huge = format!(
        r#"{{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {{"name": "write_file", "arguments": {{"path": "big.txt", "content": "{}"}}}}}}"#,
        "x".repeat(3 << 20)
    );
    server.send_line(&huge);
    let reply = server
        .next_message(Duration::from_secs(10))
        .expect("a reply");
    assert_json(
        &json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": STRING}}),
        &reply,
    );
    assert!(!ws.exists("big.txt"));
    assert_eq!(server.result("ping", &json!({})), json!({}));
}
