//! The syntax gate's parse: whether a change leaves a file of a known language with a
//! syntax error it did not have, and where. The change's regions are parsed first (the
//! changed lines widened to whole items, widen.rs): when they parse, in the result and in
//! the file as it was (incrementally from the result's, edits.rs; not at all when the two
//! differ by names and numbers alone, tokens.rs), the change passes. Otherwise the
//! result is parsed whole, and the file as it was only when the result has an error, so
//! a refusal is always decided (and located) by whole parses; where a tree of the file as
//! it was is kept (`stitch mcp`), the result is parsed incrementally from it (only the
//! changed span again). A file that already had errors, a name of no known language, a
//! grammar that fails to load, a file over the size bound and a parse over the time bound
//! all pass. In C and C++, errors the preprocessor could explain are listed and never
//! refused (preprocessor.rs).

mod edits;
mod hidden;
mod language;
mod layout;
mod locate;
mod preprocessor;
mod time_bound;
mod tokens;
mod tree_cache;
mod widen;

pub use language::Language;
pub use locate::SyntaxError;
pub use tree_cache::keep_trees;

use std::time::Duration;

use tree_sitter::{InputEdit, Point, Tree};

/// The gate's default size bound (`maxGateBytes`): a larger file passes unparsed.
pub const DEFAULT_MAX_GATE_BYTES: u64 = 4 << 20;
/// The gate's default time bound (`maxGateMillis`): CPU time for a file's parses, past
/// which the file passes unchecked.
pub const DEFAULT_MAX_GATE_MILLIS: u64 = 100;

/// The bounds a check runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// A file (before or after) larger than this passes unparsed.
    pub max_bytes: u64,
    /// The CPU time (milliseconds) a file's parses may take; past it the file passes
    /// unchecked.
    pub max_millis: u64,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_bytes: DEFAULT_MAX_GATE_BYTES,
            max_millis: DEFAULT_MAX_GATE_MILLIS,
        }
    }
}

/// What the gate found of one change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// Nothing to say: the result parses, or the file was not gated (why, in the
    /// variant's [`Pass`]).
    Pass(Pass),
    /// The result (C or C++) has syntax errors the file did not have, and the
    /// preprocessor could explain them (no bracket left unpaired, no quote left open):
    /// listed, not refused. The first one.
    Preprocessor(Language, SyntaxError),
    /// The result has a syntax error the file did not have; the first one.
    Broken(Language, SyntaxError),
}

/// Why a change passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// The result parses without error.
    Parses,
    /// The regions of the result around its changes parse without error, and so do the
    /// same regions of the file as it was (the whole result was not parsed).
    RegionParses,
    /// The name says no language the gate knows.
    UnknownLanguage,
    /// The file as it was already had an error.
    AlreadyBroken,
    /// The file (before or after) is over the size bound: not parsed.
    TooLarge,
    /// The parses took longer than the time bound: cut short, not checked.
    TimeLimit,
    /// The grammar did not load, or the parser gave up.
    NoGrammar,
}

/// Checks the change of the file named `path` from `old` (`None` for a new file) to
/// `new`, within `bounds`.
#[must_use]
pub fn check(path: &str, old: Option<&[u8]>, new: &[u8], bounds: Bounds) -> Finding {
    match Language::of_path(path) {
        Some(language) => check_in(language, old, new, bounds),
        None => Finding::Pass(Pass::UnknownLanguage),
    }
}

/// [`check`], for a file of `language`.
#[must_use]
pub fn check_in(language: Language, old: Option<&[u8]>, new: &[u8], bounds: Bounds) -> Finding {
    let over = |b: &[u8]| b.len() as u64 > bounds.max_bytes;
    if over(new) || old.is_some_and(over) {
        return Finding::Pass(Pass::TooLarge);
    }
    let budget = Duration::from_millis(bounds.max_millis);
    let Some(mut parser) = time_bound::Bounded::new(&language.grammar(), budget) else {
        return Finding::Pass(Pass::NoGrammar);
    };
    // The change's regions first: a change whose regions parse, in the result and in the
    // file as it was, passes without the whole result being parsed.
    if let Some(excerpts) = old.and_then(|old| widen::excerpts(language, old, new)) {
        match regions_parse(&mut parser, &excerpts) {
            Some(true) => return Finding::Pass(Pass::RegionParses),
            Some(false) => {}
            None => return gave_up(&parser),
        }
    }
    whole(language, &mut parser, old, new)
}

/// The check by the whole result: parsed (incrementally from a kept tree of the file as
/// it was, where there is one), then, when it has an error, the file as it was.
fn whole(
    language: Language,
    parser: &mut time_bound::Bounded,
    old: Option<&[u8]>,
    new: &[u8],
) -> Finding {
    let edit = old.map(|old| input_edit(old, new));
    let span = edit
        .as_ref()
        .map_or(0..new.len(), |e| e.start_byte..e.new_end_byte);
    // A kept tree of the file as it was: the result parsed from it, incrementally.
    let was = old.and_then(|old| tree_cache::find(language, old));
    let from = was.as_ref().zip(edit.as_ref()).map(|(was, edit)| {
        let mut tree = was.clone();
        tree.edit(edit);
        tree
    });
    let Some(tree) = parser.parse(new, from.as_ref()) else {
        return gave_up(parser);
    };
    tree_cache::keep(language, new, &tree);
    if !tree.root_node().has_error() {
        return Finding::Pass(Pass::Parses);
    }
    let was = match (was, old) {
        (Some(was), _) => Some(was),
        (None, Some(old)) => {
            let Some(was) = parser.parse(old, None) else {
                return gave_up(parser);
            };
            tree_cache::keep(language, old, &was);
            Some(was)
        }
        (None, None) => None,
    };
    if was.as_ref().is_some_and(|w| w.root_node().has_error()) {
        return Finding::Pass(Pass::AlreadyBroken);
    }
    on_errors(language, (&tree, was.as_ref()), new, &span)
}

/// Why `parser` gave up: the time bound, or the parser itself.
fn gave_up(parser: &time_bound::Bounded) -> Finding {
    Finding::Pass(if parser.spent() {
        Pass::TimeLimit
    } else {
        Pass::NoGrammar
    })
}

/// Whether every excerpt parses without error, the result's and the old file's (the
/// latter incrementally from the former's tree, edited by each run of changed lines:
/// they differ only by the change); `None` when the parser gave up (the time bound).
fn regions_parse(parser: &mut time_bound::Bounded, excerpts: &[widen::Excerpt]) -> Option<bool> {
    for excerpt in excerpts {
        let mut tree = parser.parse(&excerpt.new, None)?;
        if tree.root_node().has_error() {
            return Some(false);
        }
        let runs = edits::runs(&excerpt.new, &excerpt.old);
        // Names and numbers changed for names and numbers of the same shape: the old
        // excerpt is the same tokens, so the same tree, and parses as the result's did.
        if tokens::same_kinds(&tree, &excerpt.new, &excerpt.old, &runs) {
            continue;
        }
        for edit in edits::edits(&excerpt.new, &excerpt.old, runs) {
            tree.edit(&edit);
        }
        if parser
            .parse(&excerpt.old, Some(&tree))?
            .root_node()
            .has_error()
        {
            return Some(false);
        }
    }
    Some(true)
}

/// The finding on the parsed result `tree` of `new` (against `was`, the tree of the file
/// as it was, which parsed; `None` for a new file), which has errors the file did not
/// have, and whose changed bytes are `span`.
fn on_errors(
    language: Language,
    (tree, was): (&Tree, Option<&Tree>),
    new: &[u8],
    span: &std::ops::Range<usize>,
) -> Finding {
    let mut errors = Vec::new();
    locate::collect(tree.root_node(), &mut errors);
    let Some(error) = locate::first_error(&errors, new, span) else {
        return Finding::Pass(Pass::Parses);
    };
    if matches!(language, Language::C | Language::Cpp) {
        if !preprocessor::refused(tree, was) {
            return Finding::Preprocessor(language, error);
        }
        // Shown: the first error that leaves a bracket or a quote open, where one does.
        let open: Vec<_> = errors
            .iter()
            .copied()
            .filter(|e| preprocessor::supplied(*e))
            .collect();
        if let Some(error) = locate::first_error(&open, new, span) {
            return Finding::Broken(language, error);
        }
    }
    Finding::Broken(language, error)
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
    use super::{check, Bounds, Finding, Pass};

    const MAX: Bounds = Bounds {
        max_bytes: super::DEFAULT_MAX_GATE_BYTES,
        max_millis: super::DEFAULT_MAX_GATE_MILLIS,
    };

    #[test]
    fn a_break_is_found_and_an_old_break_is_not_gated() {
        let old = b"def f():\n    return 1\n";
        let broken = b"def f():\n    return (1\n";
        let Finding::Broken(language, error) = check("a.py", Some(old), broken, MAX) else {
            panic!("not refused");
        };
        assert_eq!(language.name(), "python");
        assert_eq!(error.line, 2);
        // A fix parses (the file as it was is not even parsed); a file that had an error
        // and still has one is not gated.
        assert_eq!(
            check("a.py", Some(broken), old, MAX),
            Finding::Pass(Pass::Parses)
        );
        let still = b"def g():\n    return (1\n";
        assert_eq!(
            check("a.py", Some(broken), still, MAX),
            Finding::Pass(Pass::AlreadyBroken)
        );
        assert_eq!(
            check("a.py", Some(old), old, MAX),
            Finding::Pass(Pass::Parses)
        );
        assert_eq!(
            check("a.txt", Some(old), broken, MAX),
            Finding::Pass(Pass::UnknownLanguage)
        );
        assert_eq!(
            check(
                "a.py",
                Some(old),
                broken,
                Bounds {
                    max_bytes: 10,
                    ..MAX
                }
            ),
            Finding::Pass(Pass::TooLarge)
        );
        assert!(matches!(
            check("a.py", None, broken, MAX),
            Finding::Broken(..)
        ));
    }

    #[test]
    fn a_parse_over_the_time_bound_passes_unchecked() {
        let unit = "def f(a):\n    return [a, (a + 1)] * 3\n";
        let text = unit.repeat(20_000);
        let broken = format!("{text}def g(:\n");
        let bounds = Bounds {
            max_millis: 1,
            ..MAX
        };
        assert_eq!(
            check("a.py", Some(text.as_bytes()), broken.as_bytes(), bounds),
            Finding::Pass(Pass::TimeLimit)
        );
        let unbounded = Bounds {
            max_millis: 600_000,
            ..MAX
        };
        assert!(matches!(
            check("a.py", Some(text.as_bytes()), broken.as_bytes(), unbounded),
            Finding::Broken(..)
        ));
    }

    #[test]
    fn a_kept_tree_gives_the_same_verdicts() {
        let old = b"fn main() {\n    let x = 1;\n}\n";
        let new = b"fn main() {\n    let x = (1;\n}\n";
        let fresh = check("a.rs", Some(old), new, MAX);
        super::keep_trees();
        let _ = check("a.rs", None, old, MAX);
        assert!(super::tree_cache::find(super::Language::Rust, old).is_some());
        assert_eq!(check("a.rs", Some(old), new, MAX), fresh);
        assert_eq!(
            check("a.rs", Some(old), b"fn main() {}\n", MAX),
            Finding::Pass(Pass::Parses)
        );
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
                matches!(fresh, Finding::Broken(..)),
                matches!(incremental, Finding::Broken(..))
            );
        }
    }
}
