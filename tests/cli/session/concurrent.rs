//! Concurrency within one session: parallel edits and reads keep one ledger and lose nothing.

use std::fs;
use std::process::Child;

use serde_json::Value;

use crate::support::{sha256sum, Run, TestWorkspace};

use super::{ledger_path, session};

/// How many processes of one session edit the file at once.
const EDITORS: usize = 24;

fn editor_line(editor: usize, done: bool) -> String {
    let state = if done { "edited" } else { "original" };
    format!("line {editor:02}: {state}")
}

/// The shared file with every editor's line original or edited.
fn shared_text(done: bool) -> String {
    let mut text = String::new();
    for e in 0..EDITORS {
        text.push_str(&editor_line(e, done));
        text.push('\n');
    }
    text
}

#[test]
fn concurrent_edits_of_one_session_chain_and_lose_nothing() {
    let ws = TestWorkspace::new();
    ws.file("shared.txt", shared_text(false));
    session(&ws, "crowd", &["read", "shared.txt"]).ok();

    // Every process is started before any is waited for; each is guarded only by the
    // session (no expectedSha256).
    let children: Vec<Child> = (0..EDITORS)
        .map(|e| {
            ws.spawnable()
                .args(["--session", "crowd", "edit", "shared.txt", "--old"])
                .arg(editor_line(e, false))
                .arg("--new")
                .arg(editor_line(e, true))
                .spawn()
                .expect("spawn stitch")
        })
        .collect();
    let runs: Vec<Run> = children
        .into_iter()
        .map(|child| Run::from_output(child.wait_with_output().expect("wait")))
        .collect();

    let final_text = ws.read_string("shared.txt");
    for (e, run) in runs.iter().enumerate() {
        // Every outcome is a typed envelope, never an internal error.
        let envelope = &run.envelope;
        assert!(
            envelope["ok"] == true || envelope["error"] == "STALE_VERSION",
            "editor {e}: {}",
            run.stdout
        );
        if envelope["ok"] == true {
            assert!(
                final_text.contains(&editor_line(e, true)),
                "editor {e} reported ok but its change is lost:\n{final_text}"
            );
        }
    }
    // Each edit ran under the lock against the version the previous one recorded, so
    // every one of them succeeds.
    for (e, run) in runs.iter().enumerate() {
        assert_eq!(run.ok()["replacements"], 1, "editor {e}: {}", run.stdout);
    }
    assert_eq!(final_text, shared_text(true));

    let ledger = fs::read(ledger_path(&ws, "crowd")).unwrap();
    serde_json::from_slice::<Value>(&ledger).expect("the ledger still parses");

    // The session goes on: a fresh read and an edit.
    session(&ws, "crowd", &["read", "shared.txt"]).ok();
    session(
        &ws,
        "crowd",
        &[
            "edit",
            "shared.txt",
            "--old",
            "line 00: edited",
            "--new",
            "line 00: final",
        ],
    )
    .ok();
    assert!(ws.read_string("shared.txt").starts_with("line 00: final\n"));
}

#[test]
fn concurrent_reads_and_edits_of_many_files_keep_one_ledger() {
    // One session touching different files at once: the ledger's own lock keeps every
    // record, so each file's later edit is observed.
    let ws = TestWorkspace::new();
    for e in 0..EDITORS {
        ws.file(&format!("f{e:02}.txt"), format!("file {e}\n"));
    }
    let children: Vec<Child> = (0..EDITORS)
        .map(|e| {
            ws.spawnable()
                .args(["--session", "many", "read"])
                .arg(format!("f{e:02}.txt"))
                .spawn()
                .expect("spawn stitch")
        })
        .collect();
    for child in children {
        Run::from_output(child.wait_with_output().unwrap()).ok();
    }
    for e in 0..EDITORS {
        let name = format!("f{e:02}.txt");
        let run = session(
            &ws,
            "many",
            &["edit", &name, "--old", "file", "--new", "FILE"],
        );
        run.ok();
        assert_eq!(ws.read_string(&name), format!("FILE {e}\n"));
    }
}

#[test]
fn a_read_refused_as_not_text_still_lets_the_session_replace_the_file() {
    let ws = TestWorkspace::new();
    ws.file("blob.bin", b"a\x00b");
    let read = session(&ws, "s", &["read", "blob.bin"]);
    let details = read.refused("NOT_TEXT");
    assert_eq!(details["sha256"], sha256sum(b"a\x00b"));
    assert!(read.hint().contains("--expected-sha256"), "{}", read.stdout);
    session(&ws, "s", &["write", "blob.bin", "--content", "text\n"]).ok();
    assert_eq!(ws.read("blob.bin"), b"text\n");
}
