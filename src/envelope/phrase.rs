//! The facts a result carries for the caller to act on, phrased in the caller's dialect
//! here and nowhere below: a discovery result's cut (its `hint`), and each file that
//! `read_files` refused in its place (`error`, `details`, `_hint`). The tools state the
//! facts; how a hint names arguments depends on how the call arrived, which only the
//! front end and the envelope know.

use serde_json::{Map, Value};

use crate::hint::Caller;
use crate::refusal::key;
use crate::tool::output::{FileAnswer, Output};

/// Whether `output` carries a fact that [`phrase`] must put in words.
#[must_use]
pub fn needed(output: &Output) -> bool {
    match output {
        Output::ReadFiles(r) => r.refused() > 0,
        _ => output.cut().is_some(),
    }
}

/// Puts the facts of `output` into words in `data`, its serialized form, in `dialect`:
/// each keeps its place among the fields.
pub fn phrase(data: &mut Value, output: &Output, dialect: Caller) {
    if let Some(cut) = output.cut() {
        data["hint"] = Value::String(crate::hint::cut(dialect, cut.shown, cut.narrow, cut.cap));
    }
    let items = data.get_mut("files").and_then(Value::as_array_mut);
    if let (Output::ReadFiles(r), Some(items)) = (output, items) {
        for (answer, item) in r.files.iter().zip(items) {
            if let FileAnswer::Refused(refused) = answer {
                *item = Value::Object(refused_item(&refused.path, &refused.refusal, dialect));
            }
        }
    }
}

/// A file `read_files` refused, as its item reads: `{path, ok: false, error, details,
/// _hint}`.
#[must_use]
pub fn refused_item(
    path: &str,
    refusal: &crate::refusal::Refusal,
    dialect: Caller,
) -> Map<String, Value> {
    let mut fields = Map::new();
    fields.insert(key::PATH.into(), Value::String(path.to_owned()));
    fields.insert("ok".into(), Value::Bool(false));
    fields.extend(crate::hint::refusal_fields(refusal, dialect));
    fields
}
