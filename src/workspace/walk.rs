//! Walking the workspace with the `ignore` crate (ripgrep's walker).
//!
//! Walks always start at the root, so the root's ignore files apply below it, and prune
//! every directory that is neither on the way to the start nor below it. They never show
//! `.stitch/`, never read ignore files above the root, and follow a symlink only when
//! it stays inside the root (loops are detected and skipped); a link that leaves is
//! reported as a `symlink` entry and not followed.

use std::path::Path;
use std::sync::{Arc, Mutex};

use ignore::{DirEntry, WalkBuilder, WalkState};

use super::state::STATE_DIR;
use super::Workspace;

/// What a walk shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    File,
    Directory,
    Symlink,
    Other,
}

impl EntryKind {
    /// The kind as the tools spell it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            EntryKind::File => "file",
            EntryKind::Directory => "directory",
            EntryKind::Symlink => "symlink",
            EntryKind::Other => "other",
        }
    }
}

/// One entry below the start of a walk.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Workspace-relative, through any followed link.
    pub path: String,
    /// The entry itself (`Symlink` for any link).
    pub kind: EntryKind,
    /// What a followed link points to; the entry's own kind otherwise. `None` for a link
    /// that was not followed.
    pub target: Option<EntryKind>,
    /// Size in bytes of a file (or a link to one), when asked for.
    pub bytes: Option<u64>,
}

/// Where and how to walk.
#[derive(Debug, Clone)]
pub struct Walk {
    /// The real workspace-relative directory to walk below (`.` for the root).
    pub start: String,
    /// How deep below `start` to go (1 = its entries only); `None` for no bound.
    pub depth: Option<usize>,
    /// Show what ignore rules and hidden names would hide.
    pub include_ignored: bool,
    /// Look up each file's size.
    pub sizes: bool,
}

fn components(rel: &str) -> Vec<&str> {
    rel.split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect()
}

impl Workspace {
    fn builder(&self, walk: &Walk, unfollowed: &Arc<Mutex<Vec<Entry>>>) -> WalkBuilder {
        let start: Vec<String> = components(&walk.start)
            .into_iter()
            .map(str::to_owned)
            .collect();
        let mut builder = WalkBuilder::new(&self.canonical);
        builder
            .standard_filters(!walk.include_ignored)
            .parents(false)
            .git_global(false)
            .require_git(false)
            .follow_links(true)
            .max_depth(walk.depth.map(|d| d + start.len()));
        let root = self.canonical.clone();
        let unfollowed = Arc::clone(unfollowed);
        builder.filter_entry(move |entry| keep(entry, &root, &start, &unfollowed));
        builder
    }

    /// Visits every entry below `walk.start`, in no particular order, on one thread.
    pub fn walk(&self, walk: &Walk, mut visit: impl FnMut(Entry)) {
        let unfollowed = Arc::new(Mutex::new(Vec::new()));
        let start_depth = components(&walk.start).len();
        for entry in self.builder(walk, &unfollowed).build().flatten() {
            if let Some(e) = self.entry(&entry, start_depth, walk.sizes) {
                visit(e);
            }
        }
        for e in take(&unfollowed) {
            visit(e);
        }
    }

    /// Visits every entry below `walk.start` on several threads; `visit` returns false
    /// to stop the walk.
    pub fn walk_parallel(&self, walk: &Walk, visit: &(dyn Fn(Entry) -> bool + Sync)) {
        let unfollowed = Arc::new(Mutex::new(Vec::new()));
        let start_depth = components(&walk.start).len();
        self.builder(walk, &unfollowed).build_parallel().run(|| {
            Box::new(|entry| {
                let Ok(entry) = entry else {
                    return WalkState::Continue;
                };
                let keep_going = self
                    .entry(&entry, start_depth, walk.sizes)
                    .is_none_or(visit);
                if keep_going {
                    WalkState::Continue
                } else {
                    WalkState::Quit
                }
            })
        });
        for e in take(&unfollowed) {
            visit(e);
        }
    }

    fn entry(&self, entry: &DirEntry, start_depth: usize, sizes: bool) -> Option<Entry> {
        if entry.depth() <= start_depth {
            return None;
        }
        let path = relative(&self.canonical, entry.path())?;
        let target = match entry.file_type() {
            Some(t) if t.is_file() => EntryKind::File,
            Some(t) if t.is_dir() => EntryKind::Directory,
            _ => EntryKind::Other,
        };
        let kind = if entry.path_is_symlink() {
            EntryKind::Symlink
        } else {
            target
        };
        let bytes = (sizes && target == EntryKind::File)
            .then(|| entry.metadata().ok().map(|m| m.len()))
            .flatten();
        Some(Entry {
            path,
            kind,
            target: Some(target),
            bytes,
        })
    }

    /// Workspace-relative paths of up to `limit` files and directories, as git and
    /// ripgrep would show them: the pool of near names for `NOT_FOUND`.
    #[must_use]
    pub fn walk_names(&self, limit: usize) -> Vec<String> {
        let mut names = Vec::new();
        let walk = Walk {
            start: ".".into(),
            depth: Some(12),
            include_ignored: false,
            sizes: false,
        };
        self.walk(&walk, |entry| {
            if names.len() < limit {
                names.push(entry.path);
            }
        });
        names
    }
}

fn take(unfollowed: &Mutex<Vec<Entry>>) -> Vec<Entry> {
    std::mem::take(
        &mut *unfollowed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    )
}

fn relative(root: &Path, path: &Path) -> Option<String> {
    path.strip_prefix(root).ok()?.to_str().map(str::to_owned)
}

/// Whether the walk goes into (and shows) `entry`.
fn keep(entry: &DirEntry, root: &Path, start: &[String], unfollowed: &Mutex<Vec<Entry>>) -> bool {
    if entry.depth() == 0 {
        return true;
    }
    let Some(rel) = relative(root, entry.path()) else {
        return false;
    };
    let parts = components(&rel);
    if parts
        .first()
        .is_some_and(|first| first.eq_ignore_ascii_case(STATE_DIR))
    {
        return false;
    }
    let common = parts.iter().zip(start).take_while(|(a, b)| *a == b).count();
    let below_start = common == start.len();
    if !below_start && common < parts.len() {
        // Neither on the way to the start nor below it.
        return false;
    }
    if entry.path_is_symlink() && !stays_inside(entry.path(), root) {
        if below_start && parts.len() > start.len() {
            unfollowed
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(Entry {
                    path: rel,
                    kind: EntryKind::Symlink,
                    target: None,
                    bytes: None,
                });
        }
        return false;
    }
    true
}

/// Whether a link resolves inside the root. A link with an absolute target counts as
/// leaving, as it does for every other tool (`RESOLVE_BENEATH` semantics).
fn stays_inside(link: &Path, root: &Path) -> bool {
    match std::fs::read_link(link) {
        Ok(target) if target.is_absolute() => false,
        Ok(_) => std::fs::canonicalize(link).is_ok_and(|real| real.starts_with(root)),
        Err(_) => false,
    }
}
