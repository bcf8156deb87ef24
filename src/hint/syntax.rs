//! The hint of `SYNTAX_ERROR`: fix the text the caller sent at the line named, or pass the
//! override when a later change completes it.

use serde_json::Value;

use super::{text, Caller};
use crate::refusal::{key, Refusal};

/// The hint of a change refused by the syntax gate: the field that carried the text
/// (`details.field`: `newText`, `content`, `patch`, `changes`), the line and the override.
pub(super) fn syntax_error(refusal: &Refusal, d: Caller) -> String {
    let path = text(refusal, key::PATH).unwrap_or("the file");
    let line = refusal.detail("line").and_then(Value::as_u64).unwrap_or(1);
    let allow = d.switch("allowSyntaxErrors");
    let fix = match (text(refusal, key::FIELD), refusal.detail(key::CHANGE_INDEX)) {
        (Some(field), Some(index)) => format!(
            "Fix change {index} of {} so that `{path}` parses at line {line} (details.excerpt shows where), and send the call again",
            d.name(field)
        ),
        (Some(field), None) => format!(
            "Fix {} so that `{path}` parses at line {line} (details.excerpt shows where), and send the call again",
            d.name(field)
        ),
        (None, _) => format!(
            "The merged result would not parse at line {line} of `{path}`: leave it, or undo anyway and fix the file after"
        ),
    };
    format!("{fix}; or pass {allow} if a later change completes it.")
}
