#### ulimit: -f by default, unlimited, numbers in blocks
ulimit; ulimit -f
ulimit -S -f 100; ulimit; ulimit -f unlimited; ulimit -f
ulimit -f $(( 1 << 53 )); ulimit -f
ulimit -f unlimited; echo raise=$?
## STDOUT:
unlimited
unlimited
100
unlimited
9007199254740992
raise=1
## END

#### ulimit: bad numbers, bad options, out of range
ulimit -f zz; echo $?
ulimit -f 0x10; echo $?
ulimit -f -- -42; echo $?
ulimit -f -42; echo $?
ulimit -b; echo $?
ulimit -f $(( (1 << 62) + 1 )); echo $?
ulimit -f
## STDOUT:
1
1
1
2
2
1
unlimited
## END

#### ulimit: soft and hard values, and what may not be raised
ulimit -S -c 10; ulimit -S -c; ulimit -H -c
ulimit -H -c 20; ulimit -H -c
ulimit -S -c 30; echo soft=$?
ulimit -H -c 25; echo hard=$?
ulimit -c 15; ulimit -S -c; ulimit -H -c
ulimit -HS -c
ulimit -p 1; echo pipe=$?
## STDOUT:
10
unlimited
20
soft=1
hard=1
15
15
15
pipe=1
## END

#### ulimit: the sandbox's own limits are hard values
ulimit -t; ulimit -H -t
ulimit -t 3; echo $?; ulimit -t
ulimit -t 100; echo raise=$?
ulimit -u 10; ulimit -u
## STDOUT:
5
5
0
3
raise=1
10
## END

#### ulimit -a lists every resource; several flags print with names
ulimit -a | wc -l
ulimit -a | grep -c 'open files *(-n) 1024'
ulimit -f -n
ulimit -f -n 99; ulimit -n
## STDOUT:
17
1
file size                   (blocks, -f) unlimited
open files                          (-n) 1024
file size                   (blocks, -f) unlimited
99
## END

#### ulimit -n 0 refuses redirections; -f caps file writes
bash -c 'ulimit -n 0; echo hi > out'; echo n=$?
bash -c 'ulimit -n 64; echo hi > out'; echo n=$?
( ulimit -f 1; printf '%2000s' x > big ); echo f=$?
wc -c < big
( ulimit -f 1; printf '%1024s' x > ok ); echo f=$?
## STDOUT:
n=1
n=0
f=1
1024
f=0
## END

#### ulimit in a subshell stays there
( ulimit -f 5; ulimit -f ); ulimit -f
## STDOUT:
5
unlimited
## END

#### exec -a names a shell; exec -- with redirections only
exec -a NAME sh -c 'echo $0'
## STDOUT:
NAME
## END

#### exec -- keeps its redirections
exec -- 3>&1
echo three >&3
sh -c 'echo $0'
## STDOUT:
three
sh
## END

#### exit with too many arguments still exits, with 1
exit 7 8 9
echo not reached
## status: 1
## STDOUT:
## END

#### exit with too many arguments in a script file drops only the line
printf 'exit 7 8 9; echo dropped\necho next=$?\n' > ex.sh
bash ex.sh; echo st=$?
## STDOUT:
next=1
st=0
## END

#### kill -l and -L translate names and numbers
kill -l 10 SIGSEGV 0 134 192
kill -L USR1 9999 USR2; echo status=$?
kill -l 128; echo status=$?
kill -l RTMIN+1 35 | tr '\n' ' '; echo
kill -l | tail -1
kill -l ERR DEBUG RETURN | tr '\n' ' '; echo
## STDOUT:
USR1
11
EXIT
ABRT
RTMAX
10
12
status=1
status=1
35 RTMIN+1 
63) SIGRTMAX-1	64) SIGRTMAX	
66 65 67 
## END

#### kill with a bad signal names it
kill -9999 $$ 2>&1; kill -s BAD $$ 2>&1; echo $?
## STDOUT:
bash: line 1: kill: 9999: invalid signal specification
bash: line 1: kill: BAD: invalid signal specification
1
## END

#### bind: functions, default keys, queries
bind -l | grep -c .
bind -p | grep -c ': self-insert'
bind -q yank; echo $?
bind -q vi-subst; echo $?
bind -q nope; echo $?
bind -P | grep '^yank '
## STDOUT:
173
223
yank can be invoked via "\C-y".
0
vi-subst is not bound to any keys.
1
1
yank can be found on "\C-y".
## END

#### bind: new keys, macros, shell commands, removal
bind '"\C-o\C-s": yank' 'Meta-y: kill-word' '"\C-t": "mac\"ro"'
bind -q yank; bind -q kill-word
bind -s; bind -S
bind -x '"\C-v": "echo hi"'; bind -X
bind -r '\C-v'; bind -X; echo x=$?
bind -u yank; bind -q yank
bind -m vi -x '"\C-a": vi cmd'; bind -m vi -X; bind -X | wc -l
bind -m bogus -X; echo $?
## STDOUT:
yank can be invoked via "\C-o\C-s", "\C-y".
kill-word can be invoked via "\e[3;5~", "\ed", "\371".
"\C-t": "mac\"ro"
\C-t outputs mac\"ro
"\C-v": "echo hi"
x=0
yank is not bound to any keys.
"\C-a": "vi cmd"
0
1
## END

#### bind: the vi maps
bind -m vi-insert -q self-insert
bind -m vi -q vi-subst
bind -m vi-command -p | grep -c '^"'
## STDOUT:
self-insert can be invoked via "\C-a", "\C-b", "\C-c", "\C-e", "\C-f", ...
vi-subst can be invoked via "S", "s".
105
## END

#### bind: variables; changes stay in a subshell
bind -v | grep -c .
( bind 'set blink-matching-paren on'; bind -v | grep blink )
bind -V | grep blink
## STDOUT:
46
set blink-matching-paren on
blink-matching-paren is set to `off'
## END

#### TIMEFORMAT formats and time -p
{
TIMEFORMAT='[%0R|%1R|%lR|%3lU|%S|%P|%%]'
time true
TIMEFORMAT='x%qy'; { time true; } 2>/dev/null
TIMEFORMAT=; time true
unset TIMEFORMAT
time -p true
} 2>&1
## STDOUT:
[0|0.0|0m0.000s|0m0.000s|0.000|0.00|%]
real 0.00
user 0.00
sys 0.00
## END

#### wait -n with ids: only those, and unknown ones reported
{ sleep 0.05; exit 3; } & a=$!
(exit 4) & b=$!
wait -n $a nope $b; echo st=$?
wait -n nope; echo st=$?
wait zzz; echo st=$?
## STDOUT:
st=4
st=127
st=1
## END

#### a child shell signalling $$ runs the parent's trap after it
trap 'echo usr1 line=$LINENO status=$?' USR1
sh -c "kill -USR1 $$; echo child"
echo after=$?
( kill -USR1 $$; echo sub )
echo done
## STDOUT:
child
usr1 line=1 status=0
after=0
sub
usr1 line=1 status=0
done
## END

#### a child shell has its own $$: kill $$ there ends only the child
sh -c 'trap "echo child-trap" USR1; kill -USR1 $$; echo c'
sh -c 'kill -TERM $$; echo not reached'; echo st=$?
test "$(sh -c 'echo $$')" != "$$" && echo own
## STDOUT:
child-trap
c
st=143
own
## END

#### a child shell signalling $$ without a trap ends the parent
sh -c "kill -TERM $$; echo child"
echo not reached
## status: 143
## STDOUT:
child
## END

#### ERR inside DEBUG and DEBUG inside ERR
trap 'false; echo $LINENO err' ERR
trap 'false; echo $LINENO debug' DEBUG
false
## STDOUT:
3 err
3 debug
3 debug
3 debug
3 err
## status: 1
## END

#### set -E: a background simple command runs no ERR trap
set -E
trap 'echo err' ERR
false & wait
{ false; echo async; } & wait
## STDOUT:
err
async
## END

#### trap refuses unknown options and leaves traps alone
trap 'echo bye' EXIT
trap -1 EXIT; echo st=$?
trap -x; echo st=$?
## STDOUT:
st=2
st=2
bye
## END

#### a failing last subshell of a pipeline shows the ERR trap twice
trap 'echo err' ERR
true | (false)
echo ---
(false) | true
true | { false; }
## STDOUT:
err
err
---
err
## status: 1
## END

#### logout and suspend refuse; compgen lists the sandbox's accounts
logout; echo $?
suspend -f; echo $?
compgen -A user
compgen -g r
## STDOUT:
1
1
root
user
root
## END
