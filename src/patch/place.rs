//! Where a hunk goes in a file, found without scanning the file for it: a file with more
//! than a few hunks has its lines indexed once ([`Index`]), and a hunk is looked for only
//! where its rarest line is — after the previous hunk (a moving cursor), at or nearest its
//! stated line — so placing a file's hunks costs its bytes once plus a little per hunk,
//! not bytes per hunk. What is found is what a scan would find: the nearest match to a unified hunk's
//! stated line (the earlier of two as near), the only match after a Codex chunk's anchor,
//! the only match anywhere of a SEARCH block.

use super::{Hunk, HunkFailure, Placement};
use crate::text::lines::Line;

/// Hunks a file may have before its lines are indexed: fewer are each looked for by a
/// scan from the cursor, which costs less than an index would.
const SCANNED_HUNKS: usize = 8;

/// The lines of a file where a hunk may be anchored: those that may read a given text,
/// ascending — from the index, or every line of a file not indexed.
#[derive(Debug, Clone, Copy)]
enum Places<'i> {
    Listed(&'i [u32]),
    Every(usize),
}

impl<'i> Places<'i> {
    fn len(self) -> usize {
        match self {
            Places::Listed(lines) => lines.len(),
            Places::Every(count) => count,
        }
    }

    /// The `i`th place.
    fn get(self, i: usize) -> Option<usize> {
        match self {
            Places::Listed(lines) => lines.get(i).map(|&l| l as usize),
            Places::Every(count) => (i < count).then_some(i),
        }
    }

    /// How many places lie before line `line`.
    fn before(self, line: usize) -> usize {
        match self {
            Places::Listed(lines) => lines.partition_point(|&l| (l as usize) < line),
            Places::Every(count) => line.min(count),
        }
    }

    /// The places from the `i`th on.
    fn from(self, i: usize) -> impl Iterator<Item = usize> + 'i {
        (i..self.len()).filter_map(move |i| self.get(i))
    }
}

/// A file's lines by what they read: each line's hash, and the lines in the order of their
/// hashes (then of their number), 12 bytes a line — or, for a file with few hunks,
/// nothing. A hash names the lines that may read a text; only a comparison says which do.
pub(super) enum Index {
    Scan(usize),
    Hashed { hashes: Vec<u64>, order: Vec<u32> },
}

impl Index {
    /// The index of `file`, which `hunks` hunks will be placed in.
    pub(super) fn new(file: &[Line<'_>], hunks: usize) -> Index {
        let Ok(count) = u32::try_from(file.len()) else {
            return Index::Scan(file.len());
        };
        if hunks <= SCANNED_HUNKS {
            return Index::Scan(file.len());
        }
        let hashes: Vec<u64> = file.iter().map(|l| hash(l.text)).collect();
        let mut order: Vec<u32> = (0..count).collect();
        order.sort_unstable_by_key(|&i| (hashes[i as usize], i));
        Index::Hashed { hashes, order }
    }

    /// The lines that may read `text`, ascending.
    fn of(&self, text: &str) -> Places<'_> {
        match self {
            Index::Scan(count) => Places::Every(*count),
            Index::Hashed { hashes, order } => {
                let h = hash(text);
                let first = order.partition_point(|&i| hashes[i as usize] < h);
                let end = first + order[first..].partition_point(|&i| hashes[i as usize] == h);
                Places::Listed(&order[first..end])
            }
        }
    }

    /// The line of `old` that occurs least often in the file (its offset within `old`),
    /// and where it may occur: every match of `old` starts that offset before one of them.
    fn rarest(&self, old: &[String]) -> (usize, Places<'_>) {
        old.iter()
            .enumerate()
            .map(|(k, line)| (k, self.of(line)))
            .min_by_key(|(_, places)| places.len())
            .unwrap_or((0, Places::Listed(&[])))
    }
}

/// A line's hash (SipHash, as std's maps use, with fixed keys): two lines' hashes are
/// equal by chance about once in 2^64 pairs, and a file made to collide costs only time,
/// which the apply's budget bounds.
fn hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// Whether `old` is the file's lines from `at` on.
fn matches_at(file: &[Line<'_>], old: &[String], at: usize) -> bool {
    #[cfg(test)]
    tests::TRIED.with(|tried| tried.set(tried.get() + 1));
    at + old.len() <= file.len() && old.iter().zip(&file[at..]).all(|(o, l)| l.text == o)
}

/// Every line from `from` on where `old` (not empty) matches, ascending.
fn matches_from(file: &[Line<'_>], index: &Index, old: &[String], from: usize) -> Vec<usize> {
    let (k, places) = index.rarest(old);
    places
        .from(places.before(from + k))
        .map(|p| p - k)
        .filter(|&at| matches_at(file, old, at))
        .collect()
}

/// Where `hunk` (number `number`) goes in `file`, whose lines before `after` the previous
/// hunks took.
pub(super) fn place(
    file: &[Line<'_>],
    index: &Index,
    hunk: &Hunk,
    number: usize,
    after: usize,
) -> Result<usize, HunkFailure> {
    match hunk.placement {
        Placement::Anywhere => only(&matches_from(file, index, &hunk.old, 0), number),
        Placement::After => after_anchor(file, index, hunk, number, after),
        Placement::Near => {
            let stated = hunk.old_start.unwrap_or(1).saturating_sub(1);
            if hunk.old.is_empty() {
                return Ok(stated.min(file.len()).max(after));
            }
            nearest(file, index, &hunk.old, stated, after)
                .ok_or(HunkFailure::NoMatch { hunk: number })
        }
    }
}

/// The one match found, or why there is not one.
fn only(found: &[usize], number: usize) -> Result<usize, HunkFailure> {
    match found {
        [] => Err(HunkFailure::NoMatch { hunk: number }),
        [one] => Ok(*one),
        many => Err(HunkFailure::Ambiguous {
            hunk: number,
            lines: many.iter().map(|l| l + 1).collect(),
        }),
    }
}

/// A Codex chunk: after its anchor (the first line reading it from `after` on), the only
/// match there — at the very end of the file for a chunk that ends it.
fn after_anchor(
    file: &[Line<'_>],
    index: &Index,
    hunk: &Hunk,
    number: usize,
    after: usize,
) -> Result<usize, HunkFailure> {
    let mut from = after;
    if let Some(anchor) = &hunk.anchor {
        let places = index.of(anchor);
        let found = places
            .from(places.before(from))
            .find(|&p| file[p].text == anchor.as_str());
        let Some(found) = found else {
            return Err(HunkFailure::NoAnchor { hunk: number });
        };
        from = found;
        // The anchor line itself may open the old side, or precede it.
        if hunk.old.first().map(String::as_str) != Some(anchor.as_str()) {
            from += 1;
        }
    }
    if hunk.old.is_empty() {
        // An addition with no context: at the end of the file (Codex's `*** End of
        // File`, or no anchor), else right after the anchor.
        return Ok(if hunk.at_end || hunk.anchor.is_none() {
            file.len()
        } else {
            from
        });
    }
    if hunk.at_end {
        let at = file
            .len()
            .checked_sub(hunk.old.len())
            .filter(|&at| at >= from);
        let found = at.filter(|&at| matches_at(file, &hunk.old, at));
        return only(found.as_slice(), number);
    }
    only(&matches_from(file, index, &hunk.old, from), number)
}

/// The match of `old` (not empty) from `after` on nearest to line `stated`, the earlier
/// of two as near: the places of its rarest line, looked at outward from `stated`.
fn nearest(
    file: &[Line<'_>],
    index: &Index,
    old: &[String],
    stated: usize,
    after: usize,
) -> Option<usize> {
    let (k, places) = index.rarest(old);
    let pivot = stated.max(after);
    // The places before `split` start before the pivot (walked down), the others at or
    // after it (walked up).
    let split = places.before(pivot + k);
    let (mut left, mut right) = (split, split);
    loop {
        let below = left
            .checked_sub(1)
            .and_then(|i| places.get(i))
            .filter(|&p| p >= k + after)
            .map(|p| p - k);
        let above = places.get(right).map(|p| p - k);
        let at = match (below, above) {
            (None, None) => return None,
            (Some(b), Some(a)) if stated.abs_diff(b) <= stated.abs_diff(a) => {
                left -= 1;
                b
            }
            (Some(b), None) => {
                left -= 1;
                b
            }
            (_, Some(a)) => {
                right += 1;
                a
            }
        };
        if matches_at(file, old, at) {
            return Some(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use proptest::prelude::*;

    use super::super::{Hunk, HunkFailure, Placement};
    use super::{place, Index};
    use crate::text::lines::with_ends;

    thread_local! {
        /// How many places a hunk was tried at, on this thread.
        pub(super) static TRIED: Cell<usize> = const { Cell::new(0) };
    }

    /// Where a scan of the whole file would put `hunk`: every match from the cursor,
    /// then the nearest, the only one, or the one at the end.
    fn scanned(text: &str, hunk: &Hunk, after: usize) -> Result<usize, HunkFailure> {
        let file: Vec<&str> = with_ends(text).iter().map(|l| l.text).collect();
        let matches = |from: usize| -> Vec<usize> {
            (from..=file.len().saturating_sub(hunk.old.len()))
                .filter(|&at| {
                    at + hunk.old.len() <= file.len()
                        && hunk.old.iter().enumerate().all(|(k, l)| file[at + k] == l)
                })
                .collect()
        };
        let only = |found: Vec<usize>| match found.as_slice() {
            [] => Err(HunkFailure::NoMatch { hunk: 0 }),
            [one] => Ok(*one),
            many => Err(HunkFailure::Ambiguous {
                hunk: 0,
                lines: many.iter().map(|l| l + 1).collect(),
            }),
        };
        match hunk.placement {
            Placement::Anywhere => only(matches(0)),
            Placement::After => {
                let mut from = after;
                if let Some(anchor) = &hunk.anchor {
                    let Some(found) = (from..file.len()).find(|&i| file[i] == anchor) else {
                        return Err(HunkFailure::NoAnchor { hunk: 0 });
                    };
                    from = found + usize::from(hunk.old.first() != Some(anchor));
                }
                only(
                    matches(from)
                        .into_iter()
                        .filter(|&at| !hunk.at_end || at + hunk.old.len() == file.len())
                        .collect(),
                )
            }
            Placement::Near => {
                let stated = hunk.old_start.unwrap_or(1) - 1;
                matches(after)
                    .into_iter()
                    .min_by_key(|&at| (at.abs_diff(stated), at))
                    .ok_or(HunkFailure::NoMatch { hunk: 0 })
            }
        }
    }

    fn hunk(
        old: Vec<String>,
        placement: Placement,
        stated: usize,
        anchor: Option<String>,
        at_end: bool,
    ) -> Hunk {
        Hunk {
            old,
            anchor,
            old_start: Some(stated + 1),
            at_end,
            placement,
            ..Hunk::default()
        }
    }

    proptest! {
        /// Over files of few distinct lines, where matches repeat, every placement finds
        /// what a scan of the whole file finds.
        #[test]
        fn the_index_finds_what_a_scan_finds(
            file in prop::collection::vec(0..4u8, 0..40),
            old in prop::collection::vec(0..4u8, 1..4),
            kind in 0..3u8,
            stated in 0..45usize,
            after in 0..45usize,
            anchor in prop::option::of(0..4u8),
            at_end in any::<bool>(),
        ) {
            let text = file.iter().fold(String::new(), |text, l| text + &format!("l{l}\n"));
            let old: Vec<String> = old.iter().map(|l| format!("l{l}")).collect();
            let placement = [Placement::Anywhere, Placement::After, Placement::Near][usize::from(kind)];
            let anchor = anchor.filter(|_| placement == Placement::After).map(|a| format!("l{a}"));
            let hunk = hunk(old, placement, stated, anchor, at_end && placement == Placement::After);
            let cut = with_ends(&text);
            let after = after.min(cut.len());
            for hunks in [1, 1000] {
                let placed = place(&cut, &Index::new(&cut, hunks), &hunk, 0, after);
                prop_assert_eq!(placed, scanned(&text, &hunk, after));
            }
        }
    }

    /// 25,000 one-line hunks with their context, on a file of 200,000 lines: each hunk is
    /// tried at one place — where it is — however far into the file it lies, and so it
    /// stays when lines were added above since the diff was made (every hunk off by 2).
    #[test]
    fn each_hunk_is_tried_where_it_is_not_across_the_file() {
        let text = (0..200_000).fold(String::new(), |text, i| text + &format!("line {i}\n"));
        let shifted = format!("added\nabove\n{text}");
        for (placement, text, expected_offset) in [
            (Placement::Near, &text, 0),
            (Placement::Near, &shifted, 2),
            (Placement::After, &text, 0),
        ] {
            let cut = with_ends(text);
            let index = Index::new(&cut, 25_000);
            TRIED.with(|tried| tried.set(0));
            let mut after = 0;
            for k in 0..25_000 {
                let at = k * 8 + 4;
                let old = (at - 3..=at + 3).map(|i| format!("line {i}")).collect();
                let h = hunk(old, placement, at - 3, None, false);
                let placed = place(&cut, &index, &h, k, after).unwrap();
                assert_eq!(placed, at - 3 + expected_offset);
                after = placed + 7;
            }
            assert_eq!(TRIED.with(Cell::get), 25_000, "{placement:?}");
        }
    }
}
