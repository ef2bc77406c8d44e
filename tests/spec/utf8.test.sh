#### ${#x} counts characters under UTF-8, bytes under C
x='héllo wörld'
LC_ALL=C.UTF-8; echo ${#x}
LC_ALL=C; echo ${#x}
unset LC_ALL LANG LC_CTYPE; echo ${#x}
LANG=C.utf8; echo ${#x}
LC_CTYPE=C; echo ${#x}
LC_ALL=C.Utf-8; echo ${#x}
## STDOUT:
11
13
13
11
13
11
## END

#### ${#x} counts an invalid byte as one character
export LC_ALL=C.UTF-8
a=$'\xff\xfeab' b=$'a\xc3' c=$'\xa9x' d=$'\xe6\x97'
echo ${#a} ${#b} ${#c} ${#d}
s=日本語; echo ${#s}
e=$'\U0001F600'; echo ${#e}
## STDOUT:
4 2 2 2
3
1
## END

#### ${#a[i]} and ${#1} count characters
export LC_ALL=C.UTF-8
a=(héllo wö 日本)
echo ${#a[0]} ${#a[1]} ${#a[2]} ${#a[@]}
set -- ünïcödé x
echo ${#1} ${#2}
declare -A h=([k]=日本語)
echo ${#h[k]}
## STDOUT:
5 2 2 3
7 1
3
## END

#### ${x:off:len} in characters
export LC_ALL=C.UTF-8
x='héllo wörld'
echo "${x:1:2}|${x:7}|${x: -3}|${x: -4:2}|${x:0:1}|${x:1:-1}"
s=日本語テキスト; echo "${s:2:3}|${s:(-2)}"
LC_ALL=C
echo "${x:1:2}" | od -An -tx1
## STDOUT:
él|örld|rld|ör|h|éllo wörl
語テキ|スト
 c3 a9 0a
## END

#### ${x:off:len} with invalid bytes
export LC_ALL=C.UTF-8
x=$'h\xffé!'
echo "${x:1:1}" | od -An -tx1
echo "${x:2:1}" | od -An -tx1
echo "${x:3}"
## STDOUT:
 ff 0a
 c3 a9 0a
!
## END

#### ? and ${x#?} match one character
export LC_ALL=C.UTF-8
y=é; echo "[${y#?}]"
x=日本語; echo "${x#?}|${x%?}|${x#??}|${x%%?*}"
case é in ?) echo one;; *) echo more;; esac
[[ 日本 == ?? ]] && echo two
LC_ALL=C
case é in ?) echo one;; ??) echo two-bytes;; esac
y=é; printf '%s' "${y#?}" | od -An -tx1
## STDOUT:
[]
本語|日本|語|
one
two
two-bytes
 a9
## END

#### pattern with invalid UTF-8 falls back to bytes, as bash does
export LC_ALL=C.UTF-8
x=$'h\xffé'
case $x in h??) echo chars;; h???) echo bytes;; esac
case $x in h?é) echo mixed;; esac
case é in $'\xc3'?) echo bad-pattern-bytes;; esac
case éa in ?a) echo valid;; esac
## STDOUT:
bytes
mixed
bad-pattern-bytes
valid
## END

#### bracket expressions and classes under UTF-8 and C
export LC_ALL=C.UTF-8
[[ é == [é] ]] && echo br1
[[ é == [a-z] ]] || echo br2
[[ é == [[:alpha:]] ]] && echo br3
[[ É == [[:upper:]] ]] && echo br4
[[ 日 == [![:ascii:]] ]] && echo br5
LC_ALL=C
[[ é == [[:alpha:]] ]] || echo c1
[[ é == [[:alpha:]][[:alpha:]] ]] || echo c2
[[ é == ?? ]] && echo c3
## STDOUT:
br1
br2
br3
br4
br5
c1
c2
c3
## END

#### ${x/pat/rep} and ${x//?/} per character
export LC_ALL=C.UTF-8
s=héllo; echo "${s//[é]/E} ${s/?/X} ${s//?/.}"
t=日本語; echo "${t/#?/X} ${t/%?/X}"
LC_ALL=C
echo "${s//?/.}"
## STDOUT:
hEllo Xéllo .....
X本語 日本X
......
## END

#### pattern ? in C locale does not match a multi-byte character
export LC_ALL=C
s='_μ_ and _μ_'
echo ${s//_?_/foo}
echo ${s//_??_/foo}
## STDOUT:
_μ_ and _μ_
foo and foo
## END

#### ${x^^} ${x,,} and friends convert non-ASCII letters under UTF-8
export LC_ALL=C.UTF-8
v=héllo; echo "${v^^} ${v^} ${v,,}"
v=élan; echo "${v^}"
v=ÉLAN; echo "${v,,} ${v,}"
v=straße; echo "${v^^}"
v=ǆemal; echo "${v^}"
v=héllo; echo "${v@U} ${v@u}" "${v^^[é]}"
declare -u up=wörld; echo $up
declare -l lo=WÖRLD; echo $lo
LC_ALL=C
v=héllo; echo "${v^^}"
## STDOUT:
HÉLLO Héllo héllo
Élan
élan éLAN
STRAßE
Ǆemal
HÉLLO Héllo hÉllo
WÖRLD
wörld
HéLLO
## END

#### read -n counts characters under UTF-8
export LC_ALL=C.UTF-8
printf 'éab' | { read -n 2 v; echo "$v"; }
printf 'éab' | { read -N 2 v; echo "$v"; }
printf '日本語x' | { read -n 2 a; read -n 1 b; echo "$a|$b"; }
printf 'ab\xffcd' | { read -n 3 a; printf '%s' "$a" | od -An -tx1; }
printf '\xc3ab' | { read -n 1 v; printf '%s' "$v" | od -An -tx1; }
printf '\xc3\nb' | { read -n 2 v; printf '%s' "$v" | od -An -tx1; }
printf 'a\\éb' | { read -n 2 v; echo "$v"; }
LC_ALL=C
printf 'éab' | { read -n 2 v; echo "$v"; }
printf 'é' | { read -n 1 v; printf '%s' "$v" | od -An -tx1; }
## STDOUT:
éa
éa
日本|語
 61 62 ff
 c3 61
 c3 0a 62
aé
é
 c3
## END

#### printf widths and precision count bytes, as bash 5.2 does
export LC_ALL=C.UTF-8
printf '[%5s][%-5s][%.2s][%5.1s]\n' é é éa éa | od -An -c
printf '%c|\n' é | od -An -tx1
## STDOUT:
   [             303 251   ]   [ 303 251               ]   [ 303
 251   ]   [                 303   ]  \n
 c3 7c 0a
## END

#### printf %q and \u follow the locale
export LC_ALL=C.UTF-8
printf '%q\n' é "日本 x" $'a\xffé'
printf '\u00e9 \U0001F600 \u0041\n'
LC_ALL=C
printf '%q\n' é "日本 x"
printf '\u00e9|\U0001F600|\u0041|\u7f|\ue9|\U0041\n' | od -An -c
echo -e '\u00e9'
## STDOUT:
é
日本\ x
$'a\377é'
é 😀 A
$'\303\251'
$'\346\227\245\346\234\254 x'
   \   u   0   0   E   9   |   \   U   0   0   0   1   F   6   0
   0   |   A   | 177   |   \   u   0   0   E   9   |   A  \n
\u00E9
## END

#### locale names that cannot exist are skipped
unset LC_ALL
LANG=C.UTF-8
x=é
LC_CTYPE=invalid; echo ${#x}
LC_CTYPE=C; echo ${#x}
LC_CTYPE=; LC_ALL=POSIX; echo ${#x}
## STDOUT:
1
2
2
## END

#### wc -m counts characters under UTF-8, bytes under C
printf 'héllo\n' | LC_ALL=C.UTF-8 wc -m
printf 'h\xffé\n' | LC_ALL=C.UTF-8 wc -m
printf 'héllo\n' | LC_ALL=C wc -m
printf 'aéb é\n' | LC_ALL=C wc -lwmcL
printf 'aéb é\n' | LC_ALL=C.UTF-8 wc -lwmcL
printf 'h日é\n' | LC_ALL=C.UTF-8 wc -L
## STDOUT:
6
3
7
      1       1       8       8       3
      1       2       6       8       5
4
## END

#### rev reverses characters under UTF-8
printf 'héllo\n日本語\n' | LC_ALL=C.UTF-8 rev
## STDOUT:
olléh
語本日
## END

#### cut -c, fold -w, expand, unexpand, tr, uniq -w count bytes (GNU coreutils 9.1)
export LC_ALL=C.UTF-8
printf 'héllo\n' | cut -c1-2 | od -An -tx1
printf 'ééé\n' | fold -w 3 | od -An -tx1
printf 'é\tx\n' | expand | od -An -tx1
printf 'é       x\n' | unexpand -a | od -An -tx1
printf 'héllo\n' | tr 'é' 'e'
printf 'héllo\n' | tr '[:lower:]' '[:upper:]'
printf 'éa\nèb\n' | uniq -w 1
printf 'é\ne\nf\nz\nÉ\n' | sort | tr '\n' ' '; echo
printf 'héllo' | head -c 2 | od -An -tx1
## STDOUT:
 68 c3 0a
 c3 a9 c3 0a a9 c3 a9 0a
 c3 a9 20 20 20 20 20 20 78 0a
 c3 a9 09 20 78 0a
heello
HéLLO
éa
e f z É é 
 68 c3
## END

#### grep -o . matches characters under UTF-8
printf 'héllo\n' | LC_ALL=C.UTF-8 grep -o . | tr '\n' ' '; echo
printf 'h\xffé\n' | LC_ALL=C.UTF-8 grep -o . | od -An -tx1
## STDOUT:
h é l l o 
 68 0a c3 a9 0a
## END

#### wc -L measures display width (wide, combining, spacing marks)
export LC_ALL=C.UTF-8
for s in 'कि' '한' $'\u1100\u1161\u11a8' 'é' $'e\u0301' '日本' $'\u200b' '😀' $'\uff21' $'a\tb'; do printf '%s\n' "$s" | wc -L; done | tr '\n' ' '; echo
## STDOUT:
2 2 2 1 1 4 0 2 2 9 
## END

#### empty matches step over whole characters
export LC_ALL=C.UTF-8
shopt -s extglob
x=éaü; echo "${x//*(z)/-}"
x=$'\xffé'; echo "${x//*(z)/-}" | od -An -tx1
## STDOUT:
-é-a-ü
 2d ff 2d c3 a9 0a
## END
