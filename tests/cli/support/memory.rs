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

/// Runs `cmd` (stdout and stderr piped, stdin empty) and returns its output and its peak
/// resident set size in bytes, as wait4(2) reports it for that one child.
// wait4(2) fills the two structures it is handed; nothing else is unsafe here. It also
// reaps the child, which std's `wait` would otherwise do.
#[allow(unsafe_code, clippy::zombie_processes)]
pub fn run_measured(cmd: &mut Command) -> (std::process::Output, u64) {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    let mut child = cmd
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("stderr")));
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    let mut status: libc::c_int = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &raw mut status, 0, &raw mut usage) };
    assert_eq!(waited, pid, "wait4");
    let output = std::process::Output {
        status: std::process::ExitStatus::from_raw(status),
        stdout: stdout.join().expect("stdout"),
        stderr: stderr.join().expect("stderr"),
    };
    // Linux reports ru_maxrss in KiB.
    (output, u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024)
}
