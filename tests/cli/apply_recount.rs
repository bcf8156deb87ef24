//! A unified hunk whose `@@ -a,b +c,d @@` counts disagree with its body — models get them
//! wrong all the time — is applied by its body, as `git apply --recount` and GNU patch
//! take it, and says so (`recounted: true`); a hunk with no body is still refused at its
//! `@@` line.

use serde_json::json;

use crate::support::TestWorkspace;

const FILE: &str = "one\ntwo\nthree\nfour\nfive\n";

#[test]
fn counts_off_by_one_or_three_apply_by_the_body() {
    // The true counts are 3 and 3.
    for (old, new) in [
        (2, 3),
        (4, 3),
        (3, 2),
        (3, 4),
        (0, 3),
        (6, 6),
        (3, 0),
        (1, 6),
    ] {
        let ws = TestWorkspace::new();
        ws.file("a.txt", FILE);
        let patch = format!(
            "--- a/a.txt\n+++ b/a.txt\n@@ -2,{old} +2,{new} @@\n two\n-three\n+THREE\n four\n"
        );
        let run = ws.stitch("apply", &json!({"patch": patch}));
        let hunks = &run.ok()["changes"][0]["hunks"];
        assert_eq!(
            hunks,
            &json!([{"line": 2, "recounted": true}]),
            "-{old} +{new}"
        );
        assert_eq!(ws.read_string("a.txt"), FILE.replace("three", "THREE"));
    }
}

#[test]
fn right_counts_are_not_recounted_and_an_empty_body_is_refused_at_its_header() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", FILE);
    let patch = "--- a/a.txt\n+++ b/a.txt\n@@ -2,3 +2,3 @@\n two\n-three\n+THREE\n four\n";
    let run = ws.stitch("apply", &json!({"patch": patch}));
    assert_eq!(run.ok()["changes"][0]["hunks"], json!([{"line": 2}]));
    let ws = TestWorkspace::new();
    ws.file("a.txt", FILE);
    let truncated = "--- a/a.txt\n+++ b/a.txt\n@@ -2,3 +2,3 @@\n";
    let run = ws.stitch("apply", &json!({"patch": truncated}));
    let refused = run.refused("INVALID_PATCH");
    assert_eq!(refused["patchLine"], 3, "{}", run.stdout);
    assert_eq!(refused["line"], "@@ -2,3 +2,3 @@");
    assert_eq!(ws.read_string("a.txt"), FILE);
}

#[test]
fn a_miscounted_hunk_before_the_next_file_stops_at_its_header() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", FILE);
    ws.file("b.txt", FILE);
    // The first hunk claims five lines of each side; the next file's headers follow.
    let patch = "--- a/a.txt\n+++ b/a.txt\n@@ -2,5 +2,5 @@\n two\n-three\n+THREE\n four\n\
                 --- a/b.txt\n+++ b/b.txt\n@@ -1,1 +1,1 @@\n-one\n+ONE\n";
    ws.stitch("apply", &json!({"patch": patch})).ok();
    assert_eq!(ws.read_string("a.txt"), FILE.replace("three", "THREE"));
    assert_eq!(ws.read_string("b.txt"), FILE.replace("one", "ONE"));
}
