//! Typed refusals: the ordinary outcomes a caller can act on.
//!
//! A [`Refusal`] carries a stable [`Code`], one sentence phrased from the facts of the
//! request, and those facts as structured details. It knows nothing of hints or of the
//! envelope: the hint is composed at the boundary (`crate::envelope`) from the code
//! and the facts.

use serde_json::{Map, Value};

/// A stable refusal code. Codes are API: they never change once released.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    InvalidArgument,
    InvalidPath,
    InvalidPattern,
    OutsideRoot,
    NotFound,
    NotAFile,
    NotADirectory,
    AlreadyExists,
    NotText,
    TooLarge,
    NoMatch,
    AmbiguousMatch,
    MatchCountMismatch,
    StaleVersion,
    NotObserved,
    Denied,
    InvalidConfig,
    SyntaxError,
    InvalidPatch,
    Busy,
}

impl Code {
    /// Every refusal code, in the order of the contract's table.
    pub const ALL: [Code; 20] = [
        Code::InvalidArgument,
        Code::InvalidPath,
        Code::InvalidPattern,
        Code::OutsideRoot,
        Code::NotFound,
        Code::NotAFile,
        Code::NotADirectory,
        Code::AlreadyExists,
        Code::NotText,
        Code::TooLarge,
        Code::NoMatch,
        Code::AmbiguousMatch,
        Code::MatchCountMismatch,
        Code::StaleVersion,
        Code::NotObserved,
        Code::Denied,
        Code::InvalidConfig,
        Code::SyntaxError,
        Code::InvalidPatch,
        Code::Busy,
    ];

    /// The code as it appears in the envelope's `error` field.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Code::InvalidArgument => "INVALID_ARGUMENT",
            Code::InvalidPath => "INVALID_PATH",
            Code::InvalidPattern => "INVALID_PATTERN",
            Code::OutsideRoot => "OUTSIDE_ROOT",
            Code::NotFound => "NOT_FOUND",
            Code::NotAFile => "NOT_A_FILE",
            Code::NotADirectory => "NOT_A_DIRECTORY",
            Code::AlreadyExists => "ALREADY_EXISTS",
            Code::NotText => "NOT_TEXT",
            Code::TooLarge => "TOO_LARGE",
            Code::NoMatch => "NO_MATCH",
            Code::AmbiguousMatch => "AMBIGUOUS_MATCH",
            Code::MatchCountMismatch => "MATCH_COUNT_MISMATCH",
            Code::StaleVersion => "STALE_VERSION",
            Code::NotObserved => "NOT_OBSERVED",
            Code::Denied => "DENIED",
            Code::InvalidConfig => "INVALID_CONFIG",
            Code::SyntaxError => "SYNTAX_ERROR",
            Code::InvalidPatch => "INVALID_PATCH",
            Code::Busy => "BUSY",
        }
    }

    /// Invalid invocations exit 2; every other refusal exits 1.
    #[must_use]
    pub fn is_invocation_error(self) -> bool {
        matches!(
            self,
            Code::InvalidArgument | Code::InvalidPath | Code::InvalidPattern | Code::InvalidPatch
        )
    }
}

/// An ordinary outcome the caller can act on: a code, a sentence and the facts.
#[derive(Debug, Clone)]
pub struct Refusal {
    code: Code,
    message: String,
    details: Map<String, Value>,
    /// An argument the message names by a plain word (`overwrite`), which a caller by
    /// flags reads as its flag; camelCase field names need no such mark. (One, not a
    /// list: a refusal stays small enough to return by value.)
    named: Option<&'static str>,
}

impl Refusal {
    /// A refusal with its one-sentence message; add facts with [`Refusal::with`].
    #[cold]
    #[must_use]
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Refusal {
            code,
            message: message.into(),
            details: Map::new(),
            named: None,
        }
    }

    /// Marks `field` as an argument the message names by its plain name, so that a
    /// caller by flags reads its flag there (`--overwrite was not set`). The field the
    /// refusal is about (`details.field`) is marked already.
    #[must_use]
    pub fn naming(mut self, field: &'static str) -> Self {
        self.named = Some(field);
        self
    }

    /// The same refusal, facts and all, with another sentence.
    #[must_use]
    pub fn reworded(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }

    /// Adds one structured fact beside the message. `message` itself cannot be displaced.
    #[must_use]
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        if key != "message" {
            self.details.insert(key.to_owned(), value.into());
        }
        self
    }

    /// The same refusal without the fact `key` (one its sender found untrue).
    #[must_use]
    pub fn without(mut self, key: &str) -> Self {
        self.details.shift_remove(key);
        self
    }

    #[must_use]
    pub fn code(&self) -> Code {
        self.code
    }

    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The structured facts, without the message.
    #[must_use]
    pub fn details(&self) -> &Map<String, Value> {
        &self.details
    }

    /// The arguments the message names by a plain word: [`Refusal::naming`]'s, and the
    /// field the refusal is about.
    #[must_use]
    pub fn named(&self) -> Vec<&str> {
        let field = self.detail(key::FIELD).and_then(Value::as_str);
        self.named.into_iter().chain(field).collect()
    }

    /// One fact, when present.
    #[must_use]
    pub fn detail(&self, key: &str) -> Option<&Value> {
        self.details.get(key)
    }
}

/// How a tool call can fail: an ordinary refusal, or a cause with no case.
///
/// There is deliberately no `From<io::Error>`: an I/O error is either matched to a
/// refusal where the tool knows what it means, or wrapped in `anyhow` with context and
/// becomes internal. A stray `?` can therefore never misclassify a failure.
#[derive(Debug)]
pub enum Failure {
    Refused(Refusal),
    Internal(anyhow::Error),
}

impl From<Refusal> for Failure {
    fn from(refusal: Refusal) -> Self {
        Failure::Refused(refusal)
    }
}

impl From<anyhow::Error> for Failure {
    fn from(error: anyhow::Error) -> Self {
        Failure::Internal(error)
    }
}

/// The result of a tool call: its data, or why there is none.
pub type Outcome<T = Value> = Result<T, Failure>;

/// The detail keys that [`crate::hint`] (or a tool) reads back, spelled once: a refusal
/// built with one and the code that reads it cannot drift apart.
pub mod key {
    /// The digest the caller (or the session, or the change undone) expected a file at.
    pub const EXPECTED_SHA256: &str = "expectedSha256";
    /// The digest the file is at now.
    pub const ACTUAL_SHA256: &str = "actualSha256";
    /// `reason` of JSON arguments whose string holds a raw newline, tab or other control
    /// character (a value of the key, not a key).
    pub const RAW_CONTROL: &str = "rawControlCharacter";
    pub const ALLOWED: &str = "allowed";
    /// A Codex chunk's `@@ ANCHOR` line, as the patch gave it.
    pub const ANCHOR: &str = "anchor";
    /// The line of the file most like a chunk's anchor, before where its lines match:
    /// `{line, text}`.
    pub const NEAREST_ANCHOR: &str = "nearestAnchor";
    pub const ALREADY_APPLIED: &str = "alreadyApplied";
    /// The journal entry that made an edit already applied.
    pub const APPLIED_BY: &str = "appliedBy";
    pub const CANDIDATES: &str = "candidates";
    /// The 0-based change of an apply_patch a refusal is about.
    pub const CHANGE_INDEX: &str = "changeIndex";
    /// The command an unknown subcommand means (`move` for `rename`).
    pub const DID_YOU_MEAN: &str = "didYouMean";
    pub const EDIT_INDEX: &str = "editIndex";
    pub const FIELD: &str = "field";
    /// The flag that carried a field's value, where it is not the field's own flag
    /// (`--from` for `content`).
    pub const FLAG: &str = "flag";
    pub const INSIDE_TARGET: &str = "insideTarget";
    pub const LINES: &str = "lines";
    /// How many more distinct lines an `AMBIGUOUS_MATCH` matched than it lists.
    pub const MORE_LINES: &str = "moreLines";
    /// How many times a snippet matched.
    pub const OCCURRENCES: &str = "occurrences";
    /// The lines of today's text where a file moved on since the caller's `oldText` was
    /// read (it quotes an earlier version): `{startLine, endLine}`.
    pub const MOVED_ON: &str = "movedOn";
    pub const NEAR_NAMES: &str = "nearNames";
    pub const NOT_A_DIRECTORY: &str = "notADirectory";
    pub const OPERATION: &str = "operation";
    /// An apply_patch item's `overwrite`, as it was (false) when the item could have set it.
    pub const OVERWRITE: &str = "overwrite";
    pub const PATH: &str = "path";
    /// Every file a refusal of a change of several files is about (`NOT_OBSERVED`).
    pub const PATHS: &str = "paths";
    pub const REASON: &str = "reason";
    /// The `reason` of an `okIfApplied` apply found applied in part: some of its changes
    /// are there, and the rest would apply.
    pub const PARTLY_APPLIED: &str = "partlyApplied";
    pub const REWRITE: &str = "rewrite";
    pub const RULE: &str = "rule";
    pub const SUGGESTION: &str = "suggestion";
    pub const SYMLINK: &str = "symlink";
    /// How the command a refusal points at is called (`stitch move FROM TO`).
    pub const USAGE: &str = "usage";
    pub const SHA256: &str = "sha256";
    /// The `reason` of a `BUSY` for a file another program changed while it was read.
    pub const CHANGED_WHILE_READ: &str = "changed while read";
    /// The `reason` of a `BUSY` for an apply that ran past its time under the locks.
    pub const OUT_OF_TIME: &str = "out of time";
}
