//! A seccomp filter that makes `openat2(2)` fail with `ENOSYS` in a child process, as on
//! a kernel older than 5.6 or under a sandbox that hides the call. cap-std then falls
//! back to its own `O_NOFOLLOW` component walk, which the containment and race suites
//! prove with this filter installed.
//!
//! See seccomp(2) for the filter program and `struct seccomp_data`.

use std::io;
use std::os::unix::process::CommandExt;
use std::process::Command;

/// `openat2`'s number in the generic syscall table, which x86-64 and aarch64 share.
const SYS_OPENAT2: u32 = 437;

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xC000_003E; // AUDIT_ARCH_X86_64
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xC000_00B7; // AUDIT_ARCH_AARCH64

// Classic BPF opcodes (linux/bpf_common.h) and seccomp return values (linux/seccomp.h).
/// `BPF_LD | BPF_W | BPF_ABS`: load the 32-bit word at an offset of `seccomp_data`.
const BPF_LD_W_ABS: u16 = 0x20;
/// `BPF_JMP | BPF_JEQ | BPF_K`: jump by `jt` if equal to `k`, else by `jf`.
const BPF_JMP_JEQ_K: u16 = 0x15;
/// `BPF_RET | BPF_K`: return `k`.
const BPF_RET_K: u16 = 0x06;
const SECCOMP_RET_ALLOW: u32 = 0x7fff_0000;
const SECCOMP_RET_ERRNO: u32 = 0x0005_0000;
/// Offsets in `struct seccomp_data`.
const DATA_NR: u32 = 0;
const DATA_ARCH: u32 = 4;

const fn op(code: u16, jt: u8, jf: u8, k: u32) -> libc::sock_filter {
    libc::sock_filter { code, jt, jf, k }
}

/// How many instructions [`FILTER`] has.
const FILTER_LEN: u16 = 6;

/// Other architectures' calls pass; on ours, `openat2` returns `ENOSYS`, the rest pass.
#[allow(clippy::cast_sign_loss)]
static FILTER: [libc::sock_filter; FILTER_LEN as usize] = [
    op(BPF_LD_W_ABS, 0, 0, DATA_ARCH),
    op(BPF_JMP_JEQ_K, 0, 3, AUDIT_ARCH),
    op(BPF_LD_W_ABS, 0, 0, DATA_NR),
    op(BPF_JMP_JEQ_K, 0, 1, SYS_OPENAT2),
    op(BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | (libc::ENOSYS as u32)),
    op(BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW),
];

/// Installs the filter in `cmd`'s child between fork and exec. `no_new_privs` is set
/// first, as seccomp(2) requires of a process without `CAP_SYS_ADMIN`; both settings
/// are inherited across exec.
// `pre_exec` is unsafe because the closure runs in the forked child: it may only make
// async-signal-safe calls. It makes two prctl(2) calls on a static program and
// allocates nothing.
#[allow(unsafe_code)]
pub fn refuse_openat2(cmd: &mut Command) {
    unsafe {
        cmd.pre_exec(|| {
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            let program = libc::sock_fprog {
                len: FILTER_LEN,
                filter: FILTER.as_ptr().cast_mut(),
            };
            let installed = libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER,
                &raw const program,
            );
            if installed != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
}
