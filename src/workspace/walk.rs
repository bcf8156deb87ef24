//! Walking the workspace with the `ignore` crate (ripgrep's walker).
//!
//! Walks never follow symlinks out of the root and never show `.stitch/` or `.git/`.

use ignore::WalkBuilder;

use super::state::STATE_DIR;
use super::Workspace;

impl Workspace {
    /// Workspace-relative paths of up to `limit` files and directories, as git and
    /// ripgrep would show them (ignore rules applied, hidden entries skipped).
    #[must_use]
    pub fn walk_names(&self, limit: usize) -> Vec<String> {
        let mut names = Vec::new();
        let walker = WalkBuilder::new(&self.canonical)
            .max_depth(Some(16))
            .filter_entry(|entry| {
                let name = entry.file_name();
                name != STATE_DIR && name != ".git"
            })
            .build();
        for entry in walker.flatten().skip(1) {
            if names.len() >= limit {
                break;
            }
            if let Ok(rel) = entry.path().strip_prefix(&self.canonical) {
                if let Some(rel) = rel.to_str() {
                    names.push(rel.to_owned());
                }
            }
        }
        names
    }
}
