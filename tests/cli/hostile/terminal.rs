//! Planted names and lines that hold terminal escape sequences (set the window title,
//! clear the screen) reach a person's terminal quoted, as git's `core.quotePath` and
//! `ls` do: names in double quotes with C escapes, echoed text with `\x1b`. Through a
//! pipe, and with `--null`, the bytes are as they are.

use std::process::Stdio;

use crate::support::{run_on_terminals, OnTerminal, TestWorkspace};

const TITLE: &str = "title\u{1b}]0;pwned\u{7}.txt";
const CLEAR: &str = "clear\u{1b}[2J.txt";

fn planted() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("plain.txt", "needle\n")
        .file(TITLE, "needle\n")
        .file(CLEAR, "needle \u{1b}[2J\u{1b}[H here\n");
    ws
}

/// `stitch args` on terminals.
fn at_terminal(ws: &TestWorkspace, args: &[&str]) -> OnTerminal {
    let mut cmd = ws.std_cmd();
    cmd.args(["--format", "text"]).args(args);
    run_on_terminals(cmd)
}

/// `stitch args` with stdout and stderr piped.
fn piped(ws: &TestWorkspace, args: &[&str]) -> (Vec<u8>, Vec<u8>) {
    let output = ws
        .std_cmd()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run stitch");
    (output.stdout, output.stderr)
}

/// Asserts a terminal was sent no control character but newline and tab.
#[track_caller]
fn no_controls(shown: &[u8]) {
    let text = String::from_utf8_lossy(shown);
    assert!(
        !text
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t'),
        "a control character reached the terminal: {text:?}"
    );
}

#[test]
fn names_and_lines_with_escapes_are_quoted_at_a_terminal() {
    let ws = planted();
    let list = at_terminal(&ws, &["list"]);
    assert!(list.status.success());
    assert_eq!(
        String::from_utf8_lossy(&list.stdout),
        "\"clear\\033[2J.txt\"\nplain.txt\n\"title\\033]0;pwned\\a.txt\"\n"
    );
    let glob = at_terminal(&ws, &["glob", "*.txt"]);
    assert_eq!(
        String::from_utf8_lossy(&glob.stdout),
        "\"clear\\033[2J.txt\"\nplain.txt\n\"title\\033]0;pwned\\a.txt\"\n"
    );
    // Colour is stitch's own escapes; the planted ones are what must not pass.
    let search = at_terminal(&ws, &["--color", "never", "search", "needle"]);
    assert_eq!(
        String::from_utf8_lossy(&search.stdout),
        "\"clear\\033[2J.txt\":1:needle \\x1b[2J\\x1b[H here\n\
         plain.txt:1:needle\n\
         \"title\\033]0;pwned\\a.txt\":1:needle\n"
    );
    let read = at_terminal(&ws, &["read", CLEAR]);
    assert_eq!(
        String::from_utf8_lossy(&read.stdout),
        "needle \\x1b[2J\\x1b[H here\n"
    );
    let edit = at_terminal(
        &ws,
        &[
            "--color",
            "never",
            "edit",
            TITLE,
            "--old",
            "needle",
            "--new",
            "pin\u{1b}[5m",
        ],
    );
    assert_eq!(
        String::from_utf8_lossy(&edit.stdout),
        format!(
            "--- a/title\\x1b]0;pwned\\x07.txt\n+++ b/title\\x1b]0;pwned\\x07.txt\n@@ -1 +1 @@\n\
             -needle\n+pin\\x1b[5m\n\
             edited \"title\\033]0;pwned\\a.txt\": 1 replacement(s), change {}\n",
            ws.newest_change()
        )
    );
    // A refusal on stderr, which is a terminal too.
    let missing = at_terminal(&ws, &["read", "gone\u{1b}[2J.txt"]);
    assert_eq!(missing.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(
        stderr.starts_with("error[NOT_FOUND]: `gone\\x1b[2J.txt` does not exist\n"),
        "{stderr}"
    );
    for shown in [
        &list.stdout,
        &glob.stdout,
        &search.stdout,
        &read.stdout,
        &edit.stdout,
        &missing.stderr,
    ] {
        no_controls(shown);
    }
}

#[test]
fn pipes_and_null_keep_the_raw_bytes() {
    let ws = planted();
    let (list, _) = piped(&ws, &["--format", "text", "list"]);
    assert_eq!(list, format!("{CLEAR}\nplain.txt\n{TITLE}\n").as_bytes());
    let (search, _) = piped(&ws, &["--format", "text", "search", "needle"]);
    assert_eq!(
        search,
        format!("{CLEAR}:1:needle \u{1b}[2J\u{1b}[H here\nplain.txt:1:needle\n{TITLE}:1:needle\n")
            .as_bytes()
    );
    // `--null` at a terminal asks for the exact names, for a program.
    let null = at_terminal(&ws, &["glob", "*.txt", "--null"]);
    assert_eq!(
        null.stdout,
        format!("{CLEAR}\0plain.txt\0{TITLE}\0").as_bytes()
    );
}

#[test]
fn the_wait_notice_for_a_fifo_quotes_its_name_at_a_terminal() {
    let ws = TestWorkspace::new();
    ws.file("t.txt", "keep me\n");
    let fifo = "notes\u{1b}[2J\u{1b}]0;pwned\u{7}.md";
    super::mkfifo(&ws.path(fifo));
    let mut cmd = ws.std_cmd();
    cmd.args(["write", "t.txt", "--from", fifo, "--overwrite"]);
    let run = run_on_terminals(cmd);
    // INVALID_ARGUMENT, shown as text on stderr, a terminal too.
    assert_eq!(run.status.code(), Some(2));
    assert!(
        run.stdout.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&run.stdout)
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(
        stderr,
        "stitch: --from `\"notes\\033[2J\\033]0;pwned\\a.md\"` is a FIFO no program has opened \
         to write yet; waiting for one (refused after 2 s without)\n\
         error[INVALID_ARGUMENT]: --from `notes\\x1b[2J\\x1b]0;pwned\\x07.md` is a FIFO that no \
         program opened to write within 2 s, so nothing was read\n\
         hint: Start the program that writes the FIFO before (or while) calling stitch, or pass \
         --from a regular file.\n"
    );
    no_controls(&run.stderr);
    assert_eq!(ws.read("t.txt"), b"keep me\n", "the file is intact");
    // Through a pipe the notice names the path as it is.
    let (_, piped) = piped(&ws, &["write", "t.txt", "--from", fifo, "--overwrite"]);
    assert_eq!(
        String::from_utf8_lossy(&piped),
        format!(
            "stitch: --from `{fifo}` is a FIFO no program has opened to write yet; waiting for \
             one (refused after 2 s without)\n"
        )
    );
}
