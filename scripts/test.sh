#!/usr/bin/env bash
# The whole test suite: the layering check, a Release build and an AddressSanitizer +
# UndefinedBehaviorSanitizer build, each with warnings as errors, all unit,
# driver, CLI and spec tests, the thread tests under ThreadSanitizer
# (scripts/tsan.sh), a short fuzzing pass (scripts/fuzz-smoke.sh),
# then the install test (a program built against
# the installed package), the Debian packages' test and the tests of the
# language bindings.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
out=${VSH_BUILD_ROOT:-_build}

bash scripts/check-layers.sh

cmake -S . -B "$out/release" -DCMAKE_BUILD_TYPE=Release -DVSH_WERROR=ON >/dev/null
cmake --build "$out/release" -j"$jobs"
(cd "$out/release" && ctest --output-on-failure -j"$jobs")

# The two large corpora are scored in the Release build only: their results
# are the same there, and jq's 10,000-deep nesting case (jq.test:2524) meets
# the fiber stack's depth guard sooner under ASan's larger frames. jq's
# evaluator still runs under ASan through test_jq, oom_inject and fuzz_jq.
CC=clang cmake -S . -B "$out/asan" -DCMAKE_BUILD_TYPE=Debug -DVSH_WERROR=ON \
  -DVSH_SANITIZE=address,undefined -DVSH_BENCH=OFF >/dev/null
cmake --build "$out/asan" -j"$jobs"
(cd "$out/asan" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --output-on-failure -j"$jobs" -E '^(spec_oils|jq_corpus)$')

# the thread tests under ThreadSanitizer
bash scripts/tsan.sh

# a short libFuzzer run of the shell fuzzers, and the fuzz corpora replayed
bash scripts/fuzz-smoke.sh

bash scripts/install-test.sh "$out/release"

# the Debian packages (cpack), installed with apt, tested, then purged (root only)
bash scripts/deb-test.sh "$out/release"

# the language bindings, against the library as installed
prefix=$(mktemp -d)
cmake --install "$out/release" --prefix "$prefix" >/dev/null
bash scripts/test-python.sh "$prefix"
bash scripts/test-node.sh "$prefix"
rm -rf "$prefix"
