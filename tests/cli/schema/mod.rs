//! `stitch schema`: tool definitions that parse as JSON Schema, validate real requests,
//! appear in every format, and describe exactly the codes the code emits.

use std::collections::BTreeSet;

use serde_json::{json, Value};
use stitch::refusal::Code;

use crate::support::{TestWorkspace, SHA256, STRING};

// Each host format obeys its host's rules; strict requests with nulls work.
mod hosts;
// A real success's data validates against the tool's outputSchema.
mod output;

const TOOLS: [&str; 13] = [
    "read_file",
    "read_files",
    "write_file",
    "edit_file",
    "list_directory",
    "glob",
    "search_files",
    "apply_patch",
    "delete_file",
    "move_file",
    "list_changes",
    "show_change",
    "undo_change",
];

/// Runs `stitch schema` with `args` and parses its plain JSON output.
fn schema(args: &[&str]) -> Value {
    let ws = TestWorkspace::new();
    let output = ws.cmd().arg("schema").args(args).output().unwrap();
    assert!(output.status.success(), "{output:?}");
    serde_json::from_slice(&output.stdout).expect("schema prints JSON")
}

fn by_name(tools: &Value, name: &str, key: &str) -> Value {
    tools
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("{name} missing"))[key]
        .clone()
}

#[test]
fn every_tool_appears_in_every_format() {
    let names = |tools: &Value, path: &[&str]| -> Vec<String> {
        tools
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                let mut v = t;
                for key in path {
                    v = &v[*key];
                }
                v.as_str().unwrap().to_owned()
            })
            .collect()
    };
    let expected: Vec<String> = TOOLS.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(names(&schema(&[]), &["name"]), expected);
    assert_eq!(
        names(&schema(&["--format", "json-schema"]), &["name"]),
        expected
    );
    let anthropic = schema(&["--format", "anthropic"]);
    // Anthropic's own text-editor tool comes last, declared as the Messages API takes it.
    let mut with_editor = expected.clone();
    with_editor.push("str_replace_based_edit_tool".to_owned());
    assert_eq!(names(&anthropic, &["name"]), with_editor);
    assert_eq!(
        anthropic[TOOLS.len()],
        json!({"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"})
    );
    assert!(anthropic[0]["input_schema"]["properties"].is_object());
    let openai = schema(&["--format", "openai"]);
    assert_eq!(names(&openai, &["function", "name"]), expected);
    assert!(openai
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["type"] == "function"));
    assert!(openai[0]["function"]["parameters"]["properties"].is_object());
    let mcp = schema(&["--format", "mcp"]);
    assert_eq!(names(&mcp["tools"], &["name"]), expected);
    assert!(mcp["tools"][0]["inputSchema"]["properties"].is_object());
}

#[test]
fn one_tool_by_name_or_subcommand() {
    let by_tool = schema(&["edit_file"]);
    let by_command = schema(&["edit"]);
    assert_eq!(by_tool, by_command);
    assert_eq!(by_tool["name"], "edit_file");
}

#[test]
fn schemas_validate_real_requests_and_reject_bad_ones() {
    let tools = schema(&[]);
    let cases: [(&str, Value, bool); 14] = [
        (
            "read_file",
            json!({"path": "a.txt", "offset": 2, "limit": 10}),
            true,
        ),
        ("read_file", json!({"offset": 2}), false),
        ("read_file", json!({"path": "a.txt", "lines": 3}), false),
        ("read_file", json!({"path": "a.txt", "offset": "x"}), false),
        (
            "write_file",
            json!({"path": "a", "content": "x", "overwrite": true}),
            true,
        ),
        ("write_file", json!({"path": "a"}), false),
        (
            "edit_file",
            json!({"path": "a", "oldText": "x", "newText": "y"}),
            true,
        ),
        (
            "edit_file",
            json!({"path": "a", "edits": [{"oldText": "x", "newText": "y", "replaceAll": true}]}),
            true,
        ),
        (
            "edit_file",
            json!({"path": "a", "edits": [{"oldText": "x"}]}),
            false,
        ),
        ("list_directory", json!({}), true),
        ("list_directory", json!({"depth": -1}), false),
        ("glob", json!({"pattern": "**/*.rs", "limit": 5}), true),
        (
            "search_files",
            json!({"query": "x", "mode": "path", "context": 2}),
            true,
        ),
        (
            "search_files",
            json!({"query": "x", "mode": "lines"}),
            false,
        ),
    ];
    for (tool, request, valid) in cases {
        let schema = by_name(&tools, tool, "schema");
        assert_eq!(
            schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{tool}"
        );
        let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
        assert_eq!(validator.is_valid(&request), valid, "{tool} {request}");
    }
}

#[test]
fn schema_valid_requests_are_accepted_by_the_tools() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\nbeta\n");
    ws.stitch(
        "read",
        &json!({"path": "a.txt", "offset": 1, "limit": 1, "maxBytes": 100}),
    )
    .ok();
    ws.stitch(
        "edit",
        &json!({"path": "a.txt", "edits": [{"oldText": "alpha", "newText": "gamma"}], "dryRun": true}),
    )
    .ok();
    ws.stitch(
        "search",
        &json!({"query": "BETA", "caseSensitive": false, "mode": "content", "context": 1}),
    )
    .ok();
    ws.stitch(
        "list",
        &json!({"path": ".", "depth": 2, "includeIgnored": true}),
    )
    .ok();
}

/// The refusal codes a text names.
fn codes_in(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_uppercase() || c == '_'))
        .filter(|w| w.len() > 3 && w.contains('_') || matches!(*w, "BUSY" | "DENIED"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn descriptions_name_exactly_the_codes_that_exist() {
    let tools = schema(&[]);
    let known: BTreeSet<String> = Code::ALL.iter().map(|c| c.as_str().to_owned()).collect();
    let mut named = BTreeSet::new();
    for tool in TOOLS {
        let description = by_name(&tools, tool, "description");
        let found = codes_in(description.as_str().unwrap());
        for code in &found {
            assert!(
                known.contains(code),
                "{tool}'s description names {code}, which is not a refusal code"
            );
        }
        named.extend(found);
    }
    for code in &known {
        assert!(
            named.contains(code),
            "no description tells a model about {code}"
        );
    }
}

/// The MCP format carries what hosts show in approval prompts: a title, and annotations
/// that say which tools only read (read, list, glob, search, history, show) and which may
/// replace content (write, edit, delete, move, undo).
#[test]
fn mcp_definitions_carry_titles_and_annotations() {
    let tools = schema(&["--format", "mcp"]);
    let expected = [
        ("read_file", "Read a file", true, false, true),
        ("read_files", "Read several files", true, false, true),
        ("write_file", "Write a file", false, true, true),
        ("edit_file", "Edit a file", false, true, false),
        ("list_directory", "List a directory", true, false, true),
        ("glob", "Find files by glob", true, false, true),
        ("search_files", "Search files", true, false, true),
        (
            "apply_patch",
            "Apply a patch across files",
            false,
            true,
            false,
        ),
        ("delete_file", "Delete a file", false, true, false),
        ("move_file", "Move a file", false, true, false),
        ("list_changes", "List changes", true, false, true),
        ("show_change", "Show a change", true, false, true),
        ("undo_change", "Undo a change", false, true, false),
    ];
    let listed: Vec<&str> = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        listed,
        expected.map(|e| e.0),
        "one entry per tool, in order"
    );
    for (name, title, read_only, destructive, idempotent) in expected {
        assert_eq!(by_name(&tools["tools"], name, "title"), json!(title));
        assert_eq!(
            by_name(&tools["tools"], name, "annotations"),
            json!({
                "readOnlyHint": read_only,
                "destructiveHint": destructive,
                "idempotentHint": idempotent,
            }),
            "{name}"
        );
    }
}

/// A strict-mode host sends `null` for every optional field it leaves out, at every
/// depth: the tools take it as absent, so the defaults apply.
#[test]
fn null_is_an_absent_field() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\n");
    ws.stitch(
        "edit",
        &json!({
            "path": "a.txt", "oldText": null, "newText": null, "replaceAll": null,
            "expectedReplacements": null, "expectedSha256": null, "dryRun": null,
            "edits": [{"oldText": "alpha", "newText": "gamma", "replaceAll": null,
                       "expectedReplacements": null}],
        }),
    )
    .assert_envelope(&json!({
        "ok": true,
        "data": {
            "path": "a.txt",
            "baseSha256": SHA256,
            "sha256": SHA256,
            "replacements": 1,
            "bytes": 6,
            "applied": true,
            "id": STRING,
            "diff": "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-alpha\n+gamma\n",
        }
    }));
    assert_eq!(ws.read_string("a.txt"), "gamma\n");
    // A required field sent as null is missing.
    ws.stitch("read", &json!({"path": null, "offset": null}))
        .assert_envelope(&json!({
            "ok": false,
            "error": "INVALID_ARGUMENT",
            "details": {
                "message": "read_file needs the field `path`",
                "field": "path",
                "allowed": ["path", "offset", "limit", "maxBytes", "lineNumbers"],
            },
            "_hint": "Fix the `path` argument and call again.",
        }));
}
