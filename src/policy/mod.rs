//! Policy: what the workspace owner and the user allow, from two configs — the user's
//! own (`$XDG_CONFIG_HOME/stitch/config.json`, trusted by where it lives) and the
//! workspace's `.stitch/config.json` (untrusted until a person trusts it, since it comes
//! with every clone).
//!
//! `deny` hides paths from every tool, `readOnly` refuses mutations, `limits` replace the
//! contract's defaults, and `authorize` names a command that approves each mutation. What
//! only takes away (`deny`, `readOnly`, lower limits, `journal: false`) applies from both
//! configs; what runs code or widens (`authorize`, `authorizeTimeoutSecs`, higher limits)
//! applies from the workspace's only while it is trusted ([`combine`]). A config that
//! exists but is malformed makes every tool refuse (fail closed). No tool can touch
//! `.stitch/`, so a model cannot rewrite its own policy.

mod authorize;
mod bounded;
mod config;
mod limits;

use std::sync::Arc;
use std::time::Duration;

use globset::GlobSet;
use sha2::{Digest, Sha256};

use crate::workspace::walk::matches_or_ancestor as matches;

pub use authorize::{authorize, hook_path, runs, Decision, Runs};
pub use config::{parse, Config, ConfigError, SyntaxMode, SyntaxRule, DEFAULT_AUTHORIZE_TIMEOUT};
pub use limits::Limits;

/// The path of the workspace's config file, workspace-relative.
pub const CONFIG_PATH: &str = ".stitch/config.json";

/// Which config a setting came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The contract's default.
    Default,
    /// The user's own config.
    User,
    /// The workspace's `.stitch/config.json`.
    Workspace,
}

impl Source {
    /// The name `config check` reports.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Default => "default",
            Source::User => "user",
            Source::Workspace => "workspace",
        }
    }
}

/// A command that approves mutations, and whose config named it.
#[derive(Debug, Clone)]
pub struct Hook {
    pub argv: Vec<String>,
    pub timeout: Duration,
    pub source: Source,
}

/// Whether the workspace's config is trusted, as far as it matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trust {
    /// There is no workspace config, or it names nothing that needs trust, so no lookup
    /// was made.
    NotNeeded,
    Trusted,
    Untrusted,
}

/// What the two configs enforce together.
#[derive(Debug, Clone)]
pub struct Policy {
    /// Patterns no tool reads, writes or lists (both configs').
    pub deny: Option<Arc<GlobSet>>,
    /// Patterns no mutation may change (both configs').
    pub read_only: Option<GlobSet>,
    pub limits: Limits,
    /// The commands that approve mutations, the user's first.
    pub hooks: Vec<Hook>,
    /// The workspace's config names an `authorize` nobody has trusted: every mutation is
    /// refused before it starts.
    pub untrusted_hook: bool,
    /// Whether changes are journaled.
    pub journal: bool,
    /// The syntax gate's rules: the workspace's, then the user's; the first that covers a
    /// path decides.
    pub syntax: Vec<SyntaxRule>,
    pub trust: Trust,
    /// The configs as written, for `config check`.
    pub user: Option<Config>,
    pub workspace: Option<Config>,
}

impl Default for Policy {
    fn default() -> Self {
        combine(None, None, || false)
    }
}

/// The digest a trust record is named by: `sha256(canonical root, NUL, config bytes)`,
/// then `NUL, program bytes` when the config's authorize program lies inside the
/// workspace and is there, so that a change of any of them ends the trust. (A config
/// holds no NUL byte — it would not be JSON — so the two forms never meet.)
#[must_use]
pub fn trust_digest(root: &std::path::Path, config: &[u8], program: Option<&[u8]>) -> String {
    let mut hasher = Sha256::new();
    hasher.update(root.as_os_str().as_encoded_bytes());
    hasher.update([0]);
    hasher.update(config);
    if let Some(program) = program {
        hasher.update([0]);
        hasher.update(program);
    }
    crate::digest::hex(&hasher.finalize())
}

/// What the workspace's config names that takes effect only while it is trusted, given
/// the limits in force without it (`base`): its authorize command and timeout, and each
/// limit it raises above `base`.
#[must_use]
pub fn needs_trust(workspace: &Config, base: &Limits) -> Vec<String> {
    let mut wanted = Vec::new();
    if let Some(argv) = &workspace.authorize {
        wanted.push(format!("authorize: runs {argv:?} before every change"));
    }
    if let Some(timeout) = workspace.authorize_timeout {
        wanted.push(format!("authorizeTimeoutSecs: {}", timeout.as_secs_f64()));
    }
    for (name, set, base) in workspace.limits.pairs(base) {
        if let Some(v) = set.filter(|v| *v > base) {
            wanted.push(format!("limits.{name}: {v} (in force now: {base})"));
        }
    }
    wanted
}

/// The policy of `user`'s and `workspace`'s configs together. `trusted` is asked only
/// when the workspace's config names something that needs trust.
pub fn combine(
    user: Option<Config>,
    workspace: Option<Config>,
    trusted: impl FnOnce() -> bool,
) -> Policy {
    let base = user.as_ref().map_or(Limits::DEFAULT, |u| {
        u.limits.over(Limits::DEFAULT, |v, _| v)
    });
    let trust = match &workspace {
        Some(ws) if !needs_trust(ws, &base).is_empty() => {
            if trusted() {
                Trust::Trusted
            } else {
                Trust::Untrusted
            }
        }
        _ => Trust::NotNeeded,
    };
    let limits = match &workspace {
        Some(ws) if trust == Trust::Trusted => ws.limits.over(base, |v, _| v),
        Some(ws) => ws.limits.over(base, u64::min),
        None => base,
    };
    let mut hooks = Vec::new();
    let mut push = |config: &Option<Config>, source| {
        if let Some(argv) = config.as_ref().and_then(|c| c.authorize.clone()) {
            let timeout = config
                .as_ref()
                .and_then(|c| c.authorize_timeout)
                .unwrap_or(DEFAULT_AUTHORIZE_TIMEOUT);
            hooks.push(Hook {
                argv,
                timeout,
                source,
            });
        }
    };
    push(&user, Source::User);
    if trust == Trust::Trusted {
        push(&workspace, Source::Workspace);
    }
    let untrusted_hook =
        trust == Trust::Untrusted && workspace.as_ref().is_some_and(|w| w.authorize.is_some());
    let both = || user.iter().chain(workspace.iter());
    let deny = config::glob_set(both().map(|c| c.deny.as_slice())).map(Arc::new);
    let read_only = config::glob_set(both().map(|c| c.read_only.as_slice()));
    let journal = !both().any(|c| c.journal == Some(false));
    // The gate's mode widens nothing, so the workspace's rules hold untrusted too.
    let syntax = workspace
        .iter()
        .chain(user.iter())
        .flat_map(|c| c.syntax.iter().cloned())
        .collect();
    Policy {
        deny,
        read_only,
        limits,
        hooks,
        untrusted_hook,
        journal,
        syntax,
        trust,
        user,
        workspace,
    }
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
    /// What the syntax gate does for the file at `path`: the first rule that covers it,
    /// else refuse.
    #[must_use]
    pub fn syntax_mode(&self, path: &str) -> SyntaxMode {
        self.syntax
            .iter()
            .find(|rule| rule.paths.as_ref().is_none_or(|set| matches(set, path)))
            .map_or(SyntaxMode::Refuse, |rule| rule.mode)
    }

    /// The rule that forbids touching any of `paths` (as written and as resolved), if
    /// one does. [`Access::Change`] also consults `readOnly`.
    #[must_use]
    pub fn forbids(&self, paths: &[&str], access: Access) -> Option<Rule> {
        if let Some(deny) = &self.deny {
            if paths.iter().any(|p| matches(deny, p)) {
                return Some(Rule::Deny);
            }
        }
        if access == Access::Change {
            if let Some(read_only) = &self.read_only {
                if paths.iter().any(|p| matches(read_only, p)) {
                    return Some(Rule::ReadOnly);
                }
            }
        }
        None
    }
}

/// What a call does to a path, as the policy's rules and the protected places ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Reads it, lists it or searches it.
    Read,
    /// Writes, edits, deletes, moves or restores it.
    Change,
}

#[cfg(test)]
mod tests {
    use super::{combine, parse, Limits, Source, Trust};

    #[allow(clippy::unnecessary_wraps)] // Each call stands for one config that exists.
    fn config(json: &str) -> Option<super::Config> {
        Some(parse(json.as_bytes()).unwrap())
    }

    #[test]
    fn an_untrusted_workspace_only_takes_away() {
        let ws = config(
            r#"{"deny":["b"],"limits":{"maxFileBytes":1099511627776,"listLimit":5},
                "authorize":["./x"]}"#,
        );
        let user = config(r#"{"deny":["a"],"limits":{"listLimit":50},"authorize":["mine"]}"#);
        let policy = combine(user, ws, || false);
        assert_eq!(policy.trust, Trust::Untrusted);
        assert!(policy.untrusted_hook);
        assert_eq!(policy.limits.max_file_bytes, Limits::DEFAULT.max_file_bytes);
        assert_eq!(policy.limits.list, 5);
        assert_eq!(policy.hooks.len(), 1);
        assert_eq!(policy.hooks[0].source, Source::User);
        let deny = policy.deny.unwrap();
        assert!(super::matches(&deny, "a") && super::matches(&deny, "b"));
    }

    #[test]
    fn a_trusted_workspace_widens_and_runs_after_the_user() {
        let ws = config(
            r#"{"limits":{"maxFileBytes":1099511627776,"listLimit":5000},"authorize":["./x"]}"#,
        );
        let user = config(r#"{"limits":{"listLimit":50},"authorize":["mine"]}"#);
        let policy = combine(user, ws, || true);
        assert_eq!(policy.trust, Trust::Trusted);
        assert!(!policy.untrusted_hook);
        assert_eq!(policy.limits.max_file_bytes, 1_099_511_627_776);
        assert_eq!(policy.limits.list, 5000);
        let sources: Vec<_> = policy.hooks.iter().map(|h| h.source).collect();
        assert_eq!(sources, [Source::User, Source::Workspace]);
    }

    #[test]
    fn the_trust_digest_covers_the_program_when_there_is_one() {
        let root = std::path::Path::new("/w");
        let digest = |program| super::trust_digest(root, b"{}", program);
        assert_eq!(digest(None), crate::digest::sha256_hex(b"/w\0{}"));
        assert_eq!(
            digest(Some(b"#!/bin/sh\n")),
            crate::digest::sha256_hex(b"/w\0{}\0#!/bin/sh\n")
        );
        // An empty program is not the absence of one.
        assert_ne!(digest(Some(b"")), digest(None));
    }

    #[test]
    fn trust_is_looked_up_only_when_it_matters() {
        let ws = config(r#"{"deny":["x"],"limits":{"listLimit":5},"journal":false}"#);
        let policy = combine(None, ws, || {
            panic!("no lookup for a config that only takes away")
        });
        assert_eq!(policy.trust, Trust::NotNeeded);
        assert!(!policy.journal);
        // The user's raised limit is the base, so a workspace at or below it needs nothing.
        let user = config(r#"{"limits":{"listLimit":900}}"#);
        let ws = config(r#"{"limits":{"listLimit":800}}"#);
        let policy = combine(user, ws, || panic!("800 is below the user's 900"));
        assert_eq!(policy.limits.list, 800);
    }
}
