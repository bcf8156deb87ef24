//! stitch: safe, exact file tools over one workspace, one process per call (or, with
//! `stitch mcp`, one server process per MCP connection).
//!
//! [`run`] parses the command line, gathers the tool's arguments (flags or one JSON
//! object on stdin), dispatches to the tool and renders exactly one envelope.

mod affix;
pub mod cli;
mod digest;
mod engine;
mod envelope;
pub mod hint;
mod input;
mod lock;
mod mcp;
mod names;
pub mod patch;
mod pattern;
mod platform;
mod policy;
pub mod refusal;
mod region;
mod session;
mod streams;
pub mod syntax;
pub mod text;
mod tool;
pub mod workspace;

/// The one list of tools: names, schemas, annotations and the refusals each can return,
/// for the generated documentation.
pub use tool::registry;

use std::ffi::OsString;

/// Prepares the process as std's runtime start-up would for what stitch relies on: the
/// standard descriptors open (on `/dev/null` if closed) and SIGPIPE ignored. For a binary
/// whose C `main` is its own (`src/main.rs` on Linux with glibc).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn start() {
    platform::prepare_start();
}

/// Runs one call of `stitch` and returns its exit status.
pub fn run(args: impl IntoIterator<Item = OsString>) -> u8 {
    envelope::on_panic();
    let args: Vec<OsString> = args.into_iter().collect();
    cli::run(&args)
}
