//! `stitch text-editor`: Anthropic's text-editor commands on stdin, served by stitch's
//! tools, answered as the tool's documentation shows its `tool_result`: `view` numbers
//! lines `N: text`; the documented errors open with the documented sentences.

use serde_json::{json, Value};

use crate::support::{TestWorkspace, SHA256};

/// Runs one command in text; its stdout and exit status.
fn editor(ws: &TestWorkspace, session: Option<&str>, command: &Value) -> (String, i32) {
    let mut cmd = ws.cmd();
    if let Some(session) = session {
        cmd.args(["--session", session]);
    }
    let output = cmd
        .args(["--format", "text", "text-editor"])
        .write_stdin(command.to_string())
        .output()
        .unwrap();
    assert!(output.stderr.is_empty(), "{output:?}");
    (
        String::from_utf8(output.stdout).unwrap(),
        output.status.code().unwrap(),
    )
}

const PRIMES: &str = "def is_prime(n):\n    if n < 2:\n        return False\n    return True\n";

#[test]
fn view_numbers_lines_and_takes_a_range() {
    let ws = TestWorkspace::new();
    ws.file("primes.py", PRIMES);
    assert_eq!(
        editor(&ws, None, &json!({"command": "view", "path": "primes.py"})),
        (
            "1: def is_prime(n):\n2:     if n < 2:\n3:         return False\n4:     return True\n"
                .to_owned(),
            0
        )
    );
    assert_eq!(
        editor(
            &ws,
            None,
            &json!({"command": "view", "path": "primes.py", "view_range": [2, 3]})
        ),
        ("2:     if n < 2:\n3:         return False\n".to_owned(), 0)
    );
    assert_eq!(
        editor(
            &ws,
            None,
            &json!({"command": "view", "path": "primes.py", "view_range": [3, -1]})
        ),
        (
            "3:         return False\n4:     return True\n".to_owned(),
            0
        )
    );
    assert_eq!(
        editor(&ws, None, &json!({"command": "view", "path": "primes.py", "view_range": [3, 1]})),
        ("Error: view_range [3, 1] ends before it starts; it is [start, end], lines from 1, with -1 for the end.\nFix the `view_range` argument and call again.\n".to_owned(), 1)
    );
}

/// A directory is listed two levels deep, hidden entries left out.
#[test]
fn view_of_a_directory_lists_two_levels() {
    let ws = TestWorkspace::new();
    ws.file("src/a.rs", "")
        .file("src/deep/b.rs", "")
        .file("src/deep/deeper/c.rs", "")
        .file(".hidden", "");
    assert_eq!(
        editor(&ws, None, &json!({"command": "view", "path": "."})),
        ("Here's the files and directories up to 2 levels deep in ., excluding hidden items:\nsrc/\nsrc/a.rs\nsrc/deep/\n".to_owned(), 0)
    );
}

#[test]
fn view_of_a_missing_file_is_file_not_found() {
    let ws = TestWorkspace::new();
    ws.file("primes.py", PRIMES);
    assert_eq!(
        editor(&ws, None, &json!({"command": "view", "path": "prime.py"})),
        ("Error: File not found: prime.py\nDid you mean `primes.py`? Otherwise view the parent directory.\n".to_owned(), 1)
    );
}

#[test]
fn create_makes_a_new_file_and_never_overwrites() {
    let ws = TestWorkspace::new();
    assert_eq!(
        editor(
            &ws,
            None,
            &json!({"command": "create", "path": "new/a.py", "file_text": "x = 1\n"})
        ),
        ("File created successfully at: new/a.py\n".to_owned(), 0)
    );
    assert_eq!(ws.read_string("new/a.py"), "x = 1\n");
    assert_eq!(
        editor(&ws, None, &json!({"command": "create", "path": "new/a.py", "file_text": "y"})),
        ("Error: File already exists at: new/a.py. Cannot overwrite files using command `create`.\nTo change it, view it, then use str_replace or insert.\n".to_owned(), 1)
    );
    assert_eq!(ws.read_string("new/a.py"), "x = 1\n");
}

#[test]
fn str_replace_replaces_once_or_says_why_not() {
    let ws = TestWorkspace::new();
    ws.file("primes.py", PRIMES);
    let replace = |old: &str, new: &str| {
        editor(
            &ws,
            None,
            &json!({"command": "str_replace", "path": "primes.py", "old_str": old, "new_str": new}),
        )
    };
    assert_eq!(
        replace("        return False\n", "        return False  # no\n"),
        (
            "Successfully replaced text at exactly one location.\n".to_owned(),
            0
        )
    );
    assert_eq!(
        replace("    ", "\t"),
        ("Error: Found 4 matches for replacement text. Please provide more context to make a unique match. The matches begin at lines 2, 3, 4.\nAdd surrounding lines to old_str until it matches once.\n".to_owned(), 1)
    );
    // Misremembered indentation: the closest passage, and new_str carried onto it.
    assert_eq!(
        replace("\tif n < 2:\n", "\tif n <= 1:\n"),
        ("Error: No match found for replacement. Please check your text and try again.\nThe closest passage, lines 2-2 (indentation differs), is:\n    if n < 2:\n\nTo make your change there, call str_replace with that passage as old_str and this as new_str:\n    if n <= 1:\n".to_owned(), 1)
    );
    assert_eq!(
        ws.read_string("primes.py"),
        PRIMES.replace("return False", "return False  # no")
    );
}

#[test]
fn insert_puts_lines_after_a_line() {
    let ws = TestWorkspace::new();
    ws.file("primes.py", PRIMES);
    assert_eq!(
        editor(
            &ws,
            None,
            &json!({"command": "insert", "path": "primes.py", "insert_line": 0, "insert_text": "\"\"\"Primes.\"\"\"\n"})
        ),
        ("Successfully inserted text after line 0.\n".to_owned(), 0)
    );
    // new_str, as the earlier versions spell it.
    assert_eq!(
        editor(
            &ws,
            None,
            &json!({"command": "insert", "path": "primes.py", "insert_line": 5, "new_str": "# end"})
        ),
        ("Successfully inserted text after line 5.\n".to_owned(), 0)
    );
    assert_eq!(
        ws.read_string("primes.py"),
        format!("\"\"\"Primes.\"\"\"\n{PRIMES}# end\n")
    );
    assert_eq!(
        editor(&ws, None, &json!({"command": "insert", "path": "primes.py", "insert_line": 9, "insert_text": "x"})),
        ("Error: Invalid `insert_line` parameter: it should be within the range of lines of the file: [0, 6].\ninsert_line 9 is past the last line of `primes.py`, which has 6 lines.\n".to_owned(), 1)
    );
}

/// undo_edit takes back the file's newest change not yet undone, and says when none is
/// left.
#[test]
fn undo_edit_takes_back_the_newest_change() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    editor(
        &ws,
        None,
        &json!({"command": "str_replace", "path": "a.txt", "old_str": "one", "new_str": "two"}),
    );
    editor(
        &ws,
        None,
        &json!({"command": "str_replace", "path": "a.txt", "old_str": "two", "new_str": "three"}),
    );
    let undo = json!({"command": "undo_edit", "path": "a.txt"});
    assert_eq!(
        editor(&ws, None, &undo),
        ("Last edit to a.txt undone successfully.\n".to_owned(), 0)
    );
    assert_eq!(ws.read_string("a.txt"), "two\n");
    assert_eq!(editor(&ws, None, &undo).1, 0);
    assert_eq!(ws.read_string("a.txt"), "one\n");
    let (text, status) = editor(&ws, None, &undo);
    assert_eq!(status, 1);
    assert!(
        text.starts_with("Error: No edit of `a.txt` is left to undo.\n"),
        "{text}"
    );
}

/// A session's guards hold: str_replace of a file the session has not viewed is refused,
/// and viewing it is the way on.
#[test]
fn the_session_rules_hold() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let replace =
        json!({"command": "str_replace", "path": "a.txt", "old_str": "one", "new_str": "1"});
    assert_eq!(
        editor(&ws, Some("s1"), &replace),
        ("Error: This session has not read `a.txt`, so it cannot change it.\nView the file, then retry.\n".to_owned(), 1)
    );
    editor(
        &ws,
        Some("s1"),
        &json!({"command": "view", "path": "a.txt"}),
    );
    assert_eq!(editor(&ws, Some("s1"), &replace).1, 0);
}

/// In JSON, the envelope carries the text in data.text beside the stitch tool and its
/// result; a refusal's envelope carries it in details.text.
#[test]
fn json_carries_the_text_in_the_envelope() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let run = |command: Value| {
        let output = ws
            .cmd()
            .args(["--format", "json", "text-editor"])
            .write_stdin(command.to_string())
            .output()
            .unwrap();
        crate::support::Run::from_output(output)
    };
    run(json!({"command": "view", "path": "a.txt"})).assert_envelope(&json!({"ok": true, "data": {
        "text": "1: one\n", "tool": "read_file",
        "result": {"path": "a.txt", "content": "one\n", "sha256": SHA256, "bytes": 4,
                   "totalLines": 1, "startLine": 1, "endLine": 1, "truncated": false,
                   "lineEnding": "lf", "bom": false}}}));
    run(json!({"command": "view", "path": "b.txt"})).assert_envelope(&json!({"ok": false,
        "error": "NOT_FOUND",
        "details": {"message": "`b.txt` does not exist", "path": "b.txt", "nearNames": ["a.txt"],
                    "text": "Error: File not found: b.txt\nDid you mean `a.txt`? Otherwise view the parent directory."},
        "_hint": "Did you mean `a.txt`? Otherwise list the parent directory."}));
    run(json!({"command": "delete", "path": "a.txt"})).assert_envelope(&json!({"ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {"message": "`delete` is not a text-editor command; the commands are view, create, str_replace, insert, undo_edit",
                    "field": "command",
                    "commands": ["view", "create", "str_replace", "insert", "undo_edit"],
                    "text": "Error: `delete` is not a text-editor command; the commands are view, create, str_replace, insert, undo_edit.\nFix the `command` argument and call again."},
        "_hint": "Fix the `command` argument and call again."}));
}
