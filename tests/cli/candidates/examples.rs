//! Whole envelopes of `NO_MATCH` for the near misses the benchmark counts: the candidate
//! covers the whole passage, names its difference, and retrying with it applies.

use serde_json::{json, Value};

use crate::support::TestWorkspace;

const HINT: &str = "Retry with oldText = candidates[0].text and newText = candidates[0].newText: that newText is your change carried onto the file's text.";

fn no_match(path: &str, candidates: &Value) -> Value {
    json!({
        "ok": false,
        "error": "NO_MATCH",
        "details": {
            "message": format!("oldText is not in `{path}`"),
            "candidates": candidates,
            "path": path
        },
        "_hint": HINT
    })
}

/// Follows the hint to the letter — `oldText` = `candidates[0].text`, `newText` =
/// `candidates[0].newText` — and checks the file it gives.
fn retry_gives(ws: &TestWorkspace, path: &str, candidate: &Value, expected: &str) {
    let run = ws.stitch(
        "edit",
        &json!({"path": path, "oldText": candidate["text"], "newText": candidate["newText"]}),
    );
    run.ok();
    assert_eq!(ws.read_string(path), expected);
}

#[test]
fn a_mis_indented_second_line_gets_both_lines() {
    let ws = TestWorkspace::new();
    let text = "fn main() {\n    let config = load_config(&args)?;\n    let server = Server::bind(config.addr)?;\n    server.run()\n}\n";
    ws.file("src/main.rs", text);
    let old = "    let config = load_config(&args)?;\n  let server = Server::bind(config.addr)?;";
    let new =
        "    let config = load_config(&args)?;\n    let server = Server::bind(config.listen)?;";
    let run = ws.stitch(
        "edit",
        &json!({"path": "src/main.rs", "oldText": old, "newText": new}),
    );
    run.assert_envelope(&no_match(
        "src/main.rs",
        &json!([{
            "difference": "indentation",
            "endLine": 3,
            "similarity": 0.999,
            "startLine": 2,
            "text": "    let config = load_config(&args)?;\n    let server = Server::bind(config.addr)?;",
            "newText": "    let config = load_config(&args)?;\n    let server = Server::bind(config.listen)?;"
        }]),
    ));
    let candidate = &run.envelope["details"]["candidates"][0];
    retry_gives(
        &ws,
        "src/main.rs",
        candidate,
        &text.replace("config.addr", "config.listen"),
    );
}

/// Both the file (another commit than the caller remembers) and the caller's change
/// replace the same hash: a conflict, so the passage is offered without a repaired
/// newText, and the hint says to re-read and write both again.
#[test]
fn a_pinned_action_at_another_commit_is_offered() {
    let ws = TestWorkspace::new();
    let text = include_str!("fixtures/ci.yml");
    ws.file("ci.yml", text);
    let old = "        uses: actions/checkout@f43a0e5ff2bd294095638e18286ca9a3d1956744 # v3.5.2";
    let new = "        uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2";
    let run = ws.stitch(
        "edit",
        &json!({"path": "ci.yml", "oldText": old, "newText": new}),
    );
    let mut expected = no_match(
        "ci.yml",
        &json!([
            {
                "difference": "content",
                "endLine": 84,
                "similarity": 0.923,
                "startLine": 84,
                "text": "        uses: actions/checkout@8e5e7e5ab8b370d6c329ec480221332ada57f0ab # v3.5.2"
            },
            {
                "difference": "content",
                "endLine": 27,
                "similarity": 0.692,
                "startLine": 27,
                "text": "        uses: actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11 # v4.1.1"
            },
            {
                "difference": "content",
                "endLine": 52,
                "similarity": 0.692,
                "startLine": 52,
                "text": "        uses: actions/checkout@692973e3d937129bcbf40652eb9f2f61becf3332 # v4.1.7"
            }
        ]),
    );
    expected["_hint"] = json!(
        "Your change could not be carried onto the file's text without doubt: re-read line 84 of `ci.yml` and write both oldText and newText again from it."
    );
    run.assert_envelope(&expected);
    // Rewritten from the passage, the edit applies.
    let candidate = &run.envelope["details"]["candidates"][0];
    let retry = ws.stitch(
        "edit",
        &json!({"path": "ci.yml", "oldText": candidate["text"], "newText": new}),
    );
    retry.ok();
    let expected = text.replace(
        "actions/checkout@8e5e7e5ab8b370d6c329ec480221332ada57f0ab # v3.5.2",
        "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2",
    );
    assert_eq!(ws.read_string("ci.yml"), expected);
}

#[test]
fn a_line_left_out_of_the_middle_is_covered() {
    let ws = TestWorkspace::new();
    let text = "def handler(event):\n    body = parse(event)\n    validate(body)\n    store(body, table=\"events\")\n    return ok()\n";
    ws.file("h.py", text);
    let old = "    body = parse(event)\n    store(body, table=\"events\")";
    let new = "    body = parse(event)\n    store(body, table=\"audit\")";
    let run = ws.stitch(
        "edit",
        &json!({"path": "h.py", "oldText": old, "newText": new}),
    );
    run.assert_envelope(&no_match(
        "h.py",
        &json!([{
            "difference": "content",
            "endLine": 4,
            "similarity": 0.872,
            "startLine": 2,
            "text": "    body = parse(event)\n    validate(body)\n    store(body, table=\"events\")",
            "newText": "    body = parse(event)\n    validate(body)\n    store(body, table=\"audit\")"
        }]),
    ));
    // The line the caller left out is kept: copying the candidate with the caller's own
    // newText would have deleted it.
    let candidate = &run.envelope["details"]["candidates"][0];
    retry_gives(
        &ws,
        "h.py",
        candidate,
        "def handler(event):\n    body = parse(event)\n    validate(body)\n    store(body, table=\"audit\")\n    return ok()\n",
    );
}

#[test]
fn spacing_inside_a_line_is_a_whitespace_difference() {
    let ws = TestWorkspace::new();
    let text = "def handler(event):\n    store(body, table=\"events\")\n";
    ws.file("h.py", text);
    let run = ws.stitch(
        "edit",
        &json!({"path": "h.py", "oldText": "store(body,table=\"events\")",
                "newText": "store(body, table=\"audit\")"}),
    );
    run.assert_envelope(&no_match(
        "h.py",
        &json!([{
            "difference": "whitespace",
            "endLine": 2,
            "similarity": 0.999,
            "startLine": 2,
            "text": "store(body, table=\"events\")",
            "newText": "store(body, table=\"audit\")"
        }]),
    ));
    let candidate = &run.envelope["details"]["candidates"][0];
    retry_gives(&ws, "h.py", candidate, &text.replace("events", "audit"));
}

#[test]
fn lf_text_in_a_mixed_file_is_a_line_ending_difference() {
    let ws = TestWorkspace::new();
    let text = "a = 1\r\nb = 2\nc = 3\r\nd = 4\r\n";
    ws.file("m.txt", text);
    let run = ws.stitch(
        "edit",
        &json!({"path": "m.txt", "oldText": "c = 3\nd = 4", "newText": "c = 3\nd = 5"}),
    );
    run.assert_envelope(&no_match(
        "m.txt",
        &json!([{
            "difference": "line-endings",
            "endLine": 4,
            "similarity": 0.999,
            "startLine": 3,
            "text": "c = 3\r\nd = 4",
            "newText": "c = 3\r\nd = 5"
        }]),
    ));
    // The passage's own line endings are carried into the repaired newText.
    let candidate = &run.envelope["details"]["candidates"][0];
    retry_gives(
        &ws,
        "m.txt",
        candidate,
        "a = 1\r\nb = 2\nc = 3\r\nd = 5\r\n",
    );
}
