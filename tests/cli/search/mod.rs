//! `search_files`: literal by default, linear-time regexes, case, include globs, context,
//! (path, line) order, binary files, path mode, limits that keep the first matches
//! deterministically, ignore rules, symlinks out of the root, the refusals, and -l, -c
//! and -q.

use serde_json::Value;

mod limits;
mod matching;
mod output;
mod scope;
mod summary;

/// `(path, line)` of every match, in the order returned.
fn located(data: &Value) -> Vec<(String, u64)> {
    data["matches"]
        .as_array()
        .expect("matches is an array")
        .iter()
        .map(|m| {
            (
                m["path"].as_str().expect("match path").to_owned(),
                m["line"].as_u64().expect("match line"),
            )
        })
        .collect()
}

fn at(path: &str, line: u64) -> (String, u64) {
    (path.to_owned(), line)
}
