//! Tool definitions for models: name, description and the JSON Schema of the arguments,
//! generated from the same types that parse them, in the shape each function-calling
//! ecosystem expects.

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{json, Value};

use super::args::Request;
use super::{edit, glob, list, read, search, write};

/// The shapes `stitch schema` can print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `{name, description, schema}` with a full JSON Schema document.
    JsonSchema,
    /// Anthropic's tool use: `{name, description, input_schema}`.
    Anthropic,
    /// OpenAI's function calling: `{type: "function", function: {name, description, parameters}}`.
    Openai,
    /// The Model Context Protocol's `tools/list`: `{name, description, inputSchema}`.
    Mcp,
}

impl Format {
    /// The format named `name` on the command line, if it is a schema format.
    #[must_use]
    pub fn parse(name: &str) -> Option<Format> {
        match name {
            "json-schema" => Some(Format::JsonSchema),
            "anthropic" => Some(Format::Anthropic),
            "openai" => Some(Format::Openai),
            "mcp" => Some(Format::Mcp),
            _ => None,
        }
    }
}

/// One tool: its name, its subcommand, what it does, and its arguments' schema.
#[derive(Debug, Clone)]
pub struct Definition {
    pub name: &'static str,
    pub command: &'static str,
    pub description: &'static str,
    pub schema: Value,
}

fn define<R: Request + JsonSchema>(command: &'static str) -> Definition {
    let generator = SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator();
    Definition {
        name: R::TOOL,
        command,
        description: R::DESCRIPTION,
        schema: generator.into_root_schema_for::<R>().to_value(),
    }
}

/// Every tool, in the contract's order.
#[must_use]
pub fn definitions() -> Vec<Definition> {
    vec![
        define::<read::ReadRequest>("read"),
        define::<write::WriteRequest>("write"),
        define::<edit::EditRequest>("edit"),
        define::<list::ListRequest>("list"),
        define::<glob::GlobRequest>("glob"),
        define::<search::SearchRequest>("search"),
    ]
}

/// The names `stitch schema TOOL` accepts: tool names and subcommands.
pub const NAMES: [&str; 12] = [
    "read_file",
    "write_file",
    "edit_file",
    "list_directory",
    "glob",
    "search_files",
    "read",
    "write",
    "edit",
    "list",
    "search",
    "glob",
];

/// The schema as a tool's parameters: no `$schema` or `title`, which function-calling
/// APIs do not want.
fn parameters(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Some(map) = schema.as_object_mut() {
        map.remove("$schema");
        map.remove("title");
    }
    schema
}

/// One definition in `format`.
#[must_use]
pub fn render(definition: &Definition, format: Format) -> Value {
    let Definition {
        name,
        description,
        schema,
        ..
    } = definition;
    match format {
        Format::JsonSchema => json!({"name": name, "description": description, "schema": schema}),
        Format::Anthropic => {
            json!({"name": name, "description": description, "input_schema": parameters(schema)})
        }
        Format::Openai => json!({"type": "function", "function": {
            "name": name, "description": description, "parameters": parameters(schema)}}),
        Format::Mcp => {
            json!({"name": name, "description": description, "inputSchema": parameters(schema)})
        }
    }
}

/// The definitions of every tool (or only `tool`, by name or subcommand) in `format`.
#[must_use]
pub fn document(tool: Option<&str>, format: Format) -> Value {
    let all = definitions();
    if let Some(wanted) = tool {
        return all
            .iter()
            .find(|d| d.name == wanted || d.command == wanted)
            .map_or(Value::Null, |d| render(d, format));
    }
    let tools: Vec<Value> = all.iter().map(|d| render(d, format)).collect();
    if format == Format::Mcp {
        json!({"tools": tools})
    } else {
        Value::Array(tools)
    }
}
