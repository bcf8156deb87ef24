//! Several files read in one call, as text: each file read under a `==> path <==`
//! heading, as `head` and `tail` print several files; each file refused, and each left
//! unread by the bound on the total, on stderr, so nothing is dropped in silence.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::hint::Dialect;
use crate::streams::quote;
use crate::tool::output::ReadFilesResult;

/// Writes the files read to `out` and what follows them on stderr to `footer`.
pub fn files(
    out: &mut String,
    footer: &mut Vec<String>,
    r: &ReadFilesResult,
    q: quote::Quote,
    dialect: Dialect,
) {
    for file in &r.files {
        let path = file.get("path").and_then(Value::as_str).unwrap_or_default();
        let name = q.name(path);
        if file.get("ok") != Some(&Value::Bool(true)) {
            let envelope = Value::Object(file.clone());
            let shown = super::refusal::render(&envelope, dialect);
            footer.push(format!("==> {name} <==\n{}", shown.trim_end()));
            continue;
        }
        if let Some(media) = file.get("media") {
            let _ = writeln!(
                out,
                "==> {name} <==\n{} ({}), {} bytes",
                if media["mime"].as_str().is_some_and(|m| m.starts_with("image/")) {
                    "image"
                } else {
                    "PDF document"
                },
                media["mime"].as_str().unwrap_or_default(),
                media["bytes"]
            );
            continue;
        }
        let content = file.get("content").and_then(Value::as_str).unwrap_or_default();
        let _ = writeln!(out, "==> {name} <==");
        out.push_str(&q.text(content));
        if !content.is_empty() && !content.ends_with('\n') {
            out.push('\n');
        }
        more(footer, file, &name, dialect);
    }
    for left in &r.not_read {
        footer.push(format!(
            "stitch: not read: {} ({})",
            q.name(&left.path),
            left.reason
        ));
    }
    if r.glob_truncated {
        footer.push("stitch: the glob matched more files than it lists; narrow it".to_owned());
    }
}

/// `(more of PATH: --offset N)` for a file whose window did not reach its end.
fn more(footer: &mut Vec<String>, file: &Map<String, Value>, name: &str, dialect: Dialect) {
    if let Some(next) = file.get("nextOffset").and_then(Value::as_u64) {
        let offset = dialect.name("offset");
        footer.push(format!("(more of {name}: {offset} {next})"));
    }
}
