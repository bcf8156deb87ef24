//! `stitch mcp` (SPEC §8), driven over pipes with raw JSON-RPC as a host drives it: the
//! handshake of each protocol revision, the protocol faults, the tools and their
//! envelopes, sessions, cancellation, and calls racing other servers and the CLI.

use serde_json::{json, Value};

use crate::support::{McpServer, TestWorkspace};

mod calls;
mod concurrency;
mod hardening;
mod memory;
mod protocol;
mod sessions;

/// A server on `ws` that has completed the 2025-11-25 handshake.
fn started(ws: &TestWorkspace, args: &[&str]) -> McpServer {
    let mut server = McpServer::start(ws, args, &[]);
    server.initialize("2025-11-25");
    server
}

/// The `_meta` a 2026-07-28 request carries.
fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "stitch-tests", "version": "0"},
    })
}
