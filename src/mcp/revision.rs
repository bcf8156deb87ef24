//! The protocol revisions served, and which one a message speaks.
//!
//! Two eras (the specification's own terms, `basic/versioning` of 2026-07-28): *legacy*
//! revisions agree on a version once, through `initialize`; the *modern* one carries it
//! on every request, in `_meta["io.modelcontextprotocol/protocolVersion"]`, and is
//! discovered through `server/discover`. One process serves both.

use serde_json::{json, Value};

use super::rpc::{Fault, INVALID_PARAMS, UNSUPPORTED_PROTOCOL_VERSION};

/// The modern revision: no handshake, the version on each request.
pub const MODERN: &str = "2026-07-28";
/// The revisions `initialize` agrees on, newest first.
pub const LEGACY: [&str; 2] = ["2025-11-25", "2025-06-18"];
/// Every revision served, newest first (what `server/discover` and version errors list).
pub const SUPPORTED: [&str; 3] = [MODERN, LEGACY[0], LEGACY[1]];

/// The `_meta` key that carries a modern request's revision.
pub const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
/// The `_meta` key of a result that names the server.
pub const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";

/// The shape a reply takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// A result as `initialize`-based revisions define it.
    Legacy,
    /// A result as 2026-07-28 defines it: `resultType`, the server named in `_meta`.
    Modern,
}

/// The revision `initialize` answers for a client that asks for `asked`: that one when
/// it is served, else the newest legacy revision (the client then decides whether it
/// can speak it).
#[must_use]
pub fn negotiate(asked: &str) -> &'static str {
    LEGACY
        .iter()
        .find(|known| **known == asked)
        .copied()
        .unwrap_or(LEGACY[0])
}

/// The era a request speaks, from the revision in its `_meta`: none is legacy (the
/// revision was agreed at `initialize`), a served one picks its era, anything else is
/// `UnsupportedProtocolVersionError`.
pub fn of_request(params: &Value) -> Result<Era, Fault> {
    let Some(requested) = params.get("_meta").and_then(|meta| meta.get(VERSION_KEY)) else {
        return Ok(Era::Legacy);
    };
    let Some(requested) = requested.as_str() else {
        return Err(Fault::new(
            INVALID_PARAMS,
            format!("_meta[\"{VERSION_KEY}\"] is a string"),
        ));
    };
    if requested == MODERN {
        Ok(Era::Modern)
    } else if LEGACY.contains(&requested) {
        Ok(Era::Legacy)
    } else {
        Err(
            Fault::new(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version")
                .with_data(json!({"supported": SUPPORTED, "requested": requested})),
        )
    }
}

/// A result in the shape `era` gives results: the modern revision adds `resultType` and
/// names the server in `_meta`.
pub fn decorate(mut result: Value, era: Era) -> Value {
    if era == Era::Modern {
        if let Some(map) = result.as_object_mut() {
            map.insert("resultType".into(), "complete".into());
            map.insert("_meta".into(), json!({(SERVER_INFO_KEY): server_info()}));
        }
    }
    result
}

/// The server's name and version.
pub fn server_info() -> Value {
    json!({"name": "stitch", "title": "stitch", "version": env!("CARGO_PKG_VERSION")})
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{negotiate, of_request, Era, LEGACY};

    #[test]
    fn initialize_answers_what_it_knows_else_the_newest() {
        assert_eq!(negotiate("2025-06-18"), "2025-06-18");
        assert_eq!(negotiate("2025-11-25"), "2025-11-25");
        assert_eq!(negotiate("2024-11-05"), LEGACY[0]);
        assert_eq!(negotiate("2026-07-28"), LEGACY[0]);
    }

    #[test]
    fn a_request_names_its_era() {
        let meta =
            |v: serde_json::Value| json!({"_meta": {"io.modelcontextprotocol/protocolVersion": v}});
        assert_eq!(of_request(&json!({})), Ok(Era::Legacy));
        assert_eq!(of_request(&meta(json!("2026-07-28"))), Ok(Era::Modern));
        assert_eq!(of_request(&meta(json!("2025-06-18"))), Ok(Era::Legacy));
        assert_eq!(
            of_request(&meta(json!("1900-01-01"))).unwrap_err().code,
            -32022
        );
        assert_eq!(of_request(&meta(json!(7))).unwrap_err().code, -32602);
    }
}
