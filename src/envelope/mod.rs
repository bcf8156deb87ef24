//! The one boundary that writes stdout: the JSON envelope, the exit status, and the
//! scrubbing of internal causes.
//!
//! Every tool call ends here exactly once. A refusal is rendered with its message, its
//! facts and the hint composed from them ([`crate::hint`]); an internal failure is
//! reduced to `INTERNAL_SERVER_ERROR` and its cause goes to stderr only when
//! `STITCH_DEBUG=1`.

use serde_json::{json, Map, Value};

use crate::hint::Caller;
use crate::refusal::{Failure, Outcome, Refusal};
use crate::tool::Output;

pub mod editor;
mod human;
mod phrase;

pub use crate::streams::Quote;
pub use human::{stderr_name, Layout};

/// How an outcome is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// The JSON envelope, one line (or indented).
    Json { pretty: bool },
    /// Plain text for people: results on stdout, refusals as `error[CODE]` on stderr.
    Text(human::Layout),
}

/// Exit status of a successful call, dry runs included.
pub const EXIT_OK: u8 = 0;
/// Exit status of an ordinary refusal.
pub const EXIT_REFUSED: u8 = 1;
/// Exit status of an invalid invocation.
pub const EXIT_INVALID: u8 = 2;
/// Exit status of an internal failure.
pub const EXIT_INTERNAL: u8 = 3;

/// Renders the outcome of one tool call as its envelope, its hint in `dialect`.
#[must_use]
pub fn render(outcome: &Outcome<Output>, dialect: Caller) -> (Value, u8) {
    match outcome {
        Ok(output) => match serde_json::to_value(output) {
            Ok(mut data) => {
                phrase::phrase(&mut data, output, dialect);
                match crate::hint::landed_hint(&data, dialect) {
                    Some(hint) => (json!({"ok": true, "data": data, "_hint": hint}), EXIT_OK),
                    None => (json!({"ok": true, "data": data}), EXIT_OK),
                }
            }
            Err(e) => render(
                &Err(Failure::Internal(
                    anyhow::Error::new(e).context("serializing a result"),
                )),
                dialect,
            ),
        },
        Err(Failure::Refused(refusal)) => {
            let status = if refusal.code().is_invocation_error() {
                EXIT_INVALID
            } else {
                EXIT_REFUSED
            };
            (refusal_envelope(refusal, dialect), status)
        }
        Err(Failure::Internal(cause)) => {
            if std::env::var_os("STITCH_DEBUG").is_some_and(|v| v == "1") {
                stderr_line(&format!("stitch: internal error: {cause:#}"));
            }
            (
                json!({"ok": false, "error": "INTERNAL_SERVER_ERROR",
                       "details": {"message": "internal error"}}),
                EXIT_INTERNAL,
            )
        }
    }
}

fn refusal_envelope(refusal: &Refusal, dialect: Caller) -> Value {
    let mut envelope = Map::new();
    envelope.insert("ok".into(), Value::Bool(false));
    envelope.extend(crate::hint::refusal_fields(refusal, dialect));
    Value::Object(envelope)
}

/// Writes the outcome of one tool call to stdout (and, in text style, refusals to
/// stderr) and returns the exit status, which is the same in every style. The hint
/// speaks `dialect`.
#[must_use]
pub fn emit(outcome: &Outcome<Output>, style: Style, dialect: Caller) -> u8 {
    if let (Ok(data), Style::Json { pretty }) = (outcome, style) {
        // A result is written straight from its fields, as `render` would order them,
        // without a `Value` built (and its strings copied) on the way — unless it has a
        // hint to carry, or facts to phrase in the caller's dialect.
        if data.landed_by_region() || phrase::needed(data) {
            let (envelope, status) = render(outcome, dialect);
            write_stdout(&if pretty {
                serde_json::to_string_pretty(&envelope).unwrap_or_default()
            } else {
                serde_json::to_string(&envelope).unwrap_or_default()
            });
            return status;
        }
        let success = Success { ok: true, data };
        let text = if pretty {
            serde_json::to_string_pretty(&success)
        } else {
            serde_json::to_string(&success)
        };
        if let Ok(text) = text {
            write_stdout(&text);
            return EXIT_OK;
        }
    }
    let (envelope, status) = render(outcome, dialect);
    let pretty = match style {
        Style::Json { pretty } => pretty,
        Style::Text(layout) => {
            return human::emit(outcome.as_ref().ok(), &envelope, status, layout, dialect);
        }
    };
    let text = if pretty {
        serde_json::to_string_pretty(&envelope)
    } else {
        serde_json::to_string(&envelope)
    }
    .unwrap_or_else(|_| {
        r#"{"ok":false,"error":"INTERNAL_SERVER_ERROR","details":{"message":"internal error"}}"#
            .into()
    });
    write_stdout(&text);
    status
}

/// A successful call's envelope, in §2's order.
#[derive(serde::Serialize)]
struct Success<'a> {
    ok: bool,
    data: &'a Output,
}

/// Makes a bug that panics end the call like any cause with no case: one
/// `INTERNAL_SERVER_ERROR` envelope and exit status 3, never a bare crash with nothing on
/// stdout. The panic's message goes to stderr only with `STITCH_DEBUG=1`.
pub fn on_panic() {
    std::panic::set_hook(Box::new(|info| {
        static ONCE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        if ONCE.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        let cause = anyhow::anyhow!("panic: {info}");
        let _ = emit(
            &Err(Failure::Internal(cause)),
            Style::Json { pretty: false },
            Caller::Json,
        );
        std::process::exit(i32::from(EXIT_INTERNAL));
    }));
}

/// Writes plain text that is not a tool call (schemas, help, MCP messages) to stdout.
pub fn emit_plain(text: &str) {
    write_stdout(text);
}

/// Writes a JSON document (or plain text) and a newline to stdout; at a terminal, with
/// what the serializer leaves raw escaped (see [`crate::streams::json_for_terminal`]).
fn write_stdout(text: &str) {
    if stdout_is_terminal() {
        write_raw(crate::streams::json_for_terminal(text).as_bytes());
    } else {
        write_raw(text.as_bytes());
    }
    write_raw(b"\n");
}

/// Writes bytes to stdout as they are, through the one writer of the streams.
fn write_raw(bytes: &[u8]) {
    crate::streams::stdout_raw(bytes);
}

/// Whether stdout is a terminal (a person reads it): the default format is text there
/// (`--format auto`), and text for a person there is quoted (see `text`).
#[must_use]
pub fn stdout_is_terminal() -> bool {
    crate::streams::stdout_is_terminal()
}

pub use crate::streams::{is_terminal, stderr_line};
