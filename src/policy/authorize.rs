//! The authorize hook: a command the workspace owner names, run before every mutation
//! with a JSON payload on stdin. Exit 0 allows; anything else, a failure to start, or a
//! timeout denies.
//!
//! It runs with the root as its working directory and a clean environment: only
//! `PATH` (the caller's, or a default), `LANG` when set, and `STITCH_ROOT`.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The hook's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Allow,
    Deny { reason: String },
}

/// How much of the hook's output is kept, to find its reason.
const OUTPUT_CAP: u64 = 64 * 1024;

fn reader(stream: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(stream) = stream {
            let mut bytes = Vec::new();
            let _ = stream.take(OUTPUT_CAP).read_to_end(&mut bytes);
            text = String::from_utf8_lossy(&bytes).into_owned();
        }
        text
    })
}

fn first_line(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_owned)
}

/// Runs the hook `argv` in `root` with `payload` on stdin, waiting up to `timeout`.
#[must_use]
pub fn authorize(argv: &[String], root: &Path, payload: &Value, timeout: Duration) -> Verdict {
    let Some(program) = argv.first() else {
        return Verdict::Deny {
            reason: "the authorize command is empty".into(),
        };
    };
    // A relative program with a `/` is relative to the root, not to the caller's cwd.
    let program = if program.contains('/') && !program.starts_with('/') {
        root.join(program)
    } else {
        program.into()
    };
    let mut command = Command::new(&program);
    command
        .args(&argv[1..])
        .current_dir(root)
        .env_clear()
        .env(
            "PATH",
            std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into()),
        )
        .env("STITCH_ROOT", root)
        // Its own process group, so that a timeout ends everything it started.
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(lang) = std::env::var_os("LANG") {
        command.env("LANG", lang);
    }
    let Ok(mut child) = command.spawn() else {
        return Verdict::Deny {
            reason: format!("the authorize command `{}` could not be started", argv[0]),
        };
    };
    let input = payload.to_string();
    let stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(mut stdin) = stdin {
            // A hook that exits without reading its stdin is still answering.
            let _ = stdin.write_all(input.as_bytes());
        }
    });
    let out = reader(child.stdout.take());
    let err = reader(child.stderr.take());
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() >= timeout => {
                if let Some(group) = rustix::process::Pid::from_raw(child.id().cast_signed()) {
                    let _ =
                        rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
                }
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(_) => break None,
        }
    };
    let _ = writer.join();
    let Some(status) = status else {
        return Verdict::Deny {
            reason: format!(
                "the authorize command did not answer within {:.0} s",
                timeout.as_secs_f64()
            ),
        };
    };
    if status.success() {
        return Verdict::Allow;
    }
    let stderr = err.join().unwrap_or_default();
    let stdout = out.join().unwrap_or_default();
    let reason = first_line(&stderr)
        .or_else(|| first_line(&stdout))
        .unwrap_or_else(|| match status.code() {
            Some(code) => format!("the authorize command refused (exit status {code})"),
            None => "the authorize command was killed by a signal".into(),
        });
    Verdict::Deny { reason }
}
