//! A server's memory under a bound on its address space: a large message is held once,
//! a line it cannot hold is a fault and the reader goes on, and the bound on a line
//! follows the limits in force at each call — never an abort.

use std::fs;
use std::time::Duration;

use serde_json::json;

use crate::support::{limit_address_space, sha256sum, McpServer, TestWorkspace};

/// A server in `bound` bytes of address space, initialized.
fn bounded(ws: &TestWorkspace, bound: u64) -> McpServer {
    let mut server = McpServer::start_with(ws, &["--no-session"], &[], |cmd| {
        limit_address_space(cmd, bound);
    });
    server.initialize("2025-11-25");
    server
}

/// The server still answers: it did not abort.
#[track_caller]
fn answers(server: &mut McpServer) {
    assert_eq!(server.result("ping", &json!({})), json!({}));
}

/// A 64 MB write within 200 MB: the line, its parsed value and the tool's arguments are
/// not all alive at once (they were: the call aborted with "memory allocation failed").
#[test]
fn a_large_write_is_held_once_within_bounded_memory() {
    let ws = TestWorkspace::new();
    let mut server = bounded(&ws, 200 << 20);
    let content = "a".repeat(64_000_000);
    let result = server.call(
        "write_file",
        &json!({"path": "big.txt", "content": content}),
    );
    assert_eq!(
        result["structuredContent"],
        json!({
            "path": "big.txt",
            "sha256": sha256sum(content.as_bytes()),
            "bytes": 64_000_000,
            "created": true,
            "createdDirectories": [],
            "applied": true,
            "id": result["structuredContent"]["id"].as_str().expect("an id")
        })
    );
    assert_eq!(fs::metadata(ws.path("big.txt")).unwrap().len(), 64_000_000);
    answers(&mut server);
}

/// Limits raised by the user's own config let a line be far larger than the process may
/// hold: such a line is skipped as an internal error naming no file, and the server
/// reads on.
#[test]
fn a_line_the_server_cannot_hold_is_a_fault_and_the_server_reads_on() {
    let ws = TestWorkspace::new();
    ws.user_config(&json!({"limits": {"maxFileBytes": 1u64 << 40}}));
    let mut server = bounded(&ws, 200 << 20);
    let line = json!({
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {"name": "write_file", "arguments": {"path": "big.txt", "content": "a".repeat(300_000_000)}}
    })
    .to_string();
    server.send_line(&line);
    drop(line);
    let fault = server
        .next_message(Duration::from_secs(20))
        .expect("a reply to the line");
    assert_eq!(
        fault,
        json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": {
                "code": -32603,
                "message": "Internal error: the server has no memory to hold this message; send a smaller one"
            }
        })
    );
    answers(&mut server);
    assert!(!ws.path("big.txt").exists());
}

/// The bound on a line is the limits in force at the last call: a config that lowers
/// maxFileBytes mid-connection lowers it, as it lowers every call's limit.
#[test]
fn the_line_bound_follows_the_limits_of_each_call() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "x\n");
    let mut server = bounded(&ws, 1 << 30);
    let content = "b".repeat(200_000);
    let first = server.call(
        "write_file",
        &json!({"path": "one.txt", "content": content}),
    );
    assert_eq!(first["isError"], false, "{first}");
    ws.file(
        ".stitch/config.json",
        r#"{"limits": {"maxFileBytes": 1000}}"#,
    );
    let read = server.call("read_file", &json!({"path": "a.txt"}));
    assert_eq!(read["isError"], false, "{read}");
    // 2 × 1000 for the content, 1 MiB for the rest, 64 KiB of framing.
    let bound = 2 * 1000 + (1 << 20) + (64 << 10);
    let id = server.request(
        "tools/call",
        &json!({"name": "write_file", "arguments": {"path": "two.txt", "content": "c".repeat(bound)}}),
    );
    let fault = server
        .next_message(Duration::from_secs(20))
        .expect("a reply to the line");
    assert_eq!(
        fault,
        json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": {
                "code": -32600,
                "message": format!("Invalid request: the message is longer than {bound} bytes")
            }
        }),
        "request {id}"
    );
    assert!(!ws.path("two.txt").exists());
    answers(&mut server);
}
