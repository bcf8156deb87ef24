//! Concurrency: many processes editing one file at once lose no update, editing files
//! alike at once all land, creating one file at once clobber nothing, and a lock held
//! past `--lock-timeout` is `BUSY`.

use std::process::Child;

use serde_json::json;

use crate::support::{hold_every_lock, Run, TestWorkspace};

/// How many processes edit the file at once.
const WRITERS: usize = 16;
/// How many times every writer edits its line.
const ROUNDS: usize = 4;

fn line(writer: usize, round: usize) -> String {
    format!("line {writer:02} of the shared file, version {round}")
}

fn shared_file(round: usize) -> String {
    let mut text = String::from("// header, never edited\n\n");
    for writer in 0..WRITERS {
        text.push_str(&line(writer, round));
        text.push('\n');
    }
    text.push_str("\n// footer, never edited\n");
    text
}

/// Waits for every child and parses its envelope.
fn finish(children: Vec<Child>) -> Vec<Run> {
    children
        .into_iter()
        .map(|child| Run::from_output(child.wait_with_output().expect("wait for stitch")))
        .collect()
}

#[test]
fn concurrent_edits_of_one_file_lose_no_update() {
    let ws = TestWorkspace::new();
    ws.file("shared.txt", shared_file(0));
    for round in 1..=ROUNDS {
        // Every process is started before any is waited for.
        let children: Vec<Child> = (0..WRITERS)
            .map(|writer| {
                ws.spawnable()
                    .args(["edit", "shared.txt", "--old"])
                    .arg(line(writer, round - 1))
                    .arg("--new")
                    .arg(line(writer, round))
                    .spawn()
                    .expect("spawn stitch")
            })
            .collect();
        for (writer, run) in finish(children).iter().enumerate() {
            let data = run.ok();
            assert_eq!(data["replacements"], 1, "writer {writer}: {}", run.stdout);
        }
        assert_eq!(
            ws.read_string("shared.txt"),
            shared_file(round),
            "after round {round}"
        );
    }
}

/// Files of the same content edited at once, each by a process of its own: every edit
/// keeps the same version before, under the same name (its digest), which one change's
/// commit moves on while another is still keeping it. Every edit lands, and every one is
/// taken back by an undo.
#[test]
fn concurrent_edits_of_files_alike_all_land_and_all_undo() {
    const FILES: usize = 24;
    let ws = TestWorkspace::new();
    let text = shared_file(0);
    for round in 1..=12 {
        for file in 0..FILES {
            ws.file(&format!("alike/f{file:02}.txt"), &text);
        }
        let children: Vec<Child> = (0..FILES)
            .map(|file| {
                ws.spawnable()
                    .args(["edit", &format!("alike/f{file:02}.txt"), "--old"])
                    .arg(line(0, 0))
                    .arg("--new")
                    .arg(line(0, round))
                    .spawn()
                    .expect("spawn stitch")
            })
            .collect();
        for (file, run) in finish(children).iter().enumerate() {
            let data = run.ok();
            assert_eq!(data["replacements"], 1, "file {file}: {}", run.stdout);
        }
    }
    for _ in 0..FILES {
        ws.run(&["undo"]).ok();
    }
    for file in 0..FILES {
        assert!(
            ws.read_string(&format!("alike/f{file:02}.txt")) == text,
            "f{file:02}"
        );
    }
}

#[test]
fn concurrent_creates_of_one_file_clobber_nothing() {
    let ws = TestWorkspace::new();
    let children: Vec<Child> = (0..WRITERS)
        .map(|writer| {
            ws.spawnable()
                .args(["write", "new/created.txt", "--content"])
                .arg(format!("writer {writer}\n"))
                .spawn()
                .expect("spawn stitch")
        })
        .collect();
    let runs = finish(children);
    let winners: Vec<usize> = runs
        .iter()
        .enumerate()
        .filter(|(_, run)| run.envelope["ok"] == true)
        .map(|(writer, _)| writer)
        .collect();
    assert_eq!(winners.len(), 1, "exactly one creates the file: {runs:#?}");
    for (writer, run) in runs.iter().enumerate() {
        if writer != winners[0] {
            run.refused("ALREADY_EXISTS");
        }
    }
    assert_eq!(
        ws.read_string("new/created.txt"),
        format!("writer {}\n", winners[0])
    );
}

#[test]
fn a_held_lock_is_busy_after_the_timeout() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    // A first mutation creates the file's lock file.
    ws.stitch(
        "edit",
        &json!({"path": "a.txt", "oldText": "one", "newText": "two"}),
    )
    .ok();

    let held = hold_every_lock(&ws);
    let edit = ws.run(&[
        "--lock-timeout",
        "0.2",
        "edit",
        "a.txt",
        "--old",
        "two",
        "--new",
        "three",
    ]);
    let details = edit.refused("BUSY");
    assert_eq!(details["retryable"], true);
    assert_eq!(details["path"], "a.txt");
    assert!(!edit.hint().is_empty());

    let write = ws.run(&[
        "--lock-timeout",
        "0.2",
        "write",
        "a.txt",
        "--content",
        "clobbered\n",
        "--overwrite",
    ]);
    assert_eq!(write.refused("BUSY")["retryable"], true);
    assert_eq!(ws.read_string("a.txt"), "two\n");

    // Reads take no lock.
    let read = ws.run(&["--lock-timeout", "0.2", "read", "a.txt"]);
    assert_eq!(read.ok()["content"], "two\n");

    drop(held);
    ws.run(&[
        "--lock-timeout",
        "0.2",
        "edit",
        "a.txt",
        "--old",
        "two",
        "--new",
        "three",
    ])
    .ok();
    assert_eq!(ws.read_string("a.txt"), "three\n");
}
