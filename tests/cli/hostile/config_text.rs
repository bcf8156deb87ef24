//! A planted config whose every field holds terminal escape sequences (set the window
//! title, clear the screen, a mark that reverses text), beside files named with them,
//! reaches a person's terminal quoted on every text path that prints it: `config trust`
//! (a valid config and a malformed one), `config check` in text and JSON, the refusals
//! of the tools, and `stitch mcp`'s start-up line.

use std::fs;
use std::os::unix::fs::PermissionsExt;

use serde_json::json;

use crate::support::{run_on_terminals, run_with_terminal, TestWorkspace};

const TITLE: &str = "\u{1b}]0;pwned\u{7}";
const CLEAR: &str = "\u{1b}[2J";
const REVERSE: &str = "\u{202e}";

/// The config with an escape in every field a text path may print.
fn planted_config() -> String {
    json!({
        "deny": [format!("deny{TITLE}/**")],
        "readOnly": [format!("ro{TITLE}{REVERSE}/**")],
        "limits": {"maxReadBytes": 999_999},
        "authorize": [format!("./hooks/approve{CLEAR}"), format!("--title={TITLE}")],
        "authorizeTimeoutSecs": 5,
        "journal": true
    })
    .to_string()
}

fn planted() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n")
        .file(&format!("name{TITLE}.txt"), "needle\n")
        .file(&format!("ro{TITLE}{REVERSE}/b.txt"), "b\n")
        .file(&format!("hooks/approve{CLEAR}"), "#!/bin/sh\nexit 0\n");
    let hook = ws.path(&format!("hooks/approve{CLEAR}"));
    fs::set_permissions(hook, fs::Permissions::from_mode(0o755)).unwrap();
    set_config(&ws, &planted_config());
    ws
}

fn set_config(ws: &TestWorkspace, text: &str) {
    fs::create_dir_all(ws.path(".stitch")).unwrap();
    fs::write(ws.path(".stitch/config.json"), text).unwrap();
}

/// Asserts that what a terminal was sent holds no control character but newline and tab,
/// and no mark that reorders or hides text.
#[track_caller]
fn nothing_raw(what: &str, shown: &[u8]) {
    let text = String::from_utf8_lossy(shown);
    let raw = text.chars().find(|&c| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}')
    });
    assert!(
        raw.is_none(),
        "{what} sent {raw:?} raw to a terminal: {text:?}"
    );
}

/// `stitch config trust` at a terminal, answered `n`: its exit status and what it said.
fn trust_at_terminal(ws: &TestWorkspace) -> (Option<i32>, Vec<u8>) {
    let mut cmd = ws.std_cmd();
    cmd.args(["config", "trust"]);
    let output = run_with_terminal(cmd, b"n\n");
    (output.status.code(), output.stderr)
}

/// `stitch args` with stdout and stderr on terminals: both, checked for raw escapes.
#[track_caller]
fn checked_at_terminals(ws: &TestWorkspace, args: &[&str]) -> (String, String) {
    let mut cmd = ws.std_cmd();
    // Colour is stitch's own escapes; the planted ones are what must not pass.
    cmd.args(["--color", "never"]).args(args);
    let run = run_on_terminals(cmd);
    let what = format!("`stitch {}`", args.join(" "));
    nothing_raw(&what, &run.stdout);
    nothing_raw(&what, &run.stderr);
    (
        String::from_utf8_lossy(&run.stdout).into_owned(),
        String::from_utf8_lossy(&run.stderr).into_owned(),
    )
}

#[test]
fn a_valid_configs_escapes_reach_a_terminal_quoted() {
    let ws = planted();
    let (status, stderr) = trust_at_terminal(&ws);
    assert_eq!(status, Some(1));
    nothing_raw("config trust", &stderr);
    let stderr = String::from_utf8_lossy(&stderr);
    assert!(
        stderr.contains(r#"authorize: runs ["./hooks/approve\u{1b}[2J", "--title=\u{1b}]0;pwned\u{7}"] before every change"#),
        "{stderr}"
    );
    assert!(
        stderr.contains(r#""deny":["deny\u001b]0;pwned\u0007/**"]"#),
        "{stderr}"
    );
    // The program trust pins, named by its planted file name.
    assert!(
        stderr.contains(r"Its authorize program `hooks/approve\x1b[2J` lies inside the workspace"),
        "{stderr}"
    );
    // In text as echoed text is quoted; in JSON as JSON escapes it.
    for (format, quoted) in [
        ("text", r"ro\x1b]0;pwned\x07\u{202e}/**"),
        ("json", r"ro\u001b]0;pwned\u0007\u202e/**"),
    ] {
        let (stdout, _) = checked_at_terminals(&ws, &["--format", format, "config", "check"]);
        assert!(stdout.contains(quoted), "{stdout}");
    }
    // The tools' refusals and results, in text and in JSON.
    for format in ["text", "json"] {
        for args in [
            &["write", "new.txt", "--content", "x"][..],
            &["read", &format!("deny{TITLE}/x")],
            &["list", "--all"],
            &["search", "needle"],
        ] {
            let args: Vec<&str> = ["--format", format].iter().chain(args).copied().collect();
            checked_at_terminals(&ws, &args);
        }
    }
    let (_, stderr) = checked_at_terminals(&ws, &["mcp"]);
    assert_eq!(stderr, "");
}

/// Malformed configs whose text the refusal quotes: an unknown key, a glob that does not
/// compile, an unknown limit.
#[test]
fn a_malformed_configs_escapes_reach_a_terminal_quoted() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    let allowed = "deny, readOnly, limits, authorize, authorizeTimeoutSecs, journal, syntax";
    let cases = [
        (
            json!({TITLE: 1}).to_string(),
            format!(r"\x1b]0;pwned\x07: unknown field; allowed: {allowed}"),
            format!(
                r".stitch/config.json is malformed: unknown field; allowed: {allowed} (field `\x1b]0;pwned\x07`)"
            ),
        ),
        (
            json!({"deny": [format!("[{CLEAR}")]}).to_string(),
            r"deny[0]: the glob `[\x1b[2J` does not compile: unclosed character class; missing ']'".to_owned(),
            r".stitch/config.json is malformed: the glob `[\x1b[2J` does not compile: unclosed character class; missing ']' (field `deny[0]`)".to_owned(),
        ),
        (
            json!({"limits": {CLEAR: 1}}).to_string(),
            r"limits.\x1b[2J: unknown limit; allowed: maxReadBytes, maxFileBytes, listLimit, globLimit, searchLimit, journalEntries, journalBytes, maxGateBytes, maxGateMillis".to_owned(),
            r".stitch/config.json is malformed: unknown limit; allowed: maxReadBytes, maxFileBytes, listLimit, globLimit, searchLimit, journalEntries, journalBytes, maxGateBytes, maxGateMillis (field `limits.\x1b[2J`)".to_owned(),
        ),
    ];
    for (config, trust_says, mcp_says) in cases {
        set_config(&ws, &config);
        let (status, stderr) = trust_at_terminal(&ws);
        assert_eq!(status, Some(1));
        nothing_raw("config trust", &stderr);
        assert_eq!(
            String::from_utf8_lossy(&stderr),
            format!("stitch config trust: .stitch/config.json is malformed ({trust_says}); fix it first.\n")
        );
        for format in ["text", "json"] {
            checked_at_terminals(&ws, &["--format", format, "config", "check"]);
            checked_at_terminals(&ws, &["--format", format, "read", "a.txt"]);
        }
        let (stdout, stderr) = checked_at_terminals(&ws, &["mcp"]);
        assert_eq!(stdout, "");
        assert_eq!(
            stderr,
            format!(
                "stitch mcp: {mcp_says}; every call is refused with INVALID_CONFIG until it is \
                 fixed (`stitch config check` shows the problem)\n"
            )
        );
    }
}

/// The user's own config, malformed with an escape in a pattern: `config trust` names it
/// quoted too.
#[test]
fn a_malformed_user_configs_escapes_reach_a_terminal_quoted() {
    let ws = planted();
    let path = ws.user_config_path();
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(
        &path,
        json!({"readOnly": [format!("[{CLEAR}")]}).to_string(),
    )
    .unwrap();
    let (status, stderr) = trust_at_terminal(&ws);
    assert_eq!(status, Some(1));
    nothing_raw("config trust", &stderr);
    assert_eq!(
        String::from_utf8_lossy(&stderr),
        "stitch config trust: $XDG_CONFIG_HOME/stitch/config.json is malformed: the glob \
         `[\\x1b[2J` does not compile: unclosed character class; missing ']'\n"
    );
    let (_, stderr) = checked_at_terminals(&ws, &["mcp"]);
    assert!(
        stderr.starts_with(
            "stitch mcp: $XDG_CONFIG_HOME/stitch/config.json is malformed: the glob `[\\x1b[2J`"
        ),
        "{stderr}"
    );
}
