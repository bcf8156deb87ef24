# Section l of bench/run: apply time against hunk count. One 3 MB file (200,000 lines),
# and `git diff` of a copy with 1,000, 10,000 or 25,000 lines changed, spread evenly and
# far enough apart that each is a hunk of its own (git's three lines of context either
# side): `stitch apply --from P` beside `git apply P`, and the same hunks as one Codex
# patch (`@@` chunks, stitch only: git takes no Codex). stitch places each hunk from
# where the one before it landed, through an index of the file's lines, and builds the
# file once, so its time should grow with the bytes and the hunks, not their product.
# Sourced by bench/run, which defines S (the stitch binary), W (the scratch directory),
# R (results), PY, MED, hf and fact; run alone as
#
#   bench/hunks.sh [STITCH-BINARY]     figures on stdout, nothing written to the repo
#
# Alone, it times with hyperfine when it is installed, else with a median of runs timed
# by Python. Every run restores the file first (--prepare), so every command really
# applies; the three results are checked equal to the changed copy before timing.

# hunks_files DIR N: the file (a.txt), its changed copy (b.txt), the diff (p.patch,
# naming f.txt) and the same hunks as a Codex patch (codex.patch), in DIR.
hunks_files() {
  local dir=$1 n=$2
  "$PY" - "$dir" "$n" <<'EOF'
import random, subprocess, sys
dir, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(7)
lines = [f"{i:07d} {rng.randrange(10**6):06d}\n" for i in range(200_000)]
open(f"{dir}/a.txt", "w").write("".join(lines))
step = len(lines) // n
for k in range(n):
    i = k * step + step // 2
    lines[i] = lines[i][:8] + "x" + lines[i][9:]
open(f"{dir}/b.txt", "w").write("".join(lines))
diff = subprocess.run(["git", "diff", "--no-index", "a.txt", "b.txt"], cwd=dir,
                      capture_output=True, text=True).stdout
diff = diff.replace("a/a.txt", "a/f.txt").replace("b/b.txt", "b/f.txt")
assert diff.count("\n@@ ") == n, diff.count("\n@@ ")
open(f"{dir}/p.patch", "w").write(diff)
codex = ["*** Begin Patch", "*** Update File: f.txt"]
body = False
for line in diff.split("\n"):
    if line.startswith("@@ "):
        codex.append("@@")
        body = True
    elif body and line[:1] in (" ", "-", "+"):
        codex.append(line)
codex.append("*** End Patch")
open(f"{dir}/codex.patch", "w").write("\n".join(codex) + "\n")
EOF
}

hunks_bench() {
  local n l_dir prepare st gt ct
  for n in 1000 10000 25000; do
    l_dir="$W/l/$n"
    mkdir -p "$l_dir/stitch" "$l_dir/git" "$l_dir/codex"
    hunks_files "$l_dir" "$n"
    prepare="bash -c 'cd $l_dir && for d in stitch git codex; do cp a.txt \$d/f.txt; done'"
    st="$S --root $l_dir/stitch apply --from $l_dir/p.patch"
    gt="bash -c 'cd $l_dir/git && git apply ../p.patch'"
    ct="$S --root $l_dir/codex apply --from $l_dir/codex.patch"
    eval "$prepare"
    eval "$st" >/dev/null || { echo "bench/hunks.sh: stitch apply did not apply $n hunks" >&2; return 1; }
    eval "$gt" || { echo "bench/hunks.sh: git apply did not apply $n hunks" >&2; return 1; }
    eval "$ct" >/dev/null || { echo "bench/hunks.sh: stitch did not apply $n Codex chunks" >&2; return 1; }
    for d in stitch git codex; do
      cmp -s "$l_dir/$d/f.txt" "$l_dir/b.txt" || { echo "bench/hunks.sh: $d gave another file" >&2; return 1; }
    done
    fact "hunks_$n" "$n hunks, file $(stat -c %s "$l_dir/a.txt") bytes, patch $(stat -c %s "$l_dir/p.patch") bytes"
    hf "hunks_$n" "${MED[@]}" --prepare "$prepare" "$st" "$gt" "$ct"
  done
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  HERE=$(cd "$(dirname "$0")" && pwd)
  REPO=$(dirname "$HERE")
  S=${1:-$REPO/target/release/stitch}
  PY=python3
  W=$(mktemp -d -t stitch-bench-hunks.XXXXXX)
  trap 'cd /; rm -rf "$W"' EXIT
  export XDG_DATA_HOME="$W/xdg-data"
  R="$W/results"
  mkdir -p "$R"
  MED=(--warmup 1 --runs 5)
  fact() { printf '%s: %s\n' "$1" "$2"; }
  # hf ID HYPERFINE-ARGS... COMMANDS: the median of each command, stitch's first.
  hf() {
    local id=$1
    shift
    if command -v hyperfine >/dev/null; then
      hyperfine --style basic --export-json "$R/$id.json" "$@" >&2
    else
      "$PY" - "$R/$id.json" "$@" <<'EOF'
import json, subprocess, sys, time
out, args = sys.argv[1], sys.argv[2:]
runs, prepare, commands, i = 5, None, [], 0
while i < len(args):
    if args[i] == "--runs":
        runs, i = int(args[i + 1]), i + 2
    elif args[i] == "--warmup":
        i += 2
    elif args[i] == "--prepare":
        prepare, i = args[i + 1], i + 2
    else:
        commands.append(args[i]); i += 1
results = []
for command in commands:
    times = []
    for _ in range(runs):
        if prepare:
            subprocess.run(prepare, shell=True, check=True)
        start = time.perf_counter()
        subprocess.run(command, shell=True, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    results.append({"command": command, "times": times})
json.dump({"results": results}, open(out, "w"))
EOF
    fi
    "$PY" -c 'import json,sys,statistics as s
r=json.load(open(sys.argv[1]))["results"]
m=[s.median(x["times"]) for x in r]
print(f"{sys.argv[2]}: median stitch {m[0]*1e3:.0f} ms, git apply {m[1]*1e3:.0f} ms (ratio {m[0]/m[1]:.2f}x), stitch on the Codex patch {m[2]*1e3:.0f} ms")' "$R/$id.json" "$id"
  }
  hunks_bench
fi
