//! The table's rows for the tools of whole files and the journal: delete, move, history
//! and undo, each with its call and how an obedient model follows its hint.

use serde_json::json;

use crate::support::TestWorkspace;

use super::cases::{only, read_then_retry, stitch, with, Case, Step, BASE};

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

pub const JOURNAL_CASES: &[Case] = &[
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
        name: "history: a limit of zero",
        command: "history",
        tool: "list_changes",
        flags: Some(&["--limit", "0"]),
        args: || json!({"limit": 0}),
        code: "INVALID_ARGUMENT",
        ..BASE
    },
];
