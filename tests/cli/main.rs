//! The one integration-test binary: every test runs the real `stitch` binary and asserts
//! the serialized envelope, the exit status and the files on disk.

mod support;

mod envelope;
