//! Snapshots of directories, to show that a call changed nothing it must not.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Every entry below `dir`, recursively, by path relative to `dir`: file bytes, a link's
/// target, or nothing for a directory. Two snapshots differ when anything below changed.
/// Other filesystems mounted below (a test's procfs) are entered only when `dir` itself
/// is their root.
pub fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut map = BTreeMap::new();
    if let Ok(meta) = dir.metadata() {
        walk(dir, meta.dev(), dir, &mut map);
    }
    map
}

fn walk(top: &Path, dev: u64, dir: &Path, into: &mut BTreeMap<PathBuf, Vec<u8>>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        let rel = path.strip_prefix(top).unwrap().to_owned();
        let Ok(meta) = path.symlink_metadata() else {
            continue;
        };
        if meta.file_type().is_symlink() {
            let target = fs::read_link(&path).unwrap_or_default();
            into.insert(rel, target.into_os_string().into_encoded_bytes());
        } else if meta.is_dir() {
            into.insert(rel, Vec::new());
            if meta.dev() == dev {
                walk(top, dev, &path, into);
            }
        } else if meta.is_file() {
            into.insert(rel, fs::read(&path).unwrap_or_default());
        } else {
            into.insert(rel, b"(special file)".to_vec());
        }
    }
}

/// The names in a directory, sorted.
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}
