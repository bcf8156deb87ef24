//! `deny`: denied paths are refused by read, write and edit under every spelling, left
//! out of list, glob and search (and counted), and never reached through a symlink or named
//! in a suggestion.

use serde_json::json;

use crate::support::TestWorkspace;

use super::{assert_denied, config};

const SECRET: &str = "hunter2-secret-value";

/// Secrets under `secrets/` and in `.env` files, denied; a public file mentioning
/// `hunter2` beside them.
fn workspace_with_secrets() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("secrets/key", format!("KEY={SECRET}\n"))
        .file("secrets/token", format!("TOKEN={SECRET}\n"))
        .file("src/a.txt", "hunter2 is public here\n")
        .file("src/.env", format!("ENV={SECRET}\n"))
        .file(".env", format!("ROOT_ENV={SECRET}\n"));
    config(&ws, &json!({"deny": ["secrets/**", "**/.env"]}));
    ws
}

#[test]
fn deny_refuses_read_write_and_edit_and_leaks_nothing() {
    let ws = workspace_with_secrets();
    for path in ["secrets/key", "src/.env", ".env"] {
        let before = ws.read(path);
        let read = ws.run(&["read", path]);
        assert_denied(&read, "deny", path);
        assert!(read.hint().is_empty(), "no hint can help: {}", read.stdout);
        assert!(!read.stdout.contains(SECRET), "{}", read.stdout);
        assert!(!read.stderr.contains(SECRET), "{}", read.stderr);

        let write = ws.run(&["write", path, "--content", "pwned\n", "--overwrite"]);
        assert_denied(&write, "deny", path);
        let edit = ws.run(&["edit", path, "--old", SECRET, "--new", "pwned"]);
        assert_denied(&edit, "deny", path);
        assert!(!edit.stdout.contains(SECRET), "{}", edit.stdout);
        assert_eq!(ws.read(path), before, "{path} unchanged");
    }
    // Nor can a new file be created where the rule applies.
    let create = ws.run(&["write", "secrets/new.txt", "--content", "x"]);
    assert_denied(&create, "deny", "secrets/new.txt");
    assert!(!ws.exists("secrets/new.txt"));
    let create = ws.run(&["write", "deep/er/.env", "--content", "x"]);
    assert_denied(&create, "deny", "deep/er/.env");
    assert!(
        !ws.exists("deep"),
        "no directory was created for a denied write"
    );
}

#[test]
fn deny_applies_to_every_spelling_of_the_path() {
    let ws = workspace_with_secrets();
    let absolute = ws.path("secrets/key").to_string_lossy().into_owned();
    for spelling in ["./secrets/key", "src/../secrets/key", absolute.as_str()] {
        let run = ws.run(&["read", spelling]);
        assert_eq!(
            run.refused("DENIED")["rule"],
            "deny",
            "{spelling}: {}",
            run.stdout
        );
        assert!(!run.stdout.contains(SECRET), "{}", run.stdout);
    }
}

#[test]
fn list_omits_denied_entries_and_counts_them_as_skipped() {
    let ws = workspace_with_secrets();
    let run = ws.run(&["list", "--depth", "3", "--all"]);
    run.assert_envelope(&json!({
        "ok": true,
        "data": {
            "entries": [
                {"kind": "directory", "path": "secrets"},
                {"kind": "directory", "path": "src"},
                {"bytes": 23, "kind": "file", "path": "src/a.txt"}
            ],
            "path": ".",
            "skipped": 4,
            "truncated": false
        }
    }));
    // The directory itself is listed (the pattern does not name it); nothing below it.
    assert!(!run.stdout.contains("key") && !run.stdout.contains("token"));

    let inside = ws.run(&["list", "secrets"]);
    inside.assert_envelope(&json!({
        "ok": true,
        "data": {"entries": [], "path": "secrets", "skipped": 2, "truncated": false}
    }));
}

#[test]
fn list_counts_entries_both_hidden_and_denied_once() {
    // Without --all, the two .env files are hidden and denied: left out either way,
    // and `skipped` counts every entry left out by ignore rules or policy.
    let ws = workspace_with_secrets();
    let run = ws.run(&["list", "--depth", "3"]);
    let data = run.ok();
    assert_eq!(
        data["entries"],
        json!([{"path": "secrets", "kind": "directory"},
               {"path": "src", "kind": "directory"},
               {"path": "src/a.txt", "kind": "file", "bytes": 23}]),
        "{}",
        run.stdout
    );
    assert_eq!(data["skipped"], 4, "{}", run.stdout);
}

#[test]
fn glob_omits_denied_files_and_counts_them() {
    let ws = workspace_with_secrets();
    let run = ws.run(&["glob", "**", "--all"]);
    let data = run.ok();
    assert_eq!(data["matches"], json!(["src/a.txt"]), "{}", run.stdout);
    assert_eq!(data["denied"], 4, "{}", run.stdout);
    let run = ws.run(&["glob", "**/*"]);
    assert_eq!(run.ok()["matches"], json!(["src/a.txt"]), "{}", run.stdout);
    let run = ws.run(&["glob", "*", "--path", "secrets"]);
    let data = run.ok();
    assert_eq!(data["matches"], json!([]), "{}", run.stdout);
    assert_eq!(data["denied"], 2, "{}", run.stdout);
}

#[test]
fn search_omits_denied_files_and_counts_them() {
    let ws = workspace_with_secrets();
    let run = ws.run(&["search", "hunter2", "--all"]);
    let data = run.ok();
    assert_eq!(
        data["matches"],
        json!([{"path": "src/a.txt", "line": 1, "text": "hunter2 is public here"}]),
        "{}",
        run.stdout
    );
    assert_eq!(data["denied"], 4, "{}", run.stdout);
    assert!(!run.stdout.contains(SECRET), "{}", run.stdout);

    let run = ws.run(&["search", "secret", "--mode", "path", "--all"]);
    let data = run.ok();
    assert_eq!(data["matches"], json!([]), "{}", run.stdout);
    assert_eq!(data["denied"], 4, "{}", run.stdout);

    let run = ws.run(&["search", "hunter2", "--path", "secrets"]);
    let data = run.ok();
    assert_eq!(data["matches"], json!([]), "{}", run.stdout);
    assert!(!run.stdout.contains(SECRET), "{}", run.stdout);
    // Naming a denied file as the place to search is naming it.
    let run = ws.run(&["search", "hunter2", "--path", "secrets/key"]);
    assert_denied(&run, "deny", "secrets/key");
    assert!(!run.stdout.contains(SECRET), "{}", run.stdout);
}

#[test]
fn a_symlink_cannot_route_around_deny() {
    let ws = workspace_with_secrets();
    ws.symlink("secrets/key", "link");
    ws.symlink("secrets", "dirlink");

    let read = ws.run(&["read", "link"]);
    assert_denied(&read, "deny", "link");
    assert!(!read.stdout.contains(SECRET), "{}", read.stdout);
    let read = ws.run(&["read", "dirlink/key"]);
    assert_denied(&read, "deny", "dirlink/key");
    assert!(!read.stdout.contains(SECRET), "{}", read.stdout);
    let write = ws.run(&["write", "link", "--content", "pwned\n", "--overwrite"]);
    assert_denied(&write, "deny", "link");
    let edit = ws.run(&["edit", "dirlink/token", "--old", "TOKEN", "--new", "X"]);
    assert_denied(&edit, "deny", "dirlink/token");
    assert_eq!(ws.read_string("secrets/key"), format!("KEY={SECRET}\n"));
    assert_eq!(ws.read_string("secrets/token"), format!("TOKEN={SECRET}\n"));
    assert!(ws.path("link").symlink_metadata().unwrap().is_symlink());

    // Walks into the linked directory show nothing from inside, and never its content.
    let run = ws.run(&["search", "hunter2", "--path", "dirlink"]);
    assert_eq!(run.ok()["matches"], json!([]), "{}", run.stdout);
    assert!(!run.stdout.contains(SECRET), "{}", run.stdout);
    for args in [
        &["search", "hunter2", "--all"][..],
        &["search", "hunter2"],
        &["search", "KEY"],
        &["search", "key", "--mode", "path", "--all"],
    ] {
        let run = ws.run(args);
        let data = run.ok();
        assert!(!run.stdout.contains(SECRET), "{args:?}: {}", run.stdout);
        for m in data["matches"].as_array().unwrap() {
            let path = m["path"].as_str().unwrap();
            assert!(path == "src/a.txt", "{args:?} shows {path}: {}", run.stdout);
        }
    }
    let run = ws.run(&["glob", "**", "--all"]);
    assert_eq!(run.ok()["matches"], json!(["src/a.txt"]), "{}", run.stdout);
    let run = ws.run(&["list", "dirlink"]);
    assert_eq!(run.ok()["entries"], json!([]), "{}", run.stdout);
    let run = ws.run(&["list", "--depth", "4", "--all"]);
    let data = run.ok();
    for entry in data["entries"].as_array().unwrap() {
        let path = entry["path"].as_str().unwrap();
        assert!(
            !path.starts_with("dirlink/") && !path.starts_with("secrets/") && path != "link",
            "list shows {path}: {}",
            run.stdout
        );
    }
}

#[test]
fn not_found_suggestions_never_name_a_denied_path() {
    // `nearNames` lists existing paths; a denied path must not be among them, nor in the
    // hint.
    let ws = workspace_with_secrets();
    let run = ws.run(&["read", "secret/key"]);
    run.assert_envelope(&json!({
        "ok": false,
        "error": "NOT_FOUND",
        "details": {
            "message": "`secret/key` does not exist",
            "nearNames": ["secrets"],
            "path": "secret/key"
        },
        "_hint": "Did you mean `secrets`? Otherwise list the parent directory."
    }));
    for name in run.envelope["details"]["nearNames"].as_array().unwrap() {
        let name = name.as_str().unwrap();
        assert!(
            !name.starts_with("secrets/") && !name.split('/').any(|c| c == ".env"),
            "nearNames names the denied {name}: {}",
            run.stdout
        );
    }
}
