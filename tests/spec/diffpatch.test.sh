#### diff of two process substitutions
printf 'b\na\nc\n' > a; printf 'c\nb\nd\n' > b
diff <(sort a) <(sort b)
echo status $?
## STDOUT:
1d0
< a
3a3
> d
status 1
## END

#### unified headers carry the mtimes in the script's TZ
printf 'one\ntwo\n' > a; printf 'one\n2\n' > b
touch -d @1700000000 a; touch -d @1700000060 b
export TZ=America/New_York
diff -u a b
echo status $?
## STDOUT:
--- a	2023-11-14 17:13:20.000000000 -0500
+++ b	2023-11-14 17:14:20.000000000 -0500
@@ -1,2 +1,2 @@
 one
-two
+2
status 1
## END

#### a git-style patch applied with -p1, then undone with -R
mkdir -p old/src new/src
printf 'int x;\nint y;\n' > old/src/m.c; printf 'int x;\nlong y;\n' > new/src/m.c
printf 'keep\n' > old/README; printf 'keep\n' > new/README
diff -ru old new > fix.diff; echo diff $?
cp -r old work; cd work
patch -p1 < ../fix.diff; echo patch $?
cat src/m.c
patch -p1 -R < ../fix.diff; echo unpatch $?
cat src/m.c
## STDOUT:
diff 1
patching file src/m.c
patch 0
int x;
long y;
patching file src/m.c
unpatch 0
int x;
int y;
## END

#### a hunk that no longer fits is rejected
printf 'a\nb\nc\n' > f; printf 'a\nB\nc\n' > g
diff -u f g > p; printf 'x\ny\nz\n' > f
patch f p; echo status $?
cat f.rej | tail -4
## STDOUT:
patching file f
Hunk #1 FAILED at 1.
1 out of 1 hunk FAILED -- saving rejects to file f.rej
status 1
 a
-b
+B
 c
## END

#### cmp and diff -q agree on what differs
printf 'abc\n' > a; printf 'abd\n' > b
LC_ALL=C cmp a b; echo cmp $?
diff -q a b; echo diff $?
cmp -s a a && echo same
## STDOUT:
a b differ: char 3, line 1
cmp 1
Files a and b differ
diff 1
same
## END

#### cmp says byte rather than char outside the C locale
printf 'abc\n' > a; printf 'abd\n' > b
LANG=C.UTF-8 cmp a b; echo status $?
LC_ALL=POSIX cmp a b; echo status $?
## STDOUT:
a b differ: byte 3, line 1
status 1
a b differ: char 3, line 1
status 1
## END
