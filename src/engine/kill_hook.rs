//! A way to cut a change of several files short midway, for the tests of its recovery:
//! in a debug build, `STITCH_TEST_KILL_AFTER_PUBLISHING=N` makes the process kill itself
//! (SIGKILL, as a crash would end it) once it has published N files of a change, and
//! `STITCH_TEST_FAIL_AFTER_PUBLISHING=N` makes the next step fail there as an I/O error
//! would. `STITCH_TEST_PAUSE=before-publish` (or `after-publish`) makes it say so on
//! stderr (`stitch-test: paused before-publish`) and wait a second there, so that a test
//! can write to a file in that window for certain. `STITCH_TEST_GUARD=PATH` is a guard
//! planted in the one place every mutation's files are checked ([`guarded`]), refusing
//! any change to that real path, so that a test shows a guard added there holds for every
//! tool; `STITCH_TEST_GUARD_COMMIT=PATH` is one planted in the commit's last look before
//! publishing ([`publish_guarded`]), so that a test shows every tool publishes through the
//! one executor. Release builds have no such code, so no caller can reach it.

use crate::refusal::Outcome;

/// Called once the `count`th file of a change is published.
#[cfg(debug_assertions)]
pub fn published(count: usize) -> Outcome<()> {
    let at = |name: &str| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            == Some(count)
    };
    if at("STITCH_TEST_KILL_AFTER_PUBLISHING") {
        let _ =
            rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::KILL);
    }
    if at("STITCH_TEST_FAIL_AFTER_PUBLISHING") {
        return Err(anyhow::anyhow!("a failure planted after {count} files were published").into());
    }
    Ok(())
}

/// Called once the `count`th file of a change is published: nothing, in a release build.
#[cfg(not(debug_assertions))]
#[inline]
#[allow(clippy::unnecessary_wraps)]
pub fn published(_count: usize) -> Outcome<()> {
    Ok(())
}

/// Where a change may be held for a test: just before its first file is published, or
/// just after its last one is.
#[derive(Debug, Clone, Copy)]
pub enum Moment {
    BeforePublish,
    AfterPublish,
}

/// Called at `moment` of every change.
#[cfg(debug_assertions)]
pub fn pause(moment: Moment) {
    let name = match moment {
        Moment::BeforePublish => "before-publish",
        Moment::AfterPublish => "after-publish",
    };
    if std::env::var("STITCH_TEST_PAUSE").is_ok_and(|v| v == name) {
        let line = format!("stitch-test: paused {name}\n");
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
}

/// Called at `moment` of every change: nothing, in a release build.
#[cfg(not(debug_assertions))]
#[inline]
pub fn pause(_moment: Moment) {}

/// Whether the test's planted guard refuses a change to the real path `real`.
#[cfg(debug_assertions)]
#[must_use]
pub fn guarded(real: &str) -> bool {
    std::env::var("STITCH_TEST_GUARD").is_ok_and(|v| v == real)
}

/// Whether the test's planted guard refuses a change: never, in a release build.
#[cfg(not(debug_assertions))]
#[inline]
#[must_use]
pub fn guarded(_real: &str) -> bool {
    false
}

/// Whether the test's guard planted in the commit's last look refuses to publish a change
/// to the real path `real`.
#[cfg(debug_assertions)]
#[must_use]
pub fn publish_guarded(real: &str) -> bool {
    std::env::var("STITCH_TEST_GUARD_COMMIT").is_ok_and(|v| v == real)
}

/// Whether the test's guard of the commit refuses a change: never, in a release build.
#[cfg(not(debug_assertions))]
#[inline]
#[must_use]
pub fn publish_guarded(_real: &str) -> bool {
    false
}
