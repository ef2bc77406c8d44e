/*
 * brace.c - bash brace expansion of one word (see sh_brace_expand in
 * pattern.h).
 *
 * The word is expanded as bash does: find its first valid brace
 * expression (one with a top-level comma, or a sequence {x..y[..n]}),
 * expand each alternative and the suffix after the expression on their
 * own (the suffix once, whatever the number of alternatives), and join
 * prefix + alternative + suffix for every pair; results come out in bash's
 * order (a{b,c}{d,e} -> abd abe acd ace). The prefix, having no
 * expression, is not looked at again. A '{' that has no matching '}' or whose
 * contents are neither a list nor a sequence stays literal and the search
 * continues right after it, so {{a,b}} gives {a} {b}. Escaped bytes and
 * ${...} are skipped when looking for braces and commas.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pattern.h"
#include "shell/expand/expand.h"

typedef struct bres {
  arena *a;
  char **v;
  size_t *l;
  size_t n, cap;
  int oom;
  int too_deep;  /* nesting past BRACE_MAX_DEPTH */
  int too_big;   /* work past BRACE_MAX_WORK */
  uint64_t work; /* bytes the searches for a closing brace may scan */
  uint32_t *tab; /* pair_table's buffer, shared by every level */
  size_t tabcap; /* its capacity in entries */
} bres;

/* Nested braces recurse once per level; past this the word is refused
 * rather than the fiber's stack exhausted. */
#define BRACE_MAX_DEPTH 1000

/* Each '{' without a match is searched to the end of the word, once in
 * every part of the word expanded on its own, and the results are joined
 * byte by byte: a word of thousands of unclosed braces, or one whose lists
 * multiply, could take seconds. Past this many bytes scanned and joined
 * the word is refused like a too deep one; real expansions run out of
 * memory long before. */
#define BRACE_MAX_WORK ((uint64_t)1 << 24)

/* Count a search from w[i] to the end; 0 when the word must be refused.
 * The count is of the bytes match_close would scan from there, even when
 * pair_table answers without scanning: which words are refused must not
 * depend on how the closing braces are found. */
static int scan_ok(bres *r, size_t len, size_t i) {
  r->work += len - i;
  if (r->work > BRACE_MAX_WORK) {
    r->too_big = r->oom = 1;
    return 0;
  }
  return 1;
}

/* Append the result c (arena memory of len bytes plus a NUL, kept). */
static void push(bres *r, char *c, size_t len) {
  if (r->oom)
    return;
  if (r->n == r->cap) {
    size_t cap = r->cap ? r->cap * 2 : 8;
    char **v = arena_alloc(r->a, cap * sizeof *v);
    size_t *l = arena_alloc(r->a, cap * sizeof *l);
    if (!v || !l) {
      r->oom = 1;
      return;
    }
    if (r->n) {
      memcpy(v, r->v, r->n * sizeof *v);
      memcpy(l, r->l, r->n * sizeof *l);
    }
    r->v = v;
    r->l = l;
    r->cap = cap;
  }
  r->v[r->n] = c;
  r->l[r->n++] = len;
}

static void add(bres *r, const char *s, size_t len) {
  char *c = r->oom ? NULL : arena_strndup(r->a, s, len);
  if (!c)
    r->oom = 1;
  else
    push(r, c, len);
}

/* Index of the '}' matching the '{' at w[i], or 0 when there is none.
 * *comma tells whether a comma appears at the top level inside. */
static size_t match_close(const char *w, size_t len, size_t i, int *comma) {
  int depth = 0;
  if (comma)
    *comma = 0;
  for (size_t j = i; j < len; j++) {
    char c = w[j];
    if (c == '\\') {
      j++;
    } else if (c == '$' && j + 1 < len && w[j + 1] == '{') {
      /* a parameter expansion is opaque: its commas are not ours */
      size_t e = match_close(w, len, j + 1, NULL);
      if (!e)
        return 0;
      j = e;
    } else if (c == '{') {
      depth++;
    } else if (c == '}') {
      if (--depth == 0)
        return j;
    } else if (c == ',' && depth == 1 && comma) {
      *comma = 1;
    }
  }
  return 0;
}

/* For a word with many braces, match_close from each '{' in turn scans
 * the rest of the word again and again (quadratic in the length: most of
 * the time of a fuzzer's deep inputs). pair_table pairs every brace from
 * `from` on in one pass with a stack, as match_close pairs them: entry p
 * of the result holds the index of the '}' closing the '{' at w[p] (0
 * when there is none), with PT_COMMA set when a comma appears at its top
 * level; a "${" pairs like a brace, its '{' is the entry. Braces before
 * `from` are not looked at (match_close never looks back either). NULL
 * when out of memory or the word is too long for 31-bit indexes. */
#define PT_COMMA ((uint32_t)1 << 31)
#define PT_MIN_LEN 256 /* shorter words are scanned directly */

static const uint32_t *pair_table(bres *r, const char *w, size_t len,
                                  size_t from) {
  if (len >= PT_COMMA)
    return NULL;
  if (r->tabcap < 2 * len) {
    size_t cap = 2 * len + 64;
    uint32_t *t = arena_alloc(r->a, cap * sizeof *t);
    if (!t)
      return NULL;
    r->tab = t;
    r->tabcap = cap;
  }
  uint32_t *tab = r->tab, *stack = r->tab + len;
  size_t n = 0;
  for (size_t j = from; j < len; j++) {
    char c = w[j];
    if (c == '\\') {
      j++;
    } else if (c == '{' || (c == '$' && j + 1 < len && w[j + 1] == '{')) {
      if (c == '$')
        j++;
      tab[j] = 0;
      stack[n++] = (uint32_t)j;
    } else if (c == '}' && n) {
      uint32_t o = stack[--n];
      tab[o] |= (uint32_t)j;
    } else if (c == ',' && n) {
      tab[stack[n - 1]] |= PT_COMMA;
    }
  }
  return tab;
}

/* Index of the first c in w[from, len), or len. */
static size_t next_byte(const char *w, size_t len, size_t from, char c) {
  const char *p = from < len ? memchr(w + from, c, len - from) : NULL;
  return p ? (size_t)(p - w) : len;
}

/* match_close through the table when there is one. */
static size_t find_close(const uint32_t *tab, const char *w, size_t len,
                         size_t i, int *comma) {
  if (!tab)
    return match_close(w, len, i, comma);
  size_t e = tab[i] & ~PT_COMMA;
  if (comma)
    *comma = e && (tab[i] & PT_COMMA);
  return e;
}

/* A decimal integer as bash's brace sequences accept it: optional sign,
 * digits, no overflow. */
static int parse_int(const char *s, size_t n, int64_t *v) {
  if (n == 0 || n > 24)
    return 0;
  char buf[32];
  memcpy(buf, s, n);
  buf[n] = 0;
  size_t i = (buf[0] == '-' || buf[0] == '+') ? 1 : 0;
  if (i == n)
    return 0;
  for (size_t k = i; k < n; k++)
    if (buf[k] < '0' || buf[k] > '9')
      return 0;
  char *end;
  errno = 0;
  long long x = strtoll(buf, &end, 10);
  if (errno || *end)
    return 0;
  *v = x;
  return 1;
}

static int is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

typedef struct seq {
  int chars;
  int64_t lo, hi, incr;
  int width; /* zero padding */
} seq;

/* Zero padding as bash decides it: a term written with a leading zero
 * ("05", "-05") sets the width to its length. */
static int zwidth(const char *s, size_t n) {
  if ((n > 1 && s[0] == '0') || (n > 2 && s[0] == '-' && s[1] == '0'))
    return (int)n;
  return 0;
}

/* Parse the inside of {x..y} or {x..y..incr}. */
static int parse_seq(const char *s, size_t n, seq *q) {
  const char *d1 = NULL, *d2 = NULL;
  for (size_t i = 0; i + 1 < n; i++) {
    if (s[i] == '.' && s[i + 1] == '.') {
      if (!d1)
        d1 = s + i;
      else if (!d2)
        d2 = s + i;
      else
        return 0;
      i++;
    }
  }
  if (!d1)
    return 0;
  const char *x = s, *y = d1 + 2, *z = d2 ? d2 + 2 : NULL;
  size_t xl = (size_t)(d1 - s), yl = (size_t)((d2 ? d2 : s + n) - y);
  size_t zl = z ? (size_t)(s + n - z) : 0;
  q->incr = 1;
  if (z && !parse_int(z, zl, &q->incr))
    return 0;
  if (q->incr < 0)
    q->incr = -q->incr; /* the direction comes from the endpoints */
  if (q->incr == 0 || q->incr == INT64_MIN)
    q->incr = 1;
  q->width = 0;
  if (xl == 1 && yl == 1 && is_letter(x[0]) && is_letter(y[0])) {
    q->chars = 1;
    q->lo = (unsigned char)x[0];
    q->hi = (unsigned char)y[0];
    return 1;
  }
  q->chars = 0;
  if (!parse_int(x, xl, &q->lo) || !parse_int(y, yl, &q->hi))
    return 0;
  int wx = zwidth(x, xl), wy = zwidth(y, yl);
  q->width = wx > wy ? wx : wy;
  return 1;
}

static void expand(bres *r, const char *w, size_t len, int depth);

/* Expand w into a list of its own (t), sharing r's limits and buffers:
 * t starts with r's and hands them back when done. */
static void sub_expand(bres *r, bres *t, const char *w, size_t len, int depth) {
  *t = *r;
  t->v = NULL;
  t->l = NULL;
  t->n = t->cap = 0;
  expand(t, w, len, depth + 1);
  r->oom = t->oom;
  r->too_deep = t->too_deep;
  r->too_big = t->too_big;
  r->work = t->work;
  r->tab = t->tab;
  r->tabcap = t->tabcap;
}

/* Add prefix + mid + each expansion of the suffix. The bytes joined count
 * as work: a word whose expansions multiply is refused before the joining
 * alone takes seconds. */
static void join3(bres *r, const char *p, size_t pl, const char *m, size_t ml,
                  const bres *suf) {
  for (size_t k = 0; k < suf->n && !r->oom; k++) {
    size_t n = pl + ml + suf->l[k];
    r->work += n;
    if (r->work > BRACE_MAX_WORK) {
      r->too_big = r->oom = 1;
      return;
    }
    char *b = arena_alloc(r->a, n + 1);
    if (!b) {
      r->oom = 1;
      return;
    }
    memcpy(b, p, pl);
    memcpy(b + pl, m, ml);
    memcpy(b + pl + ml, suf->v[k], suf->l[k]);
    b[n] = 0;
    push(r, b, n);
  }
}

/* prefix + each expansion of mid + each expansion of the suffix. */
static void join_expanded(bres *r, const char *p, size_t pl, const char *m,
                          size_t ml, const bres *suf, int depth) {
  bres mids;
  sub_expand(r, &mids, m, ml, depth);
  for (size_t k = 0; k < mids.n && !r->oom; k++)
    join3(r, p, pl, mids.v[k], mids.l[k], suf);
}

static void expand_seq(bres *r, const char *w, size_t open, const seq *q,
                       const bres *suf) {
  /* count in unsigned arithmetic: the span may not fit in int64_t */
  uint64_t span = q->hi >= q->lo ? (uint64_t)q->hi - (uint64_t)q->lo
                                 : (uint64_t)q->lo - (uint64_t)q->hi;
  uint64_t count = span / (uint64_t)q->incr + 1;
  int up = q->hi >= q->lo;
  for (uint64_t k = 0; k < count && !r->oom; k++) {
    uint64_t off = k * (uint64_t)q->incr;
    int64_t v = (int64_t)(up ? (uint64_t)q->lo + off : (uint64_t)q->lo - off);
    char num[48];
    int nl;
    if (q->chars) {
      /* raw, like bash: a '\\' from {Z..a} is later quote-removed */
      num[0] = (char)v;
      nl = 1;
    } else {
      nl = snprintf(num, sizeof num, "%0*" PRId64, q->width, v);
    }
    join3(r, w, open, num, (size_t)nl, suf);
  }
}

/* Whether a brace's inner text has a ".." at its top level (outside inner
 * braces and ${...}, not escaped) that is not its end: what makes bash take
 * the braces as an expression when there is no top-level comma. */
static int top_dots(const char *in, size_t inl) {
  int d = 0;
  for (size_t j = 0; j < inl; j++) {
    if (in[j] == '\\') {
      j++;
    } else if (in[j] == '$' && j + 1 < inl && in[j + 1] == '{') {
      size_t e = match_close(in, inl, j + 1, NULL);
      if (!e)
        return 0;
      j = e;
    } else if (in[j] == '{') {
      d++;
    } else if (in[j] == '}') {
      if (d)
        d--;
    } else if (d == 0 && in[j] == '.' && j + 2 < inl && in[j + 1] == '.') {
      return 1;
    }
  }
  return 0;
}

/* Whether an unescaped comma appears anywhere in the inner text, nested
 * or not (bash's test for a list). */
static int any_comma(const char *in, size_t inl) {
  for (size_t j = 0; j < inl; j++) {
    if (in[j] == '\\')
      j++;
    else if (in[j] == ',')
      return 1;
  }
  return 0;
}

static void expand(bres *r, const char *w, size_t len, int depth) {
  if (r->oom)
    return;
  if (depth > BRACE_MAX_DEPTH) {
    r->too_deep = r->oom = 1;
    return;
  }
  /* Built at the second brace of a long word: a word whose first brace is
   * a list or sequence (the common case, and every level of a nested one)
   * needs one scan only. */
  const uint32_t *tab = NULL;
  int scans = 0;
  /* Only '\\', '$' and '{' can start anything: the loop jumps from one to
   * the next, found with memchr (every word an expansion makes is searched
   * again from its start, so most bytes are looked at many times). Each
   * position stays valid until the loop passes it. */
  size_t nb = next_byte(w, len, 0, '\\'), nd = next_byte(w, len, 0, '$');
  size_t no = next_byte(w, len, 0, '{');
  for (size_t i = 0; i < len; i++) {
    if (nb < i)
      nb = next_byte(w, len, i, '\\');
    if (nd < i)
      nd = next_byte(w, len, i, '$');
    if (no < i)
      no = next_byte(w, len, i, '{');
    size_t k = nb < nd ? nb : nd;
    if (no < k)
      k = no;
    if (k >= len)
      break;
    i = k;
    char c = w[i];
    if (c == '\\') {
      i++;
      continue;
    }
    int param = c == '$' && i + 1 < len && w[i + 1] == '{';
    if (!param && c != '{')
      continue;
    if (!scan_ok(r, len, i))
      return;
    if (!tab && scans++ && len - i >= PT_MIN_LEN)
      tab = pair_table(r, w, len, i);
    if (param) {
      size_t e = find_close(tab, w, len, i + 1, NULL);
      if (e)
        i = e;
      continue;
    }
    int comma;
    size_t close = find_close(tab, w, len, i, &comma);
    if (!close)
      continue;
    const char *in = w + i + 1;
    size_t inl = close - i - 1;
    int list = comma, one = 0;
    seq q;
    if (!list && top_dots(in, inl)) {
      /* bash takes a ".." at the top level as it takes a comma: these
       * braces are an expression. With a comma anywhere inside (a nested
       * list) it is a list of one item, which loses its braces:
       * {1..{3,5}} is 1..3 1..5. Else it is a sequence or, when it is not
       * one, literal text as a whole: {a..{b..d}} stays as it is. */
      one = any_comma(in, inl);
      if (!one && !parse_seq(in, inl, &q)) {
        i = close;
        continue;
      }
    } else if (!list) {
      continue; /* neither a list nor a sequence: the '{' is literal */
    }
    bres suf;
    sub_expand(r, &suf, w + close + 1, len - close - 1, depth);
    if (r->oom)
      return;
    if (one) {
      join_expanded(r, w, i, in, inl, &suf, depth);
      return;
    }
    if (!list) {
      expand_seq(r, w, i, &q, &suf);
      return;
    }
    /* split at top-level commas */
    size_t start = 0;
    int d = 0;
    for (size_t j = 0; j <= inl && !r->oom; j++) {
      if (j < inl && in[j] == '\\') {
        j++;
        continue;
      }
      if (j < inl && in[j] == '$' && j + 1 < inl && in[j + 1] == '{') {
        size_t e = match_close(in, inl, j + 1, NULL);
        if (e)
          j = e;
        continue;
      }
      if (j < inl && in[j] == '{')
        d++;
      else if (j < inl && in[j] == '}')
        d--;
      else if (j == inl || (in[j] == ',' && d == 0)) {
        join_expanded(r, w, i, in + start, j - start, &suf, depth);
        start = j + 1;
      }
    }
    return;
  }
  add(r, w, len);
}

/* An open brace on the stack of chain_too_long. */
typedef struct bopen {
  uint32_t best; /* longest chain of lists closed inside it */
  uint8_t comma; /* a comma at its top level */
  uint8_t param; /* the '{' of a "${" */
} bopen;

/* Whether w holds a chain of nested brace lists ({a,{b,{c,d}}} is one of
 * 3) longer than the depth limit. Each list of such a chain is expanded
 * one recursion deeper than the list around it, whatever comes before it
 * in the word, so such a word is refused anyway, but only after rescanning
 * the rest of the word at every level: quadratic work, seconds for a
 * 64 KiB word. One pass finds the chain instead. Braces pair as
 * match_close pairs them; a list inside ${...} is never expanded. */
static int chain_too_long(arena *a, const char *w, size_t len) {
  size_t opens = 0;
  for (size_t i = 0; i < len; i++)
    opens += w[i] == '{';
  if (opens <= BRACE_MAX_DEPTH + 1)
    return 0;
  bopen *st = arena_alloc(a, opens * sizeof *st);
  if (!st)
    return 0; /* the expansion itself will meet the limit */
  size_t n = 0;
  uint32_t top = 0; /* longest chain outside every open brace */
  for (size_t j = 0; j < len; j++) {
    char c = w[j];
    if (c == '\\') {
      j++;
    } else if (c == '{' || (c == '$' && j + 1 < len && w[j + 1] == '{')) {
      int param = c == '$';
      if (param)
        j++;
      st[n].best = 0;
      st[n].comma = 0;
      st[n].param = (uint8_t)param;
      n++;
    } else if (c == '}' && n) {
      bopen *o = &st[--n];
      uint32_t chain = o->param ? 0 : o->best + o->comma;
      if (n) {
        if (chain > st[n - 1].best)
          st[n - 1].best = chain;
      } else if (chain > top) {
        top = chain;
      }
    } else if (c == ',' && n) {
      st[n - 1].comma = 1;
    }
  }
  /* braces left open are literal: the lists inside them still expand */
  for (size_t k = 0; k < n; k++)
    if (st[k].best > top)
      top = st[k].best;
  return top > BRACE_MAX_DEPTH + 1;
}

size_t sh_brace_expand(arena *a, const char *w, size_t len, char ***out,
                       size_t **lens) {
  bres r = {.a = a};
  if (chain_too_long(a, w, len))
    r.too_deep = r.oom = 1;
  else
    expand(&r, w, len, 0);
  if (r.oom) {
    *out = NULL;
    *lens = NULL;
    errno = r.too_deep ? ELOOP : r.too_big ? E2BIG : ENOMEM;
    return 0;
  }
  *out = r.v;
  *lens = r.l;
  return r.n;
}
