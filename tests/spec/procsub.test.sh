#### a producer that never ends stops when the reader is done
head -1 <(yes)
echo status $?
## STDOUT:
y
status 0
## END

#### names count down from 63 and are reused once closed
echo <(true) <(true)
echo <(true)
## STDOUT:
/dev/fd/63 /dev/fd/62
/dev/fd/63
## END

#### inside [[ ]] and after ${x:-...}
[[ -e <(true) ]] && echo exists
x=
cat ${x:-<(echo default)}
echo "${x:-<(echo quoted)}"
## STDOUT:
exists
default
<(echo quoted)
## END

#### lines reach a read loop and an exec'd descriptor
while read -r l; do echo "got $l"; done < <(printf '%s\n' a b)
exec 3< <(printf '%s\n' one two)
read -r -u 3 x; read -r -u 3 y; echo "$x $y"
exec 3<&-
## STDOUT:
got a
got b
one two
## END

#### builtins read and write the pipes by name
paste <(printf '1\n2\n') <(printf 'a\nb\n')
tee >(tr a-z A-Z) >/dev/null <<<hello; wait
echo after
source <(echo 'echo sourced')
bash <(echo 'echo ran $0')
## STDOUT:
1	a
2	b
HELLO
after
sourced
ran /dev/fd/63
## END

#### $! and wait give the status of the last one
cat <(exit 3) >/dev/null
wait $!
echo $?
## STDOUT:
3
## END

#### <(< file) reads the file, as $(< file)
echo FOO > f
tr A-Z a-z < <(<f)
## STDOUT:
foo
## END

#### the word names nothing once its command is done
x=<(echo hi)
cat $x 2>/dev/null || echo gone
## STDOUT:
gone
## END
