//! Whole envelopes of the repaired call: a caller who misremembers a passage wrote its
//! newText from the same memory, and the candidate's `newText` carries the change onto
//! the file's text; following the hint to the letter writes what the caller meant. The
//! cases new users met: a dedented Python edit, a Makefile recipe typed with spaces, a
//! skipped line, a call re-wrapped over two lines, a token cut inside a word, line
//! numbers pasted from a numbered read — and okIfApplied as a claim about this edit.

use serde_json::{json, Value};

use crate::support::TestWorkspace;

const CARRIED: &str = "Retry with oldText = candidates[0].text and newText = candidates[0].newText: that newText is your change carried onto the file's text.";
const CARRIED_FLAGS: &str = "Retry with --old = candidates[0].text and --new = candidates[0].newText (--old-from and --new-from FILE for several lines): that repaired --new is your change carried onto the file's text.";

fn no_match(path: &str, candidates: &Value, hint: &str) -> Value {
    // By flags the sentence names the flag, as the hint does.
    let old = if hint == CARRIED_FLAGS {
        "--old"
    } else {
        "oldText"
    };
    json!({
        "ok": false,
        "error": "NO_MATCH",
        "details": {
            "message": format!("{old} is not in `{path}`"),
            "path": path,
            "candidates": candidates
        },
        "_hint": hint
    })
}

/// Sends the edit, asserts the whole refusal, follows its hint to the letter and returns
/// the file it gave.
fn follow(ws: &TestWorkspace, path: &str, old: &str, new: &str, candidates: &Value) -> String {
    let run = ws.stitch(
        "edit",
        &json!({"path": path, "oldText": old, "newText": new}),
    );
    run.assert_envelope(&no_match(path, candidates, CARRIED));
    let offered = &run.envelope["details"]["candidates"][0];
    ws.stitch(
        "edit",
        &json!({"path": path, "oldText": offered["text"], "newText": offered["newText"]}),
    )
    .ok();
    ws.read_string(path)
}

#[test]
fn a_dedented_python_edit_is_carried_at_the_file_s_indentation() {
    let ws = TestWorkspace::new();
    let text = include_str!("fixtures/textwrap.py");
    ws.file("textwrap.py", text);
    let old = "for indent in indents:\n    if margin is None:\n        margin = indent\n";
    let new = "for indent in indents:\n    if margin is None:\n        margin = indent\n        continue\n";
    let got = follow(
        &ws,
        "textwrap.py",
        old,
        new,
        &json!([{
            "startLine": 437,
            "endLine": 439,
            "text": "    for indent in indents:\n        if margin is None:\n            margin = indent\n",
            "similarity": 0.999,
            "difference": "indentation",
            "newText": "    for indent in indents:\n        if margin is None:\n            margin = indent\n            continue\n"
        }, {
            "startLine": 448,
            "endLine": 449,
            "text": "        elif margin.startswith(indent):\n            margin = indent\n",
            "similarity": 0.585,
            "difference": "content"
        }]),
    );
    assert_eq!(
        got,
        text.replace(
            "            margin = indent\n\n        # Current line more",
            "            margin = indent\n            continue\n\n        # Current line more"
        )
    );
    // Python takes the file as it is.
    let compiled = std::process::Command::new("python3")
        .args(["-m", "py_compile"])
        .arg(ws.path("textwrap.py"))
        .status();
    if let Ok(status) = compiled {
        assert!(status.success(), "the repaired file does not compile");
    }
}

#[test]
fn a_makefile_recipe_typed_with_spaces_keeps_its_tabs() {
    let ws = TestWorkspace::new();
    ws.file("Makefile", "build:\n\tcargo build\n\ntest:\n\tcargo test\n");
    let run = ws.run(&[
        "edit",
        "Makefile",
        "--old",
        "build:\n    cargo build",
        "--new",
        "build:\n    cargo build --release\n    strip target/release/app",
    ]);
    run.assert_envelope(&no_match(
        "Makefile",
        &json!([{
            "startLine": 1,
            "endLine": 2,
            "text": "build:\n\tcargo build",
            "similarity": 0.999,
            "difference": "indentation",
            "newText": "build:\n\tcargo build --release\n\tstrip target/release/app"
        }]),
        CARRIED_FLAGS,
    ));
    let offered = &run.envelope["details"]["candidates"][0];
    ws.run(&[
        "edit",
        "Makefile",
        "--old",
        offered["text"].as_str().unwrap(),
        "--new",
        offered["newText"].as_str().unwrap(),
    ])
    .ok();
    assert_eq!(
        ws.read_string("Makefile"),
        "build:\n\tcargo build --release\n\tstrip target/release/app\n\ntest:\n\tcargo test\n"
    );
}

#[test]
fn a_line_the_caller_skipped_is_kept() {
    let ws = TestWorkspace::new();
    ws.file(
        "settings.py",
        "DEBUG = False\nALLOWED = ['a']\nSECRET = env('KEY')\nPORT = 80\n",
    );
    let got = follow(
        &ws,
        "settings.py",
        "DEBUG = False\nSECRET = env('KEY')",
        "DEBUG = True\nSECRET = env('KEY')",
        &json!([{
            "startLine": 1,
            "endLine": 3,
            "text": "DEBUG = False\nALLOWED = ['a']\nSECRET = env('KEY')",
            "similarity": 0.805,
            "difference": "content",
            "newText": "DEBUG = True\nALLOWED = ['a']\nSECRET = env('KEY')"
        }]),
    );
    assert_eq!(
        got,
        "DEBUG = True\nALLOWED = ['a']\nSECRET = env('KEY')\nPORT = 80\n"
    );
}

#[test]
fn a_call_remembered_over_two_lines_is_the_file_s_one_line() {
    let ws = TestWorkspace::new();
    ws.file(
        "main.rs",
        "fn main() {\n    let re = Regex::new(r\"^\\d+$\").unwrap();\n    println!(\"{}\", re.is_match(\"42\"));\n}\n",
    );
    let got = follow(
        &ws,
        "main.rs",
        "    let re =\n        Regex::new(r\"^\\d+$\").unwrap();",
        "    let re =\n        Regex::new(r\"^\\d+$\").expect(\"a valid pattern\");",
        &json!([{
            "startLine": 2,
            "endLine": 2,
            "text": "    let re = Regex::new(r\"^\\d+$\").unwrap();",
            "similarity": 0.978,
            "difference": "whitespace",
            "newText": "    let re = Regex::new(r\"^\\d+$\").expect(\"a valid pattern\");"
        }]),
    );
    // `let re =` once: copying a fragment of the line would have written it twice.
    assert_eq!(got.matches("let re =").count(), 1);
    assert!(got.contains("    let re = Regex::new(r\"^\\d+$\").expect(\"a valid pattern\");\n"));
}

#[test]
fn a_candidate_never_ends_inside_a_word() {
    let ws = TestWorkspace::new();
    ws.file(
        "total.rs",
        "fn total(alpha: u32, gamma: u32) -> u32 {\n    alpha + gamma\n}\n",
    );
    let got = follow(
        &ws,
        "total.rs",
        "    alpha + beta",
        "    alpha + beta + 1",
        &json!([{
            "startLine": 2,
            "endLine": 2,
            "text": "    alpha + gamma",
            "similarity": 0.72,
            "difference": "content",
            "newText": "    alpha + gamma + 1"
        }]),
    );
    assert_eq!(
        got,
        "fn total(alpha: u32, gamma: u32) -> u32 {\n    alpha + gamma + 1\n}\n"
    );
}

#[test]
fn line_numbers_pasted_from_a_numbered_read_are_left_out() {
    let ws = TestWorkspace::new();
    ws.file("a.py", "import os\n\ndef main():\n    print(os.getcwd())\n");
    let got = follow(
        &ws,
        "a.py",
        "     3\tdef main():\n     4\t    print(os.getcwd())",
        "     3\tdef main():\n     4\t    print(os.getcwd(), flush=True)",
        &json!([{
            "startLine": 3,
            "endLine": 4,
            "text": "def main():\n    print(os.getcwd())",
            "similarity": 1.0,
            "difference": "line-numbers",
            "newText": "def main():\n    print(os.getcwd(), flush=True)"
        }]),
    );
    assert_eq!(
        got,
        "import os\n\ndef main():\n    print(os.getcwd(), flush=True)\n"
    );
}

#[test]
fn a_change_the_file_contradicts_is_not_offered() {
    let ws = TestWorkspace::new();
    ws.file("v.txt", "name = demo\nversion = 1.0.0\n");
    // The caller remembers 0.9.0 and bumps it; the file says 1.0.0: both changed the
    // same token, so no newText is offered and nothing is written.
    let run = ws.stitch(
        "edit",
        &json!({"path": "v.txt", "oldText": "version = 0.9.0", "newText": "version = 0.9.1"}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NO_MATCH",
        "details": {
            "message": "oldText is not in `v.txt`",
            "path": "v.txt",
            "candidates": [{
                "startLine": 2,
                "endLine": 2,
                "text": "version = 1.0.0",
                "similarity": 0.867,
                "difference": "content"
            }]
        },
        "_hint": "Your change could not be carried onto the file's text without doubt: re-read line 2 of `v.txt` and write both oldText and newText again from it."
    }));
    assert_eq!(ws.read_string("v.txt"), "name = demo\nversion = 1.0.0\n");
}

#[test]
fn ok_if_applied_holds_for_a_short_version_bump_run_twice() {
    let ws = TestWorkspace::new();
    ws.file("VERSION", "1.2.3\n");
    let bump = [
        "edit",
        "VERSION",
        "--old",
        "1.2.3",
        "--new",
        "1.3.0",
        "--ok-if-applied",
    ];
    let first = ws.run(&bump);
    assert_eq!(first.ok()["applied"], true, "{}", first.stdout);
    let again = ws.run(&bump);
    assert_eq!(again.status, 0, "{}", again.stdout);
    assert_eq!(again.ok()["applied"], false);
    assert_eq!(again.ok()["alreadyApplied"], true);
    assert_eq!(ws.read_string("VERSION"), "1.3.0\n");
}

#[test]
fn ok_if_applied_is_no_match_when_new_text_only_occurs_elsewhere() {
    let ws = TestWorkspace::new();
    let text = "[package]\nversion = \"1.2.3\"\n\n[dependencies]\nserde = \"1.3.0\"\n";
    ws.file("Cargo.toml", text);
    // A mistyped old version; 1.3.0 sits in a dependency line.
    let run = ws.run(&[
        "edit",
        "Cargo.toml",
        "--old",
        "version = \"1.2.4\"",
        "--new",
        "version = \"1.3.0\"",
        "--ok-if-applied",
    ]);
    let details = run.refused("NO_MATCH");
    assert_eq!(run.status, 1);
    assert!(details.get("alreadyApplied").is_none(), "{}", run.stdout);
    let bare = ws.run(&[
        "edit",
        "Cargo.toml",
        "--old",
        "1.2.4",
        "--new",
        "1.3.0",
        "--ok-if-applied",
    ]);
    let details = bare.refused("NO_MATCH");
    assert!(details.get("alreadyApplied").is_none(), "{}", bare.stdout);
    assert_eq!(bare.status, 1);
    assert_eq!(ws.read_string("Cargo.toml"), text);
}
