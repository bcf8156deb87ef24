//! The journal's key: 32 random bytes at `$XDG_DATA_HOME/stitch/key`, mode 0600, made on
//! first use, outside every workspace, so that no clone or archive can carry an entry
//! that verifies.
//!
//! The key is made under a temporary name and given its name with link(2), which never
//! replaces a key another process made first; every process then reads the one key there
//! is. It follows the rules of stitch's own state: never followed through a link, opened
//! without blocking, checked to be a regular file of exactly [`KEY_BYTES`] bytes.

use std::io::{Read, Write};

use cap_std::fs::OpenOptions;
use cap_std::fs::OpenOptionsExt;

use super::home::{make_private, stitch_dir, Home};
use super::state::{look, open_file, read_file, Expect};
use super::{Error, StateProblem};

/// The key's length.
pub const KEY_BYTES: usize = 32;

impl Home {
    /// How the key is named to people.
    #[must_use]
    pub fn key_shown(&self) -> String {
        let base = self
            .data
            .as_ref()
            .map_or("~/.local/share", |(_, shown)| shown);
        format!("{base}/stitch/key")
    }

    /// The journal's key, made on first use. [`Error::NotFound`] when there is no home
    /// to keep it in.
    pub fn journal_key(&self) -> Result<[u8; KEY_BYTES], Error> {
        let Some((base, _)) = &self.data else {
            return Err(Error::NotFound);
        };
        let shown = self.key_shown();
        if let Some(key) = self.read_key(&shown)? {
            return Ok(key);
        }
        make_private(base, "stitch")?;
        let dir = stitch_dir(base, &shown)?.ok_or(Error::NotFound)?;
        let mut key = [0u8; KEY_BYTES];
        random(&mut key)?;
        let temp = format!(".key.{}.tmp", std::process::id());
        let mut options = OpenOptions::new();
        options.write(true).create_new(true).mode(0o600);
        let mut file = open_file(&dir, &temp, &shown, &mut options)?;
        let written = file.write_all(&key).and_then(|()| file.sync_all());
        drop(file);
        let linked = written.and_then(|()| {
            rustix::fs::linkat(
                &dir,
                temp.as_str(),
                &dir,
                "key",
                rustix::fs::AtFlags::empty(),
            )
            .map_err(std::io::Error::from)
        });
        let _ = dir.remove_file(&temp);
        match linked {
            Ok(()) => Ok(key),
            // Another process made it first: that one is the key.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                self.read_key(&shown)?.ok_or(Error::NotFound)
            }
            Err(e) => Err(Error::Io(e)),
        }
    }

    fn read_key(&self, shown: &str) -> Result<Option<[u8; KEY_BYTES]>, Error> {
        let Some((base, _)) = &self.data else {
            return Ok(None);
        };
        let Some(dir) = stitch_dir(base, shown)? else {
            return Ok(None);
        };
        if look(&dir, "key", shown, Expect::File)?.is_none() {
            return Ok(None);
        }
        let (bytes, _) = read_file(&dir, "key", shown, KEY_BYTES as u64)?;
        let key: [u8; KEY_BYTES] = bytes.try_into().map_err(|_| Error::State {
            path: shown.to_owned(),
            problem: StateProblem::TooLarge {
                limit: KEY_BYTES as u64,
            },
        })?;
        Ok(Some(key))
    }
}

/// Fills `buf` from the kernel's random source.
fn random(buf: &mut [u8]) -> Result<(), Error> {
    let mut source = std::fs::File::open("/dev/urandom").map_err(Error::Io)?;
    source.read_exact(buf).map_err(Error::Io)
}
