//! Unified diffs as `git diff` and `diff -u` print them: `diff --git`, `---`/`+++`
//! headers (with or without `a/` and `b/`), `@@ -a,b +c,d @@` hunks whose counts are
//! checked against their bodies, new files (`--- /dev/null`, `new file mode`), deletions
//! (`+++ /dev/null`, `deleted file mode`), renames (`rename from`/`rename to`, with or
//! without hunks) and `\ No newline at end of file`. A binary patch does not parse,
//! except the deletion of a binary file, which needs no content. A deletion's hunk holds
//! only `-` lines, the file's whole content, and is kept to be checked against the file.

use super::{error, FileChange, Format, Hunk, Patch, PatchError, Placement};

fn err(line: usize, found: &str, expected: impl Into<String>) -> PatchError {
    error(Some(Format::Unified), line, found, expected)
}

/// A header path without its `a/` or `b/` prefix, a trailing tab and timestamp (as
/// `diff -u` prints them), or quotes; `None` for `/dev/null`.
fn header_path(raw: &str) -> Option<String> {
    let raw = raw.split('\t').next().unwrap_or(raw).trim();
    let raw = raw
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .unwrap_or(raw);
    if raw == "/dev/null" {
        return None;
    }
    let path = raw
        .strip_prefix("a/")
        .or_else(|| raw.strip_prefix("b/"))
        .unwrap_or(raw);
    Some(path.to_owned())
}

/// Whether a git mode (octal, as `new file mode 100755` spells it) is an executable
/// regular file's; `INVALID_PATCH` at line `at` for a mode that is not a regular file's —
/// a symbolic link (`120000`) or a submodule (`160000`) — which a patch does not make.
fn executable(mode: &str, line: &str, at: usize) -> Result<bool, PatchError> {
    match u32::from_str_radix(mode.trim(), 8) {
        Ok(bits) if bits & 0o170_000 == 0o100_000 => Ok(bits & 0o100 != 0),
        Ok(0o120_000) => Err(err(
            at + 1,
            line,
            "a regular file's mode, 100644 or 100755 (a symbolic link, 120000, is not applied by a patch: send the patch without that file)",
        )),
        Ok(0o160_000) => Err(err(
            at + 1,
            line,
            "a regular file's mode, 100644 or 100755 (a submodule, 160000, is not applied by a patch: send the patch without it)",
        )),
        _ => Err(err(at + 1, line, "a regular file's mode, 100644 or 100755")),
    }
}

/// `-a,b +c,d` of a hunk header: the old start and count, the new count.
fn counts(header: &str) -> Option<(usize, usize, usize)> {
    let body = header.strip_prefix("@@ -")?;
    let (ranges, _) = body.split_once(" @@")?;
    let (old, new) = ranges.split_once(" +")?;
    let range = |r: &str| -> Option<(usize, usize)> {
        match r.split_once(',') {
            Some((start, count)) => Some((start.parse().ok()?, count.parse().ok()?)),
            None => Some((r.parse().ok()?, 1)),
        }
    };
    let (old_start, old_count) = range(old)?;
    let (_, new_count) = range(new)?;
    Some((old_start, old_count, new_count))
}

/// One file's section being read.
#[derive(Default)]
struct Section {
    /// `---`/`+++` headers were read; `old` and `new` are then their paths (`None` for
    /// `/dev/null`).
    headers: bool,
    old: Option<String>,
    new: Option<String>,
    rename_from: Option<String>,
    rename_to: Option<String>,
    new_file: bool,
    deleted: bool,
    /// The executable bit the section's mode lines give the file (`new file mode`,
    /// `new mode`), when they give one.
    executable: Option<bool>,
    git_paths: Option<(String, String)>,
    hunks: Vec<Hunk>,
}

impl Section {
    /// One of git's extended header lines, between `diff --git` and the hunks, which is
    /// line `at` (0-based) of the patch. A mode that is not a regular file's does not
    /// parse: a symbolic link or a submodule is never written as a regular file.
    fn extended(&mut self, line: &str, at: usize) -> Result<(), PatchError> {
        if let Some(from) = line.strip_prefix("rename from ") {
            self.rename_from = Some(from.to_owned());
        } else if let Some(to) = line.strip_prefix("rename to ") {
            self.rename_to = Some(to.to_owned());
        } else if let Some(mode) = line.strip_prefix("new file mode ") {
            self.new_file = true;
            self.executable = Some(executable(mode, line, at)?);
        } else if let Some(mode) = line.strip_prefix("deleted file mode ") {
            self.deleted = true;
            executable(mode, line, at)?;
        } else if let Some(mode) = line.strip_prefix("old mode ") {
            executable(mode, line, at)?;
        } else if let Some(mode) = line.strip_prefix("new mode ") {
            self.executable = Some(executable(mode, line, at)?);
        } else if let Some(index) = line.strip_prefix("index ") {
            // `index 1a2b..3c4d 100644`: the mode of a file the diff changes in place.
            let mut words = index.split_whitespace();
            if let (Some(hashes), Some(mode)) = (words.next(), words.next()) {
                if hashes.contains("..") {
                    executable(mode, line, at)?;
                }
            }
        }
        // Similarity and the other git lines carry nothing to apply.
        Ok(())
    }

    fn finish(self, line: usize, found: &str) -> Result<Option<FileChange>, PatchError> {
        let (git_old, git_new) = self
            .git_paths
            .map_or((None, None), |(a, b)| (Some(a), Some(b)));
        let (old, new) = if self.headers {
            (self.old, self.new)
        } else {
            (self.rename_from.or(git_old), self.rename_to.or(git_new))
        };
        let change = if self.new_file || (old.is_none() && new.is_some() && !self.deleted) {
            let Some(path) = new else {
                return Err(err(line, found, "the new file's path (`+++ b/PATH`)"));
            };
            let mut content = String::new();
            let mut final_newline = true;
            for hunk in &self.hunks {
                for l in &hunk.new {
                    content.push_str(l);
                    content.push('\n');
                }
                final_newline = !hunk.new_no_newline;
            }
            if !final_newline {
                content.pop();
            }
            FileChange::Add {
                path,
                content,
                executable: self.executable,
            }
        } else if self.deleted || new.is_none() {
            let Some(path) = old else {
                return Err(err(line, found, "the deleted file's path (`--- a/PATH`)"));
            };
            FileChange::Delete {
                path,
                whole: whole(self.hunks),
            }
        } else {
            let (Some(path), Some(to)) = (old, new) else {
                return Err(err(line, found, "`--- a/PATH` and `+++ b/PATH`"));
            };
            let move_to = (to != path).then_some(to);
            if self.hunks.is_empty() && move_to.is_none() && self.executable.is_none() {
                return Ok(None);
            }
            FileChange::Update {
                path,
                move_to,
                hunks: self.hunks,
                executable: self.executable,
            }
        };
        Ok(Some(change))
    }
}

/// A deletion's hunks as one: their old sides, in order, are the file's whole content
/// (`git diff` prints one); `None` when there is none, and the file goes as named.
fn whole(hunks: Vec<Hunk>) -> Option<Hunk> {
    let at_end = hunks.last()?.at_end;
    Some(Hunk {
        old: hunks.into_iter().flat_map(|h| h.old).collect(),
        old_start: Some(1),
        at_end,
        placement: Placement::Near,
        ..Hunk::default()
    })
}

/// Whether the section being read deletes its file: `deleted file mode`, or `+++
/// /dev/null`.
fn deletes(section: &Section) -> bool {
    section.deleted || section.headers && section.new.is_none()
}

/// The hunk whose header is line `i`, its body read as far as its counts say — or, where
/// the body disagrees with them (models often miscount), as far as its lines go, as `git
/// apply --recount` reads it (`recounted`); and the line after it.
fn hunk(lines: &[&str], i: usize) -> Result<(Hunk, usize), PatchError> {
    let line = lines[i];
    let Some((old_start, old_count, new_count)) = counts(line) else {
        return Err(err(
            i + 1,
            line,
            "a hunk header `@@ -START,COUNT +START,COUNT @@`",
        ));
    };
    let (mut hunk, next) = if let Some(read) = body(lines, i + 1, Some((old_count, new_count))) {
        read
    } else {
        let (mut hunk, next) = body(lines, i + 1, None)
            .filter(|(h, _)| !h.old.is_empty() || !h.new.is_empty())
            .ok_or_else(|| err(i + 1, line, "a hunk with a body of ` `, `-` and `+` lines"))?;
        hunk.recounted = true;
        (hunk, next)
    };
    hunk.old_start = Some(old_start);
    hunk.placement = Placement::Near;
    // A new file's body begins at line 0 of nothing.
    if hunk.old.is_empty() && old_count == 0 {
        hunk.old_start = Some(old_start + 1);
    }
    Ok((hunk, next))
}

/// Whether line `j` begins the next hunk or file: `@@`, `diff `, or a `--- ` line
/// followed by a `+++ ` line.
fn starts_next(lines: &[&str], j: usize) -> bool {
    let line = lines[j];
    line.starts_with("@@")
        || line.starts_with("diff ")
        || (line.starts_with("--- ") && lines.get(j + 1).is_some_and(|n| n.starts_with("+++ ")))
}

/// The body of a hunk from line `start`: exactly `counts` lines of each side (`None`
/// when the body does not hold them, or more follow), or with no counts, every body line
/// up to the next hunk or file.
fn body(lines: &[&str], start: usize, counts: Option<(usize, usize)>) -> Option<(Hunk, usize)> {
    let mut hunk = Hunk::default();
    let (mut old_seen, mut new_seen) = (0, 0);
    let mut last = ' ';
    let mut i = start;
    let wanted = |old: usize, new: usize| counts.is_none_or(|(o, n)| old < o || new < n);
    while i < lines.len() && (wanted(old_seen, new_seen) || lines[i].starts_with('\\')) {
        if counts.is_none() && starts_next(lines, i) {
            break;
        }
        let body = lines[i];
        match body.chars().next() {
            // An empty line is an empty context line (an editor strips its space), unless
            // it ends the patch or comes before the next hunk or file.
            None if counts.is_none() && (i + 1 == lines.len() || starts_next(lines, i + 1)) => {
                break
            }
            Some(' ') | None => {
                let text = body.get(1..).unwrap_or_default().to_owned();
                hunk.old.push(text.clone());
                hunk.new.push(text);
                old_seen += 1;
                new_seen += 1;
                last = ' ';
            }
            Some('-') => {
                hunk.old.push(body[1..].to_owned());
                old_seen += 1;
                last = '-';
            }
            Some('+') => {
                hunk.new.push(body[1..].to_owned());
                new_seen += 1;
                last = '+';
            }
            Some('\\') => {
                // "\ No newline at end of file": of the side of the line before it.
                match last {
                    '-' => hunk.at_end = true,
                    '+' => hunk.new_no_newline = true,
                    _ => {
                        hunk.at_end = true;
                        hunk.new_no_newline = true;
                    }
                }
            }
            Some(_) => break,
        }
        i += 1;
    }
    match counts {
        Some((o, n)) if (old_seen, new_seen) != (o, n) => return None,
        // Counted whole, but the next line is one more body line the counts left out.
        Some(_)
            if lines.get(i).is_some_and(|l| {
                matches!(l.chars().next(), Some('-' | '+' | ' ')) && !starts_next(lines, i)
            }) && i + 1 < lines.len()
                && !lines[i].starts_with("-- ") =>
        {
            return None
        }
        _ => {}
    }
    Some((hunk, i))
}

/// Parses a unified diff; `lines` are the text's lines, `\r` already dropped.
pub fn parse(lines: &[&str]) -> Result<Patch, PatchError> {
    let mut sections = Sections {
        lines,
        changes: Vec::new(),
        section: None,
    };
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(rest) = line.strip_prefix("diff --git ") {
            sections.close(i)?;
            let git_paths = rest
                .split_once(" b/")
                .map(|(a, b)| (a.trim_start_matches("a/").to_owned(), b.to_owned()));
            sections.section = Some(Section {
                git_paths,
                ..Section::default()
            });
        } else if line.starts_with("GIT binary patch") || line.starts_with("Binary files ") {
            i = sections.binary(i)?;
        } else if let Some(rest) = line.strip_prefix("--- ") {
            i = sections.headers(i, rest)?;
        } else if line.starts_with("@@ -") {
            i = sections.hunk(i)?;
            continue;
        } else if let Some(s) = sections.section.as_mut() {
            s.extended(line, i)?;
        }
        i += 1;
    }
    sections.close(lines.len())?;
    if sections.changes.is_empty() {
        return Err(err(
            1,
            lines.first().copied().unwrap_or_default(),
            "at least one file with a change",
        ));
    }
    Ok(Patch {
        dialect: Format::Unified,
        changes: sections.changes,
    })
}

/// A unified diff read line by line: the file changes read, and the one being read.
struct Sections<'a> {
    lines: &'a [&'a str],
    changes: Vec<FileChange>,
    section: Option<Section>,
}

impl Sections<'_> {
    /// Ends the file change being read, if any, at line index `i`: it joins the others.
    fn close(&mut self, i: usize) -> Result<(), PatchError> {
        if let Some(s) = self.section.take() {
            let at = i.min(self.lines.len().saturating_sub(1));
            let found = self.lines.get(at).copied().unwrap_or_default();
            if let Some(change) = s.finish(i + 1, found)? {
                self.changes.push(change);
            }
        }
        Ok(())
    }

    /// A binary patch at line index `i`; returns the index of its last line.
    fn binary(&mut self, mut i: usize) -> Result<usize, PatchError> {
        let (lines, line) = (self.lines, self.lines[i]);
        // A binary file deleted needs no content, only its name: `git diff` says
        // `Binary files a/x and /dev/null differ` (or, with --binary, a literal patch
        // whose data lines run to the next file). Any other binary patch is refused.
        let deleted = self.section.as_ref().is_some_and(|s| s.deleted)
            || line.starts_with("Binary files ") && line.ends_with(" and /dev/null differ");
        let Some(s) = self.section.as_mut().filter(|_| deleted) else {
            return Err(err(
                i + 1,
                line,
                "a text patch (binary patches are not applied)",
            ));
        };
        s.deleted = true;
        if line.starts_with("GIT binary patch") {
            while i + 1 < lines.len() && !lines[i + 1].starts_with("diff --git ") {
                i += 1;
            }
        }
        Ok(i)
    }

    /// The `--- a/PATH` line at index `i` (`rest` after its `--- `) and the `+++ b/PATH`
    /// line after it; returns the index of the `+++` line.
    fn headers(&mut self, i: usize, rest: &str) -> Result<usize, PatchError> {
        let lines = self.lines;
        // A `---` header opens a new section unless `diff --git` just did.
        let fresh = self
            .section
            .as_ref()
            .is_none_or(|s| s.old.is_some() || !s.hunks.is_empty());
        if fresh {
            self.close(i)?;
            self.section = Some(Section::default());
        }
        let Some(next) = lines.get(i + 1).filter(|l| l.starts_with("+++ ")) else {
            return Err(err(
                i + 2,
                lines.get(i + 1).copied().unwrap_or_default(),
                "`+++ b/PATH` after `--- a/PATH`",
            ));
        };
        let s = self.section.as_mut().expect("opened above");
        s.headers = true;
        s.old = header_path(rest);
        s.new = header_path(&next[4..]);
        Ok(i + 1)
    }

    /// The hunk whose `@@` line is at index `i`; returns the index after it.
    fn hunk(&mut self, i: usize) -> Result<usize, PatchError> {
        let line = self.lines[i];
        let Some(s) = self.section.as_mut() else {
            return Err(err(
                i + 1,
                line,
                "`--- a/PATH` and `+++ b/PATH` before a hunk",
            ));
        };
        let (hunk, next) = hunk(self.lines, i)?;
        if deletes(s) && !hunk.new.is_empty() {
            return Err(err(
                i + 1,
                line,
                "a hunk of `-` lines only: a deleted file's hunk (`+++ /dev/null`) removes its whole content",
            ));
        }
        s.hunks.push(hunk);
        Ok(next)
    }
}

#[cfg(test)]
mod tests;
