//! `glob`: `*` stays within a directory and `**` crosses them, patterns are relative to
//! `path` while results stay workspace-relative, byte order, ignore rules, the reserved
//! `.stitch/`, limits, and the refusals.

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

/// The `matches` as strings.
fn matches(data: &Value) -> Vec<String> {
    data["matches"]
        .as_array()
        .expect("matches is an array")
        .iter()
        .map(|m| m.as_str().expect("a match is a path").to_owned())
        .collect()
}

/// Five files in three directories, and an empty directory.
fn tree() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("top.rs", "t")
        .file("src/main.rs", "m")
        .file("src/notes.md", "n")
        .file("src/sub/lib.rs", "l")
        .file("docs/x.rs", "x")
        .dir("empty");
    ws
}

#[test]
fn double_star_crosses_directories() {
    let ws = tree();
    let run = ws.run(&["glob", "**/*.rs"]);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "denied": 0,
            "matches": ["docs/x.rs", "src/main.rs", "src/sub/lib.rs", "top.rs"],
            "scannedFiles": 5,
            "truncated": false
        }
    }));
}

#[test]
fn single_star_does_not_cross_a_slash() {
    let ws = tree();
    assert_eq!(matches(ws.run(&["glob", "*.rs"]).ok()), ["top.rs"]);
    assert_eq!(matches(ws.run(&["glob", "src/*.rs"]).ok()), ["src/main.rs"]);
    assert_eq!(
        matches(ws.run(&["glob", "src/**"]).ok()),
        ["src/main.rs", "src/notes.md", "src/sub/lib.rs"]
    );
}

#[test]
fn path_makes_the_pattern_relative_and_results_stay_workspace_relative() {
    let ws = tree();

    // `*.rs` cannot match below `src`'s own entries, so `src/sub` is not walked.
    let run = ws.run(&["glob", "*.rs", "--path", "src"]);
    assert_data(
        &run,
        &json!({"matches": ["src/main.rs"], "truncated": false, "scannedFiles": 2}),
    );

    let deep = ws.stitch("glob", &json!({"pattern": "**/*.rs", "path": "src"}));
    assert_eq!(matches(deep.ok()), ["src/main.rs", "src/sub/lib.rs"]);

    // The pattern is matched below `src`, so spelling `src/` again matches nothing.
    let doubled = ws.run(&["glob", "src/*.rs", "--path", "src"]);
    assert_eq!(matches(doubled.ok()), Vec::<String>::new());

    let nested = ws.run(&["glob", "*.rs", "--path", "src/sub"]);
    assert_eq!(matches(nested.ok()), ["src/sub/lib.rs"]);
}

#[test]
fn ignored_and_hidden_files_are_excluded_unless_all() {
    let ws = TestWorkspace::new();
    ws.file(".gitignore", "target/\n")
        .file(".ignore", "gen.rs\n")
        .file("target/debug.rs", "d")
        .file("gen.rs", "g")
        .file(".hidden.rs", "h")
        .file(".cfg/x.rs", "x")
        .file("src/main.rs", "m");

    let run = ws.run(&["glob", "**/*.rs"]);
    let data = run.ok();
    assert_eq!(matches(data), ["src/main.rs"], "{}", run.stdout);
    assert_eq!(data["scannedFiles"], 1, "{}", run.stdout);

    let all = ws.run(&["glob", "**/*.rs", "--all"]);
    assert_eq!(
        matches(all.ok()),
        [
            ".cfg/x.rs",
            ".hidden.rs",
            "gen.rs",
            "src/main.rs",
            "target/debug.rs"
        ],
        "{}",
        all.stdout
    );

    let json_mode = ws.stitch("glob", &json!({"pattern": "*.rs", "includeIgnored": true}));
    assert_eq!(matches(json_mode.ok()), [".hidden.rs", "gen.rs"]);
}

#[test]
fn stitch_is_never_matched() {
    let ws = TestWorkspace::new();
    ws.file(".stitch/x.rs", "state")
        .file(".stitch/config.json", "{}")
        .file("a.rs", "a");
    for pattern in ["**/*.rs", "**/*", ".stitch/**", ".stitch/*"] {
        let run = ws.run(&["glob", pattern, "--all"]);
        let found = matches(run.ok());
        assert!(
            found.iter().all(|m| !m.starts_with(".stitch")),
            "{pattern}: {}",
            run.stdout
        );
    }
    let run = ws.run(&["glob", "**/*", "--all"]);
    assert_eq!(matches(run.ok()), ["a.rs"], "{}", run.stdout);
    assert_eq!(run.ok()["scannedFiles"], 1);

    let inside = ws.run(&["glob", "*", "--path", ".stitch"]);
    let details = inside.refused("DENIED");
    assert_eq!(details["rule"], "reserved", "{}", inside.stdout);
}

#[test]
fn matches_are_sorted_in_byte_order() {
    let ws = TestWorkspace::new();
    // Created out of order, and enough of them that a parallel walk finishes them in
    // no fixed order.
    for name in ["a/b.rs", "a.rs", "Z.rs", "a-b.rs"] {
        ws.file(name, "x");
    }
    for i in (0..40).rev() {
        ws.file(&format!("d{}/f{i}.rs", i % 4), "x");
    }
    let run = ws.run(&["glob", "**/*.rs"]);
    let found = matches(run.ok());
    assert_eq!(found.len(), 44);
    assert_eq!(
        found[..4],
        ["Z.rs", "a-b.rs", "a.rs", "a/b.rs"],
        "{}",
        run.stdout
    );
    let mut sorted = found.clone();
    sorted.sort();
    assert_eq!(found, sorted, "{}", run.stdout);
}

#[test]
fn scanned_files_counts_files_not_directories() {
    let ws = tree();
    let run = ws.run(&["glob", "**/*.none"]);
    assert_data(
        &run,
        &json!({"matches": [], "truncated": false, "scannedFiles": 5}),
    );
}

#[test]
fn a_pattern_without_double_star_walks_no_deeper_than_it_can_match() {
    let ws = tree();
    for (pattern, found, scanned) in [
        ("*.none", json!([]), 1),
        ("*/*.rs", json!(["docs/x.rs", "src/main.rs"]), 4),
        ("{*.rs,src/*/*.rs}", json!(["src/sub/lib.rs", "top.rs"]), 5),
        ("src/[ms]*/*.rs", json!(["src/sub/lib.rs"]), 5),
    ] {
        let run = ws.run(&["glob", pattern]);
        assert_eq!(
            run.ok(),
            &json!({"matches": found, "truncated": false, "scannedFiles": scanned, "denied": 0}),
            "{pattern}"
        );
    }
}

#[test]
fn limit_keeps_the_first_matches_in_byte_order_with_a_hint() {
    let ws = tree();
    let run = ws.run(&["glob", "**/*", "--limit", "2"]);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "denied": 0,
            "hint": "Showing the first 2 matches in byte order: narrow the pattern or --path, or raise --limit (up to 10000).",
            "matches": ["docs/x.rs", "src/main.rs"],
            "scannedFiles": 5,
            "truncated": true
        }
    }));

    let exact = ws.run(&["glob", "**/*", "--limit", "5"]);
    exact.assert_envelope(&json!({
        "ok": true,
        "data": {
            "denied": 0,
            "matches": ["docs/x.rs", "src/main.rs", "src/notes.md", "src/sub/lib.rs", "top.rs"],
            "scannedFiles": 5,
            "truncated": false
        }
    }));
}

#[test]
fn limit_must_be_from_one_to_ten_times_the_default() {
    let ws = tree();
    for limit in [0, 10_001] {
        let run = ws.stitch("glob", &json!({"pattern": "**/*", "limit": limit}));
        let details = run.refused("INVALID_ARGUMENT");
        assert_eq!(details["field"], "limit", "{}", run.stdout);
        assert!(run.message().contains("10000"), "{}", run.stdout);
    }
    let most = ws.stitch("glob", &json!({"pattern": "**/*", "limit": 10_000}));
    assert_eq!(most.ok()["truncated"], false);
}

#[test]
fn an_invalid_glob_is_an_invalid_pattern() {
    let ws = tree();
    let run = ws.run(&["glob", "a["]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_PATTERN",
        "details": {
            "message": "The glob `a[` does not compile: unclosed character class; missing ']'",
            "field": "pattern",
            "pattern": "a[",
            "reason": "unclosed character class; missing ']'"
        },
        "_hint": "Fix the glob (globset syntax: `*`, `**`, `?`, `[ab]`, `{a,b}`)."
    }));
}

#[test]
fn an_empty_pattern_is_an_invalid_argument() {
    let ws = tree();
    let run = ws.stitch("glob", &json!({"pattern": ""}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {"message": "pattern is empty; try `**/*` for every file", "field": "pattern"},
        "_hint": "Fix the `pattern` argument and call again."
    }));

    let missing = ws.stitch("glob", &json!({}));
    missing.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "glob needs the field `pattern`",
            "allowed": ["pattern", "path", "includeIgnored", "limit"],
            "field": "pattern"
        },
        "_hint": "Fix the `pattern` argument and call again."
    }));
}

#[test]
fn a_pattern_or_path_leaving_the_root_is_outside_root() {
    let ws = tree();
    ws.outside_file("secret.rs", "TOPSECRET");

    let run = ws.run(&["glob", "../*"]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "OUTSIDE_ROOT",
        "details": {
            "message": "The glob `../*` reaches outside the directory it searches",
            "field": "pattern",
            "pattern": "../*"
        },
        "_hint": "Use a path inside the workspace."
    }));

    let climbing = ws.run(&["glob", "src/../../outside/*"]);
    climbing.assert_envelope(&json!({
        "ok": false,
        "error": "OUTSIDE_ROOT",
        "details": {
            "message": "The glob `src/../../outside/*` reaches outside the directory it searches",
            "field": "pattern",
            "pattern": "src/../../outside/*"
        },
        "_hint": "Use a path inside the workspace."
    }));

    let path = ws.run(&["glob", "*", "--path", ".."]);
    path.assert_envelope(&json!({
        "ok": false,
        "error": "OUTSIDE_ROOT",
        "details": {"message": "`..` is outside the workspace", "path": ".."},
        "_hint": "Use a path inside the workspace."
    }));

    for run in [run, climbing, path] {
        assert!(!run.stdout.contains("secret.rs"), "{}", run.stdout);
    }
}

#[test]
fn a_file_as_path_is_not_a_directory() {
    let ws = tree();
    let run = ws.run(&["glob", "*", "--path", "top.rs"]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_A_DIRECTORY",
        "details": {"message": "`top.rs` is not a directory", "path": "top.rs"},
        "_hint": "`top.rs` is a file: read it with stitch read, or list its parent directory."
    }));
}

#[test]
fn a_missing_path_is_not_found_with_near_names() {
    let ws = tree();
    let run = ws.run(&["glob", "*.rs", "--path", "scr"]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_FOUND",
        "details": {"message": "`scr` does not exist", "nearNames": ["src"], "path": "scr"},
        "_hint": "Did you mean `src`? Otherwise list the parent directory."
    }));
}

#[test]
fn symlinks_leaving_the_root_are_not_followed() {
    let ws = tree();
    ws.outside_file("secret.rs", "TOPSECRET");
    ws.symlink("../outside", "out")
        .symlink(ws.outside().join("secret.rs"), "abs.rs");
    for all in [false, true] {
        let run = ws.stitch("glob", &json!({"pattern": "**/*", "includeIgnored": all}));
        let found = matches(run.ok());
        assert!(
            found.iter().all(|m| !m.starts_with("out/")),
            "{}",
            run.stdout
        );
        assert!(!run.stdout.contains("secret.rs"), "{}", run.stdout);
        assert!(!found.contains(&"abs.rs".to_owned()), "{}", run.stdout);
    }
}

#[test]
fn a_symlinked_directory_inside_is_walked_once_under_its_own_path() {
    let ws = TestWorkspace::new();
    ws.file("real/a.rs", "a").symlink("real", "link");
    let run = ws.run(&["glob", "**/*.rs"]);
    assert_eq!(
        run.ok(),
        &json!({"matches": ["real/a.rs"], "truncated": false, "scannedFiles": 1, "denied": 0}),
    );

    // A glob that starts at the link walks through it.
    let through = ws.run(&["glob", "*.rs", "--path", "link"]);
    assert_eq!(matches(through.ok()), ["link/a.rs"], "{}", through.stdout);
}

#[test]
fn dot_and_dot_dot_in_a_pattern_are_resolved_lexically() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a").file("src/b.rs", "b");
    for pattern in ["./*.txt", "src/../*.txt"] {
        let run = ws.run(&["glob", pattern]);
        assert_eq!(run.ok()["matches"], json!(["a.txt"]), "{pattern}");
    }
    let absolute = format!("{}/src/*.rs", ws.root().display());
    let run = ws.run(&["glob", &absolute]);
    assert_eq!(run.ok()["matches"], json!(["src/b.rs"]));
}
