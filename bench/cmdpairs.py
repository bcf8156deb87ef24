#!/usr/bin/env python3
"""Per-call costs as interleaved pairs: stitch beside its baseline, one call of each per
pair, the order alternating from pair to pair, every call on a freshly prepared file.

    bench/cmdpairs.py --stitch S --floor F [--repo DIR] [--pairs N] [--out FILE] [SCENARIO...]

Scenarios (all by default):
  journal   a 10 KiB edit, journal on, beside the same edit with `"journal": false`
  sed       a 10 KiB edit beside `sed -i` of the same line
  floor     a 10 KiB edit beside bench/floor.c in its journaled mode
  floors    bench/floor.c journaled beside it plain (what the journal costs at the least)
  apply5    `stitch apply` of a real 5-file commit beside `git apply` then `sync FILE...`
  apply27   the same, a real 27-file commit (both need --repo, a clone of stitch)
Candidates of the journal's layout, at their floor (bench/floor.c's modes; not by default):
  floorpar     the journaled floor with its three syncs at once, beside it one by one
  floorlog     the entry appended to a log, beside a file of its own
  floorlogpar  both, beside the parallel floor (what a log adds to parallel syncs)
  floorparplain  the parallel floor (today's layout) beside the plain floor
  floorlogcopy   the entry and the version before appended to a log, beside the plain floor
  floorcopypar   that log beside today's layout at its floor (the parallel floor)
  floorp       a 10 KiB edit beside the parallel floor

Each call is timed from Python's fork to its exit (the same overhead on both sides), and
nothing but the call is timed: the file is restored before the pair, outside the clock.
`git apply` and `sync` are timed as two calls, one after the other, with no shell between.
Each scenario prints one JSON line, and with --out all of them go to FILE: the medians,
the ratio of the medians, and the 10th to 90th percentile of the ratios of 20 blocks of
consecutive pairs (how much the machine's load moved the ratio over the run).
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

ENV = dict(os.environ)


def timed(args, cwd):
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE)
    took = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"bench/cmdpairs.py: {' '.join(args)} failed: {done.stderr.decode()[:300]}")
    return took


def summary(name, labels, times, pairs):
    a, b = (times[label] for label in labels)
    ratio = statistics.median(a) / statistics.median(b)
    block = max(1, pairs // 20)
    blocks = sorted(statistics.median(a[i:i + block]) / statistics.median(b[i:i + block])
                    for i in range(0, pairs - block + 1, block))
    return {
        "scenario": name, "pairs": pairs, "stitch": labels[0], "baseline": labels[1],
        "stitchMedianMs": round(statistics.median(a) * 1000, 3),
        "baselineMedianMs": round(statistics.median(b) * 1000, 3),
        "ratio": round(ratio, 3),
        "blockRatioP10": round(blocks[int(0.1 * (len(blocks) - 1))], 3),
        "blockRatioP90": round(blocks[int(0.9 * (len(blocks) - 1))], 3),
    }


def interleave(pairs, prepare, sides):
    """Runs `sides` ({label: (args, cwd)}), one call each per pair, the order reversed
    every other pair, `prepare(pair)` before each pair; each label's times."""
    labels = list(sides)
    times = {label: [] for label in labels}
    for pair in range(pairs):
        prepare(pair)
        order = labels if pair % 2 == 0 else labels[::-1]
        for label in order:
            run = sides[label]
            times[label].append(sum(timed(args, cwd) for args, cwd in run))
    return labels, times


def edit_scenarios(names, stitch, floor, work, pairs):
    orig = os.path.join(work, "orig.txt")
    subprocess.run([sys.executable, os.path.join(HERE, "gen.py"), "text", orig, "10240"],
                   check=True)
    old, new = gen.TARGET_OLD, gen.TARGET_NEW
    dirs = {}
    for side in ("on", "off", "a", "b"):
        dirs[side] = os.path.join(work, side)
        os.makedirs(os.path.join(dirs[side], ".stitch"), exist_ok=True)
    with open(os.path.join(dirs["off"], ".stitch", "config.json"), "w") as f:
        f.write('{"journal": false}\n')
    journal_dir = os.path.join(work, "floor-journal")

    def restore(pair, sides):
        for side in sides:
            target = os.path.join(dirs[side], "t.txt")
            shutil.copyfile(orig, target)
            # A last line of its own, so that every journaled edit keeps a new version.
            with open(target, "a") as f:
                f.write(f"// pair {pair} {time.time_ns()}\n")

    edit = [stitch, "edit", "t.txt", "--old", old, "--new", new]
    plans = {
        "journal": ({"journal on": [(edit, dirs["on"])],
                     "journal off": [(edit, dirs["off"])]}, ("on", "off")),
        "sed": ({"stitch edit": [(edit, dirs["a"])],
                 "sed -i": [(["sed", "-i", f"s/{old}/{new}/", "t.txt"], dirs["b"])]},
                ("a", "b")),
        "floor": ({"stitch edit": [(edit, dirs["a"])],
                   "journaled floor": [([floor, "t.txt", old, new, journal_dir], dirs["b"])]},
                  ("a", "b")),
        "floors": ({"journaled floor": [([floor, "t.txt", old, new, journal_dir], dirs["a"])],
                    "floor": [([floor, "t.txt", old, new], dirs["b"])]}, ("a", "b")),
    }
    # Candidate layouts of the journal, each at its floor (bench/floor.c's modes).
    def floor_mode(mode, side):
        return [([floor, "t.txt", old, new, f"{journal_dir}-{mode}", mode], dirs[side])]

    plans.update({
        "floorpar": ({"parallel floor": floor_mode("parallel", "a"),
                      "journaled floor": floor_mode("file", "b")}, ("a", "b")),
        "floorlog": ({"log floor": floor_mode("log", "a"),
                      "journaled floor": floor_mode("file", "b")}, ("a", "b")),
        "floorlogpar": ({"log-parallel floor": floor_mode("log-parallel", "a"),
                         "parallel floor": floor_mode("parallel", "b")}, ("a", "b")),
        "floorparplain": ({"parallel floor": floor_mode("parallel", "a"),
                           "floor": [([floor, "t.txt", old, new], dirs["b"])]}, ("a", "b")),
        "floorlogcopy": ({"log-copy floor": floor_mode("log-copy", "a"),
                          "floor": [([floor, "t.txt", old, new], dirs["b"])]}, ("a", "b")),
        "floorcopypar": ({"log-copy floor": floor_mode("log-copy", "a"),
                          "parallel floor": floor_mode("parallel", "b")}, ("a", "b")),
        "floorp": ({"stitch edit": [(edit, dirs["a"])],
                    "parallel floor": floor_mode("parallel", "b")}, ("a", "b")),
    })
    for name in names:
        sides, touched = plans[name]
        # Each command edits: the target line replaced once, before anything is timed.
        restore(-1, touched)
        for run in sides.values():
            for args, cwd in run:
                timed(args, cwd)
                with open(os.path.join(cwd, "t.txt")) as f:
                    text = f.read()
                if text.count(new) != 1 or old in text:
                    sys.exit(f"bench/cmdpairs.py: {' '.join(args)} did not edit t.txt")
        labels, times = interleave(pairs, lambda pair, t=touched: restore(pair, t), sides)
        yield summary(name, labels, times, pairs)


def apply_scenario(name, commit, stitch, repo, work, pairs):
    base = os.path.join(work, commit)
    os.makedirs(base)
    archive = subprocess.run(["git", "-C", repo, "archive", f"{commit}~1"], check=True,
                             stdout=subprocess.PIPE).stdout
    subprocess.run(["tar", "-x", "-C", base], input=archive, check=True)
    patch = os.path.join(work, f"{commit}.patch")
    with open(patch, "wb") as f:
        f.write(subprocess.run(["git", "-C", repo, "diff", f"{commit}~1", commit], check=True,
                               stdout=subprocess.PIPE).stdout)
    names = subprocess.run(["git", "-C", repo, "diff", "--name-only", f"{commit}~1", commit],
                           check=True, stdout=subprocess.PIPE, text=True).stdout.split()
    trees = {}
    for side in ("stitch", "git"):
        trees[side] = os.path.join(work, f"{commit}-{side}")
        shutil.copytree(base, trees[side], symlinks=True)

    def prepare(_pair):
        for tree in trees.values():
            for rel in names:
                src, dst = os.path.join(base, rel), os.path.join(tree, rel)
                if os.path.exists(src):
                    shutil.copy2(src, dst)
                elif os.path.exists(dst):
                    os.remove(dst)

    sides = {
        "stitch apply": [([stitch, "apply", "--from", patch], trees["stitch"])],
        "git apply + sync": [(["git", "apply", patch], trees["git"]),
                             (["sync", *names], trees["git"])],
    }
    labels, times = interleave(pairs, prepare, sides)
    # Both trees end as the commit left them.
    same = subprocess.run(["diff", "-r", "-x", ".stitch", trees["stitch"], trees["git"]],
                          stdout=subprocess.DEVNULL).returncode == 0
    if not same:
        sys.exit(f"bench/cmdpairs.py: {commit}: stitch and git apply left different trees")
    return summary(name, labels, times, pairs)


APPLY = {"apply5": "5b66657", "apply27": "b987776"}
ALL = ["journal", "sed", "floor", "floors", "apply5", "apply27"]
CANDIDATES = ["floorpar", "floorlog", "floorlogpar", "floorp", "floorparplain", "floorlogcopy", "floorcopypar"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stitch", required=True)
    ap.add_argument("--floor", required=True, help="bench/floor.c, compiled")
    ap.add_argument("--repo", default=os.path.dirname(HERE))
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--out")
    ap.add_argument("scenarios", nargs="*", default=ALL)
    args = ap.parse_args()
    for s in args.scenarios:
        if s not in ALL + CANDIDATES:
            sys.exit(f"bench/cmdpairs.py: no scenario {s} (try --help)")
    stitch, floor = os.path.abspath(args.stitch), os.path.abspath(args.floor)
    results = []
    with tempfile.TemporaryDirectory(prefix="stitch-cmdpairs.") as work:
        home = os.path.join(work, "home")
        os.mkdir(home)
        ENV.update(HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                   XDG_DATA_HOME=os.path.join(home, ".local/share"),
                   XDG_STATE_HOME=os.path.join(home, ".local/state"),
                   XDG_CACHE_HOME=os.path.join(home, ".cache"))
        edits = [s for s in args.scenarios if s not in APPLY]
        for result in edit_scenarios(edits, stitch, floor, work, args.pairs):
            print(json.dumps(result), flush=True)
            results.append(result)
        for s in args.scenarios:
            if s in APPLY:
                result = apply_scenario(s, APPLY[s], stitch, args.repo, work, args.pairs)
                print(json.dumps(result), flush=True)
                results.append(result)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
