//! Refusals about snippets that do not match once: no match (with the closest
//! candidates), ambiguous, or a count that differs from the expected one.

use std::time::Duration;

use serde_json::{json, Value};

use crate::refusal::{key, Code, Refusal};
use crate::text::{applied, candidates, carry, lines, matching, normal, similarity};

use super::request::{with_index, EditItem};

/// How many candidates a `NO_MATCH` carries.
const MAX_CANDIDATES: usize = 3;
/// How long the candidate search may take on a large file.
pub const CANDIDATE_BUDGET: Duration = Duration::from_millis(250);

/// The least similarity at which a candidate is taken clearly for the passage the caller
/// meant, so that its repaired `newText` may be offered.
const CLEARLY: f64 = 0.7;

/// How far ahead of the next candidate the first must be to be clearly the passage.
const MARGIN: f64 = 0.1;

/// For a one-line `oldText` whose candidate differs from it in indentation: whether
/// another line of the file is like it at the caller's own indentation — then the caller
/// may have meant that line (misremembered otherwise), and the candidate is in doubt.
fn another_line_like(text: &str, old: &str, candidate: &str) -> bool {
    const MAX_SCANNED: usize = 1 << 20;
    let old = old.trim_end_matches(['\n', '\r']);
    if old.contains('\n') || text.len() > MAX_SCANNED {
        return false;
    }
    let indent = &old[..old.len() - old.trim_start().len()];
    let candidate = candidate.trim_end_matches(['\n', '\r']);
    let candidate_indent = &candidate[..candidate.len() - candidate.trim_start().len()];
    if candidate.trim() != old.trim() || candidate_indent == indent {
        return false;
    }
    text.lines().any(|line| {
        line != candidate
            && line.starts_with(indent)
            && !line[indent.len()..].starts_with(char::is_whitespace)
            && line.len().abs_diff(old.len()) * 5 <= old.len()
            && similarity::chars(line.trim(), old.trim(), None) >= 0.8
    })
}

/// `NO_MATCH`: `oldText` is not in the file; the closest passages, each with the call
/// repaired onto it where that is beyond doubt, and whether the edit looks applied
/// already.
#[cold]
pub fn no_match(shown: &str, text: &str, item: &EditItem, edit_index: Option<usize>) -> Refusal {
    no_match_in(shown, text, item, edit_index, FromJournal::default())
}

/// What the journal knows of a file an edit did not match in: its earlier versions
/// (newest first), and the entry that made this very edit, when the file is still at its
/// result.
#[derive(Debug, Default)]
pub struct FromJournal<'a> {
    pub versions: &'a [String],
    pub applied_by: Option<String>,
}

/// [`no_match`], told what the journal knows: the file's earlier `versions` (newest
/// first) — an `oldText` quoted from one of them is a stale read, and no change is carried
/// onto today's text — and the entry that made this very edit, when the file is still at
/// its result (`appliedBy`).
#[cold]
pub fn no_match_in(
    shown: &str,
    text: &str,
    item: &EditItem,
    edit_index: Option<usize>,
    FromJournal {
        versions,
        applied_by,
    }: FromJournal<'_>,
) -> Refusal {
    // An oldText pasted from a numbered read: look for it, and carry the change, without
    // the numbers.
    let numbered =
        lines::strip_numbers(&item.old_text).filter(|_| lines::strip_numbers(text).is_none());
    let (old, new) = match &numbered {
        Some(old) => (
            old.as_str(),
            // The lines the caller copied are numbered, a line it added may not be.
            lines::strip_numbers_where_present(&item.new_text),
        ),
        None => (item.old_text.as_str(), item.new_text.clone()),
    };
    let found = closest_passages(text, old);
    let applied = applied_by.is_some() || already_applied(text, item);
    // A file moved on by this very edit is not a stale read: the edit is applied.
    let stale = !applied
        && versions
            .iter()
            .any(|v| !matching::locate(v, old, "").offsets.is_empty());
    let moved_on = found
        .first()
        .filter(|_| stale)
        .map(|c| json!({"startLine": c.start_line, "endLine": c.end_line}));
    let searched = Searched {
        text,
        old,
        new: &new,
        numbered: numbered.is_some(),
        // A stale quote or an edit already applied carries nothing: the change would be
        // made to what is no longer there, or made twice.
        may_carry: !stale && !applied,
    };
    let repaired = searched.offered(found);
    let message = match edit_index {
        Some(i) => format!("oldText of edits[{i}] is not in `{shown}`"),
        None => format!("oldText is not in `{shown}`"),
    };
    let mut refusal = Refusal::new(Code::NoMatch, message)
        .with(key::PATH, shown)
        .with(key::CANDIDATES, repaired);
    if applied {
        refusal = refusal.with(key::ALREADY_APPLIED, true);
    }
    if let Some(id) = applied_by {
        refusal = refusal.with(key::APPLIED_BY, id);
    }
    if let Some(lines) = moved_on {
        refusal = refusal.with(key::MOVED_ON, lines);
    }
    with_index(refusal, edit_index)
}

/// The passages of `text` closest to `old`, best first: the candidate search's, and —
/// for an `old` that elides lines (`...`) — the whole stretch from its first lines to its
/// last ahead of them, the others that overlap it gone.
fn closest_passages(text: &str, old: &str) -> Vec<candidates::Candidate> {
    let mut found = candidates::closest(text, old, MAX_CANDIDATES, CANDIDATE_BUDGET);
    if let Some((first, last, passage)) = carry::elided_passage(text, old) {
        found.retain(|c| c.end_line <= first || c.start_line > last + 1);
        found.truncate(MAX_CANDIDATES - 1);
        let similarity =
            (similarity::chars(&normal::collapsed(old), &normal::collapsed(&passage), None)
                * 1000.0)
                .round()
                / 1000.0;
        found.insert(
            0,
            candidates::Candidate {
                start_line: first + 1,
                end_line: last + 1,
                text: passage,
                similarity: similarity.max(CLEARLY),
                difference: candidates::Difference::Content,
            },
        );
    }
    found
}

/// What a `NO_MATCH`'s candidates are offered against: the file, the snippet as searched
/// for (its line numbers taken off when it was `numbered`), and whether a repaired
/// `newText` may be offered at all.
struct Searched<'a> {
    text: &'a str,
    old: &'a str,
    new: &'a str,
    numbered: bool,
    may_carry: bool,
}

impl Searched<'_> {
    /// The candidates as the refusal lists them, each with how it differs from `oldText`;
    /// the first, when it is clearly the passage meant, with the call's change carried
    /// onto it as its `newText`.
    fn offered(&self, found: Vec<candidates::Candidate>) -> Vec<Value> {
        let Searched { text, old, new, .. } = *self;
        // The first candidate is clearly the passage only when no other comes close: by
        // similarity, or by being within one token of oldText while the next is further.
        let runner_up = found.get(1).map_or(0.0, |c| c.similarity);
        let ahead = match (found.first(), found.get(1)) {
            (Some(first), Some(second)) => {
                let best = carry::token_distance(old, &first.text);
                best.0 <= 1 && best < carry::token_distance(old, &second.text)
            }
            _ => true,
        };
        let mut repaired = Vec::with_capacity(found.len());
        for (rank, c) in found.into_iter().enumerate() {
            let difference =
                if self.numbered && c.text.replace("\r\n", "\n") == old.replace("\r\n", "\n") {
                    "line-numbers"
                } else {
                    c.difference.as_str()
                };
            let mut candidate = json!({
                "startLine": c.start_line,
                "endLine": c.end_line,
                "text": c.text,
                "similarity": c.similarity,
                "difference": difference,
            });
            // Only the first candidate, and only when it is clearly the passage, is offered
            // a repaired newText: a doubtful offer followed to the letter writes a file the
            // caller did not mean.
            let clear = rank == 0
                && self.may_carry
                && (c.similarity >= CLEARLY || difference == "line-numbers")
                && (runner_up < c.similarity - MARGIN || ahead)
                && !another_line_like(text, old, &c.text);
            let carried = clear
                .then(|| carry::carry(old, &c.text, new))
                .flatten()
                .filter(|carried| carry::carries_back(old, &c.text, new, carried));
            if let Some(carried) = carried {
                if carried != c.text {
                    candidate["newText"] = Value::String(carried);
                }
            }
            repaired.push(candidate);
        }
        repaired
    }
}

/// Whether an item whose `oldText` is absent is applied already, as far as the file alone
/// can tell: its `newText` stands where its `oldText` would stand
/// ([`applied::looks_applied`]).
pub fn already_applied(text: &str, item: &EditItem) -> bool {
    applied::looks_applied(text, &item.old_text, &item.new_text)
}

/// How many distinct lines an `AMBIGUOUS_MATCH` lists; past them, `moreLines` counts the
/// rest. A snippet that matches that often is too short to place, and its hint leads with
/// lengthening it (SPEC §4: each line once; past a handful, lengthen the snippet).
pub const AMBIGUOUS_LINES_SHOWN: usize = 10;

/// `AMBIGUOUS_MATCH`: more than one occurrence and no instruction to replace them all.
/// `lines` are the start lines of the occurrences, in order: each line is listed once,
/// and at most [`AMBIGUOUS_LINES_SHOWN`] of them.
#[cold]
pub fn ambiguous(
    shown: &str,
    count: usize,
    mut lines: Vec<usize>,
    edit_index: Option<usize>,
) -> Refusal {
    lines.dedup();
    let more = lines.len().saturating_sub(AMBIGUOUS_LINES_SHOWN);
    lines.truncate(AMBIGUOUS_LINES_SHOWN);
    let mut refusal = Refusal::new(
        Code::AmbiguousMatch,
        format!("oldText appears {count} times in `{shown}`, so the edit is ambiguous"),
    )
    .with(key::PATH, shown)
    .with(key::OCCURRENCES, count)
    .with(key::LINES, lines);
    if more > 0 {
        refusal = refusal.with(key::MORE_LINES, more);
    }
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
