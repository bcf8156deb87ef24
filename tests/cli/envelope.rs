//! The envelope itself: one JSON line for every call, usage errors included.

use serde_json::json;

use crate::support::TestWorkspace;

#[test]
fn success_envelope_has_ok_and_data() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\n");
    let run = ws.stitch("read", &json!({"path": "a.txt"}));
    let data = run.ok();
    assert_eq!(data["content"], "one\ntwo\n");
    assert_eq!(data["path"], "a.txt");
}

#[test]
fn unknown_subcommand_is_an_invalid_argument_envelope() {
    let ws = TestWorkspace::new();
    let run = ws.run(&["frobnicate"]);
    run.refused("INVALID_ARGUMENT");
    assert!(run.envelope["details"]["message"]
        .as_str()
        .unwrap()
        .contains("frobnicate"));
}

#[test]
fn malformed_json_is_an_invalid_argument_envelope() {
    let ws = TestWorkspace::new();
    let mut cmd = ws.cmd();
    cmd.args(["read", "--json"]).write_stdin("{not json");
    let run = crate::support::Run::from(cmd);
    let details = run.refused("INVALID_ARGUMENT");
    assert_eq!(details["field"], "stdin");
}
