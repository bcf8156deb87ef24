//! stitch's own files outside every workspace, in the user's home: the user's config
//! (`$XDG_CONFIG_HOME/stitch/config.json`) and the records of which workspace configs a
//! person trusts (`$XDG_DATA_HOME/stitch/trusted/`); the journal's key beside them
//! (`workspace/key.rs`).
//!
//! These live where no clone or archive can put them, so they are what a workspace's
//! config cannot be: trusted by where they are. They still follow the rules of stitch's
//! own state — the `stitch` directories and the files in them are never followed through a
//! link, files are opened without blocking, checked to be regular files and read with a
//! size bound — because a mistake there must refuse, not hang or follow.

use std::io::Write;
use std::path::{Path, PathBuf};

use cap_fs_ext::DirExt;
use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptions};

use super::state::{
    look, open_dir, open_dir_opt, open_file, read_bounded, read_file, Expect, Missing,
    MAX_CONFIG_BYTES,
};
use super::Error;

/// The user's directories, as the environment names them (XDG base directories, with
/// `$HOME` for the defaults). A relative or empty value is ignored, as the XDG
/// specification says.
#[derive(Debug, Clone)]
pub struct Home {
    config: Option<(PathBuf, &'static str)>,
    pub(super) data: Option<(PathBuf, &'static str)>,
}

/// The bound on one trust record: the workspace path it names, and a newline.
const MAX_RECORD_BYTES: u64 = 64 * 1024;
/// The most records `untrust` looks at: a trust directory holds one per trusted config.
const MAX_RECORDS: usize = 100_000;

fn absolute(var: &str) -> Option<PathBuf> {
    let value = std::env::var_os(var)?;
    let path = PathBuf::from(value);
    path.is_absolute().then_some(path)
}

impl Home {
    /// The directories the environment of this process names.
    #[must_use]
    pub fn from_env() -> Home {
        let home = absolute("HOME");
        let config = absolute("XDG_CONFIG_HOME")
            .map(|p| (p, "$XDG_CONFIG_HOME"))
            .or_else(|| home.as_ref().map(|h| (h.join(".config"), "~/.config")));
        let data = absolute("XDG_DATA_HOME")
            .map(|p| (p, "$XDG_DATA_HOME"))
            .or_else(|| {
                home.as_ref()
                    .map(|h| (h.join(".local/share"), "~/.local/share"))
            });
        Home { config, data }
    }

    /// How the user's config is named to people: `~/.config/stitch/config.json`, or
    /// `$XDG_CONFIG_HOME/stitch/config.json` (never the absolute path).
    #[must_use]
    pub fn config_shown(&self) -> String {
        let base = self.config.as_ref().map_or("~/.config", |(_, shown)| shown);
        format!("{base}/stitch/config.json")
    }

    /// stitch's directory below the user's config directory and below the data
    /// directory (the key and the trust records): each with its path, `None` when there
    /// is no home to hold it, and how it is named to people.
    pub(super) fn stitch_dirs(&self) -> [(super::UserDir, Option<PathBuf>, String); 2] {
        let dir = |base: &Option<(PathBuf, &'static str)>, default: &str| {
            let shown = base.as_ref().map_or(default, |(_, shown)| shown);
            (
                base.as_ref().map(|(path, _)| path.join("stitch")),
                format!("{shown}/stitch"),
            )
        };
        let (config, config_shown) = dir(&self.config, "~/.config");
        let (data, data_shown) = dir(&self.data, "~/.local/share");
        [
            (super::UserDir::Config, config, config_shown),
            (super::UserDir::Data, data, data_shown),
        ]
    }

    /// How the trust records' directory is named to people.
    #[must_use]
    pub fn trust_shown(&self) -> String {
        let base = self
            .data
            .as_ref()
            .map_or("~/.local/share", |(_, shown)| shown);
        format!("{base}/stitch/trusted")
    }

    /// The bytes of the user's config (at most 1 MiB), `None` when there is none (or no
    /// home to hold one). A `stitch` directory or `config.json` that is a link, a FIFO,
    /// a device or too large is [`Error::State`], named as [`Home::config_shown`] names it.
    pub fn read_config(&self) -> Result<Option<Vec<u8>>, Error> {
        let Some((base, _)) = &self.config else {
            return Ok(None);
        };
        let shown = self.config_shown();
        let Some(dir) = stitch_dir(base, &shown)? else {
            return Ok(None);
        };
        if look(&dir, "config.json", &shown, Expect::File)?.is_none() {
            return Ok(None);
        }
        Ok(Some(
            read_file(&dir, "config.json", &shown, MAX_CONFIG_BYTES)?.0,
        ))
    }

    /// Whether a trust record named `digest` exists (a regular file, not followed through
    /// a link): one `lstat` outside the workspace.
    #[must_use]
    pub fn is_trusted(&self, digest: &str) -> bool {
        let Some((base, _)) = &self.data else {
            return false;
        };
        let Ok(Some(stitch)) = stitch_dir(base, "") else {
            return false;
        };
        let Ok(trusted) = stitch.open_dir_nofollow("trusted") else {
            return false;
        };
        trusted
            .symlink_metadata(digest)
            .is_ok_and(|meta| meta.is_file())
    }

    /// Records that a person trusts the config whose digest is `digest`, in the workspace
    /// at `root`: a file named by the digest, holding the root's path (for `untrust` and
    /// for a person looking), written whole under a temporary name and renamed.
    pub fn record_trust(&self, digest: &str, root: &Path) -> Result<(), Error> {
        let trusted = self.trust_dir(Missing::Make)?.ok_or(Error::NotFound)?;
        let temp = format!(".{digest}.{}.tmp", std::process::id());
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        let mut file = open_file(&trusted, &temp, "", &mut options)?;
        let mut line = root.as_os_str().as_encoded_bytes().to_vec();
        line.push(b'\n');
        let written = file.write_all(&line).and_then(|()| file.sync_all());
        drop(file);
        if let Err(e) = written.and_then(|()| trusted.rename(&temp, &trusted, digest)) {
            let _ = trusted.remove_file(&temp);
            return Err(Error::Io(e));
        }
        Ok(())
    }

    /// Removes every trust record that names the workspace at `root` (whatever config
    /// bytes it was made for); returns how many went.
    pub fn remove_trust(&self, root: &Path) -> Result<usize, Error> {
        let Some(trusted) = self.trust_dir(Missing::Leave)? else {
            return Ok(0);
        };
        let mut wanted = root.as_os_str().as_encoded_bytes().to_vec();
        wanted.push(b'\n');
        let mut removed = 0;
        for entry in trusted.entries().map_err(Error::Io)?.take(MAX_RECORDS) {
            let entry = entry.map_err(Error::Io)?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            if !crate::digest::is_sha256_hex(name) {
                continue;
            }
            let Ok(file) = open_file(&trusted, name, "", OpenOptions::new().read(true)) else {
                continue;
            };
            if read_bounded(file, "", MAX_RECORD_BYTES).is_ok_and(|bytes| bytes == wanted) {
                trusted.remove_file(name).map_err(Error::Io)?;
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// `$XDG_DATA_HOME/stitch/trusted`, created (mode 0700) when `missing` asks.
    fn trust_dir(&self, missing: Missing) -> Result<Option<Dir>, Error> {
        let Some((base, _)) = &self.data else {
            return Ok(None);
        };
        let shown = self.trust_shown();
        if missing == Missing::Make {
            make_private(base, "stitch")?;
            make_private(&base.join("stitch"), "trusted")?;
        }
        let Some(stitch) = stitch_dir(base, &shown)? else {
            return Ok(None);
        };
        if look(&stitch, "trusted", &shown, Expect::Dir)?.is_none() {
            return Ok(None);
        }
        open_dir(&stitch, "trusted", &shown).map(Some)
    }
}

/// `base/stitch`, opened without following a link at `stitch`; `None` when `base` or
/// `stitch` does not exist.
pub(super) fn stitch_dir(base: &Path, shown: &str) -> Result<Option<Dir>, Error> {
    let base = match Dir::open_ambient_dir(base, ambient_authority()) {
        Ok(dir) => dir,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::Io(e)),
    };
    open_dir_opt(&base, "stitch", shown)
}

/// Creates `parent/name` (and `parent`'s missing ancestors) with mode 0700 where missing.
pub(super) fn make_private(parent: &Path, name: &str) -> Result<(), Error> {
    use std::os::unix::fs::DirBuilderExt;
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true).mode(0o700);
    builder.create(parent.join(name)).map_err(Error::Io)
}
