//! New files' parses begun ahead of the gate. An apply knows the text of every file its
//! patch adds before it locks or reads a file, and a new file is the gate's dearest part
//! (parsed whole, where a changed file is mostly parsed by its regions); so those parses
//! start then, on a thread of their own, while the change is located, locked, read and
//! built, and the gate takes their findings when it comes to those files. The finding
//! of a new file depends on its language, its text and the bounds alone, so one begun
//! ahead is the one the gate would have made: the gate takes it only for a file of the
//! same language holding exactly the same text, and parses any other itself.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

use crate::syntax::{self, Finding, Language};

use super::super::Context;

/// Below this many bytes of new text, a thread costs about what it would hide.
const AHEAD_BYTES: usize = 4 << 10;

/// The parses of new files begun ahead of the gate.
#[derive(Debug)]
pub struct Ahead {
    /// Each file begun, by its language and text, in the order parsed.
    begun: Arc<Vec<(Language, Vec<u8>)>>,
    /// The thread parsing them, until its findings are taken.
    thread: Mutex<Option<JoinHandle<Vec<Option<Finding>>>>>,
    /// Its findings, in `begun`'s order: `None` for a file it did not reach.
    found: OnceLock<Vec<Option<Finding>>>,
    /// Set when the findings are no longer wanted (the call ended before its gate):
    /// the thread parses no further file.
    stop: Arc<AtomicBool>,
}

impl Ahead {
    /// Begins the parses of `files` (each a path as the caller named it and the whole
    /// text of a file the change adds) that the gate would parse, unless they hold too
    /// little text to be worth a thread.
    pub fn begin<'a>(
        ctx: &Context,
        files: impl Iterator<Item = (&'a str, &'a str)>,
    ) -> Option<Ahead> {
        let bounds = super::bounds(ctx);
        let begun: Vec<(Language, Vec<u8>)> = files
            .filter(|&(path, text)| {
                super::wanted(ctx, path) && text.len() as u64 <= bounds.max_bytes
            })
            .filter_map(|(path, text)| Some((Language::of_path(path)?, text.as_bytes().to_vec())))
            .collect();
        if begun.iter().map(|(_, text)| text.len()).sum::<usize>() < AHEAD_BYTES {
            return None;
        }
        let begun = Arc::new(begun);
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (begun, stop) = (Arc::clone(&begun), Arc::clone(&stop));
            std::thread::Builder::new()
                .spawn(move || {
                    begun
                        .iter()
                        .map(|(language, text)| {
                            (!stop.load(Ordering::Relaxed))
                                .then(|| syntax::check_in(*language, None, text, bounds))
                        })
                        .collect()
                })
                .ok()?
        };
        Some(Ahead {
            begun,
            thread: Mutex::new(Some(thread)),
            found: OnceLock::new(),
            stop,
        })
    }

    /// The finding of a new file of `language` holding `text`, when its parse was begun
    /// ahead (waiting for it); `None` when the gate must parse it itself.
    pub(super) fn take(&self, language: Language, text: &[u8]) -> Option<Finding> {
        let index = self
            .begun
            .iter()
            .position(|(l, t)| *l == language && t.as_slice() == text)?;
        let found = self.found.get_or_init(|| {
            let thread = self.thread.lock().ok().and_then(|mut thread| thread.take());
            thread
                .and_then(|thread| thread.join().ok())
                .unwrap_or_default()
        });
        found.get(index).cloned().flatten()
    }

    /// Whether a new file of `language` holding `text` was begun ahead.
    pub(super) fn has(&self, language: Language, text: &[u8]) -> bool {
        self.begun
            .iter()
            .any(|(l, t)| *l == language && t.as_slice() == text)
    }
}

impl Drop for Ahead {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::Ahead;
    use crate::engine::testing::context;
    use crate::syntax::{self, Bounds, Finding, Language, Pass};

    /// A Python file of `defs` functions, broken at its end when `broken` says so.
    fn python(defs: usize, broken: bool) -> String {
        let mut text = (0..defs).fold(String::new(), |mut text, n| {
            let _ = writeln!(text, "def f{n}():\n    return {n}");
            text
        });
        if broken {
            text.push_str("def g(:\n");
        }
        text
    }

    #[test]
    fn a_little_new_text_is_not_worth_a_thread() {
        let root = tempfile::tempdir().unwrap();
        let ctx = context(root.path());
        let small = python(10, false);
        assert!(Ahead::begin(&ctx, [("a.py", small.as_str())].into_iter()).is_none());
        // Nor a name of no known language, however long its text.
        let long = python(400, false);
        assert!(Ahead::begin(&ctx, [("a.txt", long.as_str())].into_iter()).is_none());
    }

    #[test]
    fn a_finding_begun_ahead_is_the_one_the_gate_would_make() {
        let root = tempfile::tempdir().unwrap();
        let ctx = context(root.path());
        let fine = python(400, false);
        let broken = python(400, true);
        let json = format!("[{}]", vec!["1"; 3000].join(","));
        let files = [
            ("a.py", fine.as_str()),
            ("b.py", broken.as_str()),
            ("c.json", json.as_str()),
        ];
        let ahead = Ahead::begin(&ctx, files.into_iter()).expect("enough text for a thread");
        for (path, text) in files {
            let language = Language::of_path(path).unwrap();
            assert!(ahead.has(language, text.as_bytes()));
            let expected = syntax::check(path, None, text.as_bytes(), Bounds::default());
            assert_eq!(ahead.take(language, text.as_bytes()), Some(expected));
        }
        assert!(matches!(
            ahead.take(Language::of_path("b.py").unwrap(), broken.as_bytes()),
            Some(Finding::Broken(..))
        ));
        assert_eq!(
            ahead.take(Language::of_path("a.py").unwrap(), fine.as_bytes()),
            Some(Finding::Pass(Pass::Parses))
        );
        // Other text, or the same text in another language: the gate parses it itself.
        let python = Language::of_path("a.py").unwrap();
        assert!(!ahead.has(python, b"x = 1\n"));
        assert_eq!(ahead.take(python, b"x = 1\n"), None);
        let ruby = Language::of_path("a.rb").unwrap();
        assert!(!ahead.has(ruby, fine.as_bytes()));
        assert_eq!(ahead.take(ruby, fine.as_bytes()), None);
    }
}
