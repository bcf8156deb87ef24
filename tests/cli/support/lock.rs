//! Holding stitch's own locks from outside, to make a mutation wait and end in `BUSY`.

use std::fs::{self, File};

use super::TestWorkspace;

/// Opens every lock file stitch has made and takes each lock, as another stitch
/// process would. The locks are released when the returned files are dropped.
pub fn hold_every_lock(ws: &TestWorkspace) -> Vec<File> {
    let dir = ws.path(".stitch/locks");
    let files: Vec<File> = fs::read_dir(&dir)
        .expect("stitch keeps its lock files in .stitch/locks/")
        .map(|entry| {
            let file = fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(entry.unwrap().path())
                .unwrap();
            fs4::FileExt::try_lock(&file).expect("the lock is free");
            file
        })
        .collect();
    assert!(!files.is_empty(), "a mutation created a lock file");
    files
}
