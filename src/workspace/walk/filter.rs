//! The walk's filter: what a walk goes into and shows — never `.stitch/`, nor stitch's
//! user-level directories where they lie inside the root (by identity), only the start's
//! branch, each directory (by device and inode) at most once, links followed
//! only when they stay inside the root and lead out of the walked subtree, names that
//! are not UTF-8 counted rather than shown, and the policy's `deny` judged on the path
//! as walked and as resolved.

use std::collections::HashSet;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use globset::GlobSet;
use ignore::DirEntry;

use super::super::state::STATE_DIR;
use super::{components, relative, EntryKind, Listed};

/// What a walk's filter shares across threads.
pub(super) struct Filter {
    /// Where the walker's paths start: `.` (the root as the working directory), or the
    /// canonical root where the working directory could not be set.
    pub(super) root: std::path::PathBuf,
    /// The canonical root, for what `canonicalize` says of links.
    pub(super) canonical: std::path::PathBuf,
    pub(super) start: Vec<String>,
    pub(super) exclude: Option<Arc<GlobSet>>,
    pub(super) unfollowed: Mutex<Vec<Listed>>,
    pub(super) excluded: AtomicUsize,
    /// The walk got to its start directory (ignore rules did not hide it).
    pub(super) reached: std::sync::atomic::AtomicBool,
    /// Links followed so far: (path through the link, real path).
    pub(super) links: Mutex<Vec<(String, String)>>,
    /// The (device, inode) of every directory the walk has gone into: a directory
    /// reached again, through another link or a bind mount, is not walked again.
    pub(super) walked: Mutex<HashSet<(u64, u64)>>,
    /// The (device, inode) of stitch's user-level directories (the user's config, the
    /// key and trust records): never shown, never entered, nor a link into them.
    pub(super) reserved: HashSet<(u64, u64)>,
    /// The walk's depth bound from the root (as the walker counts), when it has one.
    pub(super) max_depth: Option<usize>,
    /// Names below the start that are not valid UTF-8: neither shown nor entered.
    pub(super) non_utf8: AtomicUsize,
    /// The walker reads `.gitignore` and `.ignore` files (ignore rules are on).
    pub(super) reads_ignore_files: bool,
    /// Directories not entered because an ignore file in them could block or flood the
    /// walker (see [`super::ignore_files`]).
    pub(super) unsafe_ignore_files: AtomicUsize,
    /// Entries the walker met an error on (not a link it could not follow).
    pub(super) unreadable: AtomicUsize,
}

pub(super) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Whether the walk goes into (and shows) `entry`.
pub(super) fn keep(entry: &DirEntry, filter: &Filter) -> bool {
    if entry.depth() == 0 {
        return true;
    }
    let Some((rel, shown)) = placed(entry, filter) else {
        return false;
    };
    let is_link = entry.path_is_symlink();
    let target = if is_link {
        link_target(entry.path(), &filter.canonical)
    } else {
        None
    };
    // A link into `.stitch/` would show the reserved state: it is left out entirely.
    if target.as_deref().is_some_and(|real| {
        components(real)
            .first()
            .is_some_and(|first| first.eq_ignore_ascii_case(STATE_DIR))
    }) {
        return false;
    }
    let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
    if reserved(entry, is_dir, target.as_deref(), filter)
        || excluded(filter, &rel, target.as_deref(), shown)
    {
        return false;
    }
    let met = Met {
        rel,
        shown,
        is_link,
        is_dir,
    };
    admit(entry, filter, met, target)
}

/// Where `entry` lies: its workspace-relative path, and whether it is shown (below the
/// start, not the start itself). `None` for what the walk neither shows nor enters: a
/// name that is not UTF-8 (counted), `.stitch/`, and what is neither on the way to the
/// start nor below it.
fn placed(entry: &DirEntry, filter: &Filter) -> Option<(String, bool)> {
    let Some(rel) = relative(&filter.root, entry.path()) else {
        // A name that is not UTF-8 cannot be spelled in a result without being mistaken
        // for another: it is counted instead, and a directory is not entered. Its parent
        // was kept, so below the start's depth it is below the start.
        if entry.depth() > filter.start.len() {
            filter.non_utf8.fetch_add(1, Ordering::Relaxed);
        }
        return None;
    };
    let parts = components(&rel);
    if parts
        .first()
        .is_some_and(|first| first.eq_ignore_ascii_case(STATE_DIR))
    {
        return None;
    }
    let start = &filter.start;
    let common = parts.iter().zip(start).take_while(|(a, b)| *a == b).count();
    let below_start = common == start.len();
    if !below_start && common < parts.len() {
        // Neither on the way to the start nor below it.
        return None;
    }
    if below_start && parts.len() == start.len() {
        filter.reached.store(true, Ordering::Relaxed);
    }
    let shown = below_start && parts.len() > start.len();
    Some((rel, shown))
}

/// Whether the walk's exclude rule covers `rel`, or the place a link on its way (or
/// `target`, the real place of a link) leads: a link cannot route around the rule. A
/// shown entry left out is counted.
fn excluded(filter: &Filter, rel: &str, target: Option<&str>, shown: bool) -> bool {
    let Some(exclude) = &filter.exclude else {
        return false;
    };
    let real = match target {
        Some(real) => Some(real.to_owned()),
        None => through_links(rel, &lock(&filter.links)),
    };
    let excluded =
        exclude.is_match(rel) || real.is_some_and(|real| matches_or_ancestor(exclude, &real));
    if excluded && shown {
        filter.excluded.fetch_add(1, Ordering::Relaxed);
    }
    excluded
}

/// An entry the walk met, placed and not left out.
struct Met {
    rel: String,
    shown: bool,
    is_link: bool,
    is_dir: bool,
}

/// Whether the walk enters (or shows) an entry it met: a link is followed once, to a
/// place outside the walked subtree; a directory seen before under another name, or a
/// link that cannot be followed, is shown as not followed.
fn admit(entry: &DirEntry, filter: &Filter, met: Met, target: Option<String>) -> bool {
    let Met {
        rel,
        shown,
        is_link,
        is_dir,
    } = met;
    match target {
        Some(real) => {
            let real = through_links(&real, &lock(&filter.links)).unwrap_or(real);
            // A directory inside the walked subtree is walked under its own path; one
            // outside it is walked through the first link that reaches it.
            if is_dir && (inside(&real, &filter.start) || !first_visit(entry, filter)) {
                if shown {
                    lock(&filter.unfollowed).push(unfollowed_link(rel));
                }
                return false;
            }
            if is_dir && !enterable(entry, filter) {
                return false;
            }
            lock(&filter.links).push((rel, real));
            true
        }
        None if is_link => {
            if shown {
                lock(&filter.unfollowed).push(unfollowed_link(rel));
            }
            false
        }
        None if is_dir && !first_visit(entry, filter) => {
            // The same directory under a second name (a bind mount, or a real directory
            // below a link whose target was already walked): shown, not entered.
            if shown {
                lock(&filter.unfollowed).push(Listed {
                    path: rel,
                    kind: EntryKind::Directory,
                    target: Some(EntryKind::Directory),
                    bytes: None,
                    ino: entry.ino(),
                });
            }
            false
        }
        None => !is_dir || enterable(entry, filter),
    }
}

/// Whether `entry` is one of stitch's user-level directories, or a link whose real
/// place (`target`, workspace-relative) lies in one: each directory on the way is
/// looked at by identity. Costs nothing when none of them exists.
fn reserved(entry: &DirEntry, is_dir: bool, target: Option<&str>, filter: &Filter) -> bool {
    if filter.reserved.is_empty() {
        return false;
    }
    let id = |meta: std::fs::Metadata| (meta.dev(), meta.ino());
    if is_dir
        && entry
            .metadata()
            .is_ok_and(|m| filter.reserved.contains(&id(m)))
    {
        return true;
    }
    let Some(real) = target else { return false };
    let parts = components(real);
    (1..parts.len()).any(|end| {
        let dir = filter.canonical.join(parts[..end].join("/"));
        std::fs::metadata(dir).is_ok_and(|m| filter.reserved.contains(&id(m)))
    })
}

/// Whether the walker may enter the directory `entry`: the ignore files it would read
/// there are safe to read. One that is not is counted, and the directory left out.
fn enterable(entry: &DirEntry, filter: &Filter) -> bool {
    let entered = filter.max_depth.is_none_or(|max| entry.depth() < max);
    if !filter.reads_ignore_files
        || !entered
        || super::ignore_files::safe(entry.path(), &filter.canonical)
    {
        return true;
    }
    filter.unsafe_ignore_files.fetch_add(1, Ordering::Relaxed);
    false
}

fn unfollowed_link(path: String) -> Listed {
    Listed {
        path,
        kind: EntryKind::Symlink,
        target: None,
        bytes: None,
        ino: None,
    }
}

/// Whether the real workspace-relative `real` is `start` or below it.
fn inside(real: &str, start: &[String]) -> bool {
    let parts = components(real);
    parts.len() >= start.len() && parts.iter().zip(start).all(|(a, b)| a == b)
}

/// Records the directory `entry` leads to as walked; false when it already was. A
/// directory at the depth bound is not entered, so it neither counts as walked nor is
/// kept from being walked through a shallower name.
fn first_visit(entry: &DirEntry, filter: &Filter) -> bool {
    if filter.max_depth.is_some_and(|max| entry.depth() >= max) {
        return true;
    }
    // The walker follows links, so this is the metadata of where a link leads.
    let Ok(meta) = entry.metadata() else {
        return true;
    };
    lock(&filter.walked).insert((meta.dev(), meta.ino()))
}

/// Where a link resolves, workspace-relative, when it stays inside the root. A link
/// with an absolute target counts as leaving, as it does for every other tool
/// (`RESOLVE_BENEATH` semantics).
fn link_target(link: &Path, root: &Path) -> Option<String> {
    let target = std::fs::read_link(link).ok()?;
    if target.is_absolute() {
        return None;
    }
    let real = std::fs::canonicalize(link).ok()?;
    relative(root, &real).map(|r| if r.is_empty() { ".".to_owned() } else { r })
}

/// Whether `set` matches `path` or any of its ancestors: an excluded directory hides
/// everything below it.
#[must_use]
pub fn matches_or_ancestor(set: &GlobSet, path: &str) -> bool {
    if path == "." {
        return false;
    }
    let mut end = path.len();
    loop {
        if set.is_match(&path[..end]) {
            return true;
        }
        match path[..end].rfind('/') {
            Some(slash) => end = slash,
            None => return false,
        }
    }
}

/// The real path of `rel` given the links followed so far (longest prefix first).
fn through_links(rel: &str, links: &[(String, String)]) -> Option<String> {
    links
        .iter()
        .filter(|(link, _)| {
            rel.strip_prefix(link.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
        })
        .max_by_key(|(link, _)| link.len())
        .map(|(link, real)| format!("{real}{}", &rel[link.len()..]))
}
