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

/* ---- a stdin without a zero-copy view, read a few bytes at a time ------- */

typedef struct trickle {
  stream s;
  const char *p;
  size_t n, pos, step;
} trickle;

static long tr_read(stream *s, void *p, size_t n) {
  trickle *t = (trickle *)s;
  size_t k = t->n - t->pos;
  if (k > t->step)
    k = t->step;
  if (k > n)
    k = n;
  memcpy(p, t->p + t->pos, k);
  t->pos += k;
  return (long)k;
}
static void tr_release(stream *s) {
  mem_free(s->m, s);
}
static const stream_ops tr_ops = {tr_read, NULL, NULL, tr_release};

/* Like bh_runa, with stdin a pipe-like stream handing out `step` bytes per
 * read (exercises grep's chunked path). */
static int run_trickle(bh *h, const char *in, size_t step, int argc,
                       char **argv) {
  buf_clear(&h->out);
  buf_clear(&h->err);
  bi_ctx *c = &h->c;
  memset(c, 0, sizeof *c);
  trickle *t = mem_calloc(h->m, 1, sizeof *t);
  stream_init(&t->s, &tr_ops, h->m, &h->bud, STREAM_R);
  t->p = in;
  t->n = strlen(in);
  t->step = step;
  c->argc = argc;
  c->argv = argv;
  c->in = &t->s;
  c->out = stream_capture(h->m, &h->bud, &h->out, NULL, NULL, 1, 1);
  c->err = stream_capture(h->m, &h->bud, &h->err, NULL, NULL, 2, 0);
  c->m = h->m;
  c->scratch = &h->scratch;
  c->vfs = h->vfs;
  c->cwd = h->cwd;
  c->bud = &h->bud;
  c->getenv = bh_getenv_;
  arena_mark mk = arena_save(&h->scratch);
  int st = bi_lookup(argv[0])->fn(c);
  arena_release(&h->scratch, mk);
  stream_unref(c->in);
  stream_unref(c->out);
  stream_unref(c->err);
  return st;
}

/* ---- tests --------------------------------------------------------------- */

static void t_basic(void **st) {
  bh *h = bh_new();
  assert_int_equal(RUN(h, "one\ntwo\nthree\n", "grep", "t"), 0);
  OUT_IS(h, "two\nthree\n");
  assert_int_equal(RUN(h, "one\n", "grep", "zz"), 1);
  OUT_IS(h, "");
  assert_int_equal(RUN(h, "noeol", "grep", "eol"), 0);
  OUT_IS(h, "noeol\n");
  assert_int_equal(RUN(h, "", "grep", "-c", ""), 1);
  OUT_IS(h, "0\n");
  RUN(h, "x", "grep", "-c", "");
  OUT_IS(h, "1\n");
  RUN(h, "a\n\nb\n", "grep", "-n", "^$");
  OUT_IS(h, "2:\n");
  bh_write(h, "n.txt", NUMS);
  assert_int_equal(RUN(h, NULL, "grep", "-n", "t", "n.txt"), 0);
  OUT_IS(h, "2:two\n3:three\n8:eight\n10:ten\n");
  RUN(h, NULL, "grep", "-c", "e", "n.txt");
  OUT_IS(h, "7\n");
  RUN(h, NULL, "grep", "-vc", "e", "n.txt");
  OUT_IS(h, "3\n");
  RUN(h, NULL, "grep", "-v", "e", "n.txt");
  OUT_IS(h, "two\nfour\nsix\n");
  bh_free(h);
}

static void t_options(void **st) {
  bh *h = bh_new();
  bh_write(h, "w.txt", "foo bar\nfoobar\nbar_foo baz\nFOO\n");
  bh_write(h, "n.txt", NUMS);
  RUN(h, NULL, "grep", "-i", "FOO", "w.txt");
  OUT_IS(h, "foo bar\nfoobar\nbar_foo baz\nFOO\n");
  RUN(h, NULL, "grep", "-y", "-w", "foo", "w.txt");
  OUT_IS(h, "foo bar\nFOO\n");
  RUN(h, NULL, "grep", "-i", "--no-ignore-case", "FOO", "w.txt");
  OUT_IS(h, "FOO\n");
  RUN(h, NULL, "grep", "-x", "foobar", "w.txt");
  OUT_IS(h, "foobar\n");
  RUN(h, NULL, "grep", "-ob", "o", "w.txt");
  OUT_IS(h, "1:o\n2:o\n9:o\n10:o\n20:o\n21:o\n");
  RUN(h, NULL, "grep", "-bn", "bar", "w.txt");
  OUT_IS(h, "1:0:foo bar\n2:8:foobar\n3:15:bar_foo baz\n");
  RUN(h, NULL, "grep", "-H", "two", "n.txt");
  OUT_IS(h, "n.txt:two\n");
  RUN(h, NULL, "grep", "o", "n.txt", "w.txt");
  OUT_IS(h, "n.txt:one\nn.txt:two\nn.txt:four\nw.txt:foo bar\nw.txt:foobar\n"
            "w.txt:bar_foo baz\n");
  RUN(h, NULL, "grep", "-h", "x", "n.txt", "w.txt");
  OUT_IS(h, "six\n");
  assert_int_equal(RUN(h, NULL, "grep", "-l", "foo", "n.txt", "w.txt"), 0);
  OUT_IS(h, "w.txt\n");
  /* -L: GNU 3.8's status follows selected lines, not listed names */
  assert_int_equal(RUN(h, NULL, "grep", "-L", "foo", "n.txt", "w.txt"), 0);
  OUT_IS(h, "n.txt\n");
  assert_int_equal(RUN(h, NULL, "grep", "-L", "zzz", "n.txt"), 1);
  OUT_IS(h, "n.txt\n");
  assert_int_equal(RUN(h, NULL, "grep", "-q", "foo", "w.txt"), 0);
  OUT_IS(h, "");
  RUN(h, NULL, "grep", "-m2", "e", "n.txt");
  OUT_IS(h, "one\nthree\n");
  RUN(h, NULL, "grep", "-c", "-m3", "e", "n.txt");
  OUT_IS(h, "3\n");
  assert_int_equal(RUN(h, NULL, "grep", "-m0", "e", "n.txt"), 1);
  RUN(h, NULL, "grep", "-Z", "-l", "t", "n.txt");
  assert_int_equal(h->out.len, 6);
  assert_memory_equal(h->out.data, "n.txt\0", 6);
  RUN(h, NULL, "grep", "-T", "-n", "t", "n.txt");
  OUT_IS(h, " 2:\ttwo\n 3:\tthree\n 8:\teight\n10:\tten\n");
  RUN(h, "x\n", "grep", "-H", "--label=LBL", "x");
  OUT_IS(h, "LBL:x\n");
  RUN(h, "x\n", "grep", "-H", "x", "-");
  OUT_IS(h, "(standard input):x\n");
  RUN(h, NULL, "grep", "-e", "two", "-e", "six", "n.txt");
  OUT_IS(h, "two\nsix\n");
  RUN(h, NULL, "grep", "two\nsix", "n.txt");
  OUT_IS(h, "two\nsix\n");
  /* a trailing newline makes an empty pattern, which matches everything */
  RUN(h, NULL, "grep", "-c", "zz\n", "n.txt");
  OUT_IS(h, "10\n");
  bh_write(h, "pats", "tw\nsi\n");
  RUN(h, NULL, "grep", "-f", "pats", "n.txt");
  OUT_IS(h, "two\nsix\n");
  bh_write(h, "empty", "");
  assert_int_equal(RUN(h, NULL, "grep", "-f", "empty", "n.txt"), 1);
  RUN(h, NULL, "grep", "-v", "-c", "-f", "empty", "n.txt");
  OUT_IS(h, "10\n");
  RUN(h, "tw.\nthr\n", "grep", "-f", "-", "n.txt");
  OUT_IS(h, "two\nthree\n");
  RUN(h, NULL, "grep", "-12", "-c", "x", "n.txt"); /* -NUM accepted */
  OUT_IS(h, "1\n");
  bh_free(h);
}

static void t_context(void **st) {
  bh *h = bh_new();
  bh_write(h, "n.txt", NUMS);
  RUN(h, NULL, "grep", "-C1", "-n", "five", "n.txt");
  OUT_IS(h, "4-four\n5:five\n6-six\n");
  RUN(h, NULL, "grep", "-A1", "-e", "two", "-e", "six", "n.txt");
  OUT_IS(h, "two\nthree\n--\nsix\nseven\n");
  RUN(h, NULL, "grep", "-B2", "-e", "four", "-e", "ten", "n.txt");
  OUT_IS(h, "two\nthree\nfour\n--\neight\nnine\nten\n");
  RUN(h, NULL, "grep", "-2", "six", "n.txt");
  OUT_IS(h, "four\nfive\nsix\nseven\neight\n");
  RUN(h, NULL, "grep", "--group-separator=XX", "-A0", "-e", "two", "-e", "six",
      "n.txt");
  OUT_IS(h, "two\nXX\nsix\n");
  RUN(h, NULL, "grep", "--no-group-separator", "-A0", "-e", "two", "-e", "six",
      "n.txt");
  OUT_IS(h, "two\nsix\n");
  RUN(h, NULL, "grep", "-m1", "-A2", "e", "n.txt");
  OUT_IS(h, "one\ntwo\nthree\n");
  RUN(h, NULL, "grep", "-n", "-A1", "-e", "one", "-e", "two", "n.txt");
  OUT_IS(h, "1:one\n2:two\n3-three\n");
  bh_free(h);
}

static void t_regex(void **st) {
  bh *h = bh_new();
  bh_write(h, "ab.txt", "ab\nabc\nabcd\n");
  bh_write(h, "w.txt", "foo bar\nfoobar\nbar_foo baz\nFOO\n");
  RUN(h, NULL, "grep", "-E", "o{2}", "w.txt");
  OUT_IS(h, "foo bar\nfoobar\nbar_foo baz\n");
  RUN(h, NULL, "grep", "-c", "o\\{2\\}", "w.txt");
  OUT_IS(h, "3\n");
  /* leftmost-longest for -o, as POSIX */
  RUN(h, NULL, "grep", "-o", "ab\\|abcd", "ab.txt");
  OUT_IS(h, "ab\nab\nabcd\n");
  RUN(h, NULL, "grep", "-oE", "a|ab|abc", "ab.txt");
  OUT_IS(h, "ab\nabc\nabc\n");
  RUN(h, NULL, "grep", "-oE", "(foo|bar)+", "w.txt");
  OUT_IS(h, "foo\nbar\nfoobar\nbar\nfoo\n");
  RUN(h, NULL, "grep", "-E", "a{1", "ab.txt");
  OUT_IS(h, "");
  RUN(h, "abab\nab\n", "grep", "\\(ab\\)\\1");
  OUT_IS(h, "abab\n");
  RUN(h, "abab\nab\n", "grep", "-E", "(ab)\\1");
  OUT_IS(h, "abab\n");
  /* back-references renumbered when patterns are joined */
  RUN(h, "aa\nbb\nab\n", "grep", "-e", "\\(a\\)\\1", "-e", "\\(b\\)\\1");
  OUT_IS(h, "aa\nbb\n");
  RUN(h, "a*b\nab\n", "grep", "*b");
  OUT_IS(h, "a*b\n");
  RUN(h, "*x\n", "grep", "^*");
  OUT_IS(h, "*x\n");
  RUN(h, "a{1}a\n", "grep", "-o", "\\{1\\}a");
  OUT_IS(h, "{1}a\n");
  RUN(h, "a]b\nx\n", "grep", "[]]");
  OUT_IS(h, "a]b\n");
  RUN(h, "a\\b\nx\n", "grep", "[\\]");
  OUT_IS(h, "a\\b\n");
  RUN(h, "a1\nb\n", "grep", "[[:digit:]]");
  OUT_IS(h, "a1\n");
  RUN(h, "a\nb\n", "grep", "[[=a=]]");
  OUT_IS(h, "a\n");
  RUN(h, "a^b\na$b\n", "grep", "a^b");
  OUT_IS(h, "a^b\n");
  RUN(h, "a^b\na$b\n", "grep", "a$b");
  OUT_IS(h, "a$b\n");
  assert_int_equal(RUN(h, "a^b\n", "grep", "-E", "a^b"), 1);
  RUN(h, "foo bar\nfoobar\n", "grep", "\\<bar");
  OUT_IS(h, "foo bar\n");
  RUN(h, "foo bar\nfoobar\n", "grep", "foo\\>");
  OUT_IS(h, "foo bar\n");
  RUN(h, "foo bar\nfoobar\n", "grep", "\\Bbar");
  OUT_IS(h, "foobar\n");
  RUN(h, "a b\nab\n", "grep", "a\\sb");
  OUT_IS(h, "a b\n");
  RUN(h, "a b\naxb\n", "grep", "-c", "a\\Sb");
  OUT_IS(h, "1\n");
  RUN(h, "xay\n", "grep", "-o", "\\w\\W*");
  OUT_IS(h, "x\na\ny\n");
  /* [^...] and \s never reach into the next line */
  RUN(h, "a\nb\n", "grep", "-c", "a[^x]b");
  OUT_IS(h, "0\n");
  RUN(h, "a\nb\n", "grep", "-c", "a[[:space:]]b");
  OUT_IS(h, "0\n");
  RUN(h, "a\nb\n", "grep", "-c", "-P", "a\\sb");
  OUT_IS(h, "0\n");
  /* ERE: a leading repetition repeats nothing (GNU warns) */
  assert_int_equal(RUN(h, "*o\n", "grep", "-E", "*o"), 0);
  OUT_IS(h, "*o\n");
  ERR_IS(h, "grep: warning: * at start of expression\n");
  RUN(h, "aaa\n", "grep", "-oE", "a**");
  OUT_IS(h, "aaa\n");
  RUN(h, "aaa\n", "grep", "-oE", "a+?");
  OUT_IS(h, "aaa\n");
  RUN(h, "aab\n", "grep", "-oE", "a{,1}b");
  OUT_IS(h, "ab\n");
  RUN(h, "a)\n", "grep", "-E", "a)");
  OUT_IS(h, "a)\n");
  RUN(h, "abc\n", "grep", "-P", "(?<=a)b");
  OUT_IS(h, "abc\n");
  RUN(h, "x\ny\n", "grep", "-P", "\\Ay");
  OUT_IS(h, "y\n");
  RUN(h, "a.b\naxb\n", "grep", "-F", "a.b");
  OUT_IS(h, "a.b\n");
  RUN(h, "foop\nfoop foo\n", "grep", "-Fw", "foo");
  OUT_IS(h, "foop foo\n");
  RUN(h, "foo\nfoo bar\n", "grep", "-Fx", "-e", "foo", "-e", "bar");
  OUT_IS(h, "foo\n");
  RUN(h, "a.b\n", "fgrep", ".");
  OUT_IS(h, "a.b\n");
  RUN(h, "foo\n", "egrep", "fo+");
  OUT_IS(h, "foo\n");
  RUN(h, "anything\n", "grep", "-w", "^");
  OUT_IS(h, "");
  RUN(h, "bword,word\nwordb,word\nwordword\n", "grep", "-w", "word");
  OUT_IS(h, "bword,word\nwordb,word\n");
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
  assert_int_equal(RUN(h, NULL, "grep", "x", "nope"), 2);
  ERR_IS(h, "grep: nope: No such file or directory\n");
  assert_int_equal(RUN(h, NULL, "grep", "-s", "x", "nope"), 2);
  ERR_IS(h, "");
  /* -q: a match wins over an error */
  assert_int_equal(RUN(h, NULL, "grep", "-q", "two", "nope", "n.txt"), 0);
  assert_int_equal(RUN(h, NULL, "grep", "-q", "zz", "nope", "n.txt"), 2);
  assert_int_equal(RUN(h, NULL, "grep", "two", "n.txt", "nope"), 2);
  OUT_IS(h, "n.txt:two\n");
  vfs_mkdir(h->vfs, h->cwd, "d", 0755);
  assert_int_equal(RUN(h, NULL, "grep", "x", "d"), 2);
  ERR_IS(h, "grep: d: Is a directory\n");
  assert_int_equal(RUN(h, NULL, "grep", "-d", "skip", "x", "d"), 1);
  ERR_IS(h, "");
  assert_int_equal(RUN(h, NULL, "grep", "--foo", "x"), 2);
  ERR_IS(h, "grep: unrecognized option '--foo'\n"
            "Usage: grep [OPTION]... PATTERNS [FILE]...\n"
            "Try 'grep --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "grep", "-Y", "x"), 2);
  ERR_IS(h, "grep: invalid option -- 'Y'\n"
            "Usage: grep [OPTION]... PATTERNS [FILE]...\n"
            "Try 'grep --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "grep"), 2);
  ERR_IS(h, "Usage: grep [OPTION]... PATTERNS [FILE]...\n"
            "Try 'grep --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "grep", "-A", "x", "t", "n.txt"), 2);
  ERR_IS(h, "grep: x: invalid context length argument\n");
  assert_int_equal(RUN(h, NULL, "grep", "-m", "x", "t", "n.txt"), 2);
  ERR_IS(h, "grep: invalid max count\n");
  assert_int_equal(RUN(h, NULL, "grep", "-E", "-F", "t", "n.txt"), 2);
  ERR_IS(h, "grep: conflicting matchers specified\n");
  assert_int_equal(RUN(h, NULL, "grep", "--binary-files=x", "t", "n.txt"), 2);
  ERR_IS(h, "grep: unknown binary-files type\n");
  assert_int_equal(RUN(h, NULL, "grep", "-P", "-e", "a", "-e", "b"), 2);
  ERR_IS(h, "grep: the -P option only supports a single pattern\n");
  assert_int_equal(RUN(h, NULL, "grep", "--help"), 0);
  assert_non_null(strstr(bh_out(h), "Usage: grep [OPTION]..."));
  bh_free(h);
}

static void t_binary(void **st) {
  bh *h = bh_new();
  bh_writen(h, "bin", "a\0b\nxyz a\n", 10);
  assert_int_equal(RUN(h, NULL, "grep", "a", "bin"), 0);
  OUT_IS(h, "");
  ERR_IS(h, "grep: bin: binary file matches\n");
  RUN(h, NULL, "grep", "-c", "a", "bin");
  OUT_IS(h, "2\n");
  ERR_IS(h, "");
  RUN(h, NULL, "grep", "-a", "-n", "xyz", "bin");
  OUT_IS(h, "2:xyz a\n");
  assert_int_equal(RUN(h, NULL, "grep", "-I", "a", "bin"), 1);
  RUN(h, NULL, "grep", "-I", "-c", "a", "bin");
  OUT_IS(h, "0\n");
  assert_int_equal(RUN(h, NULL, "grep", "-q", "a", "bin"), 0);
  ERR_IS(h, "");
  /* invalid UTF-8 in a line to print, in a UTF-8 locale */
  bh_write(h, "inv", "x\xff\nab\n");
  RUN(h, NULL, "grep", "x", "inv");
  OUT_IS(h, "x\xff\n");
  bh_setenv(h, "LANG", "C.UTF-8");
  RUN(h, NULL, "grep", "x", "inv");
  OUT_IS(h, "");
  ERR_IS(h, "grep: inv: binary file matches\n");
  RUN(h, NULL, "grep", "-c", "x", "inv");
  OUT_IS(h, "1\n");
  RUN(h, NULL, "grep", "a", "inv");
  OUT_IS(h, "ab\n");
  /* -z: NUL ends records */
  RUN(h, NULL, "grep", "-z", "-c", ".", "bin");
  OUT_IS(h, "2\n");
  bh_free(h);
}

static void t_utf8(void **st) {
  bh *h = bh_new();
  bh_setenv(h, "LC_ALL", "en_US.UTF-8");
  bh_write(h, "u.txt", "héllo wörld\nÉcole\nnaïve café\n");
  RUN(h, NULL, "grep", "-o", "[[:alpha:]]*", "u.txt");
  OUT_IS(h, "héllo\nwörld\nÉcole\nnaïve\ncafé\n");
  RUN(h, NULL, "grep", "-i", "école", "u.txt");
  OUT_IS(h, "École\n");
  RUN(h, NULL, "grep", "-o", "w.r", "u.txt");
  OUT_IS(h, "wör\n");
  RUN(h, NULL, "grep", "-w", "caf", "u.txt");
  OUT_IS(h, "");
  RUN(h, NULL, "grep", "-oi", "É", "u.txt");
  OUT_IS(h, "é\nÉ\né\n");
  RUN(h, "aA1\n", "grep", "-o", "-i", "[[:upper:]]");
  OUT_IS(h, "a\nA\n");
  bh_free(h);
}

static void t_recursive(void **st) {
  bh *h = bh_new();
  vfs_mkdir_p(h->vfs, h->cwd, "d/sub", 0755);
  bh_write(h, "d/sub/x.c", "hi\n");
  bh_write(h, "d/y.h", "hi\n");
  vfs_symlink(h->vfs, h->cwd, "sub", "d/lnk");
  RUN(h, NULL, "grep", "-r", "hi", "d");
  OUT_IS(h, "d/sub/x.c:hi\nd/y.h:hi\n");
  RUN(h, NULL, "grep", "-R", "hi", "d");
  OUT_IS(h, "d/lnk/x.c:hi\nd/sub/x.c:hi\nd/y.h:hi\n");
  RUN(h, NULL, "grep", "-r", "hi", "d//");
  OUT_IS(h, "d/sub/x.c:hi\nd/y.h:hi\n");
  RUN(h, NULL, "grep", "-r", "hi", "d/lnk");
  OUT_IS(h, "d/lnk/x.c:hi\n");
  RUN(h, NULL, "grep", "-r", "--include=*.c", "hi", "d");
  OUT_IS(h, "d/sub/x.c:hi\n");
  RUN(h, NULL, "grep", "-r", "--exclude=*.c", "hi", "d");
  OUT_IS(h, "d/y.h:hi\n");
  RUN(h, NULL, "grep", "-r", "--exclude-dir=sub", "hi", "d");
  OUT_IS(h, "d/y.h:hi\n");
  RUN(h, NULL, "grep", "-r", "--exclude-dir=d", "hi", "d");
  OUT_IS(h, "");
  RUN(h, NULL, "grep", "-r", "--include=*.c", "--exclude=*.c", "hi", "d");
  OUT_IS(h, "");
  RUN(h, NULL, "grep", "--include=*.h", "hi", "d/sub/x.c", "d/y.h");
  OUT_IS(h, "d/y.h:hi\n");
  RUN(h, NULL, "grep", "-r", "hi", "d/y.h");
  OUT_IS(h, "hi\n");
  strcpy(h->cwd, "/home/user/d");
  RUN(h, NULL, "grep", "-r", "hi");
  OUT_IS(h, "sub/x.c:hi\ny.h:hi\n");
  RUN(h, NULL, "grep", "-rl", "hi", ".");
  OUT_IS(h, "./sub/x.c\n./y.h\n");
  RUN(h, NULL, "grep", "-rc", "zz");
  OUT_IS(h, "sub/x.c:0\ny.h:0\n");
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
  RUN(h, "ab\n", "grep", "--color=always", "-n", "-H", "b");
  OUT_IS(h, "\33[35m\33[K(standard input)\33[m\33[K\33[36m\33[K:\33[m\33[K"
            "\33[32m\33[K1\33[m\33[K\33[36m\33[K:\33[m\33[Ka\33[01;31m\33[Kb"
            "\33[m\33[K\n");
  RUN(h, "ab\n", "grep", "--color=never", "b");
  OUT_IS(h, "ab\n");
  RUN(h, "ab\n", "grep", "--color", "b"); /* auto: not a tty */
  OUT_IS(h, "ab\n");
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_basic),   cmocka_unit_test(t_options),
      cmocka_unit_test(t_context), cmocka_unit_test(t_regex),
      cmocka_unit_test(t_errors),  cmocka_unit_test(t_binary),
      cmocka_unit_test(t_utf8),    cmocka_unit_test(t_recursive),
      cmocka_unit_test(t_color),   cmocka_unit_test(t_chunks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
