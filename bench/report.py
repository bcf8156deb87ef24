#!/usr/bin/env python3
"""Writes BENCHMARKS.md from the results directory that bench/run fills.

bench/run exports one hyperfine JSON per comparison (results/ID.json), with the
commands in the order listed in COMPARISONS below, plus facts.jsonl (machine and
checks), ID.time (/usr/bin/time -v of one stitch run) and ID.*.strace (strace -c).
"""

import argparse
import json
import os
import re
import statistics
import sys

# (id, title, results file, stitch index, baseline index, baseline label, target)
# target: ("le", x)      stitch median <= x * baseline median
#         ("speedup", x) baseline median >= x * stitch median
#         None           reported only
COMPARISONS = [
    ("a1", "edit, 10 KiB file", "percall_edit", 0, 1, "sed -i", ("le", 1.0)),
    ("a2", "read, 10 KiB file", "percall_read", 0, 1, "cat", ("le", 1.1)),
    ("a3", "write --overwrite, 10 KiB", "percall_write", 0, 1, "cp", None),
    ("a4", "edit, 10 KiB file", "percall_edit", 0, 2, "Python (bench/py_edit.py)", ("speedup", 30.0)),
    ("a4'", "edit, 10 KiB file", "percall_edit", 0, 3, "`python3 -c pass` (start-up only)", ("speedup", None)),
    ("a4''", "edit, 10 KiB file", "percall_edit", 0, 4, "Python without site (`python3 -S`)", ("speedup", None)),
    ("j1", "edit, 10 KiB file, journal on", "journal_edit", 0, 1, "the same edit, `journal: false`", ("le", 1.10)),
    ("j2", "history, 2,000 planted 1 MiB entries", "journal_foreign", 0, 1, "history, the same journal without them", None),
    ("j2'", "undo --dry-run, 2,000 planted 1 MiB entries", "journal_foreign_undo", 0, 1, "undo --dry-run, the same journal without them", None),
    ("j3", "undo that merges, 10 KiB file", "journal_undo", 0, 1, "a plain undo of the same edit", ("le", 1.2)),
    ("k1", "apply a real 5-file commit (`git diff 5b66657~1 5b66657`)", "apply_5b66657", 0, 1, "`git apply` + `sync FILE...`", ("le", 1.0)),
    ("k2", "apply a real 27-file commit (`git diff b987776~1 b987776`)", "apply_b987776", 0, 1, "`git apply` + `sync FILE...`", ("le", 1.0)),
    ("l1", "apply 1,000 hunks, 3 MB file", "hunks_1000", 0, 1, "`git apply`", ("le", 1.0)),
    ("l2", "apply 10,000 hunks, 3 MB file", "hunks_10000", 0, 1, "`git apply`", ("le", 1.0)),
    ("l3", "apply 25,000 hunks, 3 MB file", "hunks_25000", 0, 1, "`git apply`", ("le", 1.0)),
    ("l3'", "the same 25,000 as one Codex patch", "hunks_25000", 2, 1, "`git apply` (of the diff)", None),
    ("b1", "edit one line, 100 MiB file (journal on)", "large_edit", 0, 2, "durable floor: sha256 + cp + fsync + sha256", ("le", 1.0)),
    ("b1'", "edit one line, 100 MiB file", "large_edit", 0, 1, "old floor: sha256 + cp + sha256 (no fsync)", None),
    ("b1''", "the same, earlier build (`STITCH_BENCH_BEFORE`)", "large_edit", 3, 2, "durable floor", None),
    ("c1", "32 concurrent edits, one file", "contention_one", 0, 1, "the same 32, serially", ("le", 1.3)),
    ("c2", "32 concurrent edits, 32 files", "contention_many", 0, 1, "the same 32, serially", ("le", 0.75)),
    ("d1", "NO_MATCH + candidates, 10 MiB", "nomatch", 0, 1, "grep -F", ("le", 20.0)),
    ("e1", "glob `**/*.rs`, 100k-file tree", "glob", 0, 1, "fd", ("le", 1.3)),
    ("e2", "literal search, 100k-file tree", "search_literal", 0, 1, "rg -F", ("le", 1.3)),
    ("e3", "regex search, 100k-file tree", "search_regex", 0, 1, "rg", ("le", 1.3)),
    ("r1", "read 20 files of 10 KiB in one call (read_files)", "read_many", 0, 1, "20 calls of read_file", ("speedup", None)),
    ("r2", "read 20 files of 10 KiB in one call (read_files)", "read_many", 0, 2, "`cat` of the 20", None),
    ("g1", "edit, 10 KiB file (installed build)", "build_edit", 0, 1, "the static build", ("le", 1.1)),
    ("g2", "read, 10 KiB file (installed build)", "build_read", 0, 1, "the static build", ("le", 1.1)),
    ("g3", "edit, 10 KiB file (installed build)", "floor_edit", 0, 1, "physical floor (bench/floor.c)", ("le", 1.25)),
    ("g4", "the journaled floor (bench/floor.c with JOURNAL)", "floor_edit", 2, 1, "physical floor", None),
    ("g5", "edit, 10 KiB file (installed build)", "floor_edit", 0, 2, "the journaled floor", None),
]

# Interleaved pairs (bench/cmdpairs.py, results/pairs.json): (id, scenario, title,
# target as in COMPARISONS). Each is one call of stitch and one of its baseline per pair,
# the order alternating, so the load of a shared machine falls on both alike.
PAIRS = [
    ("p1", "journal", "edit, 10 KiB file, journal on / journal off", ("le", 1.10)),
    ("p2", "sed", "edit, 10 KiB file / `sed -i`", ("le", 1.0)),
    ("p3", "floor", "edit, 10 KiB file / the journaled floor (bench/floor.c, syncs one by one)", ("le", 1.25)),
    ("p4", "floorp", "edit, 10 KiB file / the parallel journaled floor (bench/floor.c `parallel`)", None),
    ("p5", "floors", "the journaled floor / the plain floor", None),
    ("p6", "apply5", "apply a real 5-file commit / `git apply` then `sync FILE...`", ("le", 1.0)),
    ("p7", "apply27", "apply a real 27-file commit / `git apply` then `sync FILE...`", ("le", 1.0)),
]

SECTIONS = [
    ("percall_edit", "a. Per call: edit a unique snippet in a 10 KiB file",
     "Each run restores `t.txt` from `orig.txt` first (hyperfine `--prepare`), so every command "
     "really edits. stitch and `py_edit.py` write a temp file, fsync it, rename it and fsync the "
     "directory; `sed -i` writes a temp file and renames it without any fsync. The last "
     "three commands are for reference: the interpreter's start-up alone, and the script and "
     "the start-up with `-S` (no `site` module, so no `.pth` files of site-packages run)."),
    ("percall_read", "a. Per call: read a 10 KiB file", ""),
    ("read_many", "r. Reading several files: 20 files of 10 KiB",
     "One `stitch read f01.txt … f20.txt` (read_files: one process, one envelope) against a "
     "shell loop of 20 `stitch read` calls and against `cat` of the 20. Each command runs "
     "under one `sh -c`, so all three pay the same shell start-up; the rounds alternate the "
     "order, and each command's times are pooled."),
    ("apply_5b66657", "k. A multi-file apply: a real 5-file commit",
     "A commit of this repository (`git diff C~1 C`) applied to the tree as it was before it, "
     "by `stitch apply --from P` (journaled: new versions staged, kept beside the entry and "
     "synced side by side, the entry synced, each file renamed into place, each directory "
     "synced once) and by `git apply P && sync FILE...` (GNU `sync` with files fsyncs each "
     "one; `git apply` alone syncs nothing). Every run restores the touched files first "
     "(`--prepare`); the two trees are checked equal before timing. Also runs alone: "
     "`bench/apply.sh target/release/stitch`."),
    ("apply_b987776", "k. A multi-file apply: a real 27-file commit", ""),
    ("hunks_1000", "l. Apply time against hunk count: 1,000 hunks on a 3 MB file",
     "One file of 200,000 lines and `git diff` of a copy with N lines changed, spread evenly "
     "and far enough apart that each is a hunk of its own, with git's three lines of context: "
     "`stitch apply --from P` (journaled), `git apply P`, and stitch again on the same hunks "
     "as one Codex patch. Every run restores the file first; the three results are checked "
     "equal to the copy before timing. stitch should grow with the bytes and the hunks, not "
     "their product. Also runs alone: `bench/hunks.sh target/release/stitch`."),
    ("hunks_10000", "l. Apply time against hunk count: 10,000 hunks", ""),
    ("hunks_25000", "l. Apply time against hunk count: 25,000 hunks", ""),

    ("percall_write", "a. Per call: replace a 10 KiB file from another file", ""),
    ("journal_edit", "j. The journal's cost: the same small edit with the journal on and off",
     "Two workspaces side by side, one with the default journal and one with `\"journal\": "
     "false`. Each run first restores `t.txt` in both and appends a line with the time, so "
     "every journaled run keeps a new version (a hard link of the replaced inode) and writes, "
     "syncs and commits its entry; the journal grows over the runs as it does in use."),
    ("journal_undo", "j. The journal's cost: an undo that merges",
     "The same 10 KiB edit undone in two workspaces; in one, another line was changed "
     "outside stitch after the edit, so its undo merges (three-way, from the kept result "
     "and original) where the other restores the kept version."),
    ("journal_foreign", "j. The journal's cost: history beside 2,000 planted entries",
     "A clone or an archive planted 2,000 entries of 1 MiB under `.stitch/journal/entries/`, "
     "half named for another key and half named as entries were before key ids. Another "
     "key's entries are counted from their names; the others are read up to 8 MiB a call "
     "and the rest counted unread."),
    ("journal_foreign_undo", "j. The journal's cost: undo beside 2,000 planted entries",
     "The same two journals as history's row: `undo --dry-run` picks the newest change of "
     "its own past the planted entries and makes every check, without publishing, so every "
     "run finds the same journal."),
    ("large_edit", "b. Edit one line of a 100 MiB text file",
     "The prepare step restores `big.txt`, removes `big2.txt` and runs `sync`, so no command "
     "pays for the previous one's writeback. The durable floor (third command, the target's "
     "baseline) is what any crash-safe edit must do at least, one step after another on one "
     "core: hash the file, copy it, fsync the copy, hash the copy. The old floor (second) is "
     "the same without the fsync, kept for comparison with earlier runs. A fourth command, "
     "when present, is an earlier stitch build (`STITCH_BENCH_BEFORE=path bench/run`), "
     "measured in the same invocation."),
    ("contention_one", "c. 32 processes editing distinct lines of ONE file",
     "All 32 are started at once and the loop waits for each one, failing if any edit failed."),
    ("contention_many", "c. 32 processes editing 32 different files (one directory)", ""),
    ("nomatch", "d. NO_MATCH with a near-miss snippet on a 10 MiB file",
     "The snippet (`near.txt`) is three lines of a function in the file with one token changed; "
     "stitch exits 1 with `NO_MATCH` and its closest candidates (hyperfine `-i`). grep scans the "
     "same file for the same three lines as fixed strings."),
    ("glob", "e. Discovery: glob over a ~100,000-file tree", ""),
    ("search_literal", "e. Discovery: literal search over the tree", ""),
    ("search_regex", "e. Discovery: regex search over the tree", ""),
    ("build_edit", "g. The build people install: edit a 10 KiB file",
     "`stitch` is what `cargo install --path .` (`cargo build --release`) gives; on Linux with "
     "glibc, build.rs links it static where glibc's static archives are installed (else "
     "position-dependent and dynamic; the table's header says which). The second command is "
     "the static, non-PIE `cargo release-static` build (rustc's `crt-static`)."),
    ("build_read", "g. The build people install: read a 10 KiB file", ""),
    ("floor_edit", "g. The physical floor of a crash-safe edit",
     "The second command is bench/floor.c, compiled static: open, read, find the snippet once "
     "(memmem) and refuse a second, write the result to an O_TMPFILE, fsync it, link it in and "
     "rename it over the file, fsync the directory. The rest of stitch's time is its own work: "
     "the lock, the state checks, the journal, two digests, the envelope, the diff. The third "
     "command is the floor of a journaled edit (bench/floor.c with a JOURNAL directory): the "
     "same, and before the publish the replaced inode hard-linked under the journal's "
     "pending/ beside a new 480-byte entry, the entry fdatasync'd and pending/ fsync'd; after "
     "it, both renamed out of pending/. g4 is what the journal costs at the least; g5 is "
     "stitch's own work over it."),
]

def summary_order(sections, comparisons):
    """The sections in the order the summary first names their results, so that a reader
    goes down the summary and the scenarios alike; a section no row names goes last."""
    first = {}
    for i, (_, _, name, *_rest) in enumerate(comparisons):
        first.setdefault(name, i)
    return sorted(sections, key=lambda section: first.get(section[0], len(comparisons)))


SECTIONS = summary_order(SECTIONS, COMPARISONS)


def anchor(title):
    """The anchor GitHub gives a heading: lower case, punctuation other than - and _
    dropped, spaces as -."""
    return "".join("-" if c == " " else c for c in title.strip().lower() if c.isalnum() or c in " -_")


FACT_LABELS = {
    "a_bytes": "test file size (bytes)",
    "b_bytes": "test file size (bytes)",
    "b_before": "earlier build (`STITCH_BENCH_BEFORE`)",
    "j_entries": "the journal after the runs",
    "j_foreign": "the planted journal",
    "apply_5b66657": "the commit",
    "apply_b987776": "the commit",
    "hunks_1000": "the patch",
    "hunks_10000": "the patch",
    "hunks_25000": "the patch",
    "c_one_verified": "runs with all 32 edits present (checked separately, before timing)",
    "c_one_after_bench": "edits present in `one.txt` after the last timed run (serial)",
    "c_many_verified": "runs with all 32 files edited (checked separately, before timing)",
    "d_bytes": "test file size (bytes)",
    "d_stitch_outcome": "stitch outcome",
    "d_grep_lines": "grep output lines",
    "e_glob_counts": "matches (both tools)",
    "e_literal_counts": "matches (both tools)",
    "e_regex_counts": "matches (both tools)",
}
SECTION_FACTS = {
    "percall_edit": ["a_bytes"],
    "large_edit": ["b_bytes", "b_before"],
    "journal_edit": ["j_entries"],
    "journal_foreign": ["j_foreign"],
    "journal_foreign_undo": ["j_foreign"],
    "apply_5b66657": ["apply_5b66657"],
    "apply_b987776": ["apply_b987776"],
    "hunks_1000": ["hunks_1000"],
    "hunks_10000": ["hunks_10000"],
    "hunks_25000": ["hunks_25000"],
    "contention_one": ["c_one_verified", "c_one_after_bench"],
    "contention_many": ["c_many_verified"],
    "nomatch": ["d_bytes", "d_stitch_outcome", "d_grep_lines"],
    "glob": ["e_glob_counts"],
    "search_literal": ["e_literal_counts"],
    "search_regex": ["e_regex_counts"],
}


def fmt_time(seconds):
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 0.01:
        return f"{seconds * 1000:.0f} ms"
    return f"{seconds * 1000:.2f} ms"


def load(results, name):
    path = os.path.join(results, name + ".json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)["results"]


def median(result):
    return statistics.median(result["times"])


def verdict(target, stitch, base):
    """(ratio text, target text, verdict text) for one comparison."""
    ratio = stitch / base
    if target is None:
        return f"{ratio:.2f}×", "report", "—"
    kind, x = target
    if x is None:
        return f"{base / stitch:.1f}× faster", "report", "—"
    if kind == "le":
        diff = (ratio - x) / x * 100
        if ratio <= x:
            return f"{ratio:.2f}×", f"≤ {x:g}×", f"**MET** ({-diff:.0f}% headroom)"
        return f"{ratio:.2f}×", f"≤ {x:g}×", f"**MISSED** ({diff:.0f}% over)"
    speedup = base / stitch
    if speedup >= x:
        return f"{speedup:.1f}× faster", f"≥ {x:g}× faster", f"**MET** ({(speedup / x - 1) * 100:.0f}% headroom)"
    return f"{speedup:.1f}× faster", f"≥ {x:g}× faster", f"**MISSED** ({(1 - speedup / x) * 100:.0f}% short)"


def parse_time(path):
    if not os.path.exists(path):
        return None
    out = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.strip().rpartition(": ")
            out[key] = value
    try:
        return {
            "rss_kib": int(out["Maximum resident set size (kbytes)"]),
            "user": float(out["User time (seconds)"]),
            "sys": float(out["System time (seconds)"]),
            "elapsed": out["Elapsed (wall clock) time (h:mm:ss or m:ss)"],
            "vcs": int(out["Voluntary context switches"]),
            "ivcs": int(out["Involuntary context switches"]),
        }
    except (KeyError, ValueError):
        return None


def parse_strace(path, top=8):
    """The top syscalls by time from `strace -c`, and the total line."""
    if not os.path.exists(path):
        return None
    rows, total = [], None
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 5 or not re.match(r"^\d", parts[0]):
                continue
            pct, secs, _usecs, calls = parts[0], parts[1], parts[2], parts[3]
            name = parts[-1]
            if name == "total":
                total = (secs, calls)
            else:
                rows.append((float(secs), pct, int(calls), name))
    rows.sort(key=lambda r: (r[0], r[2]), reverse=True)
    return rows[:top], total


def display(cmd, subs):
    for old, new in subs:
        cmd = cmd.replace(old, new)
    return cmd


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True, help="the results directory bench/run filled")
    ap.add_argument("--out", required=True, help="where to write the report (BENCHMARKS.md)")
    args = ap.parse_args()

    facts = {}
    with open(os.path.join(args.results, "facts.jsonl")) as f:
        for line in f:
            item = json.loads(line)
            facts[item["key"]] = item["value"]
    bench_dir = os.path.dirname(os.path.abspath(__file__))
    subs = [
        (facts["stitch"], "stitch"),
        (os.path.join(facts["bench_dir"], "py_edit.py"), "bench/py_edit.py"),
        (facts["python"], "python3"),
        (facts["workdir"], "$W"),
    ]
    data = {name: load(args.results, name) for name, _, _ in SECTIONS}
    quick = facts.get("quick") == "1"

    out = []
    w = out.append
    w("# Benchmarks\n")
    w(f"Generated by `bench/run{' --quick' if quick else ''}` on {facts.get('date')}; "
      "regenerate with `bench/run` (about 4 minutes after the release build; `--quick` "
      "for a rough pass). Every line of this file is written by `bench/report.py` from "
      "that run's results, except the candidates section, which `bench/candidates` writes "
      "to `bench/candidates.md`, and the syntax gate's, kept in `bench/syntax.md`, which the "
      "report copies; the hand-written analysis is in "
      "[bench/notes.md](bench/notes.md). The scenarios below come in the summary's order. "
      "Each comparison is one hyperfine invocation holding stitch and its baseline, run "
      "back to back on the same machine, so the **ratio of medians** is the figure to "
      "read; absolute times move with the machine's load.")
    if quick:
        w("\n> **Quick run**: few samples per command; use the ratios as a rough guide only.")
    w("\n## Machine\n")
    w("| | |\n|---|---|")
    for key, label in [("nproc", "cores (nproc)"), ("cpu", "CPU"), ("memory", "memory"),
                       ("kernel", "kernel"), ("filesystem", "filesystem of the temp dir"),
                       ("loadavg_start", "load average at start"), ("loadavg_end", "load average at end"),
                       ("commit", "stitch commit"), ("versions", "tools")]:
        w(f"| {label} | {facts.get(key, '?')} |")
    w("\n`stitch` below is a copy of `target/release/stitch`, the binary `cargo install --path .` "
      f"gives ({facts.get('stitch', '?').split('(', 1)[-1].rstrip(')')}, as `file` says); `stitch-static` (rows g1 and g2 "
      "only) a copy of `cargo release-static`'s, static and non-PIE. `$W` is the run's temp "
      "directory, and `python3` the interpreter itself (resolved through any shim, so its "
      "start-up is not inflated).")

    w("\n## Summary\n")
    w("| # | scenario | stitch median | baseline | baseline median | ratio (stitch / baseline) | target | verdict |")
    w("|---|---|---:|---|---:|---:|---|---|")
    titles = {name: title for name, title, _ in SECTIONS}
    for cid, title, name, si, bi, blabel, target in COMPARISONS:
        res = data.get(name)
        if not res or max(si, bi) >= len(res):
            w(f"| {cid} | {title} | — | {blabel} | — | — | — | not run |")
            continue
        # The row's id leads to its scenario below.
        link = f"[{cid}](#{anchor(titles[name])})" if name in titles else cid
        sm, bm = median(res[si]), median(res[bi])
        ratio, ttext, vtext = verdict(target, sm, bm)
        w(f"| {link} | {title} | {fmt_time(sm)} | {blabel} | {fmt_time(bm)} | {ratio} | {ttext} | {vtext} |")

    # Memory and correctness checks.
    big = parse_time(os.path.join(args.results, "large_edit.time"))
    if big and "b_bytes" in facts:
        size = int(facts["b_bytes"])
        ratio = big["rss_kib"] * 1024 / size
        ok = "**MET**" if ratio <= 1.5 else "**MISSED**"
        margin = (1 - ratio / 1.5) * 100
        w(f"| b2 | peak RSS, 100 MiB edit | {big['rss_kib'] / 1024:.0f} MiB | file size | "
          f"{size / 1048576:.0f} MiB | {ratio:.2f}× | ≤ 1.5× | {ok} "
          f"({abs(margin):.0f}% {'headroom' if margin >= 0 else 'over'}) |")
    for key, cid, title in [("c_one_verified", "c1'", "no update lost, one file"),
                            ("c_many_verified", "c2'", "no update lost, 32 files")]:
        if key in facts:
            got, total = facts[key].split("/")
            ok = "**MET**" if got == total else "**MISSED**"
            w(f"| {cid} | {title} | {got} of {total} concurrent runs complete | | | | all 32 present | {ok} |")

    # The interleaved pairs, when this run made them.
    pairs_path = os.path.join(args.results, "pairs.json")
    if os.path.exists(pairs_path):
        with open(pairs_path) as f:
            pairs = {p["scenario"]: p for p in json.load(f)}
        w("\n### Interleaved pairs\n")
        w("`bench/cmdpairs.py`: one call of stitch and one of its baseline per pair, the order "
          "alternating from pair to pair, each call on a freshly restored file, timed from fork "
          "to exit (`git apply` and `sync` as two calls, no shell). The ratio is of the medians; "
          "the spread is the 10th–90th percentile of the ratios of 20 blocks of consecutive "
          "pairs, so a verdict whose spread straddles the target is not a clear one.\n")
        w("| # | scenario | pairs | stitch median | baseline median | ratio | spread (p10–p90 of blocks) | target | verdict |")
        w("|---|---|---:|---:|---:|---:|---|---|---|")
        for pid, scenario, title, target in PAIRS:
            p = pairs.get(scenario)
            if not p:
                w(f"| {pid} | {title} | — | — | — | — | — | — | not run |")
                continue
            sm, bm = p["stitchMedianMs"] / 1000, p["baselineMedianMs"] / 1000
            ratio, ttext, vtext = verdict(target, sm, bm)
            w(f"| {pid} | {title} | {p['pairs']} | {fmt_time(sm)} | {fmt_time(bm)} | {ratio} | "
              f"{p['blockRatioP10']:.2f}–{p['blockRatioP90']:.2f} | {ttext} | {vtext} |")

    w("\n### Peak memory of stitch (`/usr/bin/time -v`, one run)\n")
    w("| scenario | max RSS | user | sys | wall | voluntary / involuntary ctx switches |")
    w("|---|---:|---:|---:|---:|---:|")
    for name, title, _ in SECTIONS:
        t = parse_time(os.path.join(args.results, name + ".time"))
        if t:
            note = " (largest of the 32 processes and bash)" if name.startswith("contention") else ""
            w(f"| {title}{note} | {t['rss_kib'] / 1024:.1f} MiB | {t['user']:.2f} s | {t['sys']:.2f} s | "
              f"{t['elapsed']} | {t['vcs']} / {t['ivcs']} |")

    w("\n## Scenarios\n")
    for name, title, intro in SECTIONS:
        res = data.get(name)
        if not res:
            continue
        w(f"### {title}\n")
        if intro:
            w(intro + "\n")
        rounds = res[0].get("rounds")
        if rounds:
            w(f"Commands (hyperfine, {rounds} invocations of alternating order, each command's "
              "times pooled by bench/pool.py):\n")
        else:
            w("Commands (hyperfine, in this order, one invocation):\n")
        w("```")
        for r in res:
            w(display(r["command"], subs))
        w("```\n")
        w("| command | median | mean ± σ | min | user (mean) | sys (mean) | runs |")
        w("|---|---:|---:|---:|---:|---:|---:|")
        for r in res:
            short = display(r["command"], subs)
            if len(short) > 60:
                short = short[:57] + "..."
            short = short.replace("|", "\\|")
            w(f"| `{short}` | {fmt_time(median(r))} | {fmt_time(r['mean'])} ± {fmt_time(r['stddev'] or 0)} | "
              f"{fmt_time(r['min'])} | {fmt_time(r['user'])} | {fmt_time(r['system'])} | {len(r['times'])} |")
        for key in SECTION_FACTS.get(name, []):
            if key in facts:
                w(f"\n- {FACT_LABELS[key]}: {facts[key]}")
        for suffix, who in [("stitch", "stitch run"), ("before", "run of the earlier stitch build"),
                            ("sed", "sed -i run"), ("base", "baseline run"),
                            ("floor", "floor run"), ("floor_journal", "journaled floor run")]:
            st = parse_strace(os.path.join(args.results, f"{name}.{suffix}.strace"))
            if not st:
                continue
            rows, total = st
            w(f"\n<details><summary>strace -c -f of one {who} (top syscalls by time"
              f"{'; total ' + total[0] + ' s in ' + total[1] + ' calls' if total else ''})</summary>\n")
            w("| syscall | calls | seconds | % |\n|---|---:|---:|---:|")
            for secs, pct, calls, sc in rows:
                w(f"| {sc} | {calls} | {secs:.6f} | {pct} |")
            w("\n</details>")
        w("")

    # stitch mcp beside the official filesystem server (bench/mcp_servers.py).
    mcp_results = os.path.join(args.results, "mcp.json")
    if os.path.exists(mcp_results):
        sys.path.insert(0, bench_dir)
        import mcp_servers

        with open(mcp_results) as f:
            mcp_data = json.load(f)
        mcp_data["official_version"] = facts.get("f_official_version", "?")
        mcp_data["node_version"] = facts.get("f_node_version", "?")
        for line in mcp_servers.report_lines(mcp_data):
            w(line)
        w("")

    # The candidates benchmark counts outcomes, not time: bench/candidates writes it.
    candidates = os.path.join(bench_dir, "candidates.md")
    if os.path.exists(candidates):
        with open(candidates) as f:
            w(f.read().rstrip() + "\n")
    # So does the syntax gate's: bench/syntax_corpus.py and bench/syntax_cost.py measure
    # it, and their figures are kept in bench/syntax.md.
    syntax = os.path.join(bench_dir, "syntax.md")
    if os.path.exists(syntax):
        with open(syntax) as f:
            w(f.read().rstrip() + "\n")

    # The hand-written analysis stays in bench/notes.md: linked, never copied, and flagged
    # when it was written for another commit than the one measured here.
    notes = os.path.join(bench_dir, "notes.md")
    if os.path.exists(notes):
        with open(notes) as f:
            text = f.read()
        m = re.search(r"<!-- commit: (\w+) -->", text)
        here = facts.get("commit", "").split()[0] if facts.get("commit") else ""
        w("## Analysis\n")
        w("The analysis of these figures is written by hand, in [bench/notes.md](bench/notes.md): "
          "what changed since the run before, what each target's verdict rests on, and where "
          "the time goes.")
        if m and here and not here.startswith(m.group(1)) and not m.group(1).startswith(here):
            w(f"\n> **Note:** that analysis was written for commit {m.group(1)}; this run "
              f"measured {facts.get('commit')}. Check it against the figures above.")
        w("")

    with open(args.out, "w") as f:
        f.write("\n".join(out).rstrip() + "\n")


if __name__ == "__main__":
    main()
