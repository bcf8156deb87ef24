//! The front end: one parse of the command line into an [`Invocation`], then its one
//! answer — a tool call's envelope, the schemas, an MCP server, the trust dialogue or
//! the text editor's reply.
//!
//! Everything the answer depends on (the output style, the dialect hints are named in,
//! whether the arguments came as flags) is decided here, from clap's matches, once.

use std::ffi::OsString;

use clap::error::ErrorKind;
use clap::FromArgMatches;

use super::usage::{self, Usage};
use super::{Cli, Command, ConfigCommand};
use crate::refusal::{key, Code, Failure, Refusal};
use crate::{envelope, mcp, tool};

/// What a parsed command line asks for.
enum Invocation {
    /// `stitch schema`: the tools' declarations, in one of the hosts' formats.
    Schema {
        tool: Option<String>,
        format: tool::schema::Flavor,
    },
    /// `stitch mcp`: serve the tools until stdin closes.
    Mcp { no_session: bool },
    /// `stitch config trust` (`true`) or `untrust` (`false`).
    Trust(bool),
    /// `stitch text-editor`, answered in text (`true`) or as JSON.
    TextEditor(bool),
    /// A tool call (or `config check`), rendered in `style`; `refused` when the options
    /// contradict each other.
    Tool {
        style: envelope::Style,
        flags_given: bool,
        refused: Option<Refusal>,
    },
}

/// A command line parsed: clap's typed values, and what they ask for.
struct Parsed {
    cli: Cli,
    invocation: Invocation,
}

/// Runs one call of `stitch` and returns its exit status.
#[must_use]
pub fn run(args: &[OsString]) -> u8 {
    let mut command = super::command_for(args);
    let mut matches = match command.try_get_matches_from_mut(args) {
        Ok(matches) => matches,
        Err(error) => return usage::report(error, usage::text_asked(args)),
    };
    let code = match parse(&command, &mut matches) {
        Ok(parsed) => {
            let code = answer(&parsed);
            std::mem::forget(parsed);
            code
        }
        Err(Usage { error, text }) => {
            usage::report(error, text.unwrap_or_else(|| usage::text_asked(args)))
        }
    };
    // The process ends with this call: what it built (clap's command tree above all) is
    // left to the exit rather than freed piece by piece, a tenth of a small call's work.
    std::mem::forget((command, matches));
    code
}

/// Turns clap's matches into the typed command line and what it asks for.
fn parse(command: &clap::Command, matches: &mut clap::ArgMatches) -> Result<Parsed, Usage> {
    // What is asked of where the values came from, before the parse takes the values out
    // of the matches (rather than copying them all).
    let on_command_line =
        |id: &str| matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
    let (session_given, format_given) = (on_command_line("session"), on_command_line("format"));
    let flags_given = matches.subcommand().is_some_and(|(name, sub)| {
        command
            .find_subcommand(name)
            .is_some_and(|spec| super::flags::any_given(spec, sub))
    });
    let mut cli =
        Cli::from_arg_matches_mut(matches).map_err(|error| Usage { error, text: None })?;
    // `auto` (the default): text for a person at a terminal, JSON for a program.
    if matches!(cli.format.as_deref(), None | Some("auto")) {
        let text = envelope::stdout_is_terminal() && !matches!(cli.command, Command::Schema(_));
        cli.format = text.then(|| "text".to_owned());
    }
    let invocation = match &cli.command {
        Command::Schema(args) => Invocation::Schema {
            tool: args.tool.clone(),
            format: cli
                .format
                .as_deref()
                .and_then(tool::schema::Flavor::parse)
                .unwrap_or(tool::schema::Flavor::JsonSchema),
        },
        Command::Mcp(args) => {
            // `--session` is global, so clap cannot hold it against `--no-session` itself;
            // a session from STITCH_SESSION is overridden by the explicit flag.
            if args.no_session && session_given {
                return Err(Usage {
                    error: command.clone().error(
                        ErrorKind::ArgumentConflict,
                        "the argument '--session <ID>' cannot be used with '--no-session'",
                    ),
                    text: Some(false),
                });
            }
            Invocation::Mcp {
                no_session: args.no_session,
            }
        }
        Command::Config(ConfigCommand::Trust) => Invocation::Trust(true),
        Command::Config(ConfigCommand::Untrust) => Invocation::Trust(false),
        _ => {
            // `--null` is text output, as `fd -0` is; only a `--format json` on the same
            // command line contradicts it (STITCH_FORMAT=json is a default the flag
            // overrides).
            let json_asked = cli.format.as_deref() == Some("json") && format_given;
            let text_only = cli.command.shapes_text();
            let style = match cli.format.as_deref() {
                Some("text") => text_style(&cli),
                _ if text_only && !json_asked => text_style(&cli),
                _ => envelope::Style::Json { pretty: cli.pretty },
            };
            if let Command::TextEditor(_) = &cli.command {
                Invocation::TextEditor(matches!(style, envelope::Style::Text(_)))
            } else {
                Invocation::Tool {
                    refused: contradiction(&cli, text_only && json_asked),
                    style,
                    flags_given,
                }
            }
        }
    };
    Ok(Parsed { cli, invocation })
}

/// The refusal of options that contradict each other: text-shaping flags with `--format
/// json`, or a schema format for a tool call.
fn contradiction(cli: &Cli, text_with_json: bool) -> Option<Refusal> {
    if text_with_json {
        let field = match (cli.command.null(), cli.command.search_summary()) {
            (true, _) => "null",
            (false, Some(_)) => "summary",
            (false, None) => "format",
        };
        return Some(
            Refusal::new(
                Code::InvalidArgument,
                "--null, -l, -c, -q, --no-diff and --stat shape text output, so they cannot go with --format json",
            )
            .with(key::FIELD, field),
        );
    }
    let schema = cli.format.as_deref()?;
    tool::schema::Flavor::parse(schema)?;
    Some(
        Refusal::new(
            Code::InvalidArgument,
            format!("--format {schema} applies to `stitch schema` only; tools take json or text"),
        )
        .with(key::FIELD, "format"),
    )
}

/// Answers a parsed command line; returns the exit status.
fn answer(parsed: &Parsed) -> u8 {
    let cli = &parsed.cli;
    match &parsed.invocation {
        Invocation::Schema { tool, format } => {
            let document = tool::schema::document(tool.as_deref(), *format);
            envelope::emit_plain(&serde_json::to_string_pretty(&document).unwrap_or_default());
            0
        }
        Invocation::Mcp { no_session } => mcp::serve(super::settings(cli), *no_session),
        Invocation::Trust(trust) => {
            let settings = super::settings(cli);
            if *trust {
                super::trust::trust(&settings)
            } else {
                super::trust::untrust(&settings)
            }
        }
        Invocation::TextEditor(text) => super::text_editor::answer(cli, *text),
        Invocation::Tool {
            style,
            flags_given,
            refused,
        } => {
            let outcome = match refused {
                Some(refusal) => Err(Failure::Refused(refusal.clone())),
                None => super::call(cli, *flags_given),
            };
            let code = envelope::emit(&outcome, *style, super::dialect(cli, *flags_given));
            std::mem::forget(outcome);
            code
        }
    }
}

/// The text style the command asks for.
fn text_style(cli: &Cli) -> envelope::Style {
    envelope::Style::Text(envelope::Layout {
        null: cli.command.null(),
        summary: cli.command.search_summary(),
        no_diff: cli.command.no_diff(),
        stat: cli.command.stat(),
        color: match cli.color.as_deref() {
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
