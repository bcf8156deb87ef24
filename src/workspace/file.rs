//! Opening regular files for reading, without blocking on FIFOs or devices.

use std::io::Read;

use cap_std::fs::{MetadataExt, OpenOptions, OpenOptionsExt};
use rustix::fs::OFlags;

use super::{Error, Kind, Location, Workspace};

/// A regular file opened for reading, with the facts a rewrite must keep.
#[derive(Debug)]
pub struct OpenFile {
    file: cap_std::fs::File,
    /// Size in bytes when opened.
    pub size: u64,
    /// Permission bits (and set-id bits) to keep on a replacement.
    pub mode: u32,
    pub uid: u32,
    pub gid: u32,
    /// What the file was when opened, to tell whether it changed since.
    seen: Stamp,
}

/// What `fstat` says of a file that any write to it, or a swap of it, moves: its
/// identity, size and times. cap-std's `MetadataExt` gives them one width on every
/// platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Stamp {
    fn of(meta: &cap_std::fs::Metadata) -> Stamp {
        Stamp {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// The same file (device and inode), whatever its content.
    pub(super) fn same_file(&self, dev: u64, ino: u64) -> bool {
        self.dev == dev && self.ino == ino
    }
}

impl OpenFile {
    /// The descriptor, for kernel-side copies and the platform's questions.
    pub(super) fn fd(&self) -> std::os::fd::BorrowedFd<'_> {
        use std::os::fd::AsFd;
        self.file.as_fd()
    }

    /// Whether the file is as it was when opened: the same inode, size, modification
    /// and change times. Another program that truncates and rewrites it in place moves
    /// at least one of them.
    pub fn unchanged(&self) -> std::io::Result<bool> {
        Ok(Stamp::of(&self.file.metadata()?) == self.seen)
    }

    /// [`OpenFile::unchanged`] but for the change time, which a hard link to the inode
    /// moves too: the journal keeps the replaced version that way between the read and
    /// the rename, so the last check before the rename asks for the same inode, size and
    /// modification time (a rewrite in place moves the modification time, and the lease
    /// check sees a writer that is not done).
    pub fn unchanged_but_for_links(&self) -> std::io::Result<bool> {
        let now = Stamp::of(&self.file.metadata()?);
        Ok(Stamp {
            ctime: self.seen.ctime,
            ..now
        } == self.seen)
    }

    /// Whether another program holds the file open for writing now — one rewriting it
    /// in place, between two of its pieces — where the platform can say (see
    /// `platform::open_for_writing_elsewhere`); false where it cannot.
    #[must_use]
    pub fn written_elsewhere(&self) -> bool {
        crate::platform::open_for_writing_elsewhere(self.fd()) == Some(true)
    }

    /// Whether `read` bytes are the whole file as it was opened: as many bytes as it had
    /// then, and the file unchanged since.
    pub fn read_whole(&self, read: usize) -> std::io::Result<bool> {
        Ok(read as u64 == self.size && self.unchanged()?)
    }

    pub(super) fn seen(&self) -> &Stamp {
        &self.seen
    }

    /// Reads the whole file. The caller has checked `size` against its limit; a file
    /// that grows meanwhile is read to its end, and the caller checks what it got.
    pub fn read_all(&mut self) -> std::io::Result<Vec<u8>> {
        let size = usize::try_from(self.size).unwrap_or(0);
        if size >= SPLIT_READ {
            if let Some(bytes) = self.read_split(size)? {
                return Ok(bytes);
            }
        }
        // Read straight into the spare capacity, never zeroed first; and not through
        // std's `read_to_end`, whose size hint asks the kernel for the file's metadata
        // and position once more (both known: `size`, and the start).
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(size.saturating_add(1))
            .map_err(|_| out_of_memory())?;
        loop {
            if bytes.len() == bytes.capacity() {
                // Grown since it was opened: read to its end all the same.
                bytes
                    .try_reserve(bytes.len().max(1 << 16))
                    .map_err(|_| out_of_memory())?;
            }
            match rustix::io::read(&self.file, rustix::buffer::spare_capacity(&mut bytes)) {
                Ok(0) => return Ok(bytes),
                Ok(_) | Err(rustix::io::Errno::INTR) => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
}

/// The error of a buffer the size of a file that cannot be had: `OutOfMemory`, which the
/// tool layer turns into `TOO_LARGE` rather than letting the allocator abort the process.
fn out_of_memory() -> std::io::Error {
    std::io::Error::from(std::io::ErrorKind::OutOfMemory)
}

/// Whether `size` bytes can be allocated now: a reservation made and given back at once,
/// before a zeroed buffer of that size is made (which cannot fail softly).
fn can_hold(size: usize) -> std::io::Result<()> {
    Vec::<u8>::new()
        .try_reserve_exact(size)
        .map_err(|_| out_of_memory())
}

/// From this size on a whole file is read as two halves, on two threads.
const SPLIT_READ: usize = 8 << 20;

impl OpenFile {
    /// Reads the file's `size` bytes as two halves at once, the second on another
    /// thread: most of the cost of a large read is faulting in the fresh memory it fills,
    /// and that work then goes on two cores. `None` (nothing consumed) when the file is
    /// no longer `size` bytes long, and the caller reads it the ordinary way.
    fn read_split(&self, size: usize) -> std::io::Result<Option<Vec<u8>>> {
        use cap_std::fs::FileExt;
        // Zeroed memory from the allocator is fresh zero pages, untouched until read.
        can_hold(size)?;
        let mut bytes = vec![0u8; size];
        let (head, tail) = bytes.split_at_mut(size / 2);
        let file = &self.file;
        let (first, second) = std::thread::scope(|scope| {
            let first = scope.spawn(|| file.read_exact_at(head, 0));
            let second = file.read_exact_at(tail, (size / 2) as u64);
            (first.join(), second)
        });
        let complete = |read: std::io::Result<()>| match read {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
            Err(e) => Err(e),
        };
        let first = first.map_err(|_| std::io::Error::other("a reading thread panicked"))?;
        if !(complete(first)? && complete(second)?) {
            return Ok(None);
        }
        // A file that grew meanwhile is read whole the ordinary way.
        if file.read_at(&mut [0u8], size as u64)? != 0 {
            return Ok(None);
        }
        Ok(Some(bytes))
    }

    /// The lowercase hex SHA-256 of the file's bytes as they are now, streamed from its
    /// start by position (the descriptor's offset is left where it is).
    pub fn sha256_now(&self) -> std::io::Result<String> {
        use cap_std::fs::FileExt;
        use sha2::Digest;
        let mut hasher = sha2::Sha256::new();
        let mut buffer = vec![0u8; 1 << 16];
        let mut at = 0u64;
        loop {
            let n = self.file.read_at(&mut buffer, at)?;
            if n == 0 {
                break;
            }
            hasher.update(&buffer[..n]);
            at += n as u64;
        }
        Ok(crate::digest::hex(&hasher.finalize()))
    }

    /// The lowercase hex SHA-256 of the file's bytes, streamed.
    pub fn sha256(&mut self) -> std::io::Result<String> {
        use sha2::Digest;
        let mut hasher = sha2::Sha256::new();
        let mut buffer = vec![0u8; 1 << 16];
        loop {
            let n = self.file.read(&mut buffer)?;
            if n == 0 {
                break;
            }
            hasher.update(&buffer[..n]);
        }
        Ok(crate::digest::hex(&hasher.finalize()))
    }
}

impl Workspace {
    /// Opens an existing regular file. A directory, FIFO, socket or device is
    /// [`Error::NotAFile`], found without blocking: the open is non-blocking and the
    /// type is checked on the open descriptor.
    pub fn open_file(&self, location: &Location) -> Result<OpenFile, Error> {
        match location.kind {
            None => return Err(Error::NotFound),
            Some(Kind::Directory | Kind::Other | Kind::Link) => return Err(Error::NotAFile),
            Some(Kind::File) => {}
        }
        let mut options = OpenOptions::new();
        options
            .read(true)
            .custom_flags((OFlags::NONBLOCK | OFlags::NOCTTY).bits().cast_signed());
        let file = self
            .dir
            .open_with(&location.real, &options)
            .map_err(Error::classify)?;
        let meta = file.metadata().map_err(Error::Io)?;
        if !meta.is_file() {
            return Err(Error::NotAFile);
        }
        Ok(OpenFile {
            file,
            size: meta.len(),
            mode: meta.mode() & 0o7777,
            uid: meta.uid(),
            gid: meta.gid(),
            seen: Stamp::of(&meta),
        })
    }
}

impl Workspace {
    /// Reads a walked file for searching: `Ok(None)` when it is larger than `max` bytes,
    /// [`Error::NotAFile`] when it is no longer a regular file.
    pub fn read_walked(&self, real: &str, max: u64) -> Result<Option<Vec<u8>>, Error> {
        let mut options = OpenOptions::new();
        options
            .read(true)
            .custom_flags((OFlags::NONBLOCK | OFlags::NOCTTY).bits().cast_signed());
        let mut file = self
            .dir
            .open_with(real, &options)
            .map_err(Error::classify)?;
        let meta = file.metadata().map_err(Error::Io)?;
        if !meta.is_file() {
            return Err(Error::NotAFile);
        }
        let size = meta.len();
        if size > max {
            return Ok(None);
        }
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(usize::try_from(size).unwrap_or(usize::MAX))
            .map_err(|_| Error::Io(out_of_memory()))?;
        (&mut file)
            .take(max.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(Error::Io)?;
        Ok((bytes.len() as u64 <= max).then_some(bytes))
    }
}
