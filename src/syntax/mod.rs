//! The syntax gate's parse: whether a change leaves a file of a known language with a
//! syntax error it did not have, and where. The file as it was is parsed once, and the
//! result incrementally from that tree (only the changed span is parsed again); a file
//! that already had errors, a name of no known language, a grammar that fails to load
//! and a file over the size bound all pass, unparsed where possible.

mod language;
mod locate;

pub use language::Language;
pub use locate::SyntaxError;

use tree_sitter::{InputEdit, Parser, Point, Tree};

/// The gate's default size bound (`maxGateBytes`): a larger file passes unparsed.
pub const DEFAULT_MAX_GATE_BYTES: u64 = 4 << 20;

/// What the gate found of one change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing to say: the result parses, or the file was not gated (why, in the
    /// variant's [`Pass`]).
    Pass(Pass),
    /// The result has a syntax error the file did not have; the first one.
    Broken(Language, SyntaxError),
}

/// Why a change passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// The result parses without error.
    Parses,
    /// The name says no language the gate knows.
    UnknownLanguage,
    /// The file as it was already had an error.
    AlreadyBroken,
    /// The file (before or after) is over the size bound.
    TooLarge,
    /// The grammar did not load, or the parser gave up.
    NoGrammar,
}

/// Checks the change of the file named `path` from `old` (`None` for a new file) to
/// `new`; files over `max_bytes` pass.
#[must_use]
pub fn check(path: &str, old: Option<&[u8]>, new: &[u8], max_bytes: u64) -> Verdict {
    let Some(language) = Language::of_path(path) else {
        return Verdict::Pass(Pass::UnknownLanguage);
    };
    let over = |b: &[u8]| b.len() as u64 > max_bytes;
    if over(new) || old.is_some_and(over) {
        return Verdict::Pass(Pass::TooLarge);
    }
    let mut parser = Parser::new();
    if parser.set_language(&language.grammar()).is_err() {
        return Verdict::Pass(Pass::NoGrammar);
    }
    let (tree, span) = match old {
        Some(old) => {
            let Some(mut tree) = parser.parse(old, None) else {
                return Verdict::Pass(Pass::NoGrammar);
            };
            if tree.root_node().has_error() {
                return Verdict::Pass(Pass::AlreadyBroken);
            }
            let edit = input_edit(old, new);
            tree.edit(&edit);
            let Some(tree) = parser.parse(new, Some(&tree)) else {
                return Verdict::Pass(Pass::NoGrammar);
            };
            (tree, edit.start_byte..edit.new_end_byte)
        }
        None => match parser.parse(new, None) {
            Some(tree) => (tree, 0..new.len()),
            None => return Verdict::Pass(Pass::NoGrammar),
        },
    };
    verdict(language, &tree, new, span)
}

/// The verdict on the parsed result `tree` of `new`, whose changed bytes are `span`.
fn verdict(language: Language, tree: &Tree, new: &[u8], span: std::ops::Range<usize>) -> Verdict {
    if !tree.root_node().has_error() {
        return Verdict::Pass(Pass::Parses);
    }
    match locate::first_error(tree, new, span) {
        Some(error) => Verdict::Broken(language, error),
        None => Verdict::Pass(Pass::Parses),
    }
}

/// The one edit that takes `old` to `new`: the span between their common prefix and
/// common suffix, with its rows and byte columns.
fn input_edit(old: &[u8], new: &[u8]) -> InputEdit {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let most = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(most)
        .take_while(|(a, b)| a == b)
        .count();
    let (old_end, new_end) = (old.len() - suffix, new.len() - suffix);
    InputEdit {
        start_byte: prefix,
        old_end_byte: old_end,
        new_end_byte: new_end,
        start_position: point(old, prefix),
        old_end_position: point(old, old_end),
        new_end_position: point(new, new_end),
    }
}

/// The row and byte column of offset `at` in `text`.
fn point(text: &[u8], at: usize) -> Point {
    let before = &text[..at];
    let row = memchr::memchr_iter(b'\n', before).count();
    let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    Point::new(row, at - line_start)
}

#[cfg(test)]
mod tests {
    use super::{check, Pass, Verdict, DEFAULT_MAX_GATE_BYTES as MAX};

    #[test]
    fn a_break_is_found_and_an_old_break_is_not_gated() {
        let old = b"def f():\n    return 1\n";
        let broken = b"def f():\n    return (1\n";
        let Verdict::Broken(language, error) = check("a.py", Some(old), broken, MAX) else {
            panic!("not refused");
        };
        assert_eq!(language.name(), "python");
        assert_eq!(error.line, 2);
        assert_eq!(
            check("a.py", Some(broken), old, MAX),
            Verdict::Pass(Pass::AlreadyBroken)
        );
        assert_eq!(
            check("a.py", Some(old), old, MAX),
            Verdict::Pass(Pass::Parses)
        );
        assert_eq!(
            check("a.txt", Some(old), broken, MAX),
            Verdict::Pass(Pass::UnknownLanguage)
        );
        assert_eq!(
            check("a.py", Some(old), broken, 10),
            Verdict::Pass(Pass::TooLarge)
        );
        assert!(matches!(
            check("a.py", None, broken, MAX),
            Verdict::Broken(..)
        ));
    }

    #[test]
    fn the_incremental_parse_agrees_with_a_fresh_one() {
        let old = b"fn main() {\n    let x = 1;\n}\n";
        for new in [
            &b"fn main() {\n    let x = (1;\n}\n"[..],
            b"fn main() {\n    let x = 1;\n}\n}\n",
            b"fn main() {\n    let y = 2;\n    let x = 1;\n}\n",
            b"",
        ] {
            let fresh = check("a.rs", None, new, MAX);
            let incremental = check("a.rs", Some(old), new, MAX);
            assert_eq!(
                matches!(fresh, Verdict::Broken(..)),
                matches!(incremental, Verdict::Broken(..))
            );
        }
    }
}
