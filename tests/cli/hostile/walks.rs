//! Planted symlink fan-outs: a walk goes into each directory (by device and inode) at
//! most once per call, so `list`, `glob` and `search` cost what the tree holds, show each
//! file once, and change nothing.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::{tree, Run, TestWorkspace};

/// How many directories the fan-out chains. Each holds two links to the next, so a walk
/// that follows every link meets 2^30 paths.
const FAN: usize = 30;

/// The most wall time a walk of the fan-out may take; it takes milliseconds when each
/// directory is walked once, and hours when links are followed blindly.
const WITHIN: Duration = Duration::from_secs(10);

/// `d_0` … `d_29`, each with `f.md` and two relative links `x` and `y` to the next
/// directory; the last one's links lead back to `d_0`.
fn fan_out() -> TestWorkspace {
    let ws = TestWorkspace::new();
    for i in 0..FAN {
        let next = format!("../d_{}", (i + 1) % FAN);
        ws.file(&format!("d_{i}/f.md"), content(i))
            .symlink(&next, &format!("d_{i}/x"))
            .symlink(&next, &format!("d_{i}/y"));
    }
    ws
}

fn content(i: usize) -> String {
    format!("fan {i}\n")
}

/// Runs `stitch` with a hard timeout (a regression fails instead of hanging) and returns
/// the run with its wall time.
fn timed(ws: &TestWorkspace, args: &[&str]) -> (Run, Duration) {
    let mut cmd = ws.cmd();
    cmd.args(args)
        .write_stdin("")
        .timeout(Duration::from_secs(30));
    let started = Instant::now();
    let run = Run::from(cmd);
    (run, started.elapsed())
}

/// Asserts the call succeeded within [`WITHIN`] and returns its `data`.
#[track_caller]
fn quick(ws: &TestWorkspace, args: &[&str]) -> Value {
    let (run, took) = timed(ws, args);
    assert!(took < WITHIN, "{args:?} took {took:?}");
    crate::support::report(&format!("hostile::walks {args:?}: {took:?}"));
    run.ok().clone()
}

/// Every `d_i/f.md` once, under its own path, in byte order.
fn own_files() -> Vec<String> {
    let mut files: Vec<String> = (0..FAN).map(|i| format!("d_{i}/f.md")).collect();
    files.sort();
    files
}

#[test]
fn a_fan_out_of_links_is_listed_once_in_time() {
    let ws = fan_out();
    let before = tree(&ws.root());

    let data = quick(&ws, &["list", "--depth", "64"]);
    let mut entries = Vec::new();
    for i in 0..FAN {
        entries.push(json!({"path": format!("d_{i}"), "kind": "directory"}));
        let bytes = content(i).len();
        entries.push(json!({"path": format!("d_{i}/f.md"), "kind": "file", "bytes": bytes}));
        entries.push(json!({"path": format!("d_{i}/x"), "kind": "symlink"}));
        entries.push(json!({"path": format!("d_{i}/y"), "kind": "symlink"}));
    }
    entries.sort_by(|a, b| a["path"].as_str().cmp(&b["path"].as_str()));
    assert_eq!(
        data,
        json!({"path": ".", "entries": entries, "truncated": false, "skipped": 0})
    );
    assert_eq!(tree(&ws.root()), before, "nothing changed on disk");
}

#[test]
fn a_fan_out_of_links_is_globbed_once_in_time() {
    let ws = fan_out();
    let before = tree(&ws.root());

    let data = quick(&ws, &["glob", "**/*.md"]);
    assert_eq!(
        data,
        json!({"matches": own_files(), "truncated": false, "scannedFiles": FAN, "denied": 0})
    );
    assert_eq!(tree(&ws.root()), before, "nothing changed on disk");
}

#[test]
fn a_fan_out_of_links_is_searched_once_in_time() {
    let ws = fan_out();
    let before = tree(&ws.root());

    let data = quick(&ws, &["search", "fan", "--limit", "1000"]);
    let mut matches: Vec<Value> = (0..FAN)
        .map(|i| json!({"path": format!("d_{i}/f.md"), "line": 1, "text": format!("fan {i}")}))
        .collect();
    matches.sort_by(|a, b| a["path"].as_str().cmp(&b["path"].as_str()));
    assert_eq!(
        data,
        json!({
            "matches": matches,
            "truncated": false,
            "scannedFiles": FAN,
            "skippedBinary": 0,
            "skippedLarge": 0,
            "denied": 0,
        })
    );
    assert_eq!(tree(&ws.root()), before, "nothing changed on disk");
}

/// The `d_0/x/x/…` path that reaches `d_k` through the first link of each directory.
fn through_x(k: usize) -> String {
    let mut path = "d_0".to_owned();
    for _ in 0..k {
        path.push_str("/x");
    }
    path
}

#[test]
fn a_walk_below_the_fan_out_follows_each_outside_directory_once_first_link_wins() {
    let ws = fan_out();
    let before = tree(&ws.root());

    // From `d_0`, every other directory is outside the walked subtree: it is walked
    // through the first link met in name order (`x`), `y` is listed as a link, and
    // `d_29/x` leads back into the subtree, so it is not followed.
    let data = quick(&ws, &["list", "d_0", "--depth", "64"]);
    let mut entries = Vec::new();
    for k in 0..FAN {
        let at = through_x(k);
        let bytes = content(k).len();
        entries.push(json!({"path": format!("{at}/f.md"), "kind": "file", "bytes": bytes}));
        entries.push(json!({"path": format!("{at}/x"), "kind": "symlink"}));
        entries.push(json!({"path": format!("{at}/y"), "kind": "symlink"}));
    }
    entries.sort_by(|a, b| a["path"].as_str().cmp(&b["path"].as_str()));
    assert_eq!(
        data,
        json!({"path": "d_0", "entries": entries, "truncated": false, "skipped": 0})
    );

    // In a parallel walk either link may be met first; each file still shows once.
    for args in [
        &["glob", "**/*.md", "--path", "d_0"][..],
        &[
            "search", "f.md", "--path", "d_0", "--mode", "path", "--limit", "1000",
        ][..],
    ] {
        let data = quick(&ws, args);
        let found: Vec<&str> = data["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().or_else(|| m["path"].as_str()).unwrap())
            .collect();
        assert_eq!(found.len(), FAN, "{args:?}: {data}");
        let real: BTreeSet<String> = found
            .iter()
            .map(|path| std::fs::read_to_string(ws.path(path)).unwrap())
            .collect();
        let expected: BTreeSet<String> = (0..FAN).map(content).collect();
        assert_eq!(real, expected, "{args:?}: each file once: {data}");
        assert_eq!(data["scannedFiles"], FAN, "{args:?}: {data}");
        assert_eq!(data["truncated"], false, "{args:?}: {data}");
    }
    assert_eq!(tree(&ws.root()), before, "nothing changed on disk");
}

#[test]
fn two_links_to_one_outside_directory_walk_it_once_under_the_first_name() {
    let ws = TestWorkspace::new();
    ws.file("shared/f.txt", "shared\n")
        .file("shared/deep/g.txt", "deep\n")
        .symlink("../shared", "sub/b")
        .symlink("../shared", "sub/a")
        .symlink("../shared/deep", "sub/0");

    // In name order `sub/0` comes first and walks `shared/deep`; `sub/a` walks `shared`,
    // where `deep` is reached again: shown, not entered; `sub/b` is listed as a link.
    let data = quick(&ws, &["list", "sub", "--depth", "3"]);
    assert_eq!(
        data,
        json!({
            "path": "sub",
            "entries": [
                {"path": "sub/0", "kind": "symlink"},
                {"path": "sub/0/g.txt", "kind": "file", "bytes": 5},
                {"path": "sub/a", "kind": "symlink"},
                {"path": "sub/a/deep", "kind": "directory"},
                {"path": "sub/a/f.txt", "kind": "file", "bytes": 7},
                {"path": "sub/b", "kind": "symlink"},
            ],
            "truncated": false,
            "skipped": 0,
        })
    );

    // The same call gives the same answer every time.
    for _ in 0..3 {
        assert_eq!(quick(&ws, &["list", "sub", "--depth", "3"]), data);
    }

    // In a parallel walk the first link met wins; each file still shows once.
    let data = quick(&ws, &["glob", "**/*.txt", "--path", "sub"]);
    let real: Vec<String> = data["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| std::fs::read_to_string(ws.path(m.as_str().unwrap())).unwrap())
        .collect();
    assert_eq!(real.len(), 2, "{data}");
    assert!(real.contains(&"shared\n".to_owned()), "{data}");
    assert!(real.contains(&"deep\n".to_owned()), "{data}");
}

#[test]
fn links_that_leave_dangle_or_are_absolute_stay_unfollowed_beside_a_fan_out() {
    let ws = fan_out();
    ws.outside_file("secret.md", "TOPSECRET\n");
    ws.symlink("../outside", "out")
        .symlink(ws.path("d_0"), "abs")
        .symlink("nowhere", "dangling");

    let data = quick(&ws, &["list", "--depth", "64"]);
    let links: Vec<&Value> = data["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| ["abs", "dangling", "out"].contains(&e["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        links,
        [
            &json!({"path": "abs", "kind": "symlink"}),
            &json!({"path": "dangling", "kind": "symlink"}),
            &json!({"path": "out", "kind": "symlink"}),
        ]
    );
    assert_eq!(data["entries"].as_array().unwrap().len(), FAN * 4 + 3);

    let data = quick(&ws, &["glob", "**/*.md"]);
    assert_eq!(data["matches"], json!(own_files()));
    let data = quick(&ws, &["search", "TOPSECRET"]);
    assert_eq!(data["matches"], json!([]));
}
