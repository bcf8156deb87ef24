//! apply's builder, summary and change, on real files: what each part leaves in the tree,
//! the journal's records, and the one change the pipeline checks and the commit publishes.

// The tests set their folder up as any program would: the code under test goes through
// the workspace.
#![allow(clippy::disallowed_methods)]

use std::collections::BTreeMap;

use super::budget::Budget;
use super::build::{self, Built, Held};
use super::op::{Action, Part};
use super::{change, load_originals, summary};
use crate::digest::sha256_hex;
use crate::engine::change::{ChangeSet, Expected, New, Op};
use crate::engine::journal::{FileRecord, Keep};
use crate::engine::session_check::Mutation;
use crate::engine::testing;
use crate::engine::Context;
use crate::refusal::Refusal;
use crate::workspace::Location;

/// A folder holding `files`, and the context of a call there.
fn workspace(files: &[(&str, &str)]) -> (tempfile::TempDir, Context) {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        std::fs::write(dir.path().join(path), text).unwrap();
    }
    let ctx = testing::context(dir.path());
    (dir, ctx)
}

fn parts_of(patch: &str) -> Vec<Part> {
    let patch = crate::patch::parse(patch).unwrap();
    patch.changes.into_iter().map(Part::of_patch).collect()
}

/// Every path `parts` names, each once, in order (as the plan locks them), located.
fn locations(ctx: &Context, parts: &[Part]) -> Vec<(String, Location)> {
    let mut raws: Vec<&str> = parts.iter().flat_map(Part::paths).collect();
    raws.sort_unstable();
    raws.dedup();
    raws.into_iter()
        .map(|raw| (raw.to_owned(), ctx.ws.locate(raw).unwrap()))
        .collect()
}

/// Builds `parts` in `ctx`'s folder, then hands `then` what was built, the journal's
/// records and the change.
fn built(
    ctx: &Context,
    parts: &[Part],
    then: impl FnOnce(Result<&Built, Refusal>, &[FileRecord], Option<&ChangeSet<'_>>),
) {
    let at = locations(ctx, parts);
    let located: BTreeMap<&str, &Location> = at.iter().map(|(raw, l)| (raw.as_str(), l)).collect();
    let originals = load_originals(ctx, &located).unwrap();
    match build::build(ctx, parts, &located, &originals, &Budget::start()) {
        Ok(built) => {
            let (_, records, counted) = summary::summary(&built, &located, &originals);
            let change = change(
                &located,
                (&originals, &BTreeMap::new()),
                (&records, &counted),
                &built.tree,
            );
            // Each record counted from the result's diffs as a diff of its own counts it.
            let uncounted = summary::Counted::default();
            let stat: Vec<_> = records
                .iter()
                .map(|r| summary::stat(r, &originals, &built.tree, &uncounted))
                .collect();
            assert_eq!(change.stat, stat);
            then(Ok(&built), &records, Some(&change));
        }
        Err(refusal) => then(Err(refusal), &[], None),
    }
}

/// One operation of a change, in words: its path, what it does, its source, its
/// versions before and after, whether it replaces a file as read, what it is shown as,
/// and the new text it publishes.
fn described(change: &ChangeSet<'_>) -> Vec<String> {
    change
        .files
        .iter()
        .map(|file| {
            let text = |new: &New<'_>| match new {
                New::Bytes { parts, .. } => String::from_utf8(parts.concat()).unwrap(),
                _ => "(not in memory)".to_owned(),
            };
            let (what, new) = match &file.op {
                Op::Write(new) => ("write".to_owned(), text(new)),
                Op::Delete => ("delete".to_owned(), String::new()),
                Op::Move { from, new, .. } => (
                    format!("move from {}", from.shown),
                    new.as_ref().map(text).unwrap_or_default(),
                ),
                other => (format!("{other:?}"), String::new()),
            };
            format!(
                "{} {what} {:?}->{:?} base:{} shown:{} {new:?}",
                file.at.shown,
                file.before.as_deref().map(|s| &s[..8]),
                file.after.as_deref().map(|s| &s[..8]),
                file.base.is_some(),
                file.shown_as,
            )
        })
        .collect()
}

fn short(text: &str) -> String {
    sha256_hex(text.as_bytes())[..8].to_owned()
}

#[test]
fn an_update_an_add_and_a_delete_are_three_operations_over_the_files_as_read() {
    let (_dir, ctx) = workspace(&[("a.txt", "one\ntwo\n"), ("gone.txt", "bye\n")]);
    let parts = parts_of(
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n two\n*** Add File: new.txt\n+hello\n*** Delete File: gone.txt\n*** End Patch\n",
    );
    built(&ctx, &parts, |built, records, change| {
        let built = built.unwrap();
        assert_eq!(built.tree["a.txt"].held, Held::Text("ONE\ntwo\n".into()));
        assert_eq!(built.tree["new.txt"].held, Held::Text("hello\n".into()));
        assert_eq!(built.tree["gone.txt"].held, Held::Absent);
        let ops: Vec<&str> = built.effects.iter().map(|e| e.operation).collect();
        assert_eq!(ops, ["edit", "write", "delete"]);
        // One record per file whose content differs at the end, by path.
        assert_eq!(
            records,
            [
                FileRecord::write(
                    "a.txt",
                    Some(sha256_hex(b"one\ntwo\n")),
                    Some(sha256_hex(b"ONE\ntwo\n"))
                ),
                FileRecord::write("gone.txt", Some(sha256_hex(b"bye\n")), None),
                FileRecord::write("new.txt", None, Some(sha256_hex(b"hello\n"))),
            ]
        );
        let change = change.unwrap();
        assert_eq!(
            described(change),
            [
                format!(
                    "a.txt write Some({:?})->Some({:?}) base:true shown:edit \"ONE\\ntwo\\n\"",
                    short("one\ntwo\n"),
                    short("ONE\ntwo\n")
                ),
                format!(
                    "gone.txt delete Some({:?})->None base:true shown:delete \"\"",
                    short("bye\n")
                ),
                format!(
                    "new.txt write None->Some({:?}) base:false shown:write \"hello\\n\"",
                    short("hello\n")
                ),
            ]
        );
        // Every file held to its version as read, asked the session's whole-file rule;
        // the ones replaced or removed kept from the bytes read.
        for file in &change.files {
            assert_eq!(file.expect, Expected::Any);
            assert_eq!(file.mutation, Mutation::Write);
            let kept = matches!(file.keep, Keep::File { bytes: Some(_), .. });
            assert_eq!(kept, file.before.is_some(), "{}", file.at.shown);
        }
        assert_eq!(
            change.results.len(),
            2,
            "the two new texts kept for an undo"
        );
        // The update shares its unchanged tail with the file read, for the stage to
        // copy in the kernel when it is large; a new file shares nothing.
        let reuse = |i: usize| match &change.files[i].op {
            Op::Write(New::Bytes { reuse, .. }) => reuse.map(|r| (r.prefix, r.suffix)),
            _ => None,
        };
        assert_eq!(reuse(0), Some((0, "\ntwo\n".len())));
        assert_eq!(reuse(2), None);
    });
}

#[test]
fn a_move_then_an_edit_of_the_new_path_is_one_move_that_changed_the_content() {
    let (_dir, ctx) = workspace(&[("a.txt", "one\n")]);
    let mut parts =
        parts_of("*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n*** End Patch\n");
    parts.extend(parts_of(
        "*** Begin Patch\n*** Update File: b.txt\n@@\n-one\n+two\n*** End Patch\n",
    ));
    built(&ctx, &parts, |built, records, change| {
        let built = built.unwrap();
        assert_eq!(built.tree["a.txt"].held, Held::Absent);
        assert_eq!(built.tree["b.txt"].held, Held::Text("two\n".into()));
        assert_eq!(built.tree["b.txt"].origin.as_deref(), Some("a.txt"));
        assert_eq!(
            records,
            [FileRecord {
                from: Some("a.txt".into()),
                from_before: Some(sha256_hex(b"one\n")),
                ..FileRecord::write("b.txt", None, Some(sha256_hex(b"two\n")))
            }]
        );
        let change = change.unwrap();
        assert_eq!(
            described(change),
            [format!(
                "b.txt move from a.txt None->Some({:?}) base:false shown:move \"two\\n\"",
                short("two\n")
            )]
        );
        let Op::Move {
            from_base,
            from_before,
            from_writable,
            from_read,
            ..
        } = &change.files[0].op
        else {
            unreachable!("a move, as described");
        };
        // The source is removed: held to the permissions rule, at its version as read.
        assert!(from_base.is_some() && *from_writable && from_read.is_none());
        assert_eq!(from_before.as_deref(), Some(sha256_hex(b"one\n").as_str()));
        // Its version before is kept from the source's bytes, for an undo.
        assert!(matches!(
            change.files[0].keep,
            Keep::File { location, bytes: Some(b"one\n"), .. } if location.shown == "a.txt"
        ));
    });
}

#[test]
fn a_part_expecting_a_digest_is_held_to_the_tree_the_parts_before_it_leave() {
    let (_dir, ctx) = workspace(&[("a.txt", "one\n")]);
    let first =
        parts_of("*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch\n");
    // The second part expects the file as it was read: the first part changed it.
    let second = Part {
        op: Action::Write {
            path: "a.txt".into(),
            content: "three\n".into(),
            added: super::op::Added::ByWrite { overwrite: true },
            executable: None,
        },
        expected_sha256: Some(sha256_hex(b"one\n")),
    };
    let parts = [first, vec![second]].concat();
    built(&ctx, &parts, |built, records, change| {
        let refusal = built.err().expect("the second part is stale");
        assert_eq!(refusal.code(), crate::refusal::Code::StaleVersion);
        assert_eq!(refusal.detail("changeIndex"), Some(&serde_json::json!(1)));
        assert_eq!(
            refusal.detail("actualSha256"),
            Some(&serde_json::json!(sha256_hex(b"two\n")))
        );
        assert!(records.is_empty() && change.is_none());
    });
    // Expecting what the first part leaves, it is built over it.
    let mut parts = parts;
    parts[1].expected_sha256 = Some(sha256_hex(b"two\n"));
    built(&ctx, &parts, |built, records, _| {
        assert_eq!(
            built.unwrap().tree["a.txt"].held,
            Held::Text("three\n".into())
        );
        assert_eq!(
            records,
            [FileRecord::write(
                "a.txt",
                Some(sha256_hex(b"one\n")),
                Some(sha256_hex(b"three\n"))
            )]
        );
    });
}
