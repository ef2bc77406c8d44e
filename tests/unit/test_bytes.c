// layers: core vfs builtins
/* Unit tests of the byte tools: xxd, hexdump/hd, cmp, base32, cksum,
 * strings and truncate. The tables in bytes_cases.inc were recorded from
 * xxd 2022-01-14, util-linux 2.38, diffutils 3.8, coreutils 9.1 and
 * binutils 2.40 on Debian 12 (expr: coreutils 9.1) by record_bytes.py (stdin a
 * pipe, LC_ALL=C). */
#include <stdio.h>

#include "bi_harness.h"

#include "bytes_cases.inc"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static bh *fixture(void) {
  bh *h = bh_new();
  for (size_t i = 0; i < N(bytes_files); i++)
    bh_writen(h, bytes_files[i].name, bytes_files[i].data, bytes_files[i].len);
  /* stdin behaves like the pipe the recordings had */
  h->stdin_chunk = 7;
  return h;
}

static void run_table(const bh_case *cases, size_t n) {
  bh *h = fixture();
  bh_check_n(h, cases, n);
  bh_free(h);
}

static void t_xxd(void **st) {
  run_table(bytes_xxd, N(bytes_xxd));
}
static void t_hexdump(void **st) {
  run_table(bytes_hexdump, N(bytes_hexdump));
}
static void t_cmp(void **st) {
  run_table(bytes_cmp, N(bytes_cmp));
}
static void t_base32(void **st) {
  run_table(bytes_base32, N(bytes_base32));
}
static void t_cksum(void **st) {
  run_table(bytes_cksum, N(bytes_cksum));
}
static void t_strings(void **st) {
  run_table(bytes_strings, N(bytes_strings));
}

static void t_expr(void **st) {
  run_table(bytes_expr, N(bytes_expr));
}

/* expr computes in 64 bits: what coreutils' bignums would give past that
 * range is an error (status 3) here; comparisons stay exact. In a UTF-8
 * locale length, substr, index and ':' count characters. */
static void t_expr_limits(void **st) {
  bh *h = fixture();
  const bh_case cases[] = {
      BH_CASE(NULL, 3, "", "expr: +: Numerical result out of range\n", "expr",
              "9223372036854775807", "+", "1"),
      BH_CASE(NULL, 3, "", "expr: *: Numerical result out of range\n", "expr",
              "9223372036854775807", "*", "2"),
      BH_CASE(NULL, 3, "", "expr: /: Numerical result out of range\n", "expr",
              "-9223372036854775808", "/", "-1"),
      BH_CASE(NULL, 1, "0\n", "", "expr", "-9223372036854775808", "%", "-1"),
      BH_CASE(NULL, 3, "",
              "expr: 99999999999999999999: Numerical result out of range\n",
              "expr", "99999999999999999999", "+", "0"),
      BH_CASE(NULL, 0, "-9223372036854775808\n", "", "expr",
              "-9223372036854775807", "-", "1"),
      BH_CASE(NULL, 0, "1\n", "", "expr", "1", "|", "99999999999999999999", "+",
              "1"),
  };
  bh_check_all(h, cases);
  bh_setenv(h, "LANG", "C.UTF-8");
  const bh_case utf8[] = {
      BH_CASE(NULL, 0, "1\n", "", "expr", "length", "\xc3\xa9"),
      BH_CASE(NULL, 0, "a\n", "", "expr", "substr",
              "\xc3\xa9"
              "ab",
              "2", "1"),
      BH_CASE(NULL, 0, "2\n", "", "expr", "index",
              "\xc3\xa9"
              "ab",
              "a"),
      BH_CASE(NULL, 0, "2\n", "", "expr",
              "\xc3\xa9"
              "ab",
              ":", ".a"),
      BH_CASE(NULL, 0, "\xc3\xa9\n", "", "expr",
              "\xc3\xa9"
              "ab",
              ":", "\\(.\\)"),
  };
  bh_check_all(h, utf8);
  /* nesting is bounded */
  char *argv[2100];
  _Static_assert(2002 < 2100, "room for the keyword chain");
  int n = 0;
  argv[n++] = "expr";
  for (int i = 0; i < 1000; i++)
    argv[n++] = "(";
  argv[n++] = "1";
  for (int i = 0; i < 1000; i++)
    argv[n++] = ")";
  argv[n] = NULL;
  assert_int_equal(bh_runa(h, NULL, 0, n, argv), 3);
  assert_string_equal(bh_err(h), "expr: expression nested too deeply\n");
  n = 0;
  argv[n++] = "expr";
  for (int i = 0; i < 2000; i++)
    argv[n++] = "length";
  argv[n++] = "x";
  argv[n] = NULL;
  assert_int_equal(bh_runa(h, NULL, 0, n, argv), 3);
  assert_string_equal(bh_err(h), "expr: expression nested too deeply\n");
  bh_free(h);
}

/* xxd -r writes bytes (NULs included); an OUTFILE is patched in place. */
static void t_xxd_revert(void **st) {
  bh *h = fixture();
  const char *d = "0: 4142\n10: 43\n";
  assert_int_equal(bh_runb(h, d, strlen(d), "xxd", "-r", "-s", "2", NULL), 0);
  static const char want[] = "\0\0AB\0\0\0\0\0\0\0\0\0\0\0\0\0\0C";
  assert_int_equal(h->out.len, sizeof want - 1);
  assert_memory_equal(h->out.data, want, sizeof want - 1);
  /* backwards offsets cannot be written to a stream */
  d = "10: 41\n0: 42\n";
  assert_int_equal(bh_runb(h, d, strlen(d), "xxd", "-r", NULL), 5);
  assert_string_equal(bh_err(h), "xxd: Sorry, cannot seek backwards.\n");
  /* but an output file is patched: seeking back is fine there */
  bh_write(h, "p1", "AAAAAAAA");
  d = "2: 4242\n0: 43\n";
  assert_int_equal(bh_runb(h, d, strlen(d), "xxd", "-r", "-", "p1", NULL), 0);
  char *got = bh_read(h, "p1", NULL);
  assert_string_equal(got, "CABBAAAA");
  free(got);
  /* a dump and its reverse give the bytes back */
  assert_int_equal(bh_run(h, NULL, "xxd", "t.txt", "dump", NULL), 0);
  assert_int_equal(bh_run(h, NULL, "xxd", "-r", "dump", "back", NULL), 0);
  size_t n;
  got = bh_read(h, "back", &n);
  assert_int_equal(n, bytes_files[2].len);
  assert_memory_equal(got, bytes_files[2].data, n);
  free(got);
  /* -s from the end works on a file given as stdin */
  h->stdin_chunk = 0;
  assert_int_equal(bh_run(h, "0123456789", "xxd", "-s", "-3", NULL), 0);
  assert_string_equal(bh_out(h),
                      "00000007: 3738 39                                  "
                      "789\n");
  bh_free(h);
}

static uint64_t size_of(bh *h, const char *p) {
  size_t n = 0;
  char *d = bh_read(h, p, &n);
  assert_non_null(d);
  free(d);
  return n;
}

/* truncate: sizes recorded from coreutils 9.1. */
static void t_truncate(void **st) {
  bh *h = fixture();
  static const struct {
    const char *size;
    uint64_t want;
  } rel[] = {{"5", 5},    {"+10", 20},  {"-3", 7},      {"<4", 4},
             {">18", 18}, {"/3", 9},    {"%4", 12},     {"-20", 0},
             {" 5", 5},   {"1k", 1024}, {"1KiB", 1024}, {"1KB", 1000},
             {"<20", 10}, {">2", 10}};
  for (size_t i = 0; i < N(rel); i++) {
    bh_write(h, "tf", "abcdefghij");
    assert_int_equal(bh_run(h, NULL, "truncate", "-s", rel[i].size, "tf", NULL),
                     0);
    assert_int_equal(size_of(h, "tf"), rel[i].want);
  }
  bh_write(h, "tf", "abcdefghij");
  assert_int_equal(bh_run(h, NULL, "truncate", "-s", "15", "tf", NULL), 0);
  size_t n;
  char *d = bh_read(h, "tf", &n);
  assert_int_equal(n, 15);
  assert_memory_equal(d, "abcdefghij\0\0\0\0\0", 15);
  free(d);
  const bh_case cases[] = {
      BH_CASE(NULL, 1, "", "truncate: division by zero\n", "truncate", "-s",
              "/0", "tf"),
      BH_CASE(NULL, 1, "", "truncate: Invalid number: 'x'\n", "truncate", "-s",
              "x", "tf"),
      BH_CASE(NULL, 1, "", "truncate: Invalid number: '+-5'\n", "truncate",
              "-s", "+-5", "tf"),
      BH_CASE(NULL, 1, "", "truncate: Invalid number: '2b'\n", "truncate", "-s",
              "2b", "tf"),
      BH_CASE(NULL, 1, "",
              "truncate: Invalid number: '9E': Value too large for defined "
              "data type\n",
              "truncate", "-s", "9E", "tf"),
      BH_CASE(NULL, 1, "",
              "truncate: you must specify either '--size' or '--reference'\n"
              "Try 'truncate --help' for more information.\n",
              "truncate", "tf"),
      BH_CASE(NULL, 1, "",
              "truncate: missing file operand\n"
              "Try 'truncate --help' for more information.\n",
              "truncate", "-s", "1"),
      BH_CASE(NULL, 1, "",
              "truncate: cannot open 'nod/x' for writing: No such file or "
              "directory\n",
              "truncate", "-s", "5", "nod/x"),
      BH_CASE(NULL, 1, "",
              "truncate: cannot stat 'nof': No such file or directory\n",
              "truncate", "-r", "nof", "n5"),
      BH_CASE(NULL, 1, "",
              "truncate: you must specify a relative '--size' with "
              "'--reference'\n"
              "Try 'truncate --help' for more information.\n",
              "truncate", "-s", "5", "-r", "tf", "tf"),
      BH_CASE(NULL, 0, "", "", "truncate", "-c", "-s", "5", "newf"),
      BH_CASE(NULL, 0, "", "", "truncate", "-r", "tf", "n3"),
      BH_CASE(NULL, 0, "", "", "truncate", "-r", "tf", "-s", "+2", "n4"),
      BH_CASE(NULL, 0, "", "", "truncate", "-o", "-s", "2", "n7"),
  };
  bh_check_all(h, cases);
  assert_null(bh_read(h, "newf", NULL));
  assert_int_equal(size_of(h, "n3"), 15);
  assert_int_equal(size_of(h, "n4"), 17);
  assert_int_equal(size_of(h, "n7"), 8192);
  assert_int_equal(vfs_mkdir(h->vfs, h->cwd, "dd", 0755), 0);
  assert_int_equal(bh_run(h, NULL, "truncate", "-s", "5", "dd", NULL), 1);
  assert_string_equal(
      bh_err(h), "truncate: cannot open 'dd' for writing: Is a directory\n");
  bh_free(h);
}

/* Inputs read as a file (a zero-copy view) give what a pipe gives. */
static void t_file_stdin(void **st) {
  bh *h = fixture();
  h->stdin_chunk = 0;
  const char *in = "hello\nwOrld\nmore\n";
  assert_int_equal(bh_run(h, in, "cmp", "c1", NULL), 1);
  assert_string_equal(bh_out(h), "c1 - differ: char 8, line 2\n");
  /* outside the C locale, diffutils says "byte" */
  bh_setenv(h, "LANG", "C.UTF-8");
  assert_int_equal(bh_run(h, in, "cmp", "c1", NULL), 1);
  assert_string_equal(bh_out(h), "c1 - differ: byte 8, line 2\n");
  assert_int_equal(bh_run(h, in, "cksum", NULL), 0);
  h->stdin_chunk = 1;
  char first[64];
  snprintf(first, sizeof first, "%s", bh_out(h));
  assert_int_equal(bh_run(h, in, "cksum", NULL), 0);
  assert_string_equal(bh_out(h), first);
  bh_free(h);
}

/* A budget stop ends the long loops: a big input under a tiny deadline. */
static void t_budget(void **st) {
  bh *h = fixture();
  size_t n = 4u << 20;
  char *big = calloc(1, n);
  assert_non_null(big);
  bh_writen(h, "big", big, n);
  free(big);
  const char *cmds[][5] = {
      {"xxd", "big"},   {"hexdump", "-v", "big"}, {"strings", "-n", "1", "big"},
      {"cksum", "big"}, {"cmp", "big", "big"},    {"base32", "big"}};
  for (size_t i = 0; i < N(cmds); i++) {
    h->bud.deadline_ns = 1; /* already past */
    int argc = 0;
    while (cmds[i][argc])
      argc++;
    int s = bh_runa(h, NULL, 0, argc, (char **)cmds[i]);
    assert_true(h->bud.stop != BUDGET_OK);
    (void)s;
    h->bud.deadline_ns = 0;
  }
  bh_free(h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_xxd),        cmocka_unit_test(t_xxd_revert),
      cmocka_unit_test(t_hexdump),    cmocka_unit_test(t_cmp),
      cmocka_unit_test(t_base32),     cmocka_unit_test(t_cksum),
      cmocka_unit_test(t_strings),    cmocka_unit_test(t_truncate),
      cmocka_unit_test(t_file_stdin), cmocka_unit_test(t_budget),
      cmocka_unit_test(t_expr),       cmocka_unit_test(t_expr_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
