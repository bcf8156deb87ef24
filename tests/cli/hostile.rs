//! A planted workspace cannot turn stitch against itself. Each module builds the hostile
//! workspace an attacker who can only commit files would leave (a cloned repository, an
//! unpacked archive) and asserts the serialized envelope, the exit status, the files on
//! disk (nothing but stitch's own names deleted, nothing outside the root touched) and
//! the wall time.

// Own state that is a symlink, a FIFO, a device or huge: INVALID_CONFIG before any change.
mod state;
// Symlink fan-outs: each directory walked once per call, each file shown once, in time.
mod walks;
// Names that are not UTF-8: counted in skippedNonUtf8, never dropped or mangled.
mod names;
