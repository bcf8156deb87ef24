//! The command line as a front end: it turns a parsed command line into [`Settings`] and
//! one JSON object of arguments — from flags, or from stdin — and calls the tool layer.
//! Nothing below this module sees clap's types.

use serde_json::Value;

use super::{stdin, Cli, Command};
use crate::hint::Caller;
use crate::refusal::{key, Code, Failure, Outcome, Refusal};
use crate::tool::registry::{self, ToolSpec};
use crate::tool::{self, Output, Settings};

/// The settings the global options spell.
#[must_use]
pub fn settings(cli: &Cli) -> Settings {
    Settings {
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

/// What the command line will show of the result, where that changes what the tool
/// computes.
#[must_use]
pub fn shape(cli: &Cli) -> tool::Shape {
    tool::Shape {
        diff: cli.format.as_deref() == Some("text") && !cli.command.no_diff(),
        summary: cli.command.search_summary(),
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
        Command::Apply(a) => ("apply", a.json.json),
        Command::Delete(a) => ("delete", a.json.json),
        Command::Move(a) => ("move", a.json.json),
        Command::History(a) => ("history", a.json.json),
        Command::Show(a) => ("show", a.json.json),
        Command::Undo(a) => ("undo", a.json.json),
        Command::Redo(a) => ("undo", a.json.json),
        // `stitch mcp` never comes here: it serves many calls, not one (`crate::mcp`).
        Command::Config(_) | Command::Schema(_) | Command::Mcp(_) | Command::TextEditor(_) => {
            return None
        }
    };
    registry::find(name).map(|tool| (tool, json))
}

/// How the call spells its arguments, and so how hints name them: JSON when they are
/// read from stdin (`--json`, or no tool arguments and stdin not a terminal), flags
/// otherwise.
#[must_use]
pub fn dialect(cli: &Cli, flags_given: bool) -> Caller {
    match tool_of(&cli.command) {
        Some((tool, json_flag)) if reads_stdin(tool, json_flag, flags_given) => Caller::Json,
        _ => Caller::Flags,
    }
}

/// Whether the arguments come from stdin.
fn reads_stdin(tool: &ToolSpec, json_flag: bool, flags_given: bool) -> bool {
    json_flag || (!flags_given && !tool.stdin_only_when_asked && !crate::input::stdin_is_terminal())
}

/// Runs the call the command line asks for (anything but `schema`, which is not a tool
/// call). `flags_given` says whether any tool argument came as a flag.
pub fn call(cli: &Cli, flags_given: bool) -> Outcome<Output> {
    let Some((tool, json_flag)) = tool_of(&cli.command) else {
        // `stitch config check`: the configs, and whether the state can be written.
        let ctx = tool::open(&settings(cli))?;
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
    let ctx = tool::open(&settings(cli))?;
    let limit = tool::arguments_limit(tool, &ctx.limits);
    let arguments = if json_flag {
        stdin::asked(limit)?
    } else if flags_given {
        super::flags::to_json(&cli.command, ctx.limits.max_file_bytes)?
    } else if tool.stdin_only_when_asked || crate::input::stdin_is_terminal() {
        Value::Object(serde_json::Map::new())
    } else {
        stdin::unasked(limit)?
    };
    // `stitch redo` is `undo --redo`, however its arguments came.
    let arguments = match (&cli.command, arguments) {
        (Command::Redo(_), Value::Object(mut map)) => {
            map.insert("redo".into(), Value::Bool(true));
            Value::Object(map)
        }
        (_, arguments) => arguments,
    };
    let tool = several_files(tool, &arguments);
    let arguments = with_session_filter(cli, tool, arguments);
    let outcome = tool::run(&ctx, tool, arguments, shape(cli));
    match outcome {
        Err(Failure::Refused(refusal))
            if refusal.code() == Code::InvalidArgument
                && !reads_stdin(tool, json_flag, flags_given) =>
        {
            // Stdin was not read: flags were given, or it is a terminal.
            let why = if flags_given {
                "because arguments were given as flags"
            } else {
                "because it is a terminal"
            };
            Err(by_flags(refusal, tool, why).into())
        }
        outcome => outcome,
    }
}

/// An `INVALID_ARGUMENT` of a call by flags, in their terms: the allowed list holds the
/// command's arguments, not the tool's fields, and a required argument that is missing
/// is named by its flags, with why stdin was not read (`why`) and how to send JSON.
fn by_flags(refusal: Refusal, tool: &ToolSpec, why: &str) -> Refusal {
    let refusal = match refusal.detail(key::ALLOWED) {
        Some(_) => refusal.with(key::ALLOWED, arguments_of(tool.command)),
        None => refusal,
    };
    if !refusal
        .message()
        .starts_with(&format!("{} needs ", tool.name))
    {
        return refusal;
    }
    let field = refusal
        .detail(key::FIELD)
        .and_then(Value::as_str)
        .unwrap_or_default();
    let flag = match field {
        "oldText" => "--old TEXT or --old-from FILE",
        "newText" => "--new TEXT or --new-from FILE",
        "content" => "--content TEXT or --from FILE",
        "patch" => "--patch TEXT or --from FILE",
        field => Caller::Flags.name(field),
    };
    let also = if why.contains("flags") { " too" } else { "" };
    let message = format!(
        "stitch {} needs {flag}; stdin was not read, {why}: pass {flag}{also}, or pass --json to send every argument as JSON on stdin",
        tool.command
    );
    refusal.reworded(message)
}

/// The tool arguments `stitch <command>` takes, as a person types them: its positionals'
/// value names and its long flags, without the options that shape output or pick the
/// source (`--json`, `--format`, `-l`).
fn arguments_of(command: &str) -> Vec<String> {
    let Some(mut sub) = super::command().find_subcommand(command).cloned() else {
        return Vec::new();
    };
    // The subcommand's arguments are built on demand (`super::deferred`).
    sub.build();
    sub.get_arguments()
        .filter(|a| !super::flags::NOT_TOOL_ARGS.contains(&a.get_id().as_str()))
        .filter_map(|a| match a.get_long() {
            Some("help" | "version") => None,
            Some(long) => Some(format!("--{long}")),
            None if a.is_positional() => a
                .get_value_names()
                .and_then(|names| names.first())
                .map(ToString::to_string),
            None => None,
        })
        .collect()
}

/// `stitch read` reads several files (`read_files`) when its arguments name them: more
/// than one path, or a glob — by flags or by JSON alike.
fn several_files(tool: &'static ToolSpec, arguments: &Value) -> &'static ToolSpec {
    let given = |field| arguments.get(field).is_some_and(|v: &Value| !v.is_null());
    let several = given("paths") || given("glob");
    match registry::find(crate::names::READ_FILES) {
        Some(read_files) if tool.name == crate::names::READ_FILE && several => read_files,
        _ => tool,
    }
}

/// On the command line, `history`'s session filter is the global `--session` (§11).
fn with_session_filter(cli: &Cli, tool: &ToolSpec, mut arguments: Value) -> Value {
    if let (Command::History(_), Some(session), Value::Object(map)) =
        (&cli.command, &cli.session, &mut arguments)
    {
        if !map.contains_key("session") {
            map.insert("session".into(), Value::String(session.clone()));
        }
    }
    let _ = tool;
    arguments
}
