//! `McpServer`: one `stitch mcp` process driven over pipes with raw JSON-RPC, as a host
//! drives it. Every line it prints on stdout must be one JSON-RPC message; replies are
//! matched to requests by ID, and a reply that never comes fails the test after a bound
//! instead of hanging it.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::TestWorkspace;

/// How long a reply may take before the test fails.
const REPLY_BOUND: Duration = Duration::from_secs(20);

/// A running `stitch mcp`.
pub struct McpServer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Messages read but not yet asked for.
    pending: VecDeque<Value>,
    stderr: Arc<Mutex<String>>,
    next_id: i64,
}

impl McpServer {
    /// Starts `stitch --root <ws> mcp <args>` with `env` on top of the cleared environment.
    pub fn start(ws: &TestWorkspace, args: &[&str], env: &[(&str, &str)]) -> McpServer {
        McpServer::start_with(ws, args, env, |_| {})
    }

    /// Starts the server as [`McpServer::start`] does, with `setup` adjusting the command
    /// first (a bound on its address space).
    pub fn start_with(
        ws: &TestWorkspace,
        args: &[&str],
        env: &[(&str, &str)],
        setup: impl FnOnce(&mut std::process::Command),
    ) -> McpServer {
        let mut cmd = ws.std_cmd();
        setup(&mut cmd);
        cmd.arg("mcp")
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("spawn stitch mcp");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err = child.stderr.take().unwrap();
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    return;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        McpServer {
            stdin: child.stdin.take(),
            child,
            lines,
            pending: VecDeque::new(),
            stderr,
            next_id: 1,
        }
    }

    /// Writes one raw line (a newline is added).
    pub fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// Writes one message.
    pub fn send(&mut self, message: &Value) {
        self.send_line(&message.to_string());
    }

    /// Sends a request with a fresh numeric ID and returns the ID.
    pub fn request(&mut self, method: &str, params: &Value) -> Value {
        let id = json!(self.next_id);
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// Sends a notification.
    pub fn notify(&mut self, method: &str, params: &Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next message on stdout, or `None` when none comes within `bound`. Every line
    /// must be one JSON-RPC 2.0 message.
    pub fn next_message(&mut self, bound: Duration) -> Option<Value> {
        if let Some(message) = self.pending.pop_front() {
            return Some(message);
        }
        match self.lines.recv_timeout(bound) {
            Ok(line) => {
                let message: Value = serde_json::from_str(&line).unwrap_or_else(|e| {
                    panic!("stdout holds a line that is not JSON ({e}): {line:?}")
                });
                assert_eq!(message["jsonrpc"], "2.0", "{line}");
                Some(message)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The reply to request `id`; other messages read meanwhile are kept for later.
    #[track_caller]
    pub fn reply(&mut self, id: &Value) -> Value {
        let deadline = Instant::now() + REPLY_BOUND;
        let mut skipped = VecDeque::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(message) = self.next_message(left) else {
                panic!(
                    "no reply to request {id} within {REPLY_BOUND:?}; stderr: {}",
                    self.stderr()
                );
            };
            if &message["id"] == id && message.get("method").is_none() {
                skipped.extend(self.pending.drain(..));
                self.pending = skipped;
                return message;
            }
            skipped.push_back(message);
        }
    }

    /// Sends a request and returns its reply's `result`, asserting there is one.
    #[track_caller]
    pub fn result(&mut self, method: &str, params: &Value) -> Value {
        let id = self.request(method, params);
        let reply = self.reply(&id);
        assert!(reply.get("error").is_none(), "{method} failed: {reply}");
        reply["result"].clone()
    }

    /// Sends a request and returns its reply's `error`, asserting there is one.
    #[track_caller]
    pub fn error(&mut self, method: &str, params: &Value) -> Value {
        let id = self.request(method, params);
        let reply = self.reply(&id);
        assert!(reply.get("result").is_none(), "{method} succeeded: {reply}");
        reply["error"].clone()
    }

    /// `initialize` with `version`, then `notifications/initialized`; the result.
    pub fn initialize(&mut self, version: &str) -> Value {
        let result = self.result(
            "initialize",
            &json!({"protocolVersion": version, "capabilities": {},
                    "clientInfo": {"name": "stitch-tests", "version": "0"}}),
        );
        self.notify("notifications/initialized", &json!({}));
        result
    }

    /// Calls `tool` with `arguments`; the `CallToolResult`.
    #[track_caller]
    pub fn call(&mut self, tool: &str, arguments: &Value) -> Value {
        self.result("tools/call", &json!({"name": tool, "arguments": arguments}))
    }

    /// What the server has written to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Closes stdin and waits up to `bound` for the server to exit; its status, or
    /// `None` (and the server killed) when it did not exit in time.
    pub fn close(&mut self, bound: Duration) -> Option<ExitStatus> {
        drop(self.stdin.take());
        let deadline = Instant::now() + bound;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for McpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The envelope a `CallToolResult` carries in its one text item, parsed.
#[track_caller]
pub fn envelope_of(result: &Value) -> Value {
    let content = result["content"].as_array().expect("content is an array");
    assert_eq!(content.len(), 1, "one content item: {result}");
    assert_eq!(content[0]["type"], "text", "{result}");
    serde_json::from_str(content[0]["text"].as_str().unwrap()).expect("the text is the envelope")
}
