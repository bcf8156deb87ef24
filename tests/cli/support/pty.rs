//! Pseudo-terminals for a child: on stdin, for what only a person at a terminal may do
//! (`stitch config trust` reads the answer typed into it), and on stdout and stderr, for
//! what a person at a terminal sees.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};

/// Runs `cmd` with a terminal on stdin, `typed` already typed into it, and stdout and
/// stderr piped.
pub fn run_with_terminal(mut cmd: Command, typed: &[u8]) -> Output {
    let (mut master, slave) = pty();
    // The terminal's line discipline keeps the line until the child reads it.
    master.write_all(typed).expect("type into the pty");
    cmd.stdin(Stdio::from(slave))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let output = cmd.output().expect("run stitch with a terminal on stdin");
    drop(master);
    output
}

/// What a child printed to its terminals, and how it ended.
pub struct OnTerminal {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub status: std::process::ExitStatus,
}

/// A fresh pseudo-terminal: the controlling end, and the terminal end a child writes to.
fn pty() -> (std::fs::File, std::fs::File) {
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).expect("openpt");
    grantpt(&master).expect("grantpt");
    unlockpt(&master).expect("unlockpt");
    let name = ptsname(&master, Vec::new()).expect("ptsname");
    let slave = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(name.to_str().expect("a UTF-8 pty name"))
        .expect("open the pty's terminal end");
    (std::fs::File::from(master), slave)
}

/// Everything written to a terminal until its last writer closes it (the kernel says
/// EIO then), with the line discipline's `\r\n` turned back into `\n`.
fn drain(mut master: std::fs::File) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        use std::io::Read;
        let mut bytes = Vec::new();
        let mut buffer = [0u8; 4096];
        while let Ok(n) = master.read(&mut buffer) {
            if n == 0 {
                break;
            }
            bytes.extend_from_slice(&buffer[..n]);
        }
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                i += 1;
                continue;
            }
            out.push(bytes[i]);
            i += 1;
        }
        out
    })
}

/// Runs `cmd` with a terminal on stdout and another on stderr (stdin empty), as a person
/// at a terminal runs it, and returns what each terminal showed.
pub fn run_on_terminals(mut cmd: Command) -> OnTerminal {
    let (out_master, out_slave) = pty();
    let (err_master, err_slave) = pty();
    cmd.stdin(Stdio::null())
        .stdout(Stdio::from(out_slave))
        .stderr(Stdio::from(err_slave));
    let mut child = cmd.spawn().expect("run stitch on terminals");
    // The child holds the terminal ends now: dropping the command closes ours, so the
    // drains end when the child does.
    drop(cmd);
    let (stdout, stderr) = (drain(out_master), drain(err_master));
    let status = child.wait().expect("wait for stitch");
    OnTerminal {
        stdout: stdout.join().expect("stdout drain"),
        stderr: stderr.join().expect("stderr drain"),
        status,
    }
}

/// Runs `cmd` with a terminal on stdout only (stdin empty, stderr piped): its exit status,
/// what the terminal showed, and its stderr.
pub fn run_on_terminal(mut cmd: Command) -> (Option<i32>, String, String) {
    let (master, slave) = pty();
    cmd.stdin(Stdio::null())
        .stdout(Stdio::from(slave))
        .stderr(Stdio::piped());
    let child = cmd.spawn().expect("run stitch with a terminal on stdout");
    drop(cmd);
    let shown = drain(master);
    let output = child.wait_with_output().expect("wait for stitch");
    let shown = shown.join().expect("stdout drain");
    (
        output.status.code(),
        String::from_utf8_lossy(&shown).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Runs `cmd` with stdout and stderr on one terminal (stdin empty), as a person's
/// terminal shows both: its exit status, and everything in the order it was written.
pub fn run_on_one_terminal(mut cmd: Command) -> (Option<i32>, String) {
    let (master, slave) = pty();
    let err = slave.try_clone().expect("a second handle on the terminal");
    cmd.stdin(Stdio::null())
        .stdout(Stdio::from(slave))
        .stderr(Stdio::from(err));
    let mut child = cmd.spawn().expect("run stitch on one terminal");
    drop(cmd);
    let shown = drain(master);
    let status = child.wait().expect("wait for stitch");
    let shown = shown.join().expect("terminal drain");
    (status.code(), String::from_utf8_lossy(&shown).into_owned())
}
