//! The arguments of `edit_file`: one edit (`oldText`, `newText`, ...) or a list of
//! them (`edits`), made into one list of items to apply; and how a refusal names the
//! item it is about.

use schemars::JsonSchema;
use serde::Deserialize;

use super::super::args::{invalid, Request};
use crate::refusal::{key, Refusal};

/// The arguments of `edit_file`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EditRequest {
    /// The file to edit, relative to the workspace root.
    #[serde(alias = "file_path")]
    pub path: String,
    /// The exact text to replace, byte for byte, including indentation. Must match once unless replaceAll or expectedReplacements says otherwise.
    #[serde(alias = "old_string", alias = "old_str")]
    pub old_text: Option<String>,
    /// The replacement text.
    #[serde(alias = "new_string", alias = "new_str")]
    pub new_text: Option<String>,
    /// Replace every occurrence of oldText (default false).
    #[serde(alias = "replace_all")]
    #[schemars(extend("default" = false))]
    pub replace_all: Option<bool>,
    /// Refuse with MATCH_COUNT_MISMATCH unless oldText occurs exactly this many times.
    pub expected_replacements: Option<u64>,
    /// Several replacements applied in order to the evolving text, all or nothing; instead of oldText/newText.
    pub edits: Option<Vec<EditItem>>,
    /// Edit only if the file's current SHA-256 (from read_file or a previous edit) is this; otherwise STALE_VERSION.
    #[serde(alias = "expected_sha256")]
    pub expected_sha256: Option<crate::digest::Sha256>,
    /// Compute the result and diff without writing (default false).
    #[serde(default, alias = "dry_run")]
    pub dry_run: bool,
    /// Succeed without change when oldText is absent because the edit is already applied (newText is in the file), so the same edit can run twice (default false). With edits, every such item is skipped and the others apply as usual.
    #[serde(default, alias = "ok_if_applied")]
    pub ok_if_applied: bool,
    /// Apply even if the result breaks the file's syntax (a later edit completes it); the result lists syntaxErrors (default false).
    #[serde(default, alias = "allow_syntax_errors")]
    pub allow_syntax_errors: bool,
    /// Insert newText after this line instead of replacing oldText (0: at the top; totalLines: at the end). Give newText and no oldText; a newText without a final newline is ended with the file's.
    #[serde(alias = "insert_after", alias = "insert_line")]
    pub insert_after: Option<u64>,
    /// With insertAfter: insert only if line insertAfter holds exactly this text now (without its line ending); otherwise STALE_VERSION.
    #[serde(alias = "expected_line")]
    pub expected_line: Option<String>,
}

/// One replacement of an `edits` list.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EditItem {
    /// The exact text to replace.
    #[serde(alias = "old_string", alias = "old_str")]
    pub old_text: String,
    /// The replacement text.
    #[serde(alias = "new_string", alias = "new_str")]
    pub new_text: String,
    /// Replace every occurrence (default false).
    #[serde(default, alias = "replace_all")]
    pub replace_all: bool,
    /// Refuse with MATCH_COUNT_MISMATCH unless oldText occurs exactly this many times.
    pub expected_replacements: Option<u64>,
}

impl Request for EditRequest {
    const TOOL: &'static str = crate::names::EDIT_FILE;
    const DESCRIPTION: &'static str = "Replace exact text in one file, atomically: oldText must match byte for byte (indentation and line endings included) exactly once, unless replaceAll or expectedReplacements says how many. Several replacements go in edits, applied in order, all or nothing. Returns baseSha256, sha256 (pass it as expectedSha256 to chain edits), replacements, bytes, applied, id (the journal entry, for show_change and undo_change) and a unified diff; lineEndings: \"crlf\" when newText was written with CRLF to follow the file; with okIfApplied, alreadyApplied: true (and applied: false) when the edit was already there, and appliedBy: the id of the change that applied it, when the journal holds it. To insert lines instead, pass insertAfter: N (0 = the top) with newText and no oldText, guarded by expectedLine (the text line N holds now) or expectedSha256. Refusals: NO_MATCH (oldText is not in the file: retry with oldText = details.candidates[0].text and newText = details.candidates[0].newText, your change carried onto the file's text; with no newText, re-read the passage and write both again; alreadyApplied means newText already stands, once, where oldText would: pass okIfApplied: true to accept that; a refusal with movedOn means oldText quotes an earlier version of the file: re-read the lines it names); AMBIGUOUS_MATCH (oldText occurs more than once, at details.lines: add surrounding lines until it is unique, or pass replaceAll: true); MATCH_COUNT_MISMATCH (expectedReplacements differs from the count: check it); STALE_VERSION (the file changed since you read it: re-read the file, then retry; with expectedLine, details.actualLine is what line insertAfter holds now); NOT_OBSERVED (in a session, read the file, then retry); NOT_FOUND (create it with write_file, or use details.nearNames); NOT_TEXT; TOO_LARGE; INVALID_ARGUMENT (empty oldText, oldText equal to newText, edits with oldText: fix the field named); INVALID_PATH; OUTSIDE_ROOT; DENIED; SYNTAX_ERROR (the result would not parse at details.line, details.excerpt, though the file did: fix newText there, or pass allowSyntaxErrors: true if a later edit completes it); BUSY (retry). details.editIndex names the failing item of edits.";
    const FIELDS: &'static [&'static str] = &[
        "path",
        "oldText",
        "newText",
        "replaceAll",
        "expectedReplacements",
        "edits",
        "expectedSha256",
        "dryRun",
        "okIfApplied",
        "allowSyntaxErrors",
        "insertAfter",
        "expectedLine",
    ];
    const ITEM_FIELDS: &'static [&'static str] =
        &["oldText", "newText", "replaceAll", "expectedReplacements"];
}

/// The form an edit's items came in, which names them in refusals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// One `oldText` and `newText` at the request's top level.
    Single,
    /// The `edits` list, each item named by its index.
    Edits,
}

impl Form {
    /// The index that names item `index` in a refusal: only an item of `edits` has one.
    #[must_use]
    pub fn index(self, index: usize) -> Option<usize> {
        (self == Form::Edits).then_some(index)
    }
}

impl EditRequest {
    /// The edits to apply, and the form they came in.
    pub(in crate::tool) fn items(&self) -> Result<(Vec<EditItem>, Form), Refusal> {
        let single = self.old_text.is_some()
            || self.new_text.is_some()
            || self.replace_all.is_some()
            || self.expected_replacements.is_some();
        match (&self.edits, single) {
            (Some(_), true) => Err(invalid(
                "edits",
                "Pass either edits or oldText/newText (with replaceAll, expectedReplacements), not both",
            )),
            (Some(edits), false) if edits.is_empty() => Err(invalid("edits", "edits must hold at least one edit")),
            (Some(edits), false) => Ok((edits.clone(), Form::Edits)),
            (None, _) => {
                let Some(old_text) = self.old_text.clone() else {
                    return Err(invalid("oldText", "edit_file needs the field `oldText` (or `edits`)"));
                };
                let Some(new_text) = self.new_text.clone() else {
                    return Err(invalid("newText", "edit_file needs the field `newText`"));
                };
                let item = EditItem {
                    old_text,
                    new_text,
                    replace_all: self.replace_all.unwrap_or(false),
                    expected_replacements: self.expected_replacements,
                };
                Ok((vec![item], Form::Single))
            }
        }
    }
}

/// Lets a refusal about one item of `edits` name it.
pub(super) fn with_index(refusal: Refusal, edit_index: Option<usize>) -> Refusal {
    match edit_index {
        Some(index) => refusal.with(key::EDIT_INDEX, index),
        None => refusal,
    }
}
