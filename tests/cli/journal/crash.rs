//! A journaled edit killed at any moment leaves the old file or the new one, and a journal
//! that agrees with it: after the next call (which reconciles what the killed one left
//! pending), the newest change's version after is the file's, and no entry stays pending.

use std::fs;
use std::time::{Duration, Instant};

use crate::support::{sha256sum, Run, TestWorkspace};

#[test]
fn a_killed_journaled_edit_leaves_old_or_new_and_a_consistent_journal() {
    let ws = TestWorkspace::new();
    let body = "a line of the file\n".repeat(20_000);
    let version = |v: &str| format!("{body}version: {v}\n");
    ws.file("data.txt", version("A"));
    // How long one uninterrupted edit takes here bounds the kill delays.
    let start = Instant::now();
    ws.run(&[
        "edit",
        "data.txt",
        "--old",
        "version: A",
        "--new",
        "version: B",
    ])
    .ok();
    let whole = start.elapsed().min(Duration::from_millis(500));
    let mut seed = u64::from(std::process::id()) | 1;
    let mut killed = 0;
    for round in 0..24 {
        let current = ws.read_string("data.txt");
        let (old, new) = if current.ends_with("version: A\n") {
            ("A", "B")
        } else {
            ("B", "A")
        };
        let mut child = ws
            .spawnable()
            .args([
                "edit",
                "data.txt",
                "--old",
                &format!("version: {old}"),
                "--new",
                &format!("version: {new}"),
            ])
            .spawn()
            .unwrap();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let nanos = u64::try_from(whole.as_nanos()).unwrap_or(1).max(1);
        std::thread::sleep(Duration::from_nanos(seed % nanos));
        if child.try_wait().unwrap().is_none() {
            killed += 1;
        }
        let _ = child.kill();
        child.wait().unwrap();
        let after = ws.read_string("data.txt");
        assert!(
            after == version(old) || after == version(new),
            "round {round}: the file is torn"
        );
        let history = ws.run(&["history", "--limit", "1"]);
        let newest = &history.ok()["changes"][0];
        assert_eq!(
            newest["files"][0]["after"],
            sha256sum(after.as_bytes()),
            "round {round}: the journal's newest change is what the file holds"
        );
    }
    crate::support::report(&format!(
        "journal crash: 24 rounds, {killed} killed mid-call"
    ));
    // Every change listed can be walked back to the first version.
    // An entry torn by a kill (never synced, so its change never published) is dropped
    // once it is no longer fresh: after that, nothing stays pending.
    std::thread::sleep(Duration::from_millis(2100));
    let run: Run = ws.run(&["history", "--limit", "100"]);
    assert_eq!(run.ok()["foreign"], 0);
    let pending: Vec<String> = fs::read_dir(ws.path(".stitch/journal/pending"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(pending.is_empty(), "left pending: {pending:?}");
}
