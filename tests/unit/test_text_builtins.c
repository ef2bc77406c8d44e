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
  assert_int_equal(RUN(h, NULL, "echo", "a", "b"), 0);
  OUT_IS(h, "a b\n");
  RUN(h, NULL, "echo", "-n", "x");
  OUT_IS(h, "x");
  RUN(h, NULL, "echo", "-ne", "a\\tb\\n");
  OUT_IS(h, "a\tb\n");
  RUN(h, NULL, "echo", "-nx", "--", "-");
  OUT_IS(h, "-nx -- -\n");
  RUN(h, NULL, "echo", "-e", "\\101|\\0101|\\x41|\\x4g|\\u263a|\\q|\\c|after");
  OUT_IS(h, "\\101|A|A|\x04g|\xe2\x98\xba|\\q|");
  RUN(h, NULL, "echo", "-eE", "a\\nb");
  OUT_IS(h, "a\\nb\n");
  RUN(h, NULL, "echo", "-e", "a\\\"b\\?c\\x");
  OUT_IS(h, "a\\\"b\\?c\\x\n");
  RUN(h, NULL, "echo");
  OUT_IS(h, "\n");
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
  assert_int_equal(RUN(h, NULL, "printf", "%s %s\\n", "a", "b", "c"), 0);
  OUT_IS(h, "a b\nc \n");
  assert_int_equal(RUN(h, NULL, "printf", "%d|", "12abc", "x", "'A", "\"B",
                       "0x1f", "010", " 5", "-3", "+4", ""),
                   1);
  OUT_IS(h, "12|0|65|66|31|8|5|-3|4|0|");
  ERR_IS(h, "printf: 12abc: invalid number\nprintf: x: invalid number\n");
  RUN(h, NULL, "printf", "%u %x %o\\n", "-1", "-1", "-1");
  OUT_IS(h, "18446744073709551615 ffffffffffffffff 1777777777777777777777\n");
  RUN(h, NULL, "printf", "%.3s|%-5s|%5s|%*d|%-*d|%.*f\\n", "abcdef", "ab", "ab",
      "4", "7", "3", "8", "2", "3.14159");
  OUT_IS(h, "abc|ab   |   ab|   7|8  |3.14\n");
  RUN(h, NULL, "printf", "%f %e %g %a %F %E %G\\n", "1.5", "1.5", "1.5", "1.5",
      "inf", "1e300", "0.0001");
  OUT_IS(h, "1.500000 1.500000e+00 1.5 0xcp-3 INF 1.000000E+300 0.0001\n");
  RUN(h, NULL, "printf", "%i|%5.3d|%+d|% d|%#x|%#o\\n", "3", "4", "5", "6",
      "255", "8");
  OUT_IS(h, "3|  004|+5| 6|0xff|010\n");
  assert_int_equal(RUN(h, NULL, "printf", "a%yb\\n"), 1);
  OUT_IS(h, "a");
  ERR_IS(h, "printf: `y': invalid format character\n");
  assert_int_equal(RUN(h, NULL, "printf", "ab%"), 1);
  OUT_IS(h, "ab");
  ERR_IS(h, "printf: `%': missing format character\n");
  assert_int_equal(RUN(h, NULL, "printf", "%d\\n", "99999999999999999999"), 0);
  OUT_IS(h, "9223372036854775807\n");
  ERR_IS(h, "printf: warning: 99999999999999999999: Numerical result out of "
            "range\n");
  RUN(h, NULL, "printf", "%b|", "\\101", "\\0101", "a\\tb", "x\\cy", "z");
  OUT_IS(h, "A|A|a\tb|x");
  RUN(h, NULL, "printf", "%q\\n", "a b", "it's", "\t", "", "~x", "a=b", "#a",
      "a#", "a,b", "a:~b", "x~", "\x01 b'c\"", "\x1b\a\x7f", "\xff", "é");
  ERR_IS(h, "");
  OUT_IS(h, "a\\ b\nit\\'s\n$'\\t'\n''\n\\~x\na=b\n\\#a\na#\na\\,b\na:\\~b\n"
            "x~\n$'\\001 b\\'c\"'\n$'\\E\\a\\177'\n$'\\377'\né\n");
  RUN(h, NULL, "printf", "%5c|%-3b|%.2b|%c|\\n", "x", "a\\tb", "abc", "héllo");
  OUT_IS(h, "    x|a\tb|ab|h|\n");
  RUN(h, NULL, "printf", "%(%Y-%m-%d %H:%M:%S)T|%(%s)T|%.3(%Y)T|\\n", "0",
      "86400", "0");
  OUT_IS(h, "1970-01-01 00:00:00|86400|197|\n");
  RUN(h, NULL, "printf", "%(%F)T\\n");
  OUT_IS(h, "2001-09-09\n");
  RUN(h, NULL, "printf", "%d %s|\\n", "1");
  OUT_IS(h, "1 |\n");
  RUN(h, NULL, "printf", "%*s|%-4d|%%|\\n", "-5", "ab", "7");
  OUT_IS(h, "ab   |7   |%|\n");
  RUN(h, NULL, "printf", "\\101\\x41\\u00e9\\c\\\"\\q\\n");
  OUT_IS(h, "AA\xc3\xa9\\c\"\\q\n");
  RUN(h, NULL, "printf", "%d\\n", "'\xc3\xa9");
  OUT_IS(h, "233\n");
  assert_int_equal(RUN(h, NULL, "printf", "-v", "v", "%s-%d", "a", "5"), 0);
  OUT_IS(h, "");
  assert_string_equal(bh_var(h, "v"), "a-5");
  assert_int_equal(RUN(h, NULL, "printf"), 2);
  ERR_IS(h, "printf: usage: printf [-v var] format [arguments]\n");
  assert_int_equal(RUN(h, NULL, "printf", "-z"), 2);
  ERR_IS(h, "printf: -z: invalid option\n"
            "printf: usage: printf [-v var] format [arguments]\n");
  RUN(h, NULL, "printf", "--", "%s\\n", "-x");
  OUT_IS(h, "-x\n");
  RUN(h, NULL, "printf", "x\\n", "a", "b");
  OUT_IS(h, "x\n");
  bh_free(h);
}

static void t_cat(void **st) {
  bh *h = bh_new();
  bh_write(h, "f1", "a\nb\n");
  bh_write(h, "f2", "c");
  assert_int_equal(RUN(h, "in\n", "cat", "f1", "-", "f2"), 0);
  OUT_IS(h, "a\nb\nin\nc");
  assert_int_equal(RUN(h, NULL, "cat", "nope", "f1"), 1);
  OUT_IS(h, "a\nb\n");
  ERR_IS(h, "cat: nope: No such file or directory\n");
  assert_int_equal(RUN(h, NULL, "cat", "/tmp"), 1);
  ERR_IS(h, "cat: /tmp: Is a directory\n");
  RUN(h, "a b\tc\n\x01\x80\xff\n", "cat", "-A");
  OUT_IS(h, "a b^Ic$\n^AM-^@M-^?$\n");
  RUN(h, "a\n\n\nb\n", "cat", "-ns");
  OUT_IS(h, "     1\ta\n     2\t\n     3\tb\n");
  RUN(h, "a\n\nb", "cat", "-bE");
  OUT_IS(h, "     1\ta$\n$\n     2\tb");
  /* numbering and line state continue across files */
  RUN(h, NULL, "cat", "-n", "f2", "f1");
  OUT_IS(h, "     1\tca\n     2\tb\n");
  assert_int_equal(RUN(h, NULL, "cat", "-x"), 1);
  ERR_IS(h, "cat: invalid option -- 'x'\n"
            "Try 'cat --help' for more information.\n");
  RUN(h, NULL, "cat", "/dev/null");
  OUT_IS(h, "");
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
  assert_int_equal(RUN(h, NULL, "test", "1", "-eq", "a"), 2);
  ERR_IS(h, "test: a: integer expression expected\n");
  assert_int_equal(RUN(h, NULL, "test", "a", "b"), 2);
  ERR_IS(h, "test: a: unary operator expected\n");
  assert_int_equal(RUN(h, NULL, "test", "a", "-q", "b"), 2);
  ERR_IS(h, "test: -q: binary operator expected\n");
  assert_int_equal(RUN(h, NULL, "test", "a", "b", "c", "d", "e"), 2);
  ERR_IS(h, "test: too many arguments\n");
  assert_int_equal(RUN(h, NULL, "test", "(", "-z", ")", "!"), 2);
  ERR_IS(h, "test: `)' expected, found !\n");
  assert_int_equal(RUN(h, NULL, "[", "a"), 2);
  ERR_IS(h, "[: missing `]'\n");
  assert_int_equal(RUN(h, NULL, "[", "a", "=", "a", "]"), 0);
  assert_int_equal(RUN(h, NULL, "[", "]"), 1);
  bh_setenv(h, "SHELLOPTS", "braceexpand:errexit:hashall");
  assert_int_equal(RUN(h, NULL, "test", "-o", "errexit"), 0);
  assert_int_equal(RUN(h, NULL, "test", "-o", "xtrace"), 1);
  assert_int_equal(RUN(h, NULL, "test", "-v", "SHELLOPTS"), 0);
  bh_free(h);
}

static void t_seq(void **st) {
  bh *h = bh_new();
  RUN(h, NULL, "seq", "3");
  OUT_IS(h, "1\n2\n3\n");
  RUN(h, NULL, "seq", "1", "0.5", "3");
  OUT_IS(h, "1.0\n1.5\n2.0\n2.5\n3.0\n");
  RUN(h, NULL, "seq", "-w", "8", "11");
  OUT_IS(h, "08\n09\n10\n11\n");
  RUN(h, NULL, "seq", "-s,", "-w", "-1", "1");
  OUT_IS(h, "-1,00,01\n");
  RUN(h, NULL, "seq", "-f", "%03g", "2");
  OUT_IS(h, "001\n002\n");
  RUN(h, NULL, "seq", "0.1", "0.1", "0.3");
  OUT_IS(h, "0.1\n0.2\n0.3\n");
  RUN(h, NULL, "seq", "5", "-2", "1");
  OUT_IS(h, "5\n3\n1\n");
  RUN(h, NULL, "seq", "-w", "1", "0.5", "2");
  OUT_IS(h, "1.0\n1.5\n2.0\n");
  RUN(h, NULL, "seq", "18446744073709551615", "18446744073709551617");
  OUT_IS(h, "18446744073709551615\n18446744073709551616\n"
            "18446744073709551617\n");
  RUN(h, NULL, "seq", "2", "1");
  OUT_IS(h, "");
  assert_int_equal(RUN(h, NULL, "seq", "1", "0", "3"), 1);
  ERR_IS(h, "seq: invalid Zero increment value: '0'\n"
            "Try 'seq --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "seq", "a"), 1);
  ERR_IS(h, "seq: invalid floating point argument: 'a'\n"
            "Try 'seq --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "seq", "-f", "%d", "3"), 1);
  ERR_IS(h, "seq: format '%d' has unknown %d directive\n");
  assert_int_equal(RUN(h, NULL, "seq"), 1);
  ERR_IS(h, "seq: missing operand\nTry 'seq --help' for more information.\n");
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
    RUN(h, n30.data, "head", "-n", "3");
    OUT_IS(h, "1\n2\n3\n");
    RUN(h, n30.data, "head", "-n", "-27");
    OUT_IS(h, "1\n2\n3\n");
    RUN(h, n30.data, "head", "-c", "5");
    OUT_IS(h, "1\n2\n3");
    RUN(h, n30.data, "head", "-c", "-77");
    OUT_IS(h, "1\n2\n");
    RUN(h, "a\nb\nc", "head", "-n", "-1");
    OUT_IS(h, "a\nb\n");
    RUN(h, "a\nb\nc", "head", "-n", "-0");
    OUT_IS(h, "a\nb\nc");
    RUN(h, n30.data, "tail", "-n", "2");
    OUT_IS(h, "29\n30\n");
    RUN(h, n30.data, "tail", "-n", "+29");
    OUT_IS(h, "29\n30\n");
    RUN(h, n30.data, "tail", "-c", "3");
    OUT_IS(h, "30\n");
    RUN(h, n30.data, "tail", "-c", "+76");
    OUT_IS(h, "29\n30\n");
    RUN(h, "a\nb\nc", "tail", "-n", "2");
    OUT_IS(h, "b\nc");
    RUN(h, "a\nb\nc", "tail", "-n", "0");
    OUT_IS(h, "");
    RUN(h, "x\0y\0z\0", "tail", "-z", "-n", "1");
  }
  h->stdin_chunk = 0;
  RUN(h, NULL, "head", "-2", "n30");
  OUT_IS(h, "1\n2\n");
  RUN(h, NULL, "head", "-3c", "n30");
  OUT_IS(h, "1\n2");
  RUN(h, NULL, "tail", "-3", "n30");
  OUT_IS(h, "28\n29\n30\n");
  RUN(h, NULL, "tail", "+29", "n30");
  OUT_IS(h, "29\n30\n");
  assert_int_equal(RUN(h, "x\n", "head", "-n1", "nonl", "nope", "-"), 1);
  OUT_IS(h, "==> nonl <==\na\n\n==> standard input <==\nx\n");
  ERR_IS(h, "head: cannot open 'nope' for reading: No such file or "
            "directory\n");
  RUN(h, NULL, "tail", "-q", "-n1", "nonl", "n30");
  OUT_IS(h, "c30\n");
  RUN(h, NULL, "head", "-v", "-n", "1", "nonl");
  OUT_IS(h, "==> nonl <==\na\n");
  assert_int_equal(RUN(h, NULL, "head", "-n", "x"), 1);
  ERR_IS(h, "head: invalid number of lines: 'x'\n");
  assert_int_equal(RUN(h, NULL, "head", "-c", "-1x"), 1);
  ERR_IS(h, "head: invalid number of bytes: '1x'\n");
  RUN(h, NULL, "head", "-n", "1K", "n30");
  OUT_IS(h, n30.data);
  assert_int_equal(RUN(h, NULL, "tail", "/tmp"), 1);
  ERR_IS(h, "tail: error reading '/tmp': Is a directory\n");
  assert_int_equal(RUN(h, NULL, "tail", "-f", "n30"), 1);
  assert_non_null(strstr(bh_err(h), "cannot follow"));
  buf_free(&n30);
  bh_free(h);
}

static void t_wc(void **st) {
  bh *h = bh_new();
  bh_write(h, "f1", "a\nb\n\n\n\tc\x01\x80\xff\n d");
  bh_write(h, "f2", "x\ny\n");
  RUN(h, NULL, "wc", "f1", "f2");
  OUT_IS(h, " 5  4 14 f1\n 2  2  4 f2\n 7  6 18 total\n");
  RUN(h, NULL, "wc", "-l", "f1");
  OUT_IS(h, "5 f1\n");
  RUN(h, "a b\n", "wc");
  OUT_IS(h, "      1       2       4\n");
  RUN(h, "a b\n", "wc", "-l");
  OUT_IS(h, "1\n");
  assert_int_equal(RUN(h, NULL, "wc", "-c", "f1", "nope"), 1);
  OUT_IS(h, "14 f1\n14 total\n");
  ERR_IS(h, "wc: nope: No such file or directory\n");
  RUN(h, "x\n", "wc", "-l", "f1", "-");
  OUT_IS(h, "      5 f1\n      1 -\n      6 total\n");
  /* UTF-8: characters, no-break spaces separate words, widths */
  RUN(h,
      "a\xc2\xa0"
      "b\xe2\x80\x83"
      "c",
      "wc", "-wmL");
  OUT_IS(h, "      3       5       5\n");
  RUN(h,
      "a\xff"
      "b\xe2\x82",
      "wc", "-wmc");
  OUT_IS(h, "      1       2       5\n");
  RUN(h, "ab\tc\r\xe4\xb8\xadx\n", "wc", "-L");
  OUT_IS(h, "9\n");
  /* a character split between two reads */
  h->stdin_chunk = 1;
  RUN(h, "\xe4\xb8\xad\xe4\xb8\xad x\n", "wc", "-mwl");
  OUT_IS(h, "      1       2       5\n");
  h->stdin_chunk = 0;
  assert_int_equal(RUN(h, NULL, "wc", "/tmp", "f2"), 1);
  OUT_IS(h, "      0       0       0 /tmp\n      2       2       4 f2\n"
            "      2       2       4 total\n");
  bh_free(h);
}

static void t_tr(void **st) {
  bh *h = bh_new();
  RUN(h, "hello\n", "tr", "a-z", "A-Z");
  OUT_IS(h, "HELLO\n");
  RUN(h, "hello\n", "tr", "[:lower:]", "[:upper:]");
  OUT_IS(h, "HELLO\n");
  RUN(h, "hello\n", "tr", "a-z", "A-C");
  OUT_IS(h, "CCCCC\n");
  RUN(h, "hello\n", "tr", "elo", "[x*2]y");
  OUT_IS(h, "hxxxy\n");
  RUN(h, "hello\n", "tr", "a-z", "[x*]");
  OUT_IS(h, "xxxxx\n");
  RUN(h, "aabbcc\n", "tr", "-s", "a-c");
  OUT_IS(h, "abc\n");
  RUN(h, "hello\n", "tr", "-cd", "lo");
  OUT_IS(h, "llo");
  RUN(h, "hello world\n", "tr", "-cs", "[:alpha:]", "\\n");
  OUT_IS(h, "hello\nworld\n");
  RUN(h, "hello\n", "tr", "-t", "abcdefghijklmnop", "xy");
  OUT_IS(h, "hello\n");
  RUN(h, "he\x01llo\n", "tr", "-d", "\\001l");
  OUT_IS(h, "heo\n");
  assert_int_equal(RUN(h, "x", "tr", "a"), 1);
  ERR_IS(h, "tr: missing operand after 'a'\n"
            "Two strings must be given when translating.\n"
            "Try 'tr --help' for more information.\n");
  assert_int_equal(RUN(h, "x", "tr", "z-a", "x"), 1);
  ERR_IS(h, "tr: range-endpoints of 'z-a' are in reverse collating "
            "sequence order\n");
  assert_int_equal(RUN(h, "x", "tr", "a", "[:digit:]"), 1);
  assert_int_equal(RUN(h, "x", "tr", "hl", "[:upper:]"), 1);
  ERR_IS(h, "tr: misaligned [:upper:] and/or [:lower:] construct\n");
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

static void t_sort(void **st) {
  bh *h = bh_new();
  const char *in = "banana 10\napple 2\nCherry 2.5\napple 2\n  date -3\n";
  RUN(h, in, "sort");
  OUT_IS(h, "  date -3\nCherry 2.5\napple 2\napple 2\nbanana 10\n");
  RUN(h, in, "sort", "-k2n");
  OUT_IS(h, "  date -3\napple 2\napple 2\nCherry 2.5\nbanana 10\n");
  RUN(h, in, "sort", "-u", "-f", "-b");
  OUT_IS(h, "apple 2\nbanana 10\nCherry 2.5\n  date -3\n");
  RUN(h, in, "sort", "-t", " ", "-k2,2nr");
  OUT_IS(h, "banana 10\nCherry 2.5\napple 2\napple 2\n  date -3\n");
  RUN(h, "b 2\na 10\nc 1\na 10\n", "sort", "-k2n");
  OUT_IS(h, "c 1\nb 2\na 10\na 10\n");
  RUN(h, "1K\n3\n2M\n-1G\n", "sort", "-h");
  OUT_IS(h, "-1G\n3\n1K\n2M\n");
  RUN(h, "v1.10\nv1.2\nv1.2a\n.a\n.0\n", "sort", "-V");
  OUT_IS(h, ".a\n.0\nv1.2\nv1.2a\nv1.10\n");
  RUN(h, "FEB\njan\nxyz\nDec\n", "sort", "-M");
  OUT_IS(h, "xyz\njan\nFEB\nDec\n");
  RUN(h, "1e3\nnan\nabc\n-inf\n5\n", "sort", "-g");
  OUT_IS(h, "abc\nnan\n-inf\n5\n1e3\n");
  RUN(h, "b\0a\0", "sort", "-z");
  RUN(h, "b\na", "sort", "-r");
  OUT_IS(h, "b\na\n");
  RUN(h, "a 2\nb 1\na 1\n", "sort", "-s", "-k1,1");
  OUT_IS(h, "a 2\na 1\nb 1\n");
  assert_int_equal(RUN(h, "b\na\n", "sort", "-c"), 1);
  ERR_IS(h, "sort: -:2: disorder: a\n");
  assert_int_equal(RUN(h, "b\na\n", "sort", "-C"), 1);
  ERR_IS(h, "");
  assert_int_equal(RUN(h, "a\na\n", "sort", "-cu"), 1);
  assert_int_equal(RUN(h, NULL, "sort", "-k", "1.0"), 2);
  ERR_IS(h, "sort: character offset is zero: invalid field specification "
            "'1.0'\n");
  assert_int_equal(RUN(h, NULL, "sort", "-nR"), 2);
  ERR_IS(h, "sort: options '-nR' are incompatible\n");
  assert_int_equal(RUN(h, NULL, "sort", "--bogus"), 2);
  assert_int_equal(RUN(h, NULL, "sort", "nope"), 2);
  ERR_IS(h, "sort: cannot read: nope: No such file or directory\n");
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
  bh_free(h);
}

static void t_uniq(void **st) {
  bh *h = bh_new();
  const char *in = "a\na\nb\nA\na\nc c\nd c\nb\nb\nb\nlast";
  RUN(h, in, "uniq");
  OUT_IS(h, "a\nb\nA\na\nc c\nd c\nb\nlast\n");
  RUN(h, in, "uniq", "-c");
  OUT_IS(h, "      2 a\n      1 b\n      1 A\n      1 a\n      1 c c\n"
            "      1 d c\n      3 b\n      1 last\n");
  RUN(h, in, "uniq", "-d");
  OUT_IS(h, "a\nb\n");
  RUN(h, in, "uniq", "-u");
  OUT_IS(h, "b\nA\na\nc c\nd c\nlast\n");
  RUN(h, in, "uniq", "-D");
  OUT_IS(h, "a\na\nb\nb\nb\n");
  RUN(h, in, "uniq", "-i", "-c");
  OUT_IS(h, "      2 a\n      1 b\n      2 A\n      1 c c\n      1 d c\n"
            "      3 b\n      1 last\n");
  RUN(h, in, "uniq", "-f1");
  OUT_IS(h, "a\nc c\nb\n");
  RUN(h, in, "uniq", "--all-repeated=separate");
  OUT_IS(h, "a\na\n\nb\nb\nb\n");
  RUN(h, "a\na\nb\n", "uniq", "--group=both");
  OUT_IS(h, "\na\na\n\nb\n\n");
  RUN(h, "ab\nac\nbd\n", "uniq", "-w1", "-c");
  OUT_IS(h, "      2 ab\n      1 bd\n");
  assert_int_equal(RUN(h, in, "uniq", "-Dc"), 1);
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
  RUN(h, in, "cut", "-d:", "-f2");
  OUT_IS(h, "b\nno delim\n");
  RUN(h, in, "cut", "-d:", "-s", "-f1,3-");
  OUT_IS(h, "a:c:d\n");
  RUN(h, in, "cut", "-d:", "-f2-", "--output-delimiter=XY");
  OUT_IS(h, "bXYcXYd\nno delim\n");
  RUN(h, in, "cut", "-d:", "-f1,3", "--complement");
  OUT_IS(h, "b:d\nno delim\n");
  RUN(h, "abcdef\n", "cut", "-b", "1-2,3-4", "--output-delimiter=,");
  OUT_IS(h, "ab,cd\n");
  RUN(h, "abcdef\n", "cut", "-c", "1-2,2-3", "--output-delimiter=,");
  OUT_IS(h, "abc\n");
  RUN(h, "abcdef", "cut", "-b", "2,4-5", "--complement");
  OUT_IS(h, "acf\n");
  RUN(h, "one\ttwo\tthree\n", "cut", "-f", "-2");
  OUT_IS(h, "one\ttwo\n");
  assert_int_equal(RUN(h, in, "cut", "-b", "0"), 1);
  ERR_IS(h, "cut: byte/character positions are numbered from 1\n"
            "Try 'cut --help' for more information.\n");
  assert_int_equal(RUN(h, in, "cut", "-f", "3-1"), 1);
  ERR_IS(h, "cut: invalid decreasing range\n"
            "Try 'cut --help' for more information.\n");
  assert_int_equal(RUN(h, in, "cut", "-d", "ab", "-f1"), 1);
  assert_int_equal(RUN(h, in, "cut"), 1);
  ERR_IS(h, "cut: you must specify a list of bytes, characters, or fields\n"
            "Try 'cut --help' for more information.\n");
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
  RUN(h, NULL, "basename", "a/b.txt", ".txt");
  OUT_IS(h, "b\n");
  RUN(h, NULL, "basename", ".txt", ".txt");
  OUT_IS(h, ".txt\n");
  RUN(h, NULL, "basename", "-s", ".c", "x/a.c", "b.c");
  OUT_IS(h, "a\nb\n");
  assert_int_equal(RUN(h, NULL, "basename", "a", "b", "c"), 1);
  ERR_IS(h, "basename: extra operand 'c'\n"
            "Try 'basename --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "dirname"), 1);
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
  RUN(h, NULL, "env");
  OUT_IS(h, "A=1\nB=2\n");
  RUN(h, NULL, "env", "-u", "A", "C=3", "B=x");
  OUT_IS(h, "B=x\nC=3\n");
  RUN(h, NULL, "env", "-i", "X=1");
  OUT_IS(h, "X=1\n");
  RUN(h, NULL, "env", "-", "Y=1");
  OUT_IS(h, "Y=1\n");
  assert_int_equal(RUN(h, NULL, "env", "cmd", "arg"), 127);
  h->run_argv = fake_run;
  assert_int_equal(RUN(h, NULL, "env", "cmd", "arg"), 7);
  OUT_IS(h, "ran cmd\n");
  /* a changed environment needs the shell's run_argv_env */
  assert_int_equal(RUN(h, NULL, "env", "-i", "Z=1", "cmd"), 125);
  h->run_argv_env = fake_run_env;
  assert_int_equal(RUN(h, NULL, "env", "-u", "A", "Z=1", "cmd", "x"), 3);
  OUT_IS(h, "ran cmd in - with B=2 Z=1\n");
  assert_int_equal(RUN(h, NULL, "env", "-i", "-C", "/tmp", "cmd"), 3);
  OUT_IS(h, "ran cmd in /tmp with\n");
  assert_int_equal(RUN(h, NULL, "env", "-u"), 125);
  ERR_IS(h, "env: option requires an argument -- 'u'\n"
            "Try 'env --help' for more information.\n");
  assert_int_equal(RUN(h, NULL, "env", "-C", "/nonexist", "pwd"), 125);
  ERR_IS(h, "env: cannot change directory to '/nonexist': No such file or "
            "directory\n");
  RUN(h, NULL, "printenv", "B", "A");
  OUT_IS(h, "2\n1\n");
  assert_int_equal(RUN(h, NULL, "printenv", "NOPE"), 1);
  assert_int_equal(RUN(h, NULL, "printenv", "--bogus"), 2);
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
