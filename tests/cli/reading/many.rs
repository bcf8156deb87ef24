//! read_files: several files in one call, each by read_file's rules, refusals inline and
//! in order, a bound on the total with the rest listed as not read.

use serde_json::{json, Value};

use crate::support::{TestWorkspace, SHA256};

use super::{PNG, PNG_BASE64};

/// A workspace with a file of each kind the call must answer for.
fn mixed() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file(
        ".stitch/config.json",
        r#"{"deny": ["secret.env"], "limits": {"maxFileBytes": 64}}"#,
    );
    ws.file("a.txt", "alpha\nbeta\n")
        .file("secret.env", "TOKEN=x\n")
        .file("big.txt", "x".repeat(100))
        .file("blob.bin", b"\x00\x01\x02")
        .file("shot.txt", PNG);
    ws
}

const PATHS: [&str; 6] = [
    "a.txt",
    "secret.env",
    "missing.txt",
    "big.txt",
    "blob.bin",
    "shot.txt",
];

/// One file read, one denied, one missing, one too large, one binary and one image named
/// `.txt`: each answered in its place, the call itself a success.
#[test]
fn each_file_is_answered_in_order_and_one_refusal_refuses_no_other() {
    let ws = mixed();
    let run = ws.stitch("read", &json!({"paths": PATHS}));
    run.assert_envelope(&json!({"ok": true, "data": {
        "files": [
            {"path": "a.txt", "ok": true, "content": "alpha\nbeta\n", "sha256": SHA256,
             "bytes": 11, "totalLines": 2, "startLine": 1, "endLine": 2, "truncated": false,
             "lineEnding": "lf", "bom": false},
            {"path": "secret.env", "ok": false, "error": "DENIED",
             "details": {"message": "The workspace policy denies access to `secret.env`",
                         "path": "secret.env", "rule": "deny"}},
            {"path": "missing.txt", "ok": false, "error": "NOT_FOUND",
             "details": {"message": "`missing.txt` does not exist", "path": "missing.txt",
                         "nearNames": []},
             "_hint": "List the parent directory to see what exists."},
            {"path": "big.txt", "ok": false, "error": "TOO_LARGE",
             "details": {"message": "`big.txt` is 100 bytes, over the limit of 64",
                         "path": "big.txt", "bytes": 100, "limit": 64},
             "_hint": "`big.txt` is over the workspace's limits.maxFileBytes: work on smaller files, or ask the workspace owner to raise limits.maxFileBytes."},
            {"path": "blob.bin", "ok": false, "error": "NOT_TEXT",
             "details": {"message": "`blob.bin` is not text (binary: contains NUL bytes)",
                         "path": "blob.bin", "bytes": 3,
                         "reason": "binary: contains NUL bytes", "sha256": SHA256},
             "_hint": "`blob.bin` cannot be read or edited as text; to replace it whole, use write_file with its sha256 as expectedSha256."},
            {"path": "shot.txt", "ok": true,
             "media": {"mime": "image/png", "bytes": PNG.len(), "sha256": SHA256},
             "base64": PNG_BASE64},
        ],
        "notRead": [],
        "totalBytes": 11 + PNG.len(),
    }}));
}

/// By flags, several paths are read_files too, and its hints speak flags.
#[test]
fn several_paths_by_flags_are_one_call() {
    let ws = mixed();
    let run = ws.run(&["read", "a.txt", "missing.txt", "-n"]);
    let data = run.ok();
    assert_eq!(data["files"][0]["content"], "     1\talpha\n     2\tbeta\n");
    assert_eq!(data["files"][1]["error"], "NOT_FOUND");
    assert_eq!(
        data["files"][1]["_hint"],
        "List the parent directory to see what exists."
    );
    // One path alone is still read_file's plain result.
    let one = ws.run(&["read", "a.txt"]);
    assert_eq!(one.ok()["content"], "alpha\nbeta\n");
}

/// A glob (with the directory it is relative to) reads the files it matches, in byte
/// order, ignored ones left out; by flags, `stitch read DIR --glob G`.
#[test]
fn a_glob_reads_what_it_matches() {
    let ws = TestWorkspace::new();
    ws.file("src/b.rs", "b\n")
        .file("src/a.rs", "a\n")
        .file("src/notes.md", "n\n")
        .file("top.rs", "t\n");
    let names = |data: &Value| -> Vec<String> {
        data["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["path"].as_str().unwrap().to_owned())
            .collect()
    };
    let run = ws.stitch("read", &json!({"glob": "*.rs", "path": "src"}));
    assert_eq!(names(run.ok()), ["src/a.rs", "src/b.rs"]);
    let run = ws.run(&["read", "src", "--glob", "*.rs"]);
    assert_eq!(names(run.ok()), ["src/a.rs", "src/b.rs"]);
    let run = ws.run(&["read", "--glob", "**/*.rs"]);
    assert_eq!(names(run.ok()), ["src/a.rs", "src/b.rs", "top.rs"]);
    // A glob that does not compile refuses the call, as glob does.
    ws.stitch("read", &json!({"glob": "src/[a"}))
        .refused("INVALID_PATTERN");
}

/// maxTotalBytes stops reading: the file that reaches it is cut (truncated, with
/// nextOffset), and every file after it is listed in notRead with the reason.
#[test]
fn the_total_bound_stops_reading_and_names_what_it_left() {
    let ws = TestWorkspace::new();
    ws.file("1.txt", "aaaa\nbbbb\n")
        .file("2.txt", "cccc\ndddd\n")
        .file("3.txt", "eeee\n");
    let run = ws.stitch(
        "read",
        &json!({"paths": ["1.txt", "2.txt", "3.txt"], "maxTotalBytes": 15}),
    );
    run.assert_envelope(&json!({"ok": true, "data": {
        "files": [
            {"path": "1.txt", "ok": true, "content": "aaaa\nbbbb\n", "sha256": SHA256,
             "bytes": 10, "totalLines": 2, "startLine": 1, "endLine": 2, "truncated": false,
             "lineEnding": "lf", "bom": false},
            {"path": "2.txt", "ok": true, "content": "cccc\n", "sha256": SHA256,
             "bytes": 10, "totalLines": 2, "startLine": 1, "endLine": 1, "truncated": true,
             "lineEnding": "lf", "bom": false, "nextOffset": 2},
        ],
        "notRead": [
            {"path": "3.txt", "reason": "maxTotalBytes (15) was reached before this file"},
        ],
        "totalBytes": 15,
    }}));
    // An image larger than what the bound leaves waits for another call, named.
    ws.file("4.png", PNG);
    let run = ws.stitch(
        "read",
        &json!({"paths": ["1.txt", "4.png"], "maxTotalBytes": 15}),
    );
    let data = run.ok();
    assert_eq!(data["files"].as_array().unwrap().len(), 1);
    assert_eq!(
        data["notRead"],
        json!([{"path": "4.png", "reason": format!(
            "it is {} bytes, more than the 5 bytes maxTotalBytes (15) left", PNG.len())}])
    );
}

/// With lineNumbers the bound counts the files' bytes, as maxBytes does, not the numbers
/// put before each line: the numbered pages stay within it, and nothing is torn.
#[test]
fn the_total_bound_counts_file_bytes_when_lines_are_numbered() {
    let ws = TestWorkspace::new();
    let text = (1..=200)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    for name in ["1.txt", "2.txt", "3.txt"] {
        ws.file(name, &text);
    }
    let run = ws.stitch(
        "read",
        &json!({"paths": ["1.txt", "2.txt", "3.txt"], "maxTotalBytes": 500, "lineNumbers": true}),
    );
    let data = run.ok();
    let files = data["files"].as_array().unwrap();
    assert_eq!(files.len(), 1, "{}", run.stdout);
    assert_eq!(files[0]["truncated"], true);
    assert_eq!(
        files[0]["content"].as_str().unwrap().lines().next(),
        Some("     1\t1")
    );
    assert!(
        data["totalBytes"].as_u64().unwrap() <= 500,
        "{}",
        run.stdout
    );
    assert_eq!(
        data["notRead"],
        json!([
            {"path": "2.txt", "reason": "maxTotalBytes (500) was reached before this file"},
            {"path": "3.txt", "reason": "maxTotalBytes (500) was reached before this file"},
        ])
    );
}

/// Each file read in a session is observed, so an edit of any of them follows.
#[test]
fn each_file_read_is_observed_by_the_session() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n").file("b.txt", "two\n");
    let session = |args: &[&str]| {
        let mut all = vec!["--session", "s1"];
        all.extend_from_slice(args);
        ws.run(&all)
    };
    session(&["edit", "b.txt", "--old", "two", "--new", "2"]).refused("NOT_OBSERVED");
    session(&["read", "a.txt", "b.txt"]).ok();
    session(&["edit", "b.txt", "--old", "two", "--new", "2"]).ok();
    session(&["edit", "a.txt", "--old", "one", "--new", "1"]).ok();
}

/// In text, each file under a `==> path <==` heading, refusals and files not read on
/// stderr, and exit 1 when a file was refused, as `cat` exits.
#[test]
fn text_heads_each_file_and_reports_the_rest_on_stderr() {
    let ws = mixed();
    let output = ws
        .cmd()
        .args([
            "--format",
            "text",
            "read",
            "a.txt",
            "missing.txt",
            "shot.txt",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        format!(
            "==> a.txt <==\nalpha\nbeta\n==> shot.txt <==\nimage (image/png), {} bytes\n",
            PNG.len()
        )
    );
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "==> missing.txt <==\nerror[NOT_FOUND]: `missing.txt` does not exist\nhint: List the parent directory to see what exists.\n"
    );
}

/// Asking for both paths and a glob, or for neither, refuses the call naming the field.
#[test]
fn paths_or_a_glob_exactly_one() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "x\n");
    ws.stitch("read", &json!({"paths": ["a.txt"], "glob": "*"}))
        .assert_envelope(&json!({"ok": false, "error": "INVALID_ARGUMENT",
            "details": {"message": "Pass either paths or glob, not both", "field": "glob"},
            "_hint": "Fix the `glob` argument and call again."}));
    ws.stitch("read", &json!({"paths": []})).assert_envelope(
        &json!({"ok": false, "error": "INVALID_ARGUMENT",
            "details": {"message": "paths must name at least one file", "field": "paths"},
            "_hint": "Fix the `paths` argument and call again."}),
    );
}
