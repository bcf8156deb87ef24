//! Confirming walk results through the root handle: the `ignore` walker reads
//! directories by path, so what it returns is looked up again, contained by the kernel.

use std::collections::HashMap;

use cap_std::fs::{Dir, MetadataExt};

use super::super::Workspace;
use super::Listed;

impl Workspace {
    /// Keeps the walked entries that are really inside the root, and returns how many
    /// it left out. The walker reads directories by path, so a directory swapped for a
    /// link out while it walks could show outside names; every entry a tool returns is
    /// looked up again through the root handle (kernel-contained) and must be the very
    /// inode the walk saw. Each parent directory is opened once, and each entry looked
    /// up by its name in it. An entry that fails — its directory or itself cannot be
    /// looked up (searched without permission, vanished), or it is another inode now —
    /// is one the walk could not read: the caller counts it in `skippedUnreadable`.
    #[must_use]
    pub fn confirm(&self, entries: &mut Vec<Listed>) -> usize {
        let before = entries.len();
        let mut parents: HashMap<String, Option<Dir>> = HashMap::new();
        entries.retain(|entry| {
            let (parent, name) = entry.path.rsplit_once('/').unwrap_or((".", &entry.path));
            let dir = parents.entry(parent.to_owned()).or_insert_with(|| {
                if parent == "." {
                    self.dir.try_clone().ok()
                } else {
                    self.dir.open_dir(parent).ok()
                }
            });
            let Some(dir) = dir else { return false };
            let Ok(meta) = dir.symlink_metadata(name) else {
                return false;
            };
            let Some(ino) = entry.ino else { return true };
            // A followed link may be known by its own inode or by its target's. The target
            // is looked up from the root: a link may lead out of its own directory (`a/l
            // -> ../b`), which the parent's handle would refuse to follow.
            meta.ino() == ino
                || (meta.is_symlink()
                    && self.dir.metadata(&entry.path).is_ok_and(|m| m.ino() == ino))
        });
        before - entries.len()
    }
}
