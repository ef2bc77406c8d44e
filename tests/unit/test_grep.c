// layers: core vfs builtins shell
/* Unit tests of grep/egrep/fgrep. Expected outputs were checked against GNU
 * grep 3.8 (Debian 12) run on the same inputs. */
#include "bi_harness.h"

#include <errno.h>
#include <stdio.h>

#define RUN(h, in, ...) bh_run(h, in, __VA_ARGS__, NULL)
#define OUT_IS(h, s) assert_string_equal(bh_out(h), s)
#define ERR_IS(h, s) assert_string_equal(bh_err(h), s)

static const char NUMS[] =
    "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n";
static const char WORDS[] = "foo bar\nfoobar\nbar_foo baz\nFOO\n";

/* argv with stdin a pipe-like stream handing out `step` bytes per read
 * (exercises grep's chunked path). */
static int run_trickle(bh *h, const char *in, size_t step, int argc,
                       char **argv) {
  h->stdin_chunk = step;
  int st = bh_runa(h, in, strlen(in), argc, argv);
  h->stdin_chunk = 0;
  return st;
}

/* ---- tests --------------------------------------------------------------- */

static void t_basic(void **st) {
  bh *h = bh_new();
  const bh_case cases[] = {
      BH_CASE("one\ntwo\nthree\n", 0, "two\nthree\n", NULL, "grep", "t"),
      BH_CASE("one\n", 1, "", NULL, "grep", "zz"),
      BH_CASE("noeol", 0, "noeol\n", NULL, "grep", "eol"),
      BH_CASE("", 1, "0\n", NULL, "grep", "-c", ""),
      BH_CASE("x", BH_ANY, "1\n", NULL, "grep", "-c", ""),
      BH_CASE("a\n\nb\n", BH_ANY, "2:\n", NULL, "grep", "-n", "^$"),
  };
  bh_check_all(h, cases);
  bh_write(h, "n.txt", NUMS);
  const bh_case cases2[] = {
      BH_CASE(NULL, 0, "2:two\n3:three\n8:eight\n10:ten\n", NULL, "grep", "-n",
              "t", "n.txt"),
      BH_CASE(NULL, BH_ANY, "7\n", NULL, "grep", "-c", "e", "n.txt"),
      BH_CASE(NULL, BH_ANY, "3\n", NULL, "grep", "-vc", "e", "n.txt"),
      BH_CASE(NULL, BH_ANY, "two\nfour\nsix\n", NULL, "grep", "-v", "e",
              "n.txt"),
  };
  bh_check_all(h, cases2);
  bh_free(h);
}

static void t_options(void **st) {
  bh *h = bh_new();
  bh_write(h, "w.txt", WORDS);
  bh_write(h, "n.txt", NUMS);
  const bh_case cases[] = {
      BH_CASE(NULL, BH_ANY, "foo bar\nfoobar\nbar_foo baz\nFOO\n", NULL, "grep",
              "-i", "FOO", "w.txt"),
      BH_CASE(NULL, BH_ANY, "foo bar\nFOO\n", NULL, "grep", "-y", "-w", "foo",
              "w.txt"),
      BH_CASE(NULL, BH_ANY, "FOO\n", NULL, "grep", "-i", "--no-ignore-case",
              "FOO", "w.txt"),
      BH_CASE(NULL, BH_ANY, "foobar\n", NULL, "grep", "-x", "foobar", "w.txt"),
      BH_CASE(NULL, BH_ANY, "1:o\n2:o\n9:o\n10:o\n20:o\n21:o\n", NULL, "grep",
              "-ob", "o", "w.txt"),
      BH_CASE(NULL, BH_ANY, "1:0:foo bar\n2:8:foobar\n3:15:bar_foo baz\n", NULL,
              "grep", "-bn", "bar", "w.txt"),
      BH_CASE(NULL, BH_ANY, "n.txt:two\n", NULL, "grep", "-H", "two", "n.txt"),
      BH_CASE(NULL, BH_ANY,
              "n.txt:one\nn.txt:two\nn.txt:four\nw.txt:foo bar\nw.txt:foobar\n"
              "w.txt:bar_foo baz\n",
              NULL, "grep", "o", "n.txt", "w.txt"),
      BH_CASE(NULL, BH_ANY, "six\n", NULL, "grep", "-h", "x", "n.txt", "w.txt"),
      BH_CASE(NULL, 0, "w.txt\n", NULL, "grep", "-l", "foo", "n.txt", "w.txt"),
      /* -L: GNU 3.8's status follows selected lines, not listed names */
      BH_CASE(NULL, 0, "n.txt\n", NULL, "grep", "-L", "foo", "n.txt", "w.txt"),
      BH_CASE(NULL, 1, "n.txt\n", NULL, "grep", "-L", "zzz", "n.txt"),
      BH_CASE(NULL, 0, "", NULL, "grep", "-q", "foo", "w.txt"),
      BH_CASE(NULL, BH_ANY, "one\nthree\n", NULL, "grep", "-m2", "e", "n.txt"),
      BH_CASE(NULL, BH_ANY, "3\n", NULL, "grep", "-c", "-m3", "e", "n.txt"),
      BH_CASE(NULL, 1, NULL, NULL, "grep", "-m0", "e", "n.txt"),
  };
  bh_check_all(h, cases);
  RUN(h, NULL, "grep", "-Z", "-l", "t", "n.txt");
  assert_int_equal(h->out.len, 6);
  assert_memory_equal(h->out.data, "n.txt\0", 6);
  const bh_case cases2[] = {
      BH_CASE(NULL, BH_ANY, " 2:\ttwo\n 3:\tthree\n 8:\teight\n10:\tten\n",
              NULL, "grep", "-T", "-n", "t", "n.txt"),
      BH_CASE("x\n", BH_ANY, "LBL:x\n", NULL, "grep", "-H", "--label=LBL", "x"),
      BH_CASE("x\n", BH_ANY, "(standard input):x\n", NULL, "grep", "-H", "x",
              "-"),
      BH_CASE(NULL, BH_ANY, "two\nsix\n", NULL, "grep", "-e", "two", "-e",
              "six", "n.txt"),
      BH_CASE(NULL, BH_ANY, "two\nsix\n", NULL, "grep", "two\nsix", "n.txt"),
      /* a trailing newline makes an empty pattern, which matches everything */
      BH_CASE(NULL, BH_ANY, "10\n", NULL, "grep", "-c", "zz\n", "n.txt"),
  };
  bh_check_all(h, cases2);
  bh_write(h, "pats", "tw\nsi\n");
  RUN(h, NULL, "grep", "-f", "pats", "n.txt");
  OUT_IS(h, "two\nsix\n");
  bh_write(h, "empty", "");
  const bh_case cases3[] = {
      BH_CASE(NULL, 1, NULL, NULL, "grep", "-f", "empty", "n.txt"),
      BH_CASE(NULL, BH_ANY, "10\n", NULL, "grep", "-v", "-c", "-f", "empty",
              "n.txt"),
      BH_CASE("tw.\nthr\n", BH_ANY, "two\nthree\n", NULL, "grep", "-f", "-",
              "n.txt"),
      /* -NUM accepted */
      BH_CASE(NULL, BH_ANY, "1\n", NULL, "grep", "-12", "-c", "x", "n.txt"),
  };
  bh_check_all(h, cases3);
  bh_free(h);
}

static void t_context(void **st) {
  bh *h = bh_new();
  bh_write(h, "n.txt", NUMS);
  const bh_case cases[] = {
      BH_CASE(NULL, BH_ANY, "4-four\n5:five\n6-six\n", NULL, "grep", "-C1",
              "-n", "five", "n.txt"),
      BH_CASE(NULL, BH_ANY, "two\nthree\n--\nsix\nseven\n", NULL, "grep", "-A1",
              "-e", "two", "-e", "six", "n.txt"),
      BH_CASE(NULL, BH_ANY, "two\nthree\nfour\n--\neight\nnine\nten\n", NULL,
              "grep", "-B2", "-e", "four", "-e", "ten", "n.txt"),
      BH_CASE(NULL, BH_ANY, "four\nfive\nsix\nseven\neight\n", NULL, "grep",
              "-2", "six", "n.txt"),
      BH_CASE(NULL, BH_ANY, "two\nXX\nsix\n", NULL, "grep",
              "--group-separator=XX", "-A0", "-e", "two", "-e", "six", "n.txt"),
      BH_CASE(NULL, BH_ANY, "two\nsix\n", NULL, "grep", "--no-group-separator",
              "-A0", "-e", "two", "-e", "six", "n.txt"),
      BH_CASE(NULL, BH_ANY, "one\ntwo\nthree\n", NULL, "grep", "-m1", "-A2",
              "e", "n.txt"),
      BH_CASE(NULL, BH_ANY, "1:one\n2:two\n3-three\n", NULL, "grep", "-n",
              "-A1", "-e", "one", "-e", "two", "n.txt"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_regex(void **st) {
  bh *h = bh_new();
  bh_write(h, "ab.txt", "ab\nabc\nabcd\n");
  bh_write(h, "w.txt", WORDS);
  const bh_case cases[] = {
      BH_CASE(NULL, BH_ANY, "foo bar\nfoobar\nbar_foo baz\n", NULL, "grep",
              "-E", "o{2}", "w.txt"),
      BH_CASE(NULL, BH_ANY, "3\n", NULL, "grep", "-c", "o\\{2\\}", "w.txt"),
      /* leftmost-longest for -o, as POSIX */
      BH_CASE(NULL, BH_ANY, "ab\nab\nabcd\n", NULL, "grep", "-o", "ab\\|abcd",
              "ab.txt"),
      BH_CASE(NULL, BH_ANY, "ab\nabc\nabc\n", NULL, "grep", "-oE", "a|ab|abc",
              "ab.txt"),
      BH_CASE(NULL, BH_ANY, "foo\nbar\nfoobar\nbar\nfoo\n", NULL, "grep", "-oE",
              "(foo|bar)+", "w.txt"),
      BH_CASE(NULL, BH_ANY, "", NULL, "grep", "-E", "a{1", "ab.txt"),
      BH_CASE("abab\nab\n", BH_ANY, "abab\n", NULL, "grep", "\\(ab\\)\\1"),
      BH_CASE("abab\nab\n", BH_ANY, "abab\n", NULL, "grep", "-E", "(ab)\\1"),
      /* back-references renumbered when patterns are joined */
      BH_CASE("aa\nbb\nab\n", BH_ANY, "aa\nbb\n", NULL, "grep", "-e",
              "\\(a\\)\\1", "-e", "\\(b\\)\\1"),
      BH_CASE("a*b\nab\n", BH_ANY, "a*b\n", NULL, "grep", "*b"),
      BH_CASE("*x\n", BH_ANY, "*x\n", NULL, "grep", "^*"),
      BH_CASE("a{1}a\n", BH_ANY, "{1}a\n", NULL, "grep", "-o", "\\{1\\}a"),
      BH_CASE("a]b\nx\n", BH_ANY, "a]b\n", NULL, "grep", "[]]"),
      BH_CASE("a\\b\nx\n", BH_ANY, "a\\b\n", NULL, "grep", "[\\]"),
      BH_CASE("a1\nb\n", BH_ANY, "a1\n", NULL, "grep", "[[:digit:]]"),
      BH_CASE("a\nb\n", BH_ANY, "a\n", NULL, "grep", "[[=a=]]"),
      BH_CASE("a^b\na$b\n", BH_ANY, "a^b\n", NULL, "grep", "a^b"),
      BH_CASE("a^b\na$b\n", BH_ANY, "a$b\n", NULL, "grep", "a$b"),
      BH_CASE("a^b\n", 1, NULL, NULL, "grep", "-E", "a^b"),
      BH_CASE("foo bar\nfoobar\n", BH_ANY, "foo bar\n", NULL, "grep", "\\<bar"),
      BH_CASE("foo bar\nfoobar\n", BH_ANY, "foo bar\n", NULL, "grep", "foo\\>"),
      BH_CASE("foo bar\nfoobar\n", BH_ANY, "foobar\n", NULL, "grep", "\\Bbar"),
      BH_CASE("a b\nab\n", BH_ANY, "a b\n", NULL, "grep", "a\\sb"),
      BH_CASE("a b\naxb\n", BH_ANY, "1\n", NULL, "grep", "-c", "a\\Sb"),
      BH_CASE("xay\n", BH_ANY, "x\na\ny\n", NULL, "grep", "-o", "\\w\\W*"),
      /* [^...] and \s never reach into the next line */
      BH_CASE("a\nb\n", BH_ANY, "0\n", NULL, "grep", "-c", "a[^x]b"),
      BH_CASE("a\nb\n", BH_ANY, "0\n", NULL, "grep", "-c", "a[[:space:]]b"),
      BH_CASE("a\nb\n", BH_ANY, "0\n", NULL, "grep", "-c", "-P", "a\\sb"),
      /* ERE: a leading repetition repeats nothing (GNU warns) */
      BH_CASE("*o\n", 0, "*o\n", "grep: warning: * at start of expression\n",
              "grep", "-E", "*o"),
      BH_CASE("aaa\n", BH_ANY, "aaa\n", NULL, "grep", "-oE", "a**"),
      BH_CASE("aaa\n", BH_ANY, "aaa\n", NULL, "grep", "-oE", "a+?"),
      BH_CASE("aab\n", BH_ANY, "ab\n", NULL, "grep", "-oE", "a{,1}b"),
      BH_CASE("a)\n", BH_ANY, "a)\n", NULL, "grep", "-E", "a)"),
      BH_CASE("abc\n", BH_ANY, "abc\n", NULL, "grep", "-P", "(?<=a)b"),
      BH_CASE("x\ny\n", BH_ANY, "y\n", NULL, "grep", "-P", "\\Ay"),
      BH_CASE("a.b\naxb\n", BH_ANY, "a.b\n", NULL, "grep", "-F", "a.b"),
      BH_CASE("foop\nfoop foo\n", BH_ANY, "foop foo\n", NULL, "grep", "-Fw",
              "foo"),
      BH_CASE("foo\nfoo bar\n", BH_ANY, "foo\n", NULL, "grep", "-Fx", "-e",
              "foo", "-e", "bar"),
      BH_CASE("a.b\n", BH_ANY, "a.b\n", NULL, "fgrep", "."),
      BH_CASE("foo\n", BH_ANY, "foo\n", NULL, "egrep", "fo+"),
      BH_CASE("anything\n", BH_ANY, "", NULL, "grep", "-w", "^"),
      BH_CASE("bword,word\nwordb,word\nwordword\n", BH_ANY,
              "bword,word\nwordb,word\n", NULL, "grep", "-w", "word"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_errors(void **st) {
  bh *h = bh_new();
  bh_write(h, "n.txt", NUMS);
  struct {
    const char *pat, *flag, *msg;
  } bad[] = {
      {"\\(", "-G", "grep: Unmatched ( or \\(\n"},
      {"\\)", "-G", "grep: Unmatched ) or \\)\n"},
      {"(", "-E", "grep: Unmatched ( or \\(\n"},
      {"a[b", "-G", "grep: Unmatched [, [^, [:, [., or [=\n"},
      {"[[:foo:]]", "-G", "grep: Invalid character class name\n"},
      {"[:space:]", "-G",
       "grep: character class syntax is [[:space:]], not [:space:]\n"},
      {"a\\{1,0\\}", "-G", "grep: Invalid content of \\{\\}\n"},
      {"a\\{1", "-G", "grep: Unmatched \\{\n"},
      {"a{32768}", "-E", "grep: Regular expression too big\n"},
      {"a\\", "-G", "grep: Trailing backslash\n"},
      {"[b-a]", "-G", "grep: Invalid range end\n"},
      {"\\(a\\)\\2", "-G", "grep: Invalid back reference\n"},
      {"(", "-P", "grep: missing closing parenthesis\n"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_int_equal(RUN(h, NULL, "grep", bad[i].flag, bad[i].pat, "n.txt"), 2);
    ERR_IS(h, bad[i].msg);
  }
  const bh_case cases[] = {
      BH_CASE(NULL, 2, NULL, "grep: nope: No such file or directory\n", "grep",
              "x", "nope"),
      BH_CASE(NULL, 2, NULL, "", "grep", "-s", "x", "nope"),
      /* -q: a match wins over an error */
      BH_CASE(NULL, 0, NULL, NULL, "grep", "-q", "two", "nope", "n.txt"),
      BH_CASE(NULL, 2, NULL, NULL, "grep", "-q", "zz", "nope", "n.txt"),
      BH_CASE(NULL, 2, "n.txt:two\n", NULL, "grep", "two", "n.txt", "nope"),
  };
  bh_check_all(h, cases);
  vfs_mkdir(h->vfs, h->cwd, "d", 0755);
  const bh_case cases2[] = {
      BH_CASE(NULL, 2, NULL, "grep: d: Is a directory\n", "grep", "x", "d"),
      BH_CASE(NULL, 1, NULL, "", "grep", "-d", "skip", "x", "d"),
      BH_CASE(NULL, 2, NULL,
              "grep: unrecognized option '--foo'\n"
              "Usage: grep [OPTION]... PATTERNS [FILE]...\n"
              "Try 'grep --help' for more information.\n",
              "grep", "--foo", "x"),
      BH_CASE(NULL, 2, NULL,
              "grep: invalid option -- 'Y'\n"
              "Usage: grep [OPTION]... PATTERNS [FILE]...\n"
              "Try 'grep --help' for more information.\n",
              "grep", "-Y", "x"),
      BH_CASE(NULL, 2, NULL,
              "Usage: grep [OPTION]... PATTERNS [FILE]...\n"
              "Try 'grep --help' for more information.\n",
              "grep"),
      BH_CASE(NULL, 2, NULL, "grep: x: invalid context length argument\n",
              "grep", "-A", "x", "t", "n.txt"),
      BH_CASE(NULL, 2, NULL, "grep: invalid max count\n", "grep", "-m", "x",
              "t", "n.txt"),
      BH_CASE(NULL, 2, NULL, "grep: conflicting matchers specified\n", "grep",
              "-E", "-F", "t", "n.txt"),
      BH_CASE(NULL, 2, NULL, "grep: unknown binary-files type\n", "grep",
              "--binary-files=x", "t", "n.txt"),
      BH_CASE(NULL, 2, NULL,
              "grep: the -P option only supports a single pattern\n", "grep",
              "-P", "-e", "a", "-e", "b"),
      BH_CASE(NULL, 0, NULL, NULL, "grep", "--help"),
  };
  bh_check_all(h, cases2);
  assert_non_null(strstr(bh_out(h), "Usage: grep [OPTION]..."));
  bh_free(h);
}

static void t_binary(void **st) {
  bh *h = bh_new();
  bh_writen(h, "bin", "a\0b\nxyz a\n", 10);
  const bh_case cases[] = {
      BH_CASE(NULL, 0, "", "grep: bin: binary file matches\n", "grep", "a",
              "bin"),
      BH_CASE(NULL, BH_ANY, "2\n", "", "grep", "-c", "a", "bin"),
      BH_CASE(NULL, BH_ANY, "2:xyz a\n", NULL, "grep", "-a", "-n", "xyz",
              "bin"),
      BH_CASE(NULL, 1, NULL, NULL, "grep", "-I", "a", "bin"),
      BH_CASE(NULL, BH_ANY, "0\n", NULL, "grep", "-I", "-c", "a", "bin"),
      BH_CASE(NULL, 0, NULL, "", "grep", "-q", "a", "bin"),
  };
  bh_check_all(h, cases);
  /* invalid UTF-8 in a line to print, in a UTF-8 locale */
  bh_write(h, "inv", "x\xff\nab\n");
  RUN(h, NULL, "grep", "x", "inv");
  OUT_IS(h, "x\xff\n");
  bh_setenv(h, "LANG", "C.UTF-8");
  const bh_case cases2[] = {
      BH_CASE(NULL, BH_ANY, "", "grep: inv: binary file matches\n", "grep", "x",
              "inv"),
      BH_CASE(NULL, BH_ANY, "1\n", NULL, "grep", "-c", "x", "inv"),
      BH_CASE(NULL, BH_ANY, "ab\n", NULL, "grep", "a", "inv"),
      /* -z: NUL ends records */
      BH_CASE(NULL, BH_ANY, "2\n", NULL, "grep", "-z", "-c", ".", "bin"),
  };
  bh_check_all(h, cases2);
  bh_free(h);
}

static void t_utf8(void **st) {
  bh *h = bh_new();
  bh_setenv(h, "LC_ALL", "en_US.UTF-8");
  bh_write(h, "u.txt", "héllo wörld\nÉcole\nnaïve café\n");
  const bh_case cases[] = {
      BH_CASE(NULL, BH_ANY, "héllo\nwörld\nÉcole\nnaïve\ncafé\n", NULL, "grep",
              "-o", "[[:alpha:]]*", "u.txt"),
      BH_CASE(NULL, BH_ANY, "École\n", NULL, "grep", "-i", "école", "u.txt"),
      BH_CASE(NULL, BH_ANY, "wör\n", NULL, "grep", "-o", "w.r", "u.txt"),
      BH_CASE(NULL, BH_ANY, "", NULL, "grep", "-w", "caf", "u.txt"),
      BH_CASE(NULL, BH_ANY, "é\nÉ\né\n", NULL, "grep", "-oi", "É", "u.txt"),
      BH_CASE("aA1\n", BH_ANY, "a\nA\n", NULL, "grep", "-o", "-i",
              "[[:upper:]]"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_recursive(void **st) {
  bh *h = bh_new();
  vfs_mkdir_p(h->vfs, h->cwd, "d/sub", 0755);
  bh_write(h, "d/sub/x.c", "hi\n");
  bh_write(h, "d/y.h", "hi\n");
  vfs_symlink(h->vfs, h->cwd, "sub", "d/lnk");
  const bh_case cases[] = {
      BH_CASE(NULL, BH_ANY, "d/sub/x.c:hi\nd/y.h:hi\n", NULL, "grep", "-r",
              "hi", "d"),
      BH_CASE(NULL, BH_ANY, "d/lnk/x.c:hi\nd/sub/x.c:hi\nd/y.h:hi\n", NULL,
              "grep", "-R", "hi", "d"),
      BH_CASE(NULL, BH_ANY, "d/sub/x.c:hi\nd/y.h:hi\n", NULL, "grep", "-r",
              "hi", "d//"),
      BH_CASE(NULL, BH_ANY, "d/lnk/x.c:hi\n", NULL, "grep", "-r", "hi",
              "d/lnk"),
      BH_CASE(NULL, BH_ANY, "d/sub/x.c:hi\n", NULL, "grep", "-r",
              "--include=*.c", "hi", "d"),
      BH_CASE(NULL, BH_ANY, "d/y.h:hi\n", NULL, "grep", "-r", "--exclude=*.c",
              "hi", "d"),
      BH_CASE(NULL, BH_ANY, "d/y.h:hi\n", NULL, "grep", "-r",
              "--exclude-dir=sub", "hi", "d"),
      BH_CASE(NULL, BH_ANY, "", NULL, "grep", "-r", "--exclude-dir=d", "hi",
              "d"),
      BH_CASE(NULL, BH_ANY, "", NULL, "grep", "-r", "--include=*.c",
              "--exclude=*.c", "hi", "d"),
      BH_CASE(NULL, BH_ANY, "d/y.h:hi\n", NULL, "grep", "--include=*.h", "hi",
              "d/sub/x.c", "d/y.h"),
      BH_CASE(NULL, BH_ANY, "hi\n", NULL, "grep", "-r", "hi", "d/y.h"),
  };
  bh_check_all(h, cases);
  strcpy(h->cwd, "/home/user/d");
  const bh_case cases2[] = {
      BH_CASE(NULL, BH_ANY, "sub/x.c:hi\ny.h:hi\n", NULL, "grep", "-r", "hi"),
      BH_CASE(NULL, BH_ANY, "./sub/x.c\n./y.h\n", NULL, "grep", "-rl", "hi",
              "."),
      BH_CASE(NULL, BH_ANY, "sub/x.c:0\ny.h:0\n", NULL, "grep", "-rc", "zz"),
  };
  bh_check_all(h, cases2);
  /* the agent framework's fallback search line */
  strcpy(h->cwd, "/home/user");
  assert_int_equal(
      RUN(h, NULL, "grep", "-rnH", "-F", "--include=*.c", "--", "hi", "d"), 0);
  OUT_IS(h, "d/sub/x.c:1:hi\n");
  assert_int_equal(RUN(h, NULL, "grep", "-rnH", "-E", "--", "nothing", "d"), 1);
  OUT_IS(h, "");
  ERR_IS(h, "");
  bh_free(h);
}

static void t_color(void **st) {
  bh *h = bh_new();
  const bh_case cases[] = {
      BH_CASE("ab\n", BH_ANY,
              "\33[35m\33[K(standard input)\33[m\33[K\33[36m\33[K:\33[m\33[K"
              "\33[32m\33[K1\33[m\33[K\33[36m\33[K:\33[m\33[Ka\33[01;31m\33[Kb"
              "\33[m\33[K\n",
              NULL, "grep", "--color=always", "-n", "-H", "b"),
      BH_CASE("ab\n", BH_ANY, "ab\n", NULL, "grep", "--color=never", "b"),
      /* auto: not a tty */
      BH_CASE("ab\n", BH_ANY, "ab\n", NULL, "grep", "--color", "b"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_chunks(void **st) {
  bh *h = bh_new();
  /* a long input through a pipe-like stdin, in odd-sized pieces */
  buf in;
  buf_init(&in, h->m);
  for (int i = 1; i <= 30000; i++)
    buf_printf(&in, "line %d%s\n", i, i % 1000 == 0 ? " MARK" : "");
  char *a1[] = {"grep", "-c", "MARK", NULL};
  assert_int_equal(run_trickle(h, buf_cstr(&in), 4093, 3, a1), 0);
  OUT_IS(h, "30\n");
  char *a2[] = {"grep", "-n", "-B2", "-A1", "line 2000 MARK", NULL};
  run_trickle(h, buf_cstr(&in), 7, 5, a2);
  OUT_IS(h, "1998-line 1998\n1999-line 1999\n2000:line 2000 MARK\n"
            "2001-line 2001\n");
  char *a3[] = {"grep", "-b", "line 29999$", NULL};
  run_trickle(h, buf_cstr(&in), 65536 + 17, 3, a3);
  assert_non_null(strstr(bh_out(h), ":line 29999\n"));
  char *a4[] = {"grep", "-m1", "line 3", NULL};
  run_trickle(h, buf_cstr(&in), 100, 3, a4);
  OUT_IS(h, "line 3\n");
  char *a5[] = {"grep", "-vc", "0", NULL};
  run_trickle(h, buf_cstr(&in), 333, 3, a5);
  /* lines without a 0 digit among 1..30000 */
  int n = 0;
  for (int i = 1; i <= 30000; i++) {
    char b[16];
    snprintf(b, sizeof b, "%d", i);
    n += strchr(b, '0') == NULL;
  }
  char want[32];
  snprintf(want, sizeof want, "%d\n", n);
  OUT_IS(h, want);
  buf_free(&in);
  bh_free(h);
}

/* POSIX regexes have no backtracking semantics: a pattern that makes a
 * backtracker explode still matches as in GNU grep (PCRE2's automaton
 * decides), and a limit hit all the same (back-references, -P) is an error
 * with status 2, never "no match". */
static void t_no_backtracking_limit(void **st) {
  (void)st;
  bh *h = bh_new();
  const char *line = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n";
  const char *err =
      "grep: (standard input): exceeded PCRE's backtracking limit\n";
  const bh_case cases[] = {
      BH_CASE(line, 0, line, "", "grep", "-E", "^(a|aa)+c|a+b$"),
      BH_CASE(line, 0, "1\n", "", "grep", "-cE", "^(a|aa)+c|a+b$"),
      BH_CASE(line, 0, line, "", "grep", "-oE", "^(a|aa)+c|a+b$"),
      BH_CASE(line, 1, "", "", "grep", "-vE", "^(a|aa)+c|a+b$"),
      BH_CASE(line, 0, line, "", "grep", "^\\(a\\|aa\\)\\+c\\|a\\+b$"),
      /* leftmost-longest, also where greedy is not longest */
      BH_CASE("abcd\n", 0, "abc\n", "", "grep", "-oE", "a|ab|abc"),
      BH_CASE("xyz\n", 0, "xy\n", "", "grep", "-oE", "x*(xy)?"),
      /* back-references still work */
      BH_CASE("abcabc\nabcab\n", 0, "abcabc\n", "", "grep", "-oE", "(abc)\\1"),
      /* ... and are the one place a BRE/ERE can still hit the limit */
      BH_CASE(line, 2, "", err, "grep", "-E", "^(a|aa)+\\1c|a+b$"),
      /* -P keeps PCRE's rules, and GNU's error; lines before still print */
      BH_CASE("ok\naaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n", 2, "ok\n", err,
              "grep", "-P", "^ok|^(a|aa)+c|a+b$"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_basic),
      cmocka_unit_test(t_options),
      cmocka_unit_test(t_context),
      cmocka_unit_test(t_regex),
      cmocka_unit_test(t_errors),
      cmocka_unit_test(t_binary),
      cmocka_unit_test(t_utf8),
      cmocka_unit_test(t_recursive),
      cmocka_unit_test(t_color),
      cmocka_unit_test(t_chunks),
      cmocka_unit_test(t_no_backtracking_limit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
