//! For people and scripts: the default format follows stdout (text at a terminal, JSON
//! in a pipe), usage errors in text are a human message on stderr only, and search takes
//! ripgrep's -l, -c and -q.

use serde_json::json;

use crate::support::{run_on_one_terminal, run_on_terminal, TestWorkspace};

fn workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\nbeta\nalpha again\n")
        .file("b.txt", "alpha\n")
        .file("c.txt", "gamma\n");
    ws
}

/// Runs with stdin empty and stdout a pipe: status, stdout, stderr.
fn piped(ws: &TestWorkspace, args: &[&str]) -> (i32, String, String) {
    let output = ws.cmd().args(args).write_stdin("").output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn at_a_terminal_the_default_is_text_and_in_a_pipe_json() {
    let ws = workspace();
    let mut cmd = ws.std_cmd();
    cmd.args(["read", "b.txt"]);
    let (status, shown, stderr) = run_on_terminal(cmd);
    assert_eq!(
        (status, shown.as_str(), stderr.as_str()),
        (Some(0), "alpha\n", "")
    );
    // STITCH_FORMAT=json pins the envelope even at a terminal.
    let mut cmd = ws.std_cmd();
    cmd.env("STITCH_FORMAT", "json").args(["read", "b.txt"]);
    let (_, shown, _) = run_on_terminal(cmd);
    assert!(
        shown.starts_with(r#"{"ok":true,"data":{"path":"b.txt","#),
        "{shown}"
    );
    // In a pipe (an agent's bash tool), the envelope.
    let (status, stdout, _) = piped(&ws, &["read", "b.txt"]);
    assert_eq!(status, 0);
    assert!(stdout.starts_with(r#"{"ok":true,"#), "{stdout}");
}

#[test]
fn search_takes_files_with_matches_count_and_quiet() {
    let ws = workspace();
    let text = |args: &[&str]| piped(&ws, args);
    assert_eq!(
        text(&["search", "alpha", "-l"]),
        (0, "a.txt\nb.txt\n".into(), String::new())
    );
    assert_eq!(
        text(&["search", "alpha", "--files-with-matches", "--null"]),
        (0, "a.txt\0b.txt\0".into(), String::new())
    );
    assert_eq!(
        text(&["search", "alpha", "-c"]),
        (0, "a.txt:2\nb.txt:1\n".into(), String::new())
    );
    assert_eq!(
        text(&["search", "alpha", "-q"]),
        (0, String::new(), String::new())
    );
    assert_eq!(
        text(&["search", "zeta", "-q"]),
        (1, String::new(), String::new())
    );
    assert_eq!(
        text(&["search", "zeta", "-l"]),
        (1, String::new(), String::new())
    );
    // They shape text, so --format json on the same command line contradicts them.
    let (status, stdout, _) = text(&["--format", "json", "search", "alpha", "-c"]);
    assert_eq!(status, 2);
    let envelope: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(envelope["error"], "INVALID_ARGUMENT");
    assert_eq!(envelope["details"]["field"], "summary");
}

#[test]
fn a_usage_error_in_text_is_a_message_on_stderr_only() {
    let ws = workspace();
    let typo = ["edit", "a.txt", "--old", "x", "--new", "y", "--replace-al"];
    let (status, stdout, stderr) = piped(&ws, &[&["--format", "text"][..], &typo].concat());
    assert_eq!(status, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("unexpected argument '--replace-al' found"),
        "{stderr}"
    );
    assert!(
        stderr.contains("a similar argument exists: '--replace-all'"),
        "clap's did-you-mean names the flag: {stderr}"
    );
    // In JSON, the envelope as before.
    let (status, stdout, _) = piped(&ws, &[&["--format", "json"][..], &typo].concat());
    assert_eq!(status, 2);
    let envelope: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(envelope["error"], "INVALID_ARGUMENT");
}

#[test]
fn bare_stitch_in_text_prints_the_short_help_on_stderr() {
    let ws = workspace();
    let (status, stdout, stderr) = piped(&ws, &["--format", "text"]);
    assert_eq!(status, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("Usage: stitch [OPTIONS] <COMMAND>"),
        "{stderr}"
    );
    // At a terminal, the same.
    let cmd = ws.std_cmd();
    let (status, shown, stderr) = run_on_terminal(cmd);
    assert_eq!((status, shown.as_str()), (Some(2), ""));
    assert!(
        stderr.contains("Usage: stitch [OPTIONS] <COMMAND>"),
        "{stderr}"
    );
}

#[test]
fn flags_without_a_required_one_say_stdin_was_not_read() {
    let ws = workspace();
    let run = ws.run_with_stdin(
        &["edit", "a.txt", "--old", "beta"],
        r#"{"path": "a.txt", "oldText": "beta", "newText": "BETA"}"#,
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": "stitch edit needs --new TEXT or --new-from FILE; stdin was not read, because arguments were given as flags: pass --new TEXT or --new-from FILE too, or pass --json to send every argument as JSON on stdin",
            "field": "newText"
        },
        "_hint": "Fix the `--new` argument and call again."
    }));
    assert_eq!(ws.read_string("a.txt"), "alpha\nbeta\nalpha again\n");
}

#[test]
fn colour_at_a_terminal_unless_no_color_or_never_and_never_in_json() {
    let ws = workspace();
    // Each edit's summary line ends with its change's id, taken off here.
    let edit = |extra: &[&str], env: &[(&str, &str)]| {
        ws.file("c.txt", "gamma\n");
        let mut cmd = ws.std_cmd();
        cmd.envs(env.iter().copied())
            .args(extra)
            .args(["edit", "c.txt", "--old", "gamma", "--new", "delta"]);
        let shown = run_on_terminal(cmd).1;
        let id = format!(", change {}\n", ws.newest_change());
        shown.replace(&id, "\n")
    };
    let painted = "\x1b[1m--- a/c.txt\x1b[0m\n\x1b[1m+++ b/c.txt\x1b[0m\n\x1b[36m@@ -1 +1 @@\x1b[0m\n\x1b[31m-gamma\x1b[0m\n\x1b[32m+delta\x1b[0m\nedited c.txt: 1 replacement(s)\n";
    let plain =
        "--- a/c.txt\n+++ b/c.txt\n@@ -1 +1 @@\n-gamma\n+delta\nedited c.txt: 1 replacement(s)\n";
    assert_eq!(edit(&[], &[]), painted);
    assert_eq!(edit(&["--color", "never"], &[]), plain);
    assert_eq!(edit(&[], &[("NO_COLOR", "1")]), plain);
    // At a terminal with JSON asked for, no colour at all.
    let json = edit(&["--format", "json", "--color", "always"], &[]);
    assert!(
        json.starts_with(r#"{"ok":true,"#) && !json.contains('\x1b'),
        "{json}"
    );
    // In a pipe, --color always colours text, as rg does.
    let (status, stdout, _) = piped(
        &ws,
        &["--format", "text", "--color", "always", "search", "gamma"],
    );
    assert_eq!(status, 1, "the edits above left no gamma");
    assert_eq!(stdout, "");
    let (_, stdout, _) = piped(
        &ws,
        &["--format", "text", "--color", "always", "search", "beta"],
    );
    assert_eq!(
        stdout,
        "\x1b[35ma.txt\x1b[0m:\x1b[32m2\x1b[0m:\x1b[1;31mbeta\x1b[0m\n"
    );
}

#[test]
fn read_n_numbers_the_content_and_keeps_the_raw_digest() {
    let ws = workspace();
    let plain = ws.run(&["read", "a.txt", "--offset", "2"]);
    let numbered = ws.run(&["read", "a.txt", "--offset", "2", "-n"]);
    assert_eq!(
        numbered.ok()["content"],
        "     2\tbeta\n     3\talpha again\n"
    );
    assert_eq!(numbered.ok()["sha256"], plain.ok()["sha256"]);
    let by_json = ws.stitch(
        "read",
        &json!({"path": "a.txt", "lineNumbers": true, "limit": 1}),
    );
    assert_eq!(by_json.ok()["content"], "     1\talpha\n");
    let (status, stdout, _) = piped(&ws, &["--format", "text", "read", "b.txt", "-n"]);
    assert_eq!((status, stdout.as_str()), (0, "     1\talpha\n"));
}

#[test]
fn a_write_in_text_shows_its_diff_and_json_never_carries_one() {
    let ws = workspace();
    let (status, stdout, _) = piped(
        &ws,
        &[
            "--format",
            "text",
            "write",
            "c.txt",
            "--content",
            "delta\n",
            "--overwrite",
        ],
    );
    assert_eq!(status, 0);
    assert_eq!(
        stdout,
        format!(
            "--- a/c.txt\n+++ b/c.txt\n@@ -1 +1 @@\n-gamma\n+delta\nreplaced c.txt (6 bytes), change {}\n",
            ws.newest_change()
        )
    );
    let run = ws.run(&["write", "c.txt", "--content", "epsilon\n", "--overwrite"]);
    assert!(run.ok().get("diff").is_none(), "{}", run.stdout);
}

#[test]
fn an_undo_in_text_shows_its_diff_coloured_when_asked() {
    let ws = workspace();
    ws.run(&["edit", "c.txt", "--old", "gamma", "--new", "delta"])
        .ok();
    let (status, stdout, _) = piped(&ws, &["--format", "text", "--color", "always", "undo"]);
    assert_eq!(status, 0);
    assert!(
        stdout.starts_with("\x1b[1m--- a/c.txt\x1b[0m\n\x1b[1m+++ b/c.txt\x1b[0m\n\x1b[36m@@ -1 +1 @@\x1b[0m\n\x1b[31m-delta\x1b[0m\n\x1b[32m+gamma\x1b[0m\nundid change "),
        "{stdout:?}"
    );
    assert_eq!(ws.read_string("c.txt"), "gamma\n");
}

/// At a terminal, a read that stopped short says where to go on after the content, not
/// above it: stdout and stderr share the terminal, so the order is what a person sees.
#[test]
fn a_read_s_footer_comes_after_the_content_at_a_terminal() {
    let ws = workspace();
    ws.file("three.txt", "l1\nl2\nl3\n");
    let mut cmd = ws.std_cmd();
    cmd.args(["read", "three.txt", "--limit", "2"]);
    assert_eq!(
        run_on_one_terminal(cmd),
        (Some(0), "l1\nl2\n(more: --offset 3)\n".to_owned())
    );
    // Read to the end, there is no footer.
    let mut cmd = ws.std_cmd();
    cmd.args(["read", "three.txt", "--offset", "3"]);
    assert_eq!(run_on_one_terminal(cmd), (Some(0), "l3\n".to_owned()));
}

/// apply in text prints each file's diff, then what it did: plain in a pipe, coloured as
/// git colours it at a terminal.
#[test]
fn apply_in_text_prints_its_diff() {
    let ws = workspace();
    ws.file("g.py", "x = 1\n");
    let patch = "*** Begin Patch\n*** Update File: g.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n";
    let diff = "--- a/g.py\n+++ b/g.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n";
    assert_eq!(
        piped(
            &ws,
            &["--format", "text", "apply", "--dry-run", "--patch", patch]
        ),
        (
            0,
            format!("{diff}would apply: 1 file(s) (codex patch)\n"),
            String::new()
        )
    );
    assert_eq!(ws.read_string("g.py"), "x = 1\n");
    let mut cmd = ws.std_cmd();
    cmd.args(["apply", "--patch", patch]);
    let (status, shown, stderr) = run_on_terminal(cmd);
    assert_eq!((status, stderr.as_str()), (Some(0), ""));
    assert_eq!(
        shown,
        format!(
            "\x1b[1m--- a/g.py\x1b[0m\n\x1b[1m+++ b/g.py\x1b[0m\n\x1b[36m@@ -1 +1 @@\x1b[0m\n\
             \x1b[31m-x = 1\x1b[0m\n\x1b[32m+x = 2\x1b[0m\napplied: 1 file(s) (codex patch), change {}\n",
            ws.newest_change()
        )
    );
    assert_eq!(ws.read_string("g.py"), "x = 2\n");
}
