//! Whether a change is applied whole already (`okIfApplied`), judged from the files as
//! they are: every update's hunks undone by their new sides, every edit's new text there
//! in place of its old, every written file there with its content, every deleted file
//! gone, every moved file at its new place only.

use std::collections::BTreeMap;

use crate::patch;
use crate::workspace::Location;

use super::super::edit::snippet;
use super::build::Original;
use super::op::{Action, Part};

/// Whether each of `changes` is applied already to the files `originals`, in order.
pub fn applied_each(
    changes: &[Part],
    located: &BTreeMap<&str, &Location>,
    originals: &BTreeMap<String, Original>,
) -> Vec<bool> {
    let text_of = |raw: &str| {
        originals
            .get(&located[raw].real)
            .map(|o| o.text().unwrap_or_default())
    };
    let absent = |raw: &str| !originals.contains_key(&located[raw].real);
    let applied = |change: &Part| match &change.op {
        Action::Write { path, content, .. } => text_of(path) == Some(content.as_str()),
        Action::Delete { path, .. } => absent(path),
        Action::Update {
            path,
            move_to,
            hunks,
            ..
        } => {
            let at = move_to.as_deref().unwrap_or(path);
            let reversed: Vec<patch::Hunk> = hunks.iter().map(reversed).collect();
            text_of(at).is_some_and(|t| patch::apply(t, &reversed).is_ok())
                && (move_to.is_none() || absent(path))
        }
        Action::Edit { path, items, .. } => text_of(path).is_some_and(|t| {
            items.iter().all(|item| {
                crate::text::matching::locate(t, &item.old_text, &item.new_text)
                    .offsets
                    .is_empty()
                    && snippet::already_applied(t, item)
            })
        }),
        Action::Move { from, to, .. } => absent(from) && !absent(to),
    };
    changes.iter().map(applied).collect()
}

/// For an update of a file, whether each of its hunks is there already on its own (its
/// new side where its old side would be); `None` for any other change.
pub fn applied_hunks(
    change: &Part,
    located: &BTreeMap<&str, &Location>,
    originals: &BTreeMap<String, Original>,
) -> Option<Vec<bool>> {
    let Action::Update {
        path,
        move_to,
        hunks,
        ..
    } = &change.op
    else {
        return None;
    };
    let at = move_to.as_deref().unwrap_or(path);
    let text = originals.get(&located.get(at)?.real)?.text()?;
    Some(
        hunks
            .iter()
            .map(|h| patch::apply(text, &[reversed(h)]).is_ok())
            .collect(),
    )
}

/// A hunk the other way round: its new side taken back to its old.
fn reversed(hunk: &patch::Hunk) -> patch::Hunk {
    patch::Hunk {
        old: hunk.new.clone(),
        new: hunk.old.clone(),
        ..hunk.clone()
    }
}
