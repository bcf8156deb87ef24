//! The change engine, beside the tools: the steps every mutation runs, in this order,
//! from one function over the tool's typed plan ([`pipeline::run`] and its
//! [`pipeline::Plan`]): locate the targets and refuse protected or forbidden paths, take
//! the files' cross-process locks in one order and locate them again under the locks
//! (`target`); then the tool observes its files and builds its change, whose files pass
//! through one check (the session's record, the version the caller expects, the
//! overwrite and permissions rules: `session_check`, [`stale`]), the authorize hook shown
//! the typed [`payload::Payload`], and the commit — journal, sync, publish and record
//! ([`commit::commit`] over its [`change::ChangeSet`], published by [`execute`]) — each reached only with the token
//! the step before hands out. The same steps for write, edit, delete, move, undo and
//! apply; the guards themselves are private to [`pipeline`]. The journal ([`journal`]:
//! its entries, recovery and bounds) and undo's planning ([`undo`]) live here too, with
//! what every step needs: the call's [`Context`], the refusals phrased from the
//! workspace's facts ([`refuse`]) and the policy and authorize hook ([`approve`]). The
//! tools (`crate::tool`) only convert their requests into changes ([`change::ChangeSet`]).

pub(crate) mod approve;
pub mod change;
pub mod commit;
pub mod execute;
pub mod journal;
pub mod kill_hook;
mod near;
pub mod payload;
pub mod pin;
pub mod pipeline;
pub mod recover;
pub(crate) mod refuse;
pub mod revert;
pub mod session_check;
pub mod target;
#[cfg(test)]
pub(crate) mod testing;

use crate::policy::{Limits, Policy};
use crate::refusal::{key, Code, Failure, Refusal};
use crate::session::Session;
use crate::workspace::Workspace;

/// What every tool and every step of the engine may use: the workspace, the lock timeout
/// and the limits, the policy, the session, the journal's key.
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
    /// The journal's key (or why the journal is off), looked up on first use.
    pub journal_key: std::sync::OnceLock<Result<journal::Keyed, String>>,
}

/// Whether `failure` is a file found changed while it was read (`BUSY`, reason
/// `changedWhileRead`): the pipeline builds the change once more from a fresh read.
#[must_use]
pub fn is_changed(failure: &Failure) -> bool {
    matches!(failure, Failure::Refused(r)
        if r.code() == Code::Busy
            && r.detail(key::REASON).and_then(serde_json::Value::as_str)
                == Some(key::CHANGED_WHILE_READ))
}

/// `STALE_VERSION` for a file another program kept changing while the call read or
/// replaced it, when the caller named the version it saw: nothing was written, and the
/// version on disk is not one the call could hold still. `actualSha256` is the digest of
/// what is there now, when it can be had (it may even be the one expected, once the
/// other program is done).
#[cold]
pub fn stale_while_changing(
    ctx: &Context,
    location: &crate::workspace::Location,
    expected: &str,
) -> Refusal {
    let shown = location.shown.as_str();
    let mut refusal = Refusal::new(
        Code::StaleVersion,
        format!("`{shown}` was being changed by another program while stitch read it, so nothing was written"),
    )
    .with(key::PATH, shown)
    .with(key::EXPECTED_SHA256, expected);
    let actual = ctx
        .ws
        .open_file(location)
        .and_then(|mut file| file.sha256().map_err(crate::workspace::Error::Io));
    if let Ok(actual) = actual {
        refusal = refusal.with(key::ACTUAL_SHA256, actual);
    }
    refusal.with(key::REASON, key::CHANGED_WHILE_READ)
}

/// `STALE_VERSION` for a file whose content is not the version the caller saw.
#[cold]
pub fn stale(shown: &str, expected: &str, actual: Option<&str>) -> Refusal {
    let message = match actual {
        Some(_) => format!("`{shown}` has changed: its sha256 is not the expectedSha256"),
        None => format!("`{shown}` does not exist, so it cannot have the expectedSha256"),
    };
    let mut refusal = Refusal::new(Code::StaleVersion, message)
        .with(key::PATH, shown)
        .with(key::EXPECTED_SHA256, expected);
    if let Some(actual) = actual {
        refusal = refusal.with(key::ACTUAL_SHA256, actual);
    }
    refusal
}
