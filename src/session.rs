//! The read-before-write ledger of a session, kept on disk because every call is a new
//! process.
//!
//! A session's ledger maps real workspace paths to what the session last saw there: a
//! version (`sha256`) or absence. It lives in `.stitch/sessions/<id>.json`, is updated
//! under its own lock (always taken after the file's lock, never before, so the two
//! cannot deadlock), replaced atomically, and bounded: at most [`MAX_ENTRIES`] paths a
//! session and [`MAX_SESSIONS`] sessions a workspace, the least recent dropped first. A
//! ledger that cannot be parsed is treated as empty, which fails closed: mutations are
//! `NOT_OBSERVED` until the session reads again.
//!
//! An entry also keeps the line digests of the version it names (§6, staleness by
//! region), within [`INLINE_LINES`] a version and [`INLINE_LINES_TOTAL`] a ledger: the
//! ledger's one write then keeps them too. Past those bounds they are kept under
//! `.stitch/lines/` ([`crate::region`]), the least recently seen moved there first.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::lock;
use crate::workspace::{self, Workspace};

/// The most paths one ledger remembers.
pub const MAX_ENTRIES: usize = 4096;
/// The most session ledgers a workspace keeps.
pub const MAX_SESSIONS: usize = 128;
/// The longest session ID.
pub const MAX_ID_BYTES: usize = 128;
/// The size bound of a ledger: [`MAX_ENTRIES`] paths of up to 4096 bytes each, with
/// their digests, and [`INLINE_LINES_TOTAL`] line digests fit; a larger file was not
/// written by stitch.
pub const MAX_LEDGER_BYTES: u64 = 24 << 20;

/// The most lines of one version whose digests its entry keeps itself.
pub const INLINE_LINES: usize = 4096;
/// The most line digests the entries of one ledger keep in all.
pub const INLINE_LINES_TOTAL: usize = 8192;

const DIR: &str = "sessions";
const SUFFIX: &str = ".json";

/// What a session last saw at a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    Present(String),
    Absent,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Ledger {
    /// When stitch last wrote this ledger, in milliseconds since the epoch, never later
    /// than the moment it was written: what ranks ledgers for pruning. First, so that
    /// the prune reads only the head of each ledger.
    #[serde(default)]
    written: u64,
    /// A counter that orders entries by recency, for eviction.
    clock: u64,
    entries: BTreeMap<String, LedgerEntry>,
}

#[derive(Debug, Serialize, Deserialize)]
struct LedgerEntry {
    /// The version seen, or `None` for absence.
    sha256: Option<String>,
    at: u64,
    /// Lines of that version (1-based, inclusive) the session has not seen in their
    /// current form: another program changed them before an edit by region (§6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    unseen: Vec<(usize, usize)>,
    /// The digest of each line of that version, as [`crate::region::to_text`] writes
    /// them; absent where they are kept elsewhere (`.stitch/lines/`, the journal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lines: Option<String>,
}

impl LedgerEntry {
    /// How many line digests the entry keeps itself.
    fn inline_lines(&self) -> usize {
        self.lines
            .as_ref()
            .map_or(0, |text| text.len() / crate::region::TEXT_PER_LINE)
    }
}

/// Lines of a version (1-based, inclusive runs) a session has not seen in their
/// current form.
pub type Unseen = Vec<(usize, usize)>;

/// What a session last saw at a path, with the lines it has not seen in their current
/// form and the line digests of that version where its entry keeps them, as
/// [`crate::region::to_text`] writes them (to be read with [`crate::region::from_text`],
/// which refuses a torn list).
pub type SeenLines = (Seen, Unseen, Option<String>);

/// A validated session ID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    id: String,
}

/// Why a ledger could not be updated.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("locking the ledger")]
    Lock(#[source] lock::Error),
    #[error("reading or writing the ledger")]
    Workspace(#[source] workspace::Error),
}

/// Whether `name` is one stitch gives a ledger: a valid session ID and `.json`.
fn is_ledger_name(name: &str) -> bool {
    name.strip_suffix(SUFFIX).and_then(Session::new).is_some()
}

impl Session {
    /// A session, if `id` is 1–128 characters of `[A-Za-z0-9._-]` and not `.` or `..`,
    /// so that no ID can name a path.
    #[must_use]
    pub fn new(id: &str) -> Option<Session> {
        let valid = !id.is_empty()
            && id.len() <= MAX_ID_BYTES
            && id != "."
            && id != ".."
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
        valid.then(|| Session { id: id.to_owned() })
    }

    /// The ID.
    #[must_use]
    pub fn id(&self) -> &str {
        &self.id
    }

    fn file(&self) -> String {
        format!("{}{SUFFIX}", self.id)
    }

    /// The ledger, and whether its file exists: one that cannot be parsed is empty.
    fn load(&self, ws: &Workspace) -> Result<(Ledger, bool), workspace::Error> {
        let bytes = ws.read_state(DIR, &self.file(), MAX_LEDGER_BYTES)?;
        let exists = bytes.is_some();
        let ledger = bytes
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        Ok((ledger, exists))
    }

    /// What this session last saw at `real`, if anything.
    pub fn seen(&self, ws: &Workspace, real: &str) -> Result<Option<Seen>, workspace::Error> {
        let (ledger, _) = self.load(ws)?;
        Ok(ledger.entries.get(real).map(|entry| match &entry.sha256 {
            Some(sha) => Seen::Present(sha.clone()),
            None => Seen::Absent,
        }))
    }

    /// What this session last saw at `real`, with the lines of that version it has not
    /// seen in their current form, and their digests where the entry keeps them. Like
    /// the rest of the ledger, they are trusted as far as the ledger is.
    pub fn seen_lines(
        &self,
        ws: &Workspace,
        real: &str,
    ) -> Result<Option<SeenLines>, workspace::Error> {
        let (mut ledger, _) = self.load(ws)?;
        Ok(ledger.entries.remove(real).map(|entry| {
            let seen = match entry.sha256 {
                Some(sha) => Seen::Present(sha),
                None => Seen::Absent,
            };
            (seen, entry.unseen, entry.lines)
        }))
    }

    /// Records that this session read `seen` at `real`, with that version's line digests
    /// (`lines`, asked for only when the ledger is written).
    ///
    /// A ledger that already holds `seen` for `real`, from a recent enough entry, is left
    /// as it is: re-reading an unchanged file (what an agent does most) then costs one
    /// read of the ledger, not a locked, fsynced rewrite. "Recent enough" is fewer than
    /// half of [`MAX_ENTRIES`] records ago, so such an entry is still far from eviction
    /// and the ledger keeps evicting the least recently seen paths first, give or take.
    pub fn record_read(
        &self,
        ws: &Workspace,
        real: &str,
        seen: Seen,
        lines: impl FnOnce() -> Option<Vec<u64>>,
        wait: &lock::Wait,
    ) -> Result<(), Error> {
        let sha256 = match &seen {
            Seen::Present(sha) => Some(sha),
            Seen::Absent => None,
        };
        if let Ok((ledger, true)) = self.load(ws) {
            let recent = |entry: &LedgerEntry| {
                ledger.clock.saturating_sub(entry.at) < (MAX_ENTRIES / 2) as u64
            };
            if ledger.entries.get(real).is_some_and(|entry| {
                entry.sha256.as_ref() == sha256 && entry.unseen.is_empty() && recent(entry)
            }) {
                return Ok(());
            }
        }
        let lines = match (lines(), sha256) {
            (Some(lines), Some(_)) if lines.len() <= INLINE_LINES => {
                Some(crate::region::to_text(&lines))
            }
            (Some(lines), Some(sha)) => {
                crate::region::keep_digests(ws, sha, &lines);
                None
            }
            _ => None,
        };
        self.write_entry(ws, real, (seen, Vec::new(), lines), wait)
    }

    /// Records what a mutation of this session left at `real`: the version it wrote (or
    /// absence), with the lines of it the session has not seen in their current form
    /// (`unseen`). A version just written is one no entry holds yet, so the ledger is
    /// rewritten without a look at it first.
    pub fn record_written(
        &self,
        ws: &Workspace,
        real: &str,
        (seen, unseen): (Seen, Unseen),
        wait: &lock::Wait,
    ) -> Result<(), Error> {
        self.write_entry(ws, real, (seen, unseen, None), wait)
    }

    /// Rewrites the ledger under its lock with the entry for `real`.
    fn write_entry(
        &self,
        ws: &Workspace,
        real: &str,
        (seen, unseen, lines): (Seen, Unseen, Option<String>),
        wait: &lock::Wait,
    ) -> Result<(), Error> {
        let sha256 = match seen {
            Seen::Present(sha) => Some(sha),
            Seen::Absent => None,
        };
        let _guard = lock::acquire_named(ws, &format!("session-{}.lock", self.id), wait)
            .map_err(Error::Lock)?;
        let (mut ledger, exists) = self.load(ws).map_err(Error::Workspace)?;
        ledger.clock += 1;
        ledger.entries.insert(
            real.to_owned(),
            LedgerEntry {
                sha256,
                at: ledger.clock,
                unseen,
                lines,
            },
        );
        if ledger.entries.len() > MAX_ENTRIES {
            let mut ages: Vec<u64> = ledger.entries.values().map(|e| e.at).collect();
            ages.sort_unstable();
            let cutoff = ages[ledger.entries.len() - MAX_ENTRIES];
            ledger.entries.retain(|_, e| e.at >= cutoff);
        }
        move_out_lines(ws, &mut ledger);
        ledger.written = now_millis();
        let bytes = serde_json::to_vec(&ledger).unwrap_or_default();
        ws.write_state(DIR, &self.file(), &bytes)
            .map_err(Error::Workspace)?;
        if !exists {
            ws.prune_state(DIR, is_ledger_name, MAX_SESSIONS, &self.file(), rank)
                .map_err(Error::Workspace)?;
        }
        Ok(())
    }
}

/// Holds the ledger's line digests within [`INLINE_LINES_TOTAL`]: the least recently
/// seen entries' digests go to `.stitch/lines/` (best effort) until the rest fit.
fn move_out_lines(ws: &Workspace, ledger: &mut Ledger) {
    let mut total: usize = ledger.entries.values().map(LedgerEntry::inline_lines).sum();
    if total <= INLINE_LINES_TOTAL {
        return;
    }
    let mut oldest: Vec<&mut LedgerEntry> = ledger
        .entries
        .values_mut()
        .filter(|entry| entry.lines.is_some())
        .collect();
    oldest.sort_unstable_by_key(|entry| entry.at);
    for entry in oldest {
        if total <= INLINE_LINES_TOTAL {
            break;
        }
        total -= entry.inline_lines();
        let text = entry.lines.take().unwrap_or_default();
        if let (Some(sha), Some(lines)) = (&entry.sha256, crate::region::from_text(&text)) {
            crate::region::keep_digests(ws, sha, &lines);
        }
    }
}

/// Milliseconds since the epoch, now.
fn now_millis() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// A ledger's rank for pruning, from its head: the `written` time stitch put first; 0
/// (the first to go) for a head without one, or for one dated after now, which stitch
/// did not date and which must not outrank the ledgers of the sessions at work.
fn rank(head: &[u8]) -> u64 {
    let Some(rest) = head.strip_prefix(br#"{"written":"#) else {
        return 0;
    };
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    std::str::from_utf8(&rest[..digits])
        .ok()
        .and_then(|d| d.parse::<u64>().ok())
        .filter(|&written| written <= now_millis())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::Session;

    #[test]
    fn ids_cannot_name_paths() {
        assert!(Session::new("agent-7.run_2").is_some());
        assert!(Session::new(&"a".repeat(128)).is_some());
        for bad in ["", ".", "..", "a/b", "../x", "a b", "é", &"a".repeat(129)] {
            assert!(Session::new(bad).is_none(), "{bad:?}");
        }
    }
}
