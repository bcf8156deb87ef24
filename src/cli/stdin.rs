//! The tool's arguments as one JSON object on stdin, and the rule that stdin is never
//! waited on in silence.
//!
//! `--json` asks for stdin, and waits for it as long as it takes. A call with no tool
//! arguments reads stdin only because nothing else was given: if nothing stirs there
//! within [`NOTICE_AFTER`], a line on stderr says what stitch is waiting for and how to
//! avoid it; if stdin is still silent after [`SILENT_AFTER`] in all, it is taken as empty
//! (no arguments), so a harness that leaves stdin open still gets an answer. Once a byte
//! arrives, stdin is read to its end, bounded as ever.

use std::time::Duration;

use serde_json::{Map, Value};

use crate::refusal::{key, Code, Outcome, Refusal};

/// How long a silent stdin is waited on before stitch says so.
pub const NOTICE_AFTER: Duration = Duration::from_millis(200);
/// How long, in all, a silent stdin is waited on before it counts as empty.
pub const SILENT_AFTER: Duration = Duration::from_secs(2);

/// The line on stderr when stdin stays silent past [`NOTICE_AFTER`].
pub const NOTICE: &str = "stitch: no arguments were given, so stitch is waiting for JSON \
     arguments on stdin (taken as none after 2 s of silence); to avoid the wait, pass the \
     arguments as flags, pass --json to wait for stdin on purpose, or redirect </dev/null";

/// The line on stderr when `--json` reads stdin from a terminal, where nothing else would
/// say why the command waits.
pub const TERMINAL_NOTICE: &str = "stitch: --json reads the arguments as one JSON object \
     from stdin, which is this terminal: type or paste it, then press Ctrl-D (or pass the \
     arguments as flags)";

/// The arguments `--json` asks for: stdin's JSON object, waited on as long as it takes.
/// At a terminal a line on stderr says first what the wait is for.
pub fn asked(limit: u64) -> Outcome<Value> {
    if crate::input::stdin_is_terminal() {
        crate::envelope::stderr_line(TERMINAL_NOTICE);
    }
    read(limit)
}

/// The arguments of a call that gave none on the command line while stdin is not a
/// terminal: stdin's JSON object if anything arrives there, else none.
pub fn unasked(limit: u64) -> Outcome<Value> {
    if stirs_within(NOTICE_AFTER) {
        return read(limit);
    }
    crate::envelope::stderr_line(NOTICE);
    if stirs_within(SILENT_AFTER.saturating_sub(NOTICE_AFTER)) {
        return read(limit);
    }
    Ok(Value::Object(Map::new()))
}

/// Whether stdin stirs within `wait`. A poll that fails says nothing about stdin, so the
/// read goes ahead as it would without the rule.
fn stirs_within(wait: Duration) -> bool {
    crate::input::stdin_stirs_within(wait).unwrap_or(true)
}

/// Reads the arguments from stdin, at most `limit` bytes: exactly one JSON object;
/// empty means none.
pub fn read(limit: u64) -> Outcome<Value> {
    let bytes = match crate::input::stdin_bytes(limit) {
        Ok(bytes) => bytes,
        Err(crate::input::Error::TooLarge { limit }) => {
            return Err(Refusal::new(
                Code::TooLarge,
                format!(
                    "stdin holds more than {limit} bytes, the bound on this tool's JSON arguments"
                ),
            )
            .with(key::FIELD, "stdin")
            .with("limit", limit)
            .into())
        }
        // `stitch list < some/dir`: the caller's redirection, not a fault of the machine.
        Err(crate::input::Error::Io(e)) if e.kind() == std::io::ErrorKind::IsADirectory => {
            return Err(Refusal::new(
                Code::InvalidArgument,
                "stdin is a directory, not one JSON object of arguments",
            )
            .with(key::FIELD, "stdin")
            .into())
        }
        Err(e @ (crate::input::Error::Io(_) | crate::input::Error::NoWriter { .. })) => {
            return Err(anyhow::Error::new(e).context("reading stdin").into())
        }
    };
    crate::tool::args::parse_object(&bytes).map_err(Into::into)
}
