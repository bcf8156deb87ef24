//! Turning the workspace's facts into refusals, phrased from the caller's path.

use crate::policy::Access;
use crate::refusal::{key, Code, Failure, Refusal};
use crate::workspace::{path::Invalid, Error, UserDir};

use super::Context;

/// The refusal (or internal failure) for a workspace error met while handling `shown`,
/// the path as the caller wrote it (or its normalised spelling).
#[cold]
pub fn path(ctx: &Context, shown: &str, error: Error) -> Failure {
    let refusal = match error {
        Error::InvalidPath(invalid) => {
            let mut r = Refusal::new(
                Code::InvalidPath,
                format!("The path `{shown}` {}", invalid.reason()),
            )
            .with(key::PATH, shown);
            match invalid {
                Invalid::Backslash { suggestion } => r = r.with(key::SUGGESTION, suggestion),
                Invalid::TooLong { bytes } | Invalid::NameTooLong { bytes } => {
                    r = r.with("bytes", bytes);
                }
                Invalid::NonUtf8Link { link } => r = r.with(key::SYMLINK, link),
                Invalid::Empty | Invalid::Nul => {}
            }
            r
        }
        Error::Outside {
            link,
            inside_target,
        } => {
            let message = match &link {
                Some(link) => {
                    format!("`{shown}` leads outside the workspace through the symlink `{link}`")
                }
                None => format!("`{shown}` is outside the workspace"),
            };
            let mut r = Refusal::new(Code::OutsideRoot, message).with(key::PATH, shown);
            if let Some(link) = link {
                r = r.with(key::SYMLINK, link);
            }
            if let Some(inside) = inside_target {
                r = r.with(key::INSIDE_TARGET, inside);
            }
            r
        }
        Error::Loop { link } => Refusal::new(
            Code::InvalidPath,
            format!("`{shown}` goes through too many levels of symbolic links"),
        )
        .with(key::PATH, shown)
        .with(key::SYMLINK, link),
        Error::NotFound => not_found(ctx, shown),
        Error::NotADirectory { at } => Refusal::new(
            Code::NotADirectory,
            format!("`{at}` is not a directory, so `{shown}` cannot lie below it"),
        )
        .with(key::PATH, shown)
        .with(key::NOT_A_DIRECTORY, at),
        Error::NotAFile => not_a_file(shown),
        Error::AlreadyExists => {
            Refusal::new(Code::AlreadyExists, format!("`{shown}` already exists"))
                .with(key::PATH, shown)
        }
        Error::State { path, problem } => state(&path, problem),
        Error::Changed => changed(shown),
        Error::NotWritable(why) => not_writable(shown, why),
        Error::Io(e) => return Failure::Internal(anyhow::Error::new(e).context("workspace I/O")),
    };
    refusal.into()
}

/// `INVALID_CONFIG` for stitch's own state, never blamed on the caller's path.
#[cold]
pub fn state(path: &str, problem: crate::workspace::StateProblem) -> Refusal {
    let reason = problem.reason();
    Refusal::new(
        Code::InvalidConfig,
        format!("stitch's own state is unusable: `{path}` {reason}"),
    )
    .with(key::PATH, path)
    .with(key::FIELD, path)
    .with(key::REASON, reason)
}

/// `BUSY` for a file another program changed while stitch read or replaced it: nothing
/// was written, and a retry once that program is done will see the file whole.
#[cold]
pub fn changed(shown: &str) -> Refusal {
    Refusal::new(
        Code::Busy,
        format!("`{shown}` was being changed by another program while stitch read it, so nothing was written"),
    )
    .with(key::PATH, shown)
    .with(key::REASON, key::CHANGED_WHILE_READ)
    .with("retryable", true)
}

/// `DENIED`, rule `permissions`: a file this process may not write, or whose owner a
/// replacement could not keep.
#[cold]
pub fn not_writable(shown: &str, why: crate::workspace::NotWritable) -> Refusal {
    let reason = why.reason();
    Refusal::new(Code::Denied, format!("`{shown}` is not replaced: {reason}"))
        .with(key::PATH, shown)
        .with(key::RULE, "permissions")
        .with(key::REASON, reason)
}

/// `NOT_FOUND`, with the nearest existing names.
#[cold]
pub fn not_found(ctx: &Context, shown: &str) -> Refusal {
    Refusal::new(Code::NotFound, format!("`{shown}` does not exist"))
        .with(key::PATH, shown)
        .with(
            "nearNames",
            super::near::names(&ctx.ws, ctx.policy.deny.clone(), shown),
        )
}

/// `NOT_A_FILE` for a directory, FIFO, socket or device.
#[cold]
pub fn not_a_file(shown: &str) -> Refusal {
    Refusal::new(Code::NotAFile, format!("`{shown}` is not a regular file")).with(key::PATH, shown)
}

/// An internal failure from a lock that could not be taken, or `BUSY`.
#[cold]
pub fn lock(ctx: &Context, shown: &str, error: crate::lock::Error) -> Failure {
    match error {
        crate::lock::Error::Busy { waited } => Refusal::new(
            Code::Busy,
            format!(
                "Another process held the lock on `{shown}` for {:.1} s",
                waited.as_secs_f64()
            ),
        )
        .with(key::PATH, shown)
        .with("retryable", true)
        .into(),
        crate::lock::Error::Workspace(e) => path(ctx, shown, e),
        // Nobody reads the outcome of a withdrawn call; it only has to end, changing nothing.
        crate::lock::Error::Cancelled => {
            Failure::Internal(anyhow::anyhow!("the call was cancelled while it waited"))
        }
        crate::lock::Error::Io(e) => {
            Failure::Internal(anyhow::Error::new(e).context("taking the lock"))
        }
    }
}

/// Refuses the protected places: `.stitch/` and stitch's user-level directories (where
/// they lie inside the root) always, `.git/` for mutations.
pub fn protected(
    ctx: &Context,
    location: &crate::workspace::Location,
    access: Access,
) -> Result<(), Refusal> {
    let shown = location.shown.as_str();
    if let Some((dir, dir_shown)) = ctx.ws.user_dir_of(location) {
        return Err(user_state(shown, dir, dir_shown));
    }
    if location.is_reserved() {
        let message = if location.is_reserved_through_link() {
            format!("`{shown}` leads through a symlink into .stitch/, which is reserved for stitch's own state")
        } else {
            format!("`{shown}` is in .stitch/, which is reserved for stitch's own state")
        };
        return Err(Refusal::new(Code::Denied, message)
            .with(key::PATH, shown)
            .with(key::RULE, "reserved"));
    }
    if access == Access::Change && location.is_git() {
        return Err(Refusal::new(
            Code::Denied,
            format!("`{shown}` is inside .git/, which can be read but not written"),
        )
        .with(key::PATH, shown)
        .with(key::RULE, "git"));
    }
    Ok(())
}

/// `DENIED` (rule `reserved`) for a path in stitch's user-level state, which lies inside
/// the root (a root at `$HOME`): the user's config, whose `authorize` runs on the next
/// mutation, or the journal's key and the trust records.
#[cold]
fn user_state(shown: &str, dir: UserDir, dir_shown: &str) -> Refusal {
    let what = match dir {
        UserDir::Config => "the user's own stitch config",
        UserDir::Data => "where stitch keeps its journal key and trust records",
    };
    Refusal::new(
        Code::Denied,
        format!("`{shown}` lies in {dir_shown}, {what}, which no tool may read or change"),
    )
    .with(key::PATH, shown)
    .with(key::RULE, "reserved")
}

/// Refuses a trailing `/` on a path that must name a file.
pub fn file_path(raw: &str, location: &crate::workspace::Location) -> Result<(), Refusal> {
    if location.trailing_slash {
        return Err(Refusal::new(
            Code::InvalidPath,
            format!("The file path `{raw}` ends with `/`"),
        )
        .with(key::PATH, raw)
        .with(key::SUGGESTION, raw.trim_end_matches('/')));
    }
    Ok(())
}
