//! What people try first, as new users do: another tool's word for a command (`rm`,
//! `mv`, `cat`), `--json` typed at a terminal, `config check` in text, colours at a
//! terminal, and a snippet so short it matches everywhere.

use serde_json::json;

use crate::support::{run_on_terminal, run_with_terminal, TestWorkspace};

/// The words of the shell and of other tools lead to stitch's command by meaning, in the
/// envelope and in clap's message on stderr, not to clap's guess by spelling (`read` for
/// `rename`).
#[test]
fn another_tools_word_for_a_command_names_stitchs_command() {
    let ws = TestWorkspace::new();
    for (word, command, usage) in [
        ("rename", "move", "stitch move FROM TO"),
        ("mv", "move", "stitch move FROM TO"),
        ("rm", "delete", "stitch delete PATH"),
        ("cat", "read", "stitch read PATH"),
        ("ls", "list", "stitch list [PATH]"),
        ("grep", "search", "stitch search QUERY"),
        ("find", "glob", "stitch glob PATTERN"),
    ] {
        let run = ws.run(&[word, "a.txt"]);
        assert_eq!(run.status, 2, "{word}");
        assert_eq!(
            run.envelope,
            json!({
                "ok": false,
                "error": "INVALID_ARGUMENT",
                "details": {
                    "message": format!("Invalid invocation: unrecognized subcommand '{word}'"),
                    "didYouMean": command,
                    "usage": usage,
                },
                "_hint": format!("stitch's command for that is `{command}`: call `{usage}` (`stitch --help` lists every command)."),
            }),
            "{word}"
        );
        assert!(
            run.stderr.contains(&format!(
                "tip: stitch's command for that is '{command}': {usage}"
            )),
            "{word}: {}",
            run.stderr
        );
        assert!(
            !run.stderr.contains("a similar subcommand"),
            "{}",
            run.stderr
        );
    }
    // A misspelling keeps clap's guess by spelling.
    let run = ws.run(&["raed", "a.txt"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("'read'"), "{}", run.stderr);
    assert!(run.envelope["details"].get("didYouMean").is_none());
}

/// In text, the refusal is clap's message alone on stderr, with the command it means.
#[test]
fn another_tools_word_in_text_is_told_on_stderr() {
    let ws = TestWorkspace::new();
    let output = ws
        .cmd()
        .args(["--format", "text", "rm", "a.txt"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "error: unrecognized subcommand 'rm'\n\n  tip: stitch's command for that is 'delete': \
         stitch delete PATH\n\nUsage: stitch [OPTIONS] <COMMAND>\n\nFor more information, \
         try '--help'.\n"
    );
}

/// `--json` at a terminal says at once what it waits for; piped, it reads in silence as
/// ever.
#[test]
fn json_at_a_terminal_says_it_is_reading_json() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let mut cmd = ws.std_cmd();
    cmd.args(["edit", "--json"]);
    // A line typed, then Ctrl-D at the start of the next: the terminal's end of file.
    let output = run_with_terminal(
        cmd,
        b"{\"path\":\"a.txt\",\"oldText\":\"one\",\"newText\":\"two\"}\n\x04",
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "stitch: --json reads the arguments as one JSON object from stdin, which is this \
         terminal: type or paste it, then press Ctrl-D (or pass the arguments as flags)\n"
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(ws.read_string("a.txt"), "two\n");

    let piped = ws.stitch(
        "edit",
        &json!({"path": "a.txt", "oldText": "two", "newText": "three"}),
    );
    assert_eq!(piped.ok()["replacements"], 1);
    assert_eq!(piped.stderr, "");
}

/// `--format text config check` prints text lines, one a setting, not pretty JSON.
#[test]
fn config_check_in_text_is_text() {
    let ws = TestWorkspace::new();
    ws.file(
        ".stitch/config.json",
        r#"{"deny": ["**/.env"], "limits": {"listLimit": 10}, "journal": false}"#,
    );
    let output = ws
        .cmd()
        .args(["--format", "text", "config", "check"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "workspace config: .stitch/config.json\n\
         trust: not-needed\n\
         user config: $XDG_CONFIG_HOME/stitch/config.json (absent)\n\
         deny:\n  **/.env  (workspace)\n\
         readOnly: (none)\n\
         limits:\n\
         \x20 maxReadBytes    262144  (default)\n\
         \x20 maxFileBytes    268435456  (default)\n\
         \x20 listLimit       10  (workspace)\n\
         \x20 globLimit       1000  (default)\n\
         \x20 searchLimit     100  (default)\n\
         \x20 journalEntries  1000  (default)\n\
         \x20 journalBytes    1073741824  (default)\n\
         \x20 maxGateBytes    4194304  (default)\n\
         authorize: (none)\n\
         journal: off  (workspace)\n\
         syntax:\n  **  refuse  (default)\n"
    );
    // The JSON form is unchanged.
    let run = ws.run(&["config", "check"]);
    assert_eq!(
        run.ok()["limits"]["listLimit"],
        json!({"value": 10, "from": "workspace"})
    );
}

/// `list` colours directories and links as ls and fd do, and `search` highlights each
/// match as rg does: with `--color always`, and at a terminal unless NO_COLOR is set.
#[test]
fn list_and_search_colour_as_ls_and_rg_do() {
    let ws = TestWorkspace::new();
    ws.file("src/a.rs", "fn main() { main() }\n")
        .file("notes.txt", "no match\n")
        .symlink("src", "link");
    let text = |args: &[&str], env: &[(&str, &str)]| {
        let output = ws
            .cmd()
            .envs(env.iter().copied())
            .args(args)
            .write_stdin("")
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    assert_eq!(
        text(&["--format", "text", "--color", "always", "list"], &[]),
        "\x1b[1;36mlink\x1b[0m@\nnotes.txt\n\x1b[1;34msrc\x1b[0m/\n"
    );
    assert_eq!(
        text(
            &["--format", "text", "--color", "always", "search", "main"],
            &[]
        ),
        "\x1b[35msrc/a.rs\x1b[0m:\x1b[32m1\x1b[0m:fn \x1b[1;31mmain\x1b[0m() { \
         \x1b[1;31mmain\x1b[0m() }\n"
    );
    assert_eq!(
        text(&["--format", "text", "list"], &[]),
        "link@\nnotes.txt\nsrc/\n",
        "no colour off a terminal"
    );
    // At a terminal: colour by default, none with NO_COLOR.
    let mut cmd = ws.std_cmd();
    cmd.arg("list");
    let (status, shown, _) = run_on_terminal(cmd);
    assert_eq!(status, Some(0));
    assert_eq!(
        shown,
        "\x1b[1;36mlink\x1b[0m@\nnotes.txt\n\x1b[1;34msrc\x1b[0m/\n"
    );
    let mut cmd = ws.std_cmd();
    cmd.env("NO_COLOR", "1").args(["search", "main"]);
    let (status, shown, _) = run_on_terminal(cmd);
    assert_eq!(status, Some(0));
    assert_eq!(shown, "src/a.rs:1:fn main() { main() }\n");
}

/// A one-character `oldText` lists each line once, at most ten, counts the rest, and the
/// hint leads with lengthening it (SPEC §4).
#[test]
fn a_one_character_snippet_lists_each_line_once_and_asks_for_more() {
    let ws = TestWorkspace::new();
    let text: String = (1..=30)
        .map(|i| ["a", &i.to_string(), " = a\n"].concat())
        .collect();
    ws.file("many.txt", &text);
    let run = ws.run(&["edit", "many.txt", "--old", "a", "--new", "b"]);
    assert_eq!(run.status, 1);
    assert_eq!(
        run.envelope,
        json!({
            "ok": false,
            "error": "AMBIGUOUS_MATCH",
            "details": {
                "message": "--old appears 60 times in `many.txt`, so the edit is ambiguous",
                "path": "many.txt",
                "occurrences": 60,
                "lines": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
                "moreLines": 20,
            },
            "_hint": "--old matches 60 times, so it is too short to place: add surrounding lines to it until it matches once (--replace-all would change all 60).",
        })
    );
    // A few matches: each line once, and both ways out offered alike.
    ws.file("two.txt", "x = x\ny\nx\n");
    let run = ws.stitch(
        "edit",
        &json!({"path": "two.txt", "oldText": "x", "newText": "z"}),
    );
    assert_eq!(
        run.envelope,
        json!({
            "ok": false,
            "error": "AMBIGUOUS_MATCH",
            "details": {
                "message": "oldText appears 3 times in `two.txt`, so the edit is ambiguous",
                "path": "two.txt",
                "occurrences": 3,
                "lines": [1, 3],
            },
            "_hint": "Add surrounding lines to oldText until it matches once, or pass replaceAll: true.",
        })
    );
    assert_eq!(ws.read_string("two.txt"), "x = x\ny\nx\n");
}

/// A program that calls `stitch` with no command gets the refusal with every command
/// `--help` lists, in its order (`show` and `text-editor` included), from clap's own tree.
#[test]
fn no_command_lists_every_command() {
    let ws = TestWorkspace::new();
    let run = ws.run(&[]);
    assert_eq!(run.status, 2);
    assert_eq!(
        run.envelope,
        json!({
            "ok": false,
            "error": "INVALID_ARGUMENT",
            "details": {
                "message": "Invalid invocation: a command is required",
                "commands": ["read", "write", "edit", "list", "glob", "search", "apply",
                    "delete", "move", "history", "show", "undo", "redo", "text-editor",
                    "schema", "config", "mcp"],
            },
            "_hint": "Fix the arguments and call again.",
        })
    );
}

/// Every option that shapes text output makes a usage error text, wherever it stands, as
/// clap itself reads the command line (`--no-diff`, `history --stat`, `--null`, `-0`).
#[test]
fn a_usage_error_beside_a_text_shaping_option_is_text() {
    let ws = TestWorkspace::new();
    for args in [
        &["edit", "a.txt", "--no-diff", "--bogus"][..],
        &["history", "--stat", "--bogus"],
        &["list", "--null", "--bogus"],
        &["glob", "*", "-0", "--bogus"],
        &["--format=text", "read", "a.txt", "--bogus"],
    ] {
        let output = ws.cmd().args(args).write_stdin("").output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            (output.status.code(), output.stdout.as_slice()),
            (Some(2), &b""[..]),
            "{args:?}"
        );
        assert!(
            stderr.contains("unexpected argument '--bogus' found"),
            "{args:?}: {stderr}"
        );
    }
}
