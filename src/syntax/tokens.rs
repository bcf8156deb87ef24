//! Whether the file as it was differs from the result, in a region, only by the text of
//! names and numbers, each the same kind of token in both: a rename (`f47` to `f470`), a
//! number changed (`47` to `470`). The parser sees tokens by their kinds, not their text,
//! so the old excerpt is then the result's tree with other text, and parses as the
//! result's did: its parse can be left out.
//!
//! A token counts only when it is a leaf the result's tree names an identifier or an
//! integer or number, both texts are of one shape — ASCII, a name beginning with a letter
//! of the same case (Ruby's constants and names are different tokens) or `_`, or a decimal
//! integer without a leading zero — and the old text is the name of no symbol of the
//! grammar (a keyword, `self`, `true`), where the lexer would make another token of it.

use std::ops::Range;

use tree_sitter::{Node, Tree};

/// Whether each of `runs` (from `new` to `old`, [`super::edits::runs`]) lies inside one
/// name or number of `tree` (the parse of `new`) that stays a name or number of the same
/// shape in `old`.
pub(super) fn same_kinds(
    tree: &Tree,
    new: &[u8],
    old: &[u8],
    runs: &[(Range<usize>, Range<usize>)],
) -> bool {
    !runs.is_empty()
        && runs.iter().all(|(was, now)| {
            let Some(leaf) = leaf_around(tree, was) else {
                return false;
            };
            let token = leaf.byte_range();
            let before = &new[token.start..was.start];
            let after = &new[was.end..token.end];
            let old_token = [before, &old[now.clone()], after].concat();
            let kind = leaf.kind();
            (kind.contains("identifier")
                || kind.contains("integer")
                || kind.contains("number")
                || kind == "int_literal")
                && shape(&new[token]).is_some_and(|s| Some(s) == shape(&old_token))
                && std::str::from_utf8(&old_token).is_ok_and(|text| {
                    let language = tree.language();
                    language.id_for_node_kind(text, false) == 0
                        && language.id_for_node_kind(text, true) == 0
                })
        })
}

/// The named leaf of `tree` whose bytes hold `span` (its ends included: a run may add to a
/// token's end).
fn leaf_around<'t>(tree: &'t Tree, span: &Range<usize>) -> Option<Node<'t>> {
    let root = tree.root_node();
    [span.start, span.start.saturating_sub(1)]
        .into_iter()
        .filter_map(|from| root.descendant_for_byte_range(from, span.end.max(from)))
        .find(|n| {
            n.child_count() == 0
                && n.is_named()
                && !n.is_extra()
                && !n.is_missing()
                && n.start_byte() <= span.start
                && span.end <= n.end_byte()
        })
}

/// The shapes of token text this trusts the lexer to read alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// A name beginning with a lowercase letter.
    Lower,
    /// A name beginning with an uppercase letter.
    Upper,
    /// A name beginning with `_`.
    Underscore,
    /// A decimal integer without a leading zero.
    Decimal,
}

fn shape(text: &[u8]) -> Option<Shape> {
    let (&first, rest) = text.split_first()?;
    let name = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    match first {
        b'a'..=b'z' if rest.iter().all(name) => Some(Shape::Lower),
        b'A'..=b'Z' if rest.iter().all(name) => Some(Shape::Upper),
        b'_' if rest.iter().all(name) => Some(Shape::Underscore),
        b'1'..=b'9' if rest.iter().all(u8::is_ascii_digit) => Some(Shape::Decimal),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::same_kinds;
    use crate::syntax::edits::runs;
    use crate::syntax::Language;

    /// Whether the change from `new` to `old` in `language` is names and numbers alone;
    /// when it is, `old` parses as `new` does, node for node.
    fn same(language: Language, new: &str, old: &str) -> bool {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&language.grammar()).unwrap();
        let tree = parser.parse(new, None).unwrap();
        let runs = runs(new.as_bytes(), old.as_bytes());
        let same = same_kinds(&tree, new.as_bytes(), old.as_bytes(), &runs);
        if same {
            let again = parser.parse(old, None).unwrap();
            assert_eq!(
                tree.root_node().to_sexp(),
                again.root_node().to_sexp(),
                "{old}"
            );
        }
        same
    }

    #[test]
    fn names_and_numbers_of_the_same_shape() {
        let ts = "function f470(a: number): number {\n  return a + 470;\n}\n";
        assert!(same(Language::TypeScript, ts, &ts.replace("470", "47")));
        assert!(same(Language::TypeScript, ts, &ts.replace("f470", "g")));
        let cs = "class A {\n    int F470(int a) {\n        return a + 470;\n    }\n}\n";
        assert!(same(Language::CSharp, cs, &cs.replace("470", "47")));
        // A keyword, a name of other case, a number of another base, or more than a token
        // changed: parsed.
        assert!(!same(Language::TypeScript, ts, &ts.replace("f470", "this")));
        assert!(!same(Language::TypeScript, ts, &ts.replace("f470", "F470")));
        assert!(!same(
            Language::TypeScript,
            ts,
            &ts.replace("+ 470", "+ 0x47")
        ));
        assert!(!same(
            Language::TypeScript,
            ts,
            &ts.replace("a + 470", "a * 470")
        ));
        assert!(!same(
            Language::TypeScript,
            ts,
            &ts.replace("f470(", "f4(b, ")
        ));
        let rb = "def f(a)\n  a + 1\nend\n";
        assert!(!same(Language::Ruby, rb, &rb.replace("a + 1", "A + 1")));
        assert!(same(Language::Ruby, rb, &rb.replace("a + 1", "a + 12")));
        let py = "x = 470\n";
        assert!(!same(Language::Python, py, "x = 047\n"));
        assert!(!same(Language::Python, py, "x = True\n"));
        // A string's text is not a name, though it looks like one.
        let js = "const s = \"abc\";\n";
        assert!(!same(Language::JavaScript, js, "const s = \"abd\";\n"));
        // No change at all is no proof of anything.
        assert!(!same(Language::TypeScript, ts, ts));
    }
}
