//! Whether an edit whose `oldText` is absent looks applied already, from the file alone:
//! its `newText` occurs exactly once, that occurrence holds at least one whole line, and
//! the passage `oldText` stood for is not (nearly) still there. The evidence
//! `okIfApplied` and `alreadyApplied` rest on when the journal has no record (SPEC §4).

use std::time::Duration;

use super::{candidates, carry, matching};

/// How alike the file's closest passage must be to `oldText` to count as `oldText` still
/// there (changed a little, by hand or misremembered), whitespace aside.
const NEARLY: f64 = 0.8;
/// How long the look for `oldText`'s passage may take on a large file.
const BUDGET: Duration = Duration::from_millis(250);

/// Whether the edit `old` → `new` looks applied to `text`: [`distinctive_once`] and not
/// [`old_still_there`].
#[must_use]
pub fn looks_applied(text: &str, old: &str, new: &str) -> bool {
    distinctive_once(text, new) && !old_still_there(text, old, new)
}

/// Whether the passage `old` stood for is still in `text`, a little changed: the file's
/// closest passage to `old` is nearly `old`, and more like `old` than like `new`. A
/// deletion (`new` a part of `old`) is not applied while what it deletes is still there,
/// and a file changed back by hand (with `new` elsewhere) is not either.
#[must_use]
pub fn old_still_there(text: &str, old: &str, new: &str) -> bool {
    let (old_n, new_n) = (carry::normal(old), carry::normal(new));
    candidates::closest(text, old, 1, BUDGET)
        .first()
        .is_some_and(|c| {
            let passage = carry::normal(&c.text);
            let to_old = carry::similarity(&passage, &old_n);
            to_old >= NEARLY && to_old > carry::similarity(&passage, &new_n)
        })
}

/// Whether `new` occurs exactly once in `text`, and that occurrence is distinctive: it
/// holds at least one whole line of the file. A short `new` that merely occurs somewhere
/// (a version number in a dependency line) is no evidence.
#[must_use]
pub fn distinctive_once(text: &str, new: &str) -> bool {
    let located = matching::locate(text, new, "");
    let [at] = located.offsets[..] else {
        return false;
    };
    let end = at + located.old.len();
    if located.old.trim().is_empty() {
        return false;
    }
    let bytes = text.as_bytes();
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
    // The occurrence holds a whole line when a line that is not blank starts inside it
    // (or it starts the line, after its indentation) and ends inside it (or only blanks
    // follow it on the line).
    let starts_line = bytes[..at]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .all(blank);
    let ends_line = bytes[end..].iter().take_while(|&&b| b != b'\n').all(blank);
    let mut starts: Vec<usize> = (at..end)
        .filter(|&i| i > 0 && bytes[i - 1] == b'\n')
        .collect();
    if starts_line {
        starts.insert(0, at);
    }
    starts.into_iter().any(|s| {
        let line_end = memchr::memchr(b'\n', &bytes[s..]).map_or(bytes.len(), |n| s + n);
        let within = line_end <= end || ends_line;
        within && !bytes[s..line_end.min(end)].iter().all(blank)
    })
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
        let deps = "version = \"1.2.3\"\nserde = \"1.3.0\"\n";
        assert!(!looks_applied(deps, "1.2.4", "1.3.0"));
    }
}
