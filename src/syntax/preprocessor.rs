//! Which syntax errors of a C or C++ file the gate refuses. tree-sitter parses C and C++
//! as written, without the preprocessor, and the preprocessor can make nearly any line
//! valid: a macro used as a statement with no `;` after it (`test_cond("...", x == 3)`),
//! or as a declaration's specifier (`API_EXPORT int f(void);`), braces opened and closed
//! in separate `#ifdef` blocks (`extern "C" {`). What no macro can do is pair brackets
//! that the text leaves unpaired, or close a quote. So a C or C++ change is refused only
//! when the result's errors include a bracket or quote the parser had to supply (a
//! missing `)`, `]`, `}`, `"` or `'`, or a quote an error holds unpaired), or when the
//! change alters how the file's brackets pair up: each kind's openers less its closers,
//! over the tokens a compiler sees when every `#if` takes its first branch (tokens under
//! `#else` and `#elif` left out), differ between the file as it was and the result (for a
//! new file, differ from none). Any other error is listed, not refused.

use tree_sitter::{Node, Tree};

/// Whether the result `tree`, which has errors, breaks something the preprocessor cannot
/// mend, against `old` (the tree of the file as it was; `None` for a
/// new file).
pub(super) fn refused(tree: &Tree, old: Option<&Tree>) -> bool {
    supplied(tree.root_node()) || balance(tree) != old.map_or([0; 3], balance)
}

/// Whether, anywhere under `node`, the parser supplied a bracket or a quote, or an error
/// holds a quote it could not pair (an odd number of `"` or of `'` among its own tokens).
pub(super) fn supplied(node: Node<'_>) -> bool {
    if node.is_missing() {
        return matches!(node.kind(), ")" | "]" | "}" | "\"" | "'");
    }
    if !node.has_error() {
        return false;
    }
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
    if node.is_error() {
        let odd = |quote: &str| children.iter().filter(|c| c.kind() == quote).count() % 2 == 1;
        if odd("\"") || odd("'") {
            return true;
        }
    }
    children.into_iter().any(supplied)
}

/// Openers less closers of `()`, `[]` and `{}` among the tokens of `tree`, leaving out
/// `#else` and `#elif` branches and the tokens the parser supplied.
fn balance(tree: &Tree) -> [i64; 3] {
    let mut counts = [0; 3];
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        let skipped = node.is_missing()
            || matches!(
                node.kind(),
                "preproc_else" | "preproc_elif" | "preproc_elifdef"
            );
        if !skipped && node.child_count() > 0 {
            cursor.goto_first_child();
            continue;
        }
        if !skipped {
            match node.kind() {
                "(" => counts[0] += 1,
                ")" => counts[0] -= 1,
                "[" => counts[1] += 1,
                "]" => counts[1] -= 1,
                "{" => counts[2] += 1,
                "}" => counts[2] -= 1,
                _ => {}
            }
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return counts;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::refused;
    use crate::syntax::Language;

    /// Whether a new file of `text` in `language` would be refused, and that it has errors.
    fn judged(language: Language, text: &str) -> bool {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&language.grammar()).unwrap();
        let tree = parser.parse(text, None).unwrap();
        assert!(tree.root_node().has_error(), "{text:?} parses");
        refused(&tree, None)
    }

    #[test]
    fn what_the_preprocessor_could_explain_is_not_refused() {
        for (language, text) in [
            (Language::C, "void f(void) {\n    test_cond(\"a (b\",\n        x == 3)\n    g();\n}\n"),
            (Language::C, "void f(void) {\n    test_cond(\"a\", x == 3)\n\n    x = g();\n}\n"),
            (Language::C, "struct s {\n    DECLARE_FIELDS\n    int x;\n};\n"),
            (Language::Cpp, "API_INLINE api_result api_parse(const char *s);\n"),
            (Language::Cpp, "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f(void);\n#ifdef __cplusplus\n}\n#endif\n"),
        ] {
            assert!(!judged(language, text), "{text:?}");
        }
    }

    #[test]
    fn unpaired_brackets_and_open_quotes_are_refused() {
        for text in [
            "void f(void) {\n    if (x) {\n        g(1);\n}\n",
            "void f(void) {\n    g(1, (2);\n}\n",
            "void f(void) {\n    g(1, 2;\n}\n",
            "void f(void) {\n    char *s = \"abc;\n}\n",
            "int a[2] = {1, 2;\n",
        ] {
            assert!(judged(Language::C, text), "{text:?}");
        }
    }
}
