//! The benchmark's cases, made systematically: passages chosen across each fixture, and
//! for each passage the mistakes an agent makes when it retypes one. Pure string work:
//! nothing here runs stitch.

use super::changes::{Change, CHANGES};
use super::mistakes::{hash, typo, MISTAKES};

/// One mistaken edit and what a repair must produce.
pub struct Case {
    /// The fixture the case is made from.
    pub fixture: &'static str,
    /// The kind of mistake, for the per-kind figures.
    pub kind: &'static str,
    /// The kind of change the agent made: `append-marker`, or one of [`CHANGES`].
    pub change: &'static str,
    /// The file as it is when the edit is sent.
    pub file: String,
    /// The mistaken `oldText`.
    pub old: String,
    /// The `newText`, written against the agent's (mistaken) view of the passage.
    pub new: String,
    /// The file the edit was meant to give: the agent's change (a marker at the end of
    /// the line its `oldText` begins with) made to the true passage, or the file itself
    /// for a retry after success.
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
    for (p, passage) in passages(text).into_iter().enumerate() {
        let view = text[passage.start..passage.end].replace("\r\n", "\n");
        for (m, (kind, mistake)) in MISTAKES.iter().enumerate() {
            if let Some(old) = mistake(&view) {
                let new = edited(&old);
                push(&mut cases, &fx, kind, text, &passage, old.clone(), new);
                // Each mistake, over the passages, with each other kind of change in turn.
                let change = CHANGES[(p + m) % CHANGES.len()];
                push_changed(&mut cases, &fx, kind, text, &passage, old, change);
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
            change: "append-marker",
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
        meant(exact, &old),
        &file[passage.end..]
    );
    cases.push(Case {
        fixture: fx.name,
        kind,
        change: "append-marker",
        file: file.to_owned(),
        old,
        new,
        intended,
    });
}

/// Adds a case of another kind of change than the marker, as [`push`] does.
fn push_changed(
    cases: &mut Vec<Case>,
    fx: &Fixture,
    kind: &'static str,
    file: &str,
    passage: &Passage,
    old: String,
    change: Change,
) {
    let exact = &file[passage.start..passage.end];
    if count(file, &old, fx.crlf) != 0 || file.matches(exact).count() != 1 {
        return;
    }
    let Some((new, meant)) = change.make(&old, exact, fx.crlf) else {
        return;
    };
    if new == old {
        return;
    }
    let intended = format!("{}{meant}{}", &file[..passage.start], &file[passage.end..]);
    cases.push(Case {
        fixture: fx.name,
        kind,
        change: change.name(),
        file: file.to_owned(),
        old,
        new,
        intended,
    });
}

/// How often `snippet` matches under the edit's rules: exactly, or with LF made CRLF in
/// an all-CRLF file.
pub(super) fn count(file: &str, snippet: &str, crlf: bool) -> usize {
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

/// The agent's change as it meant it, made to the true passage `exact`: the marker at the
/// end of the line that `old`'s first line stands for — the line sharing most words with
/// it (the first such line), as numbered-read prefixes and mistakes aside.
pub(super) fn meant(exact: &str, old: &str) -> String {
    let first = old.split('\n').next().unwrap_or(old);
    let first = first
        .trim_start()
        .split_once('\t')
        .filter(|(n, _)| n.chars().all(|c| c.is_ascii_digit()))
        .map_or(first, |(_, rest)| rest);
    let words: Vec<&str> = first.split_whitespace().collect();
    let lines: Vec<&str> = exact.split_inclusive('\n').collect();
    let shared = |line: &str| {
        line.split_whitespace()
            .filter(|w| words.contains(w))
            .count()
    };
    let best = (0..lines.len())
        .max_by_key(|&i| (shared(lines[i]), std::cmp::Reverse(i)))
        .unwrap_or(0);
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i == best {
            let body = line.trim_end_matches(['\n', '\r']);
            // Where the agent's first line is only the start of the true line (it
            // remembered the line wrapped), the marker follows that start.
            let head = first.trim();
            let indent = body.len() - body.trim_start().len();
            let at = if body.trim_start().starts_with(head) && body.trim().len() > head.len() + 1 {
                indent + head.len()
            } else {
                body.len()
            };
            out.push_str(&body[..at]);
            out.push_str(" EDITED-HERE");
            out.push_str(&line[at..]);
        } else {
            out.push_str(line);
        }
    }
    out
}

/// The agent's change: a marker at the end of the passage's first line.
pub(super) fn edited(old: &str) -> String {
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
