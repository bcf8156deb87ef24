//! A pseudo-terminal on stdin, for what only a person at a terminal may do (`stitch
//! config trust`): the child sees a terminal on fd 0 and reads the answer typed into it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};

/// Runs `cmd` with a terminal on stdin, `typed` already typed into it, and stdout and
/// stderr piped.
pub fn run_with_terminal(mut cmd: Command, typed: &[u8]) -> Output {
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).expect("openpt");
    grantpt(&master).expect("grantpt");
    unlockpt(&master).expect("unlockpt");
    let name = ptsname(&master, Vec::new()).expect("ptsname");
    let slave = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(name.to_str().expect("a UTF-8 pty name"))
        .expect("open the pty's terminal end");
    let mut master = std::fs::File::from(master);
    // The terminal's line discipline keeps the line until the child reads it.
    master.write_all(typed).expect("type into the pty");
    cmd.stdin(Stdio::from(slave))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let output = cmd.output().expect("run stitch with a terminal on stdin");
    drop(master);
    output
}
