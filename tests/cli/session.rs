//! Sessions (§6): read before write. Every transition of a session's ledger — unseen,
//! read, written, changed externally, deleted, recorded absent, reappeared, corrupt —
//! each step a separate `stitch` process, asserting the serialized envelope and the file
//! on disk.

use std::fs;
use std::process::Child;

use serde_json::{json, Value};

use crate::support::{sha256sum, Run, TestWorkspace};

/// The hint of `NOT_OBSERVED`, verbatim.
const READ_FIRST: &str = "Read the file, then retry.";
/// The hint of `STALE_VERSION`, verbatim.
const REREAD: &str = "Re-read the file, then retry.";

const TEXT: &str = "alpha\nbeta\ngamma\n";

fn workspace_with_text() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("a.txt", TEXT);
    ws
}

/// Runs `stitch --session <id> <args>`.
fn session(ws: &TestWorkspace, id: &str, args: &[&str]) -> Run {
    let mut all = vec!["--session", id];
    all.extend_from_slice(args);
    ws.run(&all)
}

/// Runs `stitch --session <id> <command> --json` with `request` on stdin.
fn session_json(ws: &TestWorkspace, id: &str, command: &str, request: &Value) -> Run {
    ws.run_with_stdin(&["--session", id, command, "--json"], request.to_string())
}

/// Asserts `NOT_OBSERVED` for `path`, with its verbatim hint; returns `details`.
#[track_caller]
fn assert_not_observed<'a>(run: &'a Run, path: &str) -> &'a Value {
    let details = run.refused("NOT_OBSERVED");
    assert_eq!(run.hint(), READ_FIRST, "{}", run.stdout);
    assert_eq!(details["path"], path, "{}", run.stdout);
    assert!(run.message().contains(path), "{}", run.stdout);
    details
}

/// Asserts `STALE_VERSION` for `path`, with its verbatim hint; returns `details`.
#[track_caller]
fn assert_stale<'a>(run: &'a Run, path: &str) -> &'a Value {
    let details = run.refused("STALE_VERSION");
    assert_eq!(run.hint(), REREAD, "{}", run.stdout);
    assert_eq!(details["path"], path, "{}", run.stdout);
    assert!(run.message().contains(path), "{}", run.stdout);
    details
}

fn ledger_path(ws: &TestWorkspace, id: &str) -> std::path::PathBuf {
    ws.path(&format!(".stitch/sessions/{id}.json"))
}

// ---------------------------------------------------------------------------------------
// Unseen files

#[test]
fn an_unseen_edit_is_not_observed() {
    let ws = workspace_with_text();
    let run = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    );
    let details = assert_not_observed(&run, "a.txt");
    assert_eq!(details["session"], "s1");
    assert_eq!(details["actualSha256"], sha256sum(TEXT.as_bytes()));
    assert_eq!(ws.read_string("a.txt"), TEXT);
}

#[test]
fn an_unseen_write_over_an_existing_file_is_not_observed_even_with_overwrite() {
    let ws = workspace_with_text();
    for request in [
        json!({"path": "a.txt", "content": "clobbered\n"}),
        json!({"path": "a.txt", "content": "clobbered\n", "overwrite": true}),
        json!({"path": "a.txt", "content": "clobbered\n",
               "expectedSha256": sha256sum(TEXT.as_bytes())}),
    ] {
        let run = session_json(&ws, "s1", "write", &request);
        assert_not_observed(&run, "a.txt");
        assert_eq!(ws.read_string("a.txt"), TEXT, "{request}");
    }
    // The flag spelling too.
    let run = session(
        &ws,
        "s1",
        &["write", "a.txt", "--content", "clobbered\n", "--overwrite"],
    );
    assert_not_observed(&run, "a.txt");
    assert_eq!(ws.read_string("a.txt"), TEXT);
}

#[test]
fn not_observed_is_checked_before_matching() {
    let ws = workspace_with_text();
    let run = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "not in the file", "--new", "x"],
    );
    assert_not_observed(&run, "a.txt");
}

// ---------------------------------------------------------------------------------------
// Read, then change

#[test]
fn a_read_authorizes_an_edit() {
    let ws = workspace_with_text();
    let read = session(&ws, "s1", &["read", "a.txt"]);
    assert_eq!(read.ok()["sha256"], sha256sum(TEXT.as_bytes()));
    let run = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    );
    let data = run.ok();
    assert_eq!(data["baseSha256"], sha256sum(TEXT.as_bytes()));
    assert_eq!(ws.read_string("a.txt"), "alpha\nBETA\ngamma\n");
}

#[test]
fn a_read_authorizes_a_write_without_overwrite() {
    let ws = workspace_with_text();
    session(&ws, "s1", &["read", "a.txt"]).ok();
    let run = session(&ws, "s1", &["write", "a.txt", "--content", "new\n"]);
    let data = run.ok();
    assert_eq!(data["created"], false);
    assert_eq!(data["previousSha256"], sha256sum(TEXT.as_bytes()));
    assert_eq!(ws.read_string("a.txt"), "new\n");
}

#[test]
fn edits_chain_without_rereading() {
    let ws = workspace_with_text();
    session(&ws, "s1", &["read", "a.txt"]).ok();
    let first = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "alpha", "--new", "ALPHA"],
    );
    first.ok();
    let second = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    );
    assert_eq!(second.ok()["baseSha256"], first.ok()["sha256"]);
    let third = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "gamma", "--new", "GAMMA"],
    );
    assert_eq!(third.ok()["baseSha256"], second.ok()["sha256"]);
    assert_eq!(ws.read_string("a.txt"), "ALPHA\nBETA\nGAMMA\n");
    // A write records its version too: the session may replace its own write, and
    // edit the result, without reading.
    session(&ws, "s1", &["write", "a.txt", "--content", "one\ntwo\n"]).ok();
    session(&ws, "s1", &["edit", "a.txt", "--old", "two", "--new", "2"]).ok();
    assert_eq!(ws.read_string("a.txt"), "one\n2\n");
}

#[test]
fn a_dry_run_records_nothing() {
    let ws = workspace_with_text();
    session(&ws, "s1", &["read", "a.txt"]).ok();
    let dry = session(
        &ws,
        "s1",
        &[
            "edit",
            "a.txt",
            "--old",
            "beta",
            "--new",
            "BETA",
            "--dry-run",
        ],
    );
    assert_eq!(dry.ok()["applied"], false);
    assert_eq!(ws.read_string("a.txt"), TEXT);
    // The session's record is still the version it read, which is still on disk.
    session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "gamma", "--new", "GAMMA"],
    )
    .ok();
    assert_eq!(ws.read_string("a.txt"), "alpha\nbeta\nGAMMA\n");
}

#[test]
fn a_windowed_read_authorizes_a_full_write() {
    let ws = workspace_with_text();
    let read = session(
        &ws,
        "s1",
        &["read", "a.txt", "--offset", "2", "--limit", "1"],
    );
    let data = read.ok();
    assert_eq!(data["content"], "beta\n");
    assert_eq!(
        data["sha256"],
        sha256sum(TEXT.as_bytes()),
        "the whole file's"
    );
    let run = session(&ws, "s1", &["write", "a.txt", "--content", "rewritten\n"]);
    let data = run.ok();
    assert_eq!(data["created"], false);
    assert_eq!(data["previousSha256"], sha256sum(TEXT.as_bytes()));
    assert_eq!(ws.read_string("a.txt"), "rewritten\n");
}

#[test]
fn a_read_through_a_symlink_authorizes_a_change_of_its_target() {
    let ws = workspace_with_text();
    ws.symlink("a.txt", "link.txt");
    session(&ws, "s1", &["read", "link.txt"]).ok();
    session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    )
    .ok();
    assert_eq!(ws.read_string("a.txt"), "alpha\nBETA\ngamma\n");
}

// ---------------------------------------------------------------------------------------
// External changes

#[test]
fn an_external_change_after_the_read_is_stale() {
    let ws = workspace_with_text();
    session(&ws, "s1", &["read", "a.txt"]).ok();
    let external = "alpha\nbeta, changed by someone else\ngamma\n";
    fs::write(ws.path("a.txt"), external).unwrap();

    let edit = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "gamma", "--new", "GAMMA"],
    );
    let details = assert_stale(&edit, "a.txt");
    assert_eq!(details["expectedSha256"], sha256sum(TEXT.as_bytes()));
    assert_eq!(details["actualSha256"], sha256sum(external.as_bytes()));
    assert_eq!(ws.read_string("a.txt"), external);

    let write = session(
        &ws,
        "s1",
        &["write", "a.txt", "--content", "mine\n", "--overwrite"],
    );
    let details = assert_stale(&write, "a.txt");
    assert_eq!(details["expectedSha256"], sha256sum(TEXT.as_bytes()));
    assert_eq!(details["actualSha256"], sha256sum(external.as_bytes()));
    assert_eq!(ws.read_string("a.txt"), external);

    // Re-reading is the remedy.
    session(&ws, "s1", &["read", "a.txt"]).ok();
    session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "gamma", "--new", "GAMMA"],
    )
    .ok();
    assert_eq!(
        ws.read_string("a.txt"),
        "alpha\nbeta, changed by someone else\nGAMMA\n"
    );
}

#[test]
fn staleness_is_checked_before_matching() {
    let ws = workspace_with_text();
    session(&ws, "s1", &["read", "a.txt"]).ok();
    fs::write(ws.path("a.txt"), "changed\n").unwrap();
    let run = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "not in the file", "--new", "x"],
    );
    assert_stale(&run, "a.txt");
    assert_eq!(ws.read_string("a.txt"), "changed\n");
}

// ---------------------------------------------------------------------------------------
// Deletion and absence

#[test]
fn a_deleted_file_is_stale_then_recorded_absent_then_recreated() {
    let ws = workspace_with_text();
    session(&ws, "s1", &["read", "a.txt"]).ok();
    fs::remove_file(ws.path("a.txt")).unwrap();

    // The session saw it present: its disappearance is a stale version.
    let edit = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    );
    let details = assert_stale(&edit, "a.txt");
    assert_eq!(details["expectedSha256"], sha256sum(TEXT.as_bytes()));
    assert!(details.get("actualSha256").is_none(), "{}", edit.stdout);
    assert!(!ws.exists("a.txt"));
    let write = session(&ws, "s1", &["write", "a.txt", "--content", "back\n"]);
    assert_stale(&write, "a.txt");
    assert!(!ws.exists("a.txt"));

    // Re-reading finds it missing and records the absence.
    let reread = session(&ws, "s1", &["read", "a.txt"]);
    assert_eq!(reread.refused("NOT_FOUND")["path"], "a.txt");

    // An edit of a file recorded absent is NOT_FOUND while it stays absent.
    for _ in 0..2 {
        let edit = session(
            &ws,
            "s1",
            &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
        );
        assert_eq!(
            edit.refused("NOT_FOUND")["path"],
            "a.txt",
            "{}",
            edit.stdout
        );
        assert!(!ws.exists("a.txt"));
    }

    // A write may recreate it, without overwrite, and edits chain from there.
    let write = session(&ws, "s1", &["write", "a.txt", "--content", "back\n"]);
    let data = write.ok();
    assert_eq!(data["created"], true);
    assert_eq!(data["sha256"], sha256sum(b"back\n"));
    assert_eq!(ws.read_string("a.txt"), "back\n");
    session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "back", "--new", "BACK"],
    )
    .ok();
    assert_eq!(ws.read_string("a.txt"), "BACK\n");
}

#[test]
fn a_file_recorded_absent_that_appears_is_stale_until_read() {
    let ws = TestWorkspace::new();
    let missing = session(&ws, "s1", &["read", "later.txt"]);
    missing.refused("NOT_FOUND");

    let external = "made by someone else\n";
    fs::write(ws.path("later.txt"), external).unwrap();

    for _ in 0..2 {
        let write = session(
            &ws,
            "s1",
            &["write", "later.txt", "--content", "mine\n", "--overwrite"],
        );
        let details = assert_stale(&write, "later.txt");
        assert_eq!(details["actualSha256"], sha256sum(external.as_bytes()));
        assert_eq!(ws.read_string("later.txt"), external);

        let edit = session(
            &ws,
            "s1",
            &["edit", "later.txt", "--old", "someone", "--new", "me"],
        );
        let details = assert_stale(&edit, "later.txt");
        assert_eq!(details["actualSha256"], sha256sum(external.as_bytes()));
        assert_eq!(ws.read_string("later.txt"), external);
    }

    session(&ws, "s1", &["read", "later.txt"]).ok();
    session(
        &ws,
        "s1",
        &["edit", "later.txt", "--old", "someone", "--new", "me"],
    )
    .ok();
    assert_eq!(ws.read_string("later.txt"), "made by me else\n");
}

#[test]
fn a_write_of_a_never_seen_absent_file_creates_it() {
    let ws = TestWorkspace::new();
    let run = session(
        &ws,
        "s1",
        &["write", "new/dir/f.txt", "--content", "fresh\n"],
    );
    let data = run.ok();
    assert_eq!(data["created"], true);
    assert_eq!(data["createdDirectories"], json!(["new", "new/dir"]));
    assert_eq!(ws.read_string("new/dir/f.txt"), "fresh\n");
    // What it wrote, it has seen.
    session(
        &ws,
        "s1",
        &["edit", "new/dir/f.txt", "--old", "fresh", "--new", "FRESH"],
    )
    .ok();
    assert_eq!(ws.read_string("new/dir/f.txt"), "FRESH\n");
}

#[test]
fn an_edit_of_a_never_seen_absent_file_is_not_found() {
    let ws = TestWorkspace::new();
    let run = session(&ws, "s1", &["edit", "nope.txt", "--old", "a", "--new", "b"]);
    assert_eq!(run.refused("NOT_FOUND")["path"], "nope.txt");
    assert!(!ws.exists("nope.txt"));
}

// ---------------------------------------------------------------------------------------
// Isolation

#[test]
fn sessions_are_isolated_from_each_other() {
    let ws = workspace_with_text();
    session(&ws, "agent-a", &["read", "a.txt"]).ok();

    let edit = session(
        &ws,
        "agent-b",
        &["edit", "a.txt", "--old", "beta", "--new", "B"],
    );
    assert_eq!(assert_not_observed(&edit, "a.txt")["session"], "agent-b");
    let write = session(
        &ws,
        "agent-b",
        &["write", "a.txt", "--content", "b\n", "--overwrite"],
    );
    assert_not_observed(&write, "a.txt");
    assert_eq!(ws.read_string("a.txt"), TEXT);

    // Both read; A's edit makes B's record stale, not A's.
    session(&ws, "agent-b", &["read", "a.txt"]).ok();
    session(
        &ws,
        "agent-a",
        &["edit", "a.txt", "--old", "beta", "--new", "A"],
    )
    .ok();
    let after_a = "alpha\nA\ngamma\n";
    let edit = session(
        &ws,
        "agent-b",
        &["edit", "a.txt", "--old", "gamma", "--new", "B"],
    );
    let details = assert_stale(&edit, "a.txt");
    assert_eq!(details["expectedSha256"], sha256sum(TEXT.as_bytes()));
    assert_eq!(details["actualSha256"], sha256sum(after_a.as_bytes()));
    assert_eq!(ws.read_string("a.txt"), after_a);
    session(
        &ws,
        "agent-a",
        &["edit", "a.txt", "--old", "gamma", "--new", "G"],
    )
    .ok();
    assert_eq!(ws.read_string("a.txt"), "alpha\nA\nG\n");
}

// ---------------------------------------------------------------------------------------
// A ledger that cannot be read

fn corrupt_ledger_fails_closed(corrupt: impl FnOnce(&[u8]) -> Vec<u8>) {
    let ws = workspace_with_text();
    session(&ws, "s1", &["read", "a.txt"]).ok();
    let ledger = ledger_path(&ws, "s1");
    let valid = fs::read(&ledger).expect("the read left a ledger");
    serde_json::from_slice::<Value>(&valid).expect("the ledger is JSON");
    fs::write(&ledger, corrupt(&valid)).unwrap();

    let edit = session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    );
    assert_not_observed(&edit, "a.txt");
    let write = session(
        &ws,
        "s1",
        &["write", "a.txt", "--content", "x\n", "--overwrite"],
    );
    assert_not_observed(&write, "a.txt");
    assert_eq!(ws.read_string("a.txt"), TEXT);

    session(&ws, "s1", &["read", "a.txt"]).ok();
    session(
        &ws,
        "s1",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    )
    .ok();
    assert_eq!(ws.read_string("a.txt"), "alpha\nBETA\ngamma\n");
    let rewritten = fs::read(&ledger).unwrap();
    serde_json::from_slice::<Value>(&rewritten).expect("the ledger is JSON again");
}

#[test]
fn a_garbage_ledger_is_treated_as_empty() {
    corrupt_ledger_fails_closed(|_| b"\x00\xffnot json at all {{{".to_vec());
}

#[test]
fn a_truncated_ledger_is_treated_as_empty() {
    corrupt_ledger_fails_closed(|valid| valid[..valid.len() / 2].to_vec());
}

#[test]
fn a_ledger_of_the_wrong_shape_is_treated_as_empty() {
    corrupt_ledger_fails_closed(|_| br#"{"entries": [1, 2, 3]}"#.to_vec());
}

#[test]
fn an_empty_ledger_file_is_treated_as_empty() {
    corrupt_ledger_fails_closed(|_| Vec::new());
}

// ---------------------------------------------------------------------------------------
// Session IDs

#[test]
fn bad_session_ids_are_invalid_arguments_and_create_nothing() {
    let ws = workspace_with_text();
    let long = "a".repeat(129);
    for id in ["../x", "a/b", "", &long, ".", "..", "é", "a b", "x\\y"] {
        let flag = format!("--session={id}");
        for args in [
            vec![flag.as_str(), "write", "new.txt", "--content", "x"],
            vec![
                flag.as_str(),
                "edit",
                "a.txt",
                "--old",
                "beta",
                "--new",
                "B",
            ],
            vec![flag.as_str(), "read", "a.txt"],
        ] {
            let run = ws.run(&args);
            let details = run.refused("INVALID_ARGUMENT");
            assert_eq!(details["field"], "session", "{id:?}: {}", run.stdout);
            assert_eq!(run.status, 2);
        }
        assert!(!ws.exists("new.txt"), "{id:?}");
        assert_eq!(ws.read_string("a.txt"), TEXT, "{id:?}");
        assert!(!ws.exists(".stitch/sessions"), "{id:?}");
    }
    // Nothing escaped beside the ledger directory either.
    assert!(!ws.exists(".stitch/x.json"));
    assert!(!ws.exists("x.json"));
    assert!(!ws.outside().join("x.json").exists());

    // The same through the environment.
    let run = ws.run_with_env(&[("STITCH_SESSION", "../x")], &["read", "a.txt"]);
    assert_eq!(run.refused("INVALID_ARGUMENT")["field"], "session");
    assert!(!ws.exists(".stitch/sessions"));
}

#[test]
fn the_longest_and_every_allowed_character_make_a_valid_id() {
    let ws = workspace_with_text();
    for id in [
        "a".repeat(128),
        "Agent-7.run_2".to_owned(),
        "..x".to_owned(),
    ] {
        session(&ws, &id, &["read", "a.txt"]).ok();
        assert!(ledger_path(&ws, &id).exists(), "{id}");
    }
}

// ---------------------------------------------------------------------------------------
// Without a session; through the environment; in --help

#[test]
fn without_a_session_no_guard_applies() {
    let ws = workspace_with_text();
    ws.run(&["edit", "a.txt", "--old", "beta", "--new", "BETA"])
        .ok();
    ws.run(&["write", "a.txt", "--content", "over\n", "--overwrite"])
        .ok();
    assert_eq!(ws.read_string("a.txt"), "over\n");
    // An external change is not the sessionless caller's concern either.
    fs::write(ws.path("a.txt"), "external\n").unwrap();
    ws.run(&["edit", "a.txt", "--old", "external", "--new", "mine"])
        .ok();
    assert_eq!(ws.read_string("a.txt"), "mine\n");
    assert!(!ws.exists(".stitch/sessions"));
}

#[test]
fn the_environment_names_the_session_like_the_flag() {
    let ws = workspace_with_text();
    let edit = ws.run_with_env(
        &[("STITCH_SESSION", "env-s")],
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    );
    assert_eq!(assert_not_observed(&edit, "a.txt")["session"], "env-s");
    assert_eq!(ws.read_string("a.txt"), TEXT);

    ws.run_with_env(&[("STITCH_SESSION", "env-s")], &["read", "a.txt"])
        .ok();
    assert!(ledger_path(&ws, "env-s").exists());
    // The flag names the same ledger.
    session(
        &ws,
        "env-s",
        &["edit", "a.txt", "--old", "beta", "--new", "BETA"],
    )
    .ok();
    ws.run_with_env(
        &[("STITCH_SESSION", "env-s")],
        &["edit", "a.txt", "--old", "gamma", "--new", "GAMMA"],
    )
    .ok();
    assert_eq!(ws.read_string("a.txt"), "alpha\nBETA\nGAMMA\n");
    // Another session in the environment has seen nothing.
    let other = ws.run_with_env(
        &[("STITCH_SESSION", "env-t")],
        &["edit", "a.txt", "--old", "alpha", "--new", "ALPHA"],
    );
    assert_not_observed(&other, "a.txt");
}

#[test]
fn help_quotes_the_remedies() {
    let ws = TestWorkspace::new();
    let output = ws.cmd().arg("--help").write_stdin("").output().unwrap();
    assert!(output.status.success());
    // The terminal wraps help text where it likes; the words are what must be there.
    let help = String::from_utf8(output.stdout)
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for remedy in ["Read the file, then retry", "Re-read the file, then retry"] {
        assert!(
            help.contains(remedy),
            "`stitch --help` quotes {remedy:?}:\n{help}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Concurrency within one session

/// How many processes of one session edit the file at once.
const EDITORS: usize = 24;

fn editor_line(editor: usize, done: bool) -> String {
    let state = if done { "edited" } else { "original" };
    format!("line {editor:02}: {state}")
}

/// The shared file with every editor's line original or edited.
fn shared_text(done: bool) -> String {
    let mut text = String::new();
    for e in 0..EDITORS {
        text.push_str(&editor_line(e, done));
        text.push('\n');
    }
    text
}

#[test]
fn concurrent_edits_of_one_session_chain_and_lose_nothing() {
    let ws = TestWorkspace::new();
    ws.file("shared.txt", shared_text(false));
    session(&ws, "crowd", &["read", "shared.txt"]).ok();

    // Every process is started before any is waited for; each is guarded only by the
    // session (no expectedSha256).
    let children: Vec<Child> = (0..EDITORS)
        .map(|e| {
            ws.spawnable()
                .args(["--session", "crowd", "edit", "shared.txt", "--old"])
                .arg(editor_line(e, false))
                .arg("--new")
                .arg(editor_line(e, true))
                .spawn()
                .expect("spawn stitch")
        })
        .collect();
    let runs: Vec<Run> = children
        .into_iter()
        .map(|child| Run::from_output(child.wait_with_output().expect("wait")))
        .collect();

    let final_text = ws.read_string("shared.txt");
    for (e, run) in runs.iter().enumerate() {
        // Every outcome is a typed envelope, never an internal error.
        let envelope = &run.envelope;
        assert!(
            envelope["ok"] == true || envelope["error"] == "STALE_VERSION",
            "editor {e}: {}",
            run.stdout
        );
        if envelope["ok"] == true {
            assert!(
                final_text.contains(&editor_line(e, true)),
                "editor {e} reported ok but its change is lost:\n{final_text}"
            );
        }
    }
    // Each edit ran under the lock against the version the previous one recorded, so
    // every one of them succeeds.
    for (e, run) in runs.iter().enumerate() {
        assert_eq!(run.ok()["replacements"], 1, "editor {e}: {}", run.stdout);
    }
    assert_eq!(final_text, shared_text(true));

    let ledger = fs::read(ledger_path(&ws, "crowd")).unwrap();
    serde_json::from_slice::<Value>(&ledger).expect("the ledger still parses");

    // The session goes on: a fresh read and an edit.
    session(&ws, "crowd", &["read", "shared.txt"]).ok();
    session(
        &ws,
        "crowd",
        &[
            "edit",
            "shared.txt",
            "--old",
            "line 00: edited",
            "--new",
            "line 00: final",
        ],
    )
    .ok();
    assert!(ws.read_string("shared.txt").starts_with("line 00: final\n"));
}

#[test]
fn concurrent_reads_and_edits_of_many_files_keep_one_ledger() {
    // One session touching different files at once: the ledger's own lock keeps every
    // record, so each file's later edit is observed.
    let ws = TestWorkspace::new();
    for e in 0..EDITORS {
        ws.file(&format!("f{e:02}.txt"), format!("file {e}\n"));
    }
    let children: Vec<Child> = (0..EDITORS)
        .map(|e| {
            ws.spawnable()
                .args(["--session", "many", "read"])
                .arg(format!("f{e:02}.txt"))
                .spawn()
                .expect("spawn stitch")
        })
        .collect();
    for child in children {
        Run::from_output(child.wait_with_output().unwrap()).ok();
    }
    for e in 0..EDITORS {
        let name = format!("f{e:02}.txt");
        let run = session(
            &ws,
            "many",
            &["edit", &name, "--old", "file", "--new", "FILE"],
        );
        run.ok();
        assert_eq!(ws.read_string(&name), format!("FILE {e}\n"));
    }
}

#[test]
fn a_read_refused_as_not_text_still_lets_the_session_replace_the_file() {
    let ws = TestWorkspace::new();
    ws.file("blob.bin", b"a\x00b");
    let read = session(&ws, "s", &["read", "blob.bin"]);
    let details = read.refused("NOT_TEXT");
    assert_eq!(details["sha256"], sha256sum(b"a\x00b"));
    assert!(read.hint().contains("expectedSha256"), "{}", read.stdout);
    session(&ws, "s", &["write", "blob.bin", "--content", "text\n"]).ok();
    assert_eq!(ws.read("blob.bin"), b"text\n");
}
