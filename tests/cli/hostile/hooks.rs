//! A planted authorize hook cannot hold a call, or the file's lock, past
//! `authorizeTimeoutSecs` + 1 s, whatever it or its children do with their pipes; the
//! children it leaves in its process group do not outlive the call.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::{report, Run, TestWorkspace};

/// The timeout of a hook that answers: the call must not wait for it.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(2);
/// The timeout of a hook that never answers: the call ends within it plus [`SLACK`].
const HANG_TIMEOUT: Duration = Duration::from_secs(1);
/// How much longer than its timeout a call may take on a loaded machine: far less than
/// the 30 s the planted strays sleep, so a call that waits for one still fails.
const SLACK: Duration = Duration::from_secs(8);
/// Longer than any call may take, so that a regression fails instead of hanging.
const OUTER_LIMIT: Duration = Duration::from_secs(20);

/// Plants `hooks/approve` (a `#!/bin/sh` script running `body`) and a config naming it
/// with `timeout`.
fn plant(ws: &TestWorkspace, body: &str, timeout: Duration) {
    ws.file("hooks/approve", format!("#!/bin/sh\n{body}"));
    fs::set_permissions(ws.path("hooks/approve"), fs::Permissions::from_mode(0o755)).unwrap();
    let config = json!({
        "authorize": ["./hooks/approve"],
        "authorizeTimeoutSecs": timeout.as_secs(),
    });
    ws.file(".stitch/config.json", config.to_string());
    ws.trust();
}

/// Where a hook writes a PID: beside the root, out of the workspace.
fn pid_file(ws: &TestWorkspace, name: &str) -> String {
    ws.outside().join(name).display().to_string()
}

/// Runs `stitch` with `args`, failing (and killing it) past [`OUTER_LIMIT`]; returns the
/// call and its wall time. Its output is read as it comes: an edit's envelope carries a
/// diff larger than a pipe holds.
fn timed(ws: &TestWorkspace, label: &str, args: &[&str]) -> (Run, Duration) {
    let start = Instant::now();
    let child = ws.spawnable().args(args).spawn().expect("spawn stitch");
    let pid = child.id();
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || done.send(child.wait_with_output()));
    let Ok(output) = finished.recv_timeout(OUTER_LIMIT) else {
        if let Some(pid) = rustix::process::Pid::from_raw(pid.cast_signed()) {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
        }
        panic!("{label}: {args:?} still running after {OUTER_LIMIT:?}");
    };
    let elapsed = start.elapsed();
    report(&format!("hooks: {label}: {elapsed:?}"));
    (Run::from_output(output.unwrap()), elapsed)
}

/// Asserts the whole `details` of an authorize denial of `path` with `reason`.
#[track_caller]
fn assert_denied(run: &Run, path: &str, reason: &str) {
    run.refused("DENIED");
    let expected = json!({
        "message": format!("The authorize command refused this change to `{path}`: {reason}"),
        "path": path,
        "reason": reason,
        "config": ".stitch/config.json",
        "rule": "authorize",
    });
    assert_eq!(run.envelope["details"], expected, "{}", run.stdout);
}

/// The PID a hook recorded in `outside/<name>`.
fn recorded_pid(ws: &TestWorkspace, name: &str) -> u32 {
    let text = fs::read_to_string(pid_file(ws, name)).expect("the hook recorded a PID");
    text.trim().parse().expect("a PID")
}

/// Whether `pid` is a running process (a zombie is dead: it only waits to be reaped).
fn alive(pid: u32) -> bool {
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let state = stat.rsplit(')').next().unwrap_or_default().trim_start();
    !state.starts_with(['Z', 'X'])
}

/// Asserts that `pid` is dead within a moment (SIGKILL is delivered asynchronously).
#[track_caller]
fn assert_gone(pid: u32, what: &str) {
    let start = Instant::now();
    while alive(pid) {
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{what} (PID {pid}) outlived the call"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Shell that starts `sleep 30` in a new session (setsid(1)) with `redirects`, appends its
/// PID to `pid_file`, and waits until it has left the hook's process group: a hook that
/// exited at once would otherwise have its group killed before the child escaped.
fn escape(pid_file: &str, redirects: &str) -> String {
    format!(
        "setsid sleep 30 {redirects} &\nchild=$!\necho $child >> '{pid_file}'\n\
         while [ \"$(cut -d' ' -f5 /proc/$child/stat)\" = $$ ]; do sleep 0.01; done\n"
    )
}

/// Kills, at the end of a test, the `sleep` processes a hook moved out of its group: they
/// survive the call by design and would otherwise linger for half a minute.
struct Strays(Vec<u32>);

impl Drop for Strays {
    fn drop(&mut self) {
        for &pid in &self.0 {
            let cmdline = fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            if cmdline.starts_with(b"sleep\0") {
                if let Some(pid) = rustix::process::Pid::from_raw(pid.cast_signed()) {
                    let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
                }
            }
        }
    }
}

const LARGE_EDIT: &[&str] = &[
    "edit",
    "a.txt",
    "--old",
    "MARK",
    "--new",
    "DONE",
    "--replace-all",
];

/// A file of 800 lines that [`LARGE_EDIT`] changes everywhere, made of `"` so that the
/// payload's diff (up to 64 KiB) doubles when escaped as JSON. A dry run with a hook that
/// records its payload shows it is more than a pipe holds (64 KiB on Linux, pipe(7)).
fn large_edit_workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("a.txt", format!("{}MARK\n", "\"".repeat(60)).repeat(800));
    let payload = ws.outside().join("payload.json");
    plant(
        &ws,
        &format!("cat > '{}'\nexit 0\n", payload.display()),
        ANSWER_TIMEOUT,
    );
    let mut dry_run = LARGE_EDIT.to_vec();
    dry_run.push("--dry-run");
    let (run, _) = timed(&ws, "large payload, recorded", &dry_run);
    run.ok();
    let bytes = fs::metadata(&payload).unwrap().len();
    assert!(
        bytes > 64 * 1024 + 32 * 1024,
        "the payload is {bytes} bytes"
    );
    ws
}

#[test]
fn a_refusal_is_prompt_though_a_background_child_holds_stderr() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "old\n");
    let pid = pid_file(&ws, "child.pid");
    plant(
        &ws,
        &format!("sleep 30 &\necho $! > '{pid}'\necho 'the release is frozen' >&2\nexit 1\n"),
        ANSWER_TIMEOUT,
    );
    let (run, elapsed) = timed(
        &ws,
        "refusal, child holds stderr",
        &["write", "a.txt", "--content", "new\n", "--overwrite"],
    );
    assert_denied(&run, "a.txt", "the release is frozen");
    assert_eq!(run.status, 1);
    assert_eq!(ws.read_string("a.txt"), "old\n");
    assert!(
        elapsed < ANSWER_TIMEOUT,
        "waited for the child: {elapsed:?}"
    );
    assert_gone(
        recorded_pid(&ws, "child.pid"),
        "the hook's background child",
    );
}

#[test]
fn an_approval_is_prompt_though_a_background_child_holds_stdout_and_stderr() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "old\n");
    let pid = pid_file(&ws, "child.pid");
    plant(
        &ws,
        &format!("sleep 30 &\necho $! > '{pid}'\necho 'approved'\necho 'noted' >&2\nexit 0\n"),
        ANSWER_TIMEOUT,
    );
    let (run, elapsed) = timed(
        &ws,
        "approval, child holds stdout and stderr",
        &["write", "a.txt", "--content", "new\n", "--overwrite"],
    );
    assert_eq!(run.ok()["path"], "a.txt", "{}", run.stdout);
    assert_eq!(ws.read_string("a.txt"), "new\n");
    assert!(
        elapsed < ANSWER_TIMEOUT,
        "waited for the child: {elapsed:?}"
    );
    assert_gone(
        recorded_pid(&ws, "child.pid"),
        "the hook's background child",
    );
}

#[test]
fn a_hook_that_never_reads_a_large_payload_times_out_on_time() {
    let ws = large_edit_workspace();
    let before = ws.read_string("a.txt");
    let hook_pid = pid_file(&ws, "hook.pid");
    let stray_pid = pid_file(&ws, "stray.pid");
    // Neither the hook nor its child, which leaves the group holding stdin, ever reads.
    plant(
        &ws,
        &format!(
            "echo $$ > '{hook_pid}'\nexec 3<&0\n{}sleep 30\nexit 0\n",
            escape(&stray_pid, "<&3 >/dev/null 2>&1")
        ),
        HANG_TIMEOUT,
    );
    let (run, elapsed) = timed(&ws, "timeout, payload unread", LARGE_EDIT);
    let _strays = Strays(vec![recorded_pid(&ws, "stray.pid")]);
    assert_denied(
        &run,
        "a.txt",
        "the authorize command did not answer within 1 s",
    );
    assert_eq!(ws.read_string("a.txt"), before);
    assert!(elapsed >= HANG_TIMEOUT.mul_f64(0.9), "{elapsed:?}");
    assert!(elapsed < HANG_TIMEOUT + SLACK, "{elapsed:?}");
    assert_gone(recorded_pid(&ws, "hook.pid"), "the hook");
}

#[test]
fn an_approval_is_prompt_though_its_child_holds_a_large_payload_unread() {
    let ws = large_edit_workspace();
    let pid = pid_file(&ws, "child.pid");
    plant(
        &ws,
        &format!("exec 3<&0\nsleep 30 <&3 &\necho $! > '{pid}'\nexit 0\n"),
        ANSWER_TIMEOUT,
    );
    let (run, elapsed) = timed(&ws, "approval, child holds stdin", LARGE_EDIT);
    assert_eq!(run.ok()["replacements"], 800, "{}", run.stdout);
    assert_eq!(
        ws.read_string("a.txt"),
        format!("{}DONE\n", "\"".repeat(60)).repeat(800)
    );
    assert!(
        elapsed < ANSWER_TIMEOUT,
        "waited for the child: {elapsed:?}"
    );
    assert_gone(
        recorded_pid(&ws, "child.pid"),
        "the hook's background child",
    );
}

#[test]
fn a_descendant_that_leaves_the_group_cannot_hold_the_call() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "old\n");
    let pid = pid_file(&ws, "stray.pid");
    let cases: [(&str, &str, Duration, &str); 2] = [
        (
            "refusal, setsid child holds stdout and stderr",
            "echo 'not from this branch' >&2\nexit 1\n",
            ANSWER_TIMEOUT,
            "not from this branch",
        ),
        (
            "timeout, setsid child holds stdout and stderr",
            "sleep 30\n",
            HANG_TIMEOUT,
            "the authorize command did not answer within 1 s",
        ),
    ];
    for (label, then, timeout, reason) in cases {
        let _ = fs::remove_file(&pid);
        plant(&ws, &format!("{}{then}", escape(&pid, "")), timeout);
        let (run, elapsed) = timed(
            &ws,
            label,
            &["write", "a.txt", "--content", "new\n", "--overwrite"],
        );
        let stray = recorded_pid(&ws, "stray.pid");
        let _strays = Strays(vec![stray]);
        assert_denied(&run, "a.txt", reason);
        assert_eq!(ws.read_string("a.txt"), "old\n", "{label}");
        assert!(elapsed < timeout + SLACK, "{label}: {elapsed:?}");
        // The escape worked (so the bound above was tested): it outlives the call.
        assert!(alive(stray), "{label}: the setsid child is still running");
    }
}

#[test]
fn the_lock_is_free_as_soon_as_the_call_ends() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "old\n");
    let pid = pid_file(&ws, "stray.pid");
    let approve = ws.outside().join("approve");
    // Each call leaves a child outside the group, holding the hook's pipes; the hook
    // refuses until `outside/approve` exists.
    plant(
        &ws,
        &format!(
            "{}if [ -e '{}' ]; then exit 0; fi\necho 'not yet' >&2\nexit 1\n",
            escape(&pid, ""),
            approve.display()
        ),
        ANSWER_TIMEOUT,
    );
    let mut strays = Strays(Vec::new());
    for (step, content) in ["refused\n", "first\n", "second\n"].into_iter().enumerate() {
        let label = format!("lock, call {} of 3 at once after the last", step + 1);
        let (run, elapsed) = timed(
            &ws,
            &label,
            // No wait for the lock: a lock still held is BUSY at once.
            &[
                "write",
                "a.txt",
                "--content",
                content,
                "--overwrite",
                "--lock-timeout",
                "0",
            ],
        );
        strays.0 = fs::read_to_string(&pid)
            .unwrap()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        if step == 0 {
            assert_denied(&run, "a.txt", "not yet");
            assert_eq!(ws.read_string("a.txt"), "old\n");
            fs::write(&approve, "").unwrap();
        } else {
            assert_eq!(run.ok()["path"], "a.txt", "{label}: {}", run.stdout);
            assert_eq!(ws.read_string("a.txt"), content, "{label}");
        }
        assert!(elapsed < ANSWER_TIMEOUT, "{label}: {elapsed:?}");
    }
    assert_eq!(strays.0.len(), 3);
    assert!(strays.0.iter().all(|&pid| alive(pid)), "{:?}", strays.0);
}
