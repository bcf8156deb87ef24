//! The lines of a text as the region widening reads them: each line's indentation, and
//! whether it may begin an item (a declaration, a statement, a key, an element) at its
//! indentation or continues or closes one, by cheap, language-aware rules of layout. The
//! rules only choose where a region of a change starts and ends; a wrong choice makes the
//! region's parse fail (and the whole file is parsed instead), or is caught by the parse
//! of the same region of the file as it was.

use std::cmp::Ordering;

use super::Language;

/// The lines of a text: line `i` runs from `starts[i]` to the next start (its `\n`
/// included), the last to the end of the text.
pub(super) struct LineIndex<'t> {
    pub(super) text: &'t [u8],
    starts: Vec<usize>,
    /// Which lines begin inside a block comment or a string that spans lines.
    hidden: Option<Vec<bool>>,
}

impl<'t> LineIndex<'t> {
    /// The lines of `text`, in `language`.
    pub(super) fn new(text: &'t [u8], language: Language) -> LineIndex<'t> {
        let mut starts = vec![0];
        starts.extend(
            memchr::memchr_iter(b'\n', text)
                .map(|i| i + 1)
                .filter(|&s| s < text.len()),
        );
        let hidden = super::hidden::hidden(language, text, &starts);
        LineIndex {
            text,
            starts,
            hidden,
        }
    }

    /// How many lines (an empty text has one, empty).
    pub(super) fn count(&self) -> usize {
        self.starts.len()
    }

    /// Where line `i` starts; the end of the text for `i == count()`.
    pub(super) fn start(&self, i: usize) -> usize {
        self.starts.get(i).copied().unwrap_or(self.text.len())
    }

    /// Line `i` with its line break.
    pub(super) fn line(&self, i: usize) -> &'t [u8] {
        &self.text[self.start(i)..self.start(i + 1)]
    }

    /// The first line that starts at or after byte `at` (`count()` when none does).
    pub(super) fn first_at_or_after(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s < at)
    }

    /// The line that holds byte `at` (the last line for the end of the text).
    pub(super) fn of(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s <= at) - 1
    }

    /// Line `i`'s leading blanks (spaces and tabs).
    pub(super) fn indent(&self, i: usize) -> &'t [u8] {
        let line = self.line(i);
        let n = line
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        &line[..n]
    }

    /// Line `i` without its indentation and trailing blanks (and `\r`, `\n`).
    pub(super) fn content(&self, i: usize) -> &'t [u8] {
        let line = &self.line(i)[self.indent(i).len()..];
        let n = line.len()
            - line
                .iter()
                .rev()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
        &line[..n]
    }

    /// Whether line `i` says nothing of the layout: blank, or begun inside a block
    /// comment or a string that spans lines.
    pub(super) fn blank(&self, i: usize) -> bool {
        self.hidden(i) || self.content(i).is_empty()
    }

    /// Whether line `i` begins inside a block comment or a string that spans lines.
    pub(super) fn hidden(&self, i: usize) -> bool {
        self.hidden.as_ref().is_some_and(|h| h[i])
    }

    /// How line `i`'s indentation compares with `level`: deeper (`Greater`) when it
    /// extends it, shallower (`Less`) when it is a prefix of it. Indentation that is
    /// neither (tabs against spaces) counts as deeper: such a line never ends a region
    /// or opens a block around one.
    pub(super) fn depth(&self, i: usize, level: &[u8]) -> Ordering {
        compare(self.indent(i), level).unwrap_or(Ordering::Greater)
    }

    /// Whether line `i`'s indentation is shallower than `level` (`depth` is `Less`): a
    /// strict prefix of it. Only as much of the line is read as `level` is long, for the
    /// scans over many lines for the one that opens or closes a block.
    pub(super) fn shallower(&self, i: usize, level: &[u8]) -> bool {
        let line = self.line(i);
        let same = line.iter().zip(level).take_while(|(a, b)| a == b).count();
        same < level.len() && !matches!(line.get(same), Some(b' ' | b'\t'))
    }

    /// The nearest non-blank line before line `i`.
    pub(super) fn previous(&self, i: usize) -> Option<usize> {
        (0..i).rev().find(|&j| !self.blank(j))
    }
}

/// How indentation `a` compares with `b` (see [`LineIndex::depth`]).
pub(super) fn compare(a: &[u8], b: &[u8]) -> Option<Ordering> {
    if a == b {
        Some(Ordering::Equal)
    } else if a.starts_with(b) {
        Some(Ordering::Greater)
    } else if b.starts_with(a) {
        Some(Ordering::Less)
    } else {
        None
    }
}

/// How a language's lines are laid out, as far as the widening needs to know.
pub(super) struct LineRules {
    /// Words that open a line continuing the item before it (`else`, `except`, `then`).
    continuing: &'static [&'static str],
    /// Words that open a line closing a block (`end`, `fi`, `done`).
    closing: &'static [&'static str],
    /// A line opening with `- ` is an item (a YAML sequence entry).
    dash_items: bool,
    /// A line of `{` alone is an item (a JSON object), not a brace put on its own line.
    brace_items: bool,
    /// `<<WORD` begins a here-document (Bash, Ruby, PHP).
    heredocs: bool,
    /// A line may open with a selector's `.`, `:`, `*`, `>`, `+`, `~` or `&` (CSS).
    selectors: bool,
    /// `{` and `}` with nothing between are valid wherever a block with something in it
    /// is (not Bash's, whose braces group commands).
    pub(super) empty_blocks: bool,
}

impl LineRules {
    pub(super) fn of(language: Language) -> LineRules {
        const NONE: &[&str] = &[];
        let mut layout = LineRules {
            continuing: &["else", "catch", "finally"],
            closing: NONE,
            dash_items: false,
            brace_items: false,
            heredocs: false,
            selectors: false,
            empty_blocks: true,
        };
        match language {
            Language::Python => layout.continuing = &["else", "elif", "except", "finally"],
            Language::Ruby => {
                layout.continuing = &[
                    "else", "elsif", "rescue", "ensure", "when", "in", "then", "do",
                ];
                layout.closing = &["end"];
                layout.heredocs = true;
            }
            Language::Bash => {
                layout.continuing = &["then", "do", "else", "elif", "in"];
                layout.closing = &["fi", "done", "esac"];
                layout.heredocs = true;
                layout.empty_blocks = false;
            }
            Language::Rust => layout.continuing = &["else", "where"],
            Language::Php => layout.heredocs = true,
            Language::Yaml => {
                layout.continuing = NONE;
                layout.dash_items = true;
            }
            Language::Json => layout.brace_items = true,
            Language::Css => layout.selectors = true,
            _ => {}
        }
        layout
    }

    /// Whether `content` (a line without its indentation) may begin an item: not a
    /// closing bracket or word, not an operator or word that continues the line before.
    pub(super) fn may_begin(&self, content: &[u8]) -> bool {
        let Some(&first) = content.first() else {
            return false;
        };
        let word = first_word(content);
        if self.continuing.contains(&word) || self.closing.contains(&word) {
            return false;
        }
        let next = content.get(1).copied();
        if self.selectors && matches!(first, b'.' | b':' | b'*' | b'>' | b'+' | b'~' | b'&') {
            return true;
        }
        match first {
            b'}' | b')' | b']' | b',' | b';' | b'?' | b':' | b'&' | b'|' | b'+' | b'=' | b'>'
            | b'^' | b'%' | b'\\' => false,
            b'-' => self.dash_items && matches!(next, None | Some(b' ')),
            b'.' => content.starts_with(b"..."),
            b'/' => matches!(next, Some(b'/' | b'*')),
            b'*' => next != Some(b'/'),
            b'{' => self.brace_items || content.len() > 1,
            _ => true,
        }
    }

    /// Whether `content` closes a block: a closing bracket or tag, or a closing word.
    pub(super) fn closes(&self, content: &[u8]) -> bool {
        matches!(content.first(), Some(b'}' | b')' | b']'))
            || content.starts_with(b"</")
            || self.closing.contains(&first_word(content))
    }

    /// Whether `content` opens with a closing word (`end`, `fi`): it closes the block
    /// the last line at its indentation opened, whatever that line ends with.
    pub(super) fn ends_block(&self, content: &[u8]) -> bool {
        self.closing.contains(&first_word(content))
    }

    /// Whether `content`, a whole line, ends its item: the next line at its indentation
    /// may begin another. Not when it ends in an operator, an opening bracket, `:` or
    /// `\`, or leaves a quote or here-document open.
    pub(super) fn ends_item(&self, content: &[u8]) -> bool {
        let Some(&last) = content.last() else {
            return true;
        };
        if matches!(
            last,
            b'\\'
                | b'('
                | b'['
                | b'{'
                | b'='
                | b'+'
                | b'-'
                | b'*'
                | b'/'
                | b'%'
                | b'&'
                | b'|'
                | b'^'
                | b'<'
                | b'.'
                | b'?'
                | b':'
        ) {
            return false;
        }
        let odd = |quote: &[u8]| memchr::memmem::find_iter(content, quote).count() % 2 == 1;
        if odd(b"\"\"\"") || odd(b"'''") || odd(b"`") || unescaped_quotes(content) % 2 == 1 {
            return false;
        }
        !(self.heredocs && opens_heredoc(content))
    }
}

/// The leading word of `content` (letters, digits, `_`), or `""`.
fn first_word(content: &[u8]) -> &str {
    let n = content
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    std::str::from_utf8(&content[..n]).unwrap_or("")
}

/// How many `"` in `content` are not escaped by a `\`.
fn unescaped_quotes(content: &[u8]) -> usize {
    memchr::memchr_iter(b'"', content)
        .filter(|&i| i == 0 || content[i - 1] != b'\\')
        .count()
}

/// Whether `content` holds `<<WORD`, `<<-WORD`, `<<~WORD`, `<<'WORD'`, `<<"WORD"` or
/// `<<<WORD` (the head of a here-document), not `<< x`.
fn opens_heredoc(content: &[u8]) -> bool {
    memchr::memmem::find_iter(content, b"<<").any(|i| {
        matches!(content.get(i + 2), Some(b) if b.is_ascii_alphabetic() || matches!(b, b'_' | b'-' | b'~' | b'\'' | b'"'))
            || content.get(i + 2) == Some(&b'<')
    })
}

#[cfg(test)]
mod tests {
    use super::{Language, LineIndex, LineRules};
    use std::cmp::Ordering;

    #[test]
    fn lines_indentation_and_content() {
        let text = b"a {\n\tb;\n  \n\tc\r\n}";
        let lines = LineIndex::new(text, Language::C);
        assert_eq!(lines.count(), 5);
        assert_eq!(lines.line(1), b"\tb;\n");
        assert_eq!(lines.indent(1), b"\t");
        assert_eq!(lines.content(3), b"c");
        assert!(lines.blank(2));
        assert_eq!(lines.of(0), 0);
        assert_eq!(lines.of(4), 1);
        assert_eq!(lines.of(text.len()), 4);
        assert_eq!(lines.depth(1, b""), Ordering::Greater);
        assert_eq!(lines.depth(0, b"\t"), Ordering::Less);
        assert_eq!(lines.depth(1, b"  "), Ordering::Greater);
        // `shallower` is `depth`'s `Less`, for every line against every level.
        let text = b"a\n  b\n\tc\n  \td\n    e\n\n \n";
        let indented = LineIndex::new(text, Language::C);
        for level in [
            &b""[..],
            b" ",
            b"  ",
            b"\t",
            b"  \t",
            b"    ",
            b"\t\t",
            b"      ",
        ] {
            for i in 0..indented.count() {
                assert_eq!(
                    indented.shallower(i, level),
                    indented.depth(i, level).is_lt(),
                    "{i} {level:?}"
                );
            }
        }
        assert_eq!(lines.previous(3), Some(1));
        assert_eq!(LineIndex::new(b"", Language::C).count(), 1);
        assert_eq!(LineIndex::new(b"x\n", Language::C).count(), 1);
        assert!(LineIndex::new(b"/* a\n\tb */\n", Language::C).blank(1));
    }

    #[test]
    fn what_begins_and_ends_an_item() {
        let c = LineRules::of(Language::C);
        for begins in [
            &b"int f(void) {"[..],
            b"// note",
            b"/* note",
            b"#include <a.h>",
            b"*p = 1;",
            b"{ x }",
        ] {
            assert!(c.may_begin(begins), "{}", String::from_utf8_lossy(begins));
        }
        for not in [
            &b"}"[..],
            b"{",
            b") {",
            b".map(f)",
            b"&& b",
            b"else {",
            b"*/",
            b"= 3;",
        ] {
            assert!(!c.may_begin(not), "{}", String::from_utf8_lossy(not));
        }
        assert!(c.ends_item(b"x = 1;"));
        assert!(c.ends_item(b"}"));
        assert!(c.ends_item(b"a: 1,"));
        for not in [
            &b"x = a +"[..],
            b"f(",
            b"if (x) {",
            b"s = \"abc",
            b"s = `abc",
            b"#define A \\",
        ] {
            assert!(!c.ends_item(not), "{}", String::from_utf8_lossy(not));
        }
        assert!(!LineRules::of(Language::Python).may_begin(b"elif x:"));
        assert!(!LineRules::of(Language::Python).ends_item(b"x = \"\"\""));
        assert!(LineRules::of(Language::Python).ends_item(b"x = \"\"\"a\"\"\""));
        assert!(LineRules::of(Language::Yaml).may_begin(b"- run: a"));
        assert!(!c.may_begin(b"- 1"));
        assert!(LineRules::of(Language::Json).may_begin(b"{"));
        assert!(!LineRules::of(Language::Ruby).may_begin(b"end"));
        assert!(LineRules::of(Language::Ruby).closes(b"end"));
        assert!(LineRules::of(Language::Bash).closes(b"fi"));
        assert!(!LineRules::of(Language::Bash).ends_item(b"cat <<EOF"));
        assert!(LineRules::of(Language::Bash).ends_item(b"echo $((1 << 2))"));
        assert!(c.closes(b"});"));
        assert!(c.closes(b"</div>"));
    }
}
