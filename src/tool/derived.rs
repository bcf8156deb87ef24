//! The JSON Schema of a request or a result type, derived from the type itself
//! (schemars): what the registry hands each tool's definition, and the one shape every
//! host format starts from.

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::Value;

use super::args::Request;

/// The JSON Schema (draft 2020-12, subschemas inlined) of a request type: what it
/// accepts.
#[must_use]
pub fn of<R: Request + JsonSchema>() -> Value {
    SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator()
        .into_root_schema_for::<R>()
        .to_value()
}

/// The JSON Schema of a result type as it serializes: what a success's `data` holds. A
/// result of several shapes (an `anyOf`) is still an object, as MCP's `outputSchema`
/// must be, and lists every branch's properties, the branches saying which go together.
#[must_use]
pub fn of_output<T: JsonSchema>() -> Value {
    let mut schema = parameters(
        &SchemaSettings::draft2020_12()
            .for_serialize()
            .with(|s| s.inline_subschemas = true)
            .into_generator()
            .into_root_schema_for::<T>()
            .to_value(),
    );
    if let Some(map) = schema.as_object_mut() {
        if !map.contains_key("type") {
            map.insert("type".into(), Value::String("object".into()));
        }
        if !map.contains_key("properties") {
            let mut properties = serde_json::Map::new();
            let branches = map.get("anyOf").and_then(Value::as_array);
            for branch in branches.into_iter().flatten() {
                for (name, property) in branch["properties"].as_object().into_iter().flatten() {
                    properties
                        .entry(name.clone())
                        .or_insert_with(|| property.clone());
                }
            }
            map.insert("properties".into(), Value::Object(properties));
        }
    }
    schema
}

/// The schema as a tool's parameters: no `$schema` or `title`, which function-calling
/// APIs do not want.
pub fn parameters(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Some(map) = schema.as_object_mut() {
        map.remove("$schema");
        map.remove("title");
    }
    schema
}
