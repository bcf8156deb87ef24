//! The one path every mutation takes, from its typed plan to its journal entry: write,
//! edit, delete, move, undo and apply are each a [`Plan`], and [`run`] takes every one
//! through the same steps in the same order.
//!
//! [`run`] resolves the plan's paths, refuses protected or forbidden ones, locks them in
//! one order and resolves them again under the locks; then the tool observes its files
//! and builds its change, calling back for the steps that follow, each of which hands
//! out the token the next one needs: [`Steps::check_change`] (over the tool's one typed
//! change: the session's record of each file, the version each operation expects, the
//! overwrite and permissions rules) gives a [`Cleared`], whose
//! [`authorize`](Cleared::authorize) (the hook, shown the typed
//! [`Payload`]) gives an [`Approved`] — none on a dry run — whose
//! [`commit`](Approved::commit) journals, syncs, publishes and records
//! ([`commit::commit`]). No token is made anywhere else, so a change cannot reach the
//! disk without every guard, and a guard added here holds for every tool.

use std::collections::HashMap;

use crate::refusal::{key, Code, Failure, Outcome, Refusal};
use crate::workspace::{Location, OpenFile};

pub use super::change::Expected;
use super::change::{ChangeSet, Op};
use super::commit;
use super::payload::Payload;
use super::session_check::{self, Mutation};
use super::{stale, target};
use crate::engine::{approve, refuse, Context};

/// A mutation's own part: which paths it touches, and how it observes them and builds
/// its change once they are locked.
pub trait Plan {
    /// What the tool returns.
    type Output;

    /// The paths the change touches, as the caller named them (a file a step depends
    /// on, such as a move's source, included).
    fn paths(&self) -> Vec<&str>;

    /// Under the locks, with `at[i]` where `paths()[i]` is now: observes the files,
    /// builds the change and takes it through `steps` (check, authorize, commit).
    fn build(&self, ctx: &Context, at: &[Location], steps: Steps<'_>) -> Outcome<Self::Output>;

    /// Whether a symbolic link at the last component of a path is the object itself (a
    /// delete, a move, an undo: as rm, mv and git take it) rather than what it leads to.
    fn own_links(&self) -> bool {
        false
    }

    /// The failure to report when a file kept changing under every try (the caller who
    /// named the version it saw is told it is stale instead).
    fn gave_up(&self, ctx: &Context, at: &[Location], failure: Failure) -> Failure {
        let _ = (ctx, at);
        failure
    }
}

/// How many times a plan is built before a file that keeps changing under it is `BUSY`.
const ATTEMPTS: u32 = 2;

/// Takes `plan` through every step of a mutation; see the module's documentation.
pub fn run<P: Plan>(ctx: &Context, plan: &P) -> Outcome<P::Output> {
    let targets = target::acquire_all(ctx, &plan.paths(), plan.own_links())?;
    let at = targets.locations.as_slice();
    // A file another program changed between the read and the rename is looked at once
    // more, from a fresh read; changed again, the change is refused.
    for _ in 1..ATTEMPTS {
        let built = plan.build(ctx, at, Steps { ctx, at });
        if !built.as_ref().is_err_and(super::is_changed) {
            return built;
        }
    }
    plan.build(ctx, at, Steps { ctx, at }).map_err(|failure| {
        if super::is_changed(&failure) {
            plan.gave_up(ctx, at, failure)
        } else {
            failure
        }
    })
}

/// One file of a change as the tool found it under the lock, for the checks: its version
/// now, the version the caller expects, what the session's rules are asked about, and the
/// file the change replaces or removes (held to the permissions rule). Read off the
/// change's operations ([`Steps::check_change`]), never built by a tool.
#[derive(Debug, Clone, Copy)]
struct Version<'a> {
    pub location: &'a Location,
    /// Its digest now, `None` when it does not exist.
    pub sha256: Option<&'a str>,
    /// The version the caller expects.
    pub expect: Expected<'a>,
    /// What the session's rules are asked about.
    pub mutation: Mutation,
    /// The file the change replaces or removes, open: one the caller may not write is
    /// not replaced behind its back (`DENIED`, rule `permissions`).
    pub replaced: Option<&'a OpenFile>,
    /// Whether the change is published over `replaced` only if it is still as read, a
    /// writer elsewhere included, looked at just before the rename: the check leaves the
    /// question of a writer to that last look, which asks it later.
    pub looked_at_publish: bool,
}

impl<'a> Version<'a> {
    /// The version `sha256` of the file at `location`, to be written over or removed.
    fn of(location: &'a Location, sha256: Option<&'a str>) -> Version<'a> {
        Version {
            location,
            sha256,
            expect: Expected::Any,
            mutation: Mutation::Write,
            replaced: None,
            looked_at_publish: false,
        }
    }
}

/// The steps after the locks, handed to [`Plan::build`].
#[derive(Debug)]
pub struct Steps<'c> {
    ctx: &'c Context,
    /// The plan's paths, located under the locks: the order the checks go in.
    at: &'c [Location],
}

impl<'c> Steps<'c> {
    /// Every guard of every tool, over each file of the change, in one place: the
    /// session's record of each file (`NOT_OBSERVED`, `STALE_VERSION`) and the version the
    /// caller expects (`STALE_VERSION`), then for each file the change creates whether one
    /// is there (`ALREADY_EXISTS`) and for each it replaces or removes whether the caller
    /// may write it (`DENIED`, rule `permissions`), in the order given.
    fn check(self, versions: &[Version<'_>]) -> Outcome<Cleared<'c>> {
        check(self.ctx, versions)?;
        for v in versions {
            guard_one(self.ctx, v)?;
        }
        Ok(Cleared { ctx: self.ctx })
    }
}

/// The checks of [`Steps::check`] that hold the change to a version: the session's and
/// the caller's. Every file of the change that the session has not read is named in one
/// `NOT_OBSERVED` (`details.paths`), so one round of reads suffices; likewise every file
/// that is not at the version expected, in one `STALE_VERSION` — whichever of the two a
/// file of the change meets first.
fn check(ctx: &Context, versions: &[Version<'_>]) -> Outcome<()> {
    let mut unread: Vec<Refusal> = Vec::new();
    let mut stale: Vec<Refusal> = Vec::new();
    for v in versions {
        match check_one(ctx, v) {
            Err(Failure::Refused(r)) if r.code() == Code::NotObserved => unread.push(r),
            Err(Failure::Refused(r)) if r.code() == Code::StaleVersion => stale.push(r),
            Err(failure) if unread.is_empty() && stale.is_empty() => return Err(failure),
            _ => {}
        }
    }
    let stale_first = match (
        versions.iter().position(|v| same_file(v, &unread)),
        versions.iter().position(|v| same_file(v, &stale)),
    ) {
        (Some(u), Some(s)) => s < u,
        (None, Some(_)) => true,
        _ => false,
    };
    if stale_first {
        return Err(stale_all(stale).into());
    }
    match unread.len() {
        0 => Ok(()),
        1 if versions.len() == 1 => Err(unread.remove(0).into()),
        _ => Err(session_check::not_observed_all(&unread).into()),
    }
}

/// Whether one of `refusals` names the file of `v`.
fn same_file(v: &Version<'_>, refusals: &[Refusal]) -> bool {
    refusals.iter().any(|r| {
        r.detail(key::PATH).and_then(serde_json::Value::as_str) == Some(v.location.shown.as_str())
    })
}

/// One `STALE_VERSION` for every file of a change not at the version expected: the one
/// refusal as it is, or — several — each named in `details.paths` with its versions.
fn stale_all(mut stale: Vec<Refusal>) -> Refusal {
    if stale.len() == 1 {
        return stale.remove(0);
    }
    let paths: Vec<serde_json::Value> = stale
        .iter()
        .map(|r| {
            let mut one = serde_json::Map::new();
            for name in [
                key::PATH,
                key::EXPECTED_SHA256,
                key::ACTUAL_SHA256,
                key::REASON,
            ] {
                if let Some(value) = r.detail(name) {
                    one.insert(name.to_owned(), value.clone());
                }
            }
            serde_json::Value::Object(one)
        })
        .collect();
    let quoted: Vec<String> = stale
        .iter()
        .filter_map(|r| r.detail(key::PATH).and_then(serde_json::Value::as_str))
        .map(|p| format!("`{p}`"))
        .collect();
    let first = stale[0].detail(key::PATH).cloned().unwrap_or_default();
    Refusal::new(
        Code::StaleVersion,
        format!(
            "{} changed since the versions this change expects, so nothing was written",
            quoted.join(", ")
        ),
    )
    .with(key::PATH, first)
    .with(key::PATHS, paths)
}

/// The checks of one file: the session's record, then the version the caller expects.
fn check_one(ctx: &Context, v: &Version<'_>) -> Outcome<()> {
    let location = v.location;
    if super::kill_hook::guarded(&location.real) {
        return Err(Refusal::new(
            Code::Denied,
            format!("`{}` is refused by the test's guard", location.shown),
        )
        .with(key::PATH, location.shown.as_str())
        .with("rule", "test")
        .into());
    }
    // A link taken as itself cannot be read as itself, so no session has read it:
    // what it leads to is the session's concern, and it is not touched.
    let link = location.kind == Some(crate::workspace::Kind::Link);
    if !link && v.mutation != Mutation::Undo {
        session_check::check(ctx, &location.shown, &location.real, v.sha256, v.mutation)?;
    }
    let expected = match v.expect {
        Expected::Digest(expected) => Some(Some(expected)),
        Expected::Left(expected) => Some(expected),
        Expected::Any | Expected::Absent => None,
    };
    if let Some(expected) = expected {
        let same = match (expected, v.sha256) {
            (Some(expected), Some(actual)) => expected.eq_ignore_ascii_case(actual),
            (None, None) => true,
            _ => false,
        };
        if !same {
            let actual = v.sha256.filter(|a| !a.is_empty());
            return Err(stale(&location.shown, expected.unwrap_or_default(), actual).into());
        }
    }
    Ok(())
}

/// The rules that hold whatever version a file is at: a file the change creates is not
/// there (or the session read it as it is), and one it replaces or removes is the caller's
/// to write.
fn guard_one(ctx: &Context, v: &Version<'_>) -> Outcome<()> {
    let shown = v.location.shown.as_str();
    if let (Expected::Absent, Some(actual)) = (v.expect, v.sha256) {
        if !session_check::observed(ctx, &v.location.real, actual) {
            return Err(Refusal::new(
                Code::AlreadyExists,
                format!("`{shown}` already exists and overwrite was not set"),
            )
            .naming("overwrite")
            .with(key::PATH, shown)
            .with(key::SHA256, actual)
            .into());
        }
    }
    if let Some(file) = v.replaced {
        ctx.ws
            .check_replaceable(v.location, file, !v.looked_at_publish)
            .map_err(|e| refuse::path(ctx, shown, e))?;
    }
    Ok(())
}

impl<'c> Steps<'c> {
    /// The one entry to the checks ([`Steps::check`]), for every tool: the versions
    /// `change` names, one per path, in the order of the plan's paths. A path is held at
    /// the first operation that touches it — its version before as read, the version that
    /// operation expects, the file it replaces or removes — since a later operation finds
    /// the path as the earlier ones leave it; a move's source is held at the version it
    /// moves (or, as read, `from_read`) to the one expected of it. A path of the plan no
    /// operation touches (an apply's file its change leaves as it was) is not checked.
    pub fn check_change(self, change: &ChangeSet<'_>) -> Outcome<Cleared<'c>> {
        let (mut first, touched) = first_touches(change);
        let order = self.at.iter().map(|l| l.real.as_str());
        // A path of the change the plan did not name (none does today) comes last.
        let versions: Vec<Version<'_>> = order
            .chain(touched)
            .filter_map(|real| first.remove(real))
            .collect();
        self.check(&versions)
    }
}

/// The version the first operation of `change` that touches each path holds it at, by
/// real path, and the paths in the order the operations touch them.
fn first_touches<'a>(change: &'a ChangeSet<'_>) -> (HashMap<&'a str, Version<'a>>, Vec<&'a str>) {
    let mut first: HashMap<&str, Version<'_>> = HashMap::with_capacity(change.files.len());
    let mut touched = Vec::with_capacity(change.files.len());
    for file in &change.files {
        if let Op::Move {
            from,
            from_base,
            from_before,
            from_expect,
            from_read,
            from_writable,
            ..
        } = &file.op
        {
            first.entry(from.real.as_str()).or_insert_with(|| {
                touched.push(from.real.as_str());
                let moved = from_before.as_deref().or(file.after.as_deref());
                Version {
                    expect: *from_expect,
                    mutation: file.mutation,
                    replaced: from_base.filter(|_| *from_writable),
                    ..Version::of(
                        from,
                        from_read.as_ref().map_or(moved, |read| read.0.as_deref()),
                    )
                }
            });
        }
        first.entry(file.at.real.as_str()).or_insert_with(|| {
            touched.push(file.at.real.as_str());
            Version {
                expect: file.expect,
                mutation: file.mutation,
                replaced: file.base,
                looked_at_publish: file.looked_at_publish,
                ..Version::of(file.at, file.before.as_deref())
            }
        });
    }
    (first, touched)
}

/// The token of a change whose files passed the pipeline's checks: cleared for the
/// authorize hook (the syntax gate's verdict is another thing, `syntax_gate::Caveats`).
#[derive(Debug)]
pub struct Cleared<'c> {
    ctx: &'c Context,
}

impl<'c> Cleared<'c> {
    /// Asks the authorize hook (when one is configured) about the change `payload`
    /// describes, `shown` naming it in a refusal. `None` on a dry run: nothing may be
    /// written then.
    pub fn authorize(self, shown: &str, payload: &Payload<'_>) -> Outcome<Option<Approved<'c>>> {
        approve::authorize(self.ctx, shown, payload)?;
        Ok((!payload.dry_run).then_some(Approved { ctx: self.ctx }))
    }
}

/// A change approved and not a dry run: the only way to the journal and the disk.
#[derive(Debug)]
pub struct Approved<'c> {
    ctx: &'c Context,
}

impl<'c> Approved<'c> {
    /// Stages, journals, syncs, publishes and records `change` ([`commit::commit`]);
    /// returns the journal entry's id.
    pub fn commit<'w>(self, change: ChangeSet<'w>) -> Outcome<Option<String>>
    where
        'c: 'w,
    {
        commit::commit(self.ctx, change, None)
    }

    /// [`Approved::commit`], with `last` finished beside its first steps: while it runs,
    /// the new versions are staged and synced; its refusal ends the change before the
    /// journal entry is written ([`commit::LastCheck`]).
    pub fn commit_after<'w>(
        self,
        change: ChangeSet<'w>,
        last: commit::LastCheck<'_>,
    ) -> Outcome<Option<String>>
    where
        'c: 'w,
    {
        commit::commit(self.ctx, change, Some(last))
    }

    /// Records that the file at `real` already holds `sha256`, the content asked for, so
    /// nothing is written: the session's ledger is told, as after a write.
    pub fn unchanged(self, real: &str, sha256: &str) {
        session_check::note_written(self.ctx, real, sha256);
    }
}
