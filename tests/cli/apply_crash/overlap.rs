//! Two applies over overlapping files from two processes at once: both land (in either
//! order) or one is cleanly refused; neither deadlocks, loses a change or tears one.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::support::{report, Run, TestWorkspace};

use super::pending;

#[test]
fn two_overlapping_applies_at_once_both_land_or_one_is_cleanly_refused() {
    const ROUNDS: usize = 60;
    let ws = TestWorkspace::new();
    // The first changes a and b, the second b and c: b takes both, in either order.
    let file = |name: &str, alpha: u8, beta: u8| {
        format!("{name}\nalpha: {alpha}\nmiddle\nmiddle\nmiddle\nbeta: {beta}\nend\n")
    };
    let first = ws.outside_file(
        "first.patch",
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-alpha: 0\n+alpha: 1\n\
         *** Update File: b.txt\n@@\n-alpha: 0\n+alpha: 1\n*** End Patch\n",
    );
    let second = ws.outside_file(
        "second.patch",
        "*** Begin Patch\n*** Update File: b.txt\n@@\n-beta: 0\n+beta: 1\n\
         *** Update File: c.txt\n@@\n-beta: 0\n+beta: 1\n*** End Patch\n",
    );
    let (mut both, mut one) = (0usize, 0usize);
    let started = Instant::now();
    for round in 0..ROUNDS {
        for name in ["a.txt", "b.txt", "c.txt"] {
            ws.file(name, file(name, 0, 0));
        }
        let spawn = |patch: &PathBuf| {
            ws.spawnable()
                .args(["--lock-timeout", "20", "apply", "--from"])
                .arg(patch)
                .spawn()
                .unwrap()
        };
        let children = [spawn(&first), spawn(&second)];
        let deadline = Instant::now() + Duration::from_secs(60);
        let runs: Vec<Run> = children
            .into_iter()
            .map(|mut child| {
                while child.try_wait().unwrap().is_none() {
                    assert!(Instant::now() < deadline, "round {round}: a deadlock");
                    std::thread::sleep(Duration::from_millis(2));
                }
                Run::from_output(child.wait_with_output().unwrap())
            })
            .collect();
        let landed: Vec<bool> = runs
            .iter()
            .map(|run| {
                if run.envelope["ok"] == true {
                    assert_eq!(run.ok()["applied"], true);
                    true
                } else {
                    let code = run.envelope["error"].as_str().unwrap_or_default();
                    assert!(
                        ["BUSY", "STALE_VERSION", "NO_MATCH"].contains(&code),
                        "round {round}: {}",
                        run.stdout
                    );
                    run.refused(code);
                    false
                }
            })
            .collect();
        let (alpha, beta) = (u8::from(landed[0]), u8::from(landed[1]));
        assert_eq!(
            ws.read_string("a.txt"),
            file("a.txt", alpha, 0),
            "round {round}"
        );
        assert_eq!(
            ws.read_string("b.txt"),
            file("b.txt", alpha, beta),
            "round {round}"
        );
        assert_eq!(
            ws.read_string("c.txt"),
            file("c.txt", 0, beta),
            "round {round}"
        );
        match landed.iter().filter(|l| **l).count() {
            2 => both += 1,
            1 => one += 1,
            _ => panic!("round {round}: neither apply landed"),
        }
        assert_eq!(pending(&ws), Vec::<String>::new(), "round {round}");
    }
    report(&format!(
        "apply concurrency: {ROUNDS} rounds of two overlapping 2-file applies at once: {both} \
         with both landed, {one} with one cleanly refused, none lost or torn, {:.1} s",
        started.elapsed().as_secs_f64()
    ));
}
