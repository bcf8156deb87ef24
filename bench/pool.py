"""Pools hyperfine results of the same commands measured in several invocations (rounds of
alternating order) into one hyperfine-shaped file: each command's times joined, its
statistics recomputed, the commands in the first round's order.

    python3 bench/pool.py OUT.json ROUND.json...
"""
import json
import statistics
import sys


def main():
    out, rounds = sys.argv[1], sys.argv[2:]
    pooled = {}
    order = []
    for path in rounds:
        with open(path) as f:
            for r in json.load(f)["results"]:
                if r["command"] not in pooled:
                    order.append(r["command"])
                    pooled[r["command"]] = {"times": [], "user": [], "system": [], "runs": []}
                p = pooled[r["command"]]
                p["times"].extend(r["times"])
                p["user"].append(r["user"])
                p["system"].append(r["system"])
                p["runs"].append(len(r["times"]))
    results = []
    for command in order:
        p = pooled[command]
        times, runs = p["times"], p["runs"]
        weight = lambda xs: sum(x * n for x, n in zip(xs, runs)) / sum(runs)
        results.append({
            "command": command,
            "mean": statistics.mean(times),
            "stddev": statistics.stdev(times) if len(times) > 1 else None,
            "median": statistics.median(times),
            "user": weight(p["user"]),
            "system": weight(p["system"]),
            "min": min(times),
            "max": max(times),
            "times": times,
            "rounds": len(rounds),
        })
    with open(out, "w") as f:
        json.dump({"results": results}, f)


if __name__ == "__main__":
    main()
