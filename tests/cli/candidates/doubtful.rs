//! Whole envelopes where the carried change must be re-indented, stripped of numbers or
//! not offered at all, and where `okIfApplied` must not call an edit applied: a rewritten
//! line at the file's indentation, an insertion beside words the file wrapped away, a
//! line the caller added without a number, a deletion whose deleted line is still there,
//! and a result changed back by hand while its newText sits elsewhere.

use serde_json::json;

use crate::support::TestWorkspace;

const CARRIED: &str = "Retry with oldText = candidates[0].text and newText = candidates[0].newText: that newText is your change carried onto the file's text.";
const CARRIED_FLAGS: &str = "Retry with --old = candidates[0].text and --new = candidates[0].newText (--old-from and --new-from FILE for several lines): that repaired --new is your change carried onto the file's text.";

#[test]
fn a_rewritten_line_of_a_dedented_edit_takes_the_file_s_indentation() {
    let ws = TestWorkspace::new();
    let text = include_str!("fixtures/textwrap.py");
    ws.file("textwrap.py", text);
    let old = "for indent in indents:\n    if margin is None:\n        margin = indent\n";
    let new = "for indent in indents:\n    if margin is None:\n        break\n";
    let run = ws.stitch(
        "edit",
        &json!({"path": "textwrap.py", "oldText": old, "newText": new}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NO_MATCH",
        "details": {
            "message": "oldText is not in `textwrap.py`",
            "path": "textwrap.py",
            "candidates": [{
                "startLine": 437,
                "endLine": 439,
                "text": "    for indent in indents:\n        if margin is None:\n            margin = indent\n",
                "similarity": 0.999,
                "difference": "indentation",
                "newText": "    for indent in indents:\n        if margin is None:\n            break\n"
            }, {
                "startLine": 448,
                "endLine": 449,
                "text": "        elif margin.startswith(indent):\n            margin = indent\n",
                "similarity": 0.585,
                "difference": "content"
            }]
        },
        "_hint": CARRIED
    }));
    let offered = &run.envelope["details"]["candidates"][0];
    ws.stitch(
        "edit",
        &json!({"path": "textwrap.py", "oldText": offered["text"], "newText": offered["newText"]}),
    )
    .ok();
    assert_eq!(
        ws.read_string("textwrap.py"),
        text.replacen(
            "        if margin is None:\n            margin = indent\n",
            "        if margin is None:\n            break\n",
            1
        )
    );
    let compiled = std::process::Command::new("python3")
        .args(["-m", "py_compile"])
        .arg(ws.path("textwrap.py"))
        .status();
    if let Ok(status) = compiled {
        assert!(status.success(), "the repaired file does not compile");
    }
}

/// A line remembered whole that the file continues on the next: the candidate takes
/// both lines, and the change is carried onto the piece it was made in.
#[test]
fn a_line_the_file_continues_is_one_passage_and_the_change_lands_on_its_piece() {
    let ws = TestWorkspace::new();
    let text = "fn main() {\n    let re =\n        Regex::new(r\"^\\d+$\").unwrap();\n    println!(\"{}\", re.is_match(\"42\"));\n}\n";
    ws.file("main.rs", text);
    let run = ws.stitch(
        "edit",
        &json!({"path": "main.rs",
                "oldText": "    let re = Regex::new(r\"^\\d+$\").unwrap();",
                "newText": "    let re: Regex = Regex::new(r\"^\\d+$\").unwrap();"}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NO_MATCH",
        "details": {
            "message": "oldText is not in `main.rs`",
            "path": "main.rs",
            "candidates": [{
                "startLine": 2,
                "endLine": 3,
                "text": "    let re =\n        Regex::new(r\"^\\d+$\").unwrap();",
                "newText": "    let re: Regex =\n        Regex::new(r\"^\\d+$\").unwrap();",
                "similarity": 0.978,
                "difference": "whitespace"
            }]
        },
        "_hint": "Retry with oldText = candidates[0].text and newText = candidates[0].newText: that newText is your change carried onto the file's text."
    }));
    assert_eq!(ws.read_string("main.rs"), text);
    // A change within the second piece lands there.
    let run = ws.stitch(
        "edit",
        &json!({"path": "main.rs",
                "oldText": "    let re = Regex::new(r\"^\\d+$\").unwrap();",
                "newText": "    let re = Box::new(Regex::new(r\"^\\d+$\").unwrap());"}),
    );
    assert_eq!(
        run.envelope["details"]["candidates"][0]["newText"],
        "    let re =\n        Box::new(Regex::new(r\"^\\d+$\").unwrap());",
        "{}",
        run.stdout
    );
    // An insertion where the file cuts the line (between `=` and `Regex`) could belong
    // to either line: it is not offered.
    let run = ws.stitch(
        "edit",
        &json!({"path": "main.rs",
                "oldText": "    let re = Regex::new(r\"^\\d+$\").unwrap();",
                "newText": "    let re = /* checked */ Regex::new(r\"^\\d+$\").unwrap();"}),
    );
    let envelope = &run.envelope;
    assert_eq!(envelope["error"], "NO_MATCH", "{envelope}");
    assert!(
        envelope["details"]["candidates"][0]["newText"].is_null(),
        "{envelope}"
    );
    assert_eq!(ws.read_string("main.rs"), text);
}

#[test]
fn a_line_added_without_a_number_to_a_numbered_edit_is_carried_without_numbers() {
    let ws = TestWorkspace::new();
    ws.file("a.py", "import os\n\ndef main():\n    print(os.getcwd())\n");
    let run = ws.stitch(
        "edit",
        &json!({"path": "a.py",
                "oldText": "     3\tdef main():\n     4\t    print(os.getcwd())",
                "newText": "     3\tdef main():\n    os.chdir('/')\n     4\t    print(os.getcwd())"}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NO_MATCH",
        "details": {
            "message": "oldText is not in `a.py`",
            "path": "a.py",
            "candidates": [{
                "startLine": 3,
                "endLine": 4,
                "text": "def main():\n    print(os.getcwd())",
                "similarity": 1.0,
                "difference": "line-numbers",
                "newText": "def main():\n    os.chdir('/')\n    print(os.getcwd())"
            }]
        },
        "_hint": CARRIED
    }));
    let offered = &run.envelope["details"]["candidates"][0];
    ws.stitch(
        "edit",
        &json!({"path": "a.py", "oldText": offered["text"], "newText": offered["newText"]}),
    )
    .ok();
    assert_eq!(
        ws.read_string("a.py"),
        "import os\n\ndef main():\n    os.chdir('/')\n    print(os.getcwd())\n"
    );
}

#[test]
fn a_deletion_is_not_already_applied_while_the_deleted_line_is_there() {
    let ws = TestWorkspace::new();
    let text = "fn main() {\n    debug_dump()\n    run()\n}\n";
    ws.file("main.rs", text);
    let run = ws.run(&[
        "edit",
        "main.rs",
        "--old",
        "debug_dump()\nrun()",
        "--new",
        "run()",
        "--ok-if-applied",
    ]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NO_MATCH",
        "details": {
            "message": "--old is not in `main.rs`",
            "path": "main.rs",
            "candidates": [{
                "startLine": 2,
                "endLine": 3,
                "text": "    debug_dump()\n    run()",
                "similarity": 0.999,
                "difference": "indentation",
                "newText": "    run()"
            }]
        },
        "_hint": CARRIED_FLAGS
    }));
    assert_eq!(run.status, 1);
    assert_eq!(ws.read_string("main.rs"), text);
}

#[test]
fn the_already_applied_hint_names_no_caller_new_text_to_keep() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a = 1\nb = 2 EDITED\nc = 3\n");
    let run = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "oldText": "b = 2\nc = 3", "newText": "b = 2 EDITED\nc = 3"}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NO_MATCH",
        "details": {
            "message": "oldText is not in `a.txt`",
            "path": "a.txt",
            "candidates": [{
                "startLine": 2,
                "endLine": 3,
                "text": "b = 2 EDITED\nc = 3",
                "similarity": 0.933,
                "difference": "content"
            }],
            "alreadyApplied": true
        },
        "_hint": "newText is already in the file, once and where oldText would stand, so the edit may be applied already: re-read the file to confirm (or pass okIfApplied: true to accept that); otherwise re-read the passage and write both oldText and newText again from it."
    }));
}

#[test]
fn a_journaled_edit_changed_back_by_hand_is_not_already_applied() {
    let ws = TestWorkspace::new();
    ws.file("app.toml", "retries = 3\ntimeout = 30\n");
    let bump = [
        "edit",
        "app.toml",
        "--old",
        "retries = 3",
        "--new",
        "retries = 5",
        "--ok-if-applied",
    ];
    assert_eq!(ws.run(&bump).ok()["applied"], true);
    // Changed back by hand, spaced otherwise, with the journaled newText in a comment.
    let back = "retries  = 3\ntimeout = 30\n# retries = 5 was too many\n";
    ws.file("app.toml", back);
    let again = ws.run(&bump);
    again.assert_envelope(&json!({
        "ok": false,
        "error": "NO_MATCH",
        "details": {
            "message": "--old is not in `app.toml`",
            "path": "app.toml",
            "candidates": [{
                "startLine": 1,
                "endLine": 1,
                "text": "retries  = 3",
                "similarity": 0.999,
                "difference": "whitespace",
                "newText": "retries  = 5"
            }]
        },
        "_hint": CARRIED_FLAGS
    }));
    assert_eq!(again.status, 1);
    assert_eq!(ws.read_string("app.toml"), back);
}
