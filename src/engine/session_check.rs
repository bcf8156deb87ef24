//! Read-before-write: the session rules of the contract (§6), applied under the file's
//! lock before anything is matched or written.

use crate::refusal::{key, Code, Outcome, Refusal};
use crate::session::{Seen, Unseen};

use crate::engine::{refuse, Context};

/// Which mutation asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    Write,
    Edit,
    /// An undo: it needs no read first, only that nothing was done since the change it
    /// takes back, which it checks against the journal itself.
    Undo,
    /// An edit whose lines are unchanged since the session observed them, in a file that
    /// moved on elsewhere (§6, staleness by region): the whole-file version is not asked.
    EditByRegion,
}

/// Checks the session's record of `real` against what is there now (`actual`: the
/// current sha256, or `None` when the file is missing). Without a session, allows.
pub(super) fn check(
    ctx: &Context,
    shown: &str,
    real: &str,
    actual: Option<&str>,
    op: Mutation,
) -> Outcome<()> {
    let Some(session) = &ctx.session else {
        return Ok(());
    };
    let seen = session
        .seen(&ctx.ws, real)
        .map_err(|e| refuse::path(ctx, shown, e))?;
    let refusal = match (seen, actual) {
        (None, Some(actual)) => Refusal::new(
            Code::NotObserved,
            format!("This session has not read `{shown}`, so it cannot change it"),
        )
        .with(key::PATH, shown)
        .with("session", session.id())
        .with(key::ACTUAL_SHA256, actual),
        (Some(Seen::Present(recorded)), Some(actual))
            if recorded != actual && op != Mutation::EditByRegion =>
        {
            Refusal::new(
                Code::StaleVersion,
                format!("`{shown}` has changed since this session last read it"),
            )
            .with(key::PATH, shown)
            .with(key::EXPECTED_SHA256, recorded)
            .with(key::ACTUAL_SHA256, actual)
        }
        (Some(Seen::Present(recorded)), None) => Refusal::new(
            Code::StaleVersion,
            format!("`{shown}` no longer exists; this session last read it at another version"),
        )
        .with(key::PATH, shown)
        .with(key::EXPECTED_SHA256, recorded),
        (Some(Seen::Absent), Some(actual)) => Refusal::new(
            Code::StaleVersion,
            format!("`{shown}` has appeared since this session saw it absent"),
        )
        .with(key::PATH, shown)
        .with(key::ACTUAL_SHA256, actual),
        (Some(Seen::Absent) | None, None)
            if matches!(op, Mutation::Edit | Mutation::EditByRegion) =>
        {
            return Err(refuse::not_found(ctx, shown)
                .with(key::OPERATION, "edit")
                .into());
        }
        _ => return Ok(()),
    };
    Err(refusal.with("session", session.id()).into())
}

/// One `NOT_OBSERVED` for the files of a change of several files that the session has
/// not read (each `unread` refusal names one): `path` the first, `paths` every one, so
/// that one round of reads lets the change through.
#[cold]
pub(super) fn not_observed_all(unread: &[Refusal]) -> Refusal {
    if let [one] = unread {
        let path = one.detail(key::PATH).cloned().unwrap_or_default();
        return one.clone().with(key::PATHS, vec![path]);
    }
    let paths: Vec<&str> = unread
        .iter()
        .filter_map(|r| r.detail(key::PATH).and_then(serde_json::Value::as_str))
        .collect();
    let quoted: Vec<String> = paths.iter().map(|p| format!("`{p}`")).collect();
    let message = format!(
        "This session has not read {}, so it cannot change them",
        quoted.join(", ")
    );
    let mut refusal = Refusal::new(Code::NotObserved, message)
        .with(key::PATH, paths.first().copied().unwrap_or_default())
        .with(key::PATHS, paths.clone());
    if let Some(session) = unread.first().and_then(|r| r.detail("session")) {
        refusal = refusal.with("session", session.clone());
    }
    refusal
}

/// Whether the session observed exactly this version, which lets a write replace the
/// file without `overwrite`.
pub fn observed(ctx: &Context, real: &str, actual: &str) -> bool {
    ctx.session.as_ref().is_some_and(|session| {
        matches!(session.seen(&ctx.ws, real), Ok(Some(Seen::Present(sha))) if sha == actual)
    })
}

/// Records what a read saw. A failure to record is the call's failure: the caller
/// would otherwise believe the read authorizes a later write.
pub fn note_read(ctx: &Context, shown: &str, real: &str, seen: Seen) -> Outcome<()> {
    note_read_lines(ctx, shown, real, seen, || None)
}

/// [`note_read`], with the line digests of the version read (`lines`, computed only when
/// the ledger is written), which the ledger keeps for staleness by region (§6).
pub fn note_read_lines(
    ctx: &Context,
    shown: &str,
    real: &str,
    seen: Seen,
    lines: impl FnOnce() -> Option<Vec<u64>>,
) -> Outcome<()> {
    let Some(session) = &ctx.session else {
        return Ok(());
    };
    session
        .record_read(&ctx.ws, real, seen, lines, &ctx.wait)
        .map_err(|e| match e {
            crate::session::Error::Lock(e) => refuse::lock(ctx, shown, e),
            crate::session::Error::Workspace(e) => refuse::path(ctx, shown, e),
        })
}

/// Records what a mutation wrote, so edits chain without re-reading. The file is
/// already written, so a failure here cannot undo it: it is reported on stderr, and
/// the session's next mutation of the file fails closed (`NOT_OBSERVED`/`STALE_VERSION`).
pub fn note_written(ctx: &Context, real: &str, sha256: &str) {
    let Some(session) = &ctx.session else { return };
    let seen = Seen::Present(sha256.to_owned());
    if let Err(e) = session.record_written(&ctx.ws, real, (seen, Vec::new()), &ctx.wait) {
        crate::streams::stderr_line(&format!(
            "stitch: could not update the session ledger: {e:?}"
        ));
    }
}

/// Records what an edit by region wrote (`sha256`), with the lines of it the session has
/// not seen in their current form (`unseen`, the other program's changes): a later edit
/// of those lines needs a read first.
pub fn note_written_lines(ctx: &Context, real: &str, sha256: &str, unseen: Vec<(usize, usize)>) {
    let Some(session) = &ctx.session else { return };
    let seen = Seen::Present(sha256.to_owned());
    if let Err(e) = session.record_written(&ctx.ws, real, (seen, unseen), &ctx.wait) {
        crate::streams::stderr_line(&format!(
            "stitch: could not update the session ledger: {e:?}"
        ));
    }
}

/// What the session saw at `real`, with the lines it has not seen in their current form
/// and that version's line digests where the ledger keeps them.
pub fn seen_lines(ctx: &Context, real: &str) -> Option<(String, Unseen, Option<String>)> {
    let session = ctx.session.as_ref()?;
    match session.seen_lines(&ctx.ws, real) {
        Ok(Some((Seen::Present(sha), unseen, lines))) => Some((sha, unseen, lines)),
        _ => None,
    }
}

/// Records that a mutation removed the file at `real` (a delete, the source of a move), as
/// [`note_written`] records a version.
pub fn note_removed(ctx: &Context, real: &str) {
    let Some(session) = &ctx.session else { return };
    if let Err(e) = session.record_written(&ctx.ws, real, (Seen::Absent, Vec::new()), &ctx.wait) {
        crate::streams::stderr_line(&format!(
            "stitch: could not update the session ledger: {e:?}"
        ));
    }
}
