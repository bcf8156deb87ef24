//! More mistakes for the held-out benchmark, made the same way on both halves: the
//! indentation re-expressed in another unit (two spaces a level for four, or four for
//! two) or mixed (a tab for the first level, spaces after); and lines wrapped otherwise
//! than the file wraps them — a long line remembered cut after a comma or before an
//! operator, or with a continuation `\`, and two lines the file continues (after a `\`,
//! a comma, an opening bracket or an operator) remembered as one. Pure string work.

/// The leading whitespace of a line.
fn indent(line: &str) -> &str {
    &line[..line.len() - line.trim_start().len()]
}

/// The smallest step between the passage's space indentations, when it is 2 or 4.
fn step(view: &str) -> Option<usize> {
    let mut widths: Vec<usize> = view
        .split('\n')
        .filter(|l| !l.trim().is_empty())
        .map(indent)
        .filter(|i| !i.is_empty() && i.chars().all(|c| c == ' '))
        .map(str::len)
        .collect();
    widths.push(0);
    widths.sort_unstable();
    widths.dedup();
    let step = widths.windows(2).map(|w| w[1] - w[0]).min()?;
    matches!(step, 2 | 4).then_some(step)
}

/// Every level of spaces written in the other unit: two spaces for four, four for two.
pub fn unit_2_4(view: &str) -> Option<String> {
    let step = step(view)?;
    let out: Vec<String> = view
        .split('\n')
        .map(|l| {
            let lead = indent(l);
            if lead.is_empty()
                || !lead.chars().all(|c| c == ' ')
                || !lead.len().is_multiple_of(step)
            {
                return l.to_owned();
            }
            let levels = lead.len() / step;
            let other = if step == 4 { 2 } else { 4 };
            format!("{}{}", " ".repeat(levels * other), l.trim_start())
        })
        .collect();
    let out = out.join("\n");
    (out != view).then_some(out)
}

/// The first level a tab and every further one spaces, where the file indents with
/// spaces; where it indents with tabs, the first tab kept and the others as four spaces.
pub fn mixed_indent(view: &str) -> Option<String> {
    let out: Vec<String> = view
        .split('\n')
        .map(|l| {
            let lead = indent(l);
            let body = l.trim_start();
            if let Some(rest) = lead.strip_prefix('\t') {
                if !rest.is_empty() && rest.chars().all(|c| c == '\t') {
                    return format!("\t{}{body}", "    ".repeat(rest.len()));
                }
                return l.to_owned();
            }
            match lead.strip_prefix("    ") {
                Some(rest) if !rest.is_empty() && rest.chars().all(|c| c == ' ') => {
                    format!("\t{rest}{body}")
                }
                _ => l.to_owned(),
            }
        })
        .collect();
    let out = out.join("\n");
    (out != view).then_some(out)
}

/// Where a long line may be cut, as a formatter or a person cuts it: after a `, `, or
/// before ` && `, ` || `, ` | `, ` + `, ` and `, ` or ` — the first such place past a
/// third of its text.
fn break_at(body: &str) -> Option<(usize, usize)> {
    let from = body.len() / 3;
    let mut best: Option<(usize, usize)> = None;
    // Each separator, with where the head ends and the tail starts within it.
    for (sep, head_at, tail_at) in [
        (", ", 1, 2),
        (" && ", 0, 1),
        (" || ", 0, 1),
        (" | ", 0, 1),
        (" + ", 0, 1),
        (" and ", 0, 1),
        (" or ", 0, 1),
    ] {
        if let Some(at) = body[from..].find(sep).map(|i| i + from) {
            let (head, tail) = (at + head_at, at + tail_at);
            if body[tail..].trim().len() >= 4 && best.is_none_or(|b| head < b.0) {
                best = Some((head, tail));
            }
        }
    }
    best
}

/// A line's text cut in two, and where: `None` for a line too short to wrap.
fn cut_line(line: &str, backslash: bool) -> Option<String> {
    let body = line.trim_start();
    if body.len() < 40 || body.trim_end().ends_with('\\') {
        return None;
    }
    let lead = indent(line);
    if backslash {
        let near = body.len() * 2 / 3;
        let at = body[..near].rfind(' ')?;
        let (head, tail) = (body[..at].trim_end(), body[at..].trim());
        if head.is_empty() || tail.len() < 4 {
            return None;
        }
        return Some(format!("{lead}{head} \\\n{lead}    {tail}"));
    }
    let (head, tail) = break_at(body)?;
    let (head, tail) = (body[..head].trim_end(), body[tail..].trim());
    Some(format!("{lead}{head}\n{lead}        {tail}"))
}

/// The first line cut after a comma or before an operator, its tail eight columns deeper.
pub fn wrapped_at_break(view: &str) -> Option<String> {
    let (first, rest) = view
        .split_once('\n')
        .map_or((view, None), |(f, r)| (f, Some(r)));
    let cut = cut_line(first, false)?;
    Some(rest.map_or(cut.clone(), |r| format!("{cut}\n{r}")))
}

/// The first line cut at a space with a continuation `\`, its tail four columns deeper.
pub fn wrapped_backslash(view: &str) -> Option<String> {
    let (first, rest) = view
        .split_once('\n')
        .map_or((view, None), |(f, r)| (f, Some(r)));
    let cut = cut_line(first, true)?;
    Some(rest.map_or(cut.clone(), |r| format!("{cut}\n{r}")))
}

/// Whether a line is continued by the next: it ends with `\`, a comma, an opening
/// bracket or an operator.
fn continues(line: &str) -> bool {
    let end = line.trim_end();
    !end.trim().is_empty()
        && ["\\", ",", "(", "[", "&&", "||", "|", "+", " and", " or"]
            .iter()
            .any(|s| end.ends_with(s))
}

/// Whether a line and the next would be remembered as one: the first continues, and the
/// next is neither blank, nor a comment line of its own, nor a closing bracket alone.
fn joinable(line: &str, next: &str) -> bool {
    let next = next.trim();
    continues(line)
        && !next.is_empty()
        && !["//", "#", "*", "/*", "--", ";"]
            .iter()
            .any(|m| next.starts_with(m))
        && !next.starts_with([')', ']', '}'])
}

/// The passage's first line that the next continues, and the next, remembered as one
/// line; with the index of that line.
pub fn joined(view: &str) -> Option<(String, usize)> {
    let lines: Vec<&str> = view.split('\n').collect();
    let at = (0..lines.len().saturating_sub(1)).find(|&i| joinable(lines[i], lines[i + 1]))?;
    let head = lines[at].trim_end();
    let (head, glue) = match head.strip_suffix('\\') {
        Some(h) => (h.trim_end(), " "),
        None if head.ends_with(['(', '[']) => (head, ""),
        None => (head, " "),
    };
    let one = format!("{head}{glue}{}", lines[at + 1].trim());
    let mut out: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    out.splice(at..=at + 1, [one]);
    Some((out.join("\n"), at))
}

/// Passages of two or three lines around lines worth wrapping or joining: each line of
/// at least 40 characters that no `\` ends, or each line the next continues, spread
/// over the file, up to `most`; each `(start, end)` byte span, occurring once.
pub fn passages(text: &str, joining: bool, most: usize) -> Vec<(usize, usize)> {
    let mut starts = vec![0];
    starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    if starts.last() == Some(&text.len()) {
        starts.pop();
    }
    let line = |i: usize| {
        let end = starts.get(i + 1).copied().unwrap_or(text.len());
        text[starts[i]..end].trim_end_matches(['\n', '\r'])
    };
    let total = starts.len();
    let fit: Vec<usize> = (0..total.saturating_sub(1))
        .filter(|&i| {
            let l = line(i);
            if joining {
                joinable(l, line(i + 1))
            } else {
                l.trim().len() >= 40 && !l.trim_end().ends_with('\\') && !continues(l)
            }
        })
        .collect();
    let mut chosen: Vec<(usize, usize)> = Vec::new();
    let mut last_taken = None;
    for k in 0..most.min(fit.len()) {
        let i = fit[k * fit.len() / most.min(fit.len())];
        if last_taken.is_some_and(|t| i <= t + 2) {
            continue;
        }
        let lines = if k % 2 == 0 { 2 } else { 3 };
        let last = (i + lines - 1).min(total - 1);
        let last = (i..=last)
            .rev()
            .find(|&j| !line(j).trim().is_empty())
            .unwrap_or(i);
        let (start, end) = (starts[i], starts[last] + line(last).len());
        if text.matches(&text[start..end]).count() == 1 {
            chosen.push((start, end));
            last_taken = Some(last);
        }
    }
    chosen
}
