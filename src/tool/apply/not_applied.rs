//! The refusal of an `okIfApplied` apply that is not applied whole: it names a change
//! (and a hunk) that is not applied, and why, never one that is; and it never asks for
//! `okIfApplied`, which the call already gave.

use serde_json::{json, Value};

use crate::refusal::{key, Code, Refusal};

use super::build::Built;
use super::op::{Action, Part};

/// The detail listing the changes (0-based) found applied already.
const APPLIED_CHANGES: &str = "appliedChanges";
/// The detail naming the hunks found applied already of the change a refusal is about:
/// `{changeIndex, hunks}`.
const APPLIED_HUNKS: &str = "appliedHunks";
/// The detail of a refusal about one hunk of a patch.
const HUNK_INDEX: &str = "hunkIndex";

/// What an apply found applied already: whole changes, and hunks of the one change the
/// refusal is about.
pub struct AlreadyApplied<'a> {
    /// Whether each change is applied.
    pub changes: &'a [bool],
    /// Whether each hunk of a change (an update) is applied on its own.
    pub hunks: &'a dyn Fn(&Part) -> Option<Vec<bool>>,
}

fn index(refusal: &Refusal, key: &str) -> Option<usize> {
    refusal
        .detail(key)
        .and_then(Value::as_u64)
        .and_then(|i| usize::try_from(i).ok())
}

/// The refusal of `changes` that failed to build with `refusal`: that one when it is
/// about a change, and a hunk, that is not applied; else the failure of what is not
/// applied, built on its own by `rest` — or, when that would apply, that the change is
/// applied in part.
pub fn blame(
    refusal: Refusal,
    changes: &[Part],
    found: &AlreadyApplied<'_>,
    rest: impl FnOnce(&[Part]) -> Result<Built, Refusal>,
) -> Refusal {
    let each = found.changes;
    let applied: Vec<usize> = (0..each.len()).filter(|&i| each[i]).collect();
    // The hunks applied already of the change blamed, when the hunk blamed is one.
    let mut hunks_done: Option<(usize, Vec<usize>)> = None;
    if let Some(j) =
        index(&refusal, key::CHANGE_INDEX).filter(|&j| !each.get(j).copied().unwrap_or(true))
    {
        let done = index(&refusal, HUNK_INDEX)
            .zip((found.hunks)(&changes[j]))
            .filter(|(h, hunks)| hunks.get(*h) == Some(&true))
            .map(|(_, hunks)| (0..hunks.len()).filter(|&h| hunks[h]).collect());
        let Some(done) = done else {
            return refusal.without(key::ALREADY_APPLIED);
        };
        hunks_done = Some((j, done));
    }
    let kept: Vec<usize> = (0..each.len()).filter(|&i| !each[i]).collect();
    let subset: Vec<Part> = kept
        .iter()
        .map(|&i| without_hunks(&changes[i], hunks_done.as_ref().filter(|(j, _)| *j == i)))
        .collect();
    let Err(failure) = rest(&subset) else {
        return partly_applied(changes, &kept, applied, hunks_done);
    };
    let at = index(&failure, key::CHANGE_INDEX).and_then(|i| kept.get(i).copied());
    let mut failure = failure
        .without(key::ALREADY_APPLIED)
        .with(APPLIED_CHANGES, applied);
    if let Some((j, done)) = &hunks_done {
        // A hunk of the change whose applied hunks were left out is counted as sent.
        if at == Some(*j) {
            if let Some(h) = index(&failure, HUNK_INDEX) {
                let sent = (0..).filter(|k| !done.contains(k)).nth(h).unwrap_or(h);
                failure = failure.with(HUNK_INDEX, sent);
            }
        }
        failure = failure.with(APPLIED_HUNKS, json!({"changeIndex": j, "hunks": done}));
    }
    match at {
        Some(at) => failure.with(key::CHANGE_INDEX, at),
        None => failure,
    }
}

/// `change` without the hunks `done` names (when it names this change).
fn without_hunks(change: &Part, done: Option<&(usize, Vec<usize>)>) -> Part {
    let mut change = change.clone();
    if let (Some((_, done)), Action::Update { hunks, .. }) = (done, &mut change.op) {
        let mut k = 0;
        hunks.retain(|_| {
            k += 1;
            !done.contains(&(k - 1))
        });
    }
    change
}

/// The refusal of a change whose parts not applied would apply on their own, while the
/// others (`applied` changes, the hunks `hunks_done` of one) are there already.
#[cold]
fn partly_applied(
    changes: &[Part],
    kept: &[usize],
    applied: Vec<usize>,
    hunks_done: Option<(usize, Vec<usize>)>,
) -> Refusal {
    let first = kept.first().copied().unwrap_or_default();
    let path = changes[first]
        .paths()
        .first()
        .copied()
        .unwrap_or_default()
        .to_owned();
    let mut done = Vec::new();
    if !applied.is_empty() {
        let listed: Vec<String> = applied.iter().map(ToString::to_string).collect();
        done.push(format!("changes {}", listed.join(", ")));
    }
    if let Some((j, hunks)) = &hunks_done {
        let listed: Vec<String> = hunks.iter().map(ToString::to_string).collect();
        done.push(format!("hunks {} of change {j}", listed.join(", ")));
    }
    let mut refusal = Refusal::new(
        Code::NoMatch,
        format!(
            "The change is applied only in part: {} are applied already, and change {first} (`{path}`) is not",
            done.join(" and ")
        ),
    )
    .with(key::PATH, path)
    .with(key::REASON, key::PARTLY_APPLIED)
    .with(APPLIED_CHANGES, applied);
    if let Some((j, hunks)) = hunks_done {
        refusal = refusal.with(APPLIED_HUNKS, json!({"changeIndex": j, "hunks": hunks}));
    }
    refusal.with(key::CHANGE_INDEX, first)
}
