//! `edit_file`: replace exact snippets in one file, all or nothing, atomically.

mod earlier;
pub(super) mod edited;
pub(super) mod insert;
mod large;
pub(super) mod request;
pub(super) mod snippet;
pub(super) mod stale_read;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::digest::sha256_hex;
use crate::refusal::{key, Code, Failure, Outcome, Refusal};
use crate::workspace::{self, Location, Reuse, Staged, WriteMode};

use super::args::Request;
use super::args::{self, invalid};
use super::syntax_gate::{self, Asked, Caveats, Gated, SyntaxReport, Unchecked};
use super::textfile::Loaded;
use super::{refuse, textfile, Context};
use crate::engine::change::{ChangeSet, Expected, FileOp, New};
use crate::engine::journal::{self, About};
use crate::engine::payload::Payload;
use crate::engine::pipeline::{self, Steps};
use crate::engine::session_check::{self, Mutation};
use crate::engine::stale_while_changing;
use edited::{apply_with, Edited};
pub use request::EditRequest;
use request::{EditItem, Form};

/// From this size on, an edit is prepared on two cores (see `large`).
const PARALLEL_BYTES: usize = 1 << 20;

/// The most bytes of unified diff an edit returns.
pub const MAX_DIFF_BYTES: usize = 64 * 1024;

/// Edits the file named in `arguments`.
pub fn run(ctx: &Context, arguments: Value) -> Outcome<EditResult> {
    let req: EditRequest = args::parse(arguments)?;
    let insert = insert::of(&req)?;
    let (items, form) = if insert.is_some() {
        // An insert replaces nothing: its one item carries the text, for the journal.
        let item = EditItem {
            old_text: String::new(),
            new_text: req.new_text.clone().unwrap_or_default(),
            replace_all: false,
            expected_replacements: None,
        };
        (vec![item], Form::Single)
    } else {
        let (items, form) = req.items()?;
        validate(&items, form)?;
        (items, form)
    };
    pipeline::run(
        ctx,
        &EditPlan {
            req: &req,
            items: &items,
            form,
            insert: insert.as_ref(),
        },
    )
}

/// An edit's plan: the request and its edits, parsed.
struct EditPlan<'r> {
    req: &'r EditRequest,
    items: &'r [EditItem],
    form: Form,
    /// The insert form: the text goes after a line, replacing nothing.
    insert: Option<&'r insert::Insert>,
}

impl pipeline::Plan for EditPlan<'_> {
    type Output = EditResult;

    fn paths(&self) -> Vec<&str> {
        vec![&self.req.path]
    }

    fn build(&self, ctx: &Context, at: &[Location], steps: Steps<'_>) -> Outcome<EditResult> {
        let location = &at[0];
        if location.kind.is_none() {
            // Checked as an edit of a file not there (a session that never read it is
            // told so first), then not found.
            let unmade = FileOp::unmade(location, None, None).mutating(Mutation::Edit);
            steps.check_change(&ChangeSet::of(EditRequest::TOOL, vec![unmade]))?;
            return Err(refuse::not_found(ctx, &location.shown)
                .with(key::OPERATION, "edit")
                .into());
        }
        edit_once(ctx, self, location, steps)
    }

    // The caller named the version it saw; the file is on its way to another.
    fn gave_up(&self, ctx: &Context, at: &[Location], failure: Failure) -> Failure {
        match &self.req.expected_sha256 {
            Some(expected) => stale_while_changing(ctx, &at[0], expected).into(),
            None => failure,
        }
    }
}

/// Loads the file and edits it.
fn edit_once(
    ctx: &Context,
    plan: &EditPlan<'_>,
    location: &Location,
    steps: Steps<'_>,
) -> Outcome<EditResult> {
    let loaded = textfile::load(ctx, location)?;
    let result = edit_loaded(ctx, plan, location, &loaded, steps);
    loaded.release();
    result
}

/// Applies the edits to the loaded file, checks, and writes: the rest of [`run`].
fn edit_loaded(
    ctx: &Context,
    plan: &EditPlan<'_>,
    location: &Location,
    loaded: &Loaded,
    steps: Steps<'_>,
) -> Outcome<EditResult> {
    let &EditPlan { req, items, .. } = plan;
    let shown = location.shown.clone();
    let (base_sha256, applied, staged) = prepare(ctx, plan, location, loaded);
    let (mutation, by_region) = mutation_of(
        ctx,
        (location, loaded),
        (&base_sha256, req.expected_sha256.as_deref()),
        applied.as_ref().ok().map(|(edited, _)| edited),
        plan.insert.map(|insert| insert.after),
    )?;
    // The change first, then its check: an edit whose text did not match is checked as a
    // change not made yet, so that a file the session never read is told so before the
    // edit's own refusal.
    let change = match &applied {
        Ok((edited, sha256)) => change(
            (location, loaded),
            edited,
            staged,
            items,
            (&base_sha256, sha256),
        ),
        Err(_) => unmade(location, loaded, &base_sha256),
    };
    let change = held(change, mutation, req);
    let checked = steps.check_change(&change)?;
    let (edited, sha256) = match &applied {
        Ok((edited, sha256)) => (edited, sha256),
        Err(refusal) => return Err(refusal.clone().into()),
    };
    let bytes = edited.len();
    if bytes as u64 > ctx.limits.max_file_bytes {
        return Err(too_large(&shown, bytes, ctx.limits.max_file_bytes).into());
    }
    let diff = edited.diff(&shown, MAX_DIFF_BYTES);
    let payload = Payload {
        replacements: Some(edited.replacements),
        diff: Some(&diff.text),
        ..Payload::of_file(ctx, &change, req.dry_run)
    };
    let Caveats {
        errors: syntax_errors,
        unchecked: syntax_unchecked,
    } = gate(ctx, req, &shown, loaded, edited)?;
    let approved = checked.authorize(&shown, &payload)?;
    let mut id = None;
    if let Some(approved) = approved.filter(|_| !edited.is_unchanged()) {
        id = approved.commit(change)?;
        remember(ctx, location, (edited, sha256), by_region.as_ref());
    }
    let skipped = SkippedItems::of(ctx, plan, (location, loaded), edited);
    let result = EditResult {
        path: shown,
        base_sha256,
        sha256: sha256.clone(),
        replacements: edited.replacements,
        bytes,
        applied: !req.dry_run && !skipped.all,
        id,
        diff: diff.text,
        diff_truncated: diff.truncated,
        line_endings: edited.crlf_converted.then(|| "crlf".to_owned()),
        already_applied: skipped.all,
        applied_by: skipped.applied_by,
        skipped_edits: skipped.items,
        stale_read: by_region.is_some(),
        foreign_changes: by_region.map(|r| r.foreign).unwrap_or_default(),
        syntax_errors,
        syntax_unchecked,
    };
    Ok(result)
}

/// The edits applied to the loaded file in memory, with the base digest and the
/// result's: on two cores, the result staged meanwhile, for a large file (see `large`);
/// in turn for a small one, where a thread costs more than it saves.
fn prepare<'a>(
    ctx: &'a Context,
    &EditPlan {
        req,
        items,
        form,
        insert,
    }: &EditPlan<'_>,
    location: &Location,
    loaded: &'a Loaded,
) -> large::Prepared<'a> {
    let shown = location.shown.clone();
    let earlier = earlier::Earlier::new(ctx, &location.real);
    let applied_by = |item: &EditItem, text: &str| earlier.applied_by(item, text);
    let versions = |text: &str| earlier.versions(text);
    let evidence = edited::Evidence {
        ok_if_applied: req.ok_if_applied,
        applied_by: Some(&applied_by),
        versions: Some(&versions),
    };
    let apply = || match insert {
        Some(insert) => insert::apply(&shown, loaded.text(), insert, &items[0].new_text),
        None => apply_with(&shown, loaded.text(), items, form, evidence),
    };
    if loaded.bytes().len() >= PARALLEL_BYTES {
        large::prepare(ctx, location, loaded, apply, req.dry_run)
    } else {
        let applied = apply().map(|edited| {
            let sha256 = edited.sha256();
            (edited, sha256)
        });
        (sha256_hex(loaded.bytes()), applied, None)
    }
}

/// The items an edit skipped as applied already (only with `okIfApplied`), and by which
/// journal entry.
struct SkippedItems {
    /// Every item was applied already: nothing was (or would be) written.
    all: bool,
    /// With `all`: the journal entry that made the change, when the file is still at its
    /// result.
    applied_by: Option<String>,
    /// Of several items, the ones skipped while the others applied.
    items: Vec<usize>,
}

impl SkippedItems {
    /// What `edited` skipped of the plan's items in the loaded file.
    fn of(
        ctx: &Context,
        &EditPlan { items, form, .. }: &EditPlan<'_>,
        (location, loaded): (&Location, &Loaded),
        edited: &Edited<'_>,
    ) -> SkippedItems {
        let all = edited.already_applied.len() == items.len();
        let journal = all
            .then(|| journal_applied_by(ctx, location, items, loaded))
            .flatten();
        SkippedItems {
            all,
            applied_by: edited.applied_by.clone().filter(|_| all).or(journal),
            items: if form == Form::Edits && !all {
                edited.already_applied.clone()
            } else {
                Vec::new()
            },
        }
    }
}

/// What the session's rules are asked about the edit: the whole-file rule, or — a
/// session's read at another version — by region (§6), with what that found.
fn mutation_of(
    ctx: &Context,
    (location, loaded): (&Location, &Loaded),
    (base_sha256, expected): (&str, Option<&str>),
    edited: Option<&Edited<'_>>,
    insert_after: Option<u64>,
) -> Outcome<(Mutation, Option<stale_read::ByRegion>)> {
    let by_region = stale_read::check(
        ctx,
        location,
        (loaded.bytes(), base_sha256),
        expected,
        edited,
        insert_after,
    )
    .transpose()?;
    let mutation = if by_region.is_some() {
        Mutation::EditByRegion
    } else {
        Mutation::Edit
    };
    Ok((mutation, by_region))
}

/// An edit whose text did not match, as a change to check: not made, over the file as
/// loaded.
fn unmade<'a>(location: &'a Location, loaded: &'a Loaded, base_sha256: &str) -> ChangeSet<'a> {
    let unmade = FileOp::unmade(location, Some(base_sha256.to_owned()), Some(&loaded.file));
    ChangeSet::of(EditRequest::TOOL, vec![unmade])
}

/// The edit's one file as the check holds it: asked about as `mutation`, at the
/// `expectedSha256` the caller named, if any; and — not a dry run — published over the
/// file only if it is still as read, a writer elsewhere included (`Workspace::stage`
/// with the file to reuse), so the check leaves the question of a writer to that last
/// look. A dry run publishes nothing, so its check asks.
fn held<'a>(mut change: ChangeSet<'a>, mutation: Mutation, req: &'a EditRequest) -> ChangeSet<'a> {
    change.files = change
        .files
        .into_iter()
        .map(|file| {
            let file = file
                .mutating(mutation)
                .expecting(Expected::Any.or_named(req.expected_sha256.as_deref()));
            if req.dry_run {
                file
            } else {
                file.looked_at_publish()
            }
        })
        .collect();
    change
}

/// The syntax gate on the edit: the file as loaded and the edited result.
fn gate(
    ctx: &Context,
    req: &EditRequest,
    shown: &str,
    loaded: &Loaded,
    edited: &Edited<'_>,
) -> Outcome<Caveats> {
    if edited.is_unchanged() || !syntax_gate::wanted(ctx, shown) {
        return Ok(Caveats::default());
    }
    let new = edited.parts().concat();
    let file = Gated {
        path: shown,
        old: Some(loaded.bytes()),
        new: &new,
        change_index: None,
    };
    let asked = Asked {
        field: Some(if req.edits.is_some() {
            "edits"
        } else {
            "newText"
        }),
        allow: req.allow_syntax_errors,
        dry_run: req.dry_run,
    };
    syntax_gate::check(ctx, &[file], asked)
}

/// The change in the journal that applied every item of `items` to the file, whose
/// result is still there.
fn journal_applied_by(
    ctx: &Context,
    location: &Location,
    items: &[EditItem],
    loaded: &Loaded,
) -> Option<String> {
    let edits: Vec<(&str, &str)> = items
        .iter()
        .map(|item| (item.old_text.as_str(), item.new_text.as_str()))
        .collect();
    journal::applied_by(ctx, &location.real, &edits, loaded.text())
}

/// `TOO_LARGE`: the edit would make the file `bytes` long, over `limit`.
fn too_large(shown: &str, bytes: usize, limit: u64) -> Refusal {
    Refusal::new(
        Code::TooLarge,
        format!("The edit would make `{shown}` {bytes} bytes, over the limit of {limit}"),
    )
    .with(key::PATH, shown)
    .with("bytes", bytes)
    .with("limit", limit)
    .with(key::FIELD, "result")
}

/// What a session's ledger keeps of an edit it made: after an edit by region, the lines
/// of the result it has not seen; and, where the journal does not keep the result, the
/// result's line digests, for the session's next edit by region.
fn remember(
    ctx: &Context,
    location: &Location,
    (edited, sha256): (&Edited<'_>, &str),
    by_region: Option<&stale_read::ByRegion>,
) {
    if ctx.session.is_none() {
        return;
    }
    if let Some(by_region) = by_region {
        session_check::note_written_lines(
            ctx,
            &location.real,
            sha256,
            by_region.unseen_after.clone(),
        );
    }
    let kept_by_journal =
        journal::keyed(ctx).is_ok() && edited.len() as u64 <= journal::RESULT_MAX_BYTES;
    if !kept_by_journal {
        crate::region::keep(&ctx.ws, sha256, &edited.parts().concat());
    }
}

/// What `edit_file` returns, in this order.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EditResult {
    pub path: String,
    /// The digest of the file the edit was applied to.
    pub base_sha256: String,
    pub sha256: String,
    pub replacements: usize,
    pub bytes: usize,
    /// False on a dry run.
    pub applied: bool,
    /// The journal entry, for undo_change and show_change (absent when nothing was
    /// written, or with the journal off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// A unified diff of the change, bounded in size.
    pub diff: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub diff_truncated: bool,
    /// `crlf` when some newText was written with CRLF to follow the file's convention.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_endings: Option<String>,
    /// With `okIfApplied`: every edit was already applied, so nothing changed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub already_applied: bool,
    /// With `alreadyApplied`: the journal entry that made the change, when the file is
    /// still at its result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied_by: Option<String>,
    /// With `okIfApplied` and `edits`: the items skipped as already applied while the
    /// others applied.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped_edits: Vec<usize>,
    /// In a session, the file had moved on since the session read it, in other lines
    /// than the edit's: it landed by region. Re-read before edits that depend on the
    /// lines in `foreignChanges`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stale_read: bool,
    /// The lines another program changed since the session's read (today's numbering,
    /// before this edit).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub foreign_changes: Vec<stale_read::Lines>,
    /// The syntax errors the edit leaves, when the gate only warns, was overridden
    /// (allowSyntaxErrors) or the call was a dry run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub syntax_errors: Vec<SyntaxReport>,
    /// Files of a known language the gate did not check: over `maxGateBytes`, or their
    /// parse took longer than `maxGateMillis`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub syntax_unchecked: Vec<Unchecked>,
}

/// The edit as a change of one file: the edited text (`staged` already, for a large
/// file; else staged by the commit, its unchanged head and tail copied in the kernel)
/// over the file as loaded, its version before kept, and the edits' digests kept in the
/// entry (`versions`: the digests before and after).
fn change<'a>(
    (location, loaded): (&'a Location, &'a Loaded),
    edited: &'a Edited<'a>,
    staged: Option<Result<Staged<'a>, workspace::Error>>,
    items: &[EditItem],
    (before, after): (&str, &str),
) -> ChangeSet<'a> {
    let new = match staged {
        Some(staged) => New::Staged(staged),
        None => New::Bytes {
            parts: edited.parts().to_vec(),
            mode: replace_mode(&loaded.file),
            reuse: Some(Reuse {
                source: &loaded.file,
                prefix: edited.head,
                suffix: edited.tail,
            }),
        },
    };
    let file = FileOp::write(
        location,
        (Some(before.to_owned()), after.to_owned()),
        new,
        Some(&loaded.file),
    )
    .keeping_base(Some(loaded.bytes()))
    .shown("edit", Some(edited.len() as u64));
    let edits = items
        .iter()
        .enumerate()
        .filter(|(i, _)| !edited.already_applied.contains(i))
        .map(|(_, item)| {
            [
                sha256_hex(item.old_text.as_bytes()),
                sha256_hex(item.new_text.as_bytes()),
            ]
        })
        .collect();
    let stat =
        crate::text::diff::stat_splice(edited.original, edited.head, &edited.middle, edited.tail);
    ChangeSet {
        about: About {
            undoes: None,
            edits,
        },
        ..ChangeSet::of(EditRequest::TOOL, vec![file])
    }
    .keeping(after, edited.parts().to_vec())
    .counted(vec![Some(stat)])
}

/// The mode a file keeps when its content is replaced: its own, and its owner.
fn replace_mode(file: &crate::workspace::OpenFile) -> WriteMode {
    WriteMode::Replace {
        mode: file.mode,
        uid: file.uid,
        gid: file.gid,
    }
}

/// The edited text in a temp file, not yet synced nor visible, keeping the file's mode
/// and owner; the unchanged head and tail are copied in the kernel rather than from memory.
fn stage<'a>(
    ctx: &'a Context,
    location: &Location,
    loaded: &'a Loaded,
    edited: &Edited<'_>,
) -> Result<Staged<'a>, workspace::Error> {
    let file = &loaded.file;
    let reuse = Reuse {
        source: file,
        prefix: edited.head,
        suffix: edited.tail,
    };
    ctx.ws
        .stage(location, &edited.parts(), Some(reuse), replace_mode(file))
}

/// Refuses empty snippets and edits that would change nothing, naming the item.
pub(super) fn validate(items: &[EditItem], form: Form) -> Result<(), Refusal> {
    let field = |index: usize, name: &str| {
        if form == Form::Edits {
            format!("edits[{index}].{name}")
        } else {
            name.to_owned()
        }
    };
    for (index, item) in items.iter().enumerate() {
        if item.old_text.is_empty() {
            return Err(invalid(
                &field(index, "oldText"),
                "oldText is empty; it must be text that is in the file",
            ));
        }
        if item.old_text == item.new_text {
            return Err(invalid(
                &field(index, "newText"),
                "newText is the same as oldText, so the edit would change nothing",
            ));
        }
    }
    Ok(())
}
