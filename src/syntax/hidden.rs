//! Which lines of a text begin inside a block comment or inside a string that spans lines
//! (a docstring, a template literal, a text block): lines that say nothing about the
//! layout of the code around them, so the region widening passes over them as it does
//! over blank lines. A rough lexer, by the language's comment and quote delimiters alone:
//! where it errs, a region is cut in the wrong place, and its parse (or the parse of the
//! same region of the file as it was) fails, and the whole result is parsed instead.

use super::Language;

/// A language's delimiters, as far as lines are concerned.
struct Lexis {
    /// What begins a comment to the end of the line.
    line_comments: &'static [&'static [u8]],
    /// What opens and what closes a block comment.
    block: Option<(&'static [u8], &'static [u8])>,
    /// Quotes whose strings may span lines, longest first (`"""` before `"`).
    long_quotes: &'static [&'static [u8]],
    /// Quotes whose strings end with their line.
    quotes: &'static [u8],
    /// `'` opens a character (`'x'`, `'\n'`) or a lifetime, never a string (Rust).
    char_quotes: bool,
}

impl Lexis {
    fn of(language: Language) -> Option<Lexis> {
        const C_BLOCK: Option<(&[u8], &[u8])> = Some((b"/*", b"*/"));
        let lexis = |line_comments, block, long_quotes, quotes| Lexis {
            line_comments,
            block,
            long_quotes,
            quotes,
            char_quotes: false,
        };
        Some(match language {
            Language::C | Language::Cpp => lexis(&[b"//"], C_BLOCK, &[], b"\"'"),
            Language::CSharp | Language::Java => lexis(&[b"//"], C_BLOCK, &[b"\"\"\""], b"\"'"),
            Language::JavaScript | Language::TypeScript | Language::Tsx | Language::Go => {
                lexis(&[b"//"], C_BLOCK, &[b"`"], b"\"'")
            }
            Language::Rust => Lexis {
                char_quotes: true,
                ..lexis(&[b"//"], C_BLOCK, &[b"\""], b"")
            },
            Language::Php => lexis(&[b"//", b"#"], C_BLOCK, &[], b"\"'"),
            Language::Css => lexis(&[], C_BLOCK, &[], b"\"'"),
            Language::Python | Language::Toml => lexis(&[b"#"], None, &[b"\"\"\"", b"'''"], b"\"'"),
            _ => return None,
        })
    }
}

/// Where a line's scan stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LexState {
    Code,
    Block,
    Long(&'static [u8]),
}

/// For each line of `text` (split as `starts` says), whether it begins inside a block
/// comment or a string that spans lines; `None` for a language whose layout needs no
/// such care (its lines are all taken as they are).
pub(super) fn hidden(language: Language, text: &[u8], starts: &[usize]) -> Option<Vec<bool>> {
    let lexis = Lexis::of(language)?;
    let first = first_bytes(&lexis);
    let mut hidden = Vec::with_capacity(starts.len());
    let mut state = LexState::Code;
    for (i, &start) in starts.iter().enumerate() {
        hidden.push(state != LexState::Code);
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        state = scan(&lexis, &first, &text[start..end], state);
    }
    Some(hidden)
}

/// The state after `line`, begun in `state`: from one delimiter to the next, the bytes
/// between skipped a run at a time.
fn scan(lexis: &Lexis, first: &[bool; 256], line: &[u8], mut state: LexState) -> LexState {
    let mut at = 0;
    while at < line.len() {
        match state {
            LexState::Block => {
                let close = lexis.block.map_or(&b"*/"[..], |(_, close)| close);
                let Some(i) = memchr::memmem::find(&line[at..], close) else {
                    return state;
                };
                state = LexState::Code;
                at += i + close.len();
            }
            LexState::Long(quote) => {
                let Some(i) = memchr::memchr2(b'\\', quote[0], &line[at..]) else {
                    return state;
                };
                at += i;
                if line[at] == b'\\' {
                    at += 2;
                } else if line[at..].starts_with(quote) {
                    state = LexState::Code;
                    at += quote.len();
                } else {
                    at += 1;
                }
            }
            LexState::Code => {
                let Some(i) = line[at..].iter().position(|&b| first[usize::from(b)]) else {
                    return state;
                };
                at += i;
                let rest = &line[at..];
                if lexis.line_comments.iter().any(|c| rest.starts_with(c)) {
                    return state;
                }
                if let Some((open, _)) = lexis.block.filter(|(open, _)| rest.starts_with(open)) {
                    state = LexState::Block;
                    at += open.len();
                } else if let Some(quote) = lexis.long_quotes.iter().find(|q| rest.starts_with(q)) {
                    state = LexState::Long(quote);
                    at += quote.len();
                } else if lexis.char_quotes && rest[0] == b'\'' {
                    at += char_literal(rest);
                } else if lexis.quotes.contains(&rest[0]) {
                    at += short_string(rest);
                } else {
                    at += 1;
                }
            }
        }
    }
    state
}

/// Which bytes may begin a delimiter of `lexis`.
fn first_bytes(lexis: &Lexis) -> [bool; 256] {
    let mut first = [false; 256];
    let delimiters = lexis
        .line_comments
        .iter()
        .chain(lexis.block.as_ref().map(|(open, _)| open))
        .chain(lexis.long_quotes);
    for delimiter in delimiters {
        first[usize::from(delimiter[0])] = true;
    }
    for &quote in lexis.quotes {
        first[usize::from(quote)] = true;
    }
    if lexis.char_quotes {
        first[usize::from(b'\'')] = true;
    }
    first
}

/// The length of the string that opens `rest` and ends on its line (all of the line when
/// it is not closed there).
fn short_string(rest: &[u8]) -> usize {
    let quote = rest[0];
    let mut at = 1;
    while at < rest.len() {
        match rest[at] {
            b'\\' => at += 2,
            b'\n' => return at,
            b if b == quote => return at + 1,
            _ => at += 1,
        }
    }
    rest.len()
}

/// The length of the character literal that opens `rest` (`'x'`, `'\''`, `'\u{1F600}'`),
/// or 1 for a lifetime's `'`.
fn char_literal(rest: &[u8]) -> usize {
    if rest.get(1) == Some(&b'\\') {
        return rest
            .iter()
            .skip(2)
            .take(12)
            .position(|&b| b == b'\'')
            .map_or(1, |i| i + 3);
    }
    let width = rest.get(1).map_or(1, |&b| utf8_width(b));
    if rest.get(1 + width) == Some(&b'\'') {
        width + 2
    } else {
        1
    }
}

/// The width of the UTF-8 character whose first byte is `b`.
fn utf8_width(b: u8) -> usize {
    match b {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::hidden;
    use crate::syntax::Language;

    fn of(language: Language, text: &str) -> Vec<bool> {
        let mut starts = vec![0];
        starts.extend(
            text.match_indices('\n')
                .map(|(i, _)| i + 1)
                .filter(|&s| s < text.len()),
        );
        hidden(language, text.as_bytes(), &starts).unwrap()
    }

    #[test]
    fn comments_and_long_strings_hide_the_lines_they_span() {
        let ts = "/**\nDoc.\n\n@example\n*/\nconst a = `x\ny`; // `\nconst b = \"/*\";\nc();\n";
        assert_eq!(
            of(Language::TypeScript, ts),
            [false, true, true, true, true, false, true, false, false]
        );
        let py = "\"\"\"Module.\n\nMore.\n\"\"\"\nx = '\"\"\"'  # \"\"\"\ny = 1\n";
        assert_eq!(
            of(Language::Python, py),
            [false, true, true, true, false, false]
        );
        let rust = "let c = '\"';\nlet s = \"a\nb\";\nfn f<'a>(x: &'a str) {}\nlet e = '\\'';\n";
        assert_eq!(of(Language::Rust, rust), [false, false, true, false, false]);
        assert!(hidden(Language::Yaml, b"a: 1\n", &[0]).is_none());
    }
}
