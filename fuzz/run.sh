#!/usr/bin/env bash
# Builds one fuzz target with libFuzzer + ASan + UBSan and runs it for a
# while on a scratch copy of its seed corpus, then prints what it did and
# what it found. Usage: fuzz/run.sh TARGET SECONDS [JOBS]
#   TARGET   exec, parse, awk, sed, jq, vfs, url_policy, archive, diff, bc,
#            sqlite3, bytes (or fuzz_exec, ...)
#   SECONDS  total fuzzing time
#   JOBS     parallel fuzzing processes (default 1)
# Environment:
#   VSH_FUZZ_BUILD    build directory (default _build/fuzz)
#   VSH_FUZZ_OUT      findings directory (default $VSH_FUZZ_BUILD/findings/TARGET)
#   VSH_FUZZ_TIMEOUT  seconds one input may take before it counts as a hang
#                     (default 20; the targets' own deadlines are far shorter)
#   VSH_FUZZ_MAX_LEN  largest input libFuzzer makes, in bytes (default 4096;
#                     longer seeds are cut to it)
#   VSH_FUZZ_ARGS     extra libFuzzer flags
#   VSH_FUZZ_NO_BUILD if set, run the binary already built (several runs at
#                     once in one build directory must not all rebuild it)
# Exit status: 0 when nothing was found, 1 when a crash, leak, timeout or
# out-of-memory input was found (its files are listed), 2 on a usage or
# build error.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: fuzz/run.sh TARGET SECONDS [JOBS]" >&2
  exit 2
}
if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage; fi
name=${1#fuzz_}
secs=$2
jobs=${3:-1}
case "$secs$jobs" in *[!0-9]*) usage ;; esac
src=fuzz/fuzz_$name.c
if [ ! -f "$src" ]; then
  echo "fuzz/run.sh: no target $name (no $src)" >&2
  exit 2
fi
build=${VSH_FUZZ_BUILD:-_build/fuzz}
out=${VSH_FUZZ_OUT:-$build/findings/$name}
timeout=${VSH_FUZZ_TIMEOUT:-20}
max_len=${VSH_FUZZ_MAX_LEN:-4096}

# The target's seeds: fuzz/corpus/NAME, or the folder its second line names
# ("// corpus: shell"), as fuzz/CMakeLists.txt does for the replay tests.
seeds=$name
second=$(sed -n 2p "$src")
case "$second" in "// corpus: "*) seeds=${second#// corpus: } ;; esac

if [ -z "${VSH_FUZZ_NO_BUILD:-}" ]; then
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
    export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
  fi
  # -O1 keeps the fuzzer fast and the stack traces readable; Debug keeps
  # assertions on. Warnings are not errors here: the Release and ASan builds
  # of scripts/test.sh check them, and a fuzzing run should not stop on one.
  CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS=-O1 \
    -DVSH_WERROR=OFF -DVSH_FUZZ=ON -DVSH_SANITIZE=address,undefined \
    -DVSH_BENCH=OFF "${launcher[@]}" >/dev/null || exit 2
  cmake --build "$build" --target "fuzz_$name" -j"${VSH_FUZZ_BUILD_JOBS:-$(nproc)}" \
    >"$build/fuzz_$name.build.log" 2>&1 || {
    tail -30 "$build/fuzz_$name.build.log" >&2
    exit 2
  }
fi
bin=$(cd "$build" && pwd)/fuzz/fuzz_$name
if [ ! -x "$bin" ]; then
  echo "fuzz/run.sh: $bin was not built (is clang's libFuzzer installed?)" >&2
  exit 2
fi

# A scratch corpus, so the inputs the run adds stay out of the checked-in
# seeds (fuzz/README.md says how to keep one).
work=$(cd "$build" && pwd)/work/$name
rm -rf "$work"
mkdir -p "$work/corpus" "$out"
out=$(cd "$out" && pwd)
if [ -d "fuzz/corpus/$seeds" ]; then
  cp -R "fuzz/corpus/$seeds/." "$work/corpus/"
fi

# ASan keeps freed memory in a quarantine (256 MB by default) to catch
# uses after free; the targets free megabytes per input, so the quarantine
# alone would hold the process near 300 MB. 16 MB still spans many inputs
# (a use after free within one input is caught). The caller's ASAN_OPTIONS
# come last and win.
export ASAN_OPTIONS="detect_stack_use_after_return=1:detect_leaks=1:quarantine_size_mb=16:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}"
# The custom mutator makes libFuzzer leave -len_control off, so inputs grow
# to max_len within a minute: 4 KiB is room for a thousand levels of
# nesting, and keeps an input's cost (parsing alone is linear in it) in
# milliseconds under the sanitizers.
flags=(-max_total_time="$secs" -max_len="$max_len" -timeout="$timeout"
  -artifact_prefix="$out/" -print_final_stats=1)
# shellcheck disable=SC2206 # extra flags are words on purpose
[ -n "${VSH_FUZZ_ARGS:-}" ] && flags+=(${VSH_FUZZ_ARGS})

echo "fuzz/run.sh: fuzz_$name for ${secs}s, $jobs job(s), seeds fuzz/corpus/$seeds, findings in $out"
before=$(mktemp)
trap 'rm -f "$before"' EXIT
ls -1 "$out" >"$before"
status=0
if [ "$jobs" -gt 1 ]; then
  # each job logs to fuzz-N.log in the current directory
  (cd "$work" && "$bin" "${flags[@]}" -jobs="$jobs" -workers="$jobs" corpus \
    >"$work/fuzz.log" 2>&1) || status=$?
  logs=("$work"/fuzz-*.log)
else
  (cd "$work" && "$bin" "${flags[@]}" corpus >"$work/fuzz-0.log" 2>&1) || status=$?
  logs=("$work/fuzz-0.log")
fi

# The summary: one line per job from its final stats and last status line.
runs_total=0
for log in "${logs[@]}"; do
  [ -f "$log" ] || continue
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(echo "$last" | grep -oE 'cov: [0-9]+' || true)
  ft=$(echo "$last" | grep -oE 'ft: [0-9]+' || true)
  corp=$(echo "$last" | grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' || true)
  echo "  $(basename "$log"): runs ${runs:-?}, ${eps:-?} execs/s, ${cov:-cov: ?}, ${ft:-ft: ?}, ${corp:-corp: ?}"
  runs_total=$((runs_total + ${runs:-0}))
done
echo "  total runs: $runs_total (logs in $work)"

found=()
while IFS= read -r f; do
  case "$f" in crash-* | leak-* | timeout-* | oom-*) ;; *) continue ;; esac
  grep -qxF -- "$f" "$before" || found+=("$out/$f")
done < <(ls -1 "$out")
if [ ${#found[@]} -gt 0 ]; then
  echo "  findings (${#found[@]}):"
  printf '    %s\n' "${found[@]}"
  for log in "${logs[@]}"; do
    [ -f "$log" ] || continue
    # the report that goes with it: the sanitizer's or libFuzzer's summary
    grep -m3 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|SUMMARY:' "$log" |
      sed "s|^|    $(basename "$log"): |" || true
  done
  exit 1
fi
if [ "$status" != 0 ]; then
  echo "  fuzzer exited with status $status and left no finding; see the logs" >&2
  exit 1
fi
echo "  findings: none"
