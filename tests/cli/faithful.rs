//! Byte-faithfulness: an edit changes the replaced span and nothing else — line
//! endings, tabs, BOM, a missing final newline and non-ASCII text are kept byte for
//! byte — and the one CRLF normalisation applies to all-CRLF files only.

use serde_json::json;

use crate::support::TestWorkspace;

/// Edits `original` (as `f.txt`) replacing `old` by `new` and asserts the whole file is
/// then exactly `expected`.
#[track_caller]
fn assert_edit(original: &[u8], old: &str, new: &str, expected: &[u8]) {
    let ws = TestWorkspace::new();
    ws.file("f.txt", original);
    let run = ws.stitch(
        "edit",
        &json!({"path": "f.txt", "oldText": old, "newText": new}),
    );
    assert_eq!(run.ok()["replacements"], 1);
    let got = ws.read("f.txt");
    assert_eq!(
        got,
        expected,
        "\n got: {:?}\nwant: {:?}",
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(expected)
    );
}

#[test]
fn an_lf_snippet_in_a_crlf_file_keeps_crlf_everywhere() {
    assert_edit(
        b"first\r\nsecond\r\nthird\r\nfourth\r\n",
        "second\nthird\n",
        "two\n2.5\nthree\n",
        b"first\r\ntwo\r\n2.5\r\nthree\r\nfourth\r\n",
    );
}

#[test]
fn a_crlf_snippet_in_a_crlf_file_matches_exactly() {
    assert_edit(b"a\r\nb\r\nc\r\n", "a\r\nb\r\n", "x\r\n", b"x\r\nc\r\n");
}

#[test]
fn a_crlf_edit_reads_back_as_crlf() {
    let ws = TestWorkspace::new();
    ws.file("f.txt", "one\r\ntwo\r\n");
    ws.stitch(
        "edit",
        &json!({"path": "f.txt", "oldText": "one\ntwo", "newText": "1\n2\n3"}),
    )
    .ok();
    let read = ws.stitch("read", &json!({"path": "f.txt"}));
    let data = read.ok();
    assert_eq!(data["lineEnding"], "crlf");
    assert_eq!(data["content"], "1\r\n2\r\n3\r\n");
}

#[test]
fn a_mixed_file_matches_exactly_only() {
    let ws = TestWorkspace::new();
    let original = "alpha\r\nbeta\ngamma\r\n";
    ws.file("f.txt", original);
    // An LF snippet spanning the CRLF line: the CRLF rule does not apply to mixed files.
    let run = ws.stitch(
        "edit",
        &json!({"path": "f.txt", "oldText": "alpha\nbeta", "newText": "A\nB"}),
    );
    run.refused("NO_MATCH");
    assert_eq!(ws.read("f.txt"), original.as_bytes());

    // The exact bytes match, and only they change.
    let exact = ws.stitch(
        "edit",
        &json!({"path": "f.txt", "oldText": "alpha\r\nbeta\n", "newText": "A\nB\n"}),
    );
    exact.ok();
    assert_eq!(ws.read("f.txt"), b"A\nB\ngamma\r\n");
}

#[test]
fn an_lf_snippet_spanning_a_mixed_crlf_line_does_not_match() {
    let ws = TestWorkspace::new();
    let original = "one\ntwo\r\nthree\nfour\n";
    ws.file("f.txt", original);
    let run = ws.stitch(
        "edit",
        &json!({"path": "f.txt", "oldText": "two\nthree", "newText": "2\n3"}),
    );
    run.refused("NO_MATCH");
    assert_eq!(ws.read("f.txt"), original.as_bytes());
}

#[test]
fn tabs_are_kept() {
    assert_edit(
        b"fn f() {\n\tif x {\n\t\treturn 1;\n\t}\n}\n",
        "return 1;",
        "return 2;",
        b"fn f() {\n\tif x {\n\t\treturn 2;\n\t}\n}\n",
    );
}

#[test]
fn a_bom_is_kept() {
    assert_edit(
        b"\xef\xbb\xbffirst\nsecond\n",
        "first",
        "1st",
        b"\xef\xbb\xbf1st\nsecond\n",
    );
}

#[test]
fn a_missing_final_newline_stays_missing() {
    assert_edit(b"a\nb\nlast", "b", "B", b"a\nB\nlast");
    assert_edit(b"a\nb\nlast", "last", "final", b"a\nb\nfinal");
}

#[test]
fn non_ascii_text_is_kept_byte_for_byte() {
    // Emoji (4-byte), CJK (3-byte), a decomposed é (e + U+0301) and a precomposed é.
    let original = "crab 🦀 says\n中文字符\ncafe\u{301} and caf\u{e9}\n👩‍👩‍👧 family\n";
    let expected = "crab 🦀 says\n中文字元\ncafe\u{301} and caf\u{e9}\n👩‍👩‍👧 family\n";
    assert_edit(original.as_bytes(), "字符", "字元", expected.as_bytes());
}

#[test]
fn combining_marks_are_not_normalised() {
    let ws = TestWorkspace::new();
    let original = "cafe\u{301}\n";
    ws.file("f.txt", original);
    // Precomposed é (U+00E9) is a different byte sequence from e + U+0301.
    let run = ws.stitch(
        "edit",
        &json!({"path": "f.txt", "oldText": "caf\u{e9}", "newText": "coffee"}),
    );
    run.refused("NO_MATCH");
    assert_eq!(ws.read("f.txt"), original.as_bytes());

    let exact = ws.stitch(
        "edit",
        &json!({"path": "f.txt", "oldText": "e\u{301}", "newText": "\u{e9}"}),
    );
    exact.ok();
    assert_eq!(ws.read("f.txt"), "caf\u{e9}\n".as_bytes());
}

#[test]
fn every_kind_of_byte_outside_the_span_is_kept_at_once() {
    let prefix = "\u{feff}\tindent 🦀\r\nmixed lf\n 漢字\u{301}\t\r\n";
    let suffix = "\n\ttrailing  spaces  \r\nno final newline ✓";
    let original = format!("{prefix}REPLACE ME{suffix}");
    let expected = format!("{prefix}done{suffix}");
    assert_edit(
        original.as_bytes(),
        "REPLACE ME",
        "done",
        expected.as_bytes(),
    );
}

#[test]
fn write_stores_the_exact_bytes_and_read_returns_them() {
    let ws = TestWorkspace::new();
    let content = "\u{feff}line\r\n\tmixed\nnon-ASCII ✓ 中 e\u{301}\r\nno final newline";
    ws.stitch("write", &json!({"path": "f.txt", "content": content}))
        .ok();
    assert_eq!(ws.read("f.txt"), content.as_bytes());
    let read = ws.stitch("read", &json!({"path": "f.txt"}));
    let data = read.ok();
    assert_eq!(data["content"], content.strip_prefix('\u{feff}').unwrap());
    assert_eq!(data["bom"], true);
    assert_eq!(data["lineEnding"], "mixed");
}

#[test]
fn an_apply_to_a_large_file_copies_its_unchanged_head_and_tail_byte_for_byte() {
    // Over a MiB shared on each side of the hunk: the stage copies the head and the tail
    // from the file read, in the kernel, and writes only the middle from memory.
    let mut original = Vec::new();
    for i in 0..150_000 {
        original.extend_from_slice(format!("line {i:06} \u{e9}\r\n").as_bytes());
    }
    let ws = TestWorkspace::new();
    ws.file("big.txt", &original);
    let patch = "*** Begin Patch\n*** Update File: big.txt\n@@\n line 074999 \u{e9}\r\n-line 075000 \u{e9}\r\n+changed\r\n line 075001 \u{e9}\r\n*** End Patch\n";
    ws.stitch("apply", &json!({ "patch": patch })).ok();
    let expected = String::from_utf8(original)
        .unwrap()
        .replace("line 075000 \u{e9}\r\n", "changed\r\n");
    assert_eq!(ws.read_string("big.txt"), expected);
}
