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

#[cfg(debug_assertions)]
#[test]
fn a_change_killed_after_its_first_file_is_finished_by_the_next_read() {
    let ws = TestWorkspace::new();
    lay_out(&ws, 10);
    ws.file("unrelated.txt", "x\n");
    killed_after(&ws, 1);
    let id = json!(pending(&ws)
        .iter()
        .find(|n| is_entry(n))
        .and_then(|n| n.split('-').next())
        .unwrap());
    // A read of another file finishes the change first.
    let read = ws.run(&["read", "unrelated.txt"]);
    assert_eq!(read.ok()["content"], "x\n");
    assert_eq!(snapshot(&ws), expected(10, "B", true));
    assert_eq!(pending(&ws), Vec::<String>::new());
    assert_eq!(staging_left(&ws), 0);
    let history = ws.run(&["history"]);
    assert_eq!(history.ok(), &history_of_b(&ws, &id, None));
    // It is one change, taken back whole.
    let undo = ws.run(&["undo"]);
    assert_eq!(undo.ok()["undid"], id);
    assert_eq!(snapshot(&ws), expected(10, "A", false));
}

/// A change killed past its commit point in a workspace whose journal cannot be used
/// (`off` sets it up) is finished by the next call all the same, and leaves no history.
#[cfg(debug_assertions)]
fn finished_without_the_journal(off: impl Fn(&TestWorkspace)) {
    let ws = TestWorkspace::new();
    off(&ws);
    lay_out(&ws, 10);
    killed_after(&ws, 1);
    ws.run(&["list"]).ok();
    assert_eq!(snapshot(&ws), expected(10, "B", true));
    assert_eq!(pending(&ws), Vec::<String>::new());
    assert_eq!(staging_left(&ws), 0);
    let history = ws.run(&["history"]);
    assert_eq!(history.ok()["changes"], json!([]));
    assert!(history.ok()["journalOff"].is_string(), "{}", history.stdout);
}

#[cfg(debug_assertions)]
#[test]
fn with_journal_false_from_a_clone_a_change_killed_midway_is_finished() {
    finished_without_the_journal(|ws| {
        ws.file(".stitch/config.json", r#"{"journal": false}"#);
    });
}

#[cfg(debug_assertions)]
#[test]
fn without_a_journal_key_a_change_killed_midway_is_finished() {
    // The key's directory cannot be made: a file stands where it would be.
    finished_without_the_journal(|ws| {
        let stitch = ws.home().join("data/stitch");
        let _ = fs::remove_dir_all(&stitch);
        fs::create_dir_all(ws.home().join("data")).unwrap();
        fs::write(stitch, "").unwrap();
    });
}

#[cfg(debug_assertions)]
#[test]
fn a_record_copied_into_place_is_never_acted_on() {
    let ws = TestWorkspace::new();
    ws.file(".stitch/config.json", r#"{"journal": false}"#);
    lay_out(&ws, 10);
    killed_after(&ws, 1);
    // The record and its new versions as a clone or an archive would bring them: the
    // same names and bytes, other files, made under another user's key.
    fs::write(ws.home().join("data/stitch/key"), [7u8; 32]).unwrap();
    let dir = ws.path(".stitch/journal/pending");
    for name in pending(&ws) {
        let bytes = fs::read(dir.join(&name)).unwrap();
        fs::remove_file(dir.join(&name)).unwrap();
        fs::write(dir.join(&name), bytes).unwrap();
    }
    let torn = snapshot(&ws);
    let left = pending(&ws);
    std::thread::sleep(Duration::from_millis(2100));
    ws.run(&["list"]).ok();
    assert_eq!(snapshot(&ws), torn, "a copied record changed the tree");
    assert_eq!(
        pending(&ws),
        left,
        "a record that parses is not removed as torn"
    );
}

#[cfg(debug_assertions)]
#[test]
fn a_change_killed_midway_is_finished_by_a_listing_too() {
    let ws = TestWorkspace::new();
    lay_out(&ws, 10);
    killed_after(&ws, 4);
    let listed = ws.run(&["list"]);
    assert!(listed.ok()["entries"].is_array(), "{}", listed.stdout);
    assert_eq!(snapshot(&ws), expected(10, "B", true));
    assert_eq!(pending(&ws), Vec::<String>::new());
}

#[cfg(debug_assertions)]
#[test]
fn a_file_changed_between_the_crash_and_the_recovery_is_left_as_it_is_and_history_says_so() {
    let ws = TestWorkspace::new();
    lay_out(&ws, 10);
    killed_after(&ws, 2);
    let id = json!(pending(&ws)
        .iter()
        .find(|n| is_entry(n))
        .and_then(|n| n.split('-').next())
        .unwrap());
    // Someone edits a file the change had not reached yet (src/deep/c.txt, the third).
    let theirs = "their own version\n";
    fs::write(ws.path(FILES[2]), theirs).unwrap();
    let history = ws.run(&["history"]);
    let mut want = expected(10, "B", true);
    want[2] = Some(theirs.as_bytes().to_vec());
    assert_eq!(snapshot(&ws), want, "every other file is finished");
    let mut listed = history_of_b(&ws, &id, None);
    for file in listed["changes"][0]["files"].as_array_mut().unwrap() {
        if file["path"] == FILES[2] {
            file["unfinished"] = json!(true);
        }
    }
    assert_eq!(history.ok(), &listed);
    assert_eq!(pending(&ws), Vec::<String>::new());
    // Their work is never undone behind their back.
    let undo = ws.run(&["undo"]);
    undo.refused("STALE_VERSION");
    assert!(undo.stdout.contains(FILES[2]), "{}", undo.stdout);
    assert_eq!(fs::read_to_string(ws.path(FILES[2])).unwrap(), theirs);
}

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
fn a_change_that_fails_after_its_first_file_is_finished_by_the_next_call() {
    let ws = TestWorkspace::new();
    lay_out(&ws, 10);
    ws.file("unrelated.txt", "x\n");
    let patch = ws.outside_file("fail.patch", patch("A", "B", true));
    // An I/O failure (here a debug build's hook) once the first file is published: the
    // call fails with no cause shown, and the entry stays pending, past its commit point.
    let output = ws
        .spawnable()
        .env("STITCH_TEST_FAIL_AFTER_PUBLISHING", "1")
        .args(["apply", "--from"])
        .arg(&patch)
        .output()
        .unwrap();
    let run = crate::support::Run::from_output(output);
    assert_eq!(
        run.envelope["error"], "INTERNAL_SERVER_ERROR",
        "{}",
        run.stdout
    );
    assert_ne!(
        snapshot(&ws),
        expected(10, "A", false),
        "one file was published"
    );
    assert_ne!(snapshot(&ws), expected(10, "B", true), "the rest was not");
    assert_eq!(pending(&ws).iter().filter(|n| is_entry(n)).count(), 1);
    // The next call of any kind finishes it: all new, listed once, undone whole.
    assert_eq!(ws.run(&["read", "unrelated.txt"]).ok()["content"], "x\n");
    assert_eq!(snapshot(&ws), expected(10, "B", true));
    let history = ws.run(&["history"]);
    let changes = &history.ok()["changes"];
    assert_eq!(changes.as_array().unwrap().len(), 1, "{changes}");
    assert!(changes[0]["files"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f.get("unfinished").is_none()));
    ws.run(&["undo"]).ok();
    assert_eq!(snapshot(&ws), expected(10, "A", false));
    assert_eq!(pending(&ws).iter().filter(|n| is_entry(n)).count(), 0);
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

#[test]
fn two_overlapping_applies_at_once_both_land_or_one_is_cleanly_refused() {
    const ROUNDS: usize = 60;
    let ws = TestWorkspace::new();
    // The first changes a and b, the second b and c: b takes both, in either order.
    let file = |name: &str, alpha: u8, beta: u8| {
        format!("{name}\nalpha: {alpha}\nmiddle\nmiddle\nmiddle\nbeta: {beta}\nend\n")
    };
    let first = ws.outside_file(
        "first.patch",
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-alpha: 0\n+alpha: 1\n\
         *** Update File: b.txt\n@@\n-alpha: 0\n+alpha: 1\n*** End Patch\n",
    );
    let second = ws.outside_file(
        "second.patch",
        "*** Begin Patch\n*** Update File: b.txt\n@@\n-beta: 0\n+beta: 1\n\
         *** Update File: c.txt\n@@\n-beta: 0\n+beta: 1\n*** End Patch\n",
    );
    let (mut both, mut one) = (0usize, 0usize);
    let started = Instant::now();
    for round in 0..ROUNDS {
        for name in ["a.txt", "b.txt", "c.txt"] {
            ws.file(name, file(name, 0, 0));
        }
        let spawn = |patch: &PathBuf| {
            ws.spawnable()
                .args(["--lock-timeout", "20", "apply", "--from"])
                .arg(patch)
                .spawn()
                .unwrap()
        };
        let children = [spawn(&first), spawn(&second)];
        let deadline = Instant::now() + Duration::from_secs(60);
        let runs: Vec<Run> = children
            .into_iter()
            .map(|mut child| {
                while child.try_wait().unwrap().is_none() {
                    assert!(Instant::now() < deadline, "round {round}: a deadlock");
                    std::thread::sleep(Duration::from_millis(2));
                }
                Run::from_output(child.wait_with_output().unwrap())
            })
            .collect();
        let landed: Vec<bool> = runs
            .iter()
            .map(|run| {
                if run.envelope["ok"] == true {
                    assert_eq!(run.ok()["applied"], true);
                    true
                } else {
                    let code = run.envelope["error"].as_str().unwrap_or_default();
                    assert!(
                        ["BUSY", "STALE_VERSION", "NO_MATCH"].contains(&code),
                        "round {round}: {}",
                        run.stdout
                    );
                    run.refused(code);
                    false
                }
            })
            .collect();
        let (alpha, beta) = (u8::from(landed[0]), u8::from(landed[1]));
        assert_eq!(
            ws.read_string("a.txt"),
            file("a.txt", alpha, 0),
            "round {round}"
        );
        assert_eq!(
            ws.read_string("b.txt"),
            file("b.txt", alpha, beta),
            "round {round}"
        );
        assert_eq!(
            ws.read_string("c.txt"),
            file("c.txt", 0, beta),
            "round {round}"
        );
        match landed.iter().filter(|l| **l).count() {
            2 => both += 1,
            1 => one += 1,
            _ => panic!("round {round}: neither apply landed"),
        }
        assert_eq!(pending(&ws), Vec::<String>::new(), "round {round}");
    }
    report(&format!(
        "apply concurrency: {ROUNDS} rounds of two overlapping 2-file applies at once: {both} \
         with both landed, {one} with one cleanly refused, none lost or torn, {:.1} s",
        started.elapsed().as_secs_f64()
    ));
}
