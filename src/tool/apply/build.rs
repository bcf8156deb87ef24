//! Building an apply's new contents in memory: each change, whatever form it came in
//! (a patch's file change, a `changes` item, a Responses API operation), against the tree
//! as the earlier changes left it — so a move and then an edit of the new path is one
//! change of one file. Nothing here writes: a refusal names the change (`changeIndex`).

use std::collections::{BTreeMap, BTreeSet};

use crate::digest::sha256_hex;
use crate::patch::{self, HunkFailure};
use crate::refusal::{key, Code, Refusal};
use crate::workspace::Location;

use super::super::edit;
use super::super::{args::invalid, refuse, Context};
use super::budget::Budget;
use super::mode::executable_mode;
use super::op::{Action, Added, Part};
use super::refusals::{already_exists, hunk_refusal, not_whole};
use super::HunkPlaced;
use crate::engine::{session_check, stale};

pub use super::draft::{base_mode, Body, Built, Effect, Held, Landed, Original, Slot, Tree};

/// The change being built.
struct State<'a> {
    ctx: &'a Context,
    budget: &'a Budget,
    located: &'a BTreeMap<&'a str, &'a Location>,
    originals: &'a BTreeMap<String, Original>,
    tree: Tree,
    effects: Vec<Effect>,
    guarded: BTreeSet<String>,
}

/// Builds every new content in memory, each change against the tree the earlier ones left.
pub fn build(
    ctx: &Context,
    changes: &[Part],
    located: &BTreeMap<&str, &Location>,
    originals: &BTreeMap<String, Original>,
    budget: &Budget,
) -> Result<Built, Refusal> {
    let mut tree: Tree = BTreeMap::new();
    for location in located.values() {
        let held = match originals.get(&location.real).map(|o| &o.body) {
            Some(Body::Text(text)) => Held::Text(text.clone()),
            Some(Body::Opaque(_)) => Held::Opaque,
            None => Held::Absent,
        };
        let origin = (held != Held::Absent).then(|| location.real.clone());
        tree.insert(
            location.real.clone(),
            Slot {
                held,
                origin,
                executable: None,
            },
        );
    }
    let mut state = State {
        ctx,
        budget,
        located,
        originals,
        tree,
        effects: Vec::new(),
        guarded: BTreeSet::new(),
    };
    for (index, change) in changes.iter().enumerate() {
        budget.check()?;
        // Running out of time is the whole apply's, not one change's.
        state.apply(change).map_err(|r| {
            if r.detail(key::REASON).and_then(serde_json::Value::as_str) == Some(key::OUT_OF_TIME) {
                r
            } else {
                r.with(key::CHANGE_INDEX, index)
            }
        })?;
    }
    Ok(Built {
        tree: state.tree,
        effects: state.effects,
        guarded: state.guarded,
    })
}

impl State<'_> {
    fn location(&self, raw: &str) -> &Location {
        self.located[raw]
    }

    /// The text at `real` now: `None` when absent; `NOT_TEXT` for a file that is not.
    fn text(&self, real: &str, shown: &str) -> Result<Option<String>, Refusal> {
        match &self.tree[real].held {
            Held::Absent => Ok(None),
            Held::Text(text) => Ok(Some(text.clone())),
            Held::Opaque => Err(self.not_text(real, shown)),
        }
    }

    fn not_text(&self, real: &str, shown: &str) -> Refusal {
        match self.originals.get(real).map(|o| &o.body) {
            Some(Body::Opaque(not_text)) => not_text.refusal(shown),
            _ => Refusal::new(Code::NotText, format!("`{shown}` is not text")),
        }
    }

    /// The digest of what `real` holds now.
    fn sha256(&self, real: &str) -> Option<String> {
        match &self.tree[real].held {
            Held::Absent => None,
            Held::Text(text) => Some(self.digest(real, text)),
            Held::Opaque => self.originals.get(real).map(|o| o.sha256.clone()),
        }
    }

    /// The digest of `text`, which `real` holds: its original's when it is still that
    /// text (compared, not hashed again).
    fn digest(&self, real: &str, text: &str) -> String {
        match self.originals.get(real) {
            Some(Original {
                body: Body::Text(original),
                sha256,
                ..
            }) if original == text => sha256.clone(),
            _ => sha256_hex(text.as_bytes()),
        }
    }

    /// `STALE_VERSION` unless `real` is at the `expected` version now.
    fn expect(&self, expected: Option<&str>, real: &str, shown: &str) -> Result<(), Refusal> {
        let Some(expected) = expected else {
            return Ok(());
        };
        let actual = self.sha256(real);
        if actual
            .as_deref()
            .is_some_and(|a| a.eq_ignore_ascii_case(expected))
        {
            return Ok(());
        }
        Err(stale(shown, expected, actual.as_deref()))
    }

    /// Whether `real` is still the original the session observed.
    fn observed_original(&self, real: &str) -> bool {
        let slot = &self.tree[real];
        self.originals.get(real).is_some_and(|o| {
            slot.origin.as_deref() == Some(real)
                && slot.held != Held::Absent
                && self.sha256(real).as_deref() == Some(o.sha256.as_str())
                && session_check::observed(self.ctx, real, &o.sha256)
        })
    }

    fn put(&mut self, real: &str, held: Held, origin: Option<String>, executable: Option<bool>) {
        self.tree.insert(
            real.to_owned(),
            Slot {
                held,
                origin,
                executable,
            },
        );
    }

    /// The executable bit `real` changes to when a change sets it to `executable`: `None`
    /// when it says nothing, or what the file has already.
    fn mode_change(&self, real: &str, executable: Option<bool>) -> Option<bool> {
        let slot = &self.tree[real];
        let now = slot
            .executable
            .unwrap_or_else(|| base_mode(real, slot, self.originals).is_some_and(executable_mode));
        executable.filter(|&x| x != now)
    }

    fn apply(&mut self, change: &Part) -> Result<(), Refusal> {
        let expected = change.expected_sha256.as_deref();
        if expected.is_some() {
            for path in change.paths() {
                let real = self.location(path).real.clone();
                self.guarded.insert(real);
            }
        }
        match &change.op {
            Action::Write {
                path,
                content,
                added,
                executable,
            } => self.write(path, content, *added, *executable, expected),
            Action::Delete { path, whole } => self.delete(path, whole.as_ref(), expected),
            Action::Update {
                path,
                move_to,
                hunks,
                executable,
            } => self.update(path, move_to.as_deref(), hunks, *executable, expected),
            Action::Edit { path, items, form } => {
                let location = self.location(path);
                let (real, shown) = (location.real.clone(), location.shown.clone());
                let Some(text) = self.text(&real, &shown)? else {
                    return Err(refuse::not_found(self.ctx, &shown).with(key::OPERATION, "edit"));
                };
                self.expect(expected, &real, &shown)?;
                let edited = edit::edited::apply(&shown, &text, items, *form, None)?;
                let new = String::from_utf8(edited.parts().concat())
                    .expect("an edit of text with text is text");
                let landed = Landed {
                    region: Some(vec![edit::stale_read::edit_span(&edited)]),
                    ..Landed::default()
                };
                self.edited(&real, text, new, landed, None);
                Ok(())
            }
            Action::Move {
                from,
                to,
                overwrite,
            } => {
                self.not_a_link(from, "move")?;
                let location = self.location(from);
                let (real, shown) = (location.real.clone(), location.shown.clone());
                if self.tree[&real].held == Held::Absent {
                    return Err(refuse::not_found(self.ctx, &shown).with(key::OPERATION, "move"));
                }
                if self.location(to).real == real {
                    return Err(invalid(
                        "to",
                        format!(
                            "`{}` is where `{shown}` already is",
                            self.location(to).shown
                        ),
                    ));
                }
                // A file that is not text is moved by move_file, not by a patch.
                self.text(&real, &shown)?;
                self.expect(expected, &real, &shown)?;
                let added = Added::ByWrite {
                    overwrite: *overwrite,
                };
                self.moved(&real, to, None, Landed::default(), added, None)
            }
        }
    }

    /// The file at `path` removed — when a deletion's hunk names its content (`whole`),
    /// only if that is the whole of what it holds: else the hunk does not match.
    /// Refuses to delete or move `path` (`operation`) when a symbolic link stands at its
    /// last component: a patch never removes or renames what the link leads to, and
    /// delete_file and move_file act on the link itself.
    fn not_a_link(&self, path: &str, operation: &str) -> Result<(), Refusal> {
        let Ok(location) = self.ctx.ws.locate_own(path) else {
            return Ok(());
        };
        if location.kind != Some(crate::workspace::Kind::Link) {
            return Ok(());
        }
        let shown = location.shown.as_str();
        Err(Refusal::new(
            Code::NotAFile,
            format!("`{shown}` is a symbolic link: a patch does not {operation} a link, nor what it leads to"),
        )
        .with(key::PATH, shown)
        .with(key::OPERATION, operation)
        .with(key::SYMLINK, shown))
    }

    fn delete(
        &mut self,
        path: &str,
        whole: Option<&patch::Hunk>,
        expected: Option<&str>,
    ) -> Result<(), Refusal> {
        self.not_a_link(path, "delete")?;
        let location = self.location(path);
        let (real, shown) = (location.real.clone(), location.shown.clone());
        if self.tree[&real].held == Held::Absent {
            return Err(refuse::not_found(self.ctx, &shown).with(key::OPERATION, "delete"));
        }
        self.expect(expected, &real, &shown)?;
        if let Some(whole) = whole {
            let text = self.text(&real, &shown)?.unwrap_or_default();
            if !patch::is_whole(&text, whole) {
                return Err(not_whole(&shown, &text, whole));
            }
        }
        let before = self.text(&real, &shown).ok().flatten();
        let base_sha256 = self.sha256(&real);
        self.put(&real, Held::Absent, None, None);
        self.effects.push(Effect {
            operation: "delete",
            real,
            from: None,
            landed: Landed::default(),
            base_sha256,
            before,
            after: None,
            executable: None,
        });
        Ok(())
    }

    /// The hunks of a patch applied to the file at `path`, which then moves to `move_to`
    /// when the patch says, and whose executable bit becomes `executable` when it says.
    fn update(
        &mut self,
        path: &str,
        move_to: Option<&str>,
        hunks: &[patch::Hunk],
        executable: Option<bool>,
        expected: Option<&str>,
    ) -> Result<(), Refusal> {
        if move_to.is_some() {
            self.not_a_link(path, "move")?;
        }
        let location = self.location(path);
        let (real, shown) = (location.real.clone(), location.shown.clone());
        let Some(text) = self.text(&real, &shown)? else {
            return Err(refuse::not_found(self.ctx, &shown).with(key::OPERATION, "edit"));
        };
        self.expect(expected, &real, &shown)?;
        let applied =
            patch::apply_until(&text, hunks, Some(self.budget.deadline)).map_err(|failure| {
                match failure {
                    HunkFailure::OutOfTime { .. } => self.budget.spent(),
                    _ => hunk_refusal(&shown, &text, hunks, &failure),
                }
            })?;
        let landed = Landed {
            placed: applied
                .placed
                .iter()
                .map(|p| HunkPlaced {
                    line: p.line,
                    offset: p.offset,
                    recounted: p.recounted,
                })
                .collect(),
            region: applied.spans.clone(),
            spans: applied.spans,
        };
        if let Some(to) = move_to {
            let new = Some(applied.text);
            return self.moved(&real, to, new, landed, Added::ByPatch, executable);
        }
        self.edited(&real, text, applied.text, landed, executable);
        Ok(())
    }

    fn write(
        &mut self,
        path: &str,
        content: &str,
        added: Added,
        executable: Option<bool>,
        expected: Option<&str>,
    ) -> Result<(), Refusal> {
        let location = self.location(path);
        let (real, shown) = (location.real.clone(), location.shown.clone());
        self.expect(expected, &real, &shown)?;
        let exists = self.tree[&real].held != Held::Absent;
        if exists {
            let allowed = match added {
                Added::ByPatch => false,
                Added::ByWrite { overwrite } => {
                    overwrite || expected.is_some() || self.observed_original(&real)
                }
            };
            if !allowed {
                let message = match added {
                    Added::ByPatch => format!("The patch adds `{shown}`, which already exists"),
                    Added::ByWrite { .. } => {
                        format!("`{shown}` already exists and overwrite was not set")
                    }
                };
                return Err(already_exists(
                    message,
                    &shown,
                    self.sha256(&real),
                    "write",
                    added,
                ));
            }
        }
        let before = self.text(&real, &shown).ok().flatten();
        let base_sha256 = self.sha256(&real);
        let mode = if exists {
            self.mode_change(&real, executable)
        } else {
            executable.filter(|&x| x)
        };
        self.put(&real, Held::Text(content.to_owned()), None, mode);
        self.effects.push(Effect {
            operation: if exists { "edit" } else { "write" },
            real,
            from: None,
            landed: Landed::default(),
            base_sha256,
            before,
            after: Some(content.to_owned()),
            executable: mode,
        });
        Ok(())
    }

    /// `real`'s text became `new` in place, and its executable bit `executable` when
    /// that says.
    fn edited(
        &mut self,
        real: &str,
        old: String,
        new: String,
        landed: Landed,
        executable: Option<bool>,
    ) {
        let slot = &self.tree[real];
        let origin = slot.origin.clone();
        let mode = self.mode_change(real, executable);
        let kept = mode.or(slot.executable);
        self.put(real, Held::Text(new.clone()), origin, kept);
        self.effects.push(Effect {
            operation: "edit",
            real: real.to_owned(),
            from: None,
            landed,
            base_sha256: Some(self.digest(real, &old)),
            before: Some(old),
            after: Some(new),
            executable: mode,
        });
    }

    /// `real` moves to `to` (as the caller wrote it), as `new` when its hunks changed it;
    /// a file at `to` is replaced as `added` says.
    fn moved(
        &mut self,
        real: &str,
        to: &str,
        new: Option<String>,
        landed: Landed,
        added: Added,
        executable: Option<bool>,
    ) -> Result<(), Refusal> {
        let shown = self
            .located
            .values()
            .find(|l| l.real == real)
            .map(|l| l.shown.clone())
            .unwrap_or_default();
        let dest = self.location(to);
        let (dest_real, dest_shown) = (dest.real.clone(), dest.shown.clone());
        if dest_real != real && self.tree[&dest_real].held != Held::Absent {
            let allowed = match added {
                Added::ByPatch => false,
                Added::ByWrite { overwrite } => overwrite || self.observed_original(&dest_real),
            };
            if !allowed {
                let message = match added {
                    Added::ByPatch => {
                        format!("The patch moves `{shown}` to `{dest_shown}`, which already exists")
                    }
                    Added::ByWrite { .. } => {
                        format!("`{dest_shown}` already exists and overwrite was not set")
                    }
                };
                let sha256 = self.sha256(&dest_real);
                return Err(already_exists(message, &dest_shown, sha256, "move", added));
            }
        }
        let slot = self.tree[real].clone();
        let Held::Text(old) = slot.held else {
            return Err(self.not_text(real, &shown));
        };
        let text = new.unwrap_or_else(|| old.clone());
        let mode = self.mode_change(real, executable);
        self.put(real, Held::Absent, None, None);
        let kept = mode.or(slot.executable);
        self.put(&dest_real, Held::Text(text.clone()), slot.origin, kept);
        self.effects.push(Effect {
            operation: "move",
            real: dest_real,
            from: Some(real.to_owned()),
            landed,
            base_sha256: Some(sha256_hex(old.as_bytes())),
            before: Some(old),
            after: Some(text),
            executable: mode,
        });
        Ok(())
    }
}

/// Whether the change leaves `original` as it found it: its content, and its mode.
#[must_use]
pub fn unchanged(original: &Original, now: Option<&Slot>) -> bool {
    let Some(slot) = now else {
        return false;
    };
    let same_mode = slot
        .executable
        .is_none_or(|x| x == executable_mode(original.file.mode));
    same_mode
        && match (&original.body, &slot.held) {
            (Body::Text(text), Held::Text(new)) => text == new,
            (Body::Opaque(_), Held::Opaque) => true,
            _ => false,
        }
}
