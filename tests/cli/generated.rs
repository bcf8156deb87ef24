//! The generated documentation: shell completions in `completions/` and man pages in
//! `man/`, all made from `stitch::cli::command()` (clap_complete, clap_mangen) plus the
//! contract's sections of `stitch.1`, which quote the refusal codes and remedies from the
//! code itself.
//!
//! The committed files must equal what this module generates. When the CLI changes,
//! regenerate them with `STITCH_BLESS=1 cargo test --test cli -- generated::` and commit
//! the result. `completions/` and `man/` hold only generated files: a `stitch*` file there
//! that is no longer generated counts as drift, and blessing deletes it.

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

use clap::ValueEnum;
use clap_complete::{Generator, Shell};
use clap_mangen::Man;
use stitch::hint::{READ_FIRST, REREAD};
use stitch::refusal::Code;

/// The binary's name, as completions register it and man pages title it.
const BIN: &str = "stitch";

/// Where the completions live, relative to the repository.
const COMPLETIONS: &str = "completions";
/// Where the man pages live, relative to the repository.
const MAN: &str = "man";

/// The date in the pages' `.TH` line: the last substantive change to their content. A
/// constant, so that generating is reproducible; move it on when the contract sections
/// change.
const DATE: &str = "2026-11-30";

/// The subcommands whose `--help` must show an example call: the six tools, `schema` and
/// `config`.
const EXAMPLE_COMMANDS: [&str; 8] = [
    "read", "write", "edit", "list", "glob", "search", "schema", "config",
];

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every generated file, as (path relative to the repository, content).
fn generate() -> Vec<(String, String)> {
    let mut files = completions();
    files.extend(man_pages());
    files
}

/// One completion script per shell clap_complete supports.
fn completions() -> Vec<(String, String)> {
    Shell::value_variants()
        .iter()
        .map(|&shell| {
            let mut command = stitch::cli::command();
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, BIN, &mut script);
            let script = String::from_utf8(script).expect("completion scripts are UTF-8");
            (format!("{COMPLETIONS}/{}", shell.file_name(BIN)), script)
        })
        .collect()
}

/// `stitch.1` with the contract's sections, and one page per (nested) subcommand, named as
/// `clap_mangen::generate_to` names them: `stitch-read.1`, `stitch-config-check.1`.
fn man_pages() -> Vec<(String, String)> {
    let mut command = stitch::cli::command().disable_help_subcommand(true);
    command.build();
    let mut pages = Vec::new();
    collect_pages(&command, true, &mut pages);
    pages
}

fn collect_pages(command: &clap::Command, top: bool, pages: &mut Vec<(String, String)>) {
    // clap_mangen leaves the date empty, which drops the argument from `.TH` and makes
    // the source the date; and a subcommand has no version of its own.
    let source = format!("{BIN} {}", env!("CARGO_PKG_VERSION"));
    let man = Man::new(command.clone())
        .title(command.get_display_name().unwrap_or(BIN).to_uppercase())
        .date(DATE)
        .source(source)
        .manual("User Commands");
    let mut page = Vec::new();
    man.render(&mut page).expect("render to memory");
    let mut page = String::from_utf8(page).expect("man pages are UTF-8");
    if top {
        // The contract goes before clap_mangen's closing VERSION (and AUTHORS) sections.
        let extra = contract_sections();
        match page.find("\n.SH VERSION\n") {
            Some(at) => page.insert_str(at + 1, &extra),
            None => page.push_str(&extra),
        }
    } else {
        page.push_str(&see_also());
    }
    pages.push((format!("{MAN}/{}", man.get_filename()), page));
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect_pages(sub, false, pages);
    }
}

// ---------------------------------------------------------------------------------------
// roff: the contract's sections are written here, so their escaping is done here.

/// Escapes `text` for a roff text line: a backslash as `\e` (the printable escape
/// character; a doubled `\\` means something else in copy mode), apostrophes and non-ASCII
/// characters as named glyphs. With `literal`, hyphens become `\-` (the minus that options
/// and code need); in prose they stay hyphens. A leading `.` or `'` is [`text_line`]'s job.
fn escape(text: &str, literal: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str(r"\e"),
            '-' if literal => out.push_str(r"\-"),
            '\'' => out.push_str(r"\(aq"),
            '\u{2014}' => out.push_str(r"\(em"),
            '\u{2013}' => out.push_str(r"\(en"),
            '\u{2192}' => out.push_str(r"\(->"),
            '\u{2026}' => out.push_str(r"\&..."),
            c if c.is_ascii() => out.push(c),
            c => {
                let _ = write!(out, r"\[u{:04X}]", u32::from(c));
            }
        }
    }
    out
}

/// A text line: a `\&` keeps a leading `.` or `'` from starting a request.
fn text_line(escaped: String) -> String {
    if escaped.starts_with(['.', '\'']) {
        format!(r"\&{escaped}")
    } else {
        escaped
    }
}

/// Inline markup of the contract's prose: `code` is bold and literal, and its words are
/// never hyphenated (`\%`); everything else is roman prose.
fn inline(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            let words: Vec<String> = part
                .split(' ')
                .map(|word| format!(r"\%{}", escape(word, true)))
                .collect();
            let _ = write!(out, r"\fB{}\fR", words.join(" "));
        } else {
            out.push_str(&escape(part, false));
        }
    }
    text_line(out)
}

/// A small roff writer for man(7) sections.
#[derive(Default)]
struct Roff {
    out: String,
    /// Just after `.SH`, where a paragraph needs no `.PP` of its own.
    section_start: bool,
}

impl Roff {
    fn section(&mut self, title: &str) -> &mut Self {
        let _ = writeln!(self.out, ".SH \"{title}\"");
        self.section_start = true;
        self
    }

    /// Starts a paragraph, unless the section has just started one.
    fn paragraph(&mut self) {
        if !self.section_start {
            self.out.push_str(".PP\n");
        }
    }

    fn para(&mut self, text: &str) -> &mut Self {
        self.paragraph();
        self.line(text)
    }

    fn line(&mut self, text: &str) -> &mut Self {
        self.out.push_str(&inline(text));
        self.out.push('\n');
        self.section_start = false;
        self
    }

    fn bullet(&mut self, text: &str) -> &mut Self {
        self.out.push_str(".IP \\(bu 2\n");
        self.line(text)
    }

    /// A tagged paragraph: `tag` (inline markup) then the indented body lines.
    fn item(&mut self, tag: &str, body: &[&str]) -> &mut Self {
        self.out.push_str(".TP\n");
        self.line(tag);
        for (i, text) in body.iter().enumerate() {
            if i > 0 {
                self.out.push_str(".br\n");
            }
            self.line(text);
        }
        self
    }

    /// Verbatim lines (JSON, shell), indented and unfilled.
    fn example(&mut self, lines: &str) -> &mut Self {
        self.paragraph();
        self.out.push_str(".RS 4\n.nf\n");
        for line in lines.lines() {
            self.out.push_str(&text_line(escape(line, true)));
            self.out.push('\n');
        }
        self.out.push_str(".fi\n.RE\n");
        self.section_start = false;
        self
    }
}

// ---------------------------------------------------------------------------------------
// The contract's sections of stitch.1.

/// What a refusal code means and what to do about it.
struct CodeDoc {
    when: &'static str,
    /// The remedy, in substance (`None` where no action of the caller helps).
    remedy: Option<String>,
}

/// The doc of every code. The match is exhaustive: a new code does not compile until it
/// is documented here.
fn code_doc(code: Code) -> CodeDoc {
    let (when, remedy): (&str, Option<&str>) = match code {
        Code::InvalidArgument => (
            "Malformed JSON; a missing, unknown or mistyped field (`details` list the allowed \
             fields); an empty `oldText`, or `oldText` equal to `newText`; `edits` together \
             with `oldText`; an offset past the end; flags mixed with JSON on stdin; a root \
             that does not exist or is not a directory (field `root`); a usage error.",
            Some("Fix the named field and call again."),
        ),
        Code::InvalidPath => (
            "An empty path, a NUL byte, a backslash (`details` carry the `/` spelling), a path \
             over 4096 bytes, a file path with a trailing `/`, or more than 40 levels of \
             symlinks.",
            Some("Use the suggested spelling."),
        ),
        Code::InvalidPattern => (
            "A glob or regex that does not compile, or a regex construct that cannot run in \
             linear time (look-around, backreferences); `details`: `pattern`, `reason`.",
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
            "Invalid UTF-8 or binary content; `details`: `bytes`, `reason`.",
            None,
        ),
        Code::TooLarge => (
            "Over a size limit; `details`: `bytes`, `limit`.",
            Some("Read with `--offset` and `--limit`, or split the work into smaller files."),
        ),
        Code::NoMatch => (
            "`oldText` is not in the file; `details.candidates` holds up to 3 closest \
             passages, and `alreadyApplied` is set when `newText` is there and `oldText` is \
             not.",
            Some("Copy the candidate's text exactly as `oldText` and retry."),
        ),
        Code::AmbiguousMatch => (
            "`oldText` matches more than once and neither `replaceAll` nor a matching \
             `expectedReplacements` was given; `details`: `occurrences`, `lines`.",
            Some("Add surrounding lines to `oldText` until it matches once, or pass `--replace-all`."),
        ),
        Code::MatchCountMismatch => (
            "`expectedReplacements` differs from the number of matches.",
            Some("Check the count."),
        ),
        Code::StaleVersion => (
            "The file is not the version the caller last saw: an `expectedSha256` mismatch, a \
             file that changed, vanished or appeared since the session saw it; `details`: \
             `expectedSha256`, and `actualSha256` when the file exists.",
            None,
        ),
        Code::NotObserved => (
            "With a session: changing an existing file this session has not read.",
            None,
        ),
        Code::Denied => (
            "The policy or a protected place refuses it; `details.rule` is `reserved` \
             (anything under `.stitch/`), `git` (writes under `.git/`), `deny`, `readOnly` or \
             `authorize`.",
            None,
        ),
        Code::InvalidConfig => (
            "`.stitch/config.json` exists but is malformed; every tool refuses to run \
             (`details`: `path`, `field`, `reason`).",
            Some("The workspace owner must fix it; `stitch config check` shows the problem."),
        ),
        Code::Busy => (
            "Another process held the lock longer than `--lock-timeout` (`details.retryable`: \
             true).",
            Some("Retry in a moment."),
        ),
    };
    let remedy = match code {
        Code::StaleVersion => Some(format!("{REREAD}.")),
        Code::NotObserved => Some(format!("{READ_FIRST}.")),
        Code::Denied => Some("None, or what the authorize command's reason asks.".to_owned()),
        _ => remedy.map(str::to_owned),
    };
    CodeDoc { when, remedy }
}

fn exit_status(code: Code) -> u8 {
    if code.is_invocation_error() {
        2
    } else {
        1
    }
}

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
fn contract_sections() -> String {
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
            "Inside a shell loop that reads its own stdin, pass flags or redirect \
             `</dev/null`: the zero-argument form reads stdin.",
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
             people and refusals as `error[CODE]: message` on stderr; the exit status is the \
             same. `--help` and `--version` print text; `stitch schema` prints plain JSON, \
             not an envelope.",
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
    r.item(
        "`INTERNAL_SERVER_ERROR` (exit status 3)",
        &[
            "Everything else: a cause with no case. Nothing of the cause appears in the \
             envelope.",
            "Remedy: none; `STITCH_DEBUG=1` prints the cause on stderr.",
        ],
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
                "A refusal: {}.",
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
fn see_also() -> String {
    let mut r = Roff::default();
    r.section("SEE ALSO");
    r.out.push_str(".BR stitch (1)\n");
    r.out
}

// ---------------------------------------------------------------------------------------
// The tests.

fn blessing() -> bool {
    std::env::var_os("STITCH_BLESS").is_some_and(|v| v == "1")
}

/// The committed files in `dir` (relative to the repository) that look generated
/// (`stitch*`, `_stitch*`), as relative paths.
fn committed_in(dir: &str) -> Vec<String> {
    let Ok(entries) = fs::read_dir(repository().join(dir)) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with(BIN) || name.starts_with(&format!("_{BIN}"))
        })
        .map(|e| format!("{dir}/{}", e.file_name().to_string_lossy()))
        .collect();
    names.sort();
    names
}

/// The first line where `committed` and `generated` differ, for the failure message.
fn first_difference(committed: &str, generated: &str) -> String {
    let mut committed_lines = committed.lines();
    let mut generated_lines = generated.lines();
    for number in 1.. {
        match (committed_lines.next(), generated_lines.next()) {
            (Some(a), Some(b)) if a == b => {}
            (None, None) => return "they differ in line endings or a final newline".to_owned(),
            (a, b) => {
                return format!(
                    "line {number}: committed {:?}, generated {:?}",
                    a.unwrap_or("<end of file>"),
                    b.unwrap_or("<end of file>")
                )
            }
        }
    }
    unreachable!()
}

#[test]
fn completions_and_man_pages_match_the_cli() {
    let root = repository();
    let files = generate();
    let mut drift = Vec::new();
    for (rel, content) in &files {
        let path = root.join(rel);
        match fs::read_to_string(&path) {
            Ok(committed) if committed == *content => {}
            found => {
                if blessing() {
                    fs::create_dir_all(path.parent().unwrap()).unwrap();
                    fs::write(&path, content).unwrap();
                } else if let Ok(committed) = found {
                    drift.push(format!(
                        "{rel} is out of date ({})",
                        first_difference(&committed, content)
                    ));
                } else {
                    drift.push(format!("{rel} is missing"));
                }
            }
        }
    }
    // A page or script the CLI no longer generates (a removed subcommand) is stale.
    for rel in committed_in(COMPLETIONS)
        .into_iter()
        .chain(committed_in(MAN))
    {
        if !files.iter().any(|(generated, _)| *generated == rel) {
            if blessing() {
                fs::remove_file(root.join(&rel)).unwrap();
            } else {
                drift.push(format!("{rel} is no longer generated by the CLI"));
            }
        }
    }
    assert!(
        drift.is_empty(),
        "the committed completions and man pages differ from what stitch::cli::command() \
         generates:\n  {}\nRegenerate them with `STITCH_BLESS=1 cargo test --test cli -- \
         generated::` and commit completions/ and man/.",
        drift.join("\n  ")
    );
}

#[test]
fn every_shell_and_subcommand_is_generated() {
    let files = generate();
    let names: Vec<&str> = files.iter().map(|(rel, _)| rel.as_str()).collect();
    for expected in [
        "completions/stitch.bash",
        "completions/_stitch",
        "completions/stitch.fish",
        "completions/stitch.elv",
        "completions/_stitch.ps1",
        "man/stitch.1",
        "man/stitch-config-check.1",
    ] {
        assert!(names.contains(&expected), "{expected} not in {names:?}");
    }
    for sub in stitch::cli::command().get_subcommands() {
        let page = format!("man/stitch-{}.1", sub.get_name());
        assert!(names.contains(&page.as_str()), "{page} not in {names:?}");
    }
}

#[test]
fn the_main_page_carries_the_contract_from_the_code() {
    let (_, page) = man_pages()
        .into_iter()
        .find(|(rel, _)| rel == "man/stitch.1")
        .expect("stitch.1");
    for section in [
        "TOOL ARGUMENTS",
        "THE ENVELOPE",
        "REFUSAL CODES",
        "EXIT STATUS",
        "SESSIONS",
        "POLICY",
        "ENVIRONMENT",
    ] {
        assert!(
            page.contains(&format!(".SH \"{section}\"\n")),
            "no {section} section"
        );
    }
    for code in Code::ALL {
        assert!(
            page.contains(&format!(
                ".TP\n\\fB\\%{}\\fR (exit status {})\n",
                code.as_str(),
                if code.is_invocation_error() { 2 } else { 1 }
            )),
            "{} is not documented",
            code.as_str()
        );
    }
    assert!(page.contains(&escape(READ_FIRST, false)));
    assert!(page.contains(&escape(REREAD, false)));
    // The contract comes before clap_mangen's closing section.
    let contract = page.find(".SH \"THE ENVELOPE\"").unwrap();
    assert!(page
        .find(".SH VERSION")
        .is_none_or(|version| contract < version));
}

#[test]
fn roff_escaping() {
    assert_eq!(text_line(escape(".stitch/x", false)), r"\&.stitch/x");
    assert_eq!(inline(".stitch/ is reserved"), r"\&.stitch/ is reserved");
    assert_eq!(escape("'quoted'", false), r"\(aqquoted\(aq");
    assert_eq!(escape(r"a\b", false), r"a\eb");
    assert_eq!(escape("--root", true), r"\-\-root");
    assert_eq!(escape("read-before-write", false), "read-before-write");
    assert_eq!(escape("a \u{2014} b", false), r"a \(em b");
    assert_eq!(
        inline("`.stitch/` is reserved"),
        r"\fB\%.stitch/\fR is reserved"
    );
    assert_eq!(inline("pass `--overwrite`"), r"pass \fB\%\-\-overwrite\fR");
    assert_eq!(inline("`stitch edit`"), r"\fB\%stitch \%edit\fR");
}

/// Runs `stitch ARGS` with a clean environment and returns (exit status, stdout).
fn help_of(args: &[&str]) -> (i32, String) {
    let workspace = crate::support::TestWorkspace::new();
    let output = workspace
        .cmd()
        .args(args)
        .write_stdin("")
        .output()
        .expect("run stitch");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).expect("help is UTF-8"),
    )
}

fn subcommand_paths(command: &clap::Command, prefix: &[String], out: &mut Vec<Vec<String>>) {
    for sub in command.get_subcommands() {
        let mut path = prefix.to_vec();
        path.push(sub.get_name().to_owned());
        subcommand_paths(sub, &path, out);
        out.push(path);
    }
}

#[test]
fn help_exits_0_and_shows_an_example_for_every_tool() {
    let (status, stdout) = help_of(&["--help"]);
    assert_eq!(status, 0, "stitch --help exited {status}: {stdout}");
    assert!(stdout.contains("Usage: stitch"), "stitch --help: {stdout}");

    let mut paths = Vec::new();
    subcommand_paths(&stitch::cli::command(), &[], &mut paths);
    assert!(
        paths.contains(&vec!["config".to_owned(), "check".to_owned()]),
        "{paths:?}"
    );
    for path in paths.iter().filter(|p| p[0] != "help") {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let (status, stdout) = help_of(&args);
        let shown = args.join(" ");
        assert_eq!(status, 0, "stitch {shown} exited {status}: {stdout}");
        assert!(stdout.contains("Usage: stitch"), "stitch {shown}: {stdout}");
    }

    for name in EXAMPLE_COMMANDS {
        let (status, stdout) = help_of(&[name, "--help"]);
        assert_eq!(status, 0, "stitch {name} --help exited {status}");
        let example = format!("Example: stitch {name}");
        assert!(
            stdout.lines().any(|l| l.trim_start().starts_with(&example)),
            "stitch {name} --help shows no `{example} ...` line:\n{stdout}"
        );
    }
}
