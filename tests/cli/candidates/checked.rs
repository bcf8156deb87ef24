//! A carried `newText` is offered only where it can be checked, and "already applied" is
//! one rule that holds anywhere. The failures these pin: tabs typed where the file
//! indents with spaces (a deeper level kept its tab), a space before a continuation `\`
//! dropped in both texts, a passage quoted from before an earlier change, a line the
//! caller rewrote that the file holds otherwise; a version bump inside a line and an
//! inserted section re-run in a workspace with no journal, a tag at a line's end run
//! twice, a lock file's look-alike lines, and `appliedBy` from the journal.

use serde_json::{json, Value};

use crate::support::TestWorkspace;

/// Sends an edit; the whole envelope.
fn edit(ws: &TestWorkspace, path: &str, old: &str, new: &str, ok_if_applied: bool) -> Value {
    let mut request = json!({"path": path, "oldText": old, "newText": new});
    if ok_if_applied {
        request["okIfApplied"] = json!(true);
    }
    ws.stitch("edit", &request).envelope
}

/// Follows the hint to the letter and returns the file it gave.
fn follow(ws: &TestWorkspace, path: &str, refused: &Value) -> String {
    let offered = &refused["details"]["candidates"][0];
    let retry = edit(
        ws,
        path,
        offered["text"].as_str().unwrap(),
        offered["newText"].as_str().expect("a repaired newText"),
        false,
    );
    assert_eq!(retry["ok"], true, "{retry}");
    ws.read_string(path)
}

/// A workspace whose journal is off, as a fresh clone in CI would be to stitch.
fn without_journal() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file(".stitch/config.json", r#"{"journal": false}"#);
    ws
}

#[test]
fn tabs_typed_where_the_file_indents_with_spaces_are_spaces_at_every_level() {
    let ws = TestWorkspace::new();
    let text = "class Clock:\n    def tick(self, t):\n        if t:\n            hours = t // 3600\n            return hours\n";
    ws.file("clock.py", text);
    let old = "\tdef tick(self, t):\n\t\tif t:\n\t\t\thours = t // 3600\n";
    let new = "\tdef tick(self, t):\n\t\tif t:\n\t\t\thours = t // 3600\n\t\t\tif hours > 24:\n\t\t\t\tdays = t // 86400\n";
    let refused = edit(&ws, "clock.py", old, new, false);
    assert_eq!(refused["error"], "NO_MATCH", "{refused}");
    assert_eq!(
        follow(&ws, "clock.py", &refused),
        "class Clock:\n    def tick(self, t):\n        if t:\n            hours = t // 3600\n            if hours > 24:\n                days = t // 86400\n            return hours\n"
    );
}

#[test]
fn a_space_dropped_before_a_continuation_is_the_file_s_in_a_rewritten_line() {
    let ws = TestWorkspace::new();
    let text = "from click import \\\n    get_text_stream, \\\n    echo\n";
    ws.file("cli.py", text);
    let old = "from click import\\\n    get_text_stream,\\\n    echo\n";
    let new = "from click import\\\n    open_file,\\\n    echo\n";
    let refused = edit(&ws, "cli.py", old, new, false);
    assert_eq!(
        follow(&ws, "cli.py", &refused),
        "from click import \\\n    open_file, \\\n    echo\n"
    );
}

#[test]
fn a_line_the_caller_rewrote_that_the_file_holds_otherwise_is_not_carried() {
    let ws = TestWorkspace::new();
    let text =
        "def serve(port):\n    log.info(\"could not open the socket on %d\", port)\n    retry()\n";
    ws.file("serve.py", text);
    // The caller misremembers the message, and rewrites the line: merged by characters,
    // the file's "could not" would stand in a message nobody wrote.
    let old = "    log.info(\"failed to open the socket on %d\", port)\n    retry()\n";
    let new = "    log.info(\"failed to bind the port %d\", port)\n    retry()\n";
    let refused = edit(&ws, "serve.py", old, new, false);
    assert_eq!(refused["error"], "NO_MATCH");
    let first = &refused["details"]["candidates"][0];
    assert_eq!(first["startLine"], 2);
    assert!(first.get("newText").is_none(), "{refused}");
    assert_eq!(
        refused["_hint"],
        "Your change could not be carried onto the file's text without doubt: re-read lines 2-3 of `serve.py` and write both oldText and newText again from it."
    );
}

#[test]
fn a_passage_quoted_from_before_an_earlier_change_is_never_carried() {
    let ws = TestWorkspace::new();
    ws.file("app.py", "def main():\n    port = 8080\n    serve(port)\n");
    let earlier = edit(
        &ws,
        "app.py",
        "    port = 8080\n",
        "    port = 9090\n",
        false,
    );
    assert_eq!(earlier["ok"], true);
    // Quoted from the read before that change: carried, it would make a change of the
    // older version, not of today's text.
    let stale = edit(
        &ws,
        "app.py",
        "    port = 8080\n    serve(port)\n",
        "    port = 8080\n    serve(port, tls=True)\n",
        false,
    );
    crate::support::assert_json(
        &json!({
            "ok": false,
            "error": "NO_MATCH",
            "details": {
                "message": "oldText is not in `app.py`",
                "path": "app.py",
                "candidates": [{
                    "startLine": 2,
                    "endLine": 3,
                    "text": "    port = 9090\n    serve(port)\n",
                    "similarity": crate::support::NUMBER,
                    "difference": "content"
                }],
                "movedOn": {"startLine": 2, "endLine": 3}
            },
            "_hint": "`app.py` moved on since oldText was read: oldText quotes an earlier version, and lines 2-3 now differ. Re-read lines 2-3 and write both oldText and newText again from today's text."
        }),
        &stale,
    );
    // Misremembered the same way without an earlier change, it is carried.
    ws.file(
        "other.py",
        "def main():\n    port = 9090\n    serve(port)\n",
    );
    let misremembered = edit(
        &ws,
        "other.py",
        "    port = 8080\n    serve(port)\n",
        "    port = 8080\n    serve(port, tls=True)\n",
        false,
    );
    assert!(misremembered["details"].get("movedOn").is_none());
}

#[test]
fn a_version_bump_inside_a_line_is_applied_in_a_workspace_with_no_journal() {
    let ws = without_journal();
    let text = "{\"name\": \"web\", \"version\": \"1.3.0\", \"private\": true}\n";
    ws.file("package.json", text);
    let (old, new) = ("\"version\": \"1.2.0\",", "\"version\": \"1.3.0\",");
    let again = edit(&ws, "package.json", old, new, true);
    assert_eq!(again["ok"], true, "{again}");
    assert_eq!(again["data"]["applied"], false);
    assert_eq!(again["data"]["alreadyApplied"], true);
    assert!(again["data"].get("appliedBy").is_none());
    // Without okIfApplied: refused, said applied, and no candidate to apply it twice.
    let refused = edit(&ws, "package.json", old, new, false);
    assert_eq!(refused["details"]["alreadyApplied"], true, "{refused}");
    assert!(refused["details"]["candidates"][0].get("newText").is_none());
    assert_eq!(ws.read_string("package.json"), text);
}

#[test]
fn an_inserted_section_run_again_applies_once_with_ok_if_applied() {
    let ws = without_journal();
    ws.file("Makefile", "all: build\n\nbuild:\n\tcargo build\n");
    let old = "build:\n";
    let new = "lint:\n\tcargo clippy\n\nbuild:\n";
    let once = edit(&ws, "Makefile", old, new, true);
    assert_eq!(once["data"]["applied"], true, "{once}");
    let again = edit(&ws, "Makefile", old, new, true);
    assert_eq!(again["data"]["alreadyApplied"], true, "{again}");
    assert_eq!(
        ws.read_string("Makefile"),
        "all: build\n\nlint:\n\tcargo clippy\n\nbuild:\n\tcargo build\n"
    );
}

#[test]
fn a_tag_at_a_line_s_end_run_twice_is_applied_not_tagged_twice() {
    let ws = TestWorkspace::new();
    ws.file("conf.py", "retries = 3\ntimeout = 30\n");
    let (old, new) = ("retries = 3\n", "retries = 3  # reviewed\n");
    assert_eq!(edit(&ws, "conf.py", old, new, false)["ok"], true);
    let refused = edit(&ws, "conf.py", old, new, false);
    assert_eq!(refused["details"]["alreadyApplied"], true, "{refused}");
    let offered = refused["details"]["candidates"].as_array().unwrap();
    assert!(
        offered.iter().all(|c| c.get("newText").is_none()),
        "{refused}"
    );
    let again = edit(&ws, "conf.py", old, new, true);
    assert_eq!(again["data"]["alreadyApplied"], true, "{again}");
    assert_eq!(
        ws.read_string("conf.py"),
        "retries = 3  # reviewed\ntimeout = 30\n"
    );
}

#[test]
fn the_journal_names_the_change_that_applied_it() {
    let ws = TestWorkspace::new();
    ws.file("conf.toml", "[server]\nport = 8080\n");
    let made = edit(&ws, "conf.toml", "port = 8080", "port = 9090", true);
    assert_eq!(made["data"]["applied"], true, "{made}");
    let history = ws.stitch("history", &json!({}));
    let id = history.ok()["changes"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let again = edit(&ws, "conf.toml", "port = 8080", "port = 9090", true);
    assert_eq!(again["data"]["alreadyApplied"], true, "{again}");
    assert_eq!(again["data"]["appliedBy"], id.as_str());
    // Run again without okIfApplied: the refusal says so, and names the change — not a
    // stale read, though the journal keeps the version its oldText was quoted from.
    let refused = edit(&ws, "conf.toml", "port = 8080", "port = 9090", false);
    assert_eq!(refused["details"]["alreadyApplied"], true, "{refused}");
    assert_eq!(refused["details"]["appliedBy"], id.as_str());
    assert!(refused["details"].get("movedOn").is_none());
    assert_eq!(
        refused["_hint"],
        format!("The edit is already applied: change {id} made it, and `conf.toml` is still at its result. Pass okIfApplied: true to accept that (nothing changes).")
    );
}

#[test]
fn look_alike_lines_of_a_lock_file_are_never_called_applied() {
    let ws = without_journal();
    let lock = "[[package]]\nname = \"a\"\nversion = \"1.3.0\"\n\n[[package]]\nname = \"b\"\nversion = \"1.2.9\"\n\n[[package]]\nname = \"c\"\nversion = \"1.2.7\"\n";
    ws.file("Cargo.lock", lock);
    let run = edit(
        &ws,
        "Cargo.lock",
        "version = \"1.2.3\"",
        "version = \"1.3.0\"",
        true,
    );
    assert_eq!(run["error"], "NO_MATCH", "{run}");
    assert!(run["details"].get("alreadyApplied").is_none());
}
