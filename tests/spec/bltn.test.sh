#### function printer: one-line body is broken into lines
f() { echo a; echo b; }
g() ( echo sub )
type f
declare -f g
## STDOUT:
f is a function
f () 
{ 
    echo a;
    echo b
}
g () 
{ 
    ( echo sub )
}
## END

#### umask symbolic: one operator per clause, trailing comma is an error
umask 0124
umask u+r+w 2>/dev/null; echo st=$?
umask a+x, 2>/dev/null; echo st=$?
umask '' 2>/dev/null; echo st=$?
umask u=rwx,g=rx; umask
umask 9 2>/dev/null; echo st=$?
## STDOUT:
st=1
st=1
st=1
0024
st=1
## END

#### unset of an invalid variable name without -v is quiet
unset % 'a b'; echo st=$?
unset -v % 2>/dev/null; echo st=$?
## STDOUT:
st=0
st=1
## END

#### hash remembers PATH lookups until PATH changes
mkdir -p one two
PATH="$PWD/one:$PWD/two:$PATH"
printf 'echo two\n' > two/mycmd; chmod +x two/mycmd
mycmd
printf 'echo one\n' > one/mycmd; chmod +x one/mycmd
mycmd
hash -t mycmd | sed "s,$PWD,.,"
hash -r
mycmd
hash -d mycmd; hash -d mycmd 2>/dev/null; echo st=$?
## STDOUT:
two
two
./two/mycmd
one
st=1
## END

#### hash listing, bash's order and hit counts
hash -r
hash -p /x/cat cat
hash -p /x/mkdir mkdir
hash -p /x/chmod chmod
hash
hash -l
## STDOUT:
hits	command
   0	/x/chmod
   0	/x/cat
   0	/x/mkdir
builtin hash -p /x/chmod chmod
builtin hash -p /x/cat cat
builtin hash -p /x/mkdir mkdir
## END

#### hash of a missing command, a builtin and a function
f() { :; }
hash echo f; echo st=$?
hash no_such_cmd 2>/dev/null; echo st=$?
hash -t 2>/dev/null; echo st=$?
## STDOUT:
st=0
st=1
st=1
## END

#### a remembered command that went away is not searched again
mkdir -p a b
PATH="$PWD/a:$PWD/b:$PATH"
printf 'echo b\n' > b/cmd2; chmod +x b/cmd2
cmd2
printf 'echo a\n' > a/cmd2; chmod +x a/cmd2
rm b/cmd2
cmd2 2>/dev/null; echo st=$?
## STDOUT:
b
st=127
## END

#### a script earlier on PATH hides a command; command -p finds it
mkdir -p bin
printf 'echo wrong\n' > bin/tr; chmod +x bin/tr
PATH="$PWD/bin:$PATH"
echo aaa | tr a b
echo aaa | command -p tr a b
## STDOUT:
wrong
bbb
## END

#### commands are not found when PATH lacks them
PATH=/nonexistent
cat </dev/null 2>/dev/null; echo st=$?
command -p cat </dev/null; echo st=$?
## STDOUT:
st=127
st=0
## END

#### builtin refuses commands that are not shell builtins
builtin ls 2>/dev/null; echo st=$?
builtin echo hi
## STDOUT:
st=1
hi
## END

#### type -f skips functions; type reports hashed commands
ls() { :; }
type -f ls
unset -f ls
ls / >/dev/null
type ls
type -t ls
## STDOUT:
ls is /usr/bin/ls
ls is hashed (/usr/bin/ls)
file
## END

#### type -t finds a non-executable file when nothing else matches
mkdir -p ne; touch ne/nonexec
PATH="$PWD/ne:$PATH"
type -t nonexec; echo st=$?
type -a nonexec 2>/dev/null; echo st=$?
## STDOUT:
file
st=0
st=1
## END

#### type -a pwd lists the builtin and the files
PATH=/bin
type -a pwd
type -P pwd
## STDOUT:
pwd is a shell builtin
pwd is /bin/pwd
/bin/pwd
## END

#### pushd/popd/dirs usage and indexes
cd /tmp; mkdir -p dz/a dz/b
cd dz
pushd -z 2>/dev/null; echo st=$?
pushd . . 2>/dev/null; echo st=$?
dirs a 2>/dev/null; echo st=$?
popd zzz 2>/dev/null; echo st=$?
pushd a >/dev/null; pushd /tmp/dz/b >/dev/null
dirs -v
dirs +1; dirs -0
pushd +1
popd +1
popd -n
dirs +5 2>/dev/null; echo st=$?
## STDOUT:
st=2
st=1
st=2
st=2
 0  /tmp/dz/b
 1  /tmp/dz/a
 2  /tmp/dz
/tmp/dz/a
/tmp/dz
/tmp/dz/a /tmp/dz /tmp/dz/b
/tmp/dz/a /tmp/dz/b
/tmp/dz/a
st=1
## END

#### cd BAD/.. fails; OLDPWD is exported
cd nonexistent_ZZ/.. 2>/dev/null; echo st=$?
cd /; cd /tmp
env | grep '^OLDPWD='
## STDOUT:
st=1
OLDPWD=/
## END

#### a child shell starts in the physical directory without PWD
mkdir -p /tmp/pw/target; ln -sf /tmp/pw/target /tmp/pw/link
cd /tmp/pw/link
bash -c 'basename $(pwd)'
unset PWD
bash -c 'basename $(pwd)'
## STDOUT:
link
target
## END

#### getopts unsets OPTARG at the end
getopts c: opt -c10
getopts c: opt -c10
echo "$opt ${OPTARG-unset}"
## STDOUT:
? unset
## END

#### eval and source take no options
eval -z 2>/dev/null; echo st=$?
. -x 2>/dev/null; echo st=$?
eval -- echo ok
## STDOUT:
st=2
st=2
ok
## END

#### POSIX mode: special builtins, prefix assignments
set -o posix
foo=bar :
echo foo=$foo
x=42
x=tmp unset x
echo x=$x
eval() { echo func; }
echo not reached
## STDOUT:
foo=bar
x=42
## END
## status: 2

#### POSIX mode: special builtin found before a function
eval() { echo "func: $1"; }
eval 'echo before'
set -o posix
eval 'echo after'
## STDOUT:
func: echo before
after
## END

#### BASH_SOURCE of functions and FUNCNAME at the top of a sourced file
printf 'g() { echo "${BASH_SOURCE[*]}|${FUNCNAME[*]}"; }\necho "top:${FUNCNAME[*]}"\n' > src.sh
. ./src.sh
g
f() { echo "${BASH_SOURCE[*]}"; }
f
## STDOUT:
top:
./src.sh|g
environment
## END

#### arithmetic sees BASH_LINENO and FUNCNAME
check() {
  echo $((BASH_LINENO)) $((BASH_LINENO[0] + 1))
}
check
## STDOUT:
4 5
## END

#### set lists the computed arrays and BASH_EXECUTION_STRING
set | grep -E '^(BASH_LINENO|BASH_SOURCE|DIRSTACK)='
set | grep -c '^BASH_EXECUTION_STRING='
## STDOUT:
BASH_LINENO=()
BASH_SOURCE=()
DIRSTACK=()
1
## END

#### path errors other than a missing file are 126
touch plain
./plain/x 2>/dev/null; echo st=$?
./missing 2>/dev/null; echo st=$?
## STDOUT:
st=126
st=127
## END

#### interactive shell drops only the command line on set -u errors
bash -i -c 'set -u; echo before; echo $x; echo after
echo line2' 2>/dev/null
echo st=$?
## STDOUT:
before
line2
st=0
## END

#### reading from a directory fails at the read, not at the redirection
mkdir -p d
mapfile x < d; echo st=$?
echo hi < d; echo st=$?
read y < d 2>/dev/null; echo st=$?
cat < d 2>/dev/null; echo st=$?
x=$(< d); echo "st=$? [$x]"
## STDOUT:
st=0
hi
st=0
st=1
st=1
st=0 []
## END

#### type reports aliases only when they expand
alias ll=ls
type ll 2>/dev/null; echo st=$?
shopt -s expand_aliases
type ll; command -v ll
## STDOUT:
st=1
ll is aliased to `ls'
alias ll='ls'
## END
