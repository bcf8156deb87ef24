//! `stitch text-editor`: Anthropic's text-editor tool (`str_replace_based_edit_tool`,
//! version 2025-07-28, and `undo_edit` of the versions before it) served by stitch's own
//! tools. A harness passes the model's `tool_use.input` on stdin as it came; each command
//! becomes one call of a stitch tool — with every guard, lock, session rule, journal
//! entry and typed refusal of that tool — and the answer is what the `tool_result`
//! carries (`crate::envelope::editor` words it).
//!
//! The commands, as the tool's documentation defines them
//! (<https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/text-editor-tool>):
//! `view` (`view_range: [start, end]`, `-1` for the end; a directory is listed two levels
//! deep) → `read_file` or `list_directory`; `create` (`file_text`) → `write_file` of a new
//! file; `str_replace` (`old_str`, `new_str`) → `edit_file`; `insert` (`insert_line`,
//! `insert_text` or `new_str`) → edit_file's insert; `undo_edit` → `undo_change` of the
//! file's newest change.

use serde::Deserialize;
use serde_json::{json, Value};

use super::{settings, stdin, Cli};
use crate::envelope::editor::Answered;
use crate::names;
use crate::refusal::{key, Code, Failure, Outcome, Refusal};
use crate::tool::args::{self, invalid, Request};
use crate::tool::registry;
use crate::tool::{self, Context};

/// One text-editor command, as the model sends it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditorCommand {
    pub command: String,
    pub path: String,
    pub view_range: Option<Vec<i64>>,
    pub file_text: Option<String>,
    pub old_str: Option<String>,
    pub new_str: Option<String>,
    pub insert_line: Option<u64>,
    pub insert_text: Option<String>,
}

impl Request for EditorCommand {
    const TOOL: &'static str = "str_replace_based_edit_tool";
    const FIELDS: &'static [&'static str] = &[
        "command",
        "path",
        "view_range",
        "file_text",
        "old_str",
        "new_str",
        "insert_line",
        "insert_text",
    ];
    const DESCRIPTION: &'static str = "Anthropic's text-editor tool.";
}

/// The command names, as the tool defines them.
const COMMANDS: [&str; 5] = ["view", "create", "str_replace", "insert", "undo_edit"];

/// Reads one command on stdin, serves it and writes its answer, in text or JSON; the exit
/// status.
#[must_use]
pub fn answer(cli: &Cli, text: bool) -> u8 {
    crate::envelope::editor::emit(serve(cli), text, cli.pretty)
}

/// Reads one command on stdin and serves it.
pub fn serve(cli: &Cli) -> Outcome<Answered> {
    let ctx = tool::open(&settings(cli))?;
    let limit = registry::find(names::EDIT_FILE)
        .map_or(1 << 20, |edit| tool::arguments_limit(edit, &ctx.limits));
    let arguments = stdin::read(limit)?;
    let command: EditorCommand = args::parse(arguments)?;
    serve_command(&ctx, command)
}

/// Serves one parsed command in `ctx`.
fn serve_command(ctx: &Context, c: EditorCommand) -> Outcome<Answered> {
    let Call {
        tool,
        arguments,
        line,
        until,
    } = call_of(ctx, &c)?;
    let run = |name: &'static str, arguments: Value| {
        let spec = registry::find(name)
            .ok_or_else(|| Failure::from(anyhow::anyhow!("{name} is not in the registry")))?;
        tool::run(ctx, spec, arguments, tool::Shape::default())
    };
    let outcome = match run(tool, arguments) {
        // `view` of a directory lists it two levels deep.
        Err(Failure::Refused(refusal))
            if tool == names::READ_FILE && refusal.code() == Code::NotAFile =>
        {
            let listed = run(names::LIST_DIRECTORY, json!({"path": c.path, "depth": 2}));
            return listed.map(|output| Answered {
                command: c.command,
                path: c.path,
                tool: names::LIST_DIRECTORY,
                output,
                line: 0,
                until: None,
            });
        }
        outcome => outcome?,
    };
    Ok(Answered {
        command: c.command,
        path: c.path,
        tool,
        output: outcome,
        line,
        until,
    })
}

/// A command as the call of a stitch tool that serves it: the tool and its arguments,
/// and the line the answer numbers from (with `until`, the last of a view's window).
struct Call {
    tool: &'static str,
    arguments: Value,
    line: u64,
    until: Option<u64>,
}

/// The call that serves command `c` in `ctx`; refused when the command is not one of the
/// tool's, or lacks what it needs.
fn call_of(ctx: &Context, c: &EditorCommand) -> Outcome<Call> {
    let mut until = None;
    let (tool, arguments, line) = match c.command.as_str() {
        "view" => {
            let (offset, limit) = window(c.view_range.as_deref())?;
            let mut arguments = json!({"path": c.path, "offset": offset});
            if let Some(limit) = limit {
                arguments["limit"] = json!(limit);
                until = Some(offset + limit - 1);
            }
            (names::READ_FILE, arguments, offset)
        }
        "create" => {
            let Some(text) = &c.file_text else {
                return Err(missing("file_text", "create").into());
            };
            (
                names::WRITE_FILE,
                json!({"path": c.path, "content": text}),
                0,
            )
        }
        "str_replace" => {
            let Some(old) = &c.old_str else {
                return Err(missing("old_str", "str_replace").into());
            };
            let new = c.new_str.clone().unwrap_or_default();
            let arguments = json!({"path": c.path, "oldText": old, "newText": new});
            (names::EDIT_FILE, arguments, 0)
        }
        "insert" => {
            let Some(line) = c.insert_line else {
                return Err(missing("insert_line", "insert").into());
            };
            let Some(text) = c.insert_text.as_ref().or(c.new_str.as_ref()) else {
                return Err(missing("insert_text", "insert").into());
            };
            let arguments = json!({"path": c.path, "insertAfter": line, "newText": text});
            (names::EDIT_FILE, arguments, line)
        }
        "undo_edit" => {
            let id = newest_change(ctx, &c.path)?;
            (names::UNDO_CHANGE, json!({"id": id}), 0)
        }
        other => {
            return Err(invalid(
                "command",
                format!(
                    "`{other}` is not a text-editor command; the commands are {}",
                    COMMANDS.join(", ")
                ),
            )
            .with("commands", COMMANDS.to_vec())
            .into())
        }
    };
    Ok(Call {
        tool,
        arguments,
        line,
        until,
    })
}

/// The first line and the number of lines a `view_range` asks for (`None`: to the end).
fn window(range: Option<&[i64]>) -> Result<(u64, Option<u64>), Refusal> {
    let Some(range) = range else {
        return Ok((1, None));
    };
    let bad = |why: &str| {
        invalid(
            "view_range",
            format!(
                "view_range {range:?} {why}; it is [start, end], lines from 1, with -1 for the end"
            ),
        )
    };
    let [start, end] = range else {
        return Err(bad("is not two numbers"));
    };
    let first = u64::try_from(*start)
        .ok()
        .filter(|s| *s >= 1)
        .ok_or_else(|| bad("starts before line 1"))?;
    match *end {
        -1 => Ok((first, None)),
        end if end >= *start => Ok((first, Some(end.unsigned_abs() - first + 1))),
        _ => Err(bad("ends before it starts")),
    }
}

/// `INVALID_ARGUMENT`: `command` needs `field`.
fn missing(field: &str, command: &str) -> Refusal {
    invalid(
        field,
        format!("The {command} command needs the parameter `{field}`"),
    )
}

/// The newest change to `path` that is neither undone nor an undo itself: what
/// `undo_edit` takes back.
fn newest_change(ctx: &Context, path: &str) -> Outcome<String> {
    let spec = registry::find(names::LIST_CHANGES)
        .ok_or_else(|| Failure::from(anyhow::anyhow!("list_changes is not in the registry")))?;
    let arguments = json!({"path": path, "limit": 1000});
    let listed = tool::run(ctx, spec, arguments, tool::Shape::default())?;
    let listed = serde_json::to_value(&listed)
        .map_err(|e| anyhow::Error::new(e).context("listing changes"))?;
    let newest = listed["changes"].as_array().and_then(|changes| {
        changes.iter().find(|change| {
            change["undone"] == Value::Bool(false)
                && change.get("undoes").is_none_or(Value::is_null)
        })
    });
    match newest.and_then(|change| change["id"].as_str()) {
        Some(id) => Ok(id.to_owned()),
        None => Err(Refusal::new(
            Code::NotFound,
            format!("No edit of `{path}` is left to undo"),
        )
        .with(key::PATH, path)
        .with(key::OPERATION, "undo")
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::window;

    #[test]
    fn a_view_range_is_a_window_of_lines() {
        assert_eq!(window(None).unwrap(), (1, None));
        assert_eq!(window(Some(&[3, 5])).unwrap(), (3, Some(3)));
        assert_eq!(window(Some(&[4, -1])).unwrap(), (4, None));
        assert!(window(Some(&[0, 5])).is_err());
        assert!(window(Some(&[5, 4])).is_err());
        assert!(window(Some(&[5])).is_err());
    }
}
