//! `TestWorkspace`: a temporary root with helpers to lay out files and run `stitch`.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// A temporary directory holding the workspace root (`ws/`) and, beside it, a place for
/// files that must stay out of reach (`outside/`).
pub struct TestWorkspace {
    dir: tempfile::TempDir,
}

impl TestWorkspace {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        fs::create_dir(dir.path().join("ws")).unwrap();
        fs::create_dir(dir.path().join("outside")).unwrap();
        TestWorkspace { dir }
    }

    /// The workspace root.
    pub fn root(&self) -> PathBuf {
        self.dir.path().join("ws")
    }

    /// A directory beside the root, outside it.
    pub fn outside(&self) -> PathBuf {
        self.dir.path().join("outside")
    }

    /// Writes a file below the root, creating parents.
    pub fn file(&self, rel: &str, content: impl AsRef<[u8]>) -> &Self {
        let path = self.root().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, content).unwrap();
        self
    }

    /// Creates a directory below the root.
    pub fn dir(&self, rel: &str) -> &Self {
        fs::create_dir_all(self.root().join(rel)).unwrap();
        self
    }

    /// Creates a symlink at `rel` (below the root) pointing to `target` verbatim.
    pub fn symlink(&self, target: impl AsRef<Path>, rel: &str) -> &Self {
        let path = self.root().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, path).unwrap();
        self
    }

    /// The bytes of a file below the root.
    pub fn read(&self, rel: &str) -> Vec<u8> {
        fs::read(self.root().join(rel)).unwrap()
    }

    /// The text of a file below the root.
    pub fn read_string(&self, rel: &str) -> String {
        String::from_utf8(self.read(rel)).unwrap()
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.root().join(rel).symlink_metadata().is_ok()
    }

    /// A `stitch` command with a cleared environment, run in and rooted at the workspace.
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin!("stitch"));
        cmd.env_clear()
            .current_dir(self.root())
            .arg("--root")
            .arg(self.root());
        cmd
    }

    /// Runs `stitch <command> --json` with `args` as the JSON request on stdin.
    pub fn stitch(&self, command: &str, args: Value) -> Run {
        let mut cmd = self.cmd();
        cmd.arg(command).arg("--json").write_stdin(args.to_string());
        Run::from(cmd)
    }

    /// Runs `stitch` with command-line arguments, stdin empty.
    pub fn run(&self, args: &[&str]) -> Run {
        let mut cmd = self.cmd();
        cmd.args(args).write_stdin("");
        Run::from(cmd)
    }
}

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
        let output = cmd.output().expect("run stitch");
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
}

impl Run {
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
        let expected_status = match code {
            "INVALID_ARGUMENT" | "INVALID_PATH" | "INVALID_PATTERN" => 2,
            "INTERNAL_SERVER_ERROR" => 3,
            _ => 1,
        };
        assert_eq!(self.status, expected_status, "{}", self.stdout);
        if !matches!(code, "NOT_TEXT" | "DENIED" | "INTERNAL_SERVER_ERROR") {
            let hint = e["_hint"].as_str().expect("_hint on an actionable refusal");
            assert!(!hint.is_empty());
        }
        &e["details"]
    }

    /// The `_hint`.
    pub fn hint(&self) -> &str {
        self.envelope["_hint"].as_str().unwrap_or_default()
    }
}
