# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_stitch_global_optspecs
    string join \n root= session= lock-timeout= pretty color= format= h/help V/version
end

function __fish_stitch_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_stitch_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_stitch_using_subcommand
    set -l cmd (__fish_stitch_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c stitch -n "__fish_stitch_needs_command" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_needs_command" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_needs_command" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_needs_command" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_needs_command" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_needs_command" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_needs_command" -s V -l version -d 'Print version'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "read" -d 'Read a text file, paged by lines; an image or a PDF whole; or several files at once'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "write" -d 'Create a file (or replace one, explicitly), creating missing parents'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "edit" -d 'Replace exact snippets in one file, atomically'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "list" -d 'List a directory, optionally recursively'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "glob" -d 'Find files by glob pattern (* stays within a directory, ** crosses them)'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "search" -d 'Search file contents (or paths) by literal text or regex'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "apply" -d 'Apply one change across files, all or nothing: a Codex patch, a unified diff or SEARCH/REPLACE blocks (journaled: stitch undo takes the whole change back)'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "delete" -d 'Delete a file (journaled: stitch undo brings it back)'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "move" -d 'Move or rename a file, creating missing parents (journaled: stitch undo moves it back)'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "history" -d 'List the changes stitch made in this workspace, newest first'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "show" -d 'Show one change: each file\'s operation and diff, from the versions the journal keeps'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "undo" -d 'Take a change back (default: the newest not yet undone), refused when a file moved on since'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "redo" -d 'Take back the newest undo (of this session, with --session), so its change stands again'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "text-editor" -d 'Serve one command of Anthropic\'s text-editor tool (str_replace_based_edit_tool), read as JSON on stdin, with stitch\'s own tools and guards'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "schema" -d 'Print the tool definitions: name, description and JSON Schema of the arguments'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "config" -d 'Check the configs (the user\'s and the workspace\'s), or trust the workspace\'s'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "mcp" -d 'Serve the tools to an MCP host over stdio until stdin closes'
complete -c stitch -n "__fish_stitch_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c stitch -n "__fish_stitch_using_subcommand read" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand read" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand read" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand read" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand read" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand read" -l offset -d 'First line to return, 1-based' -r
complete -c stitch -n "__fish_stitch_using_subcommand read" -l limit -d 'Number of lines to return' -r
complete -c stitch -n "__fish_stitch_using_subcommand read" -l max-bytes -d 'Cap on the returned text, in bytes' -r
complete -c stitch -n "__fish_stitch_using_subcommand read" -l glob -d 'Read every file matching this glob (relative to PATH, default .), in one call' -r
complete -c stitch -n "__fish_stitch_using_subcommand read" -l max-total-bytes -d 'With several files: cap on the bytes returned for all of them together' -r
complete -c stitch -n "__fish_stitch_using_subcommand read" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand read" -s n -l number -d 'Prefix each line with its number and a tab, as cat -n does (for reading only; the sha256 is still the raw file\'s)'
complete -c stitch -n "__fish_stitch_using_subcommand read" -l json -d 'Read the tool\'s arguments as one JSON object from stdin'
complete -c stitch -n "__fish_stitch_using_subcommand read" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand write" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand write" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand write" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand write" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand write" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand write" -l content -d 'The new content' -r
complete -c stitch -n "__fish_stitch_using_subcommand write" -l from -d 'Read the new content from FILE (- = stdin), as raw bytes' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand write" -l expected-sha256 -d 'Replace only if the file\'s current SHA-256 is HEX' -r
complete -c stitch -n "__fish_stitch_using_subcommand write" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand write" -l overwrite -d 'Replace the file if it exists'
complete -c stitch -n "__fish_stitch_using_subcommand write" -l dry-run -d 'Check everything, change nothing'
complete -c stitch -n "__fish_stitch_using_subcommand write" -l allow-syntax-errors -d 'Apply even if the result breaks the file\'s syntax (a later change completes it)'
complete -c stitch -n "__fish_stitch_using_subcommand write" -l no-diff -d 'Print the one summary line, without the diff; implies --format text'
complete -c stitch -n "__fish_stitch_using_subcommand write" -l json -d 'Read the tool\'s arguments as one JSON object from stdin'
complete -c stitch -n "__fish_stitch_using_subcommand write" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l old -d 'The exact text to replace' -r
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l new -d 'The replacement text' -r
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l old-from -d 'Read the text to replace from FILE (- = stdin)' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l new-from -d 'Read the replacement from FILE (- = stdin)' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l expected-replacements -d 'Refuse unless exactly N occurrences match' -r
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l expected-sha256 -d 'Refuse unless the file\'s current SHA-256 is HEX' -r
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l insert-after -d 'Insert the --new text after line N instead of replacing --old (0 = at the top)' -r
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l expected-line -d 'With --insert-after: insert only if line N holds exactly TEXT now' -r
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l replace-all -d 'Replace every occurrence'
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l dry-run -d 'Compute the result and diff, change nothing'
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l ok-if-applied -d 'Succeed, changing nothing, when the edit is already applied'
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l allow-syntax-errors -d 'Apply even if the result breaks the file\'s syntax (a later change completes it)'
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l no-diff -d 'Print the one summary line, without the diff; implies --format text'
complete -c stitch -n "__fish_stitch_using_subcommand edit" -l json -d 'Read the tool\'s arguments as one JSON object from stdin'
complete -c stitch -n "__fish_stitch_using_subcommand edit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand list" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand list" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand list" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand list" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand list" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand list" -l depth -d 'How many levels to descend (1 = the directory\'s own entries)' -r
complete -c stitch -n "__fish_stitch_using_subcommand list" -l limit -d 'The most entries or matches to return' -r
complete -c stitch -n "__fish_stitch_using_subcommand list" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand list" -l all -d 'Include what ignore rules and hidden names hide (never .stitch/)'
complete -c stitch -n "__fish_stitch_using_subcommand list" -s 0 -l null -d 'End each name with NUL instead of a newline, for names holding newlines (as `find -print0`, `rg --null`); implies --format text'
complete -c stitch -n "__fish_stitch_using_subcommand list" -l json -d 'Read the tool\'s arguments as one JSON object from stdin'
complete -c stitch -n "__fish_stitch_using_subcommand list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand glob" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand glob" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand glob" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand glob" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand glob" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand glob" -l path -d 'The directory to search below [default: .]' -r
complete -c stitch -n "__fish_stitch_using_subcommand glob" -l limit -d 'The most entries or matches to return' -r
complete -c stitch -n "__fish_stitch_using_subcommand glob" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand glob" -l all -d 'Include what ignore rules and hidden names hide (never .stitch/)'
complete -c stitch -n "__fish_stitch_using_subcommand glob" -s 0 -l null -d 'End each name with NUL instead of a newline, for names holding newlines (as `find -print0`, `rg --null`); implies --format text'
complete -c stitch -n "__fish_stitch_using_subcommand glob" -l json -d 'Read the tool\'s arguments as one JSON object from stdin'
complete -c stitch -n "__fish_stitch_using_subcommand glob" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand search" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand search" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand search" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand search" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand search" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand search" -l path -d 'The directory (or file) to search [default: .]' -r
complete -c stitch -n "__fish_stitch_using_subcommand search" -l glob -d 'Only search files matching this glob (a glob without `/` matches file names)' -r
complete -c stitch -n "__fish_stitch_using_subcommand search" -s C -l context -d 'Lines of context before and after each match (0-10)' -r
complete -c stitch -n "__fish_stitch_using_subcommand search" -l mode -d 'Match contents (default) or workspace-relative paths' -r -f -a "content\t''
path\t''"
complete -c stitch -n "__fish_stitch_using_subcommand search" -l limit -d 'The most entries or matches to return' -r
complete -c stitch -n "__fish_stitch_using_subcommand search" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand search" -l regex -d 'Treat the query as a regular expression (linear time: no look-around or backreferences)'
complete -c stitch -n "__fish_stitch_using_subcommand search" -s i -l ignore-case -d 'Match case-insensitively'
complete -c stitch -n "__fish_stitch_using_subcommand search" -l paths-only -d 'Same as --mode path'
complete -c stitch -n "__fish_stitch_using_subcommand search" -s l -l files-with-matches -d 'Print only the paths of files with a match, each once, every one of them (as rg -l; --limit does not apply); implies --format text'
complete -c stitch -n "__fish_stitch_using_subcommand search" -s c -l count -d 'Print each file with a match and its number of matching lines, path:count (as rg -c), counting every match (--limit does not apply); implies --format text'
complete -c stitch -n "__fish_stitch_using_subcommand search" -s q -l quiet -d 'Print nothing: exit 0 at the first match, 1 when nothing matched (as rg -q)'
complete -c stitch -n "__fish_stitch_using_subcommand search" -l all -d 'Include what ignore rules and hidden names hide (never .stitch/)'
complete -c stitch -n "__fish_stitch_using_subcommand search" -s 0 -l null -d 'End each name with NUL instead of a newline, for names holding newlines (as `find -print0`, `rg --null`); implies --format text'
complete -c stitch -n "__fish_stitch_using_subcommand search" -l json -d 'Read the tool\'s arguments as one JSON object from stdin'
complete -c stitch -n "__fish_stitch_using_subcommand search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand apply" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand apply" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand apply" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand apply" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand apply" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand apply" -l patch -d 'The patch text' -r
complete -c stitch -n "__fish_stitch_using_subcommand apply" -l from -d 'Read the patch from FILE (- = stdin), as raw bytes' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand apply" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand apply" -l dry-run -d 'Check everything, change nothing'
complete -c stitch -n "__fish_stitch_using_subcommand apply" -l ok-if-applied -d 'A patch applied whole already is a success that changes nothing'
complete -c stitch -n "__fish_stitch_using_subcommand apply" -l allow-syntax-errors -d 'Apply even if the result breaks the file\'s syntax (a later change completes it)'
complete -c stitch -n "__fish_stitch_using_subcommand apply" -l no-diff -d 'Print the one summary line, without the diff; implies --format text'
complete -c stitch -n "__fish_stitch_using_subcommand apply" -l json -d 'Read the tool\'s arguments as one JSON object from stdin'
complete -c stitch -n "__fish_stitch_using_subcommand apply" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand delete" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand delete" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand delete" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand delete" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand delete" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand delete" -l expected-sha256 -d 'Delete only if the file\'s current SHA-256 is HEX' -r
complete -c stitch -n "__fish_stitch_using_subcommand delete" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand delete" -l dry-run -d 'Check everything, change nothing'
complete -c stitch -n "__fish_stitch_using_subcommand delete" -l no-diff -d 'Print the one summary line, without the diff; implies --format text'
complete -c stitch -n "__fish_stitch_using_subcommand delete" -l json -d 'Read the tool\'s arguments as one JSON object from stdin'
complete -c stitch -n "__fish_stitch_using_subcommand delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand move" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand move" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand move" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand move" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand move" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand move" -l expected-sha256 -d 'Move only if FROM\'s current SHA-256 is HEX' -r
complete -c stitch -n "__fish_stitch_using_subcommand move" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand move" -l overwrite -d 'Replace a file at TO'
complete -c stitch -n "__fish_stitch_using_subcommand move" -l dry-run -d 'Check everything, change nothing'
complete -c stitch -n "__fish_stitch_using_subcommand move" -l no-diff -d 'Print the one summary line, without the diff; implies --format text'
complete -c stitch -n "__fish_stitch_using_subcommand move" -l json -d 'Read the tool\'s arguments as one JSON object from stdin'
complete -c stitch -n "__fish_stitch_using_subcommand move" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand history" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand history" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand history" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand history" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand history" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand history" -l limit -d 'The most changes to list' -r
complete -c stitch -n "__fish_stitch_using_subcommand history" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand history" -l stat -d 'Each change on a line, then each of its files on a line of its own with the lines it added and removed (+N -M), as git log --stat; implies --format text'
complete -c stitch -n "__fish_stitch_using_subcommand history" -l json -d 'Read the tool\'s arguments as one JSON object from stdin'
complete -c stitch -n "__fish_stitch_using_subcommand history" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand show" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand show" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand show" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand show" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand show" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand show" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand show" -l json -d 'Read the tool\'s arguments as one JSON object from stdin'
complete -c stitch -n "__fish_stitch_using_subcommand show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand undo" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand undo" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand undo" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand undo" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand undo" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand undo" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand undo" -l dry-run -d 'Check everything, change nothing'
complete -c stitch -n "__fish_stitch_using_subcommand undo" -l redo -d 'Redo: take back the newest undo (or the undo ID names), so its change stands again'
complete -c stitch -n "__fish_stitch_using_subcommand undo" -l allow-syntax-errors -d 'Apply even if the result breaks the file\'s syntax (a later change completes it)'
complete -c stitch -n "__fish_stitch_using_subcommand undo" -l no-diff -d 'Print the one summary line, without the diff; implies --format text'
complete -c stitch -n "__fish_stitch_using_subcommand undo" -l json -d 'Read the tool\'s arguments as one JSON object from stdin'
complete -c stitch -n "__fish_stitch_using_subcommand undo" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand redo" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand redo" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand redo" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand redo" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand redo" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand redo" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand redo" -l dry-run -d 'Check everything, change nothing'
complete -c stitch -n "__fish_stitch_using_subcommand redo" -l no-diff -d 'Print the one summary line, without the diff; implies --format text'
complete -c stitch -n "__fish_stitch_using_subcommand redo" -l json -d 'Read the tool\'s arguments as one JSON object from stdin'
complete -c stitch -n "__fish_stitch_using_subcommand redo" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand text-editor" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand text-editor" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand text-editor" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand text-editor" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand text-editor" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand text-editor" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand text-editor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand schema" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand schema" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand schema" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand schema" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand schema" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand schema" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand schema" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand config; and not __fish_seen_subcommand_from check trust untrust help" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand config; and not __fish_seen_subcommand_from check trust untrust help" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand config; and not __fish_seen_subcommand_from check trust untrust help" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand config; and not __fish_seen_subcommand_from check trust untrust help" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand config; and not __fish_seen_subcommand_from check trust untrust help" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand config; and not __fish_seen_subcommand_from check trust untrust help" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand config; and not __fish_seen_subcommand_from check trust untrust help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand config; and not __fish_seen_subcommand_from check trust untrust help" -f -a "check" -d 'Validate the configs and print, for each setting in force, the config it came from, and whether the workspace\'s config is trusted'
complete -c stitch -n "__fish_stitch_using_subcommand config; and not __fish_seen_subcommand_from check trust untrust help" -f -a "trust" -d 'Trust this workspace\'s .stitch/config.json, at a terminal, after reviewing it'
complete -c stitch -n "__fish_stitch_using_subcommand config; and not __fish_seen_subcommand_from check trust untrust help" -f -a "untrust" -d 'Stop trusting this workspace\'s .stitch/config.json'
complete -c stitch -n "__fish_stitch_using_subcommand config; and not __fish_seen_subcommand_from check trust untrust help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from check" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from check" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from check" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from check" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from check" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from check" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from trust" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from trust" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from trust" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from trust" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from trust" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from trust" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from trust" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from untrust" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from untrust" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from untrust" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from untrust" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from untrust" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from untrust" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from untrust" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "check" -d 'Validate the configs and print, for each setting in force, the config it came from, and whether the workspace\'s config is trusted'
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "trust" -d 'Trust this workspace\'s .stitch/config.json, at a terminal, after reviewing it'
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "untrust" -d 'Stop trusting this workspace\'s .stitch/config.json'
complete -c stitch -n "__fish_stitch_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c stitch -n "__fish_stitch_using_subcommand mcp" -l root -d 'The workspace: nothing outside it is ever read or written [default: current directory]' -r -F
complete -c stitch -n "__fish_stitch_using_subcommand mcp" -l session -d 'Turn on read-before-write guards for this session' -r
complete -c stitch -n "__fish_stitch_using_subcommand mcp" -l lock-timeout -d 'How long a mutation waits for another process\'s lock before BUSY' -r
complete -c stitch -n "__fish_stitch_using_subcommand mcp" -l color -d 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON' -r -f -a "auto\t''
always\t''
never\t''"
complete -c stitch -n "__fish_stitch_using_subcommand mcp" -l format -d 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp' -r -f -a "auto\t''
json\t''
text\t''
json-schema\t''
anthropic\t''
openai\t''
openai-responses\t''
mcp\t''"
complete -c stitch -n "__fish_stitch_using_subcommand mcp" -l pretty -d 'Indent the envelope'
complete -c stitch -n "__fish_stitch_using_subcommand mcp" -l no-session -d 'Turn the read-before-write guards off (by default each connection is a fresh session)'
complete -c stitch -n "__fish_stitch_using_subcommand mcp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "read" -d 'Read a text file, paged by lines; an image or a PDF whole; or several files at once'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "write" -d 'Create a file (or replace one, explicitly), creating missing parents'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "edit" -d 'Replace exact snippets in one file, atomically'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "list" -d 'List a directory, optionally recursively'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "glob" -d 'Find files by glob pattern (* stays within a directory, ** crosses them)'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "search" -d 'Search file contents (or paths) by literal text or regex'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "apply" -d 'Apply one change across files, all or nothing: a Codex patch, a unified diff or SEARCH/REPLACE blocks (journaled: stitch undo takes the whole change back)'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "delete" -d 'Delete a file (journaled: stitch undo brings it back)'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "move" -d 'Move or rename a file, creating missing parents (journaled: stitch undo moves it back)'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "history" -d 'List the changes stitch made in this workspace, newest first'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "show" -d 'Show one change: each file\'s operation and diff, from the versions the journal keeps'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "undo" -d 'Take a change back (default: the newest not yet undone), refused when a file moved on since'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "redo" -d 'Take back the newest undo (of this session, with --session), so its change stands again'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "text-editor" -d 'Serve one command of Anthropic\'s text-editor tool (str_replace_based_edit_tool), read as JSON on stdin, with stitch\'s own tools and guards'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "schema" -d 'Print the tool definitions: name, description and JSON Schema of the arguments'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "config" -d 'Check the configs (the user\'s and the workspace\'s), or trust the workspace\'s'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "mcp" -d 'Serve the tools to an MCP host over stdio until stdin closes'
complete -c stitch -n "__fish_stitch_using_subcommand help; and not __fish_seen_subcommand_from read write edit list glob search apply delete move history show undo redo text-editor schema config mcp help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c stitch -n "__fish_stitch_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "check" -d 'Validate the configs and print, for each setting in force, the config it came from, and whether the workspace\'s config is trusted'
complete -c stitch -n "__fish_stitch_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "trust" -d 'Trust this workspace\'s .stitch/config.json, at a terminal, after reviewing it'
complete -c stitch -n "__fish_stitch_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "untrust" -d 'Stop trusting this workspace\'s .stitch/config.json'
