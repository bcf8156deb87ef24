
use builtin;
use str;

set edit:completion:arg-completer[stitch] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'stitch'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'stitch'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --pretty 'Indent the envelope'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand read 'Read a text file, paged by lines; an image or a PDF whole; or several files at once'
            cand write 'Create a file (or replace one, explicitly), creating missing parents'
            cand edit 'Replace exact snippets in one file, atomically'
            cand list 'List a directory, optionally recursively'
            cand glob 'Find files by glob pattern (* stays within a directory, ** crosses them)'
            cand search 'Search file contents (or paths) by literal text or regex'
            cand apply 'Apply one change across files, all or nothing: a Codex patch, a unified diff or SEARCH/REPLACE blocks (journaled: stitch undo takes the whole change back)'
            cand delete 'Delete a file (journaled: stitch undo brings it back)'
            cand move 'Move or rename a file, creating missing parents (journaled: stitch undo moves it back)'
            cand history 'List the changes stitch made in this workspace, newest first'
            cand show 'Show one change: each file''s operation and diff, from the versions the journal keeps'
            cand undo 'Take a change back (default: the newest not yet undone), refused when a file moved on since'
            cand redo 'Take back the newest undo (of this session, with --session), so its change stands again'
            cand text-editor 'Serve one command of Anthropic''s text-editor tool (str_replace_based_edit_tool), read as JSON on stdin, with stitch''s own tools and guards'
            cand schema 'Print the tool definitions: name, description and JSON Schema of the arguments'
            cand config 'Check the configs (the user''s and the workspace''s), or trust the workspace''s'
            cand mcp 'Serve the tools to an MCP host over stdio until stdin closes'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'stitch;read'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --offset 'First line to return, 1-based'
            cand --limit 'Number of lines to return'
            cand --max-bytes 'Cap on the returned text, in bytes'
            cand --glob 'Read every file matching this glob (relative to PATH, default .), in one call'
            cand --max-total-bytes 'With several files: cap on the bytes returned for all of them together'
            cand --pretty 'Indent the envelope'
            cand -n 'Prefix each line with its number and a tab, as cat -n does (for reading only; the sha256 is still the raw file''s)'
            cand --number 'Prefix each line with its number and a tab, as cat -n does (for reading only; the sha256 is still the raw file''s)'
            cand --json 'Read the tool''s arguments as one JSON object from stdin'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;write'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --content 'The new content'
            cand --from 'Read the new content from FILE (- = stdin), as raw bytes'
            cand --expected-sha256 'Replace only if the file''s current SHA-256 is HEX'
            cand --pretty 'Indent the envelope'
            cand --overwrite 'Replace the file if it exists'
            cand --dry-run 'Check everything, change nothing'
            cand --allow-syntax-errors 'Apply even if the result breaks the file''s syntax (a later change completes it)'
            cand --no-diff 'Print the one summary line, without the diff; implies --format text'
            cand --json 'Read the tool''s arguments as one JSON object from stdin'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;edit'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --old 'The exact text to replace'
            cand --new 'The replacement text'
            cand --old-from 'Read the text to replace from FILE (- = stdin)'
            cand --new-from 'Read the replacement from FILE (- = stdin)'
            cand --expected-replacements 'Refuse unless exactly N occurrences match'
            cand --expected-sha256 'Refuse unless the file''s current SHA-256 is HEX'
            cand --insert-after 'Insert the --new text after line N instead of replacing --old (0 = at the top)'
            cand --expected-line 'With --insert-after: insert only if line N holds exactly TEXT now'
            cand --pretty 'Indent the envelope'
            cand --replace-all 'Replace every occurrence'
            cand --dry-run 'Compute the result and diff, change nothing'
            cand --ok-if-applied 'Succeed, changing nothing, when the edit is already applied'
            cand --allow-syntax-errors 'Apply even if the result breaks the file''s syntax (a later change completes it)'
            cand --no-diff 'Print the one summary line, without the diff; implies --format text'
            cand --json 'Read the tool''s arguments as one JSON object from stdin'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;list'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --depth 'How many levels to descend (1 = the directory''s own entries)'
            cand --limit 'The most entries or matches to return'
            cand --pretty 'Indent the envelope'
            cand --all 'Include what ignore rules and hidden names hide (never .stitch/)'
            cand -0 'End each name with NUL instead of a newline, for names holding newlines (as `find -print0`, `rg --null`); implies --format text'
            cand --null 'End each name with NUL instead of a newline, for names holding newlines (as `find -print0`, `rg --null`); implies --format text'
            cand --json 'Read the tool''s arguments as one JSON object from stdin'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;glob'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --path 'The directory to search below [default: .]'
            cand --limit 'The most entries or matches to return'
            cand --pretty 'Indent the envelope'
            cand --all 'Include what ignore rules and hidden names hide (never .stitch/)'
            cand -0 'End each name with NUL instead of a newline, for names holding newlines (as `find -print0`, `rg --null`); implies --format text'
            cand --null 'End each name with NUL instead of a newline, for names holding newlines (as `find -print0`, `rg --null`); implies --format text'
            cand --json 'Read the tool''s arguments as one JSON object from stdin'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;search'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --path 'The directory (or file) to search [default: .]'
            cand --glob 'Only search files matching this glob (a glob without `/` matches file names)'
            cand -C 'Lines of context before and after each match (0-10)'
            cand --context 'Lines of context before and after each match (0-10)'
            cand --mode 'Match contents (default) or workspace-relative paths'
            cand --limit 'The most entries or matches to return'
            cand --pretty 'Indent the envelope'
            cand --regex 'Treat the query as a regular expression (linear time: no look-around or backreferences)'
            cand -i 'Match case-insensitively'
            cand --ignore-case 'Match case-insensitively'
            cand --paths-only 'Same as --mode path'
            cand -l 'Print only the paths of files with a match, each once, every one of them (as rg -l; --limit does not apply); implies --format text'
            cand --files-with-matches 'Print only the paths of files with a match, each once, every one of them (as rg -l; --limit does not apply); implies --format text'
            cand -c 'Print each file with a match and its number of matching lines, path:count (as rg -c), counting every match (--limit does not apply); implies --format text'
            cand --count 'Print each file with a match and its number of matching lines, path:count (as rg -c), counting every match (--limit does not apply); implies --format text'
            cand -q 'Print nothing: exit 0 at the first match, 1 when nothing matched (as rg -q)'
            cand --quiet 'Print nothing: exit 0 at the first match, 1 when nothing matched (as rg -q)'
            cand --all 'Include what ignore rules and hidden names hide (never .stitch/)'
            cand -0 'End each name with NUL instead of a newline, for names holding newlines (as `find -print0`, `rg --null`); implies --format text'
            cand --null 'End each name with NUL instead of a newline, for names holding newlines (as `find -print0`, `rg --null`); implies --format text'
            cand --json 'Read the tool''s arguments as one JSON object from stdin'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;apply'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --patch 'The patch text'
            cand --from 'Read the patch from FILE (- = stdin), as raw bytes'
            cand --pretty 'Indent the envelope'
            cand --dry-run 'Check everything, change nothing'
            cand --ok-if-applied 'A patch applied whole already is a success that changes nothing'
            cand --allow-syntax-errors 'Apply even if the result breaks the file''s syntax (a later change completes it)'
            cand --no-diff 'Print the one summary line, without the diff; implies --format text'
            cand --json 'Read the tool''s arguments as one JSON object from stdin'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;delete'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --expected-sha256 'Delete only if the file''s current SHA-256 is HEX'
            cand --pretty 'Indent the envelope'
            cand --dry-run 'Check everything, change nothing'
            cand --no-diff 'Print the one summary line, without the diff; implies --format text'
            cand --json 'Read the tool''s arguments as one JSON object from stdin'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;move'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --expected-sha256 'Move only if FROM''s current SHA-256 is HEX'
            cand --pretty 'Indent the envelope'
            cand --overwrite 'Replace a file at TO'
            cand --dry-run 'Check everything, change nothing'
            cand --no-diff 'Print the one summary line, without the diff; implies --format text'
            cand --json 'Read the tool''s arguments as one JSON object from stdin'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;history'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --limit 'The most changes to list'
            cand --pretty 'Indent the envelope'
            cand --stat 'Each change on a line, then each of its files on a line of its own with the lines it added and removed (+N -M), as git log --stat; implies --format text'
            cand --json 'Read the tool''s arguments as one JSON object from stdin'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;show'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --pretty 'Indent the envelope'
            cand --json 'Read the tool''s arguments as one JSON object from stdin'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;undo'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --pretty 'Indent the envelope'
            cand --dry-run 'Check everything, change nothing'
            cand --redo 'Redo: take back the newest undo (or the undo ID names), so its change stands again'
            cand --allow-syntax-errors 'Apply even if the result breaks the file''s syntax (a later change completes it)'
            cand --no-diff 'Print the one summary line, without the diff; implies --format text'
            cand --json 'Read the tool''s arguments as one JSON object from stdin'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;redo'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --pretty 'Indent the envelope'
            cand --dry-run 'Check everything, change nothing'
            cand --no-diff 'Print the one summary line, without the diff; implies --format text'
            cand --json 'Read the tool''s arguments as one JSON object from stdin'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;text-editor'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --pretty 'Indent the envelope'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;schema'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --pretty 'Indent the envelope'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;config'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --pretty 'Indent the envelope'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand check 'Validate the configs and print, for each setting in force, the config it came from, and whether the workspace''s config is trusted'
            cand trust 'Trust this workspace''s .stitch/config.json, at a terminal, after reviewing it'
            cand untrust 'Stop trusting this workspace''s .stitch/config.json'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'stitch;config;check'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --pretty 'Indent the envelope'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;config;trust'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --pretty 'Indent the envelope'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;config;untrust'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --pretty 'Indent the envelope'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;config;help'= {
            cand check 'Validate the configs and print, for each setting in force, the config it came from, and whether the workspace''s config is trusted'
            cand trust 'Trust this workspace''s .stitch/config.json, at a terminal, after reviewing it'
            cand untrust 'Stop trusting this workspace''s .stitch/config.json'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'stitch;config;help;check'= {
        }
        &'stitch;config;help;trust'= {
        }
        &'stitch;config;help;untrust'= {
        }
        &'stitch;config;help;help'= {
        }
        &'stitch;mcp'= {
            cand --root 'The workspace: nothing outside it is ever read or written [default: current directory]'
            cand --session 'Turn on read-before-write guards for this session'
            cand --lock-timeout 'How long a mutation waits for another process''s lock before BUSY'
            cand --color 'Colour in text output: auto (when stdout is a terminal and NO_COLOR is not set), always or never. Never in JSON'
            cand --format 'Output: auto (the default: text when stdout is a terminal, json otherwise), json (the envelope) or text for people and pipelines (refusals as error[CODE]: message on stderr, with their facts; search exits 1 when nothing matched); for schema: json-schema, anthropic, openai, openai-responses or mcp'
            cand --pretty 'Indent the envelope'
            cand --no-session 'Turn the read-before-write guards off (by default each connection is a fresh session)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'stitch;help'= {
            cand read 'Read a text file, paged by lines; an image or a PDF whole; or several files at once'
            cand write 'Create a file (or replace one, explicitly), creating missing parents'
            cand edit 'Replace exact snippets in one file, atomically'
            cand list 'List a directory, optionally recursively'
            cand glob 'Find files by glob pattern (* stays within a directory, ** crosses them)'
            cand search 'Search file contents (or paths) by literal text or regex'
            cand apply 'Apply one change across files, all or nothing: a Codex patch, a unified diff or SEARCH/REPLACE blocks (journaled: stitch undo takes the whole change back)'
            cand delete 'Delete a file (journaled: stitch undo brings it back)'
            cand move 'Move or rename a file, creating missing parents (journaled: stitch undo moves it back)'
            cand history 'List the changes stitch made in this workspace, newest first'
            cand show 'Show one change: each file''s operation and diff, from the versions the journal keeps'
            cand undo 'Take a change back (default: the newest not yet undone), refused when a file moved on since'
            cand redo 'Take back the newest undo (of this session, with --session), so its change stands again'
            cand text-editor 'Serve one command of Anthropic''s text-editor tool (str_replace_based_edit_tool), read as JSON on stdin, with stitch''s own tools and guards'
            cand schema 'Print the tool definitions: name, description and JSON Schema of the arguments'
            cand config 'Check the configs (the user''s and the workspace''s), or trust the workspace''s'
            cand mcp 'Serve the tools to an MCP host over stdio until stdin closes'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'stitch;help;read'= {
        }
        &'stitch;help;write'= {
        }
        &'stitch;help;edit'= {
        }
        &'stitch;help;list'= {
        }
        &'stitch;help;glob'= {
        }
        &'stitch;help;search'= {
        }
        &'stitch;help;apply'= {
        }
        &'stitch;help;delete'= {
        }
        &'stitch;help;move'= {
        }
        &'stitch;help;history'= {
        }
        &'stitch;help;show'= {
        }
        &'stitch;help;undo'= {
        }
        &'stitch;help;redo'= {
        }
        &'stitch;help;text-editor'= {
        }
        &'stitch;help;schema'= {
        }
        &'stitch;help;config'= {
            cand check 'Validate the configs and print, for each setting in force, the config it came from, and whether the workspace''s config is trusted'
            cand trust 'Trust this workspace''s .stitch/config.json, at a terminal, after reviewing it'
            cand untrust 'Stop trusting this workspace''s .stitch/config.json'
        }
        &'stitch;help;config;check'= {
        }
        &'stitch;help;config;trust'= {
        }
        &'stitch;help;config;untrust'= {
        }
        &'stitch;help;mcp'= {
        }
        &'stitch;help;help'= {
        }
    ]
    $completions[$command]
}
