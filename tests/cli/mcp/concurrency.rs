//! Calls at once: a cancelled call stops waiting for its lock and changes nothing; two
//! servers and CLI processes editing one file lose no update; a panic in one call is that
//! call's INTERNAL_SERVER_ERROR and the server goes on.

use std::process::Child;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::started;
use crate::support::{hold_every_lock, McpServer, Run, TestWorkspace};

#[test]
fn a_cancelled_call_stops_waiting_for_its_lock_and_changes_nothing() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "before\n");
    // A first mutation makes the lock files, so they can be held from outside.
    ws.run(&["edit", "a.txt", "--old", "before", "--new", "start"])
        .ok();
    let mut server = started(&ws, &["--no-session", "--lock-timeout", "60"]);
    let locks = hold_every_lock(&ws);
    let id = server.request(
        "tools/call",
        &json!({"name": "edit_file",
                "arguments": {"path": "a.txt", "oldText": "start", "newText": "changed"}}),
    );
    // The call says on stderr that it waits.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !server
        .stderr()
        .contains("waiting for another stitch process")
    {
        assert!(
            Instant::now() < deadline,
            "the call never waited: {}",
            server.stderr()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // Its ID names one call: a second request under it is refused while it runs.
    server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                        "params": {"name": "read_file", "arguments": {"path": "a.txt"}}}));
    let duplicate = server.reply(&id);
    assert_eq!(duplicate["error"]["code"], -32600, "{duplicate}");
    server.notify(
        "notifications/cancelled",
        &json!({"requestId": id, "reason": "test"}),
    );
    assert_eq!(server.result("ping", &json!({})), json!({}));
    // Give a call that was not cancelled every chance to take the lock and edit.
    std::thread::sleep(Duration::from_millis(300));
    drop(locks);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(server.result("ping", &json!({})), json!({}));
    assert_eq!(ws.read_string("a.txt"), "start\n");
    // No reply ever came for the cancelled call.
    assert_eq!(server.next_message(Duration::from_millis(200)), None);
    // The server still edits.
    let edited = server.call(
        "edit_file",
        &json!({"path": "a.txt", "oldText": "start", "newText": "after"}),
    );
    assert_eq!(edited["isError"], false, "{edited}");
}

/// How many lines each writer (two servers, the CLI) owns.
const LINES: usize = 8;
/// How many times each line is edited.
const ROUNDS: usize = 3;

fn line(writer: usize, index: usize, round: usize) -> String {
    format!("writer {writer} line {index:02} version {round}")
}

fn file(rounds: [usize; 3]) -> String {
    let mut text = String::new();
    for (writer, round) in rounds.iter().enumerate() {
        for index in 0..LINES {
            text.push_str(&line(writer, index, *round));
            text.push('\n');
        }
    }
    text
}

fn edit_args(writer: usize, index: usize, round: usize) -> Value {
    json!({"path": "shared.txt", "oldText": line(writer, index, round - 1),
           "newText": line(writer, index, round)})
}

#[test]
fn two_servers_and_the_cli_editing_one_file_lose_no_update() {
    let ws = TestWorkspace::new();
    ws.file("shared.txt", file([0, 0, 0]));
    let mut servers = [
        started(&ws, &["--no-session"]),
        started(&ws, &["--no-session"]),
    ];
    for round in 1..=ROUNDS {
        // Every request and every process starts before any reply is read.
        let ids: Vec<Vec<Value>> = servers
            .iter_mut()
            .enumerate()
            .map(|(writer, server)| {
                (0..LINES)
                    .map(|index| {
                        server.request(
                            "tools/call",
                            &json!({"name": "edit_file",
                                    "arguments": edit_args(writer, index, round)}),
                        )
                    })
                    .collect()
            })
            .collect();
        let children: Vec<Child> = (0..LINES)
            .map(|index| {
                ws.spawnable()
                    .args(["edit", "shared.txt", "--old"])
                    .arg(line(2, index, round - 1))
                    .arg("--new")
                    .arg(line(2, index, round))
                    .spawn()
                    .unwrap()
            })
            .collect();
        for (server, ids) in servers.iter_mut().zip(&ids) {
            for id in ids {
                let reply = server.reply(id);
                let result = &reply["result"];
                assert_eq!(result["isError"], false, "{reply}");
                assert_eq!(result["structuredContent"]["replacements"], 1);
            }
        }
        for child in children {
            let run = Run::from_output(child.wait_with_output().unwrap());
            assert_eq!(run.ok()["replacements"], 1);
        }
        assert_eq!(
            ws.read_string("shared.txt"),
            file([round, round, round]),
            "after round {round}"
        );
    }
}

/// Debug builds only: the panic is armed by an environment variable that release builds
/// do not read (`cargo test` builds the binary in debug).
#[test]
fn a_panic_in_one_call_is_its_internal_error_and_the_server_goes_on() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\n");
    let mut server = McpServer::start(
        &ws,
        &["--no-session"],
        &[("STITCH_TEST_PANIC_TOOL", "list_directory")],
    );
    server.initialize("2025-06-18");
    let result = server.call("list_directory", &json!({}));
    crate::support::assert_json(
        &json!({"content": [{"type": "text",
                             "text": r#"{"ok":false,"error":"INTERNAL_SERVER_ERROR","details":{"message":"internal error"}}"#}],
                "structuredContent": {"ok": false, "error": "INTERNAL_SERVER_ERROR",
                                      "details": {"message": "internal error"}},
                "isError": true}),
        &result,
    );
    let read = server.call("read_file", &json!({"path": "a.txt"}));
    assert_eq!(read["structuredContent"]["content"], "alpha\n");
    // Again: the panic hook is not spent by the first panic.
    assert_eq!(server.call("list_directory", &json!({}))["isError"], true);
    // Nothing of the panic reaches stderr without STITCH_DEBUG=1.
    assert_eq!(server.stderr(), "");
    let status = server.close(Duration::from_secs(2)).expect("exits");
    assert!(status.success());
}
