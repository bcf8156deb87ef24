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
    /// Global options before the command (`--lock-timeout 0.2`), in every dialect.
    pub global: &'static [&'static str],
    pub code: &'static str,
    /// The hint, done to the letter; `None` where it asks a person or a rewrite.
    pub follow: Option<fn(&Value, &Value) -> Step>,
    /// Whether the call the hint describes succeeds.
    pub follow_succeeds: bool,
}

pub const BASE: Case = Case {
    name: "",
    command: "edit",
    tool: "edit_file",
    setup: |_| {},
    flags: None,
    args: || json!({}),
    session: false,
    global: &[],
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
pub(super) fn read_then_retry(envelope: &Value, args: &Value) -> Step {
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
pub(super) fn stitch(ws: &TestWorkspace, args: &[&str]) {
    ws.run(args).ok();
}

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
        name: "edit: tabs remembered as spaces",
        setup: |ws| {
            ws.file("Makefile", "build:\n\tcargo build\n");
        },
        flags: Some(&[
            "Makefile",
            "--old",
            "build:\n    cargo build\n",
            "--new",
            "build:\n    cargo build --release\n",
        ]),
        args: || json!({"path": "Makefile", "oldText": "build:\n    cargo build\n", "newText": "build:\n    cargo build --release\n"}),
        code: "NO_MATCH",
        follow: Some(|e, a| {
            let c = &e["details"]["candidates"][0];
            only(with(
                &with(a, "oldText", c["text"].clone()),
                "newText",
                c["newText"].clone(),
            ))
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
        name: "edit: the count differs",
        setup: |ws| {
            ws.file("a.txt", "x\nx\n");
        },
        flags: Some(&[
            "a.txt",
            "--old",
            "x",
            "--new",
            "y",
            "--expected-replacements",
            "3",
        ]),
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
        name: "edit: okIfApplied on an edit that is not applied",
        setup: |ws| {
            ws.file("a.txt", "version = 3\n");
        },
        flags: Some(&[
            "a.txt",
            "--old",
            "version = 1",
            "--new",
            "version = 2",
            "--ok-if-applied",
        ]),
        args: || json!({"path": "a.txt", "oldText": "version = 1", "newText": "version = 2", "okIfApplied": true}),
        code: "NO_MATCH",
        follow: Some(|e, a| {
            assert!(!e["_hint"].as_str().unwrap().contains("okIfApplied"), "{e}");
            // Both written again from the file's line: its text, and the change meant.
            let c = &e["details"]["candidates"][0];
            only(with(
                &with(a, "oldText", c["text"].clone()),
                "newText",
                json!("version = 4"),
            ))
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
];
