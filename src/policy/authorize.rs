//! The authorize hook: a command the workspace owner names, run before every mutation
//! with a JSON payload on stdin. Exit 0 allows; anything else, a failure to start, or a
//! timeout denies.
//!
//! It runs with the root as its working directory and a clean environment: only
//! `PATH` (the caller's, or a default), `LANG` when set, and `STITCH_ROOT`. The
//! workspace may be hostile, so the hook runs in its own process group under
//! [`bounded::run`]: the call ends within the timeout plus a second, and the group is
//! killed on timeout and after the hook exits.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

use super::bounded::{self, Ended};

/// The hook's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Allow,
    Deny { reason: String },
}

fn first_line(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_owned)
}

/// Where a hook's program is found when it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runs<'a> {
    /// A path with a `/`: absolute, or relative to the root (not to the caller's cwd).
    Path(&'a str),
    /// A bare name, looked for along [`hook_path`].
    Search(&'a str),
}

/// How the hook runs `program`, its command's first element.
#[must_use]
pub fn runs(program: &str) -> Runs<'_> {
    if program.contains('/') {
        Runs::Path(program)
    } else {
        Runs::Search(program)
    }
}

/// The `PATH` a hook runs with: the caller's, or a default.
#[must_use]
pub fn hook_path() -> OsString {
    std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into())
}

/// Runs the hook `argv` in `root` with `payload` on stdin, waiting up to `timeout`.
#[must_use]
pub fn authorize(argv: &[String], root: &Path, payload: &Value, timeout: Duration) -> Decision {
    let Some(program) = argv.first() else {
        return Decision::Deny {
            reason: "the authorize command is empty".into(),
        };
    };
    let program = match runs(program) {
        Runs::Path(path) => root.join(path),
        Runs::Search(name) => name.into(),
    };
    let mut command = Command::new(&program);
    command
        .args(&argv[1..])
        .current_dir(root)
        .env_clear()
        .env("PATH", hook_path())
        .env("STITCH_ROOT", root)
        // Its own process group, so that killing the group ends everything it started
        // that has not left it.
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(lang) = std::env::var_os("LANG") {
        command.env("LANG", lang);
    }
    let Ok(child) = command.spawn() else {
        return Decision::Deny {
            reason: format!("the authorize command `{}` could not be started", argv[0]),
        };
    };
    let (status, stdout, stderr) =
        match bounded::run(child, payload.to_string().as_bytes(), timeout) {
            Ended::Exited {
                status,
                stdout,
                stderr,
            } => (status, stdout, stderr),
            Ended::TimedOut => {
                return Decision::Deny {
                    reason: format!(
                        "the authorize command did not answer within {:.0} s",
                        timeout.as_secs_f64()
                    ),
                }
            }
        };
    if status.success() {
        return Decision::Allow;
    }
    let reason = first_line(&stderr)
        .or_else(|| first_line(&stdout))
        .unwrap_or_else(|| match status.code() {
            Some(code) => format!("the authorize command refused (exit status {code})"),
            None => "the authorize command was killed by a signal".into(),
        });
    Decision::Deny { reason }
}
