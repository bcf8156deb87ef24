//! Carrying a caller's intended change onto the passage that is really in the file: a
//! three-way merge whose base is the caller's `oldText`, one side the candidate's text
//! (what the file holds) and the other the caller's `newText` (what the caller meant to
//! do to it).
//!
//! A model that misremembers a passage writes `newText` from the same wrong memory, so
//! the repaired call is the candidate's text as `oldText` and this merge as `newText`.
//! Lines are aligned first (whitespace set aside, near lines paired), then a line both
//! sides changed is merged character by character; lines the caller added take the
//! file's indentation, learned from the lines both hold. Where the two changes touch the
//! same bytes, or the file's lines and the caller's new lines would fall in the same gap,
//! the merge gives up: following a repair to the letter must never write what the caller
//! did not mean, so a doubtful merge offers nothing.

mod align;
mod chars;
mod indent;
mod respace;
mod split;

pub use align::token_distance;
use align::{align, stretches, Pairing};
use chars::{changes, merge_indented};
use indent::{leading, Indent};

use crate::text::normal::collapsed;

/// The shortest similarity at which two lines that differ in content are taken for the
/// same line, changed.
const PAIRED: f64 = 0.6;
/// The shortest part of a line (its start or its end) taken for that line.
const MIN_PART: usize = 8;
/// Lines longer than this are not merged character by character (the diff is quadratic
/// in the worst case): such a line changed on both sides is a conflict.
const MAX_MERGED_LINE: usize = 2000;
/// Passages with more lines than this are not merged.
const MAX_LINES: usize = 400;

/// `theirs` (the caller's `newText`) carried from `base` (the caller's `oldText`) onto
/// `ours` (the file's passage), or `None` when it cannot be carried without doubt.
// `b`, `o` and `t` are the three sides' lines, `j` and `k` indices into `o` and `t`: the
// names of a three-way merge.
#[must_use]
pub fn carry(base: &str, ours: &str, theirs: &str) -> Option<String> {
    merge(base, ours, theirs, Parts::Copied)
}

/// Which line may pair with a part of another: a line of the caller's `oldText` that is
/// the start or the end of the file's (copied cut short), or, mapping a carried text back
/// onto the caller's, the mirror of that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Parts {
    Copied,
    Mirrored,
}

/// [`carry`], its lines paired as `parts` says.
fn merge(base: &str, ours: &str, theirs: &str, parts: Parts) -> Option<String> {
    if base == ours {
        return Some(theirs.to_owned());
    }
    let crlf = ours.contains("\r\n");
    let (base, ours, theirs) = (lf(base), lf(ours), lf(theirs));
    let (b, b_end) = split(&base);
    let (o, o_end) = split(&ours);
    let (t, t_end) = split(&theirs);
    if b.len().max(o.len()).max(t.len()) > MAX_LINES {
        return None;
    }
    let (b_cut, t_cut) = cut_continued(&b, &o, &t)?;
    let b: Vec<&str> = b_cut.iter().map(String::as_str).collect();
    let t: Vec<&str> = t_cut.iter().map(String::as_str).collect();
    let to_ours = align(&b, &o, Pairing::BySimilarity, parts);
    let to_theirs = align(&b, &t, Pairing::LineForLine, Parts::Copied);
    if parts == Parts::Copied && continued_past(&b, &o, &to_ours.paired) {
        return None;
    }
    let sides = Sides {
        indent: Indent::learn(&b, &o, &to_ours.paired),
        wrapped: wrapped(&b, &o, &to_ours.paired),
        b: &b,
        o: &o,
        t: &t,
        to_ours,
        to_theirs,
    };
    let out = sides.merged()?;
    let terminated = if b_end == t_end { o_end } else { t_end };
    let mut joined = out.join("\n");
    if terminated {
        joined.push('\n');
    }
    if crlf {
        joined = joined.replace('\n', "\r\n");
    }
    Some(joined)
}

/// The three sides of a merge as lines — the base `b` (the caller's `oldText`), ours `o`
/// (the file's passage) and theirs `t` (the caller's `newText`) — with how ours and theirs
/// pair with the base, the file's indentation and the base's lines the file holds wrapped
/// as one.
struct Sides<'a> {
    b: &'a [&'a str],
    o: &'a [&'a str],
    t: &'a [&'a str],
    to_ours: align::Alignment,
    to_theirs: align::Alignment,
    indent: Indent,
    /// For each base line that starts a run the file holds as one line: the run's last
    /// base line and the file's line.
    wrapped: Vec<Option<(usize, usize)>>,
}

impl Sides<'_> {
    /// The merged lines, gap by gap of the base: what either side put in the gap, then
    /// the base line after it (or the run of base lines the file joined), merged.
    fn merged(&self) -> Option<Vec<String>> {
        let mut out: Vec<String> = Vec::new();
        let mut gap = 0;
        while gap <= self.b.len() {
            self.inserted(gap, &mut out)?;
            if gap == self.b.len() {
                break;
            }
            // Lines the caller wrapped that the file holds as one: the change made to them,
            // joined, merged into the file's line.
            if let Some((last, j)) = self.wrapped[gap] {
                out.push(self.rejoined(gap, last, j)?);
                gap = last + 1;
                continue;
            }
            self.line(gap, &mut out)?;
            gap += 1;
        }
        Some(out)
    }

    /// Pushes onto `out` what each side put between base lines `gap - 1` and `gap`: the
    /// file's lines as they are, the caller's in the file's indentation. `None` when both
    /// put lines there.
    fn inserted(&self, gap: usize, out: &mut Vec<String>) -> Option<()> {
        let (b, o, t) = (self.b, self.o, self.t);
        let ours_in = &self.to_ours.inserted[gap];
        let theirs_in = &self.to_theirs.inserted[gap];
        if !ours_in.is_empty() && !theirs_in.is_empty() {
            return None;
        }
        out.extend(ours_in.iter().map(|&j| o[j].to_owned()));
        let mut above = line_above(b, o, &self.to_ours.paired, gap);
        for &k in theirs_in {
            let line = self.indent.apply_below(t[k], above.as_ref())?;
            if !t[k].trim().is_empty() {
                above = Some((leading(t[k]).to_owned(), leading(&line).to_owned()));
            }
            out.push(line);
        }
        Some(())
    }

    /// Base lines `gap..=last`, which the file holds as its line `j`: the caller's change
    /// to them, joined, merged into that line. `None` when a side put lines inside the
    /// run, or the caller rewrote a piece of it.
    fn rejoined(&self, gap: usize, last: usize, j: usize) -> Option<String> {
        let (b, o, t) = (self.b, self.o, self.t);
        let inside = gap + 1..=last;
        if inside
            .clone()
            .any(|g| !self.to_ours.inserted[g].is_empty() || !self.to_theirs.inserted[g].is_empty())
        {
            return None;
        }
        let mut theirs_lines = Vec::new();
        for i in gap..=last {
            let line = t[self.to_theirs.paired[i]?];
            // A piece the caller rewrote is a line to the caller, a part of one to
            // the file: what it meant for the file's line cannot be told.
            if rewritten(b[i], line) {
                return None;
            }
            theirs_lines.push(line);
        }
        let (base_joined, theirs_joined) = (join(&b[gap..=last]), join(&theirs_lines));
        Some(if theirs_joined == base_joined {
            o[j].to_owned()
        } else {
            merge_indented(&base_joined, o[j], &theirs_joined, &self.indent)?
        })
    }

    /// Pushes onto `out` base line `gap` merged (nothing where the line goes); `None` when
    /// the change to it cannot be carried.
    // `b`, `o`, `t`, `j` and `k`: the names of a three-way merge, as in [`carry`].
    #[allow(clippy::many_single_char_names)]
    fn line(&self, gap: usize, out: &mut Vec<String>) -> Option<()> {
        let (b, o, t) = (self.b, self.o, self.t);
        // A line the caller elided (`...`) must stand for lines of the file's own that sit
        // in its place; without them, the passage is not the one the caller meant.
        if elided(b[gap]) && self.to_ours.paired[gap].is_none() {
            let filled = !self.to_ours.inserted[gap].is_empty()
                || !self.to_ours.inserted[gap + 1].is_empty();
            if !filled {
                return None;
            }
        }
        let line = match (self.to_ours.paired[gap], self.to_theirs.paired[gap]) {
            // The caller kept the line: the file's own.
            (Some(j), Some(k)) if t[k] == b[gap] => Some(o[j].to_owned()),
            (Some(j), Some(k)) if o[j] == b[gap] => Some(t[k].to_owned()),
            (Some(j), Some(k)) => Some(merge_indented(b[gap], o[j], t[k], &self.indent)?),
            // The caller deleted the line: delete the file's, when it is the same line
            // but for whitespace (a space the caller dropped or added inside it too).
            (Some(j), None) if solid(o[j]) == solid(b[gap]) => None,
            // The file does not hold the line (the caller added or misremembered it):
            // a change the caller made to it cannot be carried.
            (None, Some(k)) if t[k] == b[gap] => None,
            (None, None) => None,
            (Some(_), None) | (None, Some(_)) => return None,
        };
        out.extend(line);
        Some(())
    }
}

/// The line above gap `gap` (before base line `gap`), as the caller indents it and as
/// the file does, where both hold it and it is not blank.
fn line_above(
    base: &[&str],
    ours: &[&str],
    paired: &[Option<usize>],
    gap: usize,
) -> Option<(String, String)> {
    let i = gap.checked_sub(1).filter(|&i| !base[i].trim().is_empty())?;
    Some((
        leading(base[i]).to_owned(),
        leading(ours[paired[i]?]).to_owned(),
    ))
}

/// The caller's lines (`base`) and its changed lines (`theirs`), with each line the file
/// holds continued over several cut as the file cuts it (see [`split`]); `None` where the
/// caller's change meets a cut.
fn cut_continued(
    base: &[&str],
    ours: &[&str],
    theirs: &[&str],
) -> Option<(Vec<String>, Vec<String>)> {
    let owned = |lines: &[&str]| lines.iter().map(|l| (*l).to_owned()).collect::<Vec<_>>();
    let runs = split::runs(base, ours);
    if runs.is_empty() {
        return Some((owned(base), owned(theirs)));
    }
    let to_theirs = align(base, theirs, Pairing::LineForLine, Parts::Copied);
    let mut cut_base = Vec::with_capacity(base.len() + runs.len());
    let mut cut_theirs: Vec<Option<Vec<String>>> = vec![None; theirs.len()];
    for (i, line) in base.iter().enumerate() {
        let Some(&(_, j, m)) = runs.iter().find(|r| r.0 == i) else {
            cut_base.push((*line).to_owned());
            continue;
        };
        let changed = to_theirs.paired[i].map_or(*line, |k| theirs[k]);
        let (pieces, new_pieces) = split::split(line, changed, &ours[j..=m])?;
        cut_base.extend(pieces);
        if let Some(k) = to_theirs.paired[i] {
            cut_theirs[k] = Some(new_pieces);
        }
    }
    let mut out_theirs = Vec::with_capacity(theirs.len() + runs.len());
    for (k, line) in theirs.iter().enumerate() {
        match cut_theirs[k].take() {
            Some(pieces) => out_theirs.extend(pieces),
            None => out_theirs.push((*line).to_owned()),
        }
    }
    Some((cut_base, out_theirs))
}

/// Whether a carried `newText` maps back: the change from the file's passage `ours` to
/// `carried`, carried onto the caller's `base`, gives the caller's `theirs` again (or
/// cannot be carried without doubt, which tells nothing), and it is indented with the
/// file's characters. A
/// transform that cannot be undone this way (a level of indentation guessed, a word of the
/// file's taken into the caller's line) is not offered.
#[must_use]
pub fn carries_back(base: &str, ours: &str, theirs: &str, carried: &str) -> bool {
    // Where the way back is itself in doubt (two insertions at one point), it tells
    // nothing; where it gives another text, the way there was not the caller's change.
    // Spacing is compared set aside: the caller's newText may respace what its oldText
    // spelled otherwise, and where the file's spacing goes is the transform's own rule.
    let words = |text: &str| -> Vec<String> {
        lf(text)
            .split('\n')
            .map(|l| l.split_whitespace().collect())
            .collect()
    };
    merge(ours, base, carried, Parts::Mirrored).is_none_or(|back| words(&back) == words(theirs))
        && indented_as_the_file(ours, carried)
}

/// Whether the carried text indents its lines with the file's characters: no tab where
/// the passage's lines are indented with spaces only, no leading space where they are
/// indented with tabs only.
fn indented_as_the_file(ours: &str, carried: &str) -> bool {
    let indents = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| leading(l).to_owned())
            .filter(|l| !l.is_empty())
            .collect()
    };
    let file = indents(ours);
    if file.is_empty() {
        return true;
    }
    let spaces_only = file.iter().all(|l| !l.contains('\t'));
    let tabs_first = file.iter().all(|l| l.starts_with('\t'));
    indents(carried)
        .iter()
        .all(|l| !(spaces_only && l.contains('\t') || tabs_first && l.starts_with(' ')))
}

/// The passage an `oldText` with one elided stretch (a `...` line) stands for: the only
/// place where its lines before the elision occur (whitespace aside), through the first
/// place after it where its lines after the elision do, with at least one line between.
/// The 0-based first and last line, and the passage's exact text.
#[must_use]
pub fn elided_passage(text: &str, old: &str) -> Option<(usize, usize, String)> {
    const MAX_SPAN: usize = 400;
    let view = lf(old);
    let (lines, terminated) = split(&view);
    let mut marks = lines.iter().enumerate().filter(|(_, l)| elided(l));
    let (at, _) = marks.next()?;
    if marks.next().is_some() || at == 0 || at + 1 == lines.len() {
        return None;
    }
    let (head, tail): (Vec<String>, Vec<String>) = (
        lines[..at].iter().map(|l| collapsed(l)).collect(),
        lines[at + 1..].iter().map(|l| collapsed(l)).collect(),
    );
    let file: Vec<&str> = text.split_inclusive('\n').collect();
    let plain: Vec<String> = file.iter().map(|l| collapsed(l)).collect();
    let occurs = |from: usize, part: &[String]| {
        plain.len() >= part.len() && (0..part.len()).all(|k| plain.get(from + k) == Some(&part[k]))
    };
    let mut heads = (0..plain.len()).filter(|&p| occurs(p, &head));
    let first = heads.next()?;
    if heads.next().is_some() {
        return None;
    }
    let from = first + head.len() + 1;
    let last =
        (from..plain.len().min(from + MAX_SPAN)).find(|&q| occurs(q, &tail))? + tail.len() - 1;
    let mut passage: String = file[first..=last].concat();
    if !terminated {
        let body = passage.trim_end_matches(['\n', '\r']).len();
        passage.truncate(body);
    }
    Some((first, last, passage))
}

/// Whether the passage's last line is one the file continues on the next (after a `\`,
/// a comma, an operator or an opening bracket) while the caller's line paired with it
/// holds more than it: the rest of the caller's line is on the file's next line, outside
/// the passage, and a change at its end would be carried to the wrong place.
fn continued_past(base: &[&str], ours: &[&str], paired: &[Option<usize>]) -> bool {
    let Some(last) = ours.len().checked_sub(1) else {
        return false;
    };
    let squash = |l: &str| l.chars().filter(|c| !c.is_whitespace()).count();
    paired.iter().enumerate().any(|(i, j)| {
        *j == Some(last) && split::continues(ours[last]) && squash(base[i]) > squash(ours[last])
    })
}

/// Whether `changed` replaces most of `line`'s text (set aside whitespace).
fn rewritten(line: &str, changed: &str) -> bool {
    let b: Vec<char> = line.chars().collect();
    let solid = |chars: &[char]| chars.iter().filter(|c| !c.is_whitespace()).count();
    let gone: usize = changes(&b, &changed.chars().collect::<Vec<_>>())
        .iter()
        .map(|c| solid(&b[c.start..c.end]))
        .sum();
    gone > 0 && 2 * gone >= solid(&b)
}

/// Lines wrapped as one: the first line's text, then each next one's after a space.
fn join(lines: &[&str]) -> String {
    let mut joined = continued(lines[0]).to_owned();
    for (n, line) in lines.iter().enumerate().skip(1) {
        joined.push(' ');
        if n + 1 == lines.len() {
            joined.push_str(line.trim());
        } else {
            joined.push_str(continued(line).trim_start());
        }
    }
    joined
}

/// A line that the next continues, without its trailing whitespace and continuation `\`.
fn continued(line: &str) -> &str {
    let line = line.trim_end();
    line.strip_suffix('\\').map_or(line, str::trim_end)
}

/// For each base line that starts a run of lines the file holds as one line (the caller
/// wrapped it), the run's last line and the file's line.
fn wrapped(base: &[&str], ours: &[&str], paired: &[Option<usize>]) -> Vec<Option<(usize, usize)>> {
    let mut runs = vec![None; base.len()];
    for i in 0..base.len() {
        let Some(j) = paired[i] else { continue };
        let whole = collapsed(ours[j]);
        let mut joined = collapsed(continued(base[i]));
        if collapsed(base[i]) == whole || !whole.starts_with(&joined) {
            continue;
        }
        for (k, line) in base.iter().enumerate().skip(i + 1) {
            if paired[k].is_some() {
                break;
            }
            if format!("{joined} {}", collapsed(line)) == whole {
                runs[i] = Some((k, j));
                break;
            }
            joined = format!("{joined} {}", collapsed(continued(line)));
            if !whole.starts_with(&joined) {
                break;
            }
        }
    }
    runs
}

/// Whether a line is an elision: `...` or `…`, alone or after a comment marker.
#[must_use]
pub fn elided(line: &str) -> bool {
    let body = line
        .trim()
        .trim_start_matches(['/', '#', '-', '*', ';', '<', '!'])
        .trim();
    matches!(body, "..." | "…" | "[...]" | "(...)")
}

fn lf(text: &str) -> String {
    text.replace("\r\n", "\n")
}

/// The lines of `text`, and whether it ends with a newline.
fn split(text: &str) -> (Vec<&str>, bool) {
    match text.strip_suffix('\n') {
        Some(body) => (body.split('\n').collect(), true),
        None if text.is_empty() => (Vec::new(), false),
        None => (text.split('\n').collect(), false),
    }
}

/// A line without any whitespace.
fn solid(line: &str) -> String {
    line.chars().filter(|c| !c.is_whitespace()).collect()
}

#[cfg(test)]
mod tests;
