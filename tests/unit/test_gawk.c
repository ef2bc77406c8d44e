// layers: core vfs builtins shell
/* test_gawk.c - awk's gawk 5.2 behaviour: every expected output, exit
 * status and error message below was recorded from GNU Awk 5.2.1 on the
 * same input (with "gawk:" read as "awk:"), never written by hand. */
#include "bi_harness.h"

#include <stdio.h>

typedef struct gcase {
  const char *lc, *tz, *in;
  const char *argv[8];
  const char *out;
  int status;
  const char *err; /* NULL: not compared */
} gcase;

static const gcase cases[] = {
    {"C",
     NULL,
     "",
     {"BEGIN{print gensub(/(a)(b)/, \"<\\\\2\\\\1\\\\0&\\\\\\\\&>\", \"g\", "
      "\"xabyab\")}"},
     "x<baabab\\ab>y<baabab\\ab>\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{print gensub(/o/,\"0\",2,\"foo boo\"), "
      "gensub(/o/,\"0\",\"G\",\"foo boo\"), gensub(/o/,\"0\",0,\"foo\")}"},
     "fo0 boo f00 b00 f0o\n",
     0,
     NULL},
    {"C",
     NULL,
     "a=1 bb=22 c\n",
     {"{print gensub(/([a-z]+)=([0-9]+)/, \"\\\\2:\\\\1\", \"g\"); print}"},
     "1:a 22:bb c\na=1 bb=22 c\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{print gensub(/x*/,\"-\",\"g\",\"abc\"), "
      "gensub(/b*/,\"-\",\"g\",\"abc\"), gensub(/b*/, \"[&]\", 2, \"abcbb\")}"},
     "-a-b-c- -a-c- a[b]cbb\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{s=\"hello\"; t=gensub(/l/,\"L\",\"g\",s); print s, t}"},
     "hello heLLo\n",
     0,
     NULL},
    {"C",
     NULL,
     "abcbb\nabc\n\n",
     {"{x=$0; n=gsub(/b*/,\"<&>\",x); print n, x}"},
     "3 <>a<b>c<bb>\n3 <>a<b>c<>\n1 <>\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{a[1]=\"10\";a[2]=9;a[3]=\"abc\";a[4]=\"Abc\";a[5]=-1;a[6]=\"\"; "
      "n=asort(a); for(i=1;i<=n;i++) printf \"[%s]\", a[i]; print \"\"}"},
     "[-1][9][][10][Abc][abc]\n",
     0,
     NULL},
    {"C",
     NULL,
     "b 10\na 9\nd x\nc 2.5\n",
     {"{v[$1]=$2} END{n=asort(v,s); for(i=1;i<=n;i++) printf \"%s \", s[i]; "
      "print n; n=asorti(v,t); for(i=1;i<=n;i++) printf \"%s \", t[i]; print "
      "n; n=asorti(v,t,\"@ind_str_desc\"); for(i=1;i<=n;i++) printf \"%s \", "
      "t[i]; print \"\"; n=asort(v,s,\"@val_str_desc\"); for(i=1;i<=n;i++) "
      "printf \"%s \", s[i]; print \"\"}"},
     "2.5 9 10 x 4\na b c d 4\nd c b a \nx 9 2.5 10 \n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"function rev(i1,v1,i2,v2){return v2-v1} "
      "BEGIN{a[\"x\"]=3;a[\"y\"]=1;a[\"z\"]=2; n=asort(a,b,\"rev\"); print n, "
      "b[1], b[2], b[3]; PROCINFO[\"sorted_in\"]=\"rev\"; for(k in a) printf "
      "\"%s=%s \", k, a[k]; print \"\"}"},
     "3 3 2 1\nx=3 z=2 y=1 \n",
     0,
     NULL},
    {"C",
     NULL,
     "a 10\nb 9\nc 9\nd x\n10 -1\n9 1e3\n",
     {"{v[$1]=$2} END{ split(\"@ind_str_asc @ind_str_desc @ind_num_asc "
      "@ind_num_desc @val_str_asc @val_str_desc @val_num_asc @val_num_desc "
      "@val_type_asc @val_type_desc\",H,\" \"); "
      "for(h=1;h<=10;h++){PROCINFO[\"sorted_in\"]=H[h]; s=H[h]\":\"; for(k in "
      "v) s=s\" \"k\"=\"v[k]; print s}}"},
     "@ind_str_asc: 10=-1 9=1e3 a=10 b=9 c=9 d=x\n@ind_str_desc: d=x c=9 b=9 "
     "a=10 9=1e3 10=-1\n@ind_num_asc: a=10 b=9 c=9 d=x 9=1e3 "
     "10=-1\n@ind_num_desc: 10=-1 9=1e3 d=x c=9 b=9 a=10\n@val_str_asc: 10=-1 "
     "a=10 9=1e3 b=9 c=9 d=x\n@val_str_desc: d=x c=9 b=9 9=1e3 a=10 "
     "10=-1\n@val_num_asc: 10=-1 d=x b=9 c=9 a=10 9=1e3\n@val_num_desc: 9=1e3 "
     "a=10 c=9 b=9 d=x 10=-1\n@val_type_asc: 10=-1 b=9 c=9 a=10 9=1e3 "
     "d=x\n@val_type_desc: d=x 9=1e3 a=10 c=9 b=9 10=-1\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{PROCINFO[\"sorted_in\"]=\"nosuch\"; a[1]; for (k in a) print k}"},
     "",
     2,
     "awk: cmd. line:1: fatal: sort comparison function `nosuch' is not "
     "defined\n"},
    {"C",
     NULL,
     "",
     {"function n(a){return length(a)} BEGIN{a[1];a[2];print length(a), n(a); "
      "delete a; print length(a); print toupper(\"abc\\344\"), "
      "tolower(\"ABC\")}"},
     "2 2\n0\nABC\344 abc\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{print strftime(\"%Y-%m-%d %H:%M:%S %a %b %j\", 0, 1); print "
      "strftime(\"%F %T\", 1700000000, 1); print mktime(\"1970 01 01 00 00 "
      "00\"), mktime(\"2020 02 30 00 00 00\"), mktime(\"2020 1\"), "
      "mktime(\"2000 01 01 00 00 00\", 1)}"},
     "1970-01-01 00:00:00 Thu Jan 001\n2023-11-14 22:13:20\n0 1583020800 -1 "
     "946684800\n",
     0,
     NULL},
    {"C",
     "EST5EDT,M3.2.0,M11.1.0",
     "",
     {"BEGIN{print strftime(\"%F %T %Z\", 1700000000); print strftime(\"%F %T "
      "%Z\", 1690000000); print mktime(\"2023 07 01 12 00 00\"), mktime(\"2023 "
      "12 01 12 00 00\"); print strftime(\"%H:%M %Z\", 0, 1)}"},
     "2023-11-14 17:13:20 EST\n2023-07-22 00:26:40 EDT\n1688227200 "
     "1701450000\n00:00 GMT\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGINFILE{print \"BF\", FILENAME, FNR} ENDFILE{print \"EF\", FILENAME, "
      "FNR, NR} {print; if ($0==\"a\") nextfile}",
      "f1", "f2"},
     "BF f1 0\na\nEF f1 1 1\nBF f2 0\nc\nEF f2 1 2\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGINFILE{if (FILENAME==\"f1\") nextfile} ENDFILE{print \"EF\", "
      "FILENAME, FNR}  {print}",
      "f1", "f2"},
     "EF f1 0\nc\nEF f2 1\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGINFILE{print \"BF\", FILENAME, \"[\" ERRNO \"]\"; if (ERRNO) "
      "nextfile} ENDFILE{print \"EF\", FILENAME}",
      "nope", "f2"},
     "BF nope [No such file or directory]\nBF f2 []\nEF f2\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"{print}", "f1", "nope", "f2"},
     "a\nb\n",
     2,
     "awk: cmd. line:1: fatal: cannot open file `nope' for reading: No such "
     "file or directory\n"},
    {"C",
     NULL,
     "",
     {"BEGINFILE{print \"BF\"; exit 3} END{print \"END\"}", "f1"},
     "BF\nEND\n",
     3,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{ a[\"x\"]=1; print match(\"foobar\", /(o+)(x)?(b)/, a), "
      "length(a), a[0], a[1], a[1,\"start\"], a[1,\"length\"], a[3], "
      "a[3,\"start\"], (2 in a); print match(\"zzz\", /q/, a), length(a), "
      "RSTART, RLENGTH}"},
     "2 9 oob oo 2 2 b 4 0\n0 0 0 -1\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{IGNORECASE=1; print \"ABC\" ~ /b/, \"ABC\" ~ \"b\", "
      "match(\"xABy\", /ab/), index(\"ABC\",\"b\"); x=\"aBcb\"; print "
      "gsub(/b/,\"X\",x), x; IGNORECASE=0; print \"ABC\" ~ /b/}"},
     "1 1 2 2\n2 aXcX\n0\n",
     0,
     NULL},
    {"C",
     NULL,
     "ABC\nabd\nxAbC\n",
     {"-v", "IGNORECASE=1", "/abc/"},
     "ABC\nxAbC\n",
     0,
     NULL},
    {"C",
     NULL,
     "a1b22c\nd333",
     {"BEGIN{RS=\"[0-9]+\"}{print NR\": [\"$0\"] RT=[\"RT\"]\"}"},
     "1: [a] RT=[1]\n2: [b] RT=[22]\n3: [c\nd] RT=[333]\n",
     0,
     NULL},
    {"C",
     NULL,
     "a\nb\n\n\nc\n\n",
     {"BEGIN{RS=\"\\n\\n+\"}{print NR\": [\"$0\"]\"}"},
     "1: [a\nb]\n2: [c]\n",
     0,
     NULL},
    {"C", NULL, "x\ny", {"{print \"[\" RT \"]\"}"}, "[\n]\n[]\n", 0, NULL},
    {"C",
     NULL,
     "a1b22c\nd\n\ne\n",
     {"BEGIN{RS=\"[0-9]+\"} NR==1{RS=\"\"} {print NR\": [\"$0\"]\"}"},
     "1: [a]\n2: [b22c\nd]\n3: [e]\n",
     0,
     NULL},
    {"C",
     NULL,
     "aab\nabab\nab\naaaab\n",
     {"{print ($0 ~ /^a{2,3}b$/), ($0 ~ /^(ab){2}$/), ($0 ~ /a{1}/)}"},
     "1 0 1\n0 1 1\n0 0 1\n0 0 1\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"func f(x){return x**2} BEGIN{y=2; y**=3; printf \"%i %d %s\\n\", f(3), "
      "y, 2**0.5}"},
     "9 8 1.41421\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{ split(\"-1 0 0.5 1 1.5 2.5\",I,\" \"); split(\"-1 0.5 1 1.5 "
      "2.9\",L,\" \"); for(i=1;i<=6;i++){ "
      "s=I[i]\":\"substr(\"abcdefgh\",I[i])\"|\"; for(j=1;j<=5;j++) s=s\" "
      "\"substr(\"abcdefgh\",I[i],L[j]); print s}}"},
     "-1:abcdefgh|   a a ab\n0:abcdefgh|   a a ab\n0.5:abcdefgh|   a a "
     "ab\n1:abcdefgh|   a a ab\n1.5:abcdefgh|   a a ab\n2.5:bcdefgh|   b b "
     "bc\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{print length(x), x+0, (x==0), (x==\"\"); print "
      "close(\"nothing\"), fflush()}"},
     "0 0 1 1\n-1 0\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{printf \"%c|%c|%c|%c\\n\", 65, \"hello\", 256+66, 65.9}"},
     "A|h|B|A\n",
     0,
     NULL},
    {"C", NULL, "66\nx\n", {"{printf \"%c\\n\", $1}"}, "B\nx\n", 0, NULL},
    {"C.UTF-8",
     NULL,
     "",
     {"BEGIN{s=\"h\\303\\251llo\"; print length(s), substr(s,2,2), "
      "index(s,\"l\"), toupper(s), tolower(\"\\303\\200\\303\\211\")}"},
     "5 \303\251l 3 H\303\211LLO \303\240\303\251\n",
     0,
     NULL},
    {"C.UTF-8",
     NULL,
     "\346\227\245\346\234\254 \350\252\236\303\251\n",
     {"{print length($0), NF, $2; print substr($0, 3); print match($0, "
      "/\346\234\254./), RSTART, RLENGTH; x=$0; print gsub(/./, \"<&>\", x), "
      "x; print gensub(/(.)\350\252\236/, \"[\\\\1]\", \"g\")}"},
     "5 2 \350\252\236\303\251\n \350\252\236\303\251\n2 2 2\n5 "
     "<\346\227\245><\346\234\254>< "
     "><\350\252\236><\303\251>\n\346\227\245\346\234\254[ ]\303\251\n",
     0,
     NULL},
    {"C.UTF-8",
     NULL,
     "",
     {"BEGIN{printf \"%c|%c|%5s|%.2s|%-4s|\\n\", 233, \"\342\202\254uro\", "
      "\"\303\251\", \"\303\251\303\250\303\252\", "
      "\"\346\227\245\346\234\254\"; n=split(\"a\303\251\342\202\254\", a, "
      "\"\"); print n, a[2]}"},
     "\303\251|\342\202\254|    "
     "\303\251|\303\251\303\250|\346\227\245\346\234\254  |\n3 \303\251\n",
     0,
     NULL},
    {"C.UTF-8",
     NULL,
     "\346\227\245\346\234\254 \350\252\236\303\251\n",
     {"BEGIN{FS=\"\"}{print NF, $3}"},
     "5  \n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{s=\"h\\303\\251llo\"; print length(s), substr(s,2,2), "
      "index(s,\"l\"), toupper(s); printf \"%c\", 233}"},
     "6 \303\251 4 H\303\251LLO\n\351",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN { print ( }"},
     "",
     1,
     "awk: cmd. line:1: BEGIN { print ( }\nawk: cmd. line:1:                 ^ "
     "syntax error\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { x = 1\ny = (2 +\n}"},
     "",
     1,
     "awk: cmd. line:3: y = (2 +\nawk: cmd. line:3:         ^ unexpected "
     "newline or end of string\n"},
    {"C",
     NULL,
     "",
     {"BEGIN {"},
     "",
     1,
     "awk: cmd. line:1: BEGIN {\nawk: cmd. line:1:        ^ unexpected newline "
     "or end of string\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { x = \"abc"},
     "",
     1,
     "awk: cmd. line:1: BEGIN { x = \"abc\nawk: cmd. line:1:             ^ "
     "unterminated string\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { getline < }"},
     "",
     1,
     "awk: cmd. line:1: BEGIN { getline < }\nawk: cmd. line:1:                 "
     "  ^ syntax error\n"},
    {"C",
     NULL,
     "",
     {"-f", "p.awk"},
     "",
     1,
     "awk: p.awk:2:   print 1 +* 2\nawk: p.awk:2:            ^ syntax error\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { x=0; print 1/x; print \"not here\" }"},
     "",
     2,
     "awk: cmd. line:1: fatal: division by zero attempted\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { f(1) }"},
     "",
     2,
     "awk: cmd. line:1: fatal: function `f' not defined\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { x[1]=1; x=2 }"},
     "",
     2,
     "awk: cmd. line:1: fatal: attempt to use array `x' in a scalar context\n"},
    {"C",
     NULL,
     "",
     {"BEGIN{ a = 1; a[1] = 2}"},
     "",
     2,
     "awk: cmd. line:1: fatal: attempt to use scalar `a' as an array\n"},
    {"C",
     NULL,
     "",
     {"BEGIN{print match(\"x\", /x/, 5)}"},
     "",
     2,
     "awk: cmd. line:1: fatal: match: third argument is not an array\n"},
    {"C",
     NULL,
     "",
     {"BEGIN{print index(\"abc\", \"\"), index(\"\", \"\"), 011, 018, 0x1f, "
      "1e19, 2^63, 2^70, -2^70, 1e15+0.5}"},
     "1 1 9 18 31 10000000000000000000 9223372036854775808 "
     "1180591620717411303424 -1180591620717411303424 1e+15\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{CONVFMT=\"%d\"; a[1.5]=1; for(k in a) print k; OFMT=\"%x\"; print "
      "17.5; OFMT=\"abc\"; print 3.5; OFMT=\"%5.2f%%\"; print 2.5; x[2^70]; "
      "for (k in x) print k}"},
     "1\n11\nabc\n 2.50%\n1180591620717411303424\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{OFMT=\"%c%c\"; print 66.5}"},
     "",
     2,
     "awk: cmd. line:1: fatal: not enough arguments to satisfy format "
     "string\n\t`%c%c'\n\t   ^ ran out for this one\n"},
    {"C",
     NULL,
     "",
     {"BEGIN{printf \"ab %d %s|\\n\", 1}"},
     "",
     2,
     "awk: cmd. line:1: fatal: not enough arguments to satisfy format "
     "string\n\t`ab %d %s|\n'\n\t       ^ ran out for this one\n"},
    {"C",
     NULL,
     "",
     {"BEGIN{printf \"%*d|\\n\"}"},
     "",
     2,
     "awk: cmd. line:1: fatal: not enough arguments to satisfy format "
     "string\n\t`%*d|\n'\n\t ^ ran out for this one\n"},
    {"C",
     NULL,
     "foo food afoo FOO\n",
     {"{print gensub(/\\yfoo\\y/, \"X\", \"g\"); x=$0; gsub(/\\<f/, \"F\", x); "
      "gsub(/o\\>/, \"0\", x); print x; gsub(/\\Bo/, \"_\"); print; "
      "gsub(/\\w+/, \"W\"); print}"},
     "X food afoo FOO\nFo0 Food afo0 FOO\nf__ f__d af__ FOO\nW W W W\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN { next }"},
     "",
     1,
     "awk: cmd. line:1: error: `next' used in BEGIN action\n"},
    {"C",
     NULL,
     "",
     {"END { nextfile }"},
     "",
     1,
     "awk: cmd. line:1: error: `nextfile' used in END action\n"},
    {"C",
     NULL,
     "",
     {"BEGINFILE { nextfile } ENDFILE { print FILENAME }", "f1"},
     "f1\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{s=\"a\\.b\\q\\/\\\"\"; print s, length(s), \"\\x41\\x4a2\", "
      "length(\"\\x\"); print (\"axb\" ~ \"a\\.b\"), (\"a.b\" ~ \"a\\\\.b\")}"},
     "a.bq/\" 6 AJ2 1\n1 1\n",
     0,
     NULL},
    {"C.UTF-8",
     NULL,
     "a\303\251b\303\251\n",
     {"{print index($0, \"\\303\\251\"), index($0, \"\\251\"), index($0, "
      "\"b\"), index($0, \"\"); IGNORECASE=1; print index($0, \"B\"), "
      "index($0, \"\\303\\211\")}"},
     "2 0 3 1\n3 2\n",
     0,
     NULL},
    {"C",
     NULL,
     "a\303\251b\303\251\n",
     {"{print index($0, \"\\251\"), index($0, \"b\")}"},
     "3 4\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{print \"x\" > \"out\"; print fflush(), fflush(\"nope\"), "
      "fflush(\"/dev/stdout\"), fflush(\"out\")}"},
     "0 -1 0 0\n",
     0,
     NULL},
    {"C",
     NULL,
     "x\n",
     {"{x=0; print 1/x}"},
     "",
     2,
     "awk: cmd. line:1: (FILENAME=- FNR=1) fatal: division by zero "
     "attempted\n"},
    {"C",
     NULL,
     "",
     {"END{x=0; print 1/x}", "f1"},
     "",
     2,
     "awk: cmd. line:1: (FILENAME=f1 FNR=2) fatal: division by zero "
     "attempted\n"},
    {"C",
     NULL,
     "3 x\n1 y\n2 z\n",
     {"{a[$1]=$2} END{for(k in a) print k, a[k]; n=split(\"e d c b a\", b); "
      "for (k in b) printf k \"=\" b[k] \" \"; print \"\"; for(i=40;i>0;i--) "
      "c[i]; for(k in c) printf k \" \"; print \"\"}"},
     "1 y\n2 z\n3 x\n1=e 2=d 3=c 4=b 5=a \n1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 "
     "16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 "
     "40 \n",
     0,
     NULL},
    {"C",
     NULL,
     "Robbins,Arnold,\"1234 A Pretty Street, "
     "NE\",MyTown\na,,c,\"d,e\",\n,,a\n\n",
     {"BEGIN { FPAT = \"([^,]*)|(\\\"[^\\\"]+\\\")\" } { printf \"%d:\", NF; "
      "for (i = 1; i <= NF; i++) printf(\"<%s>\", $i); print \"\" }"},
     "4:<Robbins><Arnold><\"1234 A Pretty Street, "
     "NE\"><MyTown>\n5:<a><><c><\"d,e\"><>\n3:<><><a>\n0:\n",
     0,
     NULL},
    {"C",
     NULL,
     "ab12cd\n",
     {"BEGIN { FPAT = \"[a-z]*\" } { printf \"%d:\", NF; for (i = 1; i <= NF; "
      "i++) printf(\"<%s>\", $i); print \"\"; FS = \",\"; $0 = $0; print NF }"},
     "3:<ab><><cd>\n1\n",
     0,
     NULL},
    {"C",
     NULL,
     "ab12cd  ef\n",
     {"{ n = patsplit($0, a, /[a-z]+/); print n, a[1], a[n]; print "
      "patsplit($0, b), b[1] }"},
     "3 ab ef\n2 ab12cd\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN{IGNORECASE=1; print (\"ABC\" == \"abc\"), (\"a\" < \"B\"), (\"x\" "
      "!= \"X\"); a[1]=\"b\"; a[2]=\"A\"; a[3]=\"C\"; n=asort(a); print a[1] "
      "a[2] a[3]; IGNORECASE=0; print (\"ABC\" == \"abc\"), (\"a\" < \"B\")}"},
     "1 1 0\nAbC\n0 0\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"{print $1"},
     "",
     1,
     "awk: cmd. line:1: {print $1\nawk: cmd. line:1:          ^ unexpected "
     "newline or end of string\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { for (i = 0; i < 3; i++ print i }"},
     "",
     1,
     "awk: cmd. line:1: BEGIN { for (i = 0; i < 3; i++ print i }\nawk: cmd. "
     "line:1:                                ^ syntax error\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { else }"},
     "",
     1,
     "awk: cmd. line:1: BEGIN { else }\nawk: cmd. line:1:         ^ syntax "
     "error\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { x = abcdef ) }"},
     "",
     1,
     "awk: cmd. line:1: BEGIN { x = abcdef ) }\nawk: cmd. line:1:              "
     "      ^ syntax error\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { return 1 }"},
     "",
     1,
     "awk: cmd. line:1: BEGIN { return 1 }\nawk: cmd. line:1:         ^ "
     "`return' used outside function context\n"},
    {"C",
     NULL,
     "",
     {"function f(f) { }"},
     "",
     1,
     "awk: cmd. line:1: error: function `f': cannot use function name as "
     "parameter name\n"},
    {"C",
     NULL,
     "",
     {"function f(a, a) {}"},
     "",
     1,
     "awk: cmd. line:1: error: function `f': parameter #2, `a', duplicates "
     "parameter #1\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { f = 1; f() }"},
     "",
     1,
     "awk: cmd. line:1: error: attempt to use non-function `f' in function "
     "call\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { break }"},
     "",
     1,
     "awk: cmd. line:1: error: `break' is not allowed outside a loop or "
     "switch\nawk: cmd. line:1: error: `break' is not allowed outside a loop "
     "or switch\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { x = /abc"},
     "",
     1,
     "awk: cmd. line:1: BEGIN { x = /abc\nawk: cmd. line:1:              ^ "
     "unterminated regexp\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { a = 1 ` }"},
     "",
     1,
     "awk: cmd. line:1: BEGIN { a = 1 ` }\nawk: cmd. line:1:               ^ "
     "invalid char '`' in expression\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { for (i = 1; i <= 5; i++) { switch (i) { case 1: print \"one\"; "
      "break; case /^[23]$/: print \"two or three\"; case 4: print \"four (or "
      "fell)\"; break; default: print \"other\", i } } switch (10) { case "
      "\"10\": print \"num as str\"; break; default: print \"no\" } while (j++ "
      "< 3) { switch (j) { case 2: continue } print j } }"},
     "one\ntwo or three\nfour (or fell)\ntwo or three\nfour (or fell)\nfour "
     "(or fell)\nother 5\nnum as str\n1\n3\n",
     0,
     NULL},
    {"C",
     NULL,
     "10\nx\nabc\n1e1\n-1\n?\n",
     {"{ switch ($1) { case 10: print \"ten\"; break; case \"x\": print "
      "\"ex\"; break; case /^a/: print \"a-word\"; break; case -1: print "
      "\"minus\"; break; default: print \"?\" } }"},
     "ten\nex\na-word\nten\nminus\n?\n",
     0,
     NULL},
    {"C",
     NULL,
     "",
     {"BEGIN { switch (1) { case 1: print \"a\"; case 1: print \"b\" } }"},
     "",
     1,
     "awk: cmd. line:1: error: duplicate case values in switch body: 1\n"},
    {"C",
     NULL,
     "",
     {"BEGIN { case = 1 }"},
     "",
     1,
     "awk: cmd. line:1: BEGIN { case = 1 }\nawk: cmd. line:1:         ^ syntax "
     "error\n"},
};

static void run_case(const gcase *k) {
  bh *h = bh_new();
  bh_setenv(h, "LC_ALL", k->lc);
  if (k->tz)
    bh_setenv(h, "TZ", k->tz);
  bh_write(h, "f1", "a\nb\n");
  bh_write(h, "f2", "c\n");
  bh_write(h, "p.awk", "BEGIN {\n  print 1 +* 2\n}\n");
  char *argv[10] = {"awk"};
  int argc = 1;
  for (int i = 0; k->argv[i]; i++)
    argv[argc++] = (char *)k->argv[i];
  int st = bh_runa(h, k->in, strlen(k->in), argc, argv);
  if (st != k->status || strcmp(bh_out(h), k->out) != 0 ||
      (k->err && strcmp(bh_err(h), k->err) != 0))
    fprintf(stderr, "case %s\n got: [%s] err: [%s] st=%d\n", k->argv[0],
            bh_out(h), bh_err(h), st);
  assert_string_equal(bh_out(h), k->out);
  assert_int_equal(st, k->status);
  if (k->err)
    assert_string_equal(bh_err(h), k->err);
  bh_free(h);
}

static void test_recorded(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    run_case(&cases[i]);
}

/* The harness's clock is 2001-09-09 01:46:40 UTC (1000000000). */
static void test_clock(void **state) {
  (void)state;
  bh *h = bh_new();
  assert_int_equal(
      bh_run(h, "", "awk", "BEGIN{print systime(); print strftime()}", NULL),
      0);
  assert_string_equal(bh_out(h), "1000000000\nSun Sep  9 01:46:40 UTC 2001\n");
  bh_setenv(h, "TZ", "EST5EDT,M3.2.0,M11.1.0");
  assert_int_equal(bh_run(h, "", "awk",
                          "BEGIN{print strftime(\"%H:%M %Z\"), "
                          "strftime(\"%H:%M %Z\", systime(), 1)}",
                          NULL),
                   0);
  assert_string_equal(bh_out(h), "21:46 EDT 01:46 GMT\n");
  bh_free(h);
}

/* What the sandbox refuses or names differently from gawk. */
static void test_sandbox(void **state) {
  (void)state;
  bh *h = bh_new();
  assert_int_equal(bh_run(h, "", "awk", "@include \"lib.awk\"", NULL), 1);
  assert_string_equal(bh_err(h), "awk: cmd. line:1: error: @include is not "
                                 "supported: give every source file with "
                                 "-f\n");
  assert_int_equal(bh_run(h, "", "awk", "@load \"ext\"; BEGIN{}", NULL), 1);
  assert_non_null(strstr(bh_err(h), "@load is not supported"));
  assert_int_equal(bh_run(h, "", "awk", "--version", NULL), 0);
  assert_string_equal(bh_out(h), "awk (GNU awk compatible; vsh) 5.2\n");
  assert_int_equal(bh_run(h, "x y\n", "gawk", "{print $2}", NULL), 0);
  assert_string_equal(bh_out(h), "y\n");
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_recorded),
      cmocka_unit_test(test_clock),
      cmocka_unit_test(test_sandbox),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
