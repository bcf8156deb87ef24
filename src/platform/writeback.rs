//! Starting a file's writeback without waiting for it (sync_file_range(2) with
//! `SYNC_FILE_RANGE_WRITE`): the kernel begins writing its dirty pages — and allocates
//! their blocks, on a filesystem that delays allocation — so that one sync after
//! several files are started carries them all in one filesystem commit, where syncing
//! them one after another from cold would wait on one commit each. A hint only: it
//! makes nothing durable, and a failure is ignored (the syncs that follow are what
//! count).

use std::os::fd::{AsFd, AsRawFd};

/// Starts writing `file`'s dirty pages back.
// sync_file_range(2) takes a descriptor and three integers and touches no memory of
// ours; rustix has no binding for it.
#[allow(unsafe_code)]
pub fn start_writeback(file: impl AsFd) {
    let fd = file.as_fd();
    // SAFETY: see above; `fd` is a descriptor borrowed for the call.
    let _ = unsafe { libc::sync_file_range(fd.as_raw_fd(), 0, 0, libc::SYNC_FILE_RANGE_WRITE) };
}
