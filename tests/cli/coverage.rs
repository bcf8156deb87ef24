//! Every refusal code in the contract's list is produced by a real call, asserted as a
//! serialized envelope. A code added to `Code::ALL` without a scenario here fails.

use serde_json::json;
use stitch::refusal::Code;

use crate::support::{hold_every_lock, Run, TestWorkspace};

/// Runs a scenario that must end in `code`.
fn produce(code: Code) -> Run {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\ntwo\n");
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
            ws.file("bin", b"\x00\x01");
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
            "BUSY",
        ]
    );
}
