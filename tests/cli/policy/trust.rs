//! Trust (§7): a workspace's config came with the clone, so its `authorize` hook runs, and
//! its raised limits apply, only once a person has trusted it at a terminal; what only
//! takes away applies at once; the user's own config is trusted by where it lives.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use serde_json::{json, Value};

use crate::support::{
    envelope_of, limit_address_space, run_with_terminal, McpServer, Run, TestWorkspace,
};

use super::{config, config_raw, hook};

/// The refusal of every mutation while the workspace's config names an untrusted hook.
fn untrusted() -> Value {
    json!({
        "ok": false,
        "error": "DENIED",
        "details": {
            "message": ".stitch/config.json names an authorize command, and no one has trusted this workspace's config, so no change can be approved",
            "config": ".stitch/config.json",
            "rule": "untrusted-config"
        },
        "_hint": "A person must review .stitch/config.json and, if they accept the command it runs, trust it with `stitch config trust` at a terminal (a model or a script cannot); then retry. Reads, lists and searches still work."
    })
}

/// Plants what an attacker who can only commit files would: a hook that leaves a marker
/// outside the root, and a config naming it. Returns the marker's path.
fn plant(ws: &TestWorkspace) -> PathBuf {
    let marker = ws.outside().join("ran");
    hook(
        ws,
        "hooks/approve",
        &format!("cat > /dev/null\ntouch '{}'\nexit 0\n", marker.display()),
    );
    config(ws, &json!({"authorize": ["./hooks/approve"]}));
    ws.file("a.txt", "one\n");
    marker
}

/// Runs a `config` command that talks in text, not an envelope: its exit status, stdout
/// and stderr, with `stdin` piped in.
fn plain(ws: &TestWorkspace, args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut cmd = ws.cmd();
    cmd.args(args).write_stdin(stdin.to_owned());
    let output = cmd.output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// Asserts `run` is the untrusted-config refusal, whole, with exit status 1.
#[track_caller]
fn assert_untrusted(run: &Run) {
    run.assert_envelope(&untrusted());
    assert_eq!(run.status, 1, "{}", run.stdout);
}

#[test]
fn an_untrusted_hook_never_runs_and_every_mutation_is_refused() {
    let ws = TestWorkspace::new();
    let marker = plant(&ws);
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch\n";
    let by_flags: [&[&str]; 8] = [
        &["edit", "a.txt", "--old", "one", "--new", "two"],
        &["apply", "--patch", patch],
        &["apply", "--patch", patch, "--dry-run"],
        &["edit", "a.txt", "--old", "one", "--new", "two", "--dry-run"],
        &["write", "b.txt", "--content", "x"],
        &["write", "b.txt", "--content", "x", "--dry-run"],
        &["edit", "missing.txt", "--old", "x", "--new", "y"],
        &[
            "--session",
            "s1",
            "edit",
            "a.txt",
            "--old",
            "one",
            "--new",
            "two",
        ],
    ];
    for args in by_flags {
        assert_untrusted(&ws.run(args));
    }
    for (tool, args) in [
        (
            "edit",
            json!({"path": "a.txt", "oldText": "one", "newText": "two"}),
        ),
        (
            "edit",
            json!({"path": "a.txt", "oldText": "one", "newText": "two", "dryRun": true}),
        ),
        (
            "write",
            json!({"path": "b.txt", "content": "x", "dryRun": true}),
        ),
        (
            "apply",
            json!({"changes": [{"op": "write", "path": "b.txt", "content": "x"}], "dryRun": true}),
        ),
    ] {
        assert_untrusted(&ws.stitch(tool, &args));
    }
    assert!(!marker.exists(), "the planted hook ran");
    assert_eq!(ws.read_string("a.txt"), "one\n");
    assert!(!ws.exists("b.txt"));
    // Reads and discovery are not affected.
    assert_eq!(ws.run(&["read", "a.txt"]).ok()["content"], "one\n");
    ws.run(&["list"]).ok();
    ws.run(&["glob", "*.txt"]).ok();
    ws.run(&["search", "one"]).ok();
    assert!(!marker.exists(), "the planted hook ran on a read");

    // Once a person trusts it, the hook runs and approves.
    ws.trust();
    let run = ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"]);
    assert_eq!(run.ok()["applied"], true, "{}", run.stdout);
    assert!(marker.exists(), "the trusted hook did not run");
    assert_eq!(ws.read_string("a.txt"), "two\n");
}

#[test]
fn an_untrusted_hook_never_runs_through_mcp() {
    let ws = TestWorkspace::new();
    let marker = plant(&ws);
    let mut server = McpServer::start(&ws, &["--no-session"], &[]);
    server.initialize("2025-11-25");
    for arguments in [
        json!({"path": "a.txt", "oldText": "one", "newText": "two"}),
        json!({"path": "a.txt", "oldText": "one", "newText": "two", "dryRun": true}),
    ] {
        let result = server.call("edit_file", &arguments);
        assert_eq!(result["isError"], true, "{result}");
        assert_eq!(envelope_of(&result), untrusted());
        assert_eq!(result["structuredContent"], untrusted());
    }
    let result = server.call("read_file", &json!({"path": "a.txt"}));
    assert_eq!(result["structuredContent"]["content"], "one\n", "{result}");
    assert!(!marker.exists(), "the planted hook ran");
    assert_eq!(ws.read_string("a.txt"), "one\n");
}

#[test]
fn trust_needs_a_person_at_a_terminal() {
    let ws = TestWorkspace::new();
    let marker = plant(&ws);
    // A pipe (a model's bash tool, a script) answering yes is refused.
    let (status, stdout, stderr) = plain(&ws, &["config", "trust"], "y\n");
    assert_eq!(status, 2, "{stderr}");
    assert_eq!(stdout, "");
    assert!(stderr.contains("stdin is not a terminal"), "{stderr}");
    assert!(!ws.home().join("data/stitch/trusted").exists());
    assert_untrusted(&ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"]));

    // At a terminal, anything but yes trusts nothing.
    let mut cmd = ws.std_cmd();
    cmd.args(["config", "trust"]);
    let output = run_with_terminal(cmd, b"n\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    // It showed the config and what trusting it enables before asking.
    assert!(
        stderr.contains(r#"{"authorize":["./hooks/approve"]}"#),
        "{stderr}"
    );
    assert!(
        stderr.contains(r#"authorize: runs ["./hooks/approve"] before every change"#),
        "{stderr}"
    );
    assert!(stderr.contains("Trust this config? [y/N]"), "{stderr}");
    assert!(stderr.contains("Not trusted; nothing changed."), "{stderr}");
    assert_untrusted(&ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"]));
    assert!(!marker.exists());
}

#[test]
fn changed_bytes_end_the_trust() {
    let ws = TestWorkspace::new();
    let marker = plant(&ws);
    ws.trust();
    // A `git pull` that changes the config, by one byte.
    config_raw(
        &ws,
        json!({"authorize": ["./hooks/approve"]}).to_string() + "\n",
    );
    assert_untrusted(&ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"]));
    assert!(!marker.exists());
    let check = ws.run(&["config", "check"]);
    assert_eq!(check.ok()["trust"], "untrusted", "{}", check.stdout);
}

#[test]
fn a_moved_workspace_is_no_longer_trusted() {
    let ws = TestWorkspace::new();
    let marker = plant(&ws);
    ws.trust();
    let moved = ws.base().join("moved");
    fs::rename(ws.root(), &moved).unwrap();
    let mut cmd = ws.std_cmd_at(&moved);
    cmd.args(["edit", "a.txt", "--old", "one", "--new", "two"]);
    let run = Run::from_output(cmd.output().unwrap());
    assert_untrusted(&run);
    assert!(!marker.exists());
    // Back where it was trusted, the same bytes are trusted again.
    fs::rename(&moved, ws.root()).unwrap();
    ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"])
        .ok();
    assert!(marker.exists());
}

#[test]
fn untrust_ends_the_trust() {
    let ws = TestWorkspace::new();
    let marker = plant(&ws);
    ws.trust();
    // Untrusting only takes away, so a script may do it.
    let (status, _, stderr) = plain(&ws, &["config", "untrust"], "");
    assert_eq!(status, 0, "{stderr}");
    assert!(stderr.contains("is no longer trusted"), "{stderr}");
    assert_untrusted(&ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"]));
    assert!(!marker.exists());
    let (status, _, stderr) = plain(&ws, &["config", "untrust"], "");
    assert_eq!(status, 0);
    assert!(stderr.contains("was not trusted"), "{stderr}");
}

/// A read of a path an untrusted config denies: refused as any config's `deny` is.
static DENY_ENVELOPE: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| {
    json!({
        "ok": false,
        "error": "DENIED",
        "details": {
            "message": "The workspace policy denies access to `secret.txt`",
            "path": "secret.txt",
            "rule": "deny"
        }
    })
});

/// An edit of a path an untrusted config makes read-only.
static READ_ONLY_ENVELOPE: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| {
    json!({
        "ok": false,
        "error": "DENIED",
        "details": {
            "message": "The workspace policy makes `vendor/lib.txt` read-only",
            "path": "vendor/lib.txt",
            "rule": "readOnly"
        }
    })
});

#[test]
fn what_only_takes_away_applies_untrusted_and_widening_does_not() {
    let ws = TestWorkspace::new();
    ws.file("secret.txt", "s\n")
        .file("vendor/lib.txt", "v\n")
        .file("a.txt", "x".repeat(300_000))
        .file("d/1", "")
        .file("d/2", "")
        .file("d/3", "");
    config(
        &ws,
        &json!({
            "deny": ["secret.txt"],
            "readOnly": ["vendor/**"],
            "limits": {"maxReadBytes": 10_000_000, "listLimit": 2}
        }),
    );
    ws.run(&["read", "secret.txt"])
        .assert_envelope(&DENY_ENVELOPE);
    ws.run(&["edit", "vendor/lib.txt", "--old", "v", "--new", "w"])
        .assert_envelope(&READ_ONLY_ENVELOPE);
    // The raised maxReadBytes falls back to the default; the lowered listLimit applies.
    let read = ws.run(&["read", "a.txt"]);
    assert_eq!(read.ok()["content"].as_str().unwrap().len(), 262_144);
    assert_eq!(read.ok()["truncated"], true);
    let list = ws.run(&["list", "d"]);
    assert_eq!(
        list.ok()["entries"].as_array().unwrap().len(),
        2,
        "{}",
        list.stdout
    );
    assert_eq!(list.ok()["truncated"], true);
    // Trusted, the raise applies.
    ws.trust();
    let read = ws.run(&["read", "a.txt"]);
    assert_eq!(read.ok()["content"].as_str().unwrap().len(), 300_000);
}

#[test]
fn the_users_own_hook_runs_in_every_workspace() {
    let ws = TestWorkspace::new();
    let log = ws.outside().join("log");
    let script = ws.outside().join("mine");
    fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat > /dev/null\necho user >> '{}'\nexit 0\n",
            log.display()
        ),
    )
    .unwrap();
    fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    ws.user_config(&json!({"authorize": [script.to_str().unwrap()]}));
    ws.file("a.txt", "one\n");
    ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"])
        .ok();
    assert_eq!(fs::read_to_string(&log).unwrap(), "user\n");
    // With a trusted workspace hook too, both run, the user's first.
    hook(
        &ws,
        "hooks/approve",
        &format!(
            "cat > /dev/null\necho workspace >> '{}'\nexit 0\n",
            log.display()
        ),
    );
    config(&ws, &json!({"authorize": ["./hooks/approve"]}));
    ws.trust();
    ws.run(&["edit", "a.txt", "--old", "two", "--new", "three"])
        .ok();
    assert_eq!(fs::read_to_string(&log).unwrap(), "user\nuser\nworkspace\n");
}

#[test]
fn the_users_own_hook_may_refuse() {
    let ws = TestWorkspace::new();
    let script = ws.outside().join("refuse");
    fs::write(&script, "#!/bin/sh\necho 'not on Fridays' >&2\nexit 1\n").unwrap();
    fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
    ws.user_config(&json!({"authorize": [script.to_str().unwrap()]}));
    ws.file("a.txt", "one\n");
    let run = ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "DENIED",
        "details": {
            "message": "The authorize command refused this change to `a.txt`: not on Fridays",
            "path": "a.txt",
            "config": "$XDG_CONFIG_HOME/stitch/config.json",
            "rule": "authorize",
            "reason": "not on Fridays"
        },
        "_hint": "Your own authorize command ($XDG_CONFIG_HOME/stitch/config.json) said: not on Fridays. Change the request to satisfy it."
    }));
    assert_eq!(ws.read_string("a.txt"), "one\n");
}

#[test]
fn a_workspace_config_cannot_trust_itself() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    config(&ws, &json!({"trusted": true, "authorize": ["./x"]}));
    let reason =
        "a config cannot trust itself: a person trusts a workspace's config with `stitch config trust`";
    ws.run(&["read", "a.txt"]).assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_CONFIG",
        "details": {
            "message": format!(".stitch/config.json is malformed: {reason}"),
            "path": ".stitch/config.json",
            "reason": reason,
            "field": "trusted"
        },
        "_hint": "The workspace owner must fix .stitch/config.json; `stitch config check` shows the problem."
    }));
}

#[test]
fn a_user_config_that_is_a_symlink_or_malformed_fails_closed() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let elsewhere = ws.outside_file("config.json", r#"{"deny": []}"#);
    let path = ws.user_config_path();
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &path).unwrap();
    ws.run(&["read", "a.txt"]).assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_CONFIG",
        "details": {
            "message": "stitch's own state is unusable: `$XDG_CONFIG_HOME/stitch/config.json` is a symbolic link; stitch never follows links in its own state",
            "path": "$XDG_CONFIG_HOME/stitch/config.json",
            "field": "$XDG_CONFIG_HOME/stitch/config.json",
            "reason": "is a symbolic link; stitch never follows links in its own state"
        },
        "_hint": "Fix your own config $XDG_CONFIG_HOME/stitch/config.json; `stitch config check` shows the problem."
    }));
    fs::remove_file(&path).unwrap();
    fs::write(&path, r#"{"limits": {"maxFileBytes": -1}}"#).unwrap();
    let run = ws.run(&["read", "a.txt"]);
    let details = run.refused("INVALID_CONFIG");
    assert_eq!(details["path"], "$XDG_CONFIG_HOME/stitch/config.json");
    assert_eq!(details["field"], "limits.maxFileBytes");
}

/// A planted config raising maxFileBytes to 1 TiB, and a 4 GiB sparse file: untrusted,
/// the default limit holds; trusted, the file is more than the process may allocate, and
/// the call still ends with an envelope (exit 1), never an abort. Each call runs within
/// 1 GiB of address space, so its memory is bounded whatever the limits say.
#[test]
fn a_huge_limit_and_a_sparse_file_end_in_an_envelope_within_bounded_memory() {
    let ws = TestWorkspace::new();
    let file = fs::File::create(ws.path("big.txt")).unwrap();
    file.set_len(4 << 30).unwrap();
    drop(file);
    config(&ws, &json!({"limits": {"maxFileBytes": 1u64 << 40}}));
    // A read and an edit of the file, each in 1 GiB of address space, end in `expected`.
    let both_end_in = |expected: &Value| {
        for args in [
            &["read", "big.txt"][..],
            &["edit", "big.txt", "--old", "a", "--new", "b"],
        ] {
            let mut cmd = ws.std_cmd();
            cmd.args(args);
            limit_address_space(&mut cmd, 1 << 30);
            let run = Run::from_output(cmd.output().unwrap());
            run.assert_envelope(expected);
            assert_eq!(run.status, 1);
        }
    };
    both_end_in(&json!({
        "ok": false,
        "error": "TOO_LARGE",
        "details": {
            "message": "`big.txt` is 4294967296 bytes, over the limit of 268435456",
            "path": "big.txt",
            "bytes": 4_294_967_296_u64,
            "limit": 268_435_456
        },
        "_hint": "`big.txt` is over the workspace's limits.maxFileBytes: work on smaller files, or ask the workspace owner to raise limits.maxFileBytes."
    }));
    ws.trust();
    both_end_in(&json!({
        "ok": false,
        "error": "TOO_LARGE",
        "details": {
            "message": "`big.txt` is 4294967296 bytes, more than stitch can hold in memory now",
            "path": "big.txt",
            "bytes": 4_294_967_296_u64,
            "limit": 1_099_511_627_776_u64,
            "reason": "memory"
        },
        "_hint": "`big.txt` is within the limits but too large for the memory stitch has now: work on smaller files, or lower limits.maxFileBytes to what this machine can hold."
    }));
    assert_eq!(fs::metadata(ws.path("big.txt")).unwrap().len(), 4 << 30);
}
