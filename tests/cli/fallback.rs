//! Containment without `openat2(2)`: the containment, adversarial, race and
//! planted-workspace suites run again in a child test process whose `stitch` calls all
//! have `openat2` refused with `ENOSYS` by a seccomp filter, so that cap-std's own
//! `O_NOFOLLOW` component walk is what keeps every path beneath the root.

use std::process::Command;

use crate::support::{refuse_openat2, report, TestWorkspace, WITHOUT_OPENAT2_ENV};

/// The suites that run a second time, as test-name filters.
const SUITES: [&str; 4] = ["containment::", "adversarial::", "race::", "hostile::"];

#[test]
fn containment_adversarial_race_and_hostile_suites_pass_without_openat2() {
    if std::env::var_os(WITHOUT_OPENAT2_ENV).is_some() {
        return; // already the child run
    }
    let output = Command::new(std::env::current_exe().unwrap())
        .args(SUITES)
        .args(["--skip", "fallback::", "--nocapture"])
        .env(WITHOUT_OPENAT2_ENV, "1")
        .output()
        .expect("run the test binary again");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // The suites' own figures, then the verdict.
    for line in stderr.lines().chain(stdout.lines()) {
        if line.starts_with("race ")
            || line.starts_with("  ")
            || line.starts_with("adversarial:")
            || line.starts_with("hostile::")
            || line.starts_with("test result")
        {
            report(&format!("without openat2: {line}"));
        }
    }
    assert!(
        output.status.success(),
        "the suites failed without openat2:\n{stdout}\n{stderr}"
    );
    let passed: usize = stdout
        .lines()
        .find_map(|l| l.strip_prefix("test result: ok. "))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(passed >= 20, "too few tests ran without openat2: {stdout}");
}

/// The filter really does refuse `openat2`, and stitch still works: traced with
/// strace(1), every `openat2` of a call fails with `ENOSYS`; without the filter the same
/// call's `openat2`s succeed.
#[test]
fn the_filter_refuses_openat2_and_stitch_falls_back() {
    let ws = TestWorkspace::new();
    ws.file("sub/a.txt", "hello\n");
    let trace = |filtered: bool| -> Option<(String, String)> {
        let log = ws.base().join(if filtered { "filtered" } else { "plain" });
        let stitch = ws.std_cmd();
        let mut cmd = Command::new("strace");
        cmd.args(["-f", "-qq", "-e", "trace=openat2", "-o"])
            .arg(&log)
            .arg(stitch.get_program())
            .args(stitch.get_args())
            .args(["read", "sub/a.txt"])
            .env_clear()
            .current_dir(ws.root());
        if filtered {
            refuse_openat2(&mut cmd);
        }
        let output = cmd.output().ok()?;
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        Some((stdout, std::fs::read_to_string(&log).ok()?))
    };
    let Some((plain_out, plain)) = trace(false) else {
        report("fallback: SKIPPED the strace check: strace(1) is not installed");
        return;
    };
    let (filtered_out, filtered) = trace(true).expect("strace ran once");
    let calls = |log: &str| -> Vec<String> {
        log.lines()
            .filter(|l| l.contains("openat2("))
            .map(str::to_owned)
            .collect()
    };
    let (plain, filtered) = (calls(&plain), calls(&filtered));
    if plain.iter().any(|l| l.contains("ENOSYS")) {
        report("fallback: SKIPPED the strace check: this kernel has no openat2 at all");
        return;
    }
    assert!(plain_out.contains(r#""content":"hello\n""#), "{plain_out}");
    assert!(
        filtered_out.contains(r#""content":"hello\n""#),
        "{filtered_out}"
    );
    assert!(
        !plain.is_empty() && plain.iter().all(|l| !l.contains("ENOSYS")),
        "without the filter openat2 works: {plain:?}"
    );
    assert!(
        !filtered.is_empty() && filtered.iter().all(|l| l.contains("= -1 ENOSYS")),
        "with the filter every openat2 fails with ENOSYS: {filtered:?}"
    );
    report(&format!(
        "fallback: strace saw {} openat2 calls succeed without the filter, {} refused (ENOSYS) with it",
        plain.len(),
        filtered.len()
    ));
}
