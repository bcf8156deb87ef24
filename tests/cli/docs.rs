//! The documentation holds together: every relative link in the README, `docs/*.md`,
//! `BENCHMARKS.md` and `bench/notes.md` leads to a file that exists, and every `#anchor`
//! to a heading there; each document opens by saying who it is for; the README's first
//! screen has the two commands; and the README's table of refusal codes lists exactly the
//! codes there are.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use stitch::refusal::Code;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The documents whose links are checked, relative to the repository.
fn documents() -> Vec<String> {
    let mut docs = vec![
        "README.md".to_owned(),
        "BENCHMARKS.md".to_owned(),
        "bench/notes.md".to_owned(),
    ];
    let mut found: Vec<String> = fs::read_dir(repository().join("docs"))
        .expect("docs/")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| Path::new(name).extension().is_some_and(|e| e == "md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    found.sort();
    docs.extend(found);
    docs
}

/// `text` without fenced code blocks and inline code spans, where a `[x](y)` is not a
/// link.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if fenced {
            out.push('\n');
            continue;
        }
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
            } else if !in_code {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of the inline links `[text](target)` in `text`.
fn links(text: &str) -> Vec<String> {
    let prose = prose(text);
    let mut targets = Vec::new();
    let mut rest = prose.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            targets.push(rest[..end].trim().to_owned());
            rest = &rest[end..];
        }
    }
    targets
}

/// The anchor GitHub gives a heading: lower case, punctuation other than `-` and `_`
/// dropped, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Every anchor of a Markdown file's headings (outside code blocks), a repeated one with
/// GitHub's `-1`, `-2` suffixes.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let heading = line.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let base = slug(heading);
        let n = seen.entry(base.clone()).or_insert(0);
        out.push(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let root = repository();
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let path = root.join(&doc);
        let text = read(&path);
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let resolved = if file.is_empty() {
                path.clone()
            } else {
                path.parent().unwrap().join(file)
            };
            if !resolved.exists() {
                broken.push(format!("{doc}: `{target}`: no such file"));
                continue;
            }
            if let Some(anchor) = anchor {
                let is_markdown = resolved.extension().is_some_and(|e| e == "md");
                if !is_markdown || !anchors(&read(&resolved)).iter().any(|a| a == anchor) {
                    broken.push(format!("{doc}: `{target}`: no heading with that anchor"));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "broken links:\n  {}",
        broken.join("\n  ")
    );
    assert!(
        checked > 40,
        "only {checked} links found: is the link scanner broken?"
    );
}

#[test]
fn the_link_scanner_sees_links_and_anchors() {
    assert_eq!(
        links("see [a](docs/a.md#x), `[b](not/a/link)`, and [c](#y)\n```\n[d](e)\n```\n"),
        ["docs/a.md#x", "#y"]
    );
    assert_eq!(
        anchors(
            "# Trust: a cloned repository's config runs nothing\n## a. Per call\n## a. Per call\n"
        ),
        [
            "trust-a-cloned-repositorys-config-runs-nothing",
            "a-per-call",
            "a-per-call-1"
        ]
    );
    assert_eq!(
        slug("MCP: `stitch mcp` and the official server"),
        "mcp-stitch-mcp-and-the-official-server"
    );
}

#[test]
fn each_document_opens_with_who_it_is_for() {
    for doc in documents().into_iter().filter(|d| d.starts_with("docs/")) {
        let text = read(&repository().join(&doc));
        let opening = text
            .split("\n\n")
            .nth(1)
            .unwrap_or_else(|| panic!("{doc} has no opening paragraph"));
        assert!(
            opening.starts_with("For "),
            "{doc} should open by saying who it is for: {opening}"
        );
    }
}

#[test]
fn the_readme_opens_with_the_two_commands() {
    let readme = read(&repository().join("README.md"));
    let first_screen: Vec<&str> = readme.lines().take(8).collect();
    assert_eq!(first_screen[0], "# stitch");
    assert!(
        first_screen
            .iter()
            .any(|l| l.starts_with("cargo run --release -- read README.md")),
        "{first_screen:?}"
    );
    assert!(
        first_screen.iter().any(|l| l.starts_with("cargo test ")),
        "{first_screen:?}"
    );
}

#[test]
fn the_readmes_table_lists_every_refusal_code() {
    let readme = read(&repository().join("README.md"));
    let start = readme
        .find("| code | when | hint, in substance |")
        .expect("the table of refusal codes");
    let listed: Vec<&str> = readme[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.split('`').nth(1))
        .collect();
    let mut expected: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    expected.push("INTERNAL_SERVER_ERROR");
    let (mut listed_sorted, mut expected_sorted) = (listed.clone(), expected.clone());
    listed_sorted.sort_unstable();
    expected_sorted.sort_unstable();
    assert_eq!(listed_sorted, expected_sorted, "README lists {listed:?}");
}
