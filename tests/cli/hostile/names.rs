//! Names that are not valid UTF-8 (Linux allows any bytes but `/` and NUL): walks never
//! show them mangled onto another name and never drop them in silence; `list`, `glob` and
//! `search` count them in `skippedNonUtf8` (and `list` in `skipped`), and a directory so
//! named is not entered.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use serde_json::json;

use crate::support::{tree, Run, TestWorkspace};

/// The absolute path of `bytes` below the root.
fn raw(ws: &TestWorkspace, bytes: &[u8]) -> PathBuf {
    ws.root().join(OsStr::from_bytes(bytes))
}

/// `good.txt` and `sub/ok.md` beside a file, a directory (with a file inside), a link to
/// a directory and a dangling link whose names are not UTF-8, plus one more such file
/// in `sub`. Every file holds `needle`.
fn odd_names() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("good.txt", "needle\n")
        .file("sub/ok.md", "needle\n");
    std::fs::write(raw(&ws, b"bad\xff.txt"), "needle\n").unwrap();
    std::fs::create_dir(raw(&ws, b"dir\xfe")).unwrap();
    std::fs::write(raw(&ws, b"dir\xfe/inner.txt"), "needle\n").unwrap();
    std::fs::write(raw(&ws, b"sub/also\xff.md"), "needle\n").unwrap();
    std::os::unix::fs::symlink("sub", raw(&ws, b"to-sub\xfd")).unwrap();
    std::os::unix::fs::symlink("nowhere", raw(&ws, b"gone\xfc")).unwrap();
    ws
}

/// Four names at the top are not UTF-8 (the directory counts once, its file not at all),
/// one more in `sub`.
const AT_TOP: usize = 4;
const IN_SUB: usize = 1;

/// Asserts nothing in the output stands in for a name it could not spell.
#[track_caller]
fn never_mangled(run: &Run) {
    assert!(!run.stdout.contains('\u{fffd}'), "{}", run.stdout);
    assert!(!run.stdout.contains("\\ufffd"), "{}", run.stdout);
    for part in ["bad", "inner", "also", "to-sub", "gone"] {
        assert!(!run.stdout.contains(part), "{part}: {}", run.stdout);
    }
}

#[test]
fn list_counts_names_that_are_not_utf8_in_skipped_and_by_reason() {
    let ws = odd_names();
    let before = tree(&ws.root());

    let run = ws.run(&["list", "--depth", "3"]);
    never_mangled(&run);
    let entries = json!([
        {"path": "good.txt", "kind": "file", "bytes": 7},
        {"path": "sub", "kind": "directory"},
        {"path": "sub/ok.md", "kind": "file", "bytes": 7},
    ]);
    let counted = AT_TOP + IN_SUB;
    assert_eq!(
        run.ok(),
        &json!({
            "path": ".",
            "entries": entries,
            "truncated": false,
            "skipped": counted,
            "skippedNonUtf8": counted,
        })
    );

    // With ignore rules off, the count is the same and `skipped` still holds it.
    let all = ws.run(&["list", "--depth", "3", "--all"]);
    never_mangled(&all);
    assert_eq!(
        all.ok(),
        &json!({
            "path": ".",
            "entries": entries,
            "truncated": false,
            "skipped": counted,
            "skippedNonUtf8": counted,
        })
    );

    // One level: the names at the top only.
    let one = ws.run(&["list"]);
    never_mangled(&one);
    assert_eq!(
        one.ok(),
        &json!({
            "path": ".",
            "entries": [
                {"path": "good.txt", "kind": "file", "bytes": 7},
                {"path": "sub", "kind": "directory"},
            ],
            "truncated": false,
            "skipped": AT_TOP,
            "skippedNonUtf8": AT_TOP,
        })
    );
    assert_eq!(tree(&ws.root()), before, "nothing changed on disk");
}

#[test]
fn glob_and_search_report_names_that_are_not_utf8() {
    let ws = odd_names();
    let before = tree(&ws.root());

    let run = ws.run(&["glob", "**/*"]);
    never_mangled(&run);
    assert_eq!(
        run.ok(),
        &json!({
            "matches": ["good.txt", "sub/ok.md"],
            "truncated": false,
            "scannedFiles": 2,
            "denied": 0,
            "skippedNonUtf8": AT_TOP + IN_SUB,
        })
    );

    // A pattern that cannot reach below the top meets only the names there.
    let run = ws.run(&["glob", "*"]);
    never_mangled(&run);
    assert_eq!(
        run.ok(),
        &json!({
            "matches": ["good.txt"],
            "truncated": false,
            "scannedFiles": 1,
            "denied": 0,
            "skippedNonUtf8": AT_TOP,
        })
    );

    let run = ws.run(&["search", "needle"]);
    never_mangled(&run);
    assert_eq!(
        run.ok(),
        &json!({
            "matches": [
                {"path": "good.txt", "line": 1, "text": "needle"},
                {"path": "sub/ok.md", "line": 1, "text": "needle"},
            ],
            "truncated": false,
            "scannedFiles": 2,
            "skippedBinary": 0,
            "skippedLarge": 0,
            "denied": 0,
            "skippedNonUtf8": AT_TOP + IN_SUB,
        })
    );

    let run = ws.run(&["search", "o", "--mode", "path", "--all"]);
    never_mangled(&run);
    assert_eq!(
        run.ok(),
        &json!({
            "matches": [{"path": "good.txt"}, {"path": "sub/ok.md"}],
            "truncated": false,
            "scannedFiles": 2,
            "skippedBinary": 0,
            "skippedLarge": 0,
            "denied": 0,
            "skippedNonUtf8": AT_TOP + IN_SUB,
        })
    );
    assert_eq!(tree(&ws.root()), before, "nothing changed on disk");
}

#[test]
fn only_the_walked_branch_is_counted_and_a_clean_walk_has_no_count() {
    let ws = odd_names();

    let run = ws.run(&["list", "sub"]);
    never_mangled(&run);
    assert_eq!(
        run.ok(),
        &json!({
            "path": "sub",
            "entries": [{"path": "sub/ok.md", "kind": "file", "bytes": 7}],
            "truncated": false,
            "skipped": IN_SUB,
            "skippedNonUtf8": IN_SUB,
        })
    );
    let run = ws.run(&["search", "needle", "--path", "sub"]);
    assert_eq!(run.ok()["skippedNonUtf8"], IN_SUB, "{}", run.stdout);

    let clean = TestWorkspace::new();
    clean.file("a.txt", "needle\n");
    for args in [
        &["list"][..],
        &["glob", "**/*"][..],
        &["search", "needle"][..],
    ] {
        let run = clean.run(args);
        let data = run.ok();
        assert!(
            data.get("skippedNonUtf8").is_none(),
            "{args:?}: {}",
            run.stdout
        );
    }
}
