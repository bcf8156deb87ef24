//! The arguments' JSON Schema rewritten into the subset each host's strict mode takes.
//!
//! Both rewrites keep what a schema accepts, except that every optional field also
//! accepts `null` — which the tools read as "absent" (`args::parse`):
//!
//! * no `type` arrays: `"type": ["integer", "null"]` becomes `anyOf` with `{"type":
//!   "null"}`, the form the Anthropic SDK's `transform_schema` and OpenAI's own pydantic
//!   helpers produce;
//! * every optional property is nullable that way, and every object says
//!   `additionalProperties: false`;
//! * a `oneOf` of constants (a Rust enum) becomes one `enum`;
//! * for Anthropic, no `type` beside an `enum` or `const` of plain values, as its SDK's
//!   strict transform prints them;
//! * keywords the host does not take are dropped: `format` and `default` for both (the
//!   descriptions state the defaults), and `minimum` for Anthropic, whose strict transform
//!   would otherwise fold it into the description.
//!
//! OpenAI's strict mode also wants every property listed in `required` (an optional one
//! is sent as `null`); Anthropic's keeps the true `required` list.
//! See <https://platform.openai.com/docs/guides/structured-outputs#supported-schemas> and
//! the Anthropic SDK's `lib/_parse/_transform.py`.

use serde_json::{json, Map, Value};

/// Anthropic's tool `input_schema`.
#[must_use]
pub fn anthropic(mut schema: Value) -> Value {
    rewrite(
        &mut schema,
        &Rules {
            drop: &["format", "default", "minimum"],
            require_all: false,
        },
    );
    literals_without_type(&mut schema);
    schema
}

/// Drops the `type` beside an `enum` or `const` of plain values, as the Anthropic SDK's
/// `transform_schema` does (the values say it all): the printed schema is then exactly
/// what the SDK would send, and the transform leaves it unchanged.
fn literals_without_type(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            let plain = |v: &Value| !v.is_object() && !v.is_array();
            let literal = map
                .get("enum")
                .and_then(Value::as_array)
                .is_some_and(|values| !values.is_empty() && values.iter().all(plain))
                || map.get("const").is_some_and(plain);
            if literal {
                map.remove("type");
            }
            for value in map.values_mut() {
                literals_without_type(value);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(literals_without_type),
        _ => {}
    }
}

/// OpenAI's strict function `parameters` (Chat Completions and Responses alike).
#[must_use]
pub fn openai(mut schema: Value) -> Value {
    rewrite(
        &mut schema,
        &Rules {
            drop: &["format", "default"],
            require_all: true,
        },
    );
    schema
}

/// How one host's rewrite differs from another's.
struct Rules {
    /// Keywords removed from every subschema.
    drop: &'static [&'static str],
    /// List every property in `required` (optional ones are nullable anyway).
    require_all: bool,
}

/// Keywords that describe a schema rather than constrain it: they stay on the outer
/// schema when its constraints move into an `anyOf` branch.
const ANNOTATIONS: [&str; 4] = ["description", "title", "default", "examples"];

/// Rewrites `schema` and its subschemas, innermost first.
fn rewrite(schema: &mut Value, rules: &Rules) {
    let Value::Object(map) = schema else {
        return;
    };
    for keyword in rules.drop {
        map.remove(*keyword);
    }
    if let Some(Value::Object(properties)) = map.get_mut("properties") {
        for property in properties.values_mut() {
            rewrite(property, rules);
        }
    }
    for keyword in ["items", "additionalProperties"] {
        if let Some(sub @ Value::Object(_)) = map.get_mut(keyword) {
            rewrite(sub, rules);
        }
    }
    for keyword in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = map.get_mut(keyword) {
            for branch in branches {
                rewrite(branch, rules);
            }
        }
    }
    constants_to_enum(map);
    split_type_array(map);
    if map.get("type").and_then(Value::as_str) == Some("object") {
        strict_object(map, rules);
    }
    // An optional object (`"type": ["object", "null"]`): its object branch, made by the
    // split above after its subschemas were rewritten, is closed as any object is.
    if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
        for branch in branches {
            if let Value::Object(branch) = branch {
                if branch.get("type").and_then(Value::as_str) == Some("object") {
                    strict_object(branch, rules);
                }
            }
        }
    }
}

/// `additionalProperties: false`, optional properties nullable, and (for OpenAI) every
/// property required.
fn strict_object(map: &mut Map<String, Value>, rules: &Rules) {
    map.insert("additionalProperties".into(), Value::Bool(false));
    let required: Vec<String> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let Some(Value::Object(properties)) = map.get_mut("properties") else {
        return;
    };
    for (name, property) in properties.iter_mut() {
        if !required.contains(name) {
            make_nullable(property);
        }
    }
    if rules.require_all {
        let all: Vec<Value> = properties.keys().map(|k| json!(k)).collect();
        map.insert("required".into(), Value::Array(all));
    }
}

fn is_null_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
}

/// Lets `schema` accept `null` too: `{anyOf: [schema, {type: null}]}`, its annotations
/// kept outside.
fn make_nullable(schema: &mut Value) {
    let Value::Object(map) = schema else {
        return;
    };
    let already = map
        .get("anyOf")
        .and_then(Value::as_array)
        .is_some_and(|branches| branches.iter().any(is_null_schema));
    if already || map.get("type").and_then(Value::as_str) == Some("null") {
        return;
    }
    let (outer, branch) = split_annotations(std::mem::take(map));
    *map = outer;
    map.insert(
        "anyOf".into(),
        json!([Value::Object(branch), {"type": "null"}]),
    );
}

/// Separates a schema's annotations from its constraints.
fn split_annotations(map: Map<String, Value>) -> (Map<String, Value>, Map<String, Value>) {
    map.into_iter()
        .partition(|(keyword, _)| ANNOTATIONS.contains(&keyword.as_str()))
}

/// `"type": [T, "null"]` becomes `anyOf: [{type: T, ...constraints}, {type: "null"}]`
/// (one branch per type that is not null).
fn split_type_array(map: &mut Map<String, Value>) {
    let Some(Value::Array(types)) = map.get("type") else {
        return;
    };
    let types = types.clone();
    map.remove("type");
    let (outer, constraints) = split_annotations(std::mem::take(map));
    *map = outer;
    let branches: Vec<Value> = types
        .iter()
        .map(|t| {
            if t == "null" {
                json!({"type": "null"})
            } else {
                let mut branch = constraints.clone();
                branch.insert("type".into(), t.clone());
                Value::Object(branch)
            }
        })
        .collect();
    map.insert("anyOf".into(), Value::Array(branches));
}

/// A `oneOf` whose branches are each one constant (a Rust enum with documented
/// variants) becomes `{type, enum: [...]}`; OpenAI's strict mode has no `oneOf`.
fn constants_to_enum(map: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = map.get("oneOf") else {
        return;
    };
    let constants: Option<Vec<Value>> = branches.iter().map(|b| b.get("const").cloned()).collect();
    let Some(constants) = constants else {
        return;
    };
    let types: Vec<&Value> = branches.iter().filter_map(|b| b.get("type")).collect();
    let one_type = (types.len() == branches.len() && types.windows(2).all(|w| w[0] == w[1]))
        .then(|| types.first().map(|t| (*t).clone()))
        .flatten();
    map.remove("oneOf");
    if let Some(t) = one_type {
        map.insert("type".into(), t);
    }
    map.insert("enum".into(), Value::Array(constants));
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{anthropic, openai};

    #[test]
    fn optional_fields_become_nullable_without_type_arrays() {
        let schema = json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "P"},
                "limit": {"type": ["integer", "null"], "format": "uint64", "minimum": 0,
                          "description": "L"},
                "dryRun": {"type": "boolean", "default": false},
                "mode": {"anyOf": [
                    {"oneOf": [{"type": "string", "const": "a", "description": "A"},
                               {"type": "string", "const": "b"}]},
                    {"type": "null"}]},
            },
            "required": ["path"],
        });
        assert_eq!(
            anthropic(schema.clone()),
            json!({
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "P"},
                    "limit": {"description": "L",
                              "anyOf": [{"type": "integer"}, {"type": "null"}]},
                    "dryRun": {"anyOf": [{"type": "boolean"}, {"type": "null"}]},
                    // No `type` beside the enum, as the SDK's transform writes it.
                    "mode": {"anyOf": [{"enum": ["a", "b"]}, {"type": "null"}]},
                },
                "required": ["path"],
                "additionalProperties": false,
            })
        );
        let strict = openai(schema);
        // OpenAI's strict mode keeps the `type` beside an enum.
        assert_eq!(
            strict["properties"]["mode"]["anyOf"][0],
            json!({"type": "string", "enum": ["a", "b"]})
        );
        assert_eq!(
            strict["required"],
            json!(["path", "limit", "dryRun", "mode"])
        );
        assert_eq!(
            strict["properties"]["limit"]["anyOf"],
            json!([{"type": "integer", "minimum": 0}, {"type": "null"}])
        );
    }
}
