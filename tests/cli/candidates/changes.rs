//! The changes the benchmark's agent makes to a passage, beyond the marker appended to
//! its first line: one line's content replaced, a line inserted after the first, the last
//! line deleted. Each is made twice: to the agent's (mistaken) view, giving its
//! `newText`, and to the true passage, giving the file the agent meant. Pure string work.

/// A change of a passage other than the marker.
#[derive(Clone, Copy)]
pub enum Change {
    /// The content of the passage's last line (after its indentation) replaced.
    Replace,
    /// A new line after the first, at the first line's indentation.
    Insert,
    /// The passage's last line deleted (a passage of two lines or more).
    Delete,
}

/// The new kinds, in the order cases take them in turn.
pub const CHANGES: [Change; 3] = [Change::Replace, Change::Insert, Change::Delete];

const REPLACED: &str = "replaced_line = 1";
const INSERTED: &str = "inserted_line = 2";

impl Change {
    pub fn name(self) -> &'static str {
        match self {
            Change::Replace => "replace-line",
            Change::Insert => "insert-line",
            Change::Delete => "delete-line",
        }
    }

    /// The agent's `newText` and the passage it meant, from its mistaken `old` and the
    /// true passage `exact` of a file whose newlines are CRLF when `crlf`; `None` where the agent's line cannot be told in the file's
    /// passage (then what it meant cannot be stated either).
    pub fn make(self, old: &str, exact: &str, crlf: bool) -> Option<(String, String)> {
        let mine: Vec<&str> = old.split_inclusive('\n').collect();
        let theirs: Vec<&str> = exact.split_inclusive('\n').collect();
        let eol = if crlf { "\r\n" } else { "\n" };
        let last = mine.iter().rposition(|l| !l.trim().is_empty())?;
        match self {
            Change::Replace => {
                let at = counterpart(mine[last], &theirs)?;
                let new = with_line(&mine, last, Some(&replaced(mine[last])));
                let meant = with_line(&theirs, at, Some(&replaced(theirs[at])));
                Some((new, meant))
            }
            Change::Insert => {
                let at = counterpart(mine[0], &theirs)?;
                let new = inserted_after(&mine, 0, indent(body(mine[0])), "\n");
                let meant = inserted_after(&theirs, at, indent(theirs[at]), eol);
                Some((new, meant))
            }
            Change::Delete => {
                if last == 0 {
                    return None;
                }
                let at = counterpart(mine[last], &theirs)?;
                Some((with_line(&mine, last, None), with_line(&theirs, at, None)))
            }
        }
    }
}

/// A line without the number a numbered read puts before it.
fn body(line: &str) -> &str {
    line.trim_start()
        .split_once('\t')
        .filter(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        .map_or(line, |(_, rest)| rest)
}

fn indent(line: &str) -> &str {
    &line[..line.len() - line.trim_start().len()]
}

/// The line of the true passage that the agent's `line` stands for: the one sharing most
/// words with it (each word once), when it shares most of them and no other line shares
/// as many.
fn counterpart(line: &str, lines: &[&str]) -> Option<usize> {
    let words: Vec<&str> = body(line).split_whitespace().collect();
    if words.is_empty() {
        return None;
    }
    // Each of the agent's words is shared once: `+` five times in a line is not five
    // words of a line that has it once.
    let shared = |l: &str| {
        let mut left = words.clone();
        l.split_whitespace()
            .filter(|w| {
                let found = left.iter().position(|x| x == w);
                found.map(|i| left.swap_remove(i)).is_some()
            })
            .count()
    };
    let best = (0..lines.len()).max_by_key(|&i| (shared(lines[i]), std::cmp::Reverse(i)))?;
    let n = shared(lines[best]);
    let whole = lines[best].split_whitespace().count();
    let alone = (0..lines.len()).all(|i| i == best || shared(lines[i]) < n);
    (alone && 2 * n > words.len() && 2 * n > whole).then_some(best)
}

/// `line` with its content (after any number prefix and the indentation) replaced.
fn replaced(line: &str) -> String {
    let content = line.trim_end_matches(['\n', '\r']);
    let ending = &line[content.len()..];
    let rest = body(content);
    let head = &content[..content.len() - rest.len()];
    format!("{head}{}{REPLACED}{ending}", indent(rest))
}

/// The lines with line `at` replaced by `with`, or deleted (with its newline, or the one
/// before it when it is the last and has none).
fn with_line(lines: &[&str], at: usize, with: Option<&str>) -> String {
    let mut out: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    if let Some(line) = with {
        line.clone_into(&mut out[at]);
    } else {
        let had_end = out[at].ends_with('\n');
        out.remove(at);
        if !had_end && at > 0 {
            let prev = &mut out[at - 1];
            let body = prev.trim_end_matches(['\n', '\r']).len();
            prev.truncate(body);
        }
    }
    out.concat()
}

/// The lines with a new line after line `at`, indented `indent`.
fn inserted_after(lines: &[&str], at: usize, indent: &str, eol: &str) -> String {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        out.push_str(line);
        if i == at {
            if line.ends_with('\n') {
                out.extend([indent, INSERTED, eol]);
            } else {
                out.extend([eol, indent, INSERTED]);
            }
        }
    }
    out
}
