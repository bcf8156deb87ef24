//! The root at `$HOME`, a common way to start an agent: stitch's user-level state lies
//! inside the workspace — the user's config (whose `authorize` runs on the next
//! mutation), the journal's key, the trust records — and no tool reads, writes, deletes,
//! moves or patches any of it, however the path is spelled; walks do not show it, and
//! `config check` warns.

use serde_json::{json, Value};

use crate::support::{Run, TestWorkspace};

const USER_CONFIG: &str = ".config/stitch/config.json";
const KEY: &str = ".local/share/stitch/key";

/// Runs `stitch args` with `HOME` at the root and the XDG directories at their defaults
/// below it.
fn at_home(ws: &TestWorkspace, args: &[&str]) -> Run {
    let mut cmd = ws.cmd();
    cmd.env("HOME", ws.root())
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .args(args)
        .write_stdin(Vec::new());
    Run::from_output(cmd.output().unwrap())
}

/// The refusal of `path`, which lies in the user's config directory (`config`) or the
/// data directory.
fn reserved(path: &str, config: bool) -> Value {
    let lies_in = if config {
        "~/.config/stitch, the user's own stitch config"
    } else {
        "~/.local/share/stitch, where stitch keeps its journal key and trust records"
    };
    json!({
        "ok": false,
        "error": "DENIED",
        "details": {
            "message": format!("`{path}` lies in {lies_in}, which no tool may read or change"),
            "path": path,
            "rule": "reserved"
        }
    })
}

#[track_caller]
fn assert_reserved(run: &Run, path: &str, config: bool) {
    run.assert_envelope(&reserved(path, config));
    assert_eq!(run.status, 1, "{}", run.stdout);
}

#[test]
fn no_tool_creates_the_users_config_under_a_root_at_home() {
    let ws = TestWorkspace::new();
    let hook = r#"{"authorize": ["./evil"]}"#;
    // No `.config` yet, then an empty one: the directory is reserved where it would be.
    for _ in 0..2 {
        let run = at_home(&ws, &["write", USER_CONFIG, "--content", hook]);
        assert_reserved(&run, USER_CONFIG, true);
        let patch =
            format!("*** Begin Patch\n*** Add File: {USER_CONFIG}\n+{hook}\n*** End Patch\n");
        let run = at_home(&ws, &["apply", "--patch", &patch]);
        assert_eq!(run.refused("DENIED")["rule"], "reserved", "{}", run.stdout);
        ws.dir(".config");
    }
    assert!(!ws.exists(".config/stitch"));
    // The spelling does not matter: absolute, with `..`, in another letter case.
    let absolute = ws.path(USER_CONFIG).to_string_lossy().into_owned();
    for path in [
        absolute.as_str(),
        "a/../.config/stitch/config.json",
        ".config/Stitch/x",
    ] {
        let run = at_home(&ws, &["write", path, "--content", hook]);
        assert_eq!(
            run.refused("DENIED")["rule"],
            "reserved",
            "{path}: {}",
            run.stdout
        );
    }
    assert!(!ws.exists(".config/stitch") && !ws.exists(".config/Stitch"));
}

#[test]
fn no_tool_reads_or_changes_the_users_config_under_a_root_at_home() {
    let ws = TestWorkspace::new();
    let mine = r#"{"deny": ["secret.txt"]}"#;
    ws.file(USER_CONFIG, mine).file("a.txt", "one\n");
    // Through a link to the directory too.
    ws.symlink(".config/stitch", "cfg");
    let patch = format!("*** Begin Patch\n*** Delete File: {USER_CONFIG}\n*** End Patch\n");
    for (args, shown) in [
        (vec!["read", USER_CONFIG], USER_CONFIG),
        (vec!["read", "cfg/config.json"], "cfg/config.json"),
        (
            vec!["edit", USER_CONFIG, "--old", "secret", "--new", "x"],
            USER_CONFIG,
        ),
        (
            vec!["write", "cfg/config.json", "--content", "{}", "--overwrite"],
            "cfg/config.json",
        ),
        (vec!["delete", USER_CONFIG], USER_CONFIG),
        (vec!["move", USER_CONFIG, "b.json"], USER_CONFIG),
        (
            vec!["move", "a.txt", USER_CONFIG, "--overwrite"],
            USER_CONFIG,
        ),
        (vec!["list", ".config/stitch"], ".config/stitch"),
    ] {
        assert_reserved(&at_home(&ws, &args), shown, true);
    }
    let run = at_home(&ws, &["apply", "--patch", &patch]);
    assert_eq!(run.refused("DENIED")["rule"], "reserved", "{}", run.stdout);
    assert_eq!(ws.read_string(USER_CONFIG), mine);
    assert_eq!(ws.read_string("a.txt"), "one\n");
}

#[test]
fn the_key_and_the_trust_records_are_out_of_reach_under_a_root_at_home() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "one\n");
    // A journaled change makes the key, below the root.
    at_home(&ws, &["edit", "a.txt", "--old", "one", "--new", "two"]).ok();
    let key = ws.read(KEY);
    assert_eq!(key.len(), 32);
    for args in [
        &["read", KEY][..],
        &[
            "write",
            KEY,
            "--content",
            "0123456789abcdef0123456789abcdef",
            "--overwrite",
        ],
        &["delete", KEY],
        &["move", KEY, "key.bak"],
    ] {
        assert_reserved(&at_home(&ws, args), KEY, false);
    }
    // No trust record can be planted, however the path is spelled.
    let record = format!(".local/share/stitch/trusted/{}", "a".repeat(64));
    let root = ws.root().to_string_lossy().into_owned() + "\n";
    assert_reserved(
        &at_home(&ws, &["write", &record, "--content", &root]),
        &record,
        false,
    );
    ws.symlink(".local/share/stitch", "data");
    let linked = format!("data/trusted/{}", "b".repeat(64));
    assert_reserved(
        &at_home(&ws, &["write", &linked, "--content", &root]),
        &linked,
        false,
    );
    assert_reserved(&at_home(&ws, &["read", "data/key"]), "data/key", false);
    assert_eq!(ws.read(KEY), key, "the key is unchanged");
    assert!(!ws.exists(".local/share/stitch/trusted"));
    // The journal still verifies its own entries: undo takes the change back.
    at_home(&ws, &["undo"]).ok();
    assert_eq!(ws.read_string("a.txt"), "one\n");
}

#[test]
fn walks_do_not_show_the_users_state_under_a_root_at_home() {
    let ws = TestWorkspace::new();
    ws.file(USER_CONFIG, r#"{"deny": []}"#)
        .file("a.txt", "needle\n")
        .file(".local/share/other/notes.txt", "needle\n");
    at_home(&ws, &["write", "b.txt", "--content", "needle\n"]).ok();
    assert!(ws.exists(KEY));
    // Links into the reserved directories, to a file and to a directory.
    ws.symlink("../.local/share/stitch/key", "links/key")
        .symlink("../.config/stitch", "links/cfg");
    for args in [
        &["list", "--all", "--depth", "9"][..],
        &["list", ".local/share", "--all"],
        &["glob", "**", "--all"],
        &["search", "needle", "--all"],
        &["search", "stitch", "--mode", "path", "--all"],
    ] {
        let run = at_home(&ws, args);
        run.ok();
        for hidden in ["stitch/", "stitch\"", "links/key", "links/cfg"] {
            assert!(
                !run.stdout.contains(hidden),
                "{args:?} showed {hidden}: {}",
                run.stdout
            );
        }
    }
    let list = at_home(&ws, &["list", ".local/share", "--all"]);
    assert_eq!(
        list.ok()["entries"][0]["path"],
        ".local/share/other",
        "{}",
        list.stdout
    );
}

#[test]
fn config_check_warns_of_the_users_state_under_a_root_at_home() {
    let ws = TestWorkspace::new();
    let warning = |shown: &str, what: &str| {
        format!(
            "{shown}, {what}, lies inside the workspace: no tool may read or change it \
             (DENIED, rule reserved), but any other program run here can; a root that does \
             not hold it is safer"
        )
    };
    let run = at_home(&ws, &["config", "check"]);
    assert_eq!(
        run.ok()["warnings"],
        json!([
            warning("~/.config/stitch", "the user's own stitch config"),
            warning(
                "~/.local/share/stitch",
                "where stitch keeps its journal key and trust records"
            ),
        ]),
        "{}",
        run.stdout
    );
    // Elsewhere, no warning.
    let run = ws.run(&["config", "check"]);
    assert!(run.ok().get("warnings").is_none(), "{}", run.stdout);
    // The user's own authorize program inside the workspace: a tool could rewrite it.
    let program = ws.path("bin/approve").to_string_lossy().into_owned();
    ws.user_config(&json!({"authorize": [program]}));
    let run = ws.run(&["config", "check"]);
    assert_eq!(
        run.ok()["warnings"],
        json!([
            "your own authorize program `bin/approve` lies inside the workspace, where a tool \
             may rewrite it, and it runs before every change; keep it outside the workspace"
        ]),
        "{}",
        run.stdout
    );
}
