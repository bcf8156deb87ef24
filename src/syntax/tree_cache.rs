//! The trees `stitch mcp` keeps between calls: each recent version's tree, found again by
//! its exact text, so that the next change to that version is parsed incrementally from
//! it (tree-sitter's edit API) instead of in full. Memory only, and off unless the server
//! turns it on; a version is matched by comparing its whole text, never by a name or a
//! digest, so a stale or mistaken tree can never be used for other text.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use tree_sitter::Tree;

use super::Language;

/// The most versions kept.
const MOST: usize = 16;
/// The most bytes of text kept, all versions together (their trees take several times
/// as much).
const MOST_BYTES: usize = 8 << 20;

static ON: AtomicBool = AtomicBool::new(false);
static KEPT: OnceLock<Mutex<VecDeque<KeptTree>>> = OnceLock::new();

/// One version of a file and its tree.
struct KeptTree {
    language: Language,
    text: Vec<u8>,
    tree: Tree,
}

/// Keeps trees from now on, for this process's life (`stitch mcp`).
pub fn keep_trees() {
    ON.store(true, Ordering::Relaxed);
}

fn kept() -> Option<&'static Mutex<VecDeque<KeptTree>>> {
    ON.load(Ordering::Relaxed)
        .then(|| KEPT.get_or_init(|| Mutex::new(VecDeque::new())))
}

/// The kept tree of exactly `text` in `language`, if any.
pub(super) fn find(language: Language, text: &[u8]) -> Option<Tree> {
    let kept = kept()?.lock().ok()?;
    kept.iter()
        .find(|v| v.language == language && v.text == text)
        .map(|v| v.tree.clone())
}

/// Keeps `tree`, the tree of `text` in `language`, as the newest; the oldest go past the
/// bounds.
pub(super) fn keep(language: Language, text: &[u8], tree: &Tree) {
    let Some(mut kept) = kept().and_then(|k| k.lock().ok()) else {
        return;
    };
    if text.len() > MOST_BYTES {
        return;
    }
    kept.retain(|v| !(v.language == language && v.text == text));
    kept.push_front(KeptTree {
        language,
        text: text.to_vec(),
        tree: tree.clone(),
    });
    let mut bytes = 0;
    let within = kept
        .iter()
        .take_while(|v| {
            bytes += v.text.len();
            bytes <= MOST_BYTES
        })
        .count()
        .min(MOST);
    kept.truncate(within);
}
