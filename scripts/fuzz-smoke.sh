#!/usr/bin/env bash
# CI's short fuzzing pass (called by scripts/test.sh after the ASan tests):
# replays every checked-in fuzz corpus (fuzz/corpus/, where the seeds that
# once found a bug are kept), then runs the shell fuzzers, fuzz_exec and
# fuzz_parse, for a fixed time each with libFuzzer + ASan + UBSan
# (detect_stack_use_after_return=1). Any finding fails the suite; the
# inputs that found it are listed and kept under BUILD/fuzz/findings/.
# Environment: VSH_BUILD_ROOT (default _build), VSH_FUZZ_SMOKE_SECONDS
# (per target, default 75).
set -euo pipefail
cd "$(dirname "$0")/.."
export VSH_FUZZ_BUILD=${VSH_BUILD_ROOT:-_build}/fuzz
secs=${VSH_FUZZ_SMOKE_SECONDS:-75}
jobs=$(nproc)
status=0

# fuzz/run.sh configures the build; the first run also builds the layers.
bash fuzz/run.sh exec "$secs" || status=1
bash fuzz/run.sh parse "$secs" || status=1

replays=()
for src in fuzz/fuzz_*.c; do
  n=$(basename "$src" .c)
  replays+=("${n}_replay")
done
cmake --build "$VSH_FUZZ_BUILD" --target "${replays[@]}" -j"$jobs" >/dev/null
(cd "$VSH_FUZZ_BUILD" &&
  ASAN_OPTIONS=detect_stack_use_after_return=1:detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    ctest --output-on-failure -j"$jobs" -R '^fuzz_.*_corpus$') || status=1

if [ "$status" != 0 ]; then
  echo "fuzz-smoke: FAILED (see the findings above)" >&2
fi
exit "$status"
