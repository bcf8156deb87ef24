//! Text mode in pipelines: `glob` and `search` exit 1 when nothing matched, as grep and
//! ripgrep do (stdout empty, nothing on stderr); a result cut by its limit says so on
//! stderr, naming `--limit`; `--null` ends names with NUL (`rg --null` in search) and
//! implies text output.

use serde_json::json;

use crate::support::TestWorkspace;

/// What a call printed, as text: exit status, stdout, stderr.
fn text_call(ws: &TestWorkspace, args: &[&str]) -> (i32, String, String) {
    let output = ws.cmd().args(args).write_stdin("").output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn text(ws: &TestWorkspace, args: &[&str]) -> (i32, String, String) {
    text_call(ws, &[&["--format", "text"][..], args].concat())
}

fn workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\nneedle\nomega\n")
        .file("b.txt", "needle too\n")
        .file("odd\nname.txt", "needle\n")
        .dir("sub");
    ws
}

#[test]
fn a_search_that_matches_nothing_exits_1_and_a_glob_0_in_silence() {
    let ws = workspace();
    for (args, status) in [
        (&["glob", "*.none"][..], 0),
        (&["search", "haystack"], 1),
        (&["search", "haystack", "--paths-only"], 1),
        (&["glob", "*.none", "--null"], 0),
        (&["search", "haystack", "--null"], 1),
    ] {
        // As fd and find: a glob that found nothing is not a failure (`set -o pipefail`
        // pipelines go on); as grep and rg: a search that matched nothing is exit 1.
        assert_eq!(
            text(&ws, args),
            (status, String::new(), String::new()),
            "{args:?}"
        );
        // In JSON an empty result is a success like any other.
        let run = ws.run(
            args.iter()
                .copied()
                .filter(|a| *a != "--null")
                .collect::<Vec<_>>()
                .as_slice(),
        );
        assert_eq!(run.ok()["matches"], json!([]), "{args:?}");
    }
    // A match is 0; an empty listing is not "nothing matched"; a refusal keeps its status.
    assert_eq!(text(&ws, &["glob", "*.txt"]).0, 0);
    assert_eq!(text(&ws, &["search", "alpha"]).0, 0);
    assert_eq!(
        text(&ws, &["list", "sub"]),
        (0, String::new(), String::new())
    );
    let (status, stdout, stderr) = text(&ws, &["glob", "[z"]);
    assert_eq!((status, stdout.as_str()), (2, ""));
    assert!(stderr.starts_with("error[INVALID_PATTERN]: "), "{stderr}");
    let (status, _, stderr) = text(&ws, &["search", "x", "--path", "nowhere"]);
    assert_eq!(status, 1);
    assert!(stderr.starts_with("error[NOT_FOUND]: "), "{stderr}");
}

#[test]
fn a_result_cut_by_its_limit_says_so_on_stderr() {
    let ws = workspace();
    let cut = |n: &str, what: &str| {
        format!(
            "stitch: the limit cut the result after {n} {what}; raise --limit (or narrow the \
             call) to see the rest\n"
        )
    };
    assert_eq!(
        text(&ws, &["glob", "*.txt", "--limit", "1"]),
        (0, "a.txt\n".into(), cut("1", "match"))
    );
    assert_eq!(
        text(&ws, &["search", "needle", "--limit", "2"]),
        (
            0,
            "a.txt:2:needle\nb.txt:1:needle too\n".into(),
            cut("2", "matches")
        )
    );
    assert_eq!(
        text(&ws, &["list", "--limit", "2"]),
        (0, "a.txt\nb.txt\n".into(), cut("2", "entries"))
    );
    // Not cut: nothing on stderr.
    assert_eq!(text(&ws, &["glob", "*.txt", "--limit", "3"]).2, "");
}

#[test]
fn null_ends_each_name_with_nul_and_implies_text() {
    let ws = workspace();
    ws.symlink("a.txt", "link");
    let expected_list = "a.txt\0b.txt\0link\0odd\nname.txt\0sub\0";
    assert_eq!(
        text_call(&ws, &["list", "--null"]),
        (0, expected_list.into(), String::new())
    );
    assert_eq!(
        text(&ws, &["list", "-0"]),
        (0, expected_list.into(), String::new())
    );
    assert_eq!(
        text_call(&ws, &["glob", "*.txt", "--null"]),
        (0, "a.txt\0b.txt\0odd\nname.txt\0".into(), String::new())
    );
    // Without --null a name holding a newline cannot be told from two names.
    assert_eq!(
        text(&ws, &["glob", "*.txt"]).1,
        "a.txt\nb.txt\nodd\nname.txt\n"
    );
}

#[test]
fn search_null_puts_nul_after_the_path_as_rg_does() {
    let ws = workspace();
    assert_eq!(
        text_call(&ws, &["search", "needle", "--null"]),
        (
            0,
            "a.txt\x002:needle\nb.txt\x001:needle too\nodd\nname.txt\x001:needle\n".into(),
            String::new()
        )
    );
    assert_eq!(
        text_call(
            &ws,
            &["search", "needle", "--null", "-C", "1", "--path", "a.txt"]
        ),
        (
            0,
            "a.txt\x001-alpha\na.txt\x002:needle\na.txt\x003-omega\n".into(),
            String::new()
        )
    );
    assert_eq!(
        text_call(&ws, &["search", "txt", "--null", "--paths-only"]),
        (0, "a.txt\0b.txt\0odd\nname.txt\0".into(), String::new())
    );
}

#[test]
fn null_gives_way_to_nothing_but_an_explicit_format_json() {
    let ws = workspace();
    // STITCH_FORMAT=json is a default; --null on the command line is text.
    let output = ws
        .cmd()
        .env("STITCH_FORMAT", "json")
        .args(["glob", "b.*", "--null"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(output.stdout, b"b.txt\0");
    // --format json on the same command line contradicts it.
    let run = ws.run(&["--format", "json", "glob", "b.*", "--null"]);
    run.assert_envelope(&json!({
        "ok": false, "error": "INVALID_ARGUMENT",
        "details": {
            "message": "--null, -l, -c, -q, --no-diff and --stat shape text output, so they cannot go with --format json",
            "field": "null"
        },
        "_hint": "Fix the `--null` argument and call again."
    }));
}
