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

use similar::{capture_diff_slices, Algorithm, DiffOp};

mod indent;
mod respace;
mod split;

use indent::{leading, Indent};

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
#[allow(clippy::many_single_char_names)]
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
    let to_ours = align(&b, &o, false, parts);
    let to_theirs = align(&b, &t, true, Parts::Copied);
    if parts == Parts::Copied && continued_past(&b, &o, &to_ours.paired) {
        return None;
    }
    let indent = Indent::learn(&b, &o, &to_ours.paired);
    let wrapped = wrapped(&b, &o, &to_ours.paired);
    let mut out: Vec<String> = Vec::new();
    let mut gap = 0;
    while gap <= b.len() {
        // What each side put between base lines gap-1 and gap.
        let ours_in = &to_ours.inserted[gap];
        let theirs_in = &to_theirs.inserted[gap];
        if !ours_in.is_empty() && !theirs_in.is_empty() {
            return None;
        }
        out.extend(ours_in.iter().map(|&j| o[j].to_owned()));
        let mut above = line_above(&b, &o, &to_ours.paired, gap);
        for &k in theirs_in {
            let line = indent.apply_below(t[k], above.as_ref())?;
            if !t[k].trim().is_empty() {
                above = Some((leading(t[k]).to_owned(), leading(&line).to_owned()));
            }
            out.push(line);
        }
        if gap == b.len() {
            break;
        }
        // Lines the caller wrapped that the file holds as one: the change made to them,
        // joined, merged into the file's line.
        if let Some((last, j)) = wrapped[gap] {
            let inside = gap + 1..=last;
            if inside
                .clone()
                .any(|g| !to_ours.inserted[g].is_empty() || !to_theirs.inserted[g].is_empty())
            {
                return None;
            }
            let mut theirs_lines = Vec::new();
            for i in gap..=last {
                let line = t[to_theirs.paired[i]?];
                // A piece the caller rewrote is a line to the caller, a part of one to
                // the file: what it meant for the file's line cannot be told.
                if rewritten(b[i], line) {
                    return None;
                }
                theirs_lines.push(line);
            }
            let (base_joined, theirs_joined) = (join(&b[gap..=last]), join(&theirs_lines));
            out.push(if theirs_joined == base_joined {
                o[j].to_owned()
            } else {
                merge_indented(&base_joined, o[j], &theirs_joined, &indent)?
            });
            gap = last + 1;
            continue;
        }
        // A line the caller elided (`...`) must stand for lines of the file's own that sit
        // in its place; without them, the passage is not the one the caller meant.
        if elided(b[gap]) && to_ours.paired[gap].is_none() {
            let filled = !to_ours.inserted[gap].is_empty() || !to_ours.inserted[gap + 1].is_empty();
            if !filled {
                return None;
            }
        }
        let line = match (to_ours.paired[gap], to_theirs.paired[gap]) {
            // The caller kept the line: the file's own.
            (Some(j), Some(k)) if t[k] == b[gap] => Some(o[j].to_owned()),
            (Some(j), Some(k)) if o[j] == b[gap] => Some(t[k].to_owned()),
            (Some(j), Some(k)) => Some(merge_indented(b[gap], o[j], t[k], &indent)?),
            // The caller deleted the line: delete the file's, when it is the same line
            // but for whitespace.
            (Some(j), None) if normal(o[j]) == normal(b[gap]) => None,
            // The file does not hold the line (the caller added or misremembered it):
            // a change the caller made to it cannot be carried.
            (None, Some(k)) if t[k] == b[gap] => None,
            (None, None) => None,
            (Some(_), None) | (None, Some(_)) => return None,
        };
        out.extend(line);
        gap += 1;
    }
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
    let to_theirs = align(base, theirs, true, Parts::Copied);
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
        lines[..at].iter().map(|l| normal(l)).collect(),
        lines[at + 1..].iter().map(|l| normal(l)).collect(),
    );
    let file: Vec<&str> = text.split_inclusive('\n').collect();
    let plain: Vec<String> = file.iter().map(|l| normal(l)).collect();
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
        let whole = normal(ours[j]);
        let mut joined = normal(continued(base[i]));
        if normal(base[i]) == whole || !whole.starts_with(&joined) {
            continue;
        }
        for (k, line) in base.iter().enumerate().skip(i + 1) {
            if paired[k].is_some() {
                break;
            }
            if format!("{joined} {}", normal(line)) == whole {
                runs[i] = Some((k, j));
                break;
            }
            joined = format!("{joined} {}", normal(continued(line)));
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

/// A line with every run of whitespace made one space, and none at either end.
#[must_use]
pub fn normal(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The runs two sequences share, in order on both sides: `(a_start, b_start, len)`. Runs
/// that would not keep both sides in order are left out, so the stretches between runs
/// are always well formed.
fn shared_runs<T: Eq + std::hash::Hash + Ord>(a: &[T], b: &[T]) -> Vec<(usize, usize, usize)> {
    let mut runs = Vec::new();
    let (mut a_end, mut b_end) = (0, 0);
    for op in capture_diff_slices(Algorithm::Myers, a, b) {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            if old_index >= a_end && new_index >= b_end && len > 0 {
                runs.push((old_index, new_index, len));
                (a_end, b_end) = (old_index + len, new_index + len);
            }
        }
    }
    runs
}

/// The stretches between shared runs: `(a_start, a_len, b_start, b_len)`, each with
/// something on one side at least.
/// A shared run `(a_start, b_start, len)`, and a stretch between runs `(a_start, a_len,
/// b_start, b_len)`.
type Runs = Vec<(usize, usize, usize)>;
type Stretches = Vec<(usize, usize, usize, usize)>;

fn stretches<T: Eq + std::hash::Hash + Ord>(a: &[T], b: &[T]) -> (Runs, Stretches) {
    let runs = shared_runs(a, b);
    let mut gaps = Vec::new();
    let (mut a_at, mut b_at) = (0, 0);
    for &(ai, bi, len) in runs.iter().chain([(a.len(), b.len(), 0)].iter()) {
        if ai > a_at || bi > b_at {
            gaps.push((a_at, ai - a_at, b_at, bi - b_at));
        }
        (a_at, b_at) = (ai + len, bi + len);
    }
    (runs, gaps)
}

/// How the lines of one text map onto another's.
struct Alignment {
    /// For each line of the first text, the line of the second it is (changed or not).
    paired: Vec<Option<usize>>,
    /// For each gap before line i of the first text (and one after the last), the lines
    /// of the second text that sit there and pair with none.
    inserted: Vec<Vec<usize>>,
}

/// Aligns `a`'s lines with `b`'s: equal once whitespace is set aside, or, within a stretch
/// that differs, paired in order by similarity — or, with `positional`, line for line
/// where the stretch has as many lines on both sides (the caller's change of a line is
/// that line changed, however much).
fn align(a: &[&str], b: &[&str], positional: bool, parts: Parts) -> Alignment {
    let na: Vec<String> = a.iter().map(|l| normal(l)).collect();
    let nb: Vec<String> = b.iter().map(|l| normal(l)).collect();
    let mut paired = vec![None; a.len()];
    let (runs, gaps) = stretches(&na, &nb);
    for (old_index, new_index, len) in runs {
        for i in 0..len {
            paired[old_index + i] = Some(new_index + i);
        }
    }
    for (old_index, old_len, new_index, new_len) in gaps {
        if old_len == 0 || new_len == 0 {
            continue;
        }
        if positional && old_len == new_len {
            for i in 0..old_len {
                paired[old_index + i] = Some(new_index + i);
            }
            continue;
        }
        // In order: each line of `a` takes the next line of `b` like it enough — or that
        // it is the start or the end of (a line copied from its middle, or cut short).
        let mut next = new_index;
        let cut = |x: &str, y: &str| x.len() >= MIN_PART && (y.starts_with(x) || y.ends_with(x));
        let part = |x: &str, y: &str| cut(x, y) || (parts == Parts::Mirrored && cut(y, x));
        for i in old_index..old_index + old_len {
            let found = (next..new_index + new_len)
                .find(|&j| similarity(&na[i], &nb[j]) >= PAIRED || part(&na[i], &nb[j]));
            if let Some(j) = found {
                paired[i] = Some(j);
                next = j + 1;
            }
        }
    }
    let mut inserted = vec![Vec::new(); a.len() + 1];
    let mut taken = vec![false; b.len()];
    for j in paired.iter().flatten() {
        taken[*j] = true;
    }
    // An unpaired line of `b` sits before the first line of `a` paired after it.
    let mut gap_of_next = vec![a.len(); b.len() + 1];
    for (i, j) in paired.iter().enumerate().rev() {
        if let Some(j) = j {
            for g in gap_of_next.iter_mut().take(*j + 1) {
                *g = (*g).min(i);
            }
        }
    }
    for j in 0..b.len() {
        if !taken[j] {
            inserted[gap_of_next[j]].push(j);
        }
    }
    Alignment { paired, inserted }
}

/// How far apart two texts are in tokens (words, single other characters): how many
/// tokens that are not whitespace differ, and how many runs of whitespace, with line
/// endings set aside.
#[must_use]
pub fn token_distance(a: &str, b: &str) -> (usize, usize) {
    let (a, b) = (tokens(&lf(a)), tokens(&lf(b)));
    let mut distance = (0, 0);
    for (ai, al, bi, bl) in stretches(&a, &b).1 {
        let count = |side: &[String]| {
            let space = side.iter().filter(|t| t.trim().is_empty()).count();
            (side.len() - space, space)
        };
        let (x, y) = (count(&a[ai..ai + al]), count(&b[bi..bi + bl]));
        distance.0 += x.0.max(y.0);
        distance.1 += x.1.max(y.1);
    }
    distance
}

fn tokens(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut last: Option<u8> = None;
    for c in text.chars() {
        let class = if word(c) {
            0
        } else if c.is_whitespace() {
            1
        } else {
            2
        };
        match out.last_mut() {
            Some(token) if class != 2 && last == Some(class) => token.push(c),
            _ => out.push(c.to_string()),
        }
        last = Some(class);
    }
    out
}

/// How alike two lines are, 0..=1, by characters.
#[must_use]
pub fn similarity(a: &str, b: &str) -> f64 {
    if a == b {
        return 1.0;
    }
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let same: usize = shared_runs(&a, &b).iter().map(|r| r.2).sum();
    #[allow(
        clippy::cast_precision_loss,
        reason = "lines, far below 2^52 characters"
    )]
    let ratio = 2.0 * same as f64 / (a.len() + b.len()) as f64;
    ratio
}

/// One side's change to the base: the characters `start..end` replaced by `with`.
#[derive(Debug, PartialEq)]
struct Change {
    start: usize,
    end: usize,
    with: Vec<char>,
}

fn changes(base: &[char], side: &[char]) -> Vec<Change> {
    stretches(base, side)
        .1
        .into_iter()
        .map(|(start, len, from, with)| Change {
            start,
            end: start + len,
            with: side[from..from + with].to_vec(),
        })
        .collect()
}

fn word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The span of base characters a change is about: what it replaces, widened to whole
/// words where it cuts into one or adds to one, so two changes of one word are seen to
/// meet even where their characters do not.
fn reach(base: &[char], change: &Change) -> (usize, usize) {
    // A dotted run (`1.2.3`, `a.b`) is one word here: a version is changed whole.
    let is_word = |i: usize| base.get(i).copied().is_some_and(|c| word(c) || c == '.');
    let (mut start, mut end) = (change.start, change.end);
    if change.start == change.end {
        // An insertion that joins a word on either side (word characters meeting word
        // characters) is about that word.
        let joins_before = change.with.first().copied().is_some_and(word);
        let joins_after = change.with.last().copied().is_some_and(word);
        if joins_before && start > 0 && is_word(start - 1) {
            while start > 0 && is_word(start - 1) {
                start -= 1;
            }
        }
        if joins_after && is_word(end) {
            while is_word(end) {
                end += 1;
            }
        }
        return (start, end);
    }
    if start > 0 && is_word(start - 1) && is_word(start) {
        while start > 0 && is_word(start - 1) {
            start -= 1;
        }
    }
    if end > 0 && is_word(end - 1) && is_word(end) {
        while is_word(end) {
            end += 1;
        }
    }
    (start, end)
}

/// Whether two changes of the same base would touch the same characters or words: their
/// reaches overlap, both insert at one point, or one inserts strictly inside the other.
fn clash(base: &[char], a: &Change, b: &Change) -> bool {
    if a == b {
        return false;
    }
    let (a0, a1) = reach(base, a);
    let (b0, b1) = reach(base, b);
    // An insertion at the edge of whole words the other side deleted is about those
    // words (`re` → `re: Regex` where the file no longer has `re` there).
    let whole_words_deleted = |c: &Change| {
        let bounded = |i: usize| i == 0 || i >= base.len() || !word(base[i - 1]) || !word(base[i]);
        base[c.start..c.end].iter().copied().any(word)
            && !c.with.iter().copied().any(word)
            && bounded(c.start)
            && bounded(c.end)
    };
    let beside = |insert: &Change, other: &Change| {
        insert.start == insert.end
            && whole_words_deleted(other)
            && (insert.start == other.start || insert.start == other.end)
    };
    if beside(a, b) || beside(b, a) {
        return true;
    }
    match (a0 == a1, b0 == b1) {
        (true, true) => a0 == b0,
        (true, false) => b0 < a0 && a0 < b1,
        (false, true) => a0 < b0 && b0 < a1,
        (false, false) => a0 < b1 && b0 < a1,
    }
}

/// A line both sides changed, merged: its indentation apart from the rest — the file's
/// where the caller kept the caller's, the caller's where the file kept the caller's
/// remembered one, else the caller's mapped onto the file's as a new line's would be —
/// and the rest character by character. `None` where the changes touch the same
/// characters, or the indentation cannot be told.
fn merge_indented(base: &str, ours: &str, theirs: &str, indent: &Indent) -> Option<String> {
    let (lb, lo, lt) = (leading(base), leading(ours), leading(theirs));
    let lead = if lt == lb {
        lo.to_owned()
    } else if lo == lb {
        lt.to_owned()
    } else if theirs.trim().is_empty() {
        theirs.to_owned()
    } else {
        let moved = indent.apply(theirs)?;
        leading(&moved).to_owned()
    };
    let body = merge_line(&base[lb.len()..], &ours[lo.len()..], &theirs[lt.len()..])?;
    Some(format!("{lead}{body}"))
}

/// A line both sides changed, merged character by character; `None` where the changes
/// touch the same characters.
fn merge_line(base: &str, ours: &str, theirs: &str) -> Option<String> {
    if base.len().max(ours.len()).max(theirs.len()) > MAX_MERGED_LINE {
        return None;
    }
    let b: Vec<char> = base.chars().collect();
    let yours = changes(&b, &theirs.chars().collect::<Vec<_>>());
    // Where the file differs from oldText only in whitespace, inside a stretch the caller
    // rewrote, the caller's text stands (whitespace set aside, nothing else differs).
    let blank = |chars: &[char]| chars.iter().all(|c| c.is_whitespace());
    let all_mine = changes(&b, &ours.chars().collect::<Vec<_>>());
    let covered = |m: &Change| {
        yours
            .iter()
            .any(|y| y.start < y.end && y.start <= m.start && m.end <= y.end)
    };
    let spacing = |m: &Change| blank(&b[m.start..m.end]) && blank(&m.with);
    if all_mine.iter().all(spacing) && all_mine.iter().any(covered) {
        // The file differs only in spacing, some of it inside what the caller rewrote:
        // the same spacing, at the same places, given to the caller's line (merged by
        // characters, the caller's own spelling would stand there).
        return respace::respace(base, ours, theirs);
    }
    let mine: Vec<Change> = all_mine
        .into_iter()
        .filter(|m| !(spacing(m) && covered(m)))
        .collect();
    if mine.iter().any(|m| yours.iter().any(|y| clash(&b, m, y))) {
        return None;
    }
    // A line the caller rewrote (most of it replaced) that the file holds otherwise than
    // the caller remembered: what the caller meant for the file's line cannot be told.
    let solid = |chars: &[char]| chars.iter().filter(|c| !c.is_whitespace()).count();
    let rewritten: usize = yours.iter().map(|y| solid(&b[y.start..y.end])).sum();
    let differs = mine
        .iter()
        .any(|m| !(blank(&b[m.start..m.end]) && blank(&m.with)));
    if rewritten > 0 && 2 * rewritten >= solid(&b) {
        // Where the file differs only in spacing, the rewrite takes the file's spacing at
        // the same places.
        return if differs {
            None
        } else {
            respace::respace(base, ours, theirs)
        };
    }
    // The file's line differs in content from the caller's memory of it, and the caller
    // replaced some of it: what the caller meant for the file's words cannot be told (a
    // merge would put the file's words into the caller's rewrite).
    if differs && rewritten > 0 {
        return None;
    }
    let mut all: Vec<&Change> = mine.iter().chain(yours.iter()).collect();
    // By position; at one position an insertion goes before a replacement, and a change
    // both sides made is made once.
    all.sort_by_key(|c| (c.start, c.end));
    all.dedup_by(|a, b| a == b);
    let mut out = String::with_capacity(theirs.len() + ours.len());
    let mut at = 0;
    for change in all {
        out.extend(&b[at..change.start]);
        out.extend(&change.with);
        at = change.end;
    }
    out.extend(&b[at..]);
    Some(out)
}

#[cfg(test)]
mod tests;
