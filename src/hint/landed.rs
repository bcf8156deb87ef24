//! The hint of a success that needs one: a change that landed by region (§6) in a file
//! another program had changed since the session's read, whose changed lines the session
//! has not seen — so the next step is to read those lines before relying on them.

use serde_json::Value;

use super::Caller;
use crate::names;

/// The hint for a result `data`, in `dialect`, when some file of it landed by region;
/// `None` for every other success.
#[must_use]
pub fn landed_hint(data: &Value, dialect: Caller) -> Option<String> {
    let files = std::iter::once(data).chain(data["changes"].as_array().into_iter().flatten());
    let stale: Vec<(&str, &[Value])> = files
        .filter(|file| file["staleRead"] == true)
        .map(|file| {
            let path = file["path"].as_str().unwrap_or("the file");
            let runs = file["foreignChanges"]
                .as_array()
                .map_or(&[][..], Vec::as_slice);
            (path, runs)
        })
        .collect();
    let (path, runs) = *stale.first()?;
    let first = runs.first()?;
    let start = first["startLine"].as_u64()?;
    let end = runs.last()?["endLine"].as_u64()?.max(start);
    let lines = |r: &Value| match (r["startLine"].as_u64(), r["endLine"].as_u64()) {
        (Some(a), Some(b)) if a == b => format!("{a}"),
        (Some(a), Some(b)) => format!("{a}-{b}"),
        _ => String::new(),
    };
    let named: Vec<String> = runs.iter().map(lines).collect();
    let read = match dialect {
        Caller::Flags => format!(
            "stitch read {} --offset {start} --limit {}",
            super::dialect::shell_word(path),
            end - start + 1
        ),
        Caller::Json => format!(
            "{} with path `{path}`, offset {start}, limit {}",
            names::READ_FILE,
            end - start + 1
        ),
    };
    let others = if stale.len() > 1 {
        format!(" ({} other files landed the same way)", stale.len() - 1)
    } else {
        String::new()
    };
    Some(format!(
        "Another program changed `{path}` at line {} since this session read it; the change \
         landed on lines the session had seen{others}. Before a change that depends on those \
         lines, read them: {read}.",
        named.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{landed_hint, Caller};

    #[test]
    fn a_result_that_landed_by_region_names_the_lines_to_read() {
        let edit = json!({"path": "lib.rs", "staleRead": true,
            "foreignChanges": [{"startLine": 3, "endLine": 4}, {"startLine": 10, "endLine": 10}]});
        assert_eq!(
            landed_hint(&edit, Caller::Flags).unwrap(),
            "Another program changed `lib.rs` at line 3-4, 10 since this session read it; \
             the change landed on lines the session had seen. Before a change that depends \
             on those lines, read them: stitch read lib.rs --offset 3 --limit 8."
        );
        let apply = json!({"changes": [{"path": "a.rs"}, {"path": "b.rs", "staleRead": true,
            "foreignChanges": [{"startLine": 7, "endLine": 7}]}]});
        assert!(landed_hint(&apply, Caller::Json)
            .unwrap()
            .ends_with("read them: read_file with path `b.rs`, offset 7, limit 1."));
        assert_eq!(landed_hint(&json!({"path": "lib.rs"}), Caller::Json), None);
        // A path a shell would split or expand is one quoted word.
        let spaced = json!({"path": "my dir/it's.rs", "staleRead": true,
            "foreignChanges": [{"startLine": 2, "endLine": 2}]});
        assert!(landed_hint(&spaced, Caller::Flags)
            .unwrap()
            .ends_with("read them: stitch read 'my dir/it'\\''s.rs' --offset 2 --limit 1."));
    }
}
