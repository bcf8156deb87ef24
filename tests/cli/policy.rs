//! Policy (§7): `.stitch/config.json`'s `deny`, `readOnly`, `limits` and `authorize`,
//! each against every tool it governs; malformed configs fail closed; the config itself
//! is out of every tool's reach.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::{sha256sum, Run, TestWorkspace};

const CONFIG: &str = ".stitch/config.json";

/// Writes `.stitch/config.json` (raw bytes) the way a person would.
fn config_raw(ws: &TestWorkspace, bytes: impl AsRef<[u8]>) {
    fs::create_dir_all(ws.path(".stitch")).unwrap();
    fs::write(ws.path(CONFIG), bytes).unwrap();
}

fn config(ws: &TestWorkspace, value: &Value) {
    config_raw(ws, value.to_string());
}

/// Writes an executable `#!/bin/sh` script at `rel` below the root.
fn hook(ws: &TestWorkspace, rel: &str, body: &str) {
    ws.file(rel, format!("#!/bin/sh\n{body}"));
    fs::set_permissions(ws.path(rel), fs::Permissions::from_mode(0o755)).unwrap();
}

/// Asserts `DENIED` with `rule` for `path`; returns `details`.
#[track_caller]
fn assert_denied<'a>(run: &'a Run, rule: &str, path: &str) -> &'a Value {
    let details = run.refused("DENIED");
    assert_eq!(details["rule"], rule, "{}", run.stdout);
    assert_eq!(details["path"], path, "{}", run.stdout);
    details
}

// ---------------------------------------------------------------------------------------
// deny

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
    let data = run.ok();
    let paths: Vec<&str> = data["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    // The directory itself is listed (the pattern does not name it); nothing below it.
    assert_eq!(paths, ["secrets", "src", "src/a.txt"], "{}", run.stdout);
    assert_eq!(data["skipped"], 4, "{}", run.stdout);
    assert!(!run.stdout.contains("key") && !run.stdout.contains("token"));

    let inside = ws.run(&["list", "secrets"]);
    let data = inside.ok();
    assert_eq!(data["entries"], json!([]), "{}", inside.stdout);
    assert_eq!(data["skipped"], 2, "{}", inside.stdout);
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
    let details = run.refused("NOT_FOUND");
    for name in details["nearNames"].as_array().unwrap() {
        let name = name.as_str().unwrap();
        assert!(
            !name.starts_with("secrets/") && !name.split('/').any(|c| c == ".env"),
            "nearNames names the denied {name}: {}",
            run.stdout
        );
    }
    assert!(!run.hint().contains("secrets/"), "{}", run.stdout);
}

// ---------------------------------------------------------------------------------------
// readOnly

const VENDORED: &str = "pub fn vendored() {}\n";

fn workspace_with_vendor() -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("vendor/lib.rs", VENDORED)
        .file("Cargo.lock", "# lock\n")
        .file("src/main.rs", "fn main() {}\n")
        .symlink("vendor/lib.rs", "ro-link.rs");
    config(&ws, &json!({"readOnly": ["vendor/**", "**/*.lock"]}));
    ws
}

#[test]
fn read_only_refuses_every_mutation() {
    let ws = workspace_with_vendor();
    let edit = ws.run(&[
        "edit",
        "vendor/lib.rs",
        "--old",
        "vendored",
        "--new",
        "patched",
    ]);
    assert_denied(&edit, "readOnly", "vendor/lib.rs");
    let write = ws.run(&["write", "vendor/lib.rs", "--content", "x", "--overwrite"]);
    assert_denied(&write, "readOnly", "vendor/lib.rs");
    let through = ws.run(&["write", "ro-link.rs", "--content", "x", "--overwrite"]);
    assert_denied(&through, "readOnly", "ro-link.rs");
    let edit_through = ws.run(&["edit", "ro-link.rs", "--old", "vendored", "--new", "p"]);
    assert_denied(&edit_through, "readOnly", "ro-link.rs");
    let create = ws.run(&["write", "vendor/new.rs", "--content", "x"]);
    assert_denied(&create, "readOnly", "vendor/new.rs");
    let lock = ws.run(&["edit", "Cargo.lock", "--old", "lock", "--new", "x"]);
    assert_denied(&lock, "readOnly", "Cargo.lock");
    let dry = ws.run(&[
        "edit",
        "vendor/lib.rs",
        "--old",
        "vendored",
        "--new",
        "p",
        "--dry-run",
    ]);
    assert_denied(&dry, "readOnly", "vendor/lib.rs");

    assert_eq!(ws.read_string("vendor/lib.rs"), VENDORED);
    assert_eq!(ws.read_string("Cargo.lock"), "# lock\n");
    assert!(ws
        .path("ro-link.rs")
        .symlink_metadata()
        .unwrap()
        .is_symlink());
    assert!(!ws.exists("vendor/new.rs"));
    // Everything else stays writable.
    ws.run(&["edit", "src/main.rs", "--old", "{}", "--new", "{ }"])
        .ok();
}

#[test]
fn read_only_files_are_readable_and_listed() {
    let ws = workspace_with_vendor();
    let run = ws.run(&["read", "vendor/lib.rs"]);
    assert_eq!(run.ok()["content"], VENDORED);
    assert_eq!(ws.run(&["read", "ro-link.rs"]).ok()["content"], VENDORED);
    let run = ws.run(&["glob", "**/*.rs"]);
    assert_eq!(
        run.ok()["matches"],
        json!(["ro-link.rs", "src/main.rs", "vendor/lib.rs"]),
        "{}",
        run.stdout
    );
    let run = ws.run(&["search", "vendored"]);
    assert!(run.ok()["matches"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["path"] == "vendor/lib.rs"));
    let run = ws.run(&["list", "vendor"]);
    assert_eq!(run.ok()["skipped"], 0, "{}", run.stdout);
}

// ---------------------------------------------------------------------------------------
// limits

#[test]
fn max_read_bytes_caps_read() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "0123456789abcdefghij\n");
    config(&ws, &json!({"limits": {"maxReadBytes": 8}}));
    let run = ws.stitch("read", &json!({"path": "a.txt", "maxBytes": 9}));
    let details = run.refused("INVALID_ARGUMENT");
    assert_eq!(details["field"], "maxBytes", "{}", run.stdout);
    assert!(run.message().contains('8'), "names the cap: {}", run.stdout);
    assert!(ws
        .stitch("read", &json!({"path": "a.txt", "maxBytes": 8}))
        .ok()["truncated"]
        .as_bool()
        .unwrap());
    // The default is the cap.
    let run = ws.run(&["read", "a.txt"]);
    let data = run.ok();
    assert_eq!(data["content"], "01234567", "{}", run.stdout);
    assert_eq!(data["truncated"], true);
}

#[test]
fn max_file_bytes_refuses_bigger_files_for_read_edit_and_write() {
    let ws = TestWorkspace::new();
    let big = "a".repeat(300);
    let small = "small\n";
    ws.file("big.txt", &big).file("small.txt", small);
    config(&ws, &json!({"limits": {"maxFileBytes": 100}}));

    for args in [
        &["read", "big.txt"][..],
        &["edit", "big.txt", "--old", "aaa", "--new", "b"],
    ] {
        let run = ws.run(args);
        let details = run.refused("TOO_LARGE");
        assert_eq!(details["bytes"], 300, "{args:?}: {}", run.stdout);
        assert_eq!(details["limit"], 100, "{args:?}: {}", run.stdout);
        assert_eq!(details["path"], "big.txt");
    }
    assert_eq!(ws.read_string("big.txt"), big);

    let content = "b".repeat(101);
    let run = ws.run(&["write", "new.txt", "--content", &content]);
    let details = run.refused("TOO_LARGE");
    assert_eq!(details["bytes"], 101, "{}", run.stdout);
    assert_eq!(details["limit"], 100, "{}", run.stdout);
    assert!(!ws.exists("new.txt"));
    let run = ws.run(&["write", "small.txt", "--content", &content, "--overwrite"]);
    run.refused("TOO_LARGE");
    assert_eq!(ws.read_string("small.txt"), small);
    // An edit whose result would pass the limit.
    let run = ws.run(&["edit", "small.txt", "--old", "small", "--new", &content]);
    let details = run.refused("TOO_LARGE");
    assert_eq!(details["limit"], 100, "{}", run.stdout);
    assert_eq!(ws.read_string("small.txt"), small);

    // At the limit is fine.
    ws.run(&["write", "exact.txt", "--content", &"c".repeat(100)])
        .ok();
    assert_eq!(ws.read("exact.txt").len(), 100);
}

/// A workspace of `n` files `f0.txt` … each holding `hit`.
fn workspace_with_hits(n: usize) -> TestWorkspace {
    let ws = TestWorkspace::new();
    for i in 0..n {
        ws.file(&format!("f{i}.txt"), "hit\n");
    }
    ws
}

#[test]
fn list_glob_and_search_limits_change_the_defaults() {
    let ws = workspace_with_hits(5);
    config(
        &ws,
        &json!({"limits": {"listLimit": 2, "globLimit": 3, "searchLimit": 4}}),
    );
    let list = ws.run(&["list"]);
    let data = list.ok();
    assert_eq!(
        data["entries"].as_array().unwrap().len(),
        2,
        "{}",
        list.stdout
    );
    assert_eq!(data["truncated"], true);
    let glob = ws.run(&["glob", "*.txt"]);
    let data = glob.ok();
    assert_eq!(
        data["matches"].as_array().unwrap().len(),
        3,
        "{}",
        glob.stdout
    );
    assert_eq!(data["truncated"], true);
    let search = ws.run(&["search", "hit"]);
    let data = search.ok();
    assert_eq!(
        data["matches"].as_array().unwrap().len(),
        4,
        "{}",
        search.stdout
    );
    assert_eq!(data["truncated"], true);

    // The caller may raise each up to ten times its configured default, no further.
    for (command, request, cap) in [
        ("list", json!({"limit": 20}), 20),
        ("glob", json!({"pattern": "*.txt", "limit": 30}), 30),
        ("search", json!({"query": "hit", "limit": 40}), 40),
    ] {
        let run = ws.stitch(command, &request);
        assert_eq!(run.ok()["truncated"], false, "{command}: {}", run.stdout);
        let mut over = request.clone();
        over["limit"] = json!(cap + 1);
        let run = ws.stitch(command, &over);
        let details = run.refused("INVALID_ARGUMENT");
        assert_eq!(details["field"], "limit", "{command}: {}", run.stdout);
        assert!(
            run.message().contains(&cap.to_string()),
            "{command} names the cap {cap}: {}",
            run.stdout
        );
    }
}

// ---------------------------------------------------------------------------------------
// authorize

/// Where hooks record what they saw: beside the root, out of the workspace.
fn capture(ws: &TestWorkspace, name: &str) -> PathBuf {
    ws.outside().join(name)
}

fn captured_json(ws: &TestWorkspace, name: &str) -> Value {
    let text = fs::read_to_string(capture(ws, name)).expect("the hook recorded its payload");
    serde_json::from_str(&text).expect("the payload is JSON")
}

/// A hook that records its payload to `outside/payload.json` and then runs `then`.
fn recording_hook(ws: &TestWorkspace, then: &str) {
    let out = capture(ws, "payload.json");
    hook(
        ws,
        "hooks/approve",
        &format!("cat > '{}'\n{then}", out.display()),
    );
    config(ws, &json!({"authorize": ["./hooks/approve"]}));
}

#[test]
fn an_approving_hook_lets_the_change_through() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\n");
    recording_hook(&ws, "exit 0\n");
    ws.run(&["write", "b.txt", "--content", "bee\n"]).ok();
    assert_eq!(ws.read_string("b.txt"), "bee\n");
    ws.run(&["edit", "a.txt", "--old", "two", "--new", "TWO"])
        .ok();
    assert_eq!(ws.read_string("a.txt"), "one\nTWO\n");
    // Reads are not mutations: the hook is not asked.
    fs::remove_file(capture(&ws, "payload.json")).unwrap();
    ws.run(&["read", "a.txt"]).ok();
    ws.run(&["list"]).ok();
    assert!(!capture(&ws, "payload.json").exists(), "reads ask nobody");
}

#[test]
fn a_refusing_hook_denies_with_its_first_stderr_line() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\ntwo\n");
    hook(
        &ws,
        "hooks/refuse",
        "echo 'stdout is not the reason'\necho '   ' >&2\necho '' >&2\necho '  only files under src/ may change  ' >&2\necho 'a second line' >&2\nexit 3\n",
    );
    config(&ws, &json!({"authorize": ["./hooks/refuse"]}));

    let write = ws.run(&["write", "new/dir/b.txt", "--content", "x"]);
    let details = assert_denied(&write, "authorize", "new/dir/b.txt");
    assert_eq!(
        details["reason"], "only files under src/ may change",
        "{}",
        write.stdout
    );
    assert!(
        write.message().contains("only files under src/ may change"),
        "{}",
        write.stdout
    );
    assert!(
        write.hint().contains("only files under src/ may change"),
        "the hint carries the policy's reason: {}",
        write.stdout
    );
    assert!(
        !ws.exists("new"),
        "no directory created for a refused write"
    );

    let edit = ws.run(&["edit", "a.txt", "--old", "two", "--new", "TWO"]);
    let details = assert_denied(&edit, "authorize", "a.txt");
    assert_eq!(details["reason"], "only files under src/ may change");
    assert_eq!(ws.read_string("a.txt"), "one\ntwo\n");

    let replace = ws.run(&["write", "a.txt", "--content", "x", "--overwrite"]);
    assert_denied(&replace, "authorize", "a.txt");
    assert_eq!(ws.read_string("a.txt"), "one\ntwo\n");
}

#[test]
fn a_hook_that_explains_only_on_stdout_is_quoted_from_stdout() {
    let ws = TestWorkspace::new();
    hook(
        &ws,
        "hooks/refuse",
        "echo\necho 'refused: ask the owner'\necho 'more detail'\nexit 1\n",
    );
    config(&ws, &json!({"authorize": ["./hooks/refuse"]}));
    let run = ws.run(&["write", "b.txt", "--content", "x"]);
    let details = assert_denied(&run, "authorize", "b.txt");
    assert_eq!(
        details["reason"], "refused: ask the owner",
        "{}",
        run.stdout
    );
    assert!(!ws.exists("b.txt"));
}

#[test]
fn a_silent_refusal_still_has_a_reason() {
    let ws = TestWorkspace::new();
    hook(&ws, "hooks/refuse", "exit 7\n");
    config(&ws, &json!({"authorize": ["./hooks/refuse"]}));
    let run = ws.run(&["write", "b.txt", "--content", "x"]);
    let details = assert_denied(&run, "authorize", "b.txt");
    let reason = details["reason"].as_str().expect("a reason");
    assert!(!reason.is_empty(), "{}", run.stdout);
    assert!(!ws.exists("b.txt"));
}

#[test]
fn a_hook_that_cannot_start_denies() {
    let ws = TestWorkspace::new();
    ws.file("hooks/not-executable", "#!/bin/sh\nexit 0\n");
    for argv in [
        json!(["./hooks/missing"]),
        json!(["./hooks/not-executable"]),
    ] {
        config(&ws, &json!({"authorize": argv}));
        let run = ws.run(&["write", "b.txt", "--content", "x"]);
        assert_denied(&run, "authorize", "b.txt");
        assert!(!ws.exists("b.txt"), "{argv}");
        assert!(
            !run.stdout
                .contains(&ws.root().to_string_lossy().into_owned()),
            "no absolute path: {}",
            run.stdout
        );
    }
}

#[test]
fn a_hanging_hook_is_killed_and_the_change_denied() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    hook(&ws, "hooks/hang", "sleep 30\nexit 0\n");
    config(
        &ws,
        &json!({"authorize": ["./hooks/hang"], "authorizeTimeoutSecs": 1}),
    );
    for args in [
        &["write", "new/b.txt", "--content", "x"][..],
        &["edit", "a.txt", "--old", "one", "--new", "ONE"],
    ] {
        let start = Instant::now();
        let run = ws.run(args);
        let elapsed = start.elapsed();
        let details = run.refused("DENIED");
        assert_eq!(details["rule"], "authorize", "{args:?}: {}", run.stdout);
        assert!(details["reason"].as_str().is_some(), "{}", run.stdout);
        assert!(
            elapsed < Duration::from_secs(10),
            "{args:?} took {elapsed:?}"
        );
        assert!(
            elapsed >= Duration::from_millis(900),
            "{args:?} waited for the timeout: {elapsed:?}"
        );
    }
    assert!(!ws.exists("new"));
    assert_eq!(ws.read_string("a.txt"), "one\n");
}

#[test]
fn the_write_payload_names_directories_before_they_exist() {
    let ws = TestWorkspace::new();
    let before = capture(&ws, "dir-before");
    recording_hook(
        &ws,
        &format!(
            "if [ -d new ]; then echo existed > '{0}'; else echo absent > '{0}'; fi\nexit 0\n",
            before.display()
        ),
    );
    let content = "hello\n";
    let run = ws.run(&["write", "new/sub/f.txt", "--content", content]);
    run.ok();
    let payload = captured_json(&ws, "payload.json");
    assert_eq!(payload["tool"], "write_file", "{payload}");
    assert_eq!(payload["path"], "new/sub/f.txt", "{payload}");
    assert_eq!(payload["operation"], "create", "{payload}");
    assert_eq!(payload["bytes"], content.len(), "{payload}");
    assert_eq!(payload["overwrite"], false, "{payload}");
    assert_eq!(
        payload["createsDirectories"],
        json!(["new", "new/sub"]),
        "{payload}"
    );
    assert_eq!(
        payload["resultSha256"],
        sha256sum(content.as_bytes()),
        "{payload}"
    );
    assert_eq!(payload["dryRun"], false, "{payload}");
    assert!(payload.get("baseSha256").is_none(), "{payload}");
    assert!(payload.get("session").is_none(), "{payload}");
    assert_eq!(fs::read_to_string(&before).unwrap(), "absent\n");
    assert_eq!(ws.read_string("new/sub/f.txt"), content);

    // A replacement, in a session.
    ws.run(&["--session", "s1", "read", "new/sub/f.txt"]).ok();
    let replaced = "bye\n";
    ws.run(&[
        "--session",
        "s1",
        "write",
        "new/sub/f.txt",
        "--content",
        replaced,
        "--overwrite",
    ])
    .ok();
    let payload = captured_json(&ws, "payload.json");
    assert_eq!(payload["operation"], "replace", "{payload}");
    assert_eq!(payload["overwrite"], true, "{payload}");
    assert_eq!(payload["createsDirectories"], json!([]), "{payload}");
    assert_eq!(
        payload["baseSha256"],
        sha256sum(content.as_bytes()),
        "{payload}"
    );
    assert_eq!(
        payload["resultSha256"],
        sha256sum(replaced.as_bytes()),
        "{payload}"
    );
    assert_eq!(payload["session"], "s1", "{payload}");
}

#[test]
fn the_edit_payload_carries_the_versions_the_count_and_the_diff() {
    let ws = TestWorkspace::new();
    let text = "one\ntwo\none\n";
    ws.file("a.txt", text);
    recording_hook(&ws, "exit 0\n");
    let run = ws.run(&[
        "edit",
        "a.txt",
        "--old",
        "one",
        "--new",
        "ONE",
        "--replace-all",
    ]);
    let data = run.ok();
    let result = "ONE\ntwo\nONE\n";
    let payload = captured_json(&ws, "payload.json");
    assert_eq!(payload["tool"], "edit_file", "{payload}");
    assert_eq!(payload["path"], "a.txt", "{payload}");
    assert_eq!(payload["operation"], "edit", "{payload}");
    assert_eq!(payload["bytes"], result.len(), "{payload}");
    assert_eq!(
        payload["baseSha256"],
        sha256sum(text.as_bytes()),
        "{payload}"
    );
    assert_eq!(
        payload["resultSha256"],
        sha256sum(result.as_bytes()),
        "{payload}"
    );
    assert_eq!(payload["replacements"], 2, "{payload}");
    assert_eq!(payload["dryRun"], false, "{payload}");
    assert_eq!(payload["diff"], data["diff"], "{payload}");
    let diff = payload["diff"].as_str().unwrap();
    assert!(diff.lines().any(|l| l == "-one"), "{diff}");
    assert!(diff.lines().any(|l| l == "+ONE"), "{diff}");
    assert_eq!(ws.read_string("a.txt"), result);
}

#[test]
fn dry_runs_are_authorized_as_dry_runs() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    recording_hook(&ws, "exit 0\n");
    let run = ws.stitch(
        "write",
        &json!({"path": "d/new.txt", "content": "x", "dryRun": true}),
    );
    assert_eq!(run.ok()["applied"], false);
    let payload = captured_json(&ws, "payload.json");
    assert_eq!(payload["dryRun"], true, "{payload}");
    assert_eq!(payload["createsDirectories"], json!(["d"]), "{payload}");
    assert!(!ws.exists("d"));

    ws.run(&["edit", "a.txt", "--old", "one", "--new", "ONE", "--dry-run"])
        .ok();
    let payload = captured_json(&ws, "payload.json");
    assert_eq!(payload["dryRun"], true, "{payload}");
    assert_eq!(payload["tool"], "edit_file", "{payload}");
    assert_eq!(ws.read_string("a.txt"), "one\n");

    // A refusing hook refuses a dry run as well: the dry run predicts the real call.
    hook(
        &ws,
        "hooks/approve",
        "echo no dry runs either >&2\nexit 1\n",
    );
    let run = ws.run(&["edit", "a.txt", "--old", "one", "--new", "ONE", "--dry-run"]);
    assert_eq!(
        assert_denied(&run, "authorize", "a.txt")["reason"],
        "no dry runs either"
    );
}

#[test]
fn the_hook_runs_in_the_root_with_a_clean_environment() {
    let ws = TestWorkspace::new();
    let pwd = capture(&ws, "pwd");
    let env = capture(&ws, "env");
    hook(
        &ws,
        "hooks/approve",
        &format!(
            "cat > /dev/null\npwd > '{}'\nenv > '{}'\nexit 0\n",
            pwd.display(),
            env.display()
        ),
    );
    config(&ws, &json!({"authorize": ["./hooks/approve"]}));
    let run = ws.run_with_env(
        &[
            ("SECRET_TOKEN", "x"),
            ("PATH", "/usr/bin:/bin"),
            ("LANG", "C.UTF-8"),
            ("HOME", "/nonexistent-home"),
        ],
        &["write", "b.txt", "--content", "x"],
    );
    run.ok();

    let root = fs::canonicalize(ws.root()).unwrap();
    let cwd = fs::read_to_string(&pwd).unwrap();
    assert_eq!(PathBuf::from(cwd.trim_end()), root);

    let env = fs::read_to_string(&env).unwrap();
    let vars: Vec<(&str, &str)> = env
        .lines()
        .filter_map(|line| line.split_once('='))
        .collect();
    let get = |name: &str| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
    let stitch_root = get("STITCH_ROOT").expect("STITCH_ROOT is set");
    assert_eq!(fs::canonicalize(stitch_root).unwrap(), root);
    assert_eq!(get("PATH"), Some("/usr/bin:/bin"), "{env}");
    assert_eq!(get("LANG"), Some("C.UTF-8"), "{env}");
    assert_eq!(get("SECRET_TOKEN"), None, "{env}");
    assert_eq!(get("HOME"), None, "{env}");
    // Nothing else but what the shell sets for itself.
    for (name, _) in &vars {
        assert!(
            matches!(
                *name,
                "PATH" | "LANG" | "STITCH_ROOT" | "PWD" | "OLDPWD" | "SHLVL" | "_"
            ),
            "unexpected {name} in the hook's environment:\n{env}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Malformed configs

/// Every tool, by flags, against a workspace holding `a.txt`.
const EVERY_TOOL: [&[&str]; 6] = [
    &["read", "a.txt"],
    &["write", "b.txt", "--content", "x"],
    &["edit", "a.txt", "--old", "one", "--new", "ONE"],
    &["list"],
    &["glob", "*"],
    &["search", "one"],
];

#[test]
fn a_malformed_config_makes_every_tool_refuse() {
    let cases: [(&str, Option<&str>); 9] = [
        (r#"{"deny": ["a""#, None),
        ("[1, 2]", None),
        (r#"{"deny": [], "denny": []}"#, Some("denny")),
        (r#"{"deny": ["ok", "b[", "c"]}"#, Some("deny[1]")),
        (r#"{"readOnly": ["x{"]}"#, Some("readOnly[0]")),
        (
            r#"{"limits": {"maxFileBytes": -1}}"#,
            Some("limits.maxFileBytes"),
        ),
        (r#"{"limits": {"maxReads": 1}}"#, Some("limits.maxReads")),
        (r#"{"authorize": []}"#, Some("authorize")),
        (
            r#"{"authorizeTimeoutSecs": 0}"#,
            Some("authorizeTimeoutSecs"),
        ),
    ];
    for (text, field) in cases {
        let ws = TestWorkspace::new();
        ws.file("a.txt", "one\n");
        config_raw(&ws, text);
        let mut calls: Vec<&[&str]> = EVERY_TOOL.to_vec();
        calls.push(&["config", "check"]);
        calls.push(&["--session", "s1", "read", "a.txt"]);
        for args in calls {
            let run = ws.run(args);
            let details = run.refused("INVALID_CONFIG");
            assert_eq!(run.status, 1);
            assert_eq!(details["path"], CONFIG, "{text} {args:?}: {}", run.stdout);
            assert_eq!(
                details.get("field").and_then(Value::as_str),
                field,
                "{text} {args:?}: {}",
                run.stdout
            );
            assert!(
                details["reason"].as_str().is_some_and(|r| !r.is_empty()),
                "{}",
                run.stdout
            );
            assert!(run.hint().contains("config check"), "{}", run.stdout);
        }
        // Over JSON on stdin, too.
        let run = ws.stitch("read", &json!({"path": "a.txt"}));
        run.refused("INVALID_CONFIG");
        assert_eq!(ws.read_string("a.txt"), "one\n", "{text}");
        assert!(!ws.exists("b.txt"), "{text}");
        assert!(!ws.exists(".stitch/sessions"), "{text}");
    }
}

#[test]
fn config_check_reports_what_a_valid_config_enforces() {
    let ws = TestWorkspace::new();
    config(
        &ws,
        &json!({
            "deny": ["**/.env", "secrets/**"],
            "readOnly": ["vendor/**", "**/*.lock"],
            "limits": {"maxReadBytes": 1000, "maxFileBytes": 5000, "listLimit": 7},
            "authorize": ["./scripts/approve", "--quiet"],
            "authorizeTimeoutSecs": 2.5
        }),
    );
    let run = ws.run(&["config", "check"]);
    let data = run.ok();
    assert_eq!(data["path"], CONFIG);
    assert_eq!(data["exists"], true);
    assert_eq!(data["deny"], json!(["**/.env", "secrets/**"]));
    assert_eq!(data["readOnly"], json!(["vendor/**", "**/*.lock"]));
    assert_eq!(data["limits"]["maxReadBytes"], 1000);
    assert_eq!(data["limits"]["maxFileBytes"], 5000);
    assert_eq!(data["limits"]["listLimit"], 7);
    // Limits not named keep the contract's defaults.
    assert_eq!(data["limits"]["globLimit"], 1000);
    assert_eq!(data["limits"]["searchLimit"], 100);
    assert_eq!(data["authorize"], json!(["./scripts/approve", "--quiet"]));
    assert_eq!(data["authorizeTimeoutSecs"], 2.5);
}

#[test]
fn config_check_without_a_config_reports_the_defaults() {
    let ws = TestWorkspace::new();
    let run = ws.run(&["config", "check"]);
    let data = run.ok();
    assert_eq!(data["exists"], false);
    assert_eq!(data["deny"], json!([]));
    assert_eq!(data["readOnly"], json!([]));
    assert_eq!(data["limits"]["maxReadBytes"], 262_144);
    assert_eq!(data["limits"]["maxFileBytes"], 268_435_456);
    assert_eq!(data["limits"]["listLimit"], 500);
    assert_eq!(data["limits"]["globLimit"], 1000);
    assert_eq!(data["limits"]["searchLimit"], 100);
    assert!(data["authorize"].is_null());
}

// ---------------------------------------------------------------------------------------
// The config is out of reach

const MARKER: &str = "marker-only-in-the-config";

#[test]
fn no_tool_reads_or_writes_the_config() {
    let ws = TestWorkspace::new();
    let text = json!({"deny": [MARKER]}).to_string();
    config_raw(&ws, &text);
    ws.symlink(".stitch/config.json", "cfg-link");
    let absolute = ws.path(CONFIG).to_string_lossy().into_owned();
    for path in [
        CONFIG,
        "./.stitch/config.json",
        "src/../.stitch/config.json",
        absolute.as_str(),
        "cfg-link",
    ] {
        let read = ws.run(&["read", path]);
        assert_eq!(
            read.refused("DENIED")["rule"],
            "reserved",
            "{path}: {}",
            read.stdout
        );
        assert!(!read.stdout.contains(MARKER), "{}", read.stdout);
        let write = ws.run(&["write", path, "--content", "{}", "--overwrite"]);
        assert_eq!(
            write.refused("DENIED")["rule"],
            "reserved",
            "{path}: {}",
            write.stdout
        );
        let edit = ws.run(&["edit", path, "--old", MARKER, "--new", "x"]);
        assert_eq!(
            edit.refused("DENIED")["rule"],
            "reserved",
            "{path}: {}",
            edit.stdout
        );
        assert!(!edit.stdout.contains(MARKER), "{}", edit.stdout);
    }
    // Not even with a session that read nothing, nor by creating it afresh.
    let run = ws.run(&["--session", "s1", "write", CONFIG, "--content", "{}"]);
    assert_eq!(run.refused("DENIED")["rule"], "reserved");
    assert_eq!(ws.read_string(CONFIG), text);
}

#[test]
fn no_tool_creates_a_config() {
    let ws = TestWorkspace::new();
    let run = ws.run(&["write", CONFIG, "--content", r#"{"deny":[]}"#]);
    assert_eq!(run.refused("DENIED")["rule"], "reserved");
    assert!(!ws.exists(CONFIG));
}

#[test]
fn walks_never_show_the_config() {
    let ws = TestWorkspace::new();
    config_raw(&ws, json!({"deny": [MARKER]}).to_string());
    ws.file("a.txt", "plain\n");
    for args in [
        &["list", "--depth", "5", "--all"][..],
        &["glob", "**", "--all"],
        &["glob", ".stitch/*", "--all"],
        &["search", MARKER, "--all"],
        &["search", "config", "--mode", "path", "--all"],
    ] {
        let run = ws.run(args);
        run.ok();
        assert!(!run.stdout.contains(".stitch"), "{args:?}: {}", run.stdout);
        assert!(!run.stdout.contains(MARKER), "{args:?}: {}", run.stdout);
    }
    for args in [
        &["list", ".stitch"][..],
        &["glob", "*", "--path", ".stitch"],
        &["search", MARKER, "--path", ".stitch"],
    ] {
        let run = ws.run(args);
        assert_eq!(
            run.refused("DENIED")["rule"],
            "reserved",
            "{args:?}: {}",
            run.stdout
        );
        assert!(!run.stdout.contains(MARKER), "{args:?}: {}", run.stdout);
    }
}

#[test]
fn walks_never_show_the_config_through_a_symlink() {
    // A link into .stitch/ must not let list, glob or search show what is there.
    let ws = TestWorkspace::new();
    config_raw(&ws, json!({"deny": [MARKER]}).to_string());
    ws.file("a.txt", "plain\n");
    ws.symlink(".stitch/config.json", "cfg-link");
    ws.symlink(".stitch", "state-link");
    for args in [
        &["search", MARKER][..],
        &["search", MARKER, "--all"],
        &["glob", "**/*.json", "--all"],
        &["list", "--depth", "5", "--all"],
        &["search", "config", "--mode", "path", "--all"],
    ] {
        let run = ws.run(args);
        let data = run.ok();
        assert!(!run.stdout.contains(MARKER), "{args:?}: {}", run.stdout);
        assert!(
            !run.stdout.contains("config.json"),
            "{args:?} shows the config: {}",
            run.stdout
        );
        if let Some(entries) = data["entries"].as_array() {
            for entry in entries {
                let path = entry["path"].as_str().unwrap();
                assert!(!path.starts_with("state-link/"), "list shows {path}");
            }
        }
    }
}

#[test]
fn a_config_that_is_not_a_file_fails_closed() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "a\n").dir(".stitch/config.json");
    let run = ws.run(&["config", "check"]);
    let details = run.refused("INVALID_CONFIG");
    assert_eq!(details["path"], ".stitch/config.json");
    ws.run(&["read", "a.txt"]).refused("INVALID_CONFIG");
}
