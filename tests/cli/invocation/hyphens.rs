//! A value that begins with `-` is a value, for every option that takes text and for the
//! query and the pattern; a real flag after such a value is still a flag; and clap's tip
//! to put such a value after `--` (where it would be a positional argument instead)
//! never reaches the caller.

use serde_json::json;

use crate::support::{TestWorkspace, SHA256, STRING};

#[test]
fn write_content_that_begins_with_a_dash() {
    let ws = TestWorkspace::new();
    let run = ws.run(&["write", "notes/todo.md", "--content", "- ship it"]);
    run.assert_envelope(&json!({"ok": true, "data": {
        "path": "notes/todo.md", "sha256": SHA256, "bytes": 9, "created": true,
        "createdDirectories": ["notes"], "applied": true, "id": STRING
    }}));
    assert_eq!(ws.read_string("notes/todo.md"), "- ship it");
    // A flag after the value is a flag: --overwrite and --dry-run apply.
    let run = ws.run(&[
        "write",
        "notes/todo.md",
        "--content",
        "--all done",
        "--overwrite",
        "--dry-run",
    ]);
    assert_eq!(run.ok()["applied"], false);
    assert_eq!(run.ok()["bytes"], 10);
    assert_eq!(ws.read_string("notes/todo.md"), "- ship it");
}

#[test]
fn edit_old_and_new_text_that_begin_with_dashes() {
    let ws = TestWorkspace::new();
    ws.file("f", "a -x b\n");
    let run = ws.run(&["edit", "f", "--old", "-x", "--new", "--y", "--dry-run"]);
    assert_eq!(run.ok()["applied"], false);
    let run = ws.run(&["edit", "f", "--old", "-x", "--new", "--y"]);
    assert_eq!(run.ok()["replacements"], 1);
    assert_eq!(ws.read_string("f"), "a --y b\n");
    // A digest that begins with `-` is a (wrong) digest, refused by the tool, not by clap.
    let run = ws.run(&[
        "edit",
        "f",
        "--old",
        "--y",
        "--new",
        "-z",
        "--expected-sha256",
        "-abc",
    ]);
    assert_eq!(run.refused("INVALID_ARGUMENT")["field"], "expectedSha256");
}

#[test]
fn search_a_query_that_begins_with_a_dash() {
    let ws = TestWorkspace::new();
    ws.file("src/a.rs", "fn a() -> bool {\n    true\n}\n")
        .file("src/-b.rs", "fn b() -> bool { false }\n")
        .file("c.txt", "-> bool\n");
    let run = ws.run(&["search", "-> bool"]);
    run.assert_envelope(&json!({"ok": true, "data": {
        "matches": [
            {"path": "c.txt", "line": 1, "text": "-> bool"},
            {"path": "src/-b.rs", "line": 1, "text": "fn b() -> bool { false }"},
            {"path": "src/a.rs", "line": 1, "text": "fn a() -> bool {"}
        ],
        "truncated": false, "scannedFiles": 3, "skippedBinary": 0, "skippedLarge": 0,
        "denied": 0
    }}));
    // Flags after the query, and options whose values begin with `-`, still parse.
    let run = ws.run(&[
        "search", "-> BOOL", "-i", "--glob", "-*.rs", "--path", "src", "-C", "1",
    ]);
    assert_eq!(
        run.ok()["matches"],
        json!([{"path": "src/-b.rs", "line": 1, "text": "fn b() -> bool { false }",
                "before": [], "after": []}])
    );
    // Flags before it too; a query that is a known short flag is that flag, so it goes
    // after --regex as a regex.
    let run = ws.run(&["search", "--regex", "-> b[o]+l", "--path", "c.txt"]);
    assert_eq!(
        run.ok()["matches"],
        json!([{"path": "c.txt", "line": 1, "text": "-> bool"}])
    );
}

#[test]
fn glob_a_pattern_that_begins_with_a_dash() {
    let ws = TestWorkspace::new();
    ws.file("-a.md", "").file("b.md", "").file("-d/-c.md", "");
    let run = ws.run(&["glob", "-*.md"]);
    assert_eq!(run.ok()["matches"], json!(["-a.md"]));
    let run = ws.run(&["glob", "-*.md", "--path", "-d", "--limit", "5"]);
    assert_eq!(run.ok()["matches"], json!(["-d/-c.md"]));
}

#[test]
fn file_options_and_session_ids_that_begin_with_a_dash() {
    let ws = TestWorkspace::new();
    ws.file("-old.txt", "-x")
        .file("-new.txt", "--y")
        .file("f", "a -x b\n");
    // --from-style flags name the caller's files, here relative to the working directory.
    let run = ws.run(&["write", "g.md", "--from", "-new.txt"]);
    assert_eq!(run.ok()["bytes"], 3);
    assert_eq!(ws.read_string("g.md"), "--y");
    let run = ws.run(&[
        "edit",
        "f",
        "--old-from",
        "-old.txt",
        "--new-from",
        "-new.txt",
    ]);
    assert_eq!(run.ok()["replacements"], 1);
    assert_eq!(ws.read_string("f"), "a --y b\n");
    // A session ID may begin with `-`: the session reads, then edits what it read.
    let run = ws.run(&[
        "--session",
        "-s1",
        "edit",
        "f",
        "--old",
        "--y",
        "--new",
        "-z",
    ]);
    run.refused("NOT_OBSERVED");
    ws.run(&["--session", "-s1", "read", "f"]).ok();
    let run = ws.run(&[
        "--session",
        "-s1",
        "edit",
        "f",
        "--old",
        "--y",
        "--new",
        "-z",
    ]);
    assert_eq!(run.ok()["replacements"], 1);
    assert_eq!(ws.read_string("f"), "a -z b\n");
}

/// An unknown flag is still a usage error, and clap's tip to pass it after `--` (where it
/// would be a positional argument, not the option's value) is not shown.
#[test]
fn an_unknown_flag_is_a_usage_error_without_the_trailing_tip() {
    let ws = TestWorkspace::new();
    for (args, argument) in [
        (&["search", "needle", "--bogus"][..], "--bogus"),
        (&["list", "-x"][..], "-x"),
        (&["read", "--bogus"][..], "--bogus"),
    ] {
        let run = ws.run(args);
        run.assert_envelope(&json!({
            "ok": false, "error": "INVALID_ARGUMENT",
            "details": {
                "message": format!("Invalid invocation: unexpected argument '{argument}' found"),
                "argument": argument
            },
            "_hint": "Fix the arguments and call again."
        }));
        assert!(
            run.stderr
                .starts_with(&format!("error: unexpected argument '{argument}' found\n")),
            "{}",
            run.stderr
        );
        assert!(!run.stderr.contains("as a value"), "{}", run.stderr);
        assert!(!run.stderr.contains(" -- "), "{}", run.stderr);
    }
    // The other tips stay.
    let run = ws.run(&["search", "needle", "--regx"]);
    assert!(
        run.stderr
            .contains("tip: a similar argument exists: '--regex'"),
        "{}",
        run.stderr
    );
}
