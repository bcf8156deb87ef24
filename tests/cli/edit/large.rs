//! Large files (over 8 MiB): the base digest on another core, the result's digest
//! resumed from it, the read in two halves, and the result staged and synced before the
//! checks that need the digests. What is reported and written is the same as on the
//! one-core path; a refusal after staging leaves nothing behind.

use std::fmt::Write;

use serde_json::json;

use crate::support::{names_in, sha256sum, TestWorkspace, SHA256, STRING};

/// About `size` bytes of numbered lines with `marker` as line `at` (counted from 0).
fn lines(size: usize, marker: &str, at: usize) -> String {
    let mut text = String::with_capacity(size + 64);
    let mut n = 0;
    while text.len() < size {
        if n == at {
            text.push_str(marker);
            text.push('\n');
        }
        writeln!(text, "line {n:08} of a large file, nothing to see here").unwrap();
        n += 1;
    }
    text
}

/// The edit of `marker` at line `at` of a 12 MiB file, checked whole: the envelope, the
/// two digests against sha256sum(1), the bytes, and no temp file anywhere.
fn edit_at(at: usize) {
    let ws = TestWorkspace::new();
    let old = lines(12 << 20, "let marker = 1;", at);
    ws.file("big.txt", &old);
    let run = ws.stitch(
        "edit",
        &json!({"path": "big.txt", "oldText": "let marker = 1;", "newText": "let marker = 22;"}),
    );
    let new = old.replacen("let marker = 1;", "let marker = 22;", 1);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "applied": true,
            "id": STRING,
            "baseSha256": SHA256,
            "bytes": new.len(),
            "diff": STRING,
            "path": "big.txt",
            "replacements": 1,
            "sha256": SHA256
        }
    }));
    let data = &run.envelope["data"];
    assert_eq!(data["baseSha256"], sha256sum(old.as_bytes()), "line {at}");
    assert_eq!(data["sha256"], sha256sum(new.as_bytes()), "line {at}");
    let diff = data["diff"].as_str().unwrap();
    assert!(
        diff.contains("\n-let marker = 1;\n+let marker = 22;\n"),
        "{diff}"
    );
    assert!(ws.read("big.txt") == new.as_bytes(), "line {at}: the bytes");
    assert_eq!(names_in(&ws.root()), [".stitch", "big.txt"]);
    assert!(names_in(&ws.path(".stitch/tmp")).is_empty(), "line {at}");
}

#[test]
fn a_large_edit_reports_the_digests_of_what_it_read_and_wrote() {
    // At the very start (nothing shared), in the first checkpoint, at the middle and
    // near the end (almost all shared).
    for at in [0, 3, 100_000, 200_000] {
        edit_at(at);
    }
}

#[test]
fn several_edits_of_a_large_file_are_applied_in_turn() {
    let ws = TestWorkspace::new();
    let old = lines(10 << 20, "alpha = 1;", 50_000);
    ws.file("big.txt", &old);
    let run = ws.stitch(
        "edit",
        &json!({"path": "big.txt", "edits": [
            {"oldText": "alpha = 1;", "newText": "alpha = 2;"},
            {"oldText": "line 00160000 of", "newText": "line 160000 of"}
        ]}),
    );
    let new = old.replacen("alpha = 1;", "alpha = 2;", 1).replacen(
        "line 00160000 of",
        "line 160000 of",
        1,
    );
    let data = run.ok();
    assert_eq!(data["replacements"], 2);
    assert_eq!(data["baseSha256"], sha256sum(old.as_bytes()));
    assert_eq!(data["sha256"], sha256sum(new.as_bytes()));
    assert!(ws.read("big.txt") == new.as_bytes());
}

#[test]
fn a_large_edit_refused_after_staging_leaves_nothing() {
    let ws = TestWorkspace::new();
    let old = lines(12 << 20, "let marker = 1;", 150_000);
    ws.file("big.txt", &old);
    let seen = sha256sum(b"an older version\n");
    let run = ws.stitch(
        "edit",
        &json!({"path": "big.txt", "oldText": "let marker = 1;", "newText": "let marker = 2;",
                "expectedSha256": seen}),
    );
    run.assert_envelope(&json!({
        "ok": false,
        "error": "STALE_VERSION",
        "details": {
            "message": "`big.txt` has changed: its sha256 is not the expectedSha256",
            "actualSha256": sha256sum(old.as_bytes()),
            "expectedSha256": seen,
            "path": "big.txt"
        },
        "_hint": STRING
    }));
    assert!(
        ws.read("big.txt") == old.as_bytes(),
        "the file is untouched"
    );
    assert_eq!(names_in(&ws.root()), [".stitch", "big.txt"]);
    let staging = ws.path(".stitch/tmp");
    assert!(
        !staging.exists() || names_in(&staging).is_empty(),
        "nothing staged is left: {:?}",
        names_in(&staging)
    );
}

#[test]
fn a_large_dry_run_writes_nothing() {
    let ws = TestWorkspace::new();
    let old = lines(12 << 20, "let marker = 1;", 150_000);
    ws.file("big.txt", &old);
    let run = ws.stitch(
        "edit",
        &json!({"path": "big.txt", "oldText": "let marker = 1;", "newText": "let marker = 2;",
                "dryRun": true}),
    );
    let new = old.replacen("let marker = 1;", "let marker = 2;", 1);
    let data = run.ok();
    assert_eq!(data["applied"], false);
    assert_eq!(data["sha256"], sha256sum(new.as_bytes()));
    assert!(ws.read("big.txt") == old.as_bytes());
    assert_eq!(names_in(&ws.root()), [".stitch", "big.txt"]);
}
