//! A planted workspace cannot turn stitch against itself. Each module builds the hostile
//! workspace an attacker who can only commit files would leave (a cloned repository, an
//! unpacked archive) and asserts the serialized envelope, the exit status, the files on
//! disk (nothing but stitch's own names deleted, nothing outside the root touched) and
//! the wall time.

// Own state that is a symlink, a FIFO, a device or huge: INVALID_CONFIG before any change.
mod state;
// Authorize hooks that leave children holding their pipes, or never read a large payload:
// the call ends within authorizeTimeoutSecs + 1 s, the hook's group is killed.
mod hooks;
