//! `list_directory`: entries in byte order with their kinds and sizes, depth, ignore rules
//! and hidden names, limits, the reserved `.stitch/`, symlinks that stay inside (walked
//! once, loops cut) and ones that leave (shown, never followed), and the refusals.

use std::collections::HashSet;
use std::time::Duration;

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

/// The `path` of every entry, in the order returned.
fn paths(data: &Value) -> Vec<String> {
    data["entries"]
        .as_array()
        .expect("entries is an array")
        .iter()
        .map(|e| e["path"].as_str().expect("entry path").to_owned())
        .collect()
}

/// A `stitch list` run that is killed (and so fails to parse) if it does not finish.
fn list_within_time_limit(ws: &TestWorkspace, args: &[&str]) -> Run {
    let mut cmd = ws.cmd();
    cmd.arg("list")
        .args(args)
        .write_stdin("")
        .timeout(Duration::from_secs(30));
    Run::from(cmd)
}

/// A workspace laid out to pin byte order: `B` sorts before `a`, `a-b` and `a.txt` sort
/// between `a` and `a/b` (`-` and `.` are below `/`).
fn byte_order_workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "hello")
        .file("B", "x")
        .file("a-b", "12")
        .file("a/z.txt", "zz\n")
        .file("a/b/c.txt", "c");
    ws
}

#[test]
fn lists_one_level_by_default_with_kinds_and_file_sizes() {
    let ws = TestWorkspace::new();
    ws.file("B", "x")
        .file("a.txt", "hello")
        .file("a/inner.txt", "not listed at depth 1")
        .dir("empty")
        .symlink("a", "link");
    let fifo = ws.path("pipe");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("run mkfifo");
    assert!(status.success());

    let run = list_within_time_limit(&ws, &[]);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "entries": [
                {"bytes": 1, "kind": "file", "path": "B"},
                {"kind": "directory", "path": "a"},
                {"bytes": 5, "kind": "file", "path": "a.txt"},
                {"kind": "directory", "path": "empty"},
                {"kind": "symlink", "path": "link"},
                {"kind": "other", "path": "pipe"}
            ],
            "path": ".",
            "skipped": 0,
            "truncated": false
        }
    }));
}

#[test]
fn entries_are_sorted_in_byte_order_at_every_depth() {
    let ws = byte_order_workspace();

    let one = ws.run(&["list"]);
    assert_eq!(paths(one.ok()), ["B", "a", "a-b", "a.txt"]);

    let two = ws.run(&["list", "--depth", "2"]);
    assert_eq!(
        two.ok()["entries"],
        json!([
            {"path": "B", "kind": "file", "bytes": 1},
            {"path": "a", "kind": "directory"},
            {"path": "a-b", "kind": "file", "bytes": 2},
            {"path": "a.txt", "kind": "file", "bytes": 5},
            {"path": "a/b", "kind": "directory"},
            {"path": "a/z.txt", "kind": "file", "bytes": 3},
        ]),
        "{}",
        two.stdout
    );

    let three = ws.run(&["list", "--depth", "3"]);
    assert_eq!(
        paths(three.ok()),
        ["B", "a", "a-b", "a.txt", "a/b", "a/b/c.txt", "a/z.txt"]
    );
}

#[test]
fn depth_counts_from_the_listed_directory() {
    let ws = byte_order_workspace();
    let run = ws.stitch("list", &json!({"path": "a", "depth": 2}));
    assert_data(
        &run,
        &json!({
            "path": "a",
            "entries": [
                {"path": "a/b", "kind": "directory"},
                {"path": "a/b/c.txt", "kind": "file", "bytes": 1},
                {"path": "a/z.txt", "kind": "file", "bytes": 3},
            ],
            "truncated": false,
            "skipped": 0,
        }),
    );
}

/// Entries hidden by `.gitignore`, `.ignore` and hidden names, with no `.git` directory.
fn ignoring_workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file(".gitignore", "build/\n*.log\n")
        .file(".ignore", "private.txt\n")
        .file("build/out.bin", "o")
        .file("app.log", "l")
        .file("private.txt", "p")
        .file(".env", "KEY=1\n")
        .file(".hidden/x", "h")
        .file("keep.rs", "k")
        .file(".stitch/x", "state");
    ws
}

#[test]
fn ignored_and_hidden_entries_are_skipped_and_counted() {
    let ws = ignoring_workspace();
    let run = ws.run(&["list"]);
    // Left out: .env, .gitignore, .hidden, .ignore, app.log, build, private.txt.
    assert_data(
        &run,
        &json!({
            "path": ".",
            "entries": [{"path": "keep.rs", "kind": "file", "bytes": 1}],
            "truncated": false,
            "skipped": 7,
        }),
    );

    // One level deeper also leaves out .hidden/x and build/out.bin.
    let deeper = ws.run(&["list", "--depth", "2"]);
    let data = deeper.ok();
    assert_eq!(paths(data), ["keep.rs"]);
    assert_eq!(data["skipped"], 9, "{}", deeper.stdout);
}

#[test]
fn all_shows_ignored_and_hidden_entries_but_never_stitch() {
    let ws = ignoring_workspace();
    let run = ws.run(&["list", "--all", "--depth", "3"]);
    let data = run.ok();
    assert_eq!(
        paths(data),
        [
            ".env",
            ".gitignore",
            ".hidden",
            ".hidden/x",
            ".ignore",
            "app.log",
            "build",
            "build/out.bin",
            "keep.rs",
            "private.txt",
        ],
        "{}",
        run.stdout
    );
    assert_eq!(data["skipped"], 0);
    assert_eq!(data["truncated"], false);
    assert!(!run.stdout.contains(".stitch"), "{}", run.stdout);

    let json_mode = ws.stitch("list", &json!({"includeIgnored": true}));
    assert_eq!(
        paths(json_mode.ok()),
        [
            ".env",
            ".gitignore",
            ".hidden",
            ".ignore",
            "app.log",
            "build",
            "keep.rs",
            "private.txt"
        ]
    );
}

#[test]
fn root_ignore_rules_apply_when_listing_a_subdirectory() {
    let ws = TestWorkspace::new();
    ws.file(".gitignore", "gen/\n")
        .file("src/.gitignore", "*.tmp\n")
        .file("src/gen/g.rs", "g")
        .file("src/lib.rs", "l")
        .file("src/scratch.tmp", "t");
    let run = ws.run(&["list", "src"]);
    assert_data(
        &run,
        &json!({
            "path": "src",
            "entries": [{"path": "src/lib.rs", "kind": "file", "bytes": 1}],
            "truncated": false,
            "skipped": 3,
        }),
    );
}

#[test]
fn ignore_files_above_the_root_do_not_apply() {
    let ws = TestWorkspace::new();
    let above = ws.root().parent().unwrap().join(".gitignore");
    std::fs::write(above, "*.txt\n").unwrap();
    ws.file("a.txt", "a");
    let run = ws.run(&["list"]);
    assert_eq!(paths(run.ok()), ["a.txt"], "{}", run.stdout);
    assert_eq!(run.ok()["skipped"], 0);
}

#[test]
fn limit_truncates_in_byte_order_with_a_hint() {
    let ws = byte_order_workspace();
    let run = ws.run(&["list", "--depth", "3", "--limit", "3"]);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "entries": [
                {"bytes": 1, "kind": "file", "path": "B"},
                {"kind": "directory", "path": "a"},
                {"bytes": 2, "kind": "file", "path": "a-b"}
            ],
            "hint": "Showing the first 3 entries: list a subdirectory or lower --depth, or raise --limit (up to 5000).",
            "path": ".",
            "skipped": 0,
            "truncated": true
        }
    }));

    let exact = ws.run(&["list", "--depth", "3", "--limit", "7"]);
    exact.assert_envelope(&json!({
        "ok": true,
        "data": {
            "entries": [
                {"bytes": 1, "kind": "file", "path": "B"},
                {"kind": "directory", "path": "a"},
                {"bytes": 2, "kind": "file", "path": "a-b"},
                {"bytes": 5, "kind": "file", "path": "a.txt"},
                {"kind": "directory", "path": "a/b"},
                {"bytes": 1, "kind": "file", "path": "a/b/c.txt"},
                {"bytes": 3, "kind": "file", "path": "a/z.txt"}
            ],
            "path": ".",
            "skipped": 0,
            "truncated": false
        }
    }));
}

#[test]
fn limit_must_be_from_one_to_ten_times_the_default() {
    let ws = byte_order_workspace();
    for limit in ["0", "5001"] {
        let run = ws.run(&["list", "--limit", limit]);
        let details = run.refused("INVALID_ARGUMENT");
        assert_eq!(details["field"], "limit", "{}", run.stdout);
        assert!(run.message().contains("5000"), "{}", run.stdout);
        assert!(run.hint().contains("limit"), "{}", run.stdout);
    }
    let most = ws.stitch("list", &json!({"limit": 5000}));
    assert_eq!(most.ok()["truncated"], false);
}

#[test]
fn depth_zero_is_an_invalid_argument() {
    let ws = byte_order_workspace();
    let run = ws.run(&["list", "--depth", "0"]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {"message": "--depth must be from 1 to 64", "field": "depth"},
        "_hint": "Fix the `--depth` argument and call again."
    }));
}

#[test]
fn a_missing_directory_is_not_found_with_near_names() {
    let ws = TestWorkspace::new();
    ws.file("src/sub/m.rs", "m");

    let run = ws.run(&["list", "scr"]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_FOUND",
        "details": {"message": "`scr` does not exist", "nearNames": ["src"], "path": "scr"},
        "_hint": "Did you mean `src`? Otherwise list the parent directory."
    }));

    let nested = ws.run(&["list", "src/sbu"]);
    nested.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_FOUND",
        "details": {
            "message": "`src/sbu` does not exist",
            "nearNames": ["src/sub"],
            "path": "src/sbu"
        },
        "_hint": "Did you mean `src/sub`? Otherwise list the parent directory."
    }));

    let nothing_near = ws.run(&["list", "qqqqqqqq"]);
    nothing_near.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_FOUND",
        "details": {"message": "`qqqqqqqq` does not exist", "nearNames": [], "path": "qqqqqqqq"},
        "_hint": "List the parent directory to see what exists."
    }));
}

#[test]
fn a_file_is_not_a_directory() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a");
    let run = ws.run(&["list", "a.txt"]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_A_DIRECTORY",
        "details": {"message": "`a.txt` is not a directory", "path": "a.txt"},
        "_hint": "`a.txt` is a file: read it with stitch read, or list its parent directory."
    }));
}

#[test]
fn paths_leaving_the_root_are_outside_root() {
    let ws = TestWorkspace::new();
    ws.dir("src");
    ws.outside_file("secret.txt", "TOPSECRET");
    for path in ["..", "../outside", "src/../.."] {
        let run = ws.run(&["list", path]);
        let details = run.refused("OUTSIDE_ROOT");
        assert_eq!(details["path"], path, "{}", run.stdout);
        assert!(!run.stdout.contains("secret.txt"), "{}", run.stdout);
    }
}

#[test]
fn an_absolute_path_inside_the_root_is_reported_relative() {
    let ws = byte_order_workspace();
    let absolute = ws.path("a");
    let run = ws.run(&["list", absolute.to_str().unwrap()]);
    let data = run.ok();
    assert_eq!(data["path"], "a", "{}", run.stdout);
    assert_eq!(paths(data), ["a/b", "a/z.txt"]);
    let root = ws.root();
    assert!(
        !run.stdout.contains(root.to_str().unwrap()),
        "{}",
        run.stdout
    );
}

#[test]
fn a_symlink_to_a_directory_inside_is_listed_and_its_files_shown_once() {
    let ws = TestWorkspace::new();
    ws.file("real/f.txt", "four").symlink("real", "link");

    // The directory is walked under its own path; the link is listed, not followed.
    let run = ws.run(&["list", "--depth", "2"]);
    assert_eq!(
        run.ok()["entries"],
        json!([
            {"path": "link", "kind": "symlink"},
            {"path": "real", "kind": "directory"},
            {"path": "real/f.txt", "kind": "file", "bytes": 4},
        ]),
        "{}",
        run.stdout
    );

    // A listing that starts at the link walks through it.

    let through = ws.run(&["list", "link"]);
    assert_data(
        &through,
        &json!({
            "path": "link",
            "entries": [{"path": "link/f.txt", "kind": "file", "bytes": 4}],
            "truncated": false,
            "skipped": 0,
        }),
    );
}

#[test]
fn a_symlink_loop_ends_and_nothing_repeats() {
    let ws = TestWorkspace::new();
    ws.file("a/f.txt", "f")
        .file("top.txt", "t")
        .symlink("..", "a/loop");

    for args in [&["--depth", "64"][..], &["a", "--depth", "64", "--all"][..]] {
        let run = list_within_time_limit(&ws, args);
        let listed = paths(run.ok());
        let unique: HashSet<&String> = listed.iter().collect();
        assert_eq!(unique.len(), listed.len(), "{}", run.stdout);
        assert!(
            listed.iter().all(|p| !p.starts_with("a/loop/")),
            "nothing is listed through the loop: {}",
            run.stdout
        );
        assert!(listed.contains(&"a/f.txt".to_owned()), "{}", run.stdout);
    }
}

#[test]
fn a_symlink_loop_is_itself_listed_as_a_symlink() {
    let ws = TestWorkspace::new();
    ws.file("a/f.txt", "f").symlink("..", "a/loop");
    let run = list_within_time_limit(&ws, &["a"]);
    assert_eq!(
        run.ok()["entries"],
        json!([
            {"path": "a/f.txt", "kind": "file", "bytes": 1},
            {"path": "a/loop", "kind": "symlink"},
        ]),
        "{}",
        run.stdout
    );
}

#[test]
fn a_symlink_leaving_the_root_is_shown_and_not_followed() {
    let ws = TestWorkspace::new();
    ws.outside_file("secret.txt", "TOPSECRET");
    ws.file("real/f.txt", "f")
        .symlink("../outside", "out")
        // An absolute target counts as leaving, even when it points inside.
        .symlink(ws.path("real"), "abs");

    for args in [&["--depth", "3"][..], &["--depth", "3", "--all"][..]] {
        let run = ws.run(&{
            let mut a = vec!["list"];
            a.extend_from_slice(args);
            a
        });
        assert_eq!(
            run.ok()["entries"],
            json!([
                {"path": "abs", "kind": "symlink"},
                {"path": "out", "kind": "symlink"},
                {"path": "real", "kind": "directory"},
                {"path": "real/f.txt", "kind": "file", "bytes": 1},
            ]),
            "{}",
            run.stdout
        );
        assert!(!run.stdout.contains("secret.txt"), "{}", run.stdout);
    }

    let into = ws.run(&["list", "out"]);
    let details = into.refused("OUTSIDE_ROOT");
    assert_eq!(details["path"], "out", "{}", into.stdout);
    assert!(!into.stdout.contains("secret.txt"), "{}", into.stdout);
}

#[test]
fn stitch_itself_is_denied_as_reserved() {
    let ws = TestWorkspace::new();
    ws.file(".stitch/x", "state");
    for path in [".stitch", ".stitch/", "./.stitch"] {
        let run = ws.run(&["list", path]);
        let details = run.refused("DENIED");
        assert_eq!(details["rule"], "reserved", "{}", run.stdout);
        assert!(!run.stdout.contains("\"x\""), "{}", run.stdout);
    }
}

#[test]
fn json_arguments_name_an_unknown_field_and_the_allowed_ones() {
    let ws = TestWorkspace::new();
    let run = ws.stitch("list", &json!({"path": ".", "recursive": true}));
    let details = run.refused("INVALID_ARGUMENT");
    assert_eq!(details["field"], "recursive", "{}", run.stdout);
    assert_eq!(
        details["allowed"],
        json!(["path", "depth", "includeIgnored", "limit"]),
        "{}",
        run.stdout
    );
    assert!(run.message().contains("recursive"), "{}", run.stdout);
}

#[test]
fn a_directory_named_explicitly_is_listed_even_when_ignored_or_hidden() {
    let ws = TestWorkspace::new();
    ws.file(".gitignore", "node_modules/\n")
        .file("node_modules/m.js", "m")
        .file(".hidden/h.txt", "h");
    let run = ws.run(&["list", "node_modules"]);
    assert_eq!(
        run.ok()["entries"],
        json!([{"path": "node_modules/m.js", "kind": "file", "bytes": 1}])
    );
    let run = ws.run(&["list", ".hidden"]);
    assert_eq!(run.ok()["entries"][0]["path"], ".hidden/h.txt");
    let run = ws.run(&["list"]);
    assert_eq!(run.ok()["entries"], json!([]), "{}", run.stdout);
}

#[test]
fn a_dangling_symlink_is_listed_as_a_symlink() {
    let ws = TestWorkspace::new();
    ws.symlink("nowhere", "dangling");
    let run = ws.run(&["list"]);
    assert_eq!(
        run.ok()["entries"],
        json!([{"path": "dangling", "kind": "symlink"}])
    );
}
