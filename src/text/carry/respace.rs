//! Whitespace inside a line as a transform: where the file's line differs from the
//! caller's remembered one only in spacing (`a,b` for `a, b`, a space before a line's
//! continuation `\`), the same spacing is given to the caller's rewrite of that line at
//! the same places — between the same two tokens — and a rewrite whose spacing there
//! cannot be told is not carried.

use std::collections::HashMap;

/// A token of a line: a word (letters, digits, `_`) or one other character that is not
/// whitespace, with the whitespace before it.
struct Token<'a> {
    gap: &'a str,
    text: &'a str,
}

/// The tokens of `line`, and the whitespace after the last.
fn tokens(line: &str) -> (Vec<Token<'_>>, &str) {
    let mut out = Vec::new();
    let mut gap_start = 0;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_whitespace() {
            continue;
        }
        let mut end = i + c.len_utf8();
        if c.is_alphanumeric() || c == '_' {
            while let Some(&(j, d)) = chars.peek() {
                if !(d.is_alphanumeric() || d == '_') {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
        }
        out.push(Token {
            gap: &line[gap_start..i],
            text: &line[i..end],
        });
        gap_start = end;
    }
    (out, &line[gap_start..])
}

/// The place of a gap: the tokens on either side (`None` at the line's start or end).
type Between<'a> = (Option<&'a str>, Option<&'a str>);

/// The gaps of a line by place, with what stands there.
fn gaps(line: &str) -> Vec<(Between<'_>, &str)> {
    let (tokens, end) = tokens(line);
    let mut out = Vec::with_capacity(tokens.len() + 1);
    let mut before = None;
    for t in &tokens {
        out.push(((before, Some(t.text)), t.gap));
        before = Some(t.text);
    }
    out.push(((before, None), end));
    out
}

/// `theirs` (the caller's rewrite of the line `base`) with the spacing the file's `ours`
/// gives `base`: `None` when `ours` differs from `base` in more than spacing, or a gap of
/// `theirs` sits where the file respaced one but is spaced otherwise than `base` was.
pub(super) fn respace(base: &str, ours: &str, theirs: &str) -> Option<String> {
    let (b, o) = (gaps(base), gaps(ours));
    let same_tokens = b.len() == o.len() && b.iter().zip(&o).all(|(x, y)| x.0 == y.0);
    if !same_tokens {
        return None;
    }
    // Each place the file respaced: what the caller had there → what the file has.
    let mut rules: HashMap<Between<'_>, Option<(&str, &str)>> = HashMap::new();
    for ((place, from), (_, to)) in b.iter().zip(&o) {
        if from != to {
            let rule = rules.entry(*place).or_insert(Some((from, to)));
            if *rule != Some((from, to)) {
                *rule = None;
            }
        }
    }
    let mut out = String::with_capacity(theirs.len() + 8);
    let (tokens, end) = tokens(theirs);
    let mut before = None;
    let spaced = |place: Between<'_>, gap: &str| -> Option<String> {
        match rules.get(&place) {
            None => Some(gap.to_owned()),
            Some(Some((from, to))) if *from == gap => Some((*to).to_owned()),
            Some(_) => None,
        }
    };
    for t in &tokens {
        out.push_str(&spaced((before, Some(t.text)), t.gap)?);
        out.push_str(t.text);
        before = Some(t.text);
    }
    out.push_str(&spaced((before, None), end)?);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::respace;

    #[test]
    fn a_space_before_a_continuation_is_given_to_the_rewrite() {
        assert_eq!(
            respace(
                "    get_text_stream,\\",
                "    get_text_stream, \\",
                "    get_text_stream, open_text,\\"
            )
            .unwrap(),
            "    get_text_stream, open_text, \\"
        );
    }

    #[test]
    fn spacing_the_rewrite_spells_otherwise_is_not_guessed() {
        assert_eq!(respace("f(a,b)", "f(a, b)", "f(a,  b, c)"), None);
        assert_eq!(respace("f(a,b)", "f(a, c)", "f(a,b,d)"), None);
    }
}
