//! Staleness by region (§6): a file that moved on since the session read it — a
//! formatter, a hook, another agent — still takes an edit whose lines the session saw
//! unchanged, and says which lines changed; an edit of a changed line is refused naming
//! them; the whole-file rule stays for `expectedSha256` and for a file past the bound.

use std::fs;

use serde_json::json;

use super::{session, session_json, REREAD};
use crate::support::{sha256sum, TestWorkspace};

/// A file of three functions, as a formatter would leave it.
fn code(a: &str, b: &str, c: &str) -> String {
    format!("fn a() {{\n    {a}\n}}\n\nfn b() {{\n    {b}\n}}\n\nfn c() {{\n    {c}\n}}\n")
}

fn read(ws: &TestWorkspace, id: &str) {
    session(ws, id, &["read", "lib.rs"]).ok();
}

#[test]
fn a_formatter_run_elsewhere_leaves_the_edit_landing_and_named() {
    for by_rename in [false, true] {
        let ws = TestWorkspace::new();
        ws.file("lib.rs", code("one()", "two()", "three()"));
        read(&ws, "s");
        // The formatter rewrites fn c, in place or by a rename over the file.
        let formatted = code("one()", "two()", "three( )");
        if by_rename {
            fs::write(ws.path("lib.rs.tmp"), &formatted).unwrap();
            fs::rename(ws.path("lib.rs.tmp"), ws.path("lib.rs")).unwrap();
        } else {
            fs::write(ws.path("lib.rs"), &formatted).unwrap();
        }
        let run = session(
            &ws,
            "s",
            &["edit", "lib.rs", "--old", "one()", "--new", "uno()"],
        );
        let result = run.ok();
        assert_eq!(result["staleRead"], true, "{}", run.stdout);
        assert_eq!(
            result["foreignChanges"],
            json!([{"startLine": 10, "endLine": 10}])
        );
        assert_eq!(ws.read_string("lib.rs"), code("uno()", "two()", "three( )"));
        // The changed line itself is not seen: editing it needs a read first.
        let run = session(
            &ws,
            "s",
            &["edit", "lib.rs", "--old", "three( )", "--new", "tres()"],
        );
        let details = run.refused("STALE_VERSION");
        assert_eq!(
            details["foreignChanges"],
            json!([{"startLine": 10, "endLine": 10}])
        );
        // Another edit of a line the session saw still lands, without a read.
        session(
            &ws,
            "s",
            &["edit", "lib.rs", "--old", "two()", "--new", "dos()"],
        )
        .ok();
        read(&ws, "s");
        session(
            &ws,
            "s",
            &["edit", "lib.rs", "--old", "three( )", "--new", "tres()"],
        )
        .ok();
        assert_eq!(ws.read_string("lib.rs"), code("uno()", "dos()", "tres()"));
    }
}

#[test]
fn lines_inserted_and_removed_above_shift_the_edit_and_it_still_lands() {
    let ws = TestWorkspace::new();
    ws.file("lib.rs", code("one()", "two()", "three()"));
    read(&ws, "s");
    let moved = format!(
        "// header\n// added by a hook\n{}",
        code("one()", "two()", "three()")
    )
    .replace("fn a() {\n    one()\n}\n\n", "");
    fs::write(ws.path("lib.rs"), &moved).unwrap();
    let run = session(
        &ws,
        "s",
        &["edit", "lib.rs", "--old", "two()", "--new", "dos()"],
    );
    let result = run.ok();
    assert_eq!(result["staleRead"], true);
    assert_eq!(
        result["foreignChanges"],
        json!([{"startLine": 1, "endLine": 2}])
    );
    assert_eq!(ws.read_string("lib.rs"), moved.replace("two()", "dos()"));
}

#[test]
fn a_change_to_the_edited_lines_is_refused_naming_them() {
    let ws = TestWorkspace::new();
    ws.file("lib.rs", code("one()", "two()", "three()"));
    read(&ws, "s");
    let changed = code("one(1)", "two()", "three()");
    fs::write(ws.path("lib.rs"), &changed).unwrap();
    // The model's oldText is what it read; the line changed under it.
    let run = session(
        &ws,
        "s",
        &["edit", "lib.rs", "--old", "one()", "--new", "uno()"],
    );
    let details = run.refused("STALE_VERSION");
    assert_eq!(
        details["foreignChanges"],
        json!([{"startLine": 2, "endLine": 2}])
    );
    assert_eq!(details["actualSha256"], sha256sum(changed.as_bytes()));
    // Even where today's text matches, an edit spanning the changed line is refused.
    let run = session(
        &ws,
        "s",
        &[
            "edit",
            "lib.rs",
            "--old",
            "fn a() {\n    one(1)",
            "--new",
            "fn a() {\n    uno()",
        ],
    );
    run.refused("STALE_VERSION");
    assert_eq!(ws.read_string("lib.rs"), changed);
}

#[test]
fn expected_sha256_and_a_file_past_the_bound_keep_the_whole_file_rule() {
    let ws = TestWorkspace::new();
    ws.file("lib.rs", code("one()", "two()", "three()"));
    read(&ws, "s");
    let seen = sha256sum(code("one()", "two()", "three()").as_bytes());
    fs::write(ws.path("lib.rs"), code("one()", "two()", "three( )")).unwrap();
    let run = session_json(
        &ws,
        "s",
        "edit",
        &json!({"path": "lib.rs", "oldText": "one()", "newText": "uno()", "expectedSha256": seen}),
    );
    run.refused("STALE_VERSION");
    assert_eq!(run.hint(), REREAD);
    // Past 4 MiB the ledger keeps no lines: the whole-file rule.
    let big = format!(
        "{}{}",
        code("one()", "two()", "three()"),
        "x\n".repeat(2_200_000)
    );
    ws.file("big.rs", &big);
    session(&ws, "s", &["read", "big.rs", "--limit", "1"]).ok();
    fs::write(ws.path("big.rs"), big.replace("three()", "three( )")).unwrap();
    let run = session(
        &ws,
        "s",
        &["edit", "big.rs", "--old", "one()", "--new", "uno()"],
    );
    let details = run.refused("STALE_VERSION");
    assert!(details.get("foreignChanges").is_none(), "{}", run.stdout);
}

#[test]
fn two_sessions_editing_different_functions_both_land_and_a_third_on_a_changed_line_refuses() {
    let ws = TestWorkspace::new();
    ws.file("lib.rs", code("one()", "two()", "three()"));
    for id in ["x", "y", "z"] {
        read(&ws, id);
    }
    session(
        &ws,
        "x",
        &["edit", "lib.rs", "--old", "one()", "--new", "uno()"],
    )
    .ok();
    session(
        &ws,
        "y",
        &["edit", "lib.rs", "--old", "three()", "--new", "tres()"],
    )
    .ok();
    assert_eq!(ws.read_string("lib.rs"), code("uno()", "two()", "tres()"));
    let run = session(
        &ws,
        "z",
        &[
            "edit",
            "lib.rs",
            "--old",
            "fn a() {\n    uno()",
            "--new",
            "fn a() {\n    one()",
        ],
    );
    run.refused("STALE_VERSION");
    assert_eq!(ws.read_string("lib.rs"), code("uno()", "two()", "tres()"));
}
