#!/usr/bin/env bash
# Runs the hostile cases of cases.txt (beside this file) through the vsh
# command: each must end by itself with its status and message, without
# killing the host process (a signal is a failure) and well within the
# guard time. Usage: run.sh VSH_BINARY [GUARD_SECONDS]
# A case slower than HOSTILE_MAX_MS (default 3000; a deadline case must end
# within a second of its deadline, the others far sooner) fails too.
set -u
vsh=${1:?usage: run.sh VSH_BINARY [GUARD_SECONDS]}
guard=${2:-20}
max_ms=${HOSTILE_MAX_MS:-3000}
here=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0
err=$(mktemp)
trap 'rm -f "$err"' EXIT

while IFS= read -r line; do
  case "$line" in '' | '#'*) continue ;; esac
  want=${line%% | *}
  rest=${line#* | }
  msg=${rest%% | *}
  rest=${rest#* | }
  opts=${rest%% | *}
  script=${rest#* | }
  [ "$opts" = - ] && opts=
  [ "$msg" = - ] && msg=
  start=$(date +%s%N)
  # shellcheck disable=SC2086 # OPTIONS are words on purpose
  timeout -s KILL "$guard" "$vsh" $opts -c "$script" </dev/null >/dev/null 2>"$err"
  got=$?
  ms=$((($(date +%s%N) - start) / 1000000))
  why=
  if [ "$got" -ge 128 ] && [ "$want" -lt 128 ]; then
    why="host process died (status $got)"
  elif [ "$got" != "$want" ]; then
    why="status $got, want $want"
  elif [ -n "$msg" ] && ! grep -qF -- "$msg" "$err"; then
    why="stderr lacks '$msg': $(head -c 200 "$err")"
  elif [ "$ms" -gt "$max_ms" ]; then
    why="took $ms ms (over $max_ms)"
  fi
  if [ -n "$why" ]; then
    echo "FAIL ($ms ms) $script: $why"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
done <"$here/cases.txt"

echo "hostile: $pass passed, $fail failed"
[ "$fail" = 0 ]
