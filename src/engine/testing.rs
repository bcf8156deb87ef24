//! A call's context over a folder of its own, for the unit tests of the engine and the
//! tools: no session, the default limits and policy, and the journal off (no key is
//! looked up, so no test reads the user's home).

use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use super::Context;
use crate::policy::{Limits, Policy};
use crate::workspace::Workspace;

/// The context of a call in the workspace at `root`.
pub fn context(root: &Path) -> Context {
    Context {
        ws: Workspace::open(root).expect("a workspace at the test's folder"),
        wait: crate::lock::Wait {
            timeout: Duration::ZERO,
            notice: || {},
            cancel: None,
        },
        limits: Limits::default(),
        session: None,
        policy: Policy::default(),
        journal_key: OnceLock::from(Err("the journal is off in this test".to_owned())),
    }
}
