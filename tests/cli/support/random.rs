//! xorshift64: the random delays of the crash tests need no crate.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A seeded xorshift64 generator; `.0` is its seed until first used.
pub struct XorShift(pub u64);

impl XorShift {
    /// Seeded from the clock (printed by the tests, so a failure can be told apart).
    pub fn seeded() -> Self {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        // Truncation is fine: any non-zero 64 bits make a seed.
        #[allow(clippy::cast_possible_truncation)]
        XorShift((nanos as u64) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A duration from zero to `max`.
    pub fn upto(&mut self, max: Duration) -> Duration {
        let micros = u64::try_from(max.as_micros()).unwrap_or(u64::MAX).max(1);
        Duration::from_micros(self.next() % micros)
    }
}
