//! What a Rust `main` is given before it runs, for the binary's own C `main` on Linux.
//!
//! On Linux with glibc the binary skips std's runtime start-up (see `src/main.rs`), which
//! reads `/proc/self/maps` to place a guard below the main thread's stack and sets up an
//! alternate signal stack: some 60–90 µs of every call. Two of its steps matter to
//! stitch and are done here instead, as std does them; and glibc's allocator is told to
//! grow its heaps in larger steps ([`pad_heaps`]).

/// Opens `/dev/null` on any of descriptors 0, 1 and 2 that is closed, so that no file
/// stitch opens later is taken for stdout; and ignores SIGPIPE, so that a closed pipe (a
/// reader gone, an `authorize` hook that exits without reading) is an `EPIPE` error that
/// stitch handles rather than the end of the process.
// poll(2), fcntl(2), open(2) and signal(2) take integers, a constant path and an array
// on the stack; none of them touches memory stitch owns. rustix cannot name a
// descriptor that may be closed, which is the point here.
#[allow(unsafe_code)]
pub fn prepare() {
    let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    // SAFETY: see above; `fds` is a live array of three pollfds.
    let polled = loop {
        match unsafe { libc::poll(fds.as_mut_ptr(), 3, 0) } {
            -1 if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
            -1 => break false,
            _ => break true,
        }
    };
    for pollfd in &fds {
        let closed = if polled {
            pollfd.revents & libc::POLLNVAL != 0
        } else {
            // SAFETY: as above.
            (unsafe { libc::fcntl(pollfd.fd, libc::F_GETFD) }) == -1
                && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF)
        };
        // The lowest free descriptor is the closed one; it is left open for the process.
        // SAFETY: as above; the path is a NUL-terminated constant.
        if closed && unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) } == -1 {
            std::process::abort();
        }
    }
    // SAFETY: as above.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    pad_heaps();
}

/// How much more than a request glibc's allocator asks the kernel for when a heap grows.
const HEAP_PAD: libc::c_int = 16 << 20;

/// Has glibc's allocator grow a heap by [`HEAP_PAD`] more than it needs (`M_TOP_PAD`,
/// mallopt(3)), where its default is 128 KiB. A thread's heap grows by an mprotect(2) a
/// step, and the main one by a brk(2); each takes the process's memory map for writing,
/// so that every page fault of every other thread waits on it. The syntax gate's parses
/// on threads of their own grew theirs step by step: an apply of a 27-file commit made
/// 167 such calls, and 13 with the padding. The padding is address space only: a page
/// is not the process's until it is written.
// mallopt(3) takes two integers and touches no memory of ours.
#[allow(unsafe_code)]
fn pad_heaps() {
    // SAFETY: see above; called once, before any other thread exists.
    unsafe { libc::mallopt(libc::M_TOP_PAD, HEAP_PAD) };
}
