//! The unified diff parser's cases: git's and `diff -u`'s headers, miscounted hunks,
//! modes, deletions and binary files.

use super::super::{parse, FileChange, Format};

#[test]
fn reads_git_diff_with_new_deleted_and_renamed_files() {
    let text = "diff --git a/src/a.rs b/src/a.rs\nindex 1..2 100644\n--- a/src/a.rs\n+++ b/src/a.rs\n\
@@ -1,3 +1,3 @@\n fn a() {\n-    old();\n+    new();\n }\n\
diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n\\ No newline at end of file\n\
diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n\
diff --git a/x.txt b/y.txt\nsimilarity index 100%\nrename from x.txt\nrename to y.txt\n";
    let patch = parse(text).unwrap();
    assert_eq!(patch.dialect, Format::Unified);
    let FileChange::Update {
        path,
        hunks,
        move_to,
        ..
    } = &patch.changes[0]
    else {
        panic!("{patch:?}")
    };
    assert_eq!((path.as_str(), move_to), ("src/a.rs", &None));
    assert_eq!(hunks[0].old, ["fn a() {", "    old();", "}"]);
    assert_eq!(hunks[0].old_start, Some(1));
    assert_eq!(
        patch.changes[1],
        FileChange::Add {
            path: "new.txt".into(),
            content: "one\ntwo".into(),
            executable: Some(false)
        }
    );
    let FileChange::Delete { path, whole } = &patch.changes[2] else {
        panic!("{patch:?}")
    };
    let whole = whole.as_ref().expect("the deletion's hunk");
    assert_eq!(
        (
            path.as_str(),
            whole.old.as_slice(),
            whole.new.len(),
            whole.at_end
        ),
        ("gone.txt", &["bye".to_owned()][..], 0, false)
    );
    let FileChange::Update {
        path,
        move_to,
        hunks,
        ..
    } = &patch.changes[3]
    else {
        panic!()
    };
    assert_eq!(
        (path.as_str(), move_to.as_deref(), hunks.len()),
        ("x.txt", Some("y.txt"), 0)
    );
}

#[test]
fn diff_u_without_prefixes_and_with_timestamps() {
    let text =
        "--- a.txt\t2026-01-01 00:00:00\n+++ a.txt\t2026-01-02 00:00:00\n@@ -2 +2 @@\n-b\n+B\n";
    let patch = parse(text).unwrap();
    let FileChange::Update { path, hunks, .. } = &patch.changes[0] else {
        panic!()
    };
    assert_eq!(path, "a.txt");
    assert_eq!(hunks[0].old_start, Some(2));
}

#[test]
fn miscounted_hunks_are_read_by_their_body_and_binary_patches_refused() {
    for header in [
        "@@ -1,2 +1,2 @@",
        "@@ -1 +1,4 @@",
        "@@ -1,0 +1,0 @@",
        "@@ -1,4 +1,4 @@",
    ] {
        let text = format!("--- a/a\n+++ b/a\n{header}\n-x\n+y\n");
        let patch = parse(&text).unwrap();
        let FileChange::Update { hunks, .. } = &patch.changes[0] else {
            panic!()
        };
        assert_eq!(
            (hunks[0].old.clone(), hunks[0].new.clone()),
            (vec!["x".to_owned()], vec!["y".to_owned()]),
            "{header}"
        );
        assert!(hunks[0].recounted, "{header}");
    }
    // Counted right, it is not recounted; a body with nothing in it does not parse.
    let patch = parse("--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\n").unwrap();
    let FileChange::Update { hunks, .. } = &patch.changes[0] else {
        panic!()
    };
    assert!(!hunks[0].recounted);
    let e = parse("--- a/a\n+++ b/a\n@@ -1,2 +1,2 @@\n").unwrap_err();
    assert_eq!(e.line, 3, "{e:?}");
    let e = parse("diff --git a/p.png b/p.png\nGIT binary patch\nliteral 5\n").unwrap_err();
    assert_eq!((e.line, e.dialect), (2, Some(Format::Unified)));
    let e = parse(
        "diff --git a/p.png b/p.png\nindex 1..2 100644\nBinary files a/p.png and b/p.png differ\n",
    )
    .unwrap_err();
    assert_eq!(e.line, 3);
}

/// `new file mode 100755` and `old mode`/`new mode` give the executable bit; a
/// symbolic link's or a submodule's mode does not parse, on the line that names it.
#[test]
fn modes_set_the_executable_bit_and_links_do_not_parse() {
    let patch = parse("diff --git a/run.sh b/run.sh\nnew file mode 100755\n--- /dev/null\n+++ b/run.sh\n@@ -0,0 +1 @@\n+echo hi\n\
diff --git a/tool b/tool\nold mode 100644\nnew mode 100755\n\
diff --git a/lib.sh b/lib.sh\nold mode 100755\nnew mode 100644\nindex 1..2\n--- a/lib.sh\n+++ b/lib.sh\n@@ -1 +1 @@\n-a\n+b\n").unwrap();
    let executable: Vec<Option<bool>> = patch
        .changes
        .iter()
        .map(|c| match c {
            FileChange::Add { executable, .. } | FileChange::Update { executable, .. } => {
                *executable
            }
            FileChange::Delete { .. } => None,
        })
        .collect();
    assert_eq!(executable, [Some(true), Some(true), Some(false)]);
    for (text, line) in [
        ("diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+target\n\\ No newline at end of file\n", 2),
        ("diff --git a/l b/l\ndeleted file mode 120000\nindex 1..0\n", 2),
        ("diff --git a/l b/l\nindex 1..2 120000\n--- a/l\n+++ b/l\n@@ -1 +1 @@\n-a\n+b\n", 2),
        ("diff --git a/m b/m\nnew file mode 160000\n", 2),
        ("diff --git a/f b/f\nold mode 100644\nnew mode 120000\n", 3),
    ] {
        let e = parse(text).unwrap_err();
        assert_eq!(e.line, line, "{text}");
        assert!(e.expected.starts_with("a regular file's mode"), "{e:?}");
    }
}

/// A deletion's hunk removes the whole file: a `+` or context line in it cannot be
/// applied, and the `@@` line says so; without `\ No newline`, the file ends in one.
#[test]
fn a_deletion_hunk_holds_only_removed_lines() {
    let e = parse("--- a/f\n+++ /dev/null\n@@ -1,2 +1 @@\n a\n-b\n").unwrap_err();
    assert_eq!((e.line, e.found.as_str()), (3, "@@ -1,2 +1 @@"));
    assert!(e.expected.contains("`-` lines only"), "{e:?}");
    let patch =
        parse("--- a/f\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n\\ No newline at end of file\n")
            .unwrap();
    let FileChange::Delete {
        whole: Some(whole), ..
    } = &patch.changes[0]
    else {
        panic!("{patch:?}")
    };
    assert_eq!((whole.old.len(), whole.at_end), (2, true));
}

#[test]
fn a_binary_file_deleted_is_a_delete() {
    let gone = FileChange::Delete {
        path: "p.png".into(),
        whole: None,
    };
    let plain = "diff --git a/p.png b/p.png\ndeleted file mode 100644\nindex 1..0\nBinary files a/p.png and /dev/null differ\n";
    assert_eq!(parse(plain).unwrap().changes, std::slice::from_ref(&gone));
    let literal = "diff --git a/p.png b/p.png\ndeleted file mode 100644\nindex 1..0\nGIT binary patch\nliteral 0\nHcmV?d00001\n\nliteral 5\nMcmZQzWMXCj0000\n\ndiff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\n";
    let patch = parse(literal).unwrap();
    assert_eq!(patch.changes[0], gone);
    assert_eq!(patch.changes.len(), 2);
    let bare = "Binary files a/p.png and /dev/null differ\n";
    assert!(parse(bare).is_err());
}
