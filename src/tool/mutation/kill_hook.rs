//! A way to cut a change of several files short midway, for the tests of its recovery:
//! in a debug build, `STITCH_TEST_KILL_AFTER_PUBLISHING=N` makes the process kill itself
//! (SIGKILL, as a crash would end it) once it has published N files of a change, and
//! `STITCH_TEST_FAIL_AFTER_PUBLISHING=N` makes the next step fail there as an I/O error
//! would. Release builds have no such code, so no caller can reach it.

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
