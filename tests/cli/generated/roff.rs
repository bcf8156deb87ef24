//! roff for man(7): escaping and a small writer. The contract's sections of `stitch.1` are
//! written by these tests, so their escaping is done here.

use std::fmt::Write as _;

/// Escapes `text` for a roff text line: a backslash as `\e` (the printable escape
/// character; a doubled `\\` means something else in copy mode), apostrophes and non-ASCII
/// characters as named glyphs. With `literal`, hyphens become `\-` (the minus that options
/// and code need); in prose they stay hyphens. A leading `.` or `'` is [`text_line`]'s job.
pub(super) fn escape(text: &str, literal: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str(r"\e"),
            '-' if literal => out.push_str(r"\-"),
            '\'' => out.push_str(r"\(aq"),
            '\u{2014}' => out.push_str(r"\(em"),
            '\u{2013}' => out.push_str(r"\(en"),
            '\u{2192}' => out.push_str(r"\(->"),
            '\u{2026}' => out.push_str(r"\&..."),
            c if c.is_ascii() => out.push(c),
            c => {
                let _ = write!(out, r"\[u{:04X}]", u32::from(c));
            }
        }
    }
    out
}

/// A text line: a `\&` keeps a leading `.` or `'` from starting a request.
pub(super) fn text_line(escaped: String) -> String {
    if escaped.starts_with(['.', '\'']) {
        format!(r"\&{escaped}")
    } else {
        escaped
    }
}

/// Inline markup of the contract's prose: `code` is bold and literal, and its words are
/// never hyphenated (`\%`); everything else is roman prose.
pub(super) fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            let words: Vec<String> = part
                .split(' ')
                .map(|word| format!(r"\%{}", escape(word, true)))
                .collect();
            let _ = write!(out, r"\fB{}\fR", words.join(" "));
        } else {
            out.push_str(&escape(part, false));
        }
    }
    text_line(out)
}

/// A small roff writer for man(7) sections.
#[derive(Default)]
pub(super) struct Roff {
    pub(super) out: String,
    /// Just after `.SH`, where a paragraph needs no `.PP` of its own.
    section_start: bool,
}

impl Roff {
    pub(super) fn section(&mut self, title: &str) -> &mut Self {
        let _ = writeln!(self.out, ".SH \"{title}\"");
        self.section_start = true;
        self
    }

    /// Starts a paragraph, unless the section has just started one.
    pub(super) fn paragraph(&mut self) {
        if !self.section_start {
            self.out.push_str(".PP\n");
        }
    }

    pub(super) fn para(&mut self, text: &str) -> &mut Self {
        self.paragraph();
        self.line(text)
    }

    pub(super) fn line(&mut self, text: &str) -> &mut Self {
        self.out.push_str(&inline(text));
        self.out.push('\n');
        self.section_start = false;
        self
    }

    pub(super) fn bullet(&mut self, text: &str) -> &mut Self {
        self.out.push_str(".IP \\(bu 2\n");
        self.line(text)
    }

    /// A tagged paragraph: `tag` (inline markup) then the indented body lines.
    pub(super) fn item(&mut self, tag: &str, body: &[&str]) -> &mut Self {
        self.out.push_str(".TP\n");
        self.line(tag);
        for (i, text) in body.iter().enumerate() {
            if i > 0 {
                self.out.push_str(".br\n");
            }
            self.line(text);
        }
        self
    }

    /// Verbatim lines (JSON, shell), indented and unfilled.
    pub(super) fn example(&mut self, lines: &str) -> &mut Self {
        self.paragraph();
        self.out.push_str(".RS 4\n.nf\n");
        for line in lines.lines() {
            self.out.push_str(&text_line(escape(line, true)));
            self.out.push('\n');
        }
        self.out.push_str(".fi\n.RE\n");
        self.section_start = false;
        self
    }
}
