#### sed reads its look-ahead line only when needed: $ n N q
printf '1\n2\n3\n' | sed -n '$p'
printf '1\n2\n3\n' | sed 'n;d'
printf '1\n2\n3\n' | sed -n 'n;p'
printf '1\n2\n3\n' | sed '$!N;s/\n/+/'
printf '1\n2\n3\n' | sed 2q
printf '1\n' | sed 'n;s/^/x/'
printf '1\n2\n3' | sed 'a x
n'
## STDOUT:
3
1
3
2
1+2
3
1
2
1
1
x
2
3
x
## END

#### sed $ across files, with -s, and a missing file in between
printf '1\n2\n' > /tmp/s1; printf '3\n4\n' > /tmp/s2
sed '$d' /tmp/s1 /tmp/s2
sed -s '$d' /tmp/s1 /tmp/s2
sed -n '$=' /tmp/s1 /tmp/nofile /tmp/s2 2>/dev/null; echo "status $?"
## STDOUT:
1
2
3
1
3
4
status 2
## END

#### sed -i with $ and a line without a newline
printf '1\n2' > /tmp/s3; sed -i '$s/$/x/;1s/^/>/' /tmp/s3; cat /tmp/s3; echo
## STDOUT:
>1
2x
## END

#### uniq prints each group's first line, whatever the options compare
printf 'a\na\nb\nb\nc' | uniq
printf 'a\nA\nb\n' | uniq -i
printf 'x 1\ny 1\nz 2\n' | uniq -f1
printf 'ab\nac\nb\n' | uniq -w1
printf 'a\na\nb\n' | uniq -c
## STDOUT:
a
b
c
a
b
x 1
z 2
ab
b
      2 a
      1 b
## END

#### filters keep their output order across a pipeline that waits
{ echo 1; sleep 0.1; echo 2; } | sed p | awk '{ print NR": "$0 }' | cat -n
## STDOUT:
     1	1: 1
     2	2: 1
     3	3: 2
     4	4: 2
## END

#### output held in a filter is kept when wc, tac and paste read several inputs
printf 'x\n' > /tmp/w1
{ echo a; sleep 0.1; echo b; } | wc -l /tmp/w1 -
{ echo a; sleep 0.1; echo b; } | tac /tmp/w1 -
{ echo a; sleep 0.1; echo b; } | paste /tmp/w1 -
## STDOUT:
      1 /tmp/w1
      2 -
      3 total
x
b
a
x	a
	b
## END
