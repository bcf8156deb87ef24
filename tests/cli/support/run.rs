//! `Run`: what one call printed (its envelope, exit status and stderr), with the
//! assertions on a success or a refusal that do not need the whole envelope.

use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

/// What one call printed: the parsed envelope, the exit status, stderr.
#[derive(Debug)]
pub struct Run {
    pub envelope: Value,
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Command> for Run {
    fn from(mut cmd: Command) -> Self {
        Run::from_output(cmd.output().expect("run stitch"))
    }
}

/// The exit status that goes with a refusal `code`: 2 for a malformed call, 3 for an
/// internal failure, 1 for every other refusal.
pub fn exit_status(code: &str) -> i32 {
    match code {
        "INVALID_ARGUMENT" | "INVALID_PATH" | "INVALID_PATTERN" | "INVALID_PATCH" => 2,
        "INTERNAL_SERVER_ERROR" => 3,
        _ => 1,
    }
}

/// Whether a refusal with `code` carries a `_hint`: every code a caller can act on does.
pub fn has_hint(code: &str) -> bool {
    !matches!(code, "NOT_TEXT" | "DENIED" | "INTERNAL_SERVER_ERROR")
}

impl Run {
    /// Parses a finished call's output, asserting that stdout is one JSON line.
    pub fn from_output(output: Output) -> Self {
        let stdout = String::from_utf8(output.stdout).expect("stdout is UTF-8");
        assert!(stdout.ends_with('\n'), "one line and a newline: {stdout:?}");
        assert_eq!(
            stdout.matches('\n').count(),
            1,
            "exactly one line: {stdout:?}"
        );
        let envelope: Value = serde_json::from_str(&stdout).expect("stdout is one JSON object");
        Run {
            envelope,
            status: output.status.code().unwrap_or(-1),
            stdout,
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// Asserts success (exit 0) and returns `data`.
    #[track_caller]
    pub fn ok(&self) -> &Value {
        assert_eq!(
            self.envelope["ok"], true,
            "expected success: {}",
            self.stdout
        );
        assert_eq!(self.status, 0, "{}", self.stdout);
        &self.envelope["data"]
    }

    /// Asserts a refusal with `code` and the exit status that goes with it, that
    /// `details.message` is a non-empty sentence, and that `_hint` is present unless the
    /// code has none; returns `details`.
    #[track_caller]
    pub fn refused(&self, code: &str) -> &Value {
        let e = &self.envelope;
        assert_eq!(e["ok"], false, "{}", self.stdout);
        assert_eq!(e["error"], code, "{}", self.stdout);
        let message = e["details"]["message"].as_str().expect("details.message");
        assert!(!message.is_empty(), "{}", self.stdout);
        assert_eq!(self.status, exit_status(code), "{}", self.stdout);
        if has_hint(code) {
            let hint = e["_hint"].as_str().expect("_hint on an actionable refusal");
            assert!(!hint.is_empty());
        }
        &e["details"]
    }

    /// The `_hint`.
    pub fn hint(&self) -> &str {
        self.envelope["_hint"].as_str().unwrap_or_default()
    }

    /// `details.message`.
    pub fn message(&self) -> &str {
        self.envelope["details"]["message"]
            .as_str()
            .unwrap_or_default()
    }
}
