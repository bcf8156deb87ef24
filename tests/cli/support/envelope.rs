//! Whole-envelope assertions: the parsed envelope a call printed must equal an expected
//! JSON value, every key and every value, so that an added, renamed or dropped detail
//! key, or a changed message or hint, fails the test that saw it.
//!
//! Values that vary from run to run are written as placeholder strings in the expected
//! value: [`SHA256`] matches any 64-digit lowercase hex string, [`NUMBER`] any number,
//! [`STRING`] any string, [`ANY`] anything at all (use it sparingly: it checks only that
//! the key is there). Key order never matters: objects are compared key by key.
//!
//! On a mismatch the panic shows where the values differ (`$.details.message`), then
//! the expected and the actual envelope as pretty JSON with sorted keys, and a line diff
//! of the two in which matched placeholders already show the actual value, so only real
//! differences are marked. (After ripgrep's `eqnice!`, `tests/macros.rs`.)

use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::run::exit_status;
use super::Run;

/// Matches any SHA-256 digest: 64 lowercase hex digits.
pub const SHA256: &str = "<sha256>";
/// Matches any JSON number.
pub const NUMBER: &str = "<number>";
/// Matches any JSON string.
pub const STRING: &str = "<string>";
/// Matches any value. Use sparingly.
pub const ANY: &str = "<any>";

impl Run {
    /// Asserts that the whole envelope equals `expected` (placeholders aside), and that
    /// the exit status is the one that goes with it: 0 for `"ok": true`, the refusal
    /// code's status otherwise.
    #[track_caller]
    pub fn assert_envelope(&self, expected: &Value) {
        assert_json(expected, &self.envelope);
        let status = match expected["error"].as_str() {
            Some(code) => exit_status(code),
            None => 0,
        };
        assert_eq!(
            self.status, status,
            "the envelope matched, the exit status did not: {}",
            self.stdout
        );
    }
}

/// Asserts that `actual` equals `expected`, placeholders aside, with a readable report
/// when it does not.
#[track_caller]
pub fn assert_json(expected: &Value, actual: &Value) {
    let mut differences = Vec::new();
    compare(expected, actual, &mut String::from("$"), &mut differences);
    if differences.is_empty() {
        return;
    }
    let expected = pretty(&resolve(expected, actual));
    let actual = pretty(actual);
    let mut report = String::from("\nenvelopes differ!\n\n");
    for difference in &differences {
        let _ = writeln!(report, "  {difference}");
    }
    let rule = "~".repeat(79);
    let _ = write!(
        report,
        "\nexpected:\n{rule}\n{expected}\n{rule}\n\ngot:\n{rule}\n{actual}\n{rule}\n\n\
         diff (- expected, + got):\n{rule}\n{}{rule}\n",
        diff(&expected, &actual)
    );
    panic!("{report}");
}

/// Whether `actual` is what the placeholder `expected` stands for; `None` when
/// `expected` is no placeholder.
fn placeholder(expected: &Value, actual: &Value) -> Option<bool> {
    let matched = match expected.as_str()? {
        SHA256 => actual.as_str().is_some_and(|s| {
            s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        }),
        NUMBER => actual.is_number(),
        STRING => actual.is_string(),
        ANY => true,
        _ => return None,
    };
    Some(matched)
}

/// Adds a line to `out` for every place below `path` where `actual` is not `expected`.
fn compare(expected: &Value, actual: &Value, path: &mut String, out: &mut Vec<String>) {
    if let Some(matched) = placeholder(expected, actual) {
        if !matched {
            out.push(format!(
                "{path}: expected {expected}, got {}",
                short(actual)
            ));
        }
        return;
    }
    match (expected, actual) {
        (Value::Object(want), Value::Object(got)) => {
            for (key, want) in want {
                let len = path.len();
                let _ = write!(path, ".{key}");
                match got.get(key) {
                    Some(got) => compare(want, got, path, out),
                    None => out.push(format!("{path}: missing (expected {})", short(want))),
                }
                path.truncate(len);
            }
            for (key, got) in got {
                if !want.contains_key(key) {
                    out.push(format!("{path}.{key}: not expected (got {})", short(got)));
                }
            }
        }
        (Value::Array(want), Value::Array(got)) => {
            if want.len() != got.len() {
                out.push(format!(
                    "{path}: {} elements expected, got {}",
                    want.len(),
                    got.len()
                ));
            }
            for (i, (want, got)) in want.iter().zip(got).enumerate() {
                let len = path.len();
                let _ = write!(path, "[{i}]");
                compare(want, got, path, out);
                path.truncate(len);
            }
        }
        _ if expected == actual => {}
        _ => out.push(format!(
            "{path}: expected {}, got {}",
            short(expected),
            short(actual)
        )),
    }
}

/// `expected` with every placeholder that `actual` satisfies replaced by the actual
/// value, so that a diff of the two marks only what really differs.
fn resolve(expected: &Value, actual: &Value) -> Value {
    if placeholder(expected, actual) == Some(true) {
        return actual.clone();
    }
    match (expected, actual) {
        (Value::Object(want), Value::Object(got)) => Value::Object(
            want.iter()
                .map(|(key, want)| {
                    let value = got
                        .get(key)
                        .map_or_else(|| want.clone(), |got| resolve(want, got));
                    (key.clone(), value)
                })
                .collect(),
        ),
        (Value::Array(want), Value::Array(got)) => Value::Array(
            want.iter()
                .enumerate()
                .map(|(i, want)| {
                    got.get(i)
                        .map_or_else(|| want.clone(), |got| resolve(want, got))
                })
                .collect(),
        ),
        _ => expected.clone(),
    }
}

/// Pretty JSON with every object's keys sorted, whatever order they came in.
fn pretty(value: &Value) -> String {
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                Value::Object(
                    entries
                        .into_iter()
                        .map(|(k, v)| (k.clone(), sorted(v)))
                        .collect::<Map<_, _>>(),
                )
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    serde_json::to_string_pretty(&sorted(value)).unwrap()
}

/// A value in one line, cut to a readable length.
fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 120 {
        let start: String = text.chars().take(117).collect();
        format!("{start}…")
    } else {
        text
    }
}

/// A line diff of two texts: `-` lines only in `expected`, `+` only in `actual`.
fn diff(expected: &str, actual: &str) -> String {
    let mut out = String::new();
    for change in similar::TextDiff::from_lines(expected, actual).iter_all_changes() {
        let sign = match change.tag() {
            similar::ChangeTag::Delete => '-',
            similar::ChangeTag::Insert => '+',
            similar::ChangeTag::Equal => ' ',
        };
        let _ = write!(out, "{sign}{change}");
        if change.missing_newline() {
            out.push('\n');
        }
    }
    out
}

#[test]
fn key_order_does_not_matter() {
    let actual: Value = serde_json::from_str(r#"{"b":1,"a":{"y":[1,2],"x":"s"}}"#).unwrap();
    assert_json(
        &serde_json::json!({"a": {"x": "s", "y": [1, 2]}, "b": 1}),
        &actual,
    );
}

#[test]
fn placeholders_match_what_they_stand_for() {
    let actual = serde_json::json!({
        "sha": "ab".repeat(32), "n": 1.5, "s": "text", "any": [null]
    });
    assert_json(
        &serde_json::json!({"sha": SHA256, "n": NUMBER, "s": STRING, "any": ANY}),
        &actual,
    );
}

#[test]
#[should_panic(expected = "$.details.sha: expected \"<sha256>\", got \"ABC\"")]
fn a_placeholder_does_not_match_another_shape() {
    assert_json(
        &serde_json::json!({"details": {"sha": SHA256}}),
        &serde_json::json!({"details": {"sha": "ABC"}}),
    );
}

#[test]
#[should_panic(expected = "$.details.extra: not expected (got 1)")]
fn an_added_key_fails() {
    assert_json(
        &serde_json::json!({"details": {"message": "m"}}),
        &serde_json::json!({"details": {"message": "m", "extra": 1}}),
    );
}

#[test]
#[should_panic(expected = "$.details.message: missing (expected \"m\")")]
fn a_missing_key_fails() {
    assert_json(
        &serde_json::json!({"details": {"message": "m"}}),
        &serde_json::json!({"details": {}}),
    );
}

#[test]
#[should_panic(expected = "$.data.entries[1]: expected \"b\", got \"c\"")]
fn a_changed_element_fails_at_its_index() {
    assert_json(
        &serde_json::json!({"data": {"entries": ["a", "b"]}}),
        &serde_json::json!({"data": {"entries": ["a", "c"]}}),
    );
}
