//! Containment: for read, write and edit alike, nothing outside the root is read,
//! written or created — not through `..`, absolute paths, sibling prefixes or symlinks —
//! malformed paths are `INVALID_PATH`, and `.stitch/` and `.git/` are protected.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::support::{Run, TestWorkspace};

/// The content of every file planted outside the root; it must never be printed.
const SECRET: &str = "TOP-SECRET-7f3a9c do not leak";

/// A workspace with `a.txt` inside, and a secret in `outside/` and in `ws-evil/` (a
/// sibling of the root whose name starts with the root's name).
fn fixture() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "inside text\n").dir("sub");
    ws.outside_file("secret.txt", SECRET);
    fs::write(ws.beside("ws-evil").join("x.txt"), SECRET).unwrap();
    ws
}

/// The directory holding the root and its siblings.
fn base(ws: &TestWorkspace) -> PathBuf {
    ws.root().parent().unwrap().to_owned()
}

/// Every entry beside the root, recursively: path → file bytes (or link target, or
/// nothing for a directory). Whatever a call does, this must not change.
fn snapshot_outside(ws: &TestWorkspace) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(dir: &Path, into: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let kind = path.symlink_metadata().unwrap().file_type();
            if kind.is_symlink() {
                let target = fs::read_link(&path).unwrap();
                into.insert(path, target.into_os_string().into_encoded_bytes());
            } else if kind.is_dir() {
                into.insert(path.clone(), Vec::new());
                walk(&path, into);
            } else {
                into.insert(path.clone(), fs::read(&path).unwrap());
            }
        }
    }
    let mut map = BTreeMap::new();
    for entry in fs::read_dir(base(ws)).unwrap() {
        let path = entry.unwrap().path();
        if path != ws.root() {
            walk(&path, &mut map);
        }
    }
    map
}

/// The three tools' attempts at `path`: read it, overwrite it, edit the secret in it.
fn attempts(path: &str) -> [(&'static str, Value); 3] {
    [
        ("read", json!({"path": path})),
        (
            "write",
            json!({"path": path, "content": "pwned\n", "overwrite": true}),
        ),
        (
            "edit",
            json!({"path": path, "oldText": SECRET, "newText": "pwned"}),
        ),
    ]
}

/// Runs read, write and edit on `path` and asserts each is refused with `code`, leaks
/// nothing and changes nothing outside the root; returns the runs.
#[track_caller]
fn assert_all_refused(ws: &TestWorkspace, path: &str, code: &str) -> Vec<Run> {
    let before = snapshot_outside(ws);
    let base = base(ws);
    let base = base.to_str().unwrap();
    let runs: Vec<Run> = attempts(path)
        .into_iter()
        .map(|(tool, args)| {
            let run = ws.stitch(tool, &args);
            run.refused(code);
            assert!(
                !run.stdout.contains("TOP-SECRET"),
                "{tool} {path}: leaked {}",
                run.stdout
            );
            if !path.starts_with('/') {
                assert!(
                    !run.stdout.contains(base),
                    "{tool} {path}: an absolute path the caller did not write: {}",
                    run.stdout
                );
            }
            run
        })
        .collect();
    assert_eq!(
        snapshot_outside(ws),
        before,
        "{path}: something outside the root changed"
    );
    runs
}

#[test]
fn dot_dot_cannot_leave_the_root() {
    let ws = fixture();
    for path in [
        "../outside/secret.txt",
        "sub/../../outside/secret.txt",
        "../outside/new.txt",
        "../outside/new/dir/file.txt",
        "..",
        "../ws/../outside/secret.txt",
    ] {
        assert_all_refused(&ws, path, "OUTSIDE_ROOT");
    }
}

#[test]
fn absolute_paths_outside_are_refused() {
    let ws = fixture();
    let outside = ws.outside();
    let secret = outside.join("secret.txt");
    let new = outside.join("new.txt");
    for path in [secret.to_str().unwrap(), new.to_str().unwrap(), "/"] {
        assert_all_refused(&ws, path, "OUTSIDE_ROOT");
    }
}

#[test]
fn absolute_paths_inside_are_accepted_and_reported_relative() {
    let ws = fixture();
    let root = ws.root();
    let root = root.to_str().unwrap();

    let read = ws.stitch("read", &json!({"path": format!("{root}/a.txt")}));
    assert_eq!(read.ok()["path"], "a.txt");
    assert_eq!(read.ok()["content"], "inside text\n");

    let write = ws.stitch(
        "write",
        &json!({"path": format!("{root}/new/b.txt"), "content": "b\n"}),
    );
    let data = write.ok();
    assert_eq!(data["path"], "new/b.txt");
    assert_eq!(data["createdDirectories"], json!(["new"]));
    assert_eq!(ws.read_string("new/b.txt"), "b\n");

    let edit = ws.stitch(
        "edit",
        &json!({"path": format!("{root}/a.txt"), "oldText": "inside", "newText": "edited"}),
    );
    assert_eq!(edit.ok()["path"], "a.txt");
    assert!(
        !edit.ok()["diff"].as_str().unwrap().contains(root),
        "{}",
        edit.stdout
    );
    assert_eq!(ws.read_string("a.txt"), "edited text\n");
}

#[test]
fn a_sibling_sharing_the_roots_prefix_is_outside() {
    let ws = fixture();
    let evil = base(&ws).join("ws-evil");
    let absolute = evil.join("x.txt");
    let absolute_new = evil.join("new.txt");
    for path in [
        "../ws-evil/x.txt",
        "../ws-evil/new.txt",
        absolute.to_str().unwrap(),
        absolute_new.to_str().unwrap(),
    ] {
        assert_all_refused(&ws, path, "OUTSIDE_ROOT");
    }
}

#[test]
fn a_relative_symlink_out_is_refused() {
    let ws = fixture();
    ws.symlink("../outside/secret.txt", "link.txt")
        .symlink("../../outside/secret.txt", "sub/deep-link.txt");
    assert_all_refused(&ws, "link.txt", "OUTSIDE_ROOT");
    assert_all_refused(&ws, "sub/deep-link.txt", "OUTSIDE_ROOT");
    assert!(ws.path("link.txt").symlink_metadata().unwrap().is_symlink());
}

#[test]
fn an_absolute_symlink_out_is_refused() {
    let ws = fixture();
    ws.symlink(ws.outside().join("secret.txt"), "abs.txt");
    let runs = assert_all_refused(&ws, "abs.txt", "OUTSIDE_ROOT");
    for run in runs {
        assert!(
            run.envelope["details"].get("insideTarget").is_none(),
            "{}",
            run.stdout
        );
    }
}

#[test]
fn an_absolute_symlink_pointing_inside_is_refused_and_names_the_inside_path() {
    let ws = fixture();
    ws.symlink(ws.path("a.txt"), "abs-in.txt");
    for run in assert_all_refused(&ws, "abs-in.txt", "OUTSIDE_ROOT") {
        let details = &run.envelope["details"];
        assert_eq!(details["insideTarget"], "a.txt", "{}", run.stdout);
        assert!(run.hint().contains("a.txt"), "{}", run.stdout);
    }
    assert_eq!(ws.read_string("a.txt"), "inside text\n");
}

#[test]
fn a_dangling_symlink_out_is_refused_and_creates_nothing() {
    let ws = fixture();
    ws.symlink("../outside/nothing.txt", "dangling.txt")
        .symlink(ws.outside().join("nothing-abs.txt"), "dangling-abs.txt");
    assert_all_refused(&ws, "dangling.txt", "OUTSIDE_ROOT");
    assert_all_refused(&ws, "dangling-abs.txt", "OUTSIDE_ROOT");
    assert!(!ws.outside().join("nothing.txt").exists());
    assert!(!ws.outside().join("nothing-abs.txt").exists());
}

#[test]
fn a_directory_symlink_mid_path_cannot_lead_out() {
    let ws = fixture();
    ws.symlink("../outside", "out")
        .symlink(ws.outside(), "out-abs");
    for path in [
        "out/secret.txt",
        "out/new.txt",
        "out/sub/new.txt",
        "out-abs/secret.txt",
        "out-abs/new.txt",
    ] {
        assert_all_refused(&ws, path, "OUTSIDE_ROOT");
    }
    assert!(!ws.outside().join("new.txt").exists());
    assert!(!ws.outside().join("sub").exists());
}

#[test]
fn symlinks_that_stay_inside_are_followed() {
    let ws = fixture();
    ws.file("sub/real.txt", "real content\n")
        .symlink("../a.txt", "sub/up.txt")
        .symlink("sub", "alias");

    let read = ws.stitch("read", &json!({"path": "sub/up.txt"}));
    assert_eq!(read.ok()["content"], "inside text\n");
    let through_dir = ws.stitch("read", &json!({"path": "alias/real.txt"}));
    assert_eq!(through_dir.ok()["content"], "real content\n");

    ws.stitch(
        "edit",
        &json!({"path": "sub/up.txt", "oldText": "inside", "newText": "linked"}),
    )
    .ok();
    assert_eq!(ws.read_string("a.txt"), "linked text\n");
    assert!(ws
        .path("sub/up.txt")
        .symlink_metadata()
        .unwrap()
        .is_symlink());

    ws.stitch(
        "write",
        &json!({"path": "alias/new.txt", "content": "via alias\n"}),
    )
    .ok();
    assert_eq!(ws.read_string("sub/new.txt"), "via alias\n");
    assert!(ws.path("alias").symlink_metadata().unwrap().is_symlink());
}

#[test]
fn malformed_paths_are_invalid() {
    let ws = fixture();
    let long = "a/".repeat(2100);
    for path in ["", "a\0b.txt", long.as_str()] {
        assert_all_refused(&ws, path, "INVALID_PATH");
    }
    assert!(!ws.exists("a"));
}

#[test]
fn a_backslash_path_is_invalid_with_the_slash_spelling() {
    let ws = fixture();
    for run in assert_all_refused(&ws, "sub\\a.txt", "INVALID_PATH") {
        assert_eq!(
            run.envelope["details"]["suggestion"], "sub/a.txt",
            "{}",
            run.stdout
        );
        assert!(run.hint().contains("sub/a.txt"), "{}", run.stdout);
    }
    assert!(!ws.exists("sub\\a.txt"));
}

#[test]
fn the_stitch_directory_is_reserved() {
    let ws = fixture();
    ws.file(".stitch/x", SECRET);
    for path in [
        ".stitch/x",
        ".stitch",
        "sub/../.stitch/x",
        ".stitch/new.txt",
    ] {
        for run in assert_all_refused(&ws, path, "DENIED") {
            assert_eq!(
                run.envelope["details"]["rule"], "reserved",
                "{}",
                run.stdout
            );
        }
    }
    assert_eq!(ws.read_string(".stitch/x"), SECRET);
    assert!(!ws.exists(".stitch/new.txt"));
}

#[test]
fn git_can_be_read_but_not_written() {
    let ws = fixture();
    let config = "[core]\n\tbare = false\n";
    ws.file(".git/config", config);

    let read = ws.stitch("read", &json!({"path": ".git/config"}));
    assert_eq!(read.ok()["content"], config);

    let write = ws.stitch(
        "write",
        &json!({"path": ".git/config", "content": "x", "overwrite": true}),
    );
    assert_eq!(write.refused("DENIED")["rule"], "git");
    let edit = ws.stitch(
        "edit",
        &json!({"path": ".git/config", "oldText": "false", "newText": "true"}),
    );
    assert_eq!(edit.refused("DENIED")["rule"], "git");
    let hook = ws.stitch(
        "write",
        &json!({"path": ".git/hooks/pre-commit", "content": "#!/bin/sh\n"}),
    );
    assert_eq!(hook.refused("DENIED")["rule"], "git");

    assert_eq!(ws.read_string(".git/config"), config);
    assert!(!ws.exists(".git/hooks"));
}

#[test]
fn an_absolute_path_spelled_through_the_shells_symlinked_cwd_is_inside() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a\n");
    let link = ws.outside().join("ws-link");
    std::os::unix::fs::symlink(ws.root(), &link).unwrap();
    let mut cmd = assert_cmd::Command::new(assert_cmd::cargo::cargo_bin!("stitch"));
    cmd.env_clear()
        .env("PWD", &link)
        .current_dir(&link)
        .args(["read", link.join("a.txt").to_str().unwrap()])
        .write_stdin("");
    let run = crate::support::Run::from(cmd);
    assert_eq!(run.ok()["path"], "a.txt");
}
