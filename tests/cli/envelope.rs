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
        "_hint": "Fix the `stdin` argument and call again."
    }));
}
