//! `stitch mcp`: the tools of the registry served to a Model Context Protocol host over stdio
//! (newline-delimited JSON-RPC 2.0) until stdin closes. A front end like the command
//! line: each `tools/call` becomes [`Settings`] and one JSON object of arguments for the
//! tool layer, and its envelope becomes the call's result.
//!
//! The root and the session are fixed at start-up; nothing a client sends moves them.
//! Stdout carries protocol messages only; anything for people goes to stderr. A line
//! that is not JSON is a parse error and the server reads on; a bug in one call is that
//! call's `INTERNAL_SERVER_ERROR`. Calls run concurrently, each on its own thread, and
//! take the same cross-process locks as command-line calls.

mod blocks;
mod calls;
mod inflight;
mod methods;
mod revision;
mod rpc;
mod wire;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::Value;

use crate::refusal::{Code, Failure};
use crate::tool::{self, Settings};
use inflight::InFlight;
use rpc::{Fault, Incoming};

/// The bound on one incoming line, beyond the largest arguments a tool takes.
const FRAMING: u64 = 64 << 10;

/// One connection's server: what every call shares.
#[derive(Debug)]
pub struct Server {
    settings: Settings,
    /// The root, opened once at start: every call works in this directory, whatever a
    /// client sends and whatever is renamed at its path meanwhile.
    root: crate::workspace::Workspace,
    out: wire::Writer,
    in_flight: InFlight,
    instructions: String,
    /// The bound on the next line read: from the limits in force at start, then at each
    /// call's start, so trusting or untrusting the workspace's config (or a changed
    /// limit) moves it as it moves every call's limits.
    line_limit: AtomicUsize,
}

impl Server {
    /// Handles one line of input. The line's bytes are freed once parsed, before the
    /// call they ask for starts.
    fn line(self: &Arc<Self>, bytes: Vec<u8>) {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        if !room_to_parse(&bytes) {
            self.fault(&Value::Null, &unserved());
            return;
        }
        let parsed = serde_json::from_slice::<Value>(&bytes);
        drop(bytes);
        let Ok(message) = parsed else {
            self.fault(
                &Value::Null,
                &Fault::new(rpc::PARSE_ERROR, "Parse error: the line is not JSON"),
            );
            return;
        };
        match rpc::classify(message) {
            Incoming::Request {
                id,
                method,
                mut params,
            } => match methods::request(self, &id, &method, &mut params) {
                Ok(methods::Reply::Now(result)) => self.out.send(&rpc::result(&id, result)),
                Ok(methods::Reply::Later) => {}
                Err(fault) => self.fault(&id, &fault),
            },
            Incoming::Notification { method, params } => {
                methods::notification(self, &method, &params);
            }
            Incoming::Response => {}
            Incoming::Invalid { id, reason } => {
                self.fault(
                    &id,
                    &Fault::new(rpc::INVALID_REQUEST, format!("Invalid request: {reason}")),
                );
            }
        }
    }

    fn fault(&self, id: &Value, fault: &Fault) {
        self.out.send(&rpc::error(id, fault));
    }

    /// Bounds the next lines by `limits`, the limits a call just found in force.
    fn follow(&self, limits: &crate::policy::Limits) {
        self.line_limit.store(max_line(limits), Ordering::Relaxed);
    }
}

/// Whether the process can hold a parsed copy of a large line beside the line itself (a
/// JSON value takes about as much as its text): serde_json's parse cannot fail softly
/// when memory runs out, so room is looked for first. Small lines are not looked at.
fn room_to_parse(bytes: &[u8]) -> bool {
    const SMALL: usize = 1 << 20;
    bytes.len() < SMALL || Vec::<u8>::new().try_reserve_exact(bytes.len()).is_ok()
}

/// The fault for a message this process has no memory to hold.
fn unserved() -> Fault {
    Fault::new(
        rpc::INTERNAL_ERROR,
        "Internal error: the server has no memory to hold this message; send a smaller one",
    )
}

/// Serves until stdin closes; exit status 0 then, 2 when the settings cannot serve at
/// all (a root that is no directory, a malformed session ID).
#[must_use]
pub fn serve(mut settings: Settings, no_session: bool) -> u8 {
    quiet_panics();
    // Each file's latest trees stay in memory, so the syntax gate parses a later change
    // to them incrementally.
    crate::syntax::keep_trees();
    if no_session {
        settings.session = None;
    } else if settings.session.is_none() {
        settings.session = Some(fresh_session());
    }
    let opened = tool::open_root(&settings).and_then(|root| {
        let ctx = root
            .try_clone()
            .map_err(|e| anyhow::Error::new(e).context("the root"));
        Ok((tool::open_in(ctx?, &settings), root))
    });
    let (limits, root) = match opened {
        Ok((Ok(ctx), root)) => (ctx.limits, root),
        Err(Failure::Refused(refusal)) | Ok((Err(Failure::Refused(refusal)), _))
            if refusal.code() == Code::InvalidArgument =>
        {
            crate::envelope::stderr_line(&format!("stitch mcp: {}", refusal.message()));
            return crate::envelope::EXIT_INVALID;
        }
        // A malformed config or stitch's state: every call refuses it with INVALID_CONFIG
        // until the workspace owner fixes it, as on the command line. The person starting
        // the server is told at once.
        Ok((Err(failure), root)) => {
            if let Failure::Refused(refusal) = &failure {
                crate::envelope::stderr_line(&start_up_refusal(refusal));
            }
            (crate::policy::Limits::default(), root)
        }
        Err(_) => {
            crate::envelope::stderr_line("stitch mcp: the workspace root cannot be opened");
            return crate::envelope::EXIT_INTERNAL;
        }
    };
    let server = Arc::new(Server {
        instructions: instructions(settings.session.is_some()),
        settings,
        root,
        out: wire::Writer::default(),
        in_flight: InFlight::default(),
        line_limit: AtomicUsize::new(max_line(&limits)),
    });
    let mut reader = wire::Reader::new(std::io::stdin().lock());
    loop {
        match reader.next_line(&server.line_limit) {
            Ok(wire::Received::Message(bytes)) => {
                let handled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    server.line(bytes);
                }));
                if handled.is_err() {
                    server.fault(
                        &Value::Null,
                        &Fault::new(rpc::INTERNAL_ERROR, "Internal error"),
                    );
                }
            }
            Ok(wire::Received::TooLong) => {
                let limit = server.line_limit.load(Ordering::Relaxed);
                server.fault(
                    &Value::Null,
                    &Fault::new(
                        rpc::INVALID_REQUEST,
                        format!("Invalid request: the message is longer than {limit} bytes"),
                    ),
                );
            }
            Ok(wire::Received::Unserved) => server.fault(&Value::Null, &unserved()),
            Ok(wire::Received::End) | Err(_) => break,
        }
    }
    server.in_flight.cancel_all();
    server.in_flight.drain();
    0
}

/// The bound on one line: the largest arguments any tool takes, and room for the rest.
fn max_line(limits: &crate::policy::Limits) -> usize {
    let largest = crate::tool::registry::TOOLS
        .iter()
        .map(|t| tool::arguments_limit(t, limits))
        .max()
        .unwrap_or(0);
    usize::try_from(largest.saturating_add(FRAMING)).unwrap_or(usize::MAX)
}

/// A session ID of its own for this connection: the process and the moment it started.
fn fresh_session() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("mcp-{}-{nanos:x}", std::process::id())
}

/// What the host may tell the model about this server as a whole.
fn instructions(guarded: bool) -> String {
    let mut text = String::from(
        "File tools over one workspace. Paths are relative to the workspace root. \
         Every result is a JSON envelope; a refusal has a code, the facts in details, \
         and a _hint: follow the hint. Every change is journaled under the id its result \
         returns: list_changes lists them, show_change shows one with its diff, and \
         undo_change takes one back unless a file moved on since.",
    );
    if guarded {
        text.push_str(
            " Read a file with read_file before you write or edit it; \
             writes and edits chain without re-reading.",
        );
    }
    text
}

/// The line said at start-up when every call will be refused: the refusal's message and
/// the field it names. It quotes the workspace's config, so it goes out quoted at a
/// terminal, as every line on stderr does.
fn start_up_refusal(refusal: &crate::refusal::Refusal) -> String {
    let field = refusal
        .detail(crate::refusal::key::FIELD)
        .and_then(Value::as_str)
        .map(|field| format!(" (field `{field}`)"))
        .unwrap_or_default();
    format!(
        "stitch mcp: {}{field}; every call is refused with {} until it is fixed \
         (`stitch config check` shows the problem)",
        refusal.message(),
        refusal.code().as_str()
    )
}

/// In server mode a panic is one call's internal failure: no envelope on stdout (only
/// protocol messages go there), no exit. Its message goes to stderr with `STITCH_DEBUG=1`.
fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        if std::env::var_os("STITCH_DEBUG").is_some_and(|v| v == "1") {
            crate::envelope::stderr_line(&format!("stitch mcp: internal error: panic: {info}"));
        }
    }));
}
