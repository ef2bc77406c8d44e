#!/usr/bin/env bash
# The Node.js package as a user gets it: `npm pack` of bindings/node,
# installed with @flue/runtime@2.1.0 into a fresh folder (the addon builds
# there against the libvsh installed under PREFIX, found by pkg-config),
# then its test suite and the README example.
#
#   cmake --install _build/rel --prefix /tmp/vsh-prefix
#   scripts/test-node.sh /tmp/vsh-prefix
#
# Needs node >= 18, npm, cmake, a C++ compiler and pkg-config; fetches only
# from the npm registry (the Node-API headers come from node-api-headers).
set -euo pipefail
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 PREFIX   (an install prefix of libvsh)" >&2
  exit 2
fi
prefix=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
start=$(date +%s)

pcdirs=""
for d in "$prefix"/lib/pkgconfig "$prefix"/lib64/pkgconfig "$prefix"/lib/*/pkgconfig; do
  if [ -f "$d/vsh.pc" ]; then pcdirs="$pcdirs${pcdirs:+:}$d"; fi
done
if [ -z "$pcdirs" ]; then
  echo "$0: no vsh.pc under $prefix" >&2
  exit 1
fi
export PKG_CONFIG_PATH="$pcdirs${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
echo "libvsh $(pkg-config --modversion vsh) from $pcdirs"

work=$(mktemp -d "${TMPDIR:-/tmp}/vsh-node-XXXXXX")
trap 'rm -rf "$work"' EXIT

# The package, packed as it would be published.
tarball=$(cd "$here/bindings/node" && npm pack --silent --pack-destination "$work" | tail -n 1)

# A fresh project that installs it.
cd "$work"
mkdir app && cd app
npm init -y >/dev/null
npm install --no-audit --no-fund --loglevel=error "$work/$tarball" @flue/runtime@2.1.0

# The package's tests, run from the installed copy.
(cd node_modules/vsh && node --test test/*.test.mjs)

# The README example: the same block in both READMEs, run as a user would.
extract() { awk '/^```js$/ { on = 1; next } /^```$/ { if (on) exit } on' "$1"; }
extract "$here/bindings/node/README.md" > example.mjs
if ! extract "$here/README.md" | cmp -s - example.mjs; then
  echo "$0: the Node.js example in README.md and bindings/node/README.md differ" >&2
  exit 1
fi
if [ "$(wc -l < example.mjs)" -gt 10 ]; then
  echo "$0: the README example is longer than ten lines" >&2
  exit 1
fi
got=$(node example.mjs)
want=$'HELLO\nWRITE THE DOCS\n 0\n124\nwrite the docs'
if [ "$got" != "$want" ]; then
  printf '%s: README example printed:\n%s\nexpected:\n%s\n' "$0" "$got" "$want" >&2
  exit 1
fi
echo "README example: ok"
echo "test-node: passed in $(($(date +%s) - start)) s"
