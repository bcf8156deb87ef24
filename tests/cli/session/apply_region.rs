//! Staleness by region for apply (§6): a patch's hunks, or a `changes` edit item, land in
//! a file that moved on since the session read it when every line they cover is one the
//! session saw unchanged — and say which lines changed; a hunk over a changed line is
//! refused naming them; `expectedSha256`, a move and a second change of the same file
//! keep the whole-file rule.

use std::fs;

use serde_json::json;

use super::{session, session_json, REREAD};
use crate::support::{sha256sum, TestWorkspace};

/// A file of three functions, as a formatter would leave it.
fn code(a: &str, b: &str, c: &str) -> String {
    format!("fn a() {{\n    {a}\n}}\n\nfn b() {{\n    {b}\n}}\n\nfn c() {{\n    {c}\n}}\n")
}

/// A unified diff of `lib.rs` replacing `old` by `new` on line `line` (1-based), with one
/// line of context either side.
fn diff(line: usize, (before, old, after): (&str, &str, &str), new: &str) -> String {
    format!(
        "--- a/lib.rs\n+++ b/lib.rs\n@@ -{start},3 +{start},3 @@\n {before}\n-    {old}\n+    {new}\n {after}\n",
        start = line - 1
    )
}

fn read(ws: &TestWorkspace, id: &str) {
    session(ws, id, &["read", "lib.rs"]).ok();
}

fn apply(ws: &TestWorkspace, id: &str, patch: &str) -> crate::support::Run {
    session(ws, id, &["apply", "--patch", patch])
}

#[test]
fn a_patch_lands_beside_a_formatter_run_and_names_its_lines() {
    let ws = TestWorkspace::new();
    ws.file("lib.rs", code("one()", "two()", "three()"));
    read(&ws, "s");
    fs::write(ws.path("lib.rs"), code("one()", "two()", "three( )")).unwrap();

    let landed = apply(&ws, "s", &diff(2, ("fn a() {", "one()", "}"), "uno()"));
    let change = &landed.ok()["changes"][0];
    assert_eq!(change["staleRead"], true, "{}", landed.stdout);
    assert_eq!(
        change["foreignChanges"],
        json!([{"startLine": 10, "endLine": 10}])
    );
    assert_eq!(ws.read_string("lib.rs"), code("uno()", "two()", "three( )"));
    // The success says which lines to read before relying on them.
    assert_eq!(
        landed.envelope["_hint"],
        "Another program changed `lib.rs` at line 10 since this session read it; the change \
         landed on lines the session had seen. Before a change that depends on those lines, \
         read them: stitch read lib.rs --offset 10 --limit 1."
    );

    // A hunk over the line the formatter changed is refused, naming it.
    let run = apply(&ws, "s", &diff(10, ("fn c() {", "three( )", "}"), "tres()"));
    let details = run.refused("STALE_VERSION");
    assert_eq!(run.hint(), REREAD, "{}", run.stdout);
    assert_eq!(
        details["foreignChanges"],
        json!([{"startLine": 10, "endLine": 10}])
    );
    assert_eq!(ws.read_string("lib.rs"), code("uno()", "two()", "three( )"));

    // A line the session saw still takes a hunk without a read; after the read the hint
    // names, the changed line does too.
    apply(&ws, "s", &diff(6, ("fn b() {", "two()", "}"), "dos()")).ok();
    let read = session(
        &ws,
        "s",
        &["read", "lib.rs", "--offset", "10", "--limit", "1"],
    );
    assert_eq!(read.ok()["content"], "    three( )\n");

    apply(&ws, "s", &diff(10, ("fn c() {", "three( )", "}"), "tres()")).ok();
    assert_eq!(ws.read_string("lib.rs"), code("uno()", "dos()", "tres()"));
}

#[test]
fn a_context_line_that_changed_refuses_the_hunk() {
    let ws = TestWorkspace::new();
    ws.file("lib.rs", code("one()", "two()", "three()"));
    read(&ws, "s");
    // The formatter changes the line the hunk quotes as context, and the hunk is written
    // against the text as it is now: it matches, but the session never saw that line.
    fs::write(
        ws.path("lib.rs"),
        code("one()", "two()", "three()").replace("fn a() {", "fn a( ) {"),
    )
    .unwrap();
    let run = apply(&ws, "s", &diff(2, ("fn a( ) {", "one()", "}"), "uno()"));
    let details = run.refused("STALE_VERSION");
    assert_eq!(
        details["foreignChanges"],
        json!([{"startLine": 1, "endLine": 1}])
    );
    assert!(ws.read_string("lib.rs").contains("one()"));
}

#[test]
fn lines_inserted_above_shift_a_codex_chunk_and_the_ledger_follows() {
    // With the journal off, the session keeps the result's line digests itself.
    for journal in [true, false] {
        lines_inserted_above(journal);
    }
}

fn lines_inserted_above(journal: bool) {
    let ws = TestWorkspace::new();
    if !journal {
        ws.file(".stitch/config.json", r#"{"journal": false}"#);
    }
    ws.file("lib.rs", code("one()", "two()", "three()"));
    read(&ws, "s");
    let header = "// generated\n// do not edit\n";
    fs::write(
        ws.path("lib.rs"),
        format!("{header}{}", code("one()", "two()", "three()")),
    )
    .unwrap();
    let patch = "*** Begin Patch\n*** Update File: lib.rs\n@@ fn b() {\n-    two()\n+    two();\n+    more()\n*** End Patch\n";
    let run = apply(&ws, "s", patch);
    let change = &run.ok()["changes"][0];
    assert_eq!(change["staleRead"], true, "{}", run.stdout);
    assert_eq!(
        change["foreignChanges"],
        json!([{"startLine": 1, "endLine": 2}])
    );
    let now = format!("{header}{}", code("one()", "two();\n    more()", "three()"));
    assert_eq!(ws.read_string("lib.rs"), now);
    // The inserted header stays unseen in the result's numbering; fn c, below the added
    // line, is still seen where it now stands.
    let run = session(
        &ws,
        "s",
        &[
            "edit",
            "lib.rs",
            "--old",
            "// do not edit",
            "--new",
            "// edit",
        ],
    );
    assert_eq!(
        run.refused("STALE_VERSION")["foreignChanges"],
        json!([{"startLine": 1, "endLine": 2}])
    );
    session(
        &ws,
        "s",
        &["edit", "lib.rs", "--old", "three()", "--new", "tres()"],
    )
    .ok();
}

#[test]
fn a_changes_edit_item_lands_by_region_and_expected_sha256_keeps_the_whole_file_rule() {
    let ws = TestWorkspace::new();
    ws.file("lib.rs", code("one()", "two()", "three()"));
    read(&ws, "s");
    fs::write(ws.path("lib.rs"), code("one()", "two()", "three( )")).unwrap();
    let now = sha256sum(&ws.read("lib.rs"));

    let guarded = json!({"changes": [{"op": "edit", "path": "lib.rs", "oldText": "one()",
        "newText": "uno()", "expectedSha256": now}]});
    let run = session_json(&ws, "s", "apply", &guarded);
    let details = run.refused("STALE_VERSION");
    assert!(details.get("foreignChanges").is_none(), "{}", run.stdout);

    let dry = json!({"changes": [{"op": "edit", "path": "lib.rs", "oldText": "one()",
        "newText": "uno()"}], "dryRun": true});
    let run = session_json(&ws, "s", "apply", &dry);
    assert_eq!(run.ok()["changes"][0]["staleRead"], true, "{}", run.stdout);
    assert_eq!(ws.read_string("lib.rs"), code("one()", "two()", "three( )"));

    let plain = json!({"changes": [{"op": "edit", "path": "lib.rs", "oldText": "one()",
        "newText": "uno()"}]});
    let run = session_json(&ws, "s", "apply", &plain);
    let change = &run.ok()["changes"][0];
    assert_eq!(
        change["foreignChanges"],
        json!([{"startLine": 10, "endLine": 10}])
    );
    assert_eq!(ws.read_string("lib.rs"), code("uno()", "two()", "three( )"));
}

#[test]
fn two_sessions_patch_different_functions_and_a_third_over_a_changed_line_refuses() {
    let ws = TestWorkspace::new();
    ws.file("lib.rs", code("one()", "two()", "three()"));
    for id in ["a", "b", "c"] {
        read(&ws, id);
    }
    apply(&ws, "a", &diff(2, ("fn a() {", "one()", "}"), "uno()")).ok();
    let run = apply(&ws, "b", &diff(10, ("fn c() {", "three()", "}"), "tres()"));
    assert_eq!(run.ok()["changes"][0]["staleRead"], true, "{}", run.stdout);
    let run = apply(&ws, "c", &diff(2, ("fn a() {", "uno()", "}"), "eins()"));
    assert_eq!(
        run.refused("STALE_VERSION")["foreignChanges"],
        json!([{"startLine": 2, "endLine": 2}, {"startLine": 10, "endLine": 10}])
    );
    assert_eq!(ws.read_string("lib.rs"), code("uno()", "two()", "tres()"));
}

#[test]
fn in_text_the_hint_of_a_change_that_landed_by_region_follows_as_a_note() {
    let ws = TestWorkspace::new();
    ws.file("lib.rs", code("one()", "two()", "three()"));
    read(&ws, "s");
    fs::write(ws.path("lib.rs"), code("one()", "two()", "three( )")).unwrap();
    let out = ws
        .std_cmd()
        .args(["--session", "s", "--format", "text", "edit", "lib.rs"])
        .args(["--old", "one()", "--new", "uno()"])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.starts_with("--- a/lib.rs\n"), "{stdout}");
    assert_eq!(
        stderr,
        "note: Another program changed `lib.rs` at line 10 since this session read it; the \
         change landed on lines the session had seen. Before a change that depends on those \
         lines, read them: stitch read lib.rs --offset 10 --limit 1.\n"
    );
}
