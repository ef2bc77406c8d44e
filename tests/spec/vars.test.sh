#### unset 'a[$k]' expands the subscript at run time
declare -A A=([k]=v [x]=y)
key=k
unset -v 'A[$key]'
echo ${#A[@]} ${A[x]}
a=(0 1 2 3)
i=1
unset 'a[i+1]' 'a[-1]'
echo ${!a[@]}
unset 'a[@]'
declare -p a
c=3
unset 'c[1]' 2>/dev/null; echo st=$? c=$c
unset 'c[0]'; echo ${c-gone}
## STDOUT:
1 y
0 1
declare -a a=()
st=1 c=3
gone
## END

#### test -v and printf -v expand a subscript given as text
declare -A A=([empty]='' [k]=v)
key=empty; test -v 'A[$key]'; echo $?
key=none; test -v 'A[$key]'; echo $?
[[ -v A[k] ]]; echo $?
printf -v 'A[$key]' '/%s/' new
echo ${A[none]}
## STDOUT:
0
1
0
/new/
## END

#### namerefs to a[expr] and a[@]: read, write, append, unset, errors
a=(zero one two three)
typeset -n r='a[$(echo 2) + 1]'
echo $r
r=THREE; echo ${a[3]}
r+=!; echo ${a[3]}
typeset -n all='a[@]'
printf '<%s>' "$all"; echo
all=(x y) 2>/dev/null; echo st=$?
typeset -n e='a[0]'
e[0]=z 2>/dev/null; echo st=$? ${a[0]}
unset r; echo ${#a[@]}
declare -A A=([K]=v)
k=K; typeset -n ak='A[$k]'
(( ak += 0 )); echo ${A[K]}
## STDOUT:
three
THREE
THREE!
<zero><one><two><THREE!>
3
0
## END

#### declare -n checks its value; +n keeps it
x=foo
typeset -n ref=x
typeset +n ref
echo ref=$ref
r1=1
typeset -n r1 2>/dev/null; echo st=$? r1=$r1
r1=bar; echo $r1 $x
declare -n r2=@ 2>/dev/null; echo st=$?
declare -p r2 2>/dev/null || echo not found
declare -n r3=r3 2>/dev/null; echo st=$?
f() { local -n r4=r4 2>/dev/null; echo local st=$?; }
f 2>/dev/null
## STDOUT:
ref=x
st=1 r1=1
bar foo
st=1
not found
st=1
local st=0
## END

#### slices of an associative array count from 1
declare -A a=([xx]=1 [yy]=2 [zz]=3 [aa]=4 [bb]=5)
echo ${a[@]}
echo ${a[@]:0:2} / ${a[@]:1:2} / ${a[@]: -1} / ${a[@]:2:0} / ${a[@]:6}
## STDOUT:
4 1 3 5 2
4 1 / 4 1 / 2 / 1 /
## END

#### associative lists: pairs, += against the old value, no tilde in [k]=~
declare -A a=([h]=X)
a=([h]=1 [h]+=2)
declare -p a
b=(5 6); b=([0]=1 [0]+=2); declare -p b
declare -A c
c=(x 1 [y]=2); declare -p c
c=([y]=2 x 1) 2>/dev/null; declare -p c
HOME=/home/u
declare -A d=([k]=~ [j]=~/x); e=([0]=~); declare -p d e
## STDOUT:
declare -A a=([h]="X2" )
declare -a b=([0]="12")
declare -A c=(["[y]=2"]="" [x]="1" )
declare -A c=([y]="2" )
declare -A d=([k]="~" [j]="~/x" )
declare -a e=([0]="/home/u")
## END

#### list assignments: B=(..) before a command, a[0]=(..), A+=x cmd, $_
A=a B=(b b) printenv B
a=(1 2)
a[0]=(3 4) 2>/dev/null
echo st=$? ${a[@]}
A=x
A+=y printenv A
: foo
declare arr=(1 2); echo "[$_]"
declare -g d=(1 2); echo "[$_]"
( echo "sub[$_]" )
## STDOUT:
(b b)
st=1 1 2
xy
[arr]
[d]
sub[[d]]
## END

#### LINENO in a for (( )) header; empty "${e[@]+x}"; ${!ref:-w} on a[@]; @k
for (( i = 0; i < LINENO; i++ )); do
  echo $i
done
e=()
set -- "${e[@]+x}"; echo $#
set -- "${e[*]+x}"; echo $#
a=("")
ref='a[@]'
echo "[${!ref:-w}] [${a[@]:-w}]"
x=v; echo ${x@k}
## STDOUT:
0
0
1
[] [w]
'v'
## END

#### set -u: a subshell exits 1, also from arithmetic
set -u
(echo $undef); echo st=$?
(echo $(( undef + 1 ))); echo st=$?
x=$(echo $(( undef[0] ))); echo st=$?
## STDOUT:
st=1
st=1
st=1
## END

#### subscripts inside nested arithmetic are expanded
a=(0 1 2)
b=(3 4 5)
expr='a[$(echo 2)]'
echo "${b[expr]}"
b[expr]=z
echo ${b[@]}
declare -A A=([x]=42)
(( y = A['x'] ))
echo $y
## STDOUT:
5
3 4 z
42
## END

#### declare family: values expanded before prefix assignments, readonly a[i]= and -a
FOO=foo readonly v=$FOO
echo "v=$v"
f() { IFS= eval 'local w="$*"'; echo "w=$w"; }
f a b c
readonly b[1]=2 2>/dev/null; echo st=$?
declare -p b 2>/dev/null || echo no b
readonly -a ro; declare -p ro
code='x=(1 2 3)'
typeset -a "$code"; echo ${x[2]}
## STDOUT:
v=
w=abc
st=1
no b
declare -r ro
3
## END

#### local alone and local -p list the function's locals; declare -F under extdebug
f() {
  local one=1 two
  local
  local -p two
  local -p x 2>/dev/null || echo not local
}
x=1; f
g() { :; }
shopt -s extdebug
declare -F g
## STDOUT:
declare -- one="1"
declare -- two
declare -- two
not local
g 8 environment
## END

#### too many arguments end the shell; a[ at EOF and a['2']= are errors
for c in 'shift 1 2' 'f() { return 1 2; }; f' 'for i in 1; do break 1 2; done'; do
  bash -c "$c; echo after" 2>/dev/null
  echo "st=$?"
done
bash -c 'a[5 +' 2>/dev/null; echo st=$?
bash -c "a['2']=3; echo no" 2>/dev/null; echo st=$?
## STDOUT:
st=1
st=1
st=1
st=2
st=1
## END

#### local inside v=x eval takes over the temporary variable
f1() {
  local v=local1
  v=tempenv2 eval '
    echo "in: $v"
    local v=local2
    echo "local: $v"
  '
  echo "after: $v"
}
v=global
v=tempenv1 f1
unlocal() { unset -v "$1"; }
f3() {
  local v=local1
  unlocal v; echo "1: ${v-(unset)}"
  unlocal v; echo "2: ${v-(unset)}"
}
v=tempenv f3
## STDOUT:
in: tempenv2
local: local2
after: local1
1: global
2: (unset)
## END

#### sed with an empty regex and no input; SHELL is set in a child shell
printf '' | sed 's;;x;g'; echo st=$?
bash -c 'echo ${SHELL:+set}'
## STDOUT:
st=0
set
## END

#### a keyed element with braces is brace-expanded into plain words
a=([k2]=-{a,b}- [2]={a})
declare -p a
declare -A A=([k]=-{a,b}-)
declare -p A
## STDOUT:
declare -a a=([0]="[k2]=-a-" [1]="[k2]=-b-" [2]="{a}")
declare -A A=([k]="-{a,b}-" )
## END

#### set -u in arithmetic: an unset element of an array is 0
set -u
b=()
echo $(( b[3] + 1 ))
(echo $(( c[3] ))) 2>/dev/null; echo st=$?
## STDOUT:
1
st=1
## END

#### tilde in a ${x-w} word: ends at :, and after : too in an assignment
HOME=/home/bar
x=~:${undef-~:~}
echo $x
echo ${undef-~:~} "${undef-~}"
## STDOUT:
/home/bar:/home/bar:/home/bar
/home/bar:~ ~
## END

#### a subshell unsetting another function's local sees the binding below
unlocal() { unset -v "$1"; }
f() { local v=l1; g; }
g() {
  local v=l2
  (unlocal v; echo "a: ${v-(unset)}")
  (unset v; echo "b: ${v-(unset)}")
}
v=global; f
f2() {
  local v=local1
  v=tempenv2 eval '
    local v=local2
    (unset v; echo "c: ${v-(unset)}")
    (unlocal v; echo "d: ${v-(unset)}")
  '
}
v=tempenv1 f2
## STDOUT:
a: l1
b: (unset)
c: (unset)
d: local1
## END
