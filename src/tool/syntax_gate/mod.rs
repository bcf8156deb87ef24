//! The syntax gate as every mutation that produces text applies it (SPEC §4 "Syntax
//! gate"): each file's result checked against the file as it was, by the mode the policy
//! gives its path; a new break refused (`SYNTAX_ERROR`), or — warn-only, overridden with
//! `allowSyntaxErrors`, or on a dry run — listed in the result's `syntaxErrors`. C and C++
//! errors the preprocessor could explain are listed, never refused; a file the gate could
//! not check (over `maxGateBytes`, or its parse over `maxGateMillis`) is named in
//! `syntaxUnchecked`.

use schemars::JsonSchema;
use serde::Serialize;

use crate::policy::SyntaxMode;
use crate::refusal::{key, Code, Outcome, Refusal};
use crate::syntax::{self, Bounds, Finding, Language, Pass};

use super::Context;

mod ahead;

pub use ahead::Ahead;

/// One file of a change, as the gate is shown it.
#[derive(Debug, Clone, Copy)]
pub struct Gated<'a> {
    /// The path as the caller named it (shown in the refusal and the result).
    pub path: &'a str,
    /// The file as it was; `None` for a new file.
    pub old: Option<&'a [u8]>,
    /// The change's result.
    pub new: &'a [u8],
    /// The change of several that made it (apply), when there are several.
    pub change_index: Option<usize>,
}

/// How the caller asked the gate to act, and the field that carried the text (named in
/// the hint: `newText`, `content`, `patch`, `changes`; none for an undo).
#[derive(Debug, Clone, Copy)]
pub struct Asked {
    pub field: Option<&'static str>,
    /// `allowSyntaxErrors`: apply a breaking change anyway.
    pub allow: bool,
    pub dry_run: bool,
}

/// A syntax error a change left, in a result's `syntaxErrors`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SyntaxReport {
    pub path: String,
    /// The language the file's name says (rust, python, typescript, ...).
    pub language: String,
    /// The first new error's line and column (1-based; the column in characters).
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    /// The line, then a caret under the column.
    pub excerpt: String,
    /// The token the parser needed there, when it can tell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// The text the parser could not place, when it can tell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found: Option<String>,
    /// The change of several that made the file (apply).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_index: Option<usize>,
    /// C and C++: the preprocessor, which the parser does not run, could explain the new
    /// errors (a macro used without a `;`, braces split across `#ifdef` blocks; no bracket
    /// is left unpaired and no quote open), so the change was not refused.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub possible_preprocessor: bool,
}

/// A file of a known language the gate did not check, in a result's `syntaxUnchecked`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Unchecked {
    pub path: String,
    pub language: String,
    /// Why: `tooLarge` (over `limits.maxGateBytes`) or `timeLimit` (its parse took
    /// longer than `limits.maxGateMillis` of CPU time and was cut short).
    pub reason: UncheckedReason,
}

/// Why the gate did not check a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum UncheckedReason {
    TooLarge,
    TimeLimit,
}

/// What the gate says of a change it let through: the errors it lists and the files it
/// did not check.
#[derive(Debug, Default)]
pub struct Caveats {
    pub errors: Vec<SyntaxReport>,
    pub unchecked: Vec<Unchecked>,
}

/// The bounds the gate's parses run under, as the limits in force set them.
fn bounds(ctx: &Context) -> Bounds {
    Bounds {
        max_bytes: ctx.limits.max_gate_bytes,
        max_millis: ctx.limits.max_gate_millis,
    }
}

/// Whether the gate would parse the file at `path`: a language is known for its name
/// and the policy does not turn the gate off there. A tool that must read the file as
/// it was to show it to the gate asks this first.
#[must_use]
pub fn wanted(ctx: &Context, path: &str) -> bool {
    Language::of_path(path).is_some() && ctx.policy.syntax_mode(path) != SyntaxMode::Off
}

/// Checks every file of a change; refuses the first that breaks in refuse mode, unless
/// `asked` allows it or is a dry run, and lists the rest.
pub fn check(ctx: &Context, files: &[Gated<'_>], asked: Asked) -> Outcome<Caveats> {
    check_with(ctx, files, asked, None)
}

/// [`check`], taking the findings of the new files whose parses were begun `ahead`.
pub fn check_with(
    ctx: &Context,
    files: &[Gated<'_>],
    asked: Asked,
    ahead: Option<&Ahead>,
) -> Outcome<Caveats> {
    let modes: Vec<SyntaxMode> = files
        .iter()
        .map(|file| ctx.policy.syntax_mode(file.path))
        .collect();
    let findings = findings(files, &modes, bounds(ctx), ahead);
    let mut caveats = Caveats::default();
    for ((file, mode), finding) in files.iter().zip(modes).zip(findings) {
        let (language, error, possible_preprocessor) = match finding {
            Some(Finding::Broken(language, error)) => (language, error, false),
            Some(Finding::Preprocessor(language, error)) => (language, error, true),
            Some(Finding::Pass(pass @ (Pass::TooLarge | Pass::TimeLimit))) => {
                caveats.unchecked.push(Unchecked {
                    path: file.path.to_owned(),
                    language: Language::of_path(file.path)
                        .map_or("", Language::name)
                        .to_owned(),
                    reason: if pass == Pass::TooLarge {
                        UncheckedReason::TooLarge
                    } else {
                        UncheckedReason::TimeLimit
                    },
                });
                continue;
            }
            _ => continue,
        };
        let report = SyntaxReport {
            path: file.path.to_owned(),
            language: language.name().to_owned(),
            line: error.line,
            column: error.column,
            end_line: error.end_line,
            excerpt: error.excerpt.clone(),
            expected: error.expected.clone(),
            found: error.found.clone(),
            change_index: file.change_index,
            possible_preprocessor,
        };
        if mode == SyntaxMode::Refuse && !possible_preprocessor && !asked.allow && !asked.dry_run {
            let refusal = refusal(&report, &error.what(), file.old.is_none());
            return Err(match asked.field {
                Some(field) => refusal.with(key::FIELD, field),
                None => refusal,
            }
            .into());
        }
        caveats.errors.push(report);
    }
    Ok(caveats)
}

/// From this many bytes of text in a change of several files, the files are parsed
/// side by side: below it, a thread costs more than it saves.
const PARALLEL_BYTES: usize = 64 << 10;

/// The most threads the files of one change are parsed on.
const MAX_THREADS: usize = 8;

/// Each file's finding, in order (`None` where its mode turns the gate off), within
/// `bounds` (each file's time bound is its own thread's CPU time). A parse is work for a
/// core alone, so a change of several files holding enough text is parsed on as many
/// threads as there are cores, each taking the next file as it finishes its last, the
/// likely dearest first; the findings are the same, and a refusal is still the first
/// file's that breaks. A new file whose parse was begun `ahead` is taken from there,
/// once the others are done.
fn findings(
    files: &[Gated<'_>],
    modes: &[SyntaxMode],
    bounds: Bounds,
    ahead: Option<&Ahead>,
) -> Vec<Option<Finding>> {
    let one = |index: usize| {
        let file = &files[index];
        (modes[index] != SyntaxMode::Off)
            .then(|| syntax::check(file.path, file.old, file.new, bounds))
    };
    let begun_ahead = |file: &Gated<'_>| {
        let language = Language::of_path(file.path);
        ahead
            .zip(language)
            .filter(|_| file.old.is_none())
            .filter(|(ahead, language)| ahead.has(*language, file.new))
    };
    let (begun, order): (Vec<usize>, Vec<usize>) = (0..files.len())
        .filter(|&i| modes[i] != SyntaxMode::Off)
        .partition(|&i| begun_ahead(&files[i]).is_some());
    let mut all = on_threads(files, order, &one);
    for index in begun {
        let taken = begun_ahead(&files[index])
            .and_then(|(ahead, language)| ahead.take(language, files[index].new));
        all[index] = taken.or_else(|| one(index));
    }
    all
}

/// The findings of the files `order` names, each by `one`, on as many threads as are
/// worth it; `None` for every other file.
fn on_threads(
    files: &[Gated<'_>],
    mut order: Vec<usize>,
    one: &(impl Fn(usize) -> Option<Finding> + Sync),
) -> Vec<Option<Finding>> {
    let mut all: Vec<Option<Finding>> = (0..files.len()).map(|_| None).collect();
    let bytes: usize = order
        .iter()
        .map(|&i| files[i].new.len() + files[i].old.map_or(0, <[u8]>::len))
        .sum();
    let threads = if order.len() > 1 && bytes >= PARALLEL_BYTES {
        std::thread::available_parallelism()
            .map_or(1, std::num::NonZero::get)
            .min(order.len())
            .min(MAX_THREADS)
    } else {
        1
    };
    if threads <= 1 {
        for index in order {
            all[index] = one(index);
        }
        return all;
    }
    order.sort_by_key(|&i| std::cmp::Reverse(likely_cost(&files[i])));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let share = || {
        let mut found = Vec::new();
        loop {
            let taken = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(&index) = order.get(taken) else {
                return found;
            };
            found.push((index, one(index)));
        }
    };
    std::thread::scope(|scope| {
        let share = &share;
        let others: Vec<_> = (1..threads).map(|_| scope.spawn(share)).collect();
        // This thread parses its share itself rather than wait idle.
        let mut found = share();
        for other in others {
            found.extend(
                other
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
        }
        for (index, finding) in found {
            all[index] = finding;
        }
    });
    all
}

/// About how long `file`'s check takes, in bytes of the cost of reading them: a new file
/// is parsed whole (some fifty times as long a byte as finding the changed lines), a
/// changed one mostly by the regions around its changes after a pass over both texts.
fn likely_cost(file: &Gated<'_>) -> usize {
    match file.old {
        None => file.new.len().saturating_mul(50),
        Some(old) => 100_000 + old.len() + file.new.len(),
    }
}

/// `SYNTAX_ERROR` for the break `report` describes (`what`, in a few words).
#[cold]
fn refusal(report: &SyntaxReport, what: &str, new_file: bool) -> Refusal {
    let SyntaxReport {
        path, line, column, ..
    } = report;
    let message = if new_file {
        format!("`{path}` as written would not parse at line {line}, column {column}: {what}; nothing was changed")
    } else {
        format!("The change would leave `{path}` unparseable at line {line}, column {column}: {what}; nothing was changed")
    };
    let mut refusal = Refusal::new(Code::SyntaxError, message)
        .with(key::PATH, path.as_str())
        .with("language", report.language.as_str())
        .with("line", *line)
        .with("column", *column)
        .with("endLine", report.end_line)
        .with("excerpt", report.excerpt.as_str());
    if let Some(expected) = &report.expected {
        refusal = refusal.with("expected", expected.as_str());
    }
    if let Some(found) = &report.found {
        refusal = refusal.with("found", found.as_str());
    }
    if let Some(index) = report.change_index {
        refusal = refusal.with(key::CHANGE_INDEX, index);
    }
    refusal
}
