//! Tool arguments as one JSON object: reading it from stdin and parsing it into a
//! tool's request type, with every mistake named by field.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::refusal::{key, Code, Refusal};

/// A tool's request type: its name and the fields it accepts, for refusals.
pub trait Request: DeserializeOwned {
    /// The tool's name in schemas and envelopes.
    const TOOL: &'static str;
    /// The canonical field names.
    const FIELDS: &'static [&'static str];
    /// What the tool does and how to recover from each refusal, for a model.
    const DESCRIPTION: &'static str;
    /// The fields of nested items (`edits[]`), when the tool has them.
    const ITEM_FIELDS: &'static [&'static str] = &[];
}

/// Parses raw bytes as the arguments object.
pub fn parse_object(bytes: &[u8]) -> Result<Value, Refusal> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Err(Refusal::new(
            Code::InvalidArgument,
            "The JSON arguments on stdin are not valid UTF-8",
        )
        .with(key::FIELD, "stdin"));
    };
    if text.trim().is_empty() {
        return Ok(Value::Object(serde_json::Map::new()));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(other) => Err(not_an_object(&other).with(key::FIELD, "stdin")),
        Err(e) if raw_control(&e) => Err(Refusal::new(
            Code::InvalidArgument,
            format!(
                "The JSON arguments on stdin do not parse: a string holds a raw newline, tab or other control character {}; JSON spells them \\n and \\t",
                // serde_json puts a raw newline at column 0 of the next line.
                if e.column() == 0 {
                    format!("at the end of line {}", e.line().saturating_sub(1))
                } else {
                    format!("at line {} column {}", e.line(), e.column())
                }
            ),
        )
        .with(key::FIELD, "stdin")
        .with(key::REASON, key::RAW_CONTROL)
        .with("line", e.line())
        .with("column", e.column())),
        Err(e) => Err(Refusal::new(
            Code::InvalidArgument,
            format!("The JSON arguments on stdin do not parse: {e}"),
        )
        .with(key::FIELD, "stdin")
        .with("line", e.line())
        .with("column", e.column())),
    }
}

/// Whether `error` is a string holding a raw control character: the mistake of a JSON
/// written by hand in a heredoc, with real newlines inside `oldText`. serde_json does not
/// expose the error's kind, only its message.
fn raw_control(error: &serde_json::Error) -> bool {
    error.is_syntax() && error.to_string().starts_with("control character")
}

/// The arguments as the object every tool takes, whatever front end brought them (an MCP
/// client may send a string or an array as `arguments`).
pub fn object(arguments: Value) -> Result<Value, Refusal> {
    match arguments {
        Value::Object(_) => Ok(arguments),
        other => Err(not_an_object(&other).with(key::FIELD, "arguments")),
    }
}

fn not_an_object(value: &Value) -> Refusal {
    Refusal::new(
        Code::InvalidArgument,
        format!(
            "The arguments must be one JSON object, not {}",
            kind_of(value)
        ),
    )
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Drops every member whose value is `null`, at any depth: no field gives `null` a
/// meaning of its own, and a host in strict mode (OpenAI's) sends `null` for each
/// optional field it leaves out, so `null` is read as "absent" (and the default applies).
fn nulls_as_absent(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(nulls_as_absent);
        }
        Value::Array(items) => items.iter_mut().for_each(nulls_as_absent),
        _ => {}
    }
}

/// Parses the arguments object into `R`, naming the field of any mistake and listing the
/// allowed fields. A field whose value is `null` counts as not given.
pub fn parse<R: Request>(mut arguments: Value) -> Result<R, Refusal> {
    nulls_as_absent(&mut arguments);
    serde_path_to_error::deserialize::<_, R>(arguments).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.inner().to_string();
        let quoted = inner.split('`').nth(1).unwrap_or_default().to_owned();
        let nested = path.starts_with("edits[");
        let allowed = if nested { R::ITEM_FIELDS } else { R::FIELDS };
        let prefix = if path == "." {
            String::new()
        } else {
            format!("{path}.")
        };
        if inner.starts_with(crate::digest::MALFORMED) {
            return invalid(&path, format!("{path} {}", crate::digest::MALFORMED));
        }
        let (field, message) = if inner.starts_with("unknown field") {
            // The path already ends with the unknown field's name.
            let field = if path.ends_with(quoted.as_str()) {
                path.clone()
            } else {
                format!("{prefix}{quoted}")
            };
            let message = format!(
                "{} has no field `{field}`; the allowed fields are {}",
                R::TOOL,
                allowed.join(", ")
            );
            (field, message)
        } else if inner.starts_with("duplicate field") {
            let field = format!("{prefix}{quoted}");
            (
                field.clone(),
                format!(
                    "{} got the field `{field}` twice (perhaps under an alias)",
                    R::TOOL
                ),
            )
        } else if inner.starts_with("missing field") {
            let field = format!("{prefix}{quoted}");
            (
                field.clone(),
                format!("{} needs the field `{field}`", R::TOOL),
            )
        } else {
            let detail = inner.split(" at line ").next().unwrap_or(&inner);
            (
                path.clone(),
                format!("The field `{path}` of {} is not valid: {detail}", R::TOOL),
            )
        };
        Refusal::new(Code::InvalidArgument, message)
            .with(key::FIELD, field)
            .with(key::ALLOWED, allowed.to_vec())
    })
}

/// A refusal for a field whose value is out of range.
#[cold]
pub fn invalid(field: &str, message: impl Into<String>) -> Refusal {
    Refusal::new(Code::InvalidArgument, message).with(key::FIELD, field)
}
