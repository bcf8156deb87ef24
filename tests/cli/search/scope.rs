//! Which files are searched: include globs, a single file or a directory, ignore rules,
//! binary files, symlinks out of the root, and a missing or outside path.

use serde_json::json;

use crate::support::TestWorkspace;

use super::{at, located};

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
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_PATTERN",
        "details": {
            "message": "The glob `a[` does not compile: unclosed character class; missing ']'",
            "field": "include",
            "pattern": "a[",
            "reason": "unclosed character class; missing ']'"
        },
        "_hint": "Fix the glob (globset syntax: `*`, `**`, `?`, `[ab]`, `{a,b}`)."
    }));
}

#[test]
fn binary_files_are_skipped_and_counted() {
    let ws = TestWorkspace::new();
    ws.file("text.txt", "needle\n")
        .file("blob.bin", b"\x00\x01needle\x00\n".as_slice())
        .file("late.bin", [b"needle\n".repeat(100), vec![0u8]].concat());
    let run = ws.run(&["search", "needle"]);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "denied": 0,
            "matches": [{"line": 1, "path": "text.txt", "text": "needle"}],
            "scannedFiles": 3,
            "skippedBinary": 2,
            "skippedLarge": 0,
            "truncated": false
        }
    }));
}

#[test]
fn path_may_name_a_single_file() {
    let ws = mixed_tree();
    ws.file("src/a.rs", "one\nneedle\nneedle again\n");
    let run = ws.run(&["search", "needle", "--path", "src/a.rs"]);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "denied": 0,
            "matches": [
                {"line": 2, "path": "src/a.rs", "text": "needle"},
                {"line": 3, "path": "src/a.rs", "text": "needle again"}
            ],
            "scannedFiles": 1,
            "skippedBinary": 0,
            "skippedLarge": 0,
            "truncated": false
        }
    }));

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
    missing.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_FOUND",
        "details": {"message": "`scr` does not exist", "nearNames": ["src"], "path": "scr"},
        "_hint": "Did you mean `src`? Otherwise list the parent directory."
    }));

    let outside = ws.run(&["search", "needle", "--path", ".."]);
    outside.assert_envelope(&json!({
        "ok": false,
        "error": "OUTSIDE_ROOT",
        "details": {"message": "`..` is outside the workspace", "path": ".."},
        "_hint": "Use a path inside the workspace."
    }));
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
