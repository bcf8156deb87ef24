//! Hints speak the caller's dialect: flags and commands to a call made by flags, field and
//! tool names to a call made with JSON. The same refusal, both ways, whole envelopes.

use serde_json::json;

use crate::support::{TestWorkspace, SHA256};

#[test]
fn an_ambiguous_edit_names_replace_all_as_the_caller_spells_it() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "x\nx\n");
    // The sentence speaks the dialect too: `--old` by flags, `oldText` in JSON.
    let details = |old: &str| {
        json!({
        "message": format!("{old} appears 2 times in `a.txt`, so the edit is ambiguous"),
        "path": "a.txt", "occurrences": 2, "lines": [1, 2]})
    };
    ws.run(&["edit", "a.txt", "--old", "x", "--new", "y"])
        .assert_envelope(&json!({"ok": false, "error": "AMBIGUOUS_MATCH", "details": details("--old"),
            "_hint": "Add surrounding lines to --old until it matches once, or pass --replace-all."}));
    ws.stitch("edit", &json!({"path": "a.txt", "oldText": "x", "newText": "y"}))
        .assert_envelope(&json!({"ok": false, "error": "AMBIGUOUS_MATCH", "details": details("oldText"),
            "_hint": "Add surrounding lines to oldText until it matches once, or pass replaceAll: true."}));
    assert_eq!(ws.read("a.txt"), b"x\nx\n");
}

#[test]
fn an_existing_file_names_overwrite_and_edit_as_the_caller_spells_them() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "old\n");
    let details = |overwrite: &str| {
        json!({"message": format!("`a.txt` already exists and {overwrite} was not set"),
        "path": "a.txt", "sha256": SHA256})
    };
    ws.run(&["write", "a.txt", "--content", "new\n"])
        .assert_envelope(&json!({"ok": false, "error": "ALREADY_EXISTS", "details": details("--overwrite"),
            "_hint": "Read `a.txt` and pass --overwrite (or its sha256 as --expected-sha256), or change it with stitch edit."}));
    ws.stitch("write", &json!({"path": "a.txt", "content": "new\n"}))
        .assert_envelope(&json!({"ok": false, "error": "ALREADY_EXISTS", "details": details("overwrite"),
            "_hint": "Read `a.txt` and pass overwrite: true (or its sha256 as expectedSha256), or change it with edit_file."}));
    assert_eq!(ws.read("a.txt"), b"old\n");
}

#[test]
fn a_missing_file_to_edit_names_the_write_command_or_tool() {
    let ws = TestWorkspace::new();
    let details = json!({"message": "`new.txt` does not exist", "path": "new.txt", "nearNames": [],
        "operation": "edit"});
    let by_flags = ws.run(&["edit", "new.txt", "--old", "a", "--new", "b"]);
    by_flags.refused("NOT_FOUND");
    assert_eq!(
        by_flags.hint(),
        "Create the file with stitch write, or list the parent directory."
    );
    let by_json = ws.stitch(
        "edit",
        &json!({"path": "new.txt", "oldText": "a", "newText": "b"}),
    );
    by_json.assert_envelope(
        &json!({"ok": false, "error": "NOT_FOUND", "details": details,
        "_hint": "Create the file with write_file, or list the parent directory."}),
    );
}

/// The field a refusal is about is named as the caller spells it, in the sentence as in
/// the hint; `details.field` stays the field's name, the stable fact.
#[test]
fn an_argument_out_of_range_is_named_as_a_flag_or_a_field() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let details = |offset: &str| {
        json!({"message": format!("{offset} 5 is past the last line of `a.txt`, which has 1 lines"),
        "field": "offset", "path": "a.txt", "totalLines": 1})
    };
    ws.run(&["read", "a.txt", "--offset", "5"]).assert_envelope(
        &json!({"ok": false, "error": "INVALID_ARGUMENT",
            "details": details("--offset"),
            "_hint": "Fix the `--offset` argument and call again."}),
    );
    ws.stitch("read", &json!({"path": "a.txt", "offset": 5}))
        .assert_envelope(&json!({"ok": false, "error": "INVALID_ARGUMENT",
            "details": details("offset"),
            "_hint": "Fix the `offset` argument and call again."}));
    // A limit past its cap, and a context out of range, the same way.
    let limit = |limit: &str| {
        json!({"ok": false, "error": "INVALID_ARGUMENT",
        "details": {"message": format!("{limit} 999999 is out of range: it must be from 1 to 5000"),
            "field": "limit", "cap": 5000},
        "_hint": format!("Fix the `{limit}` argument and call again.")})
    };
    ws.run(&["list", "--limit", "999999"])
        .assert_envelope(&limit("--limit"));
    ws.stitch("list", &json!({"limit": 999_999}))
        .assert_envelope(&limit("limit"));
    let context = ws.run(&["search", "one", "--context", "11"]);
    assert_eq!(context.message(), "--context must be from 0 to 10");
    let context = ws.stitch("search", &json!({"query": "one", "context": 11}));
    assert_eq!(context.message(), "context must be from 0 to 10");
}

#[test]
fn a_cut_search_says_how_to_narrow_in_the_callers_dialect() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "hit\nhit\nhit\n");
    let by_flags = ws.run(&["search", "hit", "--limit", "1"]);
    assert_eq!(
        by_flags.ok()["hint"],
        "Showing the first 1 matches in path order: narrow with --path or --glob, or raise --limit (up to 1000)."
    );
    let by_json = ws.stitch("search", &json!({"query": "hit", "limit": 1}));
    assert_eq!(
        by_json.ok()["hint"],
        "Showing the first 1 matches in path order: narrow with path or include, or raise limit (up to 1000)."
    );
}

/// A JSON written by hand in a heredoc, with a real newline inside a string, is told what
/// is wrong and how to fix it, not serde's bare "control character" message.
#[test]
fn a_raw_newline_in_a_json_string_names_the_escape_and_the_flags() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\n");
    let run = ws.stitch_raw(
        "edit",
        "{\"path\": \"a.txt\",\n \"oldText\": \"one\ntwo\", \"newText\": \"x\"}",
    );
    run.assert_envelope(&json!({"ok": false, "error": "INVALID_ARGUMENT",
        "details": {
            "message": "The JSON arguments on stdin do not parse: a string holds a raw newline, tab or other control character at the end of line 2; JSON spells them \\n and \\t",
            "field": "stdin", "reason": "rawControlCharacter", "line": 3, "column": 0},
        "_hint": "Inside a JSON string write a newline as \\n and a tab as \\t; or pass the text by flags from files: --old-from FILE and --new-from FILE (edit), --from FILE (write)."}));
    assert_eq!(run.status, 2);
    let tab = ws.stitch_raw(
        "edit",
        "{\"path\": \"a.txt\", \"oldText\": \"a\tb\", \"newText\": \"x\"}",
    );
    let details = tab.refused("INVALID_ARGUMENT");
    assert_eq!(details["reason"], "rawControlCharacter");
    assert!(tab.message().contains("at line 1 column"), "{}", tab.stdout);
    // Any other syntax error keeps serde's own words.
    let other = ws.stitch_raw("edit", "{\"path\": \"a.txt\",}");
    assert!(
        other.refused("INVALID_ARGUMENT").get("reason").is_none(),
        "{}",
        other.stdout
    );
    assert_eq!(ws.read("a.txt"), b"one\ntwo\n");
}

/// A flag that carries a field's value from a file is named as the caller typed it.
#[test]
fn a_from_file_that_cannot_be_read_names_the_flag() {
    let ws = TestWorkspace::new();
    let missing = ws.outside().join("missing.txt");
    let missing = missing.to_str().unwrap();
    ws.run(&["write", "z.txt", "--from", missing])
        .assert_envelope(&json!({"ok": false, "error": "INVALID_ARGUMENT",
            "details": {"message": format!("--from could not read `{missing}`"),
                        "field": "content", "flag": "--from"},
            "_hint": "Fix the `--from` argument and call again."}));
    assert!(!ws.exists("z.txt"));
}

/// A model that sends `root` (or any field a tool lacks) is told to drop it, never to
/// pass a flag it cannot pass.
#[test]
fn an_unknown_field_is_dropped_not_spelled_as_a_flag() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    ws.stitch("read", &json!({"path": "a.txt", "root": "/"}))
        .assert_envelope(&json!({"ok": false, "error": "INVALID_ARGUMENT",
            "details": {"message": "read_file has no field `root`; the allowed fields are path, offset, limit, maxBytes, lineNumbers",
                        "field": "root", "allowed": ["path", "offset", "limit", "maxBytes", "lineNumbers"]},
            "_hint": "Drop `root`: the allowed fields are path, offset, limit, maxBytes, lineNumbers."}));
}

/// `stitch glob < some/dir` is the caller's redirection, refused as such, not an
/// internal failure.
#[test]
fn a_directory_on_stdin_is_an_invalid_argument() {
    let ws = TestWorkspace::new();
    let mut cmd = ws.std_cmd();
    cmd.arg("glob")
        .stdin(std::fs::File::open(ws.outside()).unwrap());
    crate::support::Run::from_output(cmd.output().unwrap()).assert_envelope(&json!({"ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {"message": "stdin is a directory, not one JSON object of arguments",
                    "field": "stdin"},
        "_hint": "Send exactly one JSON object of arguments on stdin, or pass them as flags."}));
}

/// A call by flags that lacks a required one is told the command's arguments, as flags
/// and positionals (`--old-from` beside `--old`, never `edits`, which only JSON spells);
/// the same call in JSON is told the tool's fields.
#[test]
fn a_missing_argument_lists_the_allowed_flags_or_fields() {
    let ws = TestWorkspace::new();
    ws.run(&["edit", "--dry-run"])
        .assert_envelope(&json!({"ok": false, "error": "INVALID_ARGUMENT",
            "details": {
                "message": "stitch edit needs PATH; stdin was not read, because arguments were given as flags: pass PATH too, or pass --json to send every argument as JSON on stdin",
                "field": "path",
                "allowed": ["PATH", "--old", "--new", "--old-from", "--new-from", "--replace-all",
                    "--expected-replacements", "--expected-sha256", "--dry-run", "--ok-if-applied",
                    "--allow-syntax-errors", "--insert-after", "--expected-line"]},
            "_hint": "Fix the `PATH` argument and call again."}));
    ws.stitch("edit", &json!({"dryRun": true})).assert_envelope(
        &json!({"ok": false, "error": "INVALID_ARGUMENT",
            "details": {
                "message": "edit_file needs the field `path`",
                "field": "path",
                "allowed": ["path", "oldText", "newText", "replaceAll", "expectedReplacements",
                    "edits", "expectedSha256", "dryRun", "okIfApplied",
                    "allowSyntaxErrors", "insertAfter", "expectedLine"]},
            "_hint": "Fix the `path` argument and call again."}),
    );
    // In text, the list is labelled as what it holds.
    let text = ws
        .cmd()
        .args(["--format", "text", "edit", "--dry-run"])
        .write_stdin("")
        .output()
        .unwrap();
    let stderr = String::from_utf8(text.stderr).unwrap();
    assert!(
        stderr.contains("\nallowed arguments: PATH, --old, --new, --old-from, --new-from, --replace-all, --expected-replacements, --expected-sha256, --dry-run, --ok-if-applied, --allow-syntax-errors, --insert-after, --expected-line\n"),
        "{stderr}"
    );
    let text = ws
        .cmd()
        .args(["--format", "text", "edit", "--json"])
        .write_stdin(r#"{"dryRun": true}"#)
        .output()
        .unwrap();
    let stderr = String::from_utf8(text.stderr).unwrap();
    assert!(
        stderr.contains("\nallowed fields: path, oldText, newText, replaceAll, expectedReplacements, edits, expectedSha256, dryRun, okIfApplied, allowSyntaxErrors, insertAfter, expectedLine\n"),
        "{stderr}"
    );
}

/// Bare `stitch read` at a terminal reads no arguments from it, and says so in flags.
#[test]
fn bare_read_at_a_terminal_names_path_and_says_stdin_was_not_read() {
    let ws = TestWorkspace::new();
    let mut cmd = ws.std_cmd();
    cmd.args(["--format", "json", "read"]);
    let output = crate::support::run_with_terminal(cmd, b"");
    crate::support::Run::from_output(output).assert_envelope(&json!({"ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "stitch read needs PATH; stdin was not read, because it is a terminal: pass PATH, or pass --json to send every argument as JSON on stdin",
            "field": "path",
            "allowed": ["PATH", "--offset", "--limit", "--max-bytes", "--number", "--glob",
                "--max-total-bytes"]},
        "_hint": "Fix the `PATH` argument and call again."}));
}

/// `stitch apply` has no `--old`: a hunk that does not match is told about the hunk's
/// old side, by flags as in JSON, and the text style labels the repaired new side so.
#[test]
fn a_hunk_that_does_not_match_is_named_as_a_hunk_in_both_dialects() {
    let ws = TestWorkspace::new();
    ws.file("f.py", "def f():\n\treturn 1\n");
    let patch = "*** Begin Patch\n*** Update File: f.py\n@@\n def f():\n-    return 1\n+    return 2\n*** End Patch\n";
    let expected = json!({"ok": false, "error": "NO_MATCH",
        "details": {
            "message": "A hunk's old side is not in `f.py`",
            "path": "f.py",
            "candidates": [{"startLine": 1, "endLine": 2, "text": "def f():\n\treturn 1",
                "similarity": 0.999, "difference": "indentation", "newText": "def f():\n\treturn 2"}],
            "hunkIndex": 0, "changeIndex": 0},
        "_hint": "Rewrite the hunk from the file's text and send the patch again: its old side (context and `-` lines) from candidates[0].text, its new side (context and `+` lines) from candidates[0].newText, which is your change carried onto the file's text."});
    ws.run(&["apply", "--patch", patch])
        .assert_envelope(&expected);
    ws.stitch("apply", &json!({"patch": patch}))
        .assert_envelope(&expected);
    let text = ws
        .cmd()
        .args(["--format", "text", "apply", "--patch", patch])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(text.stderr).unwrap(),
        format!(
            "error[NO_MATCH]: A hunk's old side is not in `f.py`\n\
             candidate, lines 1-2 (differs in indentation, similarity 0.999):\n\
             ~~~\ndef f():\n\treturn 1\n~~~\n(no newline at the end)\n\
             repaired new side of the hunk:\n\
             ~~~\ndef f():\n\treturn 2\n~~~\n(no newline at the end)\n\
             hint: {}\n",
            expected["_hint"].as_str().unwrap()
        )
    );
    // A hunk that matches twice is told to add context, not --replace-all.
    ws.file("b.txt", "x\ny\nx\ny\n");
    let twice = "*** Begin Patch\n*** Update File: b.txt\n@@\n-x\n+z\n*** End Patch\n";
    let expected = json!({"ok": false, "error": "AMBIGUOUS_MATCH",
        "details": {
            "message": "A hunk's old side appears 2 times in `b.txt`, so where it goes is ambiguous",
            "path": "b.txt", "occurrences": 2, "lines": [1, 3], "hunkIndex": 0, "changeIndex": 0},
        "_hint": "Add context lines to the hunk (in a Codex patch, or an `@@ ANCHOR` line before it) until its old side matches once."});
    ws.run(&["apply", "--patch", twice])
        .assert_envelope(&expected);
    ws.stitch("apply", &json!({"patch": twice}))
        .assert_envelope(&expected);
    assert_eq!(ws.read_string("f.py"), "def f():\n\treturn 1\n");
    assert_eq!(ws.read_string("b.txt"), "x\ny\nx\ny\n");
}

/// `stitch apply` with flags but no patch says stdin was not read, and names the flags
/// that carry a patch and `--json`.
#[test]
fn apply_with_flags_and_no_patch_says_stdin_was_not_read() {
    let ws = TestWorkspace::new();
    ws.run_with_stdin(&["apply", "--dry-run"], "*** Begin Patch\n*** End Patch\n")
        .assert_envelope(&json!({"ok": false, "error": "INVALID_ARGUMENT",
            "details": {
                "message": "stitch apply needs --patch TEXT or --from FILE; stdin was not read, because arguments were given as flags: pass --patch TEXT or --from FILE too, or pass --json to send every argument as JSON on stdin",
                "field": "patch",
                "allowed": ["--patch", "--from", "--dry-run", "--ok-if-applied", "--allow-syntax-errors"]},
            "_hint": "Fix the `--patch` argument and call again."}));
}
