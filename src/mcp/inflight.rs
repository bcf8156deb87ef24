//! The calls still running, by request ID: what `notifications/cancelled` reaches, and
//! what the server waits for once stdin closes.
//!
//! At most [`MAX_CALLS`] run at once; a call past that is refused at once as `BUSY`, so a
//! flood of requests costs threads and memory up to that bound only, and the reader never
//! stops reading (a cancellation or a `ping` behind the flood is still heard).

use std::collections::HashMap;
use std::sync::{Condvar, Mutex, PoisonError};

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

/// Why a call did not start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unstarted {
    /// A call with the same ID is still running (IDs are unique among the requests in
    /// flight, so a cancellation names one call).
    Duplicate,
    /// [`MAX_CALLS`] calls are running.
    Full,
}

/// A request ID as a key: `1` and `"1"` are different IDs.
fn key(id: &Value) -> String {
    id.to_string()
}

impl InFlight {
    /// Registers a call under `id` and returns its cancel signal, or why it cannot start.
    pub fn start(&self, id: &Value) -> Result<Cancel, Unstarted> {
        let mut calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        if calls.contains_key(&key(id)) {
            return Err(Unstarted::Duplicate);
        }
        if calls.len() >= MAX_CALLS {
            return Err(Unstarted::Full);
        }
        let cancel = Cancel::default();
        calls.insert(key(id), cancel.clone());
        Ok(cancel)
    }

    /// Withdraws every running call: once stdin has closed nobody waits for an answer, so
    /// a call still waiting for a lock stops at once.
    pub fn cancel_all(&self) {
        let calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        for cancel in calls.values() {
            cancel.cancel();
        }
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

    /// Waits for every running call to finish. Each is bounded on its own: a lock wait is
    /// cancelled, an authorize hook is killed at its timeout (and its process group with
    /// it), so the server never exits leaving a hook behind.
    pub fn drain(&self) {
        let mut calls = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        while !calls.is_empty() {
            calls = self
                .changed
                .wait(calls)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}
