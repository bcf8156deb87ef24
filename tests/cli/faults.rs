//! Faults the workspace cannot argue with: a full disk, a read-only filesystem, an
//! immutable file, a directory and a file the caller may not write or read. Each changes
//! nothing — the original file is byte-identical, no temp file is left, no space is lost
//! — and says what it can: a file the kernel says may not be written is `DENIED` (rule
//! `permissions`), state that cannot be kept on a read-only filesystem is
//! `INVALID_CONFIG` naming it, and the rest is an internal failure the caller cannot act
//! on — `INTERNAL_SERVER_ERROR`, exit 3, no host path and no errno text.
//!
//! These need root (mount(8), chattr(1)) or a way to drop it (setpriv(1)). Where the
//! machine allows neither, a case says on stderr that it skips and why, and the rest run.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::json;

use crate::support::{mount, names_in, report, tree, Mount, Run, TestWorkspace};

/// Says on stderr, in every run, that a case is skipped and why.
fn skip(case: &str, why: &str) {
    report(&format!("faults: SKIPPED {case}: {why}"));
}

fn note(line: &str) {
    report(&format!("faults: {line}"));
}

/// Asserts the internal-failure envelope exactly, and that nothing in it names the host:
/// no temp or mount path, no errno text.
#[track_caller]
fn assert_internal(run: &Run, ws: &TestWorkspace) {
    run.refused("INTERNAL_SERVER_ERROR");
    assert_eq!(
        run.envelope,
        json!({"ok": false, "error": "INTERNAL_SERVER_ERROR", "details": {"message": "internal error"}}),
        "{}",
        run.stdout
    );
    let base = ws.base();
    for leak in [
        base.to_str().unwrap(),
        "/tmp",
        "os error",
        "No space",
        "Read-only",
        "Permission",
        "Operation not permitted",
    ] {
        assert!(!run.stdout.contains(leak), "`{leak}` in {}", run.stdout);
    }
}

/// Free blocks on the filesystem holding `dir`.
fn free_blocks(dir: &Path) -> u64 {
    rustix::fs::statvfs(dir).unwrap().f_bfree
}

/// The visible names below `dir` with their bytes, `.stitch/` left out.
fn visible(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut all = tree(dir);
    all.retain(|path, _| !path.starts_with(".stitch"));
    all
}

/// What differs between two snapshots, by path: added, removed, changed.
fn differences(
    before: &std::collections::BTreeMap<PathBuf, Vec<u8>>,
    after: &std::collections::BTreeMap<PathBuf, Vec<u8>>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (path, bytes) in after {
        match before.get(path) {
            None => out.push(format!("added {}", path.display())),
            Some(old) if old != bytes => out.push(format!("changed {}", path.display())),
            Some(_) => {}
        }
    }
    for path in before.keys().filter(|p| !after.contains_key(*p)) {
        out.push(format!("removed {}", path.display()));
    }
    out
}

/// Whether `.stitch/tmp/` under `root` is absent or empty.
fn staging_is_empty(root: &Path) -> bool {
    let staging = root.join(".stitch/tmp");
    !staging.exists() || names_in(&staging).is_empty()
}

/// A tmpfs of `size` mounted over the workspace root.
fn small_root(ws: &TestWorkspace, size: &str) -> Result<Mount, String> {
    mount("tmpfs", &format!("size={size},mode=0755"), &ws.root())
}

/// A 1 MiB tmpfs over the root holding `keep.txt` and `grow.txt`, filled with writes
/// until one fails (which must be the internal-failure envelope); `None` where the
/// machine cannot mount.
fn full_disk(ws: &TestWorkspace, keep: &str) -> Option<Mount> {
    let mounted = match small_root(ws, "1m") {
        Ok(m) => m,
        Err(why) => {
            skip("the full disk (tmpfs of 1 MiB)", &why);
            return None;
        }
    };
    ws.file("keep.txt", keep).file("grow.txt", "small\n");
    let chunk = "fill line of text\n".repeat(6 * 1024); // about 108 KiB
    let mut written = 0;
    let full = loop {
        let run = ws.stitch(
            "write",
            &json!({"path": format!("fill-{written}.txt"), "content": chunk}),
        );
        if run.envelope["ok"] != true {
            break run;
        }
        written += 1;
        assert!(written < 20, "a 1 MiB tmpfs never filled up");
    };
    assert_internal(&full, ws);
    assert!(
        !ws.exists(&format!("fill-{written}.txt")),
        "the failed file exists"
    );
    note(&format!(
        "full disk: {written} writes of 108 KiB fit, the next is INTERNAL_SERVER_ERROR"
    ));
    Some(mounted)
}

/// Runs each failing call on the full disk and asserts that it changed nothing: no file,
/// no directory, no temp file, no space.
fn fails_cleanly(ws: &TestWorkspace, attempts: &[(&str, serde_json::Value)]) {
    let before = visible(&ws.root());
    let free = free_blocks(&ws.root());
    for (tool, request) in attempts {
        let run = ws.stitch(tool, request);
        assert_internal(&run, ws);
        assert_eq!(
            differences(&before, &visible(&ws.root())),
            Vec::<String>::new(),
            "{tool} {}: a failed call changed the workspace",
            &request["path"]
        );
        assert!(staging_is_empty(&ws.root()), "{tool}: a temp file is left");
        assert_eq!(
            free_blocks(&ws.root()),
            free,
            "{tool}: a failed call leaked space (a hidden temp file)"
        );
    }
}

#[test]
fn a_full_disk_is_an_internal_error_that_changes_nothing() {
    let ws = TestWorkspace::new();
    let keep = "the original, byte for byte\r\n\tkept\n".repeat(100);
    let Some(_mounted) = full_disk(&ws, &keep) else {
        return;
    };
    let big = "x".repeat(600 * 1024);
    fails_cleanly(
        &ws,
        &[
            (
                "write",
                json!({"path": "keep.txt", "content": big, "overwrite": true}),
            ),
            ("write", json!({"path": "new.txt", "content": big})),
            (
                "edit",
                json!({"path": "grow.txt", "oldText": "small", "newText": big}),
            ),
            (
                "edit",
                json!({"path": "keep.txt", "edits": [{"oldText": "kept", "newText": big, "replaceAll": true}]}),
            ),
        ],
    );
    assert_eq!(ws.read_string("keep.txt"), keep);
    assert_eq!(ws.read_string("grow.txt"), "small\n");
    // Reading needs no space.
    assert_eq!(
        ws.stitch("read", &json!({"path": "keep.txt"})).ok()["content"],
        keep
    );
}

/// A write into missing directories creates them first; when the write then fails, the
/// directories it created must go too, as for any failed mutation.
#[test]

fn a_failed_write_leaves_no_directories_it_created() {
    let ws = TestWorkspace::new();
    let Some(_mounted) = full_disk(&ws, "keep\n") else {
        return;
    };
    let big = "x".repeat(600 * 1024);
    fails_cleanly(
        &ws,
        &[("write", json!({"path": "new/dir/file.txt", "content": big}))],
    );
}

#[test]
fn a_read_only_filesystem_refuses_mutations_and_still_reads() {
    let ws = TestWorkspace::new();
    let mounted = match small_root(&ws, "4m") {
        Ok(m) => m,
        Err(why) => return skip("the read-only filesystem (tmpfs)", &why),
    };
    ws.file("a.txt", "read-only content\n");
    // A mutation first, so that `.stitch/` and its lock files exist as they would.
    ws.stitch(
        "edit",
        &json!({"path": "a.txt", "oldText": "content", "newText": "text"}),
    )
    .ok();
    let remount = Command::new("mount")
        .args(["-o", "remount,ro"])
        .arg(&mounted.0)
        .output()
        .unwrap();
    if !remount.status.success() {
        return skip(
            "the read-only filesystem",
            &format!(
                "mount -o remount,ro failed: {}",
                String::from_utf8_lossy(&remount.stderr).trim()
            ),
        );
    }
    let before = tree(&ws.root());
    for (tool, request) in [
        (
            "write",
            json!({"path": "a.txt", "content": "x", "overwrite": true}),
        ),
        ("write", json!({"path": "new.txt", "content": "x"})),
        ("write", json!({"path": "d/new.txt", "content": "x"})),
        (
            "edit",
            json!({"path": "a.txt", "oldText": "text", "newText": "TEXT"}),
        ),
    ] {
        // The lock is stitch's own state, and it cannot be kept on a read-only
        // filesystem: INVALID_CONFIG naming the lock file, before anything else.
        let run = ws.stitch(tool, &request);
        let lock = run.refused("INVALID_CONFIG")["path"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        assert!(
            lock.starts_with(".stitch/locks/") && lock.len() > ".stitch/locks/".len(),
            "{}",
            run.stdout
        );
        assert_read_only_state(&run, &lock);
    }
    let check = ws.run(&["config", "check"]);
    assert_read_only_state(&check, ".stitch");
    assert_eq!(
        differences(&before, &tree(&ws.root())),
        Vec::<String>::new(),
        "a read-only filesystem changed"
    );
    assert_eq!(
        ws.stitch("read", &json!({"path": "a.txt"})).ok()["content"],
        "read-only text\n"
    );
    ws.stitch("list", &json!({})).ok();
    ws.stitch("glob", &json!({"pattern": "*.txt"})).ok();
    assert_eq!(
        ws.stitch("search", &json!({"query": "only"})).ok()["matches"][0]["path"],
        "a.txt"
    );
    note("read-only filesystem: 4 mutations and config check INVALID_CONFIG, 4 reads ok");
}

/// Asserts the whole `INVALID_CONFIG` of stitch's state at `path` on a read-only
/// filesystem.
#[track_caller]
fn assert_read_only_state(run: &Run, path: &str) {
    let reason = "is on a read-only filesystem";
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_CONFIG",
        "details": {
            "message": format!("stitch's own state is unusable: `{path}` {reason}"),
            "path": path,
            "field": path,
            "reason": reason,
        },
        "_hint": format!("The workspace owner must remove or replace `{path}` (stitch keeps its own state there); `stitch config check` shows the problem."),
    }));
}

/// The whole `DENIED` of a file this process may not replace, for `reason`.
fn denied(path: &str, reason: &str) -> serde_json::Value {
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

/// Clears the immutable flag however the test ends, so the temp dir can be removed.
struct Immutable(Vec<PathBuf>);

impl Drop for Immutable {
    fn drop(&mut self) {
        for path in &self.0 {
            let _ = Command::new("chattr").arg("-i").arg(path).status();
        }
    }
}

#[test]
fn an_immutable_file_and_directory_refuse_changes_and_leave_no_temp() {
    let ws = TestWorkspace::new();
    ws.file("locked.txt", "immutable\n")
        .file("frozen/inside.txt", "in a frozen directory\n");
    let paths = [ws.path("locked.txt"), ws.path("frozen")];
    let chattr = Command::new("chattr").arg("+i").args(&paths).output();
    let _guard = Immutable(paths.to_vec());
    match chattr {
        Ok(out) if out.status.success() => {}
        Ok(out) => {
            return skip(
                "the immutable file (chattr +i)",
                String::from_utf8_lossy(&out.stderr).trim(),
            )
        }
        Err(e) => return skip("the immutable file (chattr +i)", &e.to_string()),
    }
    let before = visible(&ws.root());
    for (tool, request) in [
        (
            "write",
            json!({"path": "locked.txt", "content": "x", "overwrite": true}),
        ),
        (
            "edit",
            json!({"path": "locked.txt", "oldText": "immutable", "newText": "changed"}),
        ),
        ("write", json!({"path": "frozen/new.txt", "content": "x"})),
        (
            "edit",
            json!({"path": "frozen/inside.txt", "oldText": "frozen", "newText": "thawed"}),
        ),
    ] {
        let run = ws.stitch(tool, &request);
        if request["path"] == "locked.txt" {
            // The kernel says the file may not be written: that is the caller's to know.
            run.assert_envelope(&denied(
                "locked.txt",
                "its permissions do not let this process write it",
            ));
        } else {
            assert_internal(&run, &ws);
        }
        assert_eq!(
            differences(&before, &visible(&ws.root())),
            Vec::<String>::new(),
            "{tool} {}",
            &request["path"]
        );
        assert!(
            staging_is_empty(&ws.root()),
            "{tool} {request}: a staged temp file is left under .stitch/tmp/"
        );
    }
    note("immutable file and directory: 2 mutations DENIED, 2 INTERNAL_SERVER_ERROR, nothing changed");
}

/// `stitch` run as `nobody` (uid and gid 65534, no groups) through setpriv(1); `Err`
/// says why it could not be run that way.
fn as_nobody(ws: &TestWorkspace, args: &[&str]) -> Result<Run, String> {
    let stitch = ws.std_cmd();
    let output = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(stitch.get_program())
        .args(stitch.get_args())
        .args(args)
        .env_clear()
        .current_dir(ws.root())
        .output()
        .map_err(|e| format!("cannot run setpriv(1): {e}"))?;
    if output.stdout.is_empty() {
        return Err(format!(
            "setpriv could not run stitch as nobody: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(Run::from_output(output))
}

#[test]
fn a_directory_and_a_file_the_caller_may_not_touch() {
    use std::os::unix::fs::PermissionsExt;
    let ws = TestWorkspace::new();
    let set_mode = |path: &Path, mode: u32| {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    };
    ws.file("ro/f.txt", "in a read-only directory\n")
        .file("unreadable.txt", "UNREADABLE-5e3d secret\n")
        .file("open.txt", "anyone may read\n")
        .dir(".stitch/locks")
        .dir(".stitch/tmp");
    set_mode(&ws.base(), 0o755);
    set_mode(&ws.root(), 0o755);
    // The state directory is open to all, so that locks are taken and what fails is the
    // directory or the file itself.
    for dir in [".stitch", ".stitch/locks", ".stitch/tmp"] {
        set_mode(&ws.path(dir), 0o777);
    }
    set_mode(&ws.path("ro/f.txt"), 0o666);
    set_mode(&ws.path("ro"), 0o555);
    set_mode(&ws.path("unreadable.txt"), 0o600);

    let probe = match as_nobody(&ws, &["read", "open.txt"]) {
        Ok(probe) => probe,
        Err(why) => return skip("the unprivileged caller", &why),
    };
    if probe.envelope["ok"] != true {
        return skip(
            "the unprivileged caller",
            &format!("setpriv could not run stitch as nobody: {}", probe.stdout),
        );
    }
    let before = tree(&ws.root());
    let calls: [&[&str]; 5] = [
        &["write", "ro/new.txt", "--content", "x"],
        &["write", "ro/f.txt", "--content", "x", "--overwrite"],
        &[
            "edit",
            "ro/f.txt",
            "--old",
            "read-only",
            "--new",
            "writable",
        ],
        &["write", "ro/sub/new.txt", "--content", "x"],
        &["read", "unreadable.txt"],
    ];
    for args in calls {
        let run = as_nobody(&ws, args).unwrap();
        if args[1] == "ro/f.txt" {
            // Root's file, writable by all: a rename would hand it to nobody.
            run.assert_envelope(&denied(
                "ro/f.txt",
                "its owner is another user or group, which a replacement made by this process could not keep",
            ));
        } else {
            assert_internal(&run, &ws);
        }
        assert!(!run.stdout.contains("UNREADABLE-5e3d"), "{}", run.stdout);
        assert!(!run.stderr.contains("UNREADABLE-5e3d"), "{}", run.stderr);
    }
    // Searching skips what it cannot read, and never shows it.
    let search = as_nobody(&ws, &["search", "secret"]).unwrap();
    assert!(
        !search.stdout.contains("UNREADABLE-5e3d"),
        "{}",
        search.stdout
    );
    let mut after = tree(&ws.root());
    after.retain(|p, _| !p.starts_with(".stitch/locks"));
    let mut expected = before;
    expected.retain(|p, _| !p.starts_with(".stitch/locks"));
    assert_eq!(
        differences(&expected, &after),
        Vec::<String>::new(),
        "a refused caller changed the workspace"
    );
    assert_eq!(
        as_nobody(&ws, &["read", "ro/f.txt"]).unwrap().ok()["content"],
        "in a read-only directory\n"
    );
    set_mode(&ws.path("ro"), 0o755);
    note(&format!(
        "unprivileged caller (setpriv, uid 65534): 2 calls DENIED, {} INTERNAL_SERVER_ERROR, search {}",
        calls.len() - 2,
        if search.envelope["ok"] == true {
            "ok without the unreadable file"
        } else {
            "refused"
        }
    ));
}
