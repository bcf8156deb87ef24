//! Limits: the first matches in path order, every time; truncation at a file boundary; the
//! allowed range; files over the size limit counted, not dropped.

use serde_json::json;

use crate::support::{TestWorkspace, NUMBER};

use super::{at, located};

/// 200 files in 7 directories, each with `needle` on lines 1, 3 and 5; returns every
/// match in (path, line) order.
fn two_hundred_files(ws: &TestWorkspace) -> Vec<(String, u64)> {
    let mut all = Vec::new();
    for i in 0..200 {
        let path = format!("d{}/f{i:03}.txt", i % 7);
        ws.file(&path, "needle\nhay\nneedle\nhay\nneedle\n");
        for line in [1, 3, 5] {
            all.push((path.clone(), line));
        }
    }
    all.sort();
    all
}

#[test]
fn a_limit_keeps_the_first_matches_in_path_order_every_time() {
    let ws = TestWorkspace::new();
    let all = two_hundred_files(&ws);

    let mut runs = Vec::new();
    for _ in 0..5 {
        let run = ws.run(&["search", "needle", "--limit", "10"]);
        let data = run.ok();
        assert_eq!(data["truncated"], true, "{}", run.stdout);
        assert!(
            data["hint"].as_str().is_some_and(|h| h.contains("limit")),
            "{}",
            run.stdout
        );
        runs.push((data["matches"].clone(), located(data)));
    }
    let (first_matches, first) = &runs[0];
    assert_eq!(first, &all[..10], "the ten smallest (path, line) pairs");
    for (matches, _) in &runs[1..] {
        assert_eq!(matches, first_matches, "the same result on every run");
    }
}

#[test]
fn a_limit_reached_at_a_file_boundary_is_still_truncated() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "n\nn\n").file("b.txt", "n\n");
    for i in 0..20 {
        ws.file(&format!("z/f{i:02}.txt"), "n\n");
    }
    let run = ws.run(&["search", "n", "--limit", "2"]);
    // Files are searched on several threads: how many were opened before the limit
    // stopped them depends on the scheduler, the matches kept do not.
    let scanned = run.envelope["data"]["scannedFiles"].as_u64().unwrap_or(0);
    assert!((1..=22).contains(&scanned), "{}", run.stdout);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "denied": 0,
            "hint": "Showing the first 2 matches in path order: narrow with --path or --glob, or raise --limit (up to 1000).",
            "matches": [
                {"line": 1, "path": "a.txt", "text": "n"},
                {"line": 2, "path": "a.txt", "text": "n"}
            ],
            "scannedFiles": NUMBER,
            "skippedBinary": 0,
            "skippedLarge": 0,
            "truncated": true
        }
    }));

    let everything = ws.run(&["search", "n", "--limit", "23"]);
    let data = everything.ok();
    assert_eq!(located(data).len(), 23);
    assert_eq!(data["truncated"], false, "{}", everything.stdout);
}

#[test]
fn limit_must_be_from_one_to_ten_times_the_default() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "n\n");
    for limit in ["0", "1001"] {
        let run = ws.run(&["search", "n", "--limit", limit]);
        let details = run.refused("INVALID_ARGUMENT");
        assert_eq!(details["field"], "limit", "{}", run.stdout);
        assert!(run.message().contains("1000"), "{}", run.stdout);
    }
    let most = ws.run(&["search", "n", "--limit", "1000"]);
    assert_eq!(located(most.ok()), [at("a.txt", 1)]);
}

#[test]
fn files_over_the_size_limit_are_counted_not_silently_dropped() {
    let ws = TestWorkspace::new();
    ws.file(".stitch/config.json", r#"{"limits":{"maxFileBytes":10}}"#)
        .file("big.txt", "0123456789abc\n")
        .file("small.txt", "0123\n");
    let run = ws.run(&["search", "0123"]);
    let data = run.ok();
    assert_eq!(data["skippedLarge"], 1);
    assert_eq!(
        data["matches"],
        json!([{"path": "small.txt", "line": 1, "text": "0123"}])
    );
}
