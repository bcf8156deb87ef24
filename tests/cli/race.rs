//! Races against containment: while stitch reads, writes and walks beneath a path, a
//! thread swaps a component of that path with a symlink to outside the root using
//! `renameat2(RENAME_EXCHANGE)` in a tight loop. Whatever the interleaving, no output
//! ever holds the secret outside (its content or its file names), and nothing outside
//! changes. Covered: a directory mid-path, the final component, and the parent of a
//! file during an atomic write.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rustix::fs::{renameat_with, RenameFlags};
use serde_json::{json, Value};

use crate::support::{report, tree, Run, TestWorkspace};

/// In every secret outside the root; never in any request.
const LEAK: &str = "RACE-LEAK-91fe";
/// In the names of files outside the root.
const NAME_LEAK: &str = "RACENAME-33ab";
/// How long stitch calls run against the swapping thread, per scenario.
const DURATION: Duration = Duration::from_millis(2500);
/// Threads each running stitch calls one after another.
const CALLERS: usize = 3;

/// What a scenario saw: calls by outcome, and every violation.
#[derive(Default)]
struct Tally {
    calls: AtomicU64,
    outcomes: Mutex<BTreeMap<String, u64>>,
    /// The causes (`STITCH_DEBUG` on stderr) of internal errors, by tool.
    causes: Mutex<BTreeMap<String, u64>>,
    violations: Mutex<Vec<String>>,
}

impl Tally {
    fn violation(&self, what: String) {
        self.violations.lock().unwrap().push(what);
    }

    /// Checks one finished call.
    fn record(&self, tool: &str, request: &Value, output: std::process::Output) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        if stdout.contains("INTERNAL_SERVER_ERROR") {
            let cause = stderr.trim().trim_start_matches("stitch: internal error: ");
            *self
                .causes
                .lock()
                .unwrap()
                .entry(format!("{tool}: {cause}"))
                .or_default() += 1;
        }
        for (stream, text) in [("stdout", &stdout), ("stderr", &stderr)] {
            if text.contains(LEAK) || text.contains(NAME_LEAK) {
                self.violation(format!(
                    "{tool} {request}: LEAKED what is outside the root on {stream}: {text}"
                ));
            }
            if text.contains("panicked") {
                self.violation(format!("{tool} {request}: panicked: {text}"));
            }
        }
        let outcome = match std::panic::catch_unwind(|| Run::from_output(output)) {
            Ok(run) if run.envelope["ok"] == true => "ok".to_owned(),
            Ok(run) => run.envelope["error"].as_str().unwrap_or("?").to_owned(),
            Err(_) => {
                self.violation(format!("{tool} {request}: no single envelope: {stdout:?}"));
                "no envelope".to_owned()
            }
        };
        *self
            .outcomes
            .lock()
            .unwrap()
            .entry(format!("{tool} {outcome}"))
            .or_default() += 1;
    }
}

/// Swaps `a` and `b` (names in the directory `dir`) until `stop`, returning how many
/// exchanges it made. When `relink` is given and neither name is a symlink any more (a
/// write replaced the link with a file), the link `b` → `relink` is made again.
fn swap_until(dir: &File, a: &str, b: &str, relink: Option<&str>, stop: &AtomicBool) -> u64 {
    let mut swaps = 0u64;
    while !stop.load(Ordering::Relaxed) {
        if renameat_with(dir, a, dir, b, RenameFlags::EXCHANGE).is_ok() {
            swaps += 1;
        }
        if let Some(target) = relink {
            if swaps.is_multiple_of(16) {
                let is_link = |name: &str| {
                    rustix::fs::statat(dir, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW).is_ok_and(
                        |s| {
                            rustix::fs::FileType::from_raw_mode(s.st_mode)
                                == rustix::fs::FileType::Symlink
                        },
                    )
                };
                if !is_link(a) && !is_link(b) {
                    let _ = rustix::fs::unlinkat(dir, b, rustix::fs::AtFlags::empty());
                    let _ = rustix::fs::symlinkat(target, dir, b);
                }
            }
        }
    }
    swaps
}

/// Runs `requests` round-robin on [`CALLERS`] threads for [`DURATION`] while the
/// swapper runs, then asserts that nothing leaked and nothing outside changed.
fn race(
    name: &str,
    ws: &TestWorkspace,
    swap_dir: &str,
    (a, b): (&str, &str),
    relink: Option<&str>,
    requests: &(dyn Fn(u64) -> (&'static str, Value) + Sync),
) {
    let outside_before = tree(&ws.outside());
    let dir = File::open(ws.path(swap_dir)).unwrap();
    let stop = AtomicBool::new(false);
    let tally = Tally::default();
    let next = AtomicU64::new(0);
    let deadline = Instant::now() + DURATION;
    let swaps = std::thread::scope(|s| {
        let swapper = s.spawn(|| swap_until(&dir, a, b, relink, &stop));
        let callers: Vec<_> = (0..CALLERS)
            .map(|_| {
                s.spawn(|| {
                    while Instant::now() < deadline {
                        let n = next.fetch_add(1, Ordering::Relaxed);
                        let (tool, request) = requests(n);
                        let mut cmd = ws.cmd();
                        cmd.env("STITCH_DEBUG", "1")
                            .arg(tool)
                            .arg("--json")
                            .write_stdin(request.to_string())
                            .timeout(Duration::from_secs(30));
                        match cmd.output() {
                            Ok(output) => tally.record(tool, &request, output),
                            Err(e) => tally.violation(format!("{tool}: could not run: {e}")),
                        }
                    }
                })
            })
            .collect();
        for caller in callers {
            caller.join().unwrap();
        }
        stop.store(true, Ordering::Relaxed);
        swapper.join().unwrap()
    });

    let calls = tally.calls.load(Ordering::Relaxed);
    let outcomes = tally.outcomes.into_inner().unwrap();
    let causes = tally.causes.into_inner().unwrap();
    report(&format!(
        "race {name}{}: {swaps} exchanges, {calls} calls\n  outcomes: {outcomes:?}\n  causes of internal errors: {causes:?}",
        if ws.is_without_openat2() {
            " (openat2 refused)"
        } else {
            ""
        }
    ));
    let violations = tally.violations.into_inner().unwrap();
    assert!(
        violations.is_empty(),
        "{name}: {} violation(s):\n{}",
        violations.len(),
        violations.join("\n")
    );
    assert_eq!(
        tree(&ws.outside()),
        outside_before,
        "{name}: something outside the root changed"
    );
    assert!(swaps > 100, "{name}: the swapper barely ran ({swaps})");
    assert!(calls > 10, "{name}: too few calls ({calls})");
}

/// The secret outside: `outside/f.txt` (its first line is the line stitch edits and
/// searches inside, so a call that reached it would act on it), more files whose names
/// are secret, and a subdirectory.
fn plant_secrets(ws: &TestWorkspace, file: &str) {
    ws.outside_file(file, format!("shared-line\n{LEAK}\n"));
    ws.outside_file(&format!("{NAME_LEAK}.txt"), format!("{LEAK}\n"));
    fs::create_dir(ws.outside().join(format!("{NAME_LEAK}-dir"))).unwrap();
    fs::write(
        ws.outside().join(format!("{NAME_LEAK}-dir/{file}")),
        format!("shared-line\n{LEAK}\n"),
    )
    .unwrap();
}

/// The calls that name `dir`/`file` (or a new file beside it) directly, round-robin:
/// every open, create and rename goes through the root handle.
fn calls_beneath(dir: &'static str, file: &'static str, n: u64) -> (&'static str, Value) {
    let path = format!("{dir}/{file}");
    match n % 8 {
        0 | 1 => ("read", json!({"path": path})),
        2 => (
            "edit",
            json!({"path": path, "oldText": "shared-line", "newText": "shared-line."}),
        ),
        3 => (
            "write",
            json!({"path": path, "content": format!("shared-line\nwritten {n}\n"), "overwrite": true}),
        ),
        4 => (
            "write",
            json!({"path": format!("{dir}/new-{n}.txt"), "content": "created\n"}),
        ),
        5 => (
            "write",
            json!({"path": format!("{dir}/new-dir-{n}/x.txt"), "content": "created\n"}),
        ),
        _ => (
            "search",
            json!({"query": "shared-line", "path": path, "context": 2}),
        ),
    }
}

/// The discovery calls that walk `dir` (and the root through it), round-robin.
fn walks_beneath(dir: &'static str, n: u64) -> (&'static str, Value) {
    match n % 6 {
        0 => (
            "list",
            json!({"path": dir, "depth": 3, "includeIgnored": true}),
        ),
        1 => (
            "glob",
            json!({"pattern": "**", "path": dir, "includeIgnored": true}),
        ),
        2 => (
            "search",
            json!({"query": "shared-line", "path": dir, "context": 2, "includeIgnored": true}),
        ),
        3 => (
            "search",
            json!({"query": "txt", "mode": "path", "path": dir, "includeIgnored": true}),
        ),
        4 => (
            "list",
            json!({"path": ".", "depth": 4, "includeIgnored": true}),
        ),
        _ => ("glob", json!({"pattern": "**", "includeIgnored": true})),
    }
}

/// A directory in the middle of every path is exchanged with `link` → `../outside`
/// while files beneath it are read, replaced, created and edited.
#[test]
fn swapping_a_directory_with_a_symlink_out_leaks_nothing() {
    let ws = TestWorkspace::new();
    ws.file("d/f.txt", "shared-line\n")
        .symlink("../outside", "link");
    plant_secrets(&ws, "f.txt");
    race("directory mid-path", &ws, ".", ("d", "link"), None, &|n| {
        calls_beneath("d", "f.txt", n)
    });
}

/// The same swap while list, glob and search walk the directory: a walk must not
/// descend into the link's target when the directory it checked is swapped under it.
#[test]

fn swapping_a_directory_with_a_symlink_out_during_a_walk_leaks_nothing() {
    let ws = TestWorkspace::new();
    ws.file("d/f.txt", "shared-line\n")
        .symlink("../outside", "link");
    plant_secrets(&ws, "f.txt");
    race("directory mid-walk", &ws, ".", ("d", "link"), None, &|n| {
        walks_beneath("d", n)
    });
}

/// The file itself is exchanged with a symlink to the secret (relinked whenever a write
/// has replaced the link with a regular file).
#[test]
fn swapping_the_file_with_a_symlink_to_the_secret_leaks_nothing() {
    let ws = TestWorkspace::new();
    ws.file("d/f.txt", "shared-line\n")
        .symlink("../../outside/f.txt", "d/flink");
    plant_secrets(&ws, "f.txt");
    race(
        "final component",
        &ws,
        "d",
        ("f.txt", "flink"),
        Some("../../outside/f.txt"),
        &|n| {
            if n % 4 == 3 {
                walks_beneath("d", n / 4)
            } else {
                calls_beneath("d", "f.txt", n)
            }
        },
    );
}

/// The parent of a large file is exchanged with a symlink out while the file is being
/// replaced or created: the temp file, the rename and the directory sync all stay on
/// the directory stitch opened, inside.
#[test]
fn swapping_the_parent_during_an_atomic_write_writes_nothing_outside() {
    let ws = TestWorkspace::new();
    let big = |tag: &str| {
        format!(
            "shared-line\n{}",
            format!("{tag} payload line\n").repeat(16_384)
        )
    };
    ws.file("p/q/big.txt", big("initial"))
        .symlink("../../outside", "p/qlink");
    plant_secrets(&ws, "big.txt");
    race(
        "parent during an atomic write",
        &ws,
        "p",
        ("q", "qlink"),
        None,
        &|n| match n % 6 {
            0 | 1 => (
                "write",
                json!({"path": "p/q/big.txt", "content": big(&format!("w{n}")), "overwrite": true}),
            ),
            2 => (
                "write",
                json!({"path": format!("p/q/new-{n}.txt"), "content": big("new")}),
            ),
            3 => (
                "edit",
                json!({"path": "p/q/big.txt", "oldText": "shared-line", "newText": "shared-line."}),
            ),
            4 => ("read", json!({"path": "p/q/big.txt", "limit": 3})),
            _ => (
                "search",
                json!({"query": "shared-line", "path": "p", "context": 1, "includeIgnored": true}),
            ),
        },
    );
}
