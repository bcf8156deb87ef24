//! apply_patch (§12): one change across files, all or nothing, in the formats models emit
//! — a Codex patch, a unified diff as `git diff` prints it (made here by git itself from a
//! small history), SEARCH/REPLACE blocks — and taken back whole by one undo.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};

use crate::support::{git, TestWorkspace};

/// The workspace's files, stitch's own state aside.
fn tree(root: &Path) -> BTreeMap<std::path::PathBuf, Vec<u8>> {
    crate::support::tree(root)
        .into_iter()
        .filter(|(path, _)| !path.starts_with(".stitch"))
        .collect()
}

const CODEX: &str = "*** Begin Patch
*** Update File: src/app.py
@@ def greet():
-    print(\"hi\")
+    print(\"hello\")
*** Add File: docs/NOTES.md
+first note
*** Delete File: old.txt
*** End Patch
";

fn app(ws: &TestWorkspace) {
    ws.file("src/app.py", "def greet():\n    print(\"hi\")\n")
        .file("old.txt", "old\n");
}

#[test]
fn a_codex_patch_lands_whole_and_one_undo_takes_it_back() {
    let ws = TestWorkspace::new();
    app(&ws);
    let before = tree(&ws.root());
    let run = ws.run(&["apply", "--patch", CODEX]);
    let data = run.ok();
    assert_eq!(data["dialect"], "codex");
    assert_eq!(data["applied"], true);
    let operations: Vec<(&str, &str)> = data["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["path"].as_str().unwrap(),
                c["operation"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        operations,
        [
            ("src/app.py", "edit"),
            ("docs/NOTES.md", "write"),
            ("old.txt", "delete")
        ]
    );
    assert_eq!(data["changes"][0]["hunks"], json!([{"line": 2}]));
    assert_eq!(data["changes"][1]["createdDirectories"], json!(["docs"]));
    assert_eq!(
        ws.read_string("src/app.py"),
        "def greet():\n    print(\"hello\")\n"
    );
    assert_eq!(ws.read_string("docs/NOTES.md"), "first note\n");
    assert!(!ws.exists("old.txt"));
    // The same patch again, as a Makefile would run it.
    let again = ws.run(&["apply", "--patch", CODEX, "--ok-if-applied"]);
    assert_eq!(again.ok()["alreadyApplied"], true);
    assert_eq!(again.ok()["applied"], false);
    // One undo, the whole change: history lists it as one entry.
    let history = ws.run(&["history"]);
    assert_eq!(history.ok()["changes"][0]["tool"], "apply_patch");
    assert_eq!(history.ok()["changes"][0]["id"], data["id"]);
    ws.run(&["undo"]).ok();
    assert_eq!(tree(&ws.root()), before);
}

#[test]
fn a_hunk_that_does_not_match_in_the_last_file_changes_no_file() {
    let ws = TestWorkspace::new();
    app(&ws);
    ws.file("src/lib.py", "x = 1\n");
    let patch = "*** Begin Patch\n*** Delete File: old.txt\n*** Update File: src/app.py\n@@\n-    print(\"hi\")\n+    print(\"hey\")\n*** Update File: src/lib.py\n@@\n-x = 2\n+x = 3\n*** End Patch\n";
    let before = tree(&ws.root());
    let run = ws.run(&["apply", "--patch", patch]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NO_MATCH",
        "details": {
            "message": "A hunk's old side is not in `src/lib.py`",
            "path": "src/lib.py",
            "candidates": [{
                "startLine": 1,
                "endLine": 1,
                "text": "x = 1",
                "similarity": 0.8,
                "difference": "content"
            }],
            "hunkIndex": 0,
            "changeIndex": 2
        },
        "_hint": "Your change could not be carried onto the file's text without doubt: re-read line 1 of `src/lib.py` and write the hunk's old and new sides again from it."
    }));
    assert_eq!(run.status, 1);
    assert_eq!(
        tree(&ws.root()),
        before,
        "no file changed, no temp file left"
    );
}

#[test]
fn a_patch_that_does_not_parse_names_its_line() {
    let ws = TestWorkspace::new();
    app(&ws);
    let run = ws.stitch(
        "apply",
        &json!({"patch": "*** Begin Patch\n*** Update File: src/app.py\n@@\n?    print(\"hi\")\n*** End Patch\n"}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_PATCH",
        "details": {
            "message": "The patch does not parse at line 4: expected a chunk line starting with ` ` (context), `-` (removed) or `+` (added), or `@@`",
            "dialect": "codex",
            "patchLine": 4,
            "line": "?    print(\"hi\")",
            "expected": "a chunk line starting with ` ` (context), `-` (removed) or `+` (added), or `@@`"
        },
        "_hint": "Fix line 4 of the patch as details.expected says, and send the whole patch again."
    }));
    assert_eq!(run.status, 2);
}

#[test]
fn search_replace_blocks_apply_and_report_the_dialect() {
    let ws = TestWorkspace::new();
    app(&ws);
    let blocks = "src/app.py\n```python\n<<<<<<< SEARCH\n    print(\"hi\")\n=======\n    print(\"hi there\")\n>>>>>>> REPLACE\n```\n";
    let run = ws.stitch("apply", &json!({"patch": blocks}));
    assert_eq!(run.ok()["dialect"], "search-replace");
    assert_eq!(
        ws.read_string("src/app.py"),
        "def greet():\n    print(\"hi there\")\n"
    );
}

fn write_all(dir: &Path, files: &BTreeMap<&str, String>) {
    for (rel, text) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// A real multi-file commit — edits in two files (one far down, one without a final
/// newline), a file added, one deleted and one renamed with a change — made by git, its
/// `git diff -M` applied to the tree before it: the tree after, byte for byte.
#[test]
fn a_git_diff_of_a_multi_file_commit_gives_the_tree_git_made() {
    let repo = tempfile::tempdir().unwrap();
    let long = (1..=60).fold(String::new(), |mut text, i| {
        use std::fmt::Write as _;
        let _ = writeln!(text, "line {i}");
        text
    });
    let v1: BTreeMap<&str, String> = [
        (
            "src/main.rs",
            "fn main() {\n    println!(\"v1\");\n}\n".to_owned(),
        ),
        ("src/long.txt", long.clone()),
        ("notes.txt", "no final newline".to_owned()),
        ("gone.md", "# gone\n".to_owned()),
        (
            "util/old_name.rs",
            "pub fn helper() -> u32 {\n    1\n}\n// a long enough file to be seen as renamed\n"
                .to_owned(),
        ),
    ]
    .into_iter()
    .collect();
    git(repo.path(), &["init", "-q"]);
    write_all(repo.path(), &v1);
    git(repo.path(), &["add", "-A"]);
    git(repo.path(), &["commit", "-qm", "v1"]);
    std::fs::write(
        repo.path().join("src/main.rs"),
        "fn main() {\n    println!(\"v2\");\n}\n",
    )
    .unwrap();
    std::fs::write(
        repo.path().join("src/long.txt"),
        long.replace("line 50\n", "line fifty\n"),
    )
    .unwrap();
    std::fs::write(repo.path().join("notes.txt"), "no final newline, still").unwrap();
    std::fs::remove_file(repo.path().join("gone.md")).unwrap();
    std::fs::write(repo.path().join("added.txt"), "new\n").unwrap();
    git(repo.path(), &["mv", "util/old_name.rs", "util/new_name.rs"]);
    std::fs::write(
        repo.path().join("util/new_name.rs"),
        "pub fn helper() -> u32 {\n    2\n}\n// a long enough file to be seen as renamed\n",
    )
    .unwrap();
    git(repo.path(), &["add", "-A"]);
    let diff = git(repo.path(), &["diff", "--cached", "-M"]);

    let ws = TestWorkspace::new();
    for (rel, text) in &v1 {
        ws.file(rel, text);
    }
    let run = ws.stitch("apply", &json!({"patch": diff}));
    let data = run.ok();
    assert_eq!(data["dialect"], "unified");
    for rel in [
        "src/main.rs",
        "src/long.txt",
        "notes.txt",
        "added.txt",
        "util/new_name.rs",
    ] {
        assert_eq!(
            ws.read(rel),
            std::fs::read(repo.path().join(rel)).unwrap(),
            "{rel} differs from git's"
        );
    }
    assert!(!ws.exists("gone.md") && !ws.exists("util/old_name.rs"));
    // Lines added above since the diff was made: the hunk lands at its offset.
    let ws = TestWorkspace::new();
    let mut moved = v1.clone();
    moved.insert("src/long.txt", format!("added\nabove\n{long}"));
    for (rel, text) in &moved {
        ws.file(rel, text);
    }
    let data = ws.stitch("apply", &json!({"patch": diff})).ok().clone();
    let long_change = data["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["path"] == "src/long.txt")
        .unwrap()
        .clone();
    assert_eq!(long_change["hunks"][0]["offset"], 2, "{long_change}");
    assert!(ws.read_string("src/long.txt").contains("line fifty\n"));
    let _: &Value = &long_change;
}
