//! Tool definitions for models: name, description and the JSON Schema of the arguments,
//! generated from the same types that parse them, in the shape each function-calling
//! ecosystem expects; and the JSON Schema of each tool's result, for MCP's
//! `outputSchema`.

mod hosts;

use serde_json::{json, Value};

use super::derived::parameters;
use super::registry::{self, ToolSpec, TOOLS};

/// The shapes `stitch schema` can print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// `{name, description, schema}` with a full JSON Schema document.
    JsonSchema,
    /// Anthropic's tool use: `{name, description, input_schema}`, with no `type` arrays,
    /// so that the SDK's strict transform takes it.
    Anthropic,
    /// OpenAI's Chat Completions: `{type: "function", function: {name, description,
    /// parameters, strict: true}}`.
    Openai,
    /// OpenAI's Responses API: `{type: "function", name, description, parameters,
    /// strict: true}`.
    OpenaiResponses,
    /// The Model Context Protocol's `tools/list` result.
    Mcp,
}

impl Flavor {
    /// Every format, by the name the command line spells it.
    pub const NAMES: [(&'static str, Flavor); 5] = [
        ("json-schema", Flavor::JsonSchema),
        ("anthropic", Flavor::Anthropic),
        ("openai", Flavor::Openai),
        ("openai-responses", Flavor::OpenaiResponses),
        ("mcp", Flavor::Mcp),
    ];

    /// The format named `name` on the command line, if it is a schema format.
    #[must_use]
    pub fn parse(name: &str) -> Option<Flavor> {
        Flavor::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, format)| *format)
    }
}

/// One tool's definition in `format`.
#[must_use]
pub fn render(tool: &ToolSpec, format: Flavor) -> Value {
    let (name, description, schema) = (tool.name, tool.description, (tool.schema)());
    match format {
        Flavor::JsonSchema => json!({"name": name, "description": description, "schema": schema}),
        Flavor::Anthropic => json!({
            "name": name,
            "description": description,
            "input_schema": hosts::anthropic(parameters(&schema)),
        }),
        Flavor::Openai => json!({"type": "function", "function": {
            "name": name,
            "description": description,
            "parameters": hosts::openai(parameters(&schema)),
            "strict": true,
        }}),
        Flavor::OpenaiResponses => json!({
            "type": "function",
            "name": name,
            "description": description,
            "parameters": hosts::openai(parameters(&schema)),
            "strict": true,
        }),
        Flavor::Mcp => json!({
            "name": name,
            "title": tool.title,
            "description": description,
            "inputSchema": parameters(&schema),
            "outputSchema": (tool.output)(),
            "annotations": {
                "readOnlyHint": tool.annotations.read_only,
                "destructiveHint": tool.annotations.destructive,
                "idempotentHint": tool.annotations.idempotent,
            },
        }),
    }
}

/// Anthropic's text-editor tool, declared as the Messages API takes it (a schema-less
/// tool: the model knows its commands), for a host that passes its calls to `stitch
/// text-editor`.
fn text_editor() -> Value {
    json!({"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"})
}

/// The definitions of every tool (or only `tool`, by name or subcommand) in `format`.
#[must_use]
pub fn document(tool: Option<&str>, format: Flavor) -> Value {
    if let Some(wanted) = tool {
        return registry::find(wanted).map_or(Value::Null, |t| render(t, format));
    }
    let mut tools: Vec<Value> = TOOLS.iter().map(|t| render(t, format)).collect();
    if format == Flavor::Anthropic {
        tools.push(text_editor());
    }
    if format == Flavor::Mcp {
        json!({"tools": tools})
    } else {
        Value::Array(tools)
    }
}
