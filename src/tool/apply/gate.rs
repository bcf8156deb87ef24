//! The syntax gate on an apply, per file: each file's final text against its original
//! (the file it was moved from, for a move; none for a new file), named by the last
//! change that made it. The files the patch adds were begun ahead ([`Ahead`]); when they
//! were, the gate's end is awaited beside the commit's first steps ([`commit_beside`]).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::change::ChangeSet;
use crate::engine::commit::LastCheck;
use crate::engine::pipeline::Approved;
use crate::refusal::Outcome;
use crate::workspace::Location;

use super::super::syntax_gate::{self, Ahead, Asked, Caveats, Gated};
use super::super::Context;
use super::budget::Budget;
use super::build::{Body, Built, Held, Original};
use super::ApplyRequest;

/// Checks every text file the change leaves; `SYNTAX_ERROR` names the change of the
/// first one it breaks.
pub fn check(
    ctx: &Context,
    (req, ahead): (&ApplyRequest, Option<&Ahead>),
    built: &Built,
    located: &BTreeMap<&str, &Location>,
    originals: &BTreeMap<String, Original>,
) -> Outcome<Caveats> {
    let shown = |real: &str| {
        located
            .values()
            .find(|l| l.real == real)
            .map_or_else(|| real.to_owned(), |l| l.shown.clone())
    };
    let mut files = Vec::new();
    for (real, slot) in &built.tree {
        let Held::Text(new) = &slot.held else {
            continue;
        };
        let path = shown(real);
        if !syntax_gate::wanted(ctx, &path) {
            continue;
        }
        let original = originals
            .get(real)
            .or_else(|| slot.origin.as_ref().and_then(|o| originals.get(o)));
        let old = match original.map(|o| &o.body) {
            Some(Body::Text(text)) if text == new => continue,
            Some(Body::Text(text)) => Some(text.as_bytes()),
            _ => None,
        };
        let change_index = built.effects.iter().rposition(|step| step.real == *real);
        files.push((path, old, new.as_bytes(), change_index));
    }
    let gated: Vec<Gated<'_>> = files
        .iter()
        .map(|(path, old, new, change_index)| Gated {
            path,
            old: *old,
            new,
            change_index: *change_index,
        })
        .collect();
    let asked = Asked {
        field: Some(if req.patch.is_some() {
            "patch"
        } else {
            "changes"
        }),
        allow: req.allow_syntax_errors,
        dry_run: req.dry_run,
    };
    syntax_gate::check_with(ctx, &gated, asked, ahead)
}

/// Commits `change`, once `approved` (`None` only on a dry run, which never comes here),
/// with the gate (`run`) on a thread of its own beside the commit's first steps: its
/// refusal, or the budget spent by its end, ends the change before the journal entry
/// is written ([`LastCheck`]). The entry's id, and what the gate listed.
pub fn commit_beside(
    approved: Option<Approved<'_>>,
    change: ChangeSet<'_>,
    run: impl FnOnce() -> Outcome<Caveats> + Send,
    budget: &Budget,
) -> Outcome<(Option<String>, Caveats)> {
    let Some(approved) = approved else {
        return Err(anyhow::anyhow!("a change that is not a dry run was not approved").into());
    };
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let gate = scope.spawn(|| {
            let verdict = run();
            done.store(true, Ordering::Release);
            verdict
        });
        let mut caveats = Caveats::default();
        let ready = || done.load(Ordering::Acquire);
        let finish = Box::new(|| {
            caveats = gate
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
            budget.check()?;
            Ok(())
        });
        let id = approved.commit_after(
            change,
            LastCheck {
                ready: &ready,
                finish,
            },
        )?;
        Ok((id, caveats))
    })
}
