//! A kept version is relied on only once it is shown to be the version its name says, and
//! undo and delete look at each file again just before they publish: a planted object, an
//! append between the look and the unlink or rename, or an append through the kept inode
//! after it, never costs the only copy of a file. The windows are held open for certain
//! by the debug build's `STITCH_TEST_PAUSE`, which says on stderr when it is there.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::PermissionsExt;

use serde_json::json;

use crate::support::{sha256sum, Run, TestWorkspace};

/// Runs `stitch ARGS` held for a second at `moment` of its change; `during` runs in that
/// window (the first time it opens). Returns the call and how many times it paused there.
pub(super) fn paused(
    ws: &TestWorkspace,
    moment: &str,
    args: &[&str],
    during: impl FnOnce(),
) -> (Run, usize) {
    let mut cmd = ws.spawnable();
    cmd.env("STITCH_TEST_PAUSE", moment).args(args);
    let mut child = cmd.spawn().expect("spawn stitch");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert_eq!(
        line,
        format!("stitch-test: paused {moment}\n"),
        "the call never reached {moment}"
    );
    during();
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    let pauses = 1 + rest.matches("stitch-test: paused").count();
    (Run::from_output(output), pauses)
}

fn append(path: &std::path::Path, bytes: &str) {
    let mut file = fs::OpenOptions::new().append(true).open(path).unwrap();
    file.write_all(bytes.as_bytes()).unwrap();
}

fn plant(ws: &TestWorkspace, sha: &str, bytes: &str, mode: u32) {
    let objects = ws.path(".stitch/journal/objects");
    fs::create_dir_all(&objects).unwrap();
    fs::write(objects.join(sha), bytes).unwrap();
    fs::set_permissions(objects.join(sha), fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn a_planted_kept_version_is_replaced_so_a_deleted_file_comes_back() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "the only copy\n");
    ws.file("b.txt", "b\n");
    // The journal exists, as in any workspace that was used; then a clone plants an
    // object named for a.txt's digest.
    ws.run(&["edit", "b.txt", "--old", "b", "--new", "c"]).ok();
    plant(&ws, &sha256sum(b"the only copy\n"), "junk", 0o644);
    let deleted = ws.stitch("delete", &json!({"path": "a.txt"}));
    let id = deleted.ok()["id"].as_str().unwrap().to_owned();
    assert!(!ws.exists("a.txt"));
    ws.stitch("undo", &json!({"id": id})).ok();
    assert_eq!(ws.read_string("a.txt"), "the only copy\n");
}

#[test]
fn a_planted_link_where_an_edit_keeps_its_version_is_replaced() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "before\n");
    let outside = ws.outside_file("secret", "not the version\n");
    fs::create_dir_all(ws.path(".stitch/journal/objects")).unwrap();
    std::os::unix::fs::symlink(
        &outside,
        ws.path(&format!(
            ".stitch/journal/objects/{}",
            sha256sum(b"before\n")
        )),
    )
    .unwrap();
    ws.run(&["edit", "a.txt", "--old", "before", "--new", "after"])
        .ok();
    ws.stitch("undo", &json!({})).ok();
    assert_eq!(ws.read_string("a.txt"), "before\n");
    assert_eq!(fs::read_to_string(&outside).unwrap(), "not the version\n");
}

#[test]
fn undo_restores_the_mode_the_entry_recorded_not_the_kept_files() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "x\n");
    fs::set_permissions(ws.path("a.txt"), fs::Permissions::from_mode(0o640)).unwrap();
    ws.file("b.txt", "b\n");
    ws.run(&["edit", "b.txt", "--old", "b", "--new", "c"]).ok();
    // The right bytes under the right name, with a mode of the planter's choosing.
    plant(&ws, &sha256sum(b"x\n"), "x\n", 0o4777);
    ws.run(&["edit", "a.txt", "--old", "x", "--new", "y"]).ok();
    ws.stitch("undo", &json!({})).ok();
    assert_eq!(ws.read_string("a.txt"), "x\n");
    assert_eq!(ws.mode("a.txt") & 0o7777, 0o640);
}

#[test]
fn an_append_between_the_look_and_the_unlink_is_deleted_with_the_file_and_comes_back() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let path = ws.path("a.txt");
    let (run, pauses) = paused(&ws, "before-publish", &["delete", "a.txt"], || {
        append(&path, "two\n");
    });
    // The first try saw the file change and was built again from the file as it is.
    assert_eq!(
        pauses, 2,
        "the append did not overlap the delete: {}",
        run.stdout
    );
    let data = run.ok();
    assert_eq!(data["previousSha256"], sha256sum(b"one\ntwo\n"));
    let id = data["id"].as_str().unwrap().to_owned();
    ws.stitch("undo", &json!({"id": id})).ok();
    assert_eq!(ws.read_string("a.txt"), "one\ntwo\n");
}

/// A version kept by a hard link is the file's own inode until the change publishes: an
/// append before then reaches it too. Refused at the last look, the change does not
/// leave that inode under the version's name, which another change keeping the same
/// version may rely on: the name holds a copy of the version it says.
#[test]
fn an_append_before_the_publish_leaves_no_wrong_version_under_the_kept_name() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let path = ws.path("a.txt");
    let (run, pauses) = paused(
        &ws,
        "before-publish",
        &["edit", "a.txt", "--old", "one", "--new", "uno"],
        || {
            append(&path, "two\n");
        },
    );
    assert_eq!(
        pauses, 2,
        "the append did not overlap the edit: {}",
        run.stdout
    );
    assert_eq!(run.ok()["replacements"], 1);
    assert_eq!(ws.read_string("a.txt"), "uno\ntwo\n");
    let kept = ws.path(&format!(".stitch/journal/objects/{}", sha256sum(b"one\n")));
    assert_eq!(
        fs::read_to_string(&kept).unwrap(),
        "one\n",
        "a copy of the name's own version"
    );
}

#[test]
fn an_append_between_the_look_and_the_rename_is_never_undone_away() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    ws.run(&["edit", "a.txt", "--old", "one", "--new", "uno"])
        .ok();
    let path = ws.path("a.txt");
    let (run, _) = paused(&ws, "before-publish", &["undo"], || {
        append(&path, "more\n");
    });
    assert_eq!(run.envelope["error"], "STALE_VERSION", "{}", run.stdout);
    assert_eq!(run.envelope["details"]["path"], "a.txt");
    assert_eq!(ws.read_string("a.txt"), "uno\nmore\n");
    // Nothing was journaled for it: the edit is still the change to undo, and still
    // refused for the same reason.
    let again = ws.run(&["undo"]);
    assert_eq!(again.envelope["error"], "STALE_VERSION");
    assert_eq!(ws.read_string("a.txt"), "uno\nmore\n");
}

#[test]
fn an_append_through_the_kept_inode_after_a_delete_leaves_the_version_it_read() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    // A writer that opened the file before the delete, as a log appender does, and
    // writes after the unlink: where the platform tells that the file is open for
    // writing elsewhere, the delete waits its turn (BUSY); where it cannot, the append
    // lands in the inode the journal kept, which must then not be what undo restores.
    let mut writer = fs::OpenOptions::new()
        .append(true)
        .open(ws.path("a.txt"))
        .unwrap();
    let mut cmd = ws.spawnable();
    cmd.env("STITCH_TEST_PAUSE", "after-publish")
        .args(["delete", "a.txt"]);
    let mut child = cmd.spawn().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    writer.write_all(b"late\n").unwrap();
    let run = Run::from_output(child.wait_with_output().unwrap());
    if line.is_empty() {
        assert_eq!(run.envelope["error"], "BUSY", "{}", run.stdout);
        assert_eq!(ws.read_string("a.txt"), "one\nlate\n");
        return;
    }
    let data = run.ok();
    assert_eq!(data["previousSha256"], sha256sum(b"one\n"));
    let id = data["id"].as_str().unwrap().to_owned();
    ws.stitch("undo", &json!({"id": id})).ok();
    assert_eq!(ws.read_string("a.txt"), "one\n");
}
