//! The gate parses the regions of a change first (the changed lines widened to whole
//! items, inside the lines that open and close their blocks), and the whole result only
//! when a region has an error: an error that only the rest of the file shows is still
//! refused, and a large file is checked again when its change parses.

use std::fmt::Write as _;

use serde_json::json;

use crate::support::TestWorkspace;

/// A C++ file of a namespace of functions, then functions outside it.
fn namespaced() -> String {
    let unit = |prefix: &str, n: usize| format!("int {prefix}{n}() {{ return {n}; }}\n");
    let inside: String = (1..=8).map(|n| unit("a", n) + "\n").collect();
    let outside: String = (1..=8).map(|n| unit("b", n) + "\n").collect();
    format!("namespace n {{\n\n{inside}}}  // namespace n\n\n{outside}")
}

/// The namespace's closing brace deleted: the functions around it still parse, and the
/// file as it was shows their region held a brace that closes a block opened before it.
#[test]
fn an_error_only_the_whole_file_shows_is_still_refused() {
    let ws = TestWorkspace::new();
    ws.file("n.cpp", namespaced());
    let run = ws.run(&["edit", "n.cpp", "--old", "}  // namespace n\n", "--new", ""]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "SYNTAX_ERROR",
        "details": {
            "message": "The change would leave `n.cpp` unparseable at line 34, column 23: missing \"}\"; nothing was changed",
            "path": "n.cpp",
            "language": "cpp",
            "line": 34,
            "column": 23,
            "endLine": 34,
            "excerpt": "int b8() { return 8; }\n                      ^",
            "expected": "}",
            "field": "newText"
        },
        "_hint": "Fix --new so that `n.cpp` parses at line 34 (details.excerpt shows where), and send the call again; or pass --allow-syntax-errors if a later change completes it."
    }));
    assert_eq!(ws.read_string("n.cpp"), namespaced());
}

/// A Python file of about 600 KiB: its whole parse takes longer than the default time
/// bound; a change whose region parses is checked all the same.
#[test]
fn a_large_file_is_checked_when_its_change_parses() {
    let ws = TestWorkspace::new();
    let text = (0..12_000).fold(String::new(), |mut text, n| {
        let _ = write!(text, "def f{n}(a):\n    return [a, (a + {n})] * 3\n\n");
        text
    });
    ws.file("big.py", &text);
    let run = ws.run(&[
        "edit",
        "big.py",
        "--old",
        "(a + 6000)",
        "--new",
        "(a + 6001)",
    ]);
    let data = run.ok();
    assert_eq!(data["applied"], true, "{data}");
    assert!(data.get("syntaxUnchecked").is_none(), "{data}");
    assert!(data.get("syntaxErrors").is_none(), "{data}");
}
