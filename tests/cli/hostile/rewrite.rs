//! Another program rewrites a file in place (truncates it and writes it back in 64 KiB
//! pieces, as editors, formatters and `>` do) while `stitch edit` runs on it, many
//! rounds: every file left on disk is the writer's whole version or a correct edit of a
//! whole version, never one cut short or mixed (where no lease can tell a writer paused
//! through the whole call, the edit of the state it left is the documented residual
//! risk, counted apart), and every call that did not publish says
//! `BUSY` with the reason. The rewrite starts at a different moment of the call each
//! round, and a race in which no round was refused for it fails: it did not overlap.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::{report, sha256sum, Run, TestWorkspace, SHA256, STRING};

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

/// What the rounds of a race came to.
#[derive(Debug, Default)]
struct Tally {
    published: usize,
    busy: usize,
    stale: usize,
    no_match: usize,
    /// Edits of a state the writer left while paused through the whole call: published
    /// only where no lease can tell a paused writer (docs/safety.md, residual risks).
    paused_through: usize,
}

/// Whether this build can tell a writer paused mid-rewrite (Linux's leases); where it
/// cannot, an edit of the state such a writer left is the documented residual risk.
const LEASES: bool = cfg!(all(target_os = "linux", not(stitch_portable)));

/// Whether `on_disk` is the edit of a state the writer left between two of its pieces:
/// `whole` cut after a whole number of pieces, with the edit applied.
fn edit_of_a_paused_state(on_disk: &[u8], whole: &[u8]) -> bool {
    (1..whole.len().div_ceil(PIECE)).any(|pieces| {
        let cut = &whole[..pieces * PIECE];
        on_disk.len() == cut.len() && on_disk == edited(cut).as_slice()
    })
}

/// Three versions of a `size`-byte file, each with its edit, built once: each round's
/// writer writes a version other than the one on disk, so a cut or a mix of the two is
/// neither.
fn versions(size: usize) -> Vec<(Vec<u8>, Vec<u8>)> {
    (0..3)
        .map(|k| {
            let v = version(k, size);
            let e = edited(&v);
            (v, e)
        })
        .collect()
}

/// Runs `rounds` rounds of an edit racing an in-place rewrite of a `size`-byte file (with
/// `digest`, the edit names the version before the round as `--expected-sha256`, and
/// the writer writes that version back) and asserts every file left and every envelope.
fn race(size: usize, rounds: usize, digest: bool) -> Tally {
    let ws = TestWorkspace::new();
    let versions = versions(size);
    ws.file("f.txt", &versions[0].0);
    let path = ws.path("f.txt");
    let mut tally = Tally::default();
    let Tally {
        published,
        busy,
        stale,
        no_match,
        paused_through,
    } = &mut tally;
    let mut before = 0;
    // On a loaded machine the moments can drift past the rewrite for a whole run: up to
    // three times the rounds are run, until one of them is refused for the rewrite.
    for round in 1..=rounds * 3 {
        if round > rounds && *busy + *stale > 0 {
            break;
        }
        // With a digest, the writer writes the same bytes back (a formatter that changed
        // nothing): the version the caller names is the one on disk before and after, so
        // only a read torn by the rewrite can refuse it.
        let next = if digest { before } else { 1 + round % 2 };
        let expected = if digest {
            sha256sum(&versions[before].0)
        } else {
            String::new()
        };
        let mut args = vec!["edit", "f.txt", "--old", "NEEDLE", "--new", "EDITED"];
        if digest {
            args.extend(["--expected-sha256", expected.as_str()]);
        }
        let child = ws
            .std_cmd()
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn stitch");
        // Start the rewrite at a different moment of the call each round.
        let scale = (size / (1 << 20)) as u64;
        std::thread::sleep(Duration::from_micros(500 * scale * (round as u64 % 24)));
        rewrite_in_place(&path, &versions[next].0);
        let run = Run::from_output(child.wait_with_output().expect("wait for stitch"));
        let on_disk = fs::read(&path).expect("read back");
        let whole = [&versions[next].0, &versions[next].1, &versions[before].1];
        let paused = !LEASES
            && !whole.contains(&&on_disk)
            && edit_of_a_paused_state(&on_disk, &versions[next].0);
        *paused_through += usize::from(paused);
        assert!(
            paused || whole.contains(&&on_disk),
            "round {round}: {} bytes on disk are neither version {next} whole nor a correct \
             edit of a whole version ({size} bytes): {}",
            on_disk.len(),
            run.stdout
        );
        match run.envelope["error"].as_str() {
            None if paused => {
                *published += 1;
                run.ok();
            }
            None => {
                *published += 1;
                let data = run.ok();
                assert_eq!(data["bytes"], size, "{}", run.stdout);
                run.assert_envelope(&json!({"ok": true, "data": {
                    "path": "f.txt", "baseSha256": SHA256, "sha256": SHA256,
                    "replacements": 1, "bytes": size, "applied": true, "id": STRING, "diff": STRING,
                }}));
            }
            Some("BUSY") => {
                *busy += 1;
                run.assert_envelope(&changed_refusal());
            }
            // The writer paused right after truncating: stitch read the empty file
            // whole, and an edit of it finds nothing to replace.
            Some("NO_MATCH") => {
                *no_match += 1;
                run.assert_envelope(&json!({
                    "ok": false,
                    "error": "NO_MATCH",
                    "details": {"message": "--old is not in `f.txt`", "path": "f.txt", "candidates": []},
                    "_hint": "Re-read `f.txt` and copy --old exactly from it.",
                }));
            }
            // Torn twice while read (or read mid-rewrite, so not the version named).
            Some("STALE_VERSION") if digest => {
                *stale += 1;
                let details = if run.envelope["details"]["reason"].is_null() {
                    json!({
                        "message": "`f.txt` has changed: its sha256 is not the --expected-sha256",
                        "path": "f.txt", "expectedSha256": expected, "actualSha256": SHA256,
                    })
                } else {
                    json!({
                        "message": "`f.txt` was being changed by another program while stitch read it, so nothing was written",
                        "path": "f.txt", "expectedSha256": expected, "actualSha256": SHA256,
                        "reason": "changed while read",
                    })
                };
                run.assert_envelope(&json!({
                    "ok": false, "error": "STALE_VERSION", "details": details,
                    "_hint": "Re-read the file, then retry.",
                }));
            }
            Some(other) => panic!("round {round}: unexpected {other}: {}", run.stdout),
        }
        // The next round starts from the writer's version, marker and all.
        fs::write(&path, &versions[next].0).expect("reset");
        before = next;
    }
    // A race that never overlapped the rewrite would show nothing: some round must have
    // been refused for it.
    assert!(
        tally.busy + tally.stale > 0,
        "no round of {} overlapped the rewrite ({size} bytes): {tally:?}",
        rounds * 3
    );
    tally
}

/// Runs a race and says what it came to.
fn reported(what: &str, size: usize, rounds: usize, digest: bool) {
    let start = Instant::now();
    let t = race(size, rounds, digest);
    report(&format!(
        "in-place rewrite, {what}, {} rounds: {} edits published, {} BUSY, {} STALE_VERSION, \
         {} NO_MATCH (an empty file read), {} of a writer paused through the call (no \
         lease to tell it), 0 torn or mixed, in {:?}",
        t.published + t.busy + t.stale + t.no_match,
        t.published,
        t.busy,
        t.stale,
        t.no_match,
        t.paused_through,
        start.elapsed()
    ));
}

#[test]
fn an_edit_never_publishes_a_file_rewritten_in_place_at_1_mib() {
    reported("1 MiB", 1 << 20, 40, false);
}

#[test]
fn an_edit_never_publishes_a_file_rewritten_in_place_at_16_mib() {
    reported("16 MiB (read in two halves)", 16 << 20, 36, false);
}

#[test]
fn an_edit_with_a_digest_is_stale_rather_than_torn() {
    reported("1 MiB, --expected-sha256", 1 << 20, 20, true);
}

/// A writer that truncated the file, wrote its first piece and paused (descheduled,
/// throttled by writeback) changes no time and no size while stitch works: only the
/// file it still holds open for writing tells. Linux's leases say so; the edit is
/// `BUSY` until the writer is done, and then edits the whole file.
#[test]
fn an_edit_waits_out_a_writer_paused_mid_rewrite() {
    if cfg!(any(stitch_portable, not(target_os = "linux"))) {
        report("hostile::rewrite: skipped the paused writer: only Linux's leases can tell one, and this build does not ask");
        return;
    }
    let ws = TestWorkspace::new();
    let size = 1 << 20;
    ws.file("f.txt", version(0, size));
    let next = version(1, size);
    let mut writer = fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(ws.path("f.txt"))
        .expect("open to rewrite");
    writer.write_all(&next[..PIECE]).expect("the first piece");
    // Paused, long after its last write: the times and the size hold still.
    std::thread::sleep(Duration::from_millis(50));
    for _ in 0..3 {
        let run = ws.run(&["edit", "f.txt", "--old", "NEEDLE", "--new", "EDITED"]);
        run.assert_envelope(&changed_refusal());
        assert_eq!(
            ws.read("f.txt"),
            &next[..PIECE],
            "the writer's piece, as it left it"
        );
    }
    writer.write_all(&next[PIECE..]).expect("the rest");
    drop(writer);
    let run = ws.run(&["edit", "f.txt", "--old", "NEEDLE", "--new", "EDITED"]);
    assert_eq!(run.ok()["bytes"], size, "{}", run.stdout);
    assert_eq!(ws.read("f.txt"), edited(&next));
}
