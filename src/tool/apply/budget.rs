//! The wall-clock budget of an apply under its locks: from the moment its files are
//! locked, building the change may take at most [`BUDGET`]; past it the apply stops,
//! changes nothing and is `BUSY` (retryable, with the reason), so no patch holds the
//! locks every other call waits on for longer than that. A debug build takes another
//! budget from `STITCH_TEST_APPLY_BUDGET_MS`, for the test that spends it; release builds
//! have no such code.

use std::time::{Duration, Instant};

use crate::refusal::{key, Code, Refusal};

/// How long an apply may work under its locks before it gives up: well past what the
/// largest patch needs (25,000 hunks on a 3 MB file take a fraction of a second), and
/// well within the 30 s another call waits for a lock by default.
pub const BUDGET: Duration = Duration::from_secs(10);

/// The time an apply has left.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub deadline: Instant,
    limit: Duration,
}

impl Budget {
    /// The budget of an apply whose locks were just taken.
    #[must_use]
    pub fn start() -> Budget {
        let limit = limit();
        Budget {
            deadline: Instant::now() + limit,
            limit,
        }
    }

    /// `BUSY` once the deadline has passed.
    pub fn check(&self) -> Result<(), Refusal> {
        if Instant::now() >= self.deadline {
            return Err(self.spent());
        }
        Ok(())
    }

    /// The refusal of an apply that ran out of time.
    #[cold]
    #[must_use]
    pub fn spent(&self) -> Refusal {
        Refusal::new(
            Code::Busy,
            format!(
                "The apply took longer than the {} s it may hold its files' locks, so it stopped and changed nothing",
                self.limit.as_secs_f64()
            ),
        )
        .with(key::REASON, key::OUT_OF_TIME)
        .with("budgetSeconds", self.limit.as_secs_f64())
        .with("retryable", true)
    }
}

/// The budget: [`BUDGET`], or in a debug build the test's.
#[cfg(debug_assertions)]
fn limit() -> Duration {
    std::env::var("STITCH_TEST_APPLY_BUDGET_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(BUDGET, Duration::from_millis)
}

/// The budget: [`BUDGET`].
#[cfg(not(debug_assertions))]
fn limit() -> Duration {
    BUDGET
}
