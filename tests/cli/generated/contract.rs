//! The contract's sections of `stitch.1`: the envelope, every refusal code with its
//! meaning and remedy, exit statuses, sessions, policy and the environment, all quoted from
//! the code itself.

use stitch::hint::{READ_FIRST, REREAD};
use stitch::refusal::Code;

use super::roff::Roff;

pub(super) use stitch::hint::codes::{doc as code_doc, exit_status};

/// `CODE, CODE and CODE` in bold.
fn code_list(codes: impl Iterator<Item = Code>) -> String {
    let names: Vec<String> = codes.map(|c| format!("`{}`", c.as_str())).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The sections `stitch.1` adds to clap_mangen's, before its VERSION section.
pub(super) fn contract_sections() -> String {
    let mut r = Roff::default();
    tool_arguments(&mut r);
    the_envelope(&mut r);
    refusal_codes(&mut r);
    exit_statuses(&mut r);
    sessions(&mut r);
    policy(&mut r);
    environment(&mut r);
    r.out
}

fn tool_arguments(r: &mut Roff) {
    r.section("TOOL ARGUMENTS")
        .para(
            "A tool's arguments come from exactly one of two places. Flags, for people and \
             scripts: multi-line text comes from files with `--from`, `--old-from` and \
             `--new-from` (`-` is stdin, raw bytes). Or one JSON object on stdin, for agents: \
             `stitch edit --json < args.json`, or a command with no tool arguments while \
             stdin is not a terminal. An empty stdin means no arguments. Mixing flags and \
             JSON is `INVALID_ARGUMENT`.",
        )
        .para(
            "JSON field names are camelCase. The spellings of other agent tool sets are \
             accepted too: `file_path`, `old_string`, `old_str`, `new_string`, `new_str`, \
             `replace_all`, `expected_sha256`, `dry_run`. `stitch schema` prints every \
             tool's JSON Schema.",
        )
        .para(
            "Stdin is never waited on in silence. When it is read only because no tool \
             argument was given (not for `--json`, not for `--from -`), and nothing arrives \
             within 200 ms, stitch says on stderr that it is waiting for JSON arguments and \
             how to avoid it; after 2 s of silence in all, stdin is taken as empty (no \
             arguments). `--json` and `--from -` wait for their input as long as it takes; at a \
             terminal, `--json` first says on stderr that it reads one JSON object there. \
             Global options (`--root`, `--session`, `--lock-timeout`, `--format`, \
             `--pretty`) are not tool arguments.",
        )
        .para(
            "Inside a shell loop that reads its own stdin, pass flags or redirect \
             `</dev/null`: the zero-argument form reads stdin.",
        )
        .para(
            "A value that begins with `-` is a value, for every option that takes text and \
             for the query and the pattern: `--content '- ship it'`, `--old '-x'`, \
             `stitch search '-> bool'`. A path that begins with `-` is written `./-name`.",
        );
}

fn the_envelope(r: &mut Roff) {
    r.section("THE ENVELOPE")
        .para(
            "Every tool call prints exactly one JSON object and a newline on stdout, usage \
             errors and unparsable JSON included (`--pretty` indents it). Success:",
        )
        .example(r#"{"ok":true,"data":{ ...the tool's result... }}"#)
        .para("A refusal, an ordinary outcome the caller can act on:")
        .example(
            r#"{"ok":false,"error":"AMBIGUOUS_MATCH",
 "details":{"message":"oldText appears 3 times in `src/a.rs`, so the edit is ambiguous",
            "path":"src/a.rs","occurrences":3,"lines":[12,40,77]},
 "_hint":"Add surrounding lines to oldText until it matches once, or pass replaceAll: true."}"#,
        )
        .bullet("`error` is one of the REFUSAL CODES below. Codes are stable API.")
        .bullet(
            "`details.message` is always present: one sentence, phrased from the \
             workspace-relative path and the facts of the request. Structured facts sit \
             beside it in `details`.",
        )
        .bullet(
            "`_hint` is the one next step most likely to succeed, present on every refusal \
             where some action can help.",
        )
        .bullet(
            "Paths are workspace-relative with `/` separators. No absolute path the caller \
             did not write, no errno text and no internal cause ever appears.",
        )
        .para("A cause with no case (EACCES, ENOSPC, EIO, a vanished root, a bug) is internal:")
        .example(r#"{"ok":false,"error":"INTERNAL_SERVER_ERROR","details":{"message":"internal error"}}"#)
        .para("The cause goes to stderr only with `STITCH_DEBUG=1`.")
        .para(
            "With `--format text` (or `STITCH_FORMAT=text`) results print as plain text for \
             people and pipelines, and a refusal prints on stderr as `error[CODE]: message`, \
             the facts its hint refers to (NO_MATCH's candidates with their lines and exact \
             text, the lines an ambiguous snippet matched, the near names, the allowed \
             fields) and `hint: ...`; the exit status is the same. In text mode `glob` and \
             `search` exit 1 when nothing matched, as grep and rg do, and a result cut by \
             `--limit` says so on stderr. `--null` (`-0`, on `list`, `glob` and `search`) \
             ends each name with NUL instead of a newline (in `search`, NUL follows the path, \
             as with `rg --null`) and implies `--format text`. `--help` and `--version` print \
             text; `stitch schema` prints plain JSON, not an envelope.",
        );
}

fn refusal_codes(r: &mut Roff) {
    r.section("REFUSAL CODES");
    for code in Code::ALL {
        let doc = code_doc(code);
        let remedy = match &doc.remedy {
            Some(remedy) => format!("Remedy: {remedy}"),
            None => "Remedy: none; no action of the caller can help.".to_owned(),
        };
        r.item(
            &format!("`{}` (exit status {})", code.as_str(), exit_status(code)),
            &[doc.when, &remedy],
        );
    }
    let (when, remedy) = stitch::hint::codes::INTERNAL;
    r.item(
        "`INTERNAL_SERVER_ERROR` (exit status 3)",
        &[when, &format!("Remedy: {remedy}")],
    );
}

fn exit_statuses(r: &mut Roff) {
    r.section("EXIT STATUS")
        .item(
            "0",
            &["Success, dry runs included; also `--help`, `--version` and `schema`."],
        )
        .item(
            "1",
            &[&format!(
                "A refusal: {}. In text mode (`--format text` or `--null`), also a `glob` or \
                 `search` that matched nothing, as with grep.",
                code_list(Code::ALL.into_iter().filter(|c| exit_status(*c) == 1))
            )],
        )
        .item(
            "2",
            &[&format!(
                "An invalid invocation: {}, and usage errors (an unknown subcommand or flag, a \
                 missing or bad value), which print an `INVALID_ARGUMENT` envelope too.",
                code_list(Code::ALL.into_iter().filter(|c| exit_status(*c) == 2))
            )],
        )
        .item("3", &["`INTERNAL_SERVER_ERROR`."]);
}

fn sessions(r: &mut Roff) {
    r.section("SESSIONS")
        .para(
            "With `--session ID` (or `STITCH_SESSION`), writes and edits require that the \
             session read the file and that it has not changed since. An ID is 1 to 128 \
             characters of `[A-Za-z0-9._-]`, and not `.` or `..`; anything else is \
             `INVALID_ARGUMENT`. The ledger of what the session has seen (a file's sha256, or \
             its absence) lives under `.stitch/sessions/`.",
        )
        .bullet(
            "`read` records the whole file's version, even for a window. A read of a missing \
             file is `NOT_FOUND` and records its absence.",
        )
        .bullet(
            "`write` and `edit` record the version they wrote, so edits chain without re-reading.",
        )
        .bullet(&format!(
            "Changing an existing file the session has not read is `NOT_OBSERVED`: {READ_FIRST}."
        ))
        .bullet(&format!(
            "Changing a file that changed or vanished since the session saw it is \
             `STALE_VERSION`: {REREAD}. Both are checked under the lock, before matching."
        ))
        .bullet(
            "A file recorded absent may be created by `write`; `edit` of it is `NOT_FOUND` \
             while it is absent. One that has since appeared is `STALE_VERSION` until the \
             session reads it.",
        )
        .bullet("`--overwrite` does not bypass a session's guards.")
        .bullet(
            "A ledger that cannot be read is treated as empty: mutations fail closed with \
             `NOT_OBSERVED` until the session reads again. A ledger holds at most 4096 paths, \
             and a workspace at most 128 sessions.",
        )
        .para(
            "Without a session these guards do not apply; `--expected-sha256` and the exact \
             `oldText` match are the freshness guards.",
        );
}

fn policy(r: &mut Roff) {
    r.section("POLICY")
        .para(
            "An optional `.stitch/config.json`, written by people (no tool can touch \
             `.stitch/`):",
        )
        .example(
            r#"{
  "deny":      ["**/.env", "secrets/**"],
  "readOnly":  ["vendor/**", "**/*.lock"],
  "limits":    {"maxReadBytes": 262144, "maxFileBytes": 268435456,
                "listLimit": 500, "globLimit": 1000, "searchLimit": 100},
  "authorize": ["./scripts/approve", "--quiet"],
  "authorizeTimeoutSecs": 30
}"#,
        )
        .item(
            "`deny`",
            &["No tool reads, writes or lists these paths (rule `deny`); walks omit them."],
        )
        .item("`readOnly`", &["No mutation (rule `readOnly`); reads are allowed."])
        .item(
            "`limits`",
            &["The defaults above; callers may raise list, glob and search limits up to ten times."],
        )
        .item(
            "`authorize`",
            &[
                "A command run before every mutation, under the lock, in the root, with a \
                 JSON description of the change on stdin (`tool`, `path`, `operation`, \
                 `bytes`, `baseSha256`, `resultSha256`, `diff`, `dryRun`, `session` and more). \
                 Exit 0 allows; anything else is `DENIED` (rule `authorize`) with the first \
                 non-blank line of its stderr (else stdout) as `details.reason`.",
            ],
        )
        .item(
            "`authorizeTimeoutSecs`",
            &["How long the authorize command may take before it is killed and the change denied (default 30)."],
        )
        .para(
            "A pattern that does not compile, or any other malformed content, makes every tool \
             refuse with `INVALID_CONFIG`, naming the field (`deny[2]`, \
             `limits.maxFileBytes`). `stitch config check` validates the file and prints what \
             it enforces.",
        )
        .para(
            "Protected places, with or without a config: `.stitch/` is reserved (`DENIED`, \
             rule `reserved`, for every tool, and never listed); `.git/` can be read but not \
             written (rule `git`).",
        );
}

fn environment(r: &mut Roff) {
    r.section("ENVIRONMENT");
    let command = stitch::cli::command();
    for arg in command.get_arguments() {
        if let Some(env) = arg.get_env() {
            let name = env.to_string_lossy();
            let flag = arg.get_long().unwrap_or_default();
            r.item(&format!("`{name}`"), &[&format!("The same as `--{flag}`.")]);
        }
    }
    r.item(
        "`STITCH_DEBUG`",
        &["When `1`, the cause of an `INTERNAL_SERVER_ERROR` goes to stderr."],
    );
}

/// The subcommand pages point back at the main one, which holds the contract.
pub(super) fn see_also() -> String {
    let mut r = Roff::default();
    r.section("SEE ALSO");
    r.out.push_str(".BR stitch (1)\n");
    r.out
}
