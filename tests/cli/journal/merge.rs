//! An undo merges, as `git revert` does: a change taken back after later changes touched
//! other lines of its files keeps their work byte for byte; one whose lines later work
//! overlaps is refused with the lines and the later changes' ids, and nothing changes.

use std::fs;

use serde_json::json;

use super::undo::ids;
use crate::support::{envelope_of, sha256sum, McpServer, TestWorkspace};

/// Twenty numbered lines, line `n` reading `line n`, with `changes` applied (line,
/// new text).
fn lines(changes: &[(usize, &str)]) -> String {
    (1..=20)
        .map(|n| {
            changes
                .iter()
                .rev()
                .find(|(at, _)| *at == n)
                .map_or(format!("line {n}\n"), |(_, text)| format!("{text}\n"))
        })
        .collect()
}

fn edit(ws: &TestWorkspace, path: &str, old: &str, new: &str) {
    ws.run(&["edit", path, "--old", old, "--new", new]).ok();
}

#[test]
fn an_undo_after_later_changes_to_other_lines_merges_and_keeps_their_work() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", lines(&[]));
    ws.file("b.txt", lines(&[]));
    // Change 1 touches line 2 of both files, in one apply.
    let patch = "*** Begin Patch\n\
        *** Update File: a.txt\n@@\n-line 2\n+line two\n\
        *** Update File: b.txt\n@@\n-line 2\n+line two\n\
        *** End Patch\n";
    ws.run(&["apply", "--patch", patch]).ok();
    let first = ids(&ws)[0].clone();
    // Changes 2 to 8 touch other lines of the same files, as parallel jobs would.
    let later = [5, 8, 11, 14, 17, 19, 20];
    for (i, n) in later.iter().enumerate() {
        let file = if i % 2 == 0 { "a.txt" } else { "b.txt" };
        edit(
            &ws,
            file,
            &format!("line {n}\n"),
            &format!("line {n}, changed\n"),
        );
    }
    let undo = ws.stitch("undo", &json!({"id": first}));
    let result = undo.ok();
    assert_eq!(result["undid"], json!(first));
    for file in result["files"].as_array().unwrap() {
        assert_eq!(file["merged"], true, "{file}");
    }
    let kept = |odd: bool| -> Vec<(usize, String)> {
        later
            .iter()
            .enumerate()
            .filter(|(i, _)| (i % 2 == 1) == odd)
            .map(|(_, n)| (*n, format!("line {n}, changed")))
            .collect()
    };
    let expect = |changes: Vec<(usize, String)>| {
        let changes: Vec<(usize, &str)> = changes.iter().map(|(n, t)| (*n, t.as_str())).collect();
        lines(&changes)
    };
    assert_eq!(ws.read_string("a.txt"), expect(kept(false)));
    assert_eq!(ws.read_string("b.txt"), expect(kept(true)));
    // The undo of the undo puts change 1 back over the same later work.
    let undo_id = result["id"].as_str().unwrap().to_owned();
    ws.stitch("undo", &json!({"id": undo_id})).ok();
    let mut with_first = kept(false);
    with_first.push((2, "line two".into()));
    assert_eq!(ws.read_string("a.txt"), expect(with_first));
}

#[test]
fn an_undo_whose_lines_later_changes_overlap_names_them_and_changes_nothing() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", lines(&[]));
    edit(&ws, "a.txt", "line 2\n", "line two\n");
    edit(&ws, "a.txt", "line 9\n", "line nine\n");
    edit(&ws, "a.txt", "line two\n", "line TWO\n");
    let all = ids(&ws);
    let (first, overlapping) = (all[2].clone(), all[0].clone());
    let before = ws.read_string("a.txt");
    let run = ws.stitch("undo", &json!({"id": first}));
    let refused = run.refused("STALE_VERSION");
    assert_eq!(refused["operation"], "undo");
    let path = &refused["paths"][0];
    assert_eq!(path["path"], "a.txt");
    assert_eq!(path["conflicts"], json!([{"start": 2, "end": 2}]));
    assert_eq!(path["changedBy"], json!([overlapping, all[1]]));
    assert_eq!(path["actualSha256"], sha256sum(before.as_bytes()));
    assert!(run.hint().contains("changedBy"), "{}", run.hint());
    assert_eq!(ws.read_string("a.txt"), before);
    // Following the hint: the later changes first, newest first, then this one.
    ws.stitch("undo", &json!({"id": overlapping})).ok();
    ws.stitch("undo", &json!({"id": first})).ok();
    assert_eq!(ws.read_string("a.txt"), lines(&[(9, "line nine")]));
}

#[test]
fn a_created_file_changed_since_or_a_deleted_name_taken_is_not_merged() {
    let ws = TestWorkspace::new();
    ws.file("gone.txt", "old\n");
    ws.run(&["write", "new.txt", "--content", "made\n"]).ok();
    ws.run(&["delete", "gone.txt"]).ok();
    let all = ids(&ws);
    let (created, deleted) = (all[1].clone(), all[0].clone());
    fs::write(ws.path("new.txt"), "made\nand more\n").unwrap();
    fs::write(ws.path("gone.txt"), "someone else's\n").unwrap();
    for id in [created, deleted] {
        let run = ws.stitch("undo", &json!({"id": id}));
        let refused = run.refused("STALE_VERSION");
        assert!(refused["paths"][0]["reason"].is_string(), "{}", run.stdout);
    }
    assert_eq!(ws.read_string("new.txt"), "made\nand more\n");
    assert_eq!(ws.read_string("gone.txt"), "someone else's\n");
    // A file moved, then changed at its new place: not moved back over that work.
    ws.file("old.txt", "kept\n");
    ws.run(&["move", "old.txt", "moved.txt"]).ok();
    let moved = ids(&ws)[0].clone();
    fs::write(ws.path("moved.txt"), "kept\nand changed\n").unwrap();
    let run = ws.stitch("undo", &json!({"id": moved}));
    let refused = run.refused("STALE_VERSION");
    assert!(refused["paths"][0]["reason"].is_string(), "{}", run.stdout);
    assert_eq!(ws.read_string("moved.txt"), "kept\nand changed\n");
    assert!(!ws.exists("old.txt"));
}

#[test]
fn without_the_changes_result_an_undo_falls_back_and_says_so() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", lines(&[]));
    edit(&ws, "a.txt", "line 2\n", "line two\n");
    let first = ids(&ws)[0].clone();
    let result = lines(&[(2, "line two")]);
    // The result kept for the merge is gone; a later change touches another line.
    fs::remove_file(ws.path(&format!(
        ".stitch/journal/objects/{}",
        sha256sum(result.as_bytes())
    )))
    .unwrap();
    fs::write(ws.path("a.txt"), lines(&[(2, "line two"), (9, "nine")])).unwrap();
    let run = ws.stitch("undo", &json!({"id": first}));
    let refused = run.refused("STALE_VERSION");
    assert_eq!(
        refused["paths"][0]["reason"],
        "the change's result is not kept, so it cannot be merged"
    );
    assert_eq!(
        ws.read_string("a.txt"),
        lines(&[(2, "line two"), (9, "nine")])
    );
}

#[test]
fn a_dry_run_shows_the_merged_diff_and_changes_nothing() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", lines(&[]));
    edit(&ws, "a.txt", "line 2\n", "line two\n");
    let first = ids(&ws)[0].clone();
    edit(&ws, "a.txt", "line 9\n", "line nine\n");
    let run = ws.stitch("undo", &json!({"id": first, "dryRun": true}));
    let file = &run.ok()["files"][0];
    assert_eq!(file["merged"], true);
    let diff = file["diff"].as_str().unwrap();
    assert!(diff.contains("-line two\n+line 2\n"), "{diff}");
    assert!(!diff.contains("nine"), "{diff}");
    assert_eq!(
        ws.read_string("a.txt"),
        lines(&[(2, "line two"), (9, "line nine")])
    );
}

#[test]
fn redo_takes_back_the_newest_undo_and_walks_forward() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", lines(&[]));
    edit(&ws, "a.txt", "line 2\n", "line two\n");
    edit(&ws, "a.txt", "line 9\n", "line nine\n");
    ws.run(&["undo"]).ok();
    ws.run(&["undo"]).ok();
    assert_eq!(ws.read_string("a.txt"), lines(&[]));
    let redo = ws.run(&["undo", "--redo"]);
    redo.ok();
    assert_eq!(ws.read_string("a.txt"), lines(&[(2, "line two")]));
    ws.stitch("undo", &json!({"redo": true})).ok();
    assert_eq!(
        ws.read_string("a.txt"),
        lines(&[(2, "line two"), (9, "line nine")])
    );
    // Nothing left to redo: a redo is never taken back by another.
    ws.run(&["undo", "--redo"]).refused("NOT_FOUND");
    // A change that is not an undo is refused by name.
    let edit_id = ids(&ws).last().unwrap().clone();
    let run = ws.stitch("undo", &json!({"redo": true, "id": edit_id}));
    run.refused("INVALID_ARGUMENT");
}

#[test]
fn stitch_redo_is_undo_redo_by_flags_and_by_json() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", lines(&[]));
    edit(&ws, "a.txt", "line 2\n", "line two\n");
    ws.run(&["undo"]).ok();
    let redo = ws.run(&["redo", "--dry-run"]);
    assert_eq!(redo.ok()["applied"], false);
    assert_eq!(ws.read_string("a.txt"), lines(&[]));
    ws.run(&["redo"]).ok();
    assert_eq!(ws.read_string("a.txt"), lines(&[(2, "line two")]));
    ws.run(&["undo"]).ok();
    ws.run_with_stdin(&["redo", "--json"], "{}").ok();
    assert_eq!(ws.read_string("a.txt"), lines(&[(2, "line two")]));
    ws.run(&["redo"]).refused("NOT_FOUND");
}

#[test]
fn over_mcp_an_undo_merges_refuses_with_the_lines_and_redoes() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", lines(&[]));
    edit(&ws, "a.txt", "line 2\n", "line two\n");
    let first = ids(&ws)[0].clone();
    edit(&ws, "a.txt", "line 9\n", "line nine\n");
    let mut server = McpServer::start(&ws, &["--no-session"], &[]);
    server.initialize("2025-06-18");
    let undone = server.call("undo_change", &json!({"id": first}));
    let result = &undone["structuredContent"];
    assert_eq!(result["files"][0]["merged"], true, "{undone}");
    assert_eq!(ws.read_string("a.txt"), lines(&[(9, "line nine")]));
    let redone = server.call("undo_change", &json!({"redo": true}));
    assert_eq!(redone["structuredContent"]["undid"], result["id"]);
    assert_eq!(
        ws.read_string("a.txt"),
        lines(&[(2, "line two"), (9, "line nine")])
    );
    // An overlapping later change: refused with the lines and the change's id.
    edit(&ws, "a.txt", "line two\n", "line TWO\n");
    let overlapping = ids(&ws)[0].clone();
    let refused = envelope_of(&server.call("undo_change", &json!({"id": first})));
    assert_eq!(refused["error"], "STALE_VERSION", "{refused}");
    let path = &refused["details"]["paths"][0];
    assert_eq!(path["conflicts"], json!([{"start": 2, "end": 2}]));
    assert_eq!(path["changedBy"][0], json!(overlapping));
    assert!(refused["_hint"].as_str().unwrap().contains("list_changes"));
}
