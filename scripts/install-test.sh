#!/usr/bin/env bash
# Installs a build into a temporary prefix and builds examples/embed.c
# against it twice: through pkg-config and through find_package(vsh).
set -euo pipefail
build=$1
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$prefix/lib/$(gcc -print-multiarch 2>/dev/null)/pkgconfig"
# an embedder's build gets the include path and nothing else
cflags=$(pkg-config --cflags vsh)
for f in $cflags; do
  case "$f" in
  -I*) ;;
  *) echo "install test: pkg-config --cflags vsh leaks '$f'"; exit 1 ;;
  esac
done
cc -std=c11 -Wall -Wextra -Werror examples/embed.c -o "$prefix/embed" \
  $(pkg-config --cflags vsh) -Wl,-rpath,"$prefix/lib" $(pkg-config --libs vsh)
out=$("$prefix/embed")
want=$'      3 apple\n      2 pear\n      1 fig'
if [ "$out" != "$want" ]; then
  echo "install test: embed printed:"; printf '%s\n' "$out"; exit 1
fi
# a static link through pkg-config (Libs.private names what it needs)
cc -std=c11 -Wall -Wextra -Werror examples/embed.c -o "$prefix/embed-static" \
  $(pkg-config --cflags vsh) "$(pkg-config --variable=libdir vsh)/libvsh.a" \
  $(pkg-config --libs-only-l --static vsh | sed 's/-lvsh //')
[ "$("$prefix/embed-static")" = "$want" ] || { echo "install test: static embed failed"; exit 1; }
mkdir -p "$prefix/cm"
cat > "$prefix/cm/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.25)
project(embed C)
find_package(vsh REQUIRED)
add_executable(embed $PWD/examples/embed.c)
target_link_libraries(embed PRIVATE vsh::vsh_static)
CM
cmake -S "$prefix/cm" -B "$prefix/cm/b" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/cm/b" >/dev/null
[ "$("$prefix/cm/b/embed")" = "$want" ]
echo "install test: 4 passed, 0 failed"
