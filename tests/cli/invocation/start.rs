//! What the process is given before a call runs, whichever start-up the binary has (on
//! Linux with glibc its own C `main`): a closed standard descriptor is never taken by a
//! file stitch opens, and a reader that is gone is a broken pipe, not the end of stitch.

use std::os::unix::process::ExitStatusExt;
use std::process::Stdio;

use crate::support::TestWorkspace;

/// A write with stdin, stdout and stderr all closed writes exactly the content asked
/// for, and while it runs its descriptors 0, 1 and 2 are `/dev/null`, as std's start-up
/// leaves them, never a file stitch opened (where a notice or the envelope would land):
/// its authorize hook reads them off `/proc` as the call runs.
#[test]
#[cfg(target_os = "linux")]
fn closed_standard_descriptors_are_given_dev_null() {
    let ws = TestWorkspace::new();
    ws.file("a.txt", "old\n");
    let seen = ws.outside().join("descriptors");
    ws.file(
        "hooks/approve",
        format!(
            "#!/bin/sh\nfor fd in 0 1 2; do readlink /proc/$PPID/fd/$fd; done > '{}'\nexit 0\n",
            seen.display()
        ),
    );
    std::fs::set_permissions(
        ws.path("hooks/approve"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    ws.file(
        ".stitch/config.json",
        r#"{"authorize": ["./hooks/approve"]}"#,
    );
    ws.trust();
    let mut shell = std::process::Command::new("sh");
    // `exec` hands the shell's closed descriptors to stitch itself.
    shell
        .arg("-c")
        .arg(r#"exec "$@" <&- >&- 2>&-"#)
        .arg("sh")
        .arg(std::env::var_os("CARGO_BIN_EXE_stitch").expect("the binary under test"))
        .args(["--root", ws.root().to_str().unwrap()])
        .args(["write", "a.txt", "--content", "new\n", "--overwrite"])
        .current_dir(ws.root())
        .env_clear()
        .env("HOME", ws.home())
        .env("XDG_CONFIG_HOME", ws.home().join("config"))
        .env("XDG_DATA_HOME", ws.home().join("data"));
    let status = shell.status().expect("run sh");
    assert_eq!(status.code(), Some(0), "{status:?}");
    assert_eq!(ws.read_string("a.txt"), "new\n");
    assert_eq!(
        std::fs::read_to_string(&seen).expect("the hook ran"),
        "/dev/null\n/dev/null\n/dev/null\n"
    );
}

/// A read whose reader has gone is ended by the broken pipe as an error stitch handles:
/// the process exits with a status, never by SIGPIPE, because SIGPIPE is ignored.
#[test]
fn a_reader_that_is_gone_is_a_broken_pipe_not_a_signal() {
    let ws = TestWorkspace::new();
    // Far more than a pipe holds, so that the write meets the closed end.
    ws.file("big.txt", "line of text\n".repeat(100_000));
    let mut child = ws
        .std_cmd()
        .args(["read", "big.txt", "--limit", "100000"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run stitch");
    // The read end is closed before stitch has written more than the pipe holds, so its
    // write meets the closed end whenever it comes.
    drop(child.stdout.take());
    let status = child.wait().expect("wait for stitch");
    assert_eq!(status.signal(), None, "ended by a signal: {status:?}");
    assert!(status.code().is_some(), "{status:?}");
}
