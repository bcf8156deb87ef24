//! apply_patch (§12) replaying real commits through every dialect: a small history made
//! by git itself, each commit's `git diff` rewritten as a Codex patch, as SEARCH/REPLACE
//! blocks and as a `changes` list, each applied to the tree before the commit, and the
//! tree after compared with git's byte for byte.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde_json::{json, Value};

use crate::support::{git, TestWorkspace};

/// One file's part of a `git diff`: its old and new path (`None` for absent) and hunks,
/// each a list of (` `|`-`|`+`, line without its newline).
#[derive(Debug)]
struct FileDiff {
    old: Option<String>,
    new: Option<String>,
    hunks: Vec<Vec<(char, String)>>,
}

/// Parses `git diff -M` output (text files with final newlines only).
fn parse(diff: &str) -> Vec<FileDiff> {
    let mut files: Vec<FileDiff> = Vec::new();
    for line in diff.lines() {
        if let Some(rest) = line.strip_prefix("diff --git a/") {
            let (old, new) = rest.split_once(" b/").unwrap();
            files.push(FileDiff {
                old: Some(old.to_owned()),
                new: Some(new.to_owned()),
                hunks: Vec::new(),
            });
            continue;
        }
        let file = files.last_mut().unwrap();
        if line.starts_with("new file mode") {
            file.old = None;
        } else if line.starts_with("deleted file mode") {
            file.new = None;
        } else if line.starts_with("@@") {
            file.hunks.push(Vec::new());
        } else if let Some(hunk) = file.hunks.last_mut() {
            let (mark, text) = line.split_at(1);
            hunk.push((mark.chars().next().unwrap(), text.to_owned()));
        }
    }
    files
}

/// The old or new side of a hunk, lines ended by newlines.
fn side(hunk: &[(char, String)], mark: char) -> String {
    hunk.iter().filter(|(m, _)| *m == ' ' || *m == mark).fold(
        String::new(),
        |mut out, (_, text)| {
            let _ = writeln!(out, "{text}");
            out
        },
    )
}

fn codex(files: &[FileDiff], after: &Path) -> String {
    let mut patch = String::from("*** Begin Patch\n");
    for file in files {
        match (&file.old, &file.new) {
            (None, Some(new)) => {
                let _ = writeln!(patch, "*** Add File: {new}");
                for line in std::fs::read_to_string(after.join(new)).unwrap().lines() {
                    let _ = writeln!(patch, "+{line}");
                }
            }
            (Some(old), None) => {
                let _ = writeln!(patch, "*** Delete File: {old}");
            }
            (Some(old), Some(new)) => {
                let _ = writeln!(patch, "*** Update File: {old}");
                if old != new {
                    let _ = writeln!(patch, "*** Move to: {new}");
                }
                for hunk in &file.hunks {
                    patch += "@@\n";
                    for (mark, text) in hunk {
                        let _ = writeln!(patch, "{mark}{text}");
                    }
                }
            }
            (None, None) => unreachable!(),
        }
    }
    patch + "*** End Patch\n"
}

/// SEARCH/REPLACE blocks: Aider's format has no delete or rename, so only the files a
/// commit adds or edits in place.
fn search_replace(files: &[FileDiff], after: &Path) -> String {
    let mut blocks = String::new();
    for file in files {
        match (&file.old, &file.new) {
            (None, Some(new)) => {
                let text = std::fs::read_to_string(after.join(new)).unwrap();
                let _ = write!(
                    blocks,
                    "{new}\n```\n<<<<<<< SEARCH\n=======\n{text}>>>>>>> REPLACE\n```\n\n"
                );
            }
            (Some(old), Some(new)) if old == new => {
                for hunk in &file.hunks {
                    let _ = write!(
                        blocks,
                        "{new}\n<<<<<<< SEARCH\n{}=======\n{}>>>>>>> REPLACE\n\n",
                        side(hunk, '-'),
                        side(hunk, '+')
                    );
                }
            }
            _ => {}
        }
    }
    blocks
}

fn changes(files: &[FileDiff], after: &Path) -> Value {
    let mut list = Vec::new();
    for file in files {
        match (&file.old, &file.new) {
            (None, Some(new)) => list.push(json!({
                "op": "write", "path": new,
                "content": std::fs::read_to_string(after.join(new)).unwrap(),
            })),
            (Some(old), None) => list.push(json!({"op": "delete", "path": old})),
            (Some(old), Some(new)) => {
                if old != new {
                    list.push(json!({"op": "move", "from": old, "to": new}));
                }
                for hunk in &file.hunks {
                    list.push(json!({
                        "op": "edit", "path": new,
                        "oldText": side(hunk, '-'), "newText": side(hunk, '+'),
                    }));
                }
            }
            (None, None) => unreachable!(),
        }
    }
    Value::Array(list)
}

/// Every file and directory of `dir` but git's and stitch's own, by path.
fn files_of(dir: &Path) -> BTreeMap<std::path::PathBuf, Vec<u8>> {
    crate::support::tree(dir)
        .into_iter()
        .filter(|(path, _)| !path.starts_with(".git") && !path.starts_with(".stitch"))
        .collect()
}

/// A history of three commits over a small source tree: edits far apart in one file and
/// near each other in another, a file added, one deleted, one renamed and changed, one
/// moved into a new directory.
fn history(repo: &Path) -> Vec<String> {
    let numbered = |name: &str, n: usize| -> String {
        (1..=n).fold(String::new(), |mut out, i| {
            let _ = writeln!(out, "{name} line {i}");
            out
        })
    };
    let write = |rel: &str, text: &str| {
        let path = repo.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    git(repo, &["init", "-q"]);
    write("src/lib.rs", &numbered("lib", 80));
    write("src/parse.rs", &numbered("parse", 30));
    write("README.md", "# demo\n\nA demo.\n");
    write("util/helpers.rs", &numbered("helpers", 25));
    write("old.txt", "to be removed\n");
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-qm", "base"]);
    let base = git(repo, &["rev-parse", "HEAD"]);

    let lib = numbered("lib", 80)
        .replace("lib line 3\n", "lib line three\n")
        .replace("lib line 70\n", "lib line 70\nlib line 70.5\n");
    write("src/lib.rs", &lib);
    write(
        "src/parse.rs",
        &numbered("parse", 30).replace("parse line 10\n", "parse line ten\nparse line ten bis\n"),
    );
    write("src/new_module.rs", "pub fn added() {}\n");
    std::fs::remove_file(repo.join("old.txt")).unwrap();
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-qm", "edits, an add and a delete"]);

    std::fs::create_dir_all(repo.join("src/util")).unwrap();
    git(repo, &["mv", "util/helpers.rs", "src/util/helpers.rs"]);
    write(
        "src/util/helpers.rs",
        &numbered("helpers", 25).replace("helpers line 20\n", "helpers line twenty\n"),
    );
    write("README.md", "# demo\n\nA demo, now with helpers.\n");
    git(repo, &["add", "-A"]);
    git(
        repo,
        &["commit", "-qm", "a rename with a change, and a doc"],
    );
    let mut commits = vec![base.trim().to_owned()];
    commits.extend(
        git(repo, &["rev-list", "--reverse", "HEAD"])
            .lines()
            .skip(1)
            .map(str::to_owned),
    );
    commits
}

#[test]
fn real_commits_replayed_through_every_dialect_give_the_trees_git_made() {
    let repo = tempfile::tempdir().unwrap();
    let commits = history(repo.path());
    let checkout = |rev: &str| {
        git(repo.path(), &["checkout", "-q", rev]);
        files_of(repo.path())
    };
    let mut replayed = 0;
    for pair in commits.windows(2) {
        let diff = git(repo.path(), &["diff", "-M", &pair[0], &pair[1]]);
        let files = parse(&diff);
        let after = checkout(&pair[1]);
        let after_dir = tempfile::tempdir().unwrap();
        for (rel, bytes) in after
            .iter()
            .filter(|(rel, _)| !repo.path().join(rel).is_dir())
        {
            let path = after_dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        }
        let before = checkout(&pair[0]);
        let before_files: Vec<_> = before
            .iter()
            .filter(|(rel, _)| !repo.path().join(rel).is_dir())
            .collect();
        let fresh = || {
            let ws = TestWorkspace::new();
            for (rel, bytes) in &before_files {
                ws.file(rel.to_str().unwrap(), std::str::from_utf8(bytes).unwrap());
            }
            ws
        };
        let dialects = [
            ("unified", json!({"patch": diff})),
            ("codex", json!({"patch": codex(&files, after_dir.path())})),
            (
                "changes",
                json!({"changes": changes(&files, after_dir.path())}),
            ),
        ];
        for (dialect, arguments) in dialects {
            let ws = fresh();
            let run = ws.stitch("apply", &arguments);
            assert_eq!(run.ok()["dialect"], dialect, "{}", run.stdout);
            assert_eq!(files_of(&ws.root()), after, "{dialect} of {}", pair[1]);
            // One undo takes the whole commit back.
            ws.run(&["undo"]).ok();
            assert_eq!(files_of(&ws.root()), before, "undo of {dialect}");
            replayed += 1;
        }
        // SEARCH/REPLACE blocks carry the adds and in-place edits; the rest of the commit
        // is not theirs to say, so the tree is compared on those files.
        let blocks = search_replace(&files, after_dir.path());
        let ws = fresh();
        ws.stitch("apply", &json!({"patch": blocks})).ok();
        for file in files.iter().filter(|f| f.old.is_none() || f.old == f.new) {
            let rel = file.new.as_deref().unwrap();
            assert_eq!(ws.read(rel), after[Path::new(rel)], "search-replace: {rel}");
        }
        replayed += 1;
    }
    assert_eq!(replayed, 8, "two commits through four dialects");
}
