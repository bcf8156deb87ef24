//! The command tree a call parses with: the root and only the subcommand the command line
//! names, when it plainly names one.
//!
//! Before it parses, clap copies every global option (`--root`, `--session`, ...) into every
//! subcommand: six options into fourteen subcommands, 84 copies, a fifth of a small call's
//! own work. A command line that names its subcommand after nothing but global options is
//! parsed by a root holding that subcommand alone, which gets the same matches, the same
//! help and the same errors for it. Anything else — no subcommand, an unknown word, `help`,
//! `--help` or `--version` before the subcommand, `--` — is parsed by the whole tree, so
//! every message that lists or suggests subcommands is as it was.

use std::ffi::OsString;

use clap::CommandFactory;

use super::Cli;

/// The command to parse `args` (the program's name first) with.
#[must_use]
pub fn command_for(args: &[OsString]) -> clap::Command {
    let full = Cli::command();
    let Some(name) = named(&full, args) else {
        return full;
    };
    let Some(sub) = full.find_subcommand(name).cloned() else {
        return full;
    };
    // The root's own texts (about, after_help) are shown only by its help, which this
    // tree never gives: `--help` before the subcommand takes the whole one.
    clap::Command::new("stitch")
        .version(env!("CARGO_PKG_VERSION"))
        .max_term_width(100)
        .subcommand_required(full.is_subcommand_required_set())
        .arg_required_else_help(full.is_arg_required_else_help_set())
        .args(full.get_arguments().cloned())
        .subcommand(sub)
}

/// The subcommand `args` name after nothing but global options (and their values), if
/// they do.
fn named<'a>(full: &clap::Command, args: &'a [OsString]) -> Option<&'a str> {
    let mut rest = args.iter().skip(1);
    while let Some(arg) = rest.next() {
        let arg = arg.to_str()?;
        let Some(long) = arg.strip_prefix("--") else {
            // The first word that is no option: the subcommand, if it is one of them.
            return full.find_subcommand(arg).is_some().then_some(arg);
        };
        let (long, inline) = match long.split_once('=') {
            Some((long, _)) => (long, true),
            None => (long, false),
        };
        // `--`, `--help`, `--version` or an unknown option: the whole tree answers.
        let global = full
            .get_arguments()
            .find(|a| a.is_global_set() && a.get_long() == Some(long))?;
        if global.get_action().takes_values() && !inline {
            rest.next()?;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::FromArgMatches;

    fn words(line: &str) -> Vec<OsString> {
        std::iter::once("stitch")
            .chain(line.split(' ').filter(|w| !w.is_empty()))
            .map(OsString::from)
            .collect()
    }

    /// What a command tree makes of `args`: the parsed command line, or the error as a
    /// person would see it.
    fn outcome(mut command: clap::Command, args: &[OsString]) -> String {
        match command
            .try_get_matches_from_mut(args)
            .and_then(|m| Cli::from_arg_matches(&m))
        {
            Ok(cli) => format!("{cli:?}"),
            Err(e) => format!("{:?}: {}", e.kind(), e.render()),
        }
    }

    #[test]
    fn a_named_subcommand_is_parsed_alone_and_as_by_the_whole_tree() {
        for line in [
            "edit a.txt --old x --new y",
            "--root /tmp --pretty edit a.txt --old x --new y --session s1",
            "--root=/tmp --lock-timeout 2 read a.txt --offset 3",
            "--format text search foo --glob *.rs -l",
            "--session edit read a.txt",
            "read a.txt --root /r --format json --color never",
            "move a b --overwrite",
            "config check",
            "config trust",
            "schema edit_file",
            "undo --dry-run",
            "edit a.txt --bogus",
            "edit --help",
            "read",
            "write a.txt --content",
            "glob --limit x *.rs",
        ] {
            let args = words(line);
            let pruned = command_for(&args);
            let name = named(&Cli::command(), &args).unwrap_or_else(|| panic!("{line}"));
            assert_eq!(pruned.get_version(), Cli::command().get_version());
            assert_eq!(
                pruned
                    .get_subcommands()
                    .map(clap::Command::get_name)
                    .collect::<Vec<_>>(),
                [Cli::command().find_subcommand(name).unwrap().get_name()],
                "{line}"
            );
            assert_eq!(
                outcome(pruned, &args),
                outcome(Cli::command(), &args),
                "{line}"
            );
        }
    }

    #[test]
    fn anything_else_is_parsed_by_the_whole_tree() {
        let all = Cli::command().get_subcommands().count();
        assert!(all > 10);
        for line in [
            "",
            "--help",
            "--version",
            "--help edit",
            "-V edit",
            "help edit",
            "edti a.txt",
            "-- edit",
            "--bogus edit",
            "--root",
            "--pretty",
        ] {
            let args = words(line);
            assert_eq!(command_for(&args).get_subcommands().count(), all, "{line}");
            assert_eq!(
                outcome(command_for(&args), &args),
                outcome(Cli::command(), &args),
                "{line}"
            );
        }
    }
}
