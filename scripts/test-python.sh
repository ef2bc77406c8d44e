#!/usr/bin/env bash
# Tests the Python binding against an installed libvsh:
#   cmake --install _build/rel --prefix PREFIX && bash scripts/test-python.sh PREFIX
# Runs pytest on bindings/python/tests with VSH_LIBRARY set to PREFIX's
# libvsh.so, then the README example (the same ten lines in README.md and
# bindings/python/README.md) as a user would: PYTHONPATH=bindings/python.
# PYTHON names the interpreter (default: the first python3 that has pytest).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
prefix=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
lib=$(find "$prefix" -name 'libvsh.so' \( -type f -o -type l \) | head -1)
[ -n "$lib" ] || { echo "test-python: no libvsh.so under $prefix" >&2; exit 1; }
export VSH_LIBRARY=$lib

py=${PYTHON:-}
if [ -z "$py" ]; then
  for c in python3 /usr/bin/python3; do
    if command -v "$c" >/dev/null && "$c" -c 'import pytest' 2>/dev/null; then
      py=$c
      break
    fi
  done
fi
[ -n "$py" ] || { echo "test-python: no python3 with pytest (apt-get install python3-pytest)" >&2; exit 1; }

cd "$src/bindings/python"
"$py" -m pytest -q -p no:cacheprovider tests

# The README example: the first ```python block after the "Python" heading.
example() {
  awk '/^#+ Python$/ { h = 1 } h && /^```python$/ { on = 1; next }
       on && /^```$/ { exit } on { print }' "$1"
}
a=$(example "$src/README.md")
b=$(example "$src/bindings/python/README.md")
[ -n "$a" ] || { echo "test-python: no Python example in README.md" >&2; exit 1; }
if [ "$a" != "$b" ]; then
  echo "test-python: README.md and bindings/python/README.md examples differ" >&2
  exit 1
fi
lines=$(printf '%s\n' "$a" | wc -l)
[ "$lines" -le 10 ] || { echo "test-python: README example has $lines lines (at most 10)" >&2; exit 1; }
out=$(cd "$src" && printf '%s\n' "$a" | PYTHONPATH=bindings/python "$py" -)
want=$'0 256 data/bytes.bin\nHI'
if [ "$out" != "$want" ]; then
  echo "test-python: README example printed:"; printf '%s\n' "$out"; exit 1
fi
echo "test-python: README example passed"
