//! The calls still running, by request ID: what `notifications/cancelled` reaches, and
//! what the server waits for (briefly) once stdin closes.
//!
//! At most [`MAX_CALLS`] run at once; the reader waits for a free slot before starting
//! another, so a flood of requests costs threads and memory up to that bound only.

use std::collections::HashMap;
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::lock::Cancel;

/// The most calls that run at once.
pub const MAX_CALLS: usize = 64;

/// The running calls.
#[derive(Debug, Default)]
pub struct InFlight {
    calls: Mutex<HashMap<String, Cancel>>,
    changed: Condvar,
}

/// A request ID as a key: `1` and `"1"` are different IDs.
fn key(id: &Value) -> String {
    id.to_string()
}

impl InFlight {
    /// Registers a call under `id` once a slot is free, and returns its cancel signal;
    /// `None` when a call with that ID is still running (IDs are unique among the
    /// requests in flight, so a cancellation names one call).
    pub fn start(&self, id: &Value) -> Option<Cancel> {
        let mut calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        if calls.contains_key(&key(id)) {
            return None;
        }
        while calls.len() >= MAX_CALLS {
            calls = self
                .changed
                .wait(calls)
                .unwrap_or_else(PoisonError::into_inner);
        }
        let cancel = Cancel::default();
        calls.insert(key(id), cancel.clone());
        Some(cancel)
    }

    /// Forgets a finished call.
    pub fn finish(&self, id: &Value) {
        let mut calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        calls.remove(&key(id));
        self.changed.notify_all();
    }

    /// Withdraws the call `id`, if it is still running.
    pub fn cancel(&self, id: &Value) {
        let calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(cancel) = calls.get(&key(id)) {
            cancel.cancel();
        }
    }

    /// Waits up to `limit` for every running call to finish; whether they did.
    pub fn drain(&self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        let mut calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        while !calls.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            calls = self
                .changed
                .wait_timeout(calls, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        true
    }
}
