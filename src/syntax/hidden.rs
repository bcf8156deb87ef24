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

/// Where the scan stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LexState {
    Code,
    Block,
    Long(&'static [u8]),
}

/// For each line of `text` (split as `starts` says), whether it begins inside a block
/// comment or a string that spans lines; `None` for a language whose layout needs no
/// such care (its lines are all taken as they are).
///
/// One pass over the whole text from one delimiter to the next, each found by `memchr`,
/// so that the code between them, lines of it at a time, is skipped at its speed. A
/// delimiter met in code is read within its own line: a comment to the end of the line,
/// a short string or a character up to its end or the line's.
pub(super) fn hidden(language: Language, text: &[u8], starts: &[usize]) -> Option<Vec<bool>> {
    let lexis = Lexis::of(language)?;
    let mut next = Delimiters::new(&first_bytes(&lexis));
    let mut lines = Lines {
        starts,
        hidden: vec![false; starts.len()],
        next: 1,
    };
    let mut state = LexState::Code;
    let mut at = 0;
    while at < text.len() {
        match state {
            LexState::Block => {
                let close = lexis.block.map_or(&b"*/"[..], |(_, close)| close);
                let Some(i) = memchr::memmem::find(&text[at..], close) else {
                    lines.pass(text.len(), true);
                    break;
                };
                lines.pass(at + i, true);
                state = LexState::Code;
                at += i + close.len();
            }
            LexState::Long(quote) => {
                let Some(i) = memchr::memchr2(b'\\', quote[0], &text[at..]) else {
                    lines.pass(text.len(), true);
                    break;
                };
                at += i;
                lines.pass(at, true);
                if text[at] == b'\\' {
                    at += 2;
                    lines.pass(at, true);
                } else if text[at..].starts_with(quote) {
                    state = LexState::Code;
                    at += quote.len();
                } else {
                    at += 1;
                }
            }
            LexState::Code => {
                let Some(found) = next.find(text, at) else {
                    break;
                };
                at = found;
                lines.pass(at, false);
                let rest = &text[at..lines.end(text.len())];
                if lexis.line_comments.iter().any(|c| rest.starts_with(c)) {
                    at += rest.len();
                } else if let Some((open, _)) =
                    lexis.block.filter(|(open, _)| rest.starts_with(open))
                {
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
    Some(lines.hidden)
}

/// The lines as the scan passes them: which begin hidden, and the first line not yet
/// passed (its start is after the scan's position).
struct Lines<'s> {
    starts: &'s [usize],
    hidden: Vec<bool>,
    next: usize,
}

impl Lines<'_> {
    /// Passes the lines that begin after the scan's position and at or before `to`,
    /// each begun in code or (`hidden`) not.
    fn pass(&mut self, to: usize, hidden: bool) {
        while self.next < self.starts.len() && self.starts[self.next] <= to {
            self.hidden[self.next] = hidden;
            self.next += 1;
        }
    }

    /// The end of the line the scan is in (its line break included).
    fn end(&self, len: usize) -> usize {
        self.starts.get(self.next).copied().unwrap_or(len)
    }
}

/// The next byte that may begin a delimiter, found by `memchr` (up to three bytes a
/// search), each search's answer kept until the scan passes it.
struct Delimiters {
    groups: Vec<Group>,
}

/// Up to three of the bytes, and where the next of them is.
struct Group {
    bytes: Vec<u8>,
    next: Next,
}

/// Where a group's next byte is, by its last search.
#[derive(Clone, Copy)]
enum Next {
    NotSought,
    At(usize),
    NoneLeft,
}

impl Delimiters {
    fn new(first: &[bool; 256]) -> Delimiters {
        let bytes: Vec<u8> = (0..=255).filter(|&b| first[usize::from(b)]).collect();
        Delimiters {
            groups: bytes
                .chunks(3)
                .map(|bytes| Group {
                    bytes: bytes.to_vec(),
                    next: Next::NotSought,
                })
                .collect(),
        }
    }

    /// The first delimiter byte of `text` at or after `at`.
    fn find(&mut self, text: &[u8], at: usize) -> Option<usize> {
        let mut first: Option<usize> = None;
        for group in &mut self.groups {
            let found = match group.next {
                Next::At(next) if next >= at => Some(next),
                Next::NoneLeft => None,
                _ => {
                    let rest = &text[at..];
                    let found = match group.bytes[..] {
                        [a] => memchr::memchr(a, rest),
                        [a, b] => memchr::memchr2(a, b, rest),
                        [a, b, c] => memchr::memchr3(a, b, c, rest),
                        _ => None,
                    }
                    .map(|i| at + i);
                    group.next = found.map_or(Next::NoneLeft, Next::At);
                    found
                }
            };
            first = match (first, found) {
                (Some(f), Some(g)) => Some(f.min(g)),
                (f, g) => f.or(g),
            };
        }
        first
    }
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
    use super::{char_literal, first_bytes, hidden, short_string, LexState, Lexis};
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

    /// The scan as it was first written, a line at a time, each line from its start in
    /// the state the line before left: what the one pass over the text must agree with.
    fn by_lines(language: Language, text: &[u8], starts: &[usize]) -> Vec<bool> {
        let lexis = Lexis::of(language).unwrap();
        let first = first_bytes(&lexis);
        let mut hidden = Vec::new();
        let mut state = LexState::Code;
        for (i, &start) in starts.iter().enumerate() {
            hidden.push(state != LexState::Code);
            let line = &text[start..starts.get(i + 1).copied().unwrap_or(text.len())];
            let mut at = 0;
            while at < line.len() {
                match state {
                    LexState::Block => {
                        let close = lexis.block.unwrap().1;
                        let Some(i) = memchr::memmem::find(&line[at..], close) else {
                            break;
                        };
                        state = LexState::Code;
                        at += i + close.len();
                    }
                    LexState::Long(quote) => {
                        let Some(i) = memchr::memchr2(b'\\', quote[0], &line[at..]) else {
                            break;
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
                            break;
                        };
                        at += i;
                        let rest = &line[at..];
                        if lexis.line_comments.iter().any(|c| rest.starts_with(c)) {
                            break;
                        }
                        if let Some((open, _)) = lexis.block.filter(|(o, _)| rest.starts_with(o)) {
                            state = LexState::Block;
                            at += open.len();
                        } else if let Some(q) =
                            lexis.long_quotes.iter().find(|q| rest.starts_with(q))
                        {
                            state = LexState::Long(q);
                            at += q.len();
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
        }
        hidden
    }

    #[test]
    fn one_pass_agrees_with_the_scan_a_line_at_a_time() {
        // Texts drawn from the delimiters' bytes, line breaks and code, many of each.
        const PIECES: [&str; 18] = [
            "/", "*", "\"", "'", "`", "#", "\\", "\n", "\r\n", "a", " ", "x = 1;", "\"\"\"", "'''",
            "/*", "*/", "//", "é",
        ];
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut random = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            usize::try_from(seed >> 33).unwrap() % n
        };
        let mut some_hidden = 0;
        for round in 0..3000 {
            let pieces = 1 + random(60);
            let text: String = (0..pieces).map(|_| PIECES[random(PIECES.len())]).collect();
            let text = text.as_bytes();
            let mut starts = vec![0];
            starts.extend(
                memchr::memchr_iter(b'\n', text)
                    .map(|i| i + 1)
                    .filter(|&s| s < text.len()),
            );
            for language in Language::ALL {
                let Some(fast) = hidden(language, text, &starts) else {
                    continue;
                };
                let slow = by_lines(language, text, &starts);
                assert_eq!(
                    fast,
                    slow,
                    "{} {round}: {:?}",
                    language.name(),
                    String::from_utf8_lossy(text)
                );
                some_hidden += usize::from(slow.contains(&true));
            }
        }
        // Many of the texts hide lines: the two agree on more than lists of `false`.
        assert!(some_hidden > 5000, "{some_hidden}");
    }
}
