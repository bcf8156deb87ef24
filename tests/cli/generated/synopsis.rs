//! The SYNOPSIS of each man page, written here rather than by clap_mangen, whose synopsis
//! names options without their arguments (`[--root]`) and mixes the global options into
//! every command's list. Here each option carries its argument (`[--root DIR]`), a
//! command's own options come after its name, and the global ones are shown once, as
//! `[GLOBAL OPTIONS]`, with their own line on the main page.

use std::fmt::Write as _;

use super::roff::escape;

/// The global options of `root`: those a subcommand inherits.
fn is_global(root: &clap::Command, arg: &clap::Arg) -> bool {
    root.get_arguments()
        .any(|g| g.get_id() == arg.get_id() && g.is_global_set())
}

/// `[--old TEXT]`, `[-h|--help]`, `PATH` or `[PATH]`, in roff.
fn shown(arg: &clap::Arg) -> String {
    let value = || {
        let names = arg.get_value_names().map_or_else(
            || vec![arg.get_id().as_str().to_uppercase()],
            |names| names.iter().map(ToString::to_string).collect::<Vec<_>>(),
        );
        names
            .iter()
            .map(|n| format!(r"\fI{}\fR", escape(n, true)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let body = if arg.is_positional() {
        let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
        format!("{}{}", value(), if many { r"\&..." } else { "" })
    } else {
        let mut flags = Vec::new();
        if let Some(short) = arg.get_short() {
            flags.push(format!(r"\fB\-{}\fR", escape(&short.to_string(), true)));
        }
        if let Some(long) = arg.get_long() {
            flags.push(format!(r"\fB\-\-{}\fR", escape(long, true)));
        }
        let takes = arg.get_action().takes_values();
        if takes {
            format!("{} {}", flags.join("|"), value())
        } else {
            flags.join("|")
        }
    };
    if arg.is_required_set() {
        body
    } else {
        format!("[{body}]")
    }
}

/// The options of `command` to show, in clap's display order: positionals last, hidden
/// ones and (with `global` false) the global ones left out.
fn listed<'a>(
    root: &'a clap::Command,
    command: &'a clap::Command,
    global: bool,
) -> impl Iterator<Item = &'a clap::Arg> {
    let mut args: Vec<&clap::Arg> = command
        .get_arguments()
        .filter(move |a| !a.is_hide_set() && is_global(root, a) == global)
        .collect();
    args.sort_by_key(|a| (a.is_positional(), a.get_display_order()));
    args.into_iter()
}

/// The SYNOPSIS section of the page of `command`, reached from `root` by the subcommand
/// names in `path` (empty for the main page).
pub(super) fn synopsis(root: &clap::Command, command: &clap::Command, path: &[&str]) -> String {
    let mut line = String::from(r"\fBstitch\fR");
    if path.is_empty() {
        for arg in listed(root, command, true) {
            line.push(' ');
            line.push_str(&shown(arg));
        }
        for arg in listed(root, command, false) {
            line.push(' ');
            line.push_str(&shown(arg));
        }
        line.push_str(r" \fICOMMAND\fR [\fIARGS\fR]");
        return format!(".SH SYNOPSIS\n{line}\n");
    }
    line.push_str(r" [\fIGLOBAL OPTIONS\fR]");
    for name in path {
        let _ = write!(line, r" \fB{}\fR", escape(name, true));
    }
    for arg in listed(root, command, false) {
        line.push(' ');
        line.push_str(&shown(arg));
    }
    if command.has_subcommands() {
        line.push_str(r" \fICOMMAND\fR");
    }
    let globals: Vec<String> = listed(root, command, true).map(shown).collect();
    format!(
        ".SH SYNOPSIS\n{line}\n.PP\nGLOBAL OPTIONS: {}\n",
        globals.join(" ")
    )
}

/// `page` with clap_mangen's SYNOPSIS section replaced by `synopsis`.
pub(super) fn replaced(page: &str, synopsis: &str) -> String {
    let Some(start) = page.find(".SH SYNOPSIS\n") else {
        return page.to_owned();
    };
    let end = page[start + 1..]
        .find("\n.SH ")
        .map_or(page.len(), |at| start + 1 + at + 1);
    format!("{}{synopsis}{}", &page[..start], &page[end..])
}
