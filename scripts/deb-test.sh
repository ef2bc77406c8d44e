#!/usr/bin/env bash
# The Debian packages of a build, tested as a user gets them: builds them
# with cpack (cmake/packaging.cmake), checks their metadata and contents,
# installs them with apt, builds examples/embed.c against the installed
# package through pkg-config and through find_package(vsh) (shared and
# static), runs /usr/bin/vsh and `man -w vsh`, then purges the packages and
# whatever apt installed with them. Installing needs root: run as another
# user it says so and does nothing.
# Usage: scripts/deb-test.sh BUILD_DIR
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: deb-test.sh BUILD_DIR}" && pwd)
if [ "$(id -u)" != 0 ]; then
  echo "deb test: skipped (installing packages needs root)"
  exit 0
fi
for t in cpack dpkg-deb dpkg-shlibdeps file apt-get cc; do
  command -v "$t" >/dev/null ||
    { echo "deb test: '$t' not found (scripts/deps.sh installs it)"; exit 1; }
done
pkgs=(libvsh0 libvsh-dev vsh)
installed() { dpkg-query -W -f='${db:Status-Status}\n' "$1" 2>/dev/null | grep -x installed >/dev/null; }
for p in "${pkgs[@]}"; do
  if installed "$p"; then
    echo "deb test: package $p is already installed; remove it first"
    exit 1
  fi
done

tmp=$(mktemp -d)
before=$tmp/packages-before
dpkg-query -W -f='${db:Status-Status} ${Package}\n' | awk '$1 == "installed" {print $2}' |
  sort >"$before"
added() { # the packages dpkg knows now and did not have installed before
  dpkg-query -W -f='${db:Status-Status} ${Package}\n' |
    awk '$1 != "not-installed" {print $2}' | sort | comm -13 "$before" -
}
cleanup() {
  # purge the packages and what apt installed for them (recorded right after
  # the install, so that nothing another process installs later is touched)
  local list=()
  if [ -f "$tmp/added" ]; then
    mapfile -t list <"$tmp/added"
  else
    mapfile -t list < <(added | grep -Fx "${pkgs[@]/#/-e}" || true)
  fi
  if [ ${#list[@]} -gt 0 ]; then
    apt-get purge -y -qq -o DPkg::Lock::Timeout=300 "${list[@]}" >"$tmp/purge.log" 2>&1 ||
      { echo "deb test: apt-get purge ${list[*]} failed:"; cat "$tmp/purge.log"; }
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "deb test: $*"
  exit 1
}
passed=0
ok() { passed=$((passed + 1)); }

# (the checks below read each pipe to its end, with grep >/dev/null rather
# than grep -q, so that pipefail never sees a writer cut off early)

# 1. build the packages
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt")
arch=$(dpkg --print-architecture)
(cd "$build" && cpack -G DEB -B "$tmp/debs") >"$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log"; fail "cpack -G DEB failed"; }
deb() { echo "$tmp/debs/$1_$version-1_$arch.deb"; }
for p in "${pkgs[@]}"; do
  [ -f "$(deb "$p")" ] || { ls "$tmp/debs"; fail "no $(basename "$(deb "$p")")"; }
done
ok

# 2. metadata: name, version, architecture, maintainer, section,
#    description, and Depends computed from the ELF files
field() { dpkg-deb -f "$(deb "$1")" "$2"; }
for p in "${pkgs[@]}"; do
  [ "$(field "$p" Package)" = "$p" ] || fail "$p: Package is '$(field "$p" Package)'"
  [ "$(field "$p" Version)" = "$version-1" ] || fail "$p: Version is '$(field "$p" Version)'"
  [ "$(field "$p" Architecture)" = "$arch" ] || fail "$p: Architecture is not $arch"
  [ "$(field "$p" Maintainer)" = "vsh developers" ] || fail "$p: Maintainer"
  [ -n "$(field "$p" Section)" ] || fail "$p: no Section"
  [ "$(field "$p" Description | wc -l)" -gt 3 ] || fail "$p: Description too short"
done
for p in libvsh0 vsh; do
  case "$(field "$p" Depends)" in
  *libc6*libpcre2-8-0*libutf8proc2*) ;;
  *) fail "$p: Depends not computed: $(field "$p" Depends)" ;;
  esac
done
case "$(field libvsh-dev Depends)" in
"libvsh0 (= $version-1), "*libpcre2-dev*) ;;
*) fail "libvsh-dev: Depends is '$(field libvsh-dev Depends)'" ;;
esac
dpkg-deb -I "$(deb libvsh0)" shlibs | grep -x "libvsh 0 libvsh0 (>= $version-1)" >/dev/null ||
  fail "libvsh0: no shlibs entry"
ok

# 3. contents: each package holds its files, and no file is in two
contents() { dpkg-deb -c "$(deb "$1")" | awk '{print $6 ($7 ? " " $7 " " $8 : "")}'; }
want() { # package, then extended regexes over "./path[ -> target]"
  local p=$1 re
  shift
  for re in "$@"; do
    contents "$p" | grep -E "^\./usr/$re\$" >/dev/null || fail "$p lacks usr/$re"
  done
}
lib='lib(/[a-z0-9_]+-linux-gnu[a-z0-9_]*)?'
want libvsh0 "$lib/libvsh\.so\.$version" "$lib/libvsh\.so\.0 -> libvsh\.so\.$version" \
  'share/doc/libvsh0/copyright'
want libvsh-dev 'include/vsh\.h' "$lib/libvsh\.a" "$lib/libvsh\.so -> libvsh\.so\.0" \
  "$lib/pkgconfig/vsh\.pc" "$lib/cmake/vsh/vshConfig\.cmake" \
  "$lib/cmake/vsh/vshConfigVersion\.cmake" "$lib/cmake/vsh/vshTargets\.cmake" \
  'share/doc/libvsh-dev/copyright'
want vsh 'bin/vsh' 'share/doc/vsh/copyright'
if [ -f "$src/docs/vsh.1" ]; then
  want vsh 'share/man/man1/vsh\.1(\.gz)?'
fi
for p in "${pkgs[@]}"; do contents "$p" | grep -v '/$' | sed 's/ -> .*//'; done |
  sort | uniq -d >"$tmp/dup"
[ ! -s "$tmp/dup" ] || fail "files in two packages: $(cat "$tmp/dup")"
for p in "${pkgs[@]}"; do
  dpkg-deb --fsys-tarfile "$(deb "$p")" | tar -xOf - "./usr/share/doc/$p/copyright" |
    grep -x 'License: Apache-2.0' >/dev/null || fail "$p: copyright does not say License: Apache-2.0"
done
ok

# 4. install them as a user would, with apt resolving their Depends
# (--path-include: images that exclude manual pages from dpkg, such as
# Debian's slim ones, still get this one, so that `man -w` can find it)
apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 \
  -o 'DPkg::Options::=--path-include=/usr/share/man/man1/vsh.1*' \
  "$(deb libvsh0)" "$(deb libvsh-dev)" "$(deb vsh)" >"$tmp/apt.log" 2>&1 ||
  { cat "$tmp/apt.log"; fail "apt-get install failed"; }
added >"$tmp/added"
for p in "${pkgs[@]}"; do installed "$p" || fail "$p not installed"; done
ok

# 5. the command, from /usr/bin
[ "$(/usr/bin/vsh -c 'echo ok')" = ok ] || fail "/usr/bin/vsh -c 'echo ok' did not print ok"
ok
if [ -f "$src/docs/vsh.1" ]; then
  command -v man >/dev/null || fail "'man' not found (man-db; scripts/deps.sh installs it)"
  page=$(man -w vsh) || fail "man -w vsh found no page"
  case "$page" in /usr/share/man/man1/vsh.1*) ;; *) fail "man -w vsh gave $page" ;; esac
  ok
fi

# 6. examples/embed.c against the installed package, never a /usr/local one;
#    the installed static library defines no global name but the API's
static_lib=$(dpkg -L libvsh-dev | grep '/libvsh\.a$')
foreign=$(nm -g --defined-only "$static_lib" | awk 'NF == 3 && $3 !~ /^vsh_/ {print $3}')
[ -z "$foreign" ] || fail "$static_lib defines non-API globals: $(echo "$foreign" | head -5)"
want_out=$'      3 apple\n      2 pear\n      1 fig'
ma=$(gcc -print-multiarch 2>/dev/null || true)
export PKG_CONFIG_LIBDIR="/usr/lib/$ma/pkgconfig:/usr/lib/pkgconfig:/usr/share/pkgconfig"
unset PKG_CONFIG_PATH
[ "$(pkg-config --modversion vsh)" = "$version" ] || fail "pkg-config --modversion vsh"
# the program must load the package's libvsh.so.0 through ld.so's cache;
# where another one (say a `cmake --install` into /usr/local) comes first in
# it, say so and point the loader at the package's directory instead
shipped=$(dpkg -L libvsh0 | grep '/libvsh\.so\.0$')
while read -r other; do
  if [ "$(realpath "$other")" != "$(realpath "$shipped")" ]; then
    echo "deb test: note: $other shadows the package's $shipped;" \
      "running the programs with LD_LIBRARY_PATH=${shipped%/*}"
    export LD_LIBRARY_PATH=${shipped%/*}
  fi
done < <(ldconfig -p | awk '$1 == "libvsh.so.0" {print $NF}')
read -ra pc_flags <<<"$(pkg-config --cflags --libs vsh)"
cc -std=c11 -Wall -Wextra -Werror "$src/examples/embed.c" -o "$tmp/embed-pc" "${pc_flags[@]}" ||
  fail "embed.c through pkg-config"
[ "$("$tmp/embed-pc")" = "$want_out" ] || fail "embed (pkg-config) printed the wrong output"
# the library the program loads is the package's (/lib is /usr/lib on a
# merged-/usr system, so compare the files the paths name)
loaded=$(ldd "$tmp/embed-pc" | awk '$1 == "libvsh.so.0" {print $3}')
if [ -z "$loaded" ] || [ "$(realpath "$loaded")" != "$(realpath "$shipped")" ]; then
  fail "embed (pkg-config) loads '$loaded', not the package's $shipped"
fi
objdump -T "$tmp/embed-pc" | grep -E '[( ]VSH_0\)? +vsh_open$' >/dev/null ||
  fail "embed (pkg-config) does not bind vsh_open@VSH_0"
ok

mkdir -p "$tmp/cm"
cat >"$tmp/cm/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.25)
project(embed C)
find_package(vsh $version REQUIRED)
add_executable(embed_shared $src/examples/embed.c)
target_link_libraries(embed_shared PRIVATE vsh::vsh_shared)
add_executable(embed_static $src/examples/embed.c)
target_link_libraries(embed_static PRIVATE vsh::vsh_static)
CM
cmake -S "$tmp/cm" -B "$tmp/cm/b" -DCMAKE_IGNORE_PREFIX_PATH=/usr/local \
  >"$tmp/cm.log" 2>&1 || { cat "$tmp/cm.log"; fail "find_package(vsh) failed"; }
case "$(sed -n 's/^vsh_DIR:PATH=//p' "$tmp/cm/b/CMakeCache.txt")" in
/usr/lib/*) ;;
*) fail "find_package(vsh) found $(grep vsh_DIR "$tmp/cm/b/CMakeCache.txt")" ;;
esac
cmake --build "$tmp/cm/b" >"$tmp/cm.log" 2>&1 || { cat "$tmp/cm.log"; fail "embed through CMake"; }
[ "$("$tmp/cm/b/embed_shared")" = "$want_out" ] || fail "embed_shared printed the wrong output"
[ "$("$tmp/cm/b/embed_static")" = "$want_out" ] || fail "embed_static printed the wrong output"
if ldd "$tmp/cm/b/embed_static" | grep libvsh >/dev/null; then fail "embed_static loads libvsh.so"; fi
ok

# 7. purge, and nothing of it stays
trap - EXIT
cleanup
for p in "${pkgs[@]}"; do
  if dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null | grep -vqx not-installed; then
    fail "$p still known to dpkg after purge"
  fi
done
for f in /usr/bin/vsh /usr/include/vsh.h /usr/lib/libvsh.so.0 "/usr/lib/$ma/libvsh.so.0"; do
  [ ! -e "$f" ] || fail "$f left after purge"
done
ok
echo "deb test: $passed passed, 0 failed"
