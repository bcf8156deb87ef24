//! Policy (§7): `.stitch/config.json`'s `deny`, `readOnly`, `limits` and `authorize`,
//! each against every tool it governs; malformed configs fail closed; the config itself
//! is out of every tool's reach.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use serde_json::Value;

use crate::support::{Run, TestWorkspace};

mod authorize;
mod config;
mod deny;
mod limits;
// Trust pins the program the workspace's authorize runs.
mod pinned;
mod read_only;
mod trust;

const CONFIG: &str = ".stitch/config.json";

/// Writes `.stitch/config.json` (raw bytes) the way a person would.
fn config_raw(ws: &TestWorkspace, bytes: impl AsRef<[u8]>) {
    fs::create_dir_all(ws.path(".stitch")).unwrap();
    fs::write(ws.path(CONFIG), bytes).unwrap();
}

fn config(ws: &TestWorkspace, value: &Value) {
    config_raw(ws, value.to_string());
}

/// Writes an executable `#!/bin/sh` script at `rel` below the root.
fn hook(ws: &TestWorkspace, rel: &str, body: &str) {
    ws.file(rel, format!("#!/bin/sh\n{body}"));
    fs::set_permissions(ws.path(rel), fs::Permissions::from_mode(0o755)).unwrap();
}

/// Asserts `DENIED` with `rule` for `path`; returns `details`.
#[track_caller]
fn assert_denied<'a>(run: &'a Run, rule: &str, path: &str) -> &'a Value {
    let details = run.refused("DENIED");
    assert_eq!(details["rule"], rule, "{}", run.stdout);
    assert_eq!(details["path"], path, "{}", run.stdout);
    details
}
