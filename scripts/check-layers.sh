#!/usr/bin/env bash
# Checks that the code keeps its layering (docs/architecture.md): a folder
# includes only the headers of the folders it may call, and no function of
# the public API (vsh_*) is defined outside api/. Exits 1 and names each
# offending line otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

# folder -> the project include prefixes it may use (besides its own and
# vsh.h, whose plain types every layer may share).
allowed() {
  case "$1" in
  core) echo "core/" ;;
  vfs | net) echo "core/" ;;
  builtins) echo "core/ vfs/ net/ builtins/" ;;
  shell/syntax) echo "core/" ;;
  shell/state) echo "core/ vfs/ builtins/builtin.h shell/sh.h shell/syntax/" ;;
  shell/expand) echo "core/ vfs/ builtins/builtin.h shell/sh.h shell/syntax/ shell/state/" ;;
  shell/builtins) echo "core/ vfs/ builtins/ shell/sh.h shell/syntax/ shell/state/ shell/expand/" ;;
  shell/exec) echo "core/ vfs/ builtins/ shell/" ;;
  shell) echo "core/ vfs/ builtins/builtin.h shell/syntax/" ;; # sh.h itself
  api) echo "core/ vfs/ net/ builtins/ shell/ api/" ;;
  cli) echo "cli/" ;;
  *) echo "" ;;
  esac
}

layer_of() {
  case "$1" in
  shell/syntax/* | shell/state/* | shell/expand/* | shell/builtins/* | shell/exec/*)
    echo "${1%%/*}/$(echo "$1" | cut -d/ -f2)" ;;
  shell/*) echo shell ;;
  *) echo "${1%%/*}" ;;
  esac
}

bad=0
while IFS= read -r f; do
  [ -f "$f" ] || continue
  layer=$(layer_of "$f")
  ok=$(allowed "$layer")
  [ -n "$ok" ] || continue
  while IFS= read -r inc; do
    [ "$inc" = "vsh.h" ] && continue
    case "$inc" in */*) ;; *) continue ;; esac # beside the file
    own="$layer/"
    case "$inc" in "$own"*) continue ;; esac
    pass=0
    for p in $ok; do
      case "$inc" in "$p"*) pass=1 ;; esac
    done
    # A file's own folder (e.g. builtins/text/x.c including builtins/text/y.h).
    case "$inc" in "$(dirname "$f")/"*) pass=1 ;; esac
    if [ $pass = 0 ]; then
      echo "layering: $f includes \"$inc\" ($layer may not)"
      bad=1
    fi
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done < <(git ls-files 'core/*' 'vfs/*' 'net/*' 'builtins/*' 'shell/*' 'api/*' 'cli/*' |
  grep -E '\.(c|h)$')

# Public functions are defined in api/ only (include/ declares them).
if git grep -nE '^[A-Za-z_].*\bvsh_[a-z0-9_]+\(' -- '*.c' '*.S' ':!api/' ':!tests/' \
  ':!cli/' ':!fuzz/' ':!bench/' ':!examples/' | grep -v ';' ; then
  echo "layering: a vsh_ function is defined outside api/"
  bad=1
fi
if git grep -nE '^\s*\.globl\s+vsh_' -- '*.S'; then
  bad=1
fi
[ $bad = 0 ] && echo "layering: ok"
exit $bad
