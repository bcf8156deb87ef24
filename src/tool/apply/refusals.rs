//! The refusals of building an apply, as facts the hint layer phrases: a change onto a
//! file that exists (with the way out the change itself has), a deletion whose hunk is
//! not the whole file, a hunk that did not land (edit_file's candidates, the hunk named).

use serde_json::json;

use crate::patch::{self, HunkFailure};
use crate::refusal::{key, Code, Refusal};

use super::super::edit::{request::EditItem, snippet};
use super::op::Added;

/// `ALREADY_EXISTS` for a change onto `shown`, which exists: its digest, the operation
/// (`write` for an added file, `move`) and — for an item that could have said so —
/// `overwrite: false`, so that the hint names the way out the change itself has (a patch
/// has no overwrite).
#[cold]
pub fn already_exists(
    message: String,
    shown: &str,
    sha256: Option<String>,
    operation: &str,
    added: Added,
) -> Refusal {
    let mut refusal = Refusal::new(Code::AlreadyExists, message).with(key::PATH, shown);
    if let Some(sha) = sha256 {
        refusal = refusal.with(key::SHA256, sha);
    }
    refusal = refusal.with(key::OPERATION, operation);
    match added {
        Added::ByWrite { .. } => refusal.with(key::OVERWRITE, false),
        Added::ByPatch => refusal,
    }
}

/// `NO_MATCH` for a deletion whose hunk is not the whole of the file (newer work is
/// there, or other work): the file's whole text is the one candidate, and the refusal
/// says it is a deletion's, so the hint asks for a re-read, not a rewritten hunk.
#[cold]
pub fn not_whole(shown: &str, text: &str, whole: &patch::Hunk) -> Refusal {
    let candidates: Vec<_> =
        crate::text::candidates::whole(text, &whole.old.join("\n"), snippet::CANDIDATE_BUDGET)
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
    Refusal::new(
        Code::NoMatch,
        format!(
            "The deletion's old side is not the whole of `{shown}`, which holds other lines now"
        ),
    )
    .with(key::PATH, shown)
    .with(key::CANDIDATES, candidates)
    .with(key::OPERATION, "delete")
    .with("hunkIndex", 0)
}

/// The refusal of a hunk that did not land: edit_file's, with the hunk named.
pub fn hunk_refusal(
    shown: &str,
    text: &str,
    hunks: &[patch::Hunk],
    failure: &HunkFailure,
) -> Refusal {
    let (index, refusal) = match failure {
        HunkFailure::NoMatch { hunk } | HunkFailure::NoAnchor { hunk } => {
            let h = &hunks[*hunk];
            let item = EditItem {
                old_text: h.old.join("\n"),
                new_text: h.new.join("\n"),
                replace_all: false,
                expected_replacements: None,
            };
            // edit_file's candidates, but the sentence of a hunk: a patch has no oldText.
            let mut refusal = snippet::no_match(shown, text, &item, None)
                .reworded(format!("A hunk's old side is not in `{shown}`"));
            if let HunkFailure::NoMatch { hunk } = failure {
                // Lines that are there, exactly, but not where the hunk may go: the
                // candidate would be the hunk itself, and the retry the same patch.
                if let Some(misplaced) = super::anchor::misplaced(shown, text, hunks, *hunk) {
                    refusal = misplaced;
                }
            }
            if let (HunkFailure::NoAnchor { .. }, Some(anchor)) = (failure, &h.anchor) {
                refusal = super::anchor::no_anchor(shown, text, h, anchor).unwrap_or_else(|| {
                    Refusal::new(
                        Code::NoMatch,
                        format!("The anchor line `{anchor}` of a chunk is not in `{shown}` after the chunk before it"),
                    )
                    .with(key::PATH, shown)
                    .with(key::ANCHOR, anchor.as_str())
                    .with(key::CANDIDATES, refusal.detail(key::CANDIDATES).cloned().unwrap_or(json!([])))
                });
            }
            (*hunk, refusal)
        }
        HunkFailure::Ambiguous { hunk, lines } => (
            *hunk,
            Refusal::new(
                Code::AmbiguousMatch,
                format!("A hunk's old side appears {} times in `{shown}`, so where it goes is ambiguous", lines.len()),
            )
            .with(key::PATH, shown)
            .with("occurrences", lines.len())
            .with(key::LINES, lines.clone()),
        ),
        // The caller names its budget; a deadline without one is still out of time.
        HunkFailure::OutOfTime { hunk } => (
            *hunk,
            Refusal::new(
                Code::Busy,
                "The apply ran out of time while it placed the hunks, so it changed nothing",
            )
            .with(key::REASON, key::OUT_OF_TIME)
            .with("retryable", true),
        ),
    };
    refusal.with("hunkIndex", index)
}
