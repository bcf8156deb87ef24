//! A way to kill a change of several files midway, for the tests of its recovery: in a
//! debug build, `STITCH_TEST_KILL_AFTER_PUBLISHING=N` makes the process kill itself
//! (SIGKILL, as a crash would end it) once it has published N files of a change. Release
//! builds have no such code, so no caller can reach it.

/// Called once the `count`th file of a change is published.
#[cfg(debug_assertions)]
pub fn published(count: usize) {
    const ENV: &str = "STITCH_TEST_KILL_AFTER_PUBLISHING";
    if std::env::var(ENV)
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        == Some(count)
    {
        let _ =
            rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::KILL);
    }
}

/// Called once the `count`th file of a change is published: nothing, in a release build.
#[cfg(not(debug_assertions))]
#[inline]
pub fn published(_count: usize) {}
