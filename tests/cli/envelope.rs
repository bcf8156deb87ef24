//! The envelope itself: one JSON line for every call, usage errors included.

use serde_json::json;

use crate::support::{TestWorkspace, SHA256};

#[test]
fn success_envelope_has_ok_and_data() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\n");
    let run = ws.stitch("read", &json!({"path": "a.txt"}));
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "bom": false,
            "bytes": 8,
            "content": "one\ntwo\n",
            "endLine": 2,
            "lineEnding": "lf",
            "path": "a.txt",
            "sha256": SHA256,
            "startLine": 1,
            "totalLines": 2,
            "truncated": false
        }
    }));
}

#[test]
fn unknown_subcommand_is_an_invalid_argument_envelope() {
    let ws = TestWorkspace::new();
    let run = ws.run(&["frobnicate"]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {"message": "Invalid invocation: unrecognized subcommand 'frobnicate'"},
        "_hint": "Fix the arguments and call again."
    }));
}

#[test]
fn malformed_json_is_an_invalid_argument_envelope() {
    let ws = TestWorkspace::new();
    let mut cmd = ws.cmd();
    cmd.args(["read", "--json"]).write_stdin("{not json");
    let run = crate::support::Run::from(cmd);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "The JSON arguments on stdin do not parse: key must be a string at line 1 column 2",
            "column": 2,
            "field": "stdin",
            "line": 1
        },
        "_hint": "Send exactly one JSON object of arguments on stdin, or pass them as flags."
    }));
}

/// The keys of the top-level object of `stdout` (and of `details`), in the order they
/// were printed.
fn printed_order(stdout: &str, object: &str) -> Vec<String> {
    let text = match object {
        "details" => &stdout[stdout.find("\"details\":{").expect("details") + 11..],
        _ => &stdout[1..],
    };
    let mut keys = Vec::new();
    let (mut depth, mut rest) = (0usize, text);
    while let Some(c) = rest.chars().next() {
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' if depth == 0 => break,
            '}' | ']' => depth -= 1,
            '"' => {
                let end = rest[1..].find('"').expect("closing quote") + 1;
                if depth == 0 && rest[end + 1..].starts_with(':') {
                    keys.push(rest[1..end].to_owned());
                }
                rest = &rest[end + 1..];
                continue;
            }
            _ => {}
        }
        rest = &rest[c.len_utf8()..];
    }
    keys
}

#[test]
fn keys_come_in_the_contracts_order_verdict_first() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let ok = ws.run(&["read", "a.txt"]);
    assert_eq!(
        printed_order(&ok.stdout, "top"),
        ["ok", "data"],
        "{}",
        ok.stdout
    );
    assert!(
        ok.stdout
            .starts_with(r#"{"ok":true,"data":{"path":"a.txt","content":"one\n","#),
        "a result's fields come in its own order: {}",
        ok.stdout
    );
    let refused = ws.run(&["read", "b.txt"]);
    assert_eq!(
        printed_order(&refused.stdout, "top"),
        ["ok", "error", "details", "_hint"],
        "{}",
        refused.stdout
    );
    assert_eq!(
        printed_order(&refused.stdout, "details"),
        ["message", "path", "nearNames"],
        "{}",
        refused.stdout
    );
    let usage = ws.run(&["nonsense"]);
    assert_eq!(
        printed_order(&usage.stdout, "top")[..3],
        ["ok", "error", "details"],
        "{}",
        usage.stdout
    );
}
