#!/usr/bin/env bash
# test_cli.sh VSH - end-to-end checks of the `vsh` command.
# Every check runs the binary as a user would; stdin is /dev/null unless a
# check feeds it, so nothing waits for a terminal.
set -u
VSH=${1:?usage: test_cli.sh path/to/vsh}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vsh-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0 checks=0

# check NAME EXPECTED ACTUAL
check() {
  checks=$((checks + 1))
  if [[ "$2" != "$3" ]]; then
    fails=$((fails + 1))
    printf 'FAIL %s\n  expected: %q\n  actual:   %q\n' "$1" "$2" "$3"
  fi
}
# contains NAME NEEDLE HAYSTACK
contains() {
  checks=$((checks + 1))
  if [[ "$3" != *"$2"* ]]; then
    fails=$((fails + 1))
    printf 'FAIL %s\n  expected to contain: %q\n  actual: %q\n' "$1" "$2" "$3"
  fi
}

# -c, operands as $1..., exit status propagation
out=$("$VSH" -c 'echo hello' </dev/null)
check "-c stdout" "hello" "$out"
out=$("$VSH" -c 'echo "$#:$1:$2"' name 'a b' "it's" </dev/null)
check "-c args" "2:a b:it's" "$out"
"$VSH" -c 'exit 7' </dev/null
check "-c exit status" 7 $?
out=$("$VSH" -c 'echo err >&2; echo out' 2>"$tmp/err" </dev/null)
check "-c streams stdout" "out" "$out"
check "-c streams stderr" "err" "$(cat "$tmp/err")"
"$VSH" -c 'false; echo after' </dev/null >"$tmp/o"
check "without -e" "after" "$(cat "$tmp/o")"
"$VSH" -e -c 'false; echo after' </dev/null >"$tmp/o"
check "-e status" 1 $?
check "-e stops" "" "$(cat "$tmp/o")"
out=$("$VSH" -ec 'echo x' </dev/null)
check "-ec cluster" "x" "$out"

# FILE with arguments; the file is read from the host, run in the sandbox
printf 'echo "script:$1"\nexit 3\n' >"$tmp/s.sh"
out=$("$VSH" "$tmp/s.sh" first </dev/null)
check "FILE status" 3 $?
check "FILE output" "script:first" "$out"
"$VSH" "$tmp/nonexistent.sh" </dev/null 2>"$tmp/err"
check "FILE missing status" 127 $?
contains "FILE missing message" "nonexistent.sh" "$(cat "$tmp/err")"

# script on stdin; host stdin for -c
out=$(printf 'x=4\necho $((x * 2))\n' | "$VSH")
check "stdin script" "8" "$out"
out=$(printf 'line1\nline2\n' | "$VSH" -c 'wc -l')
check "stdin to -c" "2" "$(echo $out)"

# --env, --cwd
out=$("$VSH" --env FOO=bar --env=BAZ='q u x' -c 'echo "$FOO|$BAZ"' </dev/null)
check "--env" "bar|q u x" "$out"
out=$("$VSH" --cwd /tmp -c 'pwd' </dev/null)
check "--cwd" "/tmp" "$out"
out=$("$VSH" -c 'pwd' </dev/null)
check "default cwd" "/home/user" "$out"

# --json escaping: quotes, backslash, control bytes, UTF-8, invalid bytes
out=$("$VSH" --json -c 'printf "q\"b\\\\ t\tn\n\001é\377"; echo e >&2; exit 5' </dev/null)
check "--json status" 5 $?
check "--json object" '{"stdout":"q\"b\\ t\tn\n\u0001é\ufffd","stderr":"e\n","exitCode":5}' "$out"
if command -v python3 >/dev/null; then
  parsed=$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["exitCode"], d["stdout"] == "q\"b\\ t\tn\n\x01\u00e9\ufffd")')
  check "--json parses" "5 True" "$parsed"
fi

# --root: copy-on-write over a host directory, which stays unchanged
mkdir -p "$tmp/proj/sub"
echo original >"$tmp/proj/file.txt"
echo keep >"$tmp/proj/sub/k"
out=$("$VSH" --root "$tmp/proj" -c 'pwd; cat file.txt; echo changed > file.txt; cat file.txt; rm sub/k; echo new > new.txt; ls' </dev/null)
check "--root view" "/home/user/project
original
changed
file.txt
new.txt
sub" "$out"
check "--root host file unchanged" "original" "$(cat "$tmp/proj/file.txt")"
check "--root host delete not applied" "keep" "$(cat "$tmp/proj/sub/k")"
check "--root no new host file" "no" "$([[ -e $tmp/proj/new.txt ]] && echo yes || echo no)"

# --mount
mkdir -p "$tmp/data"
echo mounted >"$tmp/data/m.txt"
out=$("$VSH" --mount "$tmp/data:/mnt/data" -c 'cat /mnt/data/m.txt; echo x > /mnt/data/m.txt; cat /mnt/data/m.txt' </dev/null)
check "--mount" "mounted
x" "$out"
check "--mount host unchanged" "mounted" "$(cat "$tmp/data/m.txt")"
"$VSH" --mount "$tmp/nope:/x" -c true </dev/null 2>"$tmp/err"
check "--mount missing dir status" 2 $?

# --limit
"$VSH" --limit loops=100 -c 'while :; do :; done' </dev/null 2>"$tmp/err"
check "--limit loops status" 126 $?
contains "--limit loops message" "limit exceeded" "$(cat "$tmp/err")"
"$VSH" --limit commands=10 -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do true; done' </dev/null 2>"$tmp/err"
check "--limit commands status" 126 $?
"$VSH" --limit timeout-ms=200 --limit loops=1g --limit commands=1g -c 'while :; do :; done' </dev/null 2>/dev/null
check "--limit timeout-ms status" 124 $?
"$VSH" --limit bogus=1 -c true </dev/null 2>"$tmp/err"
check "--limit unknown status" 2 $?
contains "--limit unknown message" "unknown limit 'bogus=1'" "$(cat "$tmp/err")"
"$VSH" --limit loops=x -c true </dev/null 2>/dev/null
check "--limit bad value" 2 $?

# output reaches the host's stdout as it is produced: the first line of a
# filter arrives well before the second, a second later
stamps=$("$VSH" -c '(echo a; sleep 1; echo b) | sed s/x/y/' </dev/null |
  while read -r l; do echo "$l $(date +%s%N)"; done)
ta=$(sed -n 's/^a //p' <<<"$stamps") tb=$(sed -n 's/^b //p' <<<"$stamps")
check "streams a filter's lines" "yes" \
  "$([[ -n $ta && -n $tb ]] && ((tb - ta > 500000000)) && echo yes || echo "$stamps")"

# usage errors, --help, --version
"$VSH" --x </dev/null >"$tmp/o" 2>"$tmp/err"
check "unknown option status" 2 $?
check "unknown option message" "vsh: --x: invalid option
Try 'vsh --help' for more information." "$(cat "$tmp/err")"
"$VSH" -c </dev/null 2>/dev/null
check "-c without script" 2 $?
out=$("$VSH" --help)
check "--help status" 0 $?
contains "--help usage" "Usage: vsh" "$out"
for opt in -c -e -u -x -n -o -O -s -i --norc --rcfile --history-file --ast --posix --persist --hydrate --changes --mkdir-cwd --root --mount --cwd --env --json --limit --allow-url --allow-method --deny-private --help --version; do
  contains "--help mentions $opt" "$opt" "$out"
done
out=$("$VSH" --version)
check "--version status" 0 $?
contains "--version text" "vsh 0." "$out"

# bash's invocation options
out=$("$VSH" -x -c 'echo hi' 2>&1 </dev/null)
check "-x traces" "+ echo hi
hi" "$out"
out=$("$VSH" -n -c 'echo no' 2>&1 </dev/null)
check "-n runs nothing" "" "$out"
printf 'echo a\nif\n' >"$tmp/bad.sh"
out=$("$VSH" -n "$tmp/bad.sh" 2>&1 </dev/null)
check "-n status" 2 $?
check "-n names the file as bash does" "$tmp/bad.sh: line 3: syntax error: unexpected end of file" "$out"
"$VSH" -u -c 'echo $unset_var' </dev/null >/dev/null 2>"$tmp/err"
check "-u status" 127 $?
check "-u message" "bash: line 1: unset_var: unbound variable" "$(cat "$tmp/err")"
"$VSH" -o pipefail -c 'false | true' </dev/null
check "-o pipefail" 1 $?
"$VSH" -eo pipefail -c 'false | true; echo not-here' </dev/null >"$tmp/o"
check "-eo combined" "1:" "$?:$(cat "$tmp/o")"
out=$("$VSH" +B -c 'echo {a,b}' </dev/null)
check "+B" "{a,b}" "$out"
out=$("$VSH" -O extglob -c 'shopt -p extglob' </dev/null)
check "-O shopt" "shopt -s extglob" "$out"
out=$("$VSH" --posix -c 'set -o | grep "^posix"' </dev/null)
check "--posix" "posix          	on" "$out"
out=$("$VSH" --norc --noprofile -c 'echo ok' -- </dev/null)
check "--norc --noprofile" "ok" "$out"
"$VSH" -o nosuch -c 'echo x' </dev/null >"$tmp/o" 2>"$tmp/err"
check "-o bad name" "2:vsh: nosuch: invalid option name:" "$?:$(cat "$tmp/err"):$(cat "$tmp/o")"
"$VSH" -O nosuch -c 'echo x' </dev/null >"$tmp/o" 2>"$tmp/err"
check "-O bad name" "2:vsh: nosuch: invalid shell option name:" "$?:$(cat "$tmp/err"):$(cat "$tmp/o")"
"$VSH" -Z </dev/null >/dev/null 2>"$tmp/err"
check "bad short option" "2:vsh: -Z: invalid option" "$?:$(head -1 "$tmp/err")"
out=$("$VSH" -- </dev/null; echo "st=$?")
check "-- alone reads stdin" "st=0" "$out"

# a script on stdin runs command by command: read takes the next line
out=$(printf 'read x\nDATA line\necho "got [$x]"\necho $1-$#\n' | "$VSH" -s A B)
check "stdin script command by command" "got [DATA line]
A-2" "$out"
out=$(printf 'cat\nfirst\nsecond\n' | "$VSH")
check "stdin script: cat takes the rest" "first
second" "$out"
# stdin of a -c script streams: an endless producer is fine
out=$(yes | "$VSH" -c 'head -2')
check "stdin streams" "y
y" "$out"

# --cwd, --mkdir-cwd
"$VSH" --cwd /nonexist -c pwd </dev/null >"$tmp/o" 2>"$tmp/err"
check "--cwd missing" "2::vsh: --cwd: /nonexist: No such file or directory" "$?:$(cat "$tmp/o"):$(cat "$tmp/err")"
out=$("$VSH" --cwd /nonexist/deeper --mkdir-cwd -c pwd </dev/null)
check "--mkdir-cwd" "/nonexist/deeper" "$out"
"$VSH" --cwd /bin/ls -c pwd </dev/null >/dev/null 2>"$tmp/err"
check "--cwd a file" "2:vsh: --cwd: /bin/ls: Not a directory" "$?:$(cat "$tmp/err")"

# --persist, --hydrate, --changes
"$VSH" --persist "$tmp/ws.tar" -c 'mkdir -p src; printf "a\0b" > src/bin; echo hi > notes.txt' </dev/null
check "--persist status" 0 $?
check "--persist members" ".
./notes.txt
./src
./src/bin" "$(tar tf "$tmp/ws.tar" | sort)"
out=$("$VSH" --hydrate "$tmp/ws.tar" -c 'cat notes.txt; od -An -c src/bin | tr -s " "' </dev/null)
check "--hydrate" "hi
 a \0 b" "$out"
"$VSH" --hydrate "$tmp/missing.tar" -c 'echo x' </dev/null >/dev/null 2>"$tmp/err"
check "--hydrate missing file" "2" "$?"
"$VSH" --hydrate "$tmp/ws.tar" --changes -c 'rm notes.txt; echo new > new.txt; echo more >> src/bin' </dev/null 2>"$tmp/err"
check "--changes" "A /home/user/new.txt
D /home/user/notes.txt
M /home/user/src/bin" "$(grep '^[ADM] ' "$tmp/err" | sort)"

# the prompt's history, kept in a host file across sessions
printf 'echo one\necho two\n' | "$VSH" -i --history-file "$tmp/hist" >/dev/null 2>&1
check "--history-file written" "echo one
echo two" "$(cat "$tmp/hist")"
out=$(printf 'history\n' | "$VSH" -i --history-file "$tmp/hist" 2>/dev/null)
check "--history-file read back" "    1  echo one
    2  echo two
    3  history" "$out"
out=$(printf 'if then\necho "$?"\n' | "$VSH" -i 2>"$tmp/err")
check "prompt: a syntax error does not end it" "2" "$out"
contains "prompt: the syntax error" "syntax error near unexpected token" "$(cat "$tmp/err")"

out=$(printf 'echo hi\n!!\necho !$ there\n!nope\necho "$?"\n' | "$VSH" -i 2>"$tmp/err")
check "prompt: history expansion" "hi
hi
hi there
0" "$out"
contains "prompt: expansion echoed" "echo hi there" "$(cat "$tmp/err")"
contains "prompt: missing event" "bash: !nope: event not found" "$(cat "$tmp/err")"

# --ast: the tree as JSON, nothing run
out=$("$VSH" --ast -c 'echo hi > f; x=$(date)' </dev/null)
check "--ast status" 0 $?
check "--ast tree" "list simple:echo,hi simple:" "$(python3 -c '
import json, sys
d = json.loads(sys.argv[1])
for c in d["commands"]:
    out = [c["type"]]
    for it in c["items"]:
        n = it["command"]
        out.append(n["type"] + ":" + ",".join(w["text"] for w in n["words"]))
    print(" ".join(out))' "$out")"
"$VSH" --ast -c 'touch /tmp/ran; if' </dev/null >/dev/null 2>"$tmp/err"
check "--ast syntax error" "2:vsh: -c: line 2: syntax error: unexpected end of file" "$?:$(cat "$tmp/err")"
here=$(cd "$(dirname "$0")/.." && pwd)
bad=0
n=0
for f in "$here"/spec/*.test.sh; do
  # whole spec files hold deliberate syntax errors: each case on its own
  while IFS= read -r -d '' case_text; do
    n=$((n + 1))
    mkdir -p "$tmp/ast"
    "$VSH" --ast -c "$case_text" >"$tmp/ast/$n.json" 2>/dev/null
    st=$?
    [[ $st == 0 ]] || rm "$tmp/ast/$n.json"
    [[ $st == 0 || $st == 2 ]] || bad=$((bad + 1))
  done < <(awk '/^#### /{if (c != "") printf "%s%c", c, 0; c=""; next} /^## /{next} {c = c $0 "\n"} END{if (c != "") printf "%s%c", c, 0}' "$f")
done
bad=$((bad + $(python3 -c '
import glob, json, sys
bad = 0
for f in glob.glob(sys.argv[1] + "/*.json"):
    try:
        json.load(open(f))
    except ValueError:
        bad += 1
print(bad)' "$tmp/ast")))
check "--ast gives valid JSON for every spec case ($n)" 0 "$bad"

# the sandbox never touches the host
"$VSH" -c "echo x > '$tmp/escaped.txt'" </dev/null 2>/dev/null
check "no host write" "no" "$([[ -e $tmp/escaped.txt ]] && echo yes || echo no)"

echo "$((checks - fails))/$checks checks passed"
[[ $fails -eq 0 ]]
