#### single and double quotes
echo 'a  b' "c  $((1+2))" d\ e
## STDOUT:
a  b c  3 d e
## END

#### backslash in double quotes
echo "a\$b \"q\" \\ \x"
## STDOUT:
a$b "q" \ \x
## END

#### variables and braces
x=hello; y=${x}world; echo $x $y ${#x}
## STDOUT:
hello helloworld 5
## END

#### default and alternative values
unset u; echo ${u:-def} ${u-def2} ${x:+alt}; x=1; echo ${x:+alt}
## STDOUT:
def def2
alt
## END

#### prefix and suffix trimming
f=path/to/file.tar.gz; echo ${f##*/} ${f%%.*} ${f%.*} ${f#*/}
## STDOUT:
file.tar.gz path/to/file path/to/file.tar to/file.tar.gz
## END

#### arithmetic expansion
a=7; echo $((a * 6)) $(( (a + 3) / 2 )) $((a % 4)) $((2**10)) $((-a))
## STDOUT:
42 5 3 1024 -7
## END

#### assignments do not split
v="one   two"; w=$v; echo "$w"; echo $w
## STDOUT:
one   two
one two
## END

#### and-or lists
true && echo yes || echo no; false && echo yes || echo no
## STDOUT:
yes
no
## END

#### semicolon lists and status
false; echo $?; true; echo $?
## STDOUT:
1
0
## END

#### pipeline of three stages
printf 'c\nb\na\n' | sort | head -n 2
## STDOUT:
a
b
## END

#### PIPESTATUS after a pipeline
true | false | true; echo ${PIPESTATUS[@]}
## STDOUT:
0 1 0
## END

#### writer to a closed pipe ends with 141
yes | head -n 3; echo ${PIPESTATUS[@]}
## STDOUT:
y
y
y
141 0
## END

#### negated pipeline
! false; echo $?
## STDOUT:
0
## END

#### brace group and subshell
{ echo a; echo b; } | wc -l; (x=inner; echo $x); echo ${x-unset}
## STDOUT:
2
inner
unset
## END

#### subshell does not leak variables
x=outer; (x=inner); echo $x
## STDOUT:
outer
## END

#### if elif else
for n in 1 2 3; do if [ $n = 1 ]; then echo one; elif [ $n = 2 ]; then echo two; else echo other; fi; done
## STDOUT:
one
two
other
## END

#### while loop with arithmetic
i=0; while [ $i -lt 5 ]; do i=$((i+1)); done; echo $i
## STDOUT:
5
## END

#### until loop
i=3; until [ $i -eq 0 ]; do echo $i; i=$((i-1)); done
## STDOUT:
3
2
1
## END

#### for over words
for w in a "b c" d; do echo "[$w]"; done
## STDOUT:
[a]
[b c]
[d]
## END

#### case with patterns
for v in apple banana cherry x; do case $v in a*) echo A;; b*|c*) echo BC;; *) echo other;; esac; done
## STDOUT:
A
BC
BC
other
## END

#### functions with arguments and return
f() { echo "args: $# $1 $2"; return 3; }; f x y; echo $?
## STDOUT:
args: 2 x y
3
## END

#### recursion
fact() { if [ $1 -le 1 ]; then echo 1; else echo $(( $1 * $(fact $(($1-1))) )); fi; }; fact 6
## STDOUT:
720
## END

#### command substitution strips trailing newlines
x=$(printf 'a\n\n\n'); echo "[$x]"
## STDOUT:
[a]
## END

#### nested command substitution
echo $(echo $(echo deep))
## STDOUT:
deep
## END

#### redirect to a file and read it back
echo one > f.txt; echo two >> f.txt; cat f.txt; cat < f.txt | wc -l
## STDOUT:
one
two
2
## END

#### stderr redirection
{ echo out; echo err >&2; } 2>/dev/null; { echo err2 >&2; } 2>&1 | cat
## STDOUT:
out
err2
## END

#### here-document with expansion
name=world
cat <<EOF
hello $name
$((1+1))
hello $name
$((1+1))
EOF
## STDOUT:
hello world
2
hello world
2
## END

#### here-document quoted delimiter
cat <<'EOF'
no $expansion here
EOF
## STDOUT:
no $expansion here
## END

#### here-document with tab stripping
cat <<-EOF
	indented
	EOF
## STDOUT:
indented
## END

#### here-string
cat <<< "word here"; wc -c <<< abc
## STDOUT:
word here
4
## END

#### echo flags
echo -n a; echo b; echo -e 'x\ty'; echo -E 'x\ty'
## STDOUT:
ab
x	y
x\ty
## END

#### printf formats
printf '%s-%d-%05.1f-%x\n' str 42 3.14159 255; printf '%s\n' a b c
## STDOUT:
str-42-003.1-ff
a
b
c
## END

#### test and brackets
[ -n abc ] && echo nonempty; [ -z "" ] && echo empty; test 3 -gt 2 && echo gt; [ a = b ] || echo ne
## STDOUT:
nonempty
empty
gt
ne
## END

#### seq and wc
seq 5 | wc -l; seq 2 2 8; seq -s , 3
## STDOUT:
5
2
4
6
8
1,2,3
## END

#### tr translates and deletes
echo hello | tr a-z A-Z; echo hello | tr -d l; echo 'a  b   c' | tr -s ' '
## STDOUT:
HELLO
heo
a b c
## END

#### tee writes to a file and stdout
echo teed | tee t.txt; cat t.txt
## STDOUT:
teed
teed
## END

#### sort options
printf '10\n9\n100\n' | sort -n; printf 'b\na\nb\n' | sort -u; printf 'a\nc\nb\n' | sort -r
## STDOUT:
9
10
100
a
b
c
b
a
## END

#### head counts
seq 10 | head -n 3; seq 10 | head -c 4; echo
## STDOUT:
1
2
3
1
2

## END

#### cd and pwd
mkdir -p d/e; cd d/e; pwd; cd ..; pwd; cd; pwd
## STDOUT:
/tmp/spec-case/d/e
/tmp/spec-case/d
/tmp/spec-case
## END

#### export to bash -c
export V=exported; bash -c 'echo $V'; sh -c 'echo $0 $1' zero one
## STDOUT:
exported
zero one
## END

#### exit status of bash -c
bash -c 'exit 7'; echo $?
## STDOUT:
7
## END

#### exit ends the script
echo before; exit 3; echo after
## STDOUT:
before
## END
## status: 3

#### command not found
nosuchcommand; echo $?
## STDOUT:
127
## END

#### unset variable in arithmetic is zero
echo $((undefined + 1))
## STDOUT:
1
## END

#### string comparison in test
[ abc \< abd ] && echo less
## STDOUT:
less
## END

#### loop with break and continue
for i in 1 2 3 4 5; do [ $i = 2 ] && continue; [ $i = 4 ] && break; echo $i; done
## STDOUT:
1
3
## END

#### local variables
x=global; f() { local x=local; echo $x; }; f; echo $x
## STDOUT:
local
global
## END

#### positional parameters and shift
set -- a b c; echo $#; shift; echo $1 $#; echo "$@"
## STDOUT:
3
b 2
b c
## END

#### quoted at and star
set -- "a b" c; for x in "$@"; do echo "<$x>"; done; for x in "$*"; do echo "<$x>"; done
## STDOUT:
<a b>
<c>
<a b c>
## END

#### cat numbering
printf 'a\nb\n' | cat -n
## STDOUT:
     1	a
     2	b
## END

#### yes with head
yes abc | head -n 2
## STDOUT:
abc
abc
## END


#### tilde expansion after brace expansion
HOME=/h; echo {~,x} {a,~}/b a{~,b} {~/c,y} {~$HOME,z}
## STDOUT:
/h x a/b /h/b a~ ab /h/c y ~/h z
## END

#### brace results with globs, quotes and parameters
x=v; touch /tmp/q1 /tmp/q2; echo /tmp/q{1,2,3}* {"a b",c}d ${x}{1,2} {a,}e
## STDOUT:
/tmp/q1 /tmp/q2 /tmp/q3* a bd cd v1 v2 ae e
## END

#### brace expressions that bash takes by a top-level "..": nested lists lose the outer braces, failed sequences stay literal
echo {1..{3,5}}; echo {a..{c,e}}; echo x{1..{3,5}}y
echo {a{b,c}}; echo x{a{b,c}}y; echo {{a,b}}; echo {1..3{a,b}}; echo {a\,b}; echo {"a,b"}; echo {x..y{1,2}}
echo {1..x{a..c}}; echo {1..x{a..c}}y{1,2}; echo {a..{b..d}}; echo {1..2..{3,4}}; echo {..{a,b}}; echo {a..,b}; echo {a{1..2}..b}; echo {1..3}{a,b}
echo {1..3}; echo {a..e..2}; echo {1..}; echo {..3}; echo a{1..3..}b; echo {1...3}; echo {1..3}..{4..5}; echo {${x},b}; echo {a..b}{c..d}; echo {1..2}{a..{b,c}}
echo {a,b}..{c..d}; echo {1.2..3}; echo {z..a}; echo {-1..2}; echo {01..3}
## STDOUT:
1..3 1..5
a..c a..e
x1..3y x1..5y
{ab} {ac}
x{ab}y x{ac}y
{a} {b}
1..3a 1..3b
{a,b}
{a,b}
x..y1 x..y2
{1..x{a..c}}
{1..x{a..c}}y1 {1..x{a..c}}y2
{a..{b..d}}
1..2..3 1..2..4
..a ..b
a.. b
{a{1..2}..b}
1a 1b 2a 2b 3a 3b
1 2 3
a c e
{1..}
{..3}
a{1..3..}b
{1...3}
1..4 1..5 2..4 2..5 3..4 3..5
b
ac ad bc bd
1a..b 1a..c 2a..b 2a..c
a..c a..d b..c b..d
{1.2..3}
z y x w v u t s r q p o n m l k j i h g f e d c b a
-1 0 1 2
01 02 03
## END

#### a long word of unclosed braces around a nested list expands as bash expands it
o=$(printf "{a,%.0s" {1..400})
c=$(printf "}%.0s" {1..200})
eval "echo ${o}b${c}" > /tmp/w
wc -c < /tmp/w
cksum < /tmp/w
eval "echo x{a,b}${o}{c,d}${c}y" | wc -w
## STDOUT:
121002
2474174789 121002
404
## END
