//! Which syntax errors of a C or C++ file a preprocessor macro could explain. tree-sitter
//! parses C and C++ without expanding macros, so a macro invoked as a statement with no
//! `;` after it — `test_cond("...", x == 3)` where `test_cond` expands to a whole block,
//! `Q_OBJECT`, `EXPORT_SYMBOL(f)` — looks to it like a statement whose `;` is missing,
//! and it reports an error at the end of that line or on the next. The rule: an error is
//! macro-like when the code line just before it (for a missing token, the line it is
//! missing at) ends in `NAME(…)` or `NAME` that begins that statement's line, with
//! nothing after it on the line. No program can tell such a line from a forgotten `;`
//! without the macro's definition, so the gate lists such errors and does not refuse
//! them.

use tree_sitter::{Node, Tree};

/// The leaves (tokens) of a tree in document order: comments and zero-width (missing)
/// tokens left out.
pub(super) struct Leaves<'t>(Vec<Node<'t>>);

impl<'t> Leaves<'t> {
    pub(super) fn of(tree: &'t Tree) -> Leaves<'t> {
        let mut leaves = Vec::new();
        let mut cursor = tree.walk();
        loop {
            let node = cursor.node();
            if node.child_count() == 0 || node.kind().ends_with("comment") {
                if node.start_byte() < node.end_byte() && !node.kind().ends_with("comment") {
                    leaves.push(node);
                }
                while !cursor.goto_next_sibling() {
                    if !cursor.goto_parent() {
                        return Leaves(leaves);
                    }
                }
            } else {
                cursor.goto_first_child();
            }
        }
    }
}

/// Whether the error `node` of `text` could be a macro invoked as a statement without a
/// `;` (see the module's rule).
pub(super) fn macro_like(leaves: &Leaves<'_>, text: &[u8], node: Node<'_>) -> bool {
    let at = if node.is_missing() {
        // Missing at the end of a line: nothing but blanks between it and the next line.
        let rest = &text[node.start_byte().min(text.len())..];
        let blank = rest.iter().position(|b| !b.is_ascii_whitespace());
        if blank.is_some_and(|i| !rest[..i].contains(&b'\n')) {
            return false;
        }
        node.start_byte()
    } else {
        line_start(text, node.start_byte())
    };
    let leaves = &leaves.0;
    let before = leaves.partition_point(|l| l.end_byte() <= at);
    let Some(last) = before.checked_sub(1) else {
        return false;
    };
    let name = if leaves[last].kind() == ")" {
        let mut depth = 0usize;
        let mut open = None;
        for i in (0..=last).rev() {
            match leaves[i].kind() {
                ")" => depth += 1,
                "(" => {
                    depth -= 1;
                    if depth == 0 {
                        open = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        match open.and_then(|i| i.checked_sub(1)) {
            Some(i) => leaves[i],
            None => return false,
        }
    } else {
        leaves[last]
    };
    name.kind().ends_with("identifier") && begins_line(text, name.start_byte())
}

/// The offset of the start of the line holding offset `at`.
fn line_start(text: &[u8], at: usize) -> usize {
    memchr::memrchr(b'\n', &text[..at.min(text.len())]).map_or(0, |i| i + 1)
}

/// Whether only blanks come before offset `at` on its line.
fn begins_line(text: &[u8], at: usize) -> bool {
    text[line_start(text, at)..at]
        .iter()
        .all(|b| *b == b' ' || *b == b'\t')
}

#[cfg(test)]
mod tests {
    use super::{macro_like, Leaves};
    use crate::syntax::Language;

    /// Whether every error of `text` (C) is macro-like, and how many there are.
    fn judged(language: Language, text: &str) -> Vec<bool> {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&language.grammar()).unwrap();
        let tree = parser.parse(text, None).unwrap();
        let leaves = Leaves::of(&tree);
        let mut errors = Vec::new();
        super::super::locate::collect(tree.root_node(), &mut errors);
        errors
            .into_iter()
            .map(|e| macro_like(&leaves, text.as_bytes(), e))
            .collect()
    }

    #[test]
    fn a_macro_statement_without_a_semicolon_is_macro_like() {
        let text = "void f(void) {\n    test_cond(\"a (b\",\n        x == 3)\n    g();\n}\n";
        assert_eq!(judged(Language::C, text), [true]);
        let text = "void f(void) {\n    test_cond(\"a\", x == 3)\n\n    x = g();\n}\n";
        let judged = judged(Language::C, text);
        assert!(
            !judged.is_empty() && judged.iter().all(|m| *m),
            "{judged:?}"
        );
        let text = "struct s {\n    DECLARE_FIELDS\n    int x;\n};\n";
        assert_eq!(super::tests::judged(Language::C, text), [true]);
    }

    #[test]
    fn other_missing_semicolons_and_brackets_are_not() {
        for text in [
            "void f(void) {\n    int x = g(1)\n    g();\n}\n",
            "void f(void) {\n    x = g(1)\n    g();\n}\n",
            "void f(void) {\n    g(1) g(2);\n}\n",
            "void f(void) {\n    if (x) {\n        g(1);\n}\n",
            "void f(void) {\n    g(1, (2);\n}\n",
        ] {
            let judged = judged(Language::C, text);
            assert!(judged.iter().any(|m| !m), "{text:?}: {judged:?}");
        }
    }
}
