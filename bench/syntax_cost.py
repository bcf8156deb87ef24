#!/usr/bin/env python3
"""What the syntax gate costs, by the CPU time of whole `stitch` calls, in interleaved pairs.

  syntax_cost.py STITCH [OTHER_STITCH]          one process a call (the CLI)
  syntax_cost.py STITCH --before OLD_STITCH      the same, beside another build of stitch
  syntax_cost.py STITCH --mcp                    `stitch mcp`, many calls a process
  syntax_cost.py STITCH --apply REPO [COMMIT [OTHER_STITCH]]   `stitch apply` of a commit

For each language, a file of about 10 KiB and one of about 1 MiB (a valid unit of that
language repeated), edited in its middle by `stitch edit`: in one workspace with the gate
(the default) and in one with `{"syntax": "off"}`, the two calls of a pair in random
order, the edit and its reverse taking turns. Reported: the median of each side, the
ratio of the medians, and the 10th-90th percentile range of the pairs' own ratios.
With OTHER_STITCH (a build without the gate), `stitch read` of a small file by each, to
see whether start-up is slower with the grammars linked in. With --before OLD_STITCH,
each round the four calls (each build with the gate and without) in random order: each
build's ratio, and this build's CPU time with the gate against the other's, pair by pair.

With --mcp: the same edits as `edit_file` calls to one `stitch mcp` server per side (with
the gate, and with `{"syntax": "off"}`), 40 calls a server (10 for 1 MiB), the server's whole CPU time
(from wait4(2) when it exits, start-up and the first call's full parse included) divided
by the calls; the two servers of a pair run one after the other in random order.

With --apply: `stitch apply --from P` of commit COMMIT of REPO (default b987776 of this
repository, 27 files) onto the tree as it was before it, in a workspace with the gate and
in one with `{"syntax": "off"}`, 200 pairs in random order (with OTHER_STITCH, its two
calls too, all four in random order each round); the touched files are put back (and the
added ones removed) before each call, outside the clock. Reported: wall
and CPU time medians, the ratio of the medians and the pairs' 10th-90th percentiles.
"""
import json, os, random, statistics, subprocess, sys, tempfile, time

UNITS = {
    "rs": ("", "fn fN(a: i32) -> i32 {\n    let v = [a, 2, 3];\n    v.iter().sum::<i32>() + N\n}\n", ""),
    "py": ("", "def fN(a):\n    v = [a, 2, 3]\n    return sum(v) + N\n\n", ""),
    "js": ("", "function fN(a) {\n  const v = [a, 2, 3];\n  return v.reduce((x, y) => x + y, N);\n}\n", ""),
    "ts": ("", "function fN(a: number): number {\n  const v: number[] = [a, 2, 3];\n  return v.reduce((x, y) => x + y, N);\n}\n", ""),
    "tsx": ("", "function FN(p: { n: number }) {\n  return <div className=\"a\">{p.n + N}</div>;\n}\n", ""),
    "go": ("package main\n\n", "func fN(a int) int {\n\tv := []int{a, 2, 3}\n\treturn v[0] + N\n}\n", ""),
    "java": ("class A {\n", "    int fN(int a) {\n        int[] v = {a, 2, 3};\n        return v[0] + N;\n    }\n", "}\n"),
    "c": ("", "int fN(int a) {\n    int v[] = {a, 2, 3};\n    return v[0] + N;\n}\n", ""),
    "cpp": ("#include <vector>\n", "int fN(std::vector<int> v) {\n    return v.size() + N;\n}\n", ""),
    "cs": ("class A {\n", "    int FN(int a) {\n        var v = new[] {a, 2, 3};\n        return v[0] + N;\n    }\n", "}\n"),
    "rb": ("", "def fN(a)\n  [a, 2, 3].map { |y| y * 2 }.sum + N\nend\n", ""),
    "php": ("<?php\n", "function fN($a) {\n    return [$a, 2, 3][0] + N;\n}\n", ""),
    "sh": ("", "fN() {\n  local a=\"$1\"\n  if [ -n \"$a\" ]; then\n    echo \"$a N\"\n  fi\n}\n", ""),
    "json": ("[\n", "  {\"id\": N, \"name\": \"item N\", \"tags\": [\"a\", \"b\"]},\n", "  {}\n]\n"),
    "toml": ("", "[tN]\nname = \"item N\"\nvalues = [1, 2, 3]\n\n", ""),
    "yaml": ("", "kN:\n  name: item N\n  values: [1, 2, 3]\n", ""),
    "html": ("<!DOCTYPE html>\n<html>\n<body>\n", "<div class=\"a\"><p>item N</p></div>\n", "</body>\n</html>\n"),
    "css": ("", ".cN {\n  color: red;\n  margin: Npx;\n}\n", ""),
}


def text_of(ext, size):
    head, unit, tail = UNITS[ext]
    parts, n = [head], 0
    while sum(map(len, parts)) < size:
        n += 1
        parts.append(unit.replace("N", str(n)))
    parts.append(tail)
    return "".join(parts), n // 2, unit


def workspace(config, name, text):
    root = tempfile.mkdtemp(prefix="syntax-bench-")
    os.makedirs(os.path.join(root, ".stitch"))
    if config:
        with open(os.path.join(root, ".stitch", "config.json"), "w") as f:
            f.write(config)
    with open(os.path.join(root, name), "w") as f:
        f.write(text)
    return root


ENV = {"PATH": os.environ["PATH"], "HOME": tempfile.mkdtemp(prefix="syntax-bench-home-")}


def call(stitch, root, args):
    """The call's CPU time (user + system, of the child alone): on a machine shared with
    other builds, wall time measures the queue more than the call."""
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen([stitch, "--root", root, *args], stdout=out, stderr=subprocess.DEVNULL, env=ENV)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        assert json.loads(out.read())["ok"]
    return usage.ru_utime + usage.ru_stime


def summary(on, off):
    ratios = sorted(a / b for a, b in zip(on, off))
    q = lambda xs, p: xs[min(len(xs) - 1, int(p * len(xs)))]
    return (statistics.median(on) * 1e3, statistics.median(off) * 1e3,
            statistics.median(on) / statistics.median(off), q(ratios, 0.1), q(ratios, 0.9))


def gate_cost(stitch, before=None):
    """With `before` (another build), both builds' four calls of a round in random order:
    each build's own ratio, and this build's CPU time with the gate against the other's."""
    builds = [stitch] + ([before] if before else [])
    if before:
        print("| language | size | pairs | with the gate (CPU ms) | without (CPU ms) | ratio of medians | pairs' ratios, 10th–90th "
              "| before: ratio (10th–90th) | with the gate, this build against before (10th–90th) |")
        print("|---|---:|---:|---:|---:|---:|---|---|---|")
    else:
        print("| language | size | pairs | with the gate (CPU ms) | without (CPU ms) | ratio of medians | pairs' ratios, 10th–90th |")
        print("|---|---:|---:|---:|---:|---:|---|")
    for ext in UNITS:
        for size, pairs in ((10 << 10, 200), (1 << 20, 10)):
            text, middle, unit = text_of(ext, size)
            name = "f." + ext
            old = unit.replace("N", str(middle))
            new = unit.replace("N", str(middle) + "0")
            runs = [(b, side) for b in builds for side in ("on", "off")]
            roots = {run: workspace(None if run[1] == "on" else '{"syntax": "off"}', name, text) for run in runs}
            times = {run: [] for run in runs}
            for i in range(pairs + 1):
                a, b = (old, new) if i % 2 == 0 else (new, old)
                random.shuffle(runs)
                for run in runs:
                    took = call(run[0], roots[run], ["edit", name, "--old", a, "--new", b])
                    if i > 0:  # the first pair warms the page cache
                        times[run].append(took)
            on_ms, off_ms, ratio, lo, hi = summary(times[(stitch, "on")], times[(stitch, "off")])
            row = f"| {ext} | {len(text) >> 10} KiB | {pairs} | {on_ms:.2f} | {off_ms:.2f} | {ratio:.2f}× | {lo:.2f}–{hi:.2f} |"
            if before:
                _, _, b_ratio, b_lo, b_hi = summary(times[(before, "on")], times[(before, "off")])
                _, _, ab, ab_lo, ab_hi = summary(times[(stitch, "on")], times[(before, "on")])
                row += f" {b_ratio:.2f}× ({b_lo:.2f}–{b_hi:.2f}) | {ab:.2f}× ({ab_lo:.2f}–{ab_hi:.2f}) |"
            print(row)
            sys.stdout.flush()


def start_up(stitch, other):
    root = workspace(None, "s.txt", "small\n")
    times = {stitch: [], other: []}
    for _ in range(200):
        order = [stitch, other]
        random.shuffle(order)
        for binary in order:
            times[binary].append(call(binary, root, ["read", "s.txt"]))
    with_ms, without_ms, ratio, lo, hi = summary(times[stitch], times[other])
    print(f"start-up: `stitch read` of a 6-byte file, 200 pairs: with the grammars {with_ms:.2f} ms, "
          f"without {without_ms:.2f} ms, ratio of medians {ratio:.2f}× (pairs' 10th–90th {lo:.2f}–{hi:.2f})")


def mcp_run(stitch, root, name, edits):
    """One server's CPU time (user + system) per call, over `edits` (old, new) pairs."""
    child = subprocess.Popen([stitch, "--root", root, "mcp", "--no-session"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV)
    def request(rid, method, params):
        child.stdin.write(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}).encode() + b"\n")
        child.stdin.flush()
        while True:
            message = json.loads(child.stdout.readline())
            if message.get("id") == rid:
                return message
    request(0, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "bench", "version": "0"}})
    child.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    for i, (old, new) in enumerate(edits, 1):
        reply = request(i, "tools/call", {"name": "edit_file", "arguments": {"path": name, "oldText": old, "newText": new}})
        assert not reply["result"].get("isError"), reply
    child.stdin.close()
    _, _, usage = os.wait4(child.pid, 0)
    return (usage.ru_utime + usage.ru_stime) / len(edits)


def mcp_cost(stitch, exts=("rs", "py", "ts", "go", "c", "json", "yaml"), pairs=9):
    print("| language | size | servers a side | calls a server | with the gate (CPU ms a call) | without | ratio of medians | pairs' ratios, 10th–90th |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for ext in exts:
        for size, calls in ((10 << 10, 40), (1 << 20, 10)):
            text, middle, unit = text_of(ext, size)
            name = "f." + ext
            old = unit.replace("N", str(middle))
            new = unit.replace("N", str(middle) + "0")
            edits = [(old, new) if i % 2 == 0 else (new, old) for i in range(calls)]
            times = {"on": [], "off": []}
            for _ in range(pairs):
                order = ["on", "off"]
                random.shuffle(order)
                for side in order:
                    root = workspace(None if side == "on" else '{"syntax": "off"}', name, text)
                    times[side].append(mcp_run(stitch, root, name, edits))
            on_ms, off_ms, ratio, lo, hi = summary(times["on"], times["off"])
            print(f"| {ext} | {len(text) >> 10} KiB | {pairs} | {calls} | {on_ms:.2f} | {off_ms:.2f} | {ratio:.2f}× | {lo:.2f}–{hi:.2f} |")
            sys.stdout.flush()


def apply_run(stitch, root, patch):
    """One `stitch apply`: its wall time and its CPU time (user + system)."""
    start = time.perf_counter()
    child = subprocess.Popen([stitch, "--root", root, "apply", "--from", patch],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    assert os.waitstatus_to_exitcode(status) == 0, "stitch apply failed"
    return wall, usage.ru_utime + usage.ru_stime


def apply_cost(stitch, repo, commit="b987776", other=None, pairs=int(os.environ.get("PAIRS", "200"))):
    git = lambda *a: subprocess.run(["git", "-C", repo, *a], capture_output=True, check=True).stdout
    patch_text = git("diff", f"{commit}~1", commit)
    names = git("diff", "--name-status", f"{commit}~1", commit).decode().splitlines()
    touched = {line.split("\t")[-1]: line[0] for line in names}
    archive = git("archive", f"{commit}~1")
    roots = {}
    for side, config in (("on", None), ("off", '{"syntax": "off"}')):
        root = tempfile.mkdtemp(prefix="syntax-bench-apply-")
        subprocess.run(["tar", "-x", "-C", root], input=archive, check=True)
        os.makedirs(os.path.join(root, ".stitch"), exist_ok=True)
        if config:
            with open(os.path.join(root, ".stitch", "config.json"), "w") as f:
                f.write(config)
        roots[side] = root
    before = {path: open(os.path.join(roots["on"], path), "rb").read()
              for path, status in touched.items() if status != "A"}
    patch = os.path.join(tempfile.mkdtemp(prefix="syntax-bench-apply-"), "p.patch")
    with open(patch, "wb") as f:
        f.write(patch_text)
    def restore(root):
        for path, status in touched.items():
            full = os.path.join(root, path)
            if status == "A":
                if os.path.exists(full):
                    os.unlink(full)
            else:
                with open(full, "wb") as f:
                    f.write(before[path])
    binaries = {"this": stitch, "other": other} if other else {"this": stitch}
    runs = [(b, side) for b in binaries for side in roots]
    wall = {run: [] for run in runs}
    cpu = {run: [] for run in runs}
    for i in range(pairs + 1):
        random.shuffle(runs)
        for run in runs:
            restore(roots[run[1]])
            w, c = apply_run(binaries[run[0]], roots[run[1]], patch)
            if i > 0:  # the first round warms the page cache
                wall[run].append(w)
                cpu[run].append(c)
    for b in binaries:
        for name, times in (("wall", wall), ("CPU", cpu)):
            on_ms, off_ms, ratio, lo, hi = summary(times[(b, "on")], times[(b, "off")])
            print(f"{binaries[b]}: apply {commit} ({len(touched)} files), {pairs} pairs, {name}: with the gate "
                  f"{on_ms:.2f} ms, without {off_ms:.2f} ms, ratio of medians {ratio:.2f}× (pairs' 10th–90th {lo:.2f}–{hi:.2f})")


if __name__ == "__main__":
    random.seed(1)
    if sys.argv[2:3] == ["--apply"]:
        apply_cost(sys.argv[1], sys.argv[3], *sys.argv[4:6])
        sys.exit(0)
    if sys.argv[2:3] == ["--mcp"]:
        mcp_cost(sys.argv[1])
        sys.exit(0)
    if sys.argv[2:3] == ["--before"]:
        gate_cost(sys.argv[1], sys.argv[3])
        sys.exit(0)
    if len(sys.argv) > 2:
        start_up(sys.argv[1], sys.argv[2])
    gate_cost(sys.argv[1])
