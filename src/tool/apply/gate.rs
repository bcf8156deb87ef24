//! The syntax gate on an apply, per file: each file's final text against its original
//! (the file it was moved from, for a move; none for a new file), named by the last
//! change that made it. The files the patch adds were begun ahead ([`Ahead`]).

use std::collections::BTreeMap;

use crate::refusal::Outcome;
use crate::workspace::Location;

use super::super::syntax_gate::{self, Ahead, Asked, Caveats, Gated};
use super::super::Context;
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
