//! The generated documentation: shell completions in `completions/` and man pages in
//! `man/`, all made from `stitch::cli::command()` (clap_complete, clap_mangen) plus the
//! contract's sections of `stitch.1`, which quote the refusal codes and remedies from the
//! code itself; and `docs/codes.md`, the refusal codes' reference, from the same source.
//!
//! The committed files must equal what this module generates. When the CLI changes,
//! regenerate them with `STITCH_BLESS=1 cargo test --test cli -- generated::` and commit
//! the result. `completions/` and `man/` hold only generated files: a `stitch*` file there
//! that is no longer generated counts as drift, and blessing deletes it.

use std::fs;
use std::path::PathBuf;

use clap::ValueEnum;
use clap_complete::{Generator, Shell};
use clap_mangen::Man;
use stitch::hint::{READ_FIRST, REREAD};
use stitch::refusal::Code;

mod codes;
mod contract;
mod roff;
mod synopsis;
mod tools;

use contract::{contract_sections, see_also};
use roff::{escape, inline, text_line};

/// The binary's name, as completions register it and man pages title it.
const BIN: &str = "stitch";

/// Where the completions live, relative to the repository.
const COMPLETIONS: &str = "completions";
/// Where the man pages live, relative to the repository.
const MAN: &str = "man";

/// The date in the pages' `.TH` line: the last substantive change to their content. A
/// constant, so that generating is reproducible; move it on when the contract sections
/// change.
const DATE: &str = "2026-12-01";

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
    files.push((codes::PATH.to_owned(), codes::page()));
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
    collect_pages(&command, &command, &[], &mut pages);
    pages
}

fn collect_pages(
    root: &clap::Command,
    command: &clap::Command,
    path: &[&str],
    pages: &mut Vec<(String, String)>,
) {
    let top = path.is_empty();
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
    let page = String::from_utf8(page).expect("man pages are UTF-8");
    let mut page = synopsis::replaced(&page, &synopsis::synopsis(root, command, path));
    if top {
        // The contract goes before clap_mangen's closing VERSION (and AUTHORS) sections.
        let extra = contract_sections();
        match page.find("\n.SH VERSION\n") {
            Some(at) => page.insert_str(at + 1, &extra),
            None => page.push_str(&extra),
        }
    } else {
        // A command two tools share (`read`: read_file and read_files) documents both.
        for tool in stitch::registry::TOOLS
            .iter()
            .filter(|t| t.command == command.get_name())
        {
            page.push_str(&tools::tool_sections(tool, command));
        }
        page.push_str(&see_also());
    }
    pages.push((format!("{MAN}/{}", man.get_filename()), page));
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let mut path = path.to_vec();
        path.push(sub.get_name());
        collect_pages(root, sub, &path, pages);
    }
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
         generated::` and commit completions/, man/ and docs/codes.md.",
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

/// Each tool's page lists every JSON field of its schema with the flag that sets it, every
/// refusal code the registry gives it, and the stdin rule.
#[test]
fn every_tool_page_lists_its_fields_refusals_and_stdin_rule() {
    let pages = man_pages();
    let mut seen = 0;
    for tool in stitch::registry::TOOLS {
        let (_, page) = pages
            .iter()
            .find(|(rel, _)| *rel == format!("man/stitch-{}.1", tool.command))
            .unwrap_or_else(|| panic!("no page for {}", tool.command));
        for section in ["JSON FIELDS", "REFUSALS", "STDIN"] {
            assert!(
                page.contains(&format!(".SH \"{section}\"\n")),
                "stitch-{} has no {section} section",
                tool.command
            );
        }
        let schema = (tool.schema)();
        for field in schema["properties"].as_object().unwrap().keys() {
            assert!(
                page.contains(&format!(".TP\n\\fB\\%{field}\\fR (")),
                "stitch-{} does not list the field {field}",
                tool.command
            );
        }
        for code in tool.refusals {
            assert!(
                page.contains(&format!(".TP\n\\fB\\%{}\\fR (exit status", code.as_str())),
                "stitch-{} does not list {}",
                tool.command,
                code.as_str()
            );
        }
        assert!(page.contains("200 ms") && page.contains("2 s"));
        seen += 1;
    }
    assert_eq!(seen, stitch::registry::TOOLS.len());
    // The flag of a field is found from the real command line, switches that send
    // something other than true included.
    let (_, search) = pages
        .iter()
        .find(|(rel, _)| rel == "man/stitch-search.1")
        .unwrap();
    assert!(search.contains(r"Set by \fB\%\-i, \%\-\-ignore\-case\fR (which sends \fB\%false\fR)."));
    let (_, edit) = pages
        .iter()
        .find(|(rel, _)| rel == "man/stitch-edit.1")
        .unwrap();
    assert!(edit.contains(r"Set by \fB\%\-\-old \%TEXT\fR, \fB\%\-\-old\-from \%FILE\fR."));
}

/// Each page's SYNOPSIS names every option with its argument, a command's own options
/// after its name, and the global ones apart, on a line of their own.
#[test]
fn the_synopsis_shows_arguments_and_keeps_global_options_apart() {
    let pages = man_pages();
    let page = |name: &str| {
        pages
            .iter()
            .find(|(rel, _)| rel == &format!("man/{name}.1"))
            .map_or_else(|| panic!("no {name}.1"), |(_, page)| page.clone())
    };
    let synopsis = |page: &str| {
        let start = page.find(".SH SYNOPSIS\n").expect("a SYNOPSIS") + ".SH SYNOPSIS\n".len();
        let end = page[start..]
            .find("\n.SH ")
            .map_or(page.len(), |at| start + at);
        page[start..end].to_owned()
    };
    let edit = synopsis(&page("stitch-edit"));
    let (own, global) = edit.split_once("\n.PP\n").expect("two parts");
    assert!(
        own.starts_with(r"\fBstitch\fR [\fIGLOBAL OPTIONS\fR] \fBedit\fR "),
        "{own}"
    );
    assert!(own.contains(r"[\fB\-\-old\fR \fITEXT\fR]"), "{own}");
    assert!(
        own.contains(r"[\fB\-\-expected\-sha256\fR \fIHEX\fR]"),
        "{own}"
    );
    assert!(own.ends_with(r"[\fIPATH\fR]"), "{own}");
    assert!(!own.contains(r"\-\-root"), "{own}");
    assert!(global.starts_with("GLOBAL OPTIONS: "), "{global}");
    assert!(global.contains(r"[\fB\-\-root\fR \fIDIR\fR]"), "{global}");
    assert!(!global.contains(r"\-\-old"), "{global}");
    let nested = synopsis(&page("stitch-config-check"));
    assert!(
        nested.starts_with(r"\fBstitch\fR [\fIGLOBAL OPTIONS\fR] \fBconfig\fR \fBcheck\fR"),
        "{nested}"
    );
    let main = synopsis(&page("stitch"));
    assert!(main.contains(r"[\fB\-\-format\fR \fIFORMAT\fR]"), "{main}");
    assert!(
        main.trim_end().ends_with(r"\fICOMMAND\fR [\fIARGS\fR]"),
        "{main}"
    );
}
