#!/usr/bin/env bash
# Checks the exported ABI of a build: the dynamic symbols libvsh.so defines,
# the list in api/vsh.map and the VSH_API declarations of include/vsh.h
# must be the same set of names, and every exported symbol must carry the
# version node VSH_0; the static library as installed (dist/libvsh.a) must
# define the same global names and no other. Prints each difference and
# exits 1 on any.
# Usage: scripts/check-exports.sh BUILD_DIR
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: check-exports.sh BUILD_DIR}
so=$build/libvsh.so
[ -e "$so" ] || { echo "check-exports: $so not found (build vsh_shared first)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. what the library exports: "name@@VSH_0" (or a bare name when the
#    linker had no version script); the version node itself is an
#    absolute symbol named VSH_0.
nm -D --defined-only "$so" | awk 'NF >= 3 {print $3}' >"$tmp/dyn.raw"
grep -vx 'VSH_0' "$tmp/dyn.raw" | sed 's/@.*//' | sort -u >"$tmp/exported"
unversioned=$(grep -v -e '@@VSH_0$' -e '^VSH_0$' "$tmp/dyn.raw" || true)

# 2. the version script's global names
sed 's#/\*.*\*/##; /\/\*/,/\*\//d' "$src/api/vsh.map" |
  awk '/global:/ {g = 1; next} /local:/ {g = 0} g' |
  tr -d ' \t;' | grep -v '^$' | sort -u >"$tmp/listed"

# 3. the header's declarations: each statement that starts with VSH_API,
#    up to its ';', named by the identifier before its first '('
awk '/^[ \t]*VSH_API[ \t]/ {d = 1; s = ""}
     d {s = s " " $0; if (index($0, ";")) {print s; d = 0}}' "$src/include/vsh.h" |
  sed -E 's/^[^(]*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*)[ \t]*\(.*/\1/' |
  sort -u >"$tmp/declared"

bad=0
report() { # label file-a file-b: names in a, not in b
  local names
  names=$(comm -23 "$2" "$3")
  if [ -n "$names" ]; then
    echo "check-exports: $1:"
    echo "  ${names//$'\n'/$'\n'  }"
    bad=1
  fi
}
report "exported by libvsh.so but not listed in api/vsh.map" "$tmp/exported" "$tmp/listed"
report "listed in api/vsh.map but not exported" "$tmp/listed" "$tmp/exported"
report "declared VSH_API in include/vsh.h but not exported" "$tmp/declared" "$tmp/exported"
report "exported but not declared VSH_API in include/vsh.h" "$tmp/exported" "$tmp/declared"
report "listed in api/vsh.map but not declared in include/vsh.h" "$tmp/listed" "$tmp/declared"
if [ -n "$unversioned" ]; then
  echo "check-exports: exported without the version node VSH_0:"
  echo "  ${unversioned//$'\n'/$'\n'  }"
  bad=1
fi
soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$soname" != "libvsh.so.0" ]; then
  echo "check-exports: SONAME is '$soname', expected libvsh.so.0"
  bad=1
fi

# 4. the static library as installed (dist/libvsh.a, cmake/static-archive.cmake)
#    defines the same global names and no other: its internal symbols are
#    local, so they cannot clash with an embedder's
if [ -e "$build/dist/libvsh.a" ]; then
  nm -g --defined-only "$build/dist/libvsh.a" | awk 'NF == 3 {print $3}' | sort -u >"$tmp/static"
  report "global in the installed libvsh.a but not exported by libvsh.so" \
    "$tmp/static" "$tmp/exported"
  report "exported by libvsh.so but not global in the installed libvsh.a" \
    "$tmp/exported" "$tmp/static"
  static="; installed libvsh.a the same"
else
  static="; no dist/libvsh.a in this build"
fi

n=$(wc -l <"$tmp/exported")
[ $bad = 0 ] && echo "check-exports: ok ($n symbols, version VSH_0, SONAME $soname$static)"
exit $bad
