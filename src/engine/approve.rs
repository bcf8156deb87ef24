//! Policy, for every tool and every step of the engine: the two configs read and
//! combined, `deny`/`readOnly` refusals, the authorize hooks, and the refusal of an
//! untrusted one.

use crate::policy::{self, Access, Config, Decision, Limits, Policy, Rule, Source};
use crate::refusal::{key, Code, Outcome, Refusal};
use crate::workspace::home::Home;
use crate::workspace::{Location, Workspace};

use super::pin;
use super::Context;
use crate::engine::payload::Payload;

/// The policy in force in `ws`: the user's config and the workspace's, the trust record
/// looked up only when the workspace's names something that needs it.
pub fn policy(ws: &Workspace) -> Outcome<Policy> {
    let home = Home::from_env();
    let user = read(home.read_config(), &home.config_shown())?;
    let workspace_bytes = match ws.read_config() {
        Ok(bytes) => bytes,
        Err(e) => return Err(unreadable(e, policy::CONFIG_PATH).into()),
    };
    let workspace = match &workspace_bytes {
        None => None,
        Some(bytes) => {
            Some(policy::parse(bytes).map_err(|e| invalid_config(policy::CONFIG_PATH, &e))?)
        }
    };
    // Trust covers the config's bytes and the program its authorize runs (see `pin`).
    let program = workspace
        .as_ref()
        .and_then(pin::program_of)
        .map(str::to_owned);
    Ok(policy::combine(user, workspace, || {
        workspace_bytes.as_deref().is_some_and(|bytes| {
            pin::pin(ws, program.as_deref())
                .digest(ws, bytes)
                .is_some_and(|digest| home.is_trusted(&digest))
        })
    }))
}

/// The limits in force in every workspace before its own config: the defaults, as the
/// user's config sets them; the reason when the user's config cannot be used.
pub fn user_limits() -> Result<Limits, String> {
    let home = Home::from_env();
    let user = read(home.read_config(), &home.config_shown()).map_err(|f| match f {
        crate::refusal::Failure::Refused(r) => r.message().to_owned(),
        crate::refusal::Failure::Internal(_) => "the user's config cannot be read".to_owned(),
    })?;
    Ok(user.map_or(Limits::DEFAULT, |u| {
        u.limits.over(Limits::DEFAULT, |v, _| v)
    }))
}

/// A config read (or not) and parsed, as a refusal when it cannot be used.
fn read(
    bytes: Result<Option<Vec<u8>>, crate::workspace::Error>,
    shown: &str,
) -> Outcome<Option<Config>> {
    match bytes {
        Ok(None) => Ok(None),
        Ok(Some(bytes)) => Ok(Some(
            policy::parse(&bytes).map_err(|e| invalid_config(shown, &e))?,
        )),
        Err(e) => Err(unreadable(e, shown).into()),
    }
}

/// `INVALID_CONFIG` for a config that exists but cannot be read as a file.
fn unreadable(error: crate::workspace::Error, shown: &str) -> Refusal {
    match error {
        crate::workspace::Error::State { path, problem } => super::refuse::state(&path, problem),
        // There is a config but it cannot be read as a file: fail closed, as for a
        // malformed one.
        _ => invalid_config(
            shown,
            &policy::ConfigError {
                field: None,
                reason: "it cannot be read as a regular file".into(),
            },
        ),
    }
}

/// `DENIED` (rule `untrusted-config`) for any mutation while the workspace's config names
/// an authorize command nobody has trusted: the repository asked for an approval nobody
/// can give, so nothing changes until a person trusts it.
#[cold]
pub fn untrusted() -> Refusal {
    Refusal::new(
        Code::Denied,
        format!(
            "{} names an authorize command, and no one has trusted this workspace's config, so no change can be approved",
            policy::CONFIG_PATH
        ),
    )
    .with("config", policy::CONFIG_PATH)
    .with(key::RULE, "untrusted-config")
}

/// Refuses a path that `deny` (or, for a mutation, `readOnly`) covers, as written or as
/// resolved, so a symlink cannot route around a rule.
pub fn rules(ctx: &Context, location: &Location, access: Access) -> Result<(), Refusal> {
    let shown = location.shown.as_str();
    match ctx.policy.forbids(&[shown, &location.real], access) {
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

/// Asks each authorize command the policy names (the user's first) to approve a mutation
/// described by `payload`; the first refusal ends the call.
pub(crate) fn authorize(ctx: &Context, shown: &str, payload: &Payload<'_>) -> Outcome<()> {
    if ctx.policy.hooks.is_empty() {
        return Ok(());
    }
    let payload = serde_json::to_value(payload)
        .map_err(|e| anyhow::Error::new(e).context("serializing the authorize payload"))?;
    for hook in &ctx.policy.hooks {
        let verdict = policy::authorize(&hook.argv, ctx.ws.root_path(), &payload, hook.timeout);
        if let Decision::Deny { reason } = verdict {
            let config = match hook.source {
                Source::User => Home::from_env().config_shown(),
                _ => policy::CONFIG_PATH.to_owned(),
            };
            return Err(Refusal::new(
                Code::Denied,
                format!("The authorize command refused this change to `{shown}`: {reason}"),
            )
            .with(key::PATH, shown)
            .with("config", config)
            .with(key::RULE, "authorize")
            .with(key::REASON, reason)
            .into());
        }
    }
    Ok(())
}

/// The refusal `config check` gives when stitch's own state is not writable, which
/// every mutation would meet: `INVALID_CONFIG` naming the state path.
pub fn probe_state(ctx: &Context) -> Outcome<()> {
    ctx.ws.probe_state().map_err(|e| match e {
        crate::workspace::Error::State { path, problem } => {
            super::refuse::state(&path, problem).into()
        }
        other => crate::refusal::Failure::Internal(
            anyhow::Error::new(other).context("probing the state"),
        ),
    })
}

/// `INVALID_CONFIG` for a malformed config (`shown` names which).
#[cold]
pub fn invalid_config(shown: &str, error: &policy::ConfigError) -> Refusal {
    let mut refusal = Refusal::new(
        Code::InvalidConfig,
        format!("{shown} is malformed: {}", error.reason),
    )
    .with(key::PATH, shown)
    .with(key::REASON, error.reason.as_str());
    if let Some(field) = &error.field {
        refusal = refusal.with(key::FIELD, field.as_str());
    }
    refusal
}
