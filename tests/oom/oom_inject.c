/*
 * oom_inject - allocation-failure injection over the public API (Lua's
 * "memerr" method).
 *
 * The sandbox gets an allocator hook that can fail the Nth allocation it sees
 * (mode nth) or every allocation from the Nth on (mode after). For each
 * script of a reference set that touches every command and every shell
 * builtin, a clean run first counts the allocations C the exec makes; then N
 * steps over 1..C and, for each N, a fresh sandbox runs the script with the
 * Nth allocation failing and is checked:
 *
 *   - nothing crashes and the exec returns (a C-level hang trips an alarm,
 *     a script-level one the exec's timeout);
 *   - vsh_exec returns VSH_OK with exactly the clean run's stdout, stderr
 *     and status (the failure was absorbed), or VSH_OK with a non-zero
 *     status and stderr mentioning memory ("vsh: memory limit exceeded",
 *     "memory exhausted", "Cannot allocate memory", ...), or VSH_NOMEM with
 *     vsh_errmsg mentioning memory; anything else (a different output with
 *     status 0, an error that does not say memory) is a failure;
 *   - with the allocator working again, the same sandbox runs `echo ok` and
 *     `cat` correctly and a file written before the exec is intact;
 *   - after vsh_close no block from the hook is still live (a leak inside
 *     the sandbox allocator, caught in every build; LeakSanitizer catches
 *     the others in the ASan build).
 *
 * (A refused allocation ends the exec at the budget's next check, with
 * "vsh: memory limit exceeded", so in practice every step is reported; the
 * steps test that the code between the refusal and that check neither
 * crashes, leaks nor lets something half-built through.)
 *
 * N covers every allocation when C <= head + sample, otherwise 1..head and
 * `sample` values spread evenly over the rest: head 300 and sample 150 by
 * default (VSH_OOM_HEAD, VSH_OOM_SAMPLE, or --head/--sample; --all for
 * every N), which keeps the whole run near a minute and a half in the
 * sanitizer build. The program also checks that the scripts name every
 * command of builtins/list.h and every shell builtin.
 *
 * By hand: a crash prints the script, the mode and N before the process
 * dies, and every failure the command line that reproduces it alone;
 * --trace then prints where the refused allocation was made, --leaks which
 * hook calls made the blocks left after vsh_close and --stack-of K where
 * hook call K came from (stacks need the sanitizer build); --text runs a
 * script of your own instead of the set.
 *
 * Usage: oom_inject [--head H] [--sample K] [--mode nth|after|both]
 *                   [--script NAME | --text SCRIPT] [--n N] [--all]
 *                   [--stream] [--trace] [--leaks] [--stack-of K]
 *                   [--list] [--show] [-v]
 */
#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "builtins/builtin.h"
#include "shell/builtins/builtins.h"
#include "vsh.h"

/* ---- the reference scripts ----------------------------------------------
 * Every script runs under `set -eo pipefail` so that a command failing for
 * lack of memory fails the script, and its clean run must end with status 0
 * and an empty stderr. Between them they use every command of
 * builtins/list.h and every shell builtin. */

typedef struct script {
  const char *name;
  const char *text;
} script;

static const script scripts[] = {
    {"shell",
     "set -eo pipefail\n"
     "shopt -s expand_aliases\n"
     "alias ll='echo alias-ran'\n"
     "ll\n"
     "unalias ll\n"
     "declare -a arr=(one two three); arr+=(four)\n"
     "declare -A map=([k1]=v1 [k2]=v2); map[k3]=v3\n"
     "echo \"${#arr[@]} ${arr[2]} ${#map[@]} ${map[k3]} ${arr[@]/o/0}\"\n"
     "f() { local x=$1; shift; echo \"f:$x:$#:$*\"; return 3; }\n"
     "f a b c || echo \"rc=$?\"\n"
     "g() { for i in 1 2 3 4; do [ $i = 2 ] && continue; [ $i = 4 ] && "
     "break; echo g$i; done; }\n"
     "g\n"
     "x=$(echo sub | tr a-z A-Z)\n"
     "echo \"$x ${x,,} ${x:1:1} ${x/U/u} ${#x} ${x:-d} ${y:-def}\"\n"
     "cat <<EOF\nhere $x $((2+3*4))\nEOF\n"
     "cat <<'EOF' | wc -l\na\nb\nEOF\n"
     "let n=5*5; (( n += 1 )); echo $n\n"
     "case $x in S*) echo case-ok;; *) echo no;; esac\n"
     "[[ $x == S* && -n $x ]] && echo cond-ok\n"
     "i=0; while (( i < 3 )); do i=$((i+1)); done; echo w$i\n"
     "until [ $i -le 0 ]; do i=$((i-1)); done\n"
     "read -r a b <<< 'r1 r2 r3'; echo \"$a|$b\"\n"
     "mapfile -t lines < data/words.txt; echo ${#lines[@]}\n"
     "readarray -t l2 <<< $'p\\nq'; echo ${l2[1]}\n"
     "while getopts 'ab:' o -a -b val; do echo \"opt $o ${OPTARG-}\"; done\n"
     "set -- p1 p2 p3; shift 2; echo \"$1\"\n"
     "readonly RO=1; export EX=2; typeset -i ti=7; unset ti\n"
     "eval 'echo eval-$RO'\n"
     "echo 'echo sourced-$1' > s.sh; source s.sh A; . ./s.sh B\n"
     "trap 'echo trapped' EXIT\n"
     "type echo f >/dev/null; command -v cat; builtin echo bi; hash -r\n"
     "help cd >/dev/null; enable -n echo; enable echo\n"
     "h() { caller >/dev/null; }; h\n"
     "compgen -W 'alpha beta' -- al; complete -W 'x y' foo\n"
     "compopt -o nospace foo; complete -p foo\n"
     "pushd /tmp >/dev/null; dirs; popd >/dev/null; cd /home/user; pwd\n"
     "umask 022; umask\n"
     "times >/dev/null\n"
     "ulimit -f; ulimit -S -n 512; ulimit -a | wc -l\n"
     "{ bind -l; bind -x '\"\\C-t\": echo t'; bind -X; bind -q yank; } "
     "2>/dev/null | wc -l\n"
     "{ logout; suspend; } 2>/dev/null || echo no-login\n"
     "sleep 0 & wait $!; echo bg=$?\n"
     "(exit 4) || echo sub=$?\n"
     "jobs; disown -a; kill -0 $$; { fg; bg; } 2>/dev/null || echo no-jc\n"
     "bash -c 'echo nested $0' zz; sh -c 'exit 0'\n"
     "history -s 'echo hs1'; history 1; fc -l; fc -s hs1=hs2 2>/dev/null\n"
     "printf 'echo in-i\\nhistory\\n' | HISTFILE=hf bash --norc -i "
     "2>/dev/null\n"
     "exec 3>out.txt; echo to3 >&3; exec 3>&-; cat out.txt\n"
     "printf '%s-%d\\n' a 1 b 2\n"
     ": ; true\n"
     "for w in $(seq 3); do echo -n \"$w \"; done; echo\n"
     "echo \"$(echo \"$(echo deep)\")\" $((RANDOM >= 0))\n"
     "printf -v pv '%03d' 7; echo \"$pv\"; declare -p arr map >/dev/null\n"
     "lt() { local lv=${1:-x}; echo \"$lv ${FUNCNAME[0]}\"; }; lt\n"
     "echo {a,b}{1..2} data/*.txt \"$(< keep.txt)\" | wc -w\n"
     "cat <(echo procsub); { set -x; : traced; set +x; } 2>/dev/null\n"},
    {"text", "set -eo pipefail\n"
             "cd data\n"
             "cat words.txt | tac | rev | head -n 3 | tail -n 2\n"
             "cut -d, -f2 nums.csv | sort -n | uniq -c\n"
             "paste -d: words.txt words.txt | head -2\n"
             "tr 'a-z' 'A-Z' < words.txt | sort -r | uniq | wc -l\n"
             "nl words.txt | fold -w 5 | head -3\n"
             "printf 'a\\tb\\n' | expand | unexpand -a | od -c | head -2\n"
             "sort words.txt > s1; sort -u words.txt > s2; comm -3 s1 s2\n"
             "base64 words.txt | base64 -d | md5sum\n"
             "sha1sum words.txt; sha224sum words.txt | cut -c1-8\n"
             "sha256sum words.txt; sha384sum words.txt | cut -c1-8\n"
             "sha512sum words.txt | cut -c1-8\n"
             "seq 1 3 20 | tee seq.txt | wc -c\n"
             "yes hello | head -n 4 || [ $? = 141 ]\n"
             "sort -t, -k2,2n -k1,1r nums.csv\n"
             "printf '%5.2f|%-4s|%x\\n' 3.14159 ab 255\n"
             "echo done\n"},
    {"bytes",
     "set -o pipefail\n"
     "cd data\n"
     "xxd words.txt | head -2; xxd -p words.txt | xxd -r -p | cmp - "
     "words.txt\n"
     "xxd -i -c 4 nums.csv | tail -2; xxd -b -l 4 words.txt\n"
     "xxd words.txt dump; xxd -r dump back; cmp -l back words.txt\n"
     "hexdump -C words.txt | tail -2; hd -n 8 nums.csv; hexdump -c -v "
     "nums.csv | head -1\n"
     "cmp words.txt nums.csv; cmp -bl words.txt nums.csv 2>&1 | head -3\n"
     "base32 words.txt | base32 -d | cksum; base32 -w 8 nums.csv\n"
     "cksum words.txt; cksum -a sysv words.txt; cksum -a bsd - < "
     "nums.csv; sum words.txt; sum -s - < nums.csv\n"
     "cksum -a sha256 words.txt > s; cksum -c s; cksum -a md5 "
     "--untagged nums.csv\n"
     "strings -n 3 -t x words.txt | head -3; strings -f nums.csv\n"
     "cp words.txt tr.txt; truncate -s +5 tr.txt; truncate -s '<7' "
     "tr.txt; truncate -r nums.csv -s %8 tr.txt; wc -c tr.txt\n"
     "expr 7 + 3 \\* 2; expr length abc; expr substr hello 2 3; expr index "
     "hello l\n"
     "expr abc : 'a\\(.\\)'; expr match aXb '.*X'; expr 1 \\| 0; "
     "expr '(' 2 '<' 10 ')' \\& a = a\n"
     "mkdir -p t/a/b; echo x > t/a/f; ln -s a t/l; tree t; tree -J -a t; "
     "tree -d -L 1 --dirsfirst -F t\n"
     "du t; du -ach t | tail -1; du -sb t; df; df -hT /; df -i --total\n"
     "nproc; nproc --all; getconf PAGESIZE; getconf PATH_MAX /; getconf -a "
     "| wc -l\n"
     "printf 'a b\\nb c\\nc a\\nd e\\n' | tsort 2>&1\n"
     "echo done\n"},
    {"bc",
     "echo 'scale=30; 1/7; sqrt(2); 2^200; obase=16; 255.5' | bc\n"
     "echo 'define f(n){auto i; if(n<2)return(1); for(i=0;i<1;i++){}; "
     "return(n*f(n-1))}; a[3]=f(20); a[3]%7; x=3; x+=2; print x, \"\\n\"; "
     "1/0' | bc 2>&1\n"
     "echo 's(1); c(1); a(1); l(2); e(1); j(2,1.5)' | bc -l\n"
     "echo '1 +' | bc 2>&1; echo 'x[-1]=1; 10^10^10' | bc 2>&1\n"
     "dc -e '2 100 ^ p 16 o 255 p [abc] p 5 k 2 v p z p [d 1 - d 0 <a]sa 9 "
     "la x f c'\n"
     "echo '1 0 / p 3 sa la p Lb 65 P 7 2 :r 2 ;r p' | dc 2>&1\n"
     "echo done\n"},
    {"files",
     "set -eo pipefail\n"
     "mkdir -p a/b/c; touch a/b/c/f1 a/f2; echo hi > a/b/f3\n"
     "ls -la a | wc -l; ls -R a\n"
     "cp -r a a2; mv a2 a3; ln -s a3/f2 link; ln a/f2 hard\n"
     "readlink link; realpath link; basename /x/y/z.txt .txt; dirname /x/y/z\n"
     "stat -c '%n %s' a/b/f3; chmod 600 a/b/f3; stat -c %a a/b/f3\n"
     "t=$(mktemp); test -f \"$t\"; [ -d a ] && echo isdir\n"
     "find a -name 'f*' | sort; find a -type f -exec wc -c {} \\; | sort\n"
     "find a3 -type f -print0 | xargs -0 -n1 echo got | sort\n"
     "printf '%s\\n' x y z | xargs echo\n"
     "rm -r a3; rm link hard \"$t\"; rm a/b/c/f1; rmdir a/b/c\n"
     "ls a/b\n"},
    {"search",
     "set -eo pipefail\n"
     "cd data\n"
     "sed -n 's/\\(a\\)\\(.\\)/[\\2\\1&]/gp' words.txt\n"
     "sed -E 's/(\\w+)/\\U\\1\\E!/; y/abc/xyz/' words.txt\n"
     "sed -e '1i\\\nhead' -e '$a tail' -e '2c\\changed' words.txt\n"
     "sed -n '/b/,/d/{p;=}' words.txt\n"
     "sed 'N;P;D' words.txt | sed -n 'h;n;G;p'\n"
     "sed 's/x*/-/g;s/-$//' words.txt | head -3\n"
     "printf 'one\\ntwo\\n' | sed '1r /home/user/keep.txt'\n"
     "cp words.txt w2.txt; sed -i.bak 's/a/A/' w2.txt; cat w2.txt w2.txt.bak "
     "| wc -l\n"
     "grep -n 'a' words.txt; grep -c -i 'B' words.txt\n"
     "grep -E 'a|e' words.txt | grep -v c; grep -o '[a-z]\\+' words.txt | "
     "head -5\n"
     "egrep '^(a|b)' words.txt; fgrep -x apple words.txt\n"
     "grep -r -l apple . | sort; grep -w -e banana -e cherry words.txt\n"
     "grep -P '\\d+' nums.csv | head -2\n"
     "rg -n -i 'A' . | head -3; rg --json e words.txt | wc -l\n"
     "rg -o -r '<$0>' 'an' words.txt; rg --files -g '*.txt' | sort\n"
     "[[ apple =~ ^a(p+)le$ ]] && echo \"${BASH_REMATCH[1]}\"\n"},
    {"textfmt",
     "set -eo pipefail\n"
     "cd data\n"
     "fmt -w 20 words.txt; fmt -u -c -w 12 nums.csv | head -3\n"
     "printf '# one two three four five six\\n#  seven\\n' | fmt -p '#' -w 14\n"
     "sort words.txt > sorted; look ban sorted; look -df CH sorted\n"
     "shuf -i 1-20 -n 5 | wc -l; shuf words.txt | sort | head -2\n"
     "shuf -r -n 4 -e x y z; shuf -z -e a b | tr '\\0' ' '; echo\n"
     "numfmt --to=si 1000 2048000; numfmt --from=iec --to=iec-i 1M 3.5G\n"
     "printf 'n v\\n10 4096\\n' | numfmt --header --field 2 --to=iec "
     "--padding=6 --format='%.1f|'\n"
     "export NAME=world; echo 'hi $NAME ${NAME}!' | envsubst; "
     "echo '$A $NAME' | envsubst '$NAME'; envsubst -v '$X ${Y}'\n"},
    {"diffpatch",
     "cd data; cp words.txt w1; sort -r words.txt > w2\n"
     "diff w1 w2 > n.diff || [ $? = 1 ]; diff -u w1 w2 > u.diff || true\n"
     "diff -c -p w1 w2 > c.diff || true; diff -y -W 40 w1 w2 || true\n"
     "diff -r -N . /tmp >/dev/null || true; diff -q -b -i -w w1 w2 || true\n"
     "cp w1 w3; patch -s w3 u.diff; diff w2 w3 && patch -R w3 c.diff\n"
     "patch -s --dry-run w1 n.diff; diff w1 w3\n"
     "cmp w1 w3; cmp -l w1 w2 | head -3; cmp -b w1 w2 || [ $? = 1 ]\n"
     "diff -I '^a' -F '^b' -u w1 w2 || true; diff -e w1 w2 || true\n"},
    {"awk",
     "set -eo pipefail\n"
     "cd data\n"
     "awk -F, '{s[$1]+=$2; n++} END {for (k in s) print k, s[k] | \"sort\"; "
     "close(\"sort\"); printf \"%d rows %.2f\\n\", n, n/3}' nums.csv\n"
     "awk 'BEGIN{x=\"a-b-c\"; n=split(x,p,\"-\"); gsub(/-/,\"+\",x); "
     "print n, x, toupper(p[2]), length(x), substr(x,2,3), index(x,\"c\"); "
     "if (match(\"foobar\", /o+/)) print RSTART, RLENGTH; "
     "printf \"%5s|%-3d|%c\\n\", \"ab\", 7, 65}'\n"
     "awk 'function fib(n) { return n<2 ? n : fib(n-1)+fib(n-2) } "
     "BEGIN { print fib(12) }'\n"
     "awk 'NR%2 { print NR\": \"$0 } /an/ { c++ } END { print c+0; "
     "while ((getline line < \"words.txt\") > 0) m++; print m; "
     "print sprintf(\"%x\", 255) }' words.txt\n"
     "awk -v OFS=- '{ $1=$1; print; print > \"/tmp/awk.out\" }' nums.csv | "
     "head -2\n"
     "wc -l < /tmp/awk.out\n"},
    {"gawk",
     "set -eo pipefail\n"
     "cd data\n"
     "export LC_ALL=C.UTF-8 TZ='EST5EDT,M3.2.0,M11.1.0'\n"
     "gawk 'BEGINFILE { f++ } ENDFILE { print FILENAME, FNR } "
     "{ v[$1] = $2; w = w gensub(/(a)(n)/, \"\\\\2\\\\1\", \"g\") } "
     "END { PROCINFO[\"sorted_in\"] = \"@val_num_desc\"; "
     "for (k in v) printf \"%s=%s \", k, v[k]; n = asort(v, s); "
     "m = asorti(v, t); print n, m, s[1], t[1], length(w); "
     "switch (n) { case /^1/: print \"1x\"; default: print \"d\"; break } "
     "print strftime(\"%F %T %Z\", mktime(\"2023 07 01 12 00 00\")); "
     "print toupper(\"\303\251t\303\251\"), length(\"\303\251\"), "
     "match(\"x\303\251ab\", /(a)(b)/, g), g[1, \"start\"] }' "
     "words.txt nums.csv\n"
     "printf 'a1b22c' | gawk -v IGNORECASE=1 'BEGIN { RS = \"[0-9]+\" } "
     "/B/ { print NR, $0, RT }'\n"
     "echo 'x,\"y,z\",w' | gawk 'BEGIN { FPAT = \"([^,]+)|(\\\"[^\\\"]+\\\")\" "
     "} { print NF, $2; print patsplit($0, p, /[a-z]/), p[3] }'\n"},
    {"jq",
     "set -eo pipefail\n"
     "echo '{\"a\":[1,2,{\"b\":\"x\"}],\"c\":{\"d\":1.5}}' | jq .\n"
     "echo "
     "'[{\"u\":\"a\",\"n\":1},{\"u\":\"b\",\"n\":2},{\"u\":\"a\",\"n\":3}]' | "
     "jq -c '(group_by(.u) | map({u: .[0].u, s: (map(.n) | add)})), "
     "(.[] | select(.n > 1) | [.u, .n] | @tsv), paths, (.[0] | to_entries), "
     "(reduce .[] as {u: $u} ({}; .[$u] += 1)), ([.[].u] | join(\",\")), "
     "(\"a-b\" | sub(\"-\"; \"+\") | test(\"a\")), (.[1:] | del(.[0].u)), "
     "([limit(2; .[])] | length), (try error(\"x\") catch .), "
     "(. as [$x, {n: $y}] | $y), (\"\\(1 + 2)\" | @base64 | @base64d)'\n"
     "jq -n --arg v 1 --argjson j '{\"k\":[1]}' '[$v, $j.k[0], ($j | tojson | "
     "fromjson)]'\n"
     "printf '1 2 3' | jq -s 'map(. * 2) | sort_by(-.) | .[0]'\n"},
    {"sqlite3",
     "set -eo pipefail\n"
     "sqlite3 app.db 'create table t(a integer primary key, b text); "
     "create index tb on t(b); create view v as select b from t' "
     "\"insert into t(b) values('x'), ('y z'), (null)\"\n"
     "printf 'select count(*) from t;\\n.mode csv\\nselect * from t;\\n' | "
     "sqlite3 app.db\n"
     "sqlite3 -json app.db 'select * from t order by b desc'\n"
     "sqlite3 -box -header app.db 'select * from v' '.tables' '.schema t'\n"
     "sqlite3 app.db .dump | sqlite3 copy.db && sqlite3 -line copy.db "
     "'select count(*) n from t'\n"
     "sqlite3 copy.db '.import --csv data/nums.csv nums' 'select count(*) from "
     "nums'\n"
     "sqlite3 copy.db '.output o.txt' .indexes '.once p.txt' .databases "
     "'.print done'; cat o.txt p.txt >/dev/null\n"
     "sqlite3 :memory: 'with recursive c(i) as (select 1 union all select "
     "i+1 from c where i < 3000) select count(*) from (select "
     "hex(randomblob(30)) h from c order by h)'\n"},
    {"system", "set -eo pipefail\n"
               "date -u -d @86400 '+%Y-%m-%d %H:%M'\n"
               "TZ='EST5EDT,M3.2.0,M11.1.0' date -d '2023-07-01 12:00' +%s%Z\n"
               "export TZ='<+03>-3'; printf '%(%F %T %Z)T\\n' 86400; "
               "touch -d '2023-07-01 12:00' /tmp/tz; stat -c %y /tmp/tz; "
               "unset TZ\n"
               "env -i A=1 B=2; env | grep -c '^HOME='; env printenv HOME\n"
               "hostname; id -u; id -un; uname -s; whoami; which ls sed\n"
               "tty || tty -s || echo no-tty\n"
               "timeout 5 sleep 0.01; echo t=$?\n"
               "true; ! false\n"
#ifdef OOM_HAVE_NET
               "curl -s http://example.test/data | head -1\n"
               "curl -sI http://example.test/x | head -1\n"
#endif
               "test 1 -lt 2; [ a != b ]\n"
               "echo end\n"},
    {"archive", "set -eo pipefail\n"
                "cd data\n"
                "gzip -k words.txt; zcat words.txt.gz | head -2; gzip -l "
                "words.txt.gz | tail -1\n"
                "gunzip -c words.txt.gz | wc -l; gzip -t words.txt.gz\n"
                "bzip2 -k nums.csv; bzcat nums.csv.bz2 | wc -l; bunzip2 -c "
                "nums.csv.bz2 | head -1\n"
                "xz -k -1 nums.csv; xzcat nums.csv.xz | wc -c; unxz -c "
                "nums.csv.xz | tail -1\n"
                "cd ..; tar czf a.tgz data; tar tzf a.tgz | wc -l; mkdir x; "
                "tar xzf a.tgz -C x --strip-components=1; ls x | wc -l\n"
                "tar -cf - data/words.txt | tar -xOf - | head -1\n"
                "zip -qr a.zip data; unzip -l a.zip | tail -1; unzip -p a.zip "
                "data/nums.csv | wc -l; unzip -qo a.zip -d y\n"},
    {"convert", "set -eo pipefail\n"
                "cd data\n"
                "iconv -f UTF-8 -t UTF-16 words.txt | iconv -f UTF-16 -t "
                "LATIN1 | wc -c; iconv -l | head -2\n"
                "printf 'caf\\xc3\\xa9 \\xe2\\x82\\xac\\n' | iconv -f "
                "UTF-8 -t ASCII//TRANSLIT\n"
                "iconv -c -f utf8 -t ascii -o out.txt words.txt; cat out.txt "
                "| wc -l\n"
                "file words.txt nums.csv . out.txt; file -i -b words.txt\n"
                "printf '#!/bin/sh\\necho\\n' > s; file --mime-type s; "
                "printf '{\"a\": [1]}' > j; file -b j\n"},
    {"joinsplit", "set -eo pipefail\n"
                  "cd data; sort -t, -k1,1 nums.csv > n.csv\n"
                  "sort words.txt | sed 's/$/,w/' > w.csv\n"
                  "join -t, -a1 -a2 -e X -o auto n.csv w.csv | head -4\n"
                  "join -t, -v2 n.csv w.csv; join -t, -o 2.1,1.2 n.csv w.csv\n"
                  "column -t -s, n.csv; column -t -s, -N k,v -R v -o '|' "
                  "n.csv\n"
                  "column -J -s, -N k,v n.csv | wc -l; column -x -c 30 "
                  "words.txt\n"
                  "mkdir o; split -l 3 --verbose words.txt o/x; split -b 7 -d "
                  "nums.csv o/b\n"
                  "split -n l/3 -a 3 --additional-suffix=.t words.txt o/l; "
                  "split -n r/2 nums.csv o/r\n"
                  "split -C 12 - o/c < words.txt; cat o/* | wc -c\n"
                  "split -l 5 --filter='wc -l' words.txt\n"},
};
#define NSCRIPTS (sizeof scripts / sizeof scripts[0])

static const char keep_text[] = "precious bytes\nsecond line\n";
static const char words[] = "apple\nbanana\ncherry\ndate\nelderberry\nfig\n"
                            "grape\nbanana\n";
static const char nums[] = "apple,3\nbanana,10\ncherry,7\napple,5\nfig,1\n";

/* ---- the failing allocator ---------------------------------------------- */

enum { MODE_NTH = 1, MODE_AFTER = 2 };

typedef struct injector {
  int armed;
  int mode;
  long count;   /* allocations seen while armed */
  long fail_at; /* 0: none */
  long failed;  /* allocations refused */
  long live;    /* blocks the hook handed out and has not seen freed */
  int trace;    /* print the stack of the first refused allocation */
  /* --leaks: every live block with the hook call that made it (seq), so a
   * leak names the calls to look at with --stack-of */
  int track;
  long seq, stack_of;
  struct live_blk {
    void *p;
    long seq;
  } * blks;
  size_t nblks, capblks;
} injector;

/* Provided by the sanitizer runtimes; NULL in other builds. */
void __sanitizer_print_stack_trace(void) __attribute__((weak));

static void *inj_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  injector *j = ud;
  (void)osize;
  if (j->track && ptr) /* freed or moved: forget it */
    for (size_t i = j->nblks; i-- > 0;)
      if (j->blks[i].p == ptr) {
        j->blks[i] = j->blks[--j->nblks];
        break;
      }
  if (nsize == 0) {
    if (ptr)
      j->live--;
    free(ptr);
    return NULL;
  }
  if (++j->seq == j->stack_of && __sanitizer_print_stack_trace) {
    fprintf(stderr, "--- hook call %ld:\n", j->seq);
    __sanitizer_print_stack_trace();
  }
  if (j->armed) {
    j->count++;
    if (j->fail_at && (j->mode == MODE_AFTER ? j->count >= j->fail_at
                                             : j->count == j->fail_at)) {
      if (j->trace && !j->failed) {
        fprintf(stderr, "--- allocation %ld refused here:\n", j->count);
        if (__sanitizer_print_stack_trace)
          __sanitizer_print_stack_trace();
        else
          fprintf(stderr, "(stacks need the sanitizer build)\n");
      }
      j->failed++;
      return NULL;
    }
  }
  int fresh = ptr == NULL;
  void *q = realloc(ptr, nsize);
  if (q && fresh)
    j->live++;
  if (j->track && q) {
    if (j->nblks == j->capblks) {
      j->capblks = j->capblks ? 2 * j->capblks : 1024;
      j->blks = realloc(j->blks, j->capblks * sizeof *j->blks);
      if (!j->blks)
        abort();
    }
    j->blks[j->nblks++] = (struct live_blk){q, j->seq};
  }
  return q;
}

/* Same bytes for every run, so the allocation sequence repeats. */
static void det_random(void *ud, void *buf, size_t n) {
  uint32_t *s = ud;
  for (size_t i = 0; i < n; i++) {
    *s = *s * 1103515245u + 12345u;
    ((unsigned char *)buf)[i] = (unsigned char)(*s >> 16);
  }
}

/* curl's network: one fixed page. */
static int fake_transport(void *ud, const vsh_http_request *req,
                          vsh_http_response *resp) {
  (void)ud;
  (void)req;
  static const char body[] = "fake page line 1\nline 2\n";
  resp->status = 200;
  resp->headers = calloc(1, sizeof *resp->headers);
  resp->body = malloc(sizeof body - 1);
  if (!resp->headers || !resp->body) {
    free(resp->headers);
    free(resp->body);
    resp->headers = NULL;
    resp->body = NULL;
    snprintf(resp->error, sizeof resp->error, "host out of memory");
    return 27;
  }
  resp->headers[0].name = strdup("Content-Type");
  resp->headers[0].value = strdup("text/plain");
  resp->nheaders = 1;
  memcpy(resp->body, body, sizeof body - 1);
  resp->body_len = sizeof body - 1;
  return 0;
}

/* ---- where a crash happened ------------------------------------------------
 */

static volatile const char *cur_script = "(setup)";
static volatile long cur_n;
static volatile int cur_mode;

static void put(const char *s) {
  ssize_t r = write(2, s, strlen(s));
  (void)r;
}

static void on_fatal(int sig) {
  char num[32];
  int k = (int)sizeof num;
  unsigned long v = (unsigned long)cur_n;
  num[--k] = 0;
  do
    num[--k] = (char)('0' + v % 10);
  while ((v /= 10) && k > 0);
  put(sig == SIGALRM ? "\noom_inject: HANG in script "
                     : "\noom_inject: "
                       "CRASH in script ");
  put((const char *)cur_script);
  put(cur_mode == MODE_AFTER ? " mode after" : " mode nth");
  put(" N=");
  put(num + k);
  put("\n  reproduce: oom_inject --script ");
  put((const char *)cur_script);
  put(cur_mode == MODE_AFTER ? " --mode after --n " : " --mode nth --n ");
  put(num + k);
  put("\n");
  signal(sig == SIGALRM ? SIGABRT : sig, SIG_DFL);
  raise(sig == SIGALRM ? SIGABRT : sig);
}

/* ---- one run ------------------------------------------------------------- */

typedef struct opts {
  long head, sample;
  int modes; /* MODE_NTH | MODE_AFTER */
  const char *only;
  long single;
  int all, stream, show, verbose, trace, leaks;
  long stack_of;
} opts;

typedef struct outcome {
  vsh_status st;
  char errmsg[256];
  vsh_result r;
  long count, failed;
} outcome;

typedef struct sink {
  char *data;
  size_t len;
} sink;

static void sink_add(sink *s, const void *p, size_t n) {
  char *d = realloc(s->data, s->len + n + 1);
  if (!d)
    abort();
  memcpy(d + s->len, p, n);
  s->len += n;
  d[s->len] = 0;
  s->data = d;
}

static void on_output(void *ud, int fd, const void *p, size_t n) {
  sink *s = ud;
  sink_add(&s[fd == 2], p, n);
}

static int failures;

static void fail(const opts *o, const script *sc, int mode, long n,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void fail(const opts *o, const script *sc, int mode, long n,
                 const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "FAIL script %s mode %s N=%ld: ", sc->name,
          mode == MODE_AFTER ? "after" : "nth", n);
  vfprintf(stderr, fmt, ap);
  if (strcmp(sc->name, "custom") == 0)
    fprintf(stderr, "\n  reproduce: oom_inject --text '...'");
  else
    fprintf(stderr, "\n  reproduce: oom_inject --script %s", sc->name);
  fprintf(stderr, " --mode %s --n %ld%s\n",
          mode == MODE_AFTER ? "after" : "nth", n,
          o->stream ? " --stream" : "");
  va_end(ap);
  failures++;
}

static int mentions_memory(const char *s) {
  for (; s && *s; s++) {
    static const char w[] = "memory";
    size_t i = 0;
    while (w[i] && tolower((unsigned char)s[i]) == w[i])
      i++;
    if (!w[i])
      return 1;
  }
  return 0;
}

static vsh_sandbox *open_sandbox(injector *j, uint32_t *seed) {
  static const vsh_net_rule rules[] = {{"http://example.test/", NULL, 0}};
  static vsh_net_policy net;
  net.rules = rules;
  net.nrules = 1;
  net.transport = fake_transport;
  vsh_file_init files[] = {
      {"/home/user/keep.txt", keep_text, sizeof keep_text - 1, 0},
      {"/home/user/data/words.txt", words, sizeof words - 1, 0},
      {"/home/user/data/nums.csv", nums, sizeof nums - 1, 0},
  };
  vsh_config cfg;
  vsh_config_init(&cfg);
  cfg.files = files;
  cfg.nfiles = sizeof files / sizeof files[0];
  cfg.alloc = inj_alloc;
  cfg.alloc_ud = j;
  cfg.random = det_random;
  cfg.random_ud = seed;
  cfg.net = &net;
  vsh_sandbox *sb = NULL;
  if (vsh_open(&cfg, &sb) != VSH_OK)
    return NULL;
  return sb;
}

/* Runs sc with the allocator failing per (mode, n) (n 0: never) in a fresh
 * sandbox and checks what must hold whatever the outcome: the sandbox works
 * afterwards and nothing leaks. Returns 0 when those hold. */
static int run_once(const opts *o, const script *sc, int mode, long n,
                    outcome *out) {
  injector j = {0};
  j.track = o->leaks;
  j.stack_of = o->stack_of;
  uint32_t seed = 42;
  int ok = 0;
  memset(out, 0, sizeof *out);
  cur_script = sc->name;
  cur_mode = mode;
  cur_n = n;
  vsh_sandbox *sb = open_sandbox(&j, &seed);
  if (!sb) {
    fail(o, sc, mode, n, "vsh_open failed with a working allocator");
    return -1;
  }
  vsh_exec_opts eo = {0};
  eo.timeout_ms = 20000;
  sink s[2] = {{0}};
  if (o->stream) {
    eo.on_output = on_output;
    eo.output_ud = s;
    eo.flags = VSH_EXEC_NO_CAPTURE;
  }
  alarm(120);
  j.mode = mode;
  j.trace = o->trace;
  j.fail_at = n;
  j.armed = 1;
  out->st = vsh_exec(sb, sc->text, &eo, &out->r);
  j.armed = 0;
  alarm(0);
  out->count = j.count;
  out->failed = j.failed;
  snprintf(out->errmsg, sizeof out->errmsg, "%s", vsh_errmsg(sb));
  if (o->stream && out->st != VSH_NOMEM) {
    free(out->r.out);
    free(out->r.err);
    out->r.out = s[0].data ? s[0].data : strdup("");
    out->r.out_len = s[0].len;
    out->r.err = s[1].data ? s[1].data : strdup("");
    out->r.err_len = s[1].len;
  } else {
    free(s[0].data);
    free(s[1].data);
  }

  /* The sandbox must still work, with its files intact. */
  static const char after[] = "echo ok; cat /home/user/keep.txt";
  vsh_result r2;
  alarm(120);
  vsh_status st2 = vsh_exec(sb, after, NULL, &r2);
  alarm(0);
  char *want = malloc(sizeof keep_text + 3);
  snprintf(want, sizeof keep_text + 3, "ok\n%s", keep_text);
  if (st2 != VSH_OK)
    fail(o, sc, mode, n, "afterwards `%s` failed: %s", after, vsh_errmsg(sb));
  else if (r2.status != 0 || strcmp(r2.out, want) != 0 || r2.err_len)
    fail(o, sc, mode, n,
         "afterwards `%s` gave status %d, stdout [%s], "
         "stderr [%s]",
         after, r2.status, r2.out, r2.err);
  else
    ok++;
  if (st2 == VSH_OK)
    vsh_result_free(&r2);
  free(want);
  char *data = NULL;
  size_t len = 0;
  if (vsh_read_file(sb, "/home/user/keep.txt", &data, &len) != VSH_OK ||
      len != sizeof keep_text - 1 || memcmp(data, keep_text, len) != 0)
    fail(o, sc, mode, n, "keep.txt is not intact afterwards");
  else
    ok++;
  vsh_free(sb, data);
  vsh_close(sb);
  if (j.live != 0) {
    fail(o, sc, mode, n,
         "%ld block(s) of the sandbox allocator still live "
         "after vsh_close (leak)",
         j.live);
    for (size_t i = 0; i < j.nblks; i++)
      fprintf(stderr, "  live: block of hook call %ld (--stack-of %ld)\n",
              j.blks[i].seq, j.blks[i].seq);
    ok = 0;
  }
  free(j.blks);
  return ok == 2 ? 0 : -1;
}

static void free_outcome(outcome *oc) {
  if (oc->st == VSH_OK || oc->r.out || oc->r.err)
    vsh_result_free(&oc->r);
}

static void show(const char *what, const outcome *oc) {
  fprintf(stderr,
          "--- %s: vsh_exec %s, status %d, %ld allocations, %ld refused\n"
          "stdout:\n%s\nstderr:\n%s\n",
          what, vsh_status_str(oc->st), oc->r.status, oc->count, oc->failed,
          oc->r.out ? oc->r.out : "", oc->r.err ? oc->r.err : "");
}

/* Classify one injected run against the clean one. 'a' absorbed (same
 * result), 'r' reported, 'x' refused by the API, 0 failure. */
static int judge(const opts *o, const script *sc, int mode, long n,
                 const outcome *clean, const outcome *oc) {
  if (oc->st == VSH_NOMEM) {
    if (mentions_memory(oc->errmsg))
      return 'x';
    fail(o, sc, mode, n, "VSH_NOMEM without a memory message: [%s]",
         oc->errmsg);
    return 0;
  }
  if (oc->st != VSH_OK) {
    fail(o, sc, mode, n, "vsh_exec returned %s: %s", vsh_status_str(oc->st),
         oc->errmsg);
    return 0;
  }
  if (oc->r.status == clean->r.status && oc->r.out_len == clean->r.out_len &&
      memcmp(oc->r.out, clean->r.out, oc->r.out_len) == 0 &&
      oc->r.err_len == clean->r.err_len &&
      memcmp(oc->r.err, clean->r.err, oc->r.err_len) == 0)
    return 'a';
  if (oc->r.status != 0 && mentions_memory(oc->r.err))
    return 'r';
  /* Where stdout first differs, and the start of stderr. */
  size_t d = 0;
  while (d < oc->r.out_len && d < clean->r.out_len &&
         oc->r.out[d] == clean->r.out[d])
    d++;
  while (d > 0 && oc->r.out[d - 1] != '\n')
    d--;
  fail(o, sc, mode, n,
       "%s\n  stdout from byte %zu: [%.200s]\n  clean run's:        "
       "[%.200s]\n  stderr: [%.400s]",
       oc->r.status == 0 ? "wrong success: status 0 but not the clean "
                           "run's output"
                         : "failed without a memory error",
       d, oc->r.out + d, clean->r.out + (d < clean->r.out_len ? d : 0),
       oc->r.err);
  return 0;
}

/* ---- the set covers every command ----------------------------------------
 */

/* Is name a word of some script (not part of a longer name)? */
static int used(const char *name) {
  size_t n = strlen(name);
  for (size_t k = 0; k < NSCRIPTS; k++)
    for (const char *t = scripts[k].text; (t = strstr(t, name)); t++) {
      const char *e = t + n;
      int before = t > scripts[k].text &&
                   (isalnum((unsigned char)t[-1]) || t[-1] == '_');
      int after = isalnum((unsigned char)*e) || *e == '_';
      if (!before && !after)
        return 1;
    }
  return 0;
}

/* A command added to builtins/list.h or the shell's table must be added
 * to a script too. */
static int check_coverage(void) {
  int missing = 0;
  size_t n;
  const bi_def *b = bi_all(&n);
  for (size_t i = 0; i < n; i++) {
#ifndef OOM_HAVE_NET
    if (b[i].flags & BI_NET)
      continue; /* built without the network layer */
#endif
    if (!used(b[i].name)) {
      fprintf(stderr, "oom_inject: no reference script runs %s\n", b[i].name);
      missing++;
    }
  }
  const sh_builtin *s = sh_builtin_all(&n);
  for (size_t i = 0; i < n; i++)
    if (!used(s[i].name)) {
      fprintf(stderr, "oom_inject: no reference script runs %s\n", s[i].name);
      missing++;
    }
  return missing;
}

/* ---- driving ------------------------------------------------------------- */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static long env_long(const char *name, long def) {
  const char *v = getenv(name);
  return v && *v ? strtol(v, NULL, 10) : def;
}

static void run_script(const opts *o, const script *sc) {
  outcome clean, again;
  double t0 = now_s();
  run_once(o, sc, MODE_NTH, 0, &clean);
  if (clean.st != VSH_OK || clean.r.status != 0 || clean.r.err_len) {
    show("clean run", &clean);
    fail(o, sc, MODE_NTH, 0, "the clean run must succeed with empty stderr");
    free_outcome(&clean);
    return;
  }
  run_once(o, sc, MODE_NTH, 0, &again);
  if (again.count != clean.count)
    fprintf(stderr,
            "note: script %s: allocation count not deterministic (%ld, "
            "%ld); steps still check every invariant\n",
            sc->name, clean.count, again.count);
  free_outcome(&again);
  if (o->show)
    show(sc->name, &clean);
  long c = clean.count;
  for (int mode = MODE_NTH; mode <= MODE_AFTER; mode++) {
    if (!(o->modes & mode))
      continue;
    long steps = 0, tally[128] = {0};
    double t1 = now_s();
    long prev = 0;
    for (long k = 0;; k++) {
      long n;
      if (o->single) {
        if (k)
          break;
        n = o->single;
      } else if (o->all || c <= o->head + o->sample) {
        n = k + 1;
      } else if (k < o->head) {
        n = k + 1;
      } else {
        long i = k - o->head; /* 0 .. sample-1, spread over head+1 .. c */
        if (i >= o->sample)
          break;
        n = o->head + 1 +
            (long)((double)(c - o->head - 1) * (i + 1) / o->sample);
        if (n <= prev)
          continue;
      }
      if (n > c)
        break;
      prev = n;
      outcome oc;
      int clean_after = run_once(o, sc, mode, n, &oc) == 0;
      int kind = judge(o, sc, mode, n, &clean, &oc);
      if (o->verbose || (o->single && !kind))
        show("injected", &oc);
      if (kind && clean_after)
        tally[kind]++;
      steps++;
      free_outcome(&oc);
    }
    printf("%-7s %-5s allocations %6ld  steps %5ld  absorbed %5ld  "
           "reported %5ld  refused %4ld  %.1fs\n",
           sc->name, mode == MODE_AFTER ? "after" : "nth", c, steps, tally['a'],
           tally['r'], tally['x'], now_s() - t1);
    fflush(stdout);
  }
  free_outcome(&clean);
  (void)t0;
}

static void usage(void) {
  fprintf(stderr,
          "usage: oom_inject [--head H] [--sample K] [--mode nth|after|both]\n"
          "                  [--script NAME | --text SCRIPT] [--n N] [--all]\n"
          "                  [--stream] [--trace] [--leaks] [--stack-of K]\n"
          "                  [--list] [--show] [-v]\n"
          "  --head H      step every N up to H (VSH_OOM_HEAD, default 300)\n"
          "  --sample K    then K values of N spread over the rest\n"
          "                (VSH_OOM_SAMPLE, default 150)\n"
          "  --all         every N, whatever the count\n"
          "  --mode M      fail the Nth allocation (nth), every one from the\n"
          "                Nth on (after), or both (default)\n"
          "  --script NAME only this script; --n N only this N\n"
          "  --text SCRIPT run SCRIPT (as the files of the reference set\n"
          "                see them) instead of the reference set\n"
          "  --stream      output through the streaming callback, not the\n"
          "                result buffers\n"
          "  --list        print the scripts; --show print each clean run\n"
          "  --trace       print where the refused allocation was made\n"
          "                (sanitizer builds)\n"
          "  --leaks       on a leak, list the hook calls that made the\n"
          "                blocks still live\n"
          "  --stack-of K  print the stack of the Kth hook call of each run\n"
          "                (sanitizer builds)\n"
          "  -v            print every injected run\n");
  exit(2);
}

int main(int argc, char **argv) {
  opts o = {0};
  script custom = {"custom", NULL};
  o.head = env_long("VSH_OOM_HEAD", 300);
  o.sample = env_long("VSH_OOM_SAMPLE", 150);
  o.modes = MODE_NTH | MODE_AFTER;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--head") && v)
      o.head = strtol(v, NULL, 10), i++;
    else if (!strcmp(a, "--sample") && v)
      o.sample = strtol(v, NULL, 10), i++;
    else if (!strcmp(a, "--mode") && v) {
      o.modes = !strcmp(v, "nth")     ? MODE_NTH
                : !strcmp(v, "after") ? MODE_AFTER
                : !strcmp(v, "both")  ? MODE_NTH | MODE_AFTER
                                      : 0;
      if (!o.modes)
        usage();
      i++;
    } else if (!strcmp(a, "--script") && v)
      o.only = v, i++;
    else if (!strcmp(a, "--text") && v)
      custom.text = v, i++;
    else if (!strcmp(a, "--n") && v)
      o.single = strtol(v, NULL, 10), i++;
    else if (!strcmp(a, "--all"))
      o.all = 1;
    else if (!strcmp(a, "--stream"))
      o.stream = 1;
    else if (!strcmp(a, "--show"))
      o.show = 1;
    else if (!strcmp(a, "--trace"))
      o.trace = 1;
    else if (!strcmp(a, "--leaks"))
      o.leaks = 1;
    else if (!strcmp(a, "--stack-of") && v)
      o.stack_of = strtol(v, NULL, 10), i++;
    else if (!strcmp(a, "-v"))
      o.verbose = 1;
    else if (!strcmp(a, "--list")) {
      for (size_t k = 0; k < NSCRIPTS; k++)
        printf("### %s\n%s\n", scripts[k].name, scripts[k].text);
      return 0;
    } else
      usage();
  }
  if (o.head < 0 || o.sample < 0)
    usage();
  signal(SIGSEGV, on_fatal);
  signal(SIGBUS, on_fatal);
  signal(SIGFPE, on_fatal);
  signal(SIGILL, on_fatal);
  signal(SIGABRT, on_fatal);
  signal(SIGALRM, on_fatal);
  double t0 = now_s();
  int ran = 0;
  if (!custom.text && !o.only && check_coverage())
    failures++;
  if (custom.text) {
    ran++;
    run_script(&o, &custom);
  }
  for (size_t k = 0; k < NSCRIPTS && !custom.text; k++) {
    if (o.only && strcmp(o.only, scripts[k].name) != 0)
      continue;
    ran++;
    run_script(&o, &scripts[k]);
  }
  if (!ran) {
    fprintf(stderr, "oom_inject: no script named %s\n", o.only);
    return 2;
  }
  printf("%d failure(s), %.1fs\n", failures, now_s() - t0);
  return failures ? 1 : 0;
}
