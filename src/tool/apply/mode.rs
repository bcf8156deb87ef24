//! The executable bit as a diff sets it (`new file mode 100755`, `old mode`/`new mode`):
//! read from permission bits as git reads them, and given to them as `git apply` gives
//! it — execute where the file is readable — never touching the other bits.

/// Whether permission bits `mode` make a file executable, as git reads them: its
/// owner's execute bit.
#[must_use]
pub fn executable_mode(mode: u32) -> bool {
    mode & 0o100 != 0
}

/// Permission bits `mode` with the executable bits set where the file is readable (as
/// `git apply` creates a `100755` file under the umask), or cleared; unchanged for `None`.
#[must_use]
pub fn with_executable(mode: u32, executable: Option<bool>) -> u32 {
    match executable {
        Some(true) => mode | ((mode & 0o444) >> 2),
        Some(false) => mode & !0o111,
        None => mode,
    }
}

#[cfg(test)]
mod tests {
    use super::{executable_mode, with_executable};

    #[test]
    fn execute_follows_read_and_the_other_bits_stay() {
        assert_eq!(with_executable(0o644, Some(true)), 0o755);
        assert_eq!(with_executable(0o600, Some(true)), 0o700);
        assert_eq!(with_executable(0o664, Some(true)), 0o775);
        assert_eq!(with_executable(0o755, Some(false)), 0o644);
        assert_eq!(with_executable(0o4755, Some(false)), 0o4644);
        assert_eq!(with_executable(0o640, None), 0o640);
        assert!(executable_mode(0o100_755) && !executable_mode(0o100_644));
    }
}
