//! The caller's dialect: how a hint names arguments and tools, and the hint of a result
//! that a limit cut.

/// How the call spelled its arguments, and so how a hint names them: a person or a
/// script at a shell reads flags and commands; a model that sent JSON reads field and
/// tool names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Caller {
    /// The arguments came as one JSON object (stdin, or an MCP call).
    #[default]
    Json,
    /// The arguments came as flags on the command line.
    Flags,
}

impl Caller {
    /// How a hint names the tool `tool` (its wire name, from `crate::names`): `edit_file`,
    /// or its command, `stitch edit`.
    #[must_use]
    pub fn tool(self, tool: &str) -> String {
        match (self, crate::names::command(tool)) {
            (Caller::Flags, Some(command)) => format!("stitch {command}"),
            _ => tool.to_owned(),
        }
    }

    /// How a hint names the argument `field` (its JSON name): the field itself, or the
    /// flag (or positional) that sets it. The command line's unit tests hold every flag
    /// spelling here to a real flag of each tool that has the field.
    #[must_use]
    pub fn name(self, field: &str) -> &str {
        match self {
            Caller::Json => field,
            Caller::Flags => flag(field).unwrap_or(field),
        }
    }

    /// How a hint says "set this boolean": `replaceAll: true` or `--replace-all`.
    #[must_use]
    pub fn switch(self, field: &str) -> String {
        match self {
            Caller::Json => format!("{field}: true"),
            Caller::Flags => flag(field).unwrap_or(field).to_owned(),
        }
    }
}

/// The command-line spelling of a JSON field, where it has one: a long flag, or the
/// value name of a positional. `path` is the positional of read, write, edit and list,
/// and `--path` of glob and search; hints name it as the path argument.
#[must_use]
pub fn flag(field: &str) -> Option<&'static str> {
    Some(match field {
        "path" | "paths" => "PATH",
        "pattern" => "PATTERN",
        "query" => "QUERY",
        "from" => "FROM",
        "to" => "TO",
        "id" => "ID",
        "session" => "--session",
        "content" => "--content",
        "overwrite" => "--overwrite",
        "oldText" => "--old",
        "newText" => "--new",
        "replaceAll" => "--replace-all",
        "expectedReplacements" => "--expected-replacements",
        "expectedSha256" => "--expected-sha256",
        "okIfApplied" => "--ok-if-applied",
        "allowSyntaxErrors" => "--allow-syntax-errors",
        "dryRun" => "--dry-run",
        "redo" => "--redo",
        "offset" => "--offset",
        "limit" => "--limit",
        "maxBytes" => "--max-bytes",
        "lineNumbers" => "--number",
        "patch" => "--patch",
        "depth" => "--depth",
        "includeIgnored" => "--all",
        "include" | "glob" => "--glob",
        "regex" => "--regex",
        "caseSensitive" => "--ignore-case",
        "context" => "--context",
        "mode" => "--mode",
        "root" => "--root",
        "lockTimeout" => "--lock-timeout",
        "format" => "--format",
        "json" => "--json",
        "null" => "--null",
        "insertAfter" => "--insert-after",
        "expectedLine" => "--expected-line",
        "maxTotalBytes" => "--max-total-bytes",
        _ => return None,
    })
}

/// What narrows a listing that a limit cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Narrow {
    /// `list_directory`: a subdirectory, or less depth.
    List,
    /// `glob`: the pattern or the directory.
    Glob,
    /// `search_files`: the directory or a glob of file names.
    Search,
}

/// The `hint` of a result that a limit cut after `shown` items: what was shown, how to
/// narrow it, and how far the limit may be raised (`cap`).
#[must_use]
pub fn cut(dialect: Caller, shown: usize, narrow: Narrow, cap: u64) -> String {
    let shown = match narrow {
        Narrow::List => format!("the first {shown} entries"),
        Narrow::Glob => format!("the first {shown} matches in byte order"),
        Narrow::Search => format!("the first {shown} matches in path order"),
    };
    let narrow = match (narrow, dialect) {
        (Narrow::List, Caller::Json) => "list a subdirectory or lower depth",
        (Narrow::List, Caller::Flags) => "list a subdirectory or lower --depth",
        (Narrow::Glob, Caller::Json) => "narrow the pattern or path",
        (Narrow::Glob, Caller::Flags) => "narrow the pattern or --path",
        (Narrow::Search, Caller::Json) => "narrow with path or include",
        (Narrow::Search, Caller::Flags) => "narrow with --path or --glob",
    };
    let limit = match dialect {
        Caller::Json => "limit",
        Caller::Flags => "--limit",
    };
    format!("Showing {shown}: {narrow}, or raise {limit} (up to {cap}).")
}

/// `word` as one shell word, for a command a hint names: as it is when every character is
/// one no shell treats specially, else single-quoted (a `'` written `'\''`). A path that
/// begins with `-` is led by `./`, so it is not taken for a flag.
#[must_use]
pub fn shell_word(word: &str) -> String {
    let word = if word.starts_with('-') {
        format!("./{word}")
    } else {
        word.to_owned()
    };
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./-+@%:,=".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return word;
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}
