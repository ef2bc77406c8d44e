#!/usr/bin/env bash
# Checks the man page docs/vsh.1: it must render without a single warning,
# through groff directly and through man(1), and it must name every long
# option and every --limit name that `vsh --help` prints, so the page and
# the command cannot drift apart.
#
# usage: scripts/check-man.sh VSH_BINARY [MAN_PAGE]
# Needs groff (Debian: groff-base) and man (man-db).
set -euo pipefail
vsh=${1:?usage: check-man.sh VSH_BINARY [MAN_PAGE]}
page=${2:-$(dirname "$0")/../docs/vsh.1}
fail=0

for tool in groff man; do
  if ! command -v "$tool" >/dev/null; then
    echo "check-man: $tool is not installed" >&2
    exit 1
  fi
done

# 1. groff with every warning turned on; -z discards the output.
warn=$(groff -man -ww -z -Tutf8 "$page" 2>&1 >/dev/null) || fail=1
if [ -n "$warn" ]; then
  printf 'check-man: groff warns:\n%s\n' "$warn" >&2
  fail=1
fi

# 2. man, which adds its own preprocessing; a fixed width keeps the result
# independent of the terminal running the test.
warn=$(MANWIDTH=80 LC_ALL=C.UTF-8 MAN_KEEP_FORMATTING=0 \
  man --warnings -l "$page" 2>&1 >/dev/null) || fail=1
if [ -n "$warn" ]; then
  printf 'check-man: man warns:\n%s\n' "$warn" >&2
  fail=1
fi

# 3. Every long option of --help is in the page, as the source writes it
# (each '-' escaped as '\-').
help=$("$vsh" --help)
opts=$(printf '%s\n' "$help" | grep -o -- '--[a-z][a-z-]*' | sort -u)
if [ -z "$opts" ]; then
  echo "check-man: no long options found in '$vsh --help'" >&2
  exit 1
fi
n=0
for o in $opts; do
  n=$((n + 1))
  esc=${o//-/\\-}
  if ! grep -qF -- "$esc" "$page"; then
    echo "check-man: $o is in 'vsh --help' but not in $page" >&2
    fail=1
  fi
done

# 4. Every --limit name of --help is listed in the LIMITS section.
# In the table after "NAME is one of:", a name starts a line at a fixed
# indentation; its description's continuation lines are indented further.
limits=$(printf '%s\n' "$help" |
  sed -n '/NAME is one of:/,/A limit ends/p' |
  grep -oE '^ {25}[a-z][a-z-]+  ' | tr -d ' ')
section=$(sed -n '/^\.SH LIMITS/,/^\.SH /p' "$page")
nl=0
for l in $limits; do
  nl=$((nl + 1))
  if ! grep -qxF -- ".B ${l//-/\\-}" <<<"$section"; then
    echo "check-man: limit '$l' is in 'vsh --help' but not under LIMITS" >&2
    fail=1
  fi
done
if [ "$nl" -lt 10 ]; then
  echo "check-man: found only $nl limit names in 'vsh --help'" >&2
  fail=1
fi

if [ "$fail" = 0 ]; then
  echo "check-man: $page renders cleanly and names all $n long options and $nl limits"
fi
exit "$fail"
