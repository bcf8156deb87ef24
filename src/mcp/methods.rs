//! The methods the server answers, each a small function from params to result.
//!
//! Legacy revisions open with `initialize` (and may `ping`); the modern revision asks
//! `server/discover` and names its version on every request. Both list and call the same
//! tools. Everything else is `-32601`.

use std::sync::Arc;

use serde_json::{json, Value};

use super::revision::{self, decorate, server_info, Era};
use super::rpc::{Fault, INVALID_PARAMS, METHOD_NOT_FOUND};
use super::{calls, Server};
use crate::tool::registry::TOOLS;
use crate::tool::schema::{self, Flavor};

/// How long a modern client may keep `tools/list` and `server/discover` answers: the
/// tools of a process never change.
const TTL_MS: u64 = 3_600_000;

/// What a request gets: a result now, a fault now, or a reply later from the call's
/// own thread.
pub enum Reply {
    Now(Value),
    Later,
}

/// Answers one request.
pub fn request(
    server: &Arc<Server>,
    id: &Value,
    method: &str,
    params: &mut Value,
) -> Result<Reply, Fault> {
    if method == "initialize" {
        return initialize(server, params).map(Reply::Now);
    }
    let era = revision::of_request(params)?;
    let result = match method {
        "server/discover" => discover(server),
        "ping" if era == Era::Legacy => json!({}),
        "tools/list" => tools_list(era),
        "tools/call" => {
            calls::start(server, id, params, era)?;
            return Ok(Reply::Later);
        }
        _ => {
            return Err(
                Fault::new(METHOD_NOT_FOUND, format!("Method not found: {method}"))
                    .with_data(json!({"method": method})),
            )
        }
    };
    // `server/discover` is modern by definition, whatever `_meta` says.
    let era = if method == "server/discover" {
        Era::Modern
    } else {
        era
    };
    Ok(Reply::Now(decorate(result, era)))
}

/// Acts on one notification. Only a cancellation does anything; the rest (`initialized`,
/// roots changing) need nothing, and a client's roots never move the root.
pub fn notification(server: &Server, method: &str, params: &Value) {
    if method == "notifications/cancelled" {
        if let Some(id) = params.get("requestId") {
            server.in_flight.cancel(id);
        }
    }
}

/// `initialize`: the legacy handshake.
fn initialize(server: &Server, params: &Value) -> Result<Value, Fault> {
    let Some(asked) = params.get("protocolVersion").and_then(Value::as_str) else {
        return Err(Fault::new(
            INVALID_PARAMS,
            "initialize needs protocolVersion, the revision the client speaks",
        ));
    };
    Ok(json!({
        "protocolVersion": revision::negotiate(asked),
        "capabilities": {"tools": {"listChanged": false}},
        "serverInfo": server_info(),
        "instructions": server.instructions,
    }))
}

/// `server/discover`: the modern revision's description of the server.
fn discover(server: &Server) -> Value {
    json!({
        "supportedVersions": revision::SUPPORTED,
        "capabilities": {"tools": {"listChanged": false}},
        "instructions": server.instructions,
        "ttlMs": TTL_MS,
        "cacheScope": "public",
    })
}

/// `tools/list`: every tool, as `stitch schema --format mcp` prints it.
fn tools_list(era: Era) -> Value {
    let tools: Vec<Value> = TOOLS
        .iter()
        .map(|t| schema::render(t, Flavor::Mcp))
        .collect();
    match era {
        Era::Legacy => json!({"tools": tools}),
        Era::Modern => json!({"tools": tools, "ttlMs": TTL_MS, "cacheScope": "public"}),
    }
}
