//! Seeing a change: `stitch show ID` (show_change) with each file's operation and diff
//! from the kept versions, `history --stat` and history's one line a change, an id on
//! every change's result, `appliedBy` on one already applied, and `--no-diff`.

use std::fs;

use serde_json::{json, Value};

use crate::support::{envelope_of, sha256sum, McpServer, TestWorkspace, STRING};

/// A Codex patch that edits a.txt's second line and adds b.txt.
const PATCH: &str = "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-2\n+deux\n*** Add File: b.txt\n+bee\n*** End Patch\n";

/// The id a change's result returned.
fn id_of(data: &Value) -> String {
    data["id"].as_str().expect("the result's id").to_owned()
}

/// `text` with each change's age (`12s ago`) written `<age>`, which no test can pin.
fn without_ages(text: &str) -> String {
    text.lines()
        .map(|line| {
            line.split("  ")
                .map(|field| {
                    let aged = field.strip_suffix(" ago").is_some_and(|n| {
                        n.len() > 1
                            && n[..n.len() - 1].bytes().all(|b| b.is_ascii_digit())
                            && n.ends_with(['s', 'm', 'h', 'd'])
                    });
                    if aged {
                        "<age>"
                    } else {
                        field
                    }
                })
                .collect::<Vec<_>>()
                .join("  ")
                + "\n"
        })
        .collect()
}

/// Runs with stdin empty and stdout a pipe: status and stdout.
fn piped(ws: &TestWorkspace, args: &[&str]) -> (i32, String) {
    let output = ws.cmd().args(args).write_stdin("").output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
    )
}

/// One change of each tool: a write, an edit, an apply, a delete, a move, and an undo of
/// the move. Their ids, in that order.
fn every_tool(ws: &TestWorkspace) -> Vec<String> {
    ws.file("a.txt", "one\ntwo\nthree\n");
    let write = ws.run(&["write", "notes/n.md", "--content", "first\nsecond\n"]);
    let edit = ws.run(&["edit", "a.txt", "--old", "two", "--new", "2"]);
    let apply = ws.run(&["apply", "--patch", PATCH]);
    let delete = ws.run(&["delete", "notes/n.md"]);
    let moved = ws.run(&["move", "a.txt", "docs/a.txt"]);
    let undo = ws.run(&["undo"]);
    [write, edit, apply, delete, moved, undo]
        .iter()
        .map(|run| id_of(run.ok()))
        .collect()
}

#[test]
fn show_gives_every_tools_change_with_each_files_operation_and_diff() {
    let ws = TestWorkspace::new();
    let ids = every_tool(&ws);
    let notes = "first\nsecond\n";
    let (edited, patched) = ("one\n2\nthree\n", "one\ndeux\nthree\n");
    let shown = |id: &str| ws.run(&["show", id]);
    shown(&ids[0]).assert_envelope(&json!({"ok": true, "data": {
        "id": ids[0], "time": STRING, "tool": "write_file", "undone": false,
        "files": [{
            "path": "notes/n.md", "before": null, "after": sha256sum(notes.as_bytes()),
            "added": 2, "removed": 0, "operation": "create",
            "diff": "--- a/notes/n.md\n+++ b/notes/n.md\n@@ -0,0 +1,2 @@\n+first\n+second\n"
        }]
    }}));
    shown(&ids[1]).assert_envelope(&json!({"ok": true, "data": {
        "id": ids[1], "time": STRING, "tool": "edit_file", "undone": false,
        "files": [{
            "path": "a.txt", "before": sha256sum(b"one\ntwo\nthree\n"),
            "after": sha256sum(edited.as_bytes()), "added": 1, "removed": 1, "operation": "edit",
            "diff": "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"
        }]
    }}));
    shown(&ids[2]).assert_envelope(&json!({"ok": true, "data": {
        "id": ids[2], "time": STRING, "tool": "apply_patch", "undone": false,
        "files": [
            {
                "path": "a.txt", "before": sha256sum(edited.as_bytes()),
                "after": sha256sum(patched.as_bytes()), "added": 1, "removed": 1,
                "operation": "edit",
                "diff": "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-2\n+deux\n three\n"
            },
            {
                "path": "b.txt", "before": null, "after": sha256sum(b"bee\n"),
                "added": 1, "removed": 0, "operation": "create",
                "diff": "--- a/b.txt\n+++ b/b.txt\n@@ -0,0 +1 @@\n+bee\n"
            }
        ]
    }}));
    shown(&ids[3]).assert_envelope(&json!({"ok": true, "data": {
        "id": ids[3], "time": STRING, "tool": "delete_file", "undone": false,
        "files": [{
            "path": "notes/n.md", "before": sha256sum(notes.as_bytes()), "after": null,
            "added": 0, "removed": 2, "operation": "delete",
            "diff": "--- a/notes/n.md\n+++ b/notes/n.md\n@@ -1,2 +0,0 @@\n-first\n-second\n"
        }]
    }}));
    // The move was undone: it moved the file as it was, and the undo moved it back.
    shown(&ids[4]).assert_envelope(&json!({"ok": true, "data": {
        "id": ids[4], "time": STRING, "tool": "move_file", "undone": true,
        "files": [{
            "path": "docs/a.txt", "from": "a.txt", "before": null,
            "after": sha256sum(patched.as_bytes()), "added": 0, "removed": 0,
            "operation": "move", "diff": ""
        }]
    }}));
    shown(&ids[5]).assert_envelope(&json!({"ok": true, "data": {
        "id": ids[5], "time": STRING, "tool": "undo_change", "undoes": ids[4], "undone": false,
        "files": [{
            "path": "a.txt", "from": "docs/a.txt", "before": null,
            "after": sha256sum(patched.as_bytes()), "added": 0, "removed": 0,
            "operation": "move", "diff": ""
        }]
    }}));
    // By JSON, the same.
    let by_json = ws.stitch("show", &json!({"id": ids[1]}));
    assert_eq!(by_json.envelope, shown(&ids[1]).envelope);
}

#[test]
fn an_undo_of_an_edit_is_shown_the_other_way_round() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\nbeta\n");
    ws.run(&["edit", "a.txt", "--old", "beta", "--new", "gamma\ndelta"])
        .ok();
    let undo = id_of(ws.run(&["undo"]).ok());
    let shown = ws.run(&["show", &undo]);
    let file = &shown.ok()["files"][0];
    assert_eq!(
        (&file["operation"], &file["added"], &file["removed"]),
        (&json!("edit"), &json!(1), &json!(2))
    );
    assert_eq!(
        file["diff"],
        "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,2 @@\n alpha\n-gamma\n-delta\n+beta\n"
    );
    // The counts are kept in the undo's own entry, made when it was.
    let entries = ws.path(".stitch/journal/entries");
    let kept = fs::read_dir(&entries)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(&undo))
        .expect("the undo's entry");
    let text = fs::read_to_string(kept).unwrap();
    let (_, body) = text.split_once('\n').unwrap();
    let entry: Value = serde_json::from_str(body).unwrap();
    assert_eq!(entry["stat"], json!([{"added": 1, "removed": 2}]));
}

#[test]
fn history_in_text_is_a_line_a_change_and_stat_a_line_a_file() {
    let ws = TestWorkspace::new();
    let ids = every_tool(&ws);
    let [write, edit, apply, delete, moved, undo] = &ids[..] else {
        panic!("six changes: {ids:?}")
    };
    let (status, plain) = piped(&ws, &["--format", "text", "history"]);
    assert_eq!(status, 0);
    assert_eq!(
        without_ages(&plain),
        format!(
            "{undo}  <age>  undo_change undoes {moved}  -  docs/a.txt -> a.txt +0 -0\n\
             {moved}  <age>  move_file  -  a.txt -> docs/a.txt +0 -0  undone\n\
             {delete}  <age>  delete_file  -  notes/n.md +0 -2\n\
             {apply}  <age>  apply_patch  -  a.txt +1 -1, b.txt +1 -0\n\
             {edit}  <age>  edit_file  -  a.txt +1 -1\n\
             {write}  <age>  write_file  -  notes/n.md +2 -0\n"
        )
    );
    // --stat implies text, and puts each file on a line of its own.
    let (status, stat) = piped(&ws, &["history", "--stat", "--limit", "4"]);
    assert_eq!(status, 0);
    assert_eq!(
        without_ages(&stat),
        format!(
            "{undo}  <age>  undo_change undoes {moved}  -\n    docs/a.txt -> a.txt +0 -0\n\
             {moved}  <age>  move_file  -  undone\n    a.txt -> docs/a.txt +0 -0\n\
             {delete}  <age>  delete_file  -\n    notes/n.md +0 -2\n\
             {apply}  <age>  apply_patch  -\n    a.txt +1 -1\n    b.txt +1 -0\n"
        )
    );
    // A session is named on its changes' lines.
    ws.run(&["--session", "s1", "read", "b.txt"]).ok();
    ws.run(&[
        "--session",
        "s1",
        "edit",
        "b.txt",
        "--old",
        "bee",
        "--new",
        "bea",
    ])
    .ok();
    let (_, line) = piped(&ws, &["--format", "text", "history", "--limit", "1"]);
    assert_eq!(
        without_ages(&line),
        format!(
            "{}  <age>  edit_file  s1  b.txt +1 -1\n",
            ws.newest_change()
        )
    );
    ws.run(&["--format", "json", "history", "--stat"])
        .assert_envelope(&json!({
            "ok": false,
            "error": "INVALID_ARGUMENT",
            "details": {
                "message": "--null, -l, -c, -q, --no-diff and --stat shape text output, so they cannot go with --format json",
                "field": "format"
            },
            "_hint": "Fix the `--format` argument and call again."
        }));
}

#[test]
fn show_in_text_heads_the_change_and_colours_its_diff_as_git_does() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\n");
    let id = id_of(
        ws.run(&["edit", "a.txt", "--old", "two", "--new", "2"])
            .ok(),
    );
    let (status, shown) = piped(&ws, &["--format", "text", "--color", "always", "show", &id]);
    assert_eq!(status, 0);
    assert_eq!(
        without_ages(&shown),
        format!(
            "change {id}  <age>  edit_file  -\n\
             edit a.txt +1 -1\n\
             \x1b[1m--- a/a.txt\x1b[0m\n\x1b[1m+++ b/a.txt\x1b[0m\n\x1b[36m@@ -1,2 +1,2 @@\x1b[0m\n \
             one\n\x1b[31m-two\x1b[0m\n\x1b[32m+2\x1b[0m\n"
        )
    );
}

#[test]
fn a_version_neither_kept_nor_in_the_workspace_is_said_instead_of_a_diff() {
    let ws = TestWorkspace::new();
    let id = id_of(ws.run(&["write", "w.txt", "--content", "mine\n"]).ok());
    fs::write(ws.path("w.txt"), "rewritten by hand\n").unwrap();
    // The result the journal kept for it is gone too.
    fs::remove_file(ws.path(&format!(".stitch/journal/objects/{}", sha256sum(b"mine\n")))).unwrap();
    ws.run(&["show", &id]).assert_envelope(&json!({"ok": true, "data": {
        "id": id, "time": STRING, "tool": "write_file", "undone": false,
        "files": [{
            "path": "w.txt", "before": null, "after": sha256sum(b"mine\n"),
            "added": 1, "removed": 0, "operation": "create",
            "diffUnavailable": "the version after the change is no longer kept, nor in the workspace"
        }]
    }}));
    let (_, text) = piped(&ws, &["--format", "text", "show", &id]);
    assert!(
        text.ends_with(
            "create w.txt +1 -0\n(no diff: the version after the change is no longer kept, nor in the workspace)\n"
        ),
        "{text}"
    );
}

#[test]
fn showing_a_change_the_journal_does_not_hold_is_not_found() {
    let ws = TestWorkspace::new();
    ws.run(&["show", "00000000000000000001"])
        .assert_envelope(&json!({
            "ok": false,
            "error": "NOT_FOUND",
            "details": {
                "message": "There is no change `00000000000000000001` in the journal",
                "operation": "show",
                "nearNames": [],
                "id": "00000000000000000001"
            },
            "_hint": "List the changes there are with stitch history."
        }));
}

#[test]
fn every_change_returns_its_id_and_an_undo_prints_its_own() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let write = ws.stitch("write", &json!({"path": "w.txt", "content": "w\n"}));
    write.assert_envelope(&json!({"ok": true, "data": {
        "path": "w.txt", "sha256": sha256sum(b"w\n"), "bytes": 2, "created": true,
        "createdDirectories": [], "applied": true, "id": ws.newest_change()
    }}));
    let edit = ws.run(&["edit", "a.txt", "--old", "one", "--new", "1"]);
    edit.assert_envelope(&json!({"ok": true, "data": {
        "path": "a.txt", "baseSha256": sha256sum(b"one\n"), "sha256": sha256sum(b"1\n"),
        "replacements": 1, "bytes": 2, "applied": true, "id": ws.newest_change(),
        "diff": "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+1\n"
    }}));
    // A dry run, and a write of what is there, change nothing and have no id.
    let dry = ws.run(&["edit", "a.txt", "--old", "1", "--new", "one", "--dry-run"]);
    assert!(dry.ok().get("id").is_none(), "{}", dry.stdout);
    let same = ws.run(&["write", "w.txt", "--content", "w\n", "--overwrite"]);
    assert!(same.ok().get("id").is_none(), "{}", same.stdout);
    // In text the summary line carries the id, an undo's its own entry's.
    let (_, undone) = piped(&ws, &["--format", "text", "undo"]);
    let undo = ws.newest_change();
    assert!(
        undone.ends_with(&format!(
            "undid change {} as change {undo}\n",
            id_of(edit.ok())
        )),
        "{undone}"
    );
    let (_, deleted) = piped(&ws, &["--format", "text", "delete", "w.txt"]);
    assert_eq!(
        deleted,
        format!("deleted w.txt, change {}\n", ws.newest_change())
    );
    // Over MCP, edit and write return it too.
    let mut server = McpServer::start(&ws, &["--no-session"], &[]);
    server.initialize("2025-06-18");
    let written = server.call("write_file", &json!({"path": "m.txt", "content": "m\n"}));
    assert_eq!(
        written["structuredContent"]["id"],
        json!(ws.newest_change())
    );
    let edited = server.call(
        "edit_file",
        &json!({"path": "m.txt", "oldText": "m", "newText": "n"}),
    );
    assert_eq!(edited["structuredContent"]["id"], json!(ws.newest_change()));
    // And show_change is served, read-only, giving what `stitch show` gives.
    let id = ws.newest_change();
    let shown = server.call("show_change", &json!({"id": id}));
    assert_eq!(envelope_of(&shown), ws.run(&["show", &id]).envelope);
}

#[test]
fn an_edit_or_a_patch_already_applied_names_the_change_that_applied_it() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\nthree\n");
    let args = [
        "edit",
        "a.txt",
        "--old",
        "two",
        "--new",
        "2",
        "--ok-if-applied",
    ];
    let first = id_of(ws.run(&args).ok());
    ws.run(&args).assert_envelope(&json!({"ok": true, "data": {
        "path": "a.txt", "baseSha256": sha256sum(b"one\n2\nthree\n"),
        "sha256": sha256sum(b"one\n2\nthree\n"), "replacements": 0, "bytes": 12,
        "applied": false, "diff": "", "alreadyApplied": true, "appliedBy": first
    }}));
    let mut text_args = vec!["--format", "text"];
    text_args.extend(args);
    assert_eq!(
        piped(&ws, &text_args),
        (
            0,
            format!("already applied a.txt: unchanged, by change {first}\n")
        )
    );
    // A patch applied twice: the second time names the first, and reads so in text.
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-2\n+deux\n*** End Patch\n";
    let applied = id_of(ws.run(&["apply", "--patch", patch]).ok());
    ws.stitch("apply", &json!({"patch": patch, "okIfApplied": true}))
        .assert_envelope(&json!({"ok": true, "data": {
            "dialect": "codex", "applied": false, "alreadyApplied": true,
            "appliedBy": applied, "changes": []
        }}));
    assert_eq!(
        piped(
            &ws,
            &[
                "--format",
                "text",
                "apply",
                "--patch",
                patch,
                "--ok-if-applied"
            ]
        ),
        (
            0,
            format!("already applied (codex patch), by change {applied}\n")
        )
    );
    // Applied by hand, the journal holds no change that did it: no appliedBy.
    ws.file("b.txt", "status: done\n");
    let by_hand = ws.run(&[
        "edit",
        "b.txt",
        "--old",
        "status: todo",
        "--new",
        "status: done",
        "--ok-if-applied",
    ]);
    assert_eq!(by_hand.ok()["alreadyApplied"], true);
    assert!(
        by_hand.ok().get("appliedBy").is_none(),
        "{}",
        by_hand.stdout
    );
    // Over MCP, the same.
    let mut server = McpServer::start(&ws, &["--no-session"], &[]);
    server.initialize("2025-06-18");
    let edit = json!({"path": "a.txt", "oldText": "deux", "newText": "two", "okIfApplied": true});
    let first = server.call("edit_file", &edit);
    let again = server.call("edit_file", &edit);
    assert_eq!(again["structuredContent"]["alreadyApplied"], true);
    assert_eq!(
        again["structuredContent"]["appliedBy"],
        first["structuredContent"]["id"]
    );
}

#[test]
fn no_diff_prints_the_summary_line_alone() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\n");
    // In a pipe, --no-diff is text: the one line a script reads.
    let (status, edited) = piped(
        &ws,
        &["edit", "a.txt", "--old", "two", "--new", "2", "--no-diff"],
    );
    assert_eq!(
        (status, edited),
        (
            0,
            format!(
                "edited a.txt: 1 replacement(s), change {}\n",
                ws.newest_change()
            )
        )
    );
    let (_, written) = piped(&ws, &["write", "w.txt", "--content", "w\n", "--no-diff"]);
    assert_eq!(
        written,
        format!("created w.txt (2 bytes), change {}\n", ws.newest_change())
    );
    let (_, applied) = piped(&ws, &["apply", "--patch", PATCH, "--no-diff"]);
    assert_eq!(
        applied,
        format!(
            "applied: 2 file(s) (codex patch), change {}\n",
            ws.newest_change()
        )
    );
    let patch_id = ws.newest_change();
    let (_, undone) = piped(&ws, &["undo", "--no-diff"]);
    assert_eq!(
        undone,
        format!("undid change {patch_id} as change {}\n", ws.newest_change())
    );
    let (_, moved) = piped(&ws, &["move", "w.txt", "v.txt", "--no-diff"]);
    assert_eq!(
        moved,
        format!("moved w.txt -> v.txt, change {}\n", ws.newest_change())
    );
    // A JSON result is whole: --no-diff with --format json is a contradiction.
    ws.run(&[
        "--format",
        "json",
        "edit",
        "a.txt",
        "--old",
        "2",
        "--new",
        "two",
        "--no-diff",
    ])
    .assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "--null, -l, -c, -q, --no-diff and --stat shape text output, so they cannot go with --format json",
            "field": "format"
        },
        "_hint": "Fix the `--format` argument and call again."
    }));
    assert_eq!(ws.read_string("a.txt"), "one\n2\n");
}

#[test]
fn a_file_that_is_not_text_has_no_counts_and_says_why_it_has_no_diff() {
    let ws = TestWorkspace::new();
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    ws.file("logo.png", png);
    let id = id_of(ws.run(&["delete", "logo.png"]).ok());
    ws.run(&["show", &id])
        .assert_envelope(&json!({"ok": true, "data": {
            "id": id, "time": STRING, "tool": "delete_file", "undone": false,
            "files": [{
                "path": "logo.png", "before": sha256sum(png), "after": null,
                "operation": "delete",
                "diffUnavailable": "the version before the change is not text"
            }]
        }}));
    let (_, line) = piped(&ws, &["--format", "text", "history"]);
    assert_eq!(
        without_ages(&line),
        format!("{id}  <age>  delete_file  -  logo.png\n")
    );
}

#[test]
fn a_file_the_policy_denies_is_shown_without_its_diff() {
    let ws = TestWorkspace::new();
    ws.file("secrets/key.txt", "old key\n");
    let id = id_of(
        ws.run(&["edit", "secrets/key.txt", "--old", "old", "--new", "new"])
            .ok(),
    );
    // Denied since: the change is listed, its content is not shown.
    ws.file(".stitch/config.json", r#"{"deny": ["secrets/**"]}"#);
    ws.run(&["show", &id])
        .assert_envelope(&json!({"ok": true, "data": {
            "id": id, "time": STRING, "tool": "edit_file", "undone": false,
            "files": [{
                "path": "secrets/key.txt", "before": sha256sum(b"old key\n"),
                "after": sha256sum(b"new key\n"), "added": 1, "removed": 1, "operation": "edit",
                "diffUnavailable": "the workspace policy denies reading `secrets/key.txt`"
            }]
        }}));
}
