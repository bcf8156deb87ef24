//! The mistakes an agent makes when it retypes a passage, each a function of the agent's
//! view of it (LF newlines) that gives the mistaken text, or `None` when the passage
//! offers no room for that mistake.

pub type Mistake = fn(&str) -> Option<String>;

/// The mistakes, each a function of the agent's view of the passage.
pub const MISTAKES: [(&str, Mistake); 18] = [
    ("dedented", dedented),
    ("second-line-indent", second_line_indent),
    ("tabs-spaces", tabs_spaces),
    ("trailing-space", trailing_space),
    ("inner-space", inner_space),
    ("typo", typo),
    ("renamed", renamed),
    ("number", number),
    ("hash", hash),
    ("dropped-line", dropped_line),
    ("added-line", added_line),
    ("extra-blank-line", extra_blank_line),
    ("reordered-lines", reordered_lines),
    ("rewrapped-line", rewrapped_line),
    ("truncated-first-line", truncated_first_line),
    ("truncated-last-line", truncated_last_line),
    ("elided-lines", elided_lines),
    ("line-numbers", line_numbers),
];

fn changed(view: &str, out: String) -> Option<String> {
    (out != view).then_some(out)
}

fn map_lines(view: &str, f: impl Fn(usize, &str) -> String) -> String {
    view.split('\n')
        .enumerate()
        .map(|(i, l)| f(i, l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every line's indentation dropped.
fn dedented(view: &str) -> Option<String> {
    changed(view, map_lines(view, |_, l| l.trim_start().to_owned()))
}

/// The second line indented two spaces off.
fn second_line_indent(view: &str) -> Option<String> {
    let second = view.split('\n').nth(1)?;
    if second.trim().is_empty() {
        return None;
    }
    changed(
        view,
        map_lines(view, |i, l| match (i, l.strip_prefix("  ")) {
            (1, Some(rest)) => rest.to_owned(),
            (1, None) => format!("  {l}"),
            _ => l.to_owned(),
        }),
    )
}

/// Leading tabs as four spaces, or leading groups of four spaces as tabs.
fn tabs_spaces(view: &str) -> Option<String> {
    let out = if view.contains("\n\t") || view.starts_with('\t') {
        map_lines(view, |_, l| {
            let body = l.trim_start_matches('\t');
            format!("{}{body}", "    ".repeat(l.len() - body.len()))
        })
    } else {
        map_lines(view, |_, l| {
            let body = l.trim_start_matches(' ');
            let n = l.len() - body.len();
            format!("{}{}{body}", "\t".repeat(n / 4), " ".repeat(n % 4))
        })
    };
    changed(view, out)
}

/// A trailing space after the first line.
fn trailing_space(view: &str) -> Option<String> {
    changed(
        view,
        map_lines(view, |i, l| {
            if i == 0 {
                format!("{l} ")
            } else {
                l.to_owned()
            }
        }),
    )
}

/// Spacing inside a line: `, ` as `,`, ` = ` as `=`, or `(` as `( `.
fn inner_space(view: &str) -> Option<String> {
    for (from, to) in [(", ", ","), (" = ", "="), (": ", ":"), ("(", "( ")] {
        if view.contains(from) {
            return changed(view, view.replacen(from, to, 1));
        }
    }
    None
}

/// The longest word of four letters or more, with its own byte range.
fn longest_word(view: &str) -> Option<(usize, &str)> {
    let mut best: Option<(usize, &str)> = None;
    let mut start = None;
    for (i, c) in view.char_indices().chain([(view.len(), ' ')]) {
        let part = c.is_ascii_alphanumeric() || c == '_';
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                let word = &view[s..i];
                if word.len() >= 4 && best.is_none_or(|(_, b)| word.len() > b.len()) {
                    best = Some((s, word));
                }
                start = None;
            }
            _ => {}
        }
    }
    best
}

/// Two letters of the longest word swapped.
pub fn typo(view: &str) -> Option<String> {
    let (at, word) = longest_word(view)?;
    let bytes = word.as_bytes();
    let i = (1..bytes.len() - 1).find(|&i| bytes[i] != bytes[i + 1])?;
    let mut swapped = bytes.to_vec();
    swapped.swap(i, i + 1);
    let swapped = String::from_utf8(swapped).ok()?;
    changed(
        view,
        format!("{}{swapped}{}", &view[..at], &view[at + word.len()..]),
    )
}

/// The longest word replaced by another name, in a passage of four words or more (with
/// fewer, the name is most of what there is to recognise).
fn renamed(view: &str) -> Option<String> {
    let words = view
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .count();
    if words < 4 {
        return None;
    }
    let (at, word) = longest_word(view)?;
    let name = if word.starts_with(|c: char| c.is_ascii_uppercase()) {
        "Renamed"
    } else {
        "renamed"
    };
    changed(
        view,
        format!("{}{name}{}", &view[..at], &view[at + word.len()..]),
    )
}

/// A digit changed: a version, a count, a limit.
fn number(view: &str) -> Option<String> {
    let at = view.find(|c: char| c.is_ascii_digit())?;
    let digit = view.as_bytes()[at] - b'0';
    let other = char::from(b'0' + (digit + 1) % 10);
    changed(view, format!("{}{other}{}", &view[..at], &view[at + 1..]))
}

/// A 40-hex commit hash replaced by another: a pinned action at an older commit.
pub fn hash(view: &str) -> Option<String> {
    let bytes = view.as_bytes();
    let at = (0..bytes.len().saturating_sub(39)).find(|&i| {
        bytes[i..i + 40].iter().all(u8::is_ascii_hexdigit)
            && (i == 0 || !bytes[i - 1].is_ascii_hexdigit())
    })?;
    let other: String = view[at..at + 40]
        .chars()
        .map(|c| {
            let v = c.to_digit(16).unwrap_or(0);
            char::from_digit((v + 7) % 16, 16).unwrap_or('0')
        })
        .collect();
    changed(view, format!("{}{other}{}", &view[..at], &view[at + 40..]))
}

/// A middle line left out.
fn dropped_line(view: &str) -> Option<String> {
    let lines: Vec<&str> = view.split('\n').collect();
    let content = lines.len() - usize::from(view.ends_with('\n'));
    if content < 3 {
        return None;
    }
    let mut out = lines.clone();
    out.remove(content / 2);
    changed(view, out.join("\n"))
}

/// A line that is not there, remembered after the first.
fn added_line(view: &str) -> Option<String> {
    let (first, rest) = view.split_once('\n')?;
    let indent = &first[..first.len() - first.trim_start().len()];
    changed(view, format!("{first}\n{indent}note: remembered\n{rest}"))
}

/// A blank line inserted after the first.
fn extra_blank_line(view: &str) -> Option<String> {
    let (first, rest) = view.split_once('\n')?;
    if rest.is_empty() {
        return None;
    }
    changed(view, format!("{first}\n\n{rest}"))
}

/// The last two lines of a passage of three or more remembered in the other order.
fn reordered_lines(view: &str) -> Option<String> {
    let mut lines: Vec<&str> = view.split('\n').collect();
    let content = lines.len() - usize::from(view.ends_with('\n'));
    if content < 3 || lines[content - 1].trim() == lines[content - 2].trim() {
        return None;
    }
    lines.swap(content - 1, content - 2);
    changed(view, lines.join("\n"))
}

/// A long first line remembered wrapped in two, the rest indented one step deeper (as a
/// formatter wraps a call).
fn rewrapped_line(view: &str) -> Option<String> {
    let (first, rest) = view.split_once('\n').unwrap_or((view, ""));
    let body = first.trim_start();
    if body.len() < 40 {
        return None;
    }
    let indent = &first[..first.len() - body.len()];
    let half = body.len() / 2;
    let at = half + body[half..].find(' ')?;
    let (head, tail) = (&body[..at], body[at..].trim_start());
    if tail.is_empty() {
        return None;
    }
    let wrapped = format!("{indent}{head}\n{indent}    {tail}");
    let out = if view.contains('\n') {
        format!("{wrapped}\n{rest}")
    } else {
        wrapped
    };
    changed(view, out)
}

/// The first line of a passage of two or more copied from its second word on, and a word
/// of the rest misremembered (copied alone, the passage would match as it is).
fn truncated_first_line(view: &str) -> Option<String> {
    let cut = truncate_first(view)?;
    let (first, rest) = cut.split_once('\n')?;
    changed(view, format!("{first}\n{}", typo(rest)?))
}

fn truncate_first(view: &str) -> Option<String> {
    let (first, rest) = view.split_once('\n')?;
    let body = first.trim_start();
    let cut = body.find(' ')?;
    let kept = body[cut..].trim_start();
    if kept.len() < 8 || rest.trim().is_empty() {
        return None;
    }
    changed(view, format!("{kept}\n{rest}"))
}

/// The last line of a passage of two or more copied only to its middle, and a word of
/// the rest misremembered.
fn truncated_last_line(view: &str) -> Option<String> {
    let cut = truncate_last(view)?;
    let (head, last) = cut.rsplit_once('\n')?;
    changed(view, format!("{}\n{last}", typo(head)?))
}

fn truncate_last(view: &str) -> Option<String> {
    let body = view.strip_suffix('\n').unwrap_or(view);
    let (head, last) = body.rsplit_once('\n')?;
    let text = last.trim_start();
    let indent = &last[..last.len() - text.len()];
    let words: Vec<&str> = text.split(' ').collect();
    if text.len() < 16 || words.len() < 4 || words.iter().any(|w| w.is_empty()) {
        return None;
    }
    let kept = words[..=words.len() / 2].join(" ");
    changed(view, format!("{head}\n{indent}{kept}"))
}

/// The middle of a passage of four lines or more left out as `...`.
fn elided_lines(view: &str) -> Option<String> {
    let lines: Vec<&str> = view.split('\n').collect();
    let content = lines.len() - usize::from(view.ends_with('\n'));
    if content < 4 {
        return None;
    }
    let first = lines[0];
    let indent = &first[..first.len() - first.trim_start().len()];
    let mut out = vec![first.to_owned(), format!("{indent}...")];
    out.extend(lines[content - 1..].iter().map(|l| (*l).to_owned()));
    changed(view, out.join("\n"))
}

/// Every line with the number and tab a numbered read shows (from line 12 on).
fn line_numbers(view: &str) -> Option<String> {
    let body = view.strip_suffix('\n');
    let lines: Vec<&str> = body.unwrap_or(view).split('\n').collect();
    let numbered: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{:>6}\t{l}", i + 12))
        .collect();
    let end = if body.is_some() { "\n" } else { "" };
    changed(view, format!("{}{end}", numbered.join("\n")))
}
