//! A bound on a child's address space, so that a test can show that a call stays within
//! it — and that a call asked for more than it can have refuses with an envelope rather
//! than letting the allocator abort the process.

use std::os::unix::process::CommandExt;
use std::process::Command;

use rustix::process::{setrlimit, Resource, Rlimit};

/// Limits `cmd`'s child to `bytes` of address space (`RLIMIT_AS`), set between fork and
/// exec and inherited across exec.
// `pre_exec` is unsafe because the closure runs in the forked child: it may only make
// async-signal-safe calls. It makes one setrlimit(2) call and allocates nothing.
#[allow(unsafe_code)]
pub fn limit_address_space(cmd: &mut Command, bytes: u64) {
    let limit = Rlimit {
        current: Some(bytes),
        maximum: Some(bytes),
    };
    unsafe {
        cmd.pre_exec(move || setrlimit(Resource::As, limit).map_err(std::io::Error::from));
    }
}

/// Runs `cmd` (stdin empty) under GNU time(1) and returns its output and its peak
/// resident set size in bytes, `None` where `/usr/bin/time` is missing. time(1) is the
/// host's measure, not the test's: the kernel's figure for a child forked from this
/// (large, many-threaded) test process would include the pages the fork copied.
/// `setup` adjusts the time(1) command (a bound on its address space, which stitch
/// inherits across exec).
pub fn run_measured(
    cmd: &Command,
    setup: impl FnOnce(&mut Command),
) -> (std::process::Output, Option<u64>) {
    let time = std::path::Path::new("/usr/bin/time");
    if !time.exists() {
        let mut plain = rebuilt(cmd, cmd.get_program());
        setup(&mut plain);
        return (plain.output().expect("run"), None);
    }
    let report = tempfile::NamedTempFile::new().expect("a file for time's report");
    let mut timed = rebuilt(cmd, time.as_os_str());
    timed
        .args(["-f", "%M", "-o"])
        .arg(report.path())
        .arg(cmd.get_program())
        .args(cmd.get_args());
    setup(&mut timed);
    let output = timed.output().expect("run under time(1)");
    let text = std::fs::read_to_string(report.path()).unwrap_or_default();
    // time(1) reports KiB, on the last line (after a note of a signal, if any).
    let peak = text
        .lines()
        .last()
        .and_then(|line| line.trim().parse::<u64>().ok())
        .map(|kib| kib * 1024);
    (output, peak)
}

/// A command running `program` with `cmd`'s environment and working directory (its
/// arguments are the caller's to add), stdin empty, stdout and stderr piped.
fn rebuilt(cmd: &Command, program: &std::ffi::OsStr) -> Command {
    let mut out = Command::new(program);
    out.env_clear();
    for (key, value) in cmd.get_envs() {
        if let Some(value) = value {
            out.env(key, value);
        }
    }
    if let Some(dir) = cmd.get_current_dir() {
        out.current_dir(dir);
    }
    if program == cmd.get_program() {
        out.args(cmd.get_args());
    }
    out.stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    out
}
