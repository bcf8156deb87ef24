//! What a long-running server must hold beyond one call: the root is the directory opened
//! at start, a flood of calls never stops the reader, closing stdin never leaves a hook
//! behind, and arguments that are not an object are the tool's own refusal.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::started;
use crate::support::{envelope_of, hold_every_lock, McpServer, TestWorkspace};

#[test]
fn the_root_stays_the_directory_opened_at_start() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "inside\n");
    let other = ws.beside("other");
    fs::write(other.join("a.txt"), "SECRET\n").unwrap();
    let mut server = started(&ws, &["--no-session"]);
    let first = server.call("read_file", &json!({"path": "a.txt"}));
    assert_eq!(first["structuredContent"]["content"], "inside\n");
    // The root's path now leads elsewhere: the server still serves what it opened.
    fs::rename(ws.root(), ws.base().join("moved")).unwrap();
    std::os::unix::fs::symlink(&other, ws.root()).unwrap();
    let second = server.call("read_file", &json!({"path": "a.txt"}));
    assert_eq!(
        second["structuredContent"]["content"], "inside\n",
        "{second}"
    );
    let written = server.call("write_file", &json!({"path": "new.txt", "content": "x"}));
    assert_eq!(written["isError"], false, "{written}");
    assert!(ws.base().join("moved/new.txt").exists());
    assert!(!other.join("new.txt").exists());
    assert_eq!(fs::read_to_string(other.join("a.txt")).unwrap(), "SECRET\n");
}

#[test]
fn calls_past_the_bound_are_busy_and_the_reader_reads_on() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "before\n");
    ws.run(&["edit", "a.txt", "--old", "before", "--new", "start"])
        .ok();
    let mut server = started(&ws, &["--no-session", "--lock-timeout", "60"]);
    let locks = hold_every_lock(&ws);
    let waiting: Vec<Value> = (0..64)
        .map(|_| {
            server.request(
                "tools/call",
                &json!({"name": "edit_file",
                        "arguments": {"path": "a.txt", "oldText": "start", "newText": "x"}}),
            )
        })
        .collect();
    // The 65th is refused at once, as BUSY, and the server still answers a ping.
    let started_at = Instant::now();
    let busy = server.call("read_file", &json!({"path": "a.txt"}));
    assert_eq!(busy["isError"], true, "{busy}");
    assert_eq!(
        envelope_of(&busy),
        json!({"ok": false, "error": "BUSY",
               "details": {"message": "The server is running 64 calls already, the most it runs at once",
                           "retryable": true, "limit": 64},
               "_hint": "The server is running as many calls as it takes at once: retry when one has answered."})
    );
    assert_eq!(server.result("ping", &json!({})), json!({}));
    assert!(started_at.elapsed() < Duration::from_secs(5));
    // Cancelling the 64 waits frees their slots: nothing was edited.
    for id in &waiting {
        server.notify("notifications/cancelled", &json!({"requestId": id}));
    }
    // The reader handles lines in order: once the ping is answered, every cancellation
    // has been heard.
    assert_eq!(server.result("ping", &json!({})), json!({}));
    assert_eq!(
        ws.read_string("a.txt"),
        "start\n",
        "edited while the locks were held"
    );
    drop(locks);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let read = server.call("read_file", &json!({"path": "a.txt"}));
        if read["isError"] == false {
            assert_eq!(read["structuredContent"]["content"], "start\n");
            break;
        }
        assert!(Instant::now() < deadline, "slots never freed: {read}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether a process whose command line holds `needle` is running.
fn running(needle: &str) -> bool {
    fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        fs::read(entry.path().join("cmdline"))
            .is_ok_and(|cmdline| String::from_utf8_lossy(&cmdline).contains(needle))
    })
}

#[test]
fn closing_stdin_leaves_no_authorize_hook_running() {
    let ws = TestWorkspace::new();
    // A token no other process carries: the hook sleeps far past its timeout.
    let token = format!("97.{}", std::process::id());
    ws.file("hooks/approve", format!("#!/bin/sh\nexec sleep {token}\n"));
    fs::set_permissions(ws.path("hooks/approve"), fs::Permissions::from_mode(0o755)).unwrap();
    ws.file(
        ".stitch/config.json",
        json!({"authorize": ["./hooks/approve"], "authorizeTimeoutSecs": 1}).to_string(),
    );
    ws.trust();
    ws.file("a.txt", "before\n");
    let mut server = McpServer::start(&ws, &["--no-session"], &[]);
    server.initialize("2025-11-25");
    server.request(
        "tools/call",
        &json!({"name": "edit_file",
                "arguments": {"path": "a.txt", "oldText": "before", "newText": "after"}}),
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    while !running(&format!("sleep\0{token}")) {
        assert!(Instant::now() < deadline, "the hook never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = server
        .close(Duration::from_secs(10))
        .expect("the server exits");
    assert!(status.success());
    assert!(
        !running(&format!("sleep\0{token}")),
        "the hook outlived the server"
    );
    assert_eq!(ws.read_string("a.txt"), "before\n");
}

#[test]
fn arguments_that_are_not_an_object_are_the_tools_refusal() {
    let ws = TestWorkspace::new();
    let mut server = started(&ws, &[]);
    let result = server.call("read_file", &json!("a.txt"));
    assert_eq!(result["isError"], true, "{result}");
    assert_eq!(
        envelope_of(&result),
        json!({"ok": false, "error": "INVALID_ARGUMENT",
               "details": {"message": "The arguments must be one JSON object, not a string",
                           "field": "arguments"},
               "_hint": "Send the arguments as one JSON object of fields, e.g. {\"path\": \"src/main.rs\"}."})
    );
}
