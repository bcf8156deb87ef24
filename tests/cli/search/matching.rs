//! What a query matches: literal by default, linear-time regexes (look-around and
//! backreferences refused with a rewrite), case, and the JSON arguments that set them.

use serde_json::json;

use crate::support::TestWorkspace;

use super::{at, located};

#[test]
fn the_query_is_literal_by_default() {
    let ws = TestWorkspace::new();
    ws.file("q.txt", "a.b\naxb\nA.B\n");
    let run = ws.run(&["search", "a.b"]);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "denied": 0,
            "matches": [{"line": 1, "path": "q.txt", "text": "a.b"}],
            "scannedFiles": 1,
            "skippedBinary": 0,
            "skippedLarge": 0,
            "truncated": false
        }
    }));

    // Regex metacharacters are plain text.
    ws.file("r.txt", "x(1+\n");
    let meta = ws.run(&["search", "(1+"]);
    assert_eq!(located(meta.ok()), [at("r.txt", 1)], "{}", meta.stdout);
}

#[test]
fn regex_matches_a_pattern() {
    let ws = TestWorkspace::new();
    ws.file("q.txt", "a.b\naxb\nA.B\nab\n");
    let run = ws.run(&["search", "a.b", "--regex"]);
    assert_eq!(
        run.ok()["matches"],
        json!([
            {"path": "q.txt", "line": 1, "text": "a.b"},
            {"path": "q.txt", "line": 2, "text": "axb"},
        ]),
        "{}",
        run.stdout
    );

    let anchored = ws.stitch("search", &json!({"query": "^a\\w?b$", "regex": true}));
    assert_eq!(
        located(anchored.ok()),
        [at("q.txt", 2), at("q.txt", 4)],
        "{}",
        anchored.stdout
    );
}

#[test]
fn ignore_case_matches_either_case() {
    let ws = TestWorkspace::new();
    ws.file("q.txt", "Needle\nneedle\nNEEDLE\nhay\n");
    let sensitive = ws.run(&["search", "needle"]);
    assert_eq!(located(sensitive.ok()), [at("q.txt", 2)]);

    for flag in ["-i", "--ignore-case"] {
        let run = ws.run(&["search", "needle", flag]);
        assert_eq!(
            located(run.ok()),
            [at("q.txt", 1), at("q.txt", 2), at("q.txt", 3)],
            "{}",
            run.stdout
        );
    }
}

#[test]
fn look_around_and_backreferences_must_be_rewritten() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "aa x\n");
    for pattern in ["a(?=x)", "(?<=a)x", "(a)\\1"] {
        let run = ws.run(&["search", pattern, "--regex"]);
        let details = run.refused("INVALID_PATTERN");
        assert_eq!(details["rewrite"], true, "{}", run.stdout);
        assert_eq!(details["pattern"], pattern, "{}", run.stdout);
        assert!(
            details["reason"].as_str().is_some_and(|r| !r.is_empty()),
            "{}",
            run.stdout
        );
        assert!(run.hint().contains("linear time"), "{}", run.stdout);
    }

    // Literally, the same text is just text.
    let literal = ws.run(&["search", "(a)\\1"]);
    assert!(located(literal.ok()).is_empty(), "{}", literal.stdout);
}

#[test]
fn an_invalid_regex_is_an_invalid_pattern() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "(\n");
    let run = ws.run(&["search", "(", "--regex"]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_PATTERN",
        "details": {
            "message": "The regex `(` does not compile: error: unclosed group",
            "field": "query",
            "pattern": "(",
            "reason": "regex parse error:\n    (?:()\n    ^\nerror: unclosed group"
        },
        "_hint": "Fix the pattern, or search literally (without regex)."
    }));

    // The same query searched literally finds the line.
    let literal = ws.run(&["search", "("]);
    assert_eq!(located(literal.ok()), [at("a.txt", 1)]);
}

#[test]
fn an_empty_query_is_an_invalid_argument() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a\n");
    let run = ws.run(&["search", ""]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {"message": "query is empty", "field": "query"},
        "_hint": "Fix the `QUERY` argument and call again."
    }));

    let missing = ws.stitch("search", &json!({"path": "."}));
    missing.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "search_files needs the field `query`",
            "allowed": [
                "query",
                "regex",
                "caseSensitive",
                "include",
                "path",
                "context",
                "mode",
                "limit",
                "includeIgnored"
            ],
            "field": "query"
        },
        "_hint": "Fix the `query` argument and call again."
    }));
}

#[test]
fn json_arguments_set_case_include_and_mode() {
    let ws = TestWorkspace::new();
    ws.file("src/Widget.rs", "struct WIDGET;\n")
        .file("src/widget.md", "a widget\n")
        .file("notes.txt", "Widget notes\n");

    let run = ws.stitch(
        "search",
        &json!({"query": "widget", "caseSensitive": false, "include": "*.rs"}),
    );
    assert_eq!(
        run.ok()["matches"],
        json!([{"path": "src/Widget.rs", "line": 1, "text": "struct WIDGET;"}]),
        "{}",
        run.stdout
    );

    let paths = ws.stitch(
        "search",
        &json!({"query": "WIDGET", "caseSensitive": false, "mode": "path", "path": "src"}),
    );
    assert_eq!(
        paths.ok()["matches"],
        json!([{"path": "src/Widget.rs"}, {"path": "src/widget.md"}]),
        "{}",
        paths.stdout
    );
}

#[test]
fn json_arguments_name_an_unknown_field_and_the_allowed_ones() {
    let ws = TestWorkspace::new();
    // `glob` is the flag's name; the JSON field is `include`.
    let unknown = ws.stitch("search", &json!({"query": "x", "glob": "*.rs"}));
    unknown.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "search_files has no field `glob`; the allowed fields are query, regex, caseSensitive, include, path, context, mode, limit, includeIgnored",
            "allowed": [
                "query",
                "regex",
                "caseSensitive",
                "include",
                "path",
                "context",
                "mode",
                "limit",
                "includeIgnored"
            ],
            "field": "glob"
        },
        "_hint": "Drop `glob`: the allowed fields are query, regex, caseSensitive, include, path, context, mode, limit, includeIgnored."
    }));
}
