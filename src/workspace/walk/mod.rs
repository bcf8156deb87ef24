//! Walking the workspace with the `ignore` crate (ripgrep's walker).
//!
//! Walks always start at the root, so the root's ignore files apply below it, and prune
//! every directory that is neither on the way to the start nor below it. They never show
//! `.stitch/` and never read ignore files above the root.
//!
//! A walk costs what the tree holds: it goes into each directory (by device and inode)
//! at most once per call, so planted links cannot multiply the paths it visits.
//! * A link to a directory inside the walked subtree (the start and below) is shown as
//!   a `symlink` entry and not followed: that directory is walked under its own path.
//! * A link to a directory outside the subtree but inside the root is followed by the
//!   first link the walk meets; any other link to it is shown as a `symlink`, and any
//!   directory reached again is shown and not entered. [`Workspace::walk`] meets entries
//!   in file-name order, depth first, so the first in that order wins; in
//!   [`Workspace::walk_parallel`] whichever thread gets there first wins.
//! * A link that leaves the root, has an absolute target, dangles or loops is shown as
//!   a `symlink` entry and not followed.
//!
//! A name that is not valid UTF-8 cannot be spelled in a result without being mistaken
//! for another, so it is counted in [`Omitted::non_utf8`] instead (a directory once, and
//! not entered).

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use cap_std::fs::MetadataExt;

use globset::GlobSet;
use ignore::{DirEntry, WalkBuilder, WalkState};

use super::Workspace;

mod confirm;
mod filter;
mod ignore_files;

pub use filter::matches_or_ancestor;
use filter::{keep, lock, Filter};

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
pub struct Listed {
    /// Workspace-relative, through any followed link.
    pub path: String,
    /// The entry itself (`Symlink` for any link).
    pub kind: EntryKind,
    /// What a followed link points to; the entry's own kind otherwise. `None` for a link
    /// that was not followed.
    pub target: Option<EntryKind>,
    /// Size in bytes of a file (or a link to one), when asked for.
    pub bytes: Option<u64>,
    /// The inode the walk saw, to confirm the entry is really there (see
    /// [`Workspace::confirm`]).
    pub ino: Option<u64>,
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
    /// Paths to leave out, with everything below them (the policy's `deny`).
    pub exclude: Option<Arc<GlobSet>>,
}

/// What a walk left out beyond what ignore rules and hidden names hide.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Omitted {
    /// Entries the policy's `deny` (`walk.exclude`) left out.
    pub denied: usize,
    /// Entries whose names are not valid UTF-8 (a directory counts once, and is not
    /// entered).
    pub non_utf8: usize,
    /// Directories not entered because one of their ignore files is a FIFO, a device,
    /// over 1 MiB (`ignore_files::MAX_IGNORE_FILE_BYTES`) or a link that leaves (the root
    /// itself included: then nothing is walked).
    pub ignore_files: usize,
    /// Entries the walker could not read: a directory it may not open, one that
    /// vanished meanwhile, a path the kernel refuses; and, added by the caller, those
    /// that failed the confirmation through the root handle (`Workspace::confirm`).
    pub unreadable: usize,
}

impl Workspace {
    /// Where a walk's paths start. The walker reads directories by path, and the root's
    /// absolute path plus a legal relative one may pass the kernel's `PATH_MAX`: so the
    /// working directory is set to the root handle (`fchdir(2)`, which follows the
    /// directory opened, not a name) and the walk starts at `.`, its paths as long as
    /// the workspace-relative ones. A process serves one root, so every walk sets the
    /// same directory. Where it cannot be set, the canonical root is used.
    fn walk_base(&self) -> std::path::PathBuf {
        match rustix::process::fchdir(&self.dir) {
            Ok(()) => std::path::PathBuf::from("."),
            Err(_) => self.canonical.clone(),
        }
    }
}

fn components(rel: &str) -> Vec<&str> {
    rel.split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect()
}

/// The order in which the walker reads each directory's entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// By file name, on one thread.
    ByName,
    /// As the filesystem gives them, on several threads.
    AsRead,
}

impl Workspace {
    /// The walker and its filter; [`Order::ByName`] has the (sequential) walker read each
    /// directory in file-name order, so which of two links to one directory is followed
    /// does not depend on the filesystem's order.
    fn builder(&self, walk: &Walk, order: Order) -> (WalkBuilder, Arc<Filter>) {
        let start: Vec<String> = components(&walk.start)
            .into_iter()
            .map(str::to_owned)
            .collect();
        let max_depth = walk.depth.map(|d| d + start.len());
        // The root is on the way to every start: a link back to it is not followed.
        let root = self
            .dir
            .dir_metadata()
            .map(|m| (m.dev(), m.ino()))
            .into_iter()
            .collect::<HashSet<_>>();
        let base = self.walk_base();
        let filter = Arc::new(Filter {
            root: base.clone(),
            canonical: self.canonical.clone(),
            start,
            exclude: walk.exclude.clone(),
            unfollowed: Mutex::new(Vec::new()),
            excluded: AtomicUsize::new(0),
            reached: std::sync::atomic::AtomicBool::new(false),
            links: Mutex::new(Vec::new()),
            walked: Mutex::new(root),
            reserved: self.user_dir_ids(),
            max_depth,
            non_utf8: AtomicUsize::new(0),
            reads_ignore_files: !walk.include_ignored,
            unsafe_ignore_files: AtomicUsize::new(0),
            unreadable: AtomicUsize::new(0),
        });
        let mut builder = WalkBuilder::new(&base);
        builder
            .standard_filters(!walk.include_ignored)
            .parents(false)
            .git_global(false)
            // `.git/info/exclude` is found through a `.git` file's `gitdir:` line, which
            // a planted repository points anywhere: see `ignore_files`.
            .git_exclude(false)
            .require_git(false)
            .follow_links(true)
            .max_depth(max_depth);
        if order == Order::ByName {
            builder.sort_by_file_name(std::ffi::OsStr::cmp);
        }
        let shared = Arc::clone(&filter);
        builder.filter_entry(move |entry| keep(entry, &shared));
        (builder, filter)
    }

    /// Visits every entry below `walk.start` on one thread, reading each directory in
    /// file-name order (the order entries reach `visit` is not otherwise defined).
    /// Returns what the walk left out.
    pub fn walk(&self, walk: &Walk, mut visit: impl FnMut(Listed)) -> Omitted {
        if let Some(omitted) = unsafe_root(self, walk) {
            return omitted;
        }
        let (builder, filter) = self.builder(walk, Order::ByName);
        for entry in builder.build() {
            match entry {
                Ok(entry) => {
                    if let Some(e) = entry_of(&entry, &filter, walk.sizes) {
                        visit(e);
                    }
                }
                Err(error) => self
                    .link_entry(&error, &filter)
                    .into_iter()
                    .for_each(&mut visit),
            }
        }
        for e in take(&filter.unfollowed) {
            visit(e);
        }
        if named_but_hidden(walk, &filter) {
            return self.walk(&shown_anyway(walk), visit);
        }
        omitted(&filter)
    }

    /// Visits every entry below `walk.start` on several threads; `visit` returns false
    /// to stop the walk. Returns what the walk left out.
    pub fn walk_parallel(&self, walk: &Walk, visit: &(dyn Fn(Listed) -> bool + Sync)) -> Omitted {
        if let Some(omitted) = unsafe_root(self, walk) {
            return omitted;
        }
        let (builder, filter) = self.builder(walk, Order::AsRead);
        builder.build_parallel().run(|| {
            Box::new(|entry| {
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(error) => {
                        let keep_going = self.link_entry(&error, &filter).is_none_or(visit);
                        return if keep_going {
                            WalkState::Continue
                        } else {
                            WalkState::Quit
                        };
                    }
                };
                let keep_going = entry_of(&entry, &filter, walk.sizes).is_none_or(visit);
                if keep_going {
                    WalkState::Continue
                } else {
                    WalkState::Quit
                }
            })
        });
        for e in take(&filter.unfollowed) {
            visit(e);
        }
        if named_but_hidden(walk, &filter) {
            return self.walk_parallel(&shown_anyway(walk), visit);
        }
        omitted(&filter)
    }

    /// A link the walker could not follow — one that loops back to an ancestor, or a
    /// dangling one — is shown as a link, unless the policy's `exclude` covers it.
    fn link_entry(&self, error: &ignore::Error, filter: &Filter) -> Option<Listed> {
        let mut error = error;
        let mut at = None;
        loop {
            match error {
                ignore::Error::WithPath { path, err } => {
                    at = Some(path.clone());
                    error = err;
                }
                ignore::Error::WithDepth { err, .. }
                | ignore::Error::WithLineNumber { err, .. } => {
                    error = err;
                }
                ignore::Error::Loop { child, .. } => {
                    at = Some(child.clone());
                    break;
                }
                _ => break,
            }
        }
        let Some(at) = at else {
            filter.unreadable.fetch_add(1, Ordering::Relaxed);
            return None;
        };
        let Some(path) = relative(&filter.root, &at) else {
            self.count_non_utf8_link(&at, filter);
            return None;
        };
        let below = components(&path).len() > filter.start.len();
        let excluded = filter
            .exclude
            .as_ref()
            .is_some_and(|set| matches_or_ancestor(set, &path));
        let is_link = self
            .dir
            .symlink_metadata(&path)
            .is_ok_and(|m| m.is_symlink());
        if !is_link {
            // A directory that could not be read, an entry that vanished: counted.
            if below && !excluded {
                filter.unreadable.fetch_add(1, Ordering::Relaxed);
            }
            return None;
        }
        (below && !excluded).then_some(Listed {
            path,
            kind: EntryKind::Symlink,
            target: None,
            bytes: None,
            ino: None,
        })
    }

    /// A link the walker could not follow whose name is not UTF-8 is counted, like any
    /// other such name below the start.
    fn count_non_utf8_link(&self, at: &Path, filter: &Filter) {
        let Ok(rel) = at.strip_prefix(&filter.root) else {
            return;
        };
        let below = rel.components().count() > filter.start.len();
        if below && self.dir.symlink_metadata(rel).is_ok_and(|m| m.is_symlink()) {
            filter.non_utf8.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// The entry the walker met, as a walk shows it; `None` for the start and above.
fn entry_of(entry: &DirEntry, filter: &Filter, sizes: bool) -> Option<Listed> {
    if entry.depth() <= filter.start.len() {
        return None;
    }
    let path = relative(&filter.root, entry.path())?;
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
    Some(Listed {
        path,
        kind,
        target: Some(target),
        bytes,
        ino: entry.ino(),
    })
}

impl Workspace {
    /// Workspace-relative paths of up to `limit` files and directories, as git and
    /// ripgrep would show them, less `exclude`: the pool of near names for `NOT_FOUND`.
    #[must_use]
    pub fn walk_names(&self, limit: usize, exclude: Option<Arc<GlobSet>>) -> Vec<String> {
        let mut names = Vec::new();
        let walk = Walk {
            start: ".".into(),
            depth: Some(12),
            include_ignored: false,
            sizes: false,
            exclude,
        };
        self.walk(&walk, |entry| {
            if names.len() < limit {
                names.push(entry.path);
            }
        });
        names
    }
}

/// Whether the caller named a start directory that ignore rules or a hidden name kept
/// the walk from entering: `list node_modules`, `search x --path .git`.
fn named_but_hidden(walk: &Walk, filter: &Filter) -> bool {
    !walk.include_ignored && !filter.start.is_empty() && !filter.reached.load(Ordering::Relaxed)
}

/// A directory asked for by name is walked as with `includeIgnored`, as ripgrep searches
/// a directory it is given explicitly.
fn shown_anyway(walk: &Walk) -> Walk {
    Walk {
        include_ignored: true,
        ..walk.clone()
    }
}

fn omitted(filter: &Filter) -> Omitted {
    Omitted {
        unreadable: filter.unreadable.load(Ordering::Relaxed),
        denied: filter.excluded.load(Ordering::Relaxed),
        non_utf8: filter.non_utf8.load(Ordering::Relaxed),
        ignore_files: filter.unsafe_ignore_files.load(Ordering::Relaxed),
    }
}

/// The root's own ignore files are read before any entry reaches the filter: when one
/// of them is not safe to read, nothing is walked.
fn unsafe_root(ws: &Workspace, walk: &Walk) -> Option<Omitted> {
    let safe = walk.include_ignored || ignore_files::safe(&ws.walk_base(), &ws.canonical);
    (!safe).then_some(Omitted {
        ignore_files: 1,
        ..Omitted::default()
    })
}

fn take(unfollowed: &Mutex<Vec<Listed>>) -> Vec<Listed> {
    std::mem::take(&mut *lock(unfollowed))
}

fn relative(root: &Path, path: &Path) -> Option<String> {
    path.strip_prefix(root).ok()?.to_str().map(str::to_owned)
}
