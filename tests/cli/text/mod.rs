//! `--format text`: what people see — plain content, short result lines, and refusals
//! as `error[CODE]: message` with the hint on stderr, under the same exit status.

use crate::support::TestWorkspace;

// Refusals: the facts the hint refers to, between the message and the hint.
mod refusals;
// For pipelines: exit 1 when glob or search matched nothing, cut results, --null.
mod pipelines;
// The default format follows stdout; usage errors in text; search -l, -c and -q.
mod people;

fn text(ws: &TestWorkspace, args: &[&str]) -> std::process::Output {
    let mut cmd = ws.cmd();
    cmd.arg("--format").arg("text").args(args).write_stdin("");
    cmd.output().unwrap()
}

#[test]
fn read_prints_the_content_as_it_is_or_numbered() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\n");
    let out = text(&ws, &["read", "a.txt"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"one\ntwo\n");
    let out = text(&ws, &["read", "a.txt", "-n", "--offset", "2"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "     2\ttwo\n");
}

#[test]
fn a_refusal_goes_to_stderr_with_its_code_and_hint() {
    let ws = TestWorkspace::new();
    ws.file("src/main.rs", "fn main() {}\n");
    let out = text(&ws, &["read", "scr/main.rs"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr,
        "error[NOT_FOUND]: `scr/main.rs` does not exist\n\
         near names: src/main.rs\n\
         hint: Did you mean `src/main.rs`? Otherwise list the parent directory.\n"
    );
    let out = text(&ws, &["read", "../x"]);
    assert_eq!(out.status.code(), Some(1));
    let out = text(&ws, &["read", ""]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn results_are_short_lines() {
    let ws = TestWorkspace::new();
    ws.file("src/a.rs", "fn a() {}\nlet x = 1;\n").dir("docs");
    let out = text(
        &ws,
        &["edit", "src/a.rs", "--old", "x = 1", "--new", "x = 2"],
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("-let x = 1;\n+let x = 2;\n"), "{stdout}");
    let id = ws.newest_change();
    assert!(
        stdout.ends_with(&format!("edited src/a.rs: 1 replacement(s), change {id}\n")),
        "{stdout}"
    );
    let out = text(&ws, &["write", "notes/n.md", "--content", "hi"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!(
            "--- a/notes/n.md\n+++ b/notes/n.md\n@@ -0,0 +1 @@\n+hi\n\\ No newline at end of file\ncreated notes/n.md (2 bytes), change {}\n",
            ws.newest_change()
        )
    );
    let out = text(&ws, &["list"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "docs/\nnotes/\nsrc/\n"
    );
    let out = text(&ws, &["glob", "**/*.rs"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "src/a.rs\n");
    let out = text(&ws, &["search", "fn", "-C", "1"]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "src/a.rs:1:fn a() {}\nsrc/a.rs-2-let x = 2;\n"
    );
}

#[test]
fn stitch_format_env_selects_text() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "x\n");
    let out = ws
        .cmd()
        .env("STITCH_FORMAT", "text")
        .args(["read", "a.txt"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.stdout, b"x\n");
}

#[test]
fn a_schema_format_is_refused_for_tools() {
    let ws = TestWorkspace::new();
    let run = ws.run(&["--format", "openai", "list"]);
    assert_eq!(run.refused("INVALID_ARGUMENT")["field"], "format");
}

/// A step a Makefile runs twice says so the second time, and exits 0.
#[test]
fn an_edit_already_applied_and_an_identical_write_say_unchanged() {
    let ws = TestWorkspace::new();
    ws.file("Cargo.toml", "version = \"1.1\"\n")
        .file("VERSION", "1.1");
    let edit = [
        "edit",
        "Cargo.toml",
        "--old",
        "version = \"1.0\"",
        "--new",
        "version = \"1.1\"",
        "--ok-if-applied",
    ];
    let out = text(&ws, &edit);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "already applied Cargo.toml: unchanged\n"
    );
    let out = text(
        &ws,
        &["write", "VERSION", "--content", "1.1", "--overwrite"],
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "unchanged VERSION (3 bytes)\n"
    );
    assert_eq!(ws.read("Cargo.toml"), b"version = \"1.1\"\n");
}
