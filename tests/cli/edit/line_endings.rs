//! In a file whose newlines are all CRLF, a `newText` with LF and no CR is written with
//! CRLF, whether `oldText` was copied with CRLF or typed with LF, and the result says
//! `lineEndings: "crlf"`; mixed files and LF files are written exactly as asked.

use serde_json::json;

use crate::support::{TestWorkspace, SHA256, STRING};

const CRLF: &str = "[core]\r\n\tname = old\r\n\tmode = fast\r\n[end]\r\n";

#[test]
fn old_text_copied_with_crlf_gets_new_text_in_crlf() {
    let ws = TestWorkspace::new();
    ws.file("c.ini", CRLF);
    let run = ws.stitch(
        "edit",
        &json!({"path": "c.ini", "oldText": "\tname = old\r\n",
                "newText": "\tname = new\n\towner = me\n"}),
    );
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "applied": true,
            "id": STRING,
            "baseSha256": SHA256,
            "bytes": 55,
            "diff": "--- a/c.ini\n+++ b/c.ini\n@@ -1,4 +1,5 @@\n [core]\r\n-\tname = old\r\n+\tname = new\r\n+\towner = me\r\n \tmode = fast\r\n [end]\r\n",
            "lineEndings": "crlf",
            "path": "c.ini",
            "replacements": 1,
            "sha256": SHA256
        }
    }));
    assert_eq!(
        ws.read_string("c.ini"),
        "[core]\r\n\tname = new\r\n\towner = me\r\n\tmode = fast\r\n[end]\r\n"
    );
}

#[test]
fn old_text_typed_with_lf_gets_new_text_in_crlf() {
    let ws = TestWorkspace::new();
    ws.file("c.ini", CRLF);
    let run = ws.run(&[
        "edit",
        "c.ini",
        "--old",
        "\tname = old\n\tmode = fast\n",
        "--new",
        "\tname = old\n\tmode = slow\n",
    ]);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "applied": true,
            "id": STRING,
            "baseSha256": SHA256,
            "bytes": 42,
            "diff": "--- a/c.ini\n+++ b/c.ini\n@@ -1,4 +1,4 @@\n [core]\r\n \tname = old\r\n-\tmode = fast\r\n+\tmode = slow\r\n [end]\r\n",
            "lineEndings": "crlf",
            "path": "c.ini",
            "replacements": 1,
            "sha256": SHA256
        }
    }));
    assert_eq!(
        ws.read_string("c.ini"),
        "[core]\r\n\tname = old\r\n\tmode = slow\r\n[end]\r\n"
    );
}

#[test]
fn a_one_line_new_text_needs_no_conversion() {
    let ws = TestWorkspace::new();
    ws.file("c.ini", CRLF);
    let run = ws.run(&["edit", "c.ini", "--old", "fast", "--new", "slow"]);
    let data = run.ok();
    assert!(data.get("lineEndings").is_none(), "{}", run.stdout);
    assert_eq!(ws.read_string("c.ini"), CRLF.replace("fast", "slow"));
}

#[test]
fn mixed_and_lf_files_are_written_exactly_as_asked() {
    let ws = TestWorkspace::new();
    let mixed = "one\r\ntwo\nthree\r\n";
    ws.file("m.txt", mixed).file("l.txt", "one\ntwo\n");
    let run = ws.run(&["edit", "m.txt", "--old", "two\n", "--new", "2\n2b\n"]);
    assert!(run.ok().get("lineEndings").is_none(), "{}", run.stdout);
    assert_eq!(ws.read_string("m.txt"), "one\r\n2\n2b\nthree\r\n");

    let lf = ws.run(&["edit", "l.txt", "--old", "one\n", "--new", "1\n1b\n"]);
    assert!(lf.ok().get("lineEndings").is_none(), "{}", lf.stdout);
    assert_eq!(ws.read_string("l.txt"), "1\n1b\ntwo\n");
}

#[test]
fn a_new_text_that_holds_a_carriage_return_is_taken_as_written() {
    let ws = TestWorkspace::new();
    ws.file("c.ini", CRLF);
    let run = ws.stitch(
        "edit",
        &json!({"path": "c.ini", "oldText": "[end]\r\n", "newText": "[end]\r\n# raw\n"}),
    );
    assert!(run.ok().get("lineEndings").is_none(), "{}", run.stdout);
    assert_eq!(
        ws.read_string("c.ini"),
        "[core]\r\n\tname = old\r\n\tmode = fast\r\n[end]\r\n# raw\n"
    );
}
