//! The tools: one module each, with its request type, its result and its `run`.
//!
//! This module gathers a call's arguments (flags or JSON on stdin), opens the
//! workspace and dispatches. Refusals are built here, in the tool layer, from the facts
//! of the request.

mod approve;
pub mod args;
mod edit;
pub mod flags;
mod glob;
mod limits;
mod list;
mod mutation;
mod near;
mod read;
mod refuse;
pub mod schema;
mod search;
mod textfile;
mod walked;
mod write;

use std::time::Duration;

use serde_json::Value;

use crate::cli::{Cli, Command};
use crate::policy::{Limits, Policy};
use crate::refusal::{Code, Outcome, Refusal};
use crate::session::Session;
use crate::workspace::{RootError, Workspace};

/// What every tool may use: the workspace, the lock timeout and the limits.
#[derive(Debug)]
pub struct Context {
    pub ws: Workspace,
    /// How long a mutation waits for another process's lock, and what it says once the
    /// wait is noticeable.
    pub wait: crate::lock::Wait,
    pub limits: Limits,
    /// The session whose read-before-write guards apply, if any.
    pub session: Option<Session>,
    /// What `.stitch/config.json` enforces.
    pub policy: Policy,
}

/// Runs the tool named by the command line.
pub fn call(cli: &Cli, flags_given: bool) -> Outcome {
    let (name, json_flag) = match &cli.command {
        Command::Read(a) => ("read_file", a.json.json),
        Command::Write(a) => ("write_file", a.json.json),
        Command::Edit(a) => ("edit_file", a.json.json),
        Command::List(a) => ("list_directory", a.walk.json.json),
        Command::Glob(a) => ("glob", a.walk.json.json),
        Command::Search(a) => ("search_files", a.walk.json.json),
        Command::Config(_) => return config_check(cli),
        Command::Schema(_) => unreachable!("schema is not a tool call"),
    };
    if json_flag && flags_given {
        return Err(Refusal::new(
            Code::InvalidArgument,
            format!("{name} got both flags and --json; arguments come from exactly one of them"),
        )
        .with("field", "json")
        .into());
    }
    let ctx = context(cli)?;
    let arguments = if json_flag || (!flags_given && !crate::input::stdin_is_terminal()) {
        args::from_stdin(stdin_limit(name, &ctx.limits))?
    } else if flags_given {
        flags::to_json(&cli.command, ctx.limits.max_file_bytes)?
    } else {
        Value::Object(serde_json::Map::new())
    };
    match name {
        "read_file" => read::run(&ctx, arguments),
        "write_file" => write::run(&ctx, arguments),
        "edit_file" => edit::run(&ctx, arguments),
        "list_directory" => list::run(&ctx, arguments),
        "glob" => glob::run(&ctx, arguments),
        _ => search::run(&ctx, arguments),
    }
}

/// The bound on the JSON arguments a tool reads from stdin. A tool that carries no
/// file content needs little; `write_file` and `edit_file` carry up to two texts of up
/// to `maxFileBytes` each (content, or oldText and newText), plus room for the rest.
fn stdin_limit(tool: &str, limits: &Limits) -> u64 {
    const SMALL: u64 = 1 << 20;
    match tool {
        "write_file" | "edit_file" => limits.max_file_bytes.saturating_mul(2) + SMALL,
        _ => SMALL,
    }
}

/// `stitch config check`: the policy the workspace's config enforces.
fn config_check(cli: &Cli) -> Outcome {
    let ctx = context(cli)?;
    let exists = ctx.ws.read_config().ok().flatten().is_some();
    let policy = &ctx.policy;
    Ok(serde_json::json!({
        "path": crate::policy::CONFIG_PATH,
        "exists": exists,
        "deny": policy.deny_patterns,
        "readOnly": policy.read_only_patterns,
        "limits": {
            "maxReadBytes": policy.limits.max_read_bytes,
            "maxFileBytes": policy.limits.max_file_bytes,
            "listLimit": policy.limits.list,
            "globLimit": policy.limits.glob,
            "searchLimit": policy.limits.search,
        },
        "authorize": policy.authorize,
        "authorizeTimeoutSecs": policy.authorize.as_ref().map_or(
            crate::policy::DEFAULT_AUTHORIZE_TIMEOUT.as_secs_f64(),
            |_| policy.authorize_timeout.as_secs_f64(),
        ),
    }))
}

fn context(cli: &Cli) -> Outcome<Context> {
    if !cli.lock_timeout.is_finite() || cli.lock_timeout < 0.0 || cli.lock_timeout > 86_400.0 {
        return Err(Refusal::new(
            Code::InvalidArgument,
            format!(
                "--lock-timeout must be a number of seconds from 0 to 86400, not {}",
                cli.lock_timeout
            ),
        )
        .with("field", "lockTimeout")
        .into());
    }
    let session = match &cli.session {
        None => None,
        Some(id) => Some(Session::new(id).ok_or_else(|| {
            Refusal::new(
                Code::InvalidArgument,
                "A session ID is 1-128 characters of A-Z, a-z, 0-9, `.`, `_` and `-`, and not `.` or `..`",
            )
            .with("field", "session")
        })?),
    };
    let root = match &cli.root {
        Some(root) => root.clone(),
        None => std::path::PathBuf::from("."),
    };
    let ws = match Workspace::open(&root) {
        Ok(ws) => ws,
        Err(RootError::Missing) => {
            return Err(
                Refusal::new(Code::InvalidArgument, "The workspace root does not exist")
                    .with("field", "root")
                    .into(),
            )
        }
        Err(RootError::NotADirectory) => {
            return Err(Refusal::new(
                Code::InvalidArgument,
                "The workspace root is not a directory",
            )
            .with("field", "root")
            .into())
        }
        Err(RootError::Io(e)) => {
            return Err(anyhow::Error::new(e).context("opening the root").into())
        }
    };
    let policy = match ws.read_config() {
        Ok(None) => Policy::default(),
        Ok(Some(bytes)) => crate::policy::parse(&bytes).map_err(|e| approve::invalid_config(&e))?,
        Err(crate::workspace::Error::State { path, problem }) => {
            return Err(refuse::state(&path, problem).into())
        }
        // There is a config but it cannot be read as a file: fail closed, as for a
        // malformed one.
        Err(_) => {
            return Err(approve::invalid_config(&crate::policy::ConfigError {
                field: None,
                reason: "it cannot be read as a regular file inside the workspace".into(),
            })
            .into())
        }
    };
    Ok(Context {
        ws,
        wait: crate::lock::Wait {
            timeout: Duration::from_secs_f64(cli.lock_timeout),
            notice: || {
                crate::envelope::stderr_line(
                    "stitch: waiting for another stitch process to finish with this file",
                );
            },
        },
        limits: policy.limits,
        session,
        policy,
    })
}
