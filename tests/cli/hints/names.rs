//! What a hint or message may name, derived from the command line (`stitch::cli::command`)
//! and the tools' JSON schemas (`stitch::registry::TOOLS`): a flag of the tool's command
//! or a global option, a `stitch` command, a field of the tool's schema (its items'
//! included), a tool of the registry, or a fact of the refusal's own details.

use std::collections::BTreeSet;

use serde_json::Value;

use super::cases::Case;

/// The words of `text` outside backticks, where a hint quotes the file or the patch.
fn unquoted(text: &str) -> String {
    text.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(_, part)| part)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The tokens of `text` made of `[A-Za-z0-9_-]`, each with what comes before it.
fn tokens(text: &str) -> Vec<(String, char)> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut before = ' ';
    let mut last = ' ';
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_alphanumeric() || c == '_' || (c == '-' && !word.is_empty()) {
            if word.is_empty() {
                before = last;
            }
            word.push(c);
        } else if c == '-' && word.is_empty() {
            word.push(c);
            before = last;
        } else if !word.is_empty() {
            out.push((std::mem::take(&mut word), before));
        }
        if !(c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            last = c;
        }
    }
    out
}

/// Every property name in `schema`, at any depth (the items of `changes` and `edits`).
fn fields(schema: &Value, into: &mut BTreeSet<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = map.get("properties") {
                into.extend(props.keys().cloned());
            }
            map.values().for_each(|v| fields(v, into));
        }
        Value::Array(items) => items.iter().for_each(|v| fields(v, into)),
        _ => {}
    }
}

/// Every key of the refusal's details, at any depth (`candidates[0].newText`).
fn facts(details: &Value, into: &mut BTreeSet<String>) {
    match details {
        Value::Object(map) => {
            into.extend(map.keys().cloned());
            map.values().for_each(|v| facts(v, into));
        }
        Value::Array(items) => items.iter().for_each(|v| facts(v, into)),
        _ => {}
    }
}

fn spec(case: &Case) -> &'static stitch::registry::ToolSpec {
    stitch::registry::TOOLS
        .iter()
        .find(|t| t.name == case.tool)
        .unwrap_or_else(|| panic!("{}: no tool {}", case.name, case.tool))
}

/// The long flags `stitch <command>` takes, its own and the global options.
fn long_flags(command: &str) -> BTreeSet<String> {
    let mut cli = stitch::cli::command();
    cli.build();
    let mut flags: BTreeSet<String> = cli
        .get_arguments()
        .filter_map(|a| a.get_long().map(str::to_owned))
        .collect();
    let sub = cli.find_subcommand(command).expect("a subcommand");
    flags.extend(
        sub.get_arguments()
            .filter_map(|a| a.get_long().map(str::to_owned)),
    );
    flags
}

fn commands() -> BTreeSet<String> {
    stitch::cli::command()
        .get_subcommands()
        .map(|s| s.get_name().to_owned())
        .collect()
}

fn tool_names() -> BTreeSet<&'static str> {
    stitch::registry::TOOLS.iter().map(|t| t.name).collect()
}

/// What a JSON-dialect text may name: the tool's fields, those of a tool it sends the
/// caller to (`write_file` ... `expectedSha256`), the refusal's facts.
fn json_names(case: &Case, envelope: &Value) -> BTreeSet<String> {
    let mut known = BTreeSet::new();
    fields(&(spec(case).schema)(), &mut known);
    let text = said(envelope);
    for tool in stitch::registry::TOOLS {
        if tokens(&text).iter().any(|(w, _)| w == tool.name) {
            fields(&(tool.schema)(), &mut known);
        }
    }
    facts(&envelope["details"], &mut known);
    known
}

/// The hint and the message of `envelope`, outside backticks.
fn said(envelope: &Value) -> String {
    format!(
        "{} {}",
        unquoted(envelope["details"]["message"].as_str().unwrap_or_default()),
        unquoted(envelope["_hint"].as_str().unwrap_or_default())
    )
}

/// Whether word `i` is a key of the config the workspace owner writes
/// (`limits.maxFileBytes`), which a hint may name to anyone.
fn config_key(words: &[(String, char)], i: usize) -> bool {
    i > 0 && words[i].1 == '.' && words[i - 1].0 == "limits"
}

/// A call by JSON (or MCP) is told of fields its tool has, facts of its refusal, and
/// tools of the registry; never of a flag.
#[track_caller]
pub fn assert_by_json(case: &Case, envelope: &Value) {
    let known = json_names(case, envelope);
    let tools = tool_names();
    let words = tokens(&said(envelope));
    for (i, (word, before)) in words.iter().cloned().enumerate() {
        let context = || format!("{} by JSON: {envelope}", case.name);
        assert!(
            !word.starts_with("--"),
            "{}: names the flag {word}",
            context()
        );
        let camel = word.starts_with(|c: char| c.is_ascii_lowercase())
            && word.chars().any(|c| c.is_ascii_uppercase());
        if camel && !config_key(&words, i) {
            assert!(
                known.contains(&word),
                "{}: names `{word}`, which is no field of {} and no fact of the refusal",
                context(),
                case.tool
            );
        }
        if word.contains('_')
            && word.chars().all(|c| c.is_ascii_lowercase() || c == '_')
            && before != '"'
        {
            assert!(
                tools.contains(word.as_str()),
                "{}: names the tool `{word}`, which is not one",
                context()
            );
        }
    }
}

/// A call by flags is told of flags its command takes, `stitch` commands there are and
/// facts of its refusal; never of a field only JSON spells.
#[track_caller]
pub fn assert_by_flags(case: &Case, envelope: &Value) {
    let commands = commands();
    // The command's flags, and those of a command it sends the caller to (`stitch write`).
    let mut flags = long_flags(case.command);
    let text = said(envelope);
    let spaced: Vec<&str> = text.split_whitespace().collect();
    for pair in spaced.windows(2) {
        let next = pair[1].trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
        if pair[0] == "stitch" && commands.contains(next) {
            flags.extend(long_flags(next));
        }
    }
    let mut facts_named = BTreeSet::new();
    facts(&envelope["details"], &mut facts_named);
    let words = tokens(&text);
    for pair in spaced.windows(2) {
        // `stitch read`; prose about stitch itself ("outside stitch where ...") aside.
        const PROSE: &[&str] = &[
            "where", "keeps", "has", "may", "is", "can", "itself", "which",
        ];
        let next = pair[1].trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
        if pair[0] == "stitch" && !PROSE.contains(&next) {
            assert!(
                commands.contains(next),
                "{} by flags: {envelope}: names `stitch {next}`, which is no command",
                case.name
            );
        }
    }
    for (i, (word, _)) in words.iter().enumerate() {
        let context = || format!("{} by flags: {envelope}", case.name);
        if let Some(long) = word.strip_prefix("--") {
            assert!(
                flags.contains(long),
                "{}: names --{long}, which `stitch {}` does not take",
                context(),
                case.command
            );
        }
        let camel = word.starts_with(|c: char| c.is_ascii_lowercase())
            && word.chars().any(|c| c.is_ascii_uppercase());
        if camel && !text.contains("--json") && !config_key(&words, i) {
            assert!(
                facts_named.contains(word),
                "{}: names `{word}`, a field, to a call by flags",
                context()
            );
        }
    }
}
