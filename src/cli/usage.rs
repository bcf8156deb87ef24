//! A command line that did not parse: help and version, or `INVALID_ARGUMENT` with
//! clap's message — on stderr, and as the envelope when JSON was asked for.
//!
//! Whether text was asked is read from clap's own tree ([`text_asked`]), parsed again
//! leniently, so no second scanner of the command line can disagree with the first.

use std::ffi::OsString;

use clap::error::ErrorKind;
use clap::FromArgMatches;

use super::Cli;
use crate::refusal::{key, Code, Failure, Refusal};
use crate::{envelope, hint};

/// A command line refused before any tool runs, and whether it asked for text (`None`:
/// as [`text_asked`] tells).
pub struct Usage {
    pub error: clap::Error,
    pub text: Option<bool>,
}

/// Whether a command line that did not parse asked for text: `--format text` (or
/// `STITCH_FORMAT=text`), an option that shapes text output (`--null`, `--no-diff`,
/// `history --stat`, search's `-l`, `-c` and `-q`), or the default `auto` with stdout a
/// terminal. The command line is parsed again by the same tree, errors ignored, so every
/// option is read as clap reads it (clusters such as `-il`, `--format=text`, values that
/// look like options).
#[must_use]
pub fn text_asked(args: &[OsString]) -> bool {
    let lenient = super::command_for(args)
        .ignore_errors(true)
        .try_get_matches_from(args);
    let (format, text_only) = match &lenient {
        Ok(matches) => (
            matches.get_one::<String>("format").cloned(),
            Cli::from_arg_matches(matches).is_ok_and(|cli| cli.command.shapes_text()),
        ),
        Err(_) => (std::env::var("STITCH_FORMAT").ok(), false),
    };
    std::mem::forget(lenient);
    match format.as_deref() {
        Some("text") => true,
        Some("json") => false,
        _ => text_only || envelope::stdout_is_terminal(),
    }
}

/// The subcommands, in the order `--help` lists them.
fn commands() -> Vec<String> {
    super::command()
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_owned())
        .collect()
}

/// Help and version print text and exit 0. Bare `stitch` prints the short help on stderr
/// and exits 2. Every other clap error is a tool call that failed as `INVALID_ARGUMENT`:
/// clap's human message (with its "did you mean", naming flags) on stderr, and, in JSON
/// format, the envelope on stdout; in text format nothing on stdout.
pub fn report(error: clap::Error, text: bool) -> u8 {
    let (error, meant) = by_meaning(error);
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            envelope::emit_plain(error.render().to_string().trim_end());
            0
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand
            if text =>
        {
            envelope::stderr_line(super::command().render_help().to_string().trim_end());
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
            let no_command = matches!(
                error.kind(),
                ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            );
            // With no command, clap renders the whole help, whose first line is the about.
            let first = if no_command {
                "a command is required"
            } else {
                rendered
                    .lines()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("invalid invocation")
                    .trim_start_matches("error: ")
                    .trim()
            };
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
            if no_command {
                refusal = refusal.with("commands", commands());
            }
            envelope::emit(
                &Err(Failure::Refused(refusal)),
                envelope::Style::Json { pretty: false },
                hint::Caller::Flags,
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
        Some(ContextValue::String(word)) => super::aliases::by_meaning(word),
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
