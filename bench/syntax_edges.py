#!/usr/bin/env python3
"""Breaking edits at the edges of items, two builds of stitch side by side, edit by edit.

  syntax_edges.py STITCH OTHER_STITCH SEEDS REPO_GIT_DIR...

For up to 40 files of each repository at HEAD (files that parse), SEEDS times over with a
seeded shuffle, ten kinds of edit at a seeded random line: the last comma or semicolon of
a line deleted, a line deleted, a line ending in `{` deleted, a closing line (`}`, `end`,
`]`...) deleted or doubled, two lines joined or swapped, a prefix line (`@...`, `#[...`,
`[...`) deleted, ` {` appended to a line. Each edit goes to both builds through
`stitch write --dry-run` (syntax_corpus.py's `gate`); any edit whose `syntaxErrors` differ
between them is printed, and the counts refused by each. For a change of how regions are
cut, the edits syntax_corpus.py makes (a bracket, a dedent, a quote, a duplicated opening
line) do not reach the commas and the prefixes between items.
"""
import collections, json, os, random, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import syntax_corpus as sc  # noqa: E402


def kinds(text, rng):
    lines = text.split("\n")
    out = {}

    def at(pred):
        idx = [i for i, l in enumerate(lines) if pred(l)]
        return rng.choice(idx) if idx else None

    def put(name, i, repl):
        if i is not None:
            out[name] = lines[:i] + repl + lines[i + 1:]

    for name, char in (("comma", ","), ("semicolon", ";")):
        i = at(lambda l, c=char: c in l)
        if i is not None:
            j = lines[i].rfind(char)
            put(name, i, [lines[i][:j] + lines[i][j + 1:]])
    put("delline", at(lambda l: l.strip()), [])
    put("delopen", at(lambda l: l.rstrip().endswith("{")), [])
    i = at(lambda l: l.strip() in ("}", "};", "},", "})", "});", "end", "]", "],"))
    put("delclose", i, [])
    if i is not None:
        put("dupclose", i, [lines[i], lines[i]])
    i = at(lambda l: l.strip())
    if i is not None and i + 1 < len(lines):
        out["join"] = lines[:i] + [lines[i] + lines[i + 1]] + lines[i + 2:]
        out["swap"] = lines[:i] + [lines[i + 1], lines[i]] + lines[i + 2:]
    put("delprefix", at(lambda l: l.strip().startswith(("@", "#[", "["))), [])
    i = at(lambda l: l.strip())
    if i is not None:
        put("insbrace", i, [lines[i] + " {"])
    return {k: "\n".join(v).encode() for k, v in out.items()}


def main():
    a, b, seeds, repos = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    count = collections.Counter()
    differ = 0
    for repo in repos:
        files = [p for p in sc.git(repo, "ls-tree", "-r", "--name-only", "HEAD").decode().split("\n") if sc.language(p)]
        for seed in range(seeds):
            rng = random.Random(f"{repo}:{seed}")
            rng.shuffle(files)
            for path in files[:40]:
                text = sc.git(repo, "show", f"HEAD:{path}")
                if len(text) > 1 << 20 or sc.gate(a, path, None, text) != []:
                    continue
                for kind, broken in kinds(text.decode(errors="replace"), rng).items():
                    ea, eb = sc.gate(a, path, text, broken), sc.gate(b, path, text, broken)
                    if ea is None and eb is None:
                        continue
                    count[kind] += 1
                    count[kind + " refused by the first"] += bool(ea is not None and sc.refused(ea))
                    count[kind + " refused by the second"] += bool(eb is not None and sc.refused(eb))
                    if json.dumps(ea, sort_keys=True) != json.dumps(eb, sort_keys=True):
                        differ += 1
                        print("differ:", repo, path, kind, ea, eb, flush=True)
    for key, n in sorted(count.items()):
        print(f"  {key:40} {n}")
    print(f"edits: {sum(v for k, v in count.items() if ' ' not in k)}, outcomes that differ: {differ}")


if __name__ == "__main__":
    main()
