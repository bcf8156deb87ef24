//! Lexing of caller-written paths: validation and lexical normalisation, no I/O.
//!
//! A caller's path becomes a list of normal components relative to the root, or a
//! reason it cannot be one. `..` is resolved lexically here; a path that climbs above
//! the root is outside it whatever the filesystem holds. Symlinks are the resolver's
//! business (`super::resolve`).

use std::path::Path;

/// The longest path a caller may write, in bytes: the platform's `PATH_MAX` (4096 on
/// Linux, 1024 on macOS and FreeBSD) counts the terminating NUL, so one byte less.
pub const MAX_PATH_BYTES: usize = crate::platform::LIMITS.path_max - 1;
/// The longest single name, in bytes (Linux's `NAME_MAX`).
pub const MAX_NAME_BYTES: usize = crate::platform::LIMITS.name_max;

/// Why a caller's path is not a usable path at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invalid {
    Empty,
    Nul,
    Backslash {
        suggestion: String,
    },
    TooLong {
        bytes: usize,
    },
    NameTooLong {
        bytes: usize,
    },
    /// The path goes through the symlink `link`, whose target is not valid UTF-8 and so
    /// cannot be resolved without mistaking it for another name.
    NonUtf8Link {
        link: String,
    },
}

impl Invalid {
    /// A short phrase for the refusal's sentence.
    #[must_use]
    pub fn reason(&self) -> String {
        match self {
            Invalid::Empty => "is empty".into(),
            Invalid::Nul => "contains a NUL byte".into(),
            Invalid::Backslash { .. } => "uses `\\` as a separator".into(),
            Invalid::TooLong { .. } => format!("is {} bytes or longer", MAX_PATH_BYTES + 1),
            Invalid::NameTooLong { .. } => {
                format!("has a name longer than {MAX_NAME_BYTES} bytes")
            }
            Invalid::NonUtf8Link { .. } => {
                "goes through a symlink whose target is not valid UTF-8".into()
            }
        }
    }
}

/// What lexing found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lexed {
    /// Normal components below the root (empty for the root itself), and whether the
    /// caller wrote a trailing `/`.
    Inside {
        components: Vec<String>,
        trailing_slash: bool,
    },
    Invalid(Invalid),
    /// Lexically outside the root: an absolute path elsewhere, or `..` above the root.
    Outside,
}

/// Lexes `raw` against the root, given as the absolute spellings callers may use for it
/// (as passed, and canonical).
#[must_use]
pub fn lex(raw: &str, roots: &[&Path]) -> Lexed {
    if raw.is_empty() {
        return Lexed::Invalid(Invalid::Empty);
    }
    if raw.contains('\0') {
        return Lexed::Invalid(Invalid::Nul);
    }
    if raw.len() > MAX_PATH_BYTES {
        return Lexed::Invalid(Invalid::TooLong { bytes: raw.len() });
    }
    if raw.contains('\\') {
        return Lexed::Invalid(Invalid::Backslash {
            suggestion: raw.replace('\\', "/"),
        });
    }
    let relative = if raw.starts_with('/') {
        match roots.iter().find_map(|root| strip_root(raw, root)) {
            Some(rest) => rest,
            None => return Lexed::Outside,
        }
    } else {
        raw
    };
    let mut components: Vec<String> = Vec::new();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if components.pop().is_none() {
                    return Lexed::Outside;
                }
            }
            name => {
                if name.len() > MAX_NAME_BYTES {
                    return Lexed::Invalid(Invalid::NameTooLong { bytes: name.len() });
                }
                components.push(name.to_owned());
            }
        }
    }
    Lexed::Inside {
        components,
        trailing_slash: raw.len() > 1 && raw.ends_with('/'),
    }
}

/// The rest of `raw` when it lies at or below `root`, compared component-wise so that
/// `/ws-evil` is not inside `/ws`.
fn strip_root<'a>(raw: &'a str, root: &Path) -> Option<&'a str> {
    let root = root.to_str()?.trim_end_matches('/');
    let rest = raw.strip_prefix(root)?;
    if rest.is_empty() || rest.starts_with('/') {
        Some(rest)
    } else {
        None
    }
}

/// Joins components into the workspace-relative spelling used in output (`.` for the
/// root).
#[must_use]
pub fn join(components: &[String]) -> String {
    if components.is_empty() {
        ".".to_owned()
    } else {
        components.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inside(raw: &str) -> Vec<String> {
        match lex(raw, &[Path::new("/ws")]) {
            Lexed::Inside { components, .. } => components,
            other => panic!("{raw}: {other:?}"),
        }
    }

    #[test]
    fn normalises_dots_and_slashes() {
        assert_eq!(inside("./src//a.rs"), ["src", "a.rs"]);
        assert_eq!(inside("src/x/../a.rs"), ["src", "a.rs"]);
        assert!(inside(".").is_empty());
        assert_eq!(inside("/ws/src/a.rs"), ["src", "a.rs"]);
        assert!(inside("/ws").is_empty());
    }

    #[test]
    fn refuses_escapes_lexically() {
        let roots = [Path::new("/ws")];
        assert_eq!(lex("..", &roots), Lexed::Outside);
        assert_eq!(lex("a/../../b", &roots), Lexed::Outside);
        assert_eq!(lex("/ws-evil/x", &roots), Lexed::Outside);
        assert_eq!(lex("/etc/passwd", &roots), Lexed::Outside);
        assert_eq!(lex("../ws-evil", &roots), Lexed::Outside);
    }

    #[test]
    fn refuses_malformed_paths() {
        let roots = [Path::new("/ws")];
        assert_eq!(lex("", &roots), Lexed::Invalid(Invalid::Empty));
        assert_eq!(lex("a\0b", &roots), Lexed::Invalid(Invalid::Nul));
        assert_eq!(
            lex("src\\a.rs", &roots),
            Lexed::Invalid(Invalid::Backslash {
                suggestion: "src/a.rs".into()
            })
        );
        let long = "a/".repeat(2049);
        assert_eq!(
            lex(&long, &roots),
            Lexed::Invalid(Invalid::TooLong { bytes: 4098 })
        );
        let name = "n".repeat(256);
        assert_eq!(
            lex(&name, &roots),
            Lexed::Invalid(Invalid::NameTooLong { bytes: 256 })
        );
    }

    #[test]
    fn notes_trailing_slash() {
        let roots = [Path::new("/ws")];
        assert!(matches!(
            lex("src/", &roots),
            Lexed::Inside {
                trailing_slash: true,
                ..
            }
        ));
        assert!(matches!(
            lex("src", &roots),
            Lexed::Inside {
                trailing_slash: false,
                ..
            }
        ));
    }
}
