//! MCP's `outputSchema` is the truth about a success's `data`: a real envelope's `data`
//! from each tool validates against it, with no key the schema does not name.

use serde_json::{json, Value};

use super::{schema, TOOLS};
use crate::support::{Run, TestWorkspace};

/// `schema` with every object closed (`additionalProperties: false`), so that a key of
/// `data` the schema does not name fails validation.
fn closed(schema: &Value) -> Value {
    let mut schema = schema.clone();
    close(&mut schema);
    schema
}

fn close(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    // A result of several shapes (`anyOf`) is closed in each of its branches.
    if map.get("type") == Some(&json!("object"))
        && !map.contains_key("additionalProperties")
        && !map.contains_key("anyOf")
    {
        map.insert("additionalProperties".into(), json!(false));
    }
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        properties.values_mut().for_each(close);
    }
    if let Some(items) = map.get_mut("items") {
        close(items);
    }
    for keyword in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = map.get_mut(keyword) {
            branches.iter_mut().for_each(close);
        }
    }
}

/// Asserts that `run` succeeded and that its `data` validates against `tool`'s
/// `outputSchema`; returns `data`.
#[track_caller]
fn assert_output_valid(tool: &str, run: &Run) -> Value {
    assert!(TOOLS.contains(&tool));
    let data = run.ok().clone();
    let mcp = schema(&["--format", "mcp", tool]);
    let output = closed(&mcp["outputSchema"]);
    let validator = jsonschema::validator_for(&output).expect("a valid JSON Schema");
    let errors: Vec<String> = validator
        .iter_errors(&data)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{tool}: {errors:?}\ndata: {data}");
    data
}

#[test]
fn read_data_matches_its_output_schema() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\nthree\n");
    let data = assert_output_valid(
        "read_file",
        &ws.stitch("read", &json!({"path": "a.txt", "limit": 1})),
    );
    assert_eq!(data["nextOffset"], 2, "the optional field is covered");
}

#[test]
fn write_data_matches_its_output_schema() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "old\n");
    let data = assert_output_valid(
        "write_file",
        &ws.stitch(
            "write",
            &json!({"path": "a.txt", "content": "new\n", "overwrite": true}),
        ),
    );
    assert!(data["previousSha256"].is_string());
    assert_output_valid(
        "write_file",
        &ws.stitch("write", &json!({"path": "d/b.txt", "content": "x"})),
    );
}

#[test]
fn edit_data_matches_its_output_schema() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\nbeta\n");
    let data = assert_output_valid(
        "edit_file",
        &ws.stitch(
            "edit",
            &json!({"path": "a.txt", "oldText": "alpha", "newText": "gamma", "dryRun": true}),
        ),
    );
    assert_eq!(data["applied"], false);
    assert_output_valid(
        "edit_file",
        &ws.stitch(
            "edit",
            &json!({"path": "a.txt", "edits": [{"oldText": "beta", "newText": "delta"}]}),
        ),
    );
}

#[test]
fn list_data_matches_its_output_schema() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a").file("b.txt", "b").dir("d");
    let data = assert_output_valid("list_directory", &ws.stitch("list", &json!({"limit": 2})));
    assert_eq!(data["truncated"], true);
    assert!(data["hint"].is_string(), "the optional field is covered");
}

#[test]
fn glob_data_matches_its_output_schema() {
    let ws = TestWorkspace::new();
    ws.file("src/a.rs", "").file("src/b.rs", "");
    let data = assert_output_valid(
        "glob",
        &ws.stitch("glob", &json!({"pattern": "**/*.rs", "limit": 1})),
    );
    assert_eq!(data["matches"], json!(["src/a.rs"]));
}

#[test]
fn search_data_matches_its_output_schema() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\nthree\n");
    let data = assert_output_valid(
        "search_files",
        &ws.stitch("search", &json!({"query": "two", "context": 1})),
    );
    assert_eq!(data["matches"][0]["before"], json!(["one"]));
    assert_output_valid(
        "search_files",
        &ws.stitch("search", &json!({"query": "a.t", "mode": "path"})),
    );
}
