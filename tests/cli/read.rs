//! `read_file`: paging by lines, the whole file's digest, line endings and BOM, non-text
//! and non-file refusals, and how arguments arrive (flags, JSON, aliases, mistakes).

use std::time::Duration;

use serde_json::json;

use crate::support::{sha256sum, Run, TestWorkspace, SHA256};

const FIVE_LINES: &str = "one\ntwo\nthree\nfour\nfive\n";

#[test]
fn pages_by_offset_and_limit_and_points_to_the_next_page() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", FIVE_LINES);

    let first = ws.stitch("read", &json!({"path": "a.txt", "offset": 2, "limit": 2}));
    first.assert_envelope(&json!({
        "ok": true,
        "data": {
            "bom": false,
            "bytes": 24,
            "content": "two\nthree\n",
            "endLine": 3,
            "lineEnding": "lf",
            "nextOffset": 4,
            "path": "a.txt",
            "sha256": SHA256,
            "startLine": 2,
            "totalLines": 5,
            "truncated": true
        }
    }));

    let next = ws.stitch("read", &json!({"path": "a.txt", "offset": 4, "limit": 2}));
    next.assert_envelope(&json!({
        "ok": true,
        "data": {
            "bom": false,
            "bytes": 24,
            "content": "four\nfive\n",
            "endLine": 5,
            "lineEnding": "lf",
            "path": "a.txt",
            "sha256": SHA256,
            "startLine": 4,
            "totalLines": 5,
            "truncated": false
        }
    }));
}

#[test]
fn reads_the_whole_file_by_default() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", FIVE_LINES);
    let run = ws.stitch("read", &json!({"path": "a.txt"}));
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "bom": false,
            "bytes": 24,
            "content": "one\ntwo\nthree\nfour\nfive\n",
            "endLine": 5,
            "lineEnding": "lf",
            "path": "a.txt",
            "sha256": SHA256,
            "startLine": 1,
            "totalLines": 5,
            "truncated": false
        }
    }));
}

#[test]
fn max_bytes_stops_at_a_whole_line() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "aaa\nbbb\nccc\n");
    let run = ws.stitch("read", &json!({"path": "a.txt", "maxBytes": 9}));
    let data = run.ok();
    assert_eq!(data["content"], "aaa\nbbb\n");
    assert_eq!(data["endLine"], 2);
    assert_eq!(data["truncated"], true);
    assert_eq!(data["nextOffset"], 3);
}

#[test]
fn a_line_longer_than_max_bytes_is_cut() {
    let ws = TestWorkspace::new();
    let long = "x".repeat(100);
    ws.file("a.txt", format!("{long}\ntail\n"));
    let run = ws.stitch("read", &json!({"path": "a.txt", "maxBytes": 10}));
    let data = run.ok();
    assert_eq!(data["content"], "x".repeat(10));
    assert_eq!(data["startLine"], 1);
    assert_eq!(data["endLine"], 1);
    assert_eq!(data["truncated"], true);
    assert_eq!(data["nextOffset"], 2);
    assert_eq!(data["totalLines"], 2);
}

#[test]
fn a_cut_line_is_still_valid_text() {
    let ws = TestWorkspace::new();
    let long = "é".repeat(50);
    ws.file("a.txt", format!("{long}\n"));
    let run = ws.stitch("read", &json!({"path": "a.txt", "maxBytes": 5}));
    let data = run.ok();
    let content = data["content"].as_str().unwrap();
    assert!(long.starts_with(content), "{}", run.stdout);
    assert!(
        (3..=5).contains(&content.len()),
        "cut near maxBytes: {}",
        run.stdout
    );
    assert_eq!(data["truncated"], true);
}

#[test]
fn offset_past_the_end_is_invalid_and_names_the_line_count() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", FIVE_LINES);
    let run = ws.stitch("read", &json!({"path": "a.txt", "offset": 6}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "offset 6 is past the last line of `a.txt`, which has 5 lines",
            "field": "offset",
            "path": "a.txt",
            "totalLines": 5
        },
        "_hint": "Fix the `offset` argument and call again."
    }));
}

#[test]
fn empty_file_reads_at_offset_one_but_not_past_it() {
    let ws = TestWorkspace::new();
    ws.file("empty.txt", "");
    let run = ws.stitch("read", &json!({"path": "empty.txt", "offset": 1}));
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "bom": false,
            "bytes": 0,
            "content": "",
            "endLine": 0,
            "lineEnding": "none",
            "path": "empty.txt",
            "sha256": SHA256,
            "startLine": 1,
            "totalLines": 0,
            "truncated": false
        }
    }));
    assert_eq!(run.envelope["data"]["sha256"], sha256sum(b""));

    let past = ws.stitch("read", &json!({"path": "empty.txt", "offset": 2}));
    past.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "offset 2 is past the last line of `empty.txt`, which has 0 lines",
            "field": "offset",
            "path": "empty.txt",
            "totalLines": 0
        },
        "_hint": "Fix the `offset` argument and call again."
    }));
}

#[test]
fn sha256_is_of_the_whole_file_whatever_the_window() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", FIVE_LINES);
    // Fixed content, so the digest is known: a broken helper cannot make both sides agree.
    let known = "bd730ce8302e79285f8badd523321160eee75d1023990d6a4f9f703cae7ef184";
    assert_eq!(sha256sum(FIVE_LINES.as_bytes()), known);

    let window = ws.stitch("read", &json!({"path": "a.txt", "offset": 3, "limit": 1}));
    let data = window.ok();
    assert_eq!(data["content"], "three\n");
    assert_eq!(data["sha256"], known);

    let whole = ws.stitch("read", &json!({"path": "a.txt"}));
    assert_eq!(whole.ok()["sha256"], known);
}

#[test]
fn line_endings_are_named() {
    let ws = TestWorkspace::new();
    ws.file("lf.txt", "a\nb\n")
        .file("crlf.txt", "a\r\nb\r\n")
        .file("mixed.txt", "a\r\nb\n")
        .file("none.txt", "just one line");
    for (path, ending, content) in [
        ("lf.txt", "lf", "a\nb\n"),
        ("crlf.txt", "crlf", "a\r\nb\r\n"),
        ("mixed.txt", "mixed", "a\r\nb\n"),
        ("none.txt", "none", "just one line"),
    ] {
        let run = ws.stitch("read", &json!({"path": path}));
        let data = run.ok();
        assert_eq!(data["lineEnding"], ending, "{}", run.stdout);
        assert_eq!(data["content"], content, "byte-exact: {}", run.stdout);
    }
}

#[test]
fn a_bom_is_reported_not_returned() {
    let ws = TestWorkspace::new();
    let raw = "\u{feff}hello\nworld\n";
    ws.file("bom.txt", raw).file("plain.txt", "hello\n");

    let run = ws.stitch("read", &json!({"path": "bom.txt"}));
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "bom": true,
            "bytes": 15,
            "content": "hello\nworld\n",
            "endLine": 2,
            "lineEnding": "lf",
            "path": "bom.txt",
            "sha256": SHA256,
            "startLine": 1,
            "totalLines": 2,
            "truncated": false
        }
    }));
    assert_eq!(
        run.envelope["data"]["sha256"],
        sha256sum(raw.as_bytes()),
        "raw bytes, BOM included"
    );

    let plain = ws.stitch("read", &json!({"path": "plain.txt"}));
    assert_eq!(plain.ok()["bom"], false);
}

#[test]
fn binary_content_is_not_text() {
    let ws = TestWorkspace::new();
    ws.file("a.bin", b"abc\0def");
    let run = ws.stitch("read", &json!({"path": "a.bin"}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_TEXT",
        "details": {
            "message": "`a.bin` is not text (binary: contains NUL bytes)",
            "bytes": 7,
            "path": "a.bin",
            "reason": "binary: contains NUL bytes",
            "sha256": SHA256
        },
        "_hint": "`a.bin` cannot be read or edited as text; to replace it whole, use write_file with its sha256 as expectedSha256."
    }));
}

#[test]
fn invalid_utf8_is_not_text() {
    let ws = TestWorkspace::new();
    ws.file("latin1.txt", b"caf\xe9\n");
    let run = ws.stitch("read", &json!({"path": "latin1.txt"}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_TEXT",
        "details": {
            "message": "`latin1.txt` is not text (invalid UTF-8)",
            "bytes": 5,
            "path": "latin1.txt",
            "reason": "invalid UTF-8",
            "sha256": SHA256
        },
        "_hint": "`latin1.txt` cannot be read or edited as text; to replace it whole, use write_file with its sha256 as expectedSha256."
    }));
}

#[test]
fn a_missing_file_suggests_the_nearest_names() {
    let ws = TestWorkspace::new();
    ws.file("src/main.rs", "fn main() {}\n")
        .file("src/lib.rs", "")
        .file("README.md", "");
    let run = ws.stitch("read", &json!({"path": "scr/main.rs"}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_FOUND",
        "details": {
            "message": "`scr/main.rs` does not exist",
            "nearNames": ["src/main.rs", "src/lib.rs"],
            "path": "scr/main.rs"
        },
        "_hint": "Did you mean `src/main.rs`? Otherwise list the parent directory."
    }));
}

#[test]
fn every_not_found_carries_near_names() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "");
    let run = ws.stitch("read", &json!({"path": "zzzzzz/qqqqqqqq.bin"}));
    let details = run.refused("NOT_FOUND");
    assert!(details["nearNames"].is_array(), "{}", run.stdout);
}

#[test]
fn a_directory_is_not_a_file() {
    let ws = TestWorkspace::new();
    ws.dir("src");
    let run = ws.stitch("read", &json!({"path": "src"}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_A_FILE",
        "details": {"message": "`src` is not a regular file", "path": "src"},
        "_hint": "`src` is not a regular file: list it instead."
    }));
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let ws = TestWorkspace::new();
    let status = std::process::Command::new("mkfifo")
        .arg(ws.path("pipe"))
        .status()
        .expect("mkfifo");
    assert!(status.success());
    // Nobody ever writes to the FIFO: opening it for reading would block forever. The
    // timeout only keeps a regression from hanging the suite.
    let mut cmd = ws.cmd();
    cmd.args(["read", "--json"])
        .write_stdin(json!({"path": "pipe"}).to_string())
        .timeout(Duration::from_secs(20));
    let run = Run::from(cmd);
    assert_eq!(run.refused("NOT_A_FILE")["path"], "pipe");
}

#[test]
fn max_bytes_over_the_cap_is_invalid() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a\n");
    let run = ws.stitch("read", &json!({"path": "a.txt", "maxBytes": 262_145}));
    let details = run.refused("INVALID_ARGUMENT");
    assert_eq!(details["field"], "maxBytes");
    assert!(
        run.message().contains("262144"),
        "names the cap: {}",
        run.stdout
    );

    let at_cap = ws.stitch("read", &json!({"path": "a.txt", "maxBytes": 262_144}));
    assert_eq!(at_cap.ok()["content"], "a\n");
}

#[test]
fn flags_and_json_give_the_same_data() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", FIVE_LINES);
    let by_json = ws.stitch(
        "read",
        &json!({"path": "a.txt", "offset": 2, "limit": 3, "maxBytes": 100}),
    );
    let by_flags = ws.run(&[
        "read",
        "a.txt",
        "--offset",
        "2",
        "--limit",
        "3",
        "--max-bytes",
        "100",
    ]);
    assert_eq!(by_flags.ok(), by_json.ok());
    assert_eq!(by_flags.ok()["content"], "two\nthree\nfour\n");
}

#[test]
fn file_path_is_an_alias_of_path() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "hi\n");
    let run = ws.stitch("read", &json!({"file_path": "a.txt"}));
    let data = run.ok();
    assert_eq!(data["path"], "a.txt");
    assert_eq!(data["content"], "hi\n");
}

#[test]
fn an_unknown_field_is_named_with_the_allowed_ones() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "hi\n");
    let run = ws.stitch("read", &json!({"path": "a.txt", "lines": 3}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "read_file has no field `lines`; the allowed fields are path, offset, limit, maxBytes, lineNumbers",
            "allowed": ["path", "offset", "limit", "maxBytes", "lineNumbers"],
            "field": "lines"
        },
        "_hint": "Drop `lines`: the allowed fields are path, offset, limit, maxBytes, lineNumbers."
    }));
}

#[test]
fn a_mistyped_field_is_named() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "hi\n");
    let run = ws.stitch("read", &json!({"path": "a.txt", "offset": "x"}));
    assert_eq!(run.refused("INVALID_ARGUMENT")["field"], "offset");
}

#[test]
fn a_missing_path_is_named() {
    let ws = TestWorkspace::new();
    let run = ws.stitch("read", &json!({"offset": 1}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "read_file needs the field `path`",
            "allowed": ["path", "offset", "limit", "maxBytes", "lineNumbers"],
            "field": "path"
        },
        "_hint": "Fix the `path` argument and call again."
    }));

    // An empty stdin means "no arguments": the same refusal.
    let empty = ws.stitch_raw("read", "");
    empty.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "read_file needs the field `path`",
            "allowed": ["path", "offset", "limit", "maxBytes", "lineNumbers"],
            "field": "path"
        },
        "_hint": "Fix the `path` argument and call again."
    }));
}

#[test]
fn flags_mixed_with_json_are_refused() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "hi\n");
    let run = ws.run_with_stdin(
        &["read", "a.txt", "--json"],
        json!({"path": "a.txt"}).to_string(),
    );
    run.refused("INVALID_ARGUMENT");
}

#[test]
fn invalid_utf8_on_stdin_is_refused() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "hi\n");
    let run = ws.stitch_raw("read", b"{\"path\": \"a\xff.txt\"}".to_vec());
    assert_eq!(run.refused("INVALID_ARGUMENT")["field"], "stdin");
}
