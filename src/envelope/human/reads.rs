//! Reads as text: a file's content as it is (numbered when the call asked); an image or
//! a PDF as what it is and its size, never its bytes; several files read in one call,
//! each under a `==> path <==` heading, as `head` and `tail` print several files, and each
//! file refused, and each left unread by the bound on the total, on stderr, so nothing is
//! dropped in silence.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::hint::Caller;
use crate::streams::quote;
use crate::tool::output::{FileAnswer, MediaResult, Output, ReadFilesResult};

/// Writes a read's result to `out` and what follows it on stderr to `footer`.
pub fn result(
    out: &mut String,
    footer: &mut Vec<String>,
    output: &Output,
    q: quote::Quote,
    dialect: Caller,
) {
    match output {
        Output::Read(r) => {
            // Numbered already when the call asked (`-n`, `lineNumbers`).
            out.push_str(&q.text(&r.content));
            if let Some(next) = r.next_offset {
                footer.push(format!("(more: --offset {next})"));
            }
        }
        Output::Media(m) => media(out, m, q),
        Output::ReadFiles(r) => files(out, footer, r, q, dialect),
        _ => {}
    }
}

/// An image or a PDF, as a person at a terminal is told of it: what it is and its size,
/// never its bytes.
fn media(out: &mut String, m: &MediaResult, q: quote::Quote) {
    let what = if m.is_image() {
        "image"
    } else {
        "PDF document"
    };
    let _ = writeln!(
        out,
        "{}: {what} ({}), {} bytes, sha256 {}",
        q.name(&m.path),
        m.media.mime,
        m.media.bytes,
        m.media.sha256
    );
}

/// Writes the files read to `out` and what follows them on stderr to `footer`.
fn files(
    out: &mut String,
    footer: &mut Vec<String>,
    r: &ReadFilesResult,
    q: quote::Quote,
    dialect: Caller,
) {
    for answer in &r.files {
        let file = match answer {
            FileAnswer::Read(file) => file,
            FileAnswer::Refused(refused) => {
                let item =
                    crate::envelope::phrase::refused_item(&refused.path, &refused.refusal, dialect);
                let shown = super::refusal::render(&Value::Object(item), dialect);
                let name = q.name(&refused.path);
                footer.push(format!("==> {name} <==\n{}", shown.trim_end()));
                continue;
            }
        };
        let path = file.get("path").and_then(Value::as_str).unwrap_or_default();
        let name = q.name(path);
        if let Some(media) = file.get("media") {
            let _ = writeln!(
                out,
                "==> {name} <==\n{} ({}), {} bytes",
                if media["mime"]
                    .as_str()
                    .is_some_and(|m| m.starts_with("image/"))
                {
                    "image"
                } else {
                    "PDF document"
                },
                media["mime"].as_str().unwrap_or_default(),
                media["bytes"]
            );
            continue;
        }
        let content = file
            .get("content")
            .and_then(Value::as_str)
            .unwrap_or_default();
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
fn more(footer: &mut Vec<String>, file: &Map<String, Value>, name: &str, dialect: Caller) {
    if let Some(next) = file.get("nextOffset").and_then(Value::as_u64) {
        let offset = dialect.name("offset");
        footer.push(format!("(more of {name}: {offset} {next})"));
    }
}
