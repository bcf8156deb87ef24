//! The held-out benchmark's cases of lines wrapped otherwise than the file wraps them,
//! over passages chosen for it (long lines to wrap, continued lines to join) on both
//! halves alike: the marker appended where the file's line ends, and a line replaced,
//! inserted or deleted in turn. A change made to a piece of a line the agent cut, or to
//! a line it joined from two, is counted apart: what it meant for the file's line
//! cannot be told.

use super::changes::CHANGES;
use super::corpus::{count, edited, meant, Case};
use super::wraps;

/// How many passages of each sort a source gives.
const PASSAGES: usize = 6;

const INSERTED: &str = "inserted_line = 2";

fn marked(line: &str) -> String {
    let body = line.trim_end_matches(['\n', '\r']);
    format!("{body} EDITED-HERE{}", &line[body.len()..])
}

/// Every wrapped-line case over one source.
pub(super) fn generate(source: &'static str, text: &'static str) -> Vec<Case> {
    let crlf = text.contains("\r\n");
    let eol = if crlf { "\r\n" } else { "\n" };
    let mut cases = Vec::new();
    let mut push = |consistent: bool, old: &str, new: String, intended: String| {
        cases.push(Case {
            source,
            kind: "wrapped-line",
            consistent,
            earlier: None,
            old: old.to_owned(),
            new,
            intended,
        });
    };
    for (p, (start, end)) in wraps::passages(text, false, PASSAGES)
        .into_iter()
        .enumerate()
    {
        let exact = &text[start..end];
        let view = exact.replace("\r\n", "\n");
        let around = |passage: &str| format!("{}{passage}{}", &text[..start], &text[end..]);
        let mistakes: [fn(&str) -> Option<String>; 2] =
            [wraps::wrapped_at_break, wraps::wrapped_backslash];
        for (m, mistake) in mistakes.iter().enumerate() {
            let Some(old) = mistake(&view) else { continue };
            if count(text, &old, crlf) != 0 {
                continue;
            }
            // The marker where the file's line ends: after the agent's second piece.
            let mine: Vec<&str> = old.split('\n').collect();
            let mut new: Vec<String> = mine.iter().map(|l| (*l).to_owned()).collect();
            new[1] = marked(mine[1]);
            let theirs: Vec<&str> = exact.split_inclusive('\n').collect();
            let mut meant_lines: Vec<String> = theirs.iter().map(|l| (*l).to_owned()).collect();
            meant_lines[0] = marked(theirs[0]);
            push(true, &old, new.join("\n"), around(&meant_lines.concat()));
            // A line inserted after the first piece falls inside the file's line; a line
            // replaced or deleted is the second piece where the passage is that one line.
            let change = CHANGES[(p + m) % CHANGES.len()];
            if let Some((new, meant)) = change.make(&old, exact, crlf) {
                let last = mine.iter().rposition(|l| !l.trim().is_empty());
                let inside = change.name() == "insert-line" || last.is_some_and(|l| l <= 1);
                push(!inside, &old, new, around(&meant));
            }
        }
    }
    for (p, (start, end)) in wraps::passages(text, true, PASSAGES)
        .into_iter()
        .enumerate()
    {
        let exact = &text[start..end];
        let view = exact.replace("\r\n", "\n");
        let around = |passage: &str| format!("{}{passage}{}", &text[..start], &text[end..]);
        let Some((old, at)) = wraps::joined(&view) else {
            continue;
        };
        if count(text, &old, crlf) != 0 {
            continue;
        }
        let theirs: Vec<&str> = exact.split_inclusive('\n').collect();
        let mine: Vec<&str> = old.split('\n').collect();
        // The marker at the end of the agent's first line: where the file's second line
        // of it ends, when the agent joined those.
        let intended = if at == 0 {
            let mut lines: Vec<String> = theirs.iter().map(|l| (*l).to_owned()).collect();
            lines[1] = marked(theirs[1]);
            lines.concat()
        } else {
            meant(exact, &old)
        };
        push(true, &old, edited(&old), around(&intended));
        let change = CHANGES[p % CHANGES.len()];
        match change.name() {
            "insert-line" if at == 0 => {
                let lead = &mine[0][..mine[0].len() - mine[0].trim_start().len()];
                let mut new: Vec<String> = mine.iter().map(|l| (*l).to_owned()).collect();
                new.insert(1, format!("{lead}{INSERTED}"));
                let file_lead = &theirs[0][..theirs[0].len() - theirs[0].trim_start().len()];
                let mut lines: Vec<String> = theirs.iter().map(|l| (*l).to_owned()).collect();
                let ending = if theirs[1].ends_with('\n') { "" } else { eol };
                let after = if ending.is_empty() { eol } else { "" };
                lines.insert(2, format!("{ending}{file_lead}{INSERTED}{after}"));
                push(true, &old, new.join("\n"), around(&lines.concat()));
            }
            _ => {
                // The agent's last line is the one it joined: a change of it is in it.
                let joined_last = at + 1 == mine.len();
                if let Some((new, meant)) = change.make(&old, exact, crlf) {
                    let inside = joined_last && change.name() != "insert-line";
                    push(!inside, &old, new, around(&meant));
                }
            }
        }
    }
    cases
}
