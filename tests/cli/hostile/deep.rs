//! A file whose workspace-relative path is legal but whose absolute path passes the
//! kernel's 4096 bytes is listed, globbed and searched like any other: walks never hand
//! the kernel the absolute path. And a directory the walk cannot read, or an entry that
//! cannot be looked up again through the root handle, is counted in `skippedUnreadable`,
//! never dropped in silence.

use std::os::fd::OwnedFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use rustix::fs::{Mode, OFlags};
use serde_json::{json, Value};

use crate::support::{report, Run, TestWorkspace};

/// A name of 200 bytes, `n` first.
fn long_name(n: usize) -> String {
    format!("d{n}{}", "x".repeat(198 - n.to_string().len()))
}

/// Makes directory `name` in `dir` and opens it: by handle, since the absolute path
/// soon passes what the kernel takes.
fn descend(dir: &OwnedFd, name: &str) -> OwnedFd {
    rustix::fs::mkdirat(dir, name, Mode::from_raw_mode(0o755)).expect("mkdirat");
    rustix::fs::openat(dir, name, OFlags::DIRECTORY | OFlags::RDONLY, Mode::empty())
        .expect("openat")
}

/// A root 3 000 bytes deep, and in it `top.txt` and, seven 200-byte directories down,
/// `deep.txt`: 1 412 bytes relative, over 4 400 absolute. Returns the root and the
/// deep file's relative path.
fn deep_root(ws: &TestWorkspace) -> (PathBuf, String) {
    let mut dir = rustix::fs::open(ws.base(), OFlags::DIRECTORY | OFlags::RDONLY, Mode::empty())
        .expect("open base");
    let mut root = ws.base();
    for n in 0..15 {
        let name = long_name(n);
        dir = descend(&dir, &name);
        root.push(name);
    }
    let write = |dir: &OwnedFd, name: &str, text: &str| {
        let fd = rustix::fs::openat(
            dir,
            name,
            OFlags::WRONLY | OFlags::CREATE,
            Mode::from_raw_mode(0o644),
        )
        .expect("create");
        rustix::io::write(&fd, text.as_bytes()).expect("write");
    };
    write(&dir, "top.txt", "needle at the top\n");
    let mut rel = Vec::new();
    for n in 0..7 {
        let name = long_name(n);
        dir = descend(&dir, &name);
        rel.push(name);
    }
    write(&dir, "deep.txt", "needle deep down\n");
    rel.push("deep.txt".into());
    (root, rel.join("/"))
}

fn run_at(ws: &TestWorkspace, root: &Path, args: &[&str]) -> Run {
    let output = ws
        .std_cmd_at(root)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run stitch");
    Run::from_output(output)
}

#[test]
fn a_file_past_4096_absolute_bytes_is_listed_globbed_and_searched() {
    let ws = TestWorkspace::new();
    let (root, deep) = deep_root(&ws);
    let absolute = root.as_os_str().len() + 1 + deep.len();
    assert!(
        absolute > 4096 && deep.len() < 4096,
        "{absolute} absolute, {} relative",
        deep.len()
    );

    let read = run_at(&ws, &root, &["read", &deep]);
    assert_eq!(
        read.ok()["content"],
        "needle deep down\n",
        "{}",
        read.stdout
    );

    let glob = run_at(&ws, &root, &["glob", "**/*.txt"]);
    glob.assert_envelope(&json!({"ok": true, "data": {
        "matches": [deep, "top.txt"], "truncated": false, "scannedFiles": 2, "denied": 0,
    }}));

    let search = run_at(&ws, &root, &["search", "needle"]);
    search.assert_envelope(&json!({"ok": true, "data": {
        "matches": [
            {"path": deep, "line": 1, "text": "needle deep down"},
            {"path": "top.txt", "line": 1, "text": "needle at the top"},
        ],
        "truncated": false, "scannedFiles": 2, "skippedBinary": 0, "skippedLarge": 0, "denied": 0,
    }}));

    let list = run_at(&ws, &root, &["list", "--depth", "10"]);
    let mut entries: Vec<Value> = (1..=7)
        .map(|depth| {
            let path: Vec<String> = (0..depth).map(long_name).collect();
            json!({"path": path.join("/"), "kind": "directory"})
        })
        .collect();
    entries.push(json!({"path": deep, "kind": "file", "bytes": 17}));
    entries.sort_by(|a, b| a["path"].as_str().cmp(&b["path"].as_str()));
    entries.push(json!({"path": "top.txt", "kind": "file", "bytes": 18}));
    list.assert_envelope(&json!({"ok": true, "data": {
        "path": ".", "entries": entries, "truncated": false, "skipped": 0,
    }}));
    report(&format!(
        "hostile::deep: a file {absolute} bytes deep absolute ({} relative) listed, globbed and searched",
        deep.len()
    ));
}

#[test]
fn a_directory_the_walk_cannot_read_is_counted() {
    if !rustix::process::geteuid().is_root() {
        report("hostile::deep: skipped the unreadable directory: root reads any directory, and only root can drop to nobody here");
        return;
    }
    let ws = TestWorkspace::new();
    ws.file("open/a.txt", "needle\n")
        .file("closed/b.txt", "needle\n");
    let status = std::process::Command::new("chown")
        .args(["-R", "65534:65534"])
        .arg(ws.base())
        .status()
        .expect("chown");
    assert!(status.success());
    std::fs::set_permissions(ws.path("closed"), PermissionsExt::from_mode(0o000)).expect("chmod");
    let as_nobody = |args: &[&str]| {
        let mut cmd = ws.std_cmd();
        cmd.args(args).stdin(Stdio::null()).uid(65534).gid(65534);
        Run::from_output(cmd.output().expect("run stitch"))
    };
    as_nobody(&["search", "needle"]).assert_envelope(&json!({"ok": true, "data": {
        "matches": [{"path": "open/a.txt", "line": 1, "text": "needle"}],
        "truncated": false, "scannedFiles": 1, "skippedBinary": 0, "skippedLarge": 0,
        "denied": 0, "skippedUnreadable": 1,
    }}));
    as_nobody(&["glob", "**/*.txt"]).assert_envelope(&json!({"ok": true, "data": {
        "matches": ["open/a.txt"], "truncated": false, "scannedFiles": 1, "denied": 0, "skippedUnreadable": 1,
    }}));
    as_nobody(&["list", "--depth", "3"]).assert_envelope(&json!({"ok": true, "data": {
        "path": ".",
        "entries": [
            {"path": "closed", "kind": "directory"},
            {"path": "open", "kind": "directory"},
            {"path": "open/a.txt", "kind": "file", "bytes": 7},
        ],
        "truncated": false, "skipped": 1, "skippedUnreadable": 1,
    }}));
    std::fs::set_permissions(ws.path("closed"), PermissionsExt::from_mode(0o755)).expect("chmod");
}

#[test]
fn an_entry_that_fails_its_confirmation_is_counted() {
    if !rustix::process::geteuid().is_root() {
        report("hostile::deep: skipped the unsearchable directory: root searches any directory, and only root can drop to nobody here");
        return;
    }
    // A directory that may be read but not searched (r--): the walker lists its names,
    // but none of them can be looked up again through the root handle.
    let ws = TestWorkspace::new();
    ws.file("open/a.txt", "needle\n")
        .file("listed/b.txt", "needle\n");
    let status = std::process::Command::new("chown")
        .args(["-R", "65534:65534"])
        .arg(ws.base())
        .status()
        .expect("chown");
    assert!(status.success());
    std::fs::set_permissions(ws.path("listed"), PermissionsExt::from_mode(0o444)).expect("chmod");
    let as_nobody = |args: &[&str]| {
        let mut cmd = ws.std_cmd();
        cmd.args(args).stdin(Stdio::null()).uid(65534).gid(65534);
        Run::from_output(cmd.output().expect("run stitch"))
    };
    as_nobody(&["search", "needle"]).assert_envelope(&json!({"ok": true, "data": {
        "matches": [{"path": "open/a.txt", "line": 1, "text": "needle"}],
        "truncated": false, "scannedFiles": 2, "skippedBinary": 0, "skippedLarge": 0,
        "denied": 0, "skippedUnreadable": 1,
    }}));
    as_nobody(&["search", "b.txt", "--mode", "path"]).assert_envelope(
        &json!({"ok": true, "data": {
            "matches": [], "truncated": false, "scannedFiles": 2, "skippedBinary": 0,
            "skippedLarge": 0, "denied": 0, "skippedUnreadable": 1,
        }}),
    );
    as_nobody(&["glob", "**/*.txt"]).assert_envelope(&json!({"ok": true, "data": {
        "matches": ["open/a.txt"], "truncated": false, "scannedFiles": 2, "denied": 0,
        "skippedUnreadable": 1,
    }}));
    as_nobody(&["list", "--depth", "3"]).assert_envelope(&json!({"ok": true, "data": {
        "path": ".",
        "entries": [
            {"path": "listed", "kind": "directory"},
            {"path": "open", "kind": "directory"},
            {"path": "open/a.txt", "kind": "file", "bytes": 7},
        ],
        "truncated": false, "skipped": 0, "skippedUnreadable": 1,
    }}));
    std::fs::set_permissions(ws.path("listed"), PermissionsExt::from_mode(0o755)).expect("chmod");
}
