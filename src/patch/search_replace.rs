//! SEARCH/REPLACE blocks as Aider prints them: a path line, `<<<<<<< SEARCH`, the old
//! lines, `=======`, the new lines, `>>>>>>> REPLACE`, optionally inside a ``` fence. An
//! empty SEARCH creates the file; several blocks for one path are hunks of one change.

use super::{error, FileChange, Format, Hunk, Patch, PatchError, Placement};

const SEARCH: &str = "<<<<<<< SEARCH";
const DIVIDER: &str = "=======";
const REPLACE: &str = ">>>>>>> REPLACE";

fn err(line: usize, found: &str, expected: impl Into<String>) -> PatchError {
    error(Some(Format::SearchReplace), line, found, expected)
}

/// The path a block belongs to: the nearest line above its `<<<<<<< SEARCH` that is not
/// blank and not a fence opener (```` ``` ```` or ```` ```lang ````).
fn path_above<'a>(lines: &[&'a str], at: usize) -> Option<&'a str> {
    lines[..at]
        .iter()
        .rev()
        .map(|l| l.trim())
        .find(|l| !l.is_empty() && !l.starts_with("```"))
        .filter(|l| !l.contains(' ') || l.contains('/') || l.contains('.'))
        .map(|l| l.trim_matches(['`', '*']))
}

/// Parses SEARCH/REPLACE blocks; `lines` are the text's lines, `\r` already dropped.
pub fn parse(lines: &[&str]) -> Result<Patch, PatchError> {
    let mut changes: Vec<FileChange> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_end() != SEARCH {
            i += 1;
            continue;
        }
        let start = i;
        let path = path_above(lines, start)
            .filter(|p| *p != REPLACE && !p.is_empty())
            .ok_or_else(|| {
                err(
                    start + 1,
                    lines[start],
                    "the file's path on the line before `<<<<<<< SEARCH`",
                )
            })?
            .to_owned();
        let old = Side {
            close: DIVIDER,
            stray: [SEARCH, REPLACE],
            at_stray: format!("`{DIVIDER}` between the SEARCH and REPLACE lines"),
            at_end: format!("`{DIVIDER}` after the SEARCH lines"),
        };
        let (old, divider) = old.read(lines, start + 1)?;
        let closed = format!("`{REPLACE}` to close the block");
        let new = Side {
            close: REPLACE,
            stray: [SEARCH, DIVIDER],
            at_stray: closed.clone(),
            at_end: closed,
        };
        let (new, replace) = new.read(lines, divider + 1)?;
        i = replace + 1;
        if old.is_empty() {
            let mut content = new.join("\n");
            if !new.is_empty() {
                content.push('\n');
            }
            changes.push(FileChange::Add {
                path,
                content,
                executable: None,
            });
            continue;
        }
        let hunk = Hunk {
            old,
            new,
            placement: Placement::Anywhere,
            ..Hunk::default()
        };
        add_hunk(&mut changes, path, hunk);
    }
    Ok(Patch {
        dialect: Format::SearchReplace,
        changes,
    })
}

/// One side of a block: the marker that closes it, the markers that may not stand inside
/// it, and what a refusal says was expected at one of those, or at the end of the text.
struct Side {
    close: &'static str,
    stray: [&'static str; 2],
    at_stray: String,
    at_end: String,
}

impl Side {
    /// The side's lines from index `i` up to its closing marker; returns them and the
    /// index of that marker.
    fn read(&self, lines: &[&str], mut i: usize) -> Result<(Vec<String>, usize), PatchError> {
        let mut side = Vec::new();
        while i < lines.len() && lines[i].trim_end() != self.close {
            if self.stray.contains(&lines[i].trim_end()) {
                return Err(err(i + 1, lines[i], self.at_stray.as_str()));
            }
            side.push(lines[i].to_owned());
            i += 1;
        }
        if i == lines.len() {
            return Err(err(i, lines[i - 1], self.at_end.as_str()));
        }
        Ok((side, i))
    }
}

/// Adds `hunk` to the update of `path` among `changes`, or a new update of it: several
/// blocks for one path are hunks of one change.
fn add_hunk(changes: &mut Vec<FileChange>, path: String, hunk: Hunk) {
    match changes
        .iter_mut()
        .find(|c| matches!(c, FileChange::Update { path: p, .. } if *p == path))
    {
        Some(FileChange::Update { hunks, .. }) => hunks.push(hunk),
        _ => changes.push(FileChange::Update {
            path,
            move_to: None,
            hunks: vec![hunk],
            executable: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse, FileChange, Format};

    #[test]
    fn fenced_and_bare_blocks_and_an_empty_search_that_creates() {
        let text = "src/a.py\n```python\n<<<<<<< SEARCH\ndef f():\n    return 1\n=======\ndef f():\n    return 2\n>>>>>>> REPLACE\n```\n\n\
new.txt\n<<<<<<< SEARCH\n=======\nhello\n>>>>>>> REPLACE\n";
        let patch = parse(text).unwrap();
        assert_eq!(patch.dialect, Format::SearchReplace);
        let FileChange::Update { path, hunks, .. } = &patch.changes[0] else {
            panic!()
        };
        assert_eq!(path, "src/a.py");
        assert_eq!(hunks[0].new, ["def f():", "    return 2"]);
        assert_eq!(
            patch.changes[1],
            FileChange::Add {
                path: "new.txt".into(),
                content: "hello\n".into(),
                executable: None
            }
        );
    }

    #[test]
    fn an_unclosed_block_names_its_line() {
        let e = parse("a.txt\n<<<<<<< SEARCH\nx\n=======\ny\n").unwrap_err();
        assert_eq!(e.line, 5);
        assert!(e.expected.contains(">>>>>>> REPLACE"));
    }
}
