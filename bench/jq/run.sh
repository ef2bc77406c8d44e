#!/usr/bin/env bash
# The jq workloads: generates the data (gen_data.py: 20,000 events, about
# 10 MB), runs workloads/*.sh in vsh (vsh-bench, data loaded at /data) and,
# side by side in the same run, with the host's jq (one process per run),
# then prints each time and the host's
# time divided by vsh's (above 1: vsh is faster); '!' marks an output that
# differs from the host jq's.
#   bench/jq/run.sh [BUILD_DIR] [REPS]
# vsh's side is skipped, saying so, when its jq command is missing; the
# host side when there is no jq on the PATH (apt-get install jq).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../_build/release}
reps=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_data.py" "$work/data" >/dev/null
results=$work/results
mkdir -p "$results"

echo "vsh..." >&2
"$build/bench/vsh-bench" "$work/data" "$here/workloads" "$reps" |
  grep -v '"workload":"00-' >"$results/vsh.jsonl"
if grep -q '"exit":127' "$results/vsh.jsonl"; then
  echo "vsh has no jq command: its side is skipped" >&2
  rm "$results/vsh.jsonl"
fi

# The host's jq, one process per run as a command line would start it; the
# output fingerprint as run-host.sh and vsh-bench take it.
host_jq() {
  local f name out s e times med sha
  cd "$work/data" || return
  for f in "$here"/workloads/*.sh; do
    name=$(basename "$f" .sh)
    times=()
    for ((r = 0; r <= reps; r++)); do
      s=$(date +%s%N)
      out=$(LC_ALL=C bash "$f" 2>/dev/null)
      e=$(date +%s%N)
      ((r > 0)) && times+=($((e - s)))
    done
    med=$(printf '%s\n' "${times[@]}" | sort -n |
      sed -n "$(((${#times[@]} + 1) / 2))p")
    sha=$(printf '%s\n' "$out" | sha256sum | cut -c1-12)
    printf '{"workload":"%s","median_ms":%s,"out_sha":"%s"}\n' "$name" \
      "$(awk "BEGIN{printf \"%.3f\", $med/1e6}")" "$sha"
  done
}

ref=
if command -v jq >/dev/null; then
  ref="host $(jq --version | sed 's/-/ /')"
  echo "$ref..." >&2
  (host_jq) >"$results/$ref.jsonl"
else
  echo "no jq on the host: its side is skipped" >&2
fi

python3 "$here/../ratios.py" "$results" ${ref:+"$ref"}
