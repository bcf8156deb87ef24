//! Every refusal code in the contract's list is produced by a real call, asserted as a
//! serialized envelope. A code added to `Code::ALL` without a scenario here fails.

use serde_json::{json, Value};
use stitch::refusal::Code;

use crate::support::{hold_every_lock, sha256sum, Run, TestWorkspace};

/// The text of `a.txt` in every scenario.
const A_TXT: &str = "one\ntwo\ntwo\n";
/// The bytes of `bin`, the file that is not text.
const BIN: &[u8] = b"\x00\x01";

/// Runs a scenario that must end in `code`.
fn produce(code: Code) -> Run {
    let ws = TestWorkspace::new();
    ws.file("a.txt", A_TXT);
    match code {
        Code::InvalidArgument => ws.stitch("read", &json!({"path": "a.txt", "bogus": 1})),
        Code::InvalidPath => ws.stitch("read", &json!({"path": "src\\a.txt"})),
        Code::InvalidPattern => ws.stitch("search", &json!({"query": "(?=x)", "regex": true})),
        Code::OutsideRoot => ws.stitch("read", &json!({"path": "../outside/x"})),
        Code::NotFound => ws.stitch("read", &json!({"path": "b.txt"})),
        Code::NotAFile => {
            ws.dir("d");
            ws.stitch("read", &json!({"path": "d"}))
        }
        Code::NotADirectory => ws.stitch("list", &json!({"path": "a.txt"})),
        Code::AlreadyExists => ws.stitch("write", &json!({"path": "a.txt", "content": "x"})),
        Code::NotText => {
            ws.file("bin", BIN);
            ws.stitch("read", &json!({"path": "bin"}))
        }
        Code::TooLarge => {
            ws.file(".stitch/config.json", r#"{"limits":{"maxFileBytes":4}}"#);
            ws.stitch("read", &json!({"path": "a.txt"}))
        }
        Code::NoMatch => ws.stitch(
            "edit",
            &json!({"path": "a.txt", "oldText": "three", "newText": "3"}),
        ),
        Code::AmbiguousMatch => ws.stitch(
            "edit",
            &json!({"path": "a.txt", "oldText": "two", "newText": "2"}),
        ),
        Code::MatchCountMismatch => ws.stitch(
            "edit",
            &json!({"path": "a.txt", "oldText": "two", "newText": "2", "expectedReplacements": 3}),
        ),
        Code::StaleVersion => ws.stitch(
            "edit",
            &json!({"path": "a.txt", "oldText": "one", "newText": "1", "expectedSha256": "0".repeat(64)}),
        ),
        Code::NotObserved => {
            let mut cmd = ws.cmd();
            cmd.args(["--session", "s1", "edit", "a.txt", "--old", "one", "--new", "1"])
                .write_stdin("");
            Run::from(cmd)
        }
        Code::Denied => ws.stitch("read", &json!({"path": ".stitch/config.json"})),
        Code::InvalidConfig => {
            ws.file(".stitch/config.json", "{not json");
            ws.stitch("list", &json!({}))
        }
        Code::SyntaxError => {
            ws.file("a.json", "{\"a\": 1}\n");
            ws.stitch(
                "edit",
                &json!({"path": "a.json", "oldText": "1}", "newText": "[1}"}),
            )
        }
        Code::InvalidPatch => ws.stitch("apply", &json!({"patch": "*** Begin Patch\n"})),
        Code::Busy => {
            ws.stitch(
                "edit",
                &json!({"path": "a.txt", "oldText": "one", "newText": "1"}),
            )
            .ok();
            let _held = hold_every_lock(&ws);
            let mut cmd = ws.cmd();
            cmd.args(["--lock-timeout", "0.1", "edit", "a.txt", "--old", "1", "--new", "one"])
                .write_stdin("");
            Run::from(cmd)
        }
    }
}

/// The whole envelope each scenario of [`produce`] ends in: message, details and hint.
/// The match is exhaustive, like `produce`'s: a new code needs its envelope here too.
// One arm per code: a table, long because the contract is, not because of logic.
#[allow(clippy::too_many_lines)]
fn expected(code: Code) -> Value {
    match code {
        Code::InvalidArgument => json!({
            "ok": false,
            "error": "INVALID_ARGUMENT",
            "details": {
                "message": "read_file has no field `bogus`; the allowed fields are path, offset, limit, maxBytes, lineNumbers",
                "allowed": ["path", "offset", "limit", "maxBytes", "lineNumbers"],
                "field": "bogus"
            },
            "_hint": "Drop `bogus`: the allowed fields are path, offset, limit, maxBytes, lineNumbers."
        }),
        Code::InvalidPath => json!({
            "ok": false,
            "error": "INVALID_PATH",
            "details": {
                "message": "The path `src\\a.txt` uses `\\` as a separator",
                "path": "src\\a.txt",
                "suggestion": "src/a.txt"
            },
            "_hint": "Use the path `src/a.txt` instead."
        }),
        Code::InvalidPattern => json!({
            "ok": false,
            "error": "INVALID_PATTERN",
            "details": {
                "message": "The regex `(?=x)` does not compile: error: look-around, including look-ahead and look-behind, is not supported",
                "field": "query",
                "pattern": "(?=x)",
                "reason": "regex parse error:\n    (?:(?=x))\n       ^^^\nerror: look-around, including look-ahead and look-behind, is not supported",
                "rewrite": true
            },
            "_hint": "Regexes run in linear time: rewrite without look-around or backreferences, or search literally."
        }),
        Code::OutsideRoot => json!({
            "ok": false,
            "error": "OUTSIDE_ROOT",
            "details": {
                "message": "`../outside/x` is outside the workspace",
                "path": "../outside/x"
            },
            "_hint": "Use a path inside the workspace."
        }),
        Code::NotFound => json!({
            "ok": false,
            "error": "NOT_FOUND",
            "details": {
                "message": "`b.txt` does not exist",
                "nearNames": ["a.txt"],
                "path": "b.txt"
            },
            "_hint": "Did you mean `a.txt`? Otherwise list the parent directory."
        }),
        Code::NotAFile => json!({
            "ok": false,
            "error": "NOT_A_FILE",
            "details": {"message": "`d` is not a regular file", "path": "d"},
            "_hint": "`d` is not a regular file: list it instead."
        }),
        Code::NotADirectory => json!({
            "ok": false,
            "error": "NOT_A_DIRECTORY",
            "details": {"message": "`a.txt` is not a directory", "path": "a.txt"},
            "_hint": "`a.txt` is a file: read it with read_file, or list its parent directory."
        }),
        Code::AlreadyExists => json!({
            "ok": false,
            "error": "ALREADY_EXISTS",
            "details": {
                "message": "`a.txt` already exists and overwrite was not set",
                "path": "a.txt",
                "sha256": sha256sum(A_TXT.as_bytes())
            },
            "_hint": "Read `a.txt` and pass overwrite: true (or its sha256 as expectedSha256), or change it with edit_file."
        }),
        Code::NotText => json!({
            "ok": false,
            "error": "NOT_TEXT",
            "details": {
                "message": "`bin` is not text (binary: contains NUL bytes)",
                "bytes": 2,
                "path": "bin",
                "reason": "binary: contains NUL bytes",
                "sha256": sha256sum(BIN)
            },
            "_hint": "`bin` cannot be read or edited as text; to replace it whole, use write_file with its sha256 as expectedSha256."
        }),
        Code::TooLarge => json!({
            "ok": false,
            "error": "TOO_LARGE",
            "details": {
                "message": "`a.txt` is 12 bytes, over the limit of 4",
                "bytes": 12,
                "limit": 4,
                "path": "a.txt"
            },
            "_hint": "`a.txt` is over the workspace's limits.maxFileBytes: work on smaller files, or ask the workspace owner to raise limits.maxFileBytes."
        }),
        Code::NoMatch => json!({
            "ok": false,
            "error": "NO_MATCH",
            "details": {"message": "oldText is not in `a.txt`", "candidates": [], "path": "a.txt"},
            "_hint": "Re-read `a.txt` and copy oldText exactly from it."
        }),
        Code::AmbiguousMatch => json!({
            "ok": false,
            "error": "AMBIGUOUS_MATCH",
            "details": {
                "message": "oldText appears 2 times in `a.txt`, so the edit is ambiguous",
                "lines": [2, 3],
                "occurrences": 2,
                "path": "a.txt"
            },
            "_hint": "Add surrounding lines to oldText until it matches once, or pass replaceAll: true."
        }),
        Code::MatchCountMismatch => json!({
            "ok": false,
            "error": "MATCH_COUNT_MISMATCH",
            "details": {
                "message": "oldText appears 2 times in `a.txt`, but expectedReplacements is 3",
                "expectedReplacements": 3,
                "lines": [2, 3],
                "occurrences": 2,
                "path": "a.txt"
            },
            "_hint": "Check the count: re-read the file, then set expectedReplacements to the number of matches you intend."
        }),
        Code::StaleVersion => json!({
            "ok": false,
            "error": "STALE_VERSION",
            "details": {
                "message": "`a.txt` has changed: its sha256 is not the expectedSha256",
                "actualSha256": sha256sum(A_TXT.as_bytes()),
                "expectedSha256": "0".repeat(64),
                "path": "a.txt"
            },
            "_hint": "Re-read the file, then retry."
        }),
        Code::NotObserved => json!({
            "ok": false,
            "error": "NOT_OBSERVED",
            "details": {
                "message": "This session has not read `a.txt`, so it cannot change it",
                "actualSha256": sha256sum(A_TXT.as_bytes()),
                "path": "a.txt",
                "session": "s1"
            },
            "_hint": "Read the file, then retry."
        }),
        Code::Denied => json!({
            "ok": false,
            "error": "DENIED",
            "details": {
                "message": "`.stitch/config.json` is in .stitch/, which is reserved for stitch's own state",
                "path": ".stitch/config.json",
                "rule": "reserved"
            }
        }),
        Code::InvalidConfig => json!({
            "ok": false,
            "error": "INVALID_CONFIG",
            "details": {
                "message": ".stitch/config.json is malformed: not valid JSON: key must be a string at line 1 column 2",
                "path": ".stitch/config.json",
                "reason": "not valid JSON: key must be a string at line 1 column 2"
            },
            "_hint": "The workspace owner must fix .stitch/config.json; `stitch config check` shows the problem."
        }),
        Code::SyntaxError => json!({
            "ok": false,
            "error": "SYNTAX_ERROR",
            "details": {
                "message": "The change would leave `a.json` unparseable at line 1, column 9: missing \"]\"; nothing was changed",
                "path": "a.json",
                "language": "json",
                "line": 1,
                "column": 9,
                "endLine": 1,
                "excerpt": "{\"a\": [1}\n        ^",
                "expected": "]",
                "field": "newText"
            },
            "_hint": "Fix newText so that `a.json` parses at line 1 (details.excerpt shows where), and send the call again; or pass allowSyntaxErrors: true if a later change completes it."
        }),
        Code::InvalidPatch => json!({
            "ok": false,
            "error": "INVALID_PATCH",
            "details": {
                "message": "The patch does not parse at line 1: expected `*** End Patch` to close the patch",
                "dialect": "codex",
                "patchLine": 1,
                "line": "*** Begin Patch",
                "expected": "`*** End Patch` to close the patch"
            },
            "_hint": "Fix line 1 of the patch as details.expected says, and send the whole patch again."
        }),
        Code::Busy => json!({
            "ok": false,
            "error": "BUSY",
            "details": {
                "message": "Another process held the lock on `a.txt` for 0.1 s",
                "path": "a.txt",
                "retryable": true
            },
            "_hint": "Another call holds the lock: retry in a moment."
        }),
    }
}

#[test]
fn every_refusal_code_is_produced_by_a_real_call() {
    for code in Code::ALL {
        let run = produce(code);
        let details = run.refused(code.as_str());
        assert!(
            details["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{code:?}: {}",
            run.stdout
        );
        run.assert_envelope(&expected(code));
    }
}

#[test]
fn every_code_has_a_stable_spelling() {
    let spelled: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(
        spelled,
        [
            "INVALID_ARGUMENT",
            "INVALID_PATH",
            "INVALID_PATTERN",
            "OUTSIDE_ROOT",
            "NOT_FOUND",
            "NOT_A_FILE",
            "NOT_A_DIRECTORY",
            "ALREADY_EXISTS",
            "NOT_TEXT",
            "TOO_LARGE",
            "NO_MATCH",
            "AMBIGUOUS_MATCH",
            "MATCH_COUNT_MISMATCH",
            "STALE_VERSION",
            "NOT_OBSERVED",
            "DENIED",
            "INVALID_CONFIG",
            "SYNTAX_ERROR",
            "INVALID_PATCH",
            "BUSY",
        ]
    );
}
