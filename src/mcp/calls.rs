//! `tools/call`: one tool call on its own thread, through the same tool layer, guards,
//! locks, policy and envelope as a command-line call.
//!
//! The result carries the envelope both ways MCP hosts read: a success is
//! `structuredContent` = the envelope's `data` and one text item holding the whole
//! envelope; a refusal is `isError: true` with the envelope as the text item and as
//! `structuredContent`, so the model sees the code, the facts and the `_hint`.
//!
//! A bug that panics inside a call is caught on that call's thread and becomes that
//! call's `INTERNAL_SERVER_ERROR`; the server goes on (the release profile unwinds, so
//! `catch_unwind` holds there too).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use serde_json::{json, Value};

use super::inflight::{Unstarted, MAX_CALLS};
use super::revision::{self, Era};
use super::rpc::{self, Fault, INVALID_PARAMS};
use super::Server;
use crate::hint::Caller;
use crate::refusal::{Code, Failure, Outcome, Refusal};
use crate::tool::registry::{ToolSpec, TOOLS};
use crate::tool::{self, Output, Settings};

/// The tool a `tools/call` names, by its wire name (the name `tools/list` gives).
fn tool_named(name: &str) -> Option<&'static ToolSpec> {
    TOOLS.iter().find(|tool| tool.name == name)
}

/// Starts the call `params` asks for on its own thread, which replies when it is done.
/// A fault in the request itself (no name, an unknown tool) is the reply, at once.
pub fn start(server: &Arc<Server>, id: &Value, params: &mut Value, era: Era) -> Result<(), Fault> {
    let Some(name) = params.get("name").and_then(Value::as_str) else {
        return Err(Fault::new(
            INVALID_PARAMS,
            "tools/call needs the tool's name",
        ));
    };
    let Some(tool) = tool_named(name) else {
        return Err(unknown_tool(name));
    };
    // No arguments is an empty object: the tool's own defaults and checks apply. Any
    // other value goes to the tool layer, which refuses what is not an object. The value
    // is taken, not copied: a large write's content is held once.
    let arguments = match params.get_mut("arguments").map(Value::take) {
        None | Some(Value::Null) => Value::Object(serde_json::Map::new()),
        Some(value) => value,
    };
    let cancel = match server.in_flight.start(id) {
        Ok(cancel) => cancel,
        Err(Unstarted::Duplicate) => {
            return Err(Fault::new(
                rpc::INVALID_REQUEST,
                format!("Invalid request: a call with ID {id} is still running"),
            ))
        }
        Err(Unstarted::Full) => {
            let busy = Refusal::new(
                Code::Busy,
                format!(
                    "The server is running {MAX_CALLS} calls already, the most it runs at once"
                ),
            )
            .with("retryable", true)
            .with("limit", MAX_CALLS);
            let outcome = Err(Failure::Refused(busy));
            server
                .out
                .send(&rpc::result(id, revision::decorate(result(&outcome), era)));
            return Ok(());
        }
    };
    let settings = Settings {
        cancel: Some(cancel.clone()),
        ..server.settings.clone()
    };
    let spawned = std::thread::Builder::new()
        .name("stitch call".into())
        .spawn({
            let id = id.clone();
            let server = Arc::clone(server);
            move || {
                let outcome = run(&server, &settings, tool, arguments);
                if !cancel.is_cancelled() {
                    server
                        .out
                        .send(&rpc::result(&id, revision::decorate(result(&outcome), era)));
                }
                server.in_flight.finish(&id);
            }
        });
    if spawned.is_err() {
        server.in_flight.finish(id);
        return Err(Fault::new(
            rpc::INTERNAL_ERROR,
            "The server could not start the call",
        ));
    }
    Ok(())
}

/// The fault of a call to a tool with no such name: the tools there are, and the
/// closest name, as clap says "did you mean" for a misspelt subcommand.
#[cold]
fn unknown_tool(name: &str) -> Fault {
    let near = TOOLS
        .iter()
        .map(|t| (strsim::jaro_winkler(name, t.name), t.name))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, near)| near);
    let message = match near {
        Some(near) => format!("Unknown tool: {name}; did you mean {near}?"),
        None => format!("Unknown tool: {name}"),
    };
    let mut data = json!({"tools": TOOLS.iter().map(|t| t.name).collect::<Vec<_>>()});
    if let Some(near) = near {
        data["didYouMean"] = json!(near);
    }
    Fault::new(INVALID_PARAMS, message).with_data(data)
}

/// Runs one call, a panic included: it is this call's internal failure, nothing more.
fn run(
    server: &Server,
    settings: &Settings,
    tool: &'static ToolSpec,
    arguments: Value,
) -> Outcome<Output> {
    catch_unwind(AssertUnwindSafe(|| {
        #[cfg(debug_assertions)]
        test_hook::panic_if_armed(tool.name);
        let root = server
            .root
            .try_clone()
            .map_err(|e| anyhow::Error::new(e).context("cloning the root's descriptor"))?;
        let ctx = tool::open_in(root, settings)?;
        server.follow(&ctx.limits);
        tool::run(&ctx, tool, arguments, tool::Shape::default())
    }))
    .unwrap_or_else(|_| {
        Err(Failure::Internal(anyhow::anyhow!(
            "a {} call panicked",
            tool.name
        )))
    })
}

/// The `CallToolResult` of an outcome.
fn result(outcome: &Outcome<Output>) -> Value {
    let envelope = crate::envelope::render(outcome, Caller::Json).0;
    if outcome.is_ok() {
        let data = envelope.get("data").cloned().unwrap_or(Value::Null);
        // An image or a PDF goes to the host as its own block, which it shows the
        // model; the text item then leaves its base64 out rather than carry it twice.
        let blocks = super::blocks::blocks(&data);
        let text = if blocks.is_empty() {
            envelope.to_string()
        } else {
            super::blocks::without_base64(envelope).to_string()
        };
        let mut content = vec![json!({"type": "text", "text": text})];
        content.extend(blocks);
        json!({"content": content, "structuredContent": data, "isError": false})
    } else {
        let content = json!([{"type": "text", "text": envelope.to_string()}]);
        json!({"content": content, "structuredContent": envelope, "isError": true})
    }
}

/// A way to make one tool's calls panic, for the test that a panic ends only its call.
/// Debug builds only: release builds have no such code, so no client can reach it.
#[cfg(debug_assertions)]
mod test_hook {
    /// Names the tool whose calls panic (debug builds only).
    const ENV: &str = "STITCH_TEST_PANIC_TOOL";

    pub fn panic_if_armed(tool: &str) {
        assert!(
            std::env::var(ENV).map_or(true, |armed| armed != tool),
            "{ENV} asked {tool} to panic"
        );
    }
}
