//! Applying edits: the result as the original's unchanged head and tail around a new
//! middle, so a one-line edit of a large file never copies the file in memory.

use std::borrow::Cow;

use sha2::{Digest, Sha256};

use crate::refusal::Refusal;
use crate::text::{diff, lines, matching};

use super::request::{EditItem, Form};
use super::snippet;

/// The edited text: the original's first `head` bytes, then `middle`, then the
/// original's last `tail` bytes.
#[derive(Debug)]
pub struct Edited<'a> {
    pub original: &'a str,
    pub head: usize,
    pub middle: String,
    pub tail: usize,
    /// Occurrences replaced, over all edits.
    pub replacements: usize,
    /// Whether some `newText` was written with CRLF to follow the file's convention.
    pub crlf_converted: bool,
    /// The items skipped because their `oldText` is absent and their edit already applied
    /// (only with `okIfApplied`).
    pub already_applied: Vec<usize>,
    /// The journal entry that made the items skipped as applied, when it holds them.
    pub applied_by: Option<String>,
}

impl Edited<'_> {
    /// The result's three parts, in order.
    #[must_use]
    pub fn parts(&self) -> [&[u8]; 3] {
        let bytes = self.original.as_bytes();
        [
            &bytes[..self.head],
            self.middle.as_bytes(),
            &bytes[bytes.len() - self.tail..],
        ]
    }

    /// The result's size in bytes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.head + self.middle.len() + self.tail
    }

    /// Whether the edits changed nothing.
    #[must_use]
    pub fn is_unchanged(&self) -> bool {
        self.original[self.head..self.original.len() - self.tail] == self.middle
    }

    /// The lowercase hex SHA-256 of the result.
    #[must_use]
    pub fn sha256(&self) -> String {
        self.sha256_from((0, Sha256::new()))
    }

    /// The lowercase hex SHA-256 of the result, resumed from the state of a digest of
    /// the original's first `start` bytes (`start` at most `head`: the bytes both share).
    #[must_use]
    pub fn sha256_from(&self, (start, mut hasher): (usize, Sha256)) -> String {
        let [head, middle, tail] = self.parts();
        let start = start.min(head.len());
        if start == 0 {
            hasher = Sha256::new();
        }
        hasher.update(&head[start..]);
        hasher.update(middle);
        hasher.update(tail);
        crate::digest::hex(&hasher.finalize())
    }

    /// A unified diff of the change, bounded to `max_bytes`.
    #[must_use]
    pub fn diff(&self, path: &str, max_bytes: usize) -> diff::Diff {
        diff::unified_splice(
            path,
            self.original,
            self.head,
            &self.middle,
            self.tail,
            max_bytes,
        )
    }
}

/// Whether the journal shows an item applied to the file, whose text is now the second
/// argument: the first evidence `okIfApplied` trusts.
pub type Journaled<'j> = &'j dyn Fn(&EditItem, &str) -> bool;

/// The id of the journal entry that made an item, whose result the file (now the second
/// argument) still is.
pub type AppliedBy<'j> = &'j dyn Fn(&EditItem, &str) -> Option<String>;

/// The file's earlier versions, newest first, back from the text given.
pub type Versions<'j> = &'j dyn Fn(&str) -> Vec<String>;

/// What an edit may learn beyond the file's text: whether it is applied already (and by
/// which journal entry), and the file's earlier versions, asked only when needed.
#[derive(Clone, Copy, Default)]
pub struct Evidence<'e> {
    /// With `okIfApplied`: an item already applied is skipped rather than applied or refused.
    pub ok_if_applied: bool,
    /// The id of the journal entry that made an item and whose result the file still is.
    pub applied_by: Option<AppliedBy<'e>>,
    /// The file's earlier versions, newest first, other than the text given.
    pub versions: Option<Versions<'e>>,
}

/// Applies the edits in order to the evolving text, all or nothing. With `ok_if_applied`,
/// an item whose edit is already applied (as the journal shows, or as its text shows) is
/// skipped rather than applied again or refused.
pub fn apply<'a>(
    shown: &str,
    original: &'a str,
    items: &[EditItem],
    form: Form,
    ok_if_applied: Option<Journaled<'_>>,
) -> Result<Edited<'a>, Refusal> {
    let journaled =
        ok_if_applied.map(|j| move |item: &EditItem, text: &str| j(item, text).then(String::new));
    let evidence = Evidence {
        ok_if_applied: ok_if_applied.is_some(),
        applied_by: journaled.as_ref().map(|j| j as AppliedBy<'_>),
        versions: None,
    };
    apply_with(shown, original, items, form, evidence)
}

/// [`apply`], with what the journal knows ([`Evidence`]).
pub fn apply_with<'a>(
    shown: &str,
    original: &'a str,
    items: &[EditItem],
    form: Form,
    evidence: Evidence<'_>,
) -> Result<Edited<'a>, Refusal> {
    check_room(shown, original, items)?;
    let mut text = Cow::Borrowed(original);
    let mut replacements = 0usize;
    let mut crlf_converted = false;
    let mut already_applied = Vec::new();
    let mut applied_by = None;
    let mut span = None;
    for (index, item) in items.iter().enumerate() {
        let edit_index = form.index(index);
        let located = matching::locate(&text, &item.old_text, &item.new_text);
        let count = located.offsets.len();
        let starts = || lines::lines_of(text.as_bytes(), &located.offsets);
        if evidence.ok_if_applied {
            let by = evidence.applied_by.and_then(|by| by(item, &text));
            if by.is_some() || snippet::already_applied(&text, item) {
                applied_by = by.filter(|id| !id.is_empty()).or(applied_by);
                already_applied.push(index);
                continue;
            }
        }
        if count == 0 {
            // Earlier versions tell a stale quote only of the file as it was read.
            let as_read = matches!(text, Cow::Borrowed(_));
            let evidence = Evidence {
                versions: evidence.versions.filter(|_| as_read),
                ..evidence
            };
            return Err(no_match(shown, &text, item, edit_index, evidence));
        }
        as_many_as_asked(shown, item, count, starts, edit_index)?;
        replacements += count;
        crlf_converted |= located.new_converted;
        if items.len() == 1 {
            // One edit: only the span from the first match to the end of the last is
            // rebuilt; the rest of the file stays where it is.
            let head = located.offsets[0];
            let end = located.offsets[count - 1] + located.old.len();
            let offsets: Vec<usize> = located.offsets.iter().map(|o| o - head).collect();
            let middle = matching::replace_at(
                &original[head..end],
                &offsets,
                located.old.len(),
                &located.new,
            );
            span = Some((head, middle, original.len() - end));
        } else {
            let next =
                matching::replace_at(&text, &located.offsets, located.old.len(), &located.new);
            text = Cow::Owned(next);
        }
    }
    let (head, middle, tail) = span.unwrap_or_else(|| around_middle(original, &text));
    Ok(Edited {
        original,
        head,
        middle,
        tail,
        replacements,
        crlf_converted,
        already_applied,
        applied_by,
    })
}

/// `NO_MATCH` for `item` in `text`, told what the journal knows: the file's earlier
/// versions, when the evidence offers them, and the entry whose word is that this very
/// edit made today's text.
fn no_match(
    shown: &str,
    text: &str,
    item: &EditItem,
    edit_index: Option<usize>,
    evidence: Evidence<'_>,
) -> Refusal {
    let versions = evidence
        .versions
        .map_or_else(Vec::new, |versions| versions(text));
    let by = evidence
        .applied_by
        .and_then(|by| by(item, text))
        .filter(|id| !id.is_empty());
    let journaled = snippet::FromJournal {
        versions: &versions,
        applied_by: by,
    };
    snippet::no_match_in(shown, text, item, edit_index, journaled)
}

/// Refuses `count` matches of `item` other than it asked for: a count other than its
/// `expectedReplacements`, or, without one, more than one match not to be replaced all.
/// `starts` gives the matches' lines, for the refusal.
fn as_many_as_asked(
    shown: &str,
    item: &EditItem,
    count: usize,
    starts: impl FnOnce() -> Vec<usize>,
    edit_index: Option<usize>,
) -> Result<(), Refusal> {
    if let Some(expected) = item.expected_replacements {
        if expected != count as u64 {
            return Err(snippet::count_mismatch(
                shown,
                expected,
                count,
                starts(),
                edit_index,
            ));
        }
    } else if count > 1 && !item.replace_all {
        return Err(snippet::ambiguous(shown, count, starts(), edit_index));
    }
    Ok(())
}

/// `text` as the bytes it shares with `original` at its head and tail, around the middle
/// that differs: (head length, middle, tail length), each cut at a character boundary.
fn around_middle(original: &str, text: &str) -> (usize, String, usize) {
    let (old, new) = (original.as_bytes(), text.as_bytes());
    let mut head = diff::common_prefix(old, new);
    let room = old.len().min(new.len()) - head;
    let mut tail = diff::common_suffix(&old[old.len() - room..], &new[new.len() - room..]);
    // Shared bytes can end inside a character that then differs: cut before it.
    while !text.is_char_boundary(head) {
        head -= 1;
    }
    while !text.is_char_boundary(text.len() - tail) {
        tail -= 1;
    }
    (head, text[head..text.len() - tail].to_owned(), tail)
}

/// Refuses an edit whose result and match offsets could not be held in memory now.
fn check_room(shown: &str, original: &str, items: &[EditItem]) -> Result<(), Refusal> {
    // The result is built beside the original, and the offsets of every match are kept:
    // make sure room for both can be had (at most one match per oldText's length), so
    // that a file within the limits but beyond the memory at hand is refused, not an
    // abort of the allocator.
    let room = items.iter().fold(original.len(), |n, item| {
        let matches = original.len() / item.old_text.len().max(1);
        n.saturating_add(item.new_text.len())
            .saturating_add(matches.saturating_mul(std::mem::size_of::<usize>()))
    });
    if Vec::<u8>::new().try_reserve_exact(room).is_err() {
        return Err(Refusal::new(
            crate::refusal::Code::TooLarge,
            format!(
                "`{shown}` is {} bytes, more than stitch can hold in memory now",
                original.len()
            ),
        )
        .with(crate::refusal::key::PATH, shown)
        .with("bytes", original.len())
        .with(crate::refusal::key::REASON, "memory"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::apply;
    use crate::tool::edit::request::{EditItem, Form};

    fn item(old: &str, new: &str) -> EditItem {
        EditItem {
            old_text: old.into(),
            new_text: new.into(),
            replace_all: true,
            expected_replacements: None,
        }
    }

    fn result(original: &str, items: &[EditItem]) -> String {
        let form = if items.len() > 1 {
            Form::Edits
        } else {
            Form::Single
        };
        let edited = apply("f", original, items, form, None).unwrap();
        let bytes: Vec<u8> = edited.parts().concat();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn one_edit_keeps_head_and_tail_in_place() {
        let edited = apply(
            "f",
            "aaa b ccc b ddd",
            &[item("b", "X")],
            Form::Single,
            None,
        )
        .unwrap();
        assert_eq!(
            (edited.head, edited.middle.as_str(), edited.tail),
            (4, "X ccc X", 4)
        );
        assert_eq!(edited.replacements, 2);
    }

    #[test]
    fn several_edits_give_the_same_bytes_as_applying_them_in_turn() {
        let text = "caf\u{e9} one\ntwo caf\u{e9}\n";
        let items = [item("\u{e9} one", "\u{e8} one"), item("two", "2")];
        assert_eq!(result(text, &items), "caf\u{e8} one\n2 caf\u{e9}\n");
        let items = [item("one", "x"), item("x", "one")];
        let edited = apply("f", text, &items, Form::Edits, None).unwrap();
        assert!(edited.is_unchanged());
    }

    #[test]
    fn applied_items_are_skipped_only_when_asked() {
        let text = "alpha\nbeta two\ngamma\n";
        let items = [item("beta one", "beta two"), item("gamma", "delta")];
        assert!(apply("f", text, &items, Form::Edits, None).is_err());
        let edited = apply("f", text, &items, Form::Edits, Some(&|_, _| false)).unwrap();
        assert_eq!(edited.already_applied, vec![0]);
        assert_eq!(edited.replacements, 1);
        assert_eq!(result_of(&edited), "alpha\nbeta two\ndelta\n");
        let missing = [item("beta one", "beta three")];
        assert!(apply("f", text, &missing, Form::Single, Some(&|_, _| false)).is_err());
        let once = apply("f", text, &items[..1], Form::Single, Some(&|_, _| false)).unwrap();
        assert!(once.is_unchanged());
        assert_eq!(once.already_applied, vec![0]);
    }

    fn result_of(edited: &super::Edited<'_>) -> String {
        String::from_utf8(edited.parts().concat()).unwrap()
    }
}
