//! How a command line is taken: when stdin is read for JSON arguments (and that a silent
//! stdin is never waited on in silence), which options are tool arguments, and values
//! that begin with `-`.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::support::TestWorkspace;

mod hyphens;
mod newcomers;
mod start;
mod stdin;

/// How long any call here may take before the test calls it hung: far above the 2 s a
/// silent stdin is waited on, so that a slow machine never fails a test.
const HUNG_AFTER: Duration = Duration::from_secs(60);

/// A call whose stdin is a pipe the test holds: it writes when it chooses, and closes the
/// pipe only when it says so, or after the call has exited.
struct Held {
    child: Child,
    stdin: Option<ChildStdin>,
    stderr: Receiver<String>,
    stderr_reader: JoinHandle<()>,
    stdout_reader: JoinHandle<Vec<u8>>,
}

impl Held {
    fn spawn(ws: &TestWorkspace, args: &[&str]) -> Self {
        let mut child = ws
            .std_cmd()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn stitch");
        let stdin = child.stdin.take();
        let mut out = child.stdout.take().unwrap();
        let err = child.stderr.take().unwrap();
        let (lines, stderr) = mpsc::channel();
        let stderr_reader = std::thread::spawn(move || {
            for line in BufReader::new(err).lines() {
                let Ok(line) = line else { return };
                if lines.send(line).is_err() {
                    return;
                }
            }
        });
        let stdout_reader = std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = out.read_to_end(&mut bytes);
            bytes
        });
        Held {
            child,
            stdin,
            stderr,
            stderr_reader,
            stdout_reader,
        }
    }

    /// The next line stitch prints on stderr, waiting for it.
    fn stderr_line(&mut self) -> String {
        let Ok(line) = self.stderr.recv_timeout(HUNG_AFTER) else {
            let _ = self.child.kill();
            panic!("no line on stderr within {HUNG_AFTER:?}");
        };
        line
    }

    /// Writes `bytes` to stdin and closes it.
    fn send_and_close(&mut self, bytes: &[u8]) {
        let mut stdin = self.stdin.take().expect("stdin still open");
        stdin.write_all(bytes).unwrap();
    }

    /// Waits for the call to end, stdin still held open if the test never closed it,
    /// and returns what it printed (stderr: the lines not yet taken by
    /// [`Held::stderr_line`]).
    fn finish(mut self) -> Output {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > HUNG_AFTER {
                let _ = self.child.kill();
                panic!("stitch did not end within {HUNG_AFTER:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        drop(self.stdin.take());
        let stdout = self.stdout_reader.join().unwrap();
        self.stderr_reader.join().unwrap();
        let stderr: String = self.stderr.try_iter().map(|line| line + "\n").collect();
        Output {
            status,
            stdout,
            stderr: stderr.into_bytes(),
        }
    }
}
