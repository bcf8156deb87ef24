//! A bound on a child's address space, so that a test can show that a call stays within
//! it — and that a call asked for more than it can have refuses with an envelope rather
//! than letting the allocator abort the process.

use std::os::unix::process::CommandExt;
use std::process::Command;

use rustix::process::{setrlimit, Resource, Rlimit};

/// Limits `cmd`'s child to `bytes` of address space (`RLIMIT_AS`), set between fork and
/// exec and inherited across exec.
// `pre_exec` is unsafe because the closure runs in the forked child: it may only make
// async-signal-safe calls. It makes one setrlimit(2) call and allocates nothing.
#[allow(unsafe_code)]
pub fn limit_address_space(cmd: &mut Command, bytes: u64) {
    let limit = Rlimit {
        current: Some(bytes),
        maximum: Some(bytes),
    };
    unsafe {
        cmd.pre_exec(move || setrlimit(Resource::As, limit).map_err(std::io::Error::from));
    }
}
