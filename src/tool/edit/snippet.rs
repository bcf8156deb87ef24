//! Refusals about snippets that do not match once: no match (with the closest
//! candidates), ambiguous, or a count that differs from the expected one.

use std::time::Duration;

use serde_json::{json, Value};

use crate::refusal::{key, Code, Refusal};
use crate::text::candidates;

use super::request::{with_index, EditItem};

/// How many candidates a `NO_MATCH` carries.
const MAX_CANDIDATES: usize = 3;
/// How long the candidate search may take on a large file.
const CANDIDATE_BUDGET: Duration = Duration::from_millis(250);

/// `NO_MATCH`: `oldText` is not in the file; the closest passages, and whether the edit
/// looks applied already.
#[cold]
pub fn no_match(shown: &str, text: &str, item: &EditItem, edit_index: Option<usize>) -> Refusal {
    let found: Vec<Value> =
        candidates::closest(text, &item.old_text, MAX_CANDIDATES, CANDIDATE_BUDGET)
            .into_iter()
            .map(|c| {
                json!({
                    "startLine": c.start_line,
                    "endLine": c.end_line,
                    "text": c.text,
                    "similarity": c.similarity,
                    "difference": c.difference.as_str(),
                })
            })
            .collect();
    let applied = already_applied(text, item);
    let message = match edit_index {
        Some(i) => format!("oldText of edits[{i}] is not in `{shown}`"),
        None => format!("oldText is not in `{shown}`"),
    };
    let mut refusal = Refusal::new(Code::NoMatch, message)
        .with(key::PATH, shown)
        .with(key::CANDIDATES, found);
    if applied {
        refusal = refusal.with(key::ALREADY_APPLIED, true);
    }
    with_index(refusal, edit_index)
}

/// Whether an item whose `oldText` is absent looks applied already: its `newText` is in
/// the text. A short newText turns up anywhere by chance; only a telling one counts.
pub fn already_applied(text: &str, item: &EditItem) -> bool {
    let telling = item.new_text.trim().chars().count() >= 8 || item.new_text.trim().contains('\n');
    telling
        && !crate::text::matching::locate(text, &item.new_text, "")
            .offsets
            .is_empty()
}

/// `AMBIGUOUS_MATCH`: more than one occurrence and no instruction to replace them all.
#[cold]
pub fn ambiguous(
    shown: &str,
    count: usize,
    lines: Vec<usize>,
    edit_index: Option<usize>,
) -> Refusal {
    let refusal = Refusal::new(
        Code::AmbiguousMatch,
        format!("oldText appears {count} times in `{shown}`, so the edit is ambiguous"),
    )
    .with(key::PATH, shown)
    .with("occurrences", count)
    .with(key::LINES, lines);
    with_index(refusal, edit_index)
}

/// `MATCH_COUNT_MISMATCH`: `expectedReplacements` differs from the number of matches.
#[cold]
pub fn count_mismatch(
    shown: &str,
    expected: u64,
    count: usize,
    lines: Vec<usize>,
    edit_index: Option<usize>,
) -> Refusal {
    let refusal = Refusal::new(
        Code::MatchCountMismatch,
        format!(
            "oldText appears {count} times in `{shown}`, but expectedReplacements is {expected}"
        ),
    )
    .with(key::PATH, shown)
    .with("expectedReplacements", expected)
    .with("occurrences", count)
    .with(key::LINES, lines);
    with_index(refusal, edit_index)
}
