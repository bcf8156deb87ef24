//! A line both sides changed, merged character by character: each side's changes to the
//! caller's line, the words they reach, and whether two of them meet — then the line is
//! a conflict and nothing is merged.

use super::indent::{leading, Indent};
use super::respace;
use super::stretches;
use super::MAX_MERGED_LINE;

/// One side's change to the base: the characters `start..end` replaced by `with`.
#[derive(Debug, PartialEq)]
pub(super) struct Splice {
    pub(super) start: usize,
    pub(super) end: usize,
    with: Vec<char>,
}

pub(super) fn changes(base: &[char], side: &[char]) -> Vec<Splice> {
    stretches(base, side)
        .1
        .into_iter()
        .map(|(start, len, from, with)| Splice {
            start,
            end: start + len,
            with: side[from..from + with].to_vec(),
        })
        .collect()
}

pub(super) fn word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The span of base characters a change is about: what it replaces, widened to whole
/// words where it cuts into one or adds to one, so two changes of one word are seen to
/// meet even where their characters do not.
fn reach(base: &[char], change: &Splice) -> (usize, usize) {
    // A dotted run (`1.2.3`, `a.b`) is one word here: a version is changed whole.
    let is_word = |i: usize| base.get(i).copied().is_some_and(|c| word(c) || c == '.');
    let (mut start, mut end) = (change.start, change.end);
    if change.start == change.end {
        // An insertion that joins a word on either side (word characters meeting word
        // characters) is about that word.
        let joins_before = change.with.first().copied().is_some_and(word);
        let joins_after = change.with.last().copied().is_some_and(word);
        if joins_before && start > 0 && is_word(start - 1) {
            while start > 0 && is_word(start - 1) {
                start -= 1;
            }
        }
        if joins_after && is_word(end) {
            while is_word(end) {
                end += 1;
            }
        }
        return (start, end);
    }
    if start > 0 && is_word(start - 1) && is_word(start) {
        while start > 0 && is_word(start - 1) {
            start -= 1;
        }
    }
    if end > 0 && is_word(end - 1) && is_word(end) {
        while is_word(end) {
            end += 1;
        }
    }
    (start, end)
}

/// Whether two changes of the same base would touch the same characters or words: their
/// reaches overlap, both insert at one point, or one inserts strictly inside the other.
fn clash(base: &[char], a: &Splice, b: &Splice) -> bool {
    if a == b {
        return false;
    }
    let (a0, a1) = reach(base, a);
    let (b0, b1) = reach(base, b);
    // An insertion at the edge of whole words the other side deleted is about those
    // words (`re` → `re: Regex` where the file no longer has `re` there).
    let whole_words_deleted = |c: &Splice| {
        let bounded = |i: usize| i == 0 || i >= base.len() || !word(base[i - 1]) || !word(base[i]);
        base[c.start..c.end].iter().copied().any(word)
            && !c.with.iter().copied().any(word)
            && bounded(c.start)
            && bounded(c.end)
    };
    let beside = |insert: &Splice, other: &Splice| {
        insert.start == insert.end
            && whole_words_deleted(other)
            && (insert.start == other.start || insert.start == other.end)
    };
    if beside(a, b) || beside(b, a) {
        return true;
    }
    match (a0 == a1, b0 == b1) {
        (true, true) => a0 == b0,
        (true, false) => b0 < a0 && a0 < b1,
        (false, true) => a0 < b0 && b0 < a1,
        (false, false) => a0 < b1 && b0 < a1,
    }
}

/// A line both sides changed, merged: its indentation apart from the rest — the file's
/// where the caller kept the caller's, the caller's where the file kept the caller's
/// remembered one, else the caller's mapped onto the file's as a new line's would be —
/// and the rest character by character. `None` where the changes touch the same
/// characters, or the indentation cannot be told.
pub(super) fn merge_indented(
    base: &str,
    ours: &str,
    theirs: &str,
    indent: &Indent,
) -> Option<String> {
    let (lb, lo, lt) = (leading(base), leading(ours), leading(theirs));
    let lead = if lt == lb {
        lo.to_owned()
    } else if lo == lb {
        lt.to_owned()
    } else if theirs.trim().is_empty() {
        theirs.to_owned()
    } else {
        let moved = indent.apply(theirs)?;
        leading(&moved).to_owned()
    };
    let body = merge_line(&base[lb.len()..], &ours[lo.len()..], &theirs[lt.len()..])?;
    Some(format!("{lead}{body}"))
}

/// A line both sides changed, merged character by character; `None` where the changes
/// touch the same characters.
fn merge_line(base: &str, ours: &str, theirs: &str) -> Option<String> {
    if base.len().max(ours.len()).max(theirs.len()) > MAX_MERGED_LINE {
        return None;
    }
    let b: Vec<char> = base.chars().collect();
    let yours = changes(&b, &theirs.chars().collect::<Vec<_>>());
    // Where the file differs from oldText only in whitespace, inside a stretch the caller
    // rewrote, the caller's text stands (whitespace set aside, nothing else differs).
    let blank = |chars: &[char]| chars.iter().all(|c| c.is_whitespace());
    let all_mine = changes(&b, &ours.chars().collect::<Vec<_>>());
    let covered = |m: &Splice| {
        yours
            .iter()
            .any(|y| y.start < y.end && y.start <= m.start && m.end <= y.end)
    };
    let spacing = |m: &Splice| blank(&b[m.start..m.end]) && blank(&m.with);
    if all_mine.iter().all(spacing) && all_mine.iter().any(covered) {
        // The file differs only in spacing, some of it inside what the caller rewrote:
        // the same spacing, at the same places, given to the caller's line (merged by
        // characters, the caller's own spelling would stand there).
        return respace::respace(base, ours, theirs);
    }
    let mine: Vec<Splice> = all_mine
        .into_iter()
        .filter(|m| !(spacing(m) && covered(m)))
        .collect();
    if mine.iter().any(|m| yours.iter().any(|y| clash(&b, m, y))) {
        return None;
    }
    // A line the caller rewrote (most of it replaced) that the file holds otherwise than
    // the caller remembered: what the caller meant for the file's line cannot be told.
    let solid = |chars: &[char]| chars.iter().filter(|c| !c.is_whitespace()).count();
    let rewritten: usize = yours.iter().map(|y| solid(&b[y.start..y.end])).sum();
    let differs = mine
        .iter()
        .any(|m| !(blank(&b[m.start..m.end]) && blank(&m.with)));
    if rewritten > 0 && 2 * rewritten >= solid(&b) {
        // Where the file differs only in spacing, the rewrite takes the file's spacing at
        // the same places.
        return if differs {
            None
        } else {
            respace::respace(base, ours, theirs)
        };
    }
    // The file's line differs in content from the caller's memory of it, and the caller
    // replaced some of it: what the caller meant for the file's words cannot be told (a
    // merge would put the file's words into the caller's rewrite).
    if differs && rewritten > 0 {
        return None;
    }
    let mut all: Vec<&Splice> = mine.iter().chain(yours.iter()).collect();
    // By position; at one position an insertion goes before a replacement, and a change
    // both sides made is made once.
    all.sort_by_key(|c| (c.start, c.end));
    all.dedup_by(|a, b| a == b);
    let mut out = String::with_capacity(theirs.len() + ours.len());
    let mut at = 0;
    for change in all {
        out.extend(&b[at..change.start]);
        out.extend(&change.with);
        at = change.end;
    }
    out.extend(&b[at..]);
    Some(out)
}
