//! stitch: safe, exact file tools over one workspace, one process per call (or, with
//! `stitch mcp`, one server process per MCP connection).
//!
//! [`run`] parses the command line, gathers the tool's arguments (flags or one JSON
//! object on stdin), dispatches to the tool and renders exactly one envelope.

pub mod cli;
mod digest;
mod engine;
mod envelope;
pub mod hint;
mod input;
mod lock;
mod mcp;
mod names;
pub mod patch;
mod pattern;
mod platform;
mod policy;
pub mod refusal;
mod region;
mod session;
mod streams;
pub mod syntax;
pub mod text;
mod tool;
pub mod workspace;

/// The one list of tools: names, schemas, annotations and the refusals each can return,
/// for the generated documentation.
pub use tool::registry;

use std::ffi::OsString;

use clap::error::ErrorKind;
use clap::FromArgMatches;

use crate::refusal::key;
use refusal::{Code, Failure, Refusal};

/// Prepares the process as std's runtime start-up would for what stitch relies on: the
/// standard descriptors open (on `/dev/null` if closed) and SIGPIPE ignored. For a binary
/// whose C `main` is its own (`src/main.rs` on Linux with glibc).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn start() {
    platform::prepare_start();
}

/// Runs one call of `stitch` and returns its exit status.
pub fn run(args: impl IntoIterator<Item = OsString>) -> u8 {
    envelope::on_panic();
    let args: Vec<OsString> = args.into_iter().collect();
    let mut command = cli::command_for(&args);
    let mut matches = match command.try_get_matches_from_mut(&args) {
        Ok(matches) => matches,
        Err(error) => return usage_error(error, text_asked(&args)),
    };
    // What is asked of where the values came from, before the parse takes the values out
    // of the matches (rather than copying them all).
    let on_command_line =
        |id: &str| matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
    let (session_given, format_given) = (on_command_line("session"), on_command_line("format"));
    let flags_given = matches.subcommand().is_some_and(|(name, sub)| {
        command
            .find_subcommand(name)
            .is_some_and(|spec| cli::flags::any_given(spec, sub))
    });
    let mut parsed = match cli::Cli::from_arg_matches_mut(&mut matches) {
        Ok(parsed) => parsed,
        Err(error) => return usage_error(error, text_asked(&args)),
    };
    // `auto` (the default): text for a person at a terminal, JSON for a program.
    if matches!(parsed.format.as_deref(), None | Some("auto")) {
        let text =
            envelope::stdout_is_terminal() && !matches!(parsed.command, cli::Command::Schema(_));
        parsed.format = text.then(|| "text".to_owned());
    }
    let pretty = parsed.pretty;
    if let cli::Command::Schema(args) = &parsed.command {
        let format = parsed
            .format
            .as_deref()
            .and_then(tool::schema::Format::parse)
            .unwrap_or(tool::schema::Format::JsonSchema);
        let document = tool::schema::document(args.tool.as_deref(), format);
        envelope::emit_plain(&serde_json::to_string_pretty(&document).unwrap_or_default());
        return 0;
    }
    if let cli::Command::Mcp(args) = &parsed.command {
        // `--session` is global, so clap cannot hold it against `--no-session` itself; a
        // session from STITCH_SESSION is overridden by the explicit flag.
        if args.no_session && session_given {
            return usage_error(
                command.error(
                    ErrorKind::ArgumentConflict,
                    "the argument '--session <ID>' cannot be used with '--no-session'",
                ),
                false,
            );
        }
        return mcp::serve(cli::settings(&parsed, hint::Dialect::Json), args.no_session);
    }
    if let cli::Command::Config(
        command @ (cli::ConfigCommand::Trust | cli::ConfigCommand::Untrust),
    ) = &parsed.command
    {
        let settings = cli::settings(&parsed, hint::Dialect::Flags);
        return match command {
            cli::ConfigCommand::Trust => cli::trust::trust(&settings),
            _ => cli::trust::untrust(&settings),
        };
    }
    let null = parsed.command.null();
    // `--null` is text output, as `fd -0` is; only a `--format json` on the same command
    // line contradicts it (STITCH_FORMAT=json is a default the flag overrides).
    let json_asked = parsed.format.as_deref() == Some("json") && format_given;
    // `--null`, `-l`, `-c`, `-q`, `--no-diff` and `--stat` shape text output, so they
    // imply it.
    let text_only = null
        || parsed.command.search_summary().is_some()
        || parsed.command.no_diff()
        || parsed.command.stat();
    let style = match parsed.format.as_deref() {
        Some("text") => text_style(&parsed),
        _ if text_only && !json_asked => text_style(&parsed),
        _ => envelope::Style::Json { pretty },
    };
    if let cli::Command::TextEditor(_) = &parsed.command {
        return cli::text_editor::answer(&parsed, matches!(style, envelope::Style::Text(_)));
    }
    let outcome = match parsed.format.as_deref() {
        _ if text_only && json_asked => Err(Failure::Refused(
            Refusal::new(
                Code::InvalidArgument,
                "--null, -l, -c, -q, --no-diff and --stat shape text output, so they cannot go with --format json",
            )
            .with(
                key::FIELD,
                match (null, parsed.command.search_summary()) {
                    (true, _) => "null",
                    (false, Some(_)) => "summary",
                    (false, None) => "format",
                },
            ),
        )),
        Some(schema) if tool::schema::Format::parse(schema).is_some() => Err(Failure::Refused(
            Refusal::new(
                Code::InvalidArgument,
                format!(
                    "--format {schema} applies to `stitch schema` only; tools take json or text"
                ),
            )
            .with(key::FIELD, "format"),
        )),
        _ => cli::call(&parsed, flags_given),
    };
    let code = envelope::emit(&outcome, style, cli::dialect(&parsed, flags_given));
    // The process ends with this call: what it built (clap's command tree above all) is
    // left to the exit rather than freed piece by piece, a tenth of a small call's work.
    std::mem::forget((command, matches, parsed, outcome));
    code
}

/// The text style the command asks for.
fn text_style(parsed: &cli::Cli) -> envelope::Style {
    envelope::Style::Text(envelope::Layout {
        null: parsed.command.null(),
        summary: parsed.command.search_summary(),
        no_diff: parsed.command.no_diff(),
        stat: parsed.command.stat(),
        color: match parsed.color.as_deref() {
            Some("always") => true,
            Some("never") => false,
            // As ripgrep: a terminal, and no NO_COLOR (any non-empty value turns it off).
            _ => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && envelope::stdout_is_terminal()
            }
        },
    })
}

/// Whether a command line that did not parse asked for text: `--format text` (or
/// `STITCH_FORMAT=text`), `--null` or search's `-l`, `-c` and `-q` (which shape text
/// output, so imply it), or the default `auto` with stdout a terminal.
fn text_asked(args: &[OsString]) -> bool {
    let mut format = std::env::var("STITCH_FORMAT").ok();
    let mut text_only = false;
    let mut command: Option<String> = None;
    let mut words = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(word) = words.next() {
        match word.as_ref() {
            "--" => break,
            "--format" => format = words.next().map(std::borrow::Cow::into_owned),
            // The global options that take a value: it is no command.
            "--root" | "--session" | "--lock-timeout" | "--color" => {
                words.next();
            }
            "--null" | "-0" | "--no-diff" => text_only = true,
            "--stat" if command.as_deref() == Some("history") => text_only = true,
            "--files-with-matches" | "--count" | "--quiet"
                if command.as_deref() == Some("search") =>
            {
                text_only = true;
            }
            // `-l`, `-c`, `-q`, alone or among other short flags (`-il`).
            w if command.as_deref() == Some("search") && summary_shorts(w) => text_only = true,
            w => {
                if let Some(value) = w.strip_prefix("--format=") {
                    format = Some(value.to_owned());
                } else if command.is_none() && !w.starts_with('-') {
                    command = Some(w.to_owned());
                }
            }
        }
    }
    match format.as_deref() {
        Some("text") => true,
        Some("json") => false,
        _ => text_only || envelope::stdout_is_terminal(),
    }
}

/// Whether `word` is a cluster of short flags holding search's `-l`, `-c` or `-q`.
fn summary_shorts(word: &str) -> bool {
    word.strip_prefix('-').is_some_and(|flags| {
        !flags.starts_with('-')
            && !flags.is_empty()
            && flags.chars().all(|c| c.is_ascii_alphabetic())
            && flags.contains(['l', 'c', 'q'])
    })
}

/// Help and version print text and exit 0. Bare `stitch` prints the short help on stderr
/// and exits 2. Every other clap error is a tool call that failed as `INVALID_ARGUMENT`:
/// clap's human message (with its "did you mean", naming flags) on stderr, and, in JSON
/// format, the envelope on stdout; in text format nothing on stdout.
fn usage_error(error: clap::Error, text: bool) -> u8 {
    let (error, meant) = by_meaning(error);
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            envelope::emit_plain(error.render().to_string().trim_end());
            0
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand
            if text =>
        {
            envelope::stderr_line(cli::command().render_help().to_string().trim_end());
            2
        }
        _ if text => {
            let error = without_trailing_tip(error);
            envelope::stderr_line(error.render().to_string().trim_end());
            2
        }
        _ => {
            let error = without_trailing_tip(error);
            let rendered = error.render().to_string();
            envelope::stderr_line(rendered.trim_end());
            let first = rendered
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("invalid invocation")
                .trim_start_matches("error: ")
                .trim();
            let mut refusal = Refusal::new(
                Code::InvalidArgument,
                format!("Invalid invocation: {first}"),
            );
            if let Some(clap::error::ContextValue::String(arg)) =
                error.get(clap::error::ContextKind::InvalidArg)
            {
                refusal = refusal.with("argument", arg.as_str());
            }
            if let Some((command, usage)) = meant {
                refusal = refusal
                    .with(key::DID_YOU_MEAN, command)
                    .with(key::USAGE, usage);
            }
            if error.kind() == ErrorKind::MissingSubcommand
                || error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            {
                refusal = refusal.with(
                    "commands",
                    vec![
                        "read",
                        "write",
                        "edit",
                        "list",
                        "glob",
                        "search",
                        "apply",
                        "delete",
                        "move",
                        "history",
                        "undo",
                        "redo",
                        "schema",
                        "config",
                        "mcp",
                        "text-editor",
                    ],
                );
            }
            envelope::emit(
                &Err(Failure::Refused(refusal)),
                envelope::Style::Json { pretty: false },
                hint::Dialect::Flags,
            )
        }
    }
}

/// An unknown subcommand that is another tool's word for one of stitch's (`rm`, `mv`,
/// `cat`) is answered by meaning, not by clap's guess from the spelling (`rename` is not
/// `read`): the tip names the command and how it is called, and the command is returned
/// for the envelope.
fn by_meaning(mut error: clap::Error) -> (clap::Error, Option<(&'static str, &'static str)>) {
    use clap::error::{ContextKind, ContextValue};
    if error.kind() != ErrorKind::InvalidSubcommand {
        return (error, None);
    }
    let meant = match error.get(ContextKind::InvalidSubcommand) {
        Some(ContextValue::String(word)) => cli::aliases::by_meaning(word),
        _ => None,
    };
    if let Some((command, usage)) = meant {
        error.remove(ContextKind::SuggestedSubcommand);
        error.insert(
            ContextKind::Suggested,
            ContextValue::StyledStrs(vec![format!(
                "stitch's command for that is '{command}': {usage}"
            )
            .into()]),
        );
    }
    (error, meant)
}

/// `error` without clap's tip to pass a value that begins with `-` after `--`: every
/// option that takes text, the query and the pattern already take such values as they
/// are, and after `--` the value would be a positional argument instead, so the tip
/// would mislead. (A path that begins with `-` is written `./-name`, as `--help` says.)
fn without_trailing_tip(mut error: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue};
    if let Some(ContextValue::StyledStrs(tips)) = error.remove(ContextKind::Suggested) {
        let kept: Vec<_> = tips
            .into_iter()
            .filter(|tip| !tip.to_string().contains(" as a value, use '"))
            .collect();
        if !kept.is_empty() {
            error.insert(ContextKind::Suggested, ContextValue::StyledStrs(kept));
        }
    }
    error
}
