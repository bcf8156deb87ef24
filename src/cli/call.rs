//! The command line as a front end: it turns a parsed command line into [`Settings`] and
//! one JSON object of arguments — from flags, or from stdin — and calls the tool layer.
//! Nothing below this module sees clap's types.

use serde_json::Value;

use super::{stdin, Cli, Command};
use crate::hint::Dialect;
use crate::refusal::{key, Code, Outcome, Refusal};
use crate::tool::registry::{self, ToolSpec};
use crate::tool::{self, Output, Settings};

/// The settings the global options spell, for a call in `dialect`.
#[must_use]
pub fn settings(cli: &Cli, dialect: Dialect) -> Settings {
    Settings {
        dialect,
        root: cli.root.clone(),
        session: cli.session.clone(),
        lock_timeout: cli.lock_timeout,
        notice: || {
            crate::envelope::stderr_line(
                "stitch: waiting for another stitch process to finish with this file",
            );
        },
        cancel: None,
    }
}

/// The tool a subcommand names, and whether `--json` was given.
fn tool_of(command: &Command) -> Option<(&'static ToolSpec, bool)> {
    let (name, json) = match command {
        Command::Read(a) => ("read", a.json.json),
        Command::Write(a) => ("write", a.json.json),
        Command::Edit(a) => ("edit", a.json.json),
        Command::List(a) => ("list", a.walk.json.json),
        Command::Glob(a) => ("glob", a.walk.json.json),
        Command::Search(a) => ("search", a.walk.json.json),
        // `stitch mcp` never comes here: it serves many calls, not one (`crate::mcp`).
        Command::Config(_) | Command::Schema(_) | Command::Mcp(_) => return None,
    };
    registry::find(name).map(|tool| (tool, json))
}

/// How the call spells its arguments, and so how hints name them: JSON when they are
/// read from stdin (`--json`, or no tool arguments and stdin not a terminal), flags
/// otherwise.
#[must_use]
pub fn dialect(cli: &Cli, flags_given: bool) -> Dialect {
    match tool_of(&cli.command) {
        Some((_, json_flag)) if reads_stdin(json_flag, flags_given) => Dialect::Json,
        _ => Dialect::Flags,
    }
}

/// Whether the arguments come from stdin.
fn reads_stdin(json_flag: bool, flags_given: bool) -> bool {
    json_flag || (!flags_given && !crate::input::stdin_is_terminal())
}

/// Runs the call the command line asks for (anything but `schema`, which is not a tool
/// call). `flags_given` says whether any tool argument came as a flag.
pub fn call(cli: &Cli, flags_given: bool) -> Outcome<Output> {
    let Some((tool, json_flag)) = tool_of(&cli.command) else {
        // `stitch config check`: the configs, and whether the state can be written.
        let ctx = tool::open(&settings(cli, Dialect::Flags))?;
        tool::probe_state(&ctx)?;
        return Ok(tool::config_check(&ctx));
    };
    if json_flag && flags_given {
        return Err(Refusal::new(
            Code::InvalidArgument,
            format!(
                "{} got both flags and --json; arguments come from exactly one of them",
                tool.name
            ),
        )
        .with(key::FIELD, "json")
        .into());
    }
    let ctx = tool::open(&settings(cli, dialect(cli, flags_given)))?;
    let limit = tool::arguments_limit(tool, &ctx.limits);
    let arguments = if json_flag {
        stdin::read(limit)?
    } else if flags_given {
        super::flags::to_json(&cli.command, ctx.limits.max_file_bytes)?
    } else if crate::input::stdin_is_terminal() {
        Value::Object(serde_json::Map::new())
    } else {
        stdin::unasked(limit)?
    };
    tool::run(&ctx, tool, arguments)
}
