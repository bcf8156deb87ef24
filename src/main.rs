//! The `stitch` binary: everything lives in the library; this only hands over the arguments.
//!
//! On Linux with glibc it is glibc's start that calls this file's C `main`, without std's
//! runtime start-up in between: that start-up reads `/proc/self/maps` for a stack guard
//! on every call, which a per-call tool pays for at every start. std's arguments still
//! work (glibc hands them to std's own initialiser), std's exit still flushes stdout, and
//! the two steps of std's start-up that stitch relies on are done by
//! [`stitch::start`]. A stack overflow ends the process by SIGSEGV, without std's message.
#![cfg_attr(all(target_os = "linux", target_env = "gnu"), no_main)]

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(stitch::run(std::env::args_os()))
}

// `no_mangle` names this function `main` for the C start code, which calls it once with
// the process's arguments; it takes them from std instead.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
#[no_mangle]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    stitch::start();
    let status = stitch::run(std::env::args_os());
    // std's exit runs its clean-up (stdout flushed) before the process ends.
    std::process::exit(i32::from(status))
}
