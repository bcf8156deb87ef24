//! The one executor: turns a change's file operations ([`super::change`]) into
//! filesystem changes — for the commit of every tool (write, edit, delete, move, apply,
//! and undo publishing the inverse of an entry), and for recovery rolling an entry
//! forward. [`stage`] makes the directories a change needs and stages its new contents
//! (nothing visible); [`publish`] looks once more at every file the change replaces or
//! removes — the same inode, size and times as read, no writer holding it — before any
//! is published, then publishes each operation in order ([`publish_one`]); the
//! directories a change left empty are removed by the commit (`Workspace::vacate`).

use crate::refusal::{key, Code, Failure, Outcome, Refusal};
use crate::workspace::{Dirty, Error, Replace, Staged, WriteMode};

use super::change::{ChangeSet, Expected, FileOp, New, Op};
use super::kill_hook;
use crate::engine::{refuse, Context};

/// Makes the directories each operation of `change` needs and stages every new content
/// the tool did not stage itself (synced later, beside the journal's entry): one per
/// operation, `None` for one that publishes no new content. The directories made are
/// added to `created`, for the caller to remove if the change is not published.
pub fn stage<'w>(
    ctx: &'w Context,
    change: &mut ChangeSet<'w>,
    created: &mut Vec<String>,
) -> Outcome<Vec<Option<Staged<'w>>>> {
    let mut staged = Vec::with_capacity(change.files.len());
    for file in &mut change.files {
        let at = file.at;
        if matches!(file.op, Op::Unmade) {
            return Err(anyhow::anyhow!("`{}`: the change was never made", at.shown).into());
        }
        let publishes_here = !matches!(file.op, Op::Delete | Op::Unlink { .. });
        if publishes_here && !at.missing_dirs.is_empty() {
            ctx.ws
                .create_dirs(&at.missing_dirs)
                .map_err(|e| refuse::path(ctx, &at.shown, e))?;
            created.extend(at.missing_dirs.iter().cloned());
        }
        let base = file.base;
        let (Op::Write(new) | Op::Move { new: Some(new), .. }) = &mut file.op else {
            staged.push(None);
            continue;
        };
        let one = match std::mem::replace(new, New::Kept(String::new())) {
            // What the tool handed over is the staged file's from here on.
            New::Bytes { parts, mode, reuse } => {
                let one = ctx
                    .ws
                    .stage(at, &parts, reuse, mode)
                    .map_err(|e| failed(ctx, &at.shown, e))?;
                match (base, mode) {
                    (Some(base), WriteMode::Replace { .. }) => one.over(base),
                    _ => one,
                }
            }
            New::Staged(one) => one.map_err(|e| refuse::path(ctx, &at.shown, e))?,
            // A version the journal keeps is published from there by recovery.
            New::Kept(name) => {
                *new = New::Kept(name);
                staged.push(None);
                continue;
            }
        };
        staged.push(Some(one));
    }
    Ok(staged)
}

/// Publishes `change` (its new contents `staged`, one per operation), every directory it
/// touches handed to `dirty`: the last look at every file it replaces or removes, then
/// each operation in order. A file another program changed since it was read refuses the
/// whole change before anything is published (`BUSY`, changed while read: the pipeline
/// builds the change once more from a fresh read, then refuses).
pub fn publish(
    ctx: &Context,
    change: &ChangeSet<'_>,
    staged: Vec<Option<Staged<'_>>>,
    dirty: &mut Dirty,
) -> Outcome<()> {
    last_look(change)?;
    for (done, (file, staged)) in change.files.iter().zip(staged).enumerate() {
        publish_one(ctx, file, staged, dirty)?;
        kill_hook::published(done + 1)?;
    }
    Ok(())
}

/// The last look before anything is published: every file the change replaces, removes
/// or moves is still the file read, with the same inode, size and modification time,
/// and no other program holds it open for writing (for a change of one file, its publish
/// asks that, just before its rename or unlink); and where the caller expects a digest
/// (`expectedSha256`, or an undo's version left: [`Expected::Digest`],
/// [`Expected::Left`]), the file is hashed once more and must still have it — a write
/// that kept the size and put the time back is caught too, at the cost of one more read
/// of that file. The test's planted guard of the commit
/// ([`kill_hook::publish_guarded`]) is here too.
fn last_look(change: &ChangeSet<'_>) -> Outcome<()> {
    let single = change.files.len() == 1;
    for file in &change.files {
        let from = match &file.op {
            Op::Move {
                from,
                from_base,
                from_expect,
                ..
            } => Some((*from, *from_base, *from_expect)),
            _ => None,
        };
        let here = (file.at, file.base, file.expect);
        for (location, base, expect) in std::iter::once(here).chain(from) {
            if kill_hook::publish_guarded(&location.real) {
                return Err(Refusal::new(
                    Code::Denied,
                    format!(
                        "`{}` is refused by the test's guard of the commit",
                        location.shown
                    ),
                )
                .with(key::PATH, location.shown.as_str())
                .with("rule", "test-commit")
                .into());
            }
            if let Some(base) = base {
                // A change of one file is published at once, and its publish asks about
                // writers just before its rename or unlink: asked twice, a writer that only
                // passes by (a process forked with the file open, until its exec) would be
                // met twice.
                let still = base.unchanged_but_for_links().unwrap_or(false)
                    && (single || !base.written_elsewhere());
                if !still || !still_digest(base, expect) {
                    return Err(refuse::changed(&location.shown).into());
                }
            }
        }
    }
    Ok(())
}

/// Whether the file `base` still has the digest `expect` names, hashed once more (true
/// where no digest is expected: the size and times were looked at).
fn still_digest(base: &crate::workspace::OpenFile, expect: Expected<'_>) -> bool {
    let digest = match expect {
        Expected::Digest(digest) | Expected::Left(Some(digest)) => digest,
        Expected::Any | Expected::Absent | Expected::Left(None) => return true,
    };
    base.sha256_now()
        .is_ok_and(|now| now.eq_ignore_ascii_case(digest))
}

/// Publishes one operation, its new content `staged` (or, from recovery, kept under the
/// journal's `pending/`), each file it replaces or removes checked to be the one read
/// (its `base`), never clobbering a file that appeared where none was.
pub fn publish_one(
    ctx: &Context,
    file: &FileOp<'_>,
    staged: Option<Staged<'_>>,
    dirty: &mut Dirty,
) -> Outcome<()> {
    let at = file.at;
    let shown = at.shown.as_str();
    let fail = |e: Error| failed(ctx, shown, e);
    let put = |new: Option<&New<'_>>, staged: Option<Staged<'_>>, dirty: &mut Dirty| match (
        staged, new,
    ) {
        (Some(staged), _) => staged.publish_into(dirty).map_err(fail),
        (None, Some(New::Kept(name))) => {
            let sha = file.after.as_deref().unwrap_or_default();
            let limit = ctx.limits.max_file_bytes;
            match ctx
                .ws
                .journal_put_new(name, sha, limit, at, file.before.is_some(), dirty)
            {
                Ok(true) => Ok(()),
                Ok(false) => Err(fail(Error::Changed)),
                Err(e) => Err(fail(e)),
            }
        }
        (None, _) => Err(anyhow::anyhow!("`{shown}`: no new content was staged").into()),
    };
    match &file.op {
        Op::Write(new) => put(Some(new), staged, dirty),
        Op::Delete => match file.base {
            Some(base) => ctx.ws.remove_unchanged(at, base, dirty),
            None => ctx.ws.remove_into(at, dirty),
        }
        .map_err(fail),
        Op::Link { target } => ctx
            .ws
            .create_dirs(&at.missing_dirs)
            .and_then(|()| ctx.ws.make_link(at, target, dirty))
            .map_err(fail),
        Op::Unlink { target } => ctx.ws.remove_link(at, target, dirty).map_err(fail),
        Op::Unmade => Err(anyhow::anyhow!("`{shown}`: the change was never made").into()),
        Op::Move {
            from,
            from_base,
            new,
            ..
        } => {
            let from_failed = |e: Error| refuse::path(ctx, &from.shown, e);
            if new.is_some() {
                // Moved with new content: the new name's file is published, then the one
                // at the old name removed.
                put(new.as_ref(), staged, dirty)?;
                return match from_base {
                    Some(base) => ctx.ws.remove_unchanged(from, base, dirty),
                    None => ctx.ws.remove_into(from, dirty),
                }
                .map_err(from_failed);
            }
            if let Some(base) = from_base {
                ctx.ws.still_as_read(from, base).map_err(from_failed)?;
            }
            let replace = if file.before.is_some() {
                Replace::Allowed
            } else {
                Replace::Never
            };
            ctx.ws
                .create_dirs(&at.missing_dirs)
                .and_then(|()| ctx.ws.rename_into(from, at, replace, dirty))
                .map_err(|e| match e {
                    Error::AlreadyExists => appeared(
                        shown,
                        &format!("while `{}` was being moved there", from.shown),
                    ),
                    other => refuse::path(ctx, shown, other),
                })
        }
    }
}

/// The refusal of a failed step at `shown`: a file that appeared where the change
/// creates one is not replaced (`ALREADY_EXISTS`).
fn failed(ctx: &Context, shown: &str, e: Error) -> Failure {
    match e {
        Error::AlreadyExists => appeared(shown, "while it was being created"),
        other => refuse::path(ctx, shown, other),
    }
}

/// `ALREADY_EXISTS`: a file appeared at `shown` `when`, and was not replaced.
fn appeared(shown: &str, when: &str) -> Failure {
    Refusal::new(
        Code::AlreadyExists,
        format!("`{shown}` appeared {when}, and was not replaced"),
    )
    .with(key::PATH, shown)
    .into()
}
