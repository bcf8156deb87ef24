//! The text style, for people at a terminal and for pipelines: read content as it is
//! (optionally numbered), results as short lines (or NUL-terminated names with `--null`),
//! refusals on stderr as `error[CODE]: message`, the facts the hint refers to, and the
//! hint. The exit status is the envelope's, except that a `search` that matched nothing
//! exits 1, as grep and ripgrep do (a `glob` or `list` that found nothing exits 0, as fd
//! and find do). Results are rendered from their types: each
//! tool's result has its own shape.

mod config;
mod history;
mod reads;
mod refusal;

use std::fmt::Write as _;

use serde_json::Value;

use super::{stderr_line, write_raw, EXIT_REFUSED};
use crate::streams::quote;
use crate::tool::output::{Match, Output, SearchResult};

/// How results are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// End each name with NUL instead of a newline (`list`, `glob`, `search`).
    pub null: bool,
    /// A search's matches summed up instead of printed (`-l`, `-c`, `-q`).
    pub summary: Option<Summary>,
    /// Colour diffs and search results (a terminal, or `--color always`).
    pub color: bool,
    /// A mutation's summary line alone, without its diff (`--no-diff`).
    pub no_diff: bool,
    /// `history --stat`: each file of a change on a line of its own.
    pub stat: bool,
}

/// How a diff is written: quoted and coloured as the layout asks, or left out.
type ShowDiff<'a> = &'a dyn Fn(&mut String, &str);

/// `, change ID` after a summary line, for a change the journal holds.
fn change(id: Option<&str>) -> String {
    id.map(|id| format!(", change {id}")).unwrap_or_default()
}

/// `, by change ID` after an "already applied" line, when the journal holds the change
/// that applied it.
fn by_change(id: Option<&str>) -> String {
    id.map(|id| format!(", by change {id}")).unwrap_or_default()
}

/// ANSI colours, as git and ripgrep use them.
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const CYAN: &str = "\x1b[36m";
const MAGENTA: &str = "\x1b[35m";
/// A match within a line, as rg shows it.
const BOLD_RED: &str = "\x1b[1;31m";
/// A directory, as ls (`di=01;34`) and fd show it.
const BOLD_BLUE: &str = "\x1b[1;34m";
/// A symbolic link, as ls (`ln=01;36`) and fd show it.
const BOLD_CYAN: &str = "\x1b[1;36m";
const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

/// The syntax errors a change left (warn-only, overridden, a dry run, or what the C
/// preprocessor could explain): each file's first, with its line and a caret under the error;
/// then the files the gate did not check.
pub(super) fn syntax_errors(
    out: &mut String,
    (errors, unchecked): (
        &[crate::tool::output::SyntaxReport],
        &[crate::tool::output::Unchecked],
    ),
    q: quote::Quote,
) {
    for e in errors {
        let what = match (&e.expected, &e.found) {
            (Some(expected), _) => format!("missing {expected:?}"),
            (None, Some(found)) => format!("unexpected {found:?}"),
            (None, None) => "a syntax error".to_owned(),
        };
        let _ = writeln!(
            out,
            "syntax error: {} ({}) line {}, column {}: {what}",
            q.name(&e.path),
            e.language,
            e.line,
            e.column
        );
        for text in e.excerpt.lines() {
            let _ = writeln!(out, "  {}", q.text(text));
        }
        if e.possible_preprocessor {
            let _ = writeln!(
                out,
                "  (not refused: the C preprocessor could explain it, and no bracket or quote is left open)"
            );
        }
    }
    for u in unchecked {
        let why = match u.reason {
            crate::tool::output::UncheckedReason::TooLarge => "over limits.maxGateBytes",
            crate::tool::output::UncheckedReason::TimeLimit => {
                "its parse took longer than limits.maxGateMillis"
            }
        };
        let _ = writeln!(
            out,
            "syntax not checked: {} ({}): {why}",
            q.name(&u.path),
            u.language
        );
    }
}

/// An edit: its diff (coloured at a terminal), then what happened.
fn edited(out: &mut String, e: &crate::tool::output::EditResult, q: quote::Quote, diff: ShowDiff) {
    diff(out, &e.diff);
    let path = q.name(&e.path);
    if e.already_applied {
        let by = by_change(e.applied_by.as_deref());
        let _ = writeln!(out, "already applied {path}: unchanged{by}");
    } else {
        let verb = if e.applied { "edited" } else { "would edit" };
        let id = change(e.id.as_deref());
        let _ = writeln!(out, "{verb} {path}: {} replacement(s){id}", e.replacements);
    }
    if !e.skipped_edits.is_empty() {
        let skipped: Vec<String> = e.skipped_edits.iter().map(ToString::to_string).collect();
        let _ = writeln!(out, "already applied: edits[{}]", skipped.join(", "));
    }
    syntax_errors(out, (&e.syntax_errors, &e.syntax_unchecked), q);
}

/// A write: its diff (in text only), then what happened.
fn written(
    out: &mut String,
    w: &crate::tool::output::WriteResult,
    q: quote::Quote,
    diff: ShowDiff,
) {
    if let Some(text) = w.diff.as_deref().filter(|_| !w.unchanged) {
        diff(out, text);
    }
    let verb = match (w.applied, w.created) {
        _ if w.unchanged => "unchanged",
        (true, true) => "created",
        (true, false) => "replaced",
        (false, true) => "would create",
        (false, false) => "would replace",
    };
    let _ = writeln!(
        out,
        "{verb} {} ({} bytes){}",
        q.name(&w.path),
        w.bytes,
        change(w.id.as_deref())
    );
    syntax_errors(out, (&w.syntax_errors, &w.syntax_unchecked), q);
}

/// A patch applied: each file's diff (coloured at a terminal), then what happened.
fn patched(
    out: &mut String,
    a: &crate::tool::output::ApplyResult,
    q: quote::Quote,
    diff: ShowDiff,
) {
    for one in &a.changes {
        diff(out, &one.diff);
    }
    if a.already_applied {
        let by = by_change(a.applied_by.as_deref());
        let _ = writeln!(out, "already applied ({} patch){by}", a.dialect);
        return;
    }
    let verb = if a.applied { "applied" } else { "would apply" };
    let _ = writeln!(
        out,
        "{verb}: {} file(s) ({} patch){}",
        a.changes.len(),
        a.dialect,
        change(a.id.as_deref())
    );
    syntax_errors(out, (&a.syntax_errors, &a.syntax_unchecked), q);
}

/// A diff as a person sees it: its control characters quoted at a terminal, then
/// coloured when `color` asks.
fn shown_diff(out: &mut String, diff: &str, q: quote::Quote, color: bool) {
    let diff = q.text(diff);
    if color {
        painted_diff(out, &diff);
    } else {
        out.push_str(&diff);
    }
}

/// A unified diff with its lines coloured as git colours them.
fn painted_diff(out: &mut String, diff: &str) {
    for line in diff.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let colour = if body.starts_with("+++") || body.starts_with("---") {
            BOLD
        } else if body.starts_with('+') {
            GREEN
        } else if body.starts_with('-') {
            RED
        } else if body.starts_with("@@") {
            CYAN
        } else {
            ""
        };
        if colour.is_empty() {
            out.push_str(line);
        } else {
            let _ = write!(out, "{colour}{body}{RESET}{}", &line[body.len()..]);
        }
    }
}

use crate::tool::Summary;

/// `name` as a line on stderr may show it: quoted as text output quotes names when
/// stderr is a terminal (so a planted escape sequence never reaches it raw), as it is
/// through a pipe.
#[must_use]
pub fn stderr_name(name: &str) -> std::borrow::Cow<'_, str> {
    quote::Quote {
        terminal: super::is_terminal(&std::io::stderr()),
    }
    .name(name)
}

/// Shows one call as text: `output` when it succeeded, else the refusal in `envelope`.
/// Returns the exit status: the envelope's `status`, or 1 when a search matched nothing.
/// A refusal's facts are labelled as the caller spelled the call (`dialect`).
pub fn emit(
    output: Option<&Output>,
    envelope: &Value,
    status: u8,
    layout: Layout,
    dialect: crate::hint::Caller,
) -> u8 {
    let Some(output) = output else {
        // A refusal's control characters are quoted when stderr is a terminal.
        let quote = quote::Quote {
            terminal: super::is_terminal(&std::io::stderr()),
        };
        stderr_line(
            quote
                .text(refusal::render(envelope, dialect).trim_end_matches('\n'))
                .as_ref(),
        );
        return status;
    };
    let (text, footer) = result(output, layout, dialect);
    write_raw(text.as_bytes());
    // What follows the result (more to read, a cut by the limit) comes after it.
    for line in footer {
        stderr_line(&line);
    }
    // A success's hint (a change that landed by region) follows, as a note.
    if let Some(hint) = envelope["_hint"].as_str() {
        stderr_line(&format!("note: {hint}"));
    }
    match output {
        Output::Search(s) if s.matches.is_empty() => EXIT_REFUSED,
        // As `cat` and `head`: a file that could not be read makes the status 1.
        Output::ReadFiles(r) if r.refused() > 0 => EXIT_REFUSED,
        _ => status,
    }
}

/// The text of a successful result, and the lines that follow it on stderr.
fn result(output: &Output, layout: Layout, dialect: crate::hint::Caller) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut footer = Vec::new();
    // The name's end: NUL, or a newline.
    let end = if layout.null { '\0' } else { '\n' };
    // Names and text are quoted when stdout is a terminal, never with `--null`, which
    // asks for the exact bytes.
    let q = quote::Quote {
        terminal: !layout.null && super::stdout_is_terminal(),
    };
    let diff = |out: &mut String, diff: &str| {
        if !layout.no_diff {
            shown_diff(out, diff, q, layout.color);
        }
    };
    let cut = match output {
        Output::Read(_) | Output::Media(_) | Output::ReadFiles(_) => {
            reads::result(&mut out, &mut footer, output, q, dialect);
            None
        }
        Output::Edit(e) => {
            edited(&mut out, e, q, &diff);
            None
        }
        Output::Write(w) => {
            written(&mut out, w, q, &diff);
            None
        }
        Output::List(l) => {
            for entry in &l.entries {
                listed(&mut out, &entry.path, entry.kind, layout, q);
            }
            l.truncated
                .then_some((l.entries.len(), ("entry", "entries")))
        }
        Output::Glob(g) => {
            for path in &g.matches {
                let _ = write!(out, "{}{end}", q.name(path));
            }
            g.truncated
                .then_some((g.matches.len(), ("match", "matches")))
        }
        Output::Search(s) => {
            searched(&mut out, &mut footer, s, layout, q);
            s.truncated
                .then_some((s.matches.len(), ("match", "matches")))
        }
        Output::Apply(a) => {
            patched(&mut out, a, q, &diff);
            None
        }
        Output::Delete(_)
        | Output::Move(_)
        | Output::History(_)
        | Output::Show(_)
        | Output::Undo(_) => {
            changes(&mut out, output, layout, q, &diff);
            None
        }
        Output::Config(report) => {
            config::report(&mut out, report, q);
            None
        }
    };
    if let Some((shown, what)) = cut {
        let what = if shown == 1 { what.0 } else { what.1 };
        footer.push(format!(
            "stitch: the limit cut the result after {shown} {what}; raise --limit (or narrow \
             the call) to see the rest"
        ));
    }
    (out, footer)
}

/// A result about changes (a delete, a move, the history, a change shown or undone) to
/// `out`, its diff written by `diff` — but a change shown, which is its diff whole:
/// `--no-diff` is not one of its options.
fn changes(out: &mut String, output: &Output, layout: Layout, q: quote::Quote, diff: ShowDiff<'_>) {
    let whole = |out: &mut String, diff: &str| shown_diff(out, diff, q, layout.color);
    let show: ShowDiff = if matches!(output, Output::Show(_)) {
        &whole
    } else {
        diff
    };
    history::result(out, output, q, layout.stat, show);
}

/// A search's matches as `rg` prints them, or summed up (`-l`, `-c`, `-q`), to `out`; a
/// summary's files that a bound passed over are said once, in `footer`.
fn searched(
    out: &mut String,
    footer: &mut Vec<String>,
    s: &SearchResult,
    layout: Layout,
    q: quote::Quote,
) {
    match layout.summary {
        None => {
            for m in &s.matches {
                search_lines(out, m, layout.null, q, layout.color);
            }
        }
        Some(Summary::Quiet) => {}
        Some(summary) => summed(out, &s.matches, summary, layout.null, q),
    }
    // -l and -c take every file; one that a bound passed over is said once.
    if matches!(layout.summary, Some(Summary::Files | Summary::Count)) && s.skipped_large > 0 {
        footer.push(format!(
            "stitch: {} file(s) over the workspace's maxFileBytes were not searched",
            s.skipped_large
        ));
    }
}

/// A search's matches summed up: each path with a match once (`-l`), with its count of
/// matching lines (`-c`: the match's own `count`, which the search sets for every line of
/// the file, else one a match), in the order of their first match.
fn summed(out: &mut String, matches: &[Match], summary: Summary, null: bool, q: quote::Quote) {
    let mut seen: Vec<(&str, u64)> = Vec::new();
    for m in matches {
        let n = m.count.unwrap_or(1);
        match seen.iter_mut().find(|(p, _)| *p == m.path) {
            Some((_, seen)) => *seen += n,
            None => seen.push((&m.path, n)),
        }
    }
    for (path, n) in seen {
        let path = q.name(path);
        match (summary, null) {
            (Summary::Count, false) => {
                let _ = writeln!(out, "{path}:{n}");
            }
            (Summary::Count, true) => {
                let _ = writeln!(out, "{path}\0{n}");
            }
            (_, false) => {
                let _ = writeln!(out, "{path}");
            }
            (_, true) => {
                let _ = write!(out, "{path}\0");
            }
        }
    }
}

/// `path:line:text`, with context lines as `path-line-text`, as grep prints them; a path
/// alone in path mode. With `null`, as `rg --null`: NUL takes the place of the separator
/// after the path (`path\0line:text`), and ends a path printed alone.
fn search_lines(out: &mut String, m: &Match, null: bool, q: quote::Quote, color: bool) {
    let name = q.name(&m.path);
    let (Some(line), Some(text)) = (m.line, m.text.as_deref()) else {
        let end = if null { '\0' } else { '\n' };
        let _ = write!(out, "{name}{end}");
        return;
    };
    // As ripgrep colours them: the path magenta, the line number green.
    let path = if color {
        format!("{MAGENTA}{name}{RESET}")
    } else {
        name.into_owned()
    };
    let number = |n: u64| {
        if color {
            format!("{GREEN}{n}{RESET}")
        } else {
            n.to_string()
        }
    };
    let (hit, near) = if null { ("\0", "\0") } else { (":", "-") };
    let before = m.before.as_deref().unwrap_or_default();
    for (i, text) in before.iter().enumerate() {
        let n = line - (before.len() - i) as u64;
        let _ = writeln!(out, "{path}{near}{}-{}", number(n), q.text(text));
    }
    let text = if color {
        highlighted(text, &m.spans, q)
    } else {
        q.text(text).into_owned()
    };
    let _ = writeln!(out, "{path}{hit}{}:{text}", number(line));
    for (i, text) in m.after.as_deref().unwrap_or_default().iter().enumerate() {
        let _ = writeln!(
            out,
            "{path}{near}{}-{}",
            number(line + 1 + i as u64),
            q.text(text)
        );
    }
}

/// A matching line with each match in bold red, as rg shows it; each piece quoted on its
/// own, so the escapes of a control character never split a colour.
fn highlighted(text: &str, spans: &[(usize, usize)], q: quote::Quote) -> String {
    let mut shown = String::with_capacity(text.len() + spans.len() * 12);
    let mut at = 0;
    for &(start, end) in spans {
        if start < at || end > text.len() {
            continue;
        }
        shown.push_str(&q.text(&text[at..start]));
        let _ = write!(shown, "{BOLD_RED}{}{RESET}", q.text(&text[start..end]));
        at = end;
    }
    shown.push_str(&q.text(&text[at..]));
    shown
}

/// One entry of a `list`: its name, a kind mark for people (`/`, `@`) coloured as ls and
/// fd colour directories and links; with `--null`, the exact name for programs.
fn listed(out: &mut String, path: &str, kind: &str, layout: Layout, q: quote::Quote) {
    let name = q.name(path);
    if layout.null {
        let _ = write!(out, "{name}\0");
        return;
    }
    let (mark, colour) = match kind {
        "directory" => ("/", BOLD_BLUE),
        "symlink" => ("@", BOLD_CYAN),
        _ => ("", ""),
    };
    if layout.color && !colour.is_empty() {
        let _ = writeln!(out, "{colour}{name}{RESET}{mark}");
    } else {
        let _ = writeln!(out, "{name}{mark}");
    }
}
