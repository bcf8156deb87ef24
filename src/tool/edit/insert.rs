//! Edit's insert form: `newText` after line N (0: at the top), with no `oldText` — the
//! text-editor tool's `insert`. The inserted text becomes whole lines of the file: it
//! follows the file's line endings, is ended by one when it has none, and a last line
//! without a newline gets one before it. Guarded like any edit (a session's read, by
//! region; `expectedSha256`), and by `expectedLine`: the text line N holds now.

use crate::refusal::{key, Code, Refusal};
use crate::text::lines::{self, LineEnding, BOM};

use super::super::args::invalid;
use super::edited::Edited;
use super::request::EditRequest;

/// An insert, as the request asks for it.
#[derive(Debug, Clone)]
pub struct Insert {
    /// The line after which the text goes (0: at the top).
    pub after: u64,
    /// What line `after` must hold now, without its line ending.
    pub expected_line: Option<String>,
}

/// The insert `req` asks for, if it asks for one: `insertAfter` with `newText`, and none
/// of what only a replacement takes.
pub fn of(req: &EditRequest) -> Result<Option<Insert>, Refusal> {
    let Some(after) = req.insert_after else {
        if req.expected_line.is_some() {
            return Err(invalid(
                "expectedLine",
                "expectedLine guards an insert: pass it with insertAfter",
            ));
        }
        return Ok(None);
    };
    let replacing = [
        ("oldText", req.old_text.is_some()),
        ("edits", req.edits.is_some()),
        ("replaceAll", req.replace_all.is_some()),
        ("expectedReplacements", req.expected_replacements.is_some()),
        ("okIfApplied", req.ok_if_applied),
    ];
    if let Some((field, _)) = replacing.iter().find(|(_, given)| *given) {
        return Err(invalid(
            field,
            format!("insertAfter inserts newText at a line; it takes no {field}"),
        ));
    }
    match req.new_text.as_deref() {
        None => Err(invalid(
            "newText",
            "edit_file needs the field `newText` (the text to insert)",
        )),
        Some("") => Err(invalid(
            "newText",
            "newText is empty, so the insert would change nothing",
        )),
        Some(_) if after == 0 && req.expected_line.is_some() => Err(invalid(
            "expectedLine",
            "expectedLine is the text of line insertAfter, and insertAfter 0 (the top) names no line",
        )),
        Some(_) => Ok(Some(Insert {
            after,
            expected_line: req.expected_line.clone(),
        })),
    }
}

/// The file `original` with `new_text` inserted after line `insert.after`.
pub fn apply<'a>(
    shown: &str,
    original: &'a str,
    insert: &Insert,
    new_text: &str,
) -> Result<Edited<'a>, Refusal> {
    let top = if original.starts_with(BOM) {
        BOM.len()
    } else {
        0
    };
    let body = &original.as_bytes()[top..];
    let total = lines::count_lines(body);
    let after = usize::try_from(insert.after).unwrap_or(usize::MAX);
    if after > total {
        return Err(past_the_end(shown, insert.after, total));
    }
    let head = if after == 0 {
        top
    } else {
        let start = lines::line_start(body, after - 1).unwrap_or(body.len());
        let end = lines::line_end(body, start);
        if let Some(expected) = &insert.expected_line {
            let actual = line_text(&body[start..end]);
            if actual != expected.trim_end_matches(['\n', '\r']) {
                return Err(unexpected_line(shown, insert.after, expected, actual));
            }
        }
        top + end
    };
    let crlf = lines::line_ending(body) == LineEnding::Crlf;
    let eol = if crlf { "\r\n" } else { "\n" };
    let mut middle = String::with_capacity(new_text.len() + 4);
    // The last line had no newline: it gets one, so the text starts a line of its own.
    if head == original.len() && head > top && !original.ends_with('\n') {
        middle.push_str(eol);
    }
    let converted = crlf && new_text.contains('\n') && !new_text.contains('\r');
    if converted {
        middle.push_str(&new_text.replace('\n', "\r\n"));
    } else {
        middle.push_str(new_text);
    }
    if !middle.ends_with('\n') {
        middle.push_str(eol);
    }
    Ok(Edited {
        original,
        head,
        middle,
        tail: original.len() - head,
        replacements: 1,
        crlf_converted: converted,
        already_applied: Vec::new(),
        applied_by: None,
    })
}

/// A line's text without its line ending.
fn line_text(line: &[u8]) -> &str {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    std::str::from_utf8(line).unwrap_or_default()
}

/// `INVALID_ARGUMENT`: the file has fewer lines than `insertAfter` names.
#[cold]
fn past_the_end(shown: &str, after: u64, total: usize) -> Refusal {
    Refusal::new(
        Code::InvalidArgument,
        format!("insertAfter {after} is past the last line of `{shown}`, which has {total} lines"),
    )
    .with(key::FIELD, "insertAfter")
    .with(key::PATH, shown)
    .with("totalLines", total)
}

/// `STALE_VERSION`: line `after` no longer holds the text the caller expected.
#[cold]
fn unexpected_line(shown: &str, after: u64, expected: &str, actual: &str) -> Refusal {
    Refusal::new(
        Code::StaleVersion,
        format!("Line {after} of `{shown}` does not hold expectedLine now"),
    )
    .with(key::PATH, shown)
    .with("line", after)
    .with("expectedLine", expected)
    .with("actualLine", actual)
}

#[cfg(test)]
mod tests {
    use super::{apply, Insert};

    fn inserted(original: &str, after: u64, text: &str) -> String {
        let insert = Insert {
            after,
            expected_line: None,
        };
        let edited = apply("f", original, &insert, text).unwrap();
        String::from_utf8(edited.parts().concat()).unwrap()
    }

    #[test]
    fn inserts_whole_lines_in_the_files_convention() {
        assert_eq!(inserted("a\nb\n", 0, "x"), "x\na\nb\n");
        assert_eq!(inserted("a\nb\n", 1, "x\n"), "a\nx\nb\n");
        assert_eq!(inserted("a\nb\n", 2, "x\ny"), "a\nb\nx\ny\n");
        assert_eq!(inserted("a\nb", 2, "x"), "a\nb\nx\n");
        assert_eq!(inserted("a\r\nb\r\n", 1, "x\ny"), "a\r\nx\r\ny\r\nb\r\n");
        assert_eq!(inserted("", 0, "x"), "x\n");
        assert_eq!(inserted("\u{feff}a\n", 0, "x"), "\u{feff}x\na\n");
    }

    #[test]
    fn refuses_a_line_past_the_end_and_an_unexpected_line() {
        let past = Insert {
            after: 3,
            expected_line: None,
        };
        let refusal = apply("f", "a\nb\n", &past, "x").unwrap_err();
        assert_eq!(refusal.detail("totalLines"), Some(&serde_json::json!(2)));
        let guarded = Insert {
            after: 2,
            expected_line: Some("c".into()),
        };
        let refusal = apply("f", "a\nb\r\n", &guarded, "x").unwrap_err();
        assert_eq!(refusal.detail("actualLine"), Some(&serde_json::json!("b")));
        let right = Insert {
            after: 2,
            expected_line: Some("b".into()),
        };
        assert!(apply("f", "a\nb\r\n", &right, "x").is_ok());
    }
}
