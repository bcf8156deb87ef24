//! What the gate leaves unchecked, and says so: a file over `maxGateBytes`, a parse over
//! `maxGateMillis` (cut short, the change passed through); in C and C++, errors the
//! preprocessor could explain (listed, not refused); and `stitch mcp`, which
//! keeps each version's tree, judging a later change as a fresh process does.

use serde_json::json;

use crate::support::{envelope_of, McpServer, TestWorkspace};

/// A Python file of some 600 KiB, which no parse finishes in a millisecond.
fn big_python() -> String {
    "def f(a):\n    return [a, (a + 1)] * 3\n".repeat(16_000)
}

#[test]
fn a_parse_over_the_time_bound_passes_the_change_and_says_so() {
    let ws = TestWorkspace::new();
    ws.file("big.py", big_python())
        .file(".stitch/config.json", r#"{"limits": {"maxGateMillis": 1}}"#);
    let text = big_python();
    let broken = format!("{text}def g(:\n");
    let args = json!({"path": "big.py", "content": broken, "overwrite": true});
    let data = ws.stitch("write", &args).ok().clone();
    assert_eq!(data["applied"], true, "{data}");
    assert_eq!(
        data["syntaxUnchecked"],
        json!([{"path": "big.py", "language": "python", "reason": "timeLimit"}])
    );
    assert!(data.get("syntaxErrors").is_none(), "{data}");
    assert_eq!(ws.read_string("big.py"), broken);
    let output = ws
        .cmd()
        .args([
            "--format", "text", "edit", "big.py", "--old", "def g(:", "--new", "def g():",
        ])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(output.stdout).unwrap().lines().last(),
        Some(
            "syntax not checked: big.py (python): its parse took longer than limits.maxGateMillis"
        )
    );
}

#[test]
fn a_file_over_the_size_bound_passes_and_says_so() {
    let ws = TestWorkspace::new();
    ws.file("a.py", "def f():\n    return 1\n")
        .file(".stitch/config.json", r#"{"limits": {"maxGateBytes": 10}}"#);
    let run = ws.run(&["edit", "a.py", "--old", "return 1", "--new", "return (1"]);
    assert_eq!(
        run.ok()["syntaxUnchecked"],
        json!([{"path": "a.py", "language": "python", "reason": "tooLarge"}])
    );
}

/// sds's tests call `test_cond(...)`, a macro that expands to a whole block, with no `;`.
const MACRO_C: &str = "#include \"testhelp.h\"\n\nint main(void) {\n    sds x = sdsnew(\"foo\");\n    test_cond(\"Create a string (and its length)\",\n        sdslen(x) == 3)\n    sdsfree(x);\n    return 0;\n}\n";

/// A header whose `extern "C" {` opens and closes in separate `#ifdef` blocks.
const SPLIT_H: &str =
    "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(void);\n#ifdef __cplusplus\n}\n#endif\n";

#[test]
fn what_the_c_preprocessor_could_explain_is_listed_not_refused() {
    let ws = TestWorkspace::new();
    let data = ws
        .stitch("write", &json!({"path": "t.c", "content": MACRO_C}))
        .ok()
        .clone();
    assert_eq!(data["applied"], true);
    assert_eq!(
        data["syntaxErrors"],
        json!([{
            "path": "t.c", "language": "c", "line": 6, "column": 24, "endLine": 6,
            "excerpt": "        sdslen(x) == 3)\n                       ^",
            "expected": ";", "possiblePreprocessor": true
        }])
    );
    let data = ws
        .stitch("write", &json!({"path": "s.h", "content": SPLIT_H}))
        .ok()
        .clone();
    assert_eq!(data["applied"], true);
    assert_eq!(data["syntaxErrors"][0]["language"], "cpp", "{data}");
    assert_eq!(data["syntaxErrors"][0]["possiblePreprocessor"], true);
    // The same file with a bracket left open besides is refused, at the bracket.
    let broken = MACRO_C.replace("return 0;", "return (0;");
    let args = json!({"path": "u.c", "content": broken});
    let details = ws.stitch("write", &args).refused("SYNTAX_ERROR").clone();
    assert_eq!(
        (details["line"].as_u64(), details["expected"].as_str()),
        (Some(8), Some(")")),
        "{details}"
    );
    assert!(!ws.exists("u.c"));
}

#[test]
fn a_c_change_that_unpairs_a_bracket_or_opens_a_quote_is_refused() {
    let ws = TestWorkspace::new();
    let text =
        "int main(void) {\n    if (n > 0) {\n        puts(\"many\");\n    }\n    return 0;\n}\n";
    ws.file("w.c", text);
    for (old, new, line) in [
        ("if (n > 0) {", "if (n > 0 {", 2),
        ("    }\n", "", 5),
        ("puts(\"many\");", "puts(\"many);", 3),
    ] {
        let details = ws
            .run(&["edit", "w.c", "--old", old, "--new", new])
            .refused("SYNTAX_ERROR")
            .clone();
        assert_eq!(details["line"], line, "{old:?}: {details}");
    }
    assert_eq!(ws.read_string("w.c"), text);
    // A `;` dropped is what a macro statement looks like: listed, not refused.
    let data = ws
        .run(&[
            "edit",
            "w.c",
            "--old",
            "puts(\"many\");",
            "--new",
            "puts(\"many\")",
        ])
        .ok()
        .clone();
    assert_eq!(
        data["syntaxErrors"][0]["possiblePreprocessor"], true,
        "{data}"
    );
}

#[test]
fn the_server_keeps_trees_and_judges_as_a_fresh_process_does() {
    let ws = TestWorkspace::new();
    ws.file("a.rs", "fn main() {\n    let x = 1;\n}\n");
    let mut server = McpServer::start(&ws, &["--no-session"], &[]);
    server.initialize("2025-06-18");
    let mut call = |old: &str, new: &str| {
        envelope_of(&server.call(
            "edit_file",
            &json!({"path": "a.rs", "oldText": old, "newText": new}),
        ))
    };
    // Each call parses from the tree the one before kept.
    assert_eq!(call("let x = 1;", "let x = 2;")["ok"], true);
    assert_eq!(call("let x = 2;", "let x = 3;")["ok"], true);
    let refused = call("let x = 3;", "let x = (3;");
    assert_eq!(refused["error"], "SYNTAX_ERROR", "{refused}");
    assert_eq!(
        (
            refused["details"]["line"].as_u64(),
            refused["details"]["column"].as_u64()
        ),
        (Some(2), Some(15))
    );
    assert_eq!(call("let x = 3;", "let x = (3);")["ok"], true);
    server.close(std::time::Duration::from_secs(5));
    assert_eq!(ws.read_string("a.rs"), "fn main() {\n    let x = (3);\n}\n");
}
