//! Trust pins what it runs (§7): when the workspace config's `authorize` program lies
//! inside the workspace, its bytes are part of what a person trusted, so any change to it
//! — rewritten by a tool between two calls, or by a `git pull` — ends the trust, and the
//! next mutation is refused as untrusted instead of running the new program. `config
//! trust` and `config check` show the program and its digest.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use serde_json::{json, Value};

use crate::support::{run_with_terminal, sha256sum, Run, TestWorkspace};

use super::{config, hook};

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

/// The body of an approver that leaves `marker` outside the root each time it runs, and
/// approves.
fn body(marker: &std::path::Path) -> String {
    format!("cat > /dev/null\ntouch '{}'\nexit 0\n", marker.display())
}

/// That approver's whole script, as [`hook`] writes it.
fn approver(marker: &std::path::Path) -> String {
    format!("#!/bin/sh\n{}", body(marker))
}

/// A trusted workspace whose config runs `./hooks/approve`, which leaves `ran` outside
/// the root; and the marker a rewritten approver would leave (`evil`).
fn trusted(ws: &TestWorkspace) -> (PathBuf, PathBuf) {
    let (ran, evil) = (ws.outside().join("ran"), ws.outside().join("evil"));
    hook(ws, "hooks/approve", &body(&ran));
    config(ws, &json!({"authorize": ["./hooks/approve"]}));
    ws.file("a.txt", "one\n");
    ws.trust();
    ws.run(&["edit", "a.txt", "--old", "one", "--new", "two"])
        .ok();
    assert!(ran.exists(), "the trusted approver did not run");
    fs::remove_file(&ran).unwrap();
    (ran, evil)
}

/// Asserts the next mutation is refused as untrusted and runs neither approver.
#[track_caller]
fn assert_trust_ended(ws: &TestWorkspace, ran: &std::path::Path, evil: &std::path::Path) {
    let run = ws.run(&["edit", "a.txt", "--old", "two", "--new", "three"]);
    run.assert_envelope(&untrusted());
    assert_eq!(run.status, 1);
    assert!(
        !evil.exists(),
        "the rewritten approver ran under the old trust"
    );
    assert!(!ran.exists());
    assert_eq!(ws.read_string("a.txt"), "two\n");
    let check = ws.run(&["config", "check"]);
    assert_eq!(check.ok()["trust"], "untrusted", "{}", check.stdout);
}

#[test]
fn an_approver_rewritten_by_a_tool_ends_the_trust() {
    let ws = TestWorkspace::new();
    let (ran, evil) = trusted(&ws);
    // The write is itself a change: the approver trusted so far approves it.
    let rewrite = ws.run(&[
        "write",
        "hooks/approve",
        "--content",
        &approver(&evil),
        "--overwrite",
    ]);
    assert_eq!(rewrite.ok()["applied"], true, "{}", rewrite.stdout);
    assert!(ran.exists());
    fs::remove_file(&ran).unwrap();
    assert_trust_ended(&ws, &ran, &evil);
    // A person who reviews the new approver may trust it again.
    ws.trust();
    ws.run(&["edit", "a.txt", "--old", "two", "--new", "three"])
        .ok();
    assert!(evil.exists());
}

#[test]
fn a_pull_that_changes_the_approver_ends_the_trust() {
    let ws = TestWorkspace::new();
    let (ran, evil) = trusted(&ws);
    // What a `git pull` does to a tracked file: new bytes, the same mode.
    fs::write(ws.path("hooks/approve"), approver(&evil)).unwrap();
    assert_trust_ended(&ws, &ran, &evil);
}

#[test]
fn an_approver_that_appears_ends_the_trust() {
    let ws = TestWorkspace::new();
    let evil = ws.outside().join("evil");
    config(&ws, &json!({"authorize": ["./hooks/approve"]}));
    ws.file("a.txt", "two\n");
    ws.trust();
    // Trusted while the approver is missing, every change is refused by the hook...
    let run = ws.run(&["edit", "a.txt", "--old", "two", "--new", "three"]);
    assert_eq!(run.refused("DENIED")["rule"], "authorize", "{}", run.stdout);
    // ...until one appears: then the trust ends before it runs.
    hook(&ws, "hooks/approve", &body(&evil));
    assert_trust_ended(&ws, &ws.outside().join("ran"), &evil);
}

#[test]
fn an_approver_found_on_path_inside_the_workspace_is_pinned() {
    let ws = TestWorkspace::new();
    let (ran, evil) = (ws.outside().join("ran"), ws.outside().join("evil"));
    hook(&ws, "bin/approve", &body(&ran));
    config(&ws, &json!({"authorize": ["approve"]}));
    ws.file("a.txt", "two\n");
    // `bin` on PATH is a directory of the workspace, where the hook runs.
    let path = [("PATH", "bin:/usr/bin:/bin")];
    let mut cmd = ws.std_cmd();
    cmd.envs(path).args(["config", "trust"]);
    let output = run_with_terminal(cmd, b"y\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let pinned = format!(
        "Its authorize program `bin/approve` lies inside the workspace (sha256 {}): trusting \
         pins its bytes too, so any change to it ends the trust.",
        sha256sum(approver(&ran).as_bytes())
    );
    assert!(stderr.contains(&pinned), "{stderr}");
    ws.run_with_env(&path, &["edit", "a.txt", "--old", "two", "--new", "three"])
        .ok();
    assert!(ran.exists());
    fs::remove_file(&ran).unwrap();
    fs::write(ws.path("bin/approve"), approver(&evil)).unwrap();
    let run = ws.run_with_env(&path, &["edit", "a.txt", "--old", "three", "--new", "four"]);
    run.assert_envelope(&untrusted());
    assert!(!evil.exists() && !ran.exists());
}

#[test]
fn config_trust_and_check_show_the_pinned_approver() {
    let ws = TestWorkspace::new();
    let ran = ws.outside().join("ran");
    hook(&ws, "hooks/approve", &body(&ran));
    config(&ws, &json!({"authorize": ["./hooks/approve", "--quiet"]}));
    let digest = sha256sum(approver(&ran).as_bytes());
    let mut cmd = ws.std_cmd();
    cmd.args(["config", "trust"]);
    let output = run_with_terminal(cmd, b"n\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "Its authorize program `hooks/approve` lies inside the workspace (sha256 {digest})"
        )),
        "{stderr}"
    );
    let check = ws.run(&["config", "check"]);
    assert_eq!(
        check.ok()["authorizeProgram"],
        json!({"path": "hooks/approve", "sha256": digest}),
        "{}",
        check.stdout
    );
}

#[test]
fn an_approver_that_leads_out_of_the_workspace_cannot_be_trusted() {
    let ws = TestWorkspace::new();
    let outside = ws.outside().join("approve");
    fs::write(&outside, "#!/bin/sh\nexit 0\n").unwrap();
    fs::set_permissions(&outside, fs::Permissions::from_mode(0o755)).unwrap();
    ws.symlink(&outside, "hooks/approve");
    config(&ws, &json!({"authorize": ["./hooks/approve"]}));
    ws.file("a.txt", "one\n");
    let mut cmd = ws.std_cmd();
    cmd.args(["config", "trust"]);
    let output = run_with_terminal(cmd, b"y\n");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "stitch config trust: the authorize program `hooks/approve` leads outside the \
         workspace through a symbolic link, so its bytes cannot be pinned; name a program \
         inside the workspace, or one outside it by its own path.\n"
    );
    let run = Run::from_output(
        ws.cmd()
            .args(["edit", "a.txt", "--old", "one", "--new", "two"])
            .output()
            .unwrap(),
    );
    run.assert_envelope(&untrusted());
    let check = ws.run(&["config", "check"]);
    assert_eq!(
        check.ok()["authorizeProgram"],
        json!({"path": "hooks/approve", "reason": "leads outside the workspace through a symbolic link"}),
        "{}",
        check.stdout
    );
}
