//! The loops a hint once led into, each pinned by its whole envelope: a Codex chunk whose
//! `@@` line is misremembered, `okIfApplied` on a change applied in part, a hunk header
//! whose counts are wrong, and a change of several files none of which the session read.

use serde_json::json;

use crate::support::TestWorkspace;

const A_RS: &str = "fn main() {\n    let x = 1;\n    println!(\"{}\", x);\n}\n";

/// The chunk's lines are right and only its anchor is not: the refusal says so, names the
/// file's line most like the anchor, and offers no candidate that is the chunk itself.
#[test]
fn a_misremembered_anchor_is_named_with_the_files_nearest_line() {
    let ws = TestWorkspace::new();
    ws.file("a.rs", A_RS);
    let patch = "*** Begin Patch\n*** Update File: a.rs\n@@ fn mian() {\n     let x = 1;\n-    println!(\"{}\", x);\n+    println!(\"x={}\", x);\n*** End Patch";
    ws.stitch("apply", &json!({"patch": patch})).assert_envelope(&json!({
        "ok": false, "error": "NO_MATCH",
        "details": {
            "message": "The anchor line `fn mian() {` of a chunk is not in `a.rs`, but the chunk's lines are, once, at line 2",
            "path": "a.rs", "anchor": "fn mian() {", "difference": "anchor",
            "nearestAnchor": {"line": 1, "text": "fn main() {"}, "lines": [2],
            "hunkIndex": 0, "changeIndex": 0},
        "_hint": "Only the chunk's `@@` line is wrong: make it `@@ fn main() {` (line 1 of the file), or drop the anchor (a bare `@@`): the chunk's lines match once, at line 2. Send the patch again."}));
    // Dropping the anchor, as the hint offers, applies.
    ws.stitch(
        "apply",
        &json!({"patch": patch.replace("@@ fn mian() {", "@@")}),
    )
    .ok();
    assert_eq!(ws.read_string("a.rs"), A_RS.replace("\"{}\"", "\"x={}\""));
}

/// With nothing in the file like the anchor, and the chunk's lines at line 1, the hint
/// only drops the anchor.
#[test]
fn an_anchor_like_no_line_is_dropped() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\nbeta\n");
    let run = ws.run(&[
        "apply",
        "--patch",
        "*** Begin Patch\n*** Update File: a.txt\n@@ zzzz\n-alpha\n+ALPHA\n*** End Patch",
    ]);
    assert_eq!(run.refused("NO_MATCH")["difference"], "anchor");
    assert_eq!(
        run.hint(),
        "Only the chunk's `@@` line is wrong: drop the anchor (a bare `@@`), since the chunk's lines match once, at line 1, and send the patch again."
    );
}

/// `okIfApplied` on a list whose first item is applied and whose second is not: the
/// refusal is about the second, why it does not apply, and which item is applied; it
/// never asks for okIfApplied again.
#[test]
fn ok_if_applied_blames_the_change_that_is_not_applied() {
    let ws = TestWorkspace::new();
    ws.file("a.rs", A_RS);
    let run = ws.stitch(
        "apply",
        &json!({"okIfApplied": true, "changes": [
            {"op": "edit", "path": "a.rs", "oldText": "let x = 0;", "newText": "let x = 1;"},
            {"op": "edit", "path": "a.rs", "oldText": "let y = 5;", "newText": "let y = 6;"}]}),
    );
    let details = run.refused("NO_MATCH");
    assert_eq!(details["changeIndex"], 1, "{}", run.stdout);
    assert_eq!(details["appliedChanges"], json!([0]), "{}", run.stdout);
    assert!(details.get("alreadyApplied").is_none(), "{}", run.stdout);
    assert!(!run.hint().contains("okIfApplied"), "{}", run.stdout);
    // Where the rest would apply, the refusal says the change is applied in part.
    ws.stitch(
        "apply",
        &json!({"okIfApplied": true, "changes": [
            {"op": "edit", "path": "a.rs", "oldText": "let x = 0;", "newText": "let x = 1;"},
            {"op": "edit", "path": "a.rs", "oldText": "}\n", "newText": "}\n// end\n"}]}),
    )
    .assert_envelope(&json!({"ok": false, "error": "NO_MATCH",
        "details": {
            "message": "The change is applied only in part: changes 0 are applied already, and change 1 (`a.rs`) is not",
            "path": "a.rs", "reason": "partlyApplied", "appliedChanges": [0], "changeIndex": 1},
        "_hint": "Send the change again without what is applied already (changes 0, counted from 0 in the order given): the rest applies as it is."}));
    assert_eq!(ws.read_string("a.rs"), A_RS);
}

/// A hunk found applied, in a patch sent by flags, is told in a hunk's words: never
/// `--old`/`--new`, which apply does not take; and with `--ok-if-applied` given, never
/// asked for it again.
#[test]
fn a_hunk_found_applied_speaks_of_its_sides_not_of_old_and_new() {
    let ws = TestWorkspace::new();
    ws.file("a.rs", A_RS);
    let patch = "--- a/a.rs\n+++ b/a.rs\n@@ -2 +2 @@\n-    let x = 0;\n+    let x = 1;\n";
    let run = ws.run(&["apply", "--patch", patch]);
    run.refused("NO_MATCH");
    assert_eq!(
        run.hint(),
        "The hunk's new side is already in `a.rs` where its old side would be, so the patch may be applied already: re-read the file to confirm (or pass --ok-if-applied to accept that); otherwise rewrite the hunk's old and new sides from the file's text."
    );
    ws.run(&["apply", "--ok-if-applied", "--patch", patch]).ok();
}

/// A hunk with no body is refused at its `@@` line, not at the next file's `diff --git`;
/// one whose counts disagree with its body is read by its body, up to the next file.
#[test]
fn a_hunk_count_error_points_at_its_header() {
    let ws = TestWorkspace::new();
    ws.file("a.rs", A_RS).file("b.rs", "a\n");
    let next = "diff --git a/b.rs b/b.rs\n--- a/b.rs\n+++ b/b.rs\n@@ -1 +1 @@\n-a\n+b\n";
    let empty =
        format!("diff --git a/a.rs b/a.rs\n--- a/a.rs\n+++ b/a.rs\n@@ -1,9 +1,9 @@\n{next}");
    ws.stitch("apply", &json!({"patch": empty})).assert_envelope(&json!({
        "ok": false, "error": "INVALID_PATCH",
        "details": {
            "message": "The patch does not parse at line 4: expected a hunk with a body of ` `, `-` and `+` lines",
            "dialect": "unified", "patchLine": 4, "line": "@@ -1,9 +1,9 @@",
            "expected": "a hunk with a body of ` `, `-` and `+` lines"},
        "_hint": "Fix line 4 of the patch as details.expected says, and send the whole patch again."}));
    let miscounted = format!(
        "diff --git a/a.rs b/a.rs\n--- a/a.rs\n+++ b/a.rs\n@@ -1,9 +1,9 @@\n fn main() {{\n-    let x = 1;\n+    let x = 2;\n{next}"
    );
    let run = ws.stitch("apply", &json!({"patch": miscounted}));
    assert_eq!(run.ok()["changes"][0]["hunks"][0]["recounted"], true);
    assert_eq!(ws.read_string("b.rs"), "b\n");
}

/// A two-file patch and a move onto a file, in a session that read none of them: one
/// refusal names every file, so one round of reads lets the change through.
#[test]
fn every_unread_file_of_a_change_is_named_at_once() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a\n").file("b.txt", "b\n");
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch";
    let expected = |hint: &str| {
        json!({"ok": false, "error": "NOT_OBSERVED",
        "details": {
            "message": "This session has not read `a.txt`, `b.txt`, so it cannot change them",
            "path": "a.txt", "paths": ["a.txt", "b.txt"], "session": "s1"},
        "_hint": hint})
    };
    ws.run(&["--session", "s1", "apply", "--patch", patch])
        .assert_envelope(&expected(
            "Read the files first, each of them (`a.txt`, `b.txt`) with stitch read, then retry.",
        ));
    ws.run(&["--session", "s1", "move", "a.txt", "b.txt", "--overwrite"])
        .assert_envelope(&expected(
            "Read the files first, each of them (`a.txt`, `b.txt`) with stitch read, then retry.",
        ));
    let mut cmd = ws.cmd();
    cmd.args(["--session", "s1", "apply", "--json"])
        .write_stdin(json!({"patch": patch}).to_string());
    crate::support::Run::from(cmd).assert_envelope(&expected(
        "Read the files first, each of them (`a.txt`, `b.txt`) with read_file, then retry.",
    ));
    for path in ["a.txt", "b.txt"] {
        ws.run(&["--session", "s1", "read", path]).ok();
    }
    ws.run(&["--session", "s1", "apply", "--patch", patch]).ok();
    assert_eq!(ws.read_string("b.txt"), "B\n");
}

/// `okIfApplied` on a patch whose first hunk of a file is there and whose second is not:
/// the refusal names the second hunk (counted in the patch as sent), never the first.
#[test]
fn ok_if_applied_blames_the_hunk_that_is_not_applied() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "A\nb\n");
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n@@\n-c\n+C\n*** End Patch";
    let run = ws.run(&["apply", "--ok-if-applied", "--patch", patch]);
    let details = run.refused("NO_MATCH");
    assert_eq!(
        (&details["changeIndex"], &details["hunkIndex"]),
        (&json!(0), &json!(1)),
        "{}",
        run.stdout
    );
    assert_eq!(
        details["appliedHunks"],
        json!({"changeIndex": 0, "hunks": [0]})
    );
    assert!(!run.hint().contains("ok-if-applied"), "{}", run.stdout);
    // Where the rest would apply, the hint says what to leave out.
    let patch = patch.replace("-c\n+C", "-b\n+B");
    ws.run(&["apply", "--ok-if-applied", "--patch", &patch])
        .assert_envelope(&json!({"ok": false, "error": "NO_MATCH",
            "details": {
                "message": "The change is applied only in part: hunks 0 of change 0 are applied already, and change 0 (`a.txt`) is not",
                "path": "a.txt", "reason": "partlyApplied", "appliedChanges": [],
                "appliedHunks": {"changeIndex": 0, "hunks": [0]}, "changeIndex": 0},
            "_hint": "Send the change again without what is applied already (hunks 0 of change 0, counted from 0 in the order given): the rest applies as it is."}));
    assert_eq!(ws.read_string("a.txt"), "A\nb\n");
}

/// A chunk whose lines are in the file, exactly, but before the chunk ahead of it: the
/// refusal says the order is wrong, and offers no candidate that is the chunk itself.
#[test]
fn chunks_out_of_order_are_told_the_order_not_the_chunk() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a\nb\n");
    ws.stitch(
        "apply",
        &json!({"patch": "*** Begin Patch\n*** Update File: a.txt\n@@\n-b\n+B\n@@\n-a\n+A\n*** End Patch"}),
    )
    .assert_envelope(&json!({"ok": false, "error": "NO_MATCH",
        "details": {
            "message": "A hunk's old side is in `a.txt` at line 1, but before the hunk ahead of it in the patch: the hunks of a file apply in the file's order",
            "path": "a.txt", "difference": "order", "lines": [1], "hunkIndex": 1, "changeIndex": 0},
        "_hint": "Put the hunks of `a.txt` in the order their lines come in the file (this hunk's old side is at line 1), and send the patch again."}));
}
