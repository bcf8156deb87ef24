//! Names that look hostile but are ordinary names inside the root — leading `-` (in JSON
//! and after `--` on the command line), Unicode in several spellings, 255-byte names —
//! work with every tool and name exactly what was written.

use std::fs;
use std::path::PathBuf;

use serde_json::{json, Value};

use super::*;

#[test]
fn a_255_byte_name_is_an_ordinary_name() {
    let ws = workspace();
    let name = "n".repeat(255);
    let unicode = format!("{}x", "é".repeat(127));
    assert_eq!(unicode.len(), 255);
    let mut failures = Failures::default();
    for name in [name, unicode] {
        let write = ws.stitch("write", &json!({"path": name, "content": "long name\n"}));
        if write.envelope["ok"] != true {
            failures.add(format!("write of a 255-byte name: {}", write.stdout));
            continue;
        }
        ordinary_name_works(&ws, &mut failures, &name, "long name\n");
    }
    failures.assert_none("255-byte names");
}

/// Reads, edits, lists, globs and searches a file that exists under `name` with
/// `content`, checking that each names it exactly as written.
fn ordinary_name_works(ws: &TestWorkspace, failures: &mut Failures, name: &str, content: &str) {
    let what = shown(name);
    let on_disk = fs::read(ws.path(name));
    if on_disk.as_deref().ok() != Some(content.as_bytes()) {
        failures.add(format!("{what}: not on disk under exactly that name"));
    }
    let read = ws.stitch("read", &json!({"path": name}));
    if read.envelope["data"]["content"] != content || read.envelope["data"]["path"] != name {
        failures.add(format!("read {what}: {}", read.stdout));
    }
    let first_line = content.lines().next().unwrap();
    let search = ws.stitch(
        "search",
        &json!({"query": first_line, "includeIgnored": true}),
    );
    let found: Vec<&Value> = search.envelope["data"]["matches"]
        .as_array()
        .map(|m| m.iter().map(|m| &m["path"]).collect())
        .unwrap_or_default();
    if !found.contains(&&json!(name)) {
        failures.add(format!("search for {what}: {}", search.stdout));
    }
    let glob = ws.stitch("glob", &json!({"pattern": "**", "includeIgnored": true}));
    if !glob.envelope["data"]["matches"]
        .as_array()
        .is_some_and(|m| m.contains(&json!(name)))
    {
        failures.add(format!("glob for {what}: {}", glob.stdout));
    }
    let list = ws.stitch(
        "list",
        &json!({"path": ".", "depth": 3, "includeIgnored": true}),
    );
    let listed = list.envelope["data"]["entries"]
        .as_array()
        .is_some_and(|e| e.iter().any(|e| e["path"] == name));
    if !listed {
        failures.add(format!("list for {what}: {}", list.stdout));
    }
    let edit = ws.stitch(
        "edit",
        &json!({"path": name, "oldText": first_line, "newText": format!("{first_line} edited")}),
    );
    if edit.envelope["ok"] != true || edit.envelope["data"]["path"] != name {
        failures.add(format!("edit {what}: {}", edit.stdout));
    }
}

#[test]
fn names_starting_with_a_dash_are_ordinary_names_in_json() {
    let ws = workspace();
    let mut failures = Failures::default();
    for name in [
        "-rf",
        "--help",
        "-",
        "--",
        "-n",
        "--root=..",
        "--json",
        "-dir/-x.txt",
    ] {
        let content = format!("dash {name}\n");
        let write = ws.stitch("write", &json!({"path": name, "content": content}));
        if write.envelope["ok"] != true || write.envelope["data"]["path"] != name {
            failures.add(format!("write {name}: {}", write.stdout));
            continue;
        }
        ordinary_name_works(&ws, &mut failures, name, &content);
    }
    let list = ws.stitch("list", &json!({"path": "-dir"}));
    if list.envelope["data"]["entries"][0]["path"] != "-dir/-x.txt" {
        failures.add(format!("list -dir: {}", list.stdout));
    }
    let glob = ws.stitch("glob", &json!({"pattern": "-*", "path": "-dir"}));
    if glob.envelope["data"]["matches"] != json!(["-dir/-x.txt"]) {
        failures.add(format!("glob -* in -dir: {}", glob.stdout));
    }
    assert_eq!(tree(&ws.outside()).len(), 4, "nothing new outside");
    failures.assert_none("dash names in JSON");
}

#[test]
fn names_starting_with_a_dash_after_double_dash_on_the_command_line() {
    let ws = workspace();
    ws.file("-rf", "dash file\n")
        .file("-dir/-x.txt", "dash dir\n");
    let before = tree(&ws.base());

    let read = ws.run(&["read", "--", "-rf"]);
    assert_eq!(read.ok()["content"], "dash file\n");
    let write = ws.run(&["write", "--content", "created\n", "--", "--help"]);
    assert_eq!(write.ok()["path"], "--help");
    assert_eq!(ws.read_string("--help"), "created\n");
    let edit = ws.run(&["edit", "--old", "dash", "--new", "DASH", "--", "-rf"]);
    assert_eq!(edit.ok()["path"], "-rf");
    assert_eq!(ws.read_string("-rf"), "DASH file\n");
    let list = ws.run(&["list", "--", "-dir"]);
    assert_eq!(list.ok()["entries"][0]["path"], "-dir/-x.txt");
    let glob = ws.run(&["glob", "--", "-*"]);
    assert_eq!(glob.ok()["matches"], json!(["--help", "-rf"]));
    let search = ws.run(&["search", "--path=-dir", "--", "-x"]);
    assert_eq!(search.ok()["matches"], json!([]));
    let search = ws.run(&["search", "--path=-dir", "--", "dash dir"]);
    assert_eq!(search.ok()["matches"][0]["path"], "-dir/-x.txt");

    // Without `--` a leading `-` is an option: a usage error that touches nothing.
    for args in [
        &["read", "-rf"][..],
        &["write", "--content", "x", "-rf"],
        &["edit", "--old", "a", "--new", "b", "-rf"],
        &["list", "-dir"],
    ] {
        let run = ws.run(args);
        run.refused("INVALID_ARGUMENT");
    }
    let mut after = tree(&ws.base());
    after.retain(|p, _| !p.starts_with("ws/.stitch"));
    let mut expected = before;
    expected.retain(|p, _| !p.starts_with("ws/.stitch"));
    expected.insert(PathBuf::from("ws/--help"), b"created\n".to_vec());
    expected.insert(PathBuf::from("ws/-rf"), b"DASH file\n".to_vec());
    assert_eq!(after, expected);
}

#[test]
fn unicode_names_are_ordinary_names_inside() {
    let ws = workspace();
    let names = [
        "caf\u{e9}.txt",                       // NFC é
        "cafe\u{301}.txt",                     // NFD e + combining acute: a different name
        "a\u{200b}b.txt",                      // zero-width space
        "\u{200b}",                            // a name that is only a zero-width space
        "\u{202e}txt.exe",                     // right-to-left override
        "\u{feff}bom-name.txt",                // a BOM as the first character
        "\u{ff0e}\u{ff0e}/outside/secret.txt", // fullwidth dots: not `..`
        ".\u{200b}./outside/secret.txt",       // dot, zero-width space, dot: not `..`
        "\u{2215}etc\u{2215}passwd",           // division slash: not a separator
        "\u{65e5}\u{672c}/\u{30d5}\u{30a1}\u{30a4}\u{30eb}.txt",
        "emoji-\u{1f600}.txt",
    ];
    let outside_before = tree(&ws.outside());
    let mut failures = Failures::default();
    for (i, name) in names.iter().enumerate() {
        let content = format!("unicode name {i}\n");
        let write = ws.stitch("write", &json!({"path": name, "content": content}));
        if write.envelope["ok"] != true || write.envelope["data"]["path"] != *name {
            failures.add(format!("write {}: {}", shown(name), write.stdout));
            continue;
        }
        ordinary_name_works(&ws, &mut failures, name, &content);
    }
    // NFC and NFD spellings are two files, each with its own content.
    assert_eq!(ws.read_string("caf\u{e9}.txt"), "unicode name 0 edited\n");
    assert_eq!(ws.read_string("cafe\u{301}.txt"), "unicode name 1 edited\n");
    assert_eq!(
        tree(&ws.outside()),
        outside_before,
        "nothing outside changed"
    );
    note(&format!("unicode: {} names × 6 tools", names.len()));
    failures.assert_none("unicode names");
}
