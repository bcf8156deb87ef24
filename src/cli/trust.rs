//! `stitch config trust` and `config untrust`: a person, at a terminal, trusts (or stops
//! trusting) this workspace's `.stitch/config.json`.
//!
//! Trust is asked of a person, never of a program: with no terminal on stdin, `trust`
//! refuses (exit 2), so neither a model nor a script can trust on a person's behalf. It
//! talks in text on stderr (the config, what trusting it enables, the question) and reads
//! one line of answer. The record names `sha256(canonical root, NUL, the config's bytes)`
//! — and `NUL, the program's bytes` when its authorize program lies inside the workspace
//! (`engine::pin`) — so a change of either (a `git pull`, a tool rewriting the program) or
//! of the workspace's place ends it.

use std::io::{BufRead, Read};

use crate::engine::pin::{self, Pin};
use crate::envelope::stderr_line;
use crate::policy;
use crate::tool::Settings;
use crate::workspace::home::Home;
use crate::workspace::Workspace;

/// The bound on the answer read from the terminal.
const MAX_ANSWER: u64 = 256;

/// `stitch config trust`.
#[must_use]
pub fn trust(settings: &Settings) -> u8 {
    if !crate::input::stdin_is_terminal() {
        stderr_line(
            "stitch config trust: stdin is not a terminal. Trusting a workspace's config lets it \
             run commands, so a person must review it and answer at a terminal; a model or a \
             script cannot trust it.",
        );
        return 2;
    }
    let Some((ws, bytes)) = opened(settings) else {
        return 1;
    };
    let config = match policy::parse(&bytes) {
        Ok(config) => config,
        Err(e) => {
            stderr_line(&format!(
                "stitch config trust: {} is malformed ({}); fix it first.",
                policy::CONFIG_PATH,
                quoted(&e.to_string())
            ));
            return 1;
        }
    };
    let base = match crate::tool::user_limits() {
        Ok(base) => base,
        Err(reason) => {
            stderr_line(&format!("stitch config trust: {}", quoted(&reason)));
            return 1;
        }
    };
    // What is shown is what is pinned: the program is read once, here.
    let pin = pin::pin(&ws, pin::program_of(&config));
    let Some(digest) = pin.digest(&ws, &bytes) else {
        if let Pin::Unpinnable { shown, reason } = &pin {
            stderr_line(&format!(
                "stitch config trust: the authorize program `{}` {reason}, so its bytes cannot \
                 be pinned; name a program inside the workspace, or one outside it by its own \
                 path.",
                quoted(shown)
            ));
        }
        return 1;
    };
    show(&ws, &bytes, &policy::needs_trust(&config, &base), &pin);
    eprint_prompt("Trust this config? [y/N] ");
    let mut answer = String::new();
    let read = std::io::stdin()
        .lock()
        .take(MAX_ANSWER)
        .read_line(&mut answer);
    let yes = read.is_ok() && matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes");
    if !yes {
        stderr_line("Not trusted; nothing changed.");
        return 1;
    }
    record(&Home::from_env(), &digest, ws.root_path())
}

/// Shows the person the config, what trusting it enables (`wanted`) and the program it
/// pins, before the question.
fn show(ws: &Workspace, bytes: &[u8], wanted: &[String], pin: &Pin) {
    stderr_line(&format!(
        "{} of the workspace {}:\n",
        policy::CONFIG_PATH,
        quoted(&ws.root_path().to_string_lossy())
    ));
    stderr_line(&quoted(&String::from_utf8_lossy(bytes)));
    if wanted.is_empty() {
        stderr_line(
            "\nNothing in it needs trust: its deny, readOnly and lower limits apply already.",
        );
    } else {
        stderr_line("\nTrusting it enables:");
        for item in wanted {
            stderr_line(&format!("  - {}", quoted(item)));
        }
    }
    match pin {
        Pin::Program {
            shown,
            bytes: Some(program),
        } => stderr_line(&format!(
            "\nIts authorize program `{}` lies inside the workspace (sha256 {}): trusting \
             pins its bytes too, so any change to it ends the trust.",
            quoted(shown),
            crate::digest::sha256_hex(program)
        )),
        Pin::Program { shown, bytes: None } => stderr_line(&format!(
            "\nIts authorize program `{}` would lie inside the workspace and is not there now: \
             if it appears, the trust ends.",
            quoted(shown)
        )),
        Pin::Nothing | Pin::Unpinnable { .. } => {}
    }
    stderr_line(
        "\nThe trust ends when the file's bytes (or its program's) change or the workspace \
         moves; `stitch config untrust` ends it at once.",
    );
}

/// Records the trust named `digest` for the workspace at `root`: the exit status.
fn record(home: &Home, digest: &str, root: &std::path::Path) -> u8 {
    match home.record_trust(digest, root) {
        Ok(()) => {
            stderr_line(&format!(
                "Trusted {} (recorded under {}).",
                policy::CONFIG_PATH,
                home.trust_shown()
            ));
            0
        }
        Err(crate::workspace::Error::NotFound) => {
            stderr_line(
                "stitch config trust: there is no place to record trust: set HOME (or \
                 XDG_DATA_HOME) to a directory.",
            );
            1
        }
        Err(e) => {
            stderr_line(&format!(
                "stitch config trust: the trust could not be recorded under {}: {}",
                home.trust_shown(),
                quoted(&e.to_string())
            ));
            1
        }
    }
}

/// `stitch config untrust`: removes every record of trust in this workspace's config. It
/// only takes away, so it needs no terminal.
#[must_use]
pub fn untrust(settings: &Settings) -> u8 {
    let Ok(ws) = crate::tool::open_root(settings) else {
        stderr_line("stitch config untrust: the workspace root cannot be opened.");
        return 2;
    };
    let home = Home::from_env();
    match home.remove_trust(ws.root_path()) {
        Ok(0) => {
            stderr_line(&format!(
                "{} was not trusted; nothing changed.",
                policy::CONFIG_PATH
            ));
            0
        }
        Ok(_) => {
            stderr_line(&format!("{} is no longer trusted.", policy::CONFIG_PATH));
            0
        }
        Err(e) => {
            stderr_line(&format!(
                "stitch config untrust: the trust records under {} could not be removed: {}",
                home.trust_shown(),
                quoted(&e.to_string())
            ));
            1
        }
    }
}

/// The workspace and its config's bytes, or `None` after saying why there is nothing to
/// trust.
fn opened(settings: &Settings) -> Option<(Workspace, Vec<u8>)> {
    let Ok(ws) = crate::tool::open_root(settings) else {
        stderr_line("stitch config trust: the workspace root cannot be opened.");
        return None;
    };
    match ws.read_config() {
        Ok(Some(bytes)) => Some((ws, bytes)),
        Ok(None) => {
            stderr_line(&format!(
                "stitch config trust: there is no {} to trust.",
                policy::CONFIG_PATH
            ));
            None
        }
        Err(e) => {
            stderr_line(&format!("stitch config trust: {}", quoted(&e.to_string())));
            None
        }
    }
}

/// `text` with every control character but newline and tab, and every mark that reorders
/// or hides text, shown as an escape, so a planted config cannot drive the person's
/// terminal or read as something it is not. Everything `trust` says that came from the
/// workspace (the config, an error quoting it) goes through here, whether or not stderr
/// is a terminal: the person answering is at one.
fn quoted(text: &str) -> String {
    crate::envelope::Quote { terminal: true }
        .text(text)
        .into_owned()
}

/// The question, on stderr without a newline.
fn eprint_prompt(text: &str) {
    use std::io::Write;
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}
