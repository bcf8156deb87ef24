//! `okIfApplied` / `--ok-if-applied`: an edit whose `oldText` is absent because its
//! `newText` is already there succeeds with `applied: false` and `alreadyApplied: true`,
//! exit 0, and changes nothing; with `edits`, such items are skipped and named.

use serde_json::json;

use crate::support::{sha256sum, TestWorkspace, SHA256, STRING};

const TEXT: &str = "[package]\nname = \"demo\"\nversion = \"1.0.0\"\nedition = \"2021\"\n";

#[test]
fn the_same_edit_twice_succeeds_the_second_time_and_changes_nothing() {
    let ws = TestWorkspace::new();
    ws.file("Cargo.toml", TEXT);
    let args = [
        "edit",
        "Cargo.toml",
        "--old",
        "version = \"1.0.0\"",
        "--new",
        "version = \"1.1.0\"",
        "--ok-if-applied",
    ];
    let first = ws.run(&args);
    assert_eq!(first.ok()["applied"], true);
    let after = TEXT.replace("1.0.0", "1.1.0");
    assert_eq!(ws.read_string("Cargo.toml"), after);

    let second = ws.run(&args);
    second.assert_envelope(&json!({
        "ok": true,
        "data": {
            "alreadyApplied": true,
            "appliedBy": first.ok()["id"],
            "applied": false,
            // The journal's entry of the first run, whose result the file still is.
            "appliedBy": STRING,
            "baseSha256": SHA256,
            "bytes": 59,
            "diff": "",
            "path": "Cargo.toml",
            "replacements": 0,
            "sha256": SHA256
        }
    }));
    assert_eq!(second.status, 0);
    let digest = sha256sum(after.as_bytes());
    assert_eq!(second.envelope["data"]["baseSha256"], digest);
    assert_eq!(second.envelope["data"]["sha256"], digest);
    assert_eq!(ws.read_string("Cargo.toml"), after);
}

#[test]
fn without_the_flag_the_second_run_is_no_match_with_already_applied() {
    let ws = TestWorkspace::new();
    ws.file("Cargo.toml", TEXT.replace("1.0.0", "1.1.0"));
    let run = ws.stitch(
        "edit",
        &json!({"path": "Cargo.toml", "oldText": "version = \"1.0.0\"",
                "newText": "version = \"1.1.0\""}),
    );
    let details = run.refused("NO_MATCH");
    assert_eq!(details["alreadyApplied"], true, "{}", run.stdout);
}

#[test]
fn an_edit_neither_applicable_nor_applied_is_still_no_match() {
    let ws = TestWorkspace::new();
    ws.file("Cargo.toml", TEXT);
    let run = ws.stitch(
        "edit",
        &json!({"path": "Cargo.toml", "oldText": "version = \"0.9.0\"",
                "newText": "version = \"2.0.0\"", "okIfApplied": true}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NO_MATCH",
        "details": {
            "message": "oldText is not in `Cargo.toml`",
            "candidates": [
                {
                    "difference": "content",
                    "endLine": 3,
                    "similarity": crate::support::NUMBER,
                    "startLine": 3,
                    "text": "version = \"1.0.0\""
                }
            ],
            "path": "Cargo.toml"
        },
        // The caller's change and the file both differ from oldText in the version: a
        // conflict, so no repaired newText is offered.
        "_hint": "Your change could not be carried onto the file's text without doubt: re-read line 3 of `Cargo.toml` and write both oldText and newText again from it."
    }));
    assert_eq!(ws.read_string("Cargo.toml"), TEXT);
}

#[test]
fn with_edits_applied_items_are_skipped_and_the_others_apply() {
    let ws = TestWorkspace::new();
    ws.file("Cargo.toml", TEXT.replace("1.0.0", "1.1.0"));
    let run = ws.stitch(
        "edit",
        &json!({"path": "Cargo.toml", "okIfApplied": true, "edits": [
            {"oldText": "version = \"1.0.0\"", "newText": "version = \"1.1.0\""},
            {"oldText": "edition = \"2021\"", "newText": "edition = \"2024\""},
        ]}),
    );
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "applied": true,
            "id": STRING,
            "baseSha256": SHA256,
            "bytes": 59,
            "diff": "--- a/Cargo.toml\n+++ b/Cargo.toml\n@@ -1,4 +1,4 @@\n [package]\n name = \"demo\"\n version = \"1.1.0\"\n-edition = \"2021\"\n+edition = \"2024\"\n",
            "path": "Cargo.toml",
            "replacements": 1,
            "sha256": SHA256,
            "skippedEdits": [0]
        }
    }));
    assert_eq!(
        ws.read_string("Cargo.toml"),
        TEXT.replace("1.0.0", "1.1.0").replace("2021", "2024")
    );

    let again = ws.stitch(
        "edit",
        &json!({"path": "Cargo.toml", "okIfApplied": true, "edits": [
            {"oldText": "version = \"1.0.0\"", "newText": "version = \"1.1.0\""},
            {"oldText": "edition = \"2021\"", "newText": "edition = \"2024\""},
        ]}),
    );
    let data = again.ok();
    assert_eq!(
        (&data["applied"], &data["alreadyApplied"]),
        (&json!(false), &json!(true))
    );
    assert!(data.get("skippedEdits").is_none(), "{}", again.stdout);
}

#[test]
fn with_edits_one_real_miss_still_fails_them_all() {
    let ws = TestWorkspace::new();
    let text = TEXT.replace("1.0.0", "1.1.0");
    ws.file("Cargo.toml", &text);
    let run = ws.stitch(
        "edit",
        &json!({"path": "Cargo.toml", "okIfApplied": true, "edits": [
            {"oldText": "version = \"1.0.0\"", "newText": "version = \"1.1.0\""},
            {"oldText": "name = \"demo\"", "newText": "name = \"shown\""},
            {"oldText": "no such line at all", "newText": "zzzzzzzzzzzz"},
        ]}),
    );
    let details = run.refused("NO_MATCH");
    assert_eq!(details["editIndex"], 2, "{}", run.stdout);
    assert_eq!(ws.read_string("Cargo.toml"), text);
}
