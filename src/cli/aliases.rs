//! The words people try first for stitch's commands (`rm`, `mv`, `cat`, `grep`, ...),
//! mapped to the command that does that job.
//!
//! clap's "did you mean" guesses by spelling, so `rename` gets `read`; a word of another
//! tool's vocabulary is answered by meaning instead: `rename` is `move`.

/// The command that does what `word` names in the shell's or another tool's vocabulary,
/// with how it is called; `None` for a word with no such meaning here.
#[must_use]
pub fn by_meaning(word: &str) -> Option<(&'static str, &'static str)> {
    let command = match word {
        "mv" | "rename" | "ren" => ("move", "stitch move FROM TO"),
        "rm" | "del" | "remove" | "unlink" | "rmdir" => ("delete", "stitch delete PATH"),
        "cat" | "view" | "open" | "head" | "tail" | "less" | "more" | "type" => {
            ("read", "stitch read PATH")
        }
        "ls" | "dir" | "tree" => ("list", "stitch list [PATH]"),
        "grep" | "rg" | "ag" | "ack" | "find-in-files" => ("search", "stitch search QUERY"),
        "find" | "fd" | "locate" => ("glob", "stitch glob PATTERN"),
        "create" | "new" | "touch" | "put" | "save" => {
            ("write", "stitch write PATH --content TEXT")
        }
        "replace" | "sed" | "modify" | "change" | "str_replace" => {
            ("edit", "stitch edit PATH --old TEXT --new TEXT")
        }
        "patch" | "diff" => ("apply", "stitch apply --from FILE"),
        "log" | "journal" => ("history", "stitch history"),
        "revert" | "rollback" => ("undo", "stitch undo [ID]"),
        _ => return None,
    };
    Some(command)
}

#[cfg(test)]
mod tests {
    use super::by_meaning;

    #[test]
    fn the_shell_words_lead_to_stitch_commands() {
        for (word, command) in [
            ("rename", "move"),
            ("mv", "move"),
            ("rm", "delete"),
            ("cat", "read"),
            ("ls", "list"),
            ("grep", "search"),
            ("find", "glob"),
        ] {
            assert_eq!(by_meaning(word).map(|(c, _)| c), Some(command), "{word}");
        }
        assert_eq!(by_meaning("reed"), None);
    }
}
