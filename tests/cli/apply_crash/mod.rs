//! A change of several files lands whole or not at all, across processes and crashes
//! (§12): an apply killed at any moment leaves, once the next call of any kind has run,
//! every file at its old version or every file at its new one — the next call finishes a
//! change past its commit point — with no temp file left and a journal that lists the
//! change exactly when it landed. A file someone changed between the crash and the
//! recovery is left as it is, and the history says so. Two applies over overlapping files
//! from two processes at once never deadlock, never lose a change and never tear one.

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;
use std::process::Child;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::support::{names_in, report, Run, TestWorkspace, XorShift};

/// The files every multi-file change of these tests edits.
const FILES: [&str; 6] = [
    "src/a.txt",
    "src/b.txt",
    "src/deep/c.txt",
    "d.txt",
    "docs/e.txt",
    "docs/f.txt",
];

/// The file the changes add and delete in turn.
const EXTRA: &str = "extra/new.txt";

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .fold(String::new(), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        })
}

/// A file of `lines` lines with a `version: V` line in the middle.
fn body(name: &str, lines: usize, version: &str) -> String {
    let mut text = String::new();
    for i in 0..lines {
        if i == lines / 2 {
            let _ = writeln!(text, "version: {version}");
        }
        let _ = writeln!(text, "line {i} of {name}, padded to look like code ......");
    }
    text
}

/// The Codex patch that turns every file's `version: from` into `version: to`, and adds
/// [`EXTRA`] (when `add`) or deletes it.
fn patch(from: &str, to: &str, add: bool) -> String {
    let mut text = String::from("*** Begin Patch\n");
    for file in FILES {
        let _ = writeln!(
            text,
            "*** Update File: {file}\n@@\n-version: {from}\n+version: {to}"
        );
    }
    if add {
        let _ = writeln!(text, "*** Add File: {EXTRA}\n+added by version {to}");
    } else {
        let _ = writeln!(text, "*** Delete File: {EXTRA}");
    }
    text.push_str("*** End Patch\n");
    text
}

/// What the workspace holds of the change's files: each file's bytes (`None`: absent).
fn snapshot(ws: &TestWorkspace) -> Vec<Option<Vec<u8>>> {
    FILES
        .iter()
        .chain(std::iter::once(&EXTRA))
        .map(|f| fs::read(ws.path(f)).ok())
        .collect()
}

/// The names under `.stitch/journal/pending/` that are entries or new versions.
fn pending(ws: &TestWorkspace) -> Vec<String> {
    let dir = ws.path(".stitch/journal/pending");
    if !dir.exists() {
        return Vec::new();
    }
    names_in(&dir)
        .into_iter()
        .filter(|n| {
            std::path::Path::new(n)
                .extension()
                .is_some_and(|e| e == "entry" || e == "new")
        })
        .collect()
}

/// Whether a name under `pending/` is an entry's.
fn is_entry(name: &str) -> bool {
    std::path::Path::new(name)
        .extension()
        .is_some_and(|e| e == "entry")
}

/// How many bytes a process has written so far (`wchar` of proc_pid_io(5)).
fn written(pid: u32) -> Option<u64> {
    let text = fs::read_to_string(format!("/proc/{pid}/io")).ok()?;
    text.lines()
        .find_map(|line| line.strip_prefix("wchar:"))
        .and_then(|value| value.trim().parse().ok())
}

/// Spins until the child has written `total` bytes, or has finished.
fn wait_for_writes(child: &mut Child, total: u64) {
    while child.try_wait().unwrap().is_none() {
        match written(child.id()) {
            Some(w) if w >= total => return,
            Some(_) => std::thread::yield_now(),
            None => return,
        }
    }
}

/// Lays out the files at version A, with [`EXTRA`] absent.
fn lay_out(ws: &TestWorkspace, lines: usize) {
    for file in FILES {
        ws.file(file, body(file, lines, "A"));
    }
}

/// The files as they are after a whole change to `version` (with `extra` or not).
fn expected(lines: usize, version: &str, extra: bool) -> Vec<Option<Vec<u8>>> {
    FILES
        .iter()
        .map(|f| Some(body(f, lines, version).into_bytes()))
        .chain(std::iter::once(
            extra.then(|| format!("added by version {version}\n").into_bytes()),
        ))
        .collect()
}

/// Temp names left under `.stitch/tmp/`. The portable build stages named temp files
/// there, which a kill before they are kept in the journal leaves for the sweep: counted,
/// not held against it. The Linux build stages anonymous files, and leaves none.
fn staging_left(ws: &TestWorkspace) -> usize {
    let staging = ws.path(".stitch/tmp");
    if !staging.exists() {
        return 0;
    }
    let left = names_in(&staging).len();
    if cfg!(all(target_os = "linux", not(stitch_portable))) {
        assert_eq!(left, 0, "temp files left under .stitch/tmp/");
    } else {
        fs::remove_dir_all(&staging).unwrap();
    }
    left
}

#[test]
// One round's checks read best in order, in one place.
#[allow(clippy::too_many_lines)]
fn killed_multi_file_applies_leave_all_old_or_all_new_once_the_next_call_runs() {
    const LINES: usize = 2_000;
    const ROUNDS: usize = 90;
    let ws = TestWorkspace::new();
    lay_out(&ws, LINES);
    ws.file("unrelated.txt", "not part of any change\n");
    let patches: Vec<PathBuf> = [("A", "B", true), ("B", "A", false)]
        .iter()
        .enumerate()
        .map(|(i, (from, to, add))| ws.outside_file(&format!("p{i}.patch"), patch(from, to, *add)))
        .collect();
    let spawn = |which: usize| {
        ws.spawnable()
            .args(["apply", "--from"])
            .arg(&patches[which])
            .spawn()
            .unwrap()
    };
    let new_bytes: u64 = expected(LINES, "B", true)
        .iter()
        .flatten()
        .map(|b| b.len() as u64)
        .sum();

    // Two uninterrupted applies (there and back) bound the kill delays.
    let start = Instant::now();
    for which in [0, 1] {
        let run = Run::from_output(spawn(which).wait_with_output().unwrap());
        assert_eq!(run.ok()["applied"], true);
    }
    let whole = (start.elapsed() / 2).min(Duration::from_millis(800));
    let span = whole + whole / 5;
    assert_eq!(snapshot(&ws), expected(LINES, "A", false));
    let mut landed = 2usize;

    let mut rng = XorShift::seeded();
    let seed = rng.0;
    let (mut killed, mut before_commit, mut rolled_forward, mut torn_until_recovered) =
        (0usize, 0usize, 0usize, 0usize);
    let (mut staging, mut empty_dirs, mut torn_entries) = (0usize, 0usize, 0usize);
    let started = Instant::now();
    for round in 0..ROUNDS {
        let at_a = snapshot(&ws) == expected(LINES, "A", false);
        let (old, new) = if at_a {
            (expected(LINES, "A", false), expected(LINES, "B", true))
        } else {
            (expected(LINES, "B", true), expected(LINES, "A", false))
        };
        let mut child = spawn(usize::from(!at_a));
        if round % 2 == 0 {
            std::thread::sleep(rng.upto(span));
        } else {
            // The new versions are all staged: syncing, the entry and publishing remain.
            wait_for_writes(&mut child, new_bytes);
            std::thread::sleep(rng.upto(whole / 4));
        }
        let was_killed = child.try_wait().unwrap().is_none();
        let _ = child.kill();
        child.wait().unwrap();
        let context = format!("round {round} (seed {seed})");

        let raw = snapshot(&ws);
        let left_pending = pending(&ws).iter().any(|n| is_entry(n));
        // The next call, of a kind that changes nothing itself, settles the workspace.
        let read = ws.run(&["read", "unrelated.txt"]);
        assert_eq!(
            read.ok()["content"],
            "not part of any change\n",
            "{context}"
        );
        let after = snapshot(&ws);
        assert!(
            after == old || after == new,
            "{context}: the change is torn after the next call"
        );
        if was_killed {
            killed += 1;
            if after == old {
                before_commit += 1;
            } else if left_pending {
                rolled_forward += 1;
            }
            if raw != old && raw != new {
                torn_until_recovered += 1;
            }
        }
        if after == new {
            landed += 1;
        }
        // Only an entry torn by the kill (it does not verify, and its change was never
        // published) may stay pending, until it is old enough to go (checked at the end).
        if pending(&ws).iter().any(|n| is_entry(n)) {
            torn_entries += 1;
        }
        // Nothing beside the files: no temp name in the tree.
        let mut visible = names_in(&ws.root());
        visible.retain(|n| n != ".stitch");
        let extra_dir = ws.path("extra");
        if after.last().is_some_and(Option::is_some) {
            assert_eq!(names_in(&extra_dir), ["new.txt"], "{context}");
        } else if extra_dir.exists() {
            // A kill after the new file's directory was made for its staging, before the
            // commit point, leaves that directory, empty (as a killed `git apply` does).
            assert_eq!(names_in(&extra_dir), Vec::<String>::new(), "{context}");
            fs::remove_dir(&extra_dir).unwrap();
            visible.retain(|n| n != "extra");
            empty_dirs += 1;
        }
        visible.retain(|n| n != "extra");
        assert_eq!(
            visible,
            ["d.txt", "docs", "src", "unrelated.txt"],
            "{context}"
        );
        assert_eq!(
            names_in(&ws.path("src")),
            ["a.txt", "b.txt", "deep"],
            "{context}"
        );
        staging += staging_left(&ws);
        // The journal lists the change exactly when it landed, and its newest entry is
        // what the files hold.
        let history = ws.run(&["history", "--limit", "1000"]);
        let changes = history.ok()["changes"].as_array().unwrap().clone();
        assert_eq!(
            changes.len(),
            landed,
            "{context}: one entry per landed change"
        );
        let newest: Vec<Value> = changes[0]["files"].as_array().unwrap().clone();
        for file in &newest {
            let path = file["path"].as_str().unwrap();
            let now = fs::read(ws.path(path)).ok().map(|b| sha256(&b));
            assert_eq!(file["after"], json!(now), "{context}: {path}");
            assert!(file.get("unfinished").is_none(), "{context}: {path}");
        }
    }
    // New versions a kill left before their entry was written go once they are old.
    std::thread::sleep(Duration::from_millis(2100));
    ws.run(&["list"]).ok();
    assert_eq!(pending(&ws), Vec::<String>::new());
    report(&format!(
        "apply crash: {ROUNDS} rounds of a 7-file apply ({} KiB each way), {killed} killed \
         mid-call: {before_commit} before the commit point (all old), {rolled_forward} after it \
         (finished by the next `stitch read`), {torn_until_recovered} of them torn on disk until \
         that read; {staging} staged temp files left under .stitch/tmp/, {empty_dirs} empty new \
         directories left by a kill before the commit point, {torn_entries} torn entries left to \
         age out; {:.1} s (an \
         uninterrupted apply: {} ms, seed {seed})",
        new_bytes / 1024,
        started.elapsed().as_secs_f64(),
        whole.as_millis()
    ));
}

/// Kills `stitch apply` (a debug build's test hook) once it has published `published`
/// files of the A → B change, and checks what it left torn.
#[cfg(debug_assertions)]
fn killed_after(ws: &TestWorkspace, published: usize) {
    let patch = ws.outside_file("kill.patch", patch("A", "B", true));
    let output = ws
        .spawnable()
        .env("STITCH_TEST_KILL_AFTER_PUBLISHING", published.to_string())
        .args(["apply", "--from"])
        .arg(&patch)
        .output()
        .unwrap();
    assert!(
        output.stdout.is_empty() && !output.status.success(),
        "the hook kills the call: {output:?}"
    );
    // The change publishes its files in path order.
    let mut order: Vec<usize> = (0..=FILES.len()).collect();
    let path = |i: usize| FILES.get(i).copied().unwrap_or(EXTRA);
    order.sort_by_key(|&i| path(i));
    let (torn, old, new) = (
        snapshot(ws),
        expected(10, "A", false),
        expected(10, "B", true),
    );
    for (rank, &i) in order.iter().enumerate() {
        let want = if rank < published { &new[i] } else { &old[i] };
        assert_eq!(&torn[i], want, "{} after {published} published", path(i));
    }
    assert_eq!(pending(ws).iter().filter(|n| is_entry(n)).count(), 1);
}

/// Whole-envelope history of the change to B (`unfinished` on the file at `changed`),
/// with the file's own digest where someone changed it.
#[cfg(debug_assertions)]
fn history_of_b(ws: &TestWorkspace, id: &Value, changed: Option<usize>) -> Value {
    let a = expected(10, "A", false);
    let b = expected(10, "B", true);
    let files: Vec<Value> = FILES
        .iter()
        .chain(std::iter::once(&EXTRA))
        .enumerate()
        .map(|(i, path)| {
            // Each file's version line changes; the extra file is added, one line.
            let mut file = json!({
                "path": path,
                "before": a[i].as_deref().map(sha256),
                "after": b[i].as_deref().map(sha256),
                "added": 1,
                "removed": u64::from(a[i].is_some()),
            });
            if changed == Some(i) {
                file["unfinished"] = json!(true);
            }
            file
        })
        .collect();
    // The journal lists a change's files in path order.
    let mut files = files;
    files.sort_by(|x, y| x["path"].as_str().cmp(&y["path"].as_str()));
    let time = ws.run(&["history", "--limit", "1"]).ok()["changes"][0]["time"].clone();
    json!({
        "changes": [{"id": id, "time": time, "tool": "apply_patch", "undone": false, "files": files}],
        "truncated": false,
        "foreign": 0,
    })
}

// A change cut short past its commit point, finished by the next call.
#[cfg(debug_assertions)]
mod recovery;
// An undo cut short, finished by the next call.
#[cfg(debug_assertions)]
mod undo;
// Two overlapping applies at once.
mod overlap;
