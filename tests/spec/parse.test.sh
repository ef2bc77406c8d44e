#### a [[ ]] syntax error ends the script with the status it had
false
[[ a b ]]
echo not reached
## status: 1
## STDOUT:
## END

#### a [[ ]] syntax error in eval is status 2
eval '[[ a b ]]'
echo status=$?
## STDOUT:
status=2
## END

#### tilde at the start of the right side of =~ expands, quoted
HOME='^a$'
[[ $HOME =~ ~ ]] && echo match
[[ x/^a$/y =~ ~/ ]] && echo slash
## STDOUT:
match
slash
## END

#### {var}> keeps its fd open after a builtin, function or group
echo a {v}>/dev/null
first=$v
f() { :; }
f {w}>/dev/null
{ :; } {x}>/dev/null
echo $((w - first)) $((x - first))
## STDOUT:
a
1 2
## END

#### {var}> without a command word, or on a program, leaves var alone
v=keep
{v}>/tmp/named-fd-file
echo "$v"
test -f /tmp/named-fd-file && echo created
unset w
cat {w}</dev/null
echo "${w-unset}"
## STDOUT:
keep
created
unset
## END

#### {var}<<EOF read with read -u
{r}<<EOF read -u $r line
hello
EOF
echo "[$line]"
read -u $r line2 {r}<<EOF
world
EOF
echo "[$line2]"
## STDOUT:
[]
[hello]
## END

#### exec {var}> and {var}>&- close it
exec {z}>/tmp/zz
echo foo >&$z
exec {z}>&-
cat /tmp/zz
echo bar >&$z || echo closed
## STDOUT:
foo
closed
## END

#### n>&m- on a builtin leaves m closed afterwards
exec 7>/tmp/f7
: 6>&7-
echo w >&7 || echo st=$?
## STDOUT:
st=1
## END

#### >& with a glob target that names a descriptor
cd /tmp && touch 10 && exec 10>&1
echo on-stdout >& 1*
## STDOUT:
on-stdout
## END

#### descriptors up to 100 and beyond
echo hi 9>&1
echo hi 99>&1
echo hi 100>&1
## STDOUT:
hi
hi
hi
## END

#### set -e: a failed redirection of a compound command exits
set -e
{ echo in; } < /nonexistent-file
echo not reached
## status: 1
## STDOUT:
## END

#### set -e turned on inside ! f takes effect there
foo() { set -e; false; echo no; }
! foo
echo no
## status: 1
## STDOUT:
## END

#### ! ignores its own command's failure, not what runs inside a group
trap 'echo ERR' ERR
! false
! { false; true; }
echo after
## STDOUT:
ERR
after
## END

#### SHELLOPTS and BASHOPTS follow the options and are readonly
case $SHELLOPTS in *xtrace*) echo on ;; *) echo off ;; esac
set -o pipefail
case $SHELLOPTS in *pipefail*) echo on ;; *) echo off ;; esac
shopt -s nullglob
case $BASHOPTS in *nullglob*) echo on ;; *) echo off ;; esac
test -o pipefail && echo test-o
SHELLOPTS=x
echo status=$?
## STDOUT:
off
on
on
test-o
status=1
## END

#### an exported SHELLOPTS turns the options on in a child bash
export SHELLOPTS
set -o noglob
bash -c 'echo *; echo $SHELLOPTS' | sed 's/:.*//; s/.*noglob.*/noglob/'
## STDOUT:
*
braceexpand
## END

#### env with assignments runs a command with that environment
X=1
env Y=2 printenv Y
env -i printenv | wc -l
env Z=3 bash -c 'echo $Z'
## STDOUT:
2
0
3
## END

#### set -n reads but does not run commands
echo 1
set -n
echo 2
set +n
echo 3
## STDOUT:
1
## END

#### set lists plain values without quotes
__plain=abc
__empty=
__space='a b'
set | grep '^__'
## STDOUT:
__empty=
__plain=abc
__space='a b'
## END

#### a script with a NUL byte in its first line is not run
printf 'echo one \0 echo two\n' > /tmp/bin.sh
bash /tmp/bin.sh
echo status=$?
printf 'echo one\n\0echo two\n' > /tmp/nul.sh
bash /tmp/nul.sh
## STDOUT:
status=126
one
two
## END

#### ${!prefix*} and ${!a[*]} with an empty IFS
pfx_a=1 pfx_b=2
a=(x y)
IFS=
printf '<%s>' ${!pfx_*} ${!a[*]} ${a[*]}
echo
## STDOUT:
<pfx_apfx_b><0 1><x><y>
## END

#### a syntax error inside $( ) ends the shell with 127, even in eval
eval 'echo $(if true)'
echo not reached
## status: 127
## STDOUT:
## END

#### a syntax error inside backquotes is reported when it runs
x=`fi`
echo "status=$? [$x]"
f() { echo `if true`; }
echo defined
## STDOUT:
status=2 []
defined
## END

#### for with a name that is not an identifier
for i.j in a b; do echo hi; done
echo status=$?
## STDOUT:
status=1
## END

#### return outside a function is status 2
return
echo status=$?
## STDOUT:
status=2
## END

#### a stray token in an array literal drops the line and goes on
a=( x (y) ); echo same-line
echo status=$? len=${#a[@]}
## STDOUT:
status=1 len=0
## END

#### an unquoted expansion inside an extglob is split
shopt -s extglob
IFS=x; v=cxd
for i in +($v); do echo "=$i="; done
## STDOUT:
=+(c=
=d)=
## END

#### $name joins letters that brace expansion puts after it
a=A; ab=X; a_c=Y
echo $a{b,c} {$a,b}_{c,d}
## STDOUT:
X Y b_c b_d
## END

#### a backquote made by a brace range is a bad substitution
echo -{a..Z}-
echo status=$?
## STDOUT:
status=1
## END

#### the first } ends ${...}
x=
echo "${x:-{a}b}" ${x:-x{a,b}y}z
## STDOUT:
{ab} x{a,by}z
## END

#### $ followed by a line continuation
echo $\
?
## STDOUT:
0
## END

#### [ with unary operators as last words
[ -a -a -a -a ]; echo $?
[ -z -a ]; echo $?
## STDOUT:
1
1
## END

#### a program killed by SIGPIPE does not end its subshell
((cat </dev/zero; echo $? >&7) | true) 7>&1
## STDOUT:
141
## END

#### an ERE { that starts no interval is an error
[[ { =~ { ]]; echo $?
[[ 'a{' =~ a{ ]]; echo $?
[[ aa =~ ^a{,2}$ ]]; echo $?
## STDOUT:
2
2
0
## END

#### shopt -u globskipdots lets .* match . and ..
mkdir -p /tmp/skipdots && cd /tmp/skipdots && touch .env
echo .*
shopt -u globskipdots
echo .*
## STDOUT:
.env
. .. .env
## END

#### **/** gives each file once
shopt -s globstar
mkdir -p /tmp/gs2/c/d && cd /tmp/gs2 && touch c/d/x y
echo **/**
## STDOUT:
c c/d c/d/x y
## END

#### BASH_EXECUTION_STRING holds the -c text
bash -c 'echo "[$BASH_EXECUTION_STRING]"'
## STDOUT:
[echo "[$BASH_EXECUTION_STRING]"]
## END

#### a function name with an expansion is not a valid identifier
$foo-bar() { echo no; }
echo status=$?
## STDOUT:
status=1
## END

#### functions whose names hold a slash are found first
function my/fn { echo in-fn; }
my/fn
## STDOUT:
in-fn
## END

#### return in a bash -c child is outside any function
f() { bash -c 'return; echo child=$?'; (return 3); echo sub=$?; }
f
## STDOUT:
child=2
sub=3
## END

#### bash -e with a missing script file ends with 1
bash -e /nonexistent/script.sh
echo status=$?
## STDOUT:
status=1
## END

#### /dev/urandom gives bytes and a reader that goes away stops it
head -c 16 /dev/urandom | wc -c
cat /dev/urandom | true
echo ${PIPESTATUS[@]}
## STDOUT:
16
141 0
## END
