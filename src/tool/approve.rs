//! Policy at the tool layer: the two configs read and combined, `deny`/`readOnly`
//! refusals, the authorize hooks, the refusal of an untrusted one, and `config check`.

use serde_json::{json, Value};

use crate::policy::{self, Config, Limits, Policy, Rule, Source, Trust, Verdict};
use crate::refusal::{key, Code, Outcome, Refusal};
use crate::workspace::home::Home;
use crate::workspace::{Location, Workspace};

use super::payload::Payload;
use super::{Context, Output};

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
    Ok(policy::combine(user, workspace, || {
        workspace_bytes
            .as_deref()
            .is_some_and(|bytes| home.is_trusted(&policy::trust_digest(ws.root_path(), bytes)))
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

/// Asks each authorize command the policy names (the user's first) to approve a mutation
/// described by `payload`; the first refusal ends the call.
pub(super) fn authorize(ctx: &Context, shown: &str, payload: &Payload<'_>) -> Outcome<()> {
    if ctx.policy.hooks.is_empty() {
        return Ok(());
    }
    let payload = serde_json::to_value(payload)
        .map_err(|e| anyhow::Error::new(e).context("serializing the authorize payload"))?;
    for hook in &ctx.policy.hooks {
        let verdict = policy::authorize(&hook.argv, ctx.ws.root_path(), &payload, hook.timeout);
        if let Verdict::Deny { reason } = verdict {
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

/// `stitch config check`: for each setting in force, its value and the config it came
/// from; whether the workspace's config is trusted, and if not, what trusting it would
/// enable.
#[must_use]
pub fn config_check(ctx: &Context) -> Output {
    let policy = &ctx.policy;
    let home = Home::from_env();
    let (user, workspace) = (policy.user.as_ref(), policy.workspace.as_ref());
    let trusted = policy.trust == Trust::Trusted;
    let patterns = |pick: fn(&Config) -> &[(String, globset::Glob)]| {
        let mut all = Vec::new();
        for (config, source) in [(user, Source::User), (workspace, Source::Workspace)] {
            for (pattern, _) in config.map(pick).unwrap_or_default() {
                all.push(json!({"pattern": pattern, "from": source.as_str()}));
            }
        }
        all
    };
    let base = user.map_or(Limits::DEFAULT, |u| {
        u.limits.over(Limits::DEFAULT, |v, _| v)
    });
    let mut limits = serde_json::Map::new();
    let in_force = policy.limits;
    let user_set = user.map(|u| u.limits).unwrap_or_default();
    let ws_set = workspace.map(|w| w.limits).unwrap_or_default();
    let sets = user_set.pairs(&base).into_iter().zip(ws_set.pairs(&base));
    for ((name, from_user, _), (_, from_ws, _)) in sets {
        let now = in_force_value(&in_force, name);
        let source = if from_ws.is_some_and(|v| v == now) {
            Source::Workspace
        } else if from_user.is_some_and(|v| v == now) {
            Source::User
        } else {
            Source::Default
        };
        limits.insert(
            name.to_owned(),
            json!({"value": now, "from": source.as_str()}),
        );
    }
    let hooks: Vec<Value> = policy
        .hooks
        .iter()
        .map(|h| {
            json!({
                "command": h.argv,
                "timeoutSecs": h.timeout.as_secs_f64(),
                "from": h.source.as_str(),
            })
        })
        .collect();
    let journal_from = if workspace.is_some_and(|w| w.journal == Some(false)) {
        Source::Workspace
    } else if user.is_some_and(|u| u.journal == Some(false)) {
        Source::User
    } else {
        Source::Default
    };
    let trust = match (workspace, policy.trust) {
        (None, _) => "no-config",
        (Some(_), Trust::NotNeeded) => "not-needed",
        (Some(_), Trust::Trusted) => "trusted",
        (Some(_), Trust::Untrusted) => "untrusted",
    };
    let mut report = json!({
        "path": policy::CONFIG_PATH,
        "exists": workspace.is_some(),
        "trust": trust,
        "userConfig": {"path": home.config_shown(), "exists": user.is_some()},
        "deny": patterns(|c| &c.deny),
        "readOnly": patterns(|c| &c.read_only),
        "limits": limits,
        "authorize": hooks,
        "journal": {"value": policy.journal, "from": journal_from.as_str()},
    });
    if let (Some(ws), false) = (workspace, trusted) {
        let wanted = policy::needs_trust(ws, &base);
        if !wanted.is_empty() {
            report["trustWouldEnable"] = json!(wanted);
            report["untrustedEffect"] = json!(if policy.untrusted_hook {
                "every change is refused (DENIED, rule untrusted-config) until a person runs `stitch config trust`"
            } else {
                "the raised limits fall back to the ones in force without this config"
            });
        }
    }
    Output::Config(report)
}

fn in_force_value(limits: &Limits, name: &str) -> u64 {
    match name {
        "maxReadBytes" => limits.max_read_bytes,
        "maxFileBytes" => limits.max_file_bytes,
        "listLimit" => limits.list,
        "globLimit" => limits.glob,
        "journalEntries" => limits.journal_entries,
        "journalBytes" => limits.journal_bytes,
        _ => limits.search,
    }
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
