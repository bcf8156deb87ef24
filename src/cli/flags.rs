//! Flags to JSON: the command line's tool arguments become the same JSON object an
//! agent would send, so both paths share one parser and one set of checks.

use clap::parser::ValueSource;
use clap::ArgMatches;
use serde_json::{Map, Value};

use super::{Command, WalkFlags};
use crate::refusal::{key, Code, Outcome, Refusal};

/// Options that are not tool arguments.
const NOT_TOOL_ARGS: [&str; 7] = [
    "root",
    "session",
    "lock_timeout",
    "pretty",
    "json",
    "format",
    "number",
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
    let bytes = crate::input::from_file(path, limit).map_err(|e| match e {
        crate::input::Error::TooLarge { limit } => Refusal::new(
            Code::TooLarge,
            format!(
                "--{flag} `{}` holds more than {limit} bytes, the workspace's maxFileBytes",
                path.display()
            ),
        )
        .with(key::FIELD, field)
        .with("limit", limit),
        crate::input::Error::Io(_) => Refusal::new(
            Code::InvalidArgument,
            format!("--{flag} could not read `{}`", path.display()),
        )
        .with(key::FIELD, field),
    })?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Value::String(text)),
        Err(_) => Err(Refusal::new(
            Code::InvalidArgument,
            format!("--{flag} `{}` is not valid UTF-8 text", path.display()),
        )
        .with(key::FIELD, field)
        .into()),
    }
}

fn put(map: &mut Map<String, Value>, key: &str, value: Option<impl Into<Value>>) {
    if let Some(value) = value {
        map.insert(key.to_owned(), value.into());
    }
}

fn put_walk(map: &mut Map<String, Value>, walk: &WalkFlags) {
    put_flag(map, "includeIgnored", walk.all);
    put(map, "limit", walk.limit);
}

fn put_flag(map: &mut Map<String, Value>, key: &str, on: bool) {
    if on {
        map.insert(key.to_owned(), Value::Bool(true));
    }
}

/// The JSON arguments the flags of `command` spell. Files named by `--from`-style
/// flags are read up to `limit` bytes.
pub fn to_json(command: &Command, limit: u64) -> Outcome<Value> {
    let mut map = Map::new();
    match command {
        Command::Read(a) => {
            put(&mut map, "path", a.path.clone());
            put(&mut map, "offset", a.offset);
            put(&mut map, "limit", a.limit);
            put(&mut map, "maxBytes", a.max_bytes);
        }
        Command::Write(a) => {
            put(&mut map, "path", a.path.clone());
            put(&mut map, "content", a.content.clone());
            if let Some(from) = &a.from {
                map.insert("content".into(), from_file("from", "content", from, limit)?);
            }
            put_flag(&mut map, "overwrite", a.overwrite);
            put(&mut map, "expectedSha256", a.expected_sha256.clone());
            put_flag(&mut map, "dryRun", a.dry_run);
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
            put(&mut map, "path", a.path.clone());
            put(&mut map, "oldText", a.old.clone());
            put(&mut map, "newText", a.new.clone());
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
            put_flag(&mut map, "replaceAll", a.replace_all);
            put(&mut map, "expectedReplacements", a.expected_replacements);
            put(&mut map, "expectedSha256", a.expected_sha256.clone());
            put_flag(&mut map, "dryRun", a.dry_run);
        }
        Command::List(a) => {
            put(&mut map, "path", a.path.clone());
            put(&mut map, "depth", a.depth);
            put_walk(&mut map, &a.walk);
        }
        Command::Glob(a) => {
            put(&mut map, "pattern", a.pattern.clone());
            put(&mut map, "path", a.path.clone());
            put_walk(&mut map, &a.walk);
        }
        Command::Search(a) => {
            put(&mut map, "query", a.query.clone());
            put(&mut map, "path", a.path.clone());
            put_flag(&mut map, "regex", a.regex);
            if a.ignore_case {
                map.insert("caseSensitive".into(), Value::Bool(false));
            }
            put(&mut map, "include", a.glob.clone());
            put(&mut map, "context", a.context);
            put(&mut map, "mode", a.mode.clone());
            if a.paths_only {
                map.insert("mode".into(), Value::String("path".into()));
            }
            put_walk(&mut map, &a.walk);
        }
        Command::Config(_) | Command::Schema(_) => {}
    }
    Ok(Value::Object(map))
}
