//! Session IDs: which ones are refused and which are valid, the `STITCH_SESSION`
//! environment variable, calls without a session, and the remedies `--help` quotes.

use std::fs;

use crate::support::TestWorkspace;

use super::{assert_not_observed, ledger_path, session, workspace_with_text, TEXT};

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
