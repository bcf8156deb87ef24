//! `stitch config check`: what the two configs enforce and where each setting came from,
//! whether the workspace's config is trusted (and what trusting it would enable), the
//! program its `authorize` runs when trust pins it, and
//! warnings about stitch's own places a person should know of — its user-level state
//! lying inside the workspace.

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use crate::policy::{self, Config, Limits, Source, SyntaxMode, Trust};
use crate::workspace::home::Home;
use crate::workspace::UserDir;

use super::pin::{self, Pin};
use super::{Context, Output};

/// `stitch config check`'s report, in the order its JSON gives the keys.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigReport {
    /// The workspace's config, and whether it exists.
    pub path: &'static str,
    pub exists: bool,
    pub trust: TrustShown,
    pub user_config: UserConfig,
    pub deny: Vec<PatternFrom>,
    pub read_only: Vec<PatternFrom>,
    pub limits: LimitsFrom,
    pub authorize: Vec<HookFrom>,
    pub journal: JournalFrom,
    /// The syntax gate's rules in the order they are tried; the default last.
    pub syntax: Vec<SyntaxRuleFrom>,
    /// The program trust pins, shown whether or not the config is trusted yet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authorize_program: Option<ProgramShown>,
    /// What trusting the workspace's config would enable, when it is not trusted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trust_would_enable: Option<Vec<String>>,
    /// What holds until then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub untrusted_effect: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Whether the workspace's config is trusted, as far as it matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TrustShown {
    NoConfig,
    NotNeeded,
    Trusted,
    Untrusted,
}

/// The user's own config, and whether it exists.
#[derive(Debug, Serialize)]
pub struct UserConfig {
    pub path: String,
    pub exists: bool,
}

/// A `deny` or `readOnly` pattern and the config it came from.
#[derive(Debug, Serialize)]
pub struct PatternFrom {
    pub pattern: String,
    pub from: Origin,
}

/// The config a setting came from, as the report names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Origin(pub Source);

impl Serialize for Origin {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.as_str())
    }
}

/// One limit in force: its name, value and config.
#[derive(Debug)]
pub struct LimitFrom {
    pub name: &'static str,
    pub value: u64,
    pub from: Origin,
}

/// The limits in force, serialized as one object keyed by name, in the config's order.
#[derive(Debug)]
pub struct LimitsFrom(pub Vec<LimitFrom>);

impl Serialize for LimitsFrom {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Shown {
            value: u64,
            from: Origin,
        }
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for limit in &self.0 {
            let shown = Shown {
                value: limit.value,
                from: limit.from,
            };
            map.serialize_entry(limit.name, &shown)?;
        }
        map.end()
    }
}

/// An authorize command, its timeout and config.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HookFrom {
    pub command: Vec<String>,
    pub timeout_secs: f64,
    pub from: Origin,
}

/// Whether the journal is on, and the config that says so.
#[derive(Debug, Serialize)]
pub struct JournalFrom {
    pub value: bool,
    pub from: Origin,
}

/// One rule of the syntax gate: the paths it covers, its mode and its config.
#[derive(Debug, Serialize)]
pub struct SyntaxRuleFrom {
    pub paths: String,
    pub mode: SyntaxModeShown,
    pub from: Origin,
}

/// A syntax gate mode, as the config spells it.
#[derive(Debug, Clone, Copy)]
pub struct SyntaxModeShown(pub SyntaxMode);

impl Serialize for SyntaxModeShown {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.as_str())
    }
}

/// The authorize program inside the workspace that trust pins: its digest (`None` where
/// nothing runnable is there now), or why it cannot be pinned.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum ProgramShown {
    Pinned {
        path: String,
        sha256: Option<String>,
    },
    Unpinnable {
        path: String,
        reason: String,
    },
}

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
                all.push(PatternFrom {
                    pattern: pattern.clone(),
                    from: Origin(source),
                });
            }
        }
        all
    };
    let authorize = policy
        .hooks
        .iter()
        .map(|h| HookFrom {
            command: h.argv.clone(),
            timeout_secs: h.timeout.as_secs_f64(),
            from: Origin(h.source),
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
        (None, _) => TrustShown::NoConfig,
        (Some(_), Trust::NotNeeded) => TrustShown::NotNeeded,
        (Some(_), Trust::Trusted) => TrustShown::Trusted,
        (Some(_), Trust::Untrusted) => TrustShown::Untrusted,
    };
    let authorize_program = workspace.and_then(|w| match pin::pin(&ctx.ws, pin::program_of(w)) {
        Pin::Nothing => None,
        Pin::Program { shown, bytes } => Some(ProgramShown::Pinned {
            path: shown,
            sha256: bytes.as_deref().map(crate::digest::sha256_hex),
        }),
        Pin::Unpinnable { shown, reason } => Some(ProgramShown::Unpinnable {
            path: shown,
            reason,
        }),
    });
    let (trust_would_enable, untrusted_effect) = untrusted(ctx).unzip();
    Output::Config(ConfigReport {
        path: policy::CONFIG_PATH,
        exists: workspace.is_some(),
        trust,
        user_config: UserConfig {
            path: home.config_shown(),
            exists: user.is_some(),
        },
        deny: patterns(|c| &c.deny),
        read_only: patterns(|c| &c.read_only),
        limits: limits(ctx),
        authorize,
        journal: JournalFrom {
            value: policy.journal,
            from: Origin(journal_from),
        },
        syntax: syntax(policy),
        authorize_program,
        trust_would_enable,
        untrusted_effect,
        warnings: warnings(ctx),
    })
}

/// The limits in force, each with the config it came from.
fn limits(ctx: &Context) -> LimitsFrom {
    let (user, workspace) = (ctx.policy.user.as_ref(), ctx.policy.workspace.as_ref());
    let base = user.map_or(Limits::DEFAULT, |u| {
        u.limits.over(Limits::DEFAULT, |v, _| v)
    });
    let mut limits = Vec::new();
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
        limits.push(LimitFrom {
            name,
            value: now,
            from: Origin(source),
        });
    }
    LimitsFrom(limits)
}

/// The syntax gate's rules in force, in the order they are tried, each with the config it
/// came from; the default last.
fn syntax(policy: &policy::Policy) -> Vec<SyntaxRuleFrom> {
    let mut rules = Vec::new();
    for (config, source) in [
        (policy.workspace.as_ref(), Source::Workspace),
        (policy.user.as_ref(), Source::User),
    ] {
        for rule in config.map(|c| c.syntax.as_slice()).unwrap_or_default() {
            rules.push(SyntaxRuleFrom {
                paths: rule.pattern.as_deref().unwrap_or("**").to_owned(),
                mode: SyntaxModeShown(rule.mode),
                from: Origin(source),
            });
        }
    }
    rules.push(SyntaxRuleFrom {
        paths: "**".to_owned(),
        mode: SyntaxModeShown(SyntaxMode::Refuse),
        from: Origin(Source::Default),
    });
    rules
}

/// What trusting the workspace's config would enable, and what holds until then, when it
/// names something that needs trust and is not trusted.
fn untrusted(ctx: &Context) -> Option<(Vec<String>, &'static str)> {
    let policy = &ctx.policy;
    let ws = policy.workspace.as_ref()?;
    if policy.trust == Trust::Trusted {
        return None;
    }
    let base = policy.user.as_ref().map_or(Limits::DEFAULT, |u| {
        u.limits.over(Limits::DEFAULT, |v, _| v)
    });
    let wanted = policy::needs_trust(ws, &base);
    if wanted.is_empty() {
        return None;
    }
    let effect = if policy.untrusted_hook {
        "every change is refused (DENIED, rule untrusted-config) until a person runs `stitch config trust`"
    } else {
        "the raised limits fall back to the ones in force without this config"
    };
    Some((wanted, effect))
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

/// The value in force of the limit the config names `name`.
fn in_force_value(limits: &Limits, name: &str) -> u64 {
    match name {
        "maxReadBytes" => limits.max_read_bytes,
        "maxFileBytes" => limits.max_file_bytes,
        "listLimit" => limits.list,
        "globLimit" => limits.glob,
        "journalEntries" => limits.journal_entries,
        "journalBytes" => limits.journal_bytes,
        "maxGateBytes" => limits.max_gate_bytes,
        _ => limits.search,
    }
}
