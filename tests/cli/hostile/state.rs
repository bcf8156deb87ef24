//! `.stitch/` and everything stitch keeps under it, planted as symlinks, FIFOs, devices
//! or huge files: every tool refuses with `INVALID_CONFIG` naming the state path, before
//! any change, and nothing a sweep or a prune could reach is deleted.

use std::fs;

use super::{
    age, assert_state_refusal, mkfifo, mkzero, timed, NOT_A_DIRECTORY, NOT_A_FILE, SYMLINK,
};
use crate::support::{report, tree, TestWorkspace};

/// A workspace with old source files (a sweep of "stale" files would take them), a data
/// directory of `.json` files (a prune of "old ledgers" would take them), and a file
/// outside the root.
fn planted() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\n")
        .file("src/main.rs", "fn main() {}\n")
        .file("src/lib.rs", "pub fn f() {}\n")
        .file("data/1.json", "{}")
        .file("data/2.json", "[]");
    for rel in ["src/main.rs", "src/lib.rs", "data/1.json", "data/2.json"] {
        age(&ws.path(rel));
    }
    ws.outside_file("keep.txt", "outside\n");
    ws
}

/// Every kind of call, each of which must refuse on a broken state before doing anything.
const CALLS: [&[&str]; 7] = [
    &["read", "a.txt"],
    &["write", "a.txt", "--content", "new\n", "--overwrite"],
    &["write", "new/b.txt", "--content", "b\n"],
    &["edit", "a.txt", "--old", "alpha", "--new", "beta"],
    &["list"],
    &["glob", "**/*.rs"],
    &["search", "fn"],
];

/// Runs every call (with and without a session) and asserts each is exactly the state
/// refusal for `path`, and that nothing in the root or outside it changed.
#[track_caller]
fn every_call_refuses(ws: &TestWorkspace, path: &str, reason: &str) {
    let (inside, outside) = (tree(&ws.root()), tree(&ws.outside()));
    for call in CALLS {
        let run = timed(ws, call, "");
        assert_state_refusal(&run, path, reason);
        let mut with_session = vec!["--session", "s1"];
        with_session.extend_from_slice(call);
        let run = timed(ws, &with_session, "");
        assert_state_refusal(&run, path, reason);
    }
    let check = timed(ws, &["config", "check"], "");
    assert_state_refusal(&check, path, reason);
    assert_eq!(tree(&ws.root()), inside, "nothing in the root changed");
    assert_eq!(tree(&ws.outside()), outside, "nothing outside changed");
}

#[test]
fn a_tmp_symlink_to_the_sources_deletes_nothing() {
    let ws = planted();
    ws.dir(".stitch").symlink("../src", ".stitch/tmp");
    every_call_refuses(&ws, ".stitch/tmp", SYMLINK);
    assert_eq!(ws.read_string("src/main.rs"), "fn main() {}\n");
}

#[test]
fn a_sessions_symlink_to_data_deletes_nothing() {
    let ws = planted();
    ws.dir(".stitch").symlink("../data", ".stitch/sessions");
    every_call_refuses(&ws, ".stitch/sessions", SYMLINK);
    assert!(ws.exists("data/1.json") && ws.exists("data/2.json"));
}

#[test]
fn a_stitch_symlink_that_stays_inside_cannot_rewrite_the_policy() {
    let ws = planted();
    ws.file("secret.txt", "hunter2\n")
        .file("tools/stitch/config.json", r#"{"deny": ["secret.txt"]}"#)
        .symlink("tools/stitch", ".stitch");
    every_call_refuses(&ws, ".stitch", SYMLINK);
    let (inside, outside) = (tree(&ws.root()), tree(&ws.outside()));
    for call in [
        &[
            "write",
            "tools/stitch/config.json",
            "--content",
            "{}",
            "--overwrite",
        ][..],
        &["read", "secret.txt"],
        &["search", "hunter2"],
    ] {
        let run = timed(&ws, call, "");
        assert_state_refusal(&run, ".stitch", SYMLINK);
        assert!(!run.stdout.contains("hunter2"), "{}", run.stdout);
    }
    assert_eq!(tree(&ws.root()), inside);
    assert_eq!(tree(&ws.outside()), outside);
}

#[test]
fn a_stitch_that_is_a_file_or_a_link_outside_is_refused() {
    let ws = planted();
    ws.file(".stitch", "not a directory\n");
    every_call_refuses(&ws, ".stitch", NOT_A_DIRECTORY);

    let ws = planted();
    ws.symlink("../outside", ".stitch");
    every_call_refuses(&ws, ".stitch", SYMLINK);
}

#[test]
fn locks_pointing_outside_are_not_blamed_on_the_callers_path() {
    let ws = planted();
    ws.dir(".stitch").symlink("../../outside", ".stitch/locks");
    every_call_refuses(&ws, ".stitch/locks", SYMLINK);
    let run = timed(
        &ws,
        &["write", "a.txt", "--content", "x", "--overwrite"],
        "",
    );
    assert_ne!(run.envelope["error"], "OUTSIDE_ROOT", "{}", run.stdout);
    assert!(!run.message().contains("a.txt"), "{}", run.stdout);
}

#[test]
fn state_of_the_wrong_kind_is_refused() {
    for (rel, make, reason) in [
        (".stitch/tmp", "file", NOT_A_DIRECTORY),
        (".stitch/locks", "file", NOT_A_DIRECTORY),
        (".stitch/sessions", "fifo", NOT_A_DIRECTORY),
        (".stitch/config.json", "dir", NOT_A_FILE),
        (".stitch/config.json", "fifo", NOT_A_FILE),
        (".stitch/.gitignore", "fifo", NOT_A_FILE),
    ] {
        let ws = planted();
        ws.dir(".stitch");
        match make {
            "file" => drop(ws.file(rel, "x")),
            "dir" => drop(ws.dir(rel)),
            _ => mkfifo(&ws.path(rel)),
        }
        every_call_refuses(&ws, rel, reason);
    }
}

#[test]
fn a_config_that_is_a_device_is_refused_without_reading_it() {
    let ws = planted();
    ws.dir(".stitch");
    if !mkzero(&ws.path(".stitch/config.json")) {
        report("hostile::state: cannot make a device here (not root); case skipped");
        return;
    }
    every_call_refuses(&ws, ".stitch/config.json", NOT_A_FILE);
}

#[test]
fn a_config_over_its_bound_is_refused() {
    let ws = planted();
    let mut huge = String::from("{\"deny\": [");
    while huge.len() <= 1 << 20 {
        huge.push_str("\"x/**\",");
    }
    huge.push_str("\"y\"]}");
    ws.file(".stitch/config.json", huge);
    every_call_refuses(
        &ws,
        ".stitch/config.json",
        "is larger than its bound of 1048576 bytes",
    );
}

#[test]
fn a_planted_lock_file_is_refused_and_nothing_is_written() {
    let ws = planted();
    ws.dir(".stitch/locks");
    for shard in 0..256 {
        mkfifo(&ws.path(&format!(".stitch/locks/{shard:02x}.lock")));
    }
    let before = tree(&ws.root());
    let run = timed(
        &ws,
        &["write", "a.txt", "--content", "x", "--overwrite"],
        "",
    );
    let details = run.refused("INVALID_CONFIG");
    let path = details["path"].as_str().unwrap().to_owned();
    assert!(
        path.strip_prefix(".stitch/locks/")
            .is_some_and(|n| n.len() == "00.lock".len()),
        "{}",
        run.stdout
    );
    assert_state_refusal(&run, &path, NOT_A_FILE);
    assert_eq!(tree(&ws.root()), before);
    // Reads take no lock and go on working.
    let read = timed(&ws, &["read", "a.txt"], "");
    assert_eq!(read.ok()["content"], "alpha\n");
}

#[test]
fn a_ledger_that_is_a_fifo_or_huge_is_refused_and_the_lock_is_let_go() {
    let ws = planted();
    ws.dir(".stitch/sessions");
    mkfifo(&ws.path(".stitch/sessions/s1.json"));
    for call in [
        &["--session", "s1", "read", "a.txt"][..],
        &[
            "--session",
            "s1",
            "write",
            "a.txt",
            "--content",
            "x",
            "--overwrite",
        ],
    ] {
        let run = timed(&ws, call, "");
        assert_state_refusal(&run, ".stitch/sessions/s1.json", NOT_A_FILE);
    }
    assert_eq!(ws.read_string("a.txt"), "alpha\n");
    // The file's lock was released: another call writes at once.
    let run = timed(
        &ws,
        &["write", "a.txt", "--content", "x", "--overwrite"],
        "",
    );
    assert_eq!(run.ok()["applied"], true, "{}", run.stdout);

    let file = fs::File::create(ws.path(".stitch/sessions/s2.json")).unwrap();
    file.set_len(25 << 20).unwrap();
    let run = timed(&ws, &["--session", "s2", "read", "a.txt"], "");
    assert_state_refusal(
        &run,
        ".stitch/sessions/s2.json",
        "is larger than its bound of 25165824 bytes",
    );
}

#[test]
fn a_sweep_and_a_prune_delete_only_stitchs_own_names() {
    let ws = planted();
    ws.file(".stitch/tmp/notes.txt", "mine\n")
        .file(
            ".stitch/tmp/.a.txt.1.ff0.stitch-tmp",
            "left by a killed write",
        )
        .symlink("../../src/lib.rs", ".stitch/tmp/.b.1.ff1.stitch-tmp")
        .file(".stitch/sessions/README", "not a ledger")
        .file(".stitch/sessions/bad name.json", "{}")
        .symlink("../../data/1.json", ".stitch/sessions/linked.json");
    for rel in [
        ".stitch/tmp/notes.txt",
        ".stitch/tmp/.a.txt.1.ff0.stitch-tmp",
        ".stitch/tmp/.b.1.ff1.stitch-tmp",
        ".stitch/sessions/README",
        ".stitch/sessions/bad name.json",
        ".stitch/sessions/linked.json",
    ] {
        age(&ws.path(rel));
    }
    // 130 ledgers: the next new session prunes the oldest of them.
    for i in 0..130 {
        let rel = format!(".stitch/sessions/old{i}.json");
        ws.file(&rel, r#"{"clock":0,"entries":{}}"#);
        age(&ws.path(&rel));
    }
    let outside = tree(&ws.outside());

    let run = timed(
        &ws,
        &["write", "a.txt", "--content", "new\n", "--overwrite"],
        "",
    );
    assert_eq!(run.ok()["applied"], true, "{}", run.stdout);
    let run = timed(&ws, &["--session", "fresh", "read", "a.txt"], "");
    assert_eq!(run.ok()["content"], "new\n", "{}", run.stdout);

    assert!(
        !ws.exists(".stitch/tmp/.a.txt.1.ff0.stitch-tmp"),
        "a stale temp is swept"
    );
    for kept in [
        ".stitch/tmp/notes.txt",
        ".stitch/tmp/.b.1.ff1.stitch-tmp",
        ".stitch/sessions/README",
        ".stitch/sessions/bad name.json",
        ".stitch/sessions/linked.json",
        ".stitch/sessions/fresh.json",
        "src/lib.rs",
        "src/main.rs",
        "data/1.json",
        "data/2.json",
    ] {
        assert!(ws.exists(kept), "{kept} is kept");
    }
    let ledgers = fs::read_dir(ws.path(".stitch/sessions"))
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            let name = name.to_string_lossy();
            name.starts_with("old") || name == "fresh.json"
        })
        .count();
    assert_eq!(ledgers, 128, "ledgers pruned to the bound");
    assert_eq!(tree(&ws.outside()), outside);
}

#[test]
fn ledgers_dated_2100_never_evict_the_sessions_at_work() {
    let ws = planted();
    // 128 planted ledgers, the bound, each dated 2100 twice over: by its modification
    // time and by the time written inside it.
    for i in 0..128 {
        let rel = format!(".stitch/sessions/planted{i}.json");
        ws.file(&rel, r#"{"written":4102444800000,"clock":0,"entries":{}}"#);
        let status = std::process::Command::new("touch")
            .args(["-d", "2100-01-01"])
            .arg(ws.path(&rel))
            .status()
            .expect("touch");
        assert!(status.success());
    }
    for (session, old, new) in [("s1", "alpha", "beta"), ("s2", "beta", "gamma")] {
        let run = timed(&ws, &["--session", session, "read", "a.txt"], "");
        assert_eq!(run.ok()["content"], format!("{old}\n"), "{}", run.stdout);
        assert!(
            ws.exists(&format!(".stitch/sessions/{session}.json")),
            "its ledger is kept"
        );
        let run = timed(
            &ws,
            &[
                "--session",
                session,
                "edit",
                "a.txt",
                "--old",
                old,
                "--new",
                new,
            ],
            "",
        );
        run.assert_envelope(&serde_json::json!({"ok": true, "data": {
            "path": "a.txt", "baseSha256": crate::support::SHA256, "sha256": crate::support::SHA256,
            "replacements": 1, "bytes": new.len() + 1, "applied": true, "id": crate::support::STRING,
            "diff": format!("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-{old}\n+{new}\n"),
        }}));
        assert_eq!(ws.read_string("a.txt"), format!("{new}\n"));
    }
    let names = crate::support::names_in(&ws.path(".stitch/sessions"));
    let ledgers: Vec<&String> = names
        .iter()
        .filter(|n| {
            std::path::Path::new(n)
                .extension()
                .is_some_and(|e| e == "json")
        })
        .collect();
    assert_eq!(ledgers.len(), 128, "pruned to the bound: {ledgers:?}");
    assert!(ledgers.iter().any(|n| *n == "s1.json") && ledgers.iter().any(|n| *n == "s2.json"));
}
