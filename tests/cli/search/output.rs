//! What a match looks like: context lines, (path, line) order, path mode, and a window on
//! a very long line.

use serde_json::json;

use crate::support::TestWorkspace;

use super::{at, located};

/// Lines `l1`..`l12` with `HIT` on line 6 only.
const ONE_HIT: &str = "l1\nl2\nl3\nl4\nl5\nHIT\nl7\nl8\nl9\nl10\nl11\nl12\n";

#[test]
fn context_gives_lines_before_and_after() {
    let ws = TestWorkspace::new();
    ws.file("c.txt", ONE_HIT).file("edge.txt", "HIT\nnext\n");

    let run = ws.run(&["search", "HIT", "--context", "2"]);
    assert_eq!(
        run.ok()["matches"],
        json!([
            {"path": "c.txt", "line": 6, "text": "HIT",
             "before": ["l4", "l5"], "after": ["l7", "l8"]},
            {"path": "edge.txt", "line": 1, "text": "HIT",
             "before": [], "after": ["next"]},
        ]),
        "{}",
        run.stdout
    );

    let short = ws.run(&["search", "HIT", "-C", "1", "--path", "c.txt"]);
    assert_eq!(
        short.ok()["matches"],
        json!([{"path": "c.txt", "line": 6, "text": "HIT", "before": ["l5"], "after": ["l7"]}]),
        "{}",
        short.stdout
    );

    // Without context there are no before/after fields at all.
    let bare = ws.run(&["search", "HIT", "--path", "c.txt"]);
    assert_eq!(
        bare.ok()["matches"],
        json!([{"path": "c.txt", "line": 6, "text": "HIT"}]),
        "{}",
        bare.stdout
    );

    let most = ws.stitch(
        "search",
        &json!({"query": "HIT", "path": "c.txt", "context": 10}),
    );
    let m = &most.ok()["matches"][0];
    assert_eq!(m["before"].as_array().unwrap().len(), 5, "{}", most.stdout);
    assert_eq!(m["after"].as_array().unwrap().len(), 6, "{}", most.stdout);
}

#[test]
fn each_match_carries_its_own_context() {
    let ws = TestWorkspace::new();
    ws.file("c.txt", "l1\nl2\nHIT3\nl4\nHIT5\nl6\nl7\nl8\n");
    // "Lines of context before and after each match": a neighbouring match does not
    // take the lines it shares with another.
    let run = ws.run(&["search", "HIT", "-C", "2"]);
    assert_eq!(
        run.ok()["matches"],
        json!([
            {"path": "c.txt", "line": 3, "text": "HIT3",
             "before": ["l1", "l2"], "after": ["l4", "HIT5"]},
            {"path": "c.txt", "line": 5, "text": "HIT5",
             "before": ["HIT3", "l4"], "after": ["l6", "l7"]},
        ]),
        "{}",
        run.stdout
    );

    // A limit that drops the second match does not shorten the first one's context.
    let first = ws.run(&["search", "HIT", "-C", "2", "--limit", "1"]);
    let data = first.ok();
    assert_eq!(data["truncated"], true);
    assert_eq!(
        data["matches"][0]["after"],
        json!(["l4", "HIT5"]),
        "{}",
        first.stdout
    );
}

#[test]
fn context_over_ten_is_an_invalid_argument() {
    let ws = TestWorkspace::new();
    ws.file("c.txt", ONE_HIT);
    let run = ws.run(&["search", "HIT", "--context", "11"]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {"message": "--context must be from 0 to 10", "field": "context"},
        "_hint": "Fix the `--context` argument and call again."
    }));
}

#[test]
fn matches_are_sorted_by_path_then_line() {
    let ws = TestWorkspace::new();
    ws.file("b.txt", "x\nhit\nhit\n")
        .file("a/z.txt", "hit\n")
        .file("a.txt", "y\ny\nhit\nhit\n")
        .file("a-b.txt", "hit\n")
        .file("B.txt", "hit\n");
    for i in 0..30 {
        ws.file(&format!("d{}/f{i:02}.txt", i % 3), "hit\nno\nhit\n");
    }
    let run = ws.run(&["search", "hit", "--limit", "1000"]);
    let found = located(run.ok());
    assert_eq!(
        found[..7],
        [
            at("B.txt", 1),
            at("a-b.txt", 1),
            at("a.txt", 3),
            at("a.txt", 4),
            at("a/z.txt", 1),
            at("b.txt", 2),
            at("b.txt", 3),
        ],
        "{}",
        run.stdout
    );
    assert_eq!(found.len(), 67);
    let mut sorted = found.clone();
    sorted.sort();
    assert_eq!(found, sorted, "{}", run.stdout);
}

#[test]
fn path_mode_returns_paths_only() {
    let ws = TestWorkspace::new();
    ws.file("src/main.rs", "fn main() {}\n")
        .file("src/lib.rs", "// see main\n")
        .file("docs/main.md", "main\n");

    let run = ws.run(&["search", "main", "--mode", "path"]);
    let data = run.ok();
    assert_eq!(
        data["matches"],
        json!([{"path": "docs/main.md"}, {"path": "src/main.rs"}]),
        "{}",
        run.stdout
    );
    assert_eq!(data["truncated"], false);

    let alias = ws.run(&["search", "main", "--paths-only"]);
    assert_eq!(alias.ok()["matches"], data["matches"], "{}", alias.stdout);

    // The query is matched against the whole workspace-relative path.
    let dirs = ws.run(&["search", "src/m", "--paths-only"]);
    assert_eq!(
        dirs.ok()["matches"],
        json!([{"path": "src/main.rs"}]),
        "{}",
        dirs.stdout
    );

    let content = ws.run(&["search", "main", "--mode", "content"]);
    assert_eq!(
        located(content.ok()),
        [
            at("docs/main.md", 1),
            at("src/lib.rs", 1),
            at("src/main.rs", 1)
        ]
    );
}

#[test]
fn an_unknown_mode_is_an_invalid_argument() {
    let ws = TestWorkspace::new();
    let run = ws.stitch("search", &json!({"query": "x", "mode": "files"}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "The field `mode` of search_files is not valid: unknown variant `files`, expected `content` or `path`",
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
            "field": "mode"
        },
        "_hint": "Fix the `mode` argument and call again."
    }));
}

#[test]
fn a_match_on_a_very_long_line_is_shown_in_a_window() {
    let ws = TestWorkspace::new();
    ws.file(
        "long.txt",
        format!("{}NEEDLE{}\n", "x".repeat(100_000), "y".repeat(10)),
    );
    let run = ws.run(&["search", "NEEDLE"]);
    let m = &run.ok()["matches"][0];
    assert_eq!(m["textTruncated"], true);
    let text = m["text"].as_str().unwrap();
    assert!(text.contains("NEEDLE") && text.len() <= 1000, "{text}");
}
