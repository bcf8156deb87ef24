//! SHA-256 digests as lowercase hex, the version stamps of files.

use std::sync::{Condvar, Mutex, PoisonError};

use sha2::Digest;

use sha2::Sha256 as Hasher;

/// The lowercase hex SHA-256 of `bytes`.
#[must_use]
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Hasher::digest(bytes))
}

/// A digest computed on one thread that leaves its state behind every [`STEP`] bytes, so
/// that the digest of other bytes with the same head (an edited file) resumes from there
/// on another thread instead of hashing the head again. SHA-256 is a chain over the
/// bytes in order, so a state after `n` bytes is exactly what hashing those `n` bytes
/// again would give.
#[derive(Debug, Default)]
pub struct Checkpoints {
    progress: Mutex<Progress>,
    moved: Condvar,
}

#[derive(Debug, Default)]
struct Progress {
    /// `states[k]`: the state after the first `k * STEP` bytes.
    states: Vec<Hasher>,
    /// The hashing has ended (or been abandoned): waiting for more is pointless.
    done: bool,
    /// Someone waits in [`Checkpoints::resume`], so a new state must wake them.
    waiting: bool,
}

/// The distance between two checkpoints: at most this much of a shared head is hashed
/// twice.
pub const STEP: usize = 256 * 1024;

impl Checkpoints {
    /// The lowercase hex SHA-256 of `bytes`, leaving a checkpoint every [`STEP`] bytes.
    pub fn sha256_hex(&self, bytes: &[u8]) -> String {
        /// Ends the wait of [`Checkpoints::resume`] however the hashing ends.
        struct Done<'a>(&'a Checkpoints);
        impl Drop for Done<'_> {
            fn drop(&mut self) {
                self.0.lock().done = true;
                self.0.moved.notify_all();
            }
        }
        let _done = Done(self);
        let mut hasher = Hasher::new();
        self.push(hasher.clone());
        for chunk in bytes.chunks(STEP) {
            hasher.update(chunk);
            self.push(hasher.clone());
        }
        hex(&hasher.finalize())
    }

    /// The latest checkpoint at or before `offset`: its offset and the state there,
    /// waiting for the hashing to reach it. `(0, fresh state)` if it never will.
    pub fn resume(&self, offset: usize) -> (usize, Hasher) {
        let index = offset / STEP;
        let mut progress = self.lock();
        while progress.states.len() <= index && !progress.done {
            progress.waiting = true;
            progress = self
                .moved
                .wait(progress)
                .unwrap_or_else(PoisonError::into_inner);
        }
        match progress.states.get(index) {
            Some(state) => (index * STEP, state.clone()),
            None => (0, Hasher::new()),
        }
    }

    fn push(&self, state: Hasher) {
        let mut progress = self.lock();
        progress.states.push(state);
        if std::mem::take(&mut progress.waiting) {
            self.moved.notify_all();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Progress> {
        self.progress.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Lowercase hex of a digest.
#[must_use]
pub fn hex(digest: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(digest.len() * 2);
    for byte in digest {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    out
}

/// A SHA-256 digest as a caller names a file's version (`expectedSha256`): 64 hex
/// digits, any case, held in lowercase as [`sha256_hex`] spells digests. It is checked
/// where a request is parsed, so a request that holds one holds a well-formed one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sha256(String);

/// The parse error of a malformed [`Sha256`], which the argument parsers turn into the
/// field's `INVALID_ARGUMENT` ("… must be 64 hex digits").
pub const MALFORMED: &str = "must be 64 hex digits";

impl Sha256 {
    /// `text` as a digest, when it is 64 hex digits (any case).
    #[must_use]
    pub fn parse(text: &str) -> Option<Sha256> {
        is_sha256_hex(text).then(|| Sha256(text.to_ascii_lowercase()))
    }

    /// The digest in lowercase hex.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<Sha256> for String {
    fn from(digest: Sha256) -> String {
        digest.0
    }
}

impl std::ops::Deref for Sha256 {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl<'de> serde::Deserialize<'de> for Sha256 {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Sha256::parse(&text).ok_or_else(|| serde::de::Error::custom(MALFORMED))
    }
}

impl schemars::JsonSchema for Sha256 {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        String::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        String::json_schema(generator)
    }
}

/// Whether `text` looks like a SHA-256 hex digest (64 hex digits, any case).
#[must_use]
pub fn is_sha256_hex(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::Sha256;

    #[test]
    fn a_named_digest_is_64_hex_digits_held_in_lowercase() {
        let upper = "AB".repeat(32);
        assert_eq!(Sha256::parse(&upper).unwrap().as_str(), "ab".repeat(32));
        assert_eq!(&*Sha256::parse(&"0f".repeat(32)).unwrap(), "0f".repeat(32));
        for malformed in ["", "ab", &"ab".repeat(33), &"g".repeat(64), &"é".repeat(32)] {
            assert_eq!(Sha256::parse(malformed), None, "{malformed}");
        }
    }

    #[test]
    fn a_malformed_digest_does_not_parse_from_json() {
        let parsed: Result<Sha256, _> = serde_json::from_value(serde_json::json!("abc"));
        assert!(parsed
            .unwrap_err()
            .to_string()
            .starts_with(super::MALFORMED));
        let parsed: Sha256 = serde_json::from_value(serde_json::json!("CD".repeat(32))).unwrap();
        assert_eq!(parsed.as_str(), "cd".repeat(32));
    }

    use sha2::Digest;

    #[test]
    fn a_resumed_digest_is_the_digest_of_the_whole() {
        let base: Vec<u8> = (0..super::STEP * 3 + 100)
            .map(|i| u8::try_from(i % 251).unwrap())
            .collect();
        let checkpoints = super::Checkpoints::default();
        assert_eq!(checkpoints.sha256_hex(&base), super::sha256_hex(&base));
        let mut edited = base.clone();
        let at = super::STEP * 2 + 17;
        edited.splice(at..at + 3, *b"edited");
        for offset in [0, 1, super::STEP, at, base.len()] {
            let (start, mut hasher) = checkpoints.resume(offset.min(at));
            assert!(start <= offset.min(at));
            hasher.update(&edited[start..]);
            assert_eq!(super::hex(&hasher.finalize()), super::sha256_hex(&edited));
        }
    }

    #[test]
    fn known_digest() {
        assert_eq!(
            super::sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
