//! `stitch config check` as text: one line a setting, its value and the config it came
//! from, for a person at a terminal or a script that greps it. Every value is quoted as
//! echoed text is, so a planted config cannot write control sequences to the terminal.

use std::fmt::Write as _;

use crate::streams::quote::Quote;
use crate::tool::config_check::{ConfigReport, PatternFrom, ProgramShown, TrustShown};

/// Appends the report as text lines to `out`.
pub(super) fn report(out: &mut String, report: &ConfigReport, q: Quote) {
    let exists = |exists: bool| if exists { "" } else { " (absent)" };
    let _ = writeln!(
        out,
        "workspace config: {}{}",
        q.text(report.path),
        exists(report.exists)
    );
    let trust = match report.trust {
        TrustShown::NoConfig => "no-config",
        TrustShown::NotNeeded => "not-needed",
        TrustShown::Trusted => "trusted",
        TrustShown::Untrusted => "untrusted",
    };
    let _ = writeln!(out, "trust: {trust}");
    let _ = writeln!(
        out,
        "user config: {}{}",
        q.text(&report.user_config.path),
        exists(report.user_config.exists)
    );
    patterns(out, "deny", &report.deny, q);
    patterns(out, "readOnly", &report.read_only, q);
    limits(out, report);
    authorize(out, report, q);
    let _ = writeln!(
        out,
        "journal: {}  ({})",
        if report.journal.value { "on" } else { "off" },
        report.journal.from.0.as_str()
    );
    let _ = writeln!(out, "syntax:");
    for rule in &report.syntax {
        let _ = writeln!(
            out,
            "  {}  {}  ({})",
            q.text(&rule.paths),
            rule.mode.0.as_str(),
            rule.from.0.as_str()
        );
    }
    if let Some(wanted) = &report.trust_would_enable {
        let _ = writeln!(out, "trusting it would enable:");
        for item in wanted {
            let _ = writeln!(out, "  {}", q.text(item));
        }
    }
    if let Some(effect) = report.untrusted_effect {
        let _ = writeln!(out, "until then: {effect}");
    }
    for warning in &report.warnings {
        let _ = writeln!(out, "warning: {}", q.text(warning));
    }
}

/// `deny` or `readOnly`: `(none)`, or one pattern a line with its config.
fn patterns(out: &mut String, key: &str, list: &[PatternFrom], q: Quote) {
    if list.is_empty() {
        let _ = writeln!(out, "{key}: (none)");
        return;
    }
    let _ = writeln!(out, "{key}:");
    for item in list {
        let _ = writeln!(
            out,
            "  {}  ({})",
            q.text(&item.pattern),
            item.from.0.as_str()
        );
    }
}

/// The limits, one a line with the config each came from, their values aligned.
fn limits(out: &mut String, report: &ConfigReport) {
    let _ = writeln!(out, "limits:");
    let width = report
        .limits
        .0
        .iter()
        .map(|l| l.name.len())
        .max()
        .unwrap_or(0);
    for limit in &report.limits.0 {
        let _ = writeln!(
            out,
            "  {:width$}  {}  ({})",
            limit.name,
            limit.value,
            limit.from.0.as_str()
        );
    }
}

/// The authorize commands, one a line with its timeout and config, then the authorize
/// program: pinned by its digest (or missing), or why it cannot be pinned.
fn authorize(out: &mut String, report: &ConfigReport, q: Quote) {
    if report.authorize.is_empty() {
        let _ = writeln!(out, "authorize: (none)");
    } else {
        let _ = writeln!(out, "authorize:");
        for hook in &report.authorize {
            let _ = writeln!(
                out,
                "  {}  (timeout {} s, {})",
                q.text(&hook.command.join(" ")),
                // As the JSON writes it (`30.0`, `2.5`).
                serde_json::to_string(&hook.timeout_secs).unwrap_or_default(),
                hook.from.0.as_str()
            );
        }
    }
    match &report.authorize_program {
        None => {}
        Some(ProgramShown::Pinned { path, sha256 }) => {
            let path = q.text(path);
            let _ = match sha256 {
                Some(sha) => writeln!(out, "authorize program: {path}  sha256 {sha}"),
                None => writeln!(out, "authorize program: {path}  (missing)"),
            };
        }
        Some(ProgramShown::Unpinnable { path, reason }) => {
            let _ = writeln!(
                out,
                "authorize program: {}  ({})",
                q.text(path),
                q.text(reason)
            );
        }
    }
}
