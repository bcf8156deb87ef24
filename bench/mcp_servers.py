"""`stitch mcp` side by side with the official filesystem server
(@modelcontextprotocol/server-filesystem): round trips, start-up, memory over many calls,
and what each server does in the scenarios that decide whether an agent's edit lands.

    python3 bench/mcp_servers.py --stitch BIN --official 'node .../dist/index.js' --out mcp.json [--quick]

Both servers are driven the same way: raw JSON-RPC over pipes, one message a line, each
request timed from the write to its reply being read. Medians are reported; the two
servers run back to back on the same machine, so their ratio is the figure to read.
`report_lines` renders the results for BENCHMARKS.md.
"""

import argparse
import json
import os
import shlex
import statistics
import subprocess
import tempfile
import time

TEN_KIB = "".join(f"line {i:04} of the ten kibibyte file, padded to a fixed width.....\n"
                  for i in range(160))  # 160 lines of 64 bytes: 10,240 bytes


class Server:
    """One server process spoken to over its stdio."""

    def __init__(self, argv, cwd):
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 1
        self.early = {}  # replies read while waiting for another

    def send(self, method, params):
        rid = self.next_id
        self.next_id += 1
        line = json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        return rid

    def reply(self, rid):
        if rid in self.early:
            return self.early.pop(rid)
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the server closed stdout")
            message = json.loads(line)
            if "method" in message:
                continue
            if message.get("id") == rid:
                return message
            self.early[message.get("id")] = message

    def request(self, method, params):
        return self.reply(self.send(method, params))

    def initialize(self):
        reply = self.request("initialize", {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "stitch-bench", "version": "0"}})
        self.proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self.proc.stdin.flush()
        return reply

    def call(self, name, arguments):
        return self.request("tools/call", {"name": name, "arguments": arguments})["result"]

    def rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def close(self):
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Flavor:
    """How one server spells the same operations."""

    def __init__(self, name, argv_for_root, read, write, edit, absolute):
        self.name, self.argv_for_root = name, argv_for_root
        self.read_tool, self.write_tool, self.edit_tool = read, write, edit
        self.absolute = absolute

    def path(self, root, rel):
        return os.path.join(root, rel) if self.absolute else rel

    def read(self, server, root, rel):
        return server.call(self.read_tool, {"path": self.path(root, rel)})

    def write(self, server, root, rel, content):
        return server.call(self.write_tool, {"path": self.path(root, rel), "content": content})

    def edit_args(self, root, rel, old, new, dry_run=False):
        if self.name == "stitch":
            args = {"path": rel, "oldText": old, "newText": new}
        else:
            args = {"path": self.path(root, rel), "edits": [{"oldText": old, "newText": new}]}
        if dry_run:
            args["dryRun"] = True
        return args

    def edit(self, server, root, rel, old, new, dry_run=False):
        return server.call(self.edit_tool, self.edit_args(root, rel, old, new, dry_run))

    def start(self, root):
        return Server(self.argv_for_root(root), root)


def timed(fn, runs, warmup):
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return samples


def summary(samples):
    return {"median": statistics.median(samples), "min": min(samples),
            "mean": statistics.fmean(samples), "runs": len(samples)}


def startup(flavor, runs):
    samples = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as root:
            server = flavor.start(root)
            server.initialize()
            samples.append(time.perf_counter() - server.started)
            server.close()
    return summary(samples)


def round_trips(flavor, runs, warmup):
    with tempfile.TemporaryDirectory() as root:
        with open(os.path.join(root, "ten.txt"), "w") as f:
            f.write(TEN_KIB)
        with open(os.path.join(root, "edit.txt"), "w") as f:
            f.write(TEN_KIB + "MARKER_A\n")
        server = flavor.start(root)
        server.initialize()
        read = timed(lambda: flavor.read(server, root, "ten.txt"), runs, warmup)
        flavor.read(server, root, "edit.txt")  # a session's guard asks for a read first
        state = {"cur": "MARKER_A"}

        def edit():
            new = "MARKER_B" if state["cur"] == "MARKER_A" else "MARKER_A"
            result = flavor.edit(server, root, "edit.txt", state["cur"], new)
            assert not result.get("isError"), result
            state["cur"] = new

        edits = timed(edit, runs, warmup)
        server.close()
        return summary(read), summary(edits)


def memory(flavor, calls):
    with tempfile.TemporaryDirectory() as root:
        with open(os.path.join(root, "ten.txt"), "w") as f:
            f.write(TEN_KIB)
        server = flavor.start(root)
        server.initialize()
        points = [(0, server.rss_kib())]
        for i in range(1, calls + 1):
            flavor.read(server, root, "ten.txt")
            if i % (calls // 4) == 0:
                points.append((i, server.rss_kib()))
        server.close()
        return points


def text_of(result):
    return result["content"][0]["text"] if result.get("content") else ""


def outcome(result):
    """A short account of a call: ok, or the error the model would read."""
    if not result.get("isError"):
        return "ok"
    text = text_of(result)
    try:
        env = json.loads(text)
        return f"refused {env['error']}: {env['details']['message']} — hint: {env.get('_hint', '')}"
    except (ValueError, KeyError):
        return "error: " + " ".join(text.split())[:160]


def scenarios(flavor):
    """What the server does in each scenario: the model's view and the file afterwards."""
    out = []

    def fresh(files):
        root = tempfile.mkdtemp(prefix="stitch-mcp-scenario-")
        for rel, content in files.items():
            with open(os.path.join(root, rel), "wb") as f:
                f.write(content.encode())
        server = flavor.start(root)
        server.initialize()
        return root, server

    def after(root, rel):
        with open(os.path.join(root, rel), "rb") as f:
            return f.read().decode(errors="replace")

    # 1. Two matches.
    root, s = fresh({"a.py": "x = 1\ny = 2\nx = 1\n"})
    flavor.read(s, root, "a.py")
    r = flavor.edit(s, root, "a.py", "x = 1", "x = 3")
    out.append(("two matches of oldText", outcome(r), after(root, "a.py")))
    s.close()

    # 2. A near miss: the model re-indented the snippet.
    src = "def f():\n    if x:\n        return 1\n    return 2\n"
    root, s = fresh({"f.py": src})
    flavor.read(s, root, "f.py")
    r = flavor.edit(s, root, "f.py", "if x:\n    return 1", "if x:\n    return 10")
    out.append(("near miss: oldText re-indented", outcome(r), after(root, "f.py")))
    s.close()

    # 3. A CRLF file, edited with LF text.
    root, s = fresh({"w.txt": "one\r\ntwo\r\nthree\r\n"})
    flavor.read(s, root, "w.txt")
    r = flavor.edit(s, root, "w.txt", "one\ntwo", "one\nTWO")
    out.append(("CRLF file, LF oldText", outcome(r), after(root, "w.txt")))
    s.close()

    # 4. Write onto an existing file the model never read.
    root, s = fresh({"keep.txt": "precious\n"})
    r = flavor.write(s, root, "keep.txt", "clobbered\n")
    out.append(("write onto an existing (unread) file", outcome(r), after(root, "keep.txt")))
    s.close()

    # 5. 20 concurrent updates of one file.
    lines = "".join(f"line {i:02} v0\n" for i in range(20))
    root, s = fresh({"c.txt": lines})
    flavor.read(s, root, "c.txt")
    ids = [s.send("tools/call", {"name": flavor.edit_tool, "arguments": flavor.edit_args(
        root, "c.txt", f"line {i:02} v0", f"line {i:02} v1")}) for i in range(20)]
    results = [s.reply(i)["result"] for i in ids]
    errors = sum(1 for r in results if r.get("isError"))
    landed = after(root, "c.txt").count("v1")
    out.append(("20 concurrent edits of one file",
                f"{20 - errors} of 20 calls reported success", f"{landed} of 20 updates in the file"))
    s.close()

    # 6. Dry run.
    root, s = fresh({"d.txt": "alpha\nbeta\n"})
    flavor.read(s, root, "d.txt")
    r = flavor.edit(s, root, "d.txt", "beta", "gamma", dry_run=True)
    out.append(("dry run", outcome(r) + (" (diff shown)" if "gamma" in text_of(r) else ""),
                after(root, "d.txt")))
    s.close()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stitch", required=True)
    ap.add_argument("--official", required=True, help="the command that starts the official server")
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    runs, warmup, starts, calls = (40, 5, 8, 400) if args.quick else (300, 30, 40, 1000)

    flavors = [
        Flavor("stitch", lambda root: [args.stitch, "mcp", "--root", root],
               "read_file", "write_file", "edit_file", absolute=False),
        Flavor("official", lambda root: shlex.split(args.official) + [root],
               "read_text_file", "write_file", "edit_file", absolute=True),
    ]
    results = {"runs": runs, "calls": calls, "servers": {}}
    for flavor in flavors:
        read, edit = round_trips(flavor, runs, warmup)
        results["servers"][flavor.name] = {
            "startup": startup(flavor, starts),
            "read": read,
            "edit": edit,
            "rss": memory(flavor, calls),
            "scenarios": scenarios(flavor),
        }
    with open(args.out, "w") as f:
        json.dump(results, f, indent=2)


def ms(seconds):
    return f"{seconds * 1000:.2f} ms"


def report_lines(data):
    """The BENCHMARKS.md section for the results `main` wrote."""
    s, o = data["servers"]["stitch"], data["servers"]["official"]
    w = ["## MCP: `stitch mcp` and the official filesystem server\n",
         "Both driven by `bench/mcp_servers.py` over pipes with raw JSON-RPC (2025-11-25), "
         "one request at a time, each timed from its write to its reply; stitch in its "
         "default mode (each connection a session, so its read-before-write ledger is "
         "kept on every call). Official: `@modelcontextprotocol/server-filesystem` "
         f"{data.get('official_version', '')} on node {data.get('node_version', '')}.\n",
         "| measure | stitch mcp | official | ratio (stitch / official) | target |",
         "|---|---:|---:|---:|---|"]
    for key, label, target in [("read", "`tools/call` round trip, 10 KiB read (median)", 0.5),
                               ("edit", "`tools/call` round trip, one edit (median)", None),
                               ("startup", "start-up to an answered `initialize` (median)", None)]:
        ratio = s[key]["median"] / o[key]["median"]
        if target:
            verdict = f"≤ {target}× — {'**MET**' if ratio <= target else '**MISSED**'}"
        elif key == "startup":
            verdict = f"≤ 50 ms — {'**MET**' if s[key]['median'] <= 0.05 else '**MISSED**'}"
        else:
            verdict = ""
        w.append(f"| {label} | {ms(s[key]['median'])} | {ms(o[key]['median'])} | {ratio:.2f}× | {verdict} |")
    for name, srv in [("stitch mcp", s), ("official", o)]:
        points = ", ".join(f"{n}: {kib / 1024:.1f} MiB" for n, kib in srv["rss"])
        first, last = srv["rss"][1][1], srv["rss"][-1][1]
        w.append(f"| RSS over {data['calls']} reads, {name} | {points} | | | "
                 f"{'flat' if abs(last - first) <= max(512, first // 20) else 'grows'} after warm-up "
                 f"({(last - first) / 1024:+.1f} MiB from call {srv['rss'][1][0]} to {srv['rss'][-1][0]}) |")
    w.append(f"\nRound trips: {data['runs']} calls each after a warm-up.\n")
    w.append("### What each server does\n")
    w.append("| scenario | stitch mcp: the model reads | file after | official: the model reads | file after |")
    w.append("|---|---|---|---|---|")
    for (title, s_out, s_file), (_, o_out, o_file) in zip(s["scenarios"], o["scenarios"]):
        cell = lambda t: "`" + t.replace("|", "\\|").replace("\r", "\\r").replace("\n", "\\n") + "`" \
            if "\n" in t or "\r" in t else t.replace("|", "\\|").replace("\n", " ")
        w.append(f"| {title} | {cell(s_out)} | {cell(s_file)} | {cell(o_out)} | {cell(o_file)} |")
    return w


if __name__ == "__main__":
    main()
