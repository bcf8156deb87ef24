//! The source tree's shape, read from the files themselves: which module imports which
//! (every `crate::`, `super::` and `self::` path outside comments, `use` lines and inline
//! paths alike), checked against the layers `src/` is built in, and the size of every
//! file. A module's own children, which it declares and names by bare paths, are part
//! of it; the arrows counted are those between modules one or two levels deep, each
//! named by `crate::`, `super::` or `self::`. Where today's tree still breaks a rule, the breach is listed here exactly — a
//! breach that goes away must leave the list, and a new one fails — so the list only
//! shrinks.

#![allow(clippy::disallowed_methods)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The top-level modules of `src/`, highest layer first: a module may import only from
/// the modules after it.
const LAYERS: &[&str] = &[
    "main",
    "lib",
    "cli",
    "mcp",
    "envelope",
    "tool",
    "engine",
    "hint",
    "policy",
    "session",
    "region",
    "lock",
    "patch",
    "text",
    "syntax",
    "workspace",
    "pattern",
    "platform",
    "digest",
    "input",
    "refusal",
    "streams",
    "names",
    "affix",
];

/// Imports that still go up a layer, as `from -> to`: each must still exist.
const UPWARD_TODAY: &[&str] = &[];

/// Circles among modules (a top-level module, or a module one level below it), each as
/// its members sorted and joined by spaces: each must still exist exactly so.
const CIRCLES_TODAY: &[&str] = &[];

/// Files over the size bound today (lines), by path below the repository: each must
/// still be over it.
const LONG_TODAY: &[&str] = &[];

/// The most lines a file of `src/` or `tests/` may hold.
const MAX_LINES: usize = 600;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// The module path of a file of `src/` (`src/tool/edit/mod.rs` is `tool::edit`).
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(repo().join("src")).unwrap();
    let mut parts: Vec<String> = rel
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The text without `//` comments (doc comments included) and string literals' contents.
fn code_of(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let mut in_string = false;
        let mut prev = ' ';
        let mut kept = String::new();
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if !in_string && c == '/' && chars.get(i + 1) == Some(&'/') {
                break;
            }
            if c == '"' && prev != '\\' && prev != '\'' {
                in_string = !in_string;
            }
            if !in_string {
                kept.push(c);
            }
            prev = c;
            i += 1;
        }
        out.push_str(&kept);
        out.push('\n');
    }
    out
}

/// The module paths a file's code names: each `crate::a::b`, `super::x`, `self::y`
/// resolved against the file's own module, and each name of a `{…}` group after one.
fn named_paths(module: &[String], code: &str) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        if !code.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let starts_word = i == 0 || !ident(bytes[i - 1]) && bytes[i - 1] != b':';
        let rest = &code[i..];
        let root = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|r| rest.starts_with(r));
        let (Some(_), true) = (root, starts_word) else {
            i += 1;
            continue;
        };
        // Read `seg::seg::…` and an optional `{…}` group.
        let mut segments: Vec<String> = Vec::new();
        let mut j = i;
        loop {
            let start = j;
            while j < bytes.len() && ident(bytes[j]) {
                j += 1;
            }
            if j > start {
                segments.push(code[start..j].to_owned());
            }
            if code[j..].starts_with("::") {
                j += 2;
                if code[j..].starts_with('{') {
                    let end = code[j..].find('}').map_or(code.len(), |e| j + e);
                    for item in code[j + 1..end].split(',') {
                        let name = item.trim().split("::").next().unwrap_or("").trim();
                        let mut path = segments.clone();
                        if !name.is_empty() {
                            path.push(name.to_owned());
                        }
                        found.push(resolve(module, &path));
                    }
                    j = end;
                    segments.clear();
                    break;
                }
                continue;
            }
            break;
        }
        if !segments.is_empty() {
            found.push(resolve(module, &segments));
        }
        i = j.max(i + 1);
    }
    found
}

/// `path` (starting with `crate`, `super` or `self`) as a path from the crate root.
fn resolve(module: &[String], path: &[String]) -> Vec<String> {
    let mut base: Vec<String> = module.to_vec();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &path[1..];
        }
        _ => {
            while let Some(first) = rest.first() {
                match first.as_str() {
                    "super" => {
                        base.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
    }
    base.extend(rest.iter().cloned());
    base
}

/// A module one or two levels deep that a path names, if it is one of `units`.
fn unit_of(path: &[String], units: &BTreeSet<String>) -> Option<String> {
    let two = path.iter().take(2).cloned().collect::<Vec<_>>().join("::");
    if units.contains(&two) {
        return Some(two);
    }
    path.first().filter(|one| units.contains(*one)).cloned()
}

/// Which module imports which: the arrows between modules one or two levels deep.
fn arrows() -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(&repo().join("src"), &mut files);
    let unit = |m: &[String]| m.iter().take(2).cloned().collect::<Vec<_>>().join("::");
    let units: BTreeSet<String> = files.iter().map(|f| unit(&module_of(f))).collect();
    let mut arrows: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(file);
        let from = unit(&module);
        let code = code_of(&fs::read_to_string(file).unwrap());
        for path in named_paths(&module, &code) {
            if let Some(to) = unit_of(&path, &units).filter(|to| *to != from) {
                arrows.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    arrows
}

/// The circles (strongly connected parts of more than one module) of `arrows`.
fn circles(arrows: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<String> {
    let nodes: BTreeSet<&String> = arrows.keys().chain(arrows.values().flatten()).collect();
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for next in arrows.get(&n).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut out = BTreeSet::new();
    for n in &nodes {
        let members: BTreeSet<String> = nodes
            .iter()
            .filter(|m| reaches[*n].contains(**m) && reaches[*m].contains(*n))
            .map(|m| (*m).clone())
            .collect();
        if members.len() > 1 {
            out.insert(members.into_iter().collect::<Vec<_>>().join(" "));
        }
    }
    out
}

#[test]
fn modules_import_only_from_the_layers_below_them() {
    let arrows = arrows();
    let layer = |m: &str| {
        LAYERS
            .iter()
            .position(|l| *l == m.split("::").next().unwrap())
    };
    let mut upward = BTreeSet::new();
    for (from, tos) in &arrows {
        for to in tos {
            let (Some(a), Some(b)) = (layer(from), layer(to)) else {
                panic!("a module missing from LAYERS: {from} or {to}");
            };
            if b < a {
                let top = |m: &str| m.split("::").next().unwrap().to_owned();
                upward.insert(format!("{} -> {}", top(from), top(to)));
            }
        }
    }
    let today: BTreeSet<String> = UPWARD_TODAY.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(
        upward, today,
        "upward imports changed: fix a new one, or drop one that went from UPWARD_TODAY"
    );
}

#[test]
fn no_circle_of_imports_runs_across_modules() {
    let found = circles(&arrows());
    let today: BTreeSet<String> = CIRCLES_TODAY
        .iter()
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        found, today,
        "import circles changed: break a new one, or drop one that went from CIRCLES_TODAY"
    );
}

#[test]
fn no_file_of_src_or_tests_is_over_the_bound() {
    let mut files = Vec::new();
    rust_files(&repo().join("src"), &mut files);
    rust_files(&repo().join("tests"), &mut files);
    let long: BTreeSet<String> = files
        .iter()
        .filter(|f| fs::read_to_string(f).unwrap().lines().count() > MAX_LINES)
        .map(|f| {
            f.strip_prefix(repo())
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let today: BTreeSet<String> = LONG_TODAY.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(
        long, today,
        "files over {MAX_LINES} lines changed: split a new one, or drop one from LONG_TODAY"
    );
}

#[test]
fn the_reader_sees_imports_in_every_form() {
    let module = vec!["tool".to_owned(), "edit".to_owned()];
    let code = code_of(
        "use crate::hint::{self, cut};\n// crate::cli::command\nlet x = super::super::lock::Lock;\n\
         let s = \"crate::mcp\";\nuse crate::{refusal::Code, text};\n\
         let é = \"é\";\n",
    );
    let found = named_paths(&module, &code);
    let joined: Vec<String> = found.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        joined,
        ["hint::self", "hint::cut", "lock::Lock", "refusal", "text"]
    );
}
