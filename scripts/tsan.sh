#!/usr/bin/env bash
# CI's ThreadSanitizer pass (called by scripts/test.sh): a TSan build (clang,
# warnings as errors) of the tests that use threads, run so that any report
# fails them. There, sandboxes sharing filesystem nodes (snapshots, forks,
# vsh_open_from, host layers) run on several threads at once, cancel tokens
# are set from other threads, and fibers switch (core/fiber.c tells TSan
# about every switch). Only these tests: the rest are single-threaded, and
# the whole suite under TSan would take longer than CI allows (about a
# minute here instead of ten).
# Not here: test_exec_limits, whose time limits (a `timeout 5` inside deep
# recursion) do not hold at TSan's speed; its cancel-from-another-thread
# cases are covered by test_threads and test_driver.
# Environment: VSH_BUILD_ROOT (default _build).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
out=${VSH_BUILD_ROOT:-_build}/tsan
tests=(test_threads test_concurrent test_vfs_snap test_core test_driver test_net test_curl test_tz test_template test_sqlite3)

CC=clang cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=Debug -DVSH_WERROR=ON \
  -DVSH_SANITIZE=thread -DVSH_BENCH=OFF >/dev/null
cmake --build "$out" --target "${tests[@]}" -j"$jobs"
regex="^($(
  IFS='|'
  echo "${tests[*]}"
))\$"
(cd "$out" && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  ctest --output-on-failure -j"$jobs" -R "$regex")
