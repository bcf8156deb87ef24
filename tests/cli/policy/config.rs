//! The config itself: a malformed one makes every tool refuse, `config check` reports what
//! a valid one enforces, and no tool reads, writes, creates or shows it.

use serde_json::{json, Value};

use crate::support::{sha256sum, TestWorkspace};

use super::{config, config_raw, CONFIG};

/// Every tool, by flags, against a workspace holding `a.txt`.
const EVERY_TOOL: [&[&str]; 6] = [
    &["read", "a.txt"],
    &["write", "b.txt", "--content", "x"],
    &["edit", "a.txt", "--old", "one", "--new", "ONE"],
    &["list"],
    &["glob", "*"],
    &["search", "one"],
];

#[test]
fn a_malformed_config_makes_every_tool_refuse() {
    let cases: [(&str, Option<&str>); 9] = [
        (r#"{"deny": ["a""#, None),
        ("[1, 2]", None),
        (r#"{"deny": [], "denny": []}"#, Some("denny")),
        (r#"{"deny": ["ok", "b[", "c"]}"#, Some("deny[1]")),
        (r#"{"readOnly": ["x{"]}"#, Some("readOnly[0]")),
        (
            r#"{"limits": {"maxFileBytes": -1}}"#,
            Some("limits.maxFileBytes"),
        ),
        (r#"{"limits": {"maxReads": 1}}"#, Some("limits.maxReads")),
        (r#"{"authorize": []}"#, Some("authorize")),
        (
            r#"{"authorizeTimeoutSecs": 0}"#,
            Some("authorizeTimeoutSecs"),
        ),
    ];
    for (text, field) in cases {
        let ws = TestWorkspace::new();
        ws.file("a.txt", "one\n");
        config_raw(&ws, text);
        let mut calls: Vec<&[&str]> = EVERY_TOOL.to_vec();
        calls.push(&["config", "check"]);
        calls.push(&["--session", "s1", "read", "a.txt"]);
        for args in calls {
            let run = ws.run(args);
            let details = run.refused("INVALID_CONFIG");
            assert_eq!(run.status, 1);
            assert_eq!(details["path"], CONFIG, "{text} {args:?}: {}", run.stdout);
            assert_eq!(
                details.get("field").and_then(Value::as_str),
                field,
                "{text} {args:?}: {}",
                run.stdout
            );
            assert!(
                details["reason"].as_str().is_some_and(|r| !r.is_empty()),
                "{}",
                run.stdout
            );
            assert!(run.hint().contains("config check"), "{}", run.stdout);
        }
        // Over JSON on stdin, too.
        let run = ws.stitch("read", &json!({"path": "a.txt"}));
        run.refused("INVALID_CONFIG");
        assert_eq!(ws.read_string("a.txt"), "one\n", "{text}");
        assert!(!ws.exists("b.txt"), "{text}");
        assert!(!ws.exists(".stitch/sessions"), "{text}");
    }
}

/// `config check`'s `limits`, each `{value, from}`, from `(name, value, from)`.
fn limits(items: &[(&str, u64, &str)]) -> Value {
    let mut map = serde_json::Map::new();
    for (name, value, from) in items {
        map.insert((*name).to_owned(), json!({"value": value, "from": from}));
    }
    Value::Object(map)
}

#[test]
fn config_check_reports_what_a_valid_config_enforces() {
    let ws = TestWorkspace::new();
    let approver = "#!/bin/sh\nexit 0\n";
    ws.file("scripts/approve", approver);
    config(
        &ws,
        &json!({
            "deny": ["**/.env", "secrets/**"],
            "readOnly": ["vendor/**", "**/*.lock"],
            "limits": {"maxReadBytes": 1000, "maxFileBytes": 5000, "listLimit": 7},
            "authorize": ["./scripts/approve", "--quiet"],
            "authorizeTimeoutSecs": 2.5
        }),
    );
    let untrusted = json!({
        "path": ".stitch/config.json",
        "exists": true,
        "trust": "untrusted",
        "userConfig": {"path": "$XDG_CONFIG_HOME/stitch/config.json", "exists": false},
        "deny": [
            {"pattern": "**/.env", "from": "workspace"},
            {"pattern": "secrets/**", "from": "workspace"}
        ],
        "readOnly": [
            {"pattern": "vendor/**", "from": "workspace"},
            {"pattern": "**/*.lock", "from": "workspace"}
        ],
        "limits": limits(&[
            ("maxReadBytes", 1000, "workspace"),
            ("maxFileBytes", 5000, "workspace"),
            ("listLimit", 7, "workspace"),
            ("globLimit", 1000, "default"),
            ("searchLimit", 100, "default"),
            ("journalEntries", 1000, "default"),
            ("journalBytes", 1_073_741_824, "default"),
            ("maxGateBytes", 4_194_304, "default"),
            ("maxGateMillis", 100, "default"),
        ]),
        "authorize": [],
        "journal": {"value": true, "from": "default"},
        "syntax": [{"paths": "**", "mode": "refuse", "from": "default"}],
        // The program trust pins, with its digest.
        "authorizeProgram": {"path": "scripts/approve", "sha256": sha256sum(approver.as_bytes())},
        "trustWouldEnable": [
            "authorize: runs [\"./scripts/approve\", \"--quiet\"] before every change",
            "authorizeTimeoutSecs: 2.5"
        ],
        "untrustedEffect": "every change is refused (DENIED, rule untrusted-config) until a person runs `stitch config trust`"
    });
    ws.run(&["config", "check"])
        .assert_envelope(&json!({"ok": true, "data": untrusted}));
    // Trusted, the hook is in force and nothing is left to enable.
    ws.trust();
    let mut trusted = untrusted;
    let data = trusted.as_object_mut().unwrap();
    data.remove("trustWouldEnable");
    data.remove("untrustedEffect");
    data["trust"] = json!("trusted");
    data["authorize"] = json!([{
        "command": ["./scripts/approve", "--quiet"],
        "timeoutSecs": 2.5,
        "from": "workspace"
    }]);
    ws.run(&["config", "check"])
        .assert_envelope(&json!({"ok": true, "data": trusted}));
}

#[test]
fn config_check_without_a_config_reports_the_defaults() {
    let ws = TestWorkspace::new();
    let run = ws.run(&["config", "check"]);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "path": ".stitch/config.json",
            "exists": false,
            "trust": "no-config",
            "userConfig": {"path": "$XDG_CONFIG_HOME/stitch/config.json", "exists": false},
            "deny": [],
            "readOnly": [],
            "limits": limits(&[
                ("maxReadBytes", 262_144, "default"),
                ("maxFileBytes", 268_435_456, "default"),
                ("listLimit", 500, "default"),
                ("globLimit", 1000, "default"),
                ("searchLimit", 100, "default"),
                ("journalEntries", 1000, "default"),
                ("journalBytes", 1_073_741_824, "default"),
                ("maxGateBytes", 4_194_304, "default"),
                ("maxGateMillis", 100, "default"),
            ]),
            "authorize": [],
            "journal": {"value": true, "from": "default"},
            "syntax": [{"paths": "**", "mode": "refuse", "from": "default"}]
        }
    }));
}

#[test]
fn config_check_names_the_config_each_setting_came_from() {
    let ws = TestWorkspace::new();
    ws.user_config(&json!({
        "deny": ["private/**"],
        "limits": {"listLimit": 50, "globLimit": 20},
        "authorize": ["/bin/true"],
        "journal": false
    }));
    // Raising listLimit over the user's 50 needs trust; lowering globLimit does not.
    config(
        &ws,
        &json!({"readOnly": ["vendor/**"], "limits": {"listLimit": 900, "globLimit": 10}}),
    );
    ws.run(&["config", "check"]).assert_envelope(&json!({
        "ok": true,
        "data": {
            "path": ".stitch/config.json",
            "exists": true,
            "trust": "untrusted",
            "userConfig": {"path": "$XDG_CONFIG_HOME/stitch/config.json", "exists": true},
            "deny": [{"pattern": "private/**", "from": "user"}],
            "readOnly": [{"pattern": "vendor/**", "from": "workspace"}],
            "limits": limits(&[
                ("maxReadBytes", 262_144, "default"),
                ("maxFileBytes", 268_435_456, "default"),
                ("listLimit", 50, "user"),
                ("globLimit", 10, "workspace"),
                ("searchLimit", 100, "default"),
                ("journalEntries", 1000, "default"),
                ("journalBytes", 1_073_741_824, "default"),
                ("maxGateBytes", 4_194_304, "default"),
                ("maxGateMillis", 100, "default"),
            ]),
            "authorize": [{"command": ["/bin/true"], "timeoutSecs": 30.0, "from": "user"}],
            "journal": {"value": false, "from": "user"},
            "syntax": [{"paths": "**", "mode": "refuse", "from": "default"}],
            "trustWouldEnable": ["limits.listLimit: 900 (in force now: 50)"],
            "untrustedEffect": "the raised limits fall back to the ones in force without this config"
        }
    }));
}

// ---------------------------------------------------------------------------------------
// The config is out of reach

const MARKER: &str = "marker-only-in-the-config";

#[test]
fn no_tool_reads_or_writes_the_config() {
    let ws = TestWorkspace::new();
    let text = json!({"deny": [MARKER]}).to_string();
    config_raw(&ws, &text);
    ws.symlink(".stitch/config.json", "cfg-link");
    let absolute = ws.path(CONFIG).to_string_lossy().into_owned();
    for path in [
        CONFIG,
        "./.stitch/config.json",
        "src/../.stitch/config.json",
        absolute.as_str(),
        "cfg-link",
    ] {
        let read = ws.run(&["read", path]);
        assert_eq!(
            read.refused("DENIED")["rule"],
            "reserved",
            "{path}: {}",
            read.stdout
        );
        assert!(!read.stdout.contains(MARKER), "{}", read.stdout);
        let write = ws.run(&["write", path, "--content", "{}", "--overwrite"]);
        assert_eq!(
            write.refused("DENIED")["rule"],
            "reserved",
            "{path}: {}",
            write.stdout
        );
        let edit = ws.run(&["edit", path, "--old", MARKER, "--new", "x"]);
        assert_eq!(
            edit.refused("DENIED")["rule"],
            "reserved",
            "{path}: {}",
            edit.stdout
        );
        assert!(!edit.stdout.contains(MARKER), "{}", edit.stdout);
    }
    // Not even with a session that read nothing, nor by creating it afresh.
    let run = ws.run(&["--session", "s1", "write", CONFIG, "--content", "{}"]);
    assert_eq!(run.refused("DENIED")["rule"], "reserved");
    assert_eq!(ws.read_string(CONFIG), text);
}

#[test]
fn no_tool_creates_a_config() {
    let ws = TestWorkspace::new();
    let run = ws.run(&["write", CONFIG, "--content", r#"{"deny":[]}"#]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "DENIED",
        "details": {
            "message": "`.stitch/config.json` is in .stitch/, which is reserved for stitch's own state",
            "path": ".stitch/config.json",
            "rule": "reserved"
        }
    }));
    assert!(!ws.exists(CONFIG));
}

#[test]
fn walks_never_show_the_config() {
    let ws = TestWorkspace::new();
    config_raw(&ws, json!({"deny": [MARKER]}).to_string());
    ws.file("a.txt", "plain\n");
    for args in [
        &["list", "--depth", "5", "--all"][..],
        &["glob", "**", "--all"],
        &["glob", ".stitch/*", "--all"],
        &["search", MARKER, "--all"],
        &["search", "config", "--mode", "path", "--all"],
    ] {
        let run = ws.run(args);
        run.ok();
        assert!(!run.stdout.contains(".stitch"), "{args:?}: {}", run.stdout);
        assert!(!run.stdout.contains(MARKER), "{args:?}: {}", run.stdout);
    }
    for args in [
        &["list", ".stitch"][..],
        &["glob", "*", "--path", ".stitch"],
        &["search", MARKER, "--path", ".stitch"],
    ] {
        let run = ws.run(args);
        assert_eq!(
            run.refused("DENIED")["rule"],
            "reserved",
            "{args:?}: {}",
            run.stdout
        );
        assert!(!run.stdout.contains(MARKER), "{args:?}: {}", run.stdout);
    }
}

#[test]
fn walks_never_show_the_config_through_a_symlink() {
    // A link into .stitch/ must not let list, glob or search show what is there.
    let ws = TestWorkspace::new();
    config_raw(&ws, json!({"deny": [MARKER]}).to_string());
    ws.file("a.txt", "plain\n");
    ws.symlink(".stitch/config.json", "cfg-link");
    ws.symlink(".stitch", "state-link");
    for args in [
        &["search", MARKER][..],
        &["search", MARKER, "--all"],
        &["glob", "**/*.json", "--all"],
        &["list", "--depth", "5", "--all"],
        &["search", "config", "--mode", "path", "--all"],
    ] {
        let run = ws.run(args);
        let data = run.ok();
        assert!(!run.stdout.contains(MARKER), "{args:?}: {}", run.stdout);
        assert!(
            !run.stdout.contains("config.json"),
            "{args:?} shows the config: {}",
            run.stdout
        );
        if let Some(entries) = data["entries"].as_array() {
            for entry in entries {
                let path = entry["path"].as_str().unwrap();
                assert!(!path.starts_with("state-link/"), "list shows {path}");
            }
        }
    }
}

#[test]
fn a_config_that_is_not_a_file_fails_closed() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a\n").dir(".stitch/config.json");
    let run = ws.run(&["config", "check"]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "INVALID_CONFIG",
        "details": {
            "message": "stitch's own state is unusable: `.stitch/config.json` is not a regular file (a directory, FIFO, socket or device)",
            "field": ".stitch/config.json",
            "path": ".stitch/config.json",
            "reason": "is not a regular file (a directory, FIFO, socket or device)"
        },
        "_hint": "The workspace owner must remove or replace `.stitch/config.json` (stitch keeps its own state there); `stitch config check` shows the problem."
    }));
    ws.run(&["read", "a.txt"]).refused("INVALID_CONFIG");
}
