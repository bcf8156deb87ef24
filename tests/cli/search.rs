//! `search_files`: literal by default, linear-time regexes, case, include globs, context,
//! (path, line) order, binary files, path mode, limits that keep the first matches
//! deterministically, ignore rules, symlinks out of the root, and the refusals.

use serde_json::{json, Value};

use crate::support::{Run, TestWorkspace};

/// Asserts success and that `data` holds each field of `expected` with exactly that value;
/// fields the contract adds elsewhere (a policy's counts) are left to their own tests.
#[track_caller]
fn assert_data(run: &Run, expected: &Value) {
    let data = run.ok();
    for (field, value) in expected.as_object().expect("expected fields") {
        assert_eq!(&data[field], value, "`{field}`: {}", run.stdout);
    }
}

/// `(path, line)` of every match, in the order returned.
fn located(data: &Value) -> Vec<(String, u64)> {
    data["matches"]
        .as_array()
        .expect("matches is an array")
        .iter()
        .map(|m| {
            (
                m["path"].as_str().expect("match path").to_owned(),
                m["line"].as_u64().expect("match line"),
            )
        })
        .collect()
}

fn at(path: &str, line: u64) -> (String, u64) {
    (path.to_owned(), line)
}

#[test]
fn the_query_is_literal_by_default() {
    let ws = TestWorkspace::new();
    ws.file("q.txt", "a.b\naxb\nA.B\n");
    let run = ws.run(&["search", "a.b"]);
    assert_data(
        &run,
        &json!({
            "matches": [{"path": "q.txt", "line": 1, "text": "a.b"}],
            "truncated": false,
            "scannedFiles": 1,
            "skippedBinary": 0,
        }),
    );

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

/// The same needle in files of several kinds and depths.
fn mixed_tree() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("top.rs", "needle\n")
        .file("notes.txt", "needle\n")
        .file("src/a.rs", "needle\n")
        .file("src/deep/x.rs", "needle\n")
        .file("src/readme.md", "needle\n");
    ws
}

#[test]
fn a_glob_without_a_slash_matches_file_names() {
    let ws = mixed_tree();
    let run = ws.run(&["search", "needle", "--glob", "*.rs"]);
    let data = run.ok();
    assert_eq!(
        located(data),
        [at("src/a.rs", 1), at("src/deep/x.rs", 1), at("top.rs", 1)],
        "{}",
        run.stdout
    );
    assert_eq!(data["scannedFiles"], 3, "{}", run.stdout);
}

#[test]
fn a_glob_with_a_slash_matches_paths() {
    let ws = mixed_tree();
    let run = ws.run(&["search", "needle", "--glob", "src/*.rs"]);
    assert_eq!(located(run.ok()), [at("src/a.rs", 1)], "{}", run.stdout);

    let deep = ws.run(&["search", "needle", "--glob", "src/**/*.rs"]);
    assert_eq!(
        located(deep.ok()),
        [at("src/a.rs", 1), at("src/deep/x.rs", 1)],
        "{}",
        deep.stdout
    );
}

#[test]
fn an_invalid_include_glob_is_an_invalid_pattern() {
    let ws = mixed_tree();
    let run = ws.run(&["search", "needle", "--glob", "a["]);
    let details = run.refused("INVALID_PATTERN");
    assert_eq!(details["pattern"], "a[", "{}", run.stdout);
    assert!(details["reason"].as_str().is_some_and(|r| !r.is_empty()));
}

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
    let details = run.refused("INVALID_ARGUMENT");
    assert_eq!(details["field"], "context", "{}", run.stdout);
    assert!(run.message().contains("10"), "{}", run.stdout);
    assert!(run.hint().contains("context"), "{}", run.stdout);
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
fn binary_files_are_skipped_and_counted() {
    let ws = TestWorkspace::new();
    ws.file("text.txt", "needle\n")
        .file("blob.bin", b"\x00\x01needle\x00\n".as_slice())
        .file("late.bin", [b"needle\n".repeat(100), vec![0u8]].concat());
    let run = ws.run(&["search", "needle"]);
    let data = run.ok();
    assert_eq!(
        data["matches"],
        json!([{"path": "text.txt", "line": 1, "text": "needle"}]),
        "{}",
        run.stdout
    );
    assert_eq!(data["skippedBinary"], 2, "{}", run.stdout);
    assert_eq!(data["truncated"], false);
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
    let details = run.refused("INVALID_ARGUMENT");
    assert_eq!(details["field"], "mode", "{}", run.stdout);
}

/// 200 files in 7 directories, each with `needle` on lines 1, 3 and 5; returns every
/// match in (path, line) order.
fn two_hundred_files(ws: &TestWorkspace) -> Vec<(String, u64)> {
    let mut all = Vec::new();
    for i in 0..200 {
        let path = format!("d{}/f{i:03}.txt", i % 7);
        ws.file(&path, "needle\nhay\nneedle\nhay\nneedle\n");
        for line in [1, 3, 5] {
            all.push((path.clone(), line));
        }
    }
    all.sort();
    all
}

#[test]
fn a_limit_keeps_the_first_matches_in_path_order_every_time() {
    let ws = TestWorkspace::new();
    let all = two_hundred_files(&ws);

    let mut runs = Vec::new();
    for _ in 0..5 {
        let run = ws.run(&["search", "needle", "--limit", "10"]);
        let data = run.ok();
        assert_eq!(data["truncated"], true, "{}", run.stdout);
        assert!(
            data["hint"].as_str().is_some_and(|h| h.contains("limit")),
            "{}",
            run.stdout
        );
        runs.push((data["matches"].clone(), located(data)));
    }
    let (first_matches, first) = &runs[0];
    assert_eq!(first, &all[..10], "the ten smallest (path, line) pairs");
    for (matches, _) in &runs[1..] {
        assert_eq!(matches, first_matches, "the same result on every run");
    }
}

#[test]
fn a_limit_reached_at_a_file_boundary_is_still_truncated() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "n\nn\n").file("b.txt", "n\n");
    for i in 0..20 {
        ws.file(&format!("z/f{i:02}.txt"), "n\n");
    }
    let run = ws.run(&["search", "n", "--limit", "2"]);
    let data = run.ok();
    assert_eq!(
        located(data),
        [at("a.txt", 1), at("a.txt", 2)],
        "{}",
        run.stdout
    );
    assert_eq!(
        data["truncated"], true,
        "23 matches, 2 shown: {}",
        run.stdout
    );
    assert!(data.get("hint").is_some(), "{}", run.stdout);

    let everything = ws.run(&["search", "n", "--limit", "23"]);
    let data = everything.ok();
    assert_eq!(located(data).len(), 23);
    assert_eq!(data["truncated"], false, "{}", everything.stdout);
}

#[test]
fn limit_must_be_from_one_to_ten_times_the_default() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "n\n");
    for limit in ["0", "1001"] {
        let run = ws.run(&["search", "n", "--limit", limit]);
        let details = run.refused("INVALID_ARGUMENT");
        assert_eq!(details["field"], "limit", "{}", run.stdout);
        assert!(run.message().contains("1000"), "{}", run.stdout);
    }
    let most = ws.run(&["search", "n", "--limit", "1000"]);
    assert_eq!(located(most.ok()), [at("a.txt", 1)]);
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
    let details = run.refused("INVALID_PATTERN");
    assert_eq!(details["pattern"], "(", "{}", run.stdout);
    assert!(details.get("rewrite").is_none(), "{}", run.stdout);
    assert!(!run.hint().contains("look-around"), "{}", run.stdout);

    // The same query searched literally finds the line.
    let literal = ws.run(&["search", "("]);
    assert_eq!(located(literal.ok()), [at("a.txt", 1)]);
}

#[test]
fn an_empty_query_is_an_invalid_argument() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a\n");
    let run = ws.run(&["search", ""]);
    let details = run.refused("INVALID_ARGUMENT");
    assert_eq!(details["field"], "query", "{}", run.stdout);

    let missing = ws.stitch("search", &json!({"path": "."}));
    let details = missing.refused("INVALID_ARGUMENT");
    assert_eq!(details["field"], "query", "{}", missing.stdout);
}

#[test]
fn path_may_name_a_single_file() {
    let ws = mixed_tree();
    ws.file("src/a.rs", "one\nneedle\nneedle again\n");
    let run = ws.run(&["search", "needle", "--path", "src/a.rs"]);
    assert_data(
        &run,
        &json!({
            "matches": [
                {"path": "src/a.rs", "line": 2, "text": "needle"},
                {"path": "src/a.rs", "line": 3, "text": "needle again"},
            ],
            "truncated": false,
            "scannedFiles": 1,
            "skippedBinary": 0,
        }),
    );

    let dir = ws.run(&["search", "needle", "--path", "src/deep"]);
    assert_eq!(
        located(dir.ok()),
        [at("src/deep/x.rs", 1)],
        "{}",
        dir.stdout
    );
}

#[test]
fn a_missing_or_outside_path_is_refused() {
    let ws = mixed_tree();
    let missing = ws.run(&["search", "needle", "--path", "scr"]);
    let details = missing.refused("NOT_FOUND");
    assert_eq!(details["path"], "scr");
    assert_eq!(details["nearNames"], json!(["src"]), "{}", missing.stdout);

    let outside = ws.run(&["search", "needle", "--path", ".."]);
    let details = outside.refused("OUTSIDE_ROOT");
    assert_eq!(details["path"], "..", "{}", outside.stdout);
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
    let details = unknown.refused("INVALID_ARGUMENT");
    assert_eq!(details["field"], "glob", "{}", unknown.stdout);
    assert!(
        details["allowed"]
            .as_array()
            .is_some_and(|a| a.contains(&json!("include"))),
        "{}",
        unknown.stdout
    );
}

#[test]
fn ignored_files_are_skipped_unless_include_ignored() {
    let ws = TestWorkspace::new();
    ws.file(".gitignore", "gen/\n")
        .file(".ignore", "*.snap\n")
        .file("gen/out.rs", "needle\n")
        .file("a.snap", "needle\n")
        .file(".hidden/h.txt", "needle\n")
        .file("src/a.rs", "needle\n")
        .file(".stitch/x", "needle\n");

    let run = ws.run(&["search", "needle"]);
    let data = run.ok();
    assert_eq!(located(data), [at("src/a.rs", 1)], "{}", run.stdout);
    assert_eq!(data["scannedFiles"], 1, "{}", run.stdout);

    let all = ws.stitch(
        "search",
        &json!({"query": "needle", "includeIgnored": true}),
    );
    assert_eq!(
        located(all.ok()),
        [
            at(".hidden/h.txt", 1),
            at("a.snap", 1),
            at("gen/out.rs", 1),
            at("src/a.rs", 1),
        ],
        "{}",
        all.stdout
    );
    assert!(!all.stdout.contains(".stitch"), "{}", all.stdout);

    let reserved = ws.run(&["search", "needle", "--path", ".stitch"]);
    let details = reserved.refused("DENIED");
    assert_eq!(details["rule"], "reserved", "{}", reserved.stdout);
}

#[test]
fn symlinks_out_of_the_root_are_not_followed() {
    let ws = TestWorkspace::new();
    ws.outside_file("secret.txt", "TOPSECRET needle\n");
    ws.file("inside.txt", "needle\n")
        .symlink("../outside", "out")
        .symlink(ws.outside().join("secret.txt"), "abs.txt")
        .symlink("../outside/secret.txt", "rel.txt");

    for extra in [
        &[][..],
        &["--all"][..],
        &["--paths-only"][..],
        &["-i", "--regex"][..],
    ] {
        for query in ["TOPSECRET", "needle", "secret"] {
            let mut args = vec!["search", query];
            args.extend_from_slice(extra);
            let run = ws.run(&args);
            let data = run.ok();
            assert!(!run.stdout.contains("TOPSECRET"), "{}", run.stdout);
            assert!(!run.stdout.contains("secret.txt"), "{}", run.stdout);
            for m in data["matches"].as_array().unwrap() {
                assert_eq!(m["path"], "inside.txt", "{}", run.stdout);
            }
        }
    }

    for path in ["out", "abs.txt", "rel.txt", "out/secret.txt"] {
        let run = ws.run(&["search", "needle", "--path", path]);
        run.refused("OUTSIDE_ROOT");
        assert!(!run.stdout.contains("TOPSECRET"), "{}", run.stdout);
    }
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

#[test]
fn files_over_the_size_limit_are_counted_not_silently_dropped() {
    let ws = TestWorkspace::new();
    ws.file(".stitch/config.json", r#"{"limits":{"maxFileBytes":10}}"#)
        .file("big.txt", "0123456789abc\n")
        .file("small.txt", "0123\n");
    let run = ws.run(&["search", "0123"]);
    let data = run.ok();
    assert_eq!(data["skippedLarge"], 1);
    assert_eq!(
        data["matches"],
        json!([{"path": "small.txt", "line": 1, "text": "0123"}])
    );
}
