/*
 * pattern.c - shell pattern matching.
 *
 * Three matchers share one element decoder (literal character, '?', '*',
 * bracket expression):
 *
 *  - whole-string matching of patterns without extglob groups uses the
 *    classic two-pointer algorithm (remember the last '*', retry from one
 *    character further on mismatch), which is O(len(s) * len(p)) at worst
 *    and never exponential;
 *  - prefix, suffix and substring searches compile the pattern into a small
 *    element array and run it as an NFA over the subject once, keeping for
 *    every state the best start position (earliest for longest suffix and
 *    for find, latest for shortest suffix), so ${x%%p}, ${x##p} and
 *    ${x//p/r} on large strings stay linear-ish instead of quadratic;
 *  - patterns with extglob groups use a recursive backtracking matcher
 *    bounded by a step budget (a pathological pattern then fails to match
 *    rather than hanging the sandbox).
 *
 * Characters are UTF-8 decoded with utf8proc (caller-buffer functions only);
 * an invalid byte stands for itself, mapped above the Unicode range so it
 * can equal only the same invalid byte.
 */
#include "core/pattern.h"

#include <stdint.h>
#include <string.h>
#include <utf8proc.h>

#include "core/utf8.h"

typedef int32_t cp_t;
#define BADBYTE 0x200000 /* cp of an undecodable byte b: BADBYTE | b */
#define PEL_MAX 128      /* NFA states; longer patterns use slower paths */
#define XSTEPS 2000000L  /* step budget of the extglob matcher */
/* Recursion bound of the extglob matcher (a *(..) group recurses once per
 * repetition): keeps the C stack bounded; deeper matches fail. */
#define XDEPTH 3000

enum { E_LIT, E_ANY, E_BRK, E_STAR };

typedef struct pel {
  int kind;
  cp_t cp;        /* E_LIT */
  size_t at, end; /* E_BRK: pattern span of the bracket expression */
} pel;

typedef struct px {
  const unsigned char *p, *s;
  size_t pn, n;
  size_t base; /* where the subject starts, for the leading-'.' rule */
  unsigned flags;
  long steps; /* extglob budget */
  int depth;  /* extglob recursion depth */
} px;

/* ---- characters ---------------------------------------------------- */

static size_t dec(const px *x, size_t i, size_t n, cp_t *cp) {
  const unsigned char *s = x->s;
  unsigned char c = s[i];
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  if (x->flags & PAT_BYTES) {
    /* a byte of the C locale: in no class, its own case, ordered as bytes
     * are (ranges keep working, since only BADBYTE values occur above
     * 0x7f) */
    *cp = BADBYTE | c;
    return 1;
  }
  utf8proc_int32_t v;
  utf8proc_ssize_t k = utf8proc_iterate(s + i, (utf8proc_ssize_t)(n - i), &v);
  if (k <= 0) {
    *cp = BADBYTE | c;
    return 1;
  }
  *cp = v;
  return (size_t)k;
}

static cp_t lower(cp_t c) {
  return u8_tolower(c);
}

static cp_t upper(cp_t c) {
  return u8_toupper(c);
}

static int ceq(cp_t a, cp_t b, unsigned flags) {
  return a == b || ((flags & PAT_NOCASE) && lower(a) == lower(b));
}

/* One literal character of the pattern at p[i], honouring '\\' escapes.
 * A multi-byte character may arrive with each byte escaped (quoted text),
 * so up to four bytes are gathered before decoding. */
static size_t plit(const unsigned char *p, size_t i, size_t pe, unsigned flags,
                   cp_t *cp) {
  if (flags & PAT_BYTES) {
    if (p[i] == '\\' && i + 1 < pe)
      i++;
    *cp = p[i] < 0x80 ? p[i] : (BADBYTE | p[i]);
    return i + 1;
  }
  unsigned char b[4];
  size_t after[4];
  int nb = 0;
  size_t j = i;
  while (nb < 4 && j < pe) {
    size_t k = j;
    if (p[k] == '\\' && k + 1 < pe)
      k++;
    if (nb > 0 && p[k] < 0x80)
      break;
    b[nb] = p[k];
    after[nb++] = k + 1;
    j = k + 1;
    if (b[0] < 0x80)
      break;
  }
  if (b[0] < 0x80) {
    *cp = b[0];
    return after[0];
  }
  utf8proc_int32_t v;
  utf8proc_ssize_t k = utf8proc_iterate(b, nb, &v);
  if (k <= 0) {
    *cp = BADBYTE | b[0];
    return after[0];
  }
  *cp = v;
  return after[k - 1];
}

static int is_space_cp(cp_t c) {
  if (c < 0x80)
    return c == ' ' || (c >= '\t' && c <= '\r');
  if (c == 0xA0 || c == 0x2007 || c == 0x202F) /* no-break: not spaces */
    return 0;
  utf8proc_category_t k = utf8proc_category(c);
  return k == UTF8PROC_CATEGORY_ZS || k == UTF8PROC_CATEGORY_ZL ||
         k == UTF8PROC_CATEGORY_ZP;
}

static int is_alpha_cp(cp_t c) {
  if (c < 0x80)
    return (c | 32) >= 'a' && (c | 32) <= 'z';
  utf8proc_category_t k = utf8proc_category(c);
  return k >= UTF8PROC_CATEGORY_LU && k <= UTF8PROC_CATEGORY_LO;
}

/* [:name:] classes, as glibc classifies characters in a UTF-8 locale. */
static int cls_match(const unsigned char *name, size_t len, cp_t c) {
  if (c >= 0x110000)
    return 0; /* invalid bytes belong to no class */
  int digit = c >= '0' && c <= '9';
  utf8proc_category_t k =
      c < 0x80 ? UTF8PROC_CATEGORY_CN : utf8proc_category(c);
#define IS(s) (len == sizeof(s) - 1 && memcmp(name, s, len) == 0)
  if (IS("alpha"))
    return is_alpha_cp(c);
  if (IS("digit"))
    return digit;
  if (IS("alnum"))
    return digit || is_alpha_cp(c);
  if (IS("word"))
    return digit || is_alpha_cp(c) || c == '_';
  if (IS("upper"))
    return c < 0x80 ? c >= 'A' && c <= 'Z' : k == UTF8PROC_CATEGORY_LU;
  if (IS("lower"))
    return c < 0x80 ? c >= 'a' && c <= 'z' : k == UTF8PROC_CATEGORY_LL;
  if (IS("space"))
    return is_space_cp(c);
  if (IS("blank"))
    return c == ' ' || c == '\t' ||
           (c >= 0x80 && is_space_cp(c) && k == UTF8PROC_CATEGORY_ZS);
  if (IS("xdigit"))
    return digit || ((c | 32) >= 'a' && (c | 32) <= 'f');
  if (IS("ascii"))
    return c < 0x80;
  int cntrl = c < 0x20 || c == 0x7f || k == UTF8PROC_CATEGORY_CC;
  if (IS("cntrl"))
    return cntrl;
  int print = !cntrl && (c < 0x80 || (k != UTF8PROC_CATEGORY_CN &&
                                      k != UTF8PROC_CATEGORY_CS &&
                                      k != UTF8PROC_CATEGORY_CO));
  if (IS("print"))
    return print;
  if (IS("graph"))
    return print && !is_space_cp(c);
  if (IS("punct")) {
    if (c < 0x80)
      return c > ' ' && c < 0x7f && !digit && !is_alpha_cp(c);
    return (k >= UTF8PROC_CATEGORY_PC && k <= UTF8PROC_CATEGORY_PO) ||
           (k >= UTF8PROC_CATEGORY_SM && k <= UTF8PROC_CATEGORY_SO);
  }
#undef IS
  return 0;
}

static int in_range(cp_t c, cp_t lo, cp_t hi, unsigned flags) {
  if (c >= lo && c <= hi)
    return 1;
  if (flags & PAT_NOCASE) {
    cp_t l = lower(c), u = upper(c);
    return (l >= lo && l <= hi) || (u >= lo && u <= hi);
  }
  return 0;
}

/* Bracket expression at p[i] == '['. Returns the index after its ']' (and
 * whether c matches in *match), or 0 when it is not one (no closing ']'),
 * in which case the '[' is an ordinary character. */
static size_t bracket(const unsigned char *p, size_t i, size_t pe, cp_t c,
                      unsigned flags, int *match) {
  size_t j = i + 1;
  int neg = 0, m = 0;
  if (j < pe && (p[j] == '!' || p[j] == '^')) {
    neg = 1;
    j++;
  }
  for (int first = 1;; first = 0) {
    if (j >= pe)
      return 0;
    if (p[j] == ']' && !first) {
      j++;
      break;
    }
    if (p[j] == '[' && j + 1 < pe &&
        (p[j + 1] == ':' || p[j + 1] == '=' || p[j + 1] == '.')) {
      unsigned char kind = p[j + 1];
      size_t k = j + 2;
      while (k + 1 < pe && !(p[k] == kind && p[k + 1] == ']'))
        k++;
      if (k + 1 < pe) {
        if (kind == ':') {
          m |= cls_match(p + j + 2, k - (j + 2), c);
        } else {
          /* [=c=] and [.c.]: the character itself (no collation data) */
          cp_t e;
          if (k > j + 2 && plit(p, j + 2, k, flags, &e) == k &&
              ceq(e, c, flags))
            m = 1;
        }
        j = k + 2;
        continue;
      }
    }
    cp_t lo;
    j = plit(p, j, pe, flags, &lo);
    if (j + 1 < pe && p[j] == '-' && p[j + 1] != ']') {
      cp_t hi;
      j = plit(p, j + 1, pe, flags, &hi);
      m |= in_range(c, lo, hi, flags);
    } else {
      m |= ceq(lo, c, flags);
    }
  }
  *match = m ^ neg;
  return j;
}

/* ---- elements ------------------------------------------------------ */

/* Is s[si] a '.' that only a literal '.' may match? */
static int leading_dot(const px *x, size_t si) {
  if (!(x->flags & PAT_PERIOD) || si >= x->n || x->s[si] != '.')
    return 0;
  return si == x->base || ((x->flags & PAT_PATHNAME) && x->s[si - 1] == '/');
}

/* May a wildcard ('*', '?', bracket) match the character at si? */
static int wild_ok(const px *x, size_t si, cp_t c) {
  if ((x->flags & PAT_PATHNAME) && c == '/')
    return 0;
  return !leading_dot(x, si);
}

static size_t next_el(const px *x, size_t pi, size_t pe, pel *e) {
  unsigned char c = x->p[pi];
  if (c == '*') {
    e->kind = E_STAR;
    return pi + 1;
  }
  if (c == '?') {
    e->kind = E_ANY;
    return pi + 1;
  }
  if (c == '[') {
    int dummy;
    size_t end = bracket(x->p, pi, pe, 0, x->flags, &dummy);
    if (end) {
      e->kind = E_BRK;
      e->at = pi;
      e->end = end;
      return end;
    }
  }
  e->kind = E_LIT;
  return plit(x->p, pi, pe, x->flags, &e->cp);
}

/* Bytes of s consumed when non-star element e matches at si, or 0. */
static size_t el_match(const px *x, const pel *e, size_t si, size_t se) {
  if (si >= se)
    return 0;
  cp_t c;
  size_t k = dec(x, si, se, &c);
  switch (e->kind) {
  case E_LIT:
    return ceq(e->cp, c, x->flags) ? k : 0;
  case E_ANY:
    return wild_ok(x, si, c) ? k : 0;
  case E_BRK: {
    int m = 0;
    if (!wild_ok(x, si, c))
      return 0;
    bracket(x->p, e->at, e->end, c, x->flags, &m);
    return m ? k : 0;
  }
  default:
    return 0;
  }
}

/* ---- extglob detection --------------------------------------------- */

/* Index of the ')' closing the group whose '(' is at p[i], or 0. */
static size_t group_end(const unsigned char *p, size_t i, size_t pe) {
  int depth = 0;
  for (size_t j = i; j < pe; j++) {
    if (p[j] == '\\') {
      j++;
    } else if (p[j] == '(') {
      depth++;
    } else if (p[j] == ')' && --depth == 0) {
      return j;
    }
  }
  return 0;
}

static int is_group(const px *x, size_t pi, size_t pe) {
  if (!(x->flags & PAT_EXTGLOB) || pi + 1 >= pe || x->p[pi + 1] != '(')
    return 0;
  unsigned char c = x->p[pi];
  if (c != '?' && c != '*' && c != '+' && c != '@' && c != '!')
    return 0;
  return group_end(x->p, pi + 1, pe) != 0;
}

static int has_groups(const px *x) {
  if (!(x->flags & PAT_EXTGLOB))
    return 0;
  for (size_t i = 0; i < x->pn; i++) {
    if (x->p[i] == '\\')
      i++;
    else if (is_group(x, i, x->pn))
      return 1;
  }
  return 0;
}

/* ---- whole match without groups: two pointers ---------------------- */

static int match_plain(const px *x, size_t pi, size_t pe, size_t si,
                       size_t se) {
  size_t star_p = SIZE_MAX, star_s = 0;
  while (si < se) {
    if (pi < pe && x->p[pi] == '*') {
      while (pi < pe && x->p[pi] == '*')
        pi++;
      star_p = pi;
      star_s = si;
      continue;
    }
    if (pi < pe) {
      pel e;
      size_t np = next_el(x, pi, pe, &e);
      size_t k = el_match(x, &e, si, se);
      if (k) {
        si += k;
        pi = np;
        continue;
      }
    }
    if (star_p == SIZE_MAX)
      return 0;
    /* Let the last star swallow one more character. If it cannot (a '/'
     * or leading '.'), no earlier star can either, so there is no match. */
    cp_t c;
    size_t k = dec(x, star_s, se, &c);
    if (!wild_ok(x, star_s, c))
      return 0;
    star_s += k;
    si = star_s;
    pi = star_p;
  }
  while (pi < pe && x->p[pi] == '*')
    pi++;
  return pi == pe;
}

/* ---- whole match with groups: bounded backtracking ----------------- */

static int xmatch(px *x, size_t pi, size_t pe, size_t si, size_t se);

/* Does some '|' alternative of the group body [a, b) match s[si, se)? */
static int any_alt(px *x, size_t a, size_t b, size_t si, size_t se) {
  size_t start = a;
  int depth = 0;
  for (size_t j = a; j <= b; j++) {
    if (j < b && x->p[j] == '\\') {
      j++;
      continue;
    }
    if (j < b && x->p[j] == '(')
      depth++;
    else if (j < b && x->p[j] == ')')
      depth--;
    else if (j == b || (x->p[j] == '|' && depth == 0)) {
      if (xmatch(x, start, j, si, se))
        return 1;
      start = j + 1;
    }
  }
  return 0;
}

static int star_group(px *x, size_t a, size_t b, size_t r, size_t pe, size_t si,
                      size_t se);

/* *(body) followed by rest [r, pe) at si: zero or more repetitions. */
static int star_group_in(px *x, size_t a, size_t b, size_t r, size_t pe,
                         size_t si, size_t se) {
  if (xmatch(x, r, pe, si, se))
    return 1;
  for (size_t k = si; k < se;) {
    cp_t c;
    k += dec(x, k, se, &c);
    if (any_alt(x, a, b, si, k) && star_group(x, a, b, r, pe, k, se))
      return 1;
    if (x->steps <= 0)
      return 0;
  }
  return 0;
}

static int star_group(px *x, size_t a, size_t b, size_t r, size_t pe, size_t si,
                      size_t se) {
  if (++x->depth > XDEPTH)
    x->steps = 0; /* give up: everything now fails */
  int ok = x->steps > 0 && star_group_in(x, a, b, r, pe, si, se);
  x->depth--;
  return ok;
}

static int group_match(px *x, unsigned char op, size_t a, size_t b, size_t r,
                       size_t pe, size_t si, size_t se) {
  switch (op) {
  case '*':
    return star_group(x, a, b, r, pe, si, se);
  case '?':
    if (xmatch(x, r, pe, si, se))
      return 1;
    /* fall through */
  case '@':
    for (size_t k = si;;) {
      if (any_alt(x, a, b, si, k) && xmatch(x, r, pe, k, se))
        return 1;
      if (k >= se || x->steps <= 0)
        return 0;
      cp_t c;
      k += dec(x, k, se, &c);
    }
  case '+':
    for (size_t k = si; k < se;) {
      cp_t c;
      k += dec(x, k, se, &c);
      if (any_alt(x, a, b, si, k) && star_group(x, a, b, r, pe, k, se))
        return 1;
      if (x->steps <= 0)
        return 0;
    }
    return 0;
  default: /* '!' */
    if (leading_dot(x, si))
      return 0;
    for (size_t k = si;;) {
      if (!any_alt(x, a, b, si, k) && xmatch(x, r, pe, k, se))
        return 1;
      if (k >= se || x->steps <= 0)
        return 0;
      cp_t c;
      k += dec(x, k, se, &c);
    }
  }
}

static int xmatch_in(px *x, size_t pi, size_t pe, size_t si, size_t se) {
  while (pi < pe) {
    if (is_group(x, pi, pe)) {
      size_t close = group_end(x->p, pi + 1, pe);
      return group_match(x, x->p[pi], pi + 2, close, close + 1, pe, si, se);
    }
    if (x->p[pi] == '*') {
      while (pi < pe && x->p[pi] == '*' && !is_group(x, pi, pe))
        pi++;
      for (size_t k = si;;) {
        if (xmatch(x, pi, pe, k, se))
          return 1;
        cp_t c;
        if (k >= se || x->steps <= 0)
          return 0;
        size_t l = dec(x, k, se, &c);
        if (!wild_ok(x, k, c))
          return 0;
        k += l;
      }
    }
    pel e;
    size_t np = next_el(x, pi, pe, &e);
    size_t k = el_match(x, &e, si, se);
    if (!k)
      return 0;
    si += k;
    pi = np;
  }
  return si == se;
}

static int xmatch(px *x, size_t pi, size_t pe, size_t si, size_t se) {
  if (--x->steps <= 0)
    return 0;
  if (++x->depth > XDEPTH)
    x->steps = 0;
  int ok = x->steps > 0 && xmatch_in(x, pi, pe, si, se);
  x->depth--;
  return ok;
}

/* ---- entry points -------------------------------------------------- */

static void px_init(px *x, const char *pat, size_t plen, const char *s,
                    size_t slen, unsigned flags) {
  x->p = (const unsigned char *)pat;
  x->pn = plen;
  x->s = (const unsigned char *)s;
  x->n = slen;
  x->base = 0;
  x->flags = flags;
  x->steps = XSTEPS;
  x->depth = 0;
}

/* Whole match of s[si, se) (the subject starting at si). */
static int match_range(px *x, int groups, size_t si, size_t se) {
  x->base = si;
  if (!groups)
    return match_plain(x, 0, x->pn, si, se);
  x->steps = XSTEPS;
  return xmatch(x, 0, x->pn, si, se);
}

/* Is the pattern's text, with its escaping backslashes left out, valid
 * UTF-8? (Quoted characters arrive with each byte escaped.) */
static int pat_valid(const unsigned char *p, size_t n) {
  unsigned char b[4];
  size_t i = 0;
  while (i < n) {
    if (p[i] == '\\' && i + 1 < n)
      i++;
    if (p[i] < 0x80) {
      i++;
      continue;
    }
    int nb = 0;
    size_t j = i;
    while (nb < 4 && j < n) {
      if (p[j] == '\\' && j + 1 < n)
        j++;
      if (nb > 0 && (p[j] & 0xC0) != 0x80)
        break;
      b[nb++] = p[j++];
    }
    utf8proc_int32_t v;
    utf8proc_ssize_t k = utf8proc_iterate(b, nb, &v);
    if (k <= 0)
      return 0;
    /* step past the k bytes consumed, escapes included */
    for (utf8proc_ssize_t m = 0; m < k; m++) {
      if (p[i] == '\\' && i + 1 < n)
        i++;
      i++;
    }
  }
  return 1;
}

unsigned pat_charset(const char *pat, size_t plen, const char *s, size_t slen,
                     unsigned flags) {
  if (flags & PAT_BYTES)
    return flags;
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0; i < slen;) {
    if (u[i] < 0x80) {
      i++;
      continue;
    }
    utf8proc_int32_t v;
    utf8proc_ssize_t k = utf8proc_iterate(
        u + i, slen - i > 4 ? 4 : (utf8proc_ssize_t)(slen - i), &v);
    if (k <= 0)
      return flags | PAT_BYTES;
    i += (size_t)k;
  }
  if (!pat_valid((const unsigned char *)pat, plen))
    return flags | PAT_BYTES;
  return flags;
}

int pat_match(const char *pat, size_t plen, const char *s, size_t slen,
              unsigned flags) {
  px x;
  px_init(&x, pat, plen, s, slen, flags);
  return match_range(&x, has_groups(&x), 0, slen);
}

int pat_has_magic(const char *pat, size_t plen, unsigned flags) {
  const unsigned char *p = (const unsigned char *)pat;
  for (size_t i = 0; i < plen; i++) {
    switch (p[i]) {
    case '\\':
      i++;
      break;
    case '*':
    case '?':
      return 1;
    case '[':
      /* like bash, a '[' is magic only with a ']' somewhere after it */
      for (size_t j = i + 1; j < plen; j++)
        if (p[j] == ']')
          return 1;
      break;
    case '+':
    case '@':
    case '!':
      if ((flags & PAT_EXTGLOB) && i + 1 < plen && p[i + 1] == '(')
        return 1;
      break;
    }
  }
  return 0;
}

size_t pat_unescape(char *pat, size_t plen) {
  size_t o = 0;
  for (size_t i = 0; i < plen; i++) {
    if (pat[i] == '\\' && i + 1 < plen)
      i++;
    pat[o++] = pat[i];
  }
  return o;
}

/* ---- NFA scans for prefix, suffix and find ------------------------- */

typedef struct nfa {
  pel el[PEL_MAX];
  size_t ne;
} nfa;

/* Compile a group-free pattern; 0 when too long for the NFA. */
static int nfa_compile(const px *x, nfa *a) {
  a->ne = 0;
  for (size_t pi = 0; pi < x->pn;) {
    if (a->ne == PEL_MAX)
      return 0;
    pel *e = &a->el[a->ne];
    pi = next_el(x, pi, x->pn, e);
    /* consecutive stars are one state */
    if (e->kind == E_STAR && a->ne > 0 && a->el[a->ne - 1].kind == E_STAR)
      continue;
    a->ne++;
  }
  return 1;
}

enum { KEEP_MIN, KEEP_MAX };

static void put_state(long *st, size_t e, long start, int keep) {
  if (st[e] < 0 || (keep == KEEP_MIN ? start < st[e] : start > st[e]))
    st[e] = start;
}

/* Follow the epsilon edges: a star may match nothing. */
static void closure(const nfa *a, long *st, int keep) {
  for (size_t e = 0; e < a->ne; e++)
    if (st[e] >= 0 && a->el[e].kind == E_STAR)
      put_state(st, e + 1, st[e], keep);
}

/* Advance every state over the character at si (k bytes). Returns whether
 * any state survives. */
static int step(const px *x, const nfa *a, const long *st, long *nx, size_t si,
                int keep) {
  int any = 0;
  for (size_t e = 0; e <= a->ne; e++)
    nx[e] = -1;
  cp_t c;
  dec(x, si, x->n, &c);
  for (size_t e = 0; e < a->ne; e++) {
    if (st[e] < 0)
      continue;
    const pel *el = &a->el[e];
    if (el->kind == E_STAR) {
      if (wild_ok(x, si, c)) {
        put_state(nx, e, st[e], keep);
        any = 1;
      }
    } else if (el_match(x, el, si, x->n)) {
      put_state(nx, e + 1, st[e], keep);
      any = 1;
    }
  }
  return any;
}

/* The state sets after the character at si: the next position, with the
 * set just computed (nx) becoming the current one. */
static size_t advance(const px *x, size_t si, long **st, long **nx) {
  cp_t c;
  long *t = *st;
  *st = *nx;
  *nx = t;
  return si + dec(x, si, x->n, &c);
}

/* Prefix of s[from, n) matched by the NFA: shortest or longest length. */
static long nfa_prefix(const px *x, const nfa *a, size_t from, int longest) {
  long sa[PEL_MAX + 1], sb[PEL_MAX + 1], *st = sa, *nx = sb;
  for (size_t e = 0; e <= a->ne; e++)
    st[e] = -1;
  st[0] = (long)from;
  long best = -1;
  for (size_t si = from;;) {
    closure(a, st, KEEP_MIN);
    if (st[a->ne] >= 0) {
      best = (long)(si - from);
      if (!longest)
        return best;
    }
    if (si >= x->n || !step(x, a, st, nx, si, KEEP_MIN))
      return best;
    si = advance(x, si, &st, &nx);
  }
}

/* Start of the longest (earliest start) or shortest suffix matched. */
static long nfa_suffix(const px *x, const nfa *a, int longest) {
  long sa[PEL_MAX + 1], sb[PEL_MAX + 1], *st = sa, *nx = sb;
  int keep = longest ? KEEP_MIN : KEEP_MAX;
  for (size_t e = 0; e <= a->ne; e++)
    st[e] = -1;
  for (size_t si = 0;;) {
    put_state(st, 0, (long)si, keep); /* a match may start here */
    closure(a, st, keep);
    if (si >= x->n)
      return st[a->ne];
    step(x, a, st, nx, si, keep);
    si = advance(x, si, &st, &nx);
  }
}

/* Earliest start at or after from where some match begins, or -1. */
static long nfa_first_start(const px *x, const nfa *a, size_t from) {
  long sa[PEL_MAX + 1], sb[PEL_MAX + 1], *st = sa, *nx = sb;
  long best = -1;
  for (size_t e = 0; e <= a->ne; e++)
    st[e] = -1;
  for (size_t si = from;;) {
    if (best < 0)
      put_state(st, 0, (long)si, KEEP_MIN);
    closure(a, st, KEEP_MIN);
    if (st[a->ne] >= 0 && (best < 0 || st[a->ne] < best))
      best = st[a->ne];
    /* stop once no live state could still yield an earlier start */
    int live = 0;
    for (size_t e = 0; e < a->ne; e++)
      if (st[e] >= 0 && (best < 0 || st[e] < best))
        live = 1;
    if (!live || si >= x->n)
      return best;
    step(x, a, st, nx, si, KEEP_MIN);
    si = advance(x, si, &st, &nx);
  }
}

/* The fallback paths below try whole matches of substrings: quadratic, but
 * only used for extglob patterns, PAT_PERIOD, or very long patterns. */
static int use_nfa(px *x, nfa *a) {
  return !(x->flags & PAT_PERIOD) && !has_groups(x) && nfa_compile(x, a);
}

long pat_prefix(const char *pat, size_t plen, const char *s, size_t slen,
                int longest, unsigned flags) {
  px x;
  nfa a;
  px_init(&x, pat, plen, s, slen, flags);
  if (use_nfa(&x, &a))
    return nfa_prefix(&x, &a, 0, longest);
  int groups = has_groups(&x);
  long best = -1;
  for (size_t j = 0;;) {
    if (match_range(&x, groups, 0, j)) {
      best = (long)j;
      if (!longest)
        return best;
    }
    x.base = 0;
    if (j >= slen)
      return best;
    cp_t c;
    j += dec(&x, j, slen, &c);
  }
}

long pat_suffix(const char *pat, size_t plen, const char *s, size_t slen,
                int longest, unsigned flags) {
  px x;
  nfa a;
  px_init(&x, pat, plen, s, slen, flags);
  if (use_nfa(&x, &a)) {
    long start = nfa_suffix(&x, &a, longest);
    return start < 0 ? -1 : (long)slen - start;
  }
  int groups = has_groups(&x);
  long best = -1;
  for (size_t k = 0;;) {
    if (match_range(&x, groups, k, slen)) {
      best = (long)(slen - k);
      if (longest)
        return best;
    }
    if (k >= slen)
      return best;
    cp_t c;
    k += dec(&x, k, slen, &c);
  }
}

long pat_find(const char *pat, size_t plen, const char *s, size_t slen,
              size_t from, size_t *mlen, unsigned flags) {
  px x;
  nfa a;
  if (from > slen)
    return -1;
  px_init(&x, pat, plen, s, slen, flags);
  if (use_nfa(&x, &a)) {
    long start = nfa_first_start(&x, &a, from);
    if (start < 0)
      return -1;
    *mlen = (size_t)nfa_prefix(&x, &a, (size_t)start, 1);
    return start;
  }
  int groups = has_groups(&x);
  for (size_t i = from;;) {
    long best = -1;
    for (size_t j = i;;) {
      if (match_range(&x, groups, i, j))
        best = (long)(j - i);
      if (j >= slen)
        break;
      cp_t c;
      j += dec(&x, j, slen, &c);
    }
    if (best >= 0) {
      *mlen = (size_t)best;
      return (long)i;
    }
    if (i >= slen)
      return -1;
    cp_t c;
    i += dec(&x, i, slen, &c);
  }
}
