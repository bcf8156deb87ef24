//! Codex's patch format: `*** Begin Patch`, then `*** Add File: P` (each line `+`),
//! `*** Delete File: P` or `*** Update File: P` (optionally `*** Move to: Q`) with chunks
//! opened by `@@` or `@@ ANCHOR` (lines ` context`, `-old`, `+new`, an optional `*** End
//! of File`), then `*** End Patch`. The lenient forms Codex's own parser takes are taken
//! too: padding around the markers, a heredoc wrapper (`<<'EOF'` … `EOF`), a first chunk
//! without `@@`, and an empty line inside a chunk as an empty context line. Within an
//! update, a line that begins with a space is always a body line (context), never a
//! padded `@@` or marker: only padding at a marker's end is taken there.

use super::{error, FileChange, Format, Hunk, Patch, PatchError, Placement};

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File: ";
const DELETE: &str = "*** Delete File: ";
const UPDATE: &str = "*** Update File: ";
const MOVE: &str = "*** Move to: ";
const END_OF_FILE: &str = "*** End of File";

fn is_heredoc(line: &str) -> bool {
    matches!(line.trim(), "<<EOF" | "<<'EOF'" | "<<\"EOF\"")
        || line.trim().starts_with("cat <<") && line.trim().ends_with("EOF'")
}

/// Whether the text is a Codex patch: `*** Begin Patch` opens it (after any heredoc line).
pub fn recognises(lines: &[&str]) -> bool {
    lines
        .iter()
        .filter(|l| !l.trim().is_empty() && !is_heredoc(l))
        .take(1)
        .any(|l| l.trim() == BEGIN)
}

fn err(line: usize, found: &str, expected: impl Into<String>) -> PatchError {
    error(Some(Format::Codex), line, found, expected)
}

/// Parses a Codex patch; `lines` are the text's lines, `\r` already dropped.
pub fn parse(lines: &[&str]) -> Result<Patch, PatchError> {
    let (begin, end) = stretch(lines)?;
    let mut changes = Vec::new();
    let mut i = begin + 1;
    while i < end {
        let line = lines[i];
        let marker = line.trim();
        if marker.is_empty() {
            i += 1;
            continue;
        }
        let (change, next) = if let Some(path) = marker.strip_prefix(ADD) {
            added(lines, (i + 1, end), path)?
        } else if let Some(path) = marker.strip_prefix(DELETE) {
            let change = FileChange::Delete {
                path: path.trim().to_owned(),
                whole: None,
            };
            (change, i + 1)
        } else if let Some(path) = marker.strip_prefix(UPDATE) {
            updated(lines, (i + 1, end), path)?
        } else {
            return Err(err(
                i + 1,
                line,
                format!("`{ADD}PATH`, `{DELETE}PATH`, `{UPDATE}PATH` or `{END}`"),
            ));
        };
        changes.push(change);
        i = next;
    }
    if changes.is_empty() {
        return Err(err(begin + 1, lines[begin], "at least one file change"));
    }
    Ok(Patch {
        dialect: Format::Codex,
        changes,
    })
}

/// The meaningful stretch of a patch: the indices of its `*** Begin Patch` line (the
/// first line when there is none) and of its `*** End Patch`, past a heredoc; refused
/// when nothing closes the patch, or something but a heredoc's end comes after.
fn stretch(lines: &[&str]) -> Result<(usize, usize), PatchError> {
    let begin = lines
        .iter()
        .position(|l| l.trim() == BEGIN)
        .unwrap_or_default();
    let Some(end) = lines.iter().rposition(|l| l.trim() == END) else {
        let last = lines
            .iter()
            .rposition(|l| !l.trim().is_empty())
            .unwrap_or(0);
        return Err(err(
            last + 1,
            lines[last],
            format!("`{END}` to close the patch"),
        ));
    };
    for (i, line) in lines.iter().enumerate().skip(end + 1) {
        if !line.trim().is_empty() && line.trim() != "EOF" {
            return Err(err(i + 1, line, format!("nothing after `{END}`")));
        }
    }
    Ok((begin, end))
}

/// The added file `path` whose `+` lines start at index `i`, up to the next marker or
/// `end`; returns it and the index after it.
fn added(
    lines: &[&str],
    (mut i, end): (usize, usize),
    path: &str,
) -> Result<(FileChange, usize), PatchError> {
    let mut content = String::new();
    while i < end && !lines[i].trim_start().starts_with("*** ") {
        let Some(body) = lines[i].strip_prefix('+') else {
            return Err(err(
                i + 1,
                lines[i],
                "a line of the added file, starting with `+`",
            ));
        };
        content.push_str(body);
        content.push('\n');
        i += 1;
    }
    let change = FileChange::Add {
        path: path.trim().to_owned(),
        content,
        executable: None,
    };
    Ok((change, i))
}

/// The update of `path` whose body (an optional `*** Move to:`, then chunks) starts at
/// index `i`, up to the next marker or `end`; returns it and the index after it.
fn updated(
    lines: &[&str],
    (mut i, end): (usize, usize),
    path: &str,
) -> Result<(FileChange, usize), PatchError> {
    let mut move_to = None;
    // The line after the marker may be the first chunk's first line, which
    // begins with a space when it is context: only an unpadded start is a marker.
    if let Some(to) = lines.get(i).and_then(|l| l.trim_end().strip_prefix(MOVE)) {
        move_to = Some(to.trim().to_owned());
        i += 1;
    }
    let (hunks, next) = chunks(lines, i, end)?;
    if hunks.is_empty() && move_to.is_none() {
        return Err(err(
            i + 1,
            lines.get(i).copied().unwrap_or_default(),
            "a chunk (`@@`, then lines starting with ` `, `-` or `+`)",
        ));
    }
    let change = FileChange::Update {
        path: path.trim().to_owned(),
        move_to,
        hunks,
        executable: None,
    };
    Ok((change, next))
}

/// The lines of a body, as [`super::parse`] splits a patch: without terminators, a final
/// newline ending the last line.
fn body_lines(diff: &str) -> Vec<&str> {
    let body = diff.strip_suffix('\n').unwrap_or(diff);
    body.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect()
}

/// The chunks of one `*** Update File:` section given alone, as an OpenAI Responses API
/// `update_file` operation carries them in its `diff`: `@@`/`@@ ANCHOR` lines, ` `, `-`
/// and `+` lines, an optional `*** End of File`. Lines are numbered within `diff`.
pub fn update_body(diff: &str) -> Result<Vec<Hunk>, PatchError> {
    let lines = body_lines(diff);
    if diff.trim().is_empty() {
        return Err(err(
            1,
            "",
            "a chunk (`@@`, then lines starting with ` `, `-` or `+`)",
        ));
    }
    let (hunks, stopped) = chunks(&lines, 0, lines.len())?;
    if stopped < lines.len() {
        return Err(err(
            stopped + 1,
            lines[stopped],
            "a chunk line starting with ` ` (context), `-` (removed) or `+` (added), `@@`, or `*** End of File`",
        ));
    }
    if hunks.is_empty() {
        return Err(err(
            1,
            lines.first().copied().unwrap_or_default(),
            "a chunk (`@@`, then lines starting with ` `, `-` or `+`)",
        ));
    }
    Ok(hunks)
}

/// The content of one `*** Add File:` section given alone, as an OpenAI Responses API
/// `create_file` operation carries it in its `diff`: every line `+`. The lines are joined
/// by newlines as the OpenAI Agents SDK's `apply_diff(..., mode="create")` joins them, so
/// a final newline is spelled by a last, empty `+` line — the same bytes a harness using
/// that SDK would write.
pub fn create_body(diff: &str) -> Result<String, PatchError> {
    let lines = body_lines(diff);
    let mut content: Vec<&str> = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        if line.is_empty() && lines.len() == 1 {
            break;
        }
        let Some(body) = line.strip_prefix('+') else {
            return Err(err(
                i + 1,
                line,
                "a line of the new file, starting with `+`",
            ));
        };
        content.push(body);
    }
    Ok(content.join("\n"))
}

/// The chunks of an update, from line `i` to the next file marker; and where it stopped.
fn chunks(lines: &[&str], mut i: usize, end: usize) -> Result<(Vec<Hunk>, usize), PatchError> {
    let mut hunks: Vec<Hunk> = Vec::new();
    let mut current: Option<Hunk> = None;
    while i < end {
        let line = lines[i];
        // A line that begins with a space is a body line, a context line whatever its
        // text: `     @@ -0,0 +1,1 @@` is the context `    @@ -0,0 +1,1 @@`, never a
        // chunk header. Only a line that does not is a marker, padded at its end at most,
        // as Codex's parser reads them (`parse_update_file_chunk` compares `@@` and
        // `*** End of File` as they are, and a section ends at a line that starts `*`).
        let trimmed = line.trim_end();
        if trimmed.starts_with("*** ") && trimmed != END_OF_FILE {
            break;
        }
        if trimmed == END_OF_FILE {
            let Some(hunk) = current.as_mut() else {
                return Err(err(i + 1, line, "a chunk before `*** End of File`"));
            };
            hunk.at_end = true;
            i += 1;
            continue;
        }
        if trimmed == "@@" || trimmed.starts_with("@@ ") {
            hunks.extend(
                current
                    .take()
                    .filter(|h| !h.old.is_empty() || !h.new.is_empty()),
            );
            let anchor = trimmed
                .strip_prefix("@@")
                .map(str::trim)
                .filter(|a| !a.is_empty());
            current = Some(Hunk {
                anchor: anchor.map(str::to_owned),
                placement: Placement::After,
                ..Hunk::default()
            });
            i += 1;
            continue;
        }
        // A first chunk without `@@` is taken, as Codex's parser takes it.
        let hunk = current.get_or_insert_with(|| Hunk {
            placement: Placement::After,
            ..Hunk::default()
        });
        match line.chars().next() {
            Some(' ') => {
                hunk.old.push(line[1..].to_owned());
                hunk.new.push(line[1..].to_owned());
            }
            Some('-') => hunk.old.push(line[1..].to_owned()),
            Some('+') => hunk.new.push(line[1..].to_owned()),
            None => {
                hunk.old.push(String::new());
                hunk.new.push(String::new());
            }
            Some(_) => return Err(err(
                i + 1,
                line,
                "a chunk line starting with ` ` (context), `-` (removed) or `+` (added), or `@@`",
            )),
        }
        i += 1;
    }
    hunks.extend(current.filter(|h| !h.old.is_empty() || !h.new.is_empty()));
    Ok((hunks, i))
}

#[cfg(test)]
mod tests {
    use super::super::{parse, FileChange, Format};

    #[test]
    fn parses_every_kind_of_change() {
        let patch = parse(
            "*** Begin Patch\n*** Add File: a.txt\n+one\n+two\n*** Delete File: b.txt\n\
             *** Update File: c.rs\n*** Move to: d.rs\n@@ fn main() {\n-    old();\n+    new();\n \
             }\n*** End of File\n*** End Patch\n",
        )
        .unwrap();
        assert_eq!(patch.dialect, Format::Codex);
        assert_eq!(
            patch.changes[0],
            FileChange::Add {
                path: "a.txt".into(),
                content: "one\ntwo\n".into(),
                executable: None
            }
        );
        assert_eq!(
            patch.changes[1],
            FileChange::Delete {
                path: "b.txt".into(),
                whole: None
            }
        );
        let FileChange::Update {
            path,
            move_to,
            hunks,
            ..
        } = &patch.changes[2]
        else {
            panic!()
        };
        assert_eq!((path.as_str(), move_to.as_deref()), ("c.rs", Some("d.rs")));
        assert_eq!(hunks[0].anchor.as_deref(), Some("fn main() {"));
        assert_eq!(hunks[0].old, ["    old();", "}"]);
        assert_eq!(hunks[0].new, ["    new();", "}"]);
        assert!(hunks[0].at_end);
    }

    #[test]
    fn takes_a_heredoc_padding_and_a_first_chunk_without_markers() {
        let patch = parse(
            "<<'EOF'\n  *** Begin Patch  \n*** Update File: a.txt\n-x\n+y\n*** End Patch\nEOF\n",
        )
        .unwrap();
        let FileChange::Update { hunks, .. } = &patch.changes[0] else {
            panic!()
        };
        assert_eq!(
            (hunks[0].old.as_slice(), hunks[0].new.as_slice()),
            (&["x".to_owned()][..], &["y".to_owned()][..])
        );
    }

    /// A body line that begins with a space is context whatever follows the space: a
    /// snapshot's `    @@ -0,0 +1,1 @@` or `    *** End of File` is a line of the file.
    #[test]
    fn a_body_line_beginning_with_a_space_is_context_never_a_marker() {
        let patch = parse(
            "*** Begin Patch\n*** Update File: snap.txt\n@@\n     @@ -0,0 +1,1 @@\n-    +old\n+    +new\n    *** End of File\n*** End Patch\n",
        )
        .unwrap();
        let FileChange::Update { hunks, .. } = &patch.changes[0] else {
            panic!()
        };
        assert_eq!(hunks.len(), 1, "{hunks:?}");
        assert_eq!(
            hunks[0].old,
            ["    @@ -0,0 +1,1 @@", "    +old", "   *** End of File"]
        );
        assert_eq!(
            hunks[0].new,
            ["    @@ -0,0 +1,1 @@", "    +new", "   *** End of File"]
        );
        assert!(!hunks[0].at_end);
        // Padding at a marker's end is still taken.
        let hunks = super::update_body("@@  \n-a\n+b\n*** End of File \n").unwrap();
        assert_eq!((hunks[0].anchor.as_deref(), hunks[0].at_end), (None, true));
    }

    #[test]
    fn a_lone_body_parses_as_the_responses_api_sends_it() {
        let hunks = super::update_body("@@ def f():\n-    a\n+    b\n*** End of File\n").unwrap();
        assert_eq!(hunks[0].anchor.as_deref(), Some("def f():"));
        assert_eq!(
            (hunks[0].old.as_slice(), hunks[0].at_end),
            (&["    a".to_owned()][..], true)
        );
        let e = super::update_body("@@\n-a\n*** Add File: x\n").unwrap_err();
        assert_eq!((e.line, e.found.as_str()), (3, "*** Add File: x"));
        assert!(super::update_body("").is_err());
        assert_eq!(super::create_body("+one\n+two\n+\n").unwrap(), "one\ntwo\n");
        assert_eq!(super::create_body("+one\n+two").unwrap(), "one\ntwo");
        assert_eq!(super::create_body("").unwrap(), "");
        let e = super::create_body("+one\ntwo\n").unwrap_err();
        assert_eq!((e.line, e.found.as_str()), (2, "two"));
    }

    #[test]
    fn names_the_line_that_does_not_parse() {
        let e =
            parse("*** Begin Patch\n*** Update File: a.txt\n@@\n?x\n*** End Patch\n").unwrap_err();
        assert_eq!((e.line, e.found.as_str()), (4, "?x"));
        assert_eq!(e.dialect, Some(Format::Codex));
        let e = parse("*** Begin Patch\n*** Add File: a.txt\n+x\n").unwrap_err();
        assert!(e.expected.contains("*** End Patch"), "{e:?}");
        let e = parse("*** Begin Patch\n*** Rename File: a\n*** End Patch\n").unwrap_err();
        assert_eq!(e.line, 2);
    }
}
