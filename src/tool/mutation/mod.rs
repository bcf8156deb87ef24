//! The steps every mutation runs, in this order: locate the target and refuse protected
//! or forbidden paths (`target`), take the files' cross-process locks in one order and
//! locate them again under the locks (`target`), check the session's record of them
//! (`session_check`) and the caller's `expectedSha256` ([`stale`]), build the new content
//! (the tool's own work), ask the authorize hook ([`super::approve::authorize`]), stage and
//! sync the new contents, then journal, publish and record (`commit`) — the same last
//! steps for write, edit, delete, move and undo.

pub mod commit;
pub mod session_check;
pub mod target;

use crate::refusal::{key, Code, Refusal};

/// `STALE_VERSION` for a file whose content is not the version the caller saw.
#[cold]
pub fn stale(shown: &str, expected: &str, actual: Option<&str>) -> Refusal {
    let message = match actual {
        Some(_) => format!("`{shown}` has changed: its sha256 is not the expectedSha256"),
        None => format!("`{shown}` does not exist, so it cannot have the expectedSha256"),
    };
    let mut refusal = Refusal::new(Code::StaleVersion, message)
        .with(key::PATH, shown)
        .with("expectedSha256", expected);
    if let Some(actual) = actual {
        refusal = refusal.with("actualSha256", actual);
    }
    refusal
}
