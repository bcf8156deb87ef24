//! Recovery on real files: an entry past its commit point finished through the commit's
//! executor — each file still at its version before brought to its version after, one at
//! neither left as it is — and one that never reached it dropped with nothing touched.

// The tests set their folder up as any program would: the code under test goes through
// the workspace.
#![allow(clippy::disallowed_methods)]

use std::path::Path;

use super::{finish, untouched};
use crate::digest::sha256_hex;
use crate::engine::journal::entry::{new_version_name, Entry, FileRecord};
use crate::engine::testing;

const ID: &str = "00000000000000000042";

#[allow(clippy::unnecessary_wraps)] // A version as records hold it.
fn sha(text: &str) -> Option<String> {
    Some(sha256_hex(text.as_bytes()))
}

/// An entry of `files` that keeps its new versions beside it (`rollForward`), written
/// only so that its change can be finished (`recordOnly`).
fn entry(files: Vec<FileRecord>) -> Entry {
    Entry {
        id: ID.to_owned(),
        time: "2026-12-05T00:00:00Z".to_owned(),
        tool: "apply_patch".to_owned(),
        session: None,
        undoes: None,
        files,
        edits: Vec::new(),
        stat: Vec::new(),
        roll_forward: true,
        record_only: true,
    }
}

/// A move of `from` to `to`, as it is (no new content).
fn moved(from: &str, to: &str, text: &str) -> FileRecord {
    FileRecord {
        from: Some(from.to_owned()),
        ..FileRecord::write(to, None, sha(text))
    }
}

fn pending(root: &Path) -> std::path::PathBuf {
    let pending = root.join(".stitch/journal/pending");
    std::fs::create_dir_all(&pending).unwrap();
    pending
}

fn read(root: &Path, path: &str) -> Option<String> {
    std::fs::read_to_string(root.join(path)).ok()
}

/// The change of `a.txt` (edited), `gone.txt` (deleted), `c.txt` moved to `d.txt` and
/// `new/n.txt` (created), with the new versions of the two it writes kept under
/// `pending/` as the entry names them.
fn change_of_four(root: &Path) -> Entry {
    for (path, text) in [
        ("a.txt", "old\n"),
        ("gone.txt", "bye\n"),
        ("c.txt", "moved\n"),
    ] {
        std::fs::write(root.join(path), text).unwrap();
    }
    let pending = pending(root);
    std::fs::write(pending.join(new_version_name(ID, 0)), "new\n").unwrap();
    std::fs::write(pending.join(new_version_name(ID, 3)), "created\n").unwrap();
    std::fs::write(pending.join(format!("{ID}.entry")), "the entry").unwrap();
    entry(vec![
        FileRecord::write("a.txt", sha("old\n"), sha("new\n")),
        FileRecord::write("gone.txt", sha("bye\n"), None),
        moved("c.txt", "d.txt", "moved\n"),
        FileRecord::write("new/n.txt", None, sha("created\n")),
    ])
}

#[test]
fn an_entry_past_its_commit_point_is_finished_file_by_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let ctx = testing::context(root);
    let entry = change_of_four(root);
    assert!(untouched(&ctx, &entry), "every file at its version before");
    finish(&ctx, None, &format!("{ID}.entry"), entry);
    assert_eq!(read(root, "a.txt").as_deref(), Some("new\n"));
    assert_eq!(read(root, "gone.txt"), None);
    assert_eq!(read(root, "c.txt"), None);
    assert_eq!(read(root, "d.txt").as_deref(), Some("moved\n"));
    assert_eq!(read(root, "new/n.txt").as_deref(), Some("created\n"));
    // The new versions were published from `pending/`, and the record-only entry went.
    let left: Vec<_> = std::fs::read_dir(pending(root)).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_file_at_neither_version_is_left_as_it_is_while_the_rest_is_finished() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let ctx = testing::context(root);
    let entry = change_of_four(root);
    // Another program wrote a.txt after the crash.
    std::fs::write(root.join("a.txt"), "theirs\n").unwrap();
    assert!(!untouched(&ctx, &entry));
    finish(&ctx, None, &format!("{ID}.entry"), entry);
    assert_eq!(read(root, "a.txt").as_deref(), Some("theirs\n"));
    assert_eq!(read(root, "gone.txt"), None);
    assert_eq!(read(root, "d.txt").as_deref(), Some("moved\n"));
    assert_eq!(read(root, "new/n.txt").as_deref(), Some("created\n"));
}

#[test]
fn an_entry_whose_new_versions_are_not_all_kept_and_whose_files_are_untouched_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let ctx = testing::context(root);
    let entry = change_of_four(root);
    // Killed before the last new version was kept: the entry never reached its commit
    // point, and nothing was published.
    std::fs::remove_file(pending(root).join(new_version_name(ID, 3))).unwrap();
    std::fs::create_dir(root.join("new")).unwrap();
    finish(&ctx, None, &format!("{ID}.entry"), entry);
    assert_eq!(read(root, "a.txt").as_deref(), Some("old\n"));
    assert_eq!(read(root, "gone.txt").as_deref(), Some("bye\n"));
    assert_eq!(read(root, "c.txt").as_deref(), Some("moved\n"));
    assert_eq!(read(root, "d.txt"), None);
    assert!(
        !root.join("new").exists(),
        "the directory made for n.txt went too"
    );
    let left: Vec<_> = std::fs::read_dir(pending(root)).unwrap().collect();
    assert!(
        left.is_empty(),
        "the entry and its new versions went: {left:?}"
    );
}

#[test]
fn untouched_looks_at_a_moves_source_too() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let ctx = testing::context(root);
    std::fs::write(root.join("c.txt"), "moved\n").unwrap();
    let entry = entry(vec![moved("c.txt", "d.txt", "moved\n")]);
    assert!(untouched(&ctx, &entry));
    std::fs::write(root.join("c.txt"), "changed\n").unwrap();
    assert!(
        !untouched(&ctx, &entry),
        "the source no longer holds what it moves"
    );
    std::fs::rename(root.join("c.txt"), root.join("d.txt")).unwrap();
    assert!(
        !untouched(&ctx, &entry),
        "the destination is no longer absent"
    );
}
