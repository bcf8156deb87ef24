#!/usr/bin/env python3
"""The syntax gate against real history and against breaking edits made from real files.

  syntax_corpus.py STITCH replay REPO_GIT_DIR...   real commits: every added or modified
      file of the newest 60 non-merge commits of each repository, its version before and
      after given to `stitch write --dry-run` (which reports what the gate would refuse);
      a refusal here is a real, correct change the gate would have refused (an error
      listed with `possiblePreprocessor` is not refused, and is counted apart).
  syntax_corpus.py STITCH corpus REPO_GIT_DIR...   breaking edits (a closing bracket
      deleted, a line dedented too far, a quote eaten, a line that opens a block
      duplicated) made at a seeded random line of up to 40 files of each repository at
      HEAD; the repositories are split into a development and a held-out half by the
      parity of the first byte of the SHA-256 of their name, before anything is run.
"""
import hashlib, json, os, random, subprocess, sys, tempfile
from collections import defaultdict

EXT = {"rs": "rust", "py": "python", "js": "javascript", "mjs": "javascript", "jsx": "javascript",
       "ts": "typescript", "tsx": "tsx", "go": "go", "java": "java", "c": "c", "h": "cpp",
       "cc": "cpp", "cpp": "cpp", "hpp": "cpp", "cs": "csharp", "rb": "ruby", "php": "php",
       "sh": "bash", "bash": "bash", "json": "json", "toml": "toml", "yml": "yaml", "yaml": "yaml",
       "html": "html", "htm": "html", "css": "css"}


def language(path):
    ext = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    return EXT.get(ext)


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo, *args], capture_output=True).stdout


def gate(stitch, path, old, new):
    """The syntaxErrors a dry-run write of `new` over `old` (None: a new file) reports."""
    with tempfile.TemporaryDirectory() as root:
        name = "f." + path.rsplit(".", 1)[-1]
        if old is not None:
            with open(os.path.join(root, name), "wb") as f:
                f.write(old)
        src = os.path.join(root, "..", os.path.basename(root) + ".new")
        with open(src, "wb") as f:
            f.write(new)
        env = {"HOME": root + "/.h", "XDG_CONFIG_HOME": root + "/.h/c", "XDG_DATA_HOME": root + "/.h/d",
               "XDG_STATE_HOME": root + "/.h/s", "PATH": os.environ["PATH"]}
        out = subprocess.run([stitch, "--root", root, "write", name, "--from", src, "--overwrite",
                              "--dry-run", "--format", "json"], capture_output=True, env=env).stdout
        os.unlink(src)
    envelope = json.loads(out)
    if not envelope.get("ok"):
        return None  # not text, too large: not a change the gate sees
    return envelope["data"].get("syntaxErrors", [])


def refused(errors):
    """Whether the gate, refusing, would refuse: an error not put down to the C preprocessor."""
    return any(not e.get("possiblePreprocessor") for e in errors)


def replay(stitch, repos):
    seen = defaultdict(int)
    refusals, warned = [], []
    for repo in repos:
        for commit in git(repo, "log", "--no-merges", "-n", "60", "--format=%H").decode().split():
            changed = git(repo, "diff-tree", "--no-commit-id", "-r", "--name-status", "--root", commit)
            for line in changed.decode(errors="replace").splitlines():
                status, path = line.split("\t")[0], line.split("\t")[-1]
                lang = language(path)
                if lang is None or status[0] not in "AM":
                    continue
                new = git(repo, "show", f"{commit}:{path}")
                old = git(repo, "show", f"{commit}^:{path}") if status[0] == "M" else None
                errors = gate(stitch, path, old, new)
                if errors is None:
                    continue
                seen[lang] += 1
                if errors:
                    one = (os.path.basename(os.path.dirname(repo)), commit[:10], path, errors[0])
                    (refusals if refused(errors) else warned).append(one)
    print(f"file changes checked: {sum(seen.values())} ({dict(sorted(seen.items()))})")
    print(f"refused: {len(refusals)}")
    for r in refusals:
        print("  ", r)
    print(f"listed, not refused (possiblePreprocessor): {len(warned)}")
    for r in warned:
        print("  ", r)


def mutations(text, rng):
    lines = text.split("\n")
    out = {}
    def at(pred):
        idx = [i for i, l in enumerate(lines) if pred(l)]
        return rng.choice(idx) if idx else None
    i = at(lambda l: any(c in l for c in ")]}"))
    if i is not None:
        l = lines[i]
        j = max(l.rfind(c) for c in ")]}")
        out["bracket"] = lines[:i] + [l[:j] + l[j + 1:]] + lines[i + 1:]
    i = at(lambda l: l.startswith((" ", "\t")) and l.strip())
    if i is not None:
        out["dedent"] = lines[:i] + [lines[i].lstrip()] + lines[i + 1:]
    i = at(lambda l: l.count('"') >= 2 or l.count("'") >= 2)
    if i is not None:
        l = lines[i]
        q = '"' if l.count('"') >= 2 else "'"
        j = l.rfind(q)
        out["quote"] = lines[:i] + [l[:j] + l[j + 1:]] + lines[i + 1:]
    i = at(lambda l: l.rstrip().endswith(("{", "(", "[", ":")))
    if i is not None:
        out["duplicate"] = lines[:i + 1] + [lines[i]] + lines[i + 1:]
    return {k: "\n".join(v).encode() for k, v in out.items()}


def corpus(stitch, repos):
    halves = {"development": [], "held-out": []}
    for repo in repos:
        name = os.path.basename(os.path.dirname(repo))
        half = "development" if hashlib.sha256(name.encode()).digest()[0] % 2 == 0 else "held-out"
        halves[half].append(repo)
    macro = defaultdict(int)
    for half, members in halves.items():
        print(f"== {half}: {', '.join(os.path.basename(os.path.dirname(r)) for r in members)}")
        total = defaultdict(lambda: [0, 0])
        kinds = defaultdict(lambda: [0, 0])
        for repo in members:
            rng = random.Random(repo)
            files = [p for p in git(repo, "ls-tree", "-r", "--name-only", "HEAD").decode().split("\n") if language(p)]
            rng.shuffle(files)
            for path in files[:40]:
                text = git(repo, "show", f"HEAD:{path}")
                if len(text) > 1 << 20 or gate(stitch, path, None, text) != []:
                    continue  # unreadable, or already has an error: never gated
                for kind, broken in mutations(text.decode(errors="replace"), rng).items():
                    errors = gate(stitch, path, text, broken)
                    if errors is None:
                        continue
                    t = total[language(path)]
                    t[0] += 1
                    t[1] += refused(errors)
                    kinds[kind][0] += 1
                    kinds[kind][1] += refused(errors)
                    macro[half] += bool(errors) and not refused(errors)
        for lang, (n, r) in sorted(total.items()):
            print(f"  {lang:11} {r:4}/{n:<4} refused ({100 * r / n:.0f}%)")
        n = sum(v[0] for v in total.values())
        r = sum(v[1] for v in total.values())
        print(f"  {'all':11} {r:4}/{n:<4} refused ({100 * r / max(n, 1):.0f}%)")
        for kind, (n, r) in sorted(kinds.items()):
            print(f"  kind {kind:10} {r:4}/{n:<4}")
        print(f"  listed, not refused (possiblePreprocessor): {macro[half]}")


if __name__ == "__main__":
    stitch, mode, repos = sys.argv[1], sys.argv[2], sys.argv[3:]
    {"replay": replay, "corpus": corpus}[mode](stitch, repos)
