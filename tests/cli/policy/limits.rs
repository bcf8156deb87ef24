//! `limits`: the config's byte and result limits change each tool's defaults and caps.

use serde_json::json;

use crate::support::TestWorkspace;

use super::config;

#[test]
fn max_read_bytes_caps_read() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "0123456789abcdefghij\n");
    config(&ws, &json!({"limits": {"maxReadBytes": 8}}));
    let run = ws.stitch("read", &json!({"path": "a.txt", "maxBytes": 9}));
    let details = run.refused("INVALID_ARGUMENT");
    assert_eq!(details["field"], "maxBytes", "{}", run.stdout);
    assert!(run.message().contains('8'), "names the cap: {}", run.stdout);
    assert!(ws
        .stitch("read", &json!({"path": "a.txt", "maxBytes": 8}))
        .ok()["truncated"]
        .as_bool()
        .unwrap());
    // The default is the cap.
    let run = ws.run(&["read", "a.txt"]);
    let data = run.ok();
    assert_eq!(data["content"], "01234567", "{}", run.stdout);
    assert_eq!(data["truncated"], true);
}

#[test]
fn max_file_bytes_refuses_bigger_files_for_read_edit_and_write() {
    let ws = TestWorkspace::new();
    let big = "a".repeat(300);
    let small = "small\n";
    ws.file("big.txt", &big).file("small.txt", small);
    config(&ws, &json!({"limits": {"maxFileBytes": 100}}));

    for args in [
        &["read", "big.txt"][..],
        &["edit", "big.txt", "--old", "aaa", "--new", "b"],
    ] {
        let run = ws.run(args);
        let details = run.refused("TOO_LARGE");
        assert_eq!(details["bytes"], 300, "{args:?}: {}", run.stdout);
        assert_eq!(details["limit"], 100, "{args:?}: {}", run.stdout);
        assert_eq!(details["path"], "big.txt");
    }
    assert_eq!(ws.read_string("big.txt"), big);

    let content = "b".repeat(101);
    let run = ws.run(&["write", "new.txt", "--content", &content]);
    let details = run.refused("TOO_LARGE");
    assert_eq!(details["bytes"], 101, "{}", run.stdout);
    assert_eq!(details["limit"], 100, "{}", run.stdout);
    assert!(!ws.exists("new.txt"));
    let run = ws.run(&["write", "small.txt", "--content", &content, "--overwrite"]);
    run.refused("TOO_LARGE");
    assert_eq!(ws.read_string("small.txt"), small);
    // An edit whose result would pass the limit.
    let run = ws.run(&["edit", "small.txt", "--old", "small", "--new", &content]);
    let details = run.refused("TOO_LARGE");
    assert_eq!(details["limit"], 100, "{}", run.stdout);
    assert_eq!(ws.read_string("small.txt"), small);

    // At the limit is fine.
    ws.run(&["write", "exact.txt", "--content", &"c".repeat(100)])
        .ok();
    assert_eq!(ws.read("exact.txt").len(), 100);
}

/// A workspace of `n` files `f0.txt` … each holding `hit`.
fn workspace_with_hits(n: usize) -> TestWorkspace {
    let ws = TestWorkspace::new();
    for i in 0..n {
        ws.file(&format!("f{i}.txt"), "hit\n");
    }
    ws
}

#[test]
fn list_glob_and_search_limits_change_the_defaults() {
    let ws = workspace_with_hits(5);
    config(
        &ws,
        &json!({"limits": {"listLimit": 2, "globLimit": 3, "searchLimit": 4}}),
    );
    let list = ws.run(&["list"]);
    let data = list.ok();
    assert_eq!(
        data["entries"].as_array().unwrap().len(),
        2,
        "{}",
        list.stdout
    );
    assert_eq!(data["truncated"], true);
    let glob = ws.run(&["glob", "*.txt"]);
    let data = glob.ok();
    assert_eq!(
        data["matches"].as_array().unwrap().len(),
        3,
        "{}",
        glob.stdout
    );
    assert_eq!(data["truncated"], true);
    let search = ws.run(&["search", "hit"]);
    let data = search.ok();
    assert_eq!(
        data["matches"].as_array().unwrap().len(),
        4,
        "{}",
        search.stdout
    );
    assert_eq!(data["truncated"], true);

    // The caller may raise each up to ten times its configured default, no further.
    for (command, request, cap) in [
        ("list", json!({"limit": 20}), 20),
        ("glob", json!({"pattern": "*.txt", "limit": 30}), 30),
        ("search", json!({"query": "hit", "limit": 40}), 40),
    ] {
        let run = ws.stitch(command, &request);
        assert_eq!(run.ok()["truncated"], false, "{command}: {}", run.stdout);
        let mut over = request.clone();
        over["limit"] = json!(cap + 1);
        let run = ws.stitch(command, &over);
        let details = run.refused("INVALID_ARGUMENT");
        assert_eq!(details["field"], "limit", "{command}: {}", run.stdout);
        assert!(
            run.message().contains(&cap.to_string()),
            "{command} names the cap {cap}: {}",
            run.stdout
        );
    }
}
