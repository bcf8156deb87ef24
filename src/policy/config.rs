//! Parsing one config file (the workspace's `.stitch/config.json` or the user's own)
//! strictly: every field checked, every mistake named by its dotted path.

use std::time::Duration;

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde_json::{Map, Value};

use super::Limits;
use crate::pattern::{GlobError, MAX_GLOB_BYTES};

/// Why the config is malformed: the field (a dotted path, absent when the file is not a
/// JSON object at all) and the problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {reason}", field.as_deref().unwrap_or("the config"))]
pub struct ConfigError {
    pub field: Option<String>,
    pub reason: String,
}

fn error(field: impl Into<String>, reason: impl Into<String>) -> ConfigError {
    ConfigError {
        field: Some(field.into()),
        reason: reason.into(),
    }
}

const FIELDS: [&str; 7] = [
    "deny",
    "readOnly",
    "limits",
    "authorize",
    "authorizeTimeoutSecs",
    "journal",
    "syntax",
];
const LIMIT_FIELDS: [&str; 9] = [
    "maxReadBytes",
    "maxFileBytes",
    "listLimit",
    "globLimit",
    "searchLimit",
    "journalEntries",
    "journalBytes",
    "maxGateBytes",
    "maxGateMillis",
];

/// The default time an authorize command may take.
pub const DEFAULT_AUTHORIZE_TIMEOUT: Duration = Duration::from_secs(30);

/// One config file as written: what it names, nothing merged or decided yet.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// `deny`'s patterns as written, and compiled.
    pub deny: Vec<(String, Glob)>,
    /// `readOnly`'s patterns as written, and compiled.
    pub read_only: Vec<(String, Glob)>,
    /// The limits it sets, each `None` where it sets none.
    pub limits: LimitSet,
    /// The command that approves mutations, if any.
    pub authorize: Option<Vec<String>>,
    pub authorize_timeout: Option<Duration>,
    /// `journal: false` turns the journal off.
    pub journal: Option<bool>,
    /// `syntax`'s rules, in the order written (a plain value is one rule for every path).
    pub syntax: Vec<SyntaxRule>,
}

/// What the syntax gate does with a change that breaks a file's syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyntaxMode {
    /// Refuse the change (`SYNTAX_ERROR`): the default.
    Refuse,
    /// Apply it, and list the errors in the result.
    Warn,
    /// Do not parse.
    Off,
}

impl SyntaxMode {
    /// The mode's name in the config.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            SyntaxMode::Refuse => "refuse",
            SyntaxMode::Warn => "warn",
            SyntaxMode::Off => "off",
        }
    }
}

/// One rule of `syntax`: the paths it covers (`None`: every path) and its mode.
#[derive(Debug, Clone)]
pub struct SyntaxRule {
    /// The glob as written (`None` for a plain value).
    pub pattern: Option<String>,
    pub paths: Option<GlobSet>,
    pub mode: SyntaxMode,
}

/// The limits one config sets: a value per limit it names.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LimitSet {
    pub max_read_bytes: Option<u64>,
    pub max_file_bytes: Option<u64>,
    pub list: Option<u64>,
    pub glob: Option<u64>,
    pub search: Option<u64>,
    pub journal_entries: Option<u64>,
    pub journal_bytes: Option<u64>,
    pub max_gate_bytes: Option<u64>,
    pub max_gate_millis: Option<u64>,
}

impl LimitSet {
    /// Each limit with its config name: the set's value, and `base`'s.
    #[must_use]
    pub fn pairs(&self, base: &Limits) -> [(&'static str, Option<u64>, u64); 9] {
        [
            ("maxReadBytes", self.max_read_bytes, base.max_read_bytes),
            ("maxFileBytes", self.max_file_bytes, base.max_file_bytes),
            ("listLimit", self.list, base.list),
            ("globLimit", self.glob, base.glob),
            ("searchLimit", self.search, base.search),
            ("journalEntries", self.journal_entries, base.journal_entries),
            ("journalBytes", self.journal_bytes, base.journal_bytes),
            ("maxGateBytes", self.max_gate_bytes, base.max_gate_bytes),
            ("maxGateMillis", self.max_gate_millis, base.max_gate_millis),
        ]
    }

    /// `base` with each limit this set names replaced by `pick(set's, base's)`.
    #[must_use]
    pub fn over(&self, base: Limits, pick: impl Fn(u64, u64) -> u64) -> Limits {
        let one = |set: Option<u64>, base: u64| set.map_or(base, |v| pick(v, base));
        Limits {
            max_read_bytes: one(self.max_read_bytes, base.max_read_bytes),
            max_file_bytes: one(self.max_file_bytes, base.max_file_bytes),
            list: one(self.list, base.list),
            glob: one(self.glob, base.glob),
            search: one(self.search, base.search),
            journal_entries: one(self.journal_entries, base.journal_entries),
            journal_bytes: one(self.journal_bytes, base.journal_bytes),
            max_gate_bytes: one(self.max_gate_bytes, base.max_gate_bytes),
            max_gate_millis: one(self.max_gate_millis, base.max_gate_millis),
        }
    }
}

/// Parses one config file's bytes, checking every field.
pub fn parse(bytes: &[u8]) -> Result<Config, ConfigError> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| ConfigError {
        field: None,
        reason: format!("not valid JSON: {e}"),
    })?;
    let Value::Object(map) = value else {
        return Err(ConfigError {
            field: None,
            reason: "the config must be a JSON object".into(),
        });
    };
    if let Some(unknown) = map.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        if unknown.to_ascii_lowercase().contains("trust") {
            return Err(error(
                unknown.as_str(),
                "a config cannot trust itself: a person trusts a workspace's config with `stitch config trust`",
            ));
        }
        return Err(error(
            unknown.as_str(),
            format!("unknown field; allowed: {}", FIELDS.join(", ")),
        ));
    }
    let deny = globs(&map, "deny")?;
    let read_only = globs(&map, "readOnly")?;
    let limits = limits(map.get("limits"))?;
    let authorize = match map.get("authorize") {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) if !items.is_empty() => {
            let mut argv = Vec::new();
            for (i, item) in items.iter().enumerate() {
                match item.as_str() {
                    Some(s) if !s.is_empty() || i > 0 => argv.push(s.to_owned()),
                    _ => {
                        return Err(error(
                            format!("authorize[{i}]"),
                            "must be a non-empty string",
                        ))
                    }
                }
            }
            Some(argv)
        }
        Some(_) => {
            return Err(error(
                "authorize",
                "must be a non-empty array of strings (the command and its arguments)",
            ))
        }
    };
    let authorize_timeout = match map.get("authorizeTimeoutSecs") {
        None => None,
        Some(v) => match v.as_f64() {
            Some(secs) if secs > 0.0 && secs <= 3600.0 => Some(Duration::from_secs_f64(secs)),
            _ => {
                return Err(error(
                    "authorizeTimeoutSecs",
                    "must be a number of seconds above 0 and at most 3600",
                ))
            }
        },
    };
    let journal = match map.get("journal") {
        None => None,
        Some(Value::Bool(on)) => Some(*on),
        Some(_) => return Err(error("journal", "must be true or false")),
    };
    let syntax = syntax(map.get("syntax"))?;
    Ok(Config {
        deny,
        read_only,
        limits,
        authorize,
        authorize_timeout,
        journal,
        syntax,
    })
}

/// `syntax`: `"refuse"`, `"warn"` or `"off"`, or an object of globs to those values.
fn syntax(value: Option<&Value>) -> Result<Vec<SyntaxRule>, ConfigError> {
    const MODES: &str = "must be \"refuse\", \"warn\" or \"off\"";
    let mode = |field: &str, value: &Value| match value.as_str() {
        Some("refuse") => Ok(SyntaxMode::Refuse),
        Some("warn") => Ok(SyntaxMode::Warn),
        Some("off") => Ok(SyntaxMode::Off),
        _ => Err(error(field, MODES)),
    };
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(map)) => {
            let mut rules = Vec::new();
            for (pattern, value) in map {
                let field = format!("syntax.{pattern}");
                let mode = mode(&field, value)?;
                let glob = crate::pattern::glob(pattern.trim_start_matches("./")).map_err(|e| {
                    let reason = match e {
                        GlobError::TooLong => format!(
                            "must be a non-empty glob pattern of at most {MAX_GLOB_BYTES} bytes"
                        ),
                        GlobError::Invalid(reason) => {
                            format!("the glob `{pattern}` does not compile: {reason}")
                        }
                    };
                    error(field.clone(), reason)
                })?;
                let paths = GlobSetBuilder::new()
                    .add(glob)
                    .build()
                    .map_err(|e| error(field, e.to_string()))?;
                rules.push(SyntaxRule {
                    pattern: Some(pattern.clone()),
                    paths: Some(paths),
                    mode,
                });
            }
            Ok(rules)
        }
        Some(value) => Ok(vec![SyntaxRule {
            pattern: None,
            paths: None,
            mode: mode("syntax", value)
                .map_err(|_| error("syntax", format!("{MODES}, or an object of globs to those")))?,
        }]),
    }
}

fn globs(map: &Map<String, Value>, field: &str) -> Result<Vec<(String, Glob)>, ConfigError> {
    let items = match map.get(field) {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(error(field, "must be an array of glob patterns")),
    };
    let mut patterns = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(pattern) = item.as_str().filter(|p| !p.is_empty()) else {
            return Err(error(
                format!("{field}[{i}]"),
                format!("must be a non-empty glob pattern of at most {MAX_GLOB_BYTES} bytes"),
            ));
        };
        let glob = crate::pattern::glob(pattern.trim_start_matches("./")).map_err(|e| {
            let reason = match e {
                GlobError::TooLong => {
                    format!("must be a non-empty glob pattern of at most {MAX_GLOB_BYTES} bytes")
                }
                GlobError::Invalid(reason) => {
                    format!("the glob `{pattern}` does not compile: {reason}")
                }
            };
            error(format!("{field}[{i}]"), reason)
        })?;
        patterns.push((pattern.to_owned(), glob));
    }
    Ok(patterns)
}

/// A glob set of every pattern in `lists`; `None` when there are none.
pub fn glob_set<'a>(lists: impl IntoIterator<Item = &'a [(String, Glob)]>) -> Option<GlobSet> {
    let mut builder = GlobSetBuilder::new();
    let mut any = false;
    for (_, glob) in lists.into_iter().flatten() {
        builder.add(glob.clone());
        any = true;
    }
    // Each glob compiled on its own, so the set does too.
    any.then(|| builder.build().ok()).flatten()
}

fn limits(value: Option<&Value>) -> Result<LimitSet, ConfigError> {
    let mut limits = LimitSet::default();
    let map = match value {
        None | Some(Value::Null) => return Ok(limits),
        Some(Value::Object(map)) => map,
        Some(_) => return Err(error("limits", "must be an object")),
    };
    for (key, value) in map {
        let field = format!("limits.{key}");
        let Some(n) = value.as_u64().filter(|n| *n > 0) else {
            if LIMIT_FIELDS.contains(&key.as_str()) {
                return Err(error(field, "must be a positive integer"));
            }
            return Err(error(
                field,
                format!("unknown limit; allowed: {}", LIMIT_FIELDS.join(", ")),
            ));
        };
        match key.as_str() {
            "maxReadBytes" => limits.max_read_bytes = Some(n),
            "maxFileBytes" => limits.max_file_bytes = Some(n),
            "listLimit" => limits.list = Some(n),
            "globLimit" => limits.glob = Some(n),
            "searchLimit" => limits.search = Some(n),
            "journalEntries" => limits.journal_entries = Some(n),
            "journalBytes" => limits.journal_bytes = Some(n),
            "maxGateBytes" => limits.max_gate_bytes = Some(n),
            "maxGateMillis" => limits.max_gate_millis = Some(n),
            _ => {
                return Err(error(
                    field,
                    format!("unknown limit; allowed: {}", LIMIT_FIELDS.join(", ")),
                ))
            }
        }
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn reads_a_full_config() {
        let config = parse(
            br#"{"deny":["**/.env","secrets/**"],"readOnly":["vendor/**"],
            "limits":{"maxReadBytes":100},"authorize":["./approve","-q"],"authorizeTimeoutSecs":2,
            "journal":false}"#,
        )
        .unwrap();
        let deny = super::glob_set([config.deny.as_slice()]).unwrap();
        assert!(super::super::matches(&deny, "a/b/.env"));
        assert!(super::super::matches(&deny, ".env"));
        assert!(super::super::matches(&deny, "secrets/x/y"));
        assert!(!super::super::matches(&deny, "src/main.rs"));
        assert_eq!(config.limits.max_read_bytes, Some(100));
        assert_eq!(config.limits.max_file_bytes, None);
        assert_eq!(config.authorize.unwrap(), ["./approve", "-q"]);
        assert_eq!(config.journal, Some(false));
    }

    #[test]
    fn names_the_bad_field() {
        let field = |json: &str| parse(json.as_bytes()).unwrap_err().field;
        assert_eq!(field(r#"{"deny":["ok","a[","b"]}"#), Some("deny[1]".into()));
        assert_eq!(
            field(r#"{"limits":{"maxFileBytes":-1}}"#),
            Some("limits.maxFileBytes".into())
        );
        assert_eq!(
            field(r#"{"limits":{"bogus":1}}"#),
            Some("limits.bogus".into())
        );
        assert_eq!(field(r#"{"denny":[]}"#), Some("denny".into()));
        assert_eq!(field(r#"{"journal":"no"}"#), Some("journal".into()));
        // No key lets a config trust itself.
        assert_eq!(field(r#"{"trusted":true}"#), Some("trusted".into()));
        assert_eq!(field("[1]"), None);
        assert_eq!(field("{"), None);
    }
}
