# Extended glob patterns. The expected outputs are bash's, except in the
# first and third cases, where bash's matcher takes minutes (it retries
# nested repetitions exponentially often) and the outputs follow from the
# patterns' meaning.

#### nested repetitions that cannot match fail without exhausting the search
shopt -s extglob
s=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab
[[ $s == *(*(a)|a)c ]]
echo $?
[[ $s == *(*(a)|a)b ]]
echo $?
## STDOUT:
1
0
## END

#### a long run of one-character repetitions matches
shopt -s extglob
x=$(printf 'b%.0s' {1..20000})
[[ $x == *(b) ]] && echo star
[[ $x == +([ab]) ]] && echo plus
y=${x%+(b)}
echo ${#y}
y=${x%%+(b)}
echo ${#y}
y=${x#+(b)}
echo ${#y}
y=${x##*(b)}
echo ${#y}
## STDOUT:
star
plus
19999
0
19999
0
## END

#### substitution with a group over a long subject without a match
shopt -s extglob
x=$(printf 'b%.0s' {1..5000})
y=${x//@(a|c)/X}
echo ${#y}
y=${x//+(b)c/X}
echo ${#y}
y=${x/!(b)/X}
echo ${#y}
## STDOUT:
5000
5000
1
## END

#### prefix and suffix removal with nested groups
shopt -s extglob
s=abab
echo ${s#+(ab)} ${s##+(ab)} ${s%+(ab)} ${s%%+(ab)} ${s#*(a|b)b} ${s%@(a|ab)}
## STDOUT:
ab ab ab ab
## END

#### a negated group inside a repetition
shopt -s extglob
for s in ab aab abb ba ''
do [[ $s == +(!(b)b) ]] && echo "$s yes" || echo "$s no"
done
## STDOUT:
ab yes
aab yes
abb yes
ba no
 no
## END

#### a group followed by more pattern picks the split that matches
shopt -s extglob
s=aaab
[[ $s == *(a)ab ]] && echo 1
[[ $s == +(a|aa)b ]] && echo 2
[[ $s == ?(a)aab ]] && echo 3
[[ $s == @(a|aa)ab ]] && echo 4
echo ${s/+(a)b/X} ${s//?(a)/-}
## STDOUT:
1
2
3
4
X ----b
## END

#### nested repetitions in prefix, suffix and substitution forms
shopt -s extglob
s=aaab; [[ $s == +(*(*?(??|a?)|?)) ]] && m=1 || m=0; echo "$m ${s#+(*(*?(??|a?)|?))} ${s##+(*(*?(??|a?)|?))} ${s%+(*(*?(??|a?)|?))} ${s%%+(*(*?(??|a?)|?))} ${s/+(*(*?(??|a?)|?))/X} ${s//+(*(*?(??|a?)|?))/X}"
s=aabbababb; [[ $s == +(ab|*([ab]@(b??|?a?*|?)a|a[ab]))a ]] && m=1 || m=0; echo "$m ${s#+(ab|*([ab]@(b??|?a?*|?)a|a[ab]))a} ${s##+(ab|*([ab]@(b??|?a?*|?)a|a[ab]))a} ${s%+(ab|*([ab]@(b??|?a?*|?)a|a[ab]))a} ${s%%+(ab|*([ab]@(b??|?a?*|?)a|a[ab]))a} ${s/+(ab|*([ab]@(b??|?a?*|?)a|a[ab]))a/X} ${s//+(ab|*([ab]@(b??|?a?*|?)a|a[ab]))a/X}"
s=baa; [[ $s == ?(a!(a*)+(*(bba|a?a))*) ]] && m=1 || m=0; echo "$m ${s#?(a!(a*)+(*(bba|a?a))*)} ${s##?(a!(a*)+(*(bba|a?a))*)} ${s%?(a!(a*)+(*(bba|a?a))*)} ${s%%?(a!(a*)+(*(bba|a?a))*)} ${s/?(a!(a*)+(*(bba|a?a))*)/X} ${s//?(a!(a*)+(*(bba|a?a))*)/X}"
## STDOUT:
1 aaab  aaab  X X
0 abbababb abbababb aabbababb aabbababb Xabbababb XXbbXbb
0 baa baa baa b Xbaa XbX
## END

#### a leading group may match the period of a hidden file
shopt -s extglob
mkdir -p /tmp/eg && cd /tmp/eg && touch .h .hx a b.h
echo ?(.)*
echo @(.|a)*
echo !(a)
echo *(.)h
echo +(.h)*
echo @(*)
echo !(.h)
echo @(.)@(h)
## STDOUT:
.h .hx a b.h
.h .hx a
b.h
.h
.h .hx
a b.h
a b.h
.h
## END
