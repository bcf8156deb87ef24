//! The tool layer: the tools (one module each, listed in [`registry`]) and what tools
//! share (arguments, refusals, walks); the steps every mutation runs are the engine's
//! (`crate::engine`).
//!
//! A front end (the command line, or the MCP server) turns its input into [`Settings`] and one JSON
//! object of arguments, [`open`]s a [`Context`] and calls [`run`]; nothing here knows how
//! the call arrived. Refusals are built here, from the facts of the request; lower layers
//! state facts only.

mod apply;
pub mod args;
pub mod config_check;
mod count_limit;
mod delete;
mod derived;
mod edit;
mod glob;
mod history;
mod list;
pub mod media;
mod move_file;
pub mod output;
mod read;
pub mod read_files;
pub mod registry;
pub mod schema;
mod search;
mod show;
mod syntax_gate;
pub(crate) mod textfile;
mod undo;
mod walked;
mod write;

use std::time::Duration;

use serde_json::Value;

pub(crate) use crate::engine::{approve, refuse};
pub use crate::engine::{pin, Context};
pub use output::Output;
pub use search::Summary;

use crate::policy::Limits;

use crate::refusal::{key, Code, Outcome, Refusal};
use crate::session::Session;
use crate::workspace::{RootError, Workspace};

/// What a front end hands the tool layer besides the arguments: plain settings, no
/// parser types.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The workspace root; `None` for the current directory.
    pub root: Option<std::path::PathBuf>,
    /// The session whose read-before-write guards apply, if any (not yet validated).
    pub session: Option<String>,
    /// Seconds a mutation waits for another process's lock before `BUSY`.
    pub lock_timeout: f64,
    /// Called once a wait for a lock becomes noticeable, so it is never silent.
    pub notice: fn(),
    /// Withdraws the call while it waits for a lock, for a front end whose caller can
    /// cancel (MCP); `None` on the command line.
    pub cancel: Option<crate::lock::Cancel>,
}

/// What the front end will show of a result, where that changes what a tool computes:
/// the caller's own arguments never set it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shape {
    /// The result is shown to a person as text, so a write's diff is worth computing
    /// (JSON callers never pay for it).
    pub diff: bool,
    /// How a search is summed up (`-l`, `-c`, `-q`), on the command line only.
    pub summary: Option<Summary>,
}

/// Runs `tool` with one JSON object of arguments. A change a process that died left
/// unfinished is finished first, whatever the tool (§12); then a mutation under a
/// workspace config that asks for an approval nobody has trusted is refused before
/// anything else. `shape` is what the front end will show of the result.
pub fn run(
    ctx: &Context,
    tool: &registry::ToolSpec,
    arguments: Value,
    shape: Shape,
) -> Outcome<Output> {
    crate::engine::recover::recover(ctx);
    if ctx.policy.untrusted_hook && !tool.annotations.read_only {
        return Err(approve::untrusted().into());
    }
    (tool.run)(ctx, args::object(arguments)?, shape)
}

/// The bound on the JSON arguments a front end reads for `tool`. A tool that carries no
/// file content needs little; `write_file` and `edit_file` carry up to two texts of up
/// to `maxFileBytes` each (content, or oldText and newText), plus room for the rest.
#[must_use]
pub fn arguments_limit(tool: &registry::ToolSpec, limits: &Limits) -> u64 {
    const SMALL: u64 = 1 << 20;
    if tool.carries_content {
        limits.max_file_bytes.saturating_mul(2) + SMALL
    } else {
        SMALL
    }
}

pub use approve::{probe_state, user_limits};
pub use config_check::config_check;

/// Opens the workspace and its policy under `settings`: the context every tool runs in.
pub fn open(settings: &Settings) -> Outcome<Context> {
    checked(settings)?;
    open_in(open_root(settings)?, settings)
}

/// Opens the root `settings` name, once: a front end that serves many calls (MCP) keeps
/// it and hands each call a clone to [`open_in`], so the root stays the directory opened
/// at start.
pub fn open_root(settings: &Settings) -> Outcome<Workspace> {
    let root = settings
        .root
        .clone()
        .unwrap_or_else(|| std::path::PathBuf::from("."));
    match Workspace::open(&root) {
        Ok(ws) => Ok(ws),
        Err(RootError::Missing) => Err(Refusal::new(
            Code::InvalidArgument,
            "The workspace root does not exist",
        )
        .with(key::FIELD, "root")
        .into()),
        Err(RootError::NotADirectory) => Err(Refusal::new(
            Code::InvalidArgument,
            "The workspace root is not a directory",
        )
        .with(key::FIELD, "root")
        .into()),
        Err(RootError::Io(e)) => Err(anyhow::Error::new(e).context("opening the root").into()),
    }
}

/// The lock timeout and the session ID `settings` carry, checked.
fn checked(settings: &Settings) -> Outcome<(Duration, Option<Session>)> {
    let lock_timeout = settings.lock_timeout;
    if !lock_timeout.is_finite() || !(0.0..=86_400.0).contains(&lock_timeout) {
        return Err(Refusal::new(
            Code::InvalidArgument,
            format!(
                "--lock-timeout must be a number of seconds from 0 to 86400, not {lock_timeout}"
            ),
        )
        .with(key::FIELD, "lockTimeout")
        .into());
    }
    let session = match &settings.session {
        None => None,
        Some(id) => Some(Session::new(id).ok_or_else(|| {
            Refusal::new(
                Code::InvalidArgument,
                "A session ID is 1-128 characters of A-Z, a-z, 0-9, `.`, `_` and `-`, and not `.` or `..`",
            )
            .with(key::FIELD, "session")
        })?),
    };
    Ok((Duration::from_secs_f64(lock_timeout), session))
}

/// The context of one call in the workspace `ws`, under `settings`: its policy read now,
/// from the user's config and the workspace's.
pub fn open_in(ws: Workspace, settings: &Settings) -> Outcome<Context> {
    let (timeout, session) = checked(settings)?;
    let policy = approve::policy(&ws)?;
    Ok(Context {
        ws,
        wait: crate::lock::Wait {
            timeout,
            notice: settings.notice,
            cancel: settings.cancel.clone(),
        },
        limits: policy.limits,
        session,
        policy,
        journal_key: std::sync::OnceLock::new(),
    })
}
