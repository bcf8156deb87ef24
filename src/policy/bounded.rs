//! Running a child to a deadline, whatever it or its descendants do with their pipes.
//!
//! The child leads its own process group (the caller spawns it with `process_group(0)`).
//! One thread drives everything with poll(2): the input is written without blocking,
//! output is read as it arrives, and the child's exit wakes the loop through a pidfd
//! (pidfd_open(2), Linux 5.3; older kernels and other platforms fall back to a 10 ms
//! tick). No thread is
//! spawned, so nothing here can be left blocked on a pipe after the call returns.
//!
//! Guarantees: [`run`] returns within the timeout plus [`GRACE`] (and the moment SIGKILL
//! takes); the child's process group is killed with SIGKILL on timeout and as soon as
//! the child exits, so background children in the group are gone; each stream keeps at
//! most [`OUTPUT_CAP`] bytes. A descendant that leaves the group (setsid(2)) is not
//! killed, but holding the pipes open costs the call at most [`GRACE`].

use std::os::fd::OwnedFd;
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::io::Errno;
use rustix::process::{Pid, Signal, WaitId, WaitIdOptions};

/// How much of each output stream is kept.
pub const OUTPUT_CAP: usize = 64 * 1024;

/// How long output may keep draining after the child exits: what it wrote is already in
/// the pipe, and a descendant outside the group may hold the pipe open forever.
pub const GRACE: Duration = Duration::from_millis(150);

/// How often the exit is checked when the kernel has no pidfd to wake the loop.
const TICK: Duration = Duration::from_millis(10);

/// How a run ended.
pub enum Ended {
    /// The child exited; its output as far as it was read (lossy UTF-8).
    Exited {
        status: ExitStatus,
        stdout: String,
        stderr: String,
    },
    /// The deadline passed first; the group was killed.
    TimedOut,
}

/// One output pipe and what has been read from it.
struct Capture {
    pipe: Option<OwnedFd>,
    bytes: Vec<u8>,
}

impl Capture {
    fn new(pipe: Option<impl Into<OwnedFd>>) -> Self {
        Capture {
            pipe: pipe.map(Into::into).filter(nonblocking),
            bytes: Vec::new(),
        }
    }

    /// Reads what is there. Bytes past the cap are read and dropped, so a chatty child is
    /// not blocked on a full pipe and still answers with its exit status.
    fn read(&mut self) {
        let Some(pipe) = &self.pipe else { return };
        let mut buf = [0u8; 16 * 1024];
        match rustix::io::read(pipe, &mut buf) {
            Ok(0) => self.pipe = None,
            Ok(n) => {
                let room = OUTPUT_CAP - self.bytes.len();
                self.bytes.extend_from_slice(&buf[..n.min(room)]);
            }
            Err(Errno::AGAIN | Errno::INTR) => {}
            Err(_) => self.pipe = None,
        }
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// Sets `O_NONBLOCK`, so a write or read never waits; a pipe that refuses is not used.
fn nonblocking(fd: &OwnedFd) -> bool {
    rustix::io::ioctl_fionbio(fd, true).is_ok()
}

/// Whether the child has exited, without reaping it: while it is a zombie its PID (the
/// group's ID) cannot be reused, so killing the group afterwards cannot hit a stranger.
fn has_exited(pid: Pid) -> bool {
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    !matches!(rustix::process::waitid(WaitId::Pid(pid), options), Ok(None))
}

/// What a ready poll entry stands for.
#[derive(Clone, Copy)]
enum Ready {
    Exit,
    Stdin,
    Stdout,
    Stderr,
}

/// The child's three pipes: the input still to write, and the output read so far.
struct Pipes<'a> {
    input: &'a [u8],
    stdin: Option<OwnedFd>,
    out: Capture,
    err: Capture,
}

impl Pipes<'_> {
    /// Whether output may still arrive.
    fn open(&self) -> bool {
        self.out.pipe.is_some() || self.err.pipe.is_some()
    }

    /// Waits up to `wait` for a pipe to be ready, or for `exit` (the child's pidfd) to
    /// signal the exit, and serves the pipes that are.
    fn serve(&mut self, exit: Option<&OwnedFd>, wait: Duration) {
        let mut fds = Vec::with_capacity(4);
        let mut slots = Vec::with_capacity(4);
        for (slot, fd, flags) in [
            (Ready::Exit, exit, PollFlags::IN),
            (Ready::Stdin, self.stdin.as_ref(), PollFlags::OUT),
            (Ready::Stdout, self.out.pipe.as_ref(), PollFlags::IN),
            (Ready::Stderr, self.err.pipe.as_ref(), PollFlags::IN),
        ] {
            if let Some(fd) = fd {
                fds.push(PollFd::new(fd, flags));
                slots.push(slot);
            }
        }
        let wait = Timespec::try_from(wait).unwrap_or_default();
        if poll(&mut fds, Some(&wait)).is_err() {
            return;
        }
        let ready: Vec<Ready> = (slots.iter().zip(&fds))
            .filter(|(_, fd)| !fd.revents().is_empty())
            .map(|(slot, _)| *slot)
            .collect();
        drop(fds);
        for slot in ready {
            match slot {
                // The caller sees the exit.
                Ready::Exit => {}
                Ready::Stdin => self.write(),
                Ready::Stdout => self.out.read(),
                Ready::Stderr => self.err.read(),
            }
        }
    }

    /// Writes what the pipe takes of the input; closes it when all is written (the end
    /// of the input the child reads) or when the child has closed its end.
    fn write(&mut self) {
        let Some(pipe) = &self.stdin else { return };
        match rustix::io::write(pipe, self.input) {
            Ok(n) => self.input = &self.input[n..],
            Err(Errno::AGAIN | Errno::INTR) => {}
            Err(_) => self.input = &[],
        }
        if self.input.is_empty() {
            self.stdin = None;
        }
    }
}

fn kill_group(pid: Pid) {
    let _ = rustix::process::kill_process_group(pid, Signal::KILL);
}

/// Runs `child` (its stdin, stdout and stderr piped) with `input` on its stdin until it
/// exits or `timeout` passes.
pub fn run(mut child: Child, input: &[u8], timeout: Duration) -> Ended {
    let deadline = Instant::now() + timeout;
    let pid = Pid::from_child(&child);
    let exit = crate::platform::exit_fd(pid);
    let mut pipes = Pipes {
        input,
        stdin: (child.stdin.take().map(OwnedFd::from))
            .filter(|fd| nonblocking(fd) && !input.is_empty()),
        out: Capture::new(child.stdout.take()),
        err: Capture::new(child.stderr.take()),
    };
    let mut drain_until = None;
    loop {
        let now = Instant::now();
        if let Some(until) = drain_until {
            if now >= until || !pipes.open() {
                break;
            }
            pipes.serve(None, until - now);
        } else if has_exited(pid) {
            kill_group(pid);
            // A child that exits without reading its input is still answering.
            pipes.stdin = None;
            drain_until = Some(now + GRACE);
        } else if now >= deadline {
            kill_group(pid);
            let _ = child.wait();
            return Ended::TimedOut;
        } else if exit.is_some() {
            pipes.serve(exit.as_ref(), deadline - now);
        } else {
            pipes.serve(None, (deadline - now).min(TICK));
        }
    }
    // The child has exited and its group is killed: this reaps a zombie, at once.
    match child.wait() {
        Ok(status) => Ended::Exited {
            status,
            stdout: pipes.out.text(),
            stderr: pipes.err.text(),
        },
        Err(_) => Ended::TimedOut,
    }
}
