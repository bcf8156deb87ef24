//! The structured forms of `apply_patch` (§12): `changes`, a list of `write`, `edit`,
//! `delete` and `move` items, and OpenAI's Responses API `apply_patch` operations
//! (`create_file`, `update_file` with a Codex chunk body, `delete_file`) — inside the same
//! list, mixed freely with the others, or one operation given alone (as the call's
//! arguments, or as the `operation` of an `apply_patch_call` item).
//!
//! Each item is checked against the fields its kind takes, and every mistake is a refusal
//! naming the item (`changeIndex`) and the field (`changes[2].content`), never a parser's
//! own words. An edit item is read by edit_file's own rules, so its refusals are edit's.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::digest::Sha256;
use crate::patch::{self, PatchError};
use crate::refusal::{key, Code, Refusal};

use super::super::args::{invalid, Request};
use super::super::edit::request::{EditItem, Form};
use super::super::edit::{self, EditRequest};
use super::op::{Action, Added, Part};
use super::{invalid_patch, ApplyRequest};

/// What a `changes` item does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum OpName {
    Write,
    Edit,
    Delete,
    Move,
}

/// The kinds of OpenAI Responses API `apply_patch` operation.
#[allow(clippy::enum_variant_names)] // The API's own names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OperationType {
    CreateFile,
    UpdateFile,
    DeleteFile,
}

/// One item of `changes`: an `op` with its fields, or a Responses API operation (`type`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ChangeItem {
    /// write (path, content, overwrite?), edit (path, oldText/newText or edits, as edit_file takes them), delete (path), or move (from, to, overwrite?). Every op takes expectedSha256.
    pub op: Option<OpName>,
    /// Instead of op, an OpenAI Responses API apply_patch operation: create_file or update_file (path, diff: a Codex chunk body), or delete_file (path).
    #[serde(rename = "type")]
    pub kind: Option<OperationType>,
    /// The file (write, edit, delete, and the Responses operations).
    #[serde(alias = "file_path")]
    pub path: Option<String>,
    /// write: the whole new content.
    pub content: Option<String>,
    /// write, move: replace an existing file (default false: ALREADY_EXISTS).
    pub overwrite: Option<bool>,
    /// The file's sha256 as last read (for move, the source's); otherwise STALE_VERSION.
    #[serde(alias = "expected_sha256")]
    pub expected_sha256: Option<Sha256>,
    /// edit: the exact text to replace.
    #[serde(alias = "old_string", alias = "old_str")]
    pub old_text: Option<String>,
    /// edit: the replacement text.
    #[serde(alias = "new_string", alias = "new_str")]
    pub new_text: Option<String>,
    /// edit: replace every occurrence of oldText (default false).
    #[serde(alias = "replace_all")]
    pub replace_all: Option<bool>,
    /// edit: refuse unless oldText occurs exactly this many times.
    pub expected_replacements: Option<u64>,
    /// edit: several replacements applied in order, instead of oldText/newText.
    pub edits: Option<Vec<EditItem>>,
    /// move: the file to move.
    pub from: Option<String>,
    /// move: where it goes.
    pub to: Option<String>,
    /// create_file: the new file's lines, each starting with `+`; update_file: Codex chunks (`@@ anchor`, then ` `, `-`, `+` lines).
    pub diff: Option<String>,
}

/// An OpenAI Responses API `apply_patch` operation, as an `apply_patch_call` item carries
/// it in `operation`: the schema of that field. It is read as a [`ChangeItem`] of one
/// of the three `type`s, so that its refusals are the list's.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)] // Only its schema is used.
#[serde(deny_unknown_fields)]
pub struct Operation {
    /// create_file, update_file or delete_file.
    #[serde(rename = "type")]
    pub kind: OperationType,
    /// The file, relative to the workspace root.
    pub path: String,
    /// create_file: the lines, each starting with `+`; update_file: Codex chunks. Absent for delete_file.
    pub diff: Option<String>,
}

/// The JSON names of every field of [`ChangeItem`], and whether it was given.
fn given(item: &ChangeItem) -> [(&'static str, bool); 14] {
    [
        ("op", item.op.is_some()),
        ("type", item.kind.is_some()),
        ("path", item.path.is_some()),
        ("content", item.content.is_some()),
        ("overwrite", item.overwrite.is_some()),
        ("expectedSha256", item.expected_sha256.is_some()),
        ("oldText", item.old_text.is_some()),
        ("newText", item.new_text.is_some()),
        ("replaceAll", item.replace_all.is_some()),
        ("expectedReplacements", item.expected_replacements.is_some()),
        ("edits", item.edits.is_some()),
        ("from", item.from.is_some()),
        ("to", item.to.is_some()),
        ("diff", item.diff.is_some()),
    ]
}

/// Every field an item may have, whatever its kind.
const ALL_FIELDS: &[&str] = &[
    "op",
    "type",
    "path",
    "content",
    "overwrite",
    "expectedSha256",
    "oldText",
    "newText",
    "replaceAll",
    "expectedReplacements",
    "edits",
    "from",
    "to",
    "diff",
];

/// The fields each kind of item takes.
fn fields_of(kind: &str) -> &'static [&'static str] {
    match kind {
        "write" => &["op", "path", "content", "overwrite", "expectedSha256"],
        "edit" => &[
            "op",
            "path",
            "oldText",
            "newText",
            "replaceAll",
            "expectedReplacements",
            "edits",
            "expectedSha256",
        ],
        "delete" => &["op", "path", "expectedSha256"],
        "move" => &["op", "from", "to", "overwrite", "expectedSha256"],
        "create_file" | "update_file" => &["type", "path", "diff"],
        "delete_file" => &["type", "path"],
        _ => ALL_FIELDS,
    }
}

/// Where an item sits in the call: its index in the list, and how its fields are named
/// (`changes[2].`, `operation.`, or nothing for an operation given as the arguments).
#[derive(Debug, Clone)]
pub struct Place {
    pub index: usize,
    prefix: String,
}

impl Place {
    fn listed(index: usize) -> Place {
        Place {
            index,
            prefix: format!("changes[{index}]."),
        }
    }

    fn named(prefix: &str) -> Place {
        Place {
            index: 0,
            prefix: prefix.to_owned(),
        }
    }

    /// The item's field `name`, as the caller spelled its place.
    fn field(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// The item itself.
    fn itself(&self) -> &str {
        match self.prefix.strip_suffix('.') {
            Some("") | None => "arguments",
            Some(item) => item,
        }
    }

    /// `refusal` about this item: its field named by the item's place, and its index.
    fn mark(&self, refusal: Refusal) -> Refusal {
        let field = refusal
            .detail(key::FIELD)
            .and_then(Value::as_str)
            .map(|f| self.field(f));
        let refusal = match field {
            Some(field) => refusal.with(key::FIELD, field),
            None => refusal,
        };
        refusal.with(key::CHANGE_INDEX, self.index)
    }
}

/// The request's changes, whichever form they came in: `None` when it carries a patch.
pub fn changes_of(req: &ApplyRequest) -> Result<Option<Vec<Part>>, Refusal> {
    let direct = one_form(req)?;
    only_with_operation(req)?;
    let Some(items) = items_of(req, direct)? else {
        return Ok(None);
    };
    items
        .into_iter()
        .map(|(value, place)| change_of(value, &place))
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Checks that the request carries its change in exactly one form: `patch`, `changes`,
/// `operation`, or an operation given as the arguments — whose name, the first of its
/// fields given, it returns.
fn one_form(req: &ApplyRequest) -> Result<Option<&'static str>, Refusal> {
    // An operation given as the arguments, named by the first of its fields given.
    let direct = [
        (
            "type",
            req.kind.as_deref().is_some_and(|k| k != "apply_patch_call"),
        ),
        ("path", req.path.is_some()),
        ("diff", req.diff.is_some()),
    ]
    .into_iter()
    .find_map(|(name, on)| on.then_some(name));
    let forms: Vec<&str> = [
        ("patch", req.patch.is_some()),
        ("changes", req.changes.is_some()),
        ("operation", req.operation.is_some()),
        (direct.unwrap_or_default(), direct.is_some()),
    ]
    .iter()
    .filter_map(|(name, on)| on.then_some(*name))
    .collect();
    match forms.as_slice() {
        [] => Err(invalid(
            "patch",
            "apply_patch needs `patch` (the text of a patch) or `changes` (a list of changes)",
        )
        .with(key::ALLOWED, ApplyRequest::FIELDS.to_vec())),
        [_] => Ok(direct),
        [first, second, ..] => Err(invalid(
            second,
            format!("apply_patch takes exactly one of `patch`, `changes` and `operation`, but got both `{first}` and `{second}`"),
        )
        .with(key::ALLOWED, ApplyRequest::FIELDS.to_vec())),
    }
}

/// Refuses an apply_patch_call item's own fields without its `operation`: they come only
/// with it.
fn only_with_operation(req: &ApplyRequest) -> Result<(), Refusal> {
    let call_fields = [
        ("id", req.id.is_some()),
        ("call_id", req.call_id.is_some()),
        ("status", req.status.is_some()),
        ("created_by", req.created_by.is_some()),
        ("type", req.kind.as_deref() == Some("apply_patch_call")),
    ];
    if req.operation.is_none() {
        if let Some((name, _)) = call_fields.iter().find(|(_, on)| *on) {
            return Err(invalid(
                name,
                format!("`{name}` belongs to an apply_patch_call item, which carries its change in `operation`; this call has no `operation`"),
            ));
        }
    }
    Ok(())
}

/// The request's change items, unparsed, each with its place in the request: the list
/// of `changes`, the one `operation`, or the operation given as the arguments (`direct`).
/// `None` when it carries a patch.
fn items_of(
    req: &ApplyRequest,
    direct: Option<&str>,
) -> Result<Option<Vec<(Value, Place)>>, Refusal> {
    Ok(Some(if let Some(changes) = &req.changes {
        if changes.is_empty() {
            return Err(invalid("changes", "changes must hold at least one change"));
        }
        changes
            .iter()
            .enumerate()
            .map(|(index, item)| (item.clone(), Place::listed(index)))
            .collect()
    } else if let Some(operation) = &req.operation {
        vec![(operation.clone(), Place::named("operation."))]
    } else if direct.is_some() {
        let mut one = serde_json::Map::new();
        for (name, value) in [
            ("type", &req.kind),
            ("path", &req.path),
            ("diff", &req.diff),
        ] {
            if let Some(value) = value {
                one.insert(name.to_owned(), Value::String(value.clone()));
            }
        }
        vec![(Value::Object(one), Place::named(""))]
    } else {
        return Ok(None);
    }))
}

/// The kind an item names, read before it is parsed, to list the fields it may have.
fn kind_named(value: &Value) -> &str {
    value
        .get("op")
        .or_else(|| value.get("type"))
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// One item, parsed and checked.
fn change_of(value: Value, place: &Place) -> Result<Part, Refusal> {
    if !value.is_object() {
        return Err(place.mark(invalid(
            place.itself(),
            format!("`{}` must be an object with `op` (write, edit, delete, move) or `type` (create_file, update_file, delete_file)", place.itself()),
        )));
    }
    let allowed = fields_of(kind_named(&value));
    let item: ChangeItem =
        serde_path_to_error::deserialize(value).map_err(|e| not_parsed(&e, place, allowed))?;
    let kind = kind_of(&item, place, allowed)?;
    op_of(item, kind, place)
}

/// The kind of change an item names: by `op` or by `type`, exactly one.
fn kind_of(item: &ChangeItem, place: &Place, allowed: &[&str]) -> Result<&'static str, Refusal> {
    Ok(match (item.op, item.kind) {
        (Some(_), Some(_)) => {
            return Err(place.mark(
                invalid(
                    "type",
                    format!(
                        "`{}` has both `op` and `type`; a change is named by one of them",
                        place.itself()
                    ),
                )
                .with(key::ALLOWED, allowed.to_vec()),
            ))
        }
        (None, None) => {
            return Err(place.mark(invalid(
                "op",
                format!("`{}` needs `op` (write, edit, delete or move) or `type` (create_file, update_file or delete_file)", place.itself()),
            )))
        }
        (Some(op), None) => match op {
            OpName::Write => "write",
            OpName::Edit => "edit",
            OpName::Delete => "delete",
            OpName::Move => "move",
        },
        (None, Some(kind)) => match kind {
            OperationType::CreateFile => "create_file",
            OperationType::UpdateFile => "update_file",
            OperationType::DeleteFile => "delete_file",
        },
    })
}

/// Refuses an item with a field that a change of `kind` has not.
fn only_fields_of(item: &ChangeItem, kind: &str, place: &Place) -> Result<(), Refusal> {
    let allowed = fields_of(kind);
    if let Some((name, _)) = given(item)
        .iter()
        .find(|(name, on)| *on && !allowed.contains(name))
    {
        return Err(place.mark(
            invalid(
                name,
                format!(
                    "A `{kind}` change has no field `{}`; its fields are {}",
                    place.field(name),
                    allowed.join(", ")
                ),
            )
            .with(key::ALLOWED, allowed.to_vec()),
        ));
    }
    Ok(())
}

/// The change an item of `kind` makes, its fields checked against the kind's.
fn op_of(item: ChangeItem, kind: &str, place: &Place) -> Result<Part, Refusal> {
    let allowed = fields_of(kind);
    only_fields_of(&item, kind, place)?;
    let needs = |name: &str, value: Option<String>| {
        value.ok_or_else(|| {
            place.mark(
                invalid(
                    name,
                    format!("A `{kind}` change needs the field `{}`", place.field(name)),
                )
                .with(key::ALLOWED, allowed.to_vec()),
            )
        })
    };
    let expected_sha256 = item.expected_sha256.clone().map(String::from);
    let body = |diff: Option<String>| needs("diff", diff);
    let op = match kind {
        "write" => Action::Write {
            path: needs("path", item.path)?,
            content: needs("content", item.content)?,
            added: Added::ByWrite {
                overwrite: item.overwrite.unwrap_or(false),
            },
            executable: None,
        },
        "edit" => {
            let path = needs("path", item.path.clone())?;
            let (items, form) = edit_items(item, place)?;
            Action::Edit { path, items, form }
        }
        "delete" | "delete_file" => Action::Delete {
            path: needs("path", item.path)?,
            whole: None,
        },
        "move" => Action::Move {
            from: needs("from", item.from)?,
            to: needs("to", item.to)?,
            overwrite: item.overwrite.unwrap_or(false),
        },
        "create_file" => {
            let path = needs("path", item.path)?;
            let diff = body(item.diff)?;
            Action::Write {
                path,
                content: patch::create_body(&diff).map_err(|e| body_refusal(&e, place))?,
                added: Added::ByPatch,
                executable: None,
            }
        }
        _ => {
            let path = needs("path", item.path)?;
            let diff = body(item.diff)?;
            Action::Update {
                path,
                move_to: None,
                hunks: patch::update_body(&diff).map_err(|e| body_refusal(&e, place))?,
                executable: None,
            }
        }
    };
    Ok(Part {
        op,
        expected_sha256,
    })
}

/// An edit item's replacements, read as edit_file reads its arguments.
fn edit_items(item: ChangeItem, place: &Place) -> Result<(Vec<EditItem>, Form), Refusal> {
    let request = EditRequest {
        path: item.path.unwrap_or_default(),
        old_text: item.old_text,
        new_text: item.new_text,
        replace_all: item.replace_all,
        expected_replacements: item.expected_replacements,
        edits: item.edits,
        expected_sha256: None,
        dry_run: false,
        ok_if_applied: false,
        allow_syntax_errors: false,
        insert_after: None,
        expected_line: None,
    };
    let (items, form) = request.items().map_err(|r| place.mark(r))?;
    edit::validate(&items, form).map_err(|r| place.mark(r))?;
    Ok((items, form))
}

/// `INVALID_PATCH` for a Responses operation's `diff` that does not parse: its line,
/// numbered within the diff.
fn body_refusal(e: &PatchError, place: &Place) -> Refusal {
    place.mark(invalid_patch(e).with(key::FIELD, "diff"))
}

/// `INVALID_ARGUMENT` for an item that does not parse as an item: the field named by its
/// place, in a sentence of our own.
fn not_parsed(
    error: &serde_path_to_error::Error<serde_json::Error>,
    place: &Place,
    allowed: &[&str],
) -> Refusal {
    let path = error.path().to_string();
    let inner = error.inner().to_string();
    let quoted = inner.split('`').nth(1).unwrap_or_default().to_owned();
    let within = if path == "." {
        String::new()
    } else {
        format!("{path}.")
    };
    if inner.starts_with(crate::digest::MALFORMED) {
        let message = format!("`{}` {}", place.field(&path), crate::digest::MALFORMED);
        return place.mark(invalid(&path, message));
    }
    let (field, message) = if inner.starts_with("unknown field") {
        let field = if path.ends_with(quoted.as_str()) {
            place.field(&path)
        } else {
            place.field(&format!("{within}{quoted}"))
        };
        let listed = if path.starts_with("edits[") {
            "oldText, newText, replaceAll, expectedReplacements".to_owned()
        } else {
            allowed.join(", ")
        };
        let message = format!("A change has no field `{field}`; the allowed fields are {listed}");
        (field, message)
    } else if inner.starts_with("missing field") {
        let field = place.field(&format!("{within}{quoted}"));
        (field.clone(), format!("A change needs the field `{field}`"))
    } else if inner.starts_with("duplicate field") {
        let field = place.field(&format!("{within}{quoted}"));
        (
            field.clone(),
            format!("A change got the field `{field}` twice (perhaps under an alias)"),
        )
    } else {
        let field = place.field(&path);
        let detail = inner.split(" at line ").next().unwrap_or(&inner);
        (
            field.clone(),
            format!("The field `{field}` is not valid: {detail}"),
        )
    };
    let mut refusal = Refusal::new(Code::InvalidArgument, message).with(key::FIELD, field);
    if !path.starts_with("edits[") {
        refusal = refusal.with(key::ALLOWED, allowed.to_vec());
    }
    refusal.with(key::CHANGE_INDEX, place.index)
}
