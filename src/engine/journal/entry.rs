//! One journal entry: what it records, and its file — an HMAC-SHA256 tag line, then the
//! entry as JSON. The tag is over the workspace's canonical root and the JSON bytes, under
//! the user's key, so an entry planted by a clone or an archive, copied from another
//! workspace, or damaged does not verify, and is never undone.

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

pub use crate::text::diff::Stat;

/// The most bytes an entry file may hold; a larger one was not written by stitch.
pub const MAX_ENTRY_BYTES: u64 = 1 << 20;

/// What a change did, as the journal keeps it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Entry {
    /// Increasing, sortable as text: nanoseconds since the epoch, 20 digits.
    pub id: String,
    /// RFC 3339, UTC.
    pub time: String,
    /// The tool's wire name.
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The entry this one takes back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undoes: Option<String>,
    /// Every file the change touched, in the order it touched them.
    pub files: Vec<FileRecord>,
    /// For an edit: the digests of each oldText and newText applied, so that a repeated
    /// edit can be recognised as applied (`okIfApplied`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edits: Vec<[String; 2]>,
    /// The lines each file of `files` gained and lost, in the same order (`None` for a
    /// file that is not text), counted when the change was made: what `history --stat`
    /// shows long after the versions are gone. Empty when the change did not count them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stat: Vec<Option<Stat>>,
    /// Each new version of the change is kept under `pending/` beside the entry (as
    /// [`new_version_name`] names it) until it is published, so that a change past its
    /// commit point — this entry durable — is finished by the next call if its process
    /// dies (§12).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub roll_forward: bool,
    /// Written only so that a change of several files can be finished after a crash
    /// while the journal is off or without a key (§11): authenticated under a key
    /// derived from its own file's identity ([`record_key`]), never listed or undone,
    /// and removed, not committed, once its change is published.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub record_only: bool,
}

/// One file of a change: `path` (the real workspace-relative path) went from `before` to
/// `after` (sha256, `None` for absent); for a move, the content came from `from`, which
/// is absent after — and when the move also changed the content (a patch that renames and
/// edits a file), `fromBefore` is the version `from` had, kept like `before`. Such a move
/// is only recorded onto a path that was absent (`before` is `None`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FileRecord {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    pub before: Option<String>,
    pub after: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_before: Option<String>,
    /// The size of the version kept for `before` (0 when nothing was kept).
    pub bytes: u64,
    /// The permission bits of the version kept for `before`, which an undo restores
    /// (not the kept file's own, which anyone who can write the journal could set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<u32>,
    /// The target of the symbolic link this record creates, removes or moves (a link is
    /// taken as itself, as rm, mv and git take it): its version, in `before` or `after`,
    /// is [`link_version`] of this target, and nothing is kept for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// The change was finished by a later call after its process died, and this file
    /// had been changed by someone else in between (it was at neither `before` nor
    /// `after`), so it was left as it was.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unfinished: bool,
}

impl FileRecord {
    /// The record of a file at the real path `path` changed in place (not moved) from
    /// `before` to `after`.
    #[must_use]
    pub fn write(path: &str, before: Option<String>, after: Option<String>) -> FileRecord {
        FileRecord {
            path: path.to_owned(),
            from: None,
            before,
            after,
            from_before: None,
            bytes: 0,
            unfinished: false,
            mode: None,
            link: None,
        }
    }

    /// The versions this record names as kept: `before`, and `fromBefore` for a move that
    /// also changed the content.
    pub fn kept_versions(&self) -> impl Iterator<Item = &String> {
        self.before.iter().chain(self.from_before.iter())
    }

    /// The version each path this record touches had after it.
    #[must_use]
    pub fn states_after(&self) -> Vec<(&str, Option<&str>)> {
        let mut states = vec![(self.path.as_str(), self.after.as_deref())];
        if let Some(from) = &self.from {
            states.push((from.as_str(), None));
        }
        states
    }
}

/// The version of a symbolic link to `target`, as the journal names it beside files'
/// digests: a digest no file's content is known to have.
#[must_use]
pub fn link_version(target: &str) -> String {
    let mut bytes = b"stitch symlink\0".to_vec();
    bytes.extend_from_slice(target.as_bytes());
    crate::digest::sha256_hex(&bytes)
}

type Tag = Hmac<Sha256>;

fn tag(key: &[u8], root: &[u8], body: &[u8]) -> Tag {
    let mut mac = Tag::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(b"stitch journal 1\0");
    mac.update(root);
    mac.update(b"\0");
    mac.update(body);
    mac
}

/// The key a record-only entry ([`Entry::record_only`]) is authenticated under: derived
/// from the identity of its own file, which no one can know before that file is made,
/// and from the user's journal key where there is one (`home`, with the journal merely
/// off) — so a record planted by a clone or an archive, or copied, does not verify, even
/// where a copy lands on the inode the record had; without a key, any process that
/// finds the record where it was written can check it.
#[must_use]
pub fn record_key(
    identity: crate::workspace::journal_files::FileIdentity,
    home: Option<&[u8]>,
) -> [u8; 32] {
    use sha2::Digest;
    let mut hash = Sha256::new();
    hash.update(b"stitch record 2\0");
    if let Some(home) = home {
        hash.update(Sha256::digest(home));
    }
    hash.update(identity.to_bytes());
    hash.finalize().into()
}

/// The file of `entry`: the tag's hex digits, a newline, the entry's JSON.
#[must_use]
pub fn encode(entry: &Entry, key: &[u8], root: &[u8]) -> Vec<u8> {
    let body = serde_json::to_vec(entry).unwrap_or_default();
    let mac = tag(key, root, &body).finalize().into_bytes();
    let mut bytes = crate::digest::hex(&mac).into_bytes();
    bytes.push(b'\n');
    bytes.extend_from_slice(&body);
    bytes
}

/// The entry in `bytes`, if its tag verifies under `key` and it is named `name`'s id.
#[must_use]
pub fn decode(bytes: &[u8], key: &[u8], root: &[u8], id: &str) -> Option<Entry> {
    let newline = memchr::memchr(b'\n', bytes)?;
    let (hex, body) = (&bytes[..newline], &bytes[newline + 1..]);
    let expected = unhex(hex)?;
    tag(key, root, body).verify_slice(&expected).ok()?;
    let entry: Entry = serde_json::from_slice(body).ok()?;
    (entry.id == id).then_some(entry)
}

/// What an entry file holds, told apart by parsing: one of ours (it verifies), one another
/// key wrote (a well-formed entry named for its id, whose tag is not ours — a person on
/// the host and an agent in a container may share a checkout), or neither (torn by a
/// process killed while writing it, damaged, or not an entry at all).
#[derive(Debug)]
pub enum Found {
    Ours(Entry),
    Foreign(Entry),
    Torn,
}

/// Tells what `bytes`, the file of the entry `id`, holds ([`Found`]). An entry another
/// key wrote — or a later stitch, with fields this one does not know — is any JSON object
/// under a tag line naming this id; what it keeps is read from it where it can be.
#[must_use]
pub fn classify(bytes: &[u8], key: &[u8], root: &[u8], id: &str) -> Found {
    if let Some(entry) = decode(bytes, key, root, id) {
        return Found::Ours(entry);
    }
    let Some(body) = memchr::memchr(b'\n', bytes)
        .filter(|&newline| unhex(&bytes[..newline]).is_some())
        .map(|newline| &bytes[newline + 1..])
    else {
        return Found::Torn;
    };
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) else {
        return Found::Torn;
    };
    if value.get("id").and_then(serde_json::Value::as_str) != Some(id) {
        return Found::Torn;
    }
    // The versions it names, as far as they can be told.
    let files = value
        .get("files")
        .and_then(serde_json::Value::as_array)
        .map(|files| {
            files
                .iter()
                .map(|f| {
                    let text = |name: &str| {
                        f.get(name)
                            .and_then(serde_json::Value::as_str)
                            .map(str::to_owned)
                    };
                    FileRecord {
                        from_before: text("fromBefore"),
                        ..FileRecord::write(
                            &text("path").unwrap_or_default(),
                            text("before"),
                            text("after"),
                        )
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    Found::Foreign(Entry {
        id: id.to_owned(),
        time: String::new(),
        tool: String::new(),
        session: None,
        undoes: None,
        files,
        edits: Vec::new(),
        roll_forward: false,
        record_only: false,
        stat: Vec::new(),
    })
}

fn unhex(hex: &[u8]) -> Option<Vec<u8>> {
    if hex.len() != 64 {
        return None;
    }
    hex.chunks(2)
        .map(|pair| {
            let text = std::str::from_utf8(pair).ok()?;
            u8::from_str_radix(text, 16).ok()
        })
        .collect()
}

/// The file name of an entry: its id, the bytes of content it keeps (so that the bounds
/// can be checked from a directory listing) and the id of the key it is authenticated
/// under ([`key_id`]; [`RECORD_KEY`] for a record-only entry), so that another key's
/// entries are told from the listing, without reading them.
#[must_use]
pub fn file_name(id: &str, kept: u64, key: &str) -> String {
    format!("{id}-{kept}-{key}.entry")
}

/// The key id in the name of a record-only entry ([`Entry::record_only`]).
pub const RECORD_KEY: &str = "record";

/// The id of `key`, as entry names carry it: 16 hex digits of an HMAC under it, which
/// tell nothing of the key.
#[must_use]
pub fn key_id(key: &[u8]) -> String {
    let mut mac = Tag::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(b"stitch key id 1");
    let digest = mac.finalize().into_bytes();
    crate::digest::hex(&digest[..8])
}

/// The name under `pending/` of the new version of the `index`th file of the entry `id`.
#[must_use]
pub fn new_version_name(id: &str, index: usize) -> String {
    format!("{id}-{index}.new")
}

/// The entry id a name of [`new_version_name`]'s pattern holds.
#[must_use]
pub fn parse_new_version_name(name: &str) -> Option<&str> {
    let (id, index) = name.strip_suffix(".new")?.split_once('-')?;
    let valid = id.len() == 20
        && id.bytes().all(|b| b.is_ascii_digit())
        && !index.is_empty()
        && index.bytes().all(|b| b.is_ascii_digit());
    valid.then_some(id)
}

/// The id and kept bytes a file name of [`file_name`]'s pattern holds (or of the
/// pattern before key ids, `{id}-{kept}.entry`).
#[must_use]
pub fn parse_name(name: &str) -> Option<(&str, u64)> {
    parts(name).map(|(id, kept, _)| (id, kept))
}

/// The key id a file name of [`file_name`]'s pattern holds; `None` for a name of the
/// pattern before key ids, or not an entry's.
#[must_use]
pub fn key_of(name: &str) -> Option<&str> {
    parts(name).and_then(|(_, _, key)| key)
}

fn parts(name: &str) -> Option<(&str, u64, Option<&str>)> {
    let mut parts = name.strip_suffix(".entry")?.splitn(3, '-');
    let id = parts.next()?;
    let kept = parts.next()?.parse().ok()?;
    let key = parts.next();
    let valid = id.len() == 20
        && id.bytes().all(|b| b.is_ascii_digit())
        && key.is_none_or(|k| {
            !k.is_empty() && k.len() <= 32 && k.bytes().all(|b| b.is_ascii_alphanumeric())
        });
    valid.then_some((id, kept, key))
}

#[cfg(test)]
mod tests {
    use super::{decode, encode, parse_name, Entry, FileRecord};

    fn entry() -> Entry {
        Entry {
            id: "00000000000000000001".into(),
            time: "2026-01-01T00:00:00Z".into(),
            tool: crate::names::EDIT_FILE.into(),
            session: None,
            undoes: None,
            files: vec![FileRecord {
                path: "a".into(),
                from: None,
                before: Some("x".into()),
                after: Some("y".into()),
                from_before: None,
                bytes: 1,
                unfinished: false,
                mode: None,
                link: None,
            }],
            edits: Vec::new(),
            stat: Vec::new(),
            roll_forward: false,
            record_only: false,
        }
    }

    #[test]
    fn only_the_same_key_and_root_verify() {
        let bytes = encode(&entry(), b"key", b"/root");
        let id = "00000000000000000001";
        assert!(decode(&bytes, b"key", b"/root", id).is_some());
        assert!(decode(&bytes, b"other", b"/root", id).is_none());
        assert!(decode(&bytes, b"key", b"/elsewhere", id).is_none());
        assert!(decode(&bytes, b"key", b"/root", "00000000000000000002").is_none());
        let mut damaged = bytes.clone();
        *damaged.last_mut().unwrap() ^= 1;
        assert!(decode(&damaged, b"key", b"/root", id).is_none());
    }

    #[test]
    fn another_keys_entry_is_foreign_and_a_cut_one_torn() {
        use super::{classify, Found};
        let id = "00000000000000000001";
        let bytes = encode(&entry(), b"other", b"/root");
        assert!(matches!(
            classify(&bytes, b"key", b"/root", id),
            Found::Foreign(_)
        ));
        assert!(matches!(
            classify(&bytes, b"other", b"/root", id),
            Found::Ours(_)
        ));
        let cut = &bytes[..bytes.len() - 3];
        assert!(matches!(classify(cut, b"key", b"/root", id), Found::Torn));
        assert!(matches!(
            classify(b"junk", b"key", b"/root", id),
            Found::Torn
        ));
        // A later stitch's entry, with a field this one does not know: foreign, and what
        // it keeps still told, never torn.
        let later = format!(
            "{}\n{{\"id\":\"{id}\",\"files\":[{{\"path\":\"a\",\"before\":\"x\",\"after\":null,\"new\":1}}],\"newField\":true}}",
            "0".repeat(64)
        );
        match classify(later.as_bytes(), b"key", b"/root", id) {
            Found::Foreign(entry) => assert_eq!(entry.files[0].before.as_deref(), Some("x")),
            other => panic!("{other:?}"),
        }
        let other_id = "00000000000000000002";
        assert!(matches!(
            classify(&bytes, b"key", b"/root", other_id),
            Found::Torn
        ));
    }

    #[test]
    fn names_carry_the_id_and_the_kept_bytes() {
        let name = super::file_name("00000000000000000001", 42, "0123abcd");
        assert_eq!(parse_name(&name), Some(("00000000000000000001", 42)));
        assert_eq!(super::key_of(&name), Some("0123abcd"));
        let before_key_ids = "00000000000000000001-42.entry";
        assert_eq!(
            parse_name(before_key_ids),
            Some(("00000000000000000001", 42))
        );
        assert_eq!(super::key_of(before_key_ids), None);
        assert_eq!(parse_name("00000000000000000001-42-a/b.entry"), None);
        assert_ne!(super::key_id(b"one"), super::key_id(b"two"));
        assert_eq!(super::key_id(b"one").len(), 16);
        assert_eq!(parse_name("1-2.entry"), None);
        assert_eq!(parse_name("00000000000000000001-x.entry"), None);
    }
}
