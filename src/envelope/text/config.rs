//! `stitch config check` as text: one line a setting, its value and the config it came
//! from, for a person at a terminal or a script that greps it. Every value is quoted as
//! echoed text is, so a planted config cannot write control sequences to the terminal.

use std::fmt::Write as _;

use serde_json::Value;

use crate::streams::quote::Quote;

/// The keys written by their own rule, in this order; any other key of the report follows
/// as `key: JSON`, so a setting added later is shown before it has a rule of its own.
const ORDER: [&str; 13] = [
    "path",
    "exists",
    "trust",
    "userConfig",
    "deny",
    "readOnly",
    "limits",
    "authorize",
    "authorizeProgram",
    "journal",
    "syntax",
    "trustWouldEnable",
    "untrustedEffect",
];

/// Appends the report as text lines to `out`.
pub(super) fn report(out: &mut String, report: &Value, q: Quote) {
    let get = |key: &str| report.get(key).unwrap_or(&Value::Null);
    let exists = |v: &Value| {
        if v.as_bool() == Some(true) {
            ""
        } else {
            " (absent)"
        }
    };
    let _ = writeln!(
        out,
        "workspace config: {}{}",
        q.text(str_of(get("path"))),
        exists(get("exists"))
    );
    let _ = writeln!(out, "trust: {}", q.text(str_of(get("trust"))));
    let user = get("userConfig");
    let _ = writeln!(
        out,
        "user config: {}{}",
        q.text(str_of(user.get("path").unwrap_or(&Value::Null))),
        exists(user.get("exists").unwrap_or(&Value::Null))
    );
    for key in ["deny", "readOnly"] {
        patterns(out, key, get(key), q);
    }
    let _ = writeln!(out, "limits:");
    if let Some(limits) = get("limits").as_object() {
        let width = limits.keys().map(String::len).max().unwrap_or(0);
        for (name, limit) in limits {
            let _ = writeln!(
                out,
                "  {name:width$}  {}  ({})",
                compact(limit.get("value").unwrap_or(&Value::Null)),
                q.text(str_of(limit.get("from").unwrap_or(&Value::Null)))
            );
        }
    }
    hooks(out, get("authorize"), q);
    if let Some(program) = report.get("authorizeProgram") {
        let path = q.text(str_of(program.get("path").unwrap_or(&Value::Null)));
        match (
            program.get("sha256").and_then(Value::as_str),
            program.get("reason"),
        ) {
            (Some(sha), _) => {
                let _ = writeln!(out, "authorize program: {path}  sha256 {sha}");
            }
            (None, Some(reason)) => {
                let _ = writeln!(
                    out,
                    "authorize program: {path}  ({})",
                    q.text(str_of(reason))
                );
            }
            (None, None) => {
                let _ = writeln!(out, "authorize program: {path}  (missing)");
            }
        }
    }
    let journal = get("journal");
    let _ = writeln!(
        out,
        "journal: {}  ({})",
        if journal.get("value").and_then(Value::as_bool) == Some(false) {
            "off"
        } else {
            "on"
        },
        q.text(str_of(journal.get("from").unwrap_or(&Value::Null)))
    );
    syntax(out, get("syntax"), q);
    if let Some(wanted) = report.get("trustWouldEnable") {
        let _ = writeln!(out, "trusting it would enable:");
        for item in wanted.as_array().map(Vec::as_slice).unwrap_or_default() {
            let _ = writeln!(out, "  {}", q.text(item.as_str().unwrap_or(&compact(item))));
        }
    }
    if let Some(effect) = report.get("untrustedEffect") {
        let _ = writeln!(out, "until then: {}", q.text(str_of(effect)));
    }
    if let Some(map) = report.as_object() {
        for (key, value) in map {
            if !ORDER.contains(&key.as_str()) && key != "warnings" {
                let _ = writeln!(out, "{key}: {}", q.text(&compact(value)));
            }
        }
    }
    for warning in report
        .get("warnings")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let _ = writeln!(out, "warning: {}", q.text(str_of(warning)));
    }
}

/// `deny` or `readOnly`: `(none)`, or one pattern a line with its config.
fn patterns(out: &mut String, key: &str, list: &Value, q: Quote) {
    let items = list.as_array().map(Vec::as_slice).unwrap_or_default();
    if items.is_empty() {
        let _ = writeln!(out, "{key}: (none)");
        return;
    }
    let _ = writeln!(out, "{key}:");
    for item in items {
        let _ = writeln!(
            out,
            "  {}  ({})",
            q.text(str_of(item.get("pattern").unwrap_or(&Value::Null))),
            q.text(str_of(item.get("from").unwrap_or(&Value::Null)))
        );
    }
}

/// The authorize commands, each with its timeout and config.
fn hooks(out: &mut String, list: &Value, q: Quote) {
    let items = list.as_array().map(Vec::as_slice).unwrap_or_default();
    if items.is_empty() {
        let _ = writeln!(out, "authorize: (none)");
        return;
    }
    let _ = writeln!(out, "authorize:");
    for hook in items {
        let argv: Vec<&str> = hook
            .get("command")
            .and_then(Value::as_array)
            .map(|a| a.iter().map(str_of).collect())
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {}  (timeout {} s, {})",
            q.text(&argv.join(" ")),
            compact(hook.get("timeoutSecs").unwrap_or(&Value::Null)),
            q.text(str_of(hook.get("from").unwrap_or(&Value::Null)))
        );
    }
}

fn str_of(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The syntax gate's rules, first match first: one a line, its paths, its mode and its
/// config.
fn syntax(out: &mut String, rules: &Value, q: Quote) {
    let Some(rules) = rules.as_array() else {
        return;
    };
    let _ = writeln!(out, "syntax:");
    for rule in rules {
        let field = |key: &str| {
            q.text(str_of(rule.get(key).unwrap_or(&Value::Null)))
                .into_owned()
        };
        let _ = writeln!(
            out,
            "  {}  {}  ({})",
            field("paths"),
            field("mode"),
            field("from")
        );
    }
}
