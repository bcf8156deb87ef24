//! `TestWorkspace`: a temporary root with helpers to lay out files and run `stitch`.

#![allow(dead_code)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use assert_cmd::Command;
use serde_json::Value;

// `openat2(2)` and seccomp(2) are Linux's. Elsewhere there is no `openat2` to refuse:
// every call already takes cap-std's portable walk, so refusing it changes nothing.
#[cfg(target_os = "linux")]
mod seccomp;
#[cfg(not(target_os = "linux"))]
mod seccomp {
    /// Nothing to do: this platform has no `openat2(2)`.
    pub fn refuse_openat2(_cmd: &mut std::process::Command) {}
}

#[cfg(target_os = "linux")]
pub use seccomp::refuse_openat2;

/// Set to `1` to run every `TestWorkspace`'s `stitch` with `openat2(2)` refused (see
/// [`TestWorkspace::without_openat2`]); the `fallback` module re-runs suites this way.
pub const WITHOUT_OPENAT2_ENV: &str = "STITCH_TEST_WITHOUT_OPENAT2";

/// A temporary directory holding the workspace root (`ws/`) and, beside it, a place for
/// files that must stay out of reach (`outside/`).
pub struct TestWorkspace {
    dir: tempfile::TempDir,
    /// Run `stitch` with `openat2(2)` failing as `ENOSYS`, so cap-std's fallback walk
    /// does the containment.
    no_openat2: bool,
}

impl TestWorkspace {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        fs::create_dir(dir.path().join("ws")).unwrap();
        fs::create_dir(dir.path().join("outside")).unwrap();
        let no_openat2 = std::env::var_os(WITHOUT_OPENAT2_ENV).is_some_and(|v| v == "1");
        TestWorkspace { dir, no_openat2 }
    }

    /// The workspace root.
    pub fn root(&self) -> PathBuf {
        self.dir.path().join("ws")
    }

    /// The absolute path of `rel` below the root.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    /// A directory beside the root, outside it.
    pub fn outside(&self) -> PathBuf {
        self.dir.path().join("outside")
    }

    /// A directory beside the root named `name` (such as `ws-evil`), created empty.
    pub fn beside(&self, name: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        fs::create_dir_all(&path).unwrap();
        path
    }

    /// Writes a file below the root, creating parents.
    pub fn file(&self, rel: &str, content: impl AsRef<[u8]>) -> &Self {
        let path = self.root().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, content).unwrap();
        self
    }

    /// Writes a file in `outside()` and returns its absolute path.
    pub fn outside_file(&self, name: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let path = self.outside().join(name);
        fs::write(&path, content).unwrap();
        path
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

    /// The permission bits of a file below the root.
    pub fn mode(&self, rel: &str) -> u32 {
        fs::metadata(self.root().join(rel))
            .unwrap()
            .permissions()
            .mode()
            & 0o7777
    }

    /// A `stitch` command with a cleared environment, run in and rooted at the workspace.
    pub fn cmd(&self) -> Command {
        let mut cmd = std::process::Command::new(stitch_bin());
        cmd.env_clear()
            .current_dir(self.root())
            .arg("--root")
            .arg(self.root());
        if self.no_openat2 {
            seccomp::refuse_openat2(&mut cmd);
        }
        Command::from_std(cmd)
    }

    /// The same as [`TestWorkspace::cmd`] as a plain `std` command, for tests that spawn
    /// processes and wait for them (or kill them) themselves; stdin is empty.
    pub fn spawnable(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(stitch_bin());
        cmd.env_clear()
            .current_dir(self.root())
            .arg("--root")
            .arg(self.root())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if self.no_openat2 {
            seccomp::refuse_openat2(&mut cmd);
        }
        cmd
    }

    /// Runs `stitch <command> --json` with `args` as the JSON request on stdin.
    pub fn stitch(&self, command: &str, args: &Value) -> Run {
        self.stitch_raw(command, args.to_string())
    }

    /// Runs `stitch <command> --json` with `stdin` as the raw request bytes.
    pub fn stitch_raw(&self, command: &str, stdin: impl Into<Vec<u8>>) -> Run {
        let mut cmd = self.cmd();
        cmd.arg(command).arg("--json").write_stdin(stdin.into());
        Run::from(cmd)
    }

    /// Runs `stitch` with command-line arguments, stdin empty.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with_stdin(args, "")
    }

    /// Runs `stitch` with command-line arguments and `stdin`.
    pub fn run_with_stdin(&self, args: &[&str], stdin: impl Into<Vec<u8>>) -> Run {
        let mut cmd = self.cmd();
        cmd.args(args).write_stdin(stdin.into());
        Run::from(cmd)
    }

    /// Runs `stitch` with command-line arguments and these environment variables set
    /// (on top of the cleared environment), stdin empty.
    pub fn run_with_env(&self, env: &[(&str, &str)], args: &[&str]) -> Run {
        let mut cmd = self.cmd();
        cmd.envs(env.iter().copied())
            .args(args)
            .write_stdin(Vec::new());
        Run::from(cmd)
    }
}

impl TestWorkspace {
    /// A workspace whose `stitch` runs with `openat2(2)` failing as `ENOSYS` (a seccomp
    /// filter installed before exec), as on a kernel older than 5.6.
    pub fn without_openat2() -> Self {
        let mut ws = TestWorkspace::new();
        ws.no_openat2 = true;
        ws
    }

    /// Whether this workspace's `stitch` runs without `openat2`.
    pub fn is_without_openat2(&self) -> bool {
        self.no_openat2
    }

    /// The temporary directory holding the root, `outside()` and `beside()` directories.
    pub fn base(&self) -> PathBuf {
        self.dir.path().to_owned()
    }

    /// A plain `std` command for `stitch` with the same environment, root and filter as
    /// [`TestWorkspace::cmd`], and no stdio set up.
    pub fn std_cmd(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(stitch_bin());
        cmd.env_clear()
            .current_dir(self.root())
            .arg("--root")
            .arg(self.root());
        if self.no_openat2 {
            seccomp::refuse_openat2(&mut cmd);
        }
        cmd
    }
}

/// Every entry below `dir`, recursively, by path relative to `dir`: file bytes, a link's
/// target, or nothing for a directory. Two snapshots differ when anything below changed.
/// Other filesystems mounted below (a test's procfs) are entered only when `dir` itself
/// is their root.
pub fn tree(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    use std::os::unix::fs::MetadataExt;
    fn walk(
        top: &Path,
        dev: u64,
        dir: &Path,
        into: &mut std::collections::BTreeMap<PathBuf, Vec<u8>>,
    ) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(top).unwrap().to_owned();
            let Ok(meta) = path.symlink_metadata() else {
                continue;
            };
            if meta.file_type().is_symlink() {
                let target = fs::read_link(&path).unwrap_or_default();
                into.insert(rel, target.into_os_string().into_encoded_bytes());
            } else if meta.is_dir() {
                into.insert(rel, Vec::new());
                if meta.dev() == dev {
                    walk(top, dev, &path, into);
                }
            } else if meta.is_file() {
                into.insert(rel, fs::read(&path).unwrap_or_default());
            } else {
                into.insert(rel, b"(special file)".to_vec());
            }
        }
    }
    let mut map = std::collections::BTreeMap::new();
    if let Ok(meta) = dir.metadata() {
        walk(dir, meta.dev(), dir, &mut map);
    }
    map
}

/// The `stitch` binary this test build made.
fn stitch_bin() -> &'static Path {
    assert_cmd::cargo::cargo_bin!("stitch")
}

/// The names in a directory, sorted.
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// The hex SHA-256 of `bytes`, computed by coreutils' `sha256sum` so that the digest the
/// tests expect does not come from the code under test.
pub fn sha256sum(bytes: &[u8]) -> String {
    let output = Command::new("sha256sum")
        .write_stdin(bytes.to_vec())
        .output()
        .expect("run sha256sum");
    assert!(output.status.success(), "sha256sum failed");
    let text = String::from_utf8(output.stdout).unwrap();
    text.split_whitespace().next().unwrap().to_owned()
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
        Run::from_output(cmd.output().expect("run stitch"))
    }
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

    /// `details.message`.
    pub fn message(&self) -> &str {
        self.envelope["details"]["message"]
            .as_str()
            .unwrap_or_default()
    }
}

/// Writes a line of a suite's figures, or of a case it skips and why, straight to
/// stderr: libtest captures `eprintln!` of passing tests, and these must show in every
/// run, `cargo test` without `--nocapture` included.
pub fn report(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}
