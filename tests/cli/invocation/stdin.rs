//! Stdin is read for JSON arguments only when no tool argument came as a flag, and is
//! never waited on in silence: after 200 ms of silence a notice on stderr says what stitch
//! waits for, and after 2 s in all a silent stdin counts as empty. `--json` and
//! `--from -` wait for their input as long as it takes. Global options are not tool
//! arguments.

use std::time::Duration;

use serde_json::json;

use super::Held;
use crate::support::{Run, TestWorkspace, STRING};

/// The one line stitch prints when stdin stays silent.
const NOTICE: &str = "stitch: no arguments were given, so stitch is waiting for JSON \
     arguments on stdin (taken as none after 2 s of silence); to avoid the wait, pass the \
     arguments as flags, pass --json to wait for stdin on purpose, or redirect </dev/null";

/// Past the 2 s a silent stdin is waited on without `--json`, with room to spare.
const PAST_THE_SILENCE: Duration = Duration::from_millis(2500);

fn workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "x\n").file("src/b.rs", "fn b() {}\n");
    ws
}

/// The envelope of `list` at the root of [`workspace`].
fn root_listing() -> serde_json::Value {
    json!({"ok": true, "data": {"path": ".", "entries": [
        {"path": "a.txt", "kind": "file", "bytes": 2},
        {"path": "src", "kind": "directory"}
    ], "truncated": false, "skipped": 0}})
}

/// The envelope of `list` of `src` in [`workspace`].
fn src_listing() -> serde_json::Value {
    json!({"ok": true, "data": {"path": "src", "entries": [
        {"path": "src/b.rs", "kind": "file", "bytes": 10}
    ], "truncated": false, "skipped": 0}})
}

/// What `glob` finds in `src/` for the JSON `SRC_GLOB`.
fn src_glob() -> serde_json::Value {
    json!({"ok": true, "data": {"matches": ["src/b.rs"], "truncated": false, "scannedFiles": 1, "denied": 0}})
}

/// JSON arguments that `glob` reads from stdin.
const SRC_GLOB: &[u8] = br#"{"pattern": "*.rs", "path": "src"}"#;

/// `glob` with no arguments: the field it needs.
fn glob_needs_a_pattern() -> serde_json::Value {
    json!({
        "ok": false, "error": "INVALID_ARGUMENT",
        "details": {
            "message": "glob needs the field `pattern`",
            "field": "pattern", "allowed": ["pattern", "path", "includeIgnored", "limit"]
        },
        "_hint": "Fix the `pattern` argument and call again."
    })
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

#[test]
fn a_silent_stdin_held_open_is_noticed_then_taken_as_no_arguments() {
    let ws = workspace();
    let mut call = Held::spawn(&ws, &["glob"]);
    assert_eq!(call.stderr_line(), NOTICE);
    // The pipe is still open (nothing written, no end of file): the call ends anyway.
    let output = call.finish();
    assert_eq!(stderr(&output), "", "one notice, nothing else");
    Run::from_output(output).assert_envelope(&glob_needs_a_pattern());
}

#[test]
fn global_options_do_not_stop_the_wait_on_a_silent_stdin() {
    let ws = workspace();
    let mut call = Held::spawn(&ws, &["--pretty", "--format", "json", "glob"]);
    assert_eq!(call.stderr_line(), NOTICE);
    let output = call.finish();
    assert_eq!(output.status.code(), Some(2));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.starts_with("{\n  \"ok\": false,\n"), "{stdout}");
}

/// A command whose arguments are all optional never reads stdin without `--json`: a bare
/// `stitch list` inside a `while read` loop lists the root and leaves the loop's input
/// where it was, without a notice and without a wait.
#[test]
fn a_bare_list_leaves_stdin_alone() {
    use std::io::{Seek, SeekFrom, Write};
    let ws = workspace();
    let mut input = tempfile::tempfile().unwrap();
    input.write_all(b"first line\nsecond line\n").unwrap();
    input.seek(SeekFrom::Start(0)).unwrap();
    let output = ws
        .std_cmd()
        .arg("list")
        .stdin(input.try_clone().unwrap())
        .output()
        .unwrap();
    assert_eq!(stderr(&output), "");
    Run::from_output(output).assert_envelope(&root_listing());
    // The shared offset did not move: the loop reads its next line as if stitch had not run.
    assert_eq!(input.stream_position().unwrap(), 0);
    // A silent pipe held open is not waited on either.
    let call = Held::spawn(&ws, &["list"]);
    let output = call.finish();
    assert_eq!(stderr(&output), "");
    Run::from_output(output).assert_envelope(&root_listing());
}

/// `history` and `undo` take only optional arguments too: bare, each answers without
/// reading stdin, so a `while read` loop that calls them reads every one of its lines.
#[test]
fn bare_history_and_undo_leave_stdin_alone() {
    use std::io::{Seek, SeekFrom, Write};
    let ws = workspace();
    ws.run(&["write", "new.txt", "--content", "n\n"]).ok();
    let mut input = tempfile::tempfile().unwrap();
    input.write_all(b"first line\nsecond line\n").unwrap();
    for command in ["history", "undo"] {
        input.seek(SeekFrom::Start(0)).unwrap();
        let output = ws
            .std_cmd()
            .arg(command)
            .stdin(input.try_clone().unwrap())
            .output()
            .unwrap();
        assert_eq!(stderr(&output), "", "{command}");
        let run = Run::from_output(output);
        assert_eq!(run.envelope["ok"], true, "{command}: {}", run.stdout);
        assert_eq!(input.stream_position().unwrap(), 0, "{command} read stdin");
    }
    // The bare undo took the write back.
    assert!(!ws.exists("new.txt"));
    // In a shell's `while read` loop, every line reaches the loop.
    let mut loop_cmd = std::process::Command::new("sh");
    let stitch = ws.std_cmd();
    loop_cmd
        .env_clear()
        .envs(
            stitch
                .get_envs()
                .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v.to_owned()))),
        )
        .current_dir(ws.root())
        .arg("-c")
        .arg(
            r#"while read line; do "$0" history >/dev/null; "$0" undo >/dev/null; echo "got $line"; done"#,
        )
        .arg(stitch.get_program())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped());
    let mut child = loop_cmd.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"one\ntwo\nthree\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "got one\ngot two\ngot three\n"
    );
}

#[test]
fn a_silent_stdin_leaves_a_required_field_missing() {
    let ws = workspace();
    let mut call = Held::spawn(&ws, &["read"]);
    assert_eq!(call.stderr_line(), NOTICE);
    Run::from_output(call.finish()).assert_envelope(&json!({
        "ok": false, "error": "INVALID_ARGUMENT",
        "details": {
            "message": "read_file needs the field `path`",
            "field": "path", "allowed": ["path", "offset", "limit", "maxBytes", "lineNumbers"]
        },
        "_hint": "Fix the `path` argument and call again."
    }));
}

#[test]
fn json_that_arrives_after_100_ms_is_read() {
    let ws = workspace();
    let mut call = Held::spawn(&ws, &["glob"]);
    std::thread::sleep(Duration::from_millis(100));
    call.send_and_close(SRC_GLOB);
    let output = call.finish();
    // 100 ms is inside the 200 ms before the notice, but a loaded machine may start
    // stitch late or slowly: either way the arguments are read, with at most the notice.
    let err = stderr(&output);
    assert!(err.is_empty() || err == format!("{NOTICE}\n"), "{err}");
    Run::from_output(output).assert_envelope(&src_glob());
}

#[test]
fn json_that_arrives_after_the_notice_is_read() {
    let ws = workspace();
    let mut call = Held::spawn(&ws, &["glob"]);
    assert_eq!(call.stderr_line(), NOTICE);
    call.send_and_close(SRC_GLOB);
    let output = call.finish();
    assert_eq!(stderr(&output), "");
    Run::from_output(output).assert_envelope(&src_glob());
}

#[test]
fn json_flag_waits_for_its_json_past_two_seconds_without_a_notice() {
    let ws = workspace();
    let mut call = Held::spawn(&ws, &["list", "--json"]);
    std::thread::sleep(PAST_THE_SILENCE);
    call.send_and_close(br#"{"path": "src"}"#);
    let output = call.finish();
    assert_eq!(stderr(&output), "");
    Run::from_output(output).assert_envelope(&src_listing());
}

#[test]
fn from_stdin_waits_for_its_content_past_two_seconds_without_a_notice() {
    let ws = workspace();
    let mut call = Held::spawn(&ws, &["write", "late.md", "--from", "-"]);
    std::thread::sleep(PAST_THE_SILENCE);
    call.send_and_close(b"late\n");
    let output = call.finish();
    assert_eq!(stderr(&output), "");
    Run::from_output(output).assert_envelope(&json!({"ok": true, "data": {
        "path": "late.md", "sha256": "<sha256>", "bytes": 5, "created": true,
        "createdDirectories": [], "applied": true, "id": STRING
    }}));
    assert_eq!(ws.read_string("late.md"), "late\n");
}

#[test]
fn an_empty_or_null_stdin_is_no_arguments_at_once_without_a_notice() {
    let ws = workspace();
    let run = ws.run(&["list"]);
    assert_eq!(run.stderr, "");
    run.assert_envelope(&root_listing());
    let output = ws
        .std_cmd()
        .arg("list")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(stderr(&output), "");
    Run::from_output(output).assert_envelope(&root_listing());
}

/// `--root`, `--session`, `--lock-timeout`, `--pretty`, `--format` (and `--null`)
/// shape the call, not the tool's arguments: with only those, the arguments still come
/// from stdin.
#[test]
fn global_and_display_options_are_not_tool_arguments() {
    let ws = workspace();
    let args = SRC_GLOB;
    let output = ws
        .cmd()
        .args([
            "--session",
            "s1",
            "--lock-timeout",
            "5",
            "--format",
            "json",
            "--pretty",
            "glob",
        ])
        .write_stdin(args.to_vec())
        .output()
        .unwrap();
    assert_eq!(stderr(&output), "");
    assert_eq!(output.status.code(), Some(0));
    // Indented: one object over several lines.
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.starts_with("{\n  \"ok\": true,\n"), "{stdout}");
    crate::support::assert_json(&src_glob(), &serde_json::from_str(&stdout).unwrap());

    let text = |extra: &[&str], stdin: &[u8]| {
        let output = ws
            .cmd()
            .env("STITCH_FORMAT", "text")
            .args(extra)
            .write_stdin(stdin.to_vec())
            .output()
            .unwrap();
        assert_eq!(stderr(&output), "");
        assert_eq!(output.status.code(), Some(0));
        output.stdout
    };
    assert_eq!(text(&["glob"], args), b"src/b.rs\n");
    assert_eq!(text(&["glob", "--null"], args), b"src/b.rs\0");
    assert_eq!(
        text(&["read"], br#"{"path": "src/b.rs", "lineNumbers": true}"#),
        b"     1\tfn b() {}\n"
    );
}

/// `stitch --help`, every tool's `--help` and their man pages state the rule.
#[test]
fn every_tool_help_states_the_stdin_rule() {
    let ws = TestWorkspace::new();
    for tool in ["", "read", "write", "edit", "list", "glob", "search"] {
        let args: &[&str] = if tool.is_empty() {
            &["--help"]
        } else {
            &[tool, "--help"]
        };
        let output = ws.cmd().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{tool}");
        // clap wraps the text to the terminal: compare it with its lines joined.
        let help = String::from_utf8(output.stdout)
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        for words in [
            "With no tool arguments and stdin not a terminal, stdin is read for JSON: if \
             nothing arrives within 200 ms stitch says so on stderr, and after 2 s of silence \
             it takes stdin as empty (no arguments).",
            "To avoid the wait, pass the arguments as flags, pass --json (which waits for its \
             JSON), or redirect </dev/null.",
            "A value that begins with '-' is a value",
        ] {
            assert!(
                help.contains(words),
                "{tool} --help lacks {words:?}:\n{help}"
            );
        }
        let page = if tool.is_empty() {
            "man/stitch.1".to_owned()
        } else {
            format!("man/stitch-{tool}.1")
        };
        let page =
            std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&page))
                .unwrap();
        assert!(
            page.contains("if nothing arrives within 200 ms stitch says so on stderr"),
            "the man page of `{tool}` lacks the stdin rule"
        );
    }
}
