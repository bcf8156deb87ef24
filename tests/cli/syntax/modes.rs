//! The gate's modes and ways round it: warn-only and off by config (per glob too), the
//! override by flags, JSON and MCP, a dry run, apply per file and undo's merged result.

use std::fmt::Write as _;

use serde_json::json;

use crate::support::{envelope_of, McpServer, TestWorkspace};

const A_PY: &str = "def f():\n    return 1\n";
const BREAK: [&str; 2] = ["    return 1", "    return (1"];

/// The errors a result lists for the break of `a.py` above.
fn listed(path: &str) -> serde_json::Value {
    json!([{
        "path": path,
        "language": "python",
        "line": 2,
        "column": 12,
        "endLine": 2,
        "excerpt": "    return (1\n           ^",
        "expected": ")"
    }])
}

/// A Python file of `count` small functions.
fn functions(count: usize) -> String {
    (0..count).fold(String::new(), |mut text, n| {
        let _ = writeln!(text, "def f{n}():\n    return {n}");
        text
    })
}

fn workspace(config: Option<&str>) -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("a.py", A_PY).file("gen/b.py", A_PY);
    if let Some(config) = config {
        ws.file(".stitch/config.json", config);
    }
    ws
}

fn edit(ws: &TestWorkspace, path: &str, extra: &[&str]) -> crate::support::Run {
    let mut args = vec!["edit", path, "--old", BREAK[0], "--new", BREAK[1]];
    args.extend_from_slice(extra);
    ws.run(&args)
}

#[test]
fn warn_only_applies_and_lists_the_errors() {
    let ws = workspace(Some(r#"{"syntax": "warn"}"#));
    let data = edit(&ws, "a.py", &[]).ok().clone();
    assert_eq!(data["applied"], true);
    assert_eq!(data["syntaxErrors"], listed("a.py"));
    assert_eq!(ws.read_string("a.py"), A_PY.replace(BREAK[0], BREAK[1]));
}

#[test]
fn off_by_config_parses_nothing() {
    let ws = workspace(Some(r#"{"syntax": "off"}"#));
    let data = edit(&ws, "a.py", &[]).ok().clone();
    assert_eq!(data["applied"], true);
    assert!(data.get("syntaxErrors").is_none(), "{data}");
}

#[test]
fn a_glob_turns_the_gate_off_where_it_says_only() {
    let ws = workspace(Some(r#"{"syntax": {"gen/**": "off"}}"#));
    assert_eq!(edit(&ws, "gen/b.py", &[]).ok()["applied"], true);
    edit(&ws, "a.py", &[]).refused("SYNTAX_ERROR");
    assert_eq!(ws.read_string("a.py"), A_PY);
    let check = ws.run(&["config", "check"]);
    assert_eq!(
        check.ok()["syntax"],
        json!([
            {"paths": "gen/**", "mode": "off", "from": "workspace"},
            {"paths": "**", "mode": "refuse", "from": "default"}
        ])
    );
}

#[test]
fn a_mode_the_config_cannot_mean_is_invalid_config() {
    let ws = workspace(Some(r#"{"syntax": "maybe"}"#));
    let details = edit(&ws, "a.py", &[]).refused("INVALID_CONFIG").clone();
    assert_eq!(details["field"], "syntax", "{details}");
}

#[test]
fn the_override_applies_by_flags_json_and_mcp() {
    let ws = workspace(None);
    let data = edit(&ws, "a.py", &["--allow-syntax-errors"]).ok().clone();
    assert_eq!(data["syntaxErrors"], listed("a.py"));
    let args = json!({"path": "gen/b.py", "oldText": BREAK[0], "newText": BREAK[1], "allowSyntaxErrors": true});
    assert_eq!(
        ws.stitch("edit", &args).ok()["syntaxErrors"],
        listed("gen/b.py")
    );
    let ws = workspace(None);
    let mut server = McpServer::start(&ws, &["--no-session"], &[]);
    server.initialize("2025-06-18");
    let refused = envelope_of(&server.call(
        "edit_file",
        &json!({"path": "a.py", "oldText": BREAK[0], "newText": BREAK[1]}),
    ));
    assert_eq!(refused["error"], "SYNTAX_ERROR", "{refused}");
    assert_eq!(refused["details"]["line"], 2);
    let allowed = envelope_of(&server.call("write_file", &json!({"path": "a.py", "content": "def f(:\n", "overwrite": true, "allowSyntaxErrors": true})));
    assert_eq!(allowed["data"]["syntaxErrors"][0]["line"], 1, "{allowed}");
    server.close(std::time::Duration::from_secs(5));
    assert_eq!(ws.read_string("a.py"), "def f(:\n");
}

#[test]
fn a_dry_run_reports_without_refusing() {
    let ws = workspace(None);
    let data = edit(&ws, "a.py", &["--dry-run"]).ok().clone();
    assert_eq!(data["applied"], false);
    assert_eq!(data["syntaxErrors"], listed("a.py"));
    assert_eq!(ws.read_string("a.py"), A_PY);
}

#[test]
fn apply_is_gated_per_file_and_names_the_change() {
    let ws = workspace(None);
    let changes = json!({"changes": [
        {"op": "write", "path": "notes.txt", "content": "x\n"},
        {"op": "edit", "path": "a.py", "oldText": BREAK[0], "newText": BREAK[1]},
    ]});
    let details = ws.stitch("apply", &changes).refused("SYNTAX_ERROR").clone();
    assert_eq!(details["changeIndex"], 1, "{details}");
    assert_eq!(details["path"], "a.py");
    assert_eq!(details["field"], "changes");
    assert!(!ws.exists("notes.txt"));
    let patch = "*** Begin Patch\n*** Update File: gen/b.py\n@@\n-    return 1\n+    return (1\n*** End Patch\n";
    let run = ws.run(&["apply", "--patch", patch]);
    assert_eq!(run.refused("SYNTAX_ERROR")["field"], "patch");
    let data = ws
        .run(&["apply", "--patch", patch, "--allow-syntax-errors"])
        .ok()
        .clone();
    assert_eq!(
        data["syntaxErrors"],
        json!([{
            "path": "gen/b.py", "language": "python", "line": 2, "column": 12, "endLine": 2,
            "excerpt": "    return (1\n           ^", "expected": ")", "changeIndex": 0
        }])
    );
}

/// An undo whose merge with later work would leave the file unparseable is refused.
#[test]
fn undo_gates_its_merged_result() {
    let ws = TestWorkspace::new();
    ws.file("m.py", "a = 1\n0,\n2,\n0,\n0,\nc = 3\n");
    let first = json!({"path": "m.py", "edits": [
        {"oldText": "a = 1", "newText": "a = f("},
        {"oldText": "c = 3", "newText": ")"},
    ]});
    let id = ws.stitch("edit", &first).ok()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    ws.run(&["edit", "m.py", "--old", "2,", "--new", "**kw,"])
        .ok();
    let details = ws.run(&["undo", &id]).refused("SYNTAX_ERROR").clone();
    assert_eq!(
        (details["path"].as_str(), details["line"].as_u64()),
        (Some("m.py"), Some(3)),
        "{details}"
    );
    let data = ws.run(&["undo", &id, "--allow-syntax-errors"]).ok().clone();
    assert_eq!(data["syntaxErrors"][0]["line"], 3, "{data}");
    assert_eq!(ws.read_string("m.py"), "a = 1\n0,\n**kw,\n0,\n0,\nc = 3\n");
}

/// A change of several files holding enough text is checked on several threads, the
/// likely dearest first (a large new file): what it refuses and lists is still in the
/// order of the files, the first that breaks refused.
#[test]
fn apply_checks_files_side_by_side_and_keeps_their_order() {
    let ws = workspace(None);
    let big = functions(4000);
    let broken_big = format!("{big}def g(:\n");
    ws.file("c.py", A_PY);
    let changes = json!({"changes": [
        {"op": "write", "path": "b.py", "content": broken_big},
        {"op": "edit", "path": "c.py", "oldText": BREAK[0], "newText": BREAK[1]},
        {"op": "edit", "path": "a.py", "oldText": BREAK[0], "newText": BREAK[1]},
    ]});
    let details = ws.stitch("apply", &changes).refused("SYNTAX_ERROR").clone();
    assert_eq!(
        details,
        json!({
            "message": "The change would leave `a.py` unparseable at line 2, column 12: missing \")\"; nothing was changed",
            "path": "a.py", "language": "python", "line": 2, "column": 12, "endLine": 2,
            "excerpt": "    return (1\n           ^", "expected": ")", "changeIndex": 2,
            "field": "changes"
        })
    );
    let mut allowed = changes.clone();
    allowed["allowSyntaxErrors"] = json!(true);
    let data = ws.stitch("apply", &allowed).ok().clone();
    let error = |path: &str, change: usize| {
        json!({
            "path": path, "language": "python", "line": 2, "column": 12, "endLine": 2,
            "excerpt": "    return (1\n           ^", "expected": ")", "changeIndex": change
        })
    };
    assert_eq!(
        data["syntaxErrors"],
        json!([
            error("a.py", 2),
            {
                "path": "b.py", "language": "python", "line": 8001, "column": 7,
                "endLine": 8001, "excerpt": "def g(:\n      ^", "expected": ")",
                "changeIndex": 0
            },
            error("c.py", 1)
        ])
    );
}

/// A Codex patch's `*** Add File` section holding `text`.
fn added(path: &str, text: &str) -> String {
    let mut section = format!("*** Add File: {path}\n");
    for line in text.lines() {
        let _ = writeln!(section, "+{line}");
    }
    section
}

/// The files a patch adds are parsed before the change is built (on a thread of their
/// own), and their gate's end awaited beside the staging of the new versions when no
/// directory is to be made: the refusal, the errors listed and the files' order are the
/// gate's as ever, either way, and a file a later change of the same call completes is
/// checked as it ends.
#[test]
fn apply_parses_the_files_a_patch_adds_before_building_the_change() {
    let ws = workspace(None);
    let fine = functions(400);
    let broken = format!("{fine}def g(:\n");
    let files = || {
        let mut tree = crate::support::tree(&ws.root());
        tree.retain(|path, _| !path.starts_with(".stitch"));
        tree
    };
    let changes = || {
        ws.run(&["history"]).ok()["changes"]
            .as_array()
            .unwrap()
            .len()
    };
    // At the top (the gate beside the staging), then in a directory to be made (the gate
    // first).
    for (round, dir) in ["", "new/"].into_iter().enumerate() {
        let (b, c) = (format!("{dir}b.py"), format!("{dir}c.py"));
        let patch = format!(
            "*** Begin Patch\n{}{}*** Update File: a.py\n@@\n-    return {n}\n+    return {m}\n*** End Patch\n",
            added(&c, &fine),
            added(&b, &broken),
            n = round + 1,
            m = round + 2,
        );
        let (before, journaled) = (files(), changes());
        let details = ws
            .stitch("apply", &json!({"patch": patch}))
            .refused("SYNTAX_ERROR")
            .clone();
        assert_eq!(
            details,
            json!({
                "message": format!("`{b}` as written would not parse at line 801, column 7: missing \")\"; nothing was changed"),
                "path": b, "language": "python", "line": 801, "column": 7, "endLine": 801,
                "excerpt": "def g(:\n      ^", "expected": ")", "changeIndex": 1,
                "field": "patch"
            })
        );
        assert_eq!(files(), before, "nothing changed, no directory made");
        // Refused before its journal entry was written: nothing pending, nothing to undo.
        let pending = ws.path(".stitch/journal/pending");
        let left: Vec<_> = std::fs::read_dir(&pending)
            .map(|dir| dir.map(|e| e.unwrap().file_name()).collect())
            .unwrap_or_default();
        assert!(left.is_empty(), "{left:?}");
        assert_eq!(changes(), journaled);
        let data = ws
            .stitch("apply", &json!({"patch": patch, "allowSyntaxErrors": true}))
            .ok()
            .clone();
        assert_eq!(data["applied"], true);
        assert_eq!(
            data["syntaxErrors"],
            json!([{
                "path": b, "language": "python", "line": 801, "column": 7,
                "endLine": 801, "excerpt": "def g(:\n      ^", "expected": ")", "changeIndex": 1
            }])
        );
        assert!(ws.read_string(&b) == broken && ws.read_string(&c) == fine);
        let history = ws.run(&["history"]).ok().clone();
        assert_eq!(history["changes"][0]["id"], data["id"]);
    }
    // Added broken, then completed by the next change: the file as it ends parses.
    let changes = json!({"changes": [
        {"type": "create_file", "path": "d.py", "diff": added("d.py", &broken).split_once('\n').unwrap().1},
        {"op": "edit", "path": "d.py", "oldText": "def g(:", "newText": "def g():\n    pass"},
    ]});
    let data = ws.stitch("apply", &changes).ok().clone();
    assert_eq!(data["applied"], true);
    assert!(data.get("syntaxErrors").is_none(), "{data}");
    assert!(ws.read_string("d.py") == format!("{fine}def g():\n    pass"));
}
