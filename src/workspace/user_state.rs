//! stitch's user-level state found inside the root: the user's config directory
//! (`$XDG_CONFIG_HOME/stitch`) and the data directory that holds the journal's key and
//! the trust records (`$XDG_DATA_HOME/stitch`). With the root at `$HOME` they lie inside
//! the workspace, where a tool could rewrite the config whose `authorize` runs on the next
//! mutation, overwrite the key or plant a trust record. So they are reserved as `.stitch/`
//! is, wherever they lie, and told apart by identity — the (device, inode) of the
//! directory, as the path's own lookups saw it — not by spelling: a symlink, a second
//! spelling of the root or a bind mount leads to the same directory.
//!
//! A directory that does not exist yet is reserved by where it would be made: the
//! deepest existing directory on its path (by identity) and the names below it, so that
//! creating `.config/stitch/config.json` in a home without `.config` is refused too.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use cap_std::fs::MetadataExt;

use super::home::Home;
use super::{Location, Workspace};

/// One of stitch's user-level directories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserDir {
    /// The user's own config directory, `$XDG_CONFIG_HOME/stitch`.
    Config,
    /// The journal's key and the trust records, `$XDG_DATA_HOME/stitch`.
    Data,
}

/// Where one user-level directory is, by identity: the deepest directory on its path
/// that exists, and the names below that one that do not exist yet (none when the
/// directory itself exists).
#[derive(Debug, Clone)]
struct Anchor {
    dir: UserDir,
    /// How the directory is named to people (`~/.config/stitch`).
    shown: String,
    /// Its path, as the environment names it.
    path: PathBuf,
    id: (u64, u64),
    missing: Vec<String>,
}

/// The user-level directories of this process's environment, looked up once per call.
#[derive(Debug, Default)]
pub(super) struct UserState {
    anchors: Vec<Anchor>,
    /// The root's own identity: a directory may be made right below it.
    root: Option<(u64, u64)>,
}

impl UserState {
    fn of(home: &Home, root: Option<(u64, u64)>) -> UserState {
        let anchors = home
            .stitch_dirs()
            .into_iter()
            .filter_map(|(dir, path, shown)| {
                let path = path?;
                let (id, missing) = anchor(&path)?;
                Some(Anchor {
                    dir,
                    shown,
                    path,
                    id,
                    missing,
                })
            })
            .collect();
        UserState { anchors, root }
    }

    /// The directory `location` lies in (or is), if it is one of these.
    fn holding(&self, location: &Location) -> Option<&Anchor> {
        let names = &location.components;
        let prefixes = std::iter::once(self.root).chain(location.ids.iter().copied().map(Some));
        for (depth, id) in prefixes.enumerate() {
            let Some(id) = id else { continue };
            for anchor in &self.anchors {
                let below = names.get(depth..depth + anchor.missing.len());
                let same_names = below.is_some_and(|below| {
                    below
                        .iter()
                        .zip(&anchor.missing)
                        .all(|(a, b)| a.eq_ignore_ascii_case(b))
                });
                if anchor.id == id && same_names {
                    return Some(anchor);
                }
            }
        }
        None
    }
}

/// The identity of the deepest existing directory on `path` (links followed, as the
/// user's own path may hold them), and the names below it that do not exist; `None` when
/// something other than a directory stands on the way, where nothing can be made.
fn anchor(path: &Path) -> Option<((u64, u64), Vec<String>)> {
    let mut missing = Vec::new();
    let mut at = path;
    loop {
        match dir_id_unchecked(at) {
            Ok(Some(id)) => {
                missing.reverse();
                return Some((id, missing));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                missing.push(at.file_name()?.to_str()?.to_owned());
                at = at.parent()?;
            }
            _ => return None,
        }
    }
}

/// Whether the directory `root` is `path` or one of its ancestors, by identity.
fn lies_below(path: &Path, root: (u64, u64)) -> bool {
    path.ancestors()
        .any(|at| dir_id_unchecked(at).is_ok_and(|id| id == Some(root)))
}

/// The (device, inode) of the directory at the absolute `path`, links followed; `None`
/// for something else. Path-based, so only for the user's own directories, which are not
/// workspace paths.
#[allow(clippy::disallowed_methods)]
fn dir_id_unchecked(path: &Path) -> std::io::Result<Option<(u64, u64)>> {
    use std::os::unix::fs::MetadataExt as _;
    let meta = std::fs::metadata(path)?;
    Ok(meta.is_dir().then(|| (meta.dev(), meta.ino())))
}

impl Workspace {
    fn user_state(&self) -> &UserState {
        self.user_state.get_or_init(|| {
            let root = self.dir.dir_metadata().ok().map(|m| (m.dev(), m.ino()));
            UserState::of(&Home::from_env(), root)
        })
    }

    /// Which of stitch's user-level directories `location` lies in (or is), when one
    /// lies inside the root, and how that directory is named to people.
    #[must_use]
    pub fn user_dir_of(&self, location: &Location) -> Option<(UserDir, &str)> {
        self.user_state()
            .holding(location)
            .map(|anchor| (anchor.dir, anchor.shown.as_str()))
    }

    /// The identities of the user-level directories that exist: a walk shows nothing in
    /// them, nor a link that leads to one.
    pub(super) fn user_dir_ids(&self) -> HashSet<(u64, u64)> {
        self.user_state()
            .anchors
            .iter()
            .filter(|anchor| anchor.missing.is_empty())
            .map(|anchor| anchor.id)
            .collect()
    }

    /// Which of stitch's user-level directories lie inside the root, or would when made
    /// (the root is on their path), for `config check`'s warning.
    #[must_use]
    pub fn user_dirs_inside(&self) -> Vec<(UserDir, &str)> {
        let state = self.user_state();
        let Some(root) = state.root else {
            return Vec::new();
        };
        state
            .anchors
            .iter()
            .filter(|anchor| lies_below(&anchor.path, root))
            .map(|anchor| (anchor.dir, anchor.shown.as_str()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{Anchor, UserDir, UserState};
    use crate::workspace::Location;

    fn at(components: &[&str], ids: &[(u64, u64)]) -> Location {
        let components: Vec<String> = components.iter().map(|&c| c.to_owned()).collect();
        Location {
            shown: components.join("/"),
            real: components.join("/"),
            trailing_slash: false,
            kind: None,
            missing_dirs: Vec::new(),
            components: components.clone(),
            shown_components: components,
            ids: ids.to_vec(),
        }
    }

    fn anchor(dir: UserDir, id: (u64, u64), missing: &[&str]) -> Anchor {
        Anchor {
            dir,
            shown: String::new(),
            path: std::path::PathBuf::new(),
            id,
            missing: missing.iter().map(|&m| m.to_owned()).collect(),
        }
    }

    #[test]
    fn a_directory_is_found_by_identity_and_one_not_made_yet_by_where_it_would_be() {
        const ROOT: (u64, u64) = (1, 1);
        const DATA: (u64, u64) = (1, 7);
        let state = UserState {
            root: Some(ROOT),
            anchors: vec![
                anchor(UserDir::Config, ROOT, &[".config", "stitch"]),
                anchor(UserDir::Data, DATA, &[]),
            ],
        };
        let holding = |components: &[&str], ids: &[(u64, u64)]| {
            state.holding(&at(components, ids)).map(|a| a.dir)
        };
        assert_eq!(
            holding(&[".config", "stitch", "config.json"], &[]),
            Some(UserDir::Config)
        );
        assert_eq!(
            holding(&[".Config", "STITCH", "x"], &[(1, 2)]),
            Some(UserDir::Config)
        );
        assert_eq!(holding(&[".config"], &[(1, 2)]), None);
        assert_eq!(holding(&[".config", "stitcher"], &[(1, 2)]), None);
        // The data directory by identity, under any name it is reached by.
        assert_eq!(
            holding(&["link", "key"], &[DATA, (1, 8)]),
            Some(UserDir::Data)
        );
        assert_eq!(
            holding(&["a", "b", "trusted"], &[(1, 3), DATA]),
            Some(UserDir::Data)
        );
        assert_eq!(holding(&["other", "key"], &[(1, 9), (1, 8)]), None);
    }
}
