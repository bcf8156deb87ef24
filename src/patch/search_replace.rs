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
        let mut old = Vec::new();
        i += 1;
        while i < lines.len() && lines[i].trim_end() != DIVIDER {
            if lines[i].trim_end() == SEARCH || lines[i].trim_end() == REPLACE {
                return Err(err(
                    i + 1,
                    lines[i],
                    format!("`{DIVIDER}` between the SEARCH and REPLACE lines"),
                ));
            }
            old.push(lines[i].to_owned());
            i += 1;
        }
        if i == lines.len() {
            return Err(err(
                i,
                lines[i - 1],
                format!("`{DIVIDER}` after the SEARCH lines"),
            ));
        }
        let mut new = Vec::new();
        i += 1;
        while i < lines.len() && lines[i].trim_end() != REPLACE {
            if lines[i].trim_end() == SEARCH || lines[i].trim_end() == DIVIDER {
                return Err(err(
                    i + 1,
                    lines[i],
                    format!("`{REPLACE}` to close the block"),
                ));
            }
            new.push(lines[i].to_owned());
            i += 1;
        }
        if i == lines.len() {
            return Err(err(
                i,
                lines[i - 1],
                format!("`{REPLACE}` to close the block"),
            ));
        }
        i += 1;
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
    Ok(Patch {
        dialect: Format::SearchReplace,
        changes,
    })
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
