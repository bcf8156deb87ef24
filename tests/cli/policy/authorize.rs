//! `authorize`: the hook that approves or refuses each change — its verdict, its reason,
//! its payload, its environment, and what happens when it cannot start or hangs.

use std::fs;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::{sha256sum, TestWorkspace};

use super::{assert_denied, config, hook};

/// Where hooks record what they saw: beside the root, out of the workspace.
fn capture(ws: &TestWorkspace, name: &str) -> PathBuf {
    ws.outside().join(name)
}

fn captured_json(ws: &TestWorkspace, name: &str) -> Value {
    let text = fs::read_to_string(capture(ws, name)).expect("the hook recorded its payload");
    serde_json::from_str(&text).expect("the payload is JSON")
}

/// A hook that records its payload to `outside/payload.json` and then runs `then`.
fn recording_hook(ws: &TestWorkspace, then: &str) {
    let out = capture(ws, "payload.json");
    hook(
        ws,
        "hooks/approve",
        &format!("cat > '{}'\n{then}", out.display()),
    );
    config(ws, &json!({"authorize": ["./hooks/approve"]}));
    ws.trust();
}

#[test]
fn an_approving_hook_lets_the_change_through() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\n");
    recording_hook(&ws, "exit 0\n");
    ws.run(&["write", "b.txt", "--content", "bee\n"]).ok();
    assert_eq!(ws.read_string("b.txt"), "bee\n");
    ws.run(&["edit", "a.txt", "--old", "two", "--new", "TWO"])
        .ok();
    assert_eq!(ws.read_string("a.txt"), "one\nTWO\n");
    // Reads are not mutations: the hook is not asked.
    fs::remove_file(capture(&ws, "payload.json")).unwrap();
    ws.run(&["read", "a.txt"]).ok();
    ws.run(&["list"]).ok();
    assert!(!capture(&ws, "payload.json").exists(), "reads ask nobody");
}

#[test]
fn a_refusing_hook_denies_with_its_first_stderr_line() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\n");
    hook(
        &ws,
        "hooks/refuse",
        "echo 'stdout is not the reason'\necho '   ' >&2\necho '' >&2\necho '  only files under src/ may change  ' >&2\necho 'a second line' >&2\nexit 3\n",
    );
    config(&ws, &json!({"authorize": ["./hooks/refuse"]}));
    ws.trust();

    let write = ws.run(&["write", "new/dir/b.txt", "--content", "x"]);
    write.assert_envelope(&json!({
        "ok": false,
        "error": "DENIED",
        "details": {
            "message": "The authorize command refused this change to `new/dir/b.txt`: only files under src/ may change",
            "path": "new/dir/b.txt",
            "reason": "only files under src/ may change",
            "config": ".stitch/config.json",
            "rule": "authorize"
        },
        "_hint": "The workspace's authorize command said: only files under src/ may change. Change the request to satisfy it."
    }));
    assert!(
        !ws.exists("new"),
        "no directory created for a refused write"
    );

    let edit = ws.run(&["edit", "a.txt", "--old", "two", "--new", "TWO"]);
    edit.assert_envelope(&json!({
        "ok": false,
        "error": "DENIED",
        "details": {
            "message": "The authorize command refused this change to `a.txt`: only files under src/ may change",
            "path": "a.txt",
            "reason": "only files under src/ may change",
            "config": ".stitch/config.json",
            "rule": "authorize"
        },
        "_hint": "The workspace's authorize command said: only files under src/ may change. Change the request to satisfy it."
    }));
    assert_eq!(ws.read_string("a.txt"), "one\ntwo\n");

    let replace = ws.run(&["write", "a.txt", "--content", "x", "--overwrite"]);
    assert_denied(&replace, "authorize", "a.txt");
    assert_eq!(ws.read_string("a.txt"), "one\ntwo\n");
}

#[test]
fn a_hook_that_explains_only_on_stdout_is_quoted_from_stdout() {
    let ws = TestWorkspace::new();
    hook(
        &ws,
        "hooks/refuse",
        "echo\necho 'refused: ask the owner'\necho 'more detail'\nexit 1\n",
    );
    config(&ws, &json!({"authorize": ["./hooks/refuse"]}));
    ws.trust();
    let run = ws.run(&["write", "b.txt", "--content", "x"]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "DENIED",
        "details": {
            "message": "The authorize command refused this change to `b.txt`: refused: ask the owner",
            "path": "b.txt",
            "reason": "refused: ask the owner",
            "config": ".stitch/config.json",
            "rule": "authorize"
        },
        "_hint": "The workspace's authorize command said: refused: ask the owner. Change the request to satisfy it."
    }));
    assert!(!ws.exists("b.txt"));
}

#[test]
fn a_silent_refusal_still_has_a_reason() {
    let ws = TestWorkspace::new();
    hook(&ws, "hooks/refuse", "exit 7\n");
    config(&ws, &json!({"authorize": ["./hooks/refuse"]}));
    ws.trust();
    let run = ws.run(&["write", "b.txt", "--content", "x"]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "DENIED",
        "details": {
            "message": "The authorize command refused this change to `b.txt`: the authorize command refused (exit status 7)",
            "path": "b.txt",
            "reason": "the authorize command refused (exit status 7)",
            "config": ".stitch/config.json",
            "rule": "authorize"
        },
        "_hint": "The workspace's authorize command said: the authorize command refused (exit status 7). Change the request to satisfy it."
    }));
    assert!(!ws.exists("b.txt"));
}

#[test]
fn a_hook_that_cannot_start_denies() {
    let ws = TestWorkspace::new();
    ws.file("hooks/not-executable", "#!/bin/sh\nexit 0\n");
    for argv in [
        json!(["./hooks/missing"]),
        json!(["./hooks/not-executable"]),
    ] {
        config(&ws, &json!({"authorize": argv}));
        ws.trust();
        let run = ws.run(&["write", "b.txt", "--content", "x"]);
        assert_denied(&run, "authorize", "b.txt");
        assert!(!ws.exists("b.txt"), "{argv}");
        assert!(
            !run.stdout
                .contains(&ws.root().to_string_lossy().into_owned()),
            "no absolute path: {}",
            run.stdout
        );
    }
}

#[test]
fn a_hanging_hook_is_killed_and_the_change_denied() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    hook(&ws, "hooks/hang", "sleep 30\nexit 0\n");
    config(
        &ws,
        &json!({"authorize": ["./hooks/hang"], "authorizeTimeoutSecs": 1}),
    );
    ws.trust();
    for args in [
        &["write", "new/b.txt", "--content", "x"][..],
        &["edit", "a.txt", "--old", "one", "--new", "ONE"],
    ] {
        let start = Instant::now();
        let run = ws.run(args);
        let elapsed = start.elapsed();
        let details = run.refused("DENIED");
        assert_eq!(details["rule"], "authorize", "{args:?}: {}", run.stdout);
        assert!(details["reason"].as_str().is_some(), "{}", run.stdout);
        assert!(
            elapsed < Duration::from_secs(10),
            "{args:?} took {elapsed:?}"
        );
        assert!(
            elapsed >= Duration::from_millis(900),
            "{args:?} waited for the timeout: {elapsed:?}"
        );
    }
    assert!(!ws.exists("new"));
    assert_eq!(ws.read_string("a.txt"), "one\n");
}

#[test]
fn the_write_payload_names_directories_before_they_exist() {
    let ws = TestWorkspace::new();
    let before = capture(&ws, "dir-before");
    recording_hook(
        &ws,
        &format!(
            "if [ -d new ]; then echo existed > '{0}'; else echo absent > '{0}'; fi\nexit 0\n",
            before.display()
        ),
    );
    let content = "hello\n";
    let run = ws.run(&["write", "new/sub/f.txt", "--content", content]);
    run.ok();
    let payload = captured_json(&ws, "payload.json");
    assert_eq!(payload["tool"], "write_file", "{payload}");
    assert_eq!(payload["path"], "new/sub/f.txt", "{payload}");
    assert_eq!(payload["operation"], "create", "{payload}");
    assert_eq!(payload["bytes"], content.len(), "{payload}");
    assert_eq!(payload["overwrite"], false, "{payload}");
    assert_eq!(
        payload["createsDirectories"],
        json!(["new", "new/sub"]),
        "{payload}"
    );
    assert_eq!(
        payload["resultSha256"],
        sha256sum(content.as_bytes()),
        "{payload}"
    );
    assert_eq!(payload["dryRun"], false, "{payload}");
    assert!(payload.get("baseSha256").is_none(), "{payload}");
    assert!(payload.get("session").is_none(), "{payload}");
    assert_eq!(fs::read_to_string(&before).unwrap(), "absent\n");
    assert_eq!(ws.read_string("new/sub/f.txt"), content);

    // A replacement, in a session.
    ws.run(&["--session", "s1", "read", "new/sub/f.txt"]).ok();
    let replaced = "bye\n";
    ws.run(&[
        "--session",
        "s1",
        "write",
        "new/sub/f.txt",
        "--content",
        replaced,
        "--overwrite",
    ])
    .ok();
    let payload = captured_json(&ws, "payload.json");
    assert_eq!(payload["operation"], "replace", "{payload}");
    assert_eq!(payload["overwrite"], true, "{payload}");
    assert_eq!(payload["createsDirectories"], json!([]), "{payload}");
    assert_eq!(
        payload["baseSha256"],
        sha256sum(content.as_bytes()),
        "{payload}"
    );
    assert_eq!(
        payload["resultSha256"],
        sha256sum(replaced.as_bytes()),
        "{payload}"
    );
    assert_eq!(payload["session"], "s1", "{payload}");
}

#[test]
fn the_edit_payload_carries_the_versions_the_count_and_the_diff() {
    let ws = TestWorkspace::new();
    let text = "one\ntwo\none\n";
    ws.file("a.txt", text);
    recording_hook(&ws, "exit 0\n");
    let run = ws.run(&[
        "edit",
        "a.txt",
        "--old",
        "one",
        "--new",
        "ONE",
        "--replace-all",
    ]);
    let data = run.ok();
    let result = "ONE\ntwo\nONE\n";
    let payload = captured_json(&ws, "payload.json");
    assert_eq!(payload["tool"], "edit_file", "{payload}");
    assert_eq!(payload["path"], "a.txt", "{payload}");
    assert_eq!(payload["operation"], "edit", "{payload}");
    assert_eq!(payload["bytes"], result.len(), "{payload}");
    assert_eq!(
        payload["baseSha256"],
        sha256sum(text.as_bytes()),
        "{payload}"
    );
    assert_eq!(
        payload["resultSha256"],
        sha256sum(result.as_bytes()),
        "{payload}"
    );
    assert_eq!(payload["replacements"], 2, "{payload}");
    assert_eq!(payload["dryRun"], false, "{payload}");
    assert_eq!(payload["diff"], data["diff"], "{payload}");
    let diff = payload["diff"].as_str().unwrap();
    assert!(diff.lines().any(|l| l == "-one"), "{diff}");
    assert!(diff.lines().any(|l| l == "+ONE"), "{diff}");
    assert_eq!(ws.read_string("a.txt"), result);
}

#[test]
fn dry_runs_are_authorized_as_dry_runs() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    recording_hook(&ws, "exit 0\n");
    let run = ws.stitch(
        "write",
        &json!({"path": "d/new.txt", "content": "x", "dryRun": true}),
    );
    assert_eq!(run.ok()["applied"], false);
    let payload = captured_json(&ws, "payload.json");
    assert_eq!(payload["dryRun"], true, "{payload}");
    assert_eq!(payload["createsDirectories"], json!(["d"]), "{payload}");
    assert!(!ws.exists("d"));

    ws.run(&["edit", "a.txt", "--old", "one", "--new", "ONE", "--dry-run"])
        .ok();
    let payload = captured_json(&ws, "payload.json");
    assert_eq!(payload["dryRun"], true, "{payload}");
    assert_eq!(payload["tool"], "edit_file", "{payload}");
    assert_eq!(ws.read_string("a.txt"), "one\n");

    // A refusing hook refuses a dry run as well: the dry run predicts the real call. (Its
    // new bytes end the trust, so a person trusts the config again.)
    hook(
        &ws,
        "hooks/approve",
        "echo no dry runs either >&2\nexit 1\n",
    );
    ws.trust();
    let run = ws.run(&["edit", "a.txt", "--old", "one", "--new", "ONE", "--dry-run"]);
    assert_eq!(
        assert_denied(&run, "authorize", "a.txt")["reason"],
        "no dry runs either"
    );
}

#[test]
fn the_hook_runs_in_the_root_with_a_clean_environment() {
    let ws = TestWorkspace::new();
    let pwd = capture(&ws, "pwd");
    let env = capture(&ws, "env");
    hook(
        &ws,
        "hooks/approve",
        &format!(
            "cat > /dev/null\npwd > '{}'\nenv > '{}'\nexit 0\n",
            pwd.display(),
            env.display()
        ),
    );
    config(&ws, &json!({"authorize": ["./hooks/approve"]}));
    ws.trust();
    let run = ws.run_with_env(
        &[
            ("SECRET_TOKEN", "x"),
            ("PATH", "/usr/bin:/bin"),
            ("LANG", "C.UTF-8"),
            ("HOME", "/nonexistent-home"),
        ],
        &["write", "b.txt", "--content", "x"],
    );
    run.ok();

    let root = fs::canonicalize(ws.root()).unwrap();
    let cwd = fs::read_to_string(&pwd).unwrap();
    assert_eq!(PathBuf::from(cwd.trim_end()), root);

    let env = fs::read_to_string(&env).unwrap();
    let vars: Vec<(&str, &str)> = env
        .lines()
        .filter_map(|line| line.split_once('='))
        .collect();
    let get = |name: &str| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
    let stitch_root = get("STITCH_ROOT").expect("STITCH_ROOT is set");
    assert_eq!(fs::canonicalize(stitch_root).unwrap(), root);
    assert_eq!(get("PATH"), Some("/usr/bin:/bin"), "{env}");
    assert_eq!(get("LANG"), Some("C.UTF-8"), "{env}");
    assert_eq!(get("SECRET_TOKEN"), None, "{env}");
    assert_eq!(get("HOME"), None, "{env}");
    // Nothing else but what the shell sets for itself.
    for (name, _) in &vars {
        assert!(
            matches!(
                *name,
                "PATH" | "LANG" | "STITCH_ROOT" | "PWD" | "OLDPWD" | "SHLVL" | "_"
            ),
            "unexpected {name} in the hook's environment:\n{env}"
        );
    }
}
