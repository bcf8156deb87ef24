//! `TestWorkspace`: a temporary root, a place outside it, helpers to lay out files, and
//! the one builder of `stitch` commands every test runs.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use assert_cmd::Command;
use serde_json::Value;

use super::seccomp;
use super::Run;

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
        fs::create_dir(dir.path().join("home")).unwrap();
        // The journal's key, as the first journaled change would make it: the suites that
        // check nothing outside the root changes see it there from the start.
        let key_dir = dir.path().join("home/data/stitch");
        fs::create_dir_all(&key_dir).unwrap();
        let key: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(37) ^ 0x5a).collect();
        fs::write(key_dir.join("key"), key).unwrap();
        fs::set_permissions(key_dir.join("key"), fs::Permissions::from_mode(0o600)).unwrap();
        let no_openat2 = std::env::var_os(WITHOUT_OPENAT2_ENV).is_some_and(|v| v == "1");
        TestWorkspace { dir, no_openat2 }
    }

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

    /// The workspace root.
    pub fn root(&self) -> PathBuf {
        self.dir.path().join("ws")
    }

    /// The absolute path of `rel` below the root.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    /// The home directory every `stitch` of this workspace runs with (`HOME`, and the
    /// XDG directories below it): a temporary folder, never the real home.
    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// Where the user's own config lives for this workspace's `stitch`.
    pub fn user_config_path(&self) -> PathBuf {
        self.home().join("config/stitch/config.json")
    }

    /// Writes the user's own config (`$XDG_CONFIG_HOME/stitch/config.json`).
    pub fn user_config(&self, value: &Value) -> &Self {
        let path = self.user_config_path();
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, value.to_string()).unwrap();
        self
    }

    /// Trusts the workspace's config as a person does: `stitch config trust` with a
    /// terminal on stdin, answered `y`. Panics unless it says it trusted.
    pub fn trust(&self) -> &Self {
        let mut cmd = self.std_cmd();
        cmd.args(["config", "trust"]);
        let output = super::run_with_terminal(cmd, b"y\n");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success() && stderr.contains("Trusted .stitch/config.json"),
            "config trust failed: {stderr}"
        );
        self
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

    /// Whether anything (a dangling symlink included) is at `rel` below the root.
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

    /// The one builder of `stitch` commands: a plain `std` command with a cleared
    /// environment, run in and rooted at the workspace, with `openat2` refused when this
    /// workspace asks for it, and no stdio set up. The other builders start here.
    pub fn std_cmd(&self) -> std::process::Command {
        self.std_cmd_at(&self.root())
    }

    /// [`TestWorkspace::std_cmd`] rooted (and run) at `root` instead, with this
    /// workspace's home: for a workspace that was moved.
    pub fn std_cmd_at(&self, root: &Path) -> std::process::Command {
        let mut cmd = std::process::Command::new(stitch_bin());
        let home = self.home();
        cmd.env_clear()
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_DATA_HOME", home.join("data"))
            .env("XDG_STATE_HOME", home.join("state"))
            .env("XDG_CACHE_HOME", home.join("cache"))
            .current_dir(root)
            .arg("--root")
            .arg(root);
        if self.no_openat2 {
            seccomp::refuse_openat2(&mut cmd);
        }
        cmd
    }

    /// [`TestWorkspace::std_cmd`] as an `assert_cmd` command, for `write_stdin` and
    /// timeouts.
    pub fn cmd(&self) -> Command {
        Command::from_std(self.std_cmd())
    }

    /// [`TestWorkspace::std_cmd`] with stdin empty and stdout and stderr piped, for tests
    /// that spawn processes and wait for them (or kill them) themselves.
    pub fn spawnable(&self) -> std::process::Command {
        let mut cmd = self.std_cmd();
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
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

    /// The id of the newest change in the journal, as `stitch history` lists it.
    pub fn newest_change(&self) -> String {
        let history = self.run(&["history", "--limit", "1"]);
        history.envelope["data"]["changes"][0]["id"]
            .as_str()
            .expect("a change in the journal")
            .to_owned()
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

/// The `stitch` binary this test build made.
fn stitch_bin() -> &'static Path {
    assert_cmd::cargo::cargo_bin!("stitch")
}
