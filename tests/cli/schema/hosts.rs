//! Each host format obeys its host's rules, checked by walking the printed JSON: OpenAI's
//! strict mode (Chat Completions and Responses), Anthropic's strict transform, MCP's
//! `tools/list`; and the strict schemas accept the requests the plain one does, with
//! `null` for every field left out — which the tools take as absent.

use serde_json::{json, Map, Value};

use super::{schema, TOOLS};
use crate::support::TestWorkspace;

/// Calls `visit` on `schema` and every subschema in it (not on property names, `enum`
/// values or `default`s), with the path to it.
fn walk(schema: &Value, path: &str, visit: &mut dyn FnMut(&Map<String, Value>, &str)) {
    let Some(map) = schema.as_object() else {
        return;
    };
    visit(map, path);
    if let Some(Value::Object(properties)) = map.get("properties") {
        for (name, property) in properties {
            walk(property, &format!("{path}.properties.{name}"), visit);
        }
    }
    for keyword in ["items", "additionalProperties", "not"] {
        if let Some(sub) = map.get(keyword) {
            walk(sub, &format!("{path}.{keyword}"), visit);
        }
    }
    for keyword in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = map.get(keyword) {
            for (i, branch) in branches.iter().enumerate() {
                walk(branch, &format!("{path}.{keyword}[{i}]"), visit);
            }
        }
    }
}

fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

fn is_nullable(schema: &Map<String, Value>) -> bool {
    schema
        .get("anyOf")
        .and_then(Value::as_array)
        .is_some_and(|branches| branches.iter().any(|b| b == &json!({"type": "null"})))
}

/// The names of the properties the plain JSON Schema of `tool` requires.
fn required_in_plain(tool: &str) -> Vec<String> {
    let plain = schema(&[tool]);
    plain["schema"]["required"]
        .as_array()
        .map(|names| {
            names
                .iter()
                .map(|n| n.as_str().unwrap().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// OpenAI's strict mode: every object closed, every property required, optional ones
/// nullable, and none of the keywords strict mode refuses.
fn assert_openai_strict(parameters: &Value, tool: &str) {
    assert_eq!(
        parameters["type"], "object",
        "{tool}: the root is an object"
    );
    let plain_required = required_in_plain(tool);
    walk(parameters, "$", &mut |schema, path| {
        for keyword in ["format", "default", "oneOf"] {
            assert!(
                !schema.contains_key(keyword),
                "{tool} {path}: strict mode takes no `{keyword}`"
            );
        }
        if schema.get("type") == Some(&json!("object")) {
            assert_eq!(
                schema.get("additionalProperties"),
                Some(&json!(false)),
                "{tool} {path}: objects are closed"
            );
            let properties: Vec<&String> =
                schema["properties"].as_object().unwrap().keys().collect();
            let required: Vec<&str> = schema["required"]
                .as_array()
                .map(|names| names.iter().map(|n| n.as_str().unwrap()).collect())
                .unwrap_or_default();
            assert_eq!(
                properties, required,
                "{tool} {path}: every property is required, in order"
            );
        }
    });
    for (name, property) in parameters["properties"].as_object().unwrap() {
        if !plain_required.contains(name) {
            assert!(
                is_nullable(property.as_object().unwrap()),
                "{tool}: the optional `{name}` is nullable"
            );
        }
    }
}

#[test]
fn openai_chat_completions_is_strict() {
    let tools = schema(&["--format", "openai"]);
    let tools = tools.as_array().unwrap();
    assert_eq!(tools.len(), TOOLS.len());
    for (tool, name) in tools.iter().zip(TOOLS) {
        assert_eq!(keys(tool), ["function", "type"]);
        assert_eq!(tool["type"], "function");
        let function = &tool["function"];
        assert_eq!(
            keys(function),
            ["description", "name", "parameters", "strict"]
        );
        assert_eq!(function["name"], name);
        assert_eq!(function["strict"], true);
        assert_openai_strict(&function["parameters"], name);
    }
}

#[test]
fn openai_responses_is_flat_and_strict() {
    let tools = schema(&["--format", "openai-responses"]);
    let chat = schema(&["--format", "openai"]);
    let tools = tools.as_array().unwrap();
    assert_eq!(tools.len(), TOOLS.len());
    for ((tool, chat), name) in tools.iter().zip(chat.as_array().unwrap()).zip(TOOLS) {
        assert_eq!(
            keys(tool),
            ["description", "name", "parameters", "strict", "type"]
        );
        assert_eq!(tool["type"], "function");
        assert_eq!(tool["name"], name);
        assert_eq!(tool["strict"], true);
        assert_openai_strict(&tool["parameters"], name);
        assert_eq!(tool["parameters"], chat["function"]["parameters"]);
    }
}

#[test]
fn anthropic_has_no_type_arrays_and_optional_fields_are_nullable() {
    let tools = schema(&["--format", "anthropic"]);
    let tools = tools.as_array().unwrap();
    // The function tools, then Anthropic's own text-editor tool (no input_schema).
    assert_eq!(tools.len(), TOOLS.len() + 1);
    assert_eq!(tools[TOOLS.len()]["type"], "text_editor_20250728");
    for (tool, name) in tools.iter().zip(TOOLS) {
        assert_eq!(keys(tool), ["description", "input_schema", "name"]);
        assert_eq!(tool["name"], name);
        let input = &tool["input_schema"];
        assert_eq!(input["type"], "object");
        walk(input, "$", &mut |schema, path| {
            if let Some(t) = schema.get("type") {
                assert!(t.is_string(), "{name} {path}: `type` is one type, not {t}");
            }
            for keyword in ["format", "default", "minimum", "oneOf"] {
                assert!(
                    !schema.contains_key(keyword),
                    "{name} {path}: the strict transform would move `{keyword}` into the description"
                );
            }
            if schema.get("type") == Some(&json!("object")) {
                assert_eq!(schema.get("additionalProperties"), Some(&json!(false)));
            }
            // The transform keeps an enum's values and drops the `type` beside them.
            if schema.contains_key("enum") {
                assert!(
                    !schema.contains_key("type"),
                    "{name} {path}: the strict transform would drop the `type` beside `enum`"
                );
            }
        });
        let required = required_in_plain(name);
        assert_eq!(
            input.get("required").cloned().unwrap_or(json!([])),
            json!(required),
            "{name}"
        );
        for (field, property) in input["properties"].as_object().unwrap() {
            assert_eq!(
                is_nullable(property.as_object().unwrap()),
                !required.contains(field),
                "{name}: `{field}` is nullable exactly when it is optional"
            );
        }
    }
}

#[test]
fn mcp_lists_every_tool_with_an_object_output_schema() {
    let listed = schema(&["--format", "mcp"]);
    assert_eq!(keys(&listed), ["tools"]);
    let tools = listed["tools"].as_array().unwrap();
    assert_eq!(tools.len(), TOOLS.len());
    for (tool, name) in tools.iter().zip(TOOLS) {
        assert_eq!(
            keys(tool),
            [
                "annotations",
                "description",
                "inputSchema",
                "name",
                "outputSchema",
                "title"
            ]
        );
        assert_eq!(tool["name"], name);
        assert!(tool["title"].as_str().is_some_and(|t| !t.is_empty()));
        assert_eq!(
            keys(&tool["annotations"]),
            ["destructiveHint", "idempotentHint", "readOnlyHint"]
        );
        for key in ["inputSchema", "outputSchema"] {
            assert_eq!(tool[key]["type"], "object", "{name} {key}");
            assert!(tool[key]["properties"].is_object(), "{name} {key}");
            assert!(tool[key].get("$schema").is_none(), "{name} {key}");
            jsonschema::validator_for(&tool[key]).expect("a valid JSON Schema");
        }
        // The input schema is the one `stitch schema` prints, less `$schema` and `title`.
        let mut plain = schema(&[name])["schema"].clone();
        plain.as_object_mut().unwrap().remove("$schema");
        plain.as_object_mut().unwrap().remove("title");
        assert_eq!(tool["inputSchema"], plain, "{name}");
    }
}

/// Requests the plain schema and the tools accept, as (tool, arguments).
fn valid_requests() -> Vec<(&'static str, Value)> {
    vec![
        (
            "read_file",
            json!({"path": "a.txt", "offset": 2, "limit": 10}),
        ),
        ("read_files", json!({"paths": ["a.txt"], "limit": 1})),
        ("write_file", json!({"path": "b.txt", "content": "x"})),
        (
            "edit_file",
            json!({"path": "a.txt", "oldText": "alpha", "newText": "gamma"}),
        ),
        (
            "edit_file",
            json!({"path": "a.txt", "edits": [{"oldText": "alpha", "newText": "gamma"}]}),
        ),
        ("list_directory", json!({})),
        ("glob", json!({"pattern": "*.txt"})),
        ("search_files", json!({"query": "alpha", "mode": "path"})),
    ]
}

/// `arguments` with `null` for every field of `parameters` it leaves out, at every depth:
/// what a strict-mode host sends.
fn with_nulls(arguments: &Value, parameters: &Value) -> Value {
    let mut filled = arguments.clone();
    let (Some(map), Some(properties)) =
        (filled.as_object_mut(), parameters["properties"].as_object())
    else {
        return filled;
    };
    for (name, property) in properties {
        match map.get_mut(name) {
            None => {
                map.insert(name.clone(), Value::Null);
            }
            Some(Value::Array(items)) => {
                let item_schema = property["anyOf"][0]["items"].clone();
                for item in items.iter_mut() {
                    *item = with_nulls(item, &item_schema);
                }
            }
            Some(_) => {}
        }
    }
    filled
}

#[test]
fn strict_schemas_take_valid_requests_with_nulls_and_the_tools_do_too() {
    let openai = schema(&["--format", "openai"]);
    let anthropic = schema(&["--format", "anthropic"]);
    for (tool, arguments) in valid_requests() {
        let index = TOOLS.iter().position(|t| *t == tool).unwrap();
        let parameters = &openai[index]["function"]["parameters"];
        let strict = with_nulls(&arguments, parameters);
        let openai_validator = jsonschema::validator_for(parameters).unwrap();
        assert!(openai_validator.is_valid(&strict), "openai {tool} {strict}");
        let anthropic_validator =
            jsonschema::validator_for(&anthropic[index]["input_schema"]).unwrap();
        assert!(anthropic_validator.is_valid(&arguments), "anthropic {tool}");
        assert!(anthropic_validator.is_valid(&strict), "anthropic {tool}");
        assert!(
            !openai_validator.is_valid(&arguments),
            "openai {tool}: strict mode wants every field, so {arguments} alone is not enough"
        );

        // The tool takes the strict request as it takes the plain one.
        let ws = TestWorkspace::new();
        ws.file("a.txt", "alpha\nbeta\n");
        let command = tool.split('_').next().unwrap();
        let plain = ws.stitch(command, &arguments);
        plain.ok();
        let ws = TestWorkspace::new();
        ws.file("a.txt", "alpha\nbeta\n");
        let nulls = ws.stitch(command, &strict);
        // Each change has an id of its own.
        let without_id = |envelope: &Value| {
            let mut envelope = envelope.clone();
            if let Some(data) = envelope["data"].as_object_mut() {
                data.remove("id");
            }
            envelope
        };
        assert_eq!(
            without_id(&nulls.envelope),
            without_id(&plain.envelope),
            "{tool} {strict}"
        );
    }
}
