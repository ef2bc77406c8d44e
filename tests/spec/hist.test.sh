#### history -r reads a file; the list numbers its entries
printf 'cmd a\ncmd b\ncmd c\n' > hf
HISTFILE=hf
history -r
history
history 2
## STDOUT:
    1  cmd a
    2  cmd b
    3  cmd c
    2  cmd b
    3  cmd c
## END

#### history -d removes one entry, a range, or one counted from the end
printf 'c%s\n' 1 2 3 4 5 6 > hf
history -r hf
history -d 2
history -d 2-3
history -d -1
history
history -d 0; echo status=$?
history -d x; echo status=$?
## STDOUT:
    1  c1
    2  c5
status=1
status=1
## END

#### HISTSIZE trims the oldest entries; numbers go on
printf 'c%s\n' 1 2 3 4 5 > hf
history -r hf
HISTSIZE=2
history
history -s next
history
## STDOUT:
    3  c4
    4  c5
    4  c5
    5  next
## END

#### HISTFILESIZE cuts the history file at once
printf 'c%s\n' 1 2 3 4 5 > hf
HISTFILE=hf
HISTFILESIZE=2
cat hf
## STDOUT:
c4
c5
## END

#### history -c, -w and -a
printf 'old\n' > hf
HISTFILE=hf
history -c
history -s one
history -w
cat hf
history -s two
history -a
echo --
cat hf
## STDOUT:
one
--
one
one
two
## END

#### history usage errors
history -d
echo status=$?
history zz
echo status=$?
history -a -r
echo status=$?
## STDOUT:
status=2
status=1
status=1
## END

#### set -o history records each line read; \! counts them
set -o history
PS1='[\!]'
echo "${PS1@P}"
history -c
echo "${PS1@P}"
history
## STDOUT:
[2]
[1]
    1  echo "${PS1@P}"
    2  history
## END

#### history -s takes the place of the history -s line
set -o history
echo a
history -s replaced  words
history
## STDOUT:
a
    1  echo a
    2  replaced words
    3  history
## END

#### history -p expands events
printf 'echo one\necho two\n' > hf
history -r hf
history -p '!!' '!-2' '!zz' '!1'
echo status=$?
## STDOUT:
echo two
echo one
echo one
status=1
## END

#### fc -l lists the last commands, with ranges, -n and -r
printf 'echo %s\n' 1 2 3 4 > hf
history -r hf
fc -l
fc -l 2 3
fc -ln -2
fc -lr 1 2
fc -l echo
## STDOUT:
1	 echo 1
2	 echo 2
3	 echo 3
4	 echo 4
2	 echo 2
3	 echo 3
	 echo 3
	 echo 4
2	 echo 2
1	 echo 1
4	 echo 4
## END

#### fc -l without history prints nothing
fc -l
echo status=$?
fc -l 0 1 2
echo status=$?
## STDOUT:
status=0
status=0
## END

#### fc -s re-runs a command with a substitution, in place of itself
printf 'echo hi there\n' > hf
history -r hf
fc -s hi=ho 2>/dev/null
fc -s there=you echo 2>/dev/null
history
## STDOUT:
ho there
ho you
    1  echo ho you
## END

#### fc -e runs an editor on the commands, then runs them
printf 'echo aaa\n' > hf
history -r hf
fc -e 'sed -i s/a/b/g' 1 2>/dev/null
echo status=$?
## STDOUT:
bbb
status=0
## END

#### fc -s without history fails
fc -s
echo status=$?
## STDOUT:
status=1
## END

#### an interactive shell from a pipe runs PROMPT_COMMAND and records history
rm -f myhist
export HISTFILE=myhist PS1=''
printf 'PROMPT_COMMAND="echo P"\necho one\nhistory\n' | bash --norc -i 2>/dev/null
echo --
cat myhist
## STDOUT:
P
one
P
    1  PROMPT_COMMAND="echo P"
    2  echo one
    3  history
P
--
PROMPT_COMMAND="echo P"
echo one
history
## END

#### an interactive shell joins a command's lines into one history entry
export HISTFILE=/dev/null PS1=''
printf 'for i in 1 2; do\necho $i\ndone\nhistory\n' | bash --norc -i 2>/dev/null
## STDOUT:
1
2
    1  for i in 1 2; do echo $i; done
    2  history
## END

#### commands of an interactive shell read the lines after their own
export HISTFILE=/dev/null PS1=''
printf 'read x\nfrom stdin\necho "got $x"\n' | bash --norc -i 2>/dev/null
## STDOUT:
got from stdin
## END

#### bash -i reads ~/.bashrc, --rcfile replaces it, --norc skips it
echo 'echo home rc' > ~/.bashrc
echo 'echo other rc' > rc2
bash -i -c 'echo main' 2>/dev/null
bash --rcfile rc2 -i -c 'echo main' 2>/dev/null
bash --norc -i -c 'echo main' 2>/dev/null
bash -c 'echo not interactive'
rm ~/.bashrc
## STDOUT:
home rc
main
other rc
main
main
not interactive
## END

#### exit in an rc file ends the shell
echo 'exit 7' > rc
bash --rcfile rc -i -c 'echo never' 2>/dev/null
echo status=$?
## STDOUT:
status=7
## END

#### $- tells how the shell was started
echo 'echo $-' > d.sh
bash -c 'echo $-'
echo 'echo $-' | bash
bash d.sh
bash -i -c 'echo $-' 2>/dev/null
echo 'echo $-' | PS1= bash --norc -i 2>/dev/null
## STDOUT:
hBc
hBs
hB
hiBHc
hiBHs
## END

#### command line: invalid options, --help, - and --, -c quirks
bash --nope -c 'echo x' 2>/dev/null; echo status=$?
bash -c -z 'echo x' 2>/dev/null; echo status=$?
bash --help | grep -q . && echo help
bash -c - 'echo dash'
bash -c '' 'echo zero'; echo status=$?
bash -c -- -- 2>/dev/null; echo status=$?
## STDOUT:
status=2
status=2
help
dash
status=0
status=127
## END

#### shopt histappend is kept
shopt -s histappend; shopt -p histappend
shopt -u histappend; shopt -p histappend
echo status=$?
## STDOUT:
shopt -s histappend
shopt -u histappend
status=1
## END

#### tty: standard input is not a terminal
tty; echo status=$?
tty -s; echo status=$?
## STDOUT:
not a tty
status=1
status=1
## END

#### \# numbers the commands a shell reads; a -c string has none
PS1='[\#]'
echo "${PS1@P}"
printf 'PS1="<\\#>"\necho "${PS1@P}"\necho "${PS1@P}"\n' | bash
printf 'PS1="<\\#>"\necho "${PS1@P}"\n' | bash --norc -i 2>&1 | grep '^<'
## STDOUT:
[0]
<2>
<3>
<2>echo "${PS1@P}"
<2>
<3>exit
## END

#### a syntax error in a sourced file names the file
printf 'echo ok\nfoo >\n' > bad.sh
. ./bad.sh 2>err.txt
echo status=$?
cat err.txt
## STDOUT:
ok
status=2
./bad.sh: line 2: syntax error near unexpected token `newline'
./bad.sh: line 2: `foo >'
## END

#### an interactive shell expands history events in the lines it reads
export HISTFILE=/dev/null PS1=''
printf 'echo one two\necho !$\n!!:p\necho "a!zz"\n^two^three\necho !-3:s/one/1/\ntouch /tmp/a.tar.gz\necho !$:t !$:r !*\necho ${!HOME*} $! [!a] x!\n' | bash --norc -i 2>/dev/null
## STDOUT:
one two
two
three
a.tar.gz /tmp/a.tar /tmp/a.tar.gz
HOME [!a] x!
## END

#### history -p expands quoted words as well
set -o history
echo 'a b' c
history -p '!!' '!$' '!^'
## STDOUT:
a b c
echo 'a b' c
c
'a b'
## END

#### an error that ends a script only ends the command line in bash -i
export HISTFILE=/dev/null PS1=''
printf 'echo ${x?oops}; echo same-line\necho st=$?\nf() { echo ${y?fn}; echo in-f; }; f; echo after-f\nset -u; echo $zz; echo same2\necho next\n' | bash --norc -i 2>/dev/null
echo status=$?
## STDOUT:
st=1
next
status=0
## END
