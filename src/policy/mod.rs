//! Policy: what the workspace owner allows, from `.stitch/config.json`.
//!
//! `deny` hides paths from every tool, `readOnly` refuses mutations, `limits` replaces
//! the contract's defaults, and `authorize` names a command that approves each mutation.
//! A config that exists but is malformed makes every tool refuse (fail closed). No tool
//! can touch `.stitch/`, so a model cannot rewrite its own policy.

mod authorize;
mod bounded;
mod config;
mod limits;

use std::sync::Arc;
use std::time::Duration;

use globset::GlobSet;

use crate::workspace::walk::matches_or_ancestor as matches;

pub use authorize::{authorize, Verdict};
pub use config::{parse, ConfigError, DEFAULT_AUTHORIZE_TIMEOUT};
pub use limits::Limits;

/// The path of the config file, workspace-relative.
pub const CONFIG_PATH: &str = ".stitch/config.json";

/// What the config enforces.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// Patterns no tool reads, writes or lists.
    pub deny: Option<Arc<GlobSet>>,
    /// Patterns no mutation may change.
    pub read_only: Option<GlobSet>,
    /// The patterns as written, for reports.
    pub deny_patterns: Vec<String>,
    pub read_only_patterns: Vec<String>,
    pub limits: Limits,
    /// The command that approves mutations, if any.
    pub authorize: Option<Vec<String>>,
    pub authorize_timeout: Duration,
}

/// A rule that refuses a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    Deny,
    ReadOnly,
}

impl Rule {
    /// The rule's name in `details.rule`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::Deny => "deny",
            Rule::ReadOnly => "readOnly",
        }
    }
}

impl Policy {
    /// The rule that forbids touching any of `paths` (as written and as resolved), if
    /// one does. `mutation` also consults `readOnly`.
    #[must_use]
    pub fn forbids(&self, paths: &[&str], mutation: bool) -> Option<Rule> {
        if let Some(deny) = &self.deny {
            if paths.iter().any(|p| matches(deny, p)) {
                return Some(Rule::Deny);
            }
        }
        if mutation {
            if let Some(read_only) = &self.read_only {
                if paths.iter().any(|p| matches(read_only, p)) {
                    return Some(Rule::ReadOnly);
                }
            }
        }
        None
    }
}
