# Messages quote names and values as GNU's tools do in the sandbox's
# locale: quote() gives ‘name’ under a UTF-8 locale and 'name' under C
# (apostrophe escaped, control characters and stray bytes as escapes);
# what GNU quotes with quoteaf (most file names) stays in ASCII quotes.
# Expected outputs recorded from GNU coreutils 9.1, findutils 4.9.0.

#### mkdir quotes the directory it cannot create and a bad mode for the locale
for l in C C.UTF-8; do
  export LC_ALL=$l
  mkdir /nope/x 2>&1; echo "[$?]"
  mkdir -m zz d 2>&1; echo "[$?]"
  mkdir -m 7777777 d 2>&1; echo "[$?]"
done
## STDOUT:
mkdir: cannot create directory '/nope/x': No such file or directory
[1]
mkdir: invalid mode 'zz'
[1]
mkdir: invalid mode '7777777'
[1]
mkdir: cannot create directory ‘/nope/x’: No such file or directory
[1]
mkdir: invalid mode ‘zz’
[1]
mkdir: invalid mode ‘7777777’
[1]
## END

#### chmod quotes a bad mode and the operand before a missing one; not a file name
for l in C C.UTF-8; do
  export LC_ALL=$l
  chmod 644 2>&1; echo "[$?]"
  chmod zz f 2>&1; echo "[$?]"
  chmod 644 /nope 2>&1; echo "[$?]"
done
## STDOUT:
chmod: missing operand after '644'
Try 'chmod --help' for more information.
[1]
chmod: invalid mode: 'zz'
Try 'chmod --help' for more information.
[1]
chmod: cannot access '/nope': No such file or directory
[1]
chmod: missing operand after ‘644’
Try 'chmod --help' for more information.
[1]
chmod: invalid mode: ‘zz’
Try 'chmod --help' for more information.
[1]
chmod: cannot access '/nope': No such file or directory
[1]
## END

#### ls quotes a bad width and an argmatch value; a file name stays ASCII
for l in C C.UTF-8; do
  export LC_ALL=$l
  ls -w zz 2>&1; echo "[$?]"
  ls /nope 2>&1; echo "[$?]"
  ls --indicator-style=x 2>&1; echo "[$?]"
  ls --classify=x 2>&1; echo "[$?]"
done
## STDOUT:
ls: invalid line width: 'zz'
[2]
ls: cannot access '/nope': No such file or directory
[2]
ls: invalid argument 'x' for '--indicator-style'
Valid arguments are:
  - 'none'
  - 'slash'
  - 'file-type'
  - 'classify'
Try 'ls --help' for more information.
[1]
ls: invalid argument 'x' for '--classify'
Valid arguments are:
  - 'always', 'yes', 'force'
  - 'never', 'no', 'none'
  - 'auto', 'tty', 'if-tty'
Try 'ls --help' for more information.
[1]
ls: invalid line width: ‘zz’
[2]
ls: cannot access '/nope': No such file or directory
[2]
ls: invalid argument ‘x’ for ‘--indicator-style’
Valid arguments are:
  - ‘none’
  - ‘slash’
  - ‘file-type’
  - ‘classify’
Try 'ls --help' for more information.
[1]
ls: invalid argument ‘x’ for ‘--classify’
Valid arguments are:
  - ‘always’, ‘yes’, ‘force’
  - ‘never’, ‘no’, ‘none’
  - ‘auto’, ‘tty’, ‘if-tty’
Try 'ls --help' for more information.
[1]
## END

#### touch and rm: bad date format, argmatch lists; file names ASCII
for l in C C.UTF-8; do
  export LC_ALL=$l
  touch -d zzz f 2>&1; echo "[$?]"
  touch -t zzz f 2>&1; echo "[$?]"
  touch --time=zz f 2>&1; echo "[$?]"
  rm /nope 2>&1; echo "[$?]"
  rm --interactive=zz a 2>&1; echo "[$?]"
  cp /nope x 2>&1; echo "[$?]"
  mv /nope x 2>&1; echo "[$?]"
done
## STDOUT:
touch: invalid date format 'zzz'
[1]
touch: invalid date format 'zzz'
[1]
touch: invalid argument 'zz' for '--time'
Valid arguments are:
  - 'atime', 'access', 'use'
  - 'mtime', 'modify'
Try 'touch --help' for more information.
[1]
rm: cannot remove '/nope': No such file or directory
[1]
rm: invalid argument 'zz' for '--interactive'
Valid arguments are:
  - 'never', 'no', 'none'
  - 'once'
  - 'always', 'yes'
Try 'rm --help' for more information.
[1]
cp: cannot stat '/nope': No such file or directory
[1]
mv: cannot stat '/nope': No such file or directory
[1]
touch: invalid date format ‘zzz’
[1]
touch: invalid date format ‘zzz’
[1]
touch: invalid argument ‘zz’ for ‘--time’
Valid arguments are:
  - ‘atime’, ‘access’, ‘use’
  - ‘mtime’, ‘modify’
Try 'touch --help' for more information.
[1]
rm: cannot remove '/nope': No such file or directory
[1]
rm: invalid argument ‘zz’ for ‘--interactive’
Valid arguments are:
  - ‘never’, ‘no’, ‘none’
  - ‘once’
  - ‘always’, ‘yes’
Try 'rm --help' for more information.
[1]
cp: cannot stat '/nope': No such file or directory
[1]
mv: cannot stat '/nope': No such file or directory
[1]
## END

#### head and tail quote bad counts; file names ASCII
for l in C C.UTF-8; do
  export LC_ALL=$l
  head -n x 2>&1; echo "[$?]"
  head -c x 2>&1; echo "[$?]"
  head --bytes=zz 2>&1; echo "[$?]"
  tail -n 1x 2>&1; echo "[$?]"
  tail -c x 2>&1; echo "[$?]"
  head /nope 2>&1; echo "[$?]"
  tail /nope 2>&1; echo "[$?]"
done
## STDOUT:
head: invalid number of lines: 'x'
[1]
head: invalid number of bytes: 'x'
[1]
head: invalid number of bytes: 'zz'
[1]
tail: invalid number of lines: '1x'
[1]
tail: invalid number of bytes: 'x'
[1]
head: cannot open '/nope' for reading: No such file or directory
[1]
tail: cannot open '/nope' for reading: No such file or directory
[1]
head: invalid number of lines: ‘x’
[1]
head: invalid number of bytes: ‘x’
[1]
head: invalid number of bytes: ‘zz’
[1]
tail: invalid number of lines: ‘1x’
[1]
tail: invalid number of bytes: ‘x’
[1]
head: cannot open '/nope' for reading: No such file or directory
[1]
tail: cannot open '/nope' for reading: No such file or directory
[1]
## END

#### tail checks -s, --pid and --max-unchanged-stats
for l in C C.UTF-8; do
  export LC_ALL=$l
  tail -s x /dev/null 2>&1; echo "[$?]"
  tail -s -1 /dev/null 2>&1; echo "[$?]"
  tail --pid=x /dev/null 2>&1; echo "[$?]"
  tail --pid=99999999999 /dev/null 2>&1; echo "[$?]"
  tail --max-unchanged-stats=x /dev/null 2>&1; echo "[$?]"
  tail --pid=1 /dev/null 2>&1; echo "[$?]"
done
## STDOUT:
tail: invalid number of seconds: 'x'
[1]
tail: invalid number of seconds: '-1'
[1]
tail: invalid PID: 'x'
[1]
tail: invalid PID: '99999999999': Value too large for defined data type
[1]
tail: invalid maximum number of unchanged stats between opens: 'x'
[1]
tail: warning: PID ignored; --pid=PID is useful only when following
[0]
tail: invalid number of seconds: ‘x’
[1]
tail: invalid number of seconds: ‘-1’
[1]
tail: invalid PID: ‘x’
[1]
tail: invalid PID: ‘99999999999’: Value too large for defined data type
[1]
tail: invalid maximum number of unchanged stats between opens: ‘x’
[1]
tail: warning: PID ignored; --pid=PID is useful only when following
[0]
## END

#### seq quotes its operands and formats
for l in C C.UTF-8; do
  export LC_ALL=$l
  seq 1 x 2>&1; echo "[$?]"
  seq 1 nan 2>&1; echo "[$?]"
  seq -f zz 1 2>&1; echo "[$?]"
  seq -f %d%d 1 2>&1; echo "[$?]"
  seq -f %z 1 2>&1; echo "[$?]"
  seq -f %g%g 1 2>&1; echo "[$?]"
  seq -f %g% 1 2>&1; echo "[$?]"
  seq 1 0 2 2>&1; echo "[$?]"
  seq 1 2 3 4 2>&1; echo "[$?]"
done
## STDOUT:
seq: invalid floating point argument: 'x'
Try 'seq --help' for more information.
[1]
seq: invalid 'not-a-number' argument: 'nan'
Try 'seq --help' for more information.
[1]
seq: format 'zz' has no % directive
[1]
seq: format '%d%d' has unknown %d directive
[1]
seq: format '%z' has unknown %z directive
[1]
seq: format '%g%g' has too many % directives
[1]
seq: format '%g%' has too many % directives
[1]
seq: invalid Zero increment value: '0'
Try 'seq --help' for more information.
[1]
seq: extra operand '4'
Try 'seq --help' for more information.
[1]
seq: invalid floating point argument: ‘x’
Try 'seq --help' for more information.
[1]
seq: invalid ‘not-a-number’ argument: ‘nan’
Try 'seq --help' for more information.
[1]
seq: format ‘zz’ has no % directive
[1]
seq: format ‘%d%d’ has unknown %d directive
[1]
seq: format ‘%z’ has unknown %z directive
[1]
seq: format ‘%g%g’ has too many % directives
[1]
seq: format ‘%g%’ has too many % directives
[1]
seq: invalid Zero increment value: ‘0’
Try 'seq --help' for more information.
[1]
seq: extra operand ‘4’
Try 'seq --help' for more information.
[1]
## END

#### sort quotes keys, argmatch values and tabs; file names ASCII
for l in C C.UTF-8; do
  export LC_ALL=$l
  sort -k 0 2>&1; echo "[$?]"
  sort -k 1.x 2>&1; echo "[$?]"
  sort --sort=zz 2>&1; echo "[$?]"
  sort --check=zz 2>&1; echo "[$?]"
  sort -t ab 2>&1; echo "[$?]"
  sort -c a b 2>&1; echo "[$?]"
  sort --files0-from=/nope 2>&1; echo "[$?]"
  sort --files0-from=- a 2>&1; echo "[$?]"
done
## STDOUT:
sort: field number is zero: invalid field specification '0'
[2]
sort: invalid number after '.': invalid count at start of 'x'
[2]
sort: invalid argument 'zz' for '--sort'
Valid arguments are:
  - 'general-numeric'
  - 'human-numeric'
  - 'month'
  - 'numeric'
  - 'random'
  - 'version'
Try 'sort --help' for more information.
[1]
sort: invalid argument 'zz' for '--check'
Valid arguments are:
  - 'quiet', 'silent'
  - 'diagnose-first'
Try 'sort --help' for more information.
[1]
sort: multi-character tab 'ab'
[2]
sort: extra operand 'b' not allowed with -c
[2]
sort: open failed: /nope: No such file or directory
[2]
sort: extra operand 'a'
file operands cannot be combined with --files0-from
Try 'sort --help' for more information.
[2]
sort: field number is zero: invalid field specification ‘0’
[2]
sort: invalid number after '.': invalid count at start of ‘x’
[2]
sort: invalid argument ‘zz’ for ‘--sort’
Valid arguments are:
  - ‘general-numeric’
  - ‘human-numeric’
  - ‘month’
  - ‘numeric’
  - ‘random’
  - ‘version’
Try 'sort --help' for more information.
[1]
sort: invalid argument ‘zz’ for ‘--check’
Valid arguments are:
  - ‘quiet’, ‘silent’
  - ‘diagnose-first’
Try 'sort --help' for more information.
[1]
sort: multi-character tab ‘ab’
[2]
sort: extra operand 'b' not allowed with -c
[2]
sort: open failed: /nope: No such file or directory
[2]
sort: extra operand 'a'
file operands cannot be combined with --files0-from
Try 'sort --help' for more information.
[2]
## END

#### cut quotes the list from the first bad character
for l in C C.UTF-8; do
  export LC_ALL=$l
  cut -f x 2>&1; echo "[$?]"
  cut -f 1-x 2>&1; echo "[$?]"
  cut -f 1x,2 2>&1; echo "[$?]"
  cut -b x 2>&1; echo "[$?]"
  cut -c 1-2-3 2>&1; echo "[$?]"
  cut -f 1--2 2>&1; echo "[$?]"
  cut -f '' 2>&1; echo "[$?]"
  cut -f -x 2>&1; echo "[$?]"
done
## STDOUT:
cut: invalid field value 'x'
Try 'cut --help' for more information.
[1]
cut: invalid field value 'x'
Try 'cut --help' for more information.
[1]
cut: invalid field value 'x,2'
Try 'cut --help' for more information.
[1]
cut: invalid byte/character position 'x'
Try 'cut --help' for more information.
[1]
cut: invalid byte or character range
Try 'cut --help' for more information.
[1]
cut: invalid field range
Try 'cut --help' for more information.
[1]
cut: fields are numbered from 1
Try 'cut --help' for more information.
[1]
cut: invalid field value 'x'
Try 'cut --help' for more information.
[1]
cut: invalid field value ‘x’
Try 'cut --help' for more information.
[1]
cut: invalid field value ‘x’
Try 'cut --help' for more information.
[1]
cut: invalid field value ‘x,2’
Try 'cut --help' for more information.
[1]
cut: invalid byte/character position ‘x’
Try 'cut --help' for more information.
[1]
cut: invalid byte or character range
Try 'cut --help' for more information.
[1]
cut: invalid field range
Try 'cut --help' for more information.
[1]
cut: fields are numbered from 1
Try 'cut --help' for more information.
[1]
cut: invalid field value ‘x’
Try 'cut --help' for more information.
[1]
## END

#### tr quotes a bad class and a bad repeat count
for l in C C.UTF-8; do
  export LC_ALL=$l
  tr '[:foo:]' x 2>&1; echo "[$?]"
  tr a '[a*x]' 2>&1; echo "[$?]"
  tr '[a*x]' b 2>&1; echo "[$?]"
  tr z-a x 2>&1; echo "[$?]"
done
## STDOUT:
tr: invalid character class 'foo'
[1]
tr: invalid repeat count 'x' in [c*n] construct
[1]
tr: invalid repeat count 'x' in [c*n] construct
[1]
tr: range-endpoints of 'z-a' are in reverse collating sequence order
[1]
tr: invalid character class ‘foo’
[1]
tr: invalid repeat count ‘x’ in [c*n] construct
[1]
tr: invalid repeat count ‘x’ in [c*n] construct
[1]
tr: range-endpoints of 'z-a' are in reverse collating sequence order
[1]
## END

#### od: the type string is quoted, size arguments and radix are not
for l in C C.UTF-8; do
  export LC_ALL=$l
  od -t z 2>&1; echo "[$?]"
  od -w x /dev/null 2>&1; echo "[$?]"
  od --width=x /dev/null 2>&1; echo "[$?]"
  od -j x /dev/null 2>&1; echo "[$?]"
  od -N x /dev/null 2>&1; echo "[$?]"
  od --skip-bytes=x /dev/null 2>&1; echo "[$?]"
  od -A zz /dev/null 2>&1; echo "[$?]"
done
## STDOUT:
od: invalid character 'z' in type string 'z'
[1]
od: x: No such file or directory
0000000
[1]
od: invalid --width argument 'x'
[1]
od: invalid -j argument 'x'
[1]
od: invalid -N argument 'x'
[1]
od: invalid --skip-bytes argument 'x'
[1]
od: invalid output address radix 'z'; it must be one character from [doxn]
[1]
od: invalid character 'z' in type string ‘z’
[1]
od: x: No such file or directory
0000000
[1]
od: invalid --width argument 'x'
[1]
od: invalid -j argument 'x'
[1]
od: invalid -N argument 'x'
[1]
od: invalid --skip-bytes argument 'x'
[1]
od: invalid output address radix 'z'; it must be one character from [doxn]
[1]
## END

#### tee, uniq and date list valid arguments quoted for the locale
for l in C C.UTF-8; do
  export LC_ALL=$l
  tee --output-error=zz 2>&1; echo "[$?]"
  tee --output-error=w 2>&1; echo "[$?]"
  uniq --group=zz 2>&1; echo "[$?]"
  uniq --all-repeated=x 2>&1; echo "[$?]"
  date --iso-8601=zz 2>&1; echo "[$?]"
done
## STDOUT:
tee: invalid argument 'zz' for '--output-error'
Valid arguments are:
  - 'warn'
  - 'warn-nopipe'
  - 'exit'
  - 'exit-nopipe'
Try 'tee --help' for more information.
[1]
tee: ambiguous argument 'w' for '--output-error'
Valid arguments are:
  - 'warn'
  - 'warn-nopipe'
  - 'exit'
  - 'exit-nopipe'
Try 'tee --help' for more information.
[1]
uniq: invalid argument 'zz' for '--group'
Valid arguments are:
  - 'prepend'
  - 'append'
  - 'separate'
  - 'both'
Try 'uniq --help' for more information.
[1]
uniq: invalid argument 'x' for '--all-repeated'
Valid arguments are:
  - 'none'
  - 'prepend'
  - 'separate'
Try 'uniq --help' for more information.
[1]
date: invalid argument 'zz' for '--iso-8601'
Valid arguments are:
  - 'hours'
  - 'minutes'
  - 'date'
  - 'seconds'
  - 'ns'
Try 'date --help' for more information.
[1]
tee: invalid argument ‘zz’ for ‘--output-error’
Valid arguments are:
  - ‘warn’
  - ‘warn-nopipe’
  - ‘exit’
  - ‘exit-nopipe’
Try 'tee --help' for more information.
[1]
tee: ambiguous argument ‘w’ for ‘--output-error’
Valid arguments are:
  - ‘warn’
  - ‘warn-nopipe’
  - ‘exit’
  - ‘exit-nopipe’
Try 'tee --help' for more information.
[1]
uniq: invalid argument ‘zz’ for ‘--group’
Valid arguments are:
  - ‘prepend’
  - ‘append’
  - ‘separate’
  - ‘both’
Try 'uniq --help' for more information.
[1]
uniq: invalid argument ‘x’ for ‘--all-repeated’
Valid arguments are:
  - ‘none’
  - ‘prepend’
  - ‘separate’
Try 'uniq --help' for more information.
[1]
date: invalid argument ‘zz’ for ‘--iso-8601’
Valid arguments are:
  - ‘hours’
  - ‘minutes’
  - ‘date’
  - ‘seconds’
  - ‘ns’
Try 'date --help' for more information.
[1]
## END

#### date, sleep and timeout quote bad values
for l in C C.UTF-8; do
  export LC_ALL=$l
  date -d zz 2>&1; echo "[$?]"
  sleep x 2>&1; echo "[$?]"
  timeout x true 2>&1; echo "[$?]"
  timeout -s FOO 1 true 2>&1; echo "[$?]"
  timeout 1 2>&1; echo "[$?]"
done
## STDOUT:
date: invalid date 'zz'
[1]
sleep: invalid time interval 'x'
Try 'sleep --help' for more information.
[1]
timeout: invalid time interval 'x'
Try 'timeout --help' for more information.
[125]
timeout: 'FOO': invalid signal
Try 'timeout --help' for more information.
[125]
Try 'timeout --help' for more information.
[125]
date: invalid date ‘zz’
[1]
sleep: invalid time interval ‘x’
Try 'sleep --help' for more information.
[1]
timeout: invalid time interval ‘x’
Try 'timeout --help' for more information.
[125]
timeout: ‘FOO’: invalid signal
Try 'timeout --help' for more information.
[125]
Try 'timeout --help' for more information.
[125]
## END

#### env, id, xargs, basename and mktemp
for l in C C.UTF-8; do
  export LC_ALL=$l
  env -u x=y 2>&1; echo "[$?]"
  env -C /nope true 2>&1; echo "[$?]"
  id nosuchuser 2>&1; echo "[$?]"
  xargs -a /nope true 2>&1; echo "[$?]"
  basename a b c 2>&1; echo "[$?]"
  mktemp -t zz 2>&1; echo "[$?]"
done
## STDOUT:
env: cannot unset 'x=y': Invalid argument
[125]
env: cannot change directory to '/nope': No such file or directory
[125]
id: 'nosuchuser': no such user
[1]
xargs: Cannot open input file '/nope': No such file or directory
[1]
basename: extra operand 'c'
Try 'basename --help' for more information.
[1]
mktemp: too few X's in template 'zz'
[1]
env: cannot unset ‘x=y’: Invalid argument
[125]
env: cannot change directory to '/nope': No such file or directory
[125]
id: ‘nosuchuser’: no such user
[1]
xargs: Cannot open input file ‘/nope’: No such file or directory
[1]
basename: extra operand ‘c’
Try 'basename --help' for more information.
[1]
mktemp: too few X's in template ‘zz’
[1]
## END

#### find quotes file names and values with quote()
for l in C C.UTF-8; do
  export LC_ALL=$l
  find /nope 2>&1; echo "[$?]"
  find . -perm zz 2>&1; echo "[$?]"
  find . -user nosuchuser 2>&1; echo "[$?]"
  find . -group nosuchgroup 2>&1; echo "[$?]"
  find . -maxdepth zz 2>&1; echo "[$?]"
  find . -newermt zz 2>&1; echo "[$?]"
  find . -newer /nope 2>&1; echo "[$?]"
  find . -regextype zz 2>&1; echo "[$?]"
done
## STDOUT:
find: '/nope': No such file or directory
[1]
find: invalid mode 'zz'
[1]
find: 'nosuchuser' is not the name of a known user
[1]
find: 'nosuchgroup' is not the name of an existing group
[1]
find: Expected a positive decimal integer argument to -maxdepth, but got 'zz'
[1]
find: I cannot figure out how to interpret 'zz' as a date or time
[1]
find: '/nope': No such file or directory
[1]
find: Unknown regular expression type 'zz'; valid types are 'findutils-default', 'ed', 'emacs', 'gnu-awk', 'grep', 'posix-awk', 'awk', 'posix-basic', 'posix-egrep', 'egrep', 'posix-extended', 'posix-minimal-basic', 'sed'.
[1]
find: ‘/nope’: No such file or directory
[1]
find: invalid mode ‘zz’
[1]
find: ‘nosuchuser’ is not the name of a known user
[1]
find: ‘nosuchgroup’ is not the name of an existing group
[1]
find: Expected a positive decimal integer argument to -maxdepth, but got ‘zz’
[1]
find: I cannot figure out how to interpret ‘zz’ as a date or time
[1]
find: ‘/nope’: No such file or directory
[1]
find: Unknown regular expression type ‘zz’; valid types are ‘findutils-default’, ‘ed’, ‘emacs’, ‘gnu-awk’, ‘grep’, ‘posix-awk’, ‘awk’, ‘posix-basic’, ‘posix-egrep’, ‘egrep’, ‘posix-extended’, ‘posix-minimal-basic’, ‘sed’.
[1]
## END

#### wc and tac name files in ASCII quotes in every locale
for l in C C.UTF-8; do
  export LC_ALL=$l
  wc --files0-from=/nope 2>&1; echo "[$?]"
  wc --files0-from=- a 2>&1; echo "[$?]"
  tac /nope 2>&1; echo "[$?]"
done
## STDOUT:
wc: cannot open '/nope' for reading: No such file or directory
[1]
wc: extra operand 'a'
file operands cannot be combined with --files0-from
Try 'wc --help' for more information.
[1]
tac: failed to open '/nope' for reading: No such file or directory
[1]
wc: cannot open '/nope' for reading: No such file or directory
[1]
wc: extra operand 'a'
file operands cannot be combined with --files0-from
Try 'wc --help' for more information.
[1]
tac: failed to open '/nope' for reading: No such file or directory
[1]
## END

#### apostrophes, control characters and non-ASCII bytes
for l in C C.UTF-8; do
  export LC_ALL=$l
  mkdir -m "a'b" d 2>&1; echo "[$?]"
  head -n "$(printf 'x\ty')" 2>&1; echo "[$?]"
  head -n 'a\b' 2>&1; echo "[$?]"
  seq 1 "$(printf '\303\251')" 2>&1; echo "[$?]"
  mkdir -m "$(printf '\377')" d 2>&1; echo "[$?]"
  ls /"a'b" 2>&1; echo "[$?]"
done
## STDOUT:
mkdir: invalid mode 'a\'b'
[1]
head: invalid number of lines: 'x\ty'
[1]
head: invalid number of lines: 'a\\b'
[1]
seq: invalid floating point argument: '\303\251'
Try 'seq --help' for more information.
[1]
mkdir: invalid mode '\377'
[1]
ls: cannot access "/a'b": No such file or directory
[2]
mkdir: invalid mode ‘a'b’
[1]
head: invalid number of lines: ‘x\ty’
[1]
head: invalid number of lines: ‘a\\b’
[1]
seq: invalid floating point argument: ‘é’
Try 'seq --help' for more information.
[1]
mkdir: invalid mode ‘\377’
[1]
ls: cannot access "/a'b": No such file or directory
[2]
## END

#### an unknown or ambiguous long option is named with its value
for l in C C.UTF-8; do
  export LC_ALL=$l
  uniq --foo=x 2>&1; echo "[$?]"
  sort --r=x 2>&1; echo "[$?]"
  ls --foo=x=y 2>&1; echo "[$?]"
done
## STDOUT:
uniq: unrecognized option '--foo=x'
Try 'uniq --help' for more information.
[1]
sort: option '--r=x' is ambiguous; possibilities: '--random-sort' '--random-source' '--reverse'
Try 'sort --help' for more information.
[2]
ls: unrecognized option '--foo=x=y'
Try 'ls --help' for more information.
[2]
uniq: unrecognized option '--foo=x'
Try 'uniq --help' for more information.
[1]
sort: option '--r=x' is ambiguous; possibilities: '--random-sort' '--random-source' '--reverse'
Try 'sort --help' for more information.
[2]
ls: unrecognized option '--foo=x=y'
Try 'ls --help' for more information.
[2]
## END

#### nl and fold name a count too large for its type
for l in C C.UTF-8; do
  export LC_ALL=$l
  nl -w 99999999999999999999 /dev/null 2>&1; echo "[$?]"
  nl -v 99999999999999999999999 /dev/null 2>&1; echo "[$?]"
  fold -w 99999999999999999999 /dev/null 2>&1; echo "[$?]"
  fold -w 0 /dev/null 2>&1; echo "[$?]"
done
## STDOUT:
nl: invalid line number field width: '99999999999999999999': Value too large for defined data type
[1]
nl: invalid starting line number: '99999999999999999999999': Value too large for defined data type
[1]
fold: invalid number of columns: '99999999999999999999': Value too large for defined data type
[1]
fold: invalid number of columns: '0': Numerical result out of range
[1]
nl: invalid line number field width: ‘99999999999999999999’: Value too large for defined data type
[1]
nl: invalid starting line number: ‘99999999999999999999999’: Value too large for defined data type
[1]
fold: invalid number of columns: ‘99999999999999999999’: Value too large for defined data type
[1]
fold: invalid number of columns: ‘0’: Numerical result out of range
[1]
## END

#### find quotes an odd file name for the locale
for l in C C.UTF-8; do
  export LC_ALL=$l
  find "/nope/a'b" 2>&1; echo "[$?]"
  find "$(printf '/nope/\tx')" 2>&1; echo "[$?]"
  find /nope/"$(printf '\303\251')" 2>&1; echo "[$?]"
done
## STDOUT:
find: '/nope/a\'b': No such file or directory
[1]
find: '/nope/\tx': No such file or directory
[1]
find: '/nope/\303\251': No such file or directory
[1]
find: ‘/nope/a'b’: No such file or directory
[1]
find: ‘/nope/\tx’: No such file or directory
[1]
find: ‘/nope/é’: No such file or directory
[1]
## END

#### a value after -w or -t that looks like -NUM is the option's value
for l in C C.UTF-8; do
  export LC_ALL=$l
  fold -w -5 /dev/null 2>&1; echo "[$?]"
  fold --wid -5 /dev/null 2>&1; echo "[$?]"
  expand -t -1 /dev/null 2>&1; echo "[$?]"
  expand --tabs -1 /dev/null 2>&1; echo "[$?]"
  printf 'a\tb\n' | expand -2,4 2>&1; echo "[$?]"
done
## STDOUT:
fold: invalid number of columns: '-5'
[1]
fold: invalid number of columns: '-5'
[1]
expand: tab size contains invalid character(s): '-1'
[1]
expand: tab size contains invalid character(s): '-1'
[1]
a b
[0]
fold: invalid number of columns: ‘-5’
[1]
fold: invalid number of columns: ‘-5’
[1]
expand: tab size contains invalid character(s): ‘-1’
[1]
expand: tab size contains invalid character(s): ‘-1’
[1]
a b
[0]
## END

#### ls checks the WHEN of --color and --classify as argmatch does
for l in C C.UTF-8; do
  export LC_ALL=$l
  ls --color=x 2>&1; echo "[$?]"
  ls --color=a 2>&1; echo "[$?]"
  ls --color= 2>&1; echo "[$?]"
  ls --color=nev /nope 2>&1; echo "[$?]"
  ls --classify=x 2>&1; echo "[$?]"
  ls --classify=a 2>&1; echo "[$?]"
done
## STDOUT:
ls: invalid argument 'x' for '--color'
Valid arguments are:
  - 'always', 'yes', 'force'
  - 'never', 'no', 'none'
  - 'auto', 'tty', 'if-tty'
Try 'ls --help' for more information.
[1]
ls: ambiguous argument 'a' for '--color'
Valid arguments are:
  - 'always', 'yes', 'force'
  - 'never', 'no', 'none'
  - 'auto', 'tty', 'if-tty'
Try 'ls --help' for more information.
[1]
ls: ambiguous argument '' for '--color'
Valid arguments are:
  - 'always', 'yes', 'force'
  - 'never', 'no', 'none'
  - 'auto', 'tty', 'if-tty'
Try 'ls --help' for more information.
[1]
ls: cannot access '/nope': No such file or directory
[2]
ls: invalid argument 'x' for '--classify'
Valid arguments are:
  - 'always', 'yes', 'force'
  - 'never', 'no', 'none'
  - 'auto', 'tty', 'if-tty'
Try 'ls --help' for more information.
[1]
ls: ambiguous argument 'a' for '--classify'
Valid arguments are:
  - 'always', 'yes', 'force'
  - 'never', 'no', 'none'
  - 'auto', 'tty', 'if-tty'
Try 'ls --help' for more information.
[1]
ls: invalid argument ‘x’ for ‘--color’
Valid arguments are:
  - ‘always’, ‘yes’, ‘force’
  - ‘never’, ‘no’, ‘none’
  - ‘auto’, ‘tty’, ‘if-tty’
Try 'ls --help' for more information.
[1]
ls: ambiguous argument ‘a’ for ‘--color’
Valid arguments are:
  - ‘always’, ‘yes’, ‘force’
  - ‘never’, ‘no’, ‘none’
  - ‘auto’, ‘tty’, ‘if-tty’
Try 'ls --help' for more information.
[1]
ls: ambiguous argument ‘’ for ‘--color’
Valid arguments are:
  - ‘always’, ‘yes’, ‘force’
  - ‘never’, ‘no’, ‘none’
  - ‘auto’, ‘tty’, ‘if-tty’
Try 'ls --help' for more information.
[1]
ls: cannot access '/nope': No such file or directory
[2]
ls: invalid argument ‘x’ for ‘--classify’
Valid arguments are:
  - ‘always’, ‘yes’, ‘force’
  - ‘never’, ‘no’, ‘none’
  - ‘auto’, ‘tty’, ‘if-tty’
Try 'ls --help' for more information.
[1]
ls: ambiguous argument ‘a’ for ‘--classify’
Valid arguments are:
  - ‘always’, ‘yes’, ‘force’
  - ‘never’, ‘no’, ‘none’
  - ‘auto’, ‘tty’, ‘if-tty’
Try 'ls --help' for more information.
[1]
## END

#### ln words a bad -t target as GNU ln does; cp and mv theirs
for l in C C.UTF-8; do
  export LC_ALL=$l
  touch fz 2>&1; echo "[$?]"
  ln -t /nope a 2>&1; echo "[$?]"
  ln -t fz a 2>&1; echo "[$?]"
  cp -t /nope a 2>&1; echo "[$?]"
  cp -t fz a 2>&1; echo "[$?]"
  mv -t fz a 2>&1; echo "[$?]"
done
## STDOUT:
[0]
ln: failed to access '/nope': No such file or directory
[1]
ln: target 'fz' is not a directory
[1]
cp: target directory '/nope': No such file or directory
[1]
cp: target directory 'fz': Not a directory
[1]
mv: target directory 'fz': Not a directory
[1]
[0]
ln: failed to access '/nope': No such file or directory
[1]
ln: target 'fz' is not a directory
[1]
cp: target directory '/nope': No such file or directory
[1]
cp: target directory 'fz': Not a directory
[1]
mv: target directory 'fz': Not a directory
[1]
## END

#### mktemp refuses a suffix after the X's that holds a slash
for l in C C.UTF-8; do
  export LC_ALL=$l
  mktemp -u a/XXX/b 2>&1; echo "[$?]"
  mktemp -u a/b 2>&1; echo "[$?]"
  mktemp -u --suffix=x/y XXX 2>&1; echo "[$?]"
done
## STDOUT:
mktemp: invalid suffix '/b', contains directory separator
[1]
mktemp: too few X's in template 'a/b'
[1]
mktemp: invalid suffix 'x/y', contains directory separator
[1]
mktemp: invalid suffix ‘/b’, contains directory separator
[1]
mktemp: too few X's in template ‘a/b’
[1]
mktemp: invalid suffix ‘x/y’, contains directory separator
[1]
## END

#### od warns about a width that is not a multiple of the types' sizes
for l in C C.UTF-8; do
  export LC_ALL=$l
  echo abcdef | od -w0 2>&1; echo "[$?]"
  echo abcdef | od -w3 -t x2 2>&1; echo "[$?]"
  echo abcdef | od -w6 -t x4 -t x2 2>&1; echo "[$?]"
done
## STDOUT:
od: warning: invalid width 0; using 2 instead
0000000 061141
0000002 062143
0000004 063145
0000006 000012
0000007
[0]
od: warning: invalid width 3; using 2 instead
0000000 6261
0000002 6463
0000004 6665
0000006 000a
0000007
[0]
od: warning: invalid width 6; using 4 instead
0000000  64636261
        6261 6463
0000004  000a6665
        6665 000a
0000007
[0]
od: warning: invalid width 0; using 2 instead
0000000 061141
0000002 062143
0000004 063145
0000006 000012
0000007
[0]
od: warning: invalid width 3; using 2 instead
0000000 6261
0000002 6463
0000004 6665
0000006 000a
0000007
[0]
od: warning: invalid width 6; using 4 instead
0000000  64636261
        6261 6463
0000004  000a6665
        6665 000a
0000007
[0]
## END

#### env, timeout, xargs and find word a missing command as the GNU tool does
for l in C C.UTF-8; do
  export LC_ALL=$l
  env nosuch 2>&1; echo "[$?]"
  env -i A=1 ./nope 2>&1; echo "[$?]"
  timeout 5 nosuch 2>&1; echo "[$?]"
  echo a | xargs nosuch 2>&1; echo "[$?]"
  find /tmp -maxdepth 0 -exec nosuch {} \; 2>&1; echo "[$?]"
  find /tmp -maxdepth 0 -exec nosuch {} + 2>&1; echo "[$?]"
done
## STDOUT:
env: 'nosuch': No such file or directory
[127]
env: './nope': No such file or directory
[127]
timeout: failed to run command 'nosuch': No such file or directory
[127]
xargs: nosuch: No such file or directory
[127]
find: 'nosuch': No such file or directory
[0]
find: 'nosuch': No such file or directory
[1]
env: ‘nosuch’: No such file or directory
[127]
env: ‘./nope’: No such file or directory
[127]
timeout: failed to run command ‘nosuch’: No such file or directory
[127]
xargs: nosuch: No such file or directory
[127]
find: ‘nosuch’: No such file or directory
[0]
find: ‘nosuch’: No such file or directory
[1]
## END

#### file operands in coreutils messages: quotef, with octal escapes for what the locale cannot print
for l in C C.UTF-8; do
  export LC_ALL=$l
  for n in "a b" "café" "a:b" "a=b" "{" "{}" "a}" "~x" "a~x" "a'b" "a'b]c" "a'b\$c" "$(printf 'a\302\205b')"; do
    cat "$n" 2>&1; wc "$n" 2>&1; md5sum "$n" 2>&1; rm "$n" 2>&1
  done
  hexdump "a b" 2>&1; cmp "a b" "a b" 2>&1
done
## status: 2
## STDOUT:
cat: 'a b': No such file or directory
wc: 'a b': No such file or directory
md5sum: 'a b': No such file or directory
rm: cannot remove 'a b': No such file or directory
cat: 'caf'$'\303\251': No such file or directory
wc: 'caf'$'\303\251': No such file or directory
md5sum: 'caf'$'\303\251': No such file or directory
rm: cannot remove 'caf'$'\303\251': No such file or directory
cat: 'a:b': No such file or directory
wc: 'a:b': No such file or directory
md5sum: 'a:b': No such file or directory
rm: cannot remove 'a:b': No such file or directory
cat: 'a=b': No such file or directory
wc: 'a=b': No such file or directory
md5sum: 'a=b': No such file or directory
rm: cannot remove 'a=b': No such file or directory
cat: '{': No such file or directory
wc: '{': No such file or directory
md5sum: '{': No such file or directory
rm: cannot remove '{': No such file or directory
cat: {}: No such file or directory
wc: {}: No such file or directory
md5sum: {}: No such file or directory
rm: cannot remove '{}': No such file or directory
cat: a}: No such file or directory
wc: a}: No such file or directory
md5sum: a}: No such file or directory
rm: cannot remove 'a}': No such file or directory
cat: '~x': No such file or directory
wc: '~x': No such file or directory
md5sum: '~x': No such file or directory
rm: cannot remove '~x': No such file or directory
cat: a~x: No such file or directory
wc: a~x: No such file or directory
md5sum: a~x: No such file or directory
rm: cannot remove 'a~x': No such file or directory
cat: "a'b": No such file or directory
wc: "a'b": No such file or directory
md5sum: "a'b": No such file or directory
rm: cannot remove "a'b": No such file or directory
cat: "a'b]c": No such file or directory
wc: "a'b]c": No such file or directory
md5sum: "a'b]c": No such file or directory
rm: cannot remove "a'b]c": No such file or directory
cat: 'a'\''b$c': No such file or directory
wc: 'a'\''b$c': No such file or directory
md5sum: 'a'\''b$c': No such file or directory
rm: cannot remove 'a'\''b$c': No such file or directory
cat: 'a'$'\302\205''b': No such file or directory
wc: 'a'$'\302\205''b': No such file or directory
md5sum: 'a'$'\302\205''b': No such file or directory
rm: cannot remove 'a'$'\302\205''b': No such file or directory
hexdump: a b: No such file or directory
hexdump: all input file arguments failed
cmp: a b: No such file or directory
cat: 'a b': No such file or directory
wc: 'a b': No such file or directory
md5sum: 'a b': No such file or directory
rm: cannot remove 'a b': No such file or directory
cat: café: No such file or directory
wc: café: No such file or directory
md5sum: café: No such file or directory
rm: cannot remove 'café': No such file or directory
cat: 'a:b': No such file or directory
wc: 'a:b': No such file or directory
md5sum: 'a:b': No such file or directory
rm: cannot remove 'a:b': No such file or directory
cat: 'a=b': No such file or directory
wc: 'a=b': No such file or directory
md5sum: 'a=b': No such file or directory
rm: cannot remove 'a=b': No such file or directory
cat: '{': No such file or directory
wc: '{': No such file or directory
md5sum: '{': No such file or directory
rm: cannot remove '{': No such file or directory
cat: {}: No such file or directory
wc: {}: No such file or directory
md5sum: {}: No such file or directory
rm: cannot remove '{}': No such file or directory
cat: a}: No such file or directory
wc: a}: No such file or directory
md5sum: a}: No such file or directory
rm: cannot remove 'a}': No such file or directory
cat: '~x': No such file or directory
wc: '~x': No such file or directory
md5sum: '~x': No such file or directory
rm: cannot remove '~x': No such file or directory
cat: a~x: No such file or directory
wc: a~x: No such file or directory
md5sum: a~x: No such file or directory
rm: cannot remove 'a~x': No such file or directory
cat: "a'b": No such file or directory
wc: "a'b": No such file or directory
md5sum: "a'b": No such file or directory
rm: cannot remove "a'b": No such file or directory
cat: "a'b]c": No such file or directory
wc: "a'b]c": No such file or directory
md5sum: "a'b]c": No such file or directory
rm: cannot remove "a'b]c": No such file or directory
cat: 'a'\''b$c': No such file or directory
wc: 'a'\''b$c': No such file or directory
md5sum: 'a'\''b$c': No such file or directory
rm: cannot remove 'a'\''b$c': No such file or directory
cat: 'a'$'\302\205''b': No such file or directory
wc: 'a'$'\302\205''b': No such file or directory
md5sum: 'a'$'\302\205''b': No such file or directory
rm: cannot remove 'a'$'\302\205''b': No such file or directory
hexdump: a b: No such file or directory
hexdump: all input file arguments failed
cmp: a b: No such file or directory
## END
