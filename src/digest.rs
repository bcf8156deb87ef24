//! SHA-256 digests as lowercase hex, the version stamps of files.

use std::sync::{Condvar, Mutex, PoisonError};

use sha2::{Digest, Sha256};

/// The lowercase hex SHA-256 of `bytes`.
#[must_use]
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
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
    states: Vec<Sha256>,
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
        let mut hasher = Sha256::new();
        self.push(hasher.clone());
        for chunk in bytes.chunks(STEP) {
            hasher.update(chunk);
            self.push(hasher.clone());
        }
        hex(&hasher.finalize())
    }

    /// The latest checkpoint at or before `offset`: its offset and the state there,
    /// waiting for the hashing to reach it. `(0, fresh state)` if it never will.
    pub fn resume(&self, offset: usize) -> (usize, Sha256) {
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
            None => (0, Sha256::new()),
        }
    }

    fn push(&self, state: Sha256) {
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

/// Whether `text` looks like a SHA-256 hex digest (64 hex digits, any case).
#[must_use]
pub fn is_sha256_hex(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
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
