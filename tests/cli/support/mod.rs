//! What every suite shares, and the only place suites share anything: the workspace and
//! its command builder, the run and its assertions (the whole envelope included), an MCP
//! server driven over pipes, directory snapshots, the host programs the tests trust, and
//! the requests the adversarial and fuzz suites make. A suite never imports from another
//! suite.

#![allow(dead_code)]

mod envelope;
mod git;
mod host;
mod lock;
mod mcp;
mod memory;
mod pty;
mod random;
mod requests;
mod run;
mod tree;
mod workspace;

// `openat2(2)` and seccomp(2) are Linux's. Elsewhere there is no `openat2` to refuse:
// every call already takes cap-std's portable walk, so refusing it changes nothing.
#[cfg(target_os = "linux")]
mod seccomp;
#[cfg(not(target_os = "linux"))]
mod seccomp {
    /// Nothing to do: this platform has no `openat2(2)`.
    pub fn refuse_openat2(_cmd: &mut std::process::Command) {}
}

// The placeholders are the helper's vocabulary, exported whether or not a suite uses each.
#[allow(unused_imports)]
pub use envelope::{assert_json, ANY, NUMBER, SHA256, STRING};
pub use git::git;
pub use host::{mount, sha256sum, Mount};
pub use lock::hold_every_lock;
pub use mcp::{envelope_of, McpServer};
pub use memory::{limit_address_space, run_measured};
pub use pty::{
    run_on_one_terminal, run_on_terminal, run_on_terminals, run_with_terminal, OnTerminal,
};
pub use random::XorShift;
pub use requests::{request, HEADER, TOOLS};
pub use run::{exit_status, has_hint, Run};
// Only the Linux-only suites (races, the run without openat2) refuse openat2.
#[cfg_attr(not(target_os = "linux"), allow(unused_imports))]
pub use seccomp::refuse_openat2;
pub use tree::{names_in, tree};
pub use workspace::TestWorkspace;
#[cfg_attr(not(target_os = "linux"), allow(unused_imports))]
pub use workspace::WITHOUT_OPENAT2_ENV;

/// Writes a line of a suite's figures, or of a case it skips and why, straight to
/// stderr: libtest captures `eprintln!` of passing tests, and these must show in every
/// run, `cargo test` without `--nocapture` included.
pub fn report(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}
