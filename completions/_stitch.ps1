
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'stitch' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'stitch'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'stitch' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('read', 'read', [CompletionResultType]::ParameterValue, 'Read a text file, paged by lines; an image or a PDF whole; or several files at once')
            [CompletionResult]::new('write', 'write', [CompletionResultType]::ParameterValue, 'Create a file (or replace one, explicitly), creating missing parents')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Replace exact snippets in one file, atomically')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List a directory, optionally recursively')
            [CompletionResult]::new('glob', 'glob', [CompletionResultType]::ParameterValue, 'Find files by glob pattern (* stays within a directory, ** crosses them)')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search file contents (or paths) by literal text or regex')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Apply one change across files, all or nothing: a Codex patch, a unified diff or SEARCH/REPLACE blocks (journaled: stitch undo takes the whole change back)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a file (journaled: stitch undo brings it back)')
            [CompletionResult]::new('move', 'move', [CompletionResultType]::ParameterValue, 'Move or rename a file, creating missing parents (journaled: stitch undo moves it back)')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'List the changes stitch made in this workspace, newest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one change: each file''s operation and diff, from the versions the journal keeps')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Take a change back (default: the newest not yet undone), refused when a file moved on since')
            [CompletionResult]::new('redo', 'redo', [CompletionResultType]::ParameterValue, 'Take back the newest undo (of this session, with --session), so its change stands again')
            [CompletionResult]::new('text-editor', 'text-editor', [CompletionResultType]::ParameterValue, 'Serve one command of Anthropic''s text-editor tool (str_replace_based_edit_tool), read as JSON on stdin, with stitch''s own tools and guards')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the tool definitions: name, description and JSON Schema of the arguments')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Check the configs (the user''s and the workspace''s), or trust the workspace''s')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the tools to an MCP host over stdio until stdin closes')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'stitch;read' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'First line to return, 1-based')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Number of lines to return')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'Cap on the returned text, in bytes')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Read every file matching this glob (relative to PATH, default .), in one call')
            [CompletionResult]::new('--max-total-bytes', '--max-total-bytes', [CompletionResultType]::ParameterName, 'With several files: cap on the bytes returned for all of them together')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Prefix each line with its number and a tab, as cat -n does (for reading only; the sha256 is still the raw file''s)')
            [CompletionResult]::new('--number', '--number', [CompletionResultType]::ParameterName, 'Prefix each line with its number and a tab, as cat -n does (for reading only; the sha256 is still the raw file''s)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Read the tool''s arguments as one JSON object from stdin')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;write' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--content', '--content', [CompletionResultType]::ParameterName, 'The new content')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Read the new content from FILE (- = stdin), as raw bytes')
            [CompletionResult]::new('--expected-sha256', '--expected-sha256', [CompletionResultType]::ParameterName, 'Replace only if the file''s current SHA-256 is HEX')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('--overwrite', '--overwrite', [CompletionResultType]::ParameterName, 'Replace the file if it exists')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Check everything, change nothing')
            [CompletionResult]::new('--allow-syntax-errors', '--allow-syntax-errors', [CompletionResultType]::ParameterName, 'Apply even if the result breaks the file''s syntax (a later change completes it)')
            [CompletionResult]::new('--no-diff', '--no-diff', [CompletionResultType]::ParameterName, 'Print the one summary line, without the diff; implies --format text')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Read the tool''s arguments as one JSON object from stdin')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;edit' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--old', '--old', [CompletionResultType]::ParameterName, 'The exact text to replace')
            [CompletionResult]::new('--new', '--new', [CompletionResultType]::ParameterName, 'The replacement text')
            [CompletionResult]::new('--old-from', '--old-from', [CompletionResultType]::ParameterName, 'Read the text to replace from FILE (- = stdin)')
            [CompletionResult]::new('--new-from', '--new-from', [CompletionResultType]::ParameterName, 'Read the replacement from FILE (- = stdin)')
            [CompletionResult]::new('--expected-replacements', '--expected-replacements', [CompletionResultType]::ParameterName, 'Refuse unless exactly N occurrences match')
            [CompletionResult]::new('--expected-sha256', '--expected-sha256', [CompletionResultType]::ParameterName, 'Refuse unless the file''s current SHA-256 is HEX')
            [CompletionResult]::new('--insert-after', '--insert-after', [CompletionResultType]::ParameterName, 'Insert the --new text after line N instead of replacing --old (0 = at the top)')
            [CompletionResult]::new('--expected-line', '--expected-line', [CompletionResultType]::ParameterName, 'With --insert-after: insert only if line N holds exactly TEXT now')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('--replace-all', '--replace-all', [CompletionResultType]::ParameterName, 'Replace every occurrence')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Compute the result and diff, change nothing')
            [CompletionResult]::new('--ok-if-applied', '--ok-if-applied', [CompletionResultType]::ParameterName, 'Succeed, changing nothing, when the edit is already applied')
            [CompletionResult]::new('--allow-syntax-errors', '--allow-syntax-errors', [CompletionResultType]::ParameterName, 'Apply even if the result breaks the file''s syntax (a later change completes it)')
            [CompletionResult]::new('--no-diff', '--no-diff', [CompletionResultType]::ParameterName, 'Print the one summary line, without the diff; implies --format text')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Read the tool''s arguments as one JSON object from stdin')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;list' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--depth', '--depth', [CompletionResultType]::ParameterName, 'How many levels to descend (1 = the directory''s own entries)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'The most entries or matches to return')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Include what ignore rules and hidden names hide (never .stitch/)')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'End each name with NUL instead of a newline, for names holding newlines (as `find -print0`, `rg --null`); implies --format text')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, 'End each name with NUL instead of a newline, for names holding newlines (as `find -print0`, `rg --null`); implies --format text')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Read the tool''s arguments as one JSON object from stdin')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;glob' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'The directory to search below [default: .]')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'The most entries or matches to return')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Include what ignore rules and hidden names hide (never .stitch/)')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'End each name with NUL instead of a newline, for names holding newlines (as `find -print0`, `rg --null`); implies --format text')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, 'End each name with NUL instead of a newline, for names holding newlines (as `find -print0`, `rg --null`); implies --format text')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Read the tool''s arguments as one JSON object from stdin')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;search' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'The directory (or file) to search [default: .]')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Only search files matching this glob (a glob without `/` matches file names)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Lines of context before and after each match (0-10)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Lines of context before and after each match (0-10)')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'Match contents (default) or workspace-relative paths')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'The most entries or matches to return')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('--regex', '--regex', [CompletionResultType]::ParameterName, 'Treat the query as a regular expression (linear time: no look-around or backreferences)')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Match case-insensitively')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Match case-insensitively')
            [CompletionResult]::new('--paths-only', '--paths-only', [CompletionResultType]::ParameterName, 'Same as --mode path')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Print only the paths of files with a match, each once, every one of them (as rg -l; --limit does not apply); implies --format text')
            [CompletionResult]::new('--files-with-matches', '--files-with-matches', [CompletionResultType]::ParameterName, 'Print only the paths of files with a match, each once, every one of them (as rg -l; --limit does not apply); implies --format text')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Print each file with a match and its number of matching lines, path:count (as rg -c), counting every match (--limit does not apply); implies --format text')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Print each file with a match and its number of matching lines, path:count (as rg -c), counting every match (--limit does not apply); implies --format text')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing: exit 0 at the first match, 1 when nothing matched (as rg -q)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing: exit 0 at the first match, 1 when nothing matched (as rg -q)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Include what ignore rules and hidden names hide (never .stitch/)')
            [CompletionResult]::new('-0', '-0', [CompletionResultType]::ParameterName, 'End each name with NUL instead of a newline, for names holding newlines (as `find -print0`, `rg --null`); implies --format text')
            [CompletionResult]::new('--null', '--null', [CompletionResultType]::ParameterName, 'End each name with NUL instead of a newline, for names holding newlines (as `find -print0`, `rg --null`); implies --format text')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Read the tool''s arguments as one JSON object from stdin')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;apply' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'The patch text')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Read the patch from FILE (- = stdin), as raw bytes')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Check everything, change nothing')
            [CompletionResult]::new('--ok-if-applied', '--ok-if-applied', [CompletionResultType]::ParameterName, 'A patch applied whole already is a success that changes nothing')
            [CompletionResult]::new('--allow-syntax-errors', '--allow-syntax-errors', [CompletionResultType]::ParameterName, 'Apply even if the result breaks the file''s syntax (a later change completes it)')
            [CompletionResult]::new('--no-diff', '--no-diff', [CompletionResultType]::ParameterName, 'Print the one summary line, without the diff; implies --format text')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Read the tool''s arguments as one JSON object from stdin')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;delete' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--expected-sha256', '--expected-sha256', [CompletionResultType]::ParameterName, 'Delete only if the file''s current SHA-256 is HEX')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Check everything, change nothing')
            [CompletionResult]::new('--no-diff', '--no-diff', [CompletionResultType]::ParameterName, 'Print the one summary line, without the diff; implies --format text')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Read the tool''s arguments as one JSON object from stdin')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;move' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--expected-sha256', '--expected-sha256', [CompletionResultType]::ParameterName, 'Move only if FROM''s current SHA-256 is HEX')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('--overwrite', '--overwrite', [CompletionResultType]::ParameterName, 'Replace a file at TO')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Check everything, change nothing')
            [CompletionResult]::new('--no-diff', '--no-diff', [CompletionResultType]::ParameterName, 'Print the one summary line, without the diff; implies --format text')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Read the tool''s arguments as one JSON object from stdin')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;history' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'The most changes to list')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('--stat', '--stat', [CompletionResultType]::ParameterName, 'Each change on a line, then each of its files on a line of its own with the lines it added and removed (+N -M), as git log --stat; implies --format text')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Read the tool''s arguments as one JSON object from stdin')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;show' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Read the tool''s arguments as one JSON object from stdin')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;undo' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Check everything, change nothing')
            [CompletionResult]::new('--redo', '--redo', [CompletionResultType]::ParameterName, 'Redo: take back the newest undo (or the undo ID names), so its change stands again')
            [CompletionResult]::new('--allow-syntax-errors', '--allow-syntax-errors', [CompletionResultType]::ParameterName, 'Apply even if the result breaks the file''s syntax (a later change completes it)')
            [CompletionResult]::new('--no-diff', '--no-diff', [CompletionResultType]::ParameterName, 'Print the one summary line, without the diff; implies --format text')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Read the tool''s arguments as one JSON object from stdin')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;redo' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Check everything, change nothing')
            [CompletionResult]::new('--no-diff', '--no-diff', [CompletionResultType]::ParameterName, 'Print the one summary line, without the diff; implies --format text')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Read the tool''s arguments as one JSON object from stdin')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;text-editor' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;schema' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;config' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate the configs and print, for each setting in force, the config it came from, and whether the workspace''s config is trusted')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Trust this workspace''s .stitch/config.json, at a terminal, after reviewing it')
            [CompletionResult]::new('untrust', 'untrust', [CompletionResultType]::ParameterValue, 'Stop trusting this workspace''s .stitch/config.json')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'stitch;config;check' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;config;trust' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;config;untrust' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;config;help' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate the configs and print, for each setting in force, the config it came from, and whether the workspace''s config is trusted')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Trust this workspace''s .stitch/config.json, at a terminal, after reviewing it')
            [CompletionResult]::new('untrust', 'untrust', [CompletionResultType]::ParameterValue, 'Stop trusting this workspace''s .stitch/config.json')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'stitch;config;help;check' {
            break
        }
        'stitch;config;help;trust' {
            break
        }
        'stitch;config;help;untrust' {
            break
        }
        'stitch;config;help;help' {
            break
        }
        'stitch;mcp' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The workspace: nothing outside it is ever read or written [default: current directory]')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Turn on read-before-write guards for this session')
            [CompletionResult]::new('--lock-timeout', '--lock-timeout', [CompletionResultType]::ParameterName, 'How long a mutation waits for another process''s lock before BUSY')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp')
            [CompletionResult]::new('--pretty', '--pretty', [CompletionResultType]::ParameterName, 'Indent the envelope')
            [CompletionResult]::new('--no-session', '--no-session', [CompletionResultType]::ParameterName, 'Turn the read-before-write guards off (by default each connection is a fresh session)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'stitch;help' {
            [CompletionResult]::new('read', 'read', [CompletionResultType]::ParameterValue, 'Read a text file, paged by lines; an image or a PDF whole; or several files at once')
            [CompletionResult]::new('write', 'write', [CompletionResultType]::ParameterValue, 'Create a file (or replace one, explicitly), creating missing parents')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Replace exact snippets in one file, atomically')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List a directory, optionally recursively')
            [CompletionResult]::new('glob', 'glob', [CompletionResultType]::ParameterValue, 'Find files by glob pattern (* stays within a directory, ** crosses them)')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search file contents (or paths) by literal text or regex')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Apply one change across files, all or nothing: a Codex patch, a unified diff or SEARCH/REPLACE blocks (journaled: stitch undo takes the whole change back)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete a file (journaled: stitch undo brings it back)')
            [CompletionResult]::new('move', 'move', [CompletionResultType]::ParameterValue, 'Move or rename a file, creating missing parents (journaled: stitch undo moves it back)')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'List the changes stitch made in this workspace, newest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one change: each file''s operation and diff, from the versions the journal keeps')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Take a change back (default: the newest not yet undone), refused when a file moved on since')
            [CompletionResult]::new('redo', 'redo', [CompletionResultType]::ParameterValue, 'Take back the newest undo (of this session, with --session), so its change stands again')
            [CompletionResult]::new('text-editor', 'text-editor', [CompletionResultType]::ParameterValue, 'Serve one command of Anthropic''s text-editor tool (str_replace_based_edit_tool), read as JSON on stdin, with stitch''s own tools and guards')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the tool definitions: name, description and JSON Schema of the arguments')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Check the configs (the user''s and the workspace''s), or trust the workspace''s')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the tools to an MCP host over stdio until stdin closes')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'stitch;help;read' {
            break
        }
        'stitch;help;write' {
            break
        }
        'stitch;help;edit' {
            break
        }
        'stitch;help;list' {
            break
        }
        'stitch;help;glob' {
            break
        }
        'stitch;help;search' {
            break
        }
        'stitch;help;apply' {
            break
        }
        'stitch;help;delete' {
            break
        }
        'stitch;help;move' {
            break
        }
        'stitch;help;history' {
            break
        }
        'stitch;help;show' {
            break
        }
        'stitch;help;undo' {
            break
        }
        'stitch;help;redo' {
            break
        }
        'stitch;help;text-editor' {
            break
        }
        'stitch;help;schema' {
            break
        }
        'stitch;help;config' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate the configs and print, for each setting in force, the config it came from, and whether the workspace''s config is trusted')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Trust this workspace''s .stitch/config.json, at a terminal, after reviewing it')
            [CompletionResult]::new('untrust', 'untrust', [CompletionResultType]::ParameterValue, 'Stop trusting this workspace''s .stitch/config.json')
            break
        }
        'stitch;help;config;check' {
            break
        }
        'stitch;help;config;trust' {
            break
        }
        'stitch;help;config;untrust' {
            break
        }
        'stitch;help;mcp' {
            break
        }
        'stitch;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
