//! The draft of a change as apply builds it in memory: the files as it found them, what
//! each path holds as the changes go, and each change's step — what the summary, the
//! journal's records and the publish are made from.

use std::collections::{BTreeMap, BTreeSet};

use crate::patch;
use crate::workspace::OpenFile;

use super::super::textfile::NotText;
use super::HunkPlaced;

/// A file as the change finds it on disk: its text, or — a file that is not text — only
/// its digest, which is all a delete needs.
pub struct Original {
    pub file: OpenFile,
    pub body: Body,
    pub sha256: String,
}

/// What an original file holds.
pub enum Body {
    Text(String),
    Opaque(NotText),
}

impl Original {
    #[must_use]
    pub fn text(&self) -> Option<&str> {
        match &self.body {
            Body::Text(text) => Some(text),
            Body::Opaque(_) => None,
        }
    }

    /// The bytes in memory, when they are (a file that is not text is kept from disk).
    #[must_use]
    pub fn bytes(&self) -> Option<&[u8]> {
        self.text().map(str::as_bytes)
    }
}

/// What a path holds as the changes go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Held {
    Absent,
    Text(String),
    /// The original file, not text, untouched.
    Opaque,
}

/// A path's content as the changes go, the original file it descends from by moves
/// (`origin`), so that a file moved and edited is recorded as one move, and the
/// executable bit a change gave it, when one did.
#[derive(Debug, Clone)]
pub struct Slot {
    pub held: Held,
    pub origin: Option<String>,
    pub executable: Option<bool>,
}

/// The permission bits the file published at `real` starts from: those of the file it
/// replaces there, else those of the original it was moved from; `None` for a new file.
#[must_use]
pub fn base_mode(real: &str, slot: &Slot, originals: &BTreeMap<String, Original>) -> Option<u32> {
    originals
        .get(real)
        .or_else(|| slot.origin.as_ref().and_then(|o| originals.get(o)))
        .map(|o| o.file.mode)
}

/// Every path the change names (real), and what it holds.
pub type Tree = BTreeMap<String, Slot>;

/// The tree the changes leave, and what each change did (its [`Effect`]s, in order).
pub struct Built {
    pub tree: Tree,
    pub effects: Vec<Effect>,
    /// The files (real paths) a change named an `expectedSha256` for: a promise about the
    /// whole file, so the session's whole-file rule holds for them.
    pub guarded: BTreeSet<String>,
}

/// What one part of the apply did, as built (its effect on the tree; an undo's `Step`
/// is another thing): its operation, its path (real), its source (real, for a move),
/// where its hunks landed, and its file's content before (at its source) and after.
pub struct Effect {
    pub operation: &'static str,
    pub real: String,
    pub from: Option<String>,
    pub landed: Landed,
    pub base_sha256: Option<String>,
    pub before: Option<String>,
    pub after: Option<String>,
    /// The executable bit the change gave the file, when it changed it.
    pub executable: Option<bool>,
}

/// Where an update's hunks landed: each hunk's line, for the result, and the lines it
/// replaced in the text before and after (`None` for a change that is not a patch's
/// update), so that its diff is made from them alone.
#[derive(Debug, Default)]
pub struct Landed {
    pub placed: Vec<HunkPlaced>,
    pub spans: Option<patch::Spans>,
    /// The lines the change replaced, as hunks' spans, for staleness by region (§6): an
    /// update's hunks, or an edit item's replaced lines; `None` where the whole-file rule
    /// holds.
    pub region: Option<patch::Spans>,
}
