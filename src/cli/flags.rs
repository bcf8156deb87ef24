//! Flags to JSON: the command line's tool arguments become the same JSON object an
//! agent would send, so both paths share one parser and one set of checks.

use clap::parser::ValueSource;
use clap::ArgMatches;
use serde_json::{Map, Value};

use super::Command;
use crate::refusal::{key, Code, Outcome, Refusal};

/// Options that are not tool arguments.
pub(super) const NOT_TOOL_ARGS: [&str; 13] = [
    "root",
    "color",
    "session",
    "lock_timeout",
    "pretty",
    "json",
    "format",
    "null",
    "files_with_matches",
    "count",
    "quiet",
    "no_diff",
    "stat",
];

/// Whether any tool argument was given on the command line.
#[must_use]
pub fn any_given(spec: &clap::Command, sub: &ArgMatches) -> bool {
    spec.get_arguments().any(|arg| {
        let id = arg.get_id().as_str();
        !NOT_TOOL_ARGS.contains(&id) && sub.value_source(id) == Some(ValueSource::CommandLine)
    })
}

fn from_file(flag: &str, field: &str, path: &std::path::Path, limit: u64) -> Outcome<Value> {
    let wait = crate::input::WriterWait {
        notice_after: super::stdin::NOTICE_AFTER,
        give_up_after: super::stdin::SILENT_AFTER,
    };
    // The path is the caller's, and may be a planted name: quoted for a terminal.
    let notice = || {
        crate::envelope::stderr_line(&format!(
            "stitch: --{flag} `{}` is a FIFO no program has opened to write yet; waiting for one \
             (refused after {} s without)",
            crate::envelope::stderr_name(&path.to_string_lossy()),
            super::stdin::SILENT_AFTER.as_secs()
        ));
    };
    let bytes = crate::input::from_file(path, limit, wait, notice).map_err(|e| match e {
        crate::input::Error::TooLarge { limit } => Refusal::new(
            Code::TooLarge,
            format!(
                "--{flag} `{}` holds more than {limit} bytes, the workspace's maxFileBytes",
                path.display()
            ),
        )
        .with(key::FIELD, field)
        .with(key::FLAG, format!("--{flag}"))
        .with("limit", limit),
        crate::input::Error::NoWriter { waited } => Refusal::new(
            Code::InvalidArgument,
            format!(
                "--{flag} `{}` is a FIFO that no program opened to write within {} s, so nothing was read",
                path.display(),
                waited.as_secs()
            ),
        )
        .with(key::FIELD, field)
        .with(key::FLAG, format!("--{flag}"))
        .with(key::REASON, "no writer"),
        crate::input::Error::Io(_) => Refusal::new(
            Code::InvalidArgument,
            format!("--{flag} could not read `{}`", path.display()),
        )
        .with(key::FIELD, field)
        .with(key::FLAG, format!("--{flag}")),
    })?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Value::String(text)),
        Err(_) => Err(Refusal::new(
            Code::InvalidArgument,
            format!("--{flag} `{}` is not valid UTF-8 text", path.display()),
        )
        .with(key::FIELD, field)
        .with(key::FLAG, format!("--{flag}"))
        .into()),
    }
}

/// The JSON arguments the flags of `command` spell. Each subcommand's arguments
/// serialize under the request's own field names (`rename_all = "camelCase"`, with a
/// rename where a flag is named otherwise: `--old` is `oldText`); a flag not given is
/// no key at all. Files named by `--from`-style flags are read up to `limit` bytes.
pub fn to_json(command: &Command, limit: u64) -> Outcome<Value> {
    let mut value = given(command)?;
    let Value::Object(map) = &mut value else {
        return Err(anyhow::anyhow!("flags did not make a JSON object").into());
    };
    spelled_otherwise(command, map, limit)?;
    Ok(value)
}

/// The flags given to `command`, serialized under the request's field names: a flag not
/// given (null) and a switch not given (false) are no key.
fn given(command: &Command) -> Outcome<Value> {
    let mut value = match command {
        Command::Read(a) => serde_json::to_value(a),
        Command::Write(a) => serde_json::to_value(a),
        Command::Edit(a) => serde_json::to_value(a),
        Command::List(a) => serde_json::to_value(a),
        Command::Glob(a) => serde_json::to_value(a),
        Command::Search(a) => serde_json::to_value(a),
        Command::Apply(a) => serde_json::to_value(a),
        Command::Delete(a) => serde_json::to_value(a),
        Command::Move(a) => serde_json::to_value(a),
        Command::History(a) => serde_json::to_value(a),
        Command::Show(a) => serde_json::to_value(a),
        Command::Undo(a) => serde_json::to_value(a),
        Command::Redo(a) => serde_json::to_value(a),
        Command::Config(_) | Command::Schema(_) | Command::Mcp(_) | Command::TextEditor(_) => {
            Ok(Value::Object(Map::new()))
        }
    }
    .map_err(|e| anyhow::Error::new(e).context("flags as JSON"))?;
    // A flag not given serializes as null, a switch not given as false: neither is an
    // argument.
    if let Value::Object(map) = &mut value {
        map.retain(|_, v| !v.is_null() && *v != Value::Bool(false));
    }
    Ok(value)
}

/// Adds to `map` the arguments whose flags do not serialize as their fields: read's
/// paths, the files `--from`-style flags name (read up to `limit` bytes), and search's
/// switches that set another field.
fn spelled_otherwise(command: &Command, map: &mut Map<String, Value>, limit: u64) -> Outcome<()> {
    match command {
        // One path is read_file's `path`; several, or a glob, are read_files' `paths`,
        // or the directory the glob is relative to.
        Command::Read(a) => match (a.path.as_slice(), &a.glob) {
            ([], _) => {}
            ([one], _) => {
                map.insert("path".into(), Value::String(one.clone()));
            }
            (many, _) => {
                map.insert(
                    "paths".into(),
                    serde_json::to_value(many).unwrap_or_default(),
                );
            }
        },
        Command::Write(a) => {
            if let Some(from) = &a.from {
                map.insert("content".into(), from_file("from", "content", from, limit)?);
            }
        }
        Command::Apply(a) => {
            if let Some(from) = &a.from {
                map.insert("patch".into(), from_file("from", "patch", from, limit)?);
            }
        }
        Command::Edit(a) => {
            if a.old_from.as_deref().is_some_and(|p| p.as_os_str() == "-")
                && a.new_from.as_deref().is_some_and(|p| p.as_os_str() == "-")
            {
                return Err(Refusal::new(
                    Code::InvalidArgument,
                    "--old-from and --new-from cannot both read stdin",
                )
                .with(key::FIELD, "newText")
                .into());
            }
            if let Some(from) = &a.old_from {
                map.insert(
                    "oldText".into(),
                    from_file("old-from", "oldText", from, limit)?,
                );
            }
            if let Some(from) = &a.new_from {
                map.insert(
                    "newText".into(),
                    from_file("new-from", "newText", from, limit)?,
                );
            }
        }
        Command::Search(a) => {
            if a.ignore_case {
                map.insert("caseSensitive".into(), Value::Bool(false));
            }
            if a.paths_only {
                map.insert("mode".into(), Value::String("path".into()));
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::FromArgMatches;

    use super::to_json;
    use crate::cli::{command, Cli};
    use crate::tool::registry;

    /// Every flag of every tool, given at once (conflicting ones in a second line).
    const EVERY_FLAG: [&[&str]; 13] = [
        &[
            "read",
            "p",
            "--offset",
            "2",
            "--limit",
            "3",
            "--max-bytes",
            "4",
            "-n",
        ],
        &[
            "write",
            "p",
            "--content",
            "c",
            "--overwrite",
            "--expected-sha256",
            "h",
            "--dry-run",
        ],
        &[
            "edit",
            "p",
            "--old",
            "o",
            "--new",
            "n",
            "--replace-all",
            "--expected-replacements",
            "2",
            "--expected-sha256",
            "h",
            "--dry-run",
        ],
        &["list", "p", "--depth", "2", "--all", "--limit", "5"],
        &["glob", "*.rs", "--path", "p", "--all", "--limit", "5"],
        &[
            "search", "q", "--path", "p", "--regex", "-i", "--glob", "*.rs", "-C", "2", "--mode",
            "path", "--all", "--limit", "5",
        ],
        &["search", "q", "--paths-only"],
        &["read", "p"],
        &["delete", "p", "--expected-sha256", "h", "--dry-run"],
        &[
            "move",
            "a",
            "b",
            "--overwrite",
            "--expected-sha256",
            "h",
            "--dry-run",
        ],
        &["history", "p", "--limit", "5"],
        &["undo", "00000000000000000001", "--dry-run"],
        &["show", "00000000000000000001"],
    ];

    /// Flags map onto the request's own field names: every key they produce is a
    /// property of the tool's schema, so a renamed field cannot leave a flag behind.
    #[test]
    fn every_flag_is_a_field_of_its_tool() {
        for args in EVERY_FLAG {
            let matches = command()
                .try_get_matches_from(std::iter::once("stitch").chain(args.iter().copied()))
                .unwrap_or_else(|e| panic!("{args:?}: {e}"));
            let cli = Cli::from_arg_matches(&matches).unwrap();
            let json = to_json(&cli.command, 1 << 20).unwrap();
            let tool = registry::find(args[0]).unwrap();
            let schema = (tool.schema)();
            let properties = schema["properties"].as_object().unwrap();
            let keys = json.as_object().unwrap();
            assert!(!keys.is_empty(), "{args:?}");
            for key in keys.keys() {
                assert!(
                    properties.contains_key(key),
                    "{args:?}: `{key}` is not a field of {}",
                    tool.name
                );
            }
        }
    }

    #[test]
    fn switches_not_given_are_no_arguments() {
        let matches = command()
            .try_get_matches_from(["stitch", "search", "q"])
            .unwrap();
        let cli = Cli::from_arg_matches(&matches).unwrap();
        assert_eq!(
            to_json(&cli.command, 1 << 20).unwrap(),
            serde_json::json!({"query": "q"})
        );
    }

    /// Hints in the flags dialect name a field by [`crate::hint::flag`]: every field of
    /// every tool (but `edits`, and apply's `changes` and `operation`, which only JSON can
    /// spell) has a spelling there, and it is
    /// a real long flag of that tool's subcommand, or its positional (`path` is the
    /// positional PATH of read, write, edit and list, and `--path` of glob and search).
    #[test]
    fn every_field_has_a_flag_spelling_in_hints() {
        // Subcommands' arguments are built on demand (`deferred`): build them all.
        let mut command = command();
        command.build();
        for tool in registry::TOOLS {
            let sub = command.find_subcommand(tool.command).unwrap();
            let schema = (tool.schema)();
            for field in schema["properties"].as_object().unwrap().keys() {
                if matches!(field.as_str(), "edits" | "changes" | "operation") {
                    continue;
                }
                let spelling = crate::hint::flag(field)
                    .unwrap_or_else(|| panic!("{}: `{field}` has no flag spelling", tool.name));
                let found = if let Some(long) = spelling.strip_prefix("--") {
                    sub.get_arguments().any(|a| a.get_long() == Some(long))
                        // A global option (history's `session` is the global --session).
                        || command
                            .get_arguments()
                            .any(|a| a.is_global_set() && a.get_long() == Some(long))
                } else {
                    sub.get_positionals().any(|a| {
                        a.get_value_names()
                            .is_some_and(|names| names.iter().any(|n| n.as_str() == spelling))
                    }) || (field == "path"
                        && sub.get_arguments().any(|a| a.get_long() == Some("path")))
                };
                assert!(
                    found,
                    "{}: `{field}` is spelled `{spelling}`, which `stitch {}` does not have",
                    tool.name, tool.command
                );
            }
        }
    }
}
