//! The regions of a change that the gate parses before the whole result, and mostly
//! instead of it. Each run of changed lines is widened to whole items at its indentation
//! (an item begins on a line of that indentation that may begin one, after a line that
//! ends one, or after a line of less or more indentation), one more item either side
//! (the lines inside its blocks left out, inside.rs), and stops at a line of less
//! indentation; the region is then given the lines that open its enclosing blocks and the
//! ones that close them, so that it is a small program of its own. The same lines of the
//! file as it was make the region's old excerpt.
//!
//! A region can only let a change through, never refuse it: when either excerpt has an
//! error, or a change cannot be cut into regions that are small beside the file, the
//! whole result is parsed as before.

use std::ops::Range;
use std::time::{Duration, Instant};

use super::layout::{compare, LineIndex, LineRules};
use super::Language;
use crate::affix::{common_prefix, common_suffix};

/// Whole items taken in on either side of a change.
const NEIGHBOURS: usize = 1;
/// The most runs of changed lines a change is checked by in regions; past it, in full.
const MOST_HUNKS: usize = 64;
/// How long the line diff may look for a change's separate runs of changed lines before
/// settling for fewer, longer ones.
const DIFF_TIME: Duration = Duration::from_millis(5);

/// One region of a change: the result's text and the old file's text of the region, each
/// inside the same lines that open and close its enclosing blocks.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Excerpt {
    pub(super) new: Vec<u8>,
    pub(super) old: Vec<u8>,
}

/// A run of changed lines: lines `old` of the file as it was became lines `new` of the
/// result (neither empty).
#[derive(Debug, Clone, PartialEq, Eq)]
struct ChangedRun {
    old: Range<usize>,
    new: Range<usize>,
}

/// Lines of the result, whole items at indentation `level` (its lines as deep or deeper).
struct Region<'t> {
    lines: Range<usize>,
    level: &'t [u8],
    /// The lines of the items the change is in: the rest of `lines` are the items taken
    /// in on either side, unchanged.
    changed: Vec<Range<usize>>,
}

/// The excerpts a change from `old` to `new` in `language` is checked by, together no
/// more than half the result; `None` when it cannot be cut so (the whole result is then
/// parsed).
pub(super) fn excerpts(language: Language, old: &[u8], new: &[u8]) -> Option<Vec<Excerpt>> {
    if language == Language::Php && !php_throughout(old, new) {
        return None;
    }
    let (old_lines, new_lines) = (LineIndex::new(old, language), LineIndex::new(new, language));
    let hunks = hunks(&old_lines, &new_lines)?;
    if hunks.is_empty() || hunks.len() > MOST_HUNKS {
        return None;
    }
    let layout = LineRules::of(language);
    let widen = Widen {
        lines: &new_lines,
        layout: &layout,
    };
    let mut regions = hunks
        .iter()
        .map(|hunk| widen.region(hunk, &old_lines))
        .collect::<Option<Vec<_>>>()?;
    regions.sort_by_key(|r| r.lines.start);
    let mut merged: Vec<Region<'_>> = Vec::with_capacity(regions.len());
    for region in regions {
        match merged.last_mut() {
            Some(last) if region.lines.start < last.lines.end => {
                last.lines.end = last.lines.end.max(region.lines.end);
                if compare(region.level, last.level)?.is_lt() {
                    last.level = region.level;
                }
                last.changed.extend(region.changed);
            }
            _ => merged.push(region),
        }
    }
    let header = (language == Language::Php).then_some(0..1);
    let cut = merged
        .iter()
        .map(|region| widen.excerpt(region, &hunks, &old_lines, header.clone()))
        .collect::<Option<Vec<_>>>()?;
    // Whether the regions are small beside the file is judged on them whole, as if
    // nothing were left out of the items either side.
    let size: usize = cut.iter().map(|(e, left_out)| e.new.len() + left_out).sum();
    (size <= new.len() / 2).then(|| cut.into_iter().map(|(e, _)| e).collect())
}

/// A PHP file that is PHP throughout: it opens with `<?php` and never leaves PHP mode,
/// before and after. A region of it is PHP only behind the opening tag.
fn php_throughout(old: &[u8], new: &[u8]) -> bool {
    [old, new]
        .iter()
        .all(|t| t.starts_with(b"<?php") && memchr::memmem::find(t, b"?>").is_none())
}

/// The runs of changed lines from `old` to `new`, in order; `None` when a run cannot be
/// given a line on both sides (one text is empty).
fn hunks(old: &LineIndex<'_>, new: &LineIndex<'_>) -> Option<Vec<ChangedRun>> {
    if old.text == new.text {
        return Some(Vec::new());
    }
    let lead = old.of(common_prefix(old.text, new.text));
    let room = old.count().min(new.count()) - lead;
    // The old lines wholly inside the common suffix, less one that starts right at it
    // where the same place in the result starts no line.
    let suffix = common_suffix(old.text, new.text);
    let (from_old, from_new) = (old.text.len() - suffix, new.text.len() - suffix);
    let first = old.first_at_or_after(from_old);
    let starts_line_in_new = from_new == 0 || new.text[from_new - 1] == b'\n';
    let first = if old.start(first) == from_old && !starts_line_in_new {
        first + 1
    } else {
        first
    };
    let trail = (old.count() - first.min(old.count())).min(room);
    let (old_end, new_end) = (old.count() - trail, new.count() - trail);
    let mut hunks = if old_end - lead > 1 && new_end - lead > 1 {
        let a: Vec<&[u8]> = (lead..old_end).map(|i| old.line(i)).collect();
        let b: Vec<&[u8]> = (lead..new_end).map(|i| new.line(i)).collect();
        let deadline = Instant::now() + DIFF_TIME;
        similar::capture_diff_slices_deadline(similar::Algorithm::Myers, &a, &b, Some(deadline))
            .into_iter()
            .filter(|op| op.tag() != similar::DiffTag::Equal)
            .map(|op| ChangedRun {
                old: lead + op.old_range().start..lead + op.old_range().end,
                new: lead + op.new_range().start..lead + op.new_range().end,
            })
            .collect()
    } else {
        vec![ChangedRun {
            old: lead..old_end,
            new: lead..new_end,
        }]
    };
    // A side with no lines takes in the unchanged line before (or after) on both sides,
    // so that every run names lines of both texts.
    for hunk in &mut hunks {
        if hunk.old.is_empty() || hunk.new.is_empty() {
            if hunk.old.start > 0 && hunk.new.start > 0 {
                hunk.old.start -= 1;
                hunk.new.start -= 1;
            } else if hunk.old.end < old.count() && hunk.new.end < new.count() {
                hunk.old.end += 1;
                hunk.new.end += 1;
            } else {
                return None;
            }
        }
    }
    let mut merged: Vec<ChangedRun> = Vec::with_capacity(hunks.len());
    for hunk in hunks {
        match merged.last_mut() {
            Some(last) if hunk.new.start <= last.new.end => {
                last.new.end = last.new.end.max(hunk.new.end);
                last.old.end = last.old.end.max(hunk.old.end);
            }
            _ => merged.push(hunk),
        }
    }
    Some(merged)
}

/// The result's lines and its language's layout.
struct Widen<'a, 't> {
    lines: &'a LineIndex<'t>,
    layout: &'a LineRules,
}

impl<'t> Widen<'_, 't> {
    /// The region of `hunk`: its lines widened to whole items at the shallowest
    /// indentation of its lines (old and new), and one more item either side.
    fn region(&self, hunk: &ChangedRun, old: &LineIndex<'t>) -> Option<Region<'t>> {
        let lines = self.lines;
        let touched: Vec<&'t [u8]> = hunk
            .new
            .clone()
            .filter(|&i| !lines.blank(i))
            .map(|i| lines.indent(i))
            .chain(
                hunk.old
                    .clone()
                    .filter(|&i| !old.blank(i))
                    .map(|i| old.indent(i)),
            )
            .collect();
        // Only blank lines changed: the level of the lines around them.
        let indents = if touched.is_empty() {
            [
                lines.previous(hunk.new.start),
                (hunk.new.end..lines.count()).find(|&i| !lines.blank(i)),
            ]
            .into_iter()
            .flatten()
            .map(|i| lines.indent(i))
            .collect()
        } else {
            touched
        };
        let mut level: Option<&'t [u8]> = None;
        for indent in indents {
            level = match level {
                Some(l) if compare(indent, l)?.is_ge() => Some(l),
                _ => Some(indent),
            };
        }
        let level = level.unwrap_or_default();
        // Back from the first changed line to the start of the item before the change's.
        let mut start = 0;
        let mut changed_start = None;
        let mut found = 0;
        for i in (0..=hunk.new.start.min(lines.count() - 1)).rev() {
            if lines.blank(i) {
                continue;
            }
            if lines.shallower(i, level) {
                start = i + 1;
                break;
            }
            if self.begins(i, level) {
                found += 1;
                if found > NEIGHBOURS {
                    start = i;
                    break;
                }
                if found == 1 {
                    changed_start = Some(i);
                }
            }
        }
        // On from the last changed line to the end of the item after the change.
        let mut end = lines.count();
        let mut changed_end = None;
        let mut found = 0;
        for i in hunk.new.end..lines.count() {
            if lines.blank(i) {
                continue;
            }
            if lines.shallower(i, level) {
                end = i;
                break;
            }
            if self.begins(i, level) {
                found += 1;
                if found > NEIGHBOURS {
                    end = i;
                    break;
                }
                if found == 1 {
                    changed_end = Some(i);
                }
            }
        }
        let changed = changed_start.unwrap_or(start).min(hunk.new.start)
            ..changed_end.unwrap_or(end).max(hunk.new.end);
        Some(Region {
            lines: start..end,
            level,
            changed: vec![changed],
        })
    }

    /// Whether line `i`, at indentation `level`, begins an item: it may begin one, and
    /// the line before it (blank lines aside) is shallower (the block's first item),
    /// deeper (the end of the item before), or ends its item.
    fn begins(&self, i: usize, level: &[u8]) -> bool {
        let lines = self.lines;
        if lines.indent(i) != level || !self.layout.may_begin(lines.content(i)) {
            return false;
        }
        match lines.previous(i) {
            None => true,
            Some(p) => !lines.depth(p, level).is_eq() || self.layout.ends_item(lines.content(p)),
        }
    }

    /// The excerpts of `region`, which holds some of `hunks` (`old` the file as it was),
    /// behind `header` (lines the language needs first, PHP's opening tag) where the
    /// excerpt lacks them, and how many bytes of the result's were left out (the insides
    /// of the blocks of the items either side, inside.rs).
    fn excerpt(
        &self,
        region: &Region<'t>,
        hunks: &[ChangedRun],
        old: &LineIndex<'t>,
        header: Option<Range<usize>>,
    ) -> Option<(Excerpt, usize)> {
        let lines = self.lines;
        if region
            .lines
            .clone()
            .any(|i| lines.shallower(i, region.level) && !lines.blank(i))
        {
            return None;
        }
        let openers = self.openers(region);
        let closers = self.closers(region, &openers);
        let mut before: Vec<Range<usize>> = openers.iter().map(|(r, _)| r.clone()).collect();
        if let Some(header) = header {
            let first = before.first().map_or(region.lines.start, |r| r.start);
            if first > 0 {
                before.insert(0, header);
            }
        }
        // The lines around the region must be the same in both texts.
        let changed = |i: usize| hunks.iter().any(|h| h.new.contains(&i));
        if before
            .iter()
            .chain(&closers)
            .flat_map(Clone::clone)
            .any(changed)
        {
            return None;
        }
        let old_region = to_old(hunks, region.lines.start)?..to_old(hunks, region.lines.end)?;
        // The same lines of both texts are left out: they are unchanged.
        let mut left_out = self.insides(region, hunks);
        let mut old_left_out: Vec<Range<usize>> = left_out
            .iter()
            .map_while(|r| Some(to_old(hunks, r.start)?..to_old(hunks, r.end)?))
            .collect();
        if old_left_out.len() != left_out.len() {
            (left_out, old_left_out) = (Vec::new(), Vec::new());
        }
        let build = |text: &LineIndex<'_>, range: Range<usize>, left_out: &[Range<usize>]| {
            let mut out = Vec::new();
            for r in &before {
                out.extend_from_slice(&lines.text[lines.start(r.start)..lines.start(r.end)]);
            }
            let mut body = Vec::new();
            let mut from = range.start;
            for r in left_out {
                body.extend_from_slice(&text.text[text.start(from)..text.start(r.start)]);
                from = r.end;
            }
            body.extend_from_slice(&text.text[text.start(from)..text.start(range.end)]);
            out.extend_from_slice(without_last_comma(&body));
            if !out.ends_with(b"\n") {
                out.push(b'\n');
            }
            for closer in &closers {
                if lines.content(closer.start).ends_with(b"{") {
                    out.extend_from_slice(self.closing(closer.start));
                } else {
                    let text = &lines.text[lines.start(closer.start)..lines.start(closer.end)];
                    out.extend_from_slice(without_last_comma(text));
                }
                if !out.ends_with(b"\n") {
                    out.push(b'\n');
                }
            }
            out
        };
        let left_out_bytes = left_out
            .iter()
            .map(|r| lines.start(r.end) - lines.start(r.start))
            .sum();
        let excerpt = Excerpt {
            new: build(lines, region.lines.clone(), &left_out),
            old: build(old, old_region, &old_left_out),
        };
        Some((excerpt, left_out_bytes))
    }

    /// The lines that open the blocks around `region`, outermost first, each with its
    /// indentation: each block's opening line, from the start of its item (`} else {`
    /// takes in its `if`) to the last line before the block's first line at the inner
    /// indentation (a head written on several lines).
    fn openers(&self, region: &Region<'t>) -> Vec<(Range<usize>, &'t [u8])> {
        let lines = self.lines;
        let mut openers = Vec::new();
        let (mut level, mut from) = (region.level, region.lines.start);
        while !level.is_empty() {
            let Some(open) = (0..from)
                .rev()
                .find(|&i| lines.shallower(i, level) && !lines.blank(i))
            else {
                break;
            };
            let outer = lines.indent(open);
            let mut first = open;
            while !self.begins(first, outer) {
                match lines.previous(first) {
                    Some(p) if !lines.shallower(p, outer) => first = p,
                    _ => break,
                }
            }
            let mut end = open + 1;
            while end < from && (lines.depth(end, level).is_gt() || lines.blank(end)) {
                end += 1;
            }
            openers.push((first..end, outer));
            (level, from) = (outer, first);
        }
        openers.reverse();
        openers
    }

    /// The lines that close the blocks `openers` opened around `region`, innermost first:
    /// for each, the first line after the region shallower than the block's inside, when
    /// it is at the opener's indentation and closes (a brace, `end`, `</div>`), with the
    /// lines that continue its item (`.map_err(f)?;` after a `}`). A block closed by its
    /// indentation alone has none.
    fn closers(
        &self,
        region: &Region<'t>,
        openers: &[(Range<usize>, &'t [u8])],
    ) -> Vec<Range<usize>> {
        let lines = self.lines;
        let mut closers = Vec::new();
        let (mut at, mut inner) = (region.lines.end, region.level);
        for (_, outer) in openers.iter().rev() {
            let Some(line) =
                (at..lines.count()).find(|&i| lines.shallower(i, inner) && !lines.blank(i))
            else {
                break;
            };
            at = line;
            if lines.indent(line) == *outer && self.layout.closes(lines.content(line)) {
                let mut end = line + 1;
                // A line that closes and opens again (`} else {`) is taken in part, alone.
                if !lines.content(line).ends_with(b"{") {
                    while let Some(next) = (end..lines.count()).find(|&i| !lines.blank(i)) {
                        if lines.shallower(next, outer)
                            || self.begins(next, outer)
                            || self.layout.closes(lines.content(next))
                        {
                            break;
                        }
                        end = next + 1;
                    }
                }
                closers.push(line..end);
                at = end;
            }
            inner = outer;
        }
        closers
    }

    /// What of closing line `i` an excerpt takes: its closing word or tag, and the
    /// closing brackets and `;` that lead it (`});` of `}); // done`, `}` of `} else {`).
    fn closing(&self, i: usize) -> &'t [u8] {
        let content = self.lines.content(i);
        if content.starts_with(b"</") {
            return content;
        }
        let word = content
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        let n = word
            + content[word..]
                .iter()
                .take_while(|b| matches!(b, b'}' | b')' | b']' | b';' | b' ' | b'\t'))
                .count();
        &content[..n]
    }
}

/// The line of the old file that line `at` of the result (the start or end of a region,
/// never inside a run of changed lines) stands for.
fn to_old(hunks: &[ChangedRun], at: usize) -> Option<usize> {
    let mut shift = 0isize;
    for hunk in hunks {
        if hunk.new.start < at && at < hunk.new.end {
            return None;
        }
        if hunk.new.end <= at {
            shift += hunk.old.len().cast_signed() - hunk.new.len().cast_signed();
        }
    }
    at.checked_add_signed(shift)
}

/// `body` without the `,` after its last item (the items after it are not in the
/// excerpt, and a closing bracket may not follow a comma in every language): the
/// region's, and a closing line's (`],` of a list whose siblings are left out).
fn without_last_comma(body: &[u8]) -> &[u8] {
    let kept = body.len()
        - body
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
    if kept > 0 && body[kept - 1] == b',' {
        &body[..kept - 1]
    } else {
        body
    }
}

mod inside;

#[cfg(test)]
mod tests;
