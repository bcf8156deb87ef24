//! Symlink-aware resolution of a lexed path to its real place below the root.
//!
//! Each component is looked at with `lstat` relative to the root directory handle, so
//! nothing outside the root is ever consulted. Links that stay inside are followed (up
//! to 40, as Linux does); a link with an absolute target, or one that climbs above the
//! root, leaves. The operations that follow still go through cap-std, whose
//! `openat2(RESOLVE_BENEATH)` re-checks containment in the kernel, so a swap that races
//! this walk is refused rather than followed.

use std::collections::VecDeque;
use std::io;
use std::path::{Component, Path};

use cap_std::fs::{Dir, MetadataExt};

use super::path::{join, Invalid};
use super::Error;

/// How many symlinks one resolution may follow before it is a loop (Linux's `MAXSYMLINKS`).
pub const MAX_LINKS: usize = 40;

/// Where a path really is.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// Real components below the root, every followed link replaced by its target.
    pub real: Vec<String>,
    /// The (device, inode) of each of `real`'s leading components that exists: `ids[i]`
    /// is the directory (or the file, last) `real[..=i]` names. What the lookups saw, so
    /// stitch's own places are told by identity at no extra cost.
    pub ids: Vec<(u64, u64)>,
    /// Index in `real` of the first component that does not exist, if any.
    pub missing_from: Option<usize>,
    /// The kind of the final object, when it exists.
    pub kind: Option<Kind>,
}

/// The kind of a filesystem object, as the tools speak of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Directory,
    Other,
    /// A symbolic link taken as itself ([`super::Workspace::locate_own`] only).
    Link,
}

impl Kind {
    pub(crate) fn of(file_type: cap_std::fs::FileType) -> Kind {
        if file_type.is_file() {
            Kind::File
        } else if file_type.is_dir() {
            Kind::Directory
        } else {
            Kind::Other
        }
    }
}

/// Resolves `components` below `dir`, the root handle. `roots` are the absolute
/// spellings of the root, used to tell whether an absolute link target lies inside.
pub(super) fn resolve(
    dir: &Dir,
    components: &[String],
    roots: &[&Path],
) -> Result<Resolved, Error> {
    let mut queue: VecDeque<String> = components.iter().cloned().collect();
    let mut real: Vec<String> = Vec::with_capacity(components.len());
    let mut ids: Vec<(u64, u64)> = Vec::with_capacity(components.len());
    let mut links = 0;
    while let Some(name) = queue.pop_front() {
        if name == ".." {
            if real.pop().is_none() {
                return Err(Error::Outside {
                    link: None,
                    inside_target: None,
                });
            }
            ids.truncate(real.len());
            continue;
        }
        real.push(name);
        let here = join(&real);
        let meta = match dir.symlink_metadata(&here) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return missing(real, ids, queue),
            Err(e) if e.raw_os_error() == Some(rustix::io::Errno::NOTDIR.raw_os_error()) => {
                real.pop();
                return Err(Error::NotADirectory { at: join(&real) });
            }
            Err(e) => return Err(Error::classify(e)),
        };
        if meta.is_symlink() {
            links += 1;
            if links > MAX_LINKS {
                return Err(Error::Loop { link: here });
            }
            splice_link(dir, here, roots, &mut real, &mut queue)?;
            continue;
        }
        if !queue.is_empty() && !meta.is_dir() {
            real.pop();
            return Err(Error::NotADirectory { at: here });
        }
        ids.push((meta.dev(), meta.ino()));
        if queue.is_empty() {
            return Ok(Resolved {
                real,
                ids,
                missing_from: None,
                kind: Some(Kind::of(meta.file_type())),
            });
        }
    }
    Ok(Resolved {
        real,
        ids,
        missing_from: None,
        kind: Some(Kind::Directory),
    })
}

/// What resolves when the last of `real` does not exist: the rest of the path (`queue`)
/// taken lexically, missing from there on.
fn missing(
    mut real: Vec<String>,
    mut ids: Vec<(u64, u64)>,
    queue: VecDeque<String>,
) -> Result<Resolved, Error> {
    let missing_from = real.len() - 1;
    lexical_rest(&mut real, queue)?;
    ids.truncate(real.len());
    Ok(Resolved {
        real,
        ids,
        missing_from: Some(missing_from),
        kind: None,
    })
}

/// Puts the target of the link `here` (the last of `real`) at the head of `queue`, to be
/// walked in its place: refused when it is absolute or climbs above the root. A link
/// swapped for something else since it was looked at is looked at again (the caller's
/// link count bounds the retries).
fn splice_link(
    dir: &Dir,
    here: String,
    roots: &[&Path],
    real: &mut Vec<String>,
    queue: &mut VecDeque<String>,
) -> Result<(), Error> {
    let target = match dir.read_link_contents(&here) {
        Ok(target) => target,
        Err(e) if e.raw_os_error() == Some(rustix::io::Errno::INVAL.raw_os_error()) => {
            if let Some(name) = real.pop() {
                queue.push_front(name);
            }
            return Ok(());
        }
        Err(e) => return Err(Error::classify(e)),
    };
    if target.is_absolute() {
        return Err(Error::Outside {
            inside_target: inside_spelling(&target, roots),
            link: Some(here),
        });
    }
    real.pop();
    for part in spliced(&target, &here)?.into_iter().rev() {
        queue.push_front(part);
    }
    // A `..` in the target that climbs above the root is checked as it is popped.
    if real.is_empty() && queue.front().is_some_and(|c| c == "..") {
        return Err(Error::Outside {
            link: Some(here),
            inside_target: None,
        });
    }
    Ok(())
}

/// The components of a relative link target, to be walked in the link's place.
fn spliced(target: &Path, link: &str) -> Result<Vec<String>, Error> {
    let mut parts = Vec::new();
    for part in target.components() {
        match part {
            Component::Normal(n) => match n.to_str() {
                Some(n) => parts.push(n.to_owned()),
                // Taken lossily, `\xff` would become U+FFFD: another name, which may
                // exist. Such a target cannot be followed faithfully.
                None => {
                    return Err(Error::InvalidPath(Invalid::NonUtf8Link {
                        link: link.to_owned(),
                    }))
                }
            },
            Component::ParentDir => parts.push("..".to_owned()),
            _ => {}
        }
    }
    Ok(parts)
}

/// Appends what remains below a missing component, lexically (nothing there to follow).
fn lexical_rest(real: &mut Vec<String>, rest: VecDeque<String>) -> Result<(), Error> {
    for name in rest {
        if name == ".." {
            if real.pop().is_none() {
                return Err(Error::Outside {
                    link: None,
                    inside_target: None,
                });
            }
        } else {
            real.push(name);
        }
    }
    Ok(())
}

/// The workspace-relative spelling of an absolute link target that lies inside the root.
fn inside_spelling(target: &Path, roots: &[&Path]) -> Option<String> {
    let target = target.to_str()?;
    roots.iter().find_map(|root| {
        let root = root.to_str()?.trim_end_matches('/');
        let rest = target.strip_prefix(root)?;
        let rest = rest
            .strip_prefix('/')
            .or(if rest.is_empty() { Some("") } else { None })?;
        let parts: Vec<String> = rest
            .split('/')
            .filter(|p| !p.is_empty() && *p != ".")
            .map(str::to_owned)
            .collect();
        if parts.iter().any(|p| p == "..") {
            return None;
        }
        Some(join(&parts))
    })
}
