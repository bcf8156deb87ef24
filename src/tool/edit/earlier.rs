//! What the journal knows of a file an edit is about: the entry whose result the file
//! still is, when that entry made this very edit (`appliedBy`), and the file's earlier
//! versions, so that an `oldText` quoted from one of them is told apart from a
//! misremembered passage (SPEC §4, §11). Only read, never written; a journal that is off
//! or cannot be read knows nothing.

use crate::digest::sha256_hex;

use super::super::Context;
use super::request::EditItem;
use crate::engine::journal;

/// How many earlier versions of a file are looked at, newest first.
const MAX_VERSIONS: usize = 4;
/// The largest earlier version read back.
const MAX_VERSION_BYTES: u64 = 1 << 20;

/// What the journal holds about one file, gathered once a call and only when asked.
pub struct Earlier<'c> {
    ctx: &'c Context,
    real: &'c str,
    entries: std::cell::OnceCell<Vec<journal::Entry>>,
}

impl<'c> Earlier<'c> {
    /// The journal's view of the file at the real path `real`.
    pub fn new(ctx: &'c Context, real: &'c str) -> Self {
        Earlier {
            ctx,
            real,
            entries: std::cell::OnceCell::new(),
        }
    }

    /// The entries that touched the file and stand (not taken back), newest first.
    fn entries(&self) -> &[journal::Entry] {
        self.entries.get_or_init(|| {
            let Ok(store) = journal::Store::open(self.ctx) else {
                return Vec::new();
            };
            let Ok(mut listing) = store.newest_first() else {
                return Vec::new();
            };
            let mut found = Vec::new();
            while let Some(e) = listing.next() {
                if !listing.undone().contains(&e.id)
                    && e.undoes.is_none()
                    && e.files.iter().any(|f| f.path == self.real)
                {
                    found.push(e);
                }
            }
            found
        })
    }

    /// The id of the entry that made the edit `item` and whose result the file, now
    /// `text`, still is: the journal's word that the edit is applied.
    pub fn applied_by(&self, item: &EditItem, text: &str) -> Option<String> {
        let wanted = [
            sha256_hex(item.old_text.as_bytes()),
            sha256_hex(item.new_text.as_bytes()),
        ];
        let now = sha256_hex(text.as_bytes());
        self.entries()
            .iter()
            .find(|e| {
                e.edits.contains(&wanted)
                    && e.files
                        .iter()
                        .any(|f| f.path == self.real && f.after.as_deref() == Some(&now))
            })
            .map(|e| e.id.clone())
    }

    /// The file's earlier versions the journal keeps, newest first: the `before` of each
    /// entry whose result is the version after it, back from `text` for as long as the
    /// chain holds (a file replaced outside stitch has no earlier versions here).
    pub fn versions(&self, text: &str) -> Vec<String> {
        let mut expect = sha256_hex(text.as_bytes());
        let mut out = Vec::new();
        for e in self.entries() {
            let Some(f) = e.files.iter().find(|f| f.path == self.real) else {
                continue;
            };
            let (Some(after), Some(before)) = (&f.after, &f.before) else {
                break;
            };
            if *after != expect {
                break;
            }
            let kept = self.ctx.ws.kept_version(before, MAX_VERSION_BYTES);
            let Some(version) = kept
                .ok()
                .filter(|(b, _)| sha256_hex(b) == *before)
                .and_then(|(b, _)| String::from_utf8(b).ok())
            else {
                break;
            };
            out.push(version);
            expect.clone_from(before);
            if out.len() == MAX_VERSIONS {
                break;
            }
        }
        out
    }
}
