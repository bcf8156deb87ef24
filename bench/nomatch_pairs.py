#!/usr/bin/env python3
"""What the candidate search costs a NO_MATCH on a large file: two stitch binaries side by
side on the same refused edits, in interleaved pairs.

    bench/nomatch_pairs.py BEFORE AFTER [--pairs N] [--bytes B]

The file is bench/gen.py's code-like text of B bytes (default 1 MiB, small enough that the
search ends before its 250 ms budget on a loaded machine, so its whole cost shows). Each pair sends the same
mistaken edit to both binaries, in alternating order: a typo in a line (`typo`), a line
remembered cut in two with a continuation `\\` (`wrapped`), and two lines remembered as
one (`joined`), all taken from the middle of the file. A kind's ratio is AFTER's median
over BEFORE's, of wall time and of CPU time (user + system, from wait4: steadier on a
shared machine); the spread is the 10th to 90th percentile of the ratios of 20 blocks of
pairs. Printed as one JSON line per kind; nothing is written to the repository.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ENV = dict(os.environ)


def run(args, cwd):
    """The call's wall time and CPU time (user + system, from wait4), in seconds."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(args, cwd=cwd, env=ENV, stdout=out, stderr=out)
        _, _, usage = os.wait4(child.pid, 0)
        took = time.perf_counter() - start
        out.seek(0)
        said = out.read()
    if b"NO_MATCH" not in said:
        sys.exit(f"bench/nomatch_pairs.py: {' '.join(args[:4])} did not refuse NO_MATCH: "
                 f"{said.decode()[:300]}")
    return took, usage.ru_utime + usage.ru_stime


def mistakes(text):
    """Three mistaken oldTexts from the middle of `text`: (kind, oldText)."""
    lines = text.split("\n")
    mid = len(lines) // 2
    # A line long enough to cut, and a pair of lines to join, near the middle.
    at = next(i for i in range(mid, len(lines)) if len(lines[i].strip()) >= 40
              and " " in lines[i].strip())
    line = lines[at]
    cut = line.rindex(" ", 0, len(line) * 2 // 3)
    wrapped = f"{line[:cut]} \\\n        {line[cut + 1:]}\n{lines[at + 1]}"
    joined = f"{lines[at]} {lines[at + 1].strip()}\n{lines[at + 2]}"
    word = next(w for w in line.split() if len(w) >= 6)
    typo = f"{line.replace(word, word[:2] + word[3] + word[2] + word[4:], 1)}\n{lines[at + 1]}"
    return [("typo", typo), ("wrapped", wrapped), ("joined", joined)]


def main():
    args = sys.argv[1:]
    pairs, size = 60, 1 << 20
    if "--pairs" in args:
        i = args.index("--pairs")
        pairs = int(args[i + 1])
        del args[i:i + 2]
    if "--bytes" in args:
        i = args.index("--bytes")
        size = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    bins = dict(zip(("before", "after"), (os.path.abspath(a) for a in args)))
    with tempfile.TemporaryDirectory(prefix="stitch-nomatch.") as work:
        home = os.path.join(work, "home")
        os.mkdir(home)
        ENV.update(HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                   XDG_DATA_HOME=os.path.join(home, ".local/share"),
                   XDG_STATE_HOME=os.path.join(home, ".local/state"),
                   XDG_CACHE_HOME=os.path.join(home, ".cache"))
        path = os.path.join(work, "t.txt")
        subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), "text", path, str(size)],
                       check=True)
        with open(path) as f:
            text = f.read()
        for kind, old in mistakes(text):
            wall = {"before": [], "after": []}
            cpu = {"before": [], "after": []}
            for pair in range(pairs):
                order = ["before", "after"] if pair % 2 == 0 else ["after", "before"]
                for side in order:
                    took, used = run([bins[side], "--root", work, "edit", "t.txt",
                                      "--old", old, "--new", old + " x"], work)
                    wall[side].append(took)
                    cpu[side].append(used)
            row = {"kind": kind, "pairs": pairs, "bytes": size}
            for name, times in (("wall", wall), ("cpu", cpu)):
                row.update(summary(name, times, pairs))
            print(json.dumps(row), flush=True)


def summary(name, times, pairs):
    """Medians, their ratio, and the 10th-90th percentile of 20 blocks' ratios."""
    ratio = statistics.median(times["after"]) / statistics.median(times["before"])
    block = max(1, pairs // 20)
    blocks = sorted(
        statistics.median(times["after"][i:i + block])
        / max(statistics.median(times["before"][i:i + block]), 1e-9)
        for i in range(0, pairs - block + 1, block))
    return {
        f"{name}BeforeMedianMs": round(statistics.median(times["before"]) * 1000, 2),
        f"{name}AfterMedianMs": round(statistics.median(times["after"]) * 1000, 2),
        f"{name}Ratio": round(ratio, 3),
        f"{name}BlockRatioP10": round(blocks[int(0.1 * (len(blocks) - 1))], 3),
        f"{name}BlockRatioP90": round(blocks[int(0.9 * (len(blocks) - 1))], 3),
    }


if __name__ == "__main__":
    main()
