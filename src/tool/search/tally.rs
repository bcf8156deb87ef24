//! A search summed up per file, as ripgrep's `-l`, `-c` and `-q` do: not bounded by the
//! match limit, since each file gives one line of output (or none), and counted without
//! holding the matches.

use grep_regex::RegexMatcher;
use grep_searcher::{Searcher, Sink, SinkMatch};

/// How a search's matches are summed up, as ripgrep's `-l`, `-c` and `-q` do: a choice
/// of the command line's output ([`crate::tool::Shape`]) that changes what the search
/// gathers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Summary {
    /// Each path with a match, once: one match ends the search of a file.
    Files,
    /// Each path with a match and its number of matching lines, all of them.
    Count,
    /// Nothing: the exit status says whether anything matched, so the first match ends
    /// the whole search.
    Quiet,
}

impl Summary {
    /// The most matches the search gathers, over every file: all files for `-l` and `-c`
    /// (one entry each), the first match for `-q`.
    #[must_use]
    pub fn total(self) -> usize {
        match self {
            Summary::Files | Summary::Count => usize::MAX,
            Summary::Quiet => 1,
        }
    }
}

/// The number of matching lines in `bytes`, as `rg -c` counts them; nothing but the
/// count is kept.
pub fn count(matcher: &RegexMatcher, searcher: &mut Searcher, bytes: &[u8]) -> u64 {
    let mut sink = Counted(0);
    // Searching a slice in memory cannot fail with I/O; a matcher error ends the file.
    let _ = searcher.search_slice(matcher, bytes, &mut sink);
    sink.0
}

/// A sink that counts matching lines.
struct Counted(u64);

impl Sink for Counted {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, _: &SinkMatch<'_>) -> Result<bool, Self::Error> {
        self.0 += 1;
        Ok(true)
    }
}
