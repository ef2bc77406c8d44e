# join, column and split run through the shell: split --filter starts
# commands, so it is tested here rather than in test_join_column_split.c.
# Expected outputs were recorded from bash 5.2 with GNU split and join
# (coreutils 9.1) and util-linux column 2.38.1, under LC_ALL=C.

#### split --filter gives each piece to a shell command with FILE set
seq 10 > s10
split -l 4 --verbose --filter='cat > $FILE.x; echo got $FILE >> log' s10
cat log; rm log
ls
cat xab.x
## STDOUT:
executing with FILE=xaa
executing with FILE=xab
executing with FILE=xac
got xaa
got xab
got xac
s10
xaa.x
xab.x
xac.x
5
6
7
8
## END

#### split --filter: the command's failure is split's
seq 10 | split -l 4 --filter='exit 3' 2>&1
echo status $?
## STDOUT:
split: with FILE=xaa, exit 3 from command: exit 3
status 3
## END

#### split --filter with -n r/N and -e
seq 10 > s10
split -n r/2 --filter='wc -l' s10
split -n 3 -e --filter='wc -c' /dev/null
echo status $?
split -n 3 --filter='wc -c' /dev/null
## STDOUT:
5
5
status 0
0
0
0
## END

#### split --filter: a command that stops reading is no error
seq 10 | split -l 4 --filter='head -1'
echo status $?
## STDOUT:
1
5
9
status 0
## END

#### split --filter refuses a chunk extracted to stdout
seq 10 > s10
split -n 2/3 --filter=cat s10 2>&1
echo status $?
## STDOUT:
split: --filter does not process a chunk extracted to stdout
Try 'split --help' for more information.
status 1
## END

#### split --filter names in its verbose lines
seq 3 | split -l 1 --verbose --filter='cat >/dev/null' - 'p q'
FILE=old; export FILE
seq 2 | split -l 1 --filter='echo $FILE'
## STDOUT:
executing with FILE='p qaa'
executing with FILE='p qab'
executing with FILE='p qac'
xaa
xab
## END

#### join, column and split in a pipeline
set -o pipefail
printf 'b,2\na,1\nc,3\n' | sort -t, -k1,1 > n.csv
printf 'a,x\nc,z\nd,w\n' > w.csv
join -t, -a1 -a2 -e- -o auto n.csv w.csv | column -t -s, -N K,N,W -R N
seq 5 | split -l 2 - part.
ls part.*; cat part.ab
split -n 2 < n.csv; ls x*; cat xab
## STDOUT:
K  N  W
a  1  x
b  2  -
c  3  z
d  -  w
part.aa
part.ab
part.ac
3
4
xaa
xab
2
c,3
## END

#### column -O places a column named twice at its last mention
printf "a b c\n1 2 3\n" | column -t -O 3,1,3 -N x,y,z
printf "a b c d\n" | column -t -O 1,2,1
printf "a b c d\n" | column -t -O 3,1,3,2,1
printf "a b c d\n" | column -t -O x,2 -N x,y,z,w
printf "a b c d\n" | column -t -O 9,2
printf "a b c\n" | column -t -O 2 -H 1 -R 3
## STDOUT:
x  z  y
a  c  b
1  3  2
b  a  c  d
c  b  a  d
x  y  z  w
a  b  c  d
b  a  c  d
b  c
## END
