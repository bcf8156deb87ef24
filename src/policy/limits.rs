//! The size and count limits a call runs under: the contract's defaults, which the
//! policy's `limits` replace.

/// The limits one call runs under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Cap on the text `read_file` returns (and the most its `maxBytes` may ask for).
    pub max_read_bytes: u64,
    /// Largest file that read, write and edit will handle.
    pub max_file_bytes: u64,
    /// Default number of entries `list_directory` returns.
    pub list: u64,
    /// Default number of matches `glob` returns.
    pub glob: u64,
    /// Default number of matches `search_files` returns.
    pub search: u64,
    /// The most journal entries kept (the oldest go first).
    pub journal_entries: u64,
    /// The most bytes of kept content the journal holds (the oldest entries go first).
    pub journal_bytes: u64,
    /// The largest file the syntax gate parses; a larger one passes unparsed.
    pub max_gate_bytes: u64,
    /// The CPU time (milliseconds) the syntax gate may parse a file for; past it the file
    /// passes unchecked.
    pub max_gate_millis: u64,
}

impl Limits {
    /// The contract's defaults, which the tools' schemas state.
    pub const DEFAULT: Limits = Limits {
        max_read_bytes: 262_144,
        max_file_bytes: 268_435_456,
        list: 500,
        glob: 1000,
        search: 100,
        journal_entries: 1000,
        journal_bytes: 1 << 30,
        max_gate_bytes: crate::syntax::DEFAULT_MAX_GATE_BYTES,
        max_gate_millis: crate::syntax::DEFAULT_MAX_GATE_MILLIS,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
