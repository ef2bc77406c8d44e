#!/usr/bin/env bash
# rg over the shared 2,000-file tree: vsh's rg in-process beside the host's
# ripgrep run by host bash, in the same run; prints the ratio table of
# ratios.py (above 1: vsh is faster). Skips the host side when rg is not
# installed.
#   bench/rg-bench.sh [BUILD_DIR] [REPS]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shared=${VSH_SHARED_DIR:-$here/../../shared}/bench
build=${1:-$here/../_build/release}
reps=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
data=$work/data
python3 "$shared/gen_data.py" "$data" 1 >/dev/null
results=$work/results
mkdir -p "$results"
echo "vsh..." >&2
"$build/bench/vsh-bench" "$data" "$here/rg" "$reps" >"$results/vsh.jsonl"
if command -v rg >/dev/null; then
  echo "host bash + ripgrep..." >&2
  bash "$shared/run-host.sh" "$data" "$here/rg" bash "$reps" >"$results/bash.jsonl"
else
  echo "ripgrep not installed on the host: no comparison" >&2
fi
python3 "$here/ratios.py" "$results"
