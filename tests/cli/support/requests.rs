//! The request each tool makes of one path, shared by the adversarial suite (hostile
//! paths) and the fuzz suite (generated paths).

use serde_json::{json, Value};

/// The first line of every secret the adversarial fixture plants: what edits and
/// searches aim at.
pub const HEADER: &str = "SECRET-HEADER";

/// The tools, in the order the tables give expectations for them.
pub const TOOLS: [&str; 6] = ["read", "write", "edit", "list", "glob", "search"];

/// The request each tool makes of `path`: read it, replace it, edit the secret's first
/// line, list it deeply, glob everything below it, search it for the secret's first line
/// with context (so the line with the leak marker would come along).
pub fn request(tool: &str, path: &str) -> Value {
    match tool {
        "read" => json!({"path": path}),
        "write" => json!({"path": path, "content": "pwned\n", "overwrite": true}),
        "edit" => json!({"path": path, "oldText": HEADER, "newText": "pwned"}),
        "list" => json!({"path": path, "depth": 4, "includeIgnored": true}),
        "glob" => json!({"pattern": "**", "path": path, "includeIgnored": true}),
        "search" => json!({"query": HEADER, "path": path, "includeIgnored": true, "context": 2}),
        other => panic!("no tool {other}"),
    }
}
