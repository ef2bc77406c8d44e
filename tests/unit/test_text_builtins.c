// layers: core vfs builtins
/* Unit tests of the text builtins: echo, printf, true/false, test, ...
 * Expected outputs were checked against bash 5.2 and GNU coreutils 9.1. */
#include <stdio.h>

#include "bi_harness.h"

#define RUN(h, in, ...) bh_run(h, in, __VA_ARGS__, NULL)
#define OUT_IS(h, s) assert_string_equal(bh_out(h), s)
#define ERR_IS(h, s) assert_string_equal(bh_err(h), s)

static void t_echo(void **st) {
  bh *h = bh_new();
  bh_setenv(h, "LANG", "C.UTF-8");
  const bh_case cases[] = {
      BH_CASE(NULL, 0, "a b\n", NULL, "echo", "a", "b"),
      BH_CASE(NULL, BH_ANY, "x", NULL, "echo", "-n", "x"),
      BH_CASE(NULL, BH_ANY, "a\tb\n", NULL, "echo", "-ne", "a\\tb\\n"),
      BH_CASE(NULL, BH_ANY, "-nx -- -\n", NULL, "echo", "-nx", "--", "-"),
      BH_CASE(NULL, BH_ANY, "\\101|A|A|\x04g|\xe2\x98\xba|\\q|", NULL, "echo",
              "-e", "\\101|\\0101|\\x41|\\x4g|\\u263a|\\q|\\c|after"),
      BH_CASE(NULL, BH_ANY, "a\\nb\n", NULL, "echo", "-eE", "a\\nb"),
      BH_CASE(NULL, BH_ANY, "a\\\"b\\?c\\x\n", NULL, "echo", "-e",
              "a\\\"b\\?c\\x"),
      BH_CASE(NULL, BH_ANY, "\n", NULL, "echo"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_true_false(void **st) {
  bh *h = bh_new();
  assert_int_equal(RUN(h, NULL, "true", "--help"), 0);
  assert_int_equal(RUN(h, NULL, "false", "x"), 1);
  OUT_IS(h, "");
  bh_free(h);
}

static void t_printf(void **st) {
  bh *h = bh_new();
  bh_setenv(h, "LANG", "C.UTF-8");
  const bh_case cases[] = {
      BH_CASE(NULL, 0, "a b\nc \n", NULL, "printf", "%s %s\\n", "a", "b", "c"),
      BH_CASE(NULL, 1, "12|0|65|66|31|8|5|-3|4|0|",
              "printf: 12abc: invalid number\nprintf: x: invalid number\n",
              "printf", "%d|", "12abc", "x", "'A", "\"B", "0x1f", "010", " 5",
              "-3", "+4", ""),
      BH_CASE(NULL, BH_ANY,
              "18446744073709551615 ffffffffffffffff 1777777777777777777777\n",
              NULL, "printf", "%u %x %o\\n", "-1", "-1", "-1"),
      BH_CASE(NULL, BH_ANY, "abc|ab   |   ab|   7|8  |3.14\n", NULL, "printf",
              "%.3s|%-5s|%5s|%*d|%-*d|%.*f\\n", "abcdef", "ab", "ab", "4", "7",
              "3", "8", "2", "3.14159"),
      BH_CASE(NULL, BH_ANY,
              "1.500000 1.500000e+00 1.5 0xcp-3 INF 1.000000E+300 0.0001\n",
              NULL, "printf", "%f %e %g %a %F %E %G\\n", "1.5", "1.5", "1.5",
              "1.5", "inf", "1e300", "0.0001"),
      BH_CASE(NULL, BH_ANY, "3|  004|+5| 6|0xff|010\n", NULL, "printf",
              "%i|%5.3d|%+d|% d|%#x|%#o\\n", "3", "4", "5", "6", "255", "8"),
      BH_CASE(NULL, 1, "a", "printf: `y': invalid format character\n", "printf",
              "a%yb\\n"),
      BH_CASE(NULL, 1, "ab", "printf: `%': missing format character\n",
              "printf", "ab%"),
      BH_CASE(NULL, 0, "9223372036854775807\n",
              "printf: warning: 99999999999999999999: Numerical result out of "
              "range\n",
              "printf", "%d\\n", "99999999999999999999"),
      BH_CASE(NULL, BH_ANY, "A|A|a\tb|x", NULL, "printf", "%b|", "\\101",
              "\\0101", "a\\tb", "x\\cy", "z"),
  };
  bh_check_all(h, cases);
  RUN(h, NULL, "printf", "%q\\n", "a b", "it's", "\t", "", "~x", "a=b", "#a",
      "a#", "a,b", "a:~b", "x~", "\x01 b'c\"", "\x1b\a\x7f", "\xff", "é");
  ERR_IS(h, "");
  OUT_IS(h, "a\\ b\nit\\'s\n$'\\t'\n''\n\\~x\na=b\n\\#a\na#\na\\,b\na:\\~b\n"
            "x~\n$'\\001 b\\'c\"'\n$'\\E\\a\\177'\n$'\\377'\né\n");
  /* the C locale: bytes past ASCII are unprintable, \u that needs them is
   * written back as an escape */
  bh_setenv(h, "LANG", "C");
  RUN(h, NULL, "printf", "%q|\\u00e9|\\U0001f600|\\u0041\\n", "é");
  OUT_IS(h, "$'\\303\\251'|\\u00E9|\\U0001F600|A\n");
  bh_setenv(h, "LANG", "C.UTF-8");
  const bh_case cases2[] = {
      BH_CASE(NULL, BH_ANY, "    x|a\tb|ab|h|\n", NULL, "printf",
              "%5c|%-3b|%.2b|%c|\\n", "x", "a\\tb", "abc", "héllo"),
      BH_CASE(NULL, BH_ANY, "1970-01-01 00:00:00|86400|197|\n", NULL, "printf",
              "%(%Y-%m-%d %H:%M:%S)T|%(%s)T|%.3(%Y)T|\\n", "0", "86400", "0"),
      BH_CASE(NULL, BH_ANY, "2001-09-09\n", NULL, "printf", "%(%F)T\\n"),
      BH_CASE(NULL, BH_ANY, "1 |\n", NULL, "printf", "%d %s|\\n", "1"),
      BH_CASE(NULL, BH_ANY, "ab   |7   |%|\n", NULL, "printf",
              "%*s|%-4d|%%|\\n", "-5", "ab", "7"),
      BH_CASE(NULL, BH_ANY, "AA\xc3\xa9\\c\"\\q\n", NULL, "printf",
              "\\101\\x41\\u00e9\\c\\\"\\q\\n"),
      BH_CASE(NULL, BH_ANY, "233\n", NULL, "printf", "%d\\n", "'\xc3\xa9"),
      BH_CASE(NULL, 0, "", NULL, "printf", "-v", "v", "%s-%d", "a", "5"),
  };
  bh_check_all(h, cases2);
  assert_string_equal(bh_var(h, "v"), "a-5");
  const bh_case cases3[] = {
      BH_CASE(NULL, 2, NULL,
              "printf: usage: printf [-v var] format [arguments]\n", "printf"),
      BH_CASE(NULL, 2, NULL,
              "printf: -z: invalid option\n"
              "printf: usage: printf [-v var] format [arguments]\n",
              "printf", "-z"),
      BH_CASE(NULL, BH_ANY, "-x\n", NULL, "printf", "--", "%s\\n", "-x"),
      BH_CASE(NULL, BH_ANY, "x\n", NULL, "printf", "x\\n", "a", "b"),
  };
  bh_check_all(h, cases3);
  bh_free(h);
}

static void t_cat(void **st) {
  bh *h = bh_new();
  bh_write(h, "f1", "a\nb\n");
  bh_write(h, "f2", "c");
  const bh_case cases[] = {
      BH_CASE("in\n", 0, "a\nb\nin\nc", NULL, "cat", "f1", "-", "f2"),
      BH_CASE(NULL, 1, "a\nb\n", "cat: nope: No such file or directory\n",
              "cat", "nope", "f1"),
      BH_CASE(NULL, 1, NULL, "cat: /tmp: Is a directory\n", "cat", "/tmp"),
      BH_CASE("a b\tc\n\x01\x80\xff\n", BH_ANY, "a b^Ic$\n^AM-^@M-^?$\n", NULL,
              "cat", "-A"),
      BH_CASE("a\n\n\nb\n", BH_ANY, "     1\ta\n     2\t\n     3\tb\n", NULL,
              "cat", "-ns"),
      BH_CASE("a\n\nb", BH_ANY, "     1\ta$\n$\n     2\tb", NULL, "cat", "-bE"),
      /* numbering and line state continue across files */
      BH_CASE(NULL, BH_ANY, "     1\tca\n     2\tb\n", NULL, "cat", "-n", "f2",
              "f1"),
      BH_CASE(NULL, 1, NULL,
              "cat: invalid option -- 'x'\n"
              "Try 'cat --help' for more information.\n",
              "cat", "-x"),
      BH_CASE(NULL, BH_ANY, "", NULL, "cat", "/dev/null"),
  };
  bh_check_all(h, cases);
  /* binary data, and a pipe-like stdin */
  h->stdin_chunk = 3;
  assert_int_equal(bh_runb(h, "x\0y\nz", 5, "cat", NULL), 0);
  assert_int_equal(h->out.len, 5);
  assert_memory_equal(h->out.data, "x\0y\nz", 5);
  RUN(h, "ab\ncd\n", "cat", "-n", "-", "f2");
  OUT_IS(h, "     1\tab\n     2\tcd\n     3\tc");
  assert_int_equal(RUN(h, NULL, "cat", "--help"), 0);
  assert_non_null(strstr(bh_out(h), "Usage: cat [OPTION]... [FILE]..."));
  bh_free(h);
}

static void t_test(void **st) {
  bh *h = bh_new();
  bh_write(h, "f", "x");
  bh_write(h, "empty", "");
  assert_int_equal(vfs_symlink(h->vfs, h->cwd, "f", "lnk"), 0);
  struct {
    const char *a[6];
    int st;
  } cases[] = {
      {{NULL}, 1},
      {{"a"}, 0},
      {{""}, 1},
      {{"-n"}, 0},
      {{"!", ""}, 0},
      {{"-z", ""}, 0},
      {{"a", "=", "a"}, 0},
      {{"a", "!=", "a"}, 1},
      {{"a", "<", "b"}, 0},
      {{"10", "-gt", "9"}, 0},
      {{" 1 ", "-eq", "1"}, 0},
      {{"-5", "-lt", "-4"}, 0},
      {{"!", "a", "=", "a"}, 1},
      {{"(", "a", ")"}, 0},
      {{"a", "-a", ""}, 1},
      {{"", "-o", "b"}, 0},
      {{"-f", "f"}, 0},
      {{"-d", "f"}, 1},
      {{"-d", "/tmp"}, 0},
      {{"-e", "nope"}, 1},
      {{"-s", "f"}, 0},
      {{"-s", "empty"}, 1},
      {{"-L", "lnk"}, 0},
      {{"-h", "f"}, 1},
      {{"-r", "f"}, 0},
      {{"-x", "f"}, 1},
      {{"-k", "/tmp"}, 0},
      {{"-c", "/dev/null"}, 0},
      {{"-t", "1"}, 1},
      {{"f", "-ef", "lnk"}, 0},
      {{"f", "-nt", "nope"}, 0},
      {{"!", "-e", "f", "-o", "-d", "/tmp"}, 0},
      {{"(", "a", "=", "a", ")", "-a"}, 2},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *argv[8] = {"test"};
    int n = 1;
    for (int k = 0; k < 6 && cases[i].a[k]; k++)
      argv[n++] = (char *)cases[i].a[k];
    argv[n] = NULL;
    int got = bh_runa(h, NULL, 0, n, argv);
    if (got != cases[i].st)
      fail_msg("case %zu: status %d, want %d (%s)", i, got, cases[i].st,
               bh_err(h));
  }
  const bh_case cases2[] = {
      BH_CASE(NULL, 2, NULL, "test: a: integer expression expected\n", "test",
              "1", "-eq", "a"),
      BH_CASE(NULL, 2, NULL, "test: a: unary operator expected\n", "test", "a",
              "b"),
      BH_CASE(NULL, 2, NULL, "test: -q: binary operator expected\n", "test",
              "a", "-q", "b"),
      BH_CASE(NULL, 2, NULL, "test: too many arguments\n", "test", "a", "b",
              "c", "d", "e"),
      BH_CASE(NULL, 2, NULL, "test: `)' expected, found !\n", "test", "(", "-z",
              ")", "!"),
      BH_CASE(NULL, 2, NULL, "[: missing `]'\n", "[", "a"),
      BH_CASE(NULL, 0, NULL, NULL, "[", "a", "=", "a", "]"),
      BH_CASE(NULL, 1, NULL, NULL, "[", "]"),
  };
  bh_check_all(h, cases2);
  bh_setenv(h, "SHELLOPTS", "braceexpand:errexit:hashall");
  const bh_case cases3[] = {
      BH_CASE(NULL, 0, NULL, NULL, "test", "-o", "errexit"),
      BH_CASE(NULL, 1, NULL, NULL, "test", "-o", "xtrace"),
      BH_CASE(NULL, 0, NULL, NULL, "test", "-v", "SHELLOPTS"),
  };
  bh_check_all(h, cases3);
  bh_free(h);
}

static void t_seq(void **st) {
  bh *h = bh_new();
  const bh_case cases[] = {
      BH_CASE(NULL, BH_ANY, "1\n2\n3\n", NULL, "seq", "3"),
      BH_CASE(NULL, BH_ANY, "1.0\n1.5\n2.0\n2.5\n3.0\n", NULL, "seq", "1",
              "0.5", "3"),
      BH_CASE(NULL, BH_ANY, "08\n09\n10\n11\n", NULL, "seq", "-w", "8", "11"),
      BH_CASE(NULL, BH_ANY, "-1,00,01\n", NULL, "seq", "-s,", "-w", "-1", "1"),
      BH_CASE(NULL, BH_ANY, "001\n002\n", NULL, "seq", "-f", "%03g", "2"),
      BH_CASE(NULL, BH_ANY, "0.1\n0.2\n0.3\n", NULL, "seq", "0.1", "0.1",
              "0.3"),
      BH_CASE(NULL, BH_ANY, "5\n3\n1\n", NULL, "seq", "5", "-2", "1"),
      BH_CASE(NULL, BH_ANY, "1.0\n1.5\n2.0\n", NULL, "seq", "-w", "1", "0.5",
              "2"),
      BH_CASE(NULL, BH_ANY,
              "18446744073709551615\n18446744073709551616\n"
              "18446744073709551617\n",
              NULL, "seq", "18446744073709551615", "18446744073709551617"),
      BH_CASE(NULL, BH_ANY, "", NULL, "seq", "2", "1"),
      BH_CASE(NULL, 1, NULL,
              "seq: invalid Zero increment value: '0'\n"
              "Try 'seq --help' for more information.\n",
              "seq", "1", "0", "3"),
      BH_CASE(NULL, 1, NULL,
              "seq: invalid floating point argument: 'a'\n"
              "Try 'seq --help' for more information.\n",
              "seq", "a"),
      BH_CASE(NULL, 1, NULL, "seq: format '%d' has unknown %d directive\n",
              "seq", "-f", "%d", "3"),
      BH_CASE(NULL, 1, NULL,
              "seq: missing operand\nTry 'seq --help' for more information.\n",
              "seq"),
  };
  bh_check_all(h, cases);
  /* a big count through the decimal-string path */
  RUN(h, NULL, "seq", "100000");
  assert_int_equal(h->out.len, 588895);
  bh_free(h);
}

static void t_head_tail(void **st) {
  bh *h = bh_new();
  buf n30;
  buf_init(&n30, h->m);
  for (int i = 1; i <= 30; i++)
    buf_printf(&n30, "%d\n", i);
  bh_write(h, "n30", n30.data);
  bh_write(h, "nonl", "a\nb\nc");
  for (int pipe = 0; pipe < 2; pipe++) {
    h->stdin_chunk = pipe ? 4 : 0;
    const bh_case cases[] = {
        BH_CASE(n30.data, BH_ANY, "1\n2\n3\n", NULL, "head", "-n", "3"),
        BH_CASE(n30.data, BH_ANY, "1\n2\n3\n", NULL, "head", "-n", "-27"),
        BH_CASE(n30.data, BH_ANY, "1\n2\n3", NULL, "head", "-c", "5"),
        BH_CASE(n30.data, BH_ANY, "1\n2\n", NULL, "head", "-c", "-77"),
        BH_CASE("a\nb\nc", BH_ANY, "a\nb\n", NULL, "head", "-n", "-1"),
        BH_CASE("a\nb\nc", BH_ANY, "a\nb\nc", NULL, "head", "-n", "-0"),
        BH_CASE(n30.data, BH_ANY, "29\n30\n", NULL, "tail", "-n", "2"),
        BH_CASE(n30.data, BH_ANY, "29\n30\n", NULL, "tail", "-n", "+29"),
        BH_CASE(n30.data, BH_ANY, "30\n", NULL, "tail", "-c", "3"),
        BH_CASE(n30.data, BH_ANY, "29\n30\n", NULL, "tail", "-c", "+76"),
        BH_CASE("a\nb\nc", BH_ANY, "b\nc", NULL, "tail", "-n", "2"),
        BH_CASE("a\nb\nc", BH_ANY, "", NULL, "tail", "-n", "0"),
    };
    bh_check_all(h, cases);
    RUN(h, "x\0y\0z\0", "tail", "-z", "-n", "1");
  }
  h->stdin_chunk = 0;
  const bh_case cases2[] = {
      BH_CASE(NULL, BH_ANY, "1\n2\n", NULL, "head", "-2", "n30"),
      BH_CASE(NULL, BH_ANY, "1\n2", NULL, "head", "-3c", "n30"),
      BH_CASE(NULL, BH_ANY, "28\n29\n30\n", NULL, "tail", "-3", "n30"),
      BH_CASE(NULL, BH_ANY, "29\n30\n", NULL, "tail", "+29", "n30"),
      BH_CASE("x\n", 1, "==> nonl <==\na\n\n==> standard input <==\nx\n",
              "head: cannot open 'nope' for reading: No such file or "
              "directory\n",
              "head", "-n1", "nonl", "nope", "-"),
      BH_CASE(NULL, BH_ANY, "c30\n", NULL, "tail", "-q", "-n1", "nonl", "n30"),
      BH_CASE(NULL, BH_ANY, "==> nonl <==\na\n", NULL, "head", "-v", "-n", "1",
              "nonl"),
      BH_CASE(NULL, 1, NULL, "head: invalid number of lines: 'x'\n", "head",
              "-n", "x"),
      BH_CASE(NULL, 1, NULL, "head: invalid number of bytes: '1x'\n", "head",
              "-c", "-1x"),
      BH_CASE(NULL, BH_ANY, n30.data, NULL, "head", "-n", "1K", "n30"),
      BH_CASE(NULL, 1, NULL, "tail: error reading '/tmp': Is a directory\n",
              "tail", "/tmp"),
      BH_CASE(NULL, 1, NULL, NULL, "tail", "-f", "n30"),
  };
  bh_check_all(h, cases2);
  assert_non_null(strstr(bh_err(h), "cannot follow"));
  buf_free(&n30);
  bh_free(h);
}

static void t_wc(void **st) {
  bh *h = bh_new();
  bh_setenv(h, "LANG", "C.UTF-8");
  bh_write(h, "f1", "a\nb\n\n\n\tc\x01\x80\xff\n d");
  bh_write(h, "f2", "x\ny\n");
  const bh_case cases[] = {
      BH_CASE(NULL, BH_ANY, " 5  4 14 f1\n 2  2  4 f2\n 7  6 18 total\n", NULL,
              "wc", "f1", "f2"),
      BH_CASE(NULL, BH_ANY, "5 f1\n", NULL, "wc", "-l", "f1"),
      BH_CASE("a b\n", BH_ANY, "      1       2       4\n", NULL, "wc"),
      BH_CASE("a b\n", BH_ANY, "1\n", NULL, "wc", "-l"),
      BH_CASE(NULL, 1, "14 f1\n14 total\n",
              "wc: nope: No such file or directory\n", "wc", "-c", "f1",
              "nope"),
      BH_CASE("x\n", BH_ANY, "      5 f1\n      1 -\n      6 total\n", NULL,
              "wc", "-l", "f1", "-"),
      /* UTF-8: characters, no-break spaces separate words, widths */
      BH_CASE("a\xc2\xa0"
              "b\xe2\x80\x83"
              "c",
              BH_ANY, "      3       5       5\n", NULL, "wc", "-wmL"),
      BH_CASE("a\xff"
              "b\xe2\x82",
              BH_ANY, "      1       2       5\n", NULL, "wc", "-wmc"),
      BH_CASE("ab\tc\r\xe4\xb8\xadx\n", BH_ANY, "9\n", NULL, "wc", "-L"),
  };
  bh_check_all(h, cases);
  /* a character split between two reads */
  h->stdin_chunk = 1;
  RUN(h, "\xe4\xb8\xad\xe4\xb8\xad x\n", "wc", "-mwl");
  OUT_IS(h, "      1       2       5\n");
  h->stdin_chunk = 0;
  assert_int_equal(RUN(h, NULL, "wc", "/tmp", "f2"), 1);
  OUT_IS(h, "      0       0       0 /tmp\n      2       2       4 f2\n"
            "      2       2       4 total\n");
  /* the C locale: bytes are characters, those past ASCII not printable
   * (no word, no width) */
  bh_setenv(h, "LANG", "C");
  const bh_case c_locale[] = {
      BH_CASE("a\xc3\xa9"
              "b \xc3\xa9\n",
              BH_ANY, "      1       1       8       8       3\n", NULL, "wc",
              "-lwmcL"),
      BH_CASE("\xe4\xb8\xad\n", BH_ANY, "4\n", NULL, "wc", "-m"),
  };
  bh_check_all(h, c_locale);
  bh_free(h);
}

static void t_tr(void **st) {
  bh *h = bh_new();
  const bh_case cases[] = {
      BH_CASE("hello\n", BH_ANY, "HELLO\n", NULL, "tr", "a-z", "A-Z"),
      BH_CASE("hello\n", BH_ANY, "HELLO\n", NULL, "tr", "[:lower:]",
              "[:upper:]"),
      BH_CASE("hello\n", BH_ANY, "CCCCC\n", NULL, "tr", "a-z", "A-C"),
      BH_CASE("hello\n", BH_ANY, "hxxxy\n", NULL, "tr", "elo", "[x*2]y"),
      BH_CASE("hello\n", BH_ANY, "xxxxx\n", NULL, "tr", "a-z", "[x*]"),
      BH_CASE("aabbcc\n", BH_ANY, "abc\n", NULL, "tr", "-s", "a-c"),
      BH_CASE("hello\n", BH_ANY, "llo", NULL, "tr", "-cd", "lo"),
      BH_CASE("hello world\n", BH_ANY, "hello\nworld\n", NULL, "tr", "-cs",
              "[:alpha:]", "\\n"),
      BH_CASE("hello\n", BH_ANY, "hello\n", NULL, "tr", "-t",
              "abcdefghijklmnop", "xy"),
      BH_CASE("he\x01llo\n", BH_ANY, "heo\n", NULL, "tr", "-d", "\\001l"),
      BH_CASE("x", 1, NULL,
              "tr: missing operand after 'a'\n"
              "Two strings must be given when translating.\n"
              "Try 'tr --help' for more information.\n",
              "tr", "a"),
      BH_CASE("x", 1, NULL,
              "tr: range-endpoints of 'z-a' are in reverse collating "
              "sequence order\n",
              "tr", "z-a", "x"),
      BH_CASE("x", 1, NULL, NULL, "tr", "a", "[:digit:]"),
      BH_CASE("x", 1, NULL,
              "tr: misaligned [:upper:] and/or [:lower:] construct\n", "tr",
              "hl", "[:upper:]"),
  };
  bh_check_all(h, cases);
  h->stdin_chunk = 2;
  assert_int_equal(bh_runb(h, "a\0a\0b", 5, "tr", "\\000a", "_x", NULL), 0);
  OUT_IS(h, "x_x_b");
  bh_free(h);
}

static void t_tee(void **st) {
  bh *h = bh_new();
  bh_write(h, "old", "keep\n");
  assert_int_equal(RUN(h, "data\n", "tee", "a", "old"), 0);
  OUT_IS(h, "data\n");
  char *a = bh_read(h, "a", NULL);
  assert_string_equal(a, "data\n");
  free(a);
  assert_int_equal(RUN(h, "more\n", "tee", "-a", "old", "/nonexist/x"), 1);
  ERR_IS(h, "tee: /nonexist/x: No such file or directory\n");
  a = bh_read(h, "old", NULL);
  assert_string_equal(a, "data\nmore\n");
  free(a);
  RUN(h, "z\n", "tee", "/dev/null", "/dev/stdout");
  OUT_IS(h, "z\nz\n");
  bh_free(h);
}

/* strcmp as unsigned bytes, for qsort over strings */
static int bytes_cmp(const void *a, const void *b) {
  const unsigned char *x = *(const unsigned char *const *)a,
                      *y = *(const unsigned char *const *)b;
  while (*x && *x == *y)
    x++, y++;
  return *x - *y;
}

/* sort, sort -r and sort -u in plain byte order over NL lines with long
 * shared prefixes, prefixes of other lines, empty lines, bytes above 0x7f
 * and duplicates (distinct: how many numbers they carry); the expected
 * order from qsort over the same lines. */
static void check_bytewise(bh *h, int distinct) {
  buf in2, want, wantr, wantu;
  buf_init(&in2, h->m);
  buf_init(&want, h->m);
  buf_init(&wantr, h->m);
  buf_init(&wantu, h->m);
  enum { NL = 3002 };
  static char lines[NL][64];
  static const char *sorted[NL];
  const char *pre = "pppppppppppppppppppppppppppppppppppppppp";
  for (int i = 0; i < NL; i++) {
    int k = (i * 7919) % 3000;
    if (i >= 3000)
      lines[i][0] = 0;
    else
      snprintf(lines[i], sizeof lines[i], "%s%s%d", k % 3 ? pre : "",
               k % 4 == 1 ? "\xe9" : "", (k / 2) % distinct);
    buf_printf(&in2, "%s\n", lines[i]);
    sorted[i] = lines[i];
  }
  qsort(sorted, NL, sizeof *sorted, bytes_cmp);
  for (int i = 0; i < NL; i++) {
    buf_printf(&want, "%s\n", sorted[i]);
    buf_printf(&wantr, "%s\n", sorted[NL - 1 - i]);
    if (!i || strcmp(sorted[i], sorted[i - 1]))
      buf_printf(&wantu, "%s\n", sorted[i]);
  }
  assert_true(wantu.len < want.len);
  RUN(h, in2.data, "sort");
  assert_int_equal(h->out.len, want.len);
  assert_memory_equal(h->out.data, want.data, want.len);
  RUN(h, in2.data, "sort", "-r");
  assert_int_equal(h->out.len, wantr.len);
  assert_memory_equal(h->out.data, wantr.data, wantr.len);
  RUN(h, in2.data, "sort", "-u");
  assert_int_equal(h->out.len, wantu.len);
  assert_memory_equal(h->out.data, wantu.data, wantu.len);
  buf_free(&in2);
  buf_free(&want);
  buf_free(&wantr);
  buf_free(&wantu);
}

static void t_sort(void **st) {
  bh *h = bh_new();
  const char *in = "banana 10\napple 2\nCherry 2.5\napple 2\n  date -3\n";
  const bh_case cases[] = {
      BH_CASE(in, BH_ANY,
              "  date -3\nCherry 2.5\napple 2\napple 2\nbanana 10\n", NULL,
              "sort"),
      BH_CASE(in, BH_ANY,
              "  date -3\napple 2\napple 2\nCherry 2.5\nbanana 10\n", NULL,
              "sort", "-k2n"),
      BH_CASE(in, BH_ANY, "apple 2\nbanana 10\nCherry 2.5\n  date -3\n", NULL,
              "sort", "-u", "-f", "-b"),
      BH_CASE(in, BH_ANY,
              "banana 10\nCherry 2.5\napple 2\napple 2\n  date -3\n", NULL,
              "sort", "-t", " ", "-k2,2nr"),
      BH_CASE("b 2\na 10\nc 1\na 10\n", BH_ANY, "c 1\nb 2\na 10\na 10\n", NULL,
              "sort", "-k2n"),
      BH_CASE("1K\n3\n2M\n-1G\n", BH_ANY, "-1G\n3\n1K\n2M\n", NULL, "sort",
              "-h"),
      BH_CASE("v1.10\nv1.2\nv1.2a\n.a\n.0\n", BH_ANY,
              ".a\n.0\nv1.2\nv1.2a\nv1.10\n", NULL, "sort", "-V"),
      BH_CASE("FEB\njan\nxyz\nDec\n", BH_ANY, "xyz\njan\nFEB\nDec\n", NULL,
              "sort", "-M"),
      BH_CASE("1e3\nnan\nabc\n-inf\n5\n", BH_ANY, "abc\nnan\n-inf\n5\n1e3\n",
              NULL, "sort", "-g"),
  };
  bh_check_all(h, cases);
  RUN(h, "b\0a\0", "sort", "-z");
  const bh_case cases2[] = {
      BH_CASE("b\na", BH_ANY, "b\na\n", NULL, "sort", "-r"),
      BH_CASE("a 2\nb 1\na 1\n", BH_ANY, "a 2\na 1\nb 1\n", NULL, "sort", "-s",
              "-k1,1"),
      BH_CASE("b\na\n", 1, NULL, "sort: -:2: disorder: a\n", "sort", "-c"),
      BH_CASE("b\na\n", 1, NULL, "", "sort", "-C"),
      BH_CASE("a\na\n", 1, NULL, NULL, "sort", "-cu"),
      BH_CASE(NULL, 2, NULL,
              "sort: character offset is zero: invalid field specification "
              "'1.0'\n",
              "sort", "-k", "1.0"),
      BH_CASE(NULL, 2, NULL, "sort: options '-nR' are incompatible\n", "sort",
              "-nR"),
      BH_CASE(NULL, 2, NULL, NULL, "sort", "--bogus"),
      BH_CASE(NULL, 2, NULL,
              "sort: cannot read: nope: No such file or directory\n", "sort",
              "nope"),
  };
  bh_check_all(h, cases2);
  /* -o onto an input file */
  bh_write(h, "f", "c\nb\na\n");
  assert_int_equal(RUN(h, NULL, "sort", "-o", "f", "f"), 0);
  char *f = bh_read(h, "f", NULL);
  assert_string_equal(f, "a\nb\nc\n");
  free(f);
  /* -R groups equal keys and is deterministic for a given random hook */
  RUN(h, "a\nb\na\nc\nb\n", "sort", "-R");
  assert_int_equal(h->out.len, 10);
  /* many lines */
  buf big;
  buf_init(&big, h->m);
  for (int i = 0; i < 20000; i++)
    buf_printf(&big, "%d\n", (i * 7919) % 20000);
  h->stdin_chunk = 1000;
  RUN(h, big.data, "sort", "-n");
  h->stdin_chunk = 0;
  assert_int_equal(h->out.len, big.len);
  assert_memory_equal(h->out.data, "0\n1\n2\n", 6);
  buf_free(&big);
  /* plain byte order (radix sorted), with many distinct lines and with
   * few (grouped before sorting) */
  check_bytewise(h, 3000);
  check_bytewise(h, 7);
  bh_free(h);
}

static void t_uniq(void **st) {
  bh *h = bh_new();
  const char *in = "a\na\nb\nA\na\nc c\nd c\nb\nb\nb\nlast";
  const bh_case cases[] = {
      BH_CASE(in, BH_ANY, "a\nb\nA\na\nc c\nd c\nb\nlast\n", NULL, "uniq"),
      BH_CASE(in, BH_ANY,
              "      2 a\n      1 b\n      1 A\n      1 a\n      1 c c\n"
              "      1 d c\n      3 b\n      1 last\n",
              NULL, "uniq", "-c"),
      BH_CASE(in, BH_ANY, "a\nb\n", NULL, "uniq", "-d"),
      BH_CASE(in, BH_ANY, "b\nA\na\nc c\nd c\nlast\n", NULL, "uniq", "-u"),
      BH_CASE(in, BH_ANY, "a\na\nb\nb\nb\n", NULL, "uniq", "-D"),
      BH_CASE(in, BH_ANY,
              "      2 a\n      1 b\n      2 A\n      1 c c\n      1 d c\n"
              "      3 b\n      1 last\n",
              NULL, "uniq", "-i", "-c"),
      BH_CASE(in, BH_ANY, "a\nc c\nb\n", NULL, "uniq", "-f1"),
      BH_CASE(in, BH_ANY, "a\na\n\nb\nb\nb\n", NULL, "uniq",
              "--all-repeated=separate"),
      BH_CASE("a\na\nb\n", BH_ANY, "\na\na\n\nb\n\n", NULL, "uniq",
              "--group=both"),
      BH_CASE("ab\nac\nbd\n", BH_ANY, "      2 ab\n      1 bd\n", NULL, "uniq",
              "-w1", "-c"),
      BH_CASE(in, 1, NULL, NULL, "uniq", "-Dc"),
  };
  bh_check_all(h, cases);
  bh_write(h, "in", "x\nx\n");
  assert_int_equal(RUN(h, NULL, "uniq", "in", "out"), 0);
  char *o = bh_read(h, "out", NULL);
  assert_string_equal(o, "x\n");
  free(o);
  bh_free(h);
}

static void t_cut(void **st) {
  bh *h = bh_new();
  const char *in = "a:b:c:d\nno delim\n";
  const bh_case cases[] = {
      BH_CASE(in, BH_ANY, "b\nno delim\n", NULL, "cut", "-d:", "-f2"),
      BH_CASE(in, BH_ANY, "a:c:d\n", NULL, "cut", "-d:", "-s", "-f1,3-"),
      BH_CASE(in, BH_ANY, "bXYcXYd\nno delim\n", NULL, "cut", "-d:", "-f2-",
              "--output-delimiter=XY"),
      BH_CASE(in, BH_ANY, "b:d\nno delim\n", NULL, "cut", "-d:", "-f1,3",
              "--complement"),
      BH_CASE("abcdef\n", BH_ANY, "ab,cd\n", NULL, "cut", "-b", "1-2,3-4",
              "--output-delimiter=,"),
      BH_CASE("abcdef\n", BH_ANY, "abc\n", NULL, "cut", "-c", "1-2,2-3",
              "--output-delimiter=,"),
      BH_CASE("abcdef", BH_ANY, "acf\n", NULL, "cut", "-b", "2,4-5",
              "--complement"),
      BH_CASE("one\ttwo\tthree\n", BH_ANY, "one\ttwo\n", NULL, "cut", "-f",
              "-2"),
      BH_CASE(in, 1, NULL,
              "cut: byte/character positions are numbered from 1\n"
              "Try 'cut --help' for more information.\n",
              "cut", "-b", "0"),
      BH_CASE(in, 1, NULL,
              "cut: invalid decreasing range\n"
              "Try 'cut --help' for more information.\n",
              "cut", "-f", "3-1"),
      BH_CASE(in, 1, NULL, NULL, "cut", "-d", "ab", "-f1"),
      BH_CASE(in, 1, NULL,
              "cut: you must specify a list of bytes, characters, or fields\n"
              "Try 'cut --help' for more information.\n",
              "cut"),
  };
  bh_check_all(h, cases);
  bh_free(h);
}

static void t_basename_dirname(void **st) {
  bh *h = bh_new();
  static const char *const cases[][3] = {
      {"/", "/", "/"},     {"//", "/", "/"},  {"a", "a", "."},
      {"a/", "a", "."},    {"/a/", "a", "/"}, {"a//b//", "b", "a"},
      {"/a/b", "b", "/a"}, {"", "", "."},     {"//a//b", "b", "//a"},
      {"../", "..", "."},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char want[64];
    RUN(h, NULL, "basename", "--", cases[i][0]);
    snprintf(want, sizeof want, "%s\n", cases[i][1]);
    OUT_IS(h, want);
    RUN(h, NULL, "dirname", "--", cases[i][0]);
    snprintf(want, sizeof want, "%s\n", cases[i][2]);
    OUT_IS(h, want);
  }
  const bh_case cases2[] = {
      BH_CASE(NULL, BH_ANY, "b\n", NULL, "basename", "a/b.txt", ".txt"),
      BH_CASE(NULL, BH_ANY, ".txt\n", NULL, "basename", ".txt", ".txt"),
      BH_CASE(NULL, BH_ANY, "a\nb\n", NULL, "basename", "-s", ".c", "x/a.c",
              "b.c"),
      BH_CASE(NULL, 1, NULL,
              "basename: extra operand 'c'\n"
              "Try 'basename --help' for more information.\n",
              "basename", "a", "b", "c"),
      BH_CASE(NULL, 1, NULL, NULL, "dirname"),
  };
  bh_check_all(h, cases2);
  bh_free(h);
}

static int fake_run(bi_ctx *c, char **argv, stream *in, stream *out,
                    stream *err) {
  stream_printf(out ? out : c->out, "ran %s\n", argv[0]);
  return 7;
}

static int fake_run_env(bi_ctx *c, char **argv, char **env, const char *cwd,
                        stream *in, stream *out, stream *err) {
  stream *o = out ? out : c->out;
  stream_printf(o, "ran %s in %s with", argv[0], cwd ? cwd : "-");
  for (size_t i = 0; env && env[i]; i++)
    stream_printf(o, " %s", env[i]);
  stream_puts(o, "\n");
  return 3;
}

static void t_env(void **st) {
  bh *h = bh_new();
  bh_setenv(h, "A", "1");
  bh_setenv(h, "B", "2");
  const bh_case cases[] = {
      BH_CASE(NULL, BH_ANY, "A=1\nB=2\n", NULL, "env"),
      BH_CASE(NULL, BH_ANY, "B=x\nC=3\n", NULL, "env", "-u", "A", "C=3", "B=x"),
      BH_CASE(NULL, BH_ANY, "X=1\n", NULL, "env", "-i", "X=1"),
      BH_CASE(NULL, BH_ANY, "Y=1\n", NULL, "env", "-", "Y=1"),
      BH_CASE(NULL, 127, NULL, NULL, "env", "cmd", "arg"),
  };
  bh_check_all(h, cases);
  h->run_argv = fake_run;
  assert_int_equal(RUN(h, NULL, "env", "cmd", "arg"), 7);
  OUT_IS(h, "ran cmd\n");
  /* a changed environment needs the shell's run_argv_env */
  assert_int_equal(RUN(h, NULL, "env", "-i", "Z=1", "cmd"), 125);
  h->run_argv_env = fake_run_env;
  const bh_case cases2[] = {
      BH_CASE(NULL, 3, "ran cmd in - with B=2 Z=1\n", NULL, "env", "-u", "A",
              "Z=1", "cmd", "x"),
      BH_CASE(NULL, 3, "ran cmd in /tmp with\n", NULL, "env", "-i", "-C",
              "/tmp", "cmd"),
      BH_CASE(NULL, 125, NULL,
              "env: option requires an argument -- 'u'\n"
              "Try 'env --help' for more information.\n",
              "env", "-u"),
      BH_CASE(NULL, 125, NULL,
              "env: cannot change directory to '/nonexist': No such file or "
              "directory\n",
              "env", "-C", "/nonexist", "pwd"),
      BH_CASE(NULL, BH_ANY, "2\n1\n", NULL, "printenv", "B", "A"),
      BH_CASE(NULL, 1, NULL, NULL, "printenv", "NOPE"),
      BH_CASE(NULL, 2, NULL, NULL, "printenv", "--bogus"),
  };
  bh_check_all(h, cases2);
  bh_free(h);
}

static void t_yes(void **st) {
  bh *h = bh_new();
  h->bud.lim.max_output_bytes = 100000;
  RUN(h, NULL, "yes", "a", "b");
  assert_true(h->out.len >= 100000 - 16384);
  assert_memory_equal(h->out.data, "a b\na b\n", 8);
  assert_int_equal(RUN(h, NULL, "yes", "-n"), 1);
  ERR_IS(h, "yes: invalid option -- 'n'\n"
            "Try 'yes --help' for more information.\n");
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_echo),      cmocka_unit_test(t_true_false),
      cmocka_unit_test(t_printf),    cmocka_unit_test(t_cat),
      cmocka_unit_test(t_test),      cmocka_unit_test(t_seq),
      cmocka_unit_test(t_head_tail), cmocka_unit_test(t_wc),
      cmocka_unit_test(t_tr),        cmocka_unit_test(t_tee),
      cmocka_unit_test(t_sort),      cmocka_unit_test(t_uniq),
      cmocka_unit_test(t_cut),       cmocka_unit_test(t_basename_dirname),
      cmocka_unit_test(t_env),       cmocka_unit_test(t_yes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
