// layers: core
/* Unit tests of sh_brace_expand (shell/brace.c). The table was produced by
 * bash 5.2: `printf '[%s]' WORD` with globbing off; results are compared
 * after removing the escaping backslashes, as the expander will. Many words
 * come from the oils brace-expansion spec tests. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/pattern.h"
#include "shell/expand/brace.c"
#include "shell/expand/expand.h"

/* pat_unescape lives in pattern.c; a local copy keeps this test
 * independent of it. */
static size_t unescape(char *p, size_t n) {
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    if (p[i] == '\\' && i + 1 < n)
      i++;
    p[o++] = p[i];
  }
  return o;
}

typedef struct bcase {
  const char *word, *want;
} bcase;

static const bcase cases[] = {
    {"{1..5}", "[1][2][3][4][5]"},
    {"{5..1}", "[5][4][3][2][1]"},
    {"{01..10}", "[01][02][03][04][05][06][07][08][09][10]"},
    {"{1..10..3}", "[1][4][7][10]"},
    {"{10..1..3}", "[10][7][4][1]"},
    {"{1..10..-3}", "[1][4][7][10]"},
    {"{a..e}", "[a][b][c][d][e]"},
    {"{e..a}", "[e][d][c][b][a]"},
    {"{a..z..5}", "[a][f][k][p][u][z]"},
    {"{-3..3}", "[-3][-2][-1][0][1][2][3]"},
    {"{-05..5}", "[-05][-04][-03][-02][-01][000][001][002][003][004][005]"},
    {"{05..-3}", "[05][04][03][02][01][00][-1][-2][-3]"},
    {"{1..3..0}", "[1][2][3]"},
    {"{%..+}", "[{%..+}]"},
    {"{1..a}", "[{1..a}]"},
    {"{1...3}", "[{1...3}]"},
    {"{1..3..}", "[{1..3..}]"},
    {"{1..}", "[{1..}]"},
    {"{..3}", "[{..3}]"},
    {"{a..bb}", "[{a..bb}]"},
    {"{+1..3}", "[1][2][3]"},
    {"{1..+3}", "[1][2][3]"},
    {"{001..3}", "[001][002][003]"},
    {"{1..0010}",
     "[0001][0002][0003][0004][0005][0006][0007][0008][0009][0010]"},
    {"{-1..-10..4}", "[-1][-5][-9]"},
    {"{9223372036854775806..9223372036854775807}",
     "[9223372036854775806][9223372036854775807]"},
    {"{-9223372036854775808..-9223372036854775807}",
     "[-9223372036854775808][-9223372036854775807]"},
    {"{9223372036854775807..9223372036854775808}",
     "[{9223372036854775807..9223372036854775808}]"},
    {"{a}", "[{a}]"},
    {"{}", "[{}]"},
    {"a{}b", "[a{}b]"},
    {"{a,b}", "[a][b]"},
    {"x{a,b}y", "[xay][xby]"},
    {"{a,b}{c,d}", "[ac][ad][bc][bd]"},
    {"{a,{b,c}}d", "[ad][bd][cd]"},
    {"{a,b{c,d}", "[{a,bc][{a,bd]"},
    {"{a}{b,c}", "[{a}b][{a}c]"},
    {"a{,b,}c", "[ac][abc][ac]"},
    {"{{a,b}}", "[{a}][{b}]"},
    {"}{a,b}{", "[}a{][}b{]"},
    {"{a..c}{1..2}", "[a1][a2][b1][b2][c1][c2]"},
    {"{a,b}}", "[a}][b}]"},
    {"{{a,b}", "[{a][{b]"},
    {"a\\{b,c}", "[a{b,c}]"},
    {"{a\\,b,c}", "[a,b][c]"},
    {"{a,b\\}", "[{a,b}]"},
    {"{1..3}x{a..b}", "[1xa][1xb][2xa][2xb][3xa][3xb]"},
    {"{x,{1..3}}", "[x][1][2][3]"},
    {"{a..c..-1}", "[a][b][c]"},
    {"{0..10..5}", "[0][5][10]"},
    {"{-0..2}", "[0][1][2]"},
    {"{0x1..3}", "[{0x1..3}]"},
    {"{a,b}_{", "[a_{][b_{]"},
    {"}_{a,b}", "[}_a][}_b]"},
    {"{x}_{a,b}", "[{x}_a][{x}_b]"},
    {"{0,1}{0,1}{0,1}", "[000][001][010][011][100][101][110][111]"},
    {"-{\\$,\\[,\\]}-", "[-$-][-[-][-]-]"},
    {"\\{{a,b}", "[{a][{b]"},
    {"a{X,,Y}b", "[aXb][ab][aYb]"},
    {"-{A,={a,b}=,B}-", "[-A-][-=a=-][-=b=-][-B-]"},
    {"-{A,={a,.{x,y}.,b}=,B}-", "[-A-][-=a=-][-=.x.=-][-=.y.=-][-=b=-][-B-]"},
    {"-{A,={a,b}{c,d}=,B}-", "[-A-][-=ac=-][-=ad=-][-=bc=-][-=bd=-][-B-]"},
    {"-{1..8..3}-", "[-1-][-4-][-7-]"},
    {"-{1..8..-3}-", "[-1-][-4-][-7-]"},
    {"-{1..4..-1}-", "[-1-][-2-][-3-][-4-]"},
    {"-{8..1..3}-", "[-8-][-5-][-2-]"},
    {"-{8..1..-3}-", "[-8-][-5-][-2-]"},
    {"{1..1}-", "[1-]"},
    {"{-9..-9}-", "[-9-]"},
    {"{-9..-9..3}-", "[-9-]"},
    {"{a..a}-", "[a-]"},
    {"{a..a..2}-", "[a-]"},
    {"-{a..e..2}-", "[-a-][-c-][-e-]"},
    {"-{a..e..-2}-", "[-a-][-c-][-e-]"},
    {"-{e..a..2}-", "[-e-][-c-][-a-]"},
    {"-{09..12}-", "[-09-][-10-][-11-][-12-]"},
    {"-{12..07}-", "[-12-][-11-][-10-][-09-][-08-][-07-]"},
    {"-{01..003}-", "[-001-][-002-][-003-]"},
    {"-{01..3}-", "[-01-][-02-][-03-]"},
    {"-{a,b}{1..3}-", "[-a1-][-a2-][-a3-][-b1-][-b2-][-b3-]"},
    {"{a,b}\\ c", "[a c][b c]"},
    {"{1,2}{a..b}{,x}", "[1a][1ax][1b][1bx][2a][2ax][2b][2bx]"},
    {"{a,b,c,d,e}", "[a][b][c][d][e]"},
    {"{ab,cd}ef", "[abef][cdef]"},
    {"a{b}c{d,e}", "[a{b}cd][a{b}ce]"},
    {"{a{b,c}d,e}", "[abd][acd][e]"},
    {"{1..2}{3..4}{5..6}", "[135][136][145][146][235][236][245][246]"},
    {"{A..z..10}", "[A][K][U][_][i][s]"},
};

typedef struct fixture {
  mem *m;
  arena a;
} fixture;

static int setup(void **st) {
  static fixture f;
  f.m = mem_new(NULL, NULL, 0);
  arena_init(&f.a, f.m);
  *st = &f;
  return 0;
}

static int teardown(void **st) {
  fixture *f = *st;
  arena_destroy(&f->a);
  mem_unref(f->m);
  return 0;
}

/* Expand w and render the results as "[r1][r2]...", unescaped or raw. */
static void render(fixture *f, const char *w, size_t wl, int raw, char *out,
                   size_t cap) {
  char **v;
  size_t *l;
  size_t n = sh_brace_expand(&f->a, w, wl, &v, &l);
  size_t o = 0;
  out[0] = 0;
  for (size_t i = 0; i < n && o < cap; i++) {
    assert_int_equal(strlen(v[i]), l[i]); /* NUL-terminated, no NULs here */
    char tmp[256];
    size_t tl = l[i] < sizeof tmp ? l[i] : sizeof tmp - 1;
    memcpy(tmp, v[i], tl);
    if (!raw)
      tl = unescape(tmp, tl);
    o += (size_t)snprintf(out + o, cap - o, "[%.*s]", (int)tl, tmp);
  }
}

static void test_bash_table(void **st) {
  fixture *f = *st;
  int bad = 0;
  char got[2048];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    render(f, cases[i].word, strlen(cases[i].word), 0, got, sizeof got);
    if (strcmp(got, cases[i].want) != 0) {
      print_error("word [%s]\n  want %s\n  got  %s\n", cases[i].word,
                  cases[i].want, got);
      bad++;
    }
  }
  assert_int_equal(bad, 0);
}

static void expect(fixture *f, const char *w, const char *want) {
  char got[2048];
  render(f, w, strlen(w), 1, got, sizeof got);
  assert_string_equal(got, want);
}

static void test_raw_results(void **st) {
  fixture *f = *st;
  /* escaped bytes stay escaped in the results */
  expect(f, "{a\\,b,c}", "[a\\,b][c]");
  expect(f, "\\{a,b}", "[\\{a,b}]");
  expect(f, "x\\\x01\\3{a,b}", "[x\\\x01\\3a][x\\\x01\\3b]");
  /* empty alternatives are results too */
  expect(f, "{,}", "[][]");
  expect(f, "{a,}", "[a][]");
  expect(f, "{,a}", "[][a]");
  expect(f, "", "[]");
  expect(f, "plain", "[plain]");
  /* a parameter expansion is not a brace expression, nor are its commas */
  expect(f, "${a,b}", "[${a,b}]");
  expect(f, "${a,b}{c,d}", "[${a,b}c][${a,b}d]");
  expect(f, "{${a,b},c}", "[${a,b}][c]");
  expect(f, "$x{a,b}", "[$xa][$xb]");
  /* character ranges across the punctuation between Z and a */
  expect(f, "{Z..c}", "[Z][[][\\][]][^][_][`][a][b][c]");
  expect(f, "{z..A..13}", "[z][m][`][S][F]");
}

static void test_not_nul_terminated(void **st) {
  fixture *f = *st;
  char got[256];
  render(f, "{a,b}cdef", 6, 1, got, sizeof got);
  assert_string_equal(got, "[ac][bc]");
  render(f, "{a,b}", 4, 1, got, sizeof got);
  assert_string_equal(got, "[{a,b]");
  /* NUL bytes inside are data */
  char **v;
  size_t *l;
  size_t n = sh_brace_expand(&f->a, "{a,\0}x", 6, &v, &l);
  assert_int_equal(n, 2);
  assert_int_equal(l[1], 2);
  assert_memory_equal(v[1], "\0x", 3);
}

static void test_large(void **st) {
  fixture *f = *st;
  char **v;
  size_t *l;
  size_t n = sh_brace_expand(&f->a, "{1..100000}", 11, &v, &l);
  assert_int_equal(n, 100000);
  assert_string_equal(v[99999], "100000");
  n = sh_brace_expand(
      &f->a, "{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", 50, &v, &l);
  assert_int_equal(n, 1024);
  assert_string_equal(v[1023], "bbbbbbbbbb");
}

static void test_memory_cap(void **st) {
  (void)st;
  mem *m = mem_new(NULL, NULL, 4096);
  arena a;
  arena_init(&a, m);
  char **v = (char **)1;
  size_t *l;
  /* far more than the cap allows: fails cleanly with no results */
  size_t n = sh_brace_expand(&a, "{1..10000000}", 13, &v, &l);
  assert_int_equal(n, 0);
  assert_null(v);
  arena_destroy(&a);
  mem_unref(m);
}

/* A word of n nested lists {a,{a,...{a,b}...}} inside PRE and POST. */
static char *nested(arena *a, const char *pre, int n, const char *post,
                    size_t *len) {
  size_t pl = strlen(pre), ql = strlen(post);
  *len = pl + (size_t)n * 4 + 1 + ql;
  char *w = arena_alloc(a, *len + 1);
  assert_non_null(w);
  memcpy(w, pre, pl);
  char *p = w + pl;
  for (int i = 0; i < n; i++, p += 3)
    memcpy(p, "{a,", 3);
  *p++ = 'b';
  memset(p, '}', (size_t)n);
  memcpy(p + n, post, ql + 1);
  return w;
}

static void test_deep_chain(void **st) {
  fixture *f = *st;
  char **v;
  size_t *l, len;
  /* past the depth limit: refused (found by one pass, not by expanding) */
  char *w = nested(&f->a, "x", 3000, "", &len);
  errno = 0;
  assert_int_equal(sh_brace_expand(&f->a, w, len, &v, &l), 0);
  assert_int_equal(errno, ELOOP);
  /* behind unmatched braces too: they are literal, the lists still expand */
  w = nested(&f->a, "{{{", 1100, "", &len);
  errno = 0;
  assert_int_equal(sh_brace_expand(&f->a, w, len, &v, &l), 0);
  assert_int_equal(errno, ELOOP);
  /* within the limit: expanded */
  w = nested(&f->a, "", 500, "", &len);
  assert_int_equal(sh_brace_expand(&f->a, w, len, &v, &l), 501);
  assert_string_equal(v[0], "a");
  assert_string_equal(v[500], "b");
  /* inside ${...} nothing is expanded, however deep */
  w = nested(&f->a, "${x:-", 1100, "}{c,d}", &len);
  assert_int_equal(sh_brace_expand(&f->a, w, len, &v, &l), 2);
  assert_int_equal(l[0], len - 4);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_deep_chain),
      cmocka_unit_test(test_bash_table),
      cmocka_unit_test(test_raw_results),
      cmocka_unit_test(test_not_nul_terminated),
      cmocka_unit_test(test_large),
      cmocka_unit_test(test_memory_cap),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
