//! Preparing an edit of a large file on two cores.
//!
//! The base digest is computed on the other core while the edits are applied on this
//! one, and the result's digest resumes from the base digest's state where the two
//! texts start to differ, so the unchanged head is hashed once. Meanwhile the result is
//! staged (written to a temp file no one can see, the unchanged head and tail copied in
//! the kernel) and synced: the checks that need the digests come after, and the staged
//! file is then published, or dropped without a trace if they refuse.

use crate::digest::{sha256_hex, Checkpoints};
use crate::refusal::Refusal;
use crate::workspace::{self, Location, Staged};

use super::super::textfile::Loaded;
use super::super::Context;
use super::edited::Edited;

/// The base digest, the edits applied with the result's digest, and the result staged
/// and synced (when it can be before the checks: not a dry run, no authorize command
/// to consult first, within the size limit).
pub type Prepared<'a> = (
    String,
    Result<(Edited<'a>, String), Refusal>,
    Option<Result<Staged<'a>, workspace::Error>>,
);

/// Applies the edits to the loaded file with `apply`, as the module says.
pub fn prepare<'a>(
    ctx: &'a Context,
    location: &Location,
    loaded: &'a Loaded,
    apply: impl FnOnce() -> Result<Edited<'a>, Refusal>,
    dry_run: bool,
) -> Prepared<'a> {
    let checkpoints = Checkpoints::default();
    std::thread::scope(|scope| {
        let base = scope.spawn(|| checkpoints.sha256_hex(loaded.bytes()));
        let mut staged = None;
        let applied = apply().map(|edited| {
            let early = !dry_run
                && ctx.policy.hooks.is_empty()
                && !edited.is_unchanged()
                && edited.len() as u64 <= ctx.limits.max_file_bytes;
            if early {
                staged = Some(super::stage(ctx, location, loaded, &edited));
            }
            // The sync waits on the disk while this core hashes the result.
            let (sha256, synced) = std::thread::scope(|inner| {
                let sync = match &staged {
                    Some(Ok(staged)) => Some(inner.spawn(|| staged.sync())),
                    _ => None,
                };
                let sha256 = edited.sha256_from(checkpoints.resume(edited.head));
                let synced = sync.map(|sync| {
                    sync.join().unwrap_or_else(|_| {
                        Err(workspace::Error::Io(std::io::Error::other("sync panicked")))
                    })
                });
                (sha256, synced)
            });
            if let (Some(Err(e)), Some(staged)) = (synced, staged.as_mut()) {
                *staged = Err(e);
            }
            (edited, sha256)
        });
        let base = base.join().unwrap_or_else(|_| sha256_hex(loaded.bytes()));
        (base, applied, staged)
    })
}
