//! The candidates benchmark: realistic mistakes over real text. Each case sends an edit
//! whose `oldText` an agent got slightly wrong (indentation, tabs, spacing, a typo, a
//! renamed word, a version, a pinned commit hash, a line too many or too few, a passage
//! from an older version of the file, LF typed into a CRLF file); it must be `NO_MATCH`,
//! and sending `candidates[0].text` as `oldText` with the same `newText` must give the
//! intended file, byte for byte. A retry of an edit already applied counts as handled
//! when `alreadyApplied` is reported (and `okIfApplied` then succeeds). The fixtures are
//! copies of real files: two of stitch's own sources, its README's opening, a CI
//! workflow with pinned actions, Python's `textwrap.py`, and Python's `shlex.py` with
//! CRLF line endings.

mod cases;
mod mistakes;
// One whole envelope for each kind of near miss the benchmark counts.
mod examples;

use std::collections::BTreeMap;

use serde_json::json;

use crate::support::{report, TestWorkspace};
use cases::Case;

/// The fixtures, by the name each is edited under.
const FIXTURES: [(&str, &str); 6] = [
    (
        "src/votes.rs",
        include_str!("candidates/fixtures/votes.rs.txt"),
    ),
    (
        "src/atomic.rs",
        include_str!("candidates/fixtures/atomic.rs.txt"),
    ),
    ("README.md", include_str!("candidates/fixtures/README.md")),
    (
        ".github/workflows/ci.yml",
        include_str!("candidates/fixtures/ci.yml"),
    ),
    (
        "lib/textwrap.py",
        include_str!("candidates/fixtures/textwrap.py"),
    ),
    (
        "lib/shlex.py",
        include_str!("candidates/fixtures/shlex_crlf.py"),
    ),
];

/// The share of cases the first candidate must repair.
const REQUIRED_RATE: f64 = 0.97;

/// Sends the mistaken edit and, when refused, its repair; `Err` says what went wrong.
fn attempt(ws: &TestWorkspace, case: &Case) -> Result<(), String> {
    ws.file(case.fixture, &case.file);
    let miss = ws.stitch(
        "edit",
        &json!({"path": case.fixture, "oldText": case.old, "newText": case.new}),
    );
    if miss.envelope["error"] != "NO_MATCH" {
        return Err(format!("not NO_MATCH: {}", miss.stdout));
    }
    let details = &miss.envelope["details"];
    if case.kind == "retry-after-success" {
        if details["alreadyApplied"] != true {
            return Err(format!("alreadyApplied not reported: {}", miss.stdout));
        }
        let again = ws.stitch(
            "edit",
            &json!({"path": case.fixture, "oldText": case.old, "newText": case.new,
                    "okIfApplied": true}),
        );
        let data = again.ok();
        if data["applied"] != false || data["alreadyApplied"] != true {
            return Err(format!("okIfApplied did not succeed: {}", again.stdout));
        }
        return check_file(ws, case);
    }
    let Some(text) = details["candidates"][0]["text"].as_str() else {
        return Err(format!("no candidate: {}", miss.stdout));
    };
    let retry = ws.stitch(
        "edit",
        &json!({"path": case.fixture, "oldText": text, "newText": case.new}),
    );
    if retry.envelope["ok"] != true {
        return Err(format!("the repair failed: {}", retry.stdout));
    }
    check_file(ws, case).map_err(|e| format!("{e}; candidate {text:?}"))
}

fn check_file(ws: &TestWorkspace, case: &Case) -> Result<(), String> {
    let got = ws.read_string(case.fixture);
    if got == case.intended {
        Ok(())
    } else {
        Err("the file is not the intended one".to_owned())
    }
}

#[test]
fn copying_the_first_candidate_repairs_nearly_every_mistake() {
    let cases: Vec<Case> = FIXTURES
        .iter()
        .flat_map(|&(name, text)| cases::generate(name, text))
        .collect();
    assert!(cases.len() >= 150, "only {} cases", cases.len());
    let ws = TestWorkspace::new();
    let mut by_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut by_fixture: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for case in &cases {
        let outcome = attempt(&ws, case);
        let fixture = by_fixture.entry(case.fixture).or_default();
        fixture.1 += 1;
        let tally = by_kind.entry(case.kind).or_default();
        tally.1 += 1;
        match outcome {
            Ok(()) => {
                tally.0 += 1;
                fixture.0 += 1;
            }
            Err(why) => failures.push(format!(
                "{} [{}] oldText {:?}: {why}",
                case.fixture, case.kind, case.old
            )),
        }
    }
    let handled = cases.len() - failures.len();
    #[allow(clippy::cast_precision_loss, reason = "a few hundred cases")]
    let rate = handled as f64 / cases.len() as f64;
    report(&format!(
        "candidates benchmark: {handled}/{} cases repaired by candidates[0] ({:.1}%)",
        cases.len(),
        rate * 100.0
    ));
    for (name, (ok, all)) in by_kind.iter().chain(&by_fixture) {
        report(&format!("  {name}: {ok}/{all}"));
    }
    for failure in &failures {
        report(&format!("  missed: {failure}"));
    }
    assert!(
        rate >= REQUIRED_RATE,
        "{handled}/{} repaired, under {REQUIRED_RATE}",
        cases.len()
    );
}
