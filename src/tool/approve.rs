//! Policy at the tool layer: `deny`/`readOnly` refusals and the authorize hook.

use serde_json::Value;

use crate::policy::{self, Rule, Verdict};
use crate::refusal::{key, Code, Outcome, Refusal};
use crate::workspace::Location;

use super::Context;

/// Refuses a path that `deny` (or, for a mutation, `readOnly`) covers, as written or as
/// resolved, so a symlink cannot route around a rule.
pub fn rules(ctx: &Context, location: &Location, mutation: bool) -> Result<(), Refusal> {
    let shown = location.shown.as_str();
    match ctx.policy.forbids(&[shown, &location.real], mutation) {
        None => Ok(()),
        Some(rule) => {
            let message = match rule {
                Rule::Deny => format!("The workspace policy denies access to `{shown}`"),
                Rule::ReadOnly => format!("The workspace policy makes `{shown}` read-only"),
            };
            Err(Refusal::new(Code::Denied, message)
                .with(key::PATH, shown)
                .with(key::RULE, rule.as_str()))
        }
    }
}

/// Asks the authorize command, if the policy names one, to approve a mutation described
/// by `payload`.
pub fn authorize(ctx: &Context, shown: &str, payload: &Value) -> Outcome<()> {
    let Some(argv) = &ctx.policy.authorize else {
        return Ok(());
    };
    match policy::authorize(
        argv,
        ctx.ws.root_path(),
        payload,
        ctx.policy.authorize_timeout,
    ) {
        Verdict::Allow => Ok(()),
        Verdict::Deny { reason } => Err(Refusal::new(
            Code::Denied,
            format!("The authorize command refused this change to `{shown}`: {reason}"),
        )
        .with(key::PATH, shown)
        .with(key::RULE, "authorize")
        .with(key::REASON, reason)
        .into()),
    }
}

/// `INVALID_CONFIG` for a malformed `.stitch/config.json`.
#[cold]
pub fn invalid_config(error: &policy::ConfigError) -> Refusal {
    let mut refusal = Refusal::new(
        Code::InvalidConfig,
        format!("{} is malformed: {}", policy::CONFIG_PATH, error.reason),
    )
    .with(key::PATH, policy::CONFIG_PATH)
    .with(key::REASON, error.reason.as_str());
    if let Some(field) = &error.field {
        refusal = refusal.with(key::FIELD, field.as_str());
    }
    refusal
}
