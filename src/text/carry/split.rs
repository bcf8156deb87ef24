//! A line the caller remembered whole that the file holds continued over several lines
//! (after a `\`, a `,`, an operator or an opening bracket): the caller's line, and its
//! changed version, cut where the file cuts it, so that each piece pairs with one of the
//! file's lines. A change that falls where a cut is, or across one, cannot be cut: the
//! line is left whole (and the merge is in doubt).

/// The text without any whitespace.
fn squash(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Where a line of the file stands in the run of lines that continue one another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Position {
    /// Continued on the next line: a trailing `\` is a continuation.
    Continued,
    /// The run's last line: a trailing `\` is its own.
    Last,
}

/// A line of the file cut into the text it continues with, and what follows that text
/// (a continuation ` \` and trailing whitespace): `(start, end)` of the text.
fn piece(line: &str, position: Position) -> (usize, usize) {
    let content = line.trim_end();
    let body = match position {
        Position::Last => content,
        Position::Continued => content.strip_suffix('\\').map_or(content, str::trim_end),
    };
    let start = body.len() - body.trim_start().len();
    (start, body.len())
}

/// Where each of `pieces` (texts without whitespace at either end) stands in `line`: the
/// byte span of each, whitespace inside a piece matched by any run of it, and between two
/// pieces by any run or none.
fn cut(line: &str, pieces: &[&str]) -> Option<Vec<(usize, usize)>> {
    let bytes: Vec<(usize, char)> = line.char_indices().collect();
    let mut at = 0;
    let skip = |at: &mut usize| {
        while *at < bytes.len() && bytes[*at].1.is_whitespace() {
            *at += 1;
        }
    };
    let mut spans = Vec::with_capacity(pieces.len());
    for text in pieces {
        skip(&mut at);
        let start = bytes.get(at).map_or(line.len(), |b| b.0);
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_whitespace() {
                while chars.next_if(|c| c.is_whitespace()).is_some() {}
                if !bytes.get(at)?.1.is_whitespace() {
                    return None;
                }
                skip(&mut at);
                continue;
            }
            if bytes.get(at)?.1 != c {
                return None;
            }
            at += 1;
        }
        let end = bytes.get(at).map_or(line.len(), |b| b.0);
        spans.push((start, end));
    }
    skip(&mut at);
    (at == bytes.len()).then_some(spans)
}

/// Whether the next line continues a line: it ends with a `\`, a comma, an operator or an
/// opening bracket.
pub(super) fn continues(line: &str) -> bool {
    let end = line.trim_end();
    [
        "\\", ",", "(", "[", "{", "&&", "||", "|", "+", "=", " and", " or",
    ]
    .iter()
    .any(|s| end.ends_with(s))
}

/// Each cut of the caller's lines: the base line, the file's first and last line of it.
pub(super) fn runs(base: &[&str], ours: &[&str]) -> Vec<(usize, usize, usize)> {
    const MAX_PIECES: usize = 6;
    let squashed: Vec<String> = ours.iter().map(|l| squash(l)).collect();
    let whole: Vec<String> = base.iter().map(|l| squash(l)).collect();
    let mut found = Vec::new();
    for (i, line) in whole.iter().enumerate() {
        // A line the file holds as it is, or a blank one, is not cut.
        if line.is_empty() || squashed.contains(line) {
            continue;
        }
        let mut matches = Vec::new();
        for j in 0..ours.len() {
            let mut joined = String::new();
            for (m, own) in ours.iter().enumerate().take(j + MAX_PIECES).skip(j) {
                let (s, e) = piece(own, Position::Last);
                let last_text = squash(&own[s..e]);
                if m > j && joined.clone() + &last_text == *line {
                    matches.push((i, j, m));
                    break;
                }
                let (s, e) = piece(own, Position::Continued);
                joined.push_str(&squash(&own[s..e]));
                if joined.is_empty() || !line.starts_with(&joined) {
                    break;
                }
            }
        }
        if let [one] = matches[..] {
            found.push(one);
        }
    }
    // A file line claimed by two of the caller's lines is in doubt for both.
    let claimed =
        |r: &(usize, usize, usize)| found.iter().filter(|o| o.1 <= r.2 && r.1 <= o.2).count() == 1;
    found.iter().copied().filter(claimed).collect()
}

/// The caller's line `line`, and its changed version `changed` (or none, where the
/// caller deleted it), each cut into pieces that stand for `ours` (the file's lines of
/// it, in order): each piece the caller's text of that part, with the file's
/// continuation after it. `None` where the caller's change meets a cut.
pub(super) fn split(
    line: &str,
    changed: &str,
    ours: &[&str],
) -> Option<(Vec<String>, Vec<String>)> {
    let last = ours.len() - 1;
    let parts: Vec<(usize, usize)> = ours
        .iter()
        .enumerate()
        .map(|(m, l)| {
            let position = if m == last {
                Position::Last
            } else {
                Position::Continued
            };
            piece(l, position)
        })
        .collect();
    let texts: Vec<&str> = ours
        .iter()
        .zip(&parts)
        .map(|(l, &(s, e))| &l[s..e])
        .collect();
    let spans = cut(line, &texts)?;
    // The caller's change, as byte edits of `line`.
    let (prefix, suffix) = common_ends(line, changed);
    let (from, to) = (prefix, line.len() - suffix);
    let with = &changed[prefix..changed.len() - suffix];
    // The one piece the change is inside: a replacement within one, an insertion
    // strictly inside one, at the end of the line or at the start of its text (where a
    // cut is, an insertion could belong to either side of it).
    let inside = spans.iter().enumerate().position(|(m, &(s, e))| {
        if from < to {
            s <= from && to <= e
        } else {
            (s < from && from < e) || (m == last && from == e) || (m == 0 && from == s)
        }
    });
    let changed_piece = if from == to && with.is_empty() {
        None
    } else {
        Some(inside?)
    };
    let mut base_pieces = Vec::with_capacity(ours.len());
    let mut new_pieces = Vec::with_capacity(ours.len());
    for (m, &(s, e)) in spans.iter().enumerate() {
        let tail = &ours[m][parts[m].1..];
        let lead = if m == 0 { &line[..s] } else { "" };
        let text = &line[s..e];
        base_pieces.push(format!("{lead}{text}{tail}"));
        let new_text = if changed_piece == Some(m) {
            format!("{}{with}{}", &line[s..from], &line[to..e])
        } else {
            text.to_owned()
        };
        new_pieces.push(format!("{lead}{new_text}{tail}"));
    }
    Some((base_pieces, new_pieces))
}

/// The lengths of the longest common prefix and suffix of two texts, on character
/// boundaries, not overlapping.
fn common_ends(a: &str, b: &str) -> (usize, usize) {
    let prefix = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i);
    let max = a.len().min(b.len()) - prefix;
    let suffix = a[prefix..]
        .chars()
        .rev()
        .zip(b[prefix..].chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum::<usize>()
        .min(max);
    // Back off to a character boundary of both.
    let mut suffix = suffix;
    while !a.is_char_boundary(a.len() - suffix) || !b.is_char_boundary(b.len() - suffix) {
        suffix -= 1;
    }
    (prefix, suffix)
}

#[cfg(test)]
mod tests {
    use super::{runs, split};

    #[test]
    fn a_line_the_file_continues_is_cut_where_the_file_cuts_it() {
        let ours = ["    run a b \\", "        c d", "done"];
        let base = ["    run a b c d", "done"];
        assert_eq!(runs(&base, &ours), vec![(0, 0, 1)]);
        let (b, t) = split(base[0], "    run a b c d --flag", &ours[..2]).unwrap();
        assert_eq!(b, ["    run a b \\", "c d"]);
        assert_eq!(t, ["    run a b \\", "c d --flag"]);
        // A change where the cut is: no piece holds it.
        assert_eq!(split(base[0], "    run a b X c d", &ours[..2]), None);
        // A change across the cut.
        assert_eq!(split(base[0], "    run a Y d", &ours[..2]), None);
    }

    #[test]
    fn pieces_may_meet_without_a_space() {
        let ours = ["f(", "    a, b)"];
        assert_eq!(runs(&["f(a, b)"], &ours), vec![(0, 0, 1)]);
        let (_, t) = split("f(a, b)", "f(a, c)", &ours).unwrap();
        assert_eq!(t, ["f(", "a, c)"]);
    }
}
