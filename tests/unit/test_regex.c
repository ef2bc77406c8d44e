// layers: core
/* Unit tests of core/regex.c: POSIX leftmost-longest over PCRE2, the
 * automaton taking over from the backtracker, capture groups for a known
 * extent, UTF-8 windows, and every limit reported as an error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/regex.h"

typedef struct fx {
  mem *m;
  rx_env e;
  rx r;
  int compiled;
} fx;

static int setup(void **st) {
  fx *f = calloc(1, sizeof *f);
  f->m = mem_new(NULL, NULL, 0);
  assert_int_equal(rx_env_init(&f->e, f->m, 1024 * 1024), 0);
  *st = f;
  return 0;
}

static int teardown(void **st) {
  fx *f = *st;
  if (f->compiled)
    rx_free(&f->r);
  rx_env_free(&f->e);
  assert_int_equal(mem_used(f->m), 0); /* everything went back */
  mem_unref(f->m);
  free(f);
  return 0;
}

static void comp(fx *f, const char *pat, uint32_t opts, unsigned flags) {
  if (f->compiled)
    rx_free(&f->r);
  int ec;
  size_t eo;
  assert_int_equal(
      rx_compile(&f->e, &f->r, pat, strlen(pat), opts, flags, NULL, &ec, &eo),
      0);
  f->compiled = 1;
}

/* rx_search over a C string: the match as "start-end", "none" or "err N". */
static const char *find(fx *f, const char *s, size_t from, uint32_t opts,
                        int want) {
  static char out[64];
  size_t ms = 0, me = 0;
  int rc = rx_search(&f->r, s, strlen(s), from, opts, want, &ms, &me);
  if (rc < 0)
    snprintf(out, sizeof out, "err %d", rc);
  else if (rc == 0)
    snprintf(out, sizeof out, "none");
  else
    snprintf(out, sizeof out, "%zu-%zu", ms, me);
  return out;
}

static const char *group(fx *f, const char *s, uint32_t i) {
  static char out[128];
  uint32_t n;
  PCRE2_SIZE *ov = rx_ovector(&f->r, &n);
  if (i >= n || ov[2 * i] == PCRE2_UNSET)
    return "<unset>";
  snprintf(out, sizeof out, "%.*s", (int)(ov[2 * i + 1] - ov[2 * i]),
           s + ov[2 * i]);
  return out;
}

static void t_longest(void **st) {
  fx *f = *st;
  comp(f, "a|ab|abc", 0, RX_POSIX);
  assert_string_equal(find(f, "xabcd", 0, 0, RX_EXTENT), "1-4");
  comp(f, "a|ab|abc", 0, 0); /* Perl's rule: the first alternative */
  assert_string_equal(find(f, "xabcd", 0, 0, RX_EXTENT), "1-2");
  /* Greedy is not longest either: x* takes the x that (xy)? needed. */
  comp(f, "x*(xy)?", 0, RX_POSIX | RX_CAPS);
  assert_string_equal(find(f, "xy", 0, 0, RX_EXTENT), "0-2");
  assert_string_equal(find(f, "xy", 0, 0, RX_GROUPS), "0-2");
  assert_string_equal(group(f, "xy", 1), "xy");
  /* Leftmost wins over longer later matches. */
  comp(f, "b|bcd|cdef", 0, RX_POSIX);
  assert_string_equal(find(f, "abcdef", 0, 0, RX_EXTENT), "1-4");
  assert_string_equal(find(f, "abcdef", 2, 0, RX_EXTENT), "2-6");
  /* Empty matches and NOTEMPTY_ATSTART (sed's s///g after a match). */
  comp(f, "a*", 0, RX_POSIX);
  assert_string_equal(find(f, "baaac", 1, 0, RX_EXTENT), "1-4");
  assert_string_equal(find(f, "baaac", 4, PCRE2_NOTEMPTY_ATSTART, RX_EXTENT),
                      "5-5");
}

static void t_pathological(void **st) {
  fx *f = *st;
  char s[64];
  memset(s, 'a', 40);
  strcpy(s + 40, "b");
  /* Exponential for a backtracker; the automaton answers at once. */
  comp(f, "^(a|aa)+c|a+b$", 0, RX_POSIX | RX_CAPS);
  assert_string_equal(find(f, s, 0, 0, RX_ANY), "0-41");
  assert_string_equal(find(f, s, 0, 0, RX_GROUPS), "0-41");
  assert_string_equal(group(f, s, 1), "<unset>");
  comp(f, "^(a|aa)+c|(a+)b$", 0, RX_POSIX | RX_CAPS);
  assert_string_equal(find(f, s, 0, 0, RX_GROUPS), "0-41");
  assert_string_equal(group(f, s, 2),
                      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
  comp(f, "(a*)*$|b", 0, RX_POSIX);
  assert_string_equal(find(f, s, 0, 0, RX_EXTENT), "40-41");
}

static void t_limits(void **st) {
  fx *f = *st;
  char s[64];
  memset(s, 'a', 40);
  strcpy(s + 40, "b");
  /* A back-reference needs the backtracker: its limit is an error. */
  f->e.match_limit = 10000;
  comp(f, "^(a|aa)+\\1c|a+b$", 0, RX_POSIX);
  char want[32];
  snprintf(want, sizeof want, "err %d", PCRE2_ERROR_MATCHLIMIT);
  assert_string_equal(find(f, s, 0, 0, RX_ANY), want);
  comp(f, "^(a|aa)+c|a+b$", 0, 0); /* -P: no automaton either */
  assert_string_equal(find(f, s, 0, 0, RX_ANY), want);
  /* The capture pass is backtracking too (here without its memo, which
   * the lazy repeat switches off). */
  f->e.match_limit = 0;
  comp(f, "^(a|aa)+?c|(a+)b$", 0, RX_POSIX | RX_CAPS);
  f->e.match_limit = 10000;
  assert_string_equal(find(f, s, 0, 0, RX_ANY), "0-41");
  assert_string_equal(find(f, s, 0, 0, RX_GROUPS), want);
  f->e.match_limit = 0;
  /* The nested backtracking limit (interpreter only). */
  f->e.depth_limit = 2;
  comp(f, "^(a|aa)+\\1c|a+b$", 0, RX_POSIX | RX_NOJIT);
  snprintf(want, sizeof want, "err %d", PCRE2_ERROR_DEPTHLIMIT);
  assert_string_equal(find(f, s, 0, 0, RX_ANY), want);
  f->e.depth_limit = 0;
  /* The automaton's workspace. */
  f->e.match_limit = 1;
  f->e.ws_max = 20;
  comp(f, "(a|a|a|a|a|a|a|a|a|a)*b", 0, RX_POSIX | RX_NOJIT);
  snprintf(want, sizeof want, "err %d", PCRE2_ERROR_DFA_WSSIZE);
  assert_string_equal(find(f, s, 0, 0, RX_ANY), want);
  f->e.ws_max = 0; /* grows on demand up to RX_WS_MAX */
  assert_string_equal(find(f, s, 0, 0, RX_ANY), "0-41");
  f->e.match_limit = 0;
  char msg[128];
  assert_string_equal(rx_strerror(PCRE2_ERROR_MATCHLIMIT, msg, sizeof msg),
                      "exceeded PCRE's backtracking limit");
  assert_string_equal(rx_strerror(PCRE2_ERROR_DFA_WSSIZE, msg, sizeof msg),
                      "exceeded PCRE's DFA workspace limit");
  assert_true(rx_is_limit(PCRE2_ERROR_HEAPLIMIT));
  assert_false(rx_is_limit(PCRE2_ERROR_NOMATCH));
}

static void t_utf_windows(void **st) {
  fx *f = *st;
  const uint32_t u = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
  /* The automaton runs only on valid UTF-8: windows around invalid bytes,
   * with ^ and \b seeing the byte before as what it is. */
  for (int forced = 0; forced < 2; forced++) {
    f->e.match_limit = forced ? 1 : 0; /* 1: the automaton does it all */
    comp(f, "ab|abc", u, RX_POSIX);
    assert_string_equal(find(f,
                             "\xff"
                             "abc",
                             0, 0, RX_EXTENT),
                        "1-4");
    assert_string_equal(find(f,
                             "\xc3\xa9\xff"
                             "abc\xff",
                             0, 0, RX_EXTENT),
                        "3-6");
    comp(f, "^abc", u, RX_POSIX);
    assert_string_equal(find(f,
                             "\xff"
                             "abc",
                             0, 0, RX_EXTENT),
                        "none");
    comp(f, "^abc", u | PCRE2_MULTILINE, RX_POSIX);
    assert_string_equal(find(f, "x\nabc", 2, 0, RX_EXTENT), "2-5");
    comp(f, "\\bab|\\babc", u | PCRE2_UCP, RX_POSIX);
    assert_string_equal(find(f,
                             "x\xff"
                             "abc",
                             0, 0, RX_EXTENT),
                        "2-5");
    assert_string_equal(find(f,
                             "\xc3\xa9"
                             "abc abcd",
                             0, 0, RX_EXTENT),
                        "6-9");
    comp(f, "\xc3\xa9|\xc3\xa9x", u, RX_POSIX);
    assert_string_equal(find(f, "\xff\xc3\xa9xy", 0, 0, RX_EXTENT), "1-4");
  }
  f->e.match_limit = 0;
}

static void t_whole(void **st) {
  fx *f = *st;
  /* find -regex: anchored at both ends. */
  comp(f, "(?:.*(a|aa)+c|.*b)", PCRE2_DOTALL, RX_POSIX);
  char s[64] = "/x/";
  memset(s + 3, 'a', 40);
  strcpy(s + 43, "b");
  assert_string_equal(find(f, s, 0, PCRE2_ANCHORED | PCRE2_ENDANCHORED, RX_ANY),
                      "0-44");
  assert_string_equal(
      find(f, "/x/ab/c", 0, PCRE2_ANCHORED | PCRE2_ENDANCHORED, RX_ANY),
      "none");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(t_longest, setup, teardown),
      cmocka_unit_test_setup_teardown(t_pathological, setup, teardown),
      cmocka_unit_test_setup_teardown(t_limits, setup, teardown),
      cmocka_unit_test_setup_teardown(t_utf_windows, setup, teardown),
      cmocka_unit_test_setup_teardown(t_whole, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
