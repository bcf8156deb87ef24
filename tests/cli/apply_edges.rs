//! apply_patch at its edges, each case one that a real history or an obedient model
//! produces: a context line whose text looks like a chunk header, a refusal's hint
//! followed to the letter, a deletion made stale by newer work, modes and symbolic links
//! in a diff, a patch of many thousands of hunks, SEARCH blocks in any order.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::support::{git, sha256sum, TestWorkspace, NUMBER, SHA256, STRING};

/// The workspace's files, stitch's own state aside.
fn tree(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    crate::support::tree(root)
        .into_iter()
        .filter(|(path, _)| !path.starts_with(".stitch"))
        .collect()
}

/// A test's snapshot holds a unified hunk header; a Codex patch that changes the line
/// below it sends the header as a context line, a space before its text.
#[test]
fn a_context_line_that_reads_like_a_chunk_header_is_context() {
    let ws = TestWorkspace::new();
    let before = "const EXPECTED: &str = \"\n    @@ -0,0 +1,1 @@\n    +hello\n\";\n";
    ws.file("tests/snap.rs", before);
    let patch = "*** Begin Patch\n*** Update File: tests/snap.rs\n@@\n const EXPECTED: &str = \"\n     @@ -0,0 +1,1 @@\n-    +hello\n+    +hello world\n \";\n*** End Patch\n";
    let run = ws.run(&["apply", "--patch", patch]);
    run.assert_envelope(&json!({"ok": true, "data": {
        "dialect": "codex",
        "applied": true,
        "id": STRING,
        "changes": [{
            "path": "tests/snap.rs", "operation": "edit", "baseSha256": SHA256,
            "sha256": SHA256, "bytes": 65, "hunks": [{"line": 1}],
            "diff": "--- a/tests/snap.rs\n+++ b/tests/snap.rs\n@@ -1,4 +1,4 @@\n const EXPECTED: &str = \"\n     @@ -0,0 +1,1 @@\n-    +hello\n+    +hello world\n \";\n"
        }]
    }}));
    assert_eq!(
        ws.read_string("tests/snap.rs"),
        before.replace("+hello\n", "+hello world\n")
    );
}

/// A patch that adds a file that exists is told apply's own ways out — update it, or
/// replace it by a `changes` item — never a flag apply does not take; each, followed to
/// the letter, works.
#[test]
fn an_added_file_that_exists_is_told_ways_out_that_apply_takes() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "hi\n");
    let add = "*** Begin Patch\n*** Add File: a.txt\n+hello\n*** End Patch\n";
    let run = ws.run(&["apply", "--patch", add]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "ALREADY_EXISTS",
        "details": {
            "message": "The patch adds `a.txt`, which already exists",
            "path": "a.txt",
            "sha256": sha256sum(b"hi\n"),
            "operation": "write",
            "changeIndex": 0
        },
        "_hint": "`a.txt` exists: change it with `*** Update File: a.txt` (or a diff against it) instead of adding it, or, to replace it whole, send {\"changes\": [{\"op\": \"write\", \"path\": \"a.txt\", \"content\": …, \"overwrite\": true}]} on stdin to `stitch apply --json`."
    }));
    for flag in ["--overwrite", "--expected-sha256"] {
        assert!(!run.hint().contains(flag), "{}", run.hint());
    }
    // The first way: the file updated.
    let update = "*** Begin Patch\n*** Update File: a.txt\n-hi\n+hello\n*** End Patch\n";
    ws.run(&["apply", "--patch", update]).ok();
    assert_eq!(ws.read_string("a.txt"), "hello\n");
    // The second: the item the hint spells, sent as it says.
    let item = json!({"changes": [{"op": "write", "path": "a.txt", "content": "bye\n", "overwrite": true}]});
    ws.run_with_stdin(&["apply", "--json"], item.to_string())
        .ok();
    assert_eq!(ws.read_string("a.txt"), "bye\n");
    // By JSON, the same ways, in the words of fields.
    let run = ws.stitch("apply", &json!({"patch": add}));
    assert_eq!(
        run.hint(),
        "`a.txt` exists: change it with `*** Update File: a.txt` (or a diff against it) instead of adding it, or, to replace it whole, send changes: [{\"op\": \"write\", \"path\": \"a.txt\", \"content\": …, \"overwrite\": true}] instead."
    );
}

/// A patch that moves a file onto one that exists, and a `move` item without
/// `overwrite`: each hint names what that change can say, and saying it works.
#[test]
fn a_move_onto_a_file_that_exists_is_told_ways_out_that_apply_takes() {
    let ws = TestWorkspace::new();
    ws.file("one.txt", "one\n").file("two.txt", "two\n");
    let patch = "*** Begin Patch\n*** Update File: one.txt\n*** Move to: two.txt\n*** End Patch\n";
    let run = ws.stitch("apply", &json!({"patch": patch}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "ALREADY_EXISTS",
        "details": {
            "message": "The patch moves `one.txt` to `two.txt`, which already exists",
            "path": "two.txt",
            "sha256": sha256sum(b"two\n"),
            "operation": "move",
            "changeIndex": 0
        },
        "_hint": "`two.txt` exists: move the file to a path that is free, or, to replace `two.txt`, send changes: [{\"op\": \"move\", \"from\": …, \"to\": \"two.txt\", \"overwrite\": true}] instead."
    }));
    let item = json!({"op": "move", "from": "one.txt", "to": "two.txt"});
    let run = ws.stitch("apply", &json!({"changes": [item]}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "ALREADY_EXISTS",
        "details": {
            "message": "`two.txt` already exists and overwrite was not set",
            "path": "two.txt",
            "sha256": sha256sum(b"two\n"),
            "operation": "move",
            "overwrite": false,
            "changeIndex": 0
        },
        "_hint": "Set overwrite: true in changes[0] to replace `two.txt`, or move the file to a path that is free."
    }));
    let mut item = item;
    item["overwrite"] = json!(true);
    ws.stitch("apply", &json!({"changes": [item]})).ok();
    assert_eq!(ws.read_string("two.txt"), "one\n");
    assert!(!ws.exists("one.txt"));
}

/// A deletion made from an old version of a file, replayed after newer work landed in
/// it: its `-` lines are not the whole file, so it is a hunk that does not match, and no
/// file of the patch changes. A deletion with no body deletes the file as named.
#[test]
fn a_stale_deletion_is_refused_and_deletes_nothing() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a\n")
        .file("gone.md", "# gone\nnewer work\n");
    let patch = "diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n\
diff --git a/gone.md b/gone.md\ndeleted file mode 100644\nindex 3..0\n--- a/gone.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-# gone\n";
    let before = tree(&ws.root());
    let run = ws.stitch("apply", &json!({"patch": patch}));
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NO_MATCH",
        "details": {
            "message": "The deletion's old side is not the whole of `gone.md`, which holds other lines now",
            "path": "gone.md",
            "candidates": [{
                "startLine": 1,
                "endLine": 2,
                "text": "# gone\nnewer work",
                "similarity": NUMBER,
                "difference": "content"
            }],
            "operation": "delete",
            "hunkIndex": 0,
            "changeIndex": 1
        },
        "_hint": "Re-read `gone.md`: it is not what the deletion's hunk says it holds, and may hold newer work. Delete it only if you still mean to, with its whole content as the hunk's `-` lines."
    }));
    assert_eq!(tree(&ws.root()), before);
    // The file as the deletion names it: deleted.
    ws.file("gone.md", "# gone\n");
    ws.stitch("apply", &json!({"patch": patch})).ok();
    assert!(!ws.exists("gone.md"));
    assert_eq!(ws.read_string("a.txt"), "b\n");
    // A deletion with no body names no content: the file goes as named.
    ws.file("bare.md", "anything\n");
    let bare = "diff --git a/bare.md b/bare.md\ndeleted file mode 100644\nindex 4..0\n";
    let data = ws.stitch("apply", &json!({"patch": bare})).ok().clone();
    assert_eq!(data["changes"][0]["operation"], "delete");
    assert!(!ws.exists("bare.md"));
}

/// The permission bits of `path`.
fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// A commit made by git that adds an executable, makes one file executable and another
/// not (with an edit), and moves a fourth while making it executable: its diff, applied,
/// gives each file the executable bit git gave it, and one undo takes every bit back.
#[test]
fn a_diff_sets_the_executable_bits_git_gave_and_undo_takes_them_back() {
    use std::os::unix::fs::PermissionsExt;
    let repo = tempfile::tempdir().unwrap();
    let at = |rel: &str| repo.path().join(rel);
    let chmod = |rel: &str, mode: u32| {
        std::fs::set_permissions(at(rel), std::fs::Permissions::from_mode(mode)).unwrap();
    };
    git(repo.path(), &["init", "-q"]);
    for (rel, text) in [
        ("tool.sh", "echo tool\n"),
        ("lib.sh", "x\n"),
        ("m.sh", "m\n"),
    ] {
        std::fs::write(at(rel), text).unwrap();
    }
    chmod("lib.sh", 0o755);
    git(repo.path(), &["add", "-A"]);
    git(repo.path(), &["commit", "-qm", "v1"]);
    std::fs::write(at("run.sh"), "echo hi\n").unwrap();
    std::fs::write(at("plain.txt"), "plain\n").unwrap();
    chmod("run.sh", 0o755);
    chmod("tool.sh", 0o755);
    std::fs::write(at("lib.sh"), "y\n").unwrap();
    chmod("lib.sh", 0o644);
    git(repo.path(), &["mv", "m.sh", "bin.sh"]);
    chmod("bin.sh", 0o755);
    git(repo.path(), &["add", "-A"]);
    let diff = git(repo.path(), &["diff", "--cached", "-M"]);
    assert!(diff.contains("new file mode 100755") && diff.contains("new mode 100644"));

    let ws = TestWorkspace::new();
    ws.file("tool.sh", "echo tool\n")
        .file("lib.sh", "x\n")
        .file("m.sh", "m\n");
    let path = |rel: &str| ws.root().join(rel);
    std::fs::set_permissions(path("tool.sh"), std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(path("m.sh"), std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(path("lib.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let data = ws.stitch("apply", &json!({"patch": diff})).ok().clone();
    let modes: Vec<(&str, &str)> = data["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| Some((c["path"].as_str()?, c["mode"].as_str()?)))
        .collect();
    assert_eq!(
        modes,
        [
            ("bin.sh", "100755"),
            ("lib.sh", "100644"),
            ("run.sh", "100755"),
            ("tool.sh", "100755")
        ],
        "{data}"
    );
    // A new executable is executable wherever the umask left a new file readable.
    let plain = mode_of(&path("plain.txt"));
    assert_eq!(mode_of(&path("run.sh")), plain | ((plain & 0o444) >> 2));
    assert_eq!(mode_of(&path("tool.sh")), 0o755);
    assert_eq!(mode_of(&path("bin.sh")), 0o755);
    assert_eq!(mode_of(&path("lib.sh")), 0o644);
    assert_eq!(ws.read_string("lib.sh"), "y\n");
    ws.run(&["undo"]).ok();
    assert_eq!(mode_of(&path("tool.sh")), 0o644);
    assert_eq!(mode_of(&path("m.sh")), 0o644);
    assert_eq!(mode_of(&path("lib.sh")), 0o755);
    assert!(!ws.exists("run.sh") && !ws.exists("bin.sh"));
}

/// A symbolic link in a diff — added, deleted, or its target changed — is not written as
/// a regular file holding the target's name: the patch does not parse, at the mode line,
/// and nothing changes.
#[test]
fn a_symbolic_link_in_a_diff_is_refused_at_its_mode_line() {
    let repo = tempfile::tempdir().unwrap();
    git(repo.path(), &["init", "-q"]);
    std::fs::write(repo.path().join("README.md"), "read me\n").unwrap();
    std::os::unix::fs::symlink("README.md", repo.path().join("old-link")).unwrap();
    git(repo.path(), &["add", "-A"]);
    git(repo.path(), &["commit", "-qm", "v1"]);
    std::os::unix::fs::symlink("README.md", repo.path().join("link")).unwrap();
    git(repo.path(), &["add", "-A"]);
    let added = git(repo.path(), &["diff", "--cached"]);
    git(repo.path(), &["commit", "-qm", "v2"]);
    git(repo.path(), &["rm", "-q", "old-link"]);
    let deleted = git(repo.path(), &["diff", "--cached"]);

    let ws = TestWorkspace::new();
    ws.file("README.md", "read me\n");
    ws.symlink("README.md", "old-link");
    let before = tree(&ws.root());
    let run = ws.stitch("apply", &json!({"patch": added}));
    let expected = "a regular file's mode, 100644 or 100755 (a symbolic link, 120000, is not applied by a patch: send the patch without that file)";
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_PATCH",
        "details": {
            "message": format!("The patch does not parse at line 2: expected {expected}"),
            "dialect": "unified",
            "patchLine": 2,
            "line": "new file mode 120000",
            "expected": expected
        },
        "_hint": "Fix line 2 of the patch as details.expected says, and send the whole patch again."
    }));
    let run = ws.stitch("apply", &json!({"patch": deleted}));
    assert_eq!(
        run.refused("INVALID_PATCH")["line"],
        "deleted file mode 120000"
    );
    let retarget = "diff --git a/old-link b/old-link\nindex 1..2 120000\n--- a/old-link\n+++ b/old-link\n@@ -1 +1 @@\n-README.md\n\\ No newline at end of file\n+NOTES.md\n\\ No newline at end of file\n";
    let run = ws.stitch("apply", &json!({"patch": retarget}));
    assert_eq!(run.refused("INVALID_PATCH")["patchLine"], 2);
    assert_eq!(tree(&ws.root()), before);
    assert!(!ws.exists("link"));
}

/// A diff of 25,000 one-line hunks (each with git's three lines of context) on a file of
/// 200,000 lines, as `git diff` prints it. Under a time budget already spent it is
/// `BUSY` — retryable, the reason said — and changes nothing; under the default budget it
/// applies whole, giving git's file, each hunk reported where it landed. (How long it
/// takes is measured by bench/hunks.sh, not asserted here.)
#[test]
fn twenty_five_thousand_hunks_apply_under_the_budget_or_not_at_all() {
    let repo = tempfile::tempdir().unwrap();
    let old = (0..200_000).fold(String::new(), |mut text, i| {
        use std::fmt::Write as _;
        let _ = writeln!(text, "line {i:06}");
        text
    });
    let new = (0..25_000).fold(old.clone(), |mut text, k| {
        let at = (k * 8 + 4) * 12;
        text.replace_range(at..at + 4, "LINE");
        text
    });
    std::fs::write(repo.path().join("old.txt"), &old).unwrap();
    std::fs::write(repo.path().join("new.txt"), &new).unwrap();
    let output = std::process::Command::new("git")
        .current_dir(repo.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .args(["diff", "--no-index", "old.txt", "new.txt"])
        .output()
        .unwrap();
    let diff = String::from_utf8(output.stdout)
        .unwrap()
        .replace("a/old.txt", "a/big.txt")
        .replace("b/new.txt", "b/big.txt");
    assert_eq!(diff.matches("\n@@ ").count(), 25_000);

    let ws = TestWorkspace::new();
    ws.file("big.txt", &old);
    let patch = ws.outside_file("big.patch", &diff);
    let patch = patch.to_str().unwrap();
    let spent = ws.run_with_env(
        &[("STITCH_TEST_APPLY_BUDGET_MS", "0")],
        &["apply", "--from", patch],
    );
    spent.assert_envelope(&json!({
        "ok": false,
        "error": "BUSY",
        "details": {
            "message": "The apply took longer than the 0 s it may hold its files' locks, so it stopped and changed nothing",
            "reason": "out of time",
            "budgetSeconds": 0.0,
            "retryable": true
        },
        "_hint": "The change could not be made in the time stitch may hold its files' locks: retry when the machine is less busy, or send it as several smaller patches."
    }));
    assert_eq!(ws.read_string("big.txt"), old);
    let run = ws.run(&["apply", "--from", patch]);
    let data = run.ok();
    assert_eq!(ws.read_string("big.txt"), new);
    let hunks = data["changes"][0]["hunks"].as_array().unwrap();
    assert_eq!(hunks.len(), 25_000);
    assert_eq!(hunks[24_999], json!({"line": 24_999 * 8 + 2}));
    let shown = data["changes"][0]["diff"].as_str().unwrap();
    assert!(
        shown.starts_with("--- a/big.txt\n+++ b/big.txt\n@@ -2,7 +2,7 @@\n line 000001\n line 000002\n line 000003\n-line 000004\n+LINE 000004\n"),
        "{}",
        &shown[..200]
    );
}

/// SEARCH/REPLACE blocks apply one after another, as Aider applies them: a block for a
/// place above the one before it, or for text only that one wrote, is found in the text
/// the blocks before it left — never an internal error.
#[test]
fn search_blocks_in_any_order_apply_one_after_another() {
    let ws = TestWorkspace::new();
    ws.file("f.txt", "a\nb\nc\nd\n");
    let blocks = "f.txt\n<<<<<<< SEARCH\nd\n=======\nD\n>>>>>>> REPLACE\n\
f.txt\n<<<<<<< SEARCH\na\n=======\nA\n>>>>>>> REPLACE\n\
f.txt\n<<<<<<< SEARCH\nA\nb\n=======\nAB\n>>>>>>> REPLACE\n";
    let run = ws.stitch("apply", &json!({"patch": blocks}));
    run.assert_envelope(&json!({"ok": true, "data": {
        "dialect": "search-replace",
        "applied": true,
        "id": STRING,
        "changes": [{
            "path": "f.txt", "operation": "edit", "baseSha256": SHA256,
            "sha256": SHA256, "bytes": 7,
            "hunks": [{"line": 4}, {"line": 1}, {"line": 1}],
            "diff": "--- a/f.txt\n+++ b/f.txt\n@@ -1,4 +1,3 @@\n-a\n-b\n+AB\n c\n-d\n+D\n"
        }]
    }}));
    assert_eq!(ws.read_string("f.txt"), "AB\nc\nD\n");
}
