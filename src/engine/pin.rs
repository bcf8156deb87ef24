//! What trust pins: the workspace config's bytes and, when its `authorize` runs a program
//! inside the workspace, that program's bytes too — so that rewriting `./scripts/approve`
//! with a tool, or a `git pull` that changes it, ends the trust instead of running new
//! code under it. A program outside the workspace is the person's own and is not pinned;
//! one inside that cannot be pinned (it leads out through a link, it is too large to
//! read) means no trust can be had.

use crate::policy::{self, Config, Runs};
use crate::workspace::{Program, Workspace};

/// The most bytes of a program trust reads and pins: a planted config cannot make every
/// call read a huge file.
pub const MAX_PROGRAM_BYTES: u64 = 64 << 20;

/// The program a workspace config's `authorize` runs, as trust sees it.
#[derive(Debug)]
pub enum Pin {
    /// Nothing to pin beside the config: it names no authorize command, or its program
    /// lies outside the workspace.
    Nothing,
    /// The program inside the workspace, at `shown`, with its bytes; `None` where nothing
    /// runnable is there now (its appearing ends the trust).
    Program {
        shown: String,
        bytes: Option<Vec<u8>>,
    },
    /// A program inside the workspace that cannot be pinned, so the config cannot be
    /// trusted.
    Unpinnable { shown: String, reason: String },
}

/// The program of `config`'s authorize command, if it names one.
#[must_use]
pub fn program_of(config: &Config) -> Option<&str> {
    config
        .authorize
        .as_ref()
        .and_then(|argv| argv.first())
        .map(String::as_str)
}

/// What an authorize command whose program is `program` runs in `ws`, read as trust
/// pins it.
#[must_use]
pub fn pin(ws: &Workspace, program: Option<&str>) -> Pin {
    let Some(program) = program else {
        return Pin::Nothing;
    };
    let found = match policy::runs(program) {
        Runs::Path(path) => ws.program_at(path),
        Runs::Search(name) => ws.program_on_path(name, &policy::hook_path()),
    };
    match found {
        Program::Outside => Pin::Nothing,
        Program::Unpinnable { shown, reason } => Pin::Unpinnable {
            shown,
            reason: reason.to_owned(),
        },
        Program::Inside { shown, file: None } => Pin::Program { shown, bytes: None },
        Program::Inside {
            shown,
            file: Some(mut file),
        } => {
            let too_large = || Pin::Unpinnable {
                shown: shown.clone(),
                reason: format!("is over {MAX_PROGRAM_BYTES} bytes, more than trust reads"),
            };
            if file.size > MAX_PROGRAM_BYTES {
                return too_large();
            }
            match file.read_all() {
                Ok(bytes) if bytes.len() as u64 <= MAX_PROGRAM_BYTES => Pin::Program {
                    shown,
                    bytes: Some(bytes),
                },
                Ok(_) => too_large(),
                Err(_) => Pin::Unpinnable {
                    shown: shown.clone(),
                    reason: "cannot be read".to_owned(),
                },
            }
        }
    }
}

impl Pin {
    /// The digest a trust record for `config_bytes` in `ws` is named by, with this pin;
    /// `None` when it cannot be pinned (no record can match).
    #[must_use]
    pub fn digest(&self, ws: &Workspace, config_bytes: &[u8]) -> Option<String> {
        let program = match self {
            Pin::Nothing | Pin::Program { bytes: None, .. } => None,
            Pin::Program {
                bytes: Some(bytes), ..
            } => Some(bytes.as_slice()),
            Pin::Unpinnable { .. } => return None,
        };
        Some(policy::trust_digest(ws.root_path(), config_bytes, program))
    }
}
