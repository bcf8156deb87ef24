# Section k of bench/run: a real multi-file commit applied with `stitch apply --from P`
# beside `git apply P && sync FILE...` (GNU sync(1) with files fsyncs each one: git apply
# syncs nothing, so this is its durable equivalent). Sourced by bench/run, which defines
# S (the stitch binary), W (the scratch directory), R (results), hf and fact; run alone as
#
#   bench/apply.sh [STITCH-BINARY]     figures on stdout, nothing written to the repo
#
# The patches are real commits of this repository (`git diff C~1 C`), applied to the
# tree as it was before each; every run restores the touched files first (--prepare), so
# every command really applies, and removes the files the commit adds.

apply_bench() {
  local commit files added k_dir
  for commit in 5b66657 b987776; do
    k_dir="$W/k/$commit"
    mkdir -p "$k_dir/base" "$k_dir/stitch" "$k_dir/git"
    git -C "$REPO" archive "$commit~1" | tar -x -C "$k_dir/base"
    git -C "$REPO" diff "$commit~1" "$commit" >"$k_dir/p.patch"
    files=$(git -C "$REPO" diff --name-only "$commit~1" "$commit" | tr '\n' ' ')
    added=$(git -C "$REPO" diff --name-only --diff-filter=A "$commit~1" "$commit" | tr '\n' ' ')
    (cd "$k_dir/base" && cp -a . "$k_dir/stitch/" && cp -a . "$k_dir/git/")
    # The touched files as they were, to restore before every run.
    (cd "$k_dir/base" && tar -cf "$k_dir/touched.tar" $(for f in $files; do [ -e "$f" ] && echo "$f"; done))
    local prepare="bash -c 'cd $k_dir && for d in stitch git; do (cd \$d && rm -f $added && tar -xf ../touched.tar); done'"
    local st="$S --root $k_dir/stitch apply --from $k_dir/p.patch"
    local gt="bash -c 'cd $k_dir/git && git apply ../p.patch && sync $files'"
    eval "$prepare"
    eval "$st" >/dev/null || { echo "bench/apply.sh: stitch apply did not apply $commit" >&2; return 1; }
    eval "$gt" || { echo "bench/apply.sh: git apply did not apply $commit" >&2; return 1; }
    (cd "$k_dir" && diff -r -x .stitch stitch git) || { echo "bench/apply.sh: the two trees differ" >&2; return 1; }
    fact "apply_$commit" "$(git -C "$REPO" diff --shortstat "$commit~1" "$commit" | sed 's/^ //')"
    # In bench/run, six invocations of alternating order, pooled (hf_rounds): in one
    # invocation the order alone moved this ratio by ±15% from run to run.
    if declare -F hf_rounds >/dev/null; then
      hf_rounds "apply_$commit" "$prepare" "$st" "$gt"
    else
      hf "apply_$commit" -N "${MED[@]}" --prepare "$prepare" "$st" "$gt"
    fi
  done
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  HERE=$(cd "$(dirname "$0")" && pwd)
  REPO=$(dirname "$HERE")
  S=${1:-$REPO/target/release/stitch}
  W=$(mktemp -d -t stitch-bench-apply.XXXXXX)
  trap 'cd /; rm -rf "$W"' EXIT
  export XDG_DATA_HOME="$W/xdg-data"
  R="$W/results"
  mkdir -p "$R"
  MED=(--warmup 3 --runs 30)
  fact() { printf '%s: %s\n' "$1" "$2"; }
  hf() {
    local id=$1
    shift
    hyperfine --style basic --export-json "$R/$id.json" "$@"
    python3 -c 'import json,sys,statistics as s
r=json.load(open(sys.argv[1]))["results"]
m=[s.median(x["times"]) for x in r]
print(f"{sys.argv[2]}: median stitch {m[0]*1e3:.2f} ms, git apply + sync {m[1]*1e3:.2f} ms, ratio {m[0]/m[1]:.2f}x")' "$R/$id.json" "$id"
  }
  apply_bench
fi
