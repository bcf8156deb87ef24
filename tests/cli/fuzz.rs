//! Malformed input, generated: random JSON values, fields of the wrong type, huge
//! strings, invalid UTF-8 on stdin and random paths, for every tool. Whatever comes in,
//! a call prints exactly one parseable envelope, exits 0 (valid by chance), 1 or 2 as
//! its code says, never panics or fails internally, changes nothing outside the root
//! and creates nothing unless it succeeded.
//!
//! Every case spawns processes, so each property runs a modest number of cases. The
//! `fuzz/` crate holds the `cargo fuzz` targets for the pure parts (path lexing,
//! snippet matching).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, TestCaseError};
use serde_json::{json, Map, Value};

use crate::support::{request, tree, Run, TestWorkspace, TOOLS};

/// In the secret outside the root; never generated.
const LEAK: &str = "FUZZ-LEAK-0d9c";

/// Every field name any tool knows, aliases included, so that random objects often
/// carry real fields with random values.
const FIELDS: [&str; 30] = [
    "path",
    "content",
    "overwrite",
    "expectedSha256",
    "dryRun",
    "oldText",
    "newText",
    "replaceAll",
    "expectedReplacements",
    "edits",
    "offset",
    "limit",
    "maxBytes",
    "depth",
    "includeIgnored",
    "pattern",
    "query",
    "regex",
    "caseSensitive",
    "include",
    "context",
    "mode",
    "file_path",
    "old_string",
    "old_str",
    "new_string",
    "new_str",
    "replace_all",
    "expected_sha256",
    "dry_run",
];

fn config() -> Config {
    Config {
        cases: 64,
        failure_persistence: None,
        max_shrink_iters: 256,
        ..Config::default()
    }
}

/// A fresh workspace: files and a link out inside, a secret outside.
fn workspace() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\nbeta\n")
        .file("sub/b.txt", "bravo\n")
        .symlink("../outside/secret.txt", "link-out")
        .symlink("../outside", "dir-out");
    ws.outside_file("secret.txt", format!("alpha\n{LEAK}\n"));
    ws
}

fn inside(ws: &TestWorkspace) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut all = tree(&ws.root());
    all.retain(|p, _| !p.starts_with(".stitch"));
    all
}

/// Runs `stitch <tool> --json` on a fresh workspace with the stdin `make` writes for
/// it, and checks every invariant of a call.
fn holds_in(tool: &str, make: impl Fn(&TestWorkspace) -> Vec<u8>) -> Result<(), TestCaseError> {
    let ws = workspace();
    let stdin = make(&ws);
    let outside = tree(&ws.base().join("outside"));
    let before = inside(&ws);
    let mut cmd = ws.cmd();
    cmd.arg(tool)
        .arg("--json")
        .write_stdin(stdin)
        .timeout(Duration::from_secs(60));
    let output = cmd
        .output()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let code = output.status.code();
    let run = std::panic::catch_unwind(|| Run::from_output(output)).map_err(|_| {
        TestCaseError::fail(format!(
            "{tool}: not exactly one JSON line on stdout (exit {code:?}; stderr {stderr})"
        ))
    })?;
    let ok = run.envelope["ok"] == true;
    let error = run.envelope["error"].as_str().unwrap_or_default();
    let expected_status = if ok {
        0
    } else if error.starts_with("INVALID_") && error != "INVALID_CONFIG" {
        2
    } else {
        1
    };
    prop_assert!(
        !stderr.contains("panicked"),
        "{} panicked: {}",
        tool,
        stderr
    );
    prop_assert_ne!(
        error,
        "INTERNAL_SERVER_ERROR",
        "{} failed internally: {}",
        tool,
        run.stdout
    );
    prop_assert_eq!(run.status, expected_status, "{}: {}", tool, run.stdout);
    if !ok {
        prop_assert!(
            run.envelope["details"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "{}: no details.message: {}",
            tool,
            run.stdout
        );
    }
    prop_assert!(
        !run.stdout.contains(LEAK),
        "{} read outside: {}",
        tool,
        run.stdout
    );
    prop_assert!(
        tree(&ws.base().join("outside")) == outside,
        "{} changed something outside",
        tool
    );
    if !(ok && matches!(tool, "write" | "edit")) {
        prop_assert!(
            inside(&ws) == before,
            "{} changed the workspace without succeeding: {}",
            tool,
            run.stdout
        );
    }
    Ok(())
}

/// [`holds_in`] with fixed stdin.
fn holds(tool: &str, stdin: &[u8]) -> Result<(), TestCaseError> {
    holds_in(tool, |_| stdin.to_vec())
}

/// Strings that parsers and path code tend to trip on, and arbitrary ones.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        select(vec![
            "",
            ".",
            "..",
            "/",
            "a.txt",
            "sub",
            "sub/b.txt",
            "link-out",
            "dir-out/secret.txt",
            "../outside/secret.txt",
            "\0",
            "a\\b",
            ".stitch/x",
            ".git/config",
            "**",
            "[",
            "(",
            "(?=x)",
            "alpha",
            "\u{202e}",
            "\u{feff}",
            "-rf",
            "--help",
            "%s%n",
            "\r\n",
        ])
        .prop_map(str::to_owned),
        "\\PC{0,24}",
        ".{0,12}",
    ]
}

/// Any JSON value, nested a few levels, with real field names among the keys.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| {
            serde_json::Number::from_f64(f).map(Value::Number)
        }),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(key(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => select(FIELDS.to_vec()).prop_map(str::to_owned),
        1 => "[a-zA-Z_]{1,10}",
    ]
}

fn tool() -> impl Strategy<Value = &'static str> {
    select(TOOLS.to_vec())
}

proptest! {
    #![proptest_config(config())]

    /// Any JSON value at all as the request.
    #[test]
    fn any_json_value(tool in tool(), v in value()) {
        holds(tool, v.to_string().as_bytes())?;
    }

    /// An object of real field names with values of any type.
    #[test]
    fn real_fields_with_wrong_types(
        tool in tool(),
        fields in prop::collection::btree_map(select(FIELDS.to_vec()), value(), 1..6),
    ) {
        let object: Map<String, Value> =
            fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        holds(tool, Value::Object(object).to_string().as_bytes())?;
    }

    /// Bytes that are not UTF-8 (or not JSON), raw and inside JSON strings.
    #[test]
    fn invalid_utf8_on_stdin(
        tool in tool(),
        noise in prop::collection::vec(any::<u8>(), 0..256),
        inside_string in any::<bool>(),
    ) {
        let mut stdin = Vec::new();
        if inside_string {
            stdin.extend_from_slice(br#"{"path":"a"#);
            stdin.push(0xff);
            stdin.extend_from_slice(&noise);
            stdin.extend_from_slice(br#"","query":"x","pattern":"*"}"#);
        } else {
            stdin.push(0xc3);
            stdin.extend_from_slice(&noise);
        }
        holds(tool, &stdin)?;
    }

    /// Random paths built from hostile and ordinary components, through each tool's
    /// usual request.
    #[test]
    fn random_paths(
        tool in tool(),
        parts in prop::collection::vec(
            prop_oneof![
                4 => select(vec![
                    "..", ".", "", "a.txt", "sub", "b.txt", "link-out", "dir-out", "secret.txt",
                    ".stitch", ".git", ".STITCH", "new", "\u{200b}", "\u{e9}", "-x", "ws",
                    "outside", "proc", "self", "root",
                ]).prop_map(str::to_owned),
                1 => "[^/\\x00]{1,12}",
            ],
            1..7,
        ),
        absolute in any::<bool>(),
        trailing_slash in any::<bool>(),
    ) {
        let mut path = parts.join("/");
        if trailing_slash {
            path.push('/');
        }
        // Absolute ones start at the root, so that `..` and links decide where they lead.
        holds_in(tool, |ws| {
            let path = if absolute {
                format!("{}/{path}", ws.root().display())
            } else {
                path.clone()
            };
            request(tool, &path).to_string().into_bytes()
        })?;
    }
}

/// Huge strings in the string fields (a few cases: each is megabytes through a
/// process). Globs are left to the test below.
#[test]
fn huge_strings() {
    let config = Config {
        cases: 12,
        ..config()
    };
    proptest!(config, |(tool in tool(), field in select(vec!["path", "content", "oldText", "newText", "query"]), size in 4096usize..(3 << 20), fill in "[a-z/.]{1,3}")| {
        let huge = fill.repeat(size / fill.len());
        let mut v = request(tool, "a.txt");
        v[field] = json!(huge);
        holds(tool, v.to_string().as_bytes())?;
    });
}

/// A glob too large for the glob compiler's size limit is a refusal, not a panic.
#[test]

fn a_huge_glob_is_refused_not_a_panic() {
    let huge = ".".repeat(1 << 20);
    for (tool, request) in [
        ("glob", json!({"pattern": huge})),
        ("search", json!({"query": "x", "include": huge})),
    ] {
        holds(tool, request.to_string().as_bytes()).unwrap();
    }
}
