//! ripgrep's `-l`, `-c` and `-q`: summed up per file, so the match limit does not bound
//! them — every file with a match, every match counted, and `-q` done at the first one.

use crate::support::TestWorkspace;

/// Runs with stdin empty and stdout a pipe: status, stdout, stderr.
fn piped(ws: &TestWorkspace, args: &[&str]) -> (i32, String, String) {
    let output = ws.cmd().args(args).write_stdin("").output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// 200 matches in `a.txt`, twice the default limit, and one in `z.txt`, after it.
fn past_the_limit() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "hit\n".repeat(200)).file("z.txt", "hit\n");
    ws
}

#[test]
fn files_with_matches_lists_every_file_past_the_match_limit() {
    let ws = past_the_limit();
    let listed = (0, "a.txt\nz.txt\n".to_owned(), String::new());
    assert_eq!(piped(&ws, &["search", "hit", "-l"]), listed);
    // Even a limit of one match bounds no file.
    assert_eq!(piped(&ws, &["search", "hit", "-l", "--limit", "1"]), listed);
    assert_eq!(
        piped(&ws, &["search", "nothing", "--files-with-matches"]),
        (1, String::new(), String::new())
    );
}

#[test]
fn count_counts_every_match_past_the_match_limit() {
    let ws = past_the_limit();
    let counted = (0, "a.txt:200\nz.txt:1\n".to_owned(), String::new());
    assert_eq!(piped(&ws, &["search", "hit", "-c"]), counted);
    assert_eq!(
        piped(&ws, &["search", "hit", "--count", "--limit", "5"]),
        counted
    );
    assert_eq!(
        piped(&ws, &["search", "hit", "-c", "--null"]),
        (0, "a.txt\x00200\nz.txt\x001\n".to_owned(), String::new())
    );
}

#[test]
fn quiet_prints_nothing_and_exits_by_whether_anything_matched() {
    let ws = past_the_limit();
    assert_eq!(
        piped(&ws, &["search", "hit", "-q"]),
        (0, String::new(), String::new())
    );
    assert_eq!(
        piped(&ws, &["search", "nothing", "--quiet"]),
        (1, String::new(), String::new())
    );
}

/// A file over maxFileBytes is not searched; `-l` and `-c` say so once, on stderr.
#[test]
fn a_file_a_bound_passed_over_is_said_once() {
    let ws = TestWorkspace::new();
    ws.file(".stitch/config.json", r#"{"limits":{"maxFileBytes":100}}"#)
        .file("big.txt", "hit\n".repeat(50))
        .file("small.txt", "hit\nhit\n");
    let notice = "stitch: 1 file(s) over the workspace's maxFileBytes were not searched\n";
    assert_eq!(
        piped(&ws, &["search", "hit", "-c"]),
        (0, "small.txt:2\n".to_owned(), notice.to_owned())
    );
    assert_eq!(
        piped(&ws, &["search", "hit", "-l"]),
        (0, "small.txt\n".to_owned(), notice.to_owned())
    );
    assert_eq!(
        piped(&ws, &["search", "hit", "-q"]),
        (0, String::new(), String::new())
    );
}

/// `-l`, `-c` and `-q` imply text, so a usage error beside them is a message on stderr,
/// never an envelope on stdout.
#[test]
fn a_usage_error_beside_a_summary_flag_is_text() {
    let ws = past_the_limit();
    for flag in ["-l", "-c", "-q", "--count", "-il"] {
        let (status, stdout, stderr) = piped(&ws, &["search", "hit", flag, "--bogus"]);
        assert_eq!((status, stdout.as_str()), (2, ""), "{flag}");
        assert!(
            stderr.contains("unexpected argument '--bogus' found"),
            "{flag}: {stderr}"
        );
    }
    // Without one, a pipe gets the envelope.
    let (status, stdout, _) = piped(&ws, &["search", "hit", "--bogus"]);
    assert_eq!(status, 2);
    assert!(
        stdout.starts_with(r#"{"ok":false,"error":"INVALID_ARGUMENT""#),
        "{stdout}"
    );
}
