#!/usr/bin/env bash
# diff of two 100,000-line files (1% of the lines edited): vsh's diff beside
# the host's GNU diff, in one run, measured two ways:
#   in-process  vsh-bench runs the workload in a sandbox holding the files
#               (as the shared workloads run), host bash runs it as a process
#   command     the vsh command over a read-only host layer (--root) against
#               the host's diff: process start and loading the files included
# Prints each median and the ratio host/vsh (above 1: vsh is faster), and
# fails when the outputs differ.
#   bench/diff-bench.sh [BUILD_DIR] [REPS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../_build/release}
reps=${2:-7}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import random, sys
d = sys.argv[1]
r = random.Random(2024)
words = ["alpha", "beta", "gamma", "delta", "if (x) {", "}", "return 0;", ""]
a = [" ".join(r.choice(words) for _ in range(r.randrange(1, 6))) + " %d" % r.randrange(1000)
     for _ in range(100000)]
b = []
for line in a:
    k = r.random()
    if k < 0.005:
        continue
    if k < 0.01:
        b.append(line + " changed")
    elif k < 0.015:
        b.append(line); b.append("inserted %d" % r.randrange(10**6))
    else:
        b.append(line)
open(d + "/a", "w").write("\n".join(a) + "\n")
open(d + "/b", "w").write("\n".join(b) + "\n")
PY
# in-process, with the shared runners
shared=${VSH_SHARED_DIR:-$here/../../shared}/bench
mkdir -p "$work/data" "$work/wl"
cp "$work/a" "$work/b" "$work/data/"
echo 'diff a b | md5sum' >"$work/wl/21-diff-100k.sh"
echo 'diff -u --label a --label b a b | md5sum' >"$work/wl/22-diff-u-100k.sh"
"$build/bench/vsh-bench" "$work/data" "$work/wl" "$reps" >"$work/vsh.jsonl"
bash "$shared/run-host.sh" "$work/data" "$work/wl" bash "$reps" >"$work/host.jsonl"
python3 - "$work/vsh.jsonl" "$work/host.jsonl" <<'PY'
import json, sys
v = {j["workload"]: j for j in map(json.loads, open(sys.argv[1])) if "out_sha" in j}
h = {j["workload"]: j for j in map(json.loads, open(sys.argv[2]))}
bad = 0
for k in sorted(v):
    same = v[k]["out_sha"] == h[k]["out_sha"]
    bad |= not same
    print("%-16s in-process: host bash+GNU diff %7.1f ms   vsh %7.1f ms   host/vsh %.2f   same output: %s"
          % (k, h[k]["median_ms"], v[k]["median_ms"], h[k]["median_ms"] / v[k]["median_ms"], "yes" if same else "NO"))
sys.exit(bad)
PY
median() { sort -n | sed -n "$(( (reps + 1) / 2 ))p"; }
time_ms() { # command...: milliseconds of one run
  local s e
  s=$(date +%s%N)
  "$@" >/dev/null 2>&1 || true
  e=$(date +%s%N)
  echo $(( (e - s) / 1000 ))
}
for mode in "" "-u"; do
  host=$(for ((i = 0; i < reps; i++)); do time_ms diff $mode "$work/a" "$work/b"; done | median)
  mine=$(for ((i = 0; i < reps; i++)); do
    time_ms "$build/vsh" --root "$work" -c "diff $mode a b"; done | median)
  (cd "$work" && diff $mode --label a --label b a b >host.out || true)
  "$build/vsh" --root "$work" -c "diff $mode --label a --label b a b" >"$work/vsh.out" || true
  same=yes
  cmp -s "$work/host.out" "$work/vsh.out" || same=NO
  awk -v m="diff${mode:+ $mode}" -v h="$host" -v v="$mine" -v s="$same" 'BEGIN {
    printf "%-10s command: host GNU diff %7.1f ms   vsh %7.1f ms   host/vsh %.2f   same output: %s\n",
      m, h / 1000, v / 1000, h / v, s }'
  [ "$same" = yes ] || exit 1
done
