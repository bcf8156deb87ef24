//! Every hint is executable and never loops, in every dialect: a table of refusals each
//! tool gives (`cases`), each made by flags, by JSON and over MCP, whose hints and
//! messages may name only the flags, fields, tools and commands that tool takes in that
//! dialect (`names`); and each hint followed to the letter, as an obedient model follows
//! it, does not get the same refusal back.

mod apply_cases;
mod busy;
mod cases;
mod journal_cases;
mod loops;
mod names;
mod reading;

use serde_json::{json, Value};

use crate::support::{envelope_of, McpServer, Run, TestWorkspace};

use apply_cases::APPLY_CASES;
use cases::{Case, CASES, SESSION};
use journal_cases::JOURNAL_CASES;
use reading::READING_CASES;

/// Runs `case` by JSON on the command line (with its session, when it has one).
fn by_json(ws: &TestWorkspace, case: &Case, args: &Value) -> Run {
    let mut cmd = ws.cmd();
    cmd.args(case.global);
    if case.session {
        cmd.args(["--session", SESSION]);
    }
    cmd.arg(case.command)
        .arg("--json")
        .write_stdin(args.to_string());
    Run::from(cmd)
}

/// Runs `case` by its flags, when it has flags.
fn by_flags(ws: &TestWorkspace, case: &Case) -> Option<Run> {
    let flags = case.flags?;
    let mut cmd = ws.cmd();
    cmd.args(case.global);
    if case.session {
        cmd.args(["--session", SESSION]);
    }
    cmd.arg(case.command).args(flags).write_stdin(Vec::new());
    Some(Run::from(cmd))
}

/// Runs `case` over MCP, as a host calls the tool; the envelope.
fn over_mcp(ws: &TestWorkspace, case: &Case) -> Value {
    let session: &[&str] = if case.session {
        &["--session", SESSION]
    } else {
        &["--no-session"]
    };
    let args: Vec<&str> = case.global.iter().chain(session).copied().collect();
    let mut server = McpServer::start(ws, &args, &[]);
    server.initialize("2025-06-18");
    let envelope = envelope_of(&server.call(case.tool, &(case.args)()));
    server.close(std::time::Duration::from_secs(5));
    envelope
}

/// Every row: the table's, and the refusals of a lock held by another.
fn every_case() -> impl Iterator<Item = &'static Case> {
    CASES
        .iter()
        .chain(APPLY_CASES)
        .chain(JOURNAL_CASES)
        .chain(busy::CASES)
        .chain(READING_CASES)
}

/// Every refusal code the contract lists has a row, so a code added without one fails.
#[test]
fn every_refusal_code_has_a_row_in_the_table() {
    let covered: Vec<&str> = every_case().map(|case| case.code).collect();
    let missing: Vec<&str> = stitch::refusal::Code::ALL
        .iter()
        .map(|code| code.as_str())
        .filter(|code| !covered.contains(code))
        .collect();
    assert_eq!(missing, Vec::<&str>::new(), "refusal codes with no row");
}

/// A fresh workspace laid out for `case`.
fn workspace(case: &Case) -> TestWorkspace {
    let ws = TestWorkspace::new();
    (case.setup)(&ws);
    ws
}

#[track_caller]
fn assert_refused(case: &Case, dialect: &str, envelope: &Value) {
    assert_eq!(
        envelope["error"], case.code,
        "{} by {dialect}: {envelope}",
        case.name
    );
}

/// Every flag, field, tool and command a hint or message names is one the tool takes, in
/// the dialect of the call; by flags, by JSON and over MCP.
#[test]
fn every_hint_names_only_what_its_tool_takes_in_every_dialect() {
    for case in every_case() {
        let ws = workspace(case);
        if let Some(run) = by_flags(&ws, case) {
            assert_refused(case, "flags", &run.envelope);
            names::assert_by_flags(case, &run.envelope);
        }
        let ws = workspace(case);
        let run = by_json(&ws, case, &(case.args)());
        assert_refused(case, "JSON", &run.envelope);
        names::assert_by_json(case, &run.envelope);
        let ws = workspace(case);
        let envelope = over_mcp(&ws, case);
        assert_refused(case, "MCP", &envelope);
        names::assert_by_json(case, &envelope);
    }
}

/// Doing exactly what the hint says (its reads, then the call it describes) does not get
/// the same refusal back.
#[test]
fn a_hint_followed_to_the_letter_does_not_loop() {
    for case in every_case() {
        let Some(follow) = case.follow else { continue };
        let ws = workspace(case);
        let args = (case.args)();
        let first = by_json(&ws, case, &args);
        assert_refused(case, "JSON", &first.envelope);
        let step = follow(&first.envelope, &args);
        for before in &step.before {
            by_json(&ws, case, before).ok();
        }
        for path in &step.reads {
            let read = by_json(
                &ws,
                &Case {
                    command: "read",
                    ..*case
                },
                &json!({"path": path}),
            );
            read.ok();
        }
        let retry = by_json(&ws, case, &step.args);
        let same = retry.envelope["error"] == first.envelope["error"]
            && retry.envelope["details"] == first.envelope["details"];
        assert!(
            !same,
            "{}: the hint followed gets the same refusal back: {}",
            case.name, retry.stdout
        );
        if case.follow_succeeds {
            retry.ok();
        }
    }
}
