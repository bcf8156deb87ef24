//! The table's rows for apply_patch: every dialect's refusals (Codex, unified,
//! SEARCH/REPLACE, the changes list), each with its call and how an obedient model follows
//! its hint.

use serde_json::{json, Value};

use super::cases::{only, read_then_retry, with, Case, BASE};

const CODEX_ANCHOR: &str = "*** Begin Patch\n*** Update File: a.rs\n@@ fn mian() {\n     let x = 1;\n-    println!(\"{}\", x);\n+    println!(\"x={}\", x);\n*** End Patch";
const A_RS: &str = "fn main() {\n    let x = 1;\n    println!(\"{}\", x);\n}\n";

pub const APPLY_CASES: &[Case] = &[
    Case {
        name: "apply: a change that breaks one file's syntax",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("a.py", "def f():\n    return 1\n");
        },
        flags: Some(&["--patch", "*** Begin Patch\n*** Update File: a.py\n@@\n-    return 1\n+    return (1\n*** End Patch\n"]),
        args: || json!({"patch": "*** Begin Patch\n*** Update File: a.py\n@@\n-    return 1\n+    return (1\n*** End Patch\n"}),
        code: "SYNTAX_ERROR",
        follow: Some(|e, a| {
            assert_eq!(e["details"]["changeIndex"], 0, "{e}");
            only(with(a, "patch", json!("*** Begin Patch\n*** Update File: a.py\n@@\n-    return 1\n+    return (1)\n*** End Patch\n")))
        }),
        ..BASE
    },
    Case {
        name: "apply (Codex): a misremembered @@ line",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("a.rs", A_RS);
        },
        flags: Some(&["--patch", CODEX_ANCHOR]),
        args: || json!({"patch": CODEX_ANCHOR}),
        code: "NO_MATCH",
        follow: Some(|e, a| {
            let nearest = e["details"]["nearestAnchor"]["text"].as_str().unwrap();
            let patch = a["patch"].as_str().unwrap().replace("@@ fn mian() {", &format!("@@ {nearest}"));
            only(with(a, "patch", json!(patch)))
        }),
        ..BASE
    },
    Case {
        name: "apply (Codex): an added file that exists",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("a.txt", "old\n");
        },
        flags: Some(&["--patch", "*** Begin Patch\n*** Add File: a.txt\n+new\n*** End Patch"]),
        args: || json!({"patch": "*** Begin Patch\n*** Add File: a.txt\n+new\n*** End Patch"}),
        code: "ALREADY_EXISTS",
        follow: Some(|_, _| {
            only(json!({"changes": [{"op": "write", "path": "a.txt", "content": "new\n", "overwrite": true}]}))
        }),
        ..BASE
    },
    Case {
        name: "apply (unified): a hunk with no body",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("a.rs", A_RS);
        },
        flags: Some(&["--patch", "--- a/a.rs\n+++ b/a.rs\n@@ -1,9 +1,9 @@\n"]),
        args: || json!({"patch": "--- a/a.rs\n+++ b/a.rs\n@@ -1,9 +1,9 @@\n"}),
        code: "INVALID_PATCH",
        // Line 3 is the header, with nothing under it (miscounted bodies are recounted).
        follow: Some(|e, a| {
            assert_eq!(e["details"]["patchLine"], 3, "{e}");
            let patch = format!(
                "{} fn main() {{\n-    let x = 1;\n+    let x = 2;\n",
                a["patch"].as_str().unwrap()
            );
            only(with(a, "patch", json!(patch)))
        }),
        ..BASE
    },
    Case {
        name: "apply (unified): a hunk already applied",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("a.rs", A_RS);
        },
        flags: Some(&["--patch", "--- a/a.rs\n+++ b/a.rs\n@@ -2 +2 @@\n-    let x = 0;\n+    let x = 1;\n"]),
        args: || json!({"patch": "--- a/a.rs\n+++ b/a.rs\n@@ -2 +2 @@\n-    let x = 0;\n+    let x = 1;\n"}),
        code: "NO_MATCH",
        follow: Some(|_, a| only(with(a, "okIfApplied", json!(true)))),
        ..BASE
    },
    Case {
        name: "apply (SEARCH/REPLACE): a block not in the file",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("a.rs", A_RS);
        },
        flags: Some(&["--patch", "a.rs\n<<<<<<< SEARCH\n    let x = 7;\n=======\n    let x = 2;\n>>>>>>> REPLACE\n"]),
        args: || json!({"patch": "a.rs\n<<<<<<< SEARCH\n    let x = 7;\n=======\n    let x = 2;\n>>>>>>> REPLACE\n"}),
        code: "NO_MATCH",
        ..BASE
    },
    Case {
        name: "apply (changes): okIfApplied on a change applied in part",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("a.rs", A_RS);
        },
        args: || {
            json!({"okIfApplied": true, "changes": [
                {"op": "edit", "path": "a.rs", "oldText": "let x = 0;", "newText": "let x = 1;"},
                {"op": "edit", "path": "a.rs", "oldText": "println!(\"{}\", x);", "newText": "println!(\"x={}\", x);"}]})
        },
        code: "NO_MATCH",
        follow: Some(|e, a| {
            let applied: Vec<u64> = e["details"]["appliedChanges"].as_array().unwrap().iter().filter_map(Value::as_u64).collect();
            let kept: Vec<Value> = a["changes"].as_array().unwrap().iter().enumerate()
                .filter(|(i, _)| !applied.contains(&(*i as u64))).map(|(_, c)| c.clone()).collect();
            only(with(a, "changes", json!(kept)))
        }),
        ..BASE
    },
    Case {
        name: "apply (changes): a write onto a file that exists",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("a.txt", "old\n");
        },
        args: || json!({"changes": [{"op": "write", "path": "a.txt", "content": "new\n"}]}),
        code: "ALREADY_EXISTS",
        follow: Some(|_, a| {
            let mut a = a.clone();
            a["changes"][0]["overwrite"] = json!(true);
            only(a)
        }),
        ..BASE
    },
    Case {
        name: "apply: two files, neither read in the session",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("a.txt", "a\n").file("b.txt", "b\n");
        },
        flags: Some(&["--patch", "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch"]),
        args: || json!({"patch": "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch"}),
        session: true,
        code: "NOT_OBSERVED",
        follow: Some(read_then_retry),
        ..BASE
    },
    Case {
        name: "apply (unified): a hunk not in the file",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("a.rs", A_RS);
        },
        flags: Some(&["--patch", "--- a/a.rs\n+++ b/a.rs\n@@ -1,2 +1,2 @@\n fn main() {\n-    let x = 7;\n+    let x = 2;\n"]),
        args: || json!({"patch": "--- a/a.rs\n+++ b/a.rs\n@@ -1,2 +1,2 @@\n fn main() {\n-    let x = 7;\n+    let x = 2;\n"}),
        code: "NO_MATCH",
        ..BASE
    },
    Case {
        name: "apply (Codex): a chunk that matches twice",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("a.txt", "x\nx\n");
        },
        flags: Some(&["--patch", "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch"]),
        args: || json!({"patch": "*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch"}),
        code: "AMBIGUOUS_MATCH",
        ..BASE
    },
    Case {
        name: "apply (Codex): okIfApplied on a patch applied in part",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("a.txt", "A\n").file("b.txt", "b\n");
        },
        flags: Some(&["--ok-if-applied", "--patch", "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch"]),
        args: || json!({"okIfApplied": true, "patch": "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch"}),
        code: "NO_MATCH",
        follow: Some(|e, a| {
            assert_eq!(e["details"]["changeIndex"], 1, "{e}");
            assert!(!e["_hint"].as_str().unwrap().contains("okIfApplied"), "{e}");
            only(with(a, "patch", json!("*** Begin Patch\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch")))
        }),
        ..BASE
    },
    Case {
        name: "apply: both patch and changes",
        command: "apply",
        tool: "apply_patch",
        args: || json!({"patch": "*** Begin Patch\n*** End Patch", "changes": []}),
        code: "INVALID_ARGUMENT",
        ..BASE
    },
    Case {
        name: "apply (Codex): okIfApplied on a file applied in part",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("a.txt", "A\nb\n");
        },
        flags: Some(&["--ok-if-applied", "--patch", "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n@@\n-b\n+B\n*** End Patch"]),
        args: || json!({"okIfApplied": true, "patch": "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n@@\n-b\n+B\n*** End Patch"}),
        code: "NO_MATCH",
        follow: Some(|e, a| {
            assert_eq!(e["details"]["appliedHunks"]["hunks"], json!([0]), "{e}");
            only(with(a, "patch", json!("*** Begin Patch\n*** Update File: a.txt\n@@\n-b\n+B\n*** End Patch")))
        }),
        ..BASE
    },
    Case {
        name: "apply (Codex): a patch that does not parse",
        command: "apply",
        tool: "apply_patch",
        flags: Some(&["--patch", "*** Begin Patch\n*** Frobnicate File: a.txt\n*** End Patch"]),
        args: || json!({"patch": "*** Begin Patch\n*** Frobnicate File: a.txt\n*** End Patch"}),
        code: "INVALID_PATCH",
        ..BASE
    },
    Case {
        name: "apply (Codex): an update of a file that does not exist",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("notes.md", "a\n");
        },
        flags: Some(&["--patch", "*** Begin Patch\n*** Update File: notse.md\n@@\n-a\n+b\n*** End Patch"]),
        args: || json!({"patch": "*** Begin Patch\n*** Update File: notse.md\n@@\n-a\n+b\n*** End Patch"}),
        code: "NOT_FOUND",
        ..BASE
    },
    Case {
        name: "apply (unified): a file the config keeps read-only",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file(".stitch/config.json", r#"{"readOnly": ["a.txt"]}"#);
            ws.file("a.txt", "a\n");
        },
        flags: Some(&["--patch", "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n"]),
        args: || json!({"patch": "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n"}),
        code: "DENIED",
        ..BASE
    },
    Case {
        name: "apply (Codex): chunks out of the file's order",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("a.txt", "a\nb\n");
        },
        flags: Some(&["--patch", "*** Begin Patch\n*** Update File: a.txt\n@@\n-b\n+B\n@@\n-a\n+A\n*** End Patch"]),
        args: || json!({"patch": "*** Begin Patch\n*** Update File: a.txt\n@@\n-b\n+B\n@@\n-a\n+A\n*** End Patch"}),
        code: "NO_MATCH",
        follow: Some(|e, a| {
            assert_eq!(e["details"]["difference"], "order", "{e}");
            only(with(a, "patch", json!("*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n@@\n-b\n+B\n*** End Patch")))
        }),
        ..BASE
    },
    Case {
        name: "apply (Codex): lines before their anchor",
        command: "apply",
        tool: "apply_patch",
        setup: |ws| {
            ws.file("a.rs", "fn main() {\n    let x = 1;\n}\n\nfn other() {\n}\n");
        },
        flags: Some(&["--patch", "*** Begin Patch\n*** Update File: a.rs\n@@ fn other() {\n-    let x = 1;\n+    let x = 5;\n*** End Patch"]),
        args: || json!({"patch": "*** Begin Patch\n*** Update File: a.rs\n@@ fn other() {\n-    let x = 1;\n+    let x = 5;\n*** End Patch"}),
        code: "NO_MATCH",
        follow: Some(|e, a| {
            let nearest = e["details"]["nearestAnchor"]["text"].as_str().unwrap();
            let patch = a["patch"].as_str().unwrap().replace("@@ fn other() {", &format!("@@ {nearest}"));
            only(with(a, "patch", json!(patch)))
        }),
        ..BASE
    },
];
