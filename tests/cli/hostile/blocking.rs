//! Nothing blocks, nothing grows without bound: FIFOs and devices anywhere in the
//! workspace (files, ignore files, `--from` sources) are refused or read without waiting,
//! and stdin is read only up to its bound.

use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::json;

use super::{mkfifo, mkzero, timed, KILL_AFTER, PROMPT};
use crate::support::{report, tree, Run, TestWorkspace};

/// Runs `stitch args` with an endless stream on stdin (as `yes |` gives) and returns the
/// call's result and how many bytes it was fed before it stopped reading.
fn fed_endlessly(ws: &TestWorkspace, args: &[&str]) -> (Run, u64, Duration) {
    let mut child = ws
        .std_cmd()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn stitch");
    let mut stdin = child.stdin.take().unwrap();
    let start = Instant::now();
    let feeder = std::thread::spawn(move || {
        let line = b"y\n".repeat(32 * 1024);
        let mut fed = 0u64;
        // Ends when stitch closes its end (EPIPE), or after far more than any bound.
        while fed < (4 << 30) && stdin.write_all(&line).is_ok() {
            fed += line.len() as u64;
        }
        fed
    });
    let deadline = start + KILL_AFTER;
    while child.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "stitch {args:?} did not stop reading"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let took = start.elapsed();
    let output = child.wait_with_output().unwrap();
    let fed = feeder.join().unwrap();
    (Run::from_output(output), fed, took)
}

#[test]
fn an_endless_stdin_is_refused_without_reading_it_all() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\n");
    for (args, limit) in [
        (&["glob"][..], 1u64 << 20),
        (&["read", "--json"], 1 << 20),
        (&["search", "--json"], 1 << 20),
        (&["write", "--json"], 2 * 268_435_456 + (1 << 20)),
    ] {
        let (run, fed, took) = fed_endlessly(&ws, args);
        run.refused("TOO_LARGE");
        assert_eq!(
            run.envelope,
            json!({
                "ok": false,
                "error": "TOO_LARGE",
                "details": {
                    "message": format!(
                        "stdin holds more than {limit} bytes, the bound on this tool's JSON arguments"
                    ),
                    "field": "stdin",
                    "limit": limit,
                },
                "_hint": "Send one JSON object holding only the arguments; pass large text with \
                          --from FILE, or split the work.",
            }),
            "{}",
            run.stdout
        );
        // What a pipe holds beyond the bound is all that was written before it closed.
        assert!(fed < limit + (8 << 20), "{args:?}: fed {fed} bytes");
        report(&format!(
            "hostile::blocking: `yes | stitch {}` refused after {took:?}, {fed} bytes fed",
            args.join(" ")
        ));
    }
    assert_eq!(ws.read_string("a.txt"), "alpha\n");
}

#[test]
fn from_a_source_over_max_file_bytes_is_too_large() {
    let ws = TestWorkspace::new();
    ws.file(
        ".stitch/config.json",
        r#"{"limits": {"maxFileBytes": 1000}}"#,
    )
    .file("big.txt", "x".repeat(5000));
    let run = timed(&ws, &["write", "copy.txt", "--from", "-"], "y".repeat(5000));
    run.refused("TOO_LARGE");
    assert_eq!(
        run.envelope,
        json!({
            "ok": false,
            "error": "TOO_LARGE",
            "details": {
                "message": "--from `-` holds more than 1000 bytes, the workspace's maxFileBytes",
                "field": "content",
                "flag": "--from",
                "limit": 1000,
            },
            "_hint": "Split the content into smaller files.",
        }),
        "{}",
        run.stdout
    );
    let run = timed(&ws, &["write", "copy.txt", "--from", "big.txt"], "");
    assert_eq!(run.refused("TOO_LARGE")["limit"], 1000, "{}", run.stdout);
    assert!(!ws.exists("copy.txt"));
}

/// The refusal of a `--from`-style flag naming a FIFO no program opened to write.
fn no_writer(flag: &str, field: &str, fifo: &str) -> serde_json::Value {
    json!({
        "ok": false,
        "error": "INVALID_ARGUMENT",
        "details": {
            "message": format!("--{flag} `{fifo}` is a FIFO that no program opened to write within 2 s, so nothing was read"),
            "field": field,
            "flag": format!("--{flag}"),
            "reason": "no writer",
        },
        "_hint": format!("Start the program that writes the FIFO before (or while) calling stitch, or pass --{flag} a regular file."),
    })
}

#[test]
fn a_planted_fifo_named_by_from_is_never_read_as_empty() {
    let ws = TestWorkspace::new();
    ws.file("t.txt", "keep me\n");
    mkfifo(&ws.path("notes.md"));
    for (args, flag, field) in [
        (
            &["write", "t.txt", "--from", "notes.md", "--overwrite"][..],
            "from",
            "content",
        ),
        (
            &["edit", "t.txt", "--old-from", "notes.md", "--new", "x"],
            "old-from",
            "oldText",
        ),
        (
            &["edit", "t.txt", "--old", "keep", "--new-from", "notes.md"],
            "new-from",
            "newText",
        ),
    ] {
        let start = Instant::now();
        let run = timed(&ws, args, "");
        let took = start.elapsed();
        run.assert_envelope(&no_writer(flag, field, "notes.md"));
        assert!(
            run.stderr.contains(&format!(
                "--{flag} `notes.md` is a FIFO no program has opened to write yet"
            )),
            "a notice while it waits: {}",
            run.stderr
        );
        assert!(took >= Duration::from_secs(2), "waited the bound: {took:?}");
        assert_eq!(ws.read("t.txt"), b"keep me\n", "the file is intact");
        report(&format!(
            "hostile::blocking: --{flag} on a FIFO with no writer refused after {took:?}"
        ));
    }
    // A writer that comes within the bound is read, as a pipe is.
    let fifo = ws.path("notes.md");
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(500));
        std::fs::write(fifo, "from a writer\n").expect("write the FIFO");
    });
    let run = timed(
        &ws,
        &["write", "t.txt", "--from", "notes.md", "--overwrite"],
        "",
    );
    writer.join().unwrap();
    assert_eq!(run.ok()["bytes"], 14, "{}", run.stdout);
    assert_eq!(ws.read("t.txt"), b"from a writer\n");
}

#[test]
fn fifos_and_devices_in_the_tree_are_refused_or_passed_over_at_once() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "needle\n").dir("dev");
    mkfifo(&ws.path("pipe"));
    mkfifo(&ws.path("dev/pipe.txt"));
    let zero = mkzero(&ws.path("dev/zero.txt"));
    if !zero {
        report("hostile::blocking: cannot make a device here (not root); FIFOs only");
    }
    // Edits take the file's lock, which creates `.stitch/locks/`: that is all that may change.
    let files = || {
        let mut all = tree(&ws.root());
        all.retain(|path, _| !path.starts_with(".stitch"));
        all
    };
    let before = files();
    for target in ["pipe", "dev/pipe.txt"]
        .into_iter()
        .chain(zero.then_some("dev/zero.txt"))
    {
        let run = timed(&ws, &["read", target], "");
        assert_eq!(run.refused("NOT_A_FILE")["path"], target, "{}", run.stdout);
        let run = timed(&ws, &["edit", target, "--old", "a", "--new", "b"], "");
        assert_eq!(run.refused("NOT_A_FILE")["path"], target, "{}", run.stdout);
    }
    let run = timed(&ws, &["search", "needle", "--all"], "");
    assert_eq!(
        run.ok()["matches"],
        json!([{"path": "a.txt", "line": 1, "text": "needle"}]),
        "{}",
        run.stdout
    );
    let run = timed(&ws, &["glob", "**/*.txt", "--all"], "");
    run.ok();
    let run = timed(&ws, &["list", "--depth", "3", "--all"], "");
    run.ok();
    assert_eq!(files(), before);
}

#[test]
fn a_fifo_config_or_ledger_does_not_hold_the_call() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "alpha\n").dir(".stitch/sessions");
    mkfifo(&ws.path(".stitch/sessions/s.json"));
    let start = Instant::now();
    let run = timed(&ws, &["--session", "s", "read", "a.txt"], "");
    assert_eq!(
        run.refused("INVALID_CONFIG")["field"],
        ".stitch/sessions/s.json"
    );
    mkfifo(&ws.path(".stitch/config.json"));
    let run = timed(&ws, &["read", "a.txt"], "");
    assert_eq!(
        run.refused("INVALID_CONFIG")["field"],
        ".stitch/config.json"
    );
    assert!(start.elapsed() < PROMPT * 2);
}

/// A workspace whose `src/` holds an ignore file the walker must not read.
fn with_bad_ignore_file(make: impl FnOnce(&TestWorkspace)) -> TestWorkspace {
    let ws = TestWorkspace::new();
    ws.file("top.txt", "needle\n")
        .file("src/a.txt", "needle\n")
        .file("docs/b.txt", "needle\n");
    make(&ws);
    ws
}

#[test]
fn an_ignore_file_that_would_block_or_flood_leaves_its_directory_out() {
    let mut cases: Vec<(&str, TestWorkspace)> = vec![
        (
            "a FIFO",
            with_bad_ignore_file(|ws| mkfifo(&ws.path("src/.gitignore"))),
        ),
        (
            "a link out",
            with_bad_ignore_file(|ws| {
                mkfifo(&ws.outside().join("pipe"));
                ws.symlink("../../outside/pipe", "src/.ignore");
            }),
        ),
        (
            "over 1 MiB",
            with_bad_ignore_file(|ws| {
                ws.file("src/.gitignore", "x\n".repeat(600_000));
            }),
        ),
    ];
    let device = with_bad_ignore_file(|_| {});
    if mkzero(&device.path("src/.gitignore")) {
        cases.push(("a device", device));
    }
    for (what, ws) in &cases {
        let run = timed(ws, &["list", "--depth", "3"], "");
        let data = run.ok();
        assert_eq!(data["skippedIgnoreFiles"], 1, "{what}: {}", run.stdout);
        assert!(!run.stdout.contains("src/a.txt"), "{what}: {}", run.stdout);
        assert!(run.stdout.contains("docs/b.txt"), "{what}: {}", run.stdout);

        let run = timed(ws, &["glob", "**/*.txt"], "");
        assert_eq!(
            run.ok(),
            &json!({"matches": ["docs/b.txt", "top.txt"], "truncated": false, "scannedFiles": 2, "denied": 0, "skippedIgnoreFiles": 1}),
            "{what}: {}",
            run.stdout
        );
        let run = timed(ws, &["search", "needle"], "");
        assert_eq!(run.ok()["skippedIgnoreFiles"], 1, "{what}: {}", run.stdout);
        assert_eq!(run.ok()["matches"].as_array().unwrap().len(), 2, "{what}");
        // Without ignore rules no ignore file is read, and everything is there.
        let run = timed(ws, &["glob", "**/*.txt", "--all"], "");
        assert_eq!(
            run.ok()["matches"],
            json!(["docs/b.txt", "src/a.txt", "top.txt"]),
            "{what}"
        );
    }
}

#[test]
fn a_root_ignore_file_that_would_block_walks_nothing_and_says_so() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "needle\n");
    mkfifo(&ws.path(".gitignore"));
    let run = timed(&ws, &["glob", "*.txt"], "");
    assert_eq!(
        run.ok(),
        &json!({"matches": [], "truncated": false, "scannedFiles": 0, "denied": 0, "skippedIgnoreFiles": 1}),
        "{}",
        run.stdout
    );
    let run = timed(&ws, &["list", "--all"], "");
    assert!(run.stdout.contains("a.txt"), "{}", run.stdout);
}

#[test]
fn a_git_file_pointing_anywhere_is_not_followed() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "needle\n")
        .file(".git", "gitdir: ../outside/gd\n");
    std::fs::create_dir_all(ws.outside().join("gd/info")).unwrap();
    mkfifo(&ws.outside().join("gd/commondir"));
    mkfifo(&ws.outside().join("gd/info/exclude"));
    for call in [&["list"][..], &["glob", "*.txt"], &["search", "needle"]] {
        let run = timed(&ws, call, "");
        assert!(run.stdout.contains("a.txt"), "{}", run.stdout);
    }
}

#[test]
fn old_from_over_max_file_bytes_is_too_large_with_a_hint_for_edits() {
    let ws = TestWorkspace::new();
    ws.file(
        ".stitch/config.json",
        r#"{"limits": {"maxFileBytes": 100}}"#,
    )
    .file("a.txt", "alpha\n")
    .file("old.txt", "x".repeat(500));
    let run = timed(
        &ws,
        &["edit", "a.txt", "--old-from", "old.txt", "--new", "b"],
        "",
    );
    run.refused("TOO_LARGE");
    assert_eq!(
        run.envelope,
        json!({
            "ok": false,
            "error": "TOO_LARGE",
            "details": {
                "message": "--old-from `old.txt` holds more than 100 bytes, the workspace's maxFileBytes",
                "field": "oldText",
                "flag": "--old-from",
                "limit": 100,
            },
            "_hint": "Edit a smaller part of the file at a time: shorten --old and --new.",
        }),
        "{}",
        run.stdout
    );
    assert_eq!(ws.read_string("a.txt"), "alpha\n");
}
