//! Sessions over MCP: each connection is its own session by default (read before
//! write), `--session ID` names one the CLI can share, `--no-session` turns guards off.

use serde_json::json;

use super::started;
use crate::support::{McpServer, TestWorkspace, SHA256, STRING};

const TEXT: &str = "alpha\nbeta\n";

fn edit_beta(server: &mut McpServer) -> serde_json::Value {
    server.call(
        "edit_file",
        &json!({"path": "a.txt", "oldText": "beta", "newText": "gamma"}),
    )
}

#[test]
fn by_default_an_unread_file_is_not_observed_and_fine_after_a_read() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", TEXT);
    let mut server = started(&ws, &[]);
    let refused = edit_beta(&mut server);
    crate::support::assert_json(
        &json!({"ok": false, "error": "NOT_OBSERVED",
                "details": {"message": "This session has not read `a.txt`, so it cannot change it",
                            "path": "a.txt", "session": STRING, "actualSha256": SHA256},
                "_hint": "Read the file, then retry."}),
        &refused["structuredContent"],
    );
    assert_eq!(refused["isError"], true);
    assert!(refused["structuredContent"]["details"]["session"]
        .as_str()
        .unwrap()
        .starts_with("mcp-"));
    assert_eq!(ws.read_string("a.txt"), TEXT);
    let read = server.call("read_file", &json!({"path": "a.txt"}));
    assert_eq!(read["isError"], false);
    let edited = edit_beta(&mut server);
    assert_eq!(edited["isError"], false, "{edited}");
    // Edits chain without re-reading.
    let again = server.call(
        "edit_file",
        &json!({"path": "a.txt", "oldText": "gamma", "newText": "delta"}),
    );
    assert_eq!(again["isError"], false, "{again}");
    assert_eq!(ws.read_string("a.txt"), "alpha\ndelta\n");
    // A change from outside makes the session's version stale.
    ws.file("a.txt", "changed\n");
    let stale = server.call(
        "write_file",
        &json!({"path": "a.txt", "content": "x\n", "overwrite": true}),
    );
    assert_eq!(
        stale["structuredContent"]["error"], "STALE_VERSION",
        "{stale}"
    );
}

#[test]
fn each_connection_is_a_session_of_its_own() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", TEXT);
    let mut first = started(&ws, &[]);
    let mut second = started(&ws, &[]);
    assert_eq!(
        first.call("read_file", &json!({"path": "a.txt"}))["isError"],
        false
    );
    let refused = edit_beta(&mut second);
    assert_eq!(
        refused["structuredContent"]["error"], "NOT_OBSERVED",
        "{refused}"
    );
    assert_eq!(edit_beta(&mut first)["isError"], false);
}

#[test]
fn no_session_turns_the_guards_off() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", TEXT);
    let mut server = started(&ws, &["--no-session"]);
    let edited = edit_beta(&mut server);
    assert_eq!(edited["isError"], false, "{edited}");
    assert_eq!(ws.read_string("a.txt"), "alpha\ngamma\n");
    assert!(!ws.exists(".stitch/sessions"));
}

#[test]
fn a_named_session_is_shared_with_the_command_line() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", TEXT);
    ws.run(&["--session", "agent-7", "read", "a.txt"]).ok();
    let mut server = started(&ws, &["--session", "agent-7"]);
    let edited = edit_beta(&mut server);
    assert_eq!(edited["isError"], false, "{edited}");
    assert_eq!(ws.read_string("a.txt"), "alpha\ngamma\n");
    // And --session with --no-session is a usage error.
    for args in [
        ["--session", "agent-7", "mcp", "--no-session"],
        ["mcp", "--session", "agent-7", "--no-session"],
    ] {
        ws.run(&args).assert_envelope(&json!({
            "ok": false, "error": "INVALID_ARGUMENT",
            "details": {"message": "Invalid invocation: the argument '--session <ID>' cannot be used with '--no-session'"},
            "_hint": "Fix the arguments and call again."}));
    }
    // STITCH_SESSION is overridden by an explicit --no-session.
    let mut server = McpServer::start(&ws, &["--no-session"], &[("STITCH_SESSION", "agent-8")]);
    server.initialize("2025-06-18");
    ws.file("a.txt", TEXT);
    assert_eq!(edit_beta(&mut server)["isError"], false);
}
