//! The change engine, beside the tools: the steps every mutation runs, in this order,
//! from one function over the tool's typed plan ([`pipeline::run`] and its
//! [`pipeline::Plan`]): locate the targets and refuse protected or forbidden paths, take
//! the files' cross-process locks in one order and locate them again under the locks
//! (`target`); then the tool observes its files and builds its change, whose files pass
//! through one check (the session's record, the version the caller expects, the
//! overwrite and permissions rules: `session_check`, [`stale`]), the authorize hook shown
//! the typed [`payload::Payload`], and the commit — journal, sync, publish and record
//! ([`commit::commit`] over its [`commit::Change`]) — each reached only with the token
//! the step before hands out. The same steps for write, edit, delete, move, undo and
//! apply; the guards themselves are private to [`pipeline`]. The journal ([`journal`]:
//! its entries, recovery and bounds) and undo's planning ([`undo`]) live here too; the
//! tools (`crate::tool`) only convert their requests into changes.

pub mod change;
pub mod commit;
pub mod execute;
pub mod journal;
pub mod kill_hook;
pub mod payload;
pub mod pipeline;
pub mod session_check;
pub mod target;
pub mod undo;

use crate::refusal::{key, Code, Refusal};
use crate::tool::Context;

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
    .with("expectedSha256", expected);
    let actual = ctx
        .ws
        .open_file(location)
        .and_then(|mut file| file.sha256().map_err(crate::workspace::Error::Io));
    if let Ok(actual) = actual {
        refusal = refusal.with("actualSha256", actual);
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
        .with("expectedSha256", expected);
    if let Some(actual) = actual {
        refusal = refusal.with("actualSha256", actual);
    }
    refusal
}
