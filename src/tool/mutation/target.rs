//! The target of a mutation: located, checked against the protected places and the
//! policy, locked, and located again under the lock.

use crate::lock;
use crate::refusal::Outcome;
use crate::workspace::Location;

use super::super::{approve, refuse, Context};

/// A locked mutation target. The lock is held until this is dropped.
#[derive(Debug)]
pub struct Target {
    /// Where the file is, as seen under the lock.
    pub location: Location,
    _guard: lock::Guard,
}

/// Locates `raw` for a mutation, refuses protected or forbidden paths, and takes the
/// file's lock. What exists is looked at again under the lock: that is what counts.
pub fn acquire(ctx: &Context, raw: &str) -> Outcome<Target> {
    let located = checked(ctx, raw)?;
    refuse::file_path(raw, &located)?;
    let guard = lock::acquire(&ctx.ws, &located.real, &ctx.wait)
        .map_err(|e| refuse::lock(ctx, &located.shown, e))?;
    let location = checked(ctx, raw)?;
    Ok(Target {
        location,
        _guard: guard,
    })
}

/// Several locked mutation targets (a move's two ends). The locks are held until this is
/// dropped.
#[derive(Debug)]
pub struct Targets {
    /// Where each file is, as seen under the locks, in the order the paths were given.
    pub locations: Vec<Location>,
    _guards: Vec<lock::Guard>,
}

/// Locates each of `raws` for a mutation as [`acquire`] does, and takes all their locks
/// in one order (see [`lock::acquire_all`]), so two calls never deadlock.
pub fn acquire_all(ctx: &Context, raws: &[&str]) -> Outcome<Targets> {
    let mut reals = Vec::with_capacity(raws.len());
    for raw in raws {
        let located = checked(ctx, raw)?;
        refuse::file_path(raw, &located)?;
        reals.push(located.real);
    }
    let real_refs: Vec<&str> = reals.iter().map(String::as_str).collect();
    let guards = lock::acquire_all(&ctx.ws, &real_refs, &ctx.wait)
        .map_err(|e| refuse::lock(ctx, raws.first().copied().unwrap_or_default(), e))?;
    let locations = raws
        .iter()
        .map(|raw| checked(ctx, raw))
        .collect::<Outcome<Vec<_>>>()?;
    Ok(Targets {
        locations,
        _guards: guards,
    })
}

fn checked(ctx: &Context, raw: &str) -> Outcome<Location> {
    let location = ctx.ws.locate(raw).map_err(|e| refuse::path(ctx, raw, e))?;
    refuse::protected(&location, true)?;
    approve::rules(ctx, &location, true)?;
    Ok(location)
}
