//! Lost-update stress: 64 processes at once, for several rounds, mutate one file — half
//! edit their own line, half read it and write it back with one more line, guarded by
//! `expectedSha256`. Every mutation that reports success names the version it started
//! from (`baseSha256`, or the `expectedSha256` it passed) and the version it made
//! (`sha256`); together they must form one chain from the round's first version to the
//! file on disk. A mutation that overwrote another's result without having seen it
//! breaks the chain; so does an edit whose line vanished, or a write whose line did.
//! Every refusal is a typed code; none is `INTERNAL_SERVER_ERROR`.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Barrier, Mutex};
use std::time::Instant;

use serde_json::json;

use crate::support::{report, sha256sum, Run, TestWorkspace};

/// How many processes run at once: half editors, half guarded writers.
const PROCESSES: usize = 64;
const EDITORS: usize = PROCESSES / 2;
const ROUNDS: usize = 3;
/// How many times a writer re-reads and retries after `STALE_VERSION`.
const ATTEMPTS: usize = 4;

fn edit_line(editor: usize, round: usize) -> String {
    format!("edit line {editor:02} at version {round} end")
}

fn write_line(writer: usize, round: usize, attempt: usize) -> String {
    format!("write {writer:02} round {round} attempt {attempt}")
}

/// A mutation that reported success: the version it started from and the one it made.
#[derive(Debug, Clone)]
struct Done {
    who: String,
    base: String,
    result: String,
}

/// What one round saw.
#[derive(Default)]
struct Seen {
    done: Vec<Done>,
    /// Writers' lines that reported success.
    written: Vec<String>,
    /// Every outcome, by tool and code.
    outcomes: BTreeMap<String, usize>,
    failures: Vec<String>,
}

impl Seen {
    fn outcome(&mut self, tool: &str, run: &Run) {
        let code = if run.envelope["ok"] == true {
            "ok"
        } else {
            run.envelope["error"].as_str().unwrap_or("?")
        };
        *self.outcomes.entry(format!("{tool} {code}")).or_default() += 1;
    }
}

/// Edits this editor's line from the previous round's version to this round's.
fn edit(ws: &TestWorkspace, editor: usize, round: usize, seen: &Mutex<Seen>) {
    let run = ws.run(&[
        "edit",
        "shared.txt",
        "--old",
        &edit_line(editor, round - 1),
        "--new",
        &edit_line(editor, round),
    ]);
    let mut seen = seen.lock().unwrap();
    seen.outcome("edit", &run);
    if run.envelope["ok"] == true {
        let data = &run.envelope["data"];
        seen.done.push(Done {
            who: format!("editor {editor}"),
            base: data["baseSha256"].as_str().unwrap().to_owned(),
            result: data["sha256"].as_str().unwrap().to_owned(),
        });
    } else {
        // Editors' lines are distinct: an edit may wait, never miss its line.
        seen.failures.push(format!(
            "editor {editor} round {round}: refused: {}",
            run.stdout
        ));
    }
}

/// Reads the file and writes it back with one more line, guarded by the digest it
/// read; re-reads and retries after `STALE_VERSION`.
fn guarded_write(ws: &TestWorkspace, writer: usize, round: usize, seen: &Mutex<Seen>) {
    for attempt in 0..ATTEMPTS {
        let read = ws.stitch("read", &json!({"path": "shared.txt"}));
        seen.lock().unwrap().outcome("read", &read);
        if read.envelope["ok"] != true {
            seen.lock()
                .unwrap()
                .failures
                .push(format!("writer {writer}: read refused: {}", read.stdout));
            return;
        }
        let data = read.ok();
        let base = data["sha256"].as_str().unwrap().to_owned();
        let line = write_line(writer, round, attempt);
        let content = format!("{}{line}\n", data["content"].as_str().unwrap());
        let write = ws.stitch(
            "write",
            &json!({"path": "shared.txt", "content": content, "expectedSha256": base}),
        );
        let mut seen = seen.lock().unwrap();
        seen.outcome("write", &write);
        if write.envelope["ok"] == true {
            let data = &write.envelope["data"];
            if data["previousSha256"] != base.as_str() {
                seen.failures.push(format!(
                    "writer {writer}: replaced {} though it expected {base}",
                    data["previousSha256"]
                ));
            }
            seen.done.push(Done {
                who: format!("writer {writer} attempt {attempt}"),
                base,
                result: data["sha256"].as_str().unwrap().to_owned(),
            });
            seen.written.push(line);
            return;
        }
        let details = &write.envelope["details"];
        if write.envelope["error"] != "STALE_VERSION"
            || write.status != 1
            || details["expectedSha256"] != base.as_str()
            || write.hint().is_empty()
        {
            seen.failures.push(format!(
                "writer {writer}: not a typed STALE_VERSION: exit {} {}",
                write.status, write.stdout
            ));
            return;
        }
    }
}

/// Follows the chain of successful mutations from `start`; returns where it ends and the
/// mutations it could not place.
fn follow(start: &str, done: &[Done]) -> (String, Vec<String>) {
    let mut by_base: HashMap<&str, Vec<&Done>> = HashMap::new();
    for d in done {
        by_base.entry(d.base.as_str()).or_default().push(d);
    }
    let mut problems = Vec::new();
    for (base, from_it) in &by_base {
        if from_it.len() > 1 {
            let who: Vec<&str> = from_it.iter().map(|d| d.who.as_str()).collect();
            problems.push(format!(
                "LOST UPDATE: {} mutations all started from {base}: {who:?}",
                from_it.len()
            ));
        }
    }
    let mut at = start.to_owned();
    let mut placed = 0;
    while let Some(next) = by_base.get(at.as_str()).and_then(|v| v.first()) {
        at.clone_from(&next.result);
        placed += 1;
        if placed > done.len() {
            problems.push("the chain loops".into());
            break;
        }
    }
    if placed != done.len() {
        problems.push(format!(
            "only {placed} of {} successful mutations form a chain from the round's start",
            done.len()
        ));
    }
    (at, problems)
}

#[test]
fn sixty_four_processes_lose_no_update() {
    let ws = TestWorkspace::new();
    let mut text = String::from("// header\n");
    for editor in 0..EDITORS {
        text.push_str(&edit_line(editor, 0));
        text.push('\n');
    }
    text.push_str("// writes below\n");
    ws.file("shared.txt", &text);
    let started = Instant::now();
    let mut totals: BTreeMap<String, usize> = BTreeMap::new();
    let mut all_written: Vec<String> = Vec::new();
    for round in 1..=ROUNDS {
        let start = sha256sum(&ws.read("shared.txt"));
        let seen = Mutex::new(Seen::default());
        let barrier = Barrier::new(PROCESSES);
        std::thread::scope(|s| {
            for p in 0..PROCESSES {
                let (ws, seen, barrier) = (&ws, &seen, &barrier);
                s.spawn(move || {
                    barrier.wait();
                    if p < EDITORS {
                        edit(ws, p, round, seen);
                    } else {
                        guarded_write(ws, p - EDITORS, round, seen);
                    }
                });
            }
        });
        let seen = seen.into_inner().unwrap();
        let bytes = ws.read("shared.txt");
        let file = String::from_utf8(bytes.clone()).unwrap();
        let mut failures = seen.failures;

        // The chain of versions ends at the file on disk.
        let (end, problems) = follow(&start, &seen.done);
        failures.extend(problems);
        if end != sha256sum(&bytes) {
            failures.push("the chain does not end at the file on disk".into());
        }
        // Every successful edit's line is there, at this round's version.
        for editor in 0..EDITORS {
            if !file.contains(&format!("{}\n", edit_line(editor, round))) {
                failures.push(format!("editor {editor}'s round-{round} line is missing"));
            }
        }
        // Every successful write's line, of this round and the earlier ones, is there
        // exactly once; no refused write's line is.
        all_written.extend(seen.written.iter().cloned());
        for line in &all_written {
            let count = file.lines().filter(|l| l == line).count();
            if count != 1 {
                failures.push(format!("`{line}` appears {count} times"));
            }
        }
        let write_lines = file.lines().filter(|l| l.starts_with("write ")).count();
        if write_lines != all_written.len() {
            failures.push(format!(
                "{write_lines} write lines in the file, {} writes succeeded",
                all_written.len()
            ));
        }
        for (outcome, n) in &seen.outcomes {
            if outcome.contains("INTERNAL_SERVER_ERROR") {
                failures.push(format!("{n} × {outcome}"));
            }
            *totals.entry(outcome.clone()).or_default() += n;
        }
        assert!(
            failures.is_empty(),
            "round {round}: {} failure(s):\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
    report(&format!(
        "stress: {PROCESSES} processes × {ROUNDS} rounds in {:.1} s: {totals:?}",
        started.elapsed().as_secs_f64()
    ));
    assert!(!all_written.is_empty(), "no guarded write ever succeeded");
}
