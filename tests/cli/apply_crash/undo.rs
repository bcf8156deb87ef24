//! An undo cut short midway — killed, or failed by I/O — is finished by the next call, as
//! the change it takes back would be, and listed as the undo of that change.

use crate::support::TestWorkspace;

use super::{expected, lay_out, patch, pending, snapshot, FILES};

/// An undo of the A → B change cut short by the debug build's `hook` once it has
/// published `published` files: torn on disk, then finished by the next call (`next`), and
/// listed as the undo of that change. Returns what the cut call printed.
#[cfg(debug_assertions)]
fn undo_cut_short(hook: &str, published: usize, next: &str) -> std::process::Output {
    let ws = TestWorkspace::new();
    lay_out(&ws, 10);
    let patch = ws.outside_file("p.patch", patch("A", "B", true));
    ws.run(&["apply", "--from", patch.to_str().unwrap()]).ok();
    let output = ws
        .spawnable()
        .env(hook, published.to_string())
        .arg("undo")
        .output()
        .unwrap();
    assert!(!output.status.success(), "{hook} cuts the undo short");
    assert_ne!(snapshot(&ws), expected(10, "A", false), "torn on disk");
    ws.run(&[next]).ok();
    assert_eq!(snapshot(&ws), expected(10, "A", false));
    let history = ws.run(&["history"]);
    let changes = &history.ok()["changes"];
    assert_eq!(changes.as_array().unwrap().len(), 2);
    assert_eq!(changes[0]["tool"], "undo_change");
    assert_eq!(changes[1]["undone"], true);
    output
}

#[cfg(debug_assertions)]
#[test]
fn an_undo_killed_midway_is_finished_by_the_next_call() {
    undo_cut_short("STITCH_TEST_KILL_AFTER_PUBLISHING", 3, "history");
}

#[cfg(debug_assertions)]
#[test]
fn a_merged_undo_killed_midway_is_finished_by_the_next_call() {
    let ws = TestWorkspace::new();
    lay_out(&ws, 10);
    let patch = ws.outside_file("p.patch", patch("A", "B", true));
    ws.run(&["apply", "--from", patch.to_str().unwrap()]).ok();
    // Later work in another line of two files: the undo merges them.
    for file in ["src/a.txt", "docs/f.txt"] {
        let old = format!("line 0 of {file},");
        let new = format!("line zero of {file},");
        ws.run(&["edit", file, "--old", &old, "--new", &new]).ok();
    }
    let history = ws.run(&["history"]);
    let apply_id = history.ok()["changes"][2]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let output = ws
        .spawnable()
        .env("STITCH_TEST_KILL_AFTER_PUBLISHING", "3")
        .args(["undo", &apply_id])
        .output()
        .unwrap();
    assert!(!output.status.success(), "the hook kills the undo");
    ws.run(&["history"]).ok();
    // All files back at A, the later work kept in the two merged ones.
    let mut want = expected(10, "A", false);
    for (i, file) in FILES.iter().enumerate() {
        if matches!(*file, "src/a.txt" | "docs/f.txt") {
            let text = String::from_utf8(want[i].take().unwrap()).unwrap();
            let old = format!("line 0 of {file},");
            let new = format!("line zero of {file},");
            want[i] = Some(text.replacen(&old, &new, 1).into_bytes());
        }
    }
    assert_eq!(snapshot(&ws), want);
    assert_eq!(pending(&ws), Vec::<String>::new());
}

#[cfg(debug_assertions)]
#[test]
fn an_undo_that_fails_midway_is_finished_by_the_next_call() {
    let output = undo_cut_short("STITCH_TEST_FAIL_AFTER_PUBLISHING", 2, "list");
    let run = crate::support::Run::from_output(output);
    assert_eq!(
        run.envelope["error"], "INTERNAL_SERVER_ERROR",
        "{}",
        run.stdout
    );
}
