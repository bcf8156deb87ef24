#!/usr/bin/env python3
"""Two stitch binaries side by side on the same session calls, in interleaved pairs: what
one change (say, staleness by region) costs a session's read and a session's edit.

    bench/pairs.py BEFORE AFTER [--pairs N] [--bytes B]

Each pair runs the same step with both binaries, in alternating order, each in its own
workspace prepared the same way just before (the 10 KiB file copied afresh, its last line
differing from the last pair's; one session and one `.stitch/` throughout, as in real use): `read` of the file in a session, and `edit` of it
in a session that read it. A step's ratio is AFTER's median over BEFORE's; the spread is
the 10th to 90th percentile of the ratios of 20 blocks of pairs. Wall time is the ratio;
the CPU time of each call (user + system, from wait4(2)), which other work on a shared
machine disturbs less, is given beside it (`cpu*`). Both binaries are first copied
side by side into the temp folder and run from there: a binary whose pages have sat in
the page cache for a while (partly evicted and read back) was seen to cost 12–17% more
CPU time than a fresh copy of the same file. Printed as one JSON line per step; nothing
is written to the repository.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


ENV = dict(os.environ)


def run(args, cwd):
    """The call's wall time and CPU time (user + system), in seconds."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    took = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    stderr = proc.stderr.read()
    proc.stderr.close()
    if proc.returncode != 0:
        sys.exit(f"bench/pairs.py: {' '.join(args)} failed: {stderr.decode()[:300]}")
    return took, usage.ru_utime + usage.ru_stime


def spread(before, after):
    """The ratio of medians, and the 10th and 90th percentile of the 20 blocks' ratios."""
    ratio = statistics.median(after) / statistics.median(before)
    block = max(1, len(before) // 20)
    blocks = []
    for i in range(0, len(before) - block + 1, block):
        b = statistics.median(before[i:i + block])
        a = statistics.median(after[i:i + block])
        blocks.append(a / b)
    blocks.sort()
    p10 = blocks[int(0.1 * (len(blocks) - 1))]
    p90 = blocks[int(0.9 * (len(blocks) - 1))]
    return round(ratio, 3), round(p10, 3), round(p90, 3)


def prepare(ws, orig, pair, stitch, session, read_first):
    shutil.copyfile(orig, os.path.join(ws, "t.txt"))
    with open(os.path.join(ws, "t.txt"), "a") as f:
        f.write(f"// pair {pair}\n")
    if read_first:
        run([stitch, "--root", ws, "--session", session, "read", "t.txt"], ws)


def step(name, before, after, work, orig, pairs, old, new):
    times = {"before": [], "after": []}
    cpu = {"before": [], "after": []}
    bins = {"before": before, "after": after}
    for pair in range(pairs):
        order = ["before", "after"] if pair % 2 == 0 else ["after", "before"]
        for side in order:
            ws = os.path.join(work, side)
            session = "s"
            prepare(ws, orig, pair, bins[side], session, name == "edit")
            if name == "read":
                args = [bins[side], "--root", ws, "--session", session, "read", "t.txt"]
            else:
                args = [bins[side], "--root", ws, "--session", session, "edit", "t.txt",
                        "--old", old, "--new", new]
            took, used = run(args, ws)
            times[side].append(took)
            cpu[side].append(used)
    ratio, p10, p90 = spread(times["before"], times["after"])
    cpu_ratio, cpu_p10, cpu_p90 = spread(cpu["before"], cpu["after"])
    print(json.dumps({
        "step": name, "pairs": pairs,
        "beforeMedianMs": round(statistics.median(times["before"]) * 1000, 3),
        "afterMedianMs": round(statistics.median(times["after"]) * 1000, 3),
        "ratio": ratio, "blockRatioP10": p10, "blockRatioP90": p90,
        "cpuBeforeMedianMs": round(statistics.median(cpu["before"]) * 1000, 3),
        "cpuAfterMedianMs": round(statistics.median(cpu["after"]) * 1000, 3),
        "cpuRatio": cpu_ratio, "cpuBlockRatioP10": cpu_p10, "cpuBlockRatioP90": cpu_p90,
    }), flush=True)


def main():
    args = sys.argv[1:]
    pairs, size = 200, 10240
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
    before, after = (os.path.abspath(a) for a in args)
    with tempfile.TemporaryDirectory(prefix="stitch-pairs.") as work:
        # The user's own home and config are left alone: both binaries get one of their own.
        home = os.path.join(work, "home")
        os.mkdir(home)
        ENV.update(HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                   XDG_DATA_HOME=os.path.join(home, ".local/share"),
                   XDG_STATE_HOME=os.path.join(home, ".local/state"),
                   XDG_CACHE_HOME=os.path.join(home, ".cache"))
        copies = []
        for side, binary in (("before", before), ("after", after)):
            copy = os.path.join(work, f"stitch-{side}")
            shutil.copyfile(binary, copy)
            os.chmod(copy, 0o755)
            copies.append(copy)
        before, after = copies
        orig = os.path.join(work, "orig.txt")
        subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), "text", orig, str(size)],
                       check=True)
        with open(orig) as f:
            first = f.readline().rstrip("\n")
        for side in ("before", "after"):
            os.mkdir(os.path.join(work, side))
        step("read", before, after, work, orig, pairs, first, first + " ")
        step("edit", before, after, work, orig, pairs, first, first + " (edited)")


if __name__ == "__main__":
    main()
