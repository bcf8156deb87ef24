//! Where a parsed result's syntax error is, for a person or a model to fix it: the first
//! error inside the changed span (else the first in the file), as narrow as the parser
//! gives it, with its line, column, source line and caret, and what the parser expected
//! or found there.

use serde::Serialize;
use tree_sitter::Node;

/// The most characters of a source line an excerpt shows; a longer line is cut around the
/// error.
const EXCERPT_CHARS: usize = 160;
/// The most characters of the text found at an error.
const FOUND_CHARS: usize = 40;

/// One syntax error of a result, as a refusal's details and a result's `syntaxErrors`
/// give it (lines and columns 1-based, columns in characters).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SyntaxError {
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    /// The error's source line, then a line with a caret under its column.
    pub excerpt: String,
    /// The token the parser needed and did not find (`missing ")"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// The text the parser could not place (`unexpected "}"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found: Option<String>,
}

impl SyntaxError {
    /// What is wrong, in a few words: `missing ")"`, `unexpected "}"`, or `a syntax
    /// error`.
    #[must_use]
    pub fn what(&self) -> String {
        match (&self.expected, &self.found) {
            (Some(expected), _) => format!("missing {expected:?}"),
            (None, Some(found)) => format!("unexpected {found:?}"),
            (None, None) => "a syntax error".to_owned(),
        }
    }
}

/// The first of `errors` (in document order) that meets `span`, else the first of all,
/// described; `None` when there are none.
pub(super) fn first_error(
    errors: &[Node<'_>],
    text: &[u8],
    span: &std::ops::Range<usize>,
) -> Option<SyntaxError> {
    let meets = |node: &Node<'_>| node.start_byte() <= span.end && node.end_byte() >= span.start;
    let node = errors
        .iter()
        .find(|n| meets(n))
        .or_else(|| errors.first())
        .copied()?;
    Some(describe(node, text, span))
}

/// The error and missing nodes under `node`, in document order, not looking inside an
/// error node (it is reported whole).
pub(super) fn collect<'t>(node: Node<'t>, into: &mut Vec<Node<'t>>) {
    if node.is_error() || node.is_missing() {
        into.push(node);
        return;
    }
    if !node.has_error() {
        return;
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        collect(child, into);
    }
}

/// The facts of the error at `node`.
fn describe(node: Node<'_>, text: &[u8], span: &std::ops::Range<usize>) -> SyntaxError {
    let (expected, found, start) = if node.is_missing() {
        (Some(node.kind().to_owned()), None, node.start_byte())
    } else if let Some((open, closer)) = unclosed(node, span) {
        // A bracket opened inside the error and never closed: the likeliest cause.
        (Some(closer.to_owned()), None, open.start_byte())
    } else {
        // The first token the parser could not place.
        let leaf = first_leaf(node);
        let found = String::from_utf8_lossy(&text[leaf.start_byte()..leaf.end_byte()]);
        let found = found.lines().next().unwrap_or("").trim();
        let found = (!found.is_empty()).then(|| cut(found, FOUND_CHARS));
        (None, found, leaf.start_byte())
    };
    let start = start.min(text.len());
    let line_start = memchr::memrchr(b'\n', &text[..start]).map_or(0, |i| i + 1);
    let line_end = memchr::memchr(b'\n', &text[start..]).map_or(text.len(), |i| start + i);
    let line_text = String::from_utf8_lossy(&text[line_start..line_end]);
    let line_text = line_text.trim_end_matches('\r');
    let column = String::from_utf8_lossy(&text[line_start..start])
        .chars()
        .count()
        + 1;
    let line = memchr::memchr_iter(b'\n', &text[..start]).count() + 1;
    let end = node.end_position();
    let end_line = if end.column == 0 && end.row > node.start_position().row {
        end.row
    } else {
        end.row + 1
    }
    .max(line);
    SyntaxError {
        line,
        column,
        end_line,
        excerpt: excerpt(line_text, column),
        expected,
        found,
    }
}

/// The innermost bracket opened under `node` and not closed there (one the change made,
/// where there is one), with the closer it needs.
fn unclosed<'t>(node: Node<'t>, span: &std::ops::Range<usize>) -> Option<(Node<'t>, &'static str)> {
    let mut open: Vec<(Node<'_>, &'static str)> = Vec::new();
    let mut cursor = node.walk();
    let mut leaves = vec![node];
    while let Some(n) = leaves.pop() {
        if n.child_count() > 0 {
            let children: Vec<Node<'_>> = n.children(&mut cursor).collect();
            leaves.extend(children.into_iter().rev());
            continue;
        }
        match n.kind() {
            "(" => open.push((n, ")")),
            "[" => open.push((n, "]")),
            "{" => open.push((n, "}")),
            closer @ (")" | "]" | "}") if open.last().is_some_and(|(_, c)| *c == closer) => {
                open.pop();
            }
            _ => {}
        }
    }
    let made = |n: &Node<'_>| span.contains(&n.start_byte());
    open.iter()
        .rev()
        .find(|(n, _)| made(n))
        .or(open.last())
        .copied()
}

/// The first leaf under `node` (itself when it has no children).
fn first_leaf(node: Node<'_>) -> Node<'_> {
    let mut node = node;
    while let Some(child) = node.child(0) {
        node = child;
    }
    node
}

/// `line` and a caret under its `column` (1-based, in characters); a long line is cut to
/// a window around the column, tabs kept so the caret lines up.
fn excerpt(line: &str, column: usize) -> String {
    let chars: Vec<char> = line.chars().collect();
    let from = column.saturating_sub(EXCERPT_CHARS / 2).min(chars.len());
    let to = (from + EXCERPT_CHARS).min(chars.len());
    let shown: String = chars[from..to].iter().collect();
    let pad: String = chars[from..(column - 1).min(chars.len())]
        .iter()
        .map(|c| if *c == '\t' { '\t' } else { ' ' })
        .collect();
    format!("{shown}\n{pad}^")
}

/// `s` cut to `most` characters, marked with `…` when cut.
fn cut(s: &str, most: usize) -> String {
    match s.char_indices().nth(most) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}
