#!/usr/bin/env bash
# Runs the shared workloads in vsh and, side by side in the same run, in the
# peers (just-bash, bashkit, host bash, BusyBox), then prints each engine's
# time as a ratio to vsh's (above 1: vsh is faster) and flags outputs that
# differ from host bash's.
#   bench/run.sh [BUILD_DIR] [REPS]     (peers needing npm/busybox are skipped
#                                        when they cannot be installed)
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
"$build/bench/vsh-bench" "$data" "$shared/workloads" "$reps" >"$results/vsh.jsonl"

echo "host bash..." >&2
bash "$shared/run-host.sh" "$data" "$shared/workloads" bash "$reps" >"$results/bash.jsonl"

if command -v busybox >/dev/null; then
  echo "busybox..." >&2
  bb=$work/bb; mkdir -p "$bb"; busybox --install -s "$bb" 2>/dev/null
  BUSYBOX_BIN=$bb bash "$shared/run-host.sh" "$data" "$shared/workloads" busybox "$reps" >"$results/busybox.jsonl"
fi

if command -v node >/dev/null && command -v npm >/dev/null; then
  cp "$shared"/run-*.mjs "$work/"
  if (cd "$work" && npm install --silent --no-audit --no-fund just-bash@3.4.2 @everruns/bashkit@0.18.2 >/dev/null 2>&1); then
    echo "just-bash..." >&2
    (cd "$work" && timeout 1200 node run-justbash.mjs "$data" "$shared/workloads" "$reps") >"$results/just-bash.jsonl" 2>/dev/null
    echo "bashkit..." >&2
    (cd "$work" && timeout 1200 node run-bashkit.mjs "$data" "$shared/workloads" "$reps") >"$results/bashkit.jsonl" 2>/dev/null
  else
    echo "npm peers could not be installed; skipped" >&2
  fi
fi

python3 "$here/ratios.py" "$results"

echo "diff of two 100k-line files..." >&2
bash "$here/diff-bench.sh" "$build" "$reps"
