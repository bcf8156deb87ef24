//! The refusal of an `okIfApplied` apply that is not applied whole: it names a change
//! that is not applied, and why, never one that is; and it never asks for `okIfApplied`,
//! which the call already gave.

use serde_json::Value;

use crate::refusal::{key, Code, Refusal};

use super::build::Built;
use super::op::Change;

/// The detail listing the changes (0-based) found applied already.
const APPLIED_CHANGES: &str = "appliedChanges";

/// The refusal of `changes` (each applied or not, `each`) that failed to build with
/// `refusal`: that one when it is about a change that is not applied; else the failure
/// of the changes that are not applied, built on their own by `rest` — or, when they
/// would apply, that the change is applied in part.
pub fn blame(
    refusal: Refusal,
    changes: &[Change],
    each: &[bool],
    rest: impl FnOnce(&[Change]) -> Result<Built, Refusal>,
) -> Refusal {
    let applied: Vec<usize> = (0..each.len()).filter(|&i| each[i]).collect();
    let index = refusal
        .detail(key::CHANGE_INDEX)
        .and_then(Value::as_u64)
        .and_then(|i| usize::try_from(i).ok());
    if index.is_some_and(|i| !each.get(i).copied().unwrap_or(true)) {
        return refusal.without(key::ALREADY_APPLIED);
    }
    let kept: Vec<usize> = (0..each.len()).filter(|&i| !each[i]).collect();
    let subset: Vec<Change> = kept.iter().map(|&i| changes[i].clone()).collect();
    let Err(failure) = rest(&subset) else {
        return partly_applied(changes, &kept, applied);
    };
    let at = failure
        .detail(key::CHANGE_INDEX)
        .and_then(Value::as_u64)
        .and_then(|i| usize::try_from(i).ok())
        .and_then(|i| kept.get(i).copied());
    let failure = failure
        .without(key::ALREADY_APPLIED)
        .with(APPLIED_CHANGES, applied);
    match at {
        Some(at) => failure.with(key::CHANGE_INDEX, at),
        None => failure,
    }
}

/// The refusal of a change whose changes `kept` (not applied) would apply on their own,
/// while the others (`applied`) are there already: it is applied in part.
#[cold]
fn partly_applied(changes: &[Change], kept: &[usize], applied: Vec<usize>) -> Refusal {
    let first = kept.first().copied().unwrap_or_default();
    let path = changes[first]
        .paths()
        .first()
        .copied()
        .unwrap_or_default()
        .to_owned();
    let listed: Vec<String> = applied.iter().map(ToString::to_string).collect();
    Refusal::new(
        Code::NoMatch,
        format!(
            "The change is applied only in part: change {first} (`{path}`) is not applied yet, while changes {} are",
            listed.join(", ")
        ),
    )
    .with(key::PATH, path)
    .with(key::REASON, key::PARTLY_APPLIED)
    .with(APPLIED_CHANGES, applied)
    .with(key::CHANGE_INDEX, first)
}
