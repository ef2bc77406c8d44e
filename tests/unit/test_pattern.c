// layers: core
/* Unit tests of shell/pattern.c. The table was produced with bash 5.2
 * (extglob on, LC_ALL=C.UTF-8): [[ s == p ]] with and without nocasematch,
 * ${s#p} ${s##p} ${s%p} ${s%%p} ${s/p/<>} ${s//p/<>}. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/pattern.h"

typedef struct pcase {
  const char *p, *s;
  int match, match_nocase;
  const char *hash, *hash2, *pct, *pct2, *sub, *gsub;
} pcase;

static const pcase cases[] = {
    {"*", "", 1, 1, "", "", "", "", "<>", "<>"},
    {"*", "abc", 1, 1, "abc", "", "abc", "", "<>", "<>"},
    {"?", "a", 1, 1, "", "", "", "", "<>", "<>"},
    {"?", "", 0, 0, "", "", "", "", "", ""},
    {"?", "ab", 0, 0, "b", "b", "a", "a", "<>b", "<><>"},
    {"???", "abc", 1, 1, "", "", "", "", "<>", "<>"},
    {"a*", "abc", 1, 1, "bc", "", "", "", "<>", "<>"},
    {"*c", "abc", 1, 1, "", "", "ab", "", "<>", "<>"},
    {"a*c", "abc", 1, 1, "", "", "", "", "<>", "<>"},
    {"a*c", "ac", 1, 1, "", "", "", "", "<>", "<>"},
    {"a*c", "ab", 0, 0, "ab", "ab", "ab", "ab", "ab", "ab"},
    {"*b*", "abc", 1, 1, "c", "", "a", "", "<>", "<>"},
    {"*b*", "xyz", 0, 0, "xyz", "xyz", "xyz", "xyz", "xyz", "xyz"},
    {"a*b*c*d", "aXbYcZd", 1, 1, "", "", "", "", "<>", "<>"},
    {"a*b*c*d", "aXbYcZ", 0, 0, "aXbYcZ", "aXbYcZ", "aXbYcZ", "aXbYcZ",
     "aXbYcZ", "aXbYcZ"},
    {"**", "abc", 1, 1, "abc", "", "abc", "", "<>", "<>"},
    {"a**c", "abXc", 1, 1, "", "", "", "", "<>", "<>"},
    {"[abc]", "b", 1, 1, "", "", "", "", "<>", "<>"},
    {"[abc]", "d", 0, 0, "d", "d", "d", "d", "d", "d"},
    {"[!abc]", "d", 1, 1, "", "", "", "", "<>", "<>"},
    {"[!abc]", "a", 0, 0, "a", "a", "a", "a", "a", "a"},
    {"[^abc]", "d", 1, 1, "", "", "", "", "<>", "<>"},
    {"[a-c]", "b", 1, 1, "", "", "", "", "<>", "<>"},
    {"[a-c]", "B", 0, 1, "B", "B", "B", "B", "B", "B"},
    {"[a-c]x", "cx", 1, 1, "", "", "", "", "<>", "<>"},
    {"[]]", "]", 1, 1, "", "", "", "", "<>", "<>"},
    {"[]a]", "a", 1, 1, "", "", "", "", "<>", "<>"},
    {"[!]]", "a", 1, 1, "", "", "", "", "<>", "<>"} /* bash: a */,
    {"[!]]", "]", 0, 0, "]", "]", "]", "]", "]", "]"},
    {"[a-]", "-", 1, 1, "", "", "", "", "<>", "<>"},
    {"[a-]", "b", 0, 0, "b", "b", "b", "b", "b", "b"},
    {"[\\]]", "]", 1, 1, "", "", "", "", "<>", "<>"},
    {"[\\\\]", "\\", 1, 1, "", "", "", "", "<>", "<>"},
    {"[", "[", 1, 1, "", "", "", "", "<>", "<>"},
    {"a[", "a[", 1, 1, "", "", "", "", "<>", "<>"},
    {"a[]", "a[]", 1, 1, "", "", "", "", "<>", "<>"},
    {"[[:alpha:]]", "x", 1, 1, "", "", "", "", "<>", "<>"},
    {"[[:alpha:]]", "1", 0, 0, "1", "1", "1", "1", "1", "1"},
    {"[[:digit:]]*", "1abc", 1, 1, "abc", "", "", "", "<>", "<>"},
    {"[[:alnum:]_]", "_", 1, 1, "", "", "", "", "<>", "<>"},
    {"[[:upper:]]", "A", 1, 1, "", "", "", "", "<>", "<>"},
    {"[[:upper:]]", "a", 0, 0, "a", "a", "a", "a", "a", "a"},
    {"[[:lower:]]", "a", 1, 1, "", "", "", "", "<>", "<>"},
    {"[[:space:]]", " ", 1, 1, "", "", "", "", "<>", "<>"},
    {"[[:blank:]]", "x", 0, 0, "x", "x", "x", "x", "x", "x"},
    {"[[:punct:]]", "!", 1, 1, "", "", "", "", "<>", "<>"},
    {"[[:punct:]]", "a", 0, 0, "a", "a", "a", "a", "a", "a"},
    {"[[:xdigit:]][[:xdigit:]]", "fF", 1, 1, "", "", "", "", "<>", "<>"},
    {"[[:xdigit:]]", "g", 0, 0, "g", "g", "g", "g", "g", "g"},
    {"[[:cntrl:]]", "a", 0, 0, "a", "a", "a", "a", "a", "a"},
    {"[[:print:]]", "a", 1, 1, "", "", "", "", "<>", "<>"},
    {"[[:graph:]]", " ", 0, 0, " ", " ", " ", " ", " ", " "},
    {"[[:word:]]", "_", 1, 1, "", "", "", "", "<>", "<>"},
    {"[[:foo:]]", "a", 0, 0, "a", "a", "a", "a", "a", "a"},
    {"[[:alpha:][:digit:]]", "5", 1, 1, "", "", "", "", "<>", "<>"},
    {"[![:alpha:]]", "5", 1, 1, "", "", "", "", "<>", "<>"},
    {"[![:alpha:]]", "x", 0, 0, "x", "x", "x", "x", "x", "x"},
    {"\\*", "*", 1, 1, "", "", "", "", "<>", "<>"},
    {"\\*", "a", 0, 0, "a", "a", "a", "a", "a", "a"},
    {"\\?", "?", 1, 1, "", "", "", "", "<>", "<>"},
    {"\\?", "x", 0, 0, "x", "x", "x", "x", "x", "x"},
    {"a\\*b", "a*b", 1, 1, "", "", "", "", "<>", "<>"},
    {"a\\*b", "axb", 0, 0, "axb", "axb", "axb", "axb", "axb", "axb"},
    {"\\[a]", "[a]", 1, 1, "", "", "", "", "<>", "<>"},
    {"\\\\", "\\", 1, 1, "", "", "", "", "<>", "<>"},
    {"ab\\", "ab\\", 1, 1, "", "", "", "", "<>", "<>"} /* bash: no subst */,
    {"é", "é", 1, 1, "", "", "", "", "<>", "<>"},
    {"?", "é", 1, 1, "", "", "", "", "<>", "<>"},
    {"??", "é", 0, 0, "é", "é", "é", "é", "é", "é"},
    {"[é]", "é", 1, 1, "", "", "", "", "<>", "<>"},
    {"[à-ü]", "é", 1, 1, "", "", "", "", "<>", "<>"},
    {"[[:alpha:]]", "é", 1, 1, "", "", "", "", "<>", "<>"},
    {"[[:upper:]]", "É", 1, 1, "", "", "", "", "<>", "<>"},
    {"[[:lower:]]", "é", 1, 1, "", "", "", "", "<>", "<>"},
    {"*é", "café", 1, 1, "", "", "caf", "", "<>", "<>"},
    {"caf?", "café", 1, 1, "", "", "", "", "<>", "<>"},
    {"*", "/a/b", 1, 1, "/a/b", "", "/a/b", "", "<>", "<>"},
    {"a?b", "a/b", 1, 1, "", "", "", "", "<>", "<>"},
    {"@(a|b)", "a", 1, 1, "", "", "", "", "<>", "<>"},
    {"@(a|b)", "c", 0, 0, "c", "c", "c", "c", "c", "c"},
    {"@(a|b)", "ab", 0, 0, "b", "b", "a", "a", "<>b", "<><>"},
    {"@(ab|a)c", "abc", 1, 1, "", "", "", "", "<>", "<>"},
    {"@(a|ab)c", "abc", 1, 1, "", "", "", "", "<>", "<>"},
    {"*(a)", "", 1, 1, "", "", "", "", "<>", "<>"},
    {"*(a)", "aaa", 1, 1, "aaa", "", "aaa", "", "<>", "<>"},
    {"*(a)", "aab", 0, 0, "aab", "b", "aab", "aab", "<>b", "<><>b"},
    {"*(ab|c)", "abcab", 1, 1, "abcab", "", "abcab", "", "<>", "<>"},
    {"+(a)", "", 0, 0, "", "", "", "", "", ""},
    {"+(a)", "aa", 1, 1, "a", "", "a", "", "<>", "<>"},
    {"+(ab)", "abab", 1, 1, "ab", "", "ab", "", "<>", "<>"},
    {"?(a)", "", 1, 1, "", "", "", "", "", ""},
    {"?(a)", "a", 1, 1, "a", "", "a", "", "<>", "<>"},
    {"?(a)", "aa", 0, 0, "aa", "a", "aa", "a", "<>a", "<><>"},
    {"!(a)", "a", 0, 0, "a", "a", "a", "a", "<>a", "<>a"},
    {"!(a)", "b", 1, 1, "b", "", "b", "", "<>", "<>"},
    {"!(a)", "", 1, 1, "", "", "", "", "", ""},
    {"!(a)", "aa", 1, 1, "aa", "", "aa", "", "<>", "<>"},
    {"!(*.h)", "foo.c", 1, 1, "foo.c", "", "foo.c", "", "<>", "<>"},
    {"!(*.h)", "foo.h", 0, 0, "foo.h", "h", "foo.h", "foo.", "<>h", "<><>"},
    {"*.!(h)", "foo.c", 1, 1, "c", "", "foo", "", "<>", "<>"},
    {"*.!(h)", "foo.h", 0, 0, "h", "h", "foo.h", "foo.h", "<>h", "<>h"},
    {"@(a|@(b|c))d", "cd", 1, 1, "", "", "", "", "<>", "<>"},
    {"+(a|b)c", "ababc", 1, 1, "", "", "aba", "", "<>", "<>"},
    {"*(abc|a|bc)", "abcabc", 1, 1, "abcabc", "", "abcabc", "", "<>", "<>"},
    {"x@()", "x", 1, 1, "", "", "", "", "<>", "<>"},
    {"x@()", "xy", 0, 0, "y", "y", "xy", "xy", "<>y", "<>y"},
    {"a+(b|c)d", "abcbd", 1, 1, "", "", "", "", "<>", "<>"},
    {"@(a|b)*", "bzz", 1, 1, "zz", "", "", "", "<>", "<>"},
    {"*@(.c|.h)", "foo.h", 1, 1, "", "", "foo", "", "<>", "<>"},
    {"!(foo|bar)", "baz", 1, 1, "baz", "", "baz", "", "<>", "<>"},
    {"!(foo|bar)", "foo", 0, 0, "foo", "o", "foo", "f", "<>o", "<><>"},
    {"foo!(bar)", "foo", 1, 1, "", "", "", "", "<>", "<>"},
    {"foo!(bar)", "foobar", 0, 0, "bar", "r", "foobar", "foobar", "<>r", "<>r"},
    {"@(a", "@(a", 1, 1, "", "", "", "", "<>", "<>"} /* bash: no subst */,
    {"a|b", "a|b", 1, 1, "", "", "", "", "<>", "<>"},
    {"*(", "*(", 1, 1, "", "", "*", "", "<>", "<>"} /* bash: ${s%p} is "" */,
};

#define EXT PAT_EXTGLOB

static int m(const char *p, const char *s, unsigned flags) {
  return pat_match(p, strlen(p), s, strlen(s), flags);
}

/* ${s/p/<>} (all=0) or ${s//p/<>} (all=1) built from pat_find. */
static void subst(const char *p, const char *s, int all, char *out,
                  size_t cap) {
  size_t n = strlen(s), pos = 0, o = 0;
  out[0] = 0;
  while (pos < n) {
    size_t mlen = 0;
    long st = pat_find(p, strlen(p), s, n, pos, &mlen, EXT);
    if (st < 0)
      break;
    o += (size_t)snprintf(out + o, cap - o, "%.*s<>", (int)((size_t)st - pos),
                          s + pos);
    pos = (size_t)st + mlen;
    if (mlen == 0 && pos < n) { /* empty match: keep one character */
      /* one UTF-8 character (or one byte when invalid) */
      unsigned char b = (unsigned char)s[pos];
      size_t k = b < 0xc0 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
      if (k > n - pos)
        k = 1;
      o += (size_t)snprintf(out + o, cap - o, "%.*s", (int)k, s + pos);
      pos += k;
    }
    if (!all)
      break;
  }
  snprintf(out + o, cap - o, "%s", s + pos);
}

static void test_bash_table(void **st) {
  (void)st;
  int bad = 0;
  char got[1024], want[1024];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const pcase *c = &cases[i];
    size_t pl = strlen(c->p), sl = strlen(c->s);
    long r[4];
    r[0] = pat_prefix(c->p, pl, c->s, sl, 0, EXT);
    r[1] = pat_prefix(c->p, pl, c->s, sl, 1, EXT);
    r[2] = pat_suffix(c->p, pl, c->s, sl, 0, EXT);
    r[3] = pat_suffix(c->p, pl, c->s, sl, 1, EXT);
    char sub[256], gsub[256];
    subst(c->p, c->s, 0, sub, sizeof sub);
    subst(c->p, c->s, 1, gsub, sizeof gsub);
    if (sl == 0) { /* tested by test_prefix_suffix_find instead */
      snprintf(sub, sizeof sub, "%s", c->sub);
      snprintf(gsub, sizeof gsub, "%s", c->gsub);
    }
    /* suffix results are printed as the remaining prefix */
    snprintf(got, sizeof got, "%d %d [%s] [%s] [%.*s] [%.*s] [%s] [%s]",
             m(c->p, c->s, EXT), m(c->p, c->s, EXT | PAT_NOCASE),
             r[0] < 0 ? c->s : c->s + r[0], r[1] < 0 ? c->s : c->s + r[1],
             (int)(r[2] < 0 ? sl : sl - (size_t)r[2]), c->s,
             (int)(r[3] < 0 ? sl : sl - (size_t)r[3]), c->s, sub, gsub);
    snprintf(want, sizeof want, "%d %d [%s] [%s] [%s] [%s] [%s] [%s]", c->match,
             c->match_nocase, c->hash, c->hash2, c->pct, c->pct2, c->sub,
             c->gsub);
    if (strcmp(got, want) != 0) {
      print_error("pattern [%s] subject [%s]\n  want %s\n  got  %s\n", c->p,
                  c->s, want, got);
      bad++;
    }
  }
  assert_int_equal(bad, 0);
}

static void test_flags(void **st) {
  (void)st;
  /* without PAT_EXTGLOB the group syntax is ordinary characters */
  assert_true(m("@(a|b)", "@(a|b)", 0));
  assert_false(m("@(a|b)", "a", 0));
  assert_true(m("*(a)", "x(a)", 0));
  /* PAT_PATHNAME: wildcards do not match '/' */
  assert_false(m("*", "a/b", PAT_PATHNAME));
  assert_true(m("*/*", "a/b", PAT_PATHNAME));
  assert_false(m("a?b", "a/b", PAT_PATHNAME));
  assert_false(m("a[/]b", "a/b", PAT_PATHNAME));
  assert_false(m("a[!x]b", "a/b", PAT_PATHNAME));
  assert_true(m("a[!x]b", "a/b", 0));
  assert_false(m("*x", "a/bx", PAT_PATHNAME));
  /* PAT_PERIOD: a leading '.' must be explicit */
  assert_false(m("*", ".profile", PAT_PERIOD));
  assert_false(m("?profile", ".profile", PAT_PERIOD));
  assert_false(m("[.]profile", ".profile", PAT_PERIOD));
  assert_true(m(".*", ".profile", PAT_PERIOD));
  assert_true(m("*", "a.b", PAT_PERIOD));
  assert_true(m("*/*", "a/.b", PAT_PERIOD));
  assert_false(m("*/*", "a/.b", PAT_PERIOD | PAT_PATHNAME));
  assert_true(m("*/.*", "a/.b", PAT_PERIOD | PAT_PATHNAME));
  assert_false(m("!(x)", ".a", PAT_PERIOD | EXT));
  assert_false(m("@(*)", ".a", PAT_PERIOD | EXT));
  assert_true(m("@(.a|b)", ".a", PAT_PERIOD | EXT));
  /* PAT_NOCASE with ranges, classes and non-ASCII */
  assert_true(m("[a-c]", "B", PAT_NOCASE));
  assert_true(m("ÉTÉ", "été", PAT_NOCASE));
  assert_false(m("ÉTÉ", "été", 0));
  assert_true(m("*ss", "BOSS", PAT_NOCASE));
}

static void test_utf8(void **st) {
  (void)st;
  /* each byte of a multi-byte character escaped (quoted text) */
  assert_true(m("caf\\\xc3\\\xa9", "caf\xc3\xa9", 0));
  assert_true(m("???", "日本語", 0));
  assert_false(m("??", "日本語", 0));
  assert_true(m("[本]", "本", 0));
  assert_true(m("[!本]", "日", 0));
  assert_true(m("[[:alpha:]][[:alpha:]]", "日本", 0));
  /* invalid UTF-8: bytes match one at a time */
  assert_true(m("?", "\xff", 0));
  assert_true(m("??", "\xc3\x28", 0));
  assert_true(m("\xff*", "\xff\xfe", 0));
  assert_false(m("\xfe*", "\xff\xfe", 0));
  assert_true(m("[\xff]", "\xff", 0));
  assert_false(m("[\xfe]", "\xff", 0));
  /* a truncated sequence at the end of the subject */
  assert_true(m("a?", "a\xe6\x97", 0) == 0);
  assert_true(m("a??", "a\xe6\x97", 0));
  /* prefix/suffix work on characters */
  assert_int_equal(pat_prefix("?", 1, "日本", 6, 0, 0), 3);
  assert_int_equal(pat_suffix("?", 1, "日本", 6, 0, 0), 3);
  size_t ml = 0;
  assert_int_equal(pat_find("本", 3, "日本語", 9, 0, &ml, 0), 3);
  assert_int_equal(ml, 3);
}

/* PAT_BYTES (the C locale) and pat_charset (bash's byte fallback on
 * invalid UTF-8), checked against bash 5.2 under LC_ALL=C and C.UTF-8. */
static void test_bytes(void **st) {
  (void)st;
  const unsigned B = PAT_BYTES;
  assert_false(m("?", "\xc3\xa9", B));
  assert_true(m("??", "\xc3\xa9", B));
  assert_false(m("[[:alpha:]]", "\xc3", B));
  assert_true(m("[\x80-\xff]", "\xe9", B));
  assert_true(m("[a-\xff]", "\xc3", B));
  assert_false(m("[\xc3\xa9]?", "\xc3\xa9", 0));
  assert_true(m("[\xc3\xa9]?", "\xc3\xa9", B));
  /* no case outside ASCII in the C locale */
  assert_false(m("\xc3\xa9", "\xc3\x89", B | PAT_NOCASE));
  assert_true(m("\xc3\xa9", "\xc3\x89", PAT_NOCASE));
  assert_true(m("A", "a", B | PAT_NOCASE));
  /* escaped bytes stay single bytes */
  assert_true(m("\\\xc3?", "\xc3\xa9", B));
  assert_int_equal(pat_prefix("?", 1, "\xe6\x97\xa5", 3, 0, B), 1);
  assert_int_equal(pat_suffix("?", 1, "\xe6\x97\xa5", 3, 0, B), 1);
  /* pat_charset */
  const char *x = "h\xff\xc3\xa9";
  assert_int_equal(pat_charset("h??", 3, x, 4, 0), B);
  assert_int_equal(pat_charset("h??", 3, "h\xc3\xa9", 3, 0), 0);
  assert_int_equal(pat_charset("\xc3?", 2, "ab", 2, PAT_EXTGLOB),
                   B | PAT_EXTGLOB);
  /* a quoted character arrives with each byte escaped: still valid */
  assert_int_equal(pat_charset("\\\xc3\\\xa9", 4, "x", 1, 0), 0);
  assert_int_equal(pat_charset("\\\xc3\\x", 4, "x", 1, 0), B);
  assert_false(m("h??", x, pat_charset("h??", 3, x, 4, 0)));
  assert_true(m("h???", x, pat_charset("h???", 4, x, 4, 0)));
}

static void test_has_magic_unescape(void **st) {
  (void)st;
  assert_true(pat_has_magic("a*", 2, 0));
  assert_true(pat_has_magic("a?", 2, 0));
  assert_true(pat_has_magic("[ab]", 4, 0));
  assert_false(pat_has_magic("[ab", 3, 0));
  assert_false(pat_has_magic("abc", 3, 0));
  assert_false(pat_has_magic("a\\*", 3, 0));
  assert_false(pat_has_magic("\\[a]", 4, 0));
  assert_false(pat_has_magic("+(a)", 4, 0));
  assert_true(pat_has_magic("+(a)", 4, EXT));
  assert_true(pat_has_magic("!(a)", 4, EXT));
  assert_true(pat_has_magic("@(a)", 4, EXT));
  char b[] = "a\\*b\\\\c\\";
  size_t n = pat_unescape(b, strlen(b));
  assert_int_equal(n, 6);
  assert_memory_equal(b, "a*b\\c\\", 6);
}

static void test_prefix_suffix_find(void **st) {
  (void)st;
  const char *s = "dir/sub/file.tar.gz";
  size_t n = strlen(s);
  assert_int_equal(pat_prefix("*/", 2, s, n, 0, 0), 4);
  assert_int_equal(pat_prefix("*/", 2, s, n, 1, 0), 8);
  assert_int_equal(pat_suffix(".*", 2, s, n, 0, 0), 3);
  assert_int_equal(pat_suffix(".*", 2, s, n, 1, 0), 7);
  assert_int_equal(pat_prefix("x*", 2, s, n, 1, 0), -1);
  assert_int_equal(pat_suffix("x", 1, s, n, 1, 0), -1);
  assert_int_equal(pat_prefix("", 0, s, n, 1, 0), 0);
  assert_int_equal(pat_suffix("", 0, s, n, 1, 0), 0);
  size_t ml = 99;
  assert_int_equal(pat_find("s*/", 3, s, n, 0, &ml, 0), 4);
  assert_int_equal(ml, 4);
  assert_int_equal(pat_find("[.]*", 4, s, n, 0, &ml, 0), 12);
  assert_int_equal(ml, 7);
  assert_int_equal(pat_find("r", 1, s, n, 3, &ml, 0), 15);
  assert_int_equal(pat_find("r", 1, s, n, 16, &ml, 0), -1);
  assert_int_equal(pat_find("q", 1, s, n, n + 1, &ml, 0), -1);
  /* earliest start wins over a longer match starting later */
  assert_int_equal(pat_find("@(ab|bcdef)", 11, "abcdef", 6, 0, &ml, EXT), 0);
  assert_int_equal(ml, 2);
  assert_int_equal(pat_find("ab|bcdef", 8, "abcdef", 6, 0, &ml, 0), -1);
  assert_int_equal(pat_find("a*|b*", 5, "xxb", 3, 0, &ml, 0), -1);
  /* the same through the fallback with PAT_NOCASE */
  assert_int_equal(pat_find("B*", 2, "aabcd", 5, 0, &ml, PAT_NOCASE), 2);
  assert_int_equal(ml, 3);
  /* patterns too long for the NFA take the slow path and still work */
  char big[600];
  memset(big, '?', 300);
  big[300] = 0;
  char subj[400];
  memset(subj, 'x', 350);
  subj[350] = 0;
  assert_int_equal(pat_prefix(big, 300, subj, 350, 1, 0), 300);
  assert_int_equal(pat_suffix(big, 300, subj, 350, 0, 0), 300);
  assert_int_equal(pat_find(big, 300, subj, 350, 10, &ml, 0), 10);
  assert_int_equal(ml, 300);
}

/* ${x//a/b}-style scans over a large string must not be quadratic-slow
 * (this test would take minutes with naive retrying). */
static void test_large(void **st) {
  (void)st;
  size_t n = 100000;
  char *s = malloc(n + 1);
  for (size_t i = 0; i < n; i++)
    s[i] = (char)('a' + i % 7);
  s[n] = 0;
  size_t ml, pos = 0, count = 0;
  long at;
  while ((at = pat_find("c", 1, s, n, pos, &ml, 0)) >= 0) {
    count++;
    pos = (size_t)at + ml;
  }
  assert_int_equal(count, n / 7 + (n % 7 > 2));
  pos = 0;
  count = 0;
  while ((at = pat_find("[bd]?", 5, s, n, pos, &ml, 0)) >= 0) {
    count++;
    pos = (size_t)at + ml;
  }
  assert_true(count > 20000);
  assert_int_equal(pat_prefix("*z", 2, s, n, 1, 0), -1);
  assert_int_equal(pat_prefix("*a", 2, s, n, 1, 0), (long)(n - 4));
  assert_int_equal(pat_suffix("a*", 2, s, n, 1, 0), (long)n);
  assert_int_equal(pat_suffix("z*", 2, s, n, 1, 0), -1);
  assert_int_equal(pat_suffix("*z", 2, s, n, 0, 0), -1);
  assert_int_equal(pat_find("*z", 2, s, n, 0, &ml, 0), -1);
  assert_true(m("*a*b*c*d*e*f*g*z", s, 0) == 0);
  assert_true(m("*a*b*c*d*e*f*g*", s, 0));
  /* extglob on a huge subject: bounded recursion, no crash (the result is
   * a documented give-up) */
  (void)m("+(a|b|c|d|e|f|g)", s, EXT);
  s[2500] = 0;
  assert_true(m("+(a|b|c|d|e|f|g)", s, EXT));
  assert_true(m("*([a-g])", s, EXT));
  free(s);
  /* an exponential extglob case gives up instead of hanging */
  char t[64];
  memset(t, 'a', 40);
  t[40] = 'b';
  t[41] = 0;
  assert_false(m("*(a|aa)*(a|aa)*(a|aa)c", t, EXT));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bash_table),
      cmocka_unit_test(test_flags),
      cmocka_unit_test(test_utf8),
      cmocka_unit_test(test_bytes),
      cmocka_unit_test(test_has_magic_unescape),
      cmocka_unit_test(test_prefix_suffix_find),
      cmocka_unit_test(test_large),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
