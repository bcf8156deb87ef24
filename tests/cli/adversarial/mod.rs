//! Adversarial containment over every tool (read, write, edit, list, glob, search): each
//! hostile path is refused with its code, a sentence and a hint; the secret beside the
//! root never appears in any output; nothing outside (or, on a refusal, inside) changes.
//! Hostile-looking names that are ordinary names inside — leading `-`, Unicode in its
//! several spellings, 255-byte names — work like any other.
//!
//! This file is the harness: the fixture, the request each tool makes of a path, and the
//! check every call passes. The cases are in `escapes` (paths that must be refused) and
//! `names` (names that must work).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use crate::support::{exit_status, has_hint, request, tree, Run, TestWorkspace, HEADER, TOOLS};

mod escapes;
mod names;

/// Marks the content of every file planted outside the root. No request ever contains it,
/// so seeing it in any output means something outside was read.
const LEAK: &str = "LEAK-7e1dc0ffee";
/// Part of the name of a file outside the root: a listing of outside would show it.
const NAME_LEAK: &str = "NAMELEAK-5b2a";
/// How long one call may take before it counts as hanging.
const CALL_LIMIT: Duration = Duration::from_secs(20);

fn secret() -> String {
    format!("{HEADER} line one\n{LEAK} line two\n")
}

/// A workspace with ordinary files inside, secrets outside and beside it (`outside/`,
/// `ws-evil/`), and every kind of hostile link inside.
pub fn fixture(ws: &TestWorkspace) {
    let outside = ws.outside();
    ws.file("a.txt", "inside text\n")
        .file("sub/inner.txt", "inner text\n")
        .file(".git/config", "[core]\n");
    ws.outside_file("secret.txt", secret());
    ws.outside_file(&format!("{NAME_LEAK}.txt"), secret());
    fs::create_dir(outside.join("deep")).unwrap();
    fs::write(outside.join("deep/secret.txt"), secret()).unwrap();
    fs::write(ws.beside("ws-evil").join("x.txt"), secret()).unwrap();

    let climb = "../".repeat(64);
    ws.symlink("../outside/secret.txt", "link-rel")
        .symlink(outside.join("secret.txt"), "link-abs")
        .symlink("../outside/missing.txt", "dangle-rel")
        .symlink(outside.join("missing.txt"), "dangle-abs")
        .symlink("../outside", "out-rel")
        .symlink(&outside, "out-abs")
        .symlink("../..", "sub/up")
        .symlink("../sub/../../outside/secret.txt", "sub/tricky")
        .symlink("../ws-evil", "evil")
        .symlink("c2", "c1")
        .symlink("c3", "c2")
        .symlink("../outside/secret.txt", "c3")
        .symlink("cd2", "cd1")
        .symlink("out-rel", "cd2")
        .symlink("loop-b", "loop-a")
        .symlink("loop-a", "loop-b")
        .symlink("self-loop", "self-loop")
        .symlink("/proc/self/root", "proc-root")
        .symlink("/proc/self/cwd", "proc-cwd")
        .symlink("/proc/self/fd", "proc-fd")
        .symlink("/proc/self/status", "proc-file")
        .symlink(format!("{climb}proc/self/root"), "proc-rel")
        .symlink(".stitch", "st")
        .symlink(".git", "gl");
    // Chains of 41 links (one past Linux's 40) and of exactly 40, to a file and to a
    // directory: `n0` → `n1` → … → `n40` → `a.txt` follows 41 links.
    chain(ws, "n", 41, "a.txt");
    chain(ws, "m", 40, "a.txt");
    chain(ws, "k", 41, "sub");
    chain(ws, "j", 40, "sub");
    chain(ws, "o", 40, "../outside");
}

/// `links` symlinks `{prefix}0` → `{prefix}1` → … → `target`.
fn chain(ws: &TestWorkspace, prefix: &str, links: usize, target: &str) {
    for i in 0..links {
        let to = if i + 1 == links {
            target.to_owned()
        } else {
            format!("{prefix}{}", i + 1)
        };
        ws.symlink(to, &format!("{prefix}{i}"));
    }
}

/// Everything beside the root, and everything inside it but `.stitch/` (which holds lock
/// files a refused mutation may create).
struct Snapshot {
    outside: BTreeMap<PathBuf, Vec<u8>>,
    inside: BTreeMap<PathBuf, Vec<u8>>,
}

fn snapshot(ws: &TestWorkspace) -> Snapshot {
    let mut outside = tree(&ws.base());
    outside.retain(|path, _| !path.starts_with("ws"));
    let mut inside = tree(&ws.root());
    inside.retain(|path, _| !path.starts_with(".stitch"));
    Snapshot { outside, inside }
}

/// Runs one call, killed after [`CALL_LIMIT`]; `Err` when it hung or printed no envelope.
fn call(ws: &TestWorkspace, tool: &str, request: &Value) -> Result<Run, String> {
    let mut cmd = ws.cmd();
    cmd.arg(tool)
        .arg("--json")
        .write_stdin(request.to_string())
        .timeout(CALL_LIMIT);
    let output = cmd.output().map_err(|e| e.to_string())?;
    if output.status.code().is_none() {
        return Err(format!(
            "killed after {CALL_LIMIT:?} (a hang) or by a signal"
        ));
    }
    std::panic::catch_unwind(|| Run::from_output(output))
        .map_err(|_| "stdout is not exactly one JSON line".to_owned())
}

/// What a call is expected to end in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    Works,
    Refused(&'static str),
    /// `OUTSIDE_ROOT`, or `INTERNAL_SERVER_ERROR` where the kernel itself refuses to
    /// show where a link leads (`EACCES` from readlink(2) of another process's
    /// `/proc/<pid>/root`): a cause with no case, and no escape either way.
    OutsideOrUnreadable,
}

use Expect::{OutsideOrUnreadable, Refused, Works};

/// The same refusal from every tool.
fn all(code: &'static str) -> [Expect; 6] {
    [Refused(code); 6]
}

/// Gathers every mismatch of a table so one run reports them all.
#[derive(Default)]
pub struct Failures(Vec<String>);

impl Failures {
    pub fn add(&mut self, failure: String) {
        self.0.push(failure);
    }

    #[track_caller]
    pub fn assert_none(&self, what: &str) {
        assert!(
            self.0.is_empty(),
            "{what}: {} failure(s):\n{}",
            self.0.len(),
            self.0.join("\n")
        );
    }
}

/// What a workspace path spelled `raw` looks like in a failure report (long ones cut).
fn shown(raw: &str) -> String {
    let escaped = format!("{raw:?}");
    if escaped.chars().count() > 90 {
        let start: String = escaped.chars().take(80).collect();
        format!("{start}…({} bytes)", raw.len())
    } else {
        escaped
    }
}

/// Checks one call against its expectation and the invariants every call keeps; returns
/// the run for further checks.
fn check(
    ws: &TestWorkspace,
    failures: &mut Failures,
    tool: &str,
    path: &str,
    expect: Expect,
) -> Option<Run> {
    let before = snapshot(ws);
    let what = format!("{tool} {}", shown(path));
    let run = match call(ws, tool, &request(tool, path)) {
        Ok(run) => run,
        Err(e) => {
            failures.add(format!("{what}: {e}"));
            return None;
        }
    };
    for (stream, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        if text.contains(LEAK) || text.contains(NAME_LEAK) {
            failures.add(format!(
                "{what}: LEAKED a secret outside the root on {stream}"
            ));
        }
        if text.contains("panicked") {
            failures.add(format!("{what}: panicked: {text}"));
        }
    }
    // The caller's own path may be echoed; no other absolute path may appear.
    let escaped = serde_json::to_string(path).unwrap();
    let scrubbed = run.stdout.replace(&escaped[1..escaped.len() - 1], "");
    if scrubbed.contains(ws.base().to_str().unwrap()) {
        failures.add(format!("{what}: a host path in {}", run.stdout));
    }
    let after = snapshot(ws);
    if after.outside != before.outside {
        failures.add(format!("{what}: CHANGED something outside the root"));
    }
    match expect {
        Works => {
            if run.envelope["ok"] != true || run.status != 0 {
                failures.add(format!(
                    "{what}: expected success, got {}",
                    cut(&run.stdout)
                ));
            }
        }
        OutsideOrUnreadable => {
            let outside = refusal_problem(&run, "OUTSIDE_ROOT");
            let unreadable = refusal_problem(&run, "INTERNAL_SERVER_ERROR");
            if outside.is_some() && unreadable.is_some() {
                failures.add(format!(
                    "{what}: expected OUTSIDE_ROOT or INTERNAL_SERVER_ERROR, got exit {} {}",
                    run.status,
                    cut(&run.stdout)
                ));
            }
            if after.inside != before.inside {
                failures.add(format!("{what}: a refusal changed the workspace"));
            }
        }
        Refused(code) => {
            if after.inside != before.inside {
                failures.add(format!("{what}: a refusal changed the workspace"));
            }
            if let Some(problem) = refusal_problem(&run, code) {
                failures.add(format!(
                    "{what}: expected {code}: {problem}; got exit {} {}",
                    run.status,
                    cut(&run.stdout)
                ));
            } else if matches!(code, "OUTSIDE_ROOT" | "INVALID_PATH")
                && run.envelope["details"]["path"] != path
            {
                failures.add(format!(
                    "{what}: details.path is not the caller's path: {}",
                    run.stdout
                ));
            }
        }
    }
    Some(run)
}

/// What is wrong with `run` as a refusal with `code`, by the rules of
/// [`Run::refused`]: the code, a non-empty `details.message`, the exit status that goes
/// with the code, and a `_hint` unless the code has none.
pub fn refusal_problem(run: &Run, code: &str) -> Option<String> {
    let e = &run.envelope;
    if e["ok"] != false || e["error"] != code {
        return Some("another outcome".into());
    }
    if e["details"]["message"].as_str().is_none_or(str::is_empty) {
        return Some("no details.message".into());
    }
    let status = exit_status(code);
    if run.status != status {
        return Some(format!("exit status {} instead of {status}", run.status));
    }
    let hinted = e["_hint"].as_str().is_some_and(|h| !h.is_empty());
    if !hinted && has_hint(code) {
        return Some("no _hint".into());
    }
    None
}

/// Output cut to a readable length for a failure report.
fn cut(text: &str) -> String {
    if text.chars().count() > 400 {
        let start: String = text.chars().take(400).collect();
        format!("{start}…")
    } else {
        text.to_owned()
    }
}

/// Runs every tool on every path of `table`, expecting `expect[i]` from `TOOLS[i]`.
fn run_table(ws: &TestWorkspace, what: &str, table: &[(String, [Expect; 6])]) -> Failures {
    let mut failures = Failures::default();
    for (path, expect) in table {
        for (tool, expect) in TOOLS.iter().zip(expect) {
            check(ws, &mut failures, tool, path, *expect);
        }
    }
    let calls = table.len() * TOOLS.len();
    note(&format!(
        "{what}: {} paths × 6 tools = {calls} calls{}",
        table.len(),
        if ws.is_without_openat2() {
            " (openat2 refused)"
        } else {
            ""
        }
    ));
    failures
}

/// A line of the suite's figures on stderr.
pub fn note(line: &str) {
    crate::support::report(&format!("adversarial: {line}"));
}

fn each(paths: &[String], expect: [Expect; 6]) -> Vec<(String, [Expect; 6])> {
    paths.iter().map(|p| (p.clone(), expect)).collect()
}

fn owned(paths: &[&str]) -> Vec<String> {
    paths.iter().map(|p| (*p).to_owned()).collect()
}

fn abs(path: &Path) -> String {
    path.to_str().unwrap().to_owned()
}

fn workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    fixture(&ws);
    ws
}
