//! Where a path resolves decides, not how it is spelled: a symlink into `.stitch/` is
//! `DENIED` (rule `reserved`) for every tool, and a symlink whose target is not valid
//! UTF-8 is `INVALID_PATH`, never resolved lossily onto another name.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use serde_json::json;

use super::timed;
use crate::support::{tree, TestWorkspace};

/// A workspace with a policy and a ledger in `.stitch/`, and links into it spelled
/// every way a planted repository could.
fn linked_into_state() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file(".stitch/config.json", r#"{"deny": ["secret.txt"]}"#)
        .file(
            ".stitch/sessions/s1.json",
            r#"{"clock":1,"entries":{"ledger-mark.txt":{"sha256":null,"at":1}}}"#,
        )
        .file("secret.txt", "hunter2\n")
        .symlink(".stitch", "st")
        .symlink("../.stitch/config.json", "docs/policy.json")
        .symlink("../.stitch/sessions", "a/ledgers")
        .symlink("a/ledgers/../../st", "b");
    ws
}

#[test]
fn every_spelling_of_a_path_into_the_state_is_reserved() {
    let ws = linked_into_state();
    let (inside, outside) = (tree(&ws.root()), tree(&ws.outside()));
    let cases: [(&[&str], &str); 9] = [
        (&["read", "st/config.json"], "st/config.json"),
        (&["read", "docs/policy.json"], "docs/policy.json"),
        (&["read", "a/ledgers/s1.json"], "a/ledgers/s1.json"),
        (&["read", "b/config.json"], "b/config.json"),
        (
            &[
                "write",
                "docs/policy.json",
                "--content",
                "{}",
                "--overwrite",
            ],
            "docs/policy.json",
        ),
        (
            &["write", "st/config.json", "--content", "{}", "--overwrite"],
            "st/config.json",
        ),
        (
            &[
                "edit",
                "docs/policy.json",
                "--old",
                "secret",
                "--new",
                "public",
            ],
            "docs/policy.json",
        ),
        (&["list", "st"], "st"),
        (&["search", "deny", "--path", "a/ledgers"], "a/ledgers"),
    ];
    for (call, shown) in cases {
        let run = timed(&ws, call, "");
        run.refused("DENIED");
        assert_eq!(
            run.envelope,
            json!({
                "ok": false,
                "error": "DENIED",
                "details": {
                    "message": format!(
                        "`{shown}` leads through a symlink into .stitch/, which is reserved for \
                         stitch's own state"
                    ),
                    "path": shown,
                    "rule": "reserved",
                },
            }),
            "{}",
            run.stdout
        );
    }
    assert_eq!(tree(&ws.root()), inside, "the policy is unchanged");
    assert_eq!(tree(&ws.outside()), outside);
    // The policy those links could not rewrite still holds.
    let run = timed(&ws, &["read", "secret.txt"], "");
    assert_eq!(run.refused("DENIED")["rule"], "deny");
}

#[test]
fn walks_never_show_the_state_through_a_link() {
    let ws = linked_into_state();
    for call in [
        &["list", "--depth", "8", "--all"][..],
        &["glob", "**/*.json", "--all"],
        &["search", "ledger-mark", "--all"],
    ] {
        let run = timed(&ws, call, "");
        run.ok();
        assert!(!run.stdout.contains("s1.json"), "{}", run.stdout);
        assert!(!run.stdout.contains("config.json"), "{}", run.stdout);
        assert!(!run.stdout.contains("ledger-mark"), "{}", run.stdout);
    }
}

/// A link whose target is `\xff`-spelled, and beside it the name its lossy reading
/// (U+FFFD) would land on.
fn lossy_decoys() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("\u{FFFD}", "decoy\n")
        .file("dir\u{FFFD}/f.txt", "decoy in a directory\n");
    std::os::unix::fs::symlink(OsStr::from_bytes(b"\xff"), ws.path("evil")).unwrap();
    std::os::unix::fs::symlink(OsStr::from_bytes(b"dir\xff"), ws.path("d")).unwrap();
    ws
}

#[test]
fn a_link_whose_target_is_not_utf8_is_an_invalid_path() {
    let ws = lossy_decoys();
    let (inside, outside) = (tree(&ws.root()), tree(&ws.outside()));
    let cases: [(&[&str], &str, &str); 5] = [
        (&["read", "evil"], "evil", "evil"),
        (
            &["write", "evil", "--content", "replaced\n", "--overwrite"],
            "evil",
            "evil",
        ),
        (
            &["edit", "evil", "--old", "decoy", "--new", "changed"],
            "evil",
            "evil",
        ),
        (&["read", "d/f.txt"], "d/f.txt", "d"),
        (
            &["write", "d/f.txt", "--content", "replaced\n", "--overwrite"],
            "d/f.txt",
            "d",
        ),
    ];
    for (call, shown, link) in cases {
        let run = timed(&ws, call, "");
        run.refused("INVALID_PATH");
        assert_eq!(
            run.envelope,
            json!({
                "ok": false,
                "error": "INVALID_PATH",
                "details": {
                    "message": format!(
                        "The path `{shown}` goes through a symlink whose target is not valid UTF-8"
                    ),
                    "path": shown,
                    "symlink": link,
                },
                "_hint": format!(
                    "The symlink `{link}` cannot be followed: use a path that does not go \
                     through it."
                ),
            }),
            "{}",
            run.stdout
        );
        assert!(!run.stdout.contains("decoy"), "{}", run.stdout);
    }
    assert_eq!(tree(&ws.root()), inside, "the decoys are unchanged");
    assert_eq!(tree(&ws.outside()), outside);
}
