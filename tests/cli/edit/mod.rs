//! `edit_file`: exact snippet replacement, counts and ambiguity, closest candidates on a
//! miss, `edits[]` all or nothing, dry runs and diffs, freshness, aliases and flags.

use serde_json::{json, Value};

use crate::support::{sha256sum, TestWorkspace, SHA256, STRING};

const SOURCE: &str = "fn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n";

fn workspace_with_source() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("src/main.rs", SOURCE);
    ws
}

#[test]
fn a_single_edit_replaces_the_snippet() {
    let ws = workspace_with_source();
    let run = ws.stitch(
        "edit",
        &json!({"path": "src/main.rs", "oldText": "let x = 1;", "newText": "let x = 2;"}),
    );
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "applied": true,
            "id": STRING,
            "baseSha256": SHA256,
            "bytes": 50,
            "diff": "--- a/src/main.rs\n+++ b/src/main.rs\n@@ -1,4 +1,4 @@\n fn main() {\n-    let x = 1;\n+    let x = 2;\n     println!(\"{x}\");\n }\n",
            "path": "src/main.rs",
            "replacements": 1,
            "sha256": SHA256
        }
    }));
    let expected = SOURCE.replace("let x = 1;", "let x = 2;");
    let data = &run.envelope["data"];
    assert_eq!(data["baseSha256"], sha256sum(SOURCE.as_bytes()));
    assert_eq!(data["sha256"], sha256sum(expected.as_bytes()));
    assert_eq!(ws.read_string("src/main.rs"), expected);
}

#[test]
fn the_diff_is_unified() {
    let ws = workspace_with_source();
    let run = ws.stitch(
        "edit",
        &json!({"path": "src/main.rs", "oldText": "let x = 1;", "newText": "let x = 2;"}),
    );
    let diff = run.ok()["diff"].as_str().expect("diff");
    let lines: Vec<&str> = diff.lines().collect();
    assert!(lines.iter().any(|l| l.starts_with("--- ")), "{diff}");
    assert!(lines.iter().any(|l| l.starts_with("+++ ")), "{diff}");
    assert!(lines.iter().any(|l| l.starts_with("@@ ")), "{diff}");
    assert!(lines.contains(&"-    let x = 1;"), "{diff}");
    assert!(lines.contains(&"+    let x = 2;"), "{diff}");
    assert!(
        !lines.contains(&"-fn main() {"),
        "unchanged lines are context: {diff}"
    );
}

#[test]
fn edits_chain_through_the_returned_sha256() {
    let ws = workspace_with_source();
    let first = ws.stitch(
        "edit",
        &json!({"path": "src/main.rs", "oldText": "let x = 1;", "newText": "let x = 2;"}),
    );
    let after_first = first.ok()["sha256"].as_str().unwrap().to_owned();
    let second = ws.stitch(
        "edit",
        &json!({"path": "src/main.rs", "oldText": "let x = 2;", "newText": "let x = 3;",
                "expectedSha256": after_first}),
    );
    let data = second.ok();
    assert_eq!(data["baseSha256"], after_first);
    assert_eq!(
        ws.read_string("src/main.rs"),
        SOURCE.replace("let x = 1;", "let x = 3;")
    );
    assert_eq!(data["sha256"], sha256sum(&ws.read("src/main.rs")));
}

#[test]
fn replace_all_replaces_every_occurrence() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "foo bar\nfoo baz\nqux foo\n");
    let run = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "oldText": "foo", "newText": "FOO", "replaceAll": true}),
    );
    assert_eq!(run.ok()["replacements"], 3);
    assert_eq!(ws.read_string("a.txt"), "FOO bar\nFOO baz\nqux FOO\n");
}

#[test]
fn expected_replacements_that_match_replace() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "foo\nfoo\n");
    let run = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "oldText": "foo", "newText": "bar", "expectedReplacements": 2}),
    );
    assert_eq!(run.ok()["replacements"], 2);
    assert_eq!(ws.read_string("a.txt"), "bar\nbar\n");
}

#[test]
fn expected_replacements_that_differ_are_a_count_mismatch() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "foo\nfoo\nfoo\n");
    let run = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "oldText": "foo", "newText": "bar", "expectedReplacements": 2}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "MATCH_COUNT_MISMATCH",
        "details": {
            "message": "oldText appears 3 times in `a.txt`, but expectedReplacements is 2",
            "expectedReplacements": 2,
            "lines": [1, 2, 3],
            "occurrences": 3,
            "path": "a.txt"
        },
        "_hint": "Check the count: re-read the file, then set expectedReplacements to the number of matches you intend."
    }));
    assert_eq!(ws.read_string("a.txt"), "foo\nfoo\nfoo\n");

    let one = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "oldText": "foo", "newText": "bar", "expectedReplacements": 1}),
    );
    one.assert_envelope(&json!({
        "ok": false,
        "error": "MATCH_COUNT_MISMATCH",
        "details": {
            "message": "oldText appears 3 times in `a.txt`, but expectedReplacements is 1",
            "expectedReplacements": 1,
            "lines": [1, 2, 3],
            "occurrences": 3,
            "path": "a.txt"
        },
        "_hint": "Check the count: re-read the file, then set expectedReplacements to the number of matches you intend."
    }));
    assert_eq!(ws.read_string("a.txt"), "foo\nfoo\nfoo\n");
}

#[test]
fn an_ambiguous_snippet_names_every_line() {
    let ws = TestWorkspace::new();
    let text = "start\nx = 1\nmid\nmid\nx = 1\nmid\nmid\nmid\nx = 1\nend\n";
    ws.file("a.py", text);
    let run = ws.stitch(
        "edit",
        &json!({"path": "a.py", "oldText": "x = 1", "newText": "x = 2"}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "AMBIGUOUS_MATCH",
        "details": {
            "message": "oldText appears 3 times in `a.py`, so the edit is ambiguous",
            "lines": [2, 5, 9],
            "occurrences": 3,
            "path": "a.py"
        },
        "_hint": "Add surrounding lines to oldText until it matches once, or pass replaceAll: true."
    }));
    assert_eq!(ws.read_string("a.py"), text);
}

/// The "new user" scenario: the model retypes a passage with the wrong indentation,
/// is shown the file's exact text, copies it, and succeeds.
#[test]
fn a_miss_offers_the_exact_text_and_retrying_with_it_succeeds() {
    let ws = TestWorkspace::new();
    let text =
        "def greet():\n    name = 'world'\n    print('hello', name)\n\ndef other():\n    pass\n";
    ws.file("greet.py", text);
    let run = ws.stitch(
        "edit",
        &json!({"path": "greet.py",
                "oldText": "  name = 'world'\n  print('hello', name)",
                "newText": "  name = 'there'\n  print('hello', name)"}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NO_MATCH",
        "details": {
            "message": "oldText is not in `greet.py`",
            "candidates": [
                {
                    "difference": "indentation",
                    "endLine": 3,
                    "similarity": 0.999,
                    "startLine": 2,
                    "text": "    name = 'world'\n    print('hello', name)",
                    "newText": "    name = 'there'\n    print('hello', name)"
                }
            ],
            "path": "greet.py"
        },
        "_hint": "Retry with oldText = candidates[0].text and newText = candidates[0].newText: that newText is your change carried onto the file's text."
    }));
    // The candidate is the file's own text, and its newText the change re-indented as
    // the file is, so following the hint to the letter succeeds.
    let candidate = &run.envelope["details"]["candidates"][0];
    let exact = candidate["text"].as_str().unwrap();
    assert!(text.contains(exact));
    assert_eq!(ws.read_string("greet.py"), text);

    let retry = ws.stitch(
        "edit",
        &json!({"path": "greet.py", "oldText": exact, "newText": candidate["newText"]}),
    );
    retry.assert_envelope(&json!({
        "ok": true,
        "data": {
            "applied": true,
            "id": STRING,
            "baseSha256": SHA256,
            "bytes": 80,
            "diff": "--- a/greet.py\n+++ b/greet.py\n@@ -1,5 +1,5 @@\n def greet():\n-    name = 'world'\n+    name = 'there'\n     print('hello', name)\n \n def other():\n",
            "path": "greet.py",
            "replacements": 1,
            "sha256": SHA256
        }
    }));
    assert_eq!(ws.read_string("greet.py"), text.replace("world", "there"));
}

#[test]
fn a_miss_whose_new_text_is_present_is_already_applied() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\nbeta two\ngamma\n");
    let run = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "oldText": "beta one", "newText": "beta two"}),
    );
    let details = run.refused("NO_MATCH");
    assert_eq!(details["alreadyApplied"], true, "{}", run.stdout);
    assert_eq!(ws.read_string("a.txt"), "alpha\nbeta two\ngamma\n");

    let fresh = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "oldText": "delta", "newText": "epsilon"}),
    );
    let details = fresh.refused("NO_MATCH");
    assert_ne!(details["alreadyApplied"], true, "{}", fresh.stdout);
}

#[test]
fn edits_apply_in_order_to_the_evolving_text() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\nthree\n");
    let run = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "edits": [
            {"oldText": "one", "newText": "uno"},
            {"oldText": "uno\ntwo", "newText": "uno\ndos"},
            {"oldText": "e", "newText": "E", "replaceAll": true},
        ]}),
    );
    assert_eq!(run.ok()["replacements"], 4);
    assert_eq!(ws.read_string("a.txt"), "uno\ndos\nthrEE\n");
}

#[test]
fn edits_are_all_or_nothing_and_name_the_failing_one() {
    let ws = TestWorkspace::new();
    let text = "one\ntwo\nthree\n";
    ws.file("a.txt", text);
    let run = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "edits": [
            {"oldText": "one", "newText": "1"},
            {"oldText": "zwei", "newText": "2"},
            {"oldText": "three", "newText": "3"},
        ]}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NO_MATCH",
        "details": {
            "message": "oldText of edits[1] is not in `a.txt`",
            "candidates": [],
            "editIndex": 1,
            "path": "a.txt"
        },
        "_hint": "Re-read `a.txt` and copy oldText exactly from it."
    }));
    assert_eq!(ws.read_string("a.txt"), text);

    let ambiguous = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "edits": [
            {"oldText": "one", "newText": "1"},
            {"oldText": "two", "newText": "2"},
            {"oldText": "e", "newText": "E"},
        ]}),
    );
    ambiguous.assert_envelope(&json!({
        "ok": false,
        "error": "AMBIGUOUS_MATCH",
        "details": {
            "message": "oldText appears 2 times in `a.txt`, so the edit is ambiguous",
            "editIndex": 2,
            "lines": [3],
            "occurrences": 2,
            "path": "a.txt"
        },
        "_hint": "Add surrounding lines to oldText until it matches once, or pass replaceAll: true."
    }));
    assert_eq!(ws.read_string("a.txt"), text);
}

#[test]
fn edits_together_with_old_text_are_invalid() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let run = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "oldText": "one", "newText": "1",
                "edits": [{"oldText": "one", "newText": "uno"}]}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "Pass either edits or oldText/newText (with replaceAll, expectedReplacements), not both",
            "field": "edits"
        },
        "_hint": "Fix the `edits` argument and call again."
    }));
    assert_eq!(ws.read_string("a.txt"), "one\n");
}

#[test]
fn an_empty_old_text_is_invalid() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let run = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "oldText": "", "newText": "x"}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "oldText is empty; it must be text that is in the file",
            "field": "oldText"
        },
        "_hint": "Fix the `oldText` argument and call again."
    }));
    assert_eq!(ws.read_string("a.txt"), "one\n");
}

#[test]
fn old_text_equal_to_new_text_is_invalid() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let run = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "oldText": "one", "newText": "one"}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "newText is the same as oldText, so the edit would change nothing",
            "field": "newText"
        },
        "_hint": "Fix the `newText` argument and call again."
    }));
    assert_eq!(ws.read_string("a.txt"), "one\n");
}

#[test]
fn a_dry_run_returns_the_diff_and_changes_nothing() {
    let ws = workspace_with_source();
    let run = ws.run(&[
        "edit",
        "src/main.rs",
        "--old",
        "let x = 1;",
        "--new",
        "let x = 42;",
        "--dry-run",
    ]);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "applied": false,
            "baseSha256": SHA256,
            "bytes": 51,
            "diff": "--- a/src/main.rs\n+++ b/src/main.rs\n@@ -1,4 +1,4 @@\n fn main() {\n-    let x = 1;\n+    let x = 42;\n     println!(\"{x}\");\n }\n",
            "path": "src/main.rs",
            "replacements": 1,
            "sha256": SHA256
        }
    }));
    let would_be = SOURCE.replace("let x = 1;", "let x = 42;");
    let data = &run.envelope["data"];
    assert_eq!(data["sha256"], sha256sum(would_be.as_bytes()));
    let diff = data["diff"].as_str().unwrap();
    assert!(diff.contains("\n-    let x = 1;\n"), "{diff}");
    assert!(diff.contains("\n+    let x = 42;\n"), "{diff}");
    assert_eq!(ws.read_string("src/main.rs"), SOURCE);
}

#[test]
fn a_mismatched_expected_sha256_is_stale() {
    let ws = workspace_with_source();
    let seen = sha256sum(b"an older version\n");
    let run = ws.stitch(
        "edit",
        &json!({"path": "src/main.rs", "oldText": "let x = 1;", "newText": "let x = 2;",
                "expectedSha256": seen}),
    );
    let details = run.refused("STALE_VERSION");
    assert_eq!(details["expectedSha256"], seen);
    assert_eq!(details["actualSha256"], sha256sum(SOURCE.as_bytes()));
    assert_eq!(ws.read_string("src/main.rs"), SOURCE);
}

#[test]
fn editing_a_missing_file_is_not_found() {
    let ws = workspace_with_source();
    let run = ws.stitch(
        "edit",
        &json!({"path": "src/mian.rs", "oldText": "a", "newText": "b"}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_FOUND",
        "details": {
            "message": "`src/mian.rs` does not exist",
            "nearNames": ["src/main.rs"],
            "operation": "edit",
            "path": "src/mian.rs"
        },
        "_hint": "Did you mean `src/main.rs`? If `src/mian.rs` is a new file, create it with write_file instead."
    }));
    assert!(!ws.exists("src/mian.rs"));
}

#[test]
fn other_tool_sets_spellings_are_accepted() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "x x x\n");
    let run = ws.stitch(
        "edit",
        &json!({"file_path": "a.txt", "old_string": "x", "new_string": "y", "replace_all": true}),
    );
    assert_eq!(run.ok()["replacements"], 3);
    assert_eq!(ws.read_string("a.txt"), "y y y\n");

    let nested = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "edits": [{"old_str": "y y", "new_str": "z z"}],
                "dry_run": true}),
    );
    let data = nested.ok();
    assert_eq!(data["applied"], false);
    assert_eq!(ws.read_string("a.txt"), "y y y\n");
}

#[test]
fn an_unknown_field_in_an_edit_item_is_named() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let run = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "edits": [{"oldText": "one", "newText": "1", "count": 1}]}),
    );
    let details = run.refused("INVALID_ARGUMENT");
    assert_eq!(details["field"], "edits[0].count", "{}", run.stdout);
    assert!(details["allowed"]
        .as_array()
        .unwrap()
        .contains(&Value::from("oldText")));
}

#[test]
fn old_and_new_text_come_from_files() {
    let ws = TestWorkspace::new();
    let text = "header\n  block line 1\n  block line 2\nfooter\n";
    ws.file("a.txt", text);
    let old = ws.outside_file("old.txt", "  block line 1\n  block line 2\n");
    let new = ws.outside_file("new.txt", "  replaced\n");
    let run = ws.run(&[
        "edit",
        "a.txt",
        "--old-from",
        old.to_str().unwrap(),
        "--new-from",
        new.to_str().unwrap(),
    ]);
    run.ok();
    assert_eq!(ws.read_string("a.txt"), "header\n  replaced\nfooter\n");

    let from_stdin = ws.run_with_stdin(
        &["edit", "a.txt", "--old-from", "-", "--new", "  again\n"],
        "  replaced\n",
    );
    from_stdin.ok();
    assert_eq!(ws.read_string("a.txt"), "header\n  again\nfooter\n");
}

#[test]
fn a_short_new_text_found_elsewhere_is_not_taken_for_an_applied_edit() {
    let ws = TestWorkspace::new();
    ws.file("e.txt", "foo\nqux\nbaz\n");
    let run = ws.run(&["edit", "e.txt", "--old", "bazz", "--new", "q"]);
    let details = run.refused("NO_MATCH");
    assert!(details.get("alreadyApplied").is_none(), "{}", run.stdout);
    assert_eq!(details["candidates"][0]["text"], "baz");
}

#[test]
fn an_edit_whose_result_is_too_large_says_so() {
    let ws = TestWorkspace::new();
    ws.file(".stitch/config.json", r#"{"limits":{"maxFileBytes":10}}"#)
        .file("s.txt", "abcdef");
    let run = ws.run(&["edit", "s.txt", "--old", "abc", "--new", "abcdefghij"]);
    let details = run.refused("TOO_LARGE");
    assert_eq!(details["field"], "result");
    assert_eq!(details["bytes"], 13);
    assert_eq!(
        details["message"],
        "The edit would make `s.txt` 13 bytes, over the limit of 10"
    );
    assert_eq!(ws.read_string("s.txt"), "abcdef");
}

// newText follows an all-CRLF file's line endings.
mod line_endings;
// okIfApplied: the same edit run twice succeeds the second time, changing nothing.
mod ok_if_applied;
// Files over 8 MiB: the two-core path reports and writes what the one-core path does.
mod large;
