//! The host's own programs, used where the tests must not trust the code under test:
//! coreutils' `sha256sum` for digests, mount(8) for filesystems that fail in set ways.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The hex SHA-256 of `bytes`, computed by coreutils' `sha256sum` so that the digest the
/// tests expect does not come from the code under test.
pub fn sha256sum(bytes: &[u8]) -> String {
    let output = assert_cmd::Command::new("sha256sum")
        .write_stdin(bytes.to_vec())
        .output()
        .expect("run sha256sum");
    assert!(output.status.success(), "sha256sum failed");
    let text = String::from_utf8(output.stdout).unwrap();
    text.split_whitespace().next().unwrap().to_owned()
}

/// Unmounts a mount made for one test, however the test ends.
pub struct Mount(pub PathBuf);

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Mounts `fstype` at `dir` with `options`; `Err` says why it could not.
pub fn mount(fstype: &str, options: &str, dir: &Path) -> Result<Mount, String> {
    let output = Command::new("mount")
        .args(["-t", fstype, "-o", options, fstype])
        .arg(dir)
        .output()
        .map_err(|e| format!("cannot run mount: {e}"))?;
    if output.status.success() {
        Ok(Mount(dir.to_owned()))
    } else {
        Err(format!(
            "mount -t {fstype} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}
