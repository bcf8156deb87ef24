//! The sections a tool's own page (`stitch-read.1`, ...) adds to clap_mangen's: its JSON
//! fields beside the flags that set them, the refusals it can return, and the stdin rule.
//! The fields come from the tool's JSON Schema, the flag of each field from parsing that
//! flag with the real command line and seeing which field it sets, and the refusals from
//! the registry: nothing here is a second list to keep in step.

use std::collections::BTreeMap;

use clap::FromArgMatches;
use serde_json::Value;
use stitch::registry::ToolSpec;

use super::contract::{code_doc, exit_status};
use super::roff::Roff;

/// Options that are not tool arguments (global options, `--json`, output switches).
const NOT_ARGUMENTS: [&str; 8] = [
    "root",
    "session",
    "lock_timeout",
    "pretty",
    "format",
    "json",
    "number",
    "help",
];

/// The sections for `tool`, whose subcommand is `command`.
pub(super) fn tool_sections(tool: &ToolSpec, command: &clap::Command) -> String {
    let mut r = Roff::default();
    json_fields(&mut r, tool, command);
    refusals(&mut r, tool);
    stdin_rule(&mut r, tool);
    r.out
}

fn json_fields(r: &mut Roff, tool: &ToolSpec, command: &clap::Command) {
    let schema = (tool.schema)();
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let flags = flags_by_field(command);
    r.section("JSON FIELDS").para(&format!(
        "With `--json`, or with no tool arguments while stdin is not a terminal, the \
         arguments are one JSON object on stdin with these fields (`stitch schema {}` prints \
         their JSON Schema). A field sent as `null` counts as not given.",
        tool.name
    ));
    for (name, property) in schema["properties"].as_object().expect("properties") {
        let mut facts = vec![type_of(property)];
        if required.contains(&name.as_str()) {
            facts.push("required".to_owned());
        } else if let Some(default) = property.get("default") {
            facts.push(format!("default `{default}`"));
        } else {
            facts.push("optional".to_owned());
        }
        let description = property["description"].as_str().unwrap_or_default();
        let spelled = match flags.get(name.as_str()) {
            Some(flags) => format!("Set by {}.", flags.join(", ")),
            None => "JSON only: no flag sets it.".to_owned(),
        };
        r.item(
            &format!("`{name}` ({})", facts.join(", ")),
            &[description, &spelled],
        );
    }
}

/// A JSON Schema type in words: `string`, `integer`, `array of objects`, `"content" or
/// "path"`.
fn type_of(schema: &Value) -> String {
    if let Some(branches) = schema.get("anyOf").and_then(Value::as_array) {
        let words: Vec<String> = branches
            .iter()
            .filter(|b| b["type"] != "null")
            .map(type_of)
            .collect();
        return words.join(" or ");
    }
    if let Some(branches) = schema.get("oneOf").and_then(Value::as_array) {
        let constants: Vec<String> = branches
            .iter()
            .map(|b| format!("`{}`", b["const"].as_str().unwrap_or("?")))
            .collect();
        return format!("one of {}", constants.join(", "));
    }
    let kind = match &schema["type"] {
        Value::Array(types) => types
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("any")
            .to_owned(),
        Value::String(t) => t.clone(),
        _ => "any".to_owned(),
    };
    if kind == "array" {
        format!("array of {}s", type_of(&schema["items"]))
    } else {
        kind
    }
}

/// Which flags set which JSON field: each tool argument of `command` is given alone on a
/// real command line, and the fields the flags' JSON holds are the ones it sets.
fn flags_by_field(command: &clap::Command) -> BTreeMap<String, Vec<String>> {
    let scratch = tempfile::NamedTempFile::new().expect("a scratch file for --from flags");
    std::fs::write(scratch.path(), "x").expect("write the scratch file");
    let scratch = scratch.into_temp_path();
    let mut by_field: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for arg in command.get_arguments() {
        let id = arg.get_id().as_str();
        if NOT_ARGUMENTS.contains(&id) {
            continue;
        }
        let takes_value = arg.get_action().takes_values();
        let value_name = arg
            .get_value_names()
            .and_then(|names| names.first())
            .map_or_else(|| id.to_uppercase(), ToString::to_string);
        let value = match arg.get_possible_values().first() {
            Some(possible) => possible.get_name().to_owned(),
            None if value_name == "FILE" => scratch.to_string_lossy().into_owned(),
            None if value_name == "N" => "3".to_owned(),
            None => "x".to_owned(),
        };
        let mut argv = vec!["stitch".to_owned(), command.get_name().to_owned()];
        let spelled = if arg.is_positional() {
            argv.push(value);
            format!("the `{value_name}` argument")
        } else {
            let long = arg.get_long().map(|l| format!("--{l}"));
            let short = arg.get_short().map(|s| format!("-{s}"));
            let flag = long.clone().or(short.clone()).expect("a named flag");
            argv.push(flag);
            if takes_value {
                argv.push(value);
            }
            let names: Vec<String> = [short, long].into_iter().flatten().collect();
            let names = names.join(", ");
            if takes_value {
                format!("`{names} {value_name}`")
            } else {
                format!("`{names}`")
            }
        };
        let matches = stitch::cli::command()
            .try_get_matches_from(&argv)
            .unwrap_or_else(|e| panic!("{argv:?}: {e}"));
        let cli = stitch::cli::Cli::from_arg_matches(&matches).expect("parsed");
        let Ok(json) = stitch::cli::flags::to_json(&cli.command, 1 << 20) else {
            panic!("{argv:?} did not make JSON arguments");
        };
        for (field, set) in json.as_object().expect("an object") {
            // A switch that sets something other than `true` says what it sets.
            let spelled = if takes_value || *set == Value::Bool(true) {
                spelled.clone()
            } else {
                format!("{spelled} (which sends `{set}`)")
            };
            by_field.entry(field.clone()).or_default().push(spelled);
        }
    }
    by_field
}

fn refusals(r: &mut Roff, tool: &ToolSpec) {
    r.section("REFUSALS").para(
        "The refusal codes this command can return, each in an envelope with \
         `details.message` and, where some action helps, a `_hint`; stitch(1) gives the \
         remedy of each.",
    );
    for code in tool.refusals {
        r.item(
            &format!("`{}` (exit status {})", code.as_str(), exit_status(*code)),
            &[code_doc(*code).when],
        );
    }
}

fn stdin_rule(r: &mut Roff, tool: &ToolSpec) {
    let bound = if tool.carries_content {
        "twice the workspace's `maxFileBytes` plus 1 MiB, since the arguments carry file \
         contents"
    } else {
        "1 MiB"
    };
    r.section("STDIN").para(
        "Arguments come from exactly one place: flags, or one JSON object on stdin. \
         Mixing them is `INVALID_ARGUMENT`. Flags never read stdin, except a \
         `--from`-style flag given `-`, which reads it as raw bytes.",
    );
    if tool.stdin_only_when_asked {
        r.para(
            "Every argument is optional: with no tool arguments it runs with its defaults \
             and never reads stdin unless `--json` asks (so it leaves a shell loop's input \
             alone, and never waits 200 ms, let alone 2 s, for it).",
        );
    } else {
        r.para(
            "With no tool arguments and stdin not a terminal, stdin is read as the JSON \
             arguments; an empty stdin means no arguments. When stdin was read only because \
             no arguments were given (not for `--json` or `-`), and no byte and no end of \
             file arrives within 200 ms, stitch says on stderr that it is waiting for JSON \
             arguments and how to avoid it; after 2 s of silence in all, stdin is taken as \
             empty. Inside a shell loop that reads its own stdin, pass flags or redirect \
             `</dev/null`.",
        );
    }
    r.para(&format!(
        "Stdin is read up to a bound of {bound}; a bigger payload is `TOO_LARGE` (field \
             `stdin`) and is not read to its end."
    ));
}
