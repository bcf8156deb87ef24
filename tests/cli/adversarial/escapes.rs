//! Paths that must be refused by every tool: `..` anywhere, absolute paths, sibling
//! prefixes, symlinks out (relative, absolute, dangling, mid-path), loops and 41-link
//! chains, /proc magic links, NUL, over-long paths, trailing `/`, protected names in any
//! case. A few `..` and link chains that stay inside must work.

use std::fs;

use serde_json::json;

use super::*;
use crate::support::mount;

#[test]
fn dot_dot_in_every_position_is_outside() {
    let ws = workspace();
    let root = abs(&ws.root());
    let mut paths = owned(&[
        "..",
        "../",
        "./..",
        "../.",
        "../outside",
        "../outside/",
        "../outside/secret.txt",
        "../outside/new.txt",
        "../outside/new/dir/f.txt",
        "../outside/deep/../secret.txt",
        "sub/../..",
        "sub/../../",
        "sub/../../outside/secret.txt",
        "sub/./../../outside",
        "sub//..//..//outside/secret.txt",
        "a.txt/../../outside/secret.txt",
        "nonexistent/../../outside/secret.txt",
        "sub/inner.txt/../../../outside/secret.txt",
        "../ws/a.txt",
        "../ws/../outside/secret.txt",
        "../../../../../../../../../../etc/passwd",
    ]);
    paths.extend([
        format!("{root}/.."),
        format!("{root}/../outside/secret.txt"),
        format!("{root}/sub/../../outside/secret.txt"),
        format!("{root}/./../ws-evil/x.txt"),
    ]);
    run_table(&ws, "dot-dot", &each(&paths, all("OUTSIDE_ROOT"))).assert_none("`..`");
}

#[test]
fn dot_dot_that_stays_inside_works() {
    let ws = workspace();
    let rows = vec![
        // read, write, edit (of the secret's header: not in a.txt), list, glob, search
        (
            "sub/../a.txt".into(),
            [
                Works,
                Works,
                Refused("NO_MATCH"),
                Refused("NOT_A_DIRECTORY"),
                Refused("NOT_A_DIRECTORY"),
                Works,
            ],
        ),
        (
            "sub/..".into(),
            [
                Refused("NOT_A_FILE"),
                Refused("NOT_A_FILE"),
                Refused("NOT_A_FILE"),
                Works,
                Works,
                Works,
            ],
        ),
        (
            "./sub/./../sub/inner.txt".into(),
            [
                Works,
                Works,
                Refused("NO_MATCH"),
                Refused("NOT_A_DIRECTORY"),
                Refused("NOT_A_DIRECTORY"),
                Works,
            ],
        ),
    ];
    run_table(&ws, "inside `..`", &rows).assert_none("`..` inside");
}

#[test]
fn absolute_paths_outside_are_refused() {
    let ws = workspace();
    let outside = ws.outside();
    let root = abs(&ws.root());
    let paths = vec![
        "/".to_owned(),
        "/etc".to_owned(),
        "/etc/passwd".to_owned(),
        "/tmp".to_owned(),
        abs(&ws.base()),
        abs(&outside),
        abs(&outside.join("secret.txt")),
        abs(&outside.join("new.txt")),
        abs(&outside.join("new/dir/f.txt")),
        format!("/{}", abs(&outside.join("secret.txt"))),
        format!("/proc/self/root{}", abs(&outside.join("secret.txt"))),
        format!("/proc/self/root{root}/a.txt"),
        "/proc/self/cwd".to_owned(),
        "/proc/self/cwd/a.txt".to_owned(),
        "/proc/self/cwd/../outside/secret.txt".to_owned(),
        "/proc/self/cwd/../ws/a.txt".to_owned(),
        "/proc/self/fd/0".to_owned(),
        "/proc/self/environ".to_owned(),
        "/dev/null".to_owned(),
    ];
    run_table(&ws, "absolute", &each(&paths, all("OUTSIDE_ROOT"))).assert_none("absolute");
}

#[test]
fn a_sibling_sharing_the_roots_prefix_is_outside() {
    let ws = workspace();
    let root = abs(&ws.root());
    let paths = vec![
        "../ws-evil".to_owned(),
        "../ws-evil/x.txt".to_owned(),
        "../ws-evil/new.txt".to_owned(),
        format!("{root}-evil"),
        format!("{root}-evil/x.txt"),
        format!("{root}-evil/new.txt"),
        format!("{root}-evil/../ws/a.txt"),
        "evil".to_owned(),
        "evil/x.txt".to_owned(),
        "evil/new.txt".to_owned(),
    ];
    run_table(&ws, "sibling prefix", &each(&paths, all("OUTSIDE_ROOT"))).assert_none("ws-evil");
    assert!(!ws.base().join("ws-evil/new.txt").exists());
}

#[test]
fn symlinks_out_relative_absolute_dangling_and_mid_path_are_refused() {
    let ws = workspace();
    let paths = owned(&[
        "link-rel",
        "link-abs",
        "dangle-rel",
        "dangle-abs",
        "out-rel",
        "out-rel/",
        "out-rel/secret.txt",
        "out-rel/new.txt",
        "out-rel/deep",
        "out-rel/deep/secret.txt",
        "out-rel/newdir/f.txt",
        "out-abs",
        "out-abs/secret.txt",
        "out-abs/new.txt",
        "out-abs/newdir/f.txt",
        "sub/up",
        "sub/up/outside/secret.txt",
        "sub/up/ws/a.txt",
        "sub/tricky",
        "c1",
        "cd1",
        "cd1/secret.txt",
        "cd1/new.txt",
        "o0",
        "o0/secret.txt",
    ]);
    run_table(&ws, "symlinks out", &each(&paths, all("OUTSIDE_ROOT"))).assert_none("symlinks");
    for name in ["missing.txt", "new.txt", "newdir"] {
        assert!(!ws.outside().join(name).exists(), "{name} came to exist");
    }
}

#[test]
fn symlink_loops_and_41_link_chains_are_invalid_paths() {
    let ws = workspace();
    let paths = owned(&[
        "loop-a",
        "loop-b",
        "loop-a/x.txt",
        "self-loop",
        "self-loop/x",
        "n0",
        "k0",
        "k0/inner.txt",
    ]);
    let mut failures = run_table(&ws, "loops", &each(&paths, all("INVALID_PATH")));
    // One link fewer is fine: 40 links are followed, as Linux does.
    for (path, expect) in [
        (
            "m0",
            [
                Works,
                Works,
                Refused("NO_MATCH"),
                Refused("NOT_A_DIRECTORY"),
                Refused("NOT_A_DIRECTORY"),
                Works,
            ],
        ),
        (
            "j0",
            [
                Refused("NOT_A_FILE"),
                Refused("NOT_A_FILE"),
                Refused("NOT_A_FILE"),
                Works,
                Works,
                Works,
            ],
        ),
    ] {
        for (tool, expect) in TOOLS.iter().zip(expect) {
            check(&ws, &mut failures, tool, path, expect);
        }
    }
    failures.assert_none("loops and chains");
    // The 40-link write went through the chain to its end.
    assert_eq!(ws.read_string("a.txt"), "pwned\n");
    assert!(ws.path("m0").symlink_metadata().unwrap().is_symlink());
}

#[test]
fn proc_magic_links_are_refused() {
    let ws = workspace();
    let outside = abs(&ws.outside().join("secret.txt"));
    let root = abs(&ws.root());
    let paths = vec![
        "proc-root".to_owned(),
        "proc-root/etc/passwd".to_owned(),
        format!("proc-root{outside}"),
        format!("proc-root{root}/a.txt"),
        "proc-cwd".to_owned(),
        "proc-cwd/a.txt".to_owned(),
        "proc-cwd/new.txt".to_owned(),
        "proc-fd".to_owned(),
        "proc-fd/0".to_owned(),
        "proc-fd/1".to_owned(),
        "proc-file".to_owned(),
        "proc-rel".to_owned(),
        format!("proc-rel{outside}"),
    ];
    run_table(&ws, "procfs links", &each(&paths, all("OUTSIDE_ROOT"))).assert_none("procfs");
    assert!(
        !ws.exists("new.txt"),
        "a write through /proc/self/cwd landed"
    );
}

/// The real magic links: procfs mounted *inside* the root, so the walk meets
/// `/proc/<pid>/root`, `cwd` and `exe` themselves rather than a link to them.
#[test]
fn procfs_mounted_inside_the_root_leads_nowhere() {
    let ws = workspace();
    fs::create_dir(ws.path("proc")).unwrap();
    let _mounted = match mount("proc", "ro,nosuid,nodev,noexec", &ws.path("proc")) {
        Ok(m) => m,
        Err(why) => {
            note(&format!(
                "SKIPPED procfs mounted inside the root: {why} (needs CAP_SYS_ADMIN)"
            ));
            return;
        }
    };
    let outside = abs(&ws.outside().join("secret.txt"));
    let mut failures = Failures::default();
    let paths = [
        "proc/self/root".to_owned(),
        format!("proc/self/root{outside}"),
        "proc/self/cwd".to_owned(),
        "proc/self/cwd/a.txt".to_owned(),
        "proc/thread-self/root".to_owned(),
        "proc/self/exe".to_owned(),
        "proc/1/root".to_owned(),
        "proc/1/cwd".to_owned(),
    ];
    for path in &paths {
        // Another process's links may not even be readable (EACCES).
        let expect = if path.starts_with("proc/1/") {
            OutsideOrUnreadable
        } else {
            Refused("OUTSIDE_ROOT")
        };
        for tool in TOOLS {
            check(&ws, &mut failures, tool, path, expect);
        }
    }
    note(&format!(
        "procfs inside the root: {} paths × 6 tools",
        paths.len()
    ));
    failures.assert_none("procfs inside the root");
}

#[test]
fn nul_bytes_are_invalid_paths() {
    let ws = workspace();
    let paths = owned(&[
        "a\0b",
        "\0",
        "a.txt\0",
        "\0a.txt",
        "sub/\0",
        "sub\0/inner.txt",
        "../outside/secret.txt\0",
        "\0/../../outside/secret.txt",
        "link-rel\0",
    ]);
    run_table(&ws, "NUL", &each(&paths, all("INVALID_PATH"))).assert_none("NUL");
}

#[test]
fn over_long_paths_and_names_are_invalid() {
    let ws = workspace();
    let paths = vec![
        "a/".repeat(2049),
        "x".repeat(4097),
        format!("{}/{}", "d".repeat(200), "e/".repeat(2000)),
        "n".repeat(256),
        format!("sub/{}", "n".repeat(256)),
        format!("{}/a.txt", "n".repeat(300)),
        format!("sub/{}/x", "é".repeat(128)),
        String::new(),
    ];
    run_table(&ws, "over-long", &each(&paths, all("INVALID_PATH"))).assert_none("long");
    assert!(!ws.exists("a"));
    assert!(!ws.exists(&"d".repeat(200)));
}

/// A path that the lexer accepts (at most 4096 bytes) must never be an internal error:
/// it works, or it is refused as `INVALID_PATH` like the longer ones.
#[test]

fn a_path_of_exactly_4096_bytes_is_never_internal() {
    let ws = workspace();
    let path = format!("{}/{}", vec!["d".repeat(200); 20].join("/"), "f".repeat(76));
    assert_eq!(path.len(), 4096);
    let mut failures = Failures::default();
    for (tool, request) in [
        ("write", json!({"path": path, "content": "one\n"})),
        ("read", json!({"path": path})),
        (
            "write",
            json!({"path": path, "content": "two\n", "overwrite": true}),
        ),
        (
            "edit",
            json!({"path": path, "oldText": "two", "newText": "three"}),
        ),
        ("list", json!({"path": path})),
        ("search", json!({"query": "t", "path": path})),
    ] {
        let run = ws.stitch(tool, &request);
        let fine = run.envelope["ok"] == true
            || (run.envelope["error"] == "INVALID_PATH" && run.status == 2)
            || (tool == "list" && run.envelope["error"] == "NOT_A_DIRECTORY");
        if !fine {
            failures.add(format!(
                "{tool} of a 4096-byte path: exit {} {}",
                run.status, run.stdout
            ));
        }
    }
    failures.assert_none("a 4096-byte path");
}

#[test]
fn trailing_slashes() {
    let ws = workspace();
    let dir_ok = [
        Refused("INVALID_PATH"),
        Refused("INVALID_PATH"),
        Refused("INVALID_PATH"),
        Works,
        Works,
        Works,
    ];
    // A file named with a trailing `/`: invalid as a file path; not a directory to list
    // or glob. (search is the test below.)
    let file = [
        Refused("INVALID_PATH"),
        Refused("INVALID_PATH"),
        Refused("INVALID_PATH"),
        Refused("NOT_A_DIRECTORY"),
        Refused("NOT_A_DIRECTORY"),
    ];
    let missing = [
        Refused("INVALID_PATH"),
        Refused("INVALID_PATH"),
        Refused("INVALID_PATH"),
        Refused("NOT_FOUND"),
        Refused("NOT_FOUND"),
        Refused("NOT_FOUND"),
    ];
    let rows = vec![
        ("new.txt/".into(), missing),
        ("newdir/new.txt/".into(), missing),
        ("sub/".into(), dir_ok),
        ("sub//".into(), dir_ok),
        ("./sub/./".into(), dir_ok),
        ("out-rel/".into(), all("OUTSIDE_ROOT")),
        ("../outside/".into(), all("OUTSIDE_ROOT")),
        ("link-rel/".into(), all("OUTSIDE_ROOT")),
    ];
    let mut failures = run_table(&ws, "trailing slash", &rows);
    for path in ["a.txt/", "a.txt//", "sub/inner.txt/"] {
        for (tool, expect) in TOOLS.iter().zip(file) {
            check(&ws, &mut failures, tool, path, expect);
        }
    }
    failures.assert_none("trailing slash");
    assert!(!ws.exists("new.txt") && !ws.exists("newdir"));
}

/// §3: a file path with a trailing `/` is `INVALID_PATH`; search's `path` may name a
/// file, and then the same rule applies as for read.
#[test]

fn search_of_a_file_with_a_trailing_slash_is_invalid() {
    let ws = workspace();
    let mut failures = Failures::default();
    for path in ["a.txt/", "a.txt//", "sub/inner.txt/"] {
        check(&ws, &mut failures, "search", path, Refused("INVALID_PATH"));
    }
    failures.assert_none("search with a trailing slash");
}

#[test]
fn protected_names_in_other_cases_are_denied() {
    let ws = workspace();
    ws.file(".stitch/x", secret());
    // `.git/config` is a file: reading and searching it work, listing it is not.
    let git_file = [
        Works,
        Refused("DENIED"),
        Refused("DENIED"),
        Refused("NOT_A_DIRECTORY"),
        Refused("NOT_A_DIRECTORY"),
        Works,
    ];
    let git_missing = [
        Refused("NOT_FOUND"),
        Refused("DENIED"),
        Refused("DENIED"),
        Refused("NOT_FOUND"),
        Refused("NOT_FOUND"),
        Refused("NOT_FOUND"),
    ];
    let rows: Vec<(String, [Expect; 6])> = vec![
        (".git/config".into(), git_file),
        ("gl/config".into(), git_file),
        (".GIT/config".into(), git_missing),
        (".Git/hooks/pre-commit".into(), git_missing),
        ("sub/.gIt/config".into(), git_missing),
        (".Stitch/x".into(), all("DENIED")),
        (".STITCH".into(), all("DENIED")),
        (".stitch/x".into(), all("DENIED")),
        (".stitch/config.json".into(), all("DENIED")),
        (".sTiTcH/locks".into(), all("DENIED")),
        ("sub/../.Stitch/x".into(), all("DENIED")),
        ("./.STITCH/new.txt".into(), all("DENIED")),
        ("st/x".into(), all("DENIED")),
        ("st".into(), all("DENIED")),
    ];
    let mut failures = Failures::default();
    for (path, expect) in &rows {
        for (tool, expect) in TOOLS.iter().zip(expect) {
            let Some(run) = check(&ws, &mut failures, tool, path, *expect) else {
                continue;
            };
            if *expect == Refused("DENIED") {
                let rule = &run.envelope["details"]["rule"];
                let want = if path.to_lowercase().contains("git") || path.starts_with("gl") {
                    "git"
                } else {
                    "reserved"
                };
                if rule != want {
                    failures.add(format!("{tool} {path}: rule {rule}, expected {want}"));
                }
            }
        }
    }
    note(&format!("protected: {} paths × 6 tools", rows.len()));
    failures.assert_none("protected names");
    assert!(!ws.exists(".GIT") && !ws.exists(".Git") && !ws.exists("sub/.gIt"));
    assert!(!ws.exists(".Stitch") && !ws.exists(".STITCH"));
    assert_eq!(ws.read_string(".git/config"), "[core]\n");

    // The reserved directory never shows in a walk, whatever the case of the request.
    for (tool, request) in [
        (
            "glob",
            json!({"pattern": ".stitch/**", "includeIgnored": true}),
        ),
        ("glob", json!({"pattern": "**/x", "includeIgnored": true})),
        ("search", json!({"query": HEADER, "includeIgnored": true})),
        ("list", json!({"depth": 5, "includeIgnored": true})),
    ] {
        let run = ws.stitch(tool, &request);
        run.ok();
        assert!(
            !run.stdout.contains(".stitch") && !run.stdout.contains(LEAK),
            "{tool}: {}",
            run.stdout
        );
    }
}

/// The glob pattern is a path too: it may not climb out of the directory it searches,
/// and discovery at the root never follows a link out.
#[test]
fn discovery_from_the_root_never_follows_a_link_out() {
    let ws = workspace();
    let mut failures = Failures::default();
    for pattern in [
        "../outside/*",
        "../**",
        "/**",
        "sub/../../outside/*",
        "**/../../*",
    ] {
        let run = ws.stitch("glob", &json!({"pattern": pattern}));
        if refusal_problem(&run, "OUTSIDE_ROOT").is_some() {
            failures.add(format!("glob {pattern}: {}", run.stdout));
        }
    }
    for (tool, request) in [
        (
            "list",
            json!({"path": ".", "depth": 8, "includeIgnored": true}),
        ),
        ("glob", json!({"pattern": "**", "includeIgnored": true})),
        (
            "glob",
            json!({"pattern": "**/*secret*", "includeIgnored": true}),
        ),
        (
            "search",
            json!({"query": HEADER, "includeIgnored": true, "context": 3}),
        ),
        (
            "search",
            json!({"query": "secret", "mode": "path", "includeIgnored": true}),
        ),
        (
            "search",
            json!({"query": "NAMELEAK", "mode": "path", "includeIgnored": true}),
        ),
    ] {
        let before = snapshot(&ws);
        let Ok(run) = call(&ws, tool, &request) else {
            failures.add(format!("{tool} {request}: no envelope"));
            continue;
        };
        if run.envelope["ok"] != true {
            failures.add(format!("{tool} {request}: {}", run.stdout));
        }
        if run.stdout.contains(LEAK) || run.stdout.contains(NAME_LEAK) {
            failures.add(format!("{tool} {request}: LEAKED {}", run.stdout));
        }
        for outside_name in ["secret.txt", "deep/", "x.txt", "passwd"] {
            if run.stdout.contains(outside_name) {
                failures.add(format!(
                    "{tool} {request}: shows `{outside_name}` from outside: {}",
                    run.stdout
                ));
            }
        }
        if snapshot(&ws).outside != before.outside {
            failures.add(format!("{tool}: changed something outside"));
        }
    }
    failures.assert_none("discovery");
}
