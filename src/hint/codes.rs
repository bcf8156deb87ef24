//! What each refusal code means and what to do about it: the one source the man page's
//! REFUSAL CODES section and `docs/codes.md` are generated from.
//!
//! The match is exhaustive, so a new code does not compile until it is documented here.
//! The remedies are the substance of the hints [`super::compose`] writes; where a hint
//! quotes a constant (`REREAD`, `READ_FIRST`), the remedy quotes the same one.

use crate::refusal::Code;

use super::{READ_FIRST, REREAD};

/// What a refusal code means, and what the caller can do about it.
#[derive(Debug, Clone)]
pub struct CodeDoc {
    /// When the code is returned, with the facts `details` carries.
    pub when: &'static str,
    /// The remedy, in substance; `None` where no action of the caller helps.
    pub remedy: Option<String>,
}

/// The exit status of a refusal with `code`: 2 for an invalid invocation, else 1.
#[must_use]
pub fn exit_status(code: Code) -> u8 {
    if code.is_invocation_error() {
        2
    } else {
        1
    }
}

/// `INTERNAL_SERVER_ERROR`, which is no refusal code but ends a call all the same: when
/// it happens and what to do, as (when, remedy).
pub const INTERNAL: (&str, &str) = (
    "Everything else: a cause with no case (EACCES, ENOSPC, EIO, a vanished root, a bug). \
     Nothing of the cause appears in the envelope.",
    "None; `STITCH_DEBUG=1` prints the cause on stderr.",
);

/// The doc of `code`.
// One arm per code: a table, long because the contract is.
#[allow(clippy::too_many_lines)]
#[must_use]
pub fn doc(code: Code) -> CodeDoc {
    let (when, remedy): (&'static str, Option<&str>) = match code {
        Code::InvalidArgument => (
            "Malformed JSON; a missing, unknown or mistyped field (`details` list the allowed \
             fields); an empty `oldText`, or `oldText` equal to `newText`; `edits` together \
             with `oldText`; an offset past the end; flags mixed with JSON on stdin; a root \
             that does not exist or is not a directory (field `root`); a usage error, such \
             as an unknown command (`details.didYouMean` names the command another tool's \
             word means: `move` for `rename`).",
            Some("Fix the named field and call again."),
        ),
        Code::InvalidPath => (
            "An empty path, a NUL byte, a backslash (`details` carry the `/` spelling), a path \
             over 4096 bytes, a file path with a trailing `/`, or more than 40 levels of \
             symlinks.",
            Some("Use the suggested spelling."),
        ),
        Code::InvalidPattern => (
            "A glob or regex that does not compile, a regex construct that cannot run in \
             linear time (look-around, backreferences), or a regex whose compiled size passes \
             8 MiB (`details.limit`); `details`: `pattern`, `reason`.",
            Some("Fix the pattern, or search literally."),
        ),
        Code::OutsideRoot => (
            "The path leads outside the root, lexically or through a symlink. A symlink with \
             an absolute target counts as leaving, even when it points inside.",
            Some("Use a path inside the workspace (the hint names the inside spelling of a link's target)."),
        ),
        Code::NotFound => (
            "The named file or directory does not exist; `details.nearNames` holds up to 5 \
             existing paths, closest first.",
            Some("Use the nearest name, or list the parent directory."),
        ),
        Code::NotAFile => (
            "A directory, FIFO, socket or device where a regular file is needed.",
            Some("List it instead."),
        ),
        Code::NotADirectory => (
            "A file where a directory is needed, including a parent component of a path to \
             write.",
            Some("Pick another path."),
        ),
        Code::AlreadyExists => (
            "`write` onto an existing file without `--overwrite`, a matching \
             `--expected-sha256` or, in a session, a read of its current version.",
            Some("Read it and pass `--overwrite` (`overwrite: true`), or change it with `edit`."),
        ),
        Code::NotText => (
            "Invalid UTF-8 or binary content; `details`: `bytes`, `reason`, and the file's \
             `sha256`, so it can be replaced whole with `expectedSha256`.",
            None,
        ),
        Code::TooLarge => (
            "Over a size limit; `details`: `bytes`, `limit` (`field: \"stdin\"` for arguments \
             past stdin's bound, `reason: \"memory\"` for a file this process cannot allocate \
             for).",
            Some("Read with `--offset` and `--limit`, or split the work into smaller files."),
        ),
        Code::NoMatch => (
            "`oldText` is not in the file; `details.candidates` holds up to 3 closest \
             passages, the first with the repaired `newText` where it is beyond doubt, and \
             `alreadyApplied` is set when `newText` is there and `oldText` is not.",
            Some("Retry with `candidates[0].text` as `oldText` and `candidates[0].newText` as `newText`; without a `newText`, re-read the lines and write both again."),
        ),
        Code::AmbiguousMatch => (
            "`oldText` matches more than once and neither `replaceAll` nor a matching \
             `expectedReplacements` was given; `details`: `occurrences`, and `lines`, each \
             line once and at most ten (`moreLines` counts the rest).",
            Some("Add surrounding lines to `oldText` until it matches once, or pass `--replace-all`; past a handful of matches, lengthen the snippet."),
        ),
        Code::MatchCountMismatch => (
            "`expectedReplacements` differs from the number of matches.",
            Some("Check the count."),
        ),
        Code::StaleVersion => (
            "The file is not the version the caller last saw: an `expectedSha256` mismatch, a \
             file that changed, vanished or appeared since the session saw it (with \
             `foreignChanges` when only other lines changed); for an undo, files that moved \
             on since the change (`details.paths`, each with `conflicts` and `changedBy`); \
             `details`: `expectedSha256`, and `actualSha256` when the file exists.",
            None,
        ),
        Code::NotObserved => (
            "With a session: changing an existing file this session has not read (a change \
             of several files names every unread one in `details.paths`).",
            None,
        ),
        Code::Denied => (
            "The policy or a protected place refuses it; `details.rule` is `reserved` \
             (anything under `.stitch/`, or stitch's user-level state), `git` (writes under \
             `.git/`), `deny`, `readOnly`, `authorize`, `untrusted-config` (the workspace's \
             config names an authorize command no person has trusted), or `permissions` (a \
             file this process may not write, or whose owner it could not keep).",
            None,
        ),
        Code::InvalidConfig => (
            "`.stitch/config.json` (or the user's config) is malformed, or stitch's own state \
             under `.stitch/` is a symlink, FIFO, device, the wrong kind, over its bound or \
             cannot be written; every tool refuses to run (`details`: `path`, `field`, such as \
             `deny[2]` or `.stitch/tmp`, and `reason`).",
            Some("The workspace owner must fix it; `stitch config check` shows the problem."),
        ),
        Code::SyntaxError => (
            "The change would leave a file of a known language (by its name) with a syntax \
             error it did not have; `details`: `path`, `language`, `line`, `column`, \
             `endLine`, `excerpt` (the line with a caret), `expected` or `found` where the \
             parser can tell, and `changeIndex` in a change of several files. In C and C++, \
             parsed without the preprocessor, only a bracket or quote left unpaired is \
             refused; other errors are listed with `possiblePreprocessor`.",
            Some(
                "Fix the text at that line and call again, or pass `--allow-syntax-errors` \
                 (`allowSyntaxErrors: true`) if a later change completes it.",
            ),
        ),
        Code::InvalidPatch => (
            "An `apply_patch` patch that does not parse (`details`: `dialect`, `patchLine`, \
             `line`, `expected`).",
            Some("Fix that line of the patch."),
        ),
        Code::Busy => (
            "The lock was not obtained within `--lock-timeout`, another program kept \
             rewriting the file while stitch read it (`reason: \"changed while read\"`), an \
             apply ran out of time under its locks (`reason: \"out of time\"`), or the MCP \
             server is at its bound on calls at once (`limit`); `details.retryable`: true.",
            Some("Retry in a moment."),
        ),
    };
    let remedy = match code {
        Code::StaleVersion => Some(format!("{REREAD}.")),
        Code::NotObserved => Some(format!("{READ_FIRST}.")),
        Code::Denied => Some("None, or what the authorize command's reason asks; for `untrusted-config`, a person reviews the config and runs `stitch config trust`.".to_owned()),
        _ => remedy.map(str::to_owned),
    };
    CodeDoc { when, remedy }
}

#[cfg(test)]
mod tests {
    use super::{doc, exit_status, Code};

    #[test]
    fn every_code_has_a_meaning_and_invocation_errors_exit_2() {
        for code in Code::ALL {
            assert!(!doc(code).when.is_empty(), "{}", code.as_str());
            assert_eq!(exit_status(code) == 2, code.is_invocation_error());
        }
        assert!(doc(Code::NotText).remedy.is_none());
    }
}
