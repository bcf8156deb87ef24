//! A version the caller names (`expectedSha256`) is 64 hex digits in any case: every tool
//! that takes one refuses a malformed one with the same envelope, naming the field as the
//! call spelled it, and takes an uppercase one as the same digest.

use serde_json::{json, Value};

use crate::support::{sha256sum, TestWorkspace};

/// The envelope of a malformed `expectedSha256` named `field`, in the JSON dialect.
fn malformed(field: &str, extra: &[(&str, Value)]) -> Value {
    let mut details =
        json!({"message": format!("`{field}` must be 64 hex digits"), "field": field});
    if field == "expectedSha256" {
        details["message"] = json!("expectedSha256 must be 64 hex digits");
    }
    for (key, value) in extra {
        details[*key] = value.clone();
    }
    json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": details,
        "_hint": format!("Fix the `{field}` argument and call again."),
    })
}

#[test]
fn every_tool_refuses_a_malformed_digest_alike() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "hi\n");
    let calls = [
        (
            "write",
            json!({"path": "a.txt", "content": "x", "expectedSha256": "abc"}),
        ),
        (
            "delete",
            json!({"path": "a.txt", "expectedSha256": "g".repeat(64)}),
        ),
        (
            "move",
            json!({"from": "a.txt", "to": "b.txt", "expectedSha256": "ab".repeat(33)}),
        ),
        (
            "edit",
            json!({"path": "a.txt", "oldText": "hi", "newText": "ho", "expectedSha256": ""}),
        ),
    ];
    for (tool, arguments) in calls {
        ws.stitch(tool, &arguments)
            .assert_envelope(&malformed("expectedSha256", &[]));
    }
    let changes = json!({"changes": [
        {"op": "delete", "path": "a.txt"},
        {"op": "write", "path": "a.txt", "content": "x", "expectedSha256": "12"},
    ]});
    ws.stitch("apply", &changes).assert_envelope(&malformed(
        "changes[1].expectedSha256",
        &[("changeIndex", json!(1))],
    ));
    assert_eq!(ws.read_string("a.txt"), "hi\n");
    assert!(!ws.path("b.txt").exists());
}

#[test]
fn by_flags_the_refusal_names_the_flag() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "hi\n");
    let run = ws.run(&[
        "write",
        "a.txt",
        "--content",
        "y",
        "--expected-sha256",
        "12",
    ]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {"message": "--expected-sha256 must be 64 hex digits", "field": "expectedSha256"},
        "_hint": "Fix the `--expected-sha256` argument and call again.",
    }));
    assert_eq!(ws.read_string("a.txt"), "hi\n");
}

#[test]
fn an_uppercase_digest_names_the_same_version() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "v1\n");
    let upper = sha256sum(b"v1\n").to_ascii_uppercase();
    let run = ws.stitch(
        "write",
        &json!({"path": "a.txt", "content": "v2\n", "expectedSha256": upper}),
    );
    assert_eq!(run.ok()["previousSha256"], json!(sha256sum(b"v1\n")));
    assert_eq!(ws.read_string("a.txt"), "v2\n");
}
