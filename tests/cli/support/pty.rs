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

/// Runs `cmd` with a terminal on stdout (stdin empty, stderr piped): its exit status, what
/// it printed to the terminal (the terminal's `\r\n` made `\n` again), and its stderr.
pub fn run_on_terminal(mut cmd: Command) -> (Option<i32>, String, String) {
    use std::io::Read;
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).expect("openpt");
    grantpt(&master).expect("grantpt");
    unlockpt(&master).expect("unlockpt");
    let name = ptsname(&master, Vec::new()).expect("ptsname");
    let slave = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(name.to_str().expect("a UTF-8 pty name"))
        .expect("open the pty's terminal end");
    cmd.stdin(Stdio::null())
        .stdout(Stdio::from(slave))
        .stderr(Stdio::piped());
    let child = cmd.spawn().expect("run stitch with a terminal on stdout");
    // The parent's copy of the terminal end goes with `cmd`, so the reader below sees the
    // end once the child exits.
    drop(cmd);
    let mut master = std::fs::File::from(master);
    // Drained while the child runs, so a long output never fills the terminal's buffer;
    // once every writer is gone, reading fails with EIO.
    let reader = std::thread::spawn(move || {
        let mut shown = Vec::new();
        let mut buffer = [0u8; 4096];
        while let Ok(n) = master.read(&mut buffer) {
            if n == 0 {
                break;
            }
            shown.extend_from_slice(&buffer[..n]);
        }
        shown
    });
    let output = child.wait_with_output().expect("wait for stitch");
    let shown = reader.join().expect("the terminal reader");
    (
        output.status.code(),
        String::from_utf8_lossy(&shown).replace("\r\n", "\n"),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
