//! The target of a mutation: located, checked against the protected places and the
//! policy, locked, and located again under the lock.

use crate::lock;
use crate::policy::Access;
use crate::refusal::Outcome;
use crate::workspace::Location;

use crate::engine::{approve, refuse, Context};

/// The locked targets of a mutation (one file, a move's two ends, every file of a
/// patch). The locks are held until this is dropped.
#[derive(Debug)]
pub struct Targets {
    /// Where each file is, as seen under the locks, in the order the paths were given.
    pub locations: Vec<Location>,
    _guards: Vec<lock::Guard>,
}

/// Locates each of `raws` for a mutation, refuses protected or forbidden paths, and takes
/// all their locks in one order (see [`lock::acquire_all`]), so two calls never
/// deadlock. What exists is looked at again under the locks: that is what counts. With
/// `own_links`, a symbolic link at a path's last component is the target itself
/// ([`crate::workspace::Workspace::locate_own`]).
pub fn acquire_all(ctx: &Context, raws: &[&str], own_links: bool) -> Outcome<Targets> {
    let mut located = Vec::with_capacity(raws.len());
    for raw in raws {
        let one = checked(ctx, raw, own_links)?;
        refuse::file_path(raw, &one)?;
        located.push(one);
    }
    let reals: Vec<&str> = located.iter().map(|l| l.real.as_str()).collect();
    let first = located.first().map_or("", |l| l.shown.as_str());
    let guards =
        lock::acquire_all(&ctx.ws, &reals, &ctx.wait).map_err(|e| refuse::lock(ctx, first, e))?;
    let locations = raws
        .iter()
        .map(|raw| checked(ctx, raw, own_links))
        .collect::<Outcome<Vec<_>>>()?;
    Ok(Targets {
        locations,
        _guards: guards,
    })
}

fn checked(ctx: &Context, raw: &str, own_links: bool) -> Outcome<Location> {
    let location = if own_links {
        ctx.ws.locate_own(raw)
    } else {
        ctx.ws.locate(raw)
    }
    .map_err(|e| refuse::path(ctx, raw, e))?;
    refuse::protected(ctx, &location, Access::Change)?;
    approve::rules(ctx, &location, Access::Change)?;
    Ok(location)
}
