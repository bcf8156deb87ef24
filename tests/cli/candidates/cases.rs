//! The benchmark's cases, made systematically: passages chosen across each fixture, and
//! for each passage the mistakes an agent makes when it retypes one. Pure string work:
//! nothing here runs stitch.

/// One mistaken edit and what a repair must produce.
pub struct Case {
    /// The fixture the case is made from.
    pub fixture: &'static str,
    /// The kind of mistake, for the per-kind figures.
    pub kind: &'static str,
    /// The file as it is when the edit is sent.
    pub file: String,
    /// The mistaken `oldText`.
    pub old: String,
    /// The `newText`, written against the agent's (mistaken) view of the passage.
    pub new: String,
    /// The file the edit was meant to give: the true passage replaced by `new` (in CRLF
    /// when the file is all CRLF), or the file itself for a retry after success.
    pub intended: String,
}

/// How many passages each fixture gives.
const PASSAGES: usize = 9;

/// A passage of a fixture: its byte span, exact text and the text as the agent sees it
/// (with LF newlines).
struct Passage {
    start: usize,
    end: usize,
    lines: usize,
}

/// The fixture a case is made from.
struct Fixture<'a> {
    name: &'static str,
    text: &'a str,
    crlf: bool,
}

/// Every case over one fixture.
pub fn generate(name: &'static str, text: &str) -> Vec<Case> {
    let fx = Fixture {
        name,
        text,
        crlf: text.contains("\r\n"),
    };
    let mut cases = Vec::new();
    pinned(&mut cases, &fx);
    for passage in passages(text) {
        let view = text[passage.start..passage.end].replace("\r\n", "\n");
        for (kind, mistake) in MISTAKES {
            if let Some(old) = mistake(&view) {
                let new = edited(&old);
                push(&mut cases, &fx, kind, text, &passage, old, new);
            }
        }
        older_version(&mut cases, &fx, &passage, &view);
        part_of_a_line(&mut cases, &fx, &passage);
        retry(&mut cases, &fx, &passage, view);
    }
    cases
}

/// Every line that pins a commit by its hash, retyped with another commit's.
fn pinned(cases: &mut Vec<Case>, fx: &Fixture) {
    let mut at = 0;
    for line in fx.text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let passage = Passage {
            start: at,
            end: at + content.len(),
            lines: 1,
        };
        at += line.len();
        if let Some(old) = hash(content) {
            let new = edited(&old);
            push(cases, fx, "pinned-hash", fx.text, &passage, old, new);
        }
    }
}

/// The file changed since the agent read it: a word of the passage is different now,
/// and the agent sends the passage it remembers.
fn older_version(cases: &mut Vec<Case>, fx: &Fixture, passage: &Passage, view: &str) {
    let Some(changed) = typo(view) else {
        return;
    };
    let changed = if fx.crlf {
        changed.replace('\n', "\r\n")
    } else {
        changed
    };
    let file = format!(
        "{}{changed}{}",
        &fx.text[..passage.start],
        &fx.text[passage.end..]
    );
    let moved = Passage {
        start: passage.start,
        end: passage.start + changed.len(),
        lines: passage.lines,
    };
    let new = edited(view);
    push(
        cases,
        fx,
        "older-version",
        &file,
        &moved,
        view.to_owned(),
        new,
    );
}

/// Part of a line, retyped with a typo: the repair is that part, not the line.
fn part_of_a_line(cases: &mut Vec<Case>, fx: &Fixture, passage: &Passage) {
    if passage.lines != 1 {
        return;
    }
    let exact = &fx.text[passage.start..passage.end];
    let indent = exact.len() - exact.trim_start().len();
    let inner = exact
        .trim_start()
        .trim_end_matches([';', ',', ':', '\r', '\n']);
    let line = exact.trim_end_matches(['\r', '\n']);
    if inner.len() < 16 || inner.len() >= line.len() {
        return;
    }
    let part = Passage {
        start: passage.start + indent,
        end: passage.start + indent + inner.len(),
        lines: 1,
    };
    if let Some(old) = typo(inner) {
        let new = edited(&old);
        push(cases, fx, "part-of-a-line", fx.text, &part, old, new);
    }
}

/// A retry after success: the edit was applied, and the agent sends it again.
fn retry(cases: &mut Vec<Case>, fx: &Fixture, passage: &Passage, view: String) {
    let new = edited(&view);
    let applied = format!(
        "{}{}{}",
        &fx.text[..passage.start],
        convert(&new, fx.crlf),
        &fx.text[passage.end..]
    );
    if count(&applied, &view, fx.crlf) == 0 {
        cases.push(Case {
            fixture: fx.name,
            kind: "retry-after-success",
            intended: applied.clone(),
            file: applied,
            old: view,
            new,
        });
    }
}

/// Adds a case when its `old` is really a miss and its true passage occurs once.
fn push(
    cases: &mut Vec<Case>,
    fx: &Fixture,
    kind: &'static str,
    file: &str,
    passage: &Passage,
    old: String,
    new: String,
) {
    let exact = &file[passage.start..passage.end];
    if count(file, &old, fx.crlf) != 0 || file.matches(exact).count() != 1 {
        return;
    }
    let intended = format!(
        "{}{}{}",
        &file[..passage.start],
        convert(&new, fx.crlf),
        &file[passage.end..]
    );
    cases.push(Case {
        fixture: fx.name,
        kind,
        file: file.to_owned(),
        old,
        new,
        intended,
    });
}

/// How often `snippet` matches under the edit's rules: exactly, or with LF made CRLF in
/// an all-CRLF file.
fn count(file: &str, snippet: &str, crlf: bool) -> usize {
    let exact = file.matches(snippet).count();
    if exact == 0 && crlf && snippet.contains('\n') && !snippet.contains('\r') {
        return file.matches(&snippet.replace('\n', "\r\n")).count();
    }
    exact
}

/// `newText` as an all-CRLF file receives it.
fn convert(new: &str, crlf: bool) -> String {
    if crlf && new.contains('\n') && !new.contains('\r') {
        new.replace('\n', "\r\n")
    } else {
        new.to_owned()
    }
}

/// The agent's change: a marker at the end of the passage's first line.
fn edited(old: &str) -> String {
    match old.split_once('\n') {
        Some((first, rest)) => format!("{first} EDITED-HERE\n{rest}"),
        None => format!("{old} EDITED-HERE"),
    }
}

/// Passages spread over the file: 1 to 5 whole lines, at least one of them telling, not
/// starting or ending blank, occurring once; every third keeps its final newline.
fn passages(text: &str) -> Vec<Passage> {
    let mut starts = vec![0];
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    if starts.last() == Some(&text.len()) {
        starts.pop();
    }
    let total = starts.len();
    let line = |i: usize| {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        text[starts[i]..end].trim_end_matches(['\n', '\r'])
    };
    let telling = |i: usize| line(i).split_whitespace().collect::<String>().len() >= 12;
    let mut chosen = Vec::new();
    for k in 0..PASSAGES {
        let lines = [1, 2, 3, 4, 5, 2, 3, 1, 4][k % 9];
        let mut first = total * k / PASSAGES + 3;
        while first + lines < total {
            let last = first + lines - 1;
            let fits = !line(first).trim().is_empty()
                && !line(last).trim().is_empty()
                && (first..=last).any(telling);
            if fits {
                let end_full = starts.get(last + 1).copied().unwrap_or(text.len());
                let end = if k % 3 == 2 {
                    end_full
                } else {
                    starts[last] + line(last).len()
                };
                let exact = &text[starts[first]..end];
                if text.matches(exact).count() == 1 {
                    chosen.push(Passage {
                        start: starts[first],
                        end,
                        lines,
                    });
                    break;
                }
            }
            first += 1;
        }
    }
    chosen
}

type Mistake = fn(&str) -> Option<String>;

/// The mistakes, each a function of the agent's view of the passage.
const MISTAKES: [(&str, Mistake); 12] = [
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
fn typo(view: &str) -> Option<String> {
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
fn hash(view: &str) -> Option<String> {
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
