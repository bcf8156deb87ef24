//! `stitch config check`: what the two configs enforce and where each setting came from,
//! whether the workspace's config is trusted (and what trusting it would enable), the
//! program its `authorize` runs when trust pins it, and
//! warnings about stitch's own places a person should know of — its user-level state
//! lying inside the workspace.

use serde_json::{json, Value};

use crate::policy::{self, Config, Limits, Source, Trust};
use crate::workspace::home::Home;
use crate::workspace::UserDir;

use super::pin::{self, Pin};
use super::{Context, Output};

/// `stitch config check`: for each setting in force, its value and the config it came
/// from; whether the workspace's config is trusted, and if not, what trusting it would
/// enable; and `warnings`, when there are any.
#[must_use]
pub fn config_check(ctx: &Context) -> Output {
    let policy = &ctx.policy;
    let home = Home::from_env();
    let (user, workspace) = (policy.user.as_ref(), policy.workspace.as_ref());
    let patterns = |pick: fn(&Config) -> &[(String, globset::Glob)]| {
        let mut all = Vec::new();
        for (config, source) in [(user, Source::User), (workspace, Source::Workspace)] {
            for (pattern, _) in config.map(pick).unwrap_or_default() {
                all.push(json!({"pattern": pattern, "from": source.as_str()}));
            }
        }
        all
    };
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
        "limits": limits(ctx),
        "authorize": hooks,
        "journal": {"value": policy.journal, "from": journal_from.as_str()},
        "syntax": syntax(policy),
    });
    // The program trust pins, shown whether or not the config is trusted yet.
    if let Some(pinned) = workspace.and_then(|w| pin::pin(&ctx.ws, pin::program_of(w)).shown()) {
        report["authorizeProgram"] = pinned;
    }
    untrusted(ctx, &mut report);
    let warnings = warnings(ctx);
    if !warnings.is_empty() {
        report["warnings"] = json!(warnings);
    }
    Output::Config(report)
}

/// The limits in force, each with the config it came from.
fn limits(ctx: &Context) -> serde_json::Map<String, Value> {
    let (user, workspace) = (ctx.policy.user.as_ref(), ctx.policy.workspace.as_ref());
    let base = user.map_or(Limits::DEFAULT, |u| {
        u.limits.over(Limits::DEFAULT, |v, _| v)
    });
    let mut limits = serde_json::Map::new();
    let user_set = user.map(|u| u.limits).unwrap_or_default();
    let ws_set = workspace.map(|w| w.limits).unwrap_or_default();
    let sets = user_set.pairs(&base).into_iter().zip(ws_set.pairs(&base));
    for ((name, from_user, _), (_, from_ws, _)) in sets {
        let now = in_force_value(&ctx.policy.limits, name);
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
    limits
}

/// The syntax gate's rules in force, in the order they are tried, each with the config it
/// came from; the default last.
fn syntax(policy: &policy::Policy) -> Vec<Value> {
    let mut rules = Vec::new();
    for (config, source) in [
        (policy.workspace.as_ref(), Source::Workspace),
        (policy.user.as_ref(), Source::User),
    ] {
        for rule in config.map(|c| c.syntax.as_slice()).unwrap_or_default() {
            rules.push(json!({
                "paths": rule.pattern.as_deref().unwrap_or("**"),
                "mode": rule.mode.as_str(),
                "from": source.as_str(),
            }));
        }
    }
    rules.push(json!({"paths": "**", "mode": "refuse", "from": Source::Default.as_str()}));
    rules
}

/// What trusting the workspace's config would enable, and what holds until then, when it
/// names something that needs trust and is not trusted.
fn untrusted(ctx: &Context, report: &mut Value) {
    let policy = &ctx.policy;
    let Some(ws) = policy.workspace.as_ref() else {
        return;
    };
    if policy.trust == Trust::Trusted {
        return;
    }
    let base = policy.user.as_ref().map_or(Limits::DEFAULT, |u| {
        u.limits.over(Limits::DEFAULT, |v, _| v)
    });
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

/// What a person should know of stitch's own places: its user-level state lying inside
/// the workspace (a root at `$HOME`), where no tool may touch it but every other program
/// run there can; and the user's own authorize program lying inside it, where a tool may
/// rewrite what runs before every change.
fn warnings(ctx: &Context) -> Vec<String> {
    let mut warnings: Vec<String> = ctx
        .ws
        .user_dirs_inside()
        .into_iter()
        .map(|(dir, shown)| {
            let what = match dir {
                UserDir::Config => "the user's own stitch config",
                UserDir::Data => "where stitch keeps its journal key and trust records",
            };
            format!(
                "{shown}, {what}, lies inside the workspace: no tool may read or change it \
                 (DENIED, rule reserved), but any other program run here can; a root that \
                 does not hold it is safer"
            )
        })
        .collect();
    let user_program = ctx.policy.user.as_ref().and_then(pin::program_of);
    if let Pin::Program { shown, .. } | Pin::Unpinnable { shown, .. } =
        pin::pin(&ctx.ws, user_program)
    {
        warnings.push(format!(
            "your own authorize program `{shown}` lies inside the workspace, where a tool may \
             rewrite it, and it runs before every change; keep it outside the workspace"
        ));
    }
    warnings
}

fn in_force_value(limits: &Limits, name: &str) -> u64 {
    match name {
        "maxReadBytes" => limits.max_read_bytes,
        "maxFileBytes" => limits.max_file_bytes,
        "listLimit" => limits.list,
        "globLimit" => limits.glob,
        "journalEntries" => limits.journal_entries,
        "journalBytes" => limits.journal_bytes,
        "maxGateBytes" => limits.max_gate_bytes,
        "maxGateMillis" => limits.max_gate_millis,
        _ => limits.search,
    }
}
