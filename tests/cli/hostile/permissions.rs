//! Files the caller may not write are not replaced behind its back by a rename: a
//! mode-0444 file of its own, another user's 0644 file in a directory it may write, and
//! another user's 0666 file (writable, but whose owner a replacement could not keep) are
//! each `DENIED`, rule `permissions`, with their bytes, mode and owner as they were.
//!
//! stitch's own state planted so that it cannot be written (read-only lock files,
//! another user's `.stitch/`) is `INVALID_CONFIG` naming the state path, never a
//! hint-less internal error, and `config check` finds it.
//!
//! Root may write anything (`faccessat` grants it `W_OK`), so when the suite runs as
//! root, stitch runs as `nobody` here, in a workspace that user owns: a test that could
//! not fail would prove nothing.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::process::Stdio;

use serde_json::{json, Value};

use crate::support::{report, Run, TestWorkspace, SHA256, STRING};

/// The user and group stitch runs as when the suite is root.
const NOBODY: u32 = 65534;

/// The envelope of a file this process may not replace, for `reason`.
fn denied(path: &str, reason: &str) -> Value {
    json!({
        "ok": false,
        "error": "DENIED",
        "details": {
            "message": format!("`{path}` is not replaced: {reason}"),
            "path": path,
            "rule": "permissions",
            "reason": reason,
        },
    })
}

const MODE: &str = "its permissions do not let this process write it";
const OWNER: &str =
    "its owner is another user or group, which a replacement made by this process could not keep";

/// A workspace owned by the user stitch will run as (`nobody` under root).
struct Unprivileged {
    ws: TestWorkspace,
    /// Whether the suite is root, so stitch drops to `nobody`.
    as_nobody: bool,
}

impl Unprivileged {
    fn new() -> Self {
        let ws = TestWorkspace::new();
        let as_nobody = rustix::process::geteuid().is_root();
        ws.dir(".")
            .file("own.txt", "own\n")
            .file("mine.txt", "mine\n");
        if as_nobody {
            let status = std::process::Command::new("chown")
                .args(["-R", &format!("{NOBODY}:{NOBODY}")])
                .arg(ws.base())
                .status()
                .expect("chown");
            assert!(status.success());
        }
        std::fs::set_permissions(ws.path("mine.txt"), PermissionsExt::from_mode(0o444))
            .expect("chmod");
        Unprivileged { ws, as_nobody }
    }

    /// Runs stitch with `args`, as `nobody` when the suite is root.
    fn run(&self, args: &[&str]) -> Run {
        let mut cmd = self.ws.std_cmd();
        cmd.args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if self.as_nobody {
            cmd.uid(NOBODY).gid(NOBODY);
        }
        Run::from_output(cmd.output().expect("run stitch"))
    }
}

/// The bytes, mode, owner and group of `rel`.
fn facts(ws: &TestWorkspace, rel: &str) -> (Vec<u8>, u32, u32, u32) {
    let meta = std::fs::metadata(ws.path(rel)).expect("stat");
    (ws.read(rel), meta.mode() & 0o7777, meta.uid(), meta.gid())
}

#[track_caller]
fn refused_unchanged(u: &Unprivileged, rel: &str, reason: &str) {
    let before = facts(&u.ws, rel);
    let edit = u.run(&["edit", rel, "--old", "\n", "--new", "!\n"]);
    edit.assert_envelope(&denied(rel, reason));
    let write = u.run(&["write", rel, "--content", "taken\n", "--overwrite"]);
    write.assert_envelope(&denied(rel, reason));
    let dry = u.run(&[
        "write",
        rel,
        "--content",
        "taken\n",
        "--overwrite",
        "--dry-run",
    ]);
    dry.assert_envelope(&denied(rel, reason));
    // A move onto it and a patch of it are refused the same way.
    let onto = u.run(&["move", "own.txt", rel, "--overwrite"]);
    onto.assert_envelope(&denied(rel, reason));
    let first = String::from_utf8_lossy(&before.0)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned();
    let patch =
        format!("*** Begin Patch\n*** Update File: {rel}\n@@\n-{first}\n+taken\n*** End Patch\n");
    let patched = u.run(&["apply", "--patch", &patch]);
    patched.assert_envelope(&denied(rel, reason));
    // Nor is it deleted, as `rm` would ask first.
    let deleted = u.run(&["delete", rel]);
    deleted.assert_envelope(&denied(rel, reason));
    assert_eq!(facts(&u.ws, rel), before, "`{rel}` is as it was");
    assert_eq!(
        u.ws.read_string("own.txt"),
        "own\n",
        "the move changed nothing"
    );
}

#[test]
fn a_read_only_file_of_ones_own_is_not_replaced() {
    let u = Unprivileged::new();
    refused_unchanged(&u, "mine.txt", MODE);
    // The control: a file it may write is replaced, its mode kept.
    let run = u.run(&["write", "own.txt", "--content", "new\n", "--overwrite"]);
    run.assert_envelope(&json!({"ok": true, "data": {
        "path": "own.txt", "sha256": SHA256, "bytes": 4, "created": false,
        "createdDirectories": [], "applied": true, "id": STRING, "previousSha256": SHA256,
    }}));
    assert_eq!(u.ws.read_string("own.txt"), "new\n");
    if !u.as_nobody {
        report(
            "permissions: not root, so another user's files cannot be planted; own 0444 case run",
        );
    }
}

#[test]
fn another_users_file_is_not_replaced_nor_taken_over() {
    let u = Unprivileged::new();
    if !u.as_nobody {
        report("permissions: skipped another user's files: the suite is not root, so it cannot plant them");
        return;
    }
    // Root's files in a directory `nobody` owns and may write: one it may not write,
    // one it may write but whose owner a rename would change.
    for (rel, mode) in [("roots.txt", 0o644), ("shared.txt", 0o666)] {
        u.ws.file(rel, "root's\n");
        std::fs::set_permissions(u.ws.path(rel), PermissionsExt::from_mode(mode)).expect("chmod");
    }
    refused_unchanged(&u, "roots.txt", MODE);
    refused_unchanged(&u, "shared.txt", OWNER);
    assert_eq!(facts(&u.ws, "shared.txt").2, 0, "still root's");
}

/// The whole `INVALID_CONFIG` of stitch's state at `path` that this process may not write.
fn state_denied(path: &str) -> Value {
    let reason = "cannot be opened or written by this process (permission denied)";
    json!({
        "ok": false,
        "error": "INVALID_CONFIG",
        "details": {
            "message": format!("stitch's own state is unusable: `{path}` {reason}"),
            "path": path,
            "field": path,
            "reason": reason,
        },
        "_hint": format!("The workspace owner must remove or replace `{path}` (stitch keeps its own state there); `stitch config check` shows the problem."),
    })
}

#[test]
fn read_only_planted_lock_files_are_invalid_config_and_config_check_says_so() {
    let u = Unprivileged::new();
    if !u.as_nobody {
        report("permissions: skipped planted read-only lock files: root bypasses their mode, and the suite is not root to drop it");
        return;
    }
    // The lock files a clone would carry, made as they would be, then read-only.
    u.run(&["edit", "own.txt", "--old", "own", "--new", "OWN"])
        .ok();
    let locks = crate::support::names_in(&u.ws.path(".stitch/locks"));
    assert!(!locks.is_empty());
    for name in &locks {
        std::fs::set_permissions(
            u.ws.path(&format!(".stitch/locks/{name}")),
            PermissionsExt::from_mode(0o444),
        )
        .expect("chmod");
    }
    let before = facts(&u.ws, "own.txt");
    let run = u.run(&["edit", "own.txt", "--old", "OWN", "--new", "own"]);
    let lock = run.envelope["details"]["path"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        locks
            .iter()
            .any(|name| lock == format!(".stitch/locks/{name}")),
        "{}",
        run.stdout
    );
    run.assert_envelope(&state_denied(&lock));
    assert_eq!(facts(&u.ws, "own.txt"), before, "nothing changed");
    // `config check` finds what every mutation would meet.
    let check = u.run(&["config", "check"]);
    check.assert_envelope(&state_denied(
        check.envelope["details"]["path"]
            .as_str()
            .unwrap_or_default(),
    ));
    assert!(check.envelope["details"]["path"]
        .as_str()
        .unwrap_or_default()
        .starts_with(".stitch/locks/"));
}

#[test]
fn a_state_directory_the_caller_may_not_write_is_invalid_config() {
    let u = Unprivileged::new();
    if !u.as_nobody {
        report("permissions: skipped a planted state directory: the suite is not root to drop it");
        return;
    }
    // `.stitch/` planted as another user's directory, closed to this one.
    for dir in [
        ".stitch",
        ".stitch/locks",
        ".stitch/sessions",
        ".stitch/tmp",
    ] {
        u.ws.dir(dir);
        std::os::unix::fs::chown(u.ws.path(dir), Some(0), Some(0)).expect("chown");
        std::fs::set_permissions(u.ws.path(dir), PermissionsExt::from_mode(0o755)).expect("chmod");
    }
    let before = facts(&u.ws, "own.txt");
    let run = u.run(&["write", "own.txt", "--content", "x\n", "--overwrite"]);
    let path = run.envelope["details"]["path"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(path.starts_with(".stitch/locks/"), "{}", run.stdout);
    run.assert_envelope(&state_denied(&path));
    assert_eq!(facts(&u.ws, "own.txt"), before, "nothing changed");
    u.run(&["config", "check"])
        .assert_envelope(&state_denied(".stitch"));
    // Reads need no state, and still work.
    assert_eq!(u.run(&["read", "own.txt"]).ok()["content"], "own\n");
}
