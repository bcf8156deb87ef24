//! A planted workspace cannot turn stitch against itself. Each module builds the hostile
//! workspace an attacker who can only commit files would leave (a cloned repository, an
//! unpacked archive) — or the situation one who writes the arguments, or runs another
//! program beside stitch, makes — and asserts the serialized envelope, the exit status,
//! the files on disk (nothing but stitch's own names deleted, nothing outside the root
//! touched, nothing torn), the wall time and, where memory is the point, the peak.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::{Run, TestWorkspace};

// Own state that is a symlink, a FIFO, a device or huge: INVALID_CONFIG before any change.
mod state;
// Paths that resolve into `.stitch/`, whatever their spelling, and link targets that are
// not UTF-8.
mod resolution;
// Nothing blocks on a FIFO or a device, and stdin is read with a bound.
mod blocking;
// Symlink fan-outs: each directory walked once per call, each file shown once, in time.
mod walks;
// Names that are not UTF-8: counted in skippedNonUtf8, never dropped or mangled.
mod names;
// Authorize hooks that leave children holding their pipes, or never read a large payload:
// the call ends within authorizeTimeoutSecs + 1 s, the hook's group is killed.
mod hooks;
// Another program rewrites a file in place during an edit: nothing torn is published.
mod rewrite;
// Files the caller may not write, or whose owner it could not keep: DENIED, untouched.
mod permissions;
// Searches whose every line matches, and regexes built to grow: memory by the limit.
mod memory;
// Names and lines holding escape sequences reach a terminal quoted.
mod terminal;
// A config's text holding escape sequences reaches a terminal quoted: config trust and
// check, the tools' refusals, the MCP server's start-up line.
mod config_text;
// Paths past 4096 absolute bytes, and directories the walk cannot read.
mod deep;
// The root at `$HOME`: stitch's user-level state (the user's config, the key, the trust
// records) out of every tool's reach, hidden from walks, warned of.
mod home_root;

/// How long a call may take before it counts as hanging: generous on a loaded machine
/// (a paged read of a 2-million-line file took 3.6 s with eleven builds sharing two cores),
/// far below what a blocked call would take.
const PROMPT: Duration = Duration::from_secs(15);
/// A call still running after this is killed, so a regression fails instead of hanging.
const KILL_AFTER: Duration = Duration::from_secs(30);

/// Runs `stitch args` with `stdin`, killed after [`KILL_AFTER`]; returns what it printed
/// and how long it took, asserting it was prompt.
#[track_caller]
fn timed(ws: &TestWorkspace, args: &[&str], stdin: impl Into<Vec<u8>>) -> Run {
    let mut cmd = ws.cmd();
    cmd.args(args).write_stdin(stdin.into()).timeout(KILL_AFTER);
    let start = Instant::now();
    let output = cmd.output().expect("run stitch");
    let took = start.elapsed();
    assert!(
        took < PROMPT,
        "`stitch {}` took {took:?}: {}",
        args.join(" "),
        String::from_utf8_lossy(&output.stdout)
    );
    Run::from_output(output)
}

/// The whole envelope of an `INVALID_CONFIG` refusal for the state path `path`.
fn state_refusal(path: &str, reason: &str) -> Value {
    json!({
        "ok": false,
        "error": "INVALID_CONFIG",
        "details": {
            "message": format!("stitch's own state is unusable: `{path}` {reason}"),
            "path": path,
            "field": path,
            "reason": reason,
        },
        "_hint": format!(
            "The workspace owner must remove or replace `{path}` (stitch keeps its own state \
             there); `stitch config check` shows the problem."
        ),
    })
}

const SYMLINK: &str = "is a symbolic link; stitch never follows links in its own state";
const NOT_A_DIRECTORY: &str = "is not a directory";
const NOT_A_FILE: &str = "is not a regular file (a directory, FIFO, socket or device)";

/// Asserts that `run` is exactly the `INVALID_CONFIG` refusal for `path`.
#[track_caller]
fn assert_state_refusal(run: &Run, path: &str, reason: &str) {
    run.refused("INVALID_CONFIG");
    assert_eq!(run.envelope, state_refusal(path, reason), "{}", run.stdout);
}

/// Makes a FIFO at `path`.
pub(crate) fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Makes a character device with `/dev/zero`'s numbers at `path`, when this process may
/// (root, outside a user namespace); false otherwise.
fn mkzero(path: &Path) -> bool {
    Command::new("mknod")
        .arg(path)
        .args(["c", "1", "5"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Sets the modification time of `path` (not following a link) to an hour ago, so a
/// sweep of "old" files would take it.
fn age(path: &Path) {
    let status = Command::new("touch")
        .args(["-h", "-d", "1 hour ago"])
        .arg(path)
        .status()
        .expect("touch");
    assert!(status.success());
}
