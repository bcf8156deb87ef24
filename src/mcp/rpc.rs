//! JSON-RPC 2.0 as MCP uses it: what an incoming message is, and the shapes of replies.
//!
//! Errors here are protocol faults only (a line that is not JSON, a message that is not
//! a request, an unknown method or tool). Whatever a tool decides is a tool result, never
//! a JSON-RPC error.

use serde_json::{json, Map, Value};

/// The line is not JSON.
pub const PARSE_ERROR: i64 = -32700;
/// The JSON is not a request or notification.
pub const INVALID_REQUEST: i64 = -32600;
/// No such method.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// The params do not fit the method (an unknown tool included, as the MCP tools page shows).
pub const INVALID_PARAMS: i64 = -32602;
/// A bug in the server's own handling of a message.
pub const INTERNAL_ERROR: i64 = -32603;
/// The request's `_meta` names a protocol revision the server does not serve (2026-07-28).
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// A JSON-RPC error object.
#[derive(Debug, Clone, PartialEq)]
pub struct Fault {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl Fault {
    #[cold]
    pub fn new(code: i64, message: impl Into<String>) -> Fault {
        Fault {
            code,
            message: message.into(),
            data: None,
        }
    }

    #[must_use]
    pub fn with_data(mut self, data: Value) -> Fault {
        self.data = Some(data);
        self
    }
}

/// What one incoming message is.
#[derive(Debug)]
pub enum Incoming {
    /// A request: it gets exactly one reply.
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    /// A notification: it gets none.
    Notification { method: String, params: Value },
    /// A reply to a request of ours; the server sends none, so there is nothing to match.
    Response,
    /// Not a JSON-RPC message; `id` when one could be read.
    Invalid { id: Value, reason: &'static str },
}

/// Classifies a parsed line.
#[must_use]
pub fn classify(message: Value) -> Incoming {
    let Value::Object(mut map) = message else {
        return Incoming::Invalid {
            id: Value::Null,
            reason: if message.is_array() {
                "Batches are not part of MCP: send one message a line"
            } else {
                "A JSON-RPC message is a JSON object"
            },
        };
    };
    let id = map.remove("id");
    let valid_id = match &id {
        None | Some(Value::String(_)) => true,
        Some(Value::Number(n)) => n.is_i64() || n.is_u64(),
        Some(_) => false,
    };
    let shown_id = if valid_id {
        id.clone().unwrap_or(Value::Null)
    } else {
        Value::Null
    };
    if map.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Incoming::Invalid {
            id: shown_id,
            reason: "The message lacks \"jsonrpc\": \"2.0\"",
        };
    }
    let Some(method) = map.remove("method") else {
        if id.is_some() && (map.contains_key("result") || map.contains_key("error")) {
            return Incoming::Response;
        }
        return Incoming::Invalid {
            id: shown_id,
            reason: "The message has no method",
        };
    };
    let Value::String(method) = method else {
        return Incoming::Invalid {
            id: shown_id,
            reason: "The method is not a string",
        };
    };
    if !valid_id {
        return Incoming::Invalid {
            id: Value::Null,
            reason: "A request ID is a string or an integer",
        };
    }
    let params = map.remove("params").unwrap_or(Value::Null);
    if !(params.is_object() || params.is_null()) {
        return Incoming::Invalid {
            id: shown_id,
            reason: "params is an object",
        };
    }
    match id {
        Some(id) => Incoming::Request { id, method, params },
        None => Incoming::Notification { method, params },
    }
}

/// The reply carrying `result`.
#[must_use]
pub fn result(id: &Value, result: Value) -> Value {
    let mut reply = Map::new();
    reply.insert("jsonrpc".into(), "2.0".into());
    reply.insert("id".into(), id.clone());
    reply.insert("result".into(), result);
    Value::Object(reply)
}

/// The reply carrying `fault`.
#[must_use]
pub fn error(id: &Value, fault: &Fault) -> Value {
    let mut error = Map::new();
    error.insert("code".into(), fault.code.into());
    error.insert("message".into(), fault.message.clone().into());
    if let Some(data) = &fault.data {
        error.insert("data".into(), data.clone());
    }
    json!({"jsonrpc": "2.0", "id": id, "error": error})
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{classify, Incoming};

    #[test]
    fn messages_are_told_apart() {
        let request = classify(json!({"jsonrpc": "2.0", "id": 7, "method": "ping"}));
        assert!(matches!(request, Incoming::Request { ref method, .. } if method == "ping"));
        let note = classify(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        assert!(matches!(note, Incoming::Notification { .. }));
        let reply = classify(json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
        assert!(matches!(reply, Incoming::Response));
        for bad in [
            json!([]),
            json!(3),
            json!({"id": 1, "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": 1}),
            json!({"jsonrpc": "2.0", "id": 1.5, "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": null, "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": 1, "method": 3}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": [1]}),
        ] {
            assert!(
                matches!(classify(bad.clone()), Incoming::Invalid { .. }),
                "{bad}"
            );
        }
    }
}
