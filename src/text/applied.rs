//! Whether an edit looks applied already, from the file alone, by one rule that holds
//! anywhere (SPEC §4): `newText` stands where `oldText` would stand. Its `newText` occurs
//! exactly once; the best place for `oldText` in today's text (its nearest candidate, or
//! its own occurrences) lies in that occurrence, clearly ahead of any other; and
//! `oldText` is found nowhere outside it. Whole lines or not: a version bump inside a line
//! and an inserted section (a `newText` that holds `oldText`) are recognised in a fresh
//! clone as on the machine that made them. An ambiguous case is never called applied.

use std::time::Duration;

use super::{candidates, lines, matching, normal, similarity};

/// How alike the file's closest passage must be to `oldText` to count as `oldText` still
/// there (changed a little, by hand or misremembered), whitespace aside.
const NEARLY: f64 = 0.8;
/// How far ahead of the next the nearest candidate must be to be the best place.
const MARGIN: f64 = 0.05;
/// How long the look for `oldText`'s passage may take on a large file.
const BUDGET: Duration = Duration::from_millis(250);

/// Whether the edit `old` → `new` looks applied to `text`: `new` occurs once, `old` occurs
/// only inside it, and where `old` does not occur, its nearest passage is clearly that
/// occurrence and not `old` itself nearly still there.
#[must_use]
pub fn looks_applied(text: &str, old: &str, new: &str) -> bool {
    let Some((at, end)) = once(text, new) else {
        return false;
    };
    let olds = matching::locate(text, old, "");
    if !olds.offsets.is_empty() {
        // An insertion (or a tag) run again: `old` is found, but only inside `new`.
        let len = olds.old.len();
        return olds.offsets.iter().all(|&o| o >= at && o + len <= end);
    }
    nearest_is(text, old, new, (at, end))
}

/// Whether the nearest passage to `old` (absent from `text`) lies in `new`'s occurrence
/// `at..end`, clearly ahead of the next, and is not `old` itself nearly still there.
fn nearest_is(text: &str, old: &str, new: &str, (at, end): (usize, usize)) -> bool {
    let found = candidates::closest(text, old, 2, BUDGET);
    let Some(first) = found.first() else {
        // Nothing is near `old` but `new` itself, when the edit only added to it (a tag
        // at a line's end): its place is there.
        return inserted_into(old, new);
    };
    if found
        .get(1)
        .is_some_and(|second| first.similarity - second.similarity < MARGIN)
    {
        return false;
    }
    let starts = lines::line_starts(text.as_bytes());
    let (from, to) = (
        lines::line_of(&starts, at),
        lines::line_of(&starts, end.saturating_sub(1).max(at)),
    );
    let overlaps = first.start_line <= to && from <= first.end_line;
    overlaps && !nearly_old(&first.text, old, new)
}

/// Whether `new` is `old` with only words added: `old`'s words, in order, among `new`'s.
fn inserted_into(old: &str, new: &str) -> bool {
    let mut words = new.split_whitespace();
    let olds: Vec<&str> = old.split_whitespace().collect();
    !olds.is_empty() && olds.iter().all(|w| words.any(|n| n == *w))
}

/// Whether `passage` is nearly `old` and more like it than like `new`.
fn nearly_old(passage: &str, old: &str, new: &str) -> bool {
    let (old_n, new_n, passage) = (
        normal::collapsed(old),
        normal::collapsed(new),
        normal::collapsed(passage),
    );
    let to_old = similarity::chars(&passage, &old_n, None);
    to_old >= NEARLY && to_old > similarity::chars(&passage, &new_n, None)
}

/// The span of the one occurrence of `new` in `text`, if it occurs exactly once and holds
/// more than whitespace.
fn once(text: &str, new: &str) -> Option<(usize, usize)> {
    if new.trim().is_empty() {
        return None;
    }
    let located = matching::locate(text, new, "");
    let [at] = located.offsets[..] else {
        return None;
    };
    Some((at, at + located.old.len()))
}

/// Whether the passage `old` stood for is still in `text`, a little changed: the file's
/// closest passage to `old` is nearly `old`, and more like `old` than like `new`. A
/// deletion (`new` a part of `old`) is not applied while what it deletes is still there,
/// and a file changed back by hand (with `new` elsewhere) is not either.
#[must_use]
pub fn old_still_there(text: &str, old: &str, new: &str) -> bool {
    candidates::closest(text, old, 1, BUDGET)
        .first()
        .is_some_and(|c| nearly_old(&c.text, old, new))
}

#[cfg(test)]
mod tests {
    use super::looks_applied;

    #[test]
    fn a_deletion_is_not_applied_while_what_it_deletes_is_there() {
        let text = "fn main() {\n    debug_dump()\n    run()\n}\n";
        assert!(!looks_applied(text, "debug_dump()\nrun()", "run()"));
        let done = "fn main() {\n    run()\n}\n";
        assert!(looks_applied(done, "debug_dump()\nrun()", "run()"));
    }

    #[test]
    fn a_short_bump_is_applied_once_and_not_when_only_elsewhere() {
        assert!(looks_applied("1.3.0\n", "1.2.3", "1.3.0"));
        let deps = "version = \"1.2.4\"\nserde = \"1.3.0\"\n";
        assert!(!looks_applied(deps, "1.2.3", "1.3.0"));
    }

    #[test]
    fn a_bump_inside_a_line_is_applied() {
        let text = "{\n  \"name\": \"x\",\n  \"version\": \"1.3.0\",\n  \"private\": true\n}\n";
        assert!(looks_applied(
            text,
            "\"version\": \"1.2.0\",",
            "\"version\": \"1.3.0\","
        ));
        // Elsewhere than the version line, it is no evidence.
        let deps = "{\n  \"version\": \"1.2.9\",\n  \"dep\": \"1.3.0\"\n}\n";
        assert!(!looks_applied(deps, "\"version\": \"1.2.0\"", "1.3.0"));
    }

    #[test]
    fn an_insertion_and_a_tag_run_again_are_applied() {
        let text = "[a]\nx = 1\n[b]\ny = 2\n";
        assert!(looks_applied(text, "[b]\n", "[a]\nx = 1\n[b]\n"));
        let tagged = "one\ntwo  # reviewed\nthree\n";
        assert!(looks_applied(tagged, "two\n", "two  # reviewed\n"));
        assert!(looks_applied(tagged, "two", "two  # reviewed"));
        // Once more elsewhere, `oldText` is not only inside it.
        let again = "two\none\ntwo  # reviewed\n";
        assert!(!looks_applied(again, "two", "two  # reviewed"));
    }

    #[test]
    fn lines_alike_elsewhere_make_it_ambiguous() {
        let lock = "[[package]]\nname = \"a\"\nversion = \"1.3.0\"\n\n[[package]]\nname = \"b\"\nversion = \"1.2.9\"\n\n[[package]]\nname = \"c\"\nversion = \"1.2.7\"\n";
        assert!(!looks_applied(
            lock,
            "version = \"1.2.3\"",
            "version = \"1.3.0\""
        ));
    }
}
