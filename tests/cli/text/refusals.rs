//! A refusal in text mode: on stderr, `error[CODE]: message`, then the facts its hint
//! refers to — NO_MATCH's candidates (line range and exact text, indented), the lines
//! an ambiguous snippet matched, NOT_FOUND's near names, the allowed fields — then the
//! hint; nothing on stdout, and the exit status of the JSON envelope.
//!
//! Each call runs twice, as JSON and as text: the text must carry the envelope's own
//! hint, whatever its wording.

use serde_json::json;

use crate::support::{Run, TestWorkspace};

/// Runs `args` with `stdin` as JSON, then as text; asserts that the text call printed
/// nothing on stdout and exited as the JSON one did, and that its stderr is `facts`
/// followed by the envelope's hint.
#[track_caller]
fn assert_text_refusal(ws: &TestWorkspace, args: &[&str], stdin: &str, facts: &str) -> Run {
    let run = ws.run_with_stdin(args, stdin);
    assert_eq!(run.envelope["ok"], false, "{}", run.stdout);
    let output = ws
        .cmd()
        .args(["--format", "text"])
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(output.stdout).unwrap(), "");
    assert_eq!(output.status.code(), Some(run.status));
    let hint = run.hint();
    assert!(!hint.is_empty(), "{}", run.stdout);
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        format!("{facts}hint: {hint}\n")
    );
    run
}

#[test]
fn no_match_shows_each_candidate_with_its_lines_and_exact_text() {
    let ws = TestWorkspace::new();
    ws.file(
        "greet.py",
        "def greet():\n    name = \"world\"\n    print(\"hello\", name)\n",
    );
    let run = assert_text_refusal(
        &ws,
        &[
            "edit",
            "greet.py",
            "--old",
            "    name = 'world'\n    print('hello', name)",
            "--new",
            "    pass",
        ],
        "",
        "error[NO_MATCH]: --old is not in `greet.py`\n\
         candidate, lines 2-3 (differs in content, similarity 0.886):\n\
         ~~~\n    \
         name = \"world\"\n    \
         print(\"hello\", name)\n\
         ~~~\n\
         (no newline at the end)\n",
    );
    assert_eq!(run.status, 1);
}

#[test]
fn no_match_keeps_a_candidate_s_line_endings_and_indentation() {
    let ws = TestWorkspace::new();
    ws.file("w.txt", "one\r\n\ttwo  three\r\nfour\r\n");
    assert_text_refusal(
        &ws,
        &["edit", "w.txt", "--old", "one\ntwo three", "--new", "2 3"],
        "",
        "error[NO_MATCH]: --old is not in `w.txt`\n\
         candidate, lines 1-2 (differs in whitespace, similarity 0.999):\n\
         ~~~\n\
         one\r\n\
         \ttwo  three\n\
         ~~~\n\
         (no newline at the end)\n",
    );
}

#[test]
fn no_match_shows_the_repaired_new_text_verbatim() {
    let ws = TestWorkspace::new();
    ws.file("Makefile", "build:\n\tcargo build\n");
    assert_text_refusal(
        &ws,
        &[
            "edit",
            "Makefile",
            "--old",
            "build:\n    cargo build\n",
            "--new",
            "build:\n    cargo build --release\n",
        ],
        "",
        "error[NO_MATCH]: --old is not in `Makefile`\n\
         candidate, lines 1-2 (differs in indentation, similarity 0.999):\n\
         ~~~\n\
         build:\n\
         \tcargo build\n\
         ~~~\n\
         repaired --new:\n\
         ~~~\n\
         build:\n\
         \tcargo build --release\n\
         ~~~\n",
    );
}

#[test]
fn an_ambiguous_match_shows_the_lines_it_matched() {
    let ws = TestWorkspace::new();
    ws.file("a.rs", "let x = 1;\nfn f() {}\nlet x = 1;\n");
    assert_text_refusal(
        &ws,
        &["edit", "a.rs", "--old", "let x = 1;", "--new", "let x = 2;"],
        "",
        "error[AMBIGUOUS_MATCH]: --old appears 2 times in `a.rs`, so the edit is \
         ambiguous\n\
         matched at lines: 1, 3\n",
    );
    assert_text_refusal(
        &ws,
        &[
            "edit",
            "a.rs",
            "--old",
            "let x = 1;",
            "--new",
            "let x = 2;",
            "--expected-replacements",
            "3",
        ],
        "",
        "error[MATCH_COUNT_MISMATCH]: --old appears 2 times in `a.rs`, but \
         --expected-replacements is 3\n\
         matched at lines: 1, 3\n",
    );
}

#[test]
fn a_failing_item_of_edits_is_named() {
    let ws = TestWorkspace::new();
    ws.file("a.rs", "let x = 1;\nlet x = 1;\n");
    assert_text_refusal(
        &ws,
        &["edit", "--json"],
        &json!({"path": "a.rs", "edits": [
            {"oldText": "let", "newText": "const", "replaceAll": true},
            {"oldText": "const x = 1;", "newText": "let x = 2;"}
        ]})
        .to_string(),
        "error[AMBIGUOUS_MATCH]: oldText appears 2 times in `a.rs`, so the edit is \
         ambiguous\n\
         in edits[1]\n\
         matched at lines: 1, 2\n",
    );
    assert_eq!(ws.read_string("a.rs"), "let x = 1;\nlet x = 1;\n");
}

#[test]
fn not_found_shows_the_near_names_or_none() {
    let ws = TestWorkspace::new();
    ws.file("src/main.rs", "").file("src/mains.rs", "");
    assert_text_refusal(
        &ws,
        &["read", "src/man.rs"],
        "",
        "error[NOT_FOUND]: `src/man.rs` does not exist\n\
         near names: src/main.rs, src/mains.rs\n",
    );
    assert_text_refusal(
        &ws,
        &["read", "zzzzzz/qqqq.txt"],
        "",
        "error[NOT_FOUND]: `zzzzzz/qqqq.txt` does not exist\n",
    );
}

#[test]
fn an_unknown_field_shows_the_allowed_fields() {
    let ws = TestWorkspace::new();
    let run = assert_text_refusal(
        &ws,
        &["list", "--json"],
        r#"{"dpeth": 2}"#,
        "error[INVALID_ARGUMENT]: list_directory has no field `dpeth`; the allowed fields \
         are path, depth, includeIgnored, limit\n\
         allowed fields: path, depth, includeIgnored, limit\n",
    );
    assert_eq!(run.status, 2);
}
