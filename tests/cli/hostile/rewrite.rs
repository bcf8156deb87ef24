//! Another program rewrites a file in place (truncates it and writes it back in 64 KiB
//! pieces, as editors, formatters and `>` do) while `stitch edit` runs on it, many
//! rounds: every file left on disk is the writer's whole version or a correct edit of a
//! whole version, never one cut short or mixed, and every call that did not publish says
//! `BUSY` with the reason.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::{report, Run, TestWorkspace, SHA256, STRING};

/// The piece the writer writes at a time.
const PIECE: usize = 64 * 1024;

/// Version `k` of a file of `size` bytes: the marker the edit replaces on its first
/// line, then lines that name the version, so that any cut or mix of two versions is
/// told apart from both.
fn version(k: usize, size: usize) -> Vec<u8> {
    let mut bytes = b"NEEDLE\n".to_vec();
    let mut line = 0usize;
    while bytes.len() < size {
        bytes.extend_from_slice(format!("version {k} line {line:08}\n").as_bytes());
        line += 1;
    }
    bytes.truncate(size - 1);
    bytes.push(b'\n');
    bytes
}

/// `bytes` with the edit applied: the marker replaced.
fn edited(bytes: &[u8]) -> Vec<u8> {
    let mut out = b"EDITED\n".to_vec();
    out.extend_from_slice(&bytes[b"NEEDLE\n".len()..]);
    out
}

/// Truncates the file at `path` and writes `bytes` back in [`PIECE`]s, with a pause
/// between them: the in-place rewrite a stitch call must never publish half of.
fn rewrite_in_place(path: &Path, bytes: &[u8]) {
    let mut file = fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(path)
        .expect("open to rewrite");
    for piece in bytes.chunks(PIECE) {
        file.write_all(piece).expect("write a piece");
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// The refusal of an edit whose file kept changing under it.
fn changed_refusal() -> Value {
    json!({
        "ok": false,
        "error": "BUSY",
        "details": {
            "message": "`f.txt` was being changed by another program while stitch read it, so nothing was written",
            "path": "f.txt",
            "reason": "changed while read",
            "retryable": true,
        },
        "_hint": "Another program is rewriting `f.txt`: retry once it has finished.",
    })
}

/// Runs `rounds` rounds of an edit racing an in-place rewrite of a `size`-byte file and
/// asserts every file left and every envelope; returns (published, refused busy, no match).
fn race(size: usize, rounds: usize) -> (usize, usize, usize) {
    let ws = TestWorkspace::new();
    ws.file("f.txt", version(0, size));
    let path = ws.path("f.txt");
    let (mut published, mut busy, mut no_match) = (0, 0, 0);
    let mut before = version(0, size);
    for round in 1..=rounds {
        let next = version(round, size);
        let child = ws
            .std_cmd()
            .args(["edit", "f.txt", "--old", "NEEDLE", "--new", "EDITED"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn stitch");
        // Start the rewrite at a different moment of the call each round.
        let scale = (size / (1 << 20)) as u64;
        std::thread::sleep(Duration::from_micros(500 * scale * (round as u64 % 12)));
        rewrite_in_place(&path, &next);
        let run = Run::from_output(child.wait_with_output().expect("wait for stitch"));
        let on_disk = fs::read(&path).expect("read back");
        let whole = [next.clone(), edited(&next), edited(&before)];
        assert!(
            whole.contains(&on_disk),
            "round {round}: {} bytes on disk are neither version {round} whole nor a correct \
             edit of a whole version ({size} bytes): {}",
            on_disk.len(),
            run.stdout
        );
        match run.envelope["error"].as_str() {
            None => {
                published += 1;
                let data = run.ok();
                assert_eq!(data["bytes"], size, "{}", run.stdout);
                run.assert_envelope(&json!({"ok": true, "data": {
                    "path": "f.txt", "baseSha256": SHA256, "sha256": SHA256,
                    "replacements": 1, "bytes": size, "applied": true, "diff": STRING,
                }}));
            }
            Some("BUSY") => {
                busy += 1;
                run.assert_envelope(&changed_refusal());
            }
            Some("NO_MATCH") => no_match += 1,
            Some(other) => panic!("round {round}: unexpected {other}: {}", run.stdout),
        }
        // The next round starts from the writer's version, marker and all.
        fs::write(&path, &next).expect("reset");
        before = next;
    }
    (published, busy, no_match)
}

#[test]
fn an_edit_never_publishes_a_file_rewritten_in_place_at_1_mib() {
    let start = Instant::now();
    let (published, busy, no_match) = race(1 << 20, 40);
    report(&format!(
        "in-place rewrite, 1 MiB, 40 rounds: {published} edits published, {busy} BUSY, \
         {no_match} NO_MATCH, 0 torn, in {:?}",
        start.elapsed()
    ));
}

#[test]
fn an_edit_never_publishes_a_file_rewritten_in_place_at_16_mib() {
    let start = Instant::now();
    let (published, busy, no_match) = race(16 << 20, 10);
    report(&format!(
        "in-place rewrite, 16 MiB (read in two halves), 10 rounds: {published} edits \
         published, {busy} BUSY, {no_match} NO_MATCH, 0 torn, in {:?}",
        start.elapsed()
    ));
}
