//! The refusals of this round's reading and inserting, in the hint table's terms: an
//! insert past the end or at a line that moved on, an image over the bytes a read
//! returns, and a read of several files asked for wrongly.

use serde_json::{json, Value};

use super::cases::{only, with, Case, Step, BASE};

/// A PNG's leading bytes and a little more: an image to stitch, whatever its name.
pub const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01";

/// `args` without `key`.
fn without(args: &Value, key: &str) -> Value {
    let mut args = args.clone();
    args.as_object_mut().unwrap().remove(key);
    args
}

pub const READING_CASES: &[Case] = &[
    Case {
        name: "edit: insert past the last line",
        setup: |ws| {
            ws.file("a.txt", "one\ntwo\n");
        },
        flags: Some(&["a.txt", "--insert-after", "9", "--new", "three"]),
        args: || json!({"path": "a.txt", "insertAfter": 9, "newText": "three"}),
        code: "INVALID_ARGUMENT",
        follow: Some(|e, a| only(with(a, "insertAfter", e["details"]["totalLines"].clone()))),
        ..BASE
    },
    Case {
        name: "edit: insert where the line moved on",
        setup: |ws| {
            ws.file("a.txt", "one\ntwo\n");
        },
        flags: Some(&[
            "a.txt",
            "--insert-after",
            "2",
            "--expected-line",
            "deux",
            "--new",
            "three",
        ]),
        args: || json!({"path": "a.txt", "insertAfter": 2, "expectedLine": "deux", "newText": "three"}),
        code: "STALE_VERSION",
        follow: Some(|e, a| Step {
            reads: vec!["a.txt".to_owned()],
            before: Vec::new(),
            args: with(a, "expectedLine", e["details"]["actualLine"].clone()),
        }),
        ..BASE
    },
    Case {
        name: "read: an image over maxBytes",
        command: "read",
        tool: "read_file",
        setup: |ws| {
            ws.file("shot.txt", PNG);
        },
        flags: Some(&["shot.txt", "--max-bytes", "4"]),
        args: || json!({"path": "shot.txt", "maxBytes": 4}),
        code: "TOO_LARGE",
        follow: Some(|e, a| only(with(a, "maxBytes", e["details"]["bytes"].clone()))),
        ..BASE
    },
    Case {
        name: "read_files: paths and a glob at once",
        command: "read",
        tool: "read_files",
        setup: |ws| {
            ws.file("a.txt", "one\n").file("b.txt", "two\n");
        },
        flags: Some(&["a.txt", "b.txt", "--glob", "*.txt"]),
        args: || json!({"paths": ["a.txt", "b.txt"], "glob": "*.txt"}),
        code: "INVALID_ARGUMENT",
        follow: Some(|_, a| only(without(a, "glob"))),
        ..BASE
    },
    Case {
        name: "read_files: a total bound of nothing",
        command: "read",
        tool: "read_files",
        setup: |ws| {
            ws.file("a.txt", "one\n").file("b.txt", "two\n");
        },
        flags: Some(&["a.txt", "b.txt", "--max-total-bytes", "0"]),
        args: || json!({"paths": ["a.txt", "b.txt"], "maxTotalBytes": 0}),
        code: "INVALID_ARGUMENT",
        follow: Some(|e, a| only(with(a, "maxTotalBytes", e["details"]["cap"].clone()))),
        ..BASE
    },
];
