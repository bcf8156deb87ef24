//! The table of refusals: one row per refusal a tool gives, with the files it needs, its
//! call by flags (where flags can say it) and by JSON, and how an obedient model follows
//! its hint. Add a row to cover another refusal; both tests take every row.

use serde_json::{json, Value};

use crate::support::TestWorkspace;

/// The session of the rows that need one.
pub const SESSION: &str = "s1";

/// What following a hint does: the files it reads first, the calls of the same tool it
/// makes first (the later changes an undo names), then the call it makes.
pub struct Step {
    pub reads: Vec<String>,
    pub before: Vec<Value>,
    pub args: Value,
}

/// One refusal of one tool.
#[derive(Clone, Copy)]
pub struct Case {
    pub name: &'static str,
    /// The command (`stitch edit`) and the tool's wire name (`edit_file`).
    pub command: &'static str,
    pub tool: &'static str,
    pub setup: fn(&TestWorkspace),
    /// The call by flags, after the command; `None` where only JSON can say it.
    pub flags: Option<&'static [&'static str]>,
    pub args: fn() -> Value,
    pub session: bool,
    pub code: &'static str,
    /// The hint, done to the letter; `None` where it asks a person or a rewrite.
    pub follow: Option<fn(&Value, &Value) -> Step>,
    /// Whether the call the hint describes succeeds.
    pub follow_succeeds: bool,
}

pub(super) const BASE: Case = Case {
    name: "",
    command: "edit",
    tool: "edit_file",
    setup: |_| {},
    flags: None,
    args: || json!({}),
    session: false,
    code: "",
    follow: None,
    follow_succeeds: true,
};

pub(super) fn with(args: &Value, key: &str, value: Value) -> Value {
    let mut args = args.clone();
    args[key] = value;
    args
}

pub(super) fn only(args: Value) -> Step {
    Step {
        reads: Vec::new(),
        before: Vec::new(),
        args,
    }
}

/// The hint of a `NOT_OBSERVED`: read every file it names, then call again.
fn read_then_retry(envelope: &Value, args: &Value) -> Step {
    let details = &envelope["details"];
    let reads = match details["paths"].as_array() {
        Some(paths) => paths
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        None => vec![details["path"].as_str().unwrap().to_owned()],
    };
    Step {
        reads,
        before: Vec::new(),
        args: args.clone(),
    }
}

/// Runs `stitch` with `args` in the workspace, as a setup step; it must succeed.
fn stitch(ws: &TestWorkspace, args: &[&str]) {
    ws.run(args).ok();
}

/// `a.txt` edited by session s1, then the same line by session s2.
fn edited_by_two_sessions(ws: &TestWorkspace) {
    ws.file("a.txt", "one\n");
    stitch(ws, &["--session", "s1", "read", "a.txt"]);
    stitch(
        ws,
        &[
            "--session",
            "s1",
            "edit",
            "a.txt",
            "--old",
            "one",
            "--new",
            "two",
        ],
    );
    stitch(ws, &["--session", "s2", "read", "a.txt"]);
    stitch(
        ws,
        &[
            "--session",
            "s2",
            "edit",
            "a.txt",
            "--old",
            "two",
            "--new",
            "three",
        ],
    );
}

const CODEX_ANCHOR: &str = "*** Begin Patch\n*** Update File: a.rs\n@@ fn mian() {\n     let x = 1;\n-    println!(\"{}\", x);\n+    println!(\"x={}\", x);\n*** End Patch";
const A_RS: &str = "fn main() {\n    let x = 1;\n    println!(\"{}\", x);\n}\n";

pub const CASES: &[Case] = &[
    Case {
        name: "edit: a change that breaks the file's syntax",
        setup: |ws| {
            ws.file("a.py", "def f():\n    return 1\n");
        },
        flags: Some(&["a.py", "--old", "    return 1", "--new", "    return (1"]),
        args: || json!({"path": "a.py", "oldText": "    return 1", "newText": "    return (1"}),
        code: "SYNTAX_ERROR",
        // Fix newText at the line named, as the hint says.
        follow: Some(|e, a| {
            assert_eq!(e["details"]["line"], 2, "{e}");
            only(with(a, "newText", json!("    return (1)")))
        }),
        ..BASE
    },
    Case {
        name: "write: content that does not parse",
        command: "write",
        tool: "write_file",
        flags: Some(&["a.json", "--content", "{\"a\": [1}"]),
        args: || json!({"path": "a.json", "content": "{\"a\": [1}"}),
        code: "SYNTAX_ERROR",
        follow: Some(|_, a| only(with(a, "allowSyntaxErrors", json!(true)))),
        ..BASE
    },
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
        name: "edit: tabs remembered as spaces",
        setup: |ws| {
            ws.file("Makefile", "build:\n\tcargo build\n");
        },
        flags: Some(&["Makefile", "--old", "build:\n    cargo build\n", "--new", "build:\n    cargo build --release\n"]),
        args: || json!({"path": "Makefile", "oldText": "build:\n    cargo build\n", "newText": "build:\n    cargo build --release\n"}),
        code: "NO_MATCH",
        follow: Some(|e, a| {
            let c = &e["details"]["candidates"][0];
            only(with(&with(a, "oldText", c["text"].clone()), "newText", c["newText"].clone()))
        }),
        ..BASE
    },
    Case {
        name: "edit: ambiguous",
        setup: |ws| {
            ws.file("a.txt", "x\nx\n");
        },
        flags: Some(&["a.txt", "--old", "x", "--new", "y"]),
        args: || json!({"path": "a.txt", "oldText": "x", "newText": "y"}),
        code: "AMBIGUOUS_MATCH",
        follow: Some(|_, a| only(with(a, "replaceAll", json!(true)))),
        ..BASE
    },
    Case {
        name: "edit: a misspelt path",
        setup: |ws| {
            ws.file("src/main.rs", "fn main() {}\n");
        },
        flags: Some(&["scr/main.rs", "--old", "main", "--new", "start"]),
        args: || json!({"path": "scr/main.rs", "oldText": "main", "newText": "start"}),
        code: "NOT_FOUND",
        follow: Some(|e, a| only(with(a, "path", e["details"]["nearNames"][0].clone()))),
        ..BASE
    },
    Case {
        name: "edit: not read in the session",
        setup: |ws| {
            ws.file("a.txt", "one\n");
        },
        flags: Some(&["a.txt", "--old", "one", "--new", "two"]),
        args: || json!({"path": "a.txt", "oldText": "one", "newText": "two"}),
        session: true,
        code: "NOT_OBSERVED",
        follow: Some(read_then_retry),
        ..BASE
    },
    Case {
        name: "write: onto a file that exists",
        command: "write",
        tool: "write_file",
        setup: |ws| {
            ws.file("a.txt", "old\n");
        },
        flags: Some(&["a.txt", "--content", "new\n"]),
        args: || json!({"path": "a.txt", "content": "new\n"}),
        code: "ALREADY_EXISTS",
        follow: Some(|_, a| only(with(a, "overwrite", json!(true)))),
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
        name: "move: neither end read in the session",
        command: "move",
        tool: "move_file",
        setup: |ws| {
            ws.file("a.txt", "a\n").file("b.txt", "b\n");
        },
        flags: Some(&["a.txt", "b.txt", "--overwrite"]),
        args: || json!({"from": "a.txt", "to": "b.txt", "overwrite": true}),
        session: true,
        code: "NOT_OBSERVED",
        follow: Some(read_then_retry),
        ..BASE
    },
    Case {
        name: "delete: a misspelt path",
        command: "delete",
        tool: "delete_file",
        setup: |ws| {
            ws.file("notes.md", "n\n");
        },
        flags: Some(&["notse.md"]),
        args: || json!({"path": "notse.md"}),
        code: "NOT_FOUND",
        follow: Some(|e, a| only(with(a, "path", e["details"]["nearNames"][0].clone()))),
        ..BASE
    },
    Case {
        name: "undo: nothing to undo",
        command: "undo",
        tool: "undo_change",
        flags: Some(&["00000000000000000001"]),
        args: || json!({"id": "00000000000000000001"}),
        code: "NOT_FOUND",
        ..BASE
    },
    Case {
        name: "history: a limit past its cap",
        command: "history",
        tool: "list_changes",
        flags: Some(&["--limit", "99999999"]),
        args: || json!({"limit": 99_999_999}),
        code: "INVALID_ARGUMENT",
        ..BASE
    },
    Case {
        name: "read: a misspelt path",
        command: "read",
        tool: "read_file",
        setup: |ws| {
            ws.file("README.md", "r\n");
        },
        flags: Some(&["READEM.md"]),
        args: || json!({"path": "READEM.md"}),
        code: "NOT_FOUND",
        follow: Some(|e, a| only(with(a, "path", e["details"]["nearNames"][0].clone()))),
        ..BASE
    },
    Case {
        name: "list: a file",
        command: "list",
        tool: "list_directory",
        setup: |ws| {
            ws.file("a.txt", "a\n");
        },
        flags: Some(&["a.txt"]),
        args: || json!({"path": "a.txt"}),
        code: "NOT_A_DIRECTORY",
        ..BASE
    },
    Case {
        name: "glob: a pattern that does not compile",
        command: "glob",
        tool: "glob",
        flags: Some(&["a[b"]),
        args: || json!({"pattern": "a[b"}),
        code: "INVALID_PATTERN",
        ..BASE
    },
    Case {
        name: "search: a regex with look-around",
        command: "search",
        tool: "search_files",
        flags: Some(&["(?=x)", "--regex"]),
        args: || json!({"query": "(?=x)", "regex": true}),
        code: "INVALID_PATTERN",
        ..BASE
    },
    Case {
        name: "undo: a later change of another session overlaps",
        command: "undo",
        tool: "undo_change",
        setup: edited_by_two_sessions,
        flags: Some(&[]),
        args: || json!({}),
        session: true,
        code: "STALE_VERSION",
        follow: Some(|e, a| {
            let later = e["details"]["paths"][0]["changedBy"].as_array().unwrap();
            Step {
                reads: Vec::new(),
                before: later.iter().map(|id| json!({"id": id})).collect(),
                args: a.clone(),
            }
        }),
        ..BASE
    },
    Case {
        name: "undo: the file was changed outside stitch",
        command: "undo",
        tool: "undo_change",
        setup: |ws| {
            ws.file("a.txt", "one\n");
            stitch(ws, &["edit", "a.txt", "--old", "one", "--new", "two"]);
            ws.file("a.txt", "three\n");
        },
        flags: Some(&[]),
        args: || json!({}),
        code: "STALE_VERSION",
        ..BASE
    },
    Case {
        name: "edit: the count differs",
        setup: |ws| {
            ws.file("a.txt", "x\nx\n");
        },
        flags: Some(&["a.txt", "--old", "x", "--new", "y", "--expected-replacements", "3"]),
        args: || json!({"path": "a.txt", "oldText": "x", "newText": "y", "expectedReplacements": 3}),
        code: "MATCH_COUNT_MISMATCH",
        ..BASE
    },
    Case {
        name: "edit: already applied",
        setup: |ws| {
            ws.file("a.txt", "version = 2\n");
        },
        flags: Some(&["a.txt", "--old", "version = 1", "--new", "version = 2"]),
        args: || json!({"path": "a.txt", "oldText": "version = 1", "newText": "version = 2"}),
        code: "NO_MATCH",
        follow: Some(|_, a| only(with(a, "okIfApplied", json!(true)))),
        ..BASE
    },
    Case {
        name: "edit: changed since the session read it",
        setup: |ws| {
            ws.file("a.txt", "one\n");
            stitch(ws, &["--session", SESSION, "read", "a.txt"]);
            ws.file("a.txt", "uno\n");
        },
        flags: Some(&["a.txt", "--old", "uno", "--new", "two"]),
        args: || json!({"path": "a.txt", "oldText": "uno", "newText": "two"}),
        session: true,
        code: "STALE_VERSION",
        follow: Some(read_then_retry),
        ..BASE
    },
    Case {
        name: "write: a parent that is a file",
        command: "write",
        tool: "write_file",
        setup: |ws| {
            ws.file("a", "a\n");
        },
        flags: Some(&["a/b.txt", "--content", "b\n"]),
        args: || json!({"path": "a/b.txt", "content": "b\n"}),
        code: "NOT_A_DIRECTORY",
        ..BASE
    },
    Case {
        name: "delete: not read in the session",
        command: "delete",
        tool: "delete_file",
        setup: |ws| {
            ws.file("a.txt", "a\n");
        },
        flags: Some(&["a.txt"]),
        args: || json!({"path": "a.txt"}),
        session: true,
        code: "NOT_OBSERVED",
        follow: Some(read_then_retry),
        ..BASE
    },
    Case {
        name: "move: onto a file that exists",
        command: "move",
        tool: "move_file",
        setup: |ws| {
            ws.file("a.txt", "a\n").file("b.txt", "b\n");
        },
        flags: Some(&["a.txt", "b.txt"]),
        args: || json!({"from": "a.txt", "to": "b.txt"}),
        code: "ALREADY_EXISTS",
        follow: Some(|_, a| only(with(a, "overwrite", json!(true)))),
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
        name: "read: a directory",
        command: "read",
        tool: "read_file",
        setup: |ws| {
            ws.dir("src");
        },
        flags: Some(&["src"]),
        args: || json!({"path": "src"}),
        code: "NOT_A_FILE",
        ..BASE
    },
    Case {
        name: "search: a context out of range",
        command: "search",
        tool: "search_files",
        flags: Some(&["x", "--context", "11"]),
        args: || json!({"query": "x", "context": 11}),
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
        name: "edit: okIfApplied on an edit that is not applied",
        setup: |ws| {
            ws.file("a.txt", "version = 3\n");
        },
        flags: Some(&["a.txt", "--old", "version = 1", "--new", "version = 2", "--ok-if-applied"]),
        args: || json!({"path": "a.txt", "oldText": "version = 1", "newText": "version = 2", "okIfApplied": true}),
        code: "NO_MATCH",
        follow: Some(|e, a| {
            assert!(!e["_hint"].as_str().unwrap().contains("okIfApplied"), "{e}");
            // Both written again from the file's line: its text, and the change meant.
            let c = &e["details"]["candidates"][0];
            only(with(&with(a, "oldText", c["text"].clone()), "newText", json!("version = 4")))
        }),
        ..BASE
    },
    Case {
        name: "edit: a path out of the workspace",
        flags: Some(&["../x.txt", "--old", "a", "--new", "b"]),
        args: || json!({"path": "../x.txt", "oldText": "a", "newText": "b"}),
        code: "OUTSIDE_ROOT",
        ..BASE
    },
    Case {
        name: "edit: an empty oldText",
        setup: |ws| {
            ws.file("a.txt", "a\n");
        },
        flags: Some(&["a.txt", "--old", "", "--new", "b"]),
        args: || json!({"path": "a.txt", "oldText": "", "newText": "b"}),
        code: "INVALID_ARGUMENT",
        ..BASE
    },
    Case {
        name: "edit: a field the tool does not have",
        setup: |ws| {
            ws.file("a.txt", "a\n");
        },
        args: || json!({"path": "a.txt", "oldText": "a", "newText": "b", "root": "/"}),
        code: "INVALID_ARGUMENT",
        follow: Some(|_, a| {
            let mut a = a.clone();
            a.as_object_mut().unwrap().remove("root");
            only(a)
        }),
        ..BASE
    },
    Case {
        name: "edit: stitch's own state",
        flags: Some(&[".stitch/x", "--old", "a", "--new", "b"]),
        args: || json!({"path": ".stitch/x", "oldText": "a", "newText": "b"}),
        code: "DENIED",
        ..BASE
    },
    Case {
        name: "edit: a file over the workspace's size limit",
        setup: |ws| {
            ws.file(".stitch/config.json", r#"{"limits": {"maxFileBytes": 8}}"#);
            ws.file("big.txt", "0123456789abcdef\n");
        },
        flags: Some(&["big.txt", "--old", "0", "--new", "1"]),
        args: || json!({"path": "big.txt", "oldText": "0", "newText": "1"}),
        code: "TOO_LARGE",
        ..BASE
    },
    Case {
        name: "edit: a malformed config",
        setup: |ws| {
            ws.file(".stitch/config.json", "{");
            ws.file("a.txt", "a\n");
        },
        flags: Some(&["a.txt", "--old", "a", "--new", "b"]),
        args: || json!({"path": "a.txt", "oldText": "a", "newText": "b"}),
        code: "INVALID_CONFIG",
        ..BASE
    },
    Case {
        name: "write: a backslash in the path",
        command: "write",
        tool: "write_file",
        flags: Some(&["a\\b.txt", "--content", "b\n"]),
        args: || json!({"path": "a\\b.txt", "content": "b\n"}),
        code: "INVALID_PATH",
        follow: Some(|e, a| only(with(a, "path", e["details"]["suggestion"].clone()))),
        ..BASE
    },
    Case {
        name: "write: under .git",
        command: "write",
        tool: "write_file",
        setup: |ws| {
            ws.dir(".git");
        },
        flags: Some(&[".git/config", "--content", "x\n"]),
        args: || json!({"path": ".git/config", "content": "x\n"}),
        code: "DENIED",
        ..BASE
    },
    Case {
        name: "write: a path the workspace's config keeps read-only",
        command: "write",
        tool: "write_file",
        setup: |ws| {
            ws.file(".stitch/config.json", r#"{"readOnly": ["vendor/**"]}"#);
        },
        flags: Some(&["vendor/a.txt", "--content", "x\n"]),
        args: || json!({"path": "vendor/a.txt", "content": "x\n"}),
        code: "DENIED",
        ..BASE
    },
    Case {
        name: "read: not text",
        command: "read",
        tool: "read_file",
        setup: |ws| {
            ws.file("a.bin", b"\x00\x01\x02\xff");
        },
        flags: Some(&["a.bin"]),
        args: || json!({"path": "a.bin"}),
        code: "NOT_TEXT",
        ..BASE
    },
    Case {
        name: "read: an offset past the end",
        command: "read",
        tool: "read_file",
        setup: |ws| {
            ws.file("a.txt", "one\n");
        },
        flags: Some(&["a.txt", "--offset", "5"]),
        args: || json!({"path": "a.txt", "offset": 5}),
        code: "INVALID_ARGUMENT",
        ..BASE
    },
    Case {
        name: "delete: a directory",
        command: "delete",
        tool: "delete_file",
        setup: |ws| {
            ws.dir("src");
        },
        flags: Some(&["src"]),
        args: || json!({"path": "src"}),
        code: "NOT_A_FILE",
        ..BASE
    },
    Case {
        name: "move: a source that does not exist",
        command: "move",
        tool: "move_file",
        setup: |ws| {
            ws.file("notes.md", "n\n");
        },
        flags: Some(&["notse.md", "b.md"]),
        args: || json!({"from": "notse.md", "to": "b.md"}),
        code: "NOT_FOUND",
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
        name: "list: a directory that does not exist",
        command: "list",
        tool: "list_directory",
        setup: |ws| {
            ws.dir("src");
        },
        flags: Some(&["scr"]),
        args: || json!({"path": "scr"}),
        code: "NOT_FOUND",
        follow: Some(|e, a| only(with(a, "path", e["details"]["nearNames"][0].clone()))),
        ..BASE
    },
    Case {
        name: "glob: a directory out of the workspace",
        command: "glob",
        tool: "glob",
        flags: Some(&["*.rs", "--path", ".."]),
        args: || json!({"pattern": "*.rs", "path": ".."}),
        code: "OUTSIDE_ROOT",
        ..BASE
    },
    Case {
        name: "search: a directory that does not exist",
        command: "search",
        tool: "search_files",
        setup: |ws| {
            ws.dir("src");
        },
        flags: Some(&["x", "--path", "scr"]),
        args: || json!({"query": "x", "path": "scr"}),
        code: "NOT_FOUND",
        ..BASE
    },
    Case {
        name: "history: a limit of zero",
        command: "history",
        tool: "list_changes",
        flags: Some(&["--limit", "0"]),
        args: || json!({"limit": 0}),
        code: "INVALID_ARGUMENT",
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
