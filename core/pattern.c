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
 *  - patterns with extglob groups use a backtracking matcher that goes
 *    on from a group's end with the rest of the pattern, remembers the
 *    (pattern, subject) positions it has tried, and is bounded by a step
 *    budget per call (a pathological pattern then fails to match rather
 *    than hanging the sandbox); prefix, suffix and substring searches run
 *    it once per start, recording every end it reaches.
 *
 * Characters are UTF-8 decoded with utf8proc (caller-buffer functions only);
 * an invalid byte stands for itself, mapped above the Unicode range so it
 * can equal only the same invalid byte.
 */
#include "core/pattern.h"

#include <stdint.h>
#include <string.h>
#include <utf8proc.h>

#include "core/fiber.h"
#include "core/utf8.h"

typedef int32_t cp_t;
#define BADBYTE 0x200000 /* cp of an undecodable byte b: BADBYTE | b */
#define PEL_MAX 128      /* NFA states; longer patterns use slower paths */
#define XSTEPS 2000000L  /* step budget of the extglob matcher */
/* Recursion bound of the extglob matcher (a *(..) group recurses once per
 * repetition) outside fibers, where the stack's size is unknown; on a
 * fiber it goes on while STACK_RESERVE is left. Deeper matches fail. */
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
  /* extglob search state (see xm_search) */
  struct xmemo *memo; /* visited table, XMEMO entries */
  uint32_t gen;       /* its current generation */
  uint32_t gen_top;   /* the last generation handed out */
  int nomemo;         /* inside a !(..) range match */
  int collect;        /* record ends instead of matching to the end */
  int longest;        /* collect: stop at the longest (else shortest) end */
  long lo, hi;        /* collect: shortest and longest end reached */
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

/* ---- match with groups: backtracking over continuations ------------ */

/* The extglob matcher walks the pattern left to right. Entering a group
 * pushes a continuation (what follows the group's ')'), so an alternative
 * that reaches its end goes straight on with the rest of the pattern
 * instead of being tried against every substring. A *( or +( group loops
 * back to itself after a repetition that consumed something.
 *
 * A (pattern position, subject position) pair tried once need not be tried
 * again: the rest of the pattern from a position is fixed by the position
 * (the groups around it), so a second visit can only find what the first
 * found or is still finding. A small visited table (lossy: a collision
 * forgets an entry, costing time, never a wrong answer) makes nested
 * repetitions like *(*(a)|a) polynomial instead of exponential. The body of
 * a !(..) is searched on its own (its own table generation) for every end
 * it can reach; on a long subject, where that set would not fit on the
 * stack, each range is a yes/no question asked without the table. */

/* What follows the end of the sequence being matched. */
typedef struct xcont {
  const struct xcont *next;
  size_t g;            /* the group's operator character, to loop back to */
  size_t r, pe;        /* after its ')', and the end of its sequence */
  size_t from;         /* where this repetition began (for *( and +() */
  size_t end;          /* op 0: the end of the range a !(..) body must match */
  unsigned char *ends; /* op 0, end XEND_ALL: the set of ends reached */
  unsigned char op;    /* the group's operator; 0 for a !(..) body */
} xcont;

#define XEND_ALL SIZE_MAX /* a !(..) body's end: record, do not stop */
#define XNOT_SET 8192     /* subjects up to this long use an end set */

#define XMEMO 1024 /* visited-table entries (12 KB) */

typedef struct xmemo {
  uint32_t pi, si, gen;
} xmemo;

static int xm(px *x, size_t pi, size_t pe, size_t si, const xcont *k);

/* Has (pi, si) been tried in this search? Records it if not. */
static int xm_seen(px *x, size_t pi, size_t si) {
  if (x->nomemo || pi >= UINT32_MAX || si >= UINT32_MAX)
    return 0;
  uint32_t h = ((uint32_t)pi * 0x9E3779B1u) ^ ((uint32_t)si * 0x85EBCA77u);
  xmemo *e = &x->memo[(h ^ (h >> 15)) % XMEMO];
  if (e->gen == x->gen && e->pi == pi && e->si == si)
    return 1;
  e->pi = (uint32_t)pi;
  e->si = (uint32_t)si;
  e->gen = x->gen;
  return 0;
}

/* The end of a sequence reached at si: go on with the continuation. */
static int xm_end(px *x, size_t si, const xcont *k) {
  if (!k) { /* the end of the whole pattern */
    if (!x->collect)
      return si == x->n;
    if (x->lo < 0 || (long)si < x->lo)
      x->lo = (long)si;
    if ((long)si > x->hi)
      x->hi = (long)si;
    /* stop once the best possible end is found */
    return x->longest ? si == x->n : si == x->base;
  }
  if (!k->op) {
    if (k->end != XEND_ALL)
      return si == k->end;
    k->ends[si >> 3] |= (unsigned char)(1u << (si & 7));
    return 0;
  }
  if ((k->op == '*' || k->op == '+') && si != k->from &&
      xm(x, k->g, k->pe, si, k->next))
    return 1;
  return xm(x, k->r, k->pe, si, k->next);
}

/* The end of the '|' alternative that starts at p[j] in a group body
 * ending at b: the '|' at the body's top level after it, or b. */
static size_t alt_end(const px *x, size_t j, size_t b) {
  int depth = 0;
  for (; j < b; j++) {
    if (x->p[j] == '\\')
      j++;
    else if (x->p[j] == '(')
      depth++;
    else if (x->p[j] == ')')
      depth--;
    else if (x->p[j] == '|' && depth == 0)
      return j;
  }
  return b;
}

/* Each '|' alternative of the group body [a, b) at si, then c. */
static int xm_alts(px *x, size_t a, size_t b, size_t si, const xcont *c) {
  for (size_t start = a;;) {
    size_t j = alt_end(x, start, b);
    if (xm(x, start, j, si, c))
      return 1;
    if (j >= b || x->steps <= 0)
      return 0;
    start = j + 1;
  }
}

/* !(body) at si: any stretch s[si, j) that no alternative matches. On a
 * short subject one search finds every end the body reaches from si;
 * otherwise each stretch is a yes/no question of its own, asked without
 * the visited table. */
static int xm_not(px *x, size_t a, size_t b, size_t r, size_t pe, size_t si,
                  const xcont *k) {
  if (leading_dot(x, si))
    return 0;
  unsigned char ends[XNOT_SET / 8];
  int set = x->n < XNOT_SET;
  if (set) {
    memset(ends, 0, (x->n >> 3) + 1);
    xcont all = {NULL, 0, 0, 0, 0, XEND_ALL, ends, 0};
    uint32_t gen = x->gen;
    x->gen = ++x->gen_top; /* a search of its own */
    xm_alts(x, a, b, si, &all);
    x->gen = gen;
  }
  for (size_t j = si;;) {
    int in;
    if (set) {
      in = ends[j >> 3] >> (j & 7) & 1;
    } else {
      xcont range = {NULL, 0, 0, 0, 0, j, NULL, 0};
      x->nomemo++;
      in = xm_alts(x, a, b, si, &range);
      x->nomemo--;
    }
    if (x->steps <= 0)
      return 0;
    if (!in && xm(x, r, pe, j, k))
      return 1;
    if (j >= x->n || x->steps <= 0)
      return 0;
    cp_t c;
    j += dec(x, j, x->n, &c);
  }
}

/* Is every alternative of the group body [a, b) one character's element
 * (a literal, '?' or a bracket expression)? */
static int one_char_alts(const px *x, size_t a, size_t b) {
  for (size_t start = a;;) {
    size_t j = alt_end(x, start, b);
    pel e;
    if (start >= j || x->p[start] == '*' || is_group(x, start, j) ||
        next_el(x, start, j, &e) != j)
      return 0;
    if (j >= b)
      return 1;
    start = j + 1;
  }
}

/* Bytes of the character at si that some one-character alternative of
 * [a, b) matches, or 0. */
static size_t one_char_step(const px *x, size_t a, size_t b, size_t si) {
  for (size_t start = a; start <= b;) {
    pel e;
    size_t end = next_el(x, start, b, &e);
    size_t l = el_match(x, &e, si, x->n);
    if (l)
      return l;
    start = end + 1; /* past the '|' */
  }
  return 0;
}

static int xm_group(px *x, size_t pi, size_t pe, size_t si, const xcont *k) {
  unsigned char op = x->p[pi];
  size_t b = group_end(x->p, pi + 1, pe), r = b + 1;
  if (op == '!')
    return xm_not(x, pi + 2, b, r, pe, si, k);
  if (one_char_alts(x, pi + 2, b)) {
    /* *([0-9]), +(a|b), ...: count the repetitions in a loop rather than
     * recursing once per repetition, so long runs stay shallow */
    size_t lo = op == '*' || op == '?' ? 0 : 1;
    size_t hi = op == '@' || op == '?' ? 1 : SIZE_MAX;
    size_t j = si;
    for (size_t n = 0;; n++) {
      if (n >= lo && xm(x, r, pe, j, k))
        return 1;
      if (n >= hi || j >= x->n || x->steps <= 0)
        return 0;
      size_t l = one_char_step(x, pi + 2, b, j);
      if (!l)
        return 0;
      j += l;
    }
  }
  if ((op == '?' || op == '*') && xm(x, r, pe, si, k))
    return 1; /* no occurrence */
  xcont c = {k, pi, r, pe, si, 0, NULL, op};
  return x->steps > 0 && xm_alts(x, pi + 2, b, si, &c);
}

static int xm_in(px *x, size_t pi, size_t pe, size_t si, const xcont *k) {
  while (pi < pe) {
    if (is_group(x, pi, pe))
      return xm_group(x, pi, pe, si, k);
    if (x->p[pi] == '*') {
      while (pi < pe && x->p[pi] == '*' && !is_group(x, pi, pe))
        pi++;
      for (size_t j = si;;) {
        if (xm(x, pi, pe, j, k))
          return 1;
        cp_t c;
        if (j >= x->n || x->steps <= 0)
          return 0;
        size_t l = dec(x, j, x->n, &c);
        if (!wild_ok(x, j, c))
          return 0;
        j += l;
      }
    }
    pel e;
    size_t np = next_el(x, pi, pe, &e);
    size_t l = el_match(x, &e, si, x->n);
    if (!l)
      return 0;
    si += l;
    pi = np;
  }
  return xm_end(x, si, k);
}

static int xm(px *x, size_t pi, size_t pe, size_t si, const xcont *k) {
  if (--x->steps <= 0)
    return 0;
  size_t left = stack_left();
  if (left == SIZE_MAX ? x->depth >= XDEPTH : left < STACK_RESERVE) {
    x->steps = 0; /* give up: everything now fails */
    return 0;
  }
  if (xm_seen(x, pi, si))
    return 0;
  x->depth++;
  int ok = xm_in(x, pi, pe, si, k);
  x->depth--;
  return ok;
}

/* One search from si: a whole match (collect 0), or every end reached
 * recorded in lo/hi (collect 1). fresh: forget the pairs tried before. */
static int xm_search(px *x, size_t si, int collect, int longest, int fresh) {
  if (fresh)
    x->gen = ++x->gen_top;
  x->base = si;
  x->collect = collect;
  x->longest = longest;
  x->lo = x->hi = -1;
  return xm(x, 0, x->pn, si, NULL);
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
  x->memo = NULL;
}

/* Whole match of s[si, se) (the subject starting at si), no groups. */
static int match_range(px *x, size_t si, size_t se) {
  x->base = si;
  return match_plain(x, 0, x->pn, si, se);
}

static void xm_attach(px *x, xmemo *memo) {
  memset(memo, 0, XMEMO * sizeof *memo);
  x->memo = memo;
  x->gen = x->gen_top = 0;
  x->nomemo = 0;
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
  if (!has_groups(&x))
    return match_range(&x, 0, slen);
  xmemo memo[XMEMO];
  xm_attach(&x, memo);
  return xm_search(&x, 0, 0, 0, 1);
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
  if (has_groups(&x)) {
    xmemo memo[XMEMO];
    xm_attach(&x, memo);
    xm_search(&x, 0, 1, longest, 1);
    return longest ? x.hi : x.lo;
  }
  long best = -1;
  for (size_t j = 0;;) {
    if (match_range(&x, 0, j)) {
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

/* Can the starts of the subject's characters be found walking backwards
 * (bytes, or valid UTF-8: every byte that is not a continuation byte)? */
static int backward_ok(const px *x) {
  if (x->flags & PAT_BYTES)
    return 1;
  for (size_t i = 0; i < x->n;) {
    cp_t c;
    size_t k = dec(x, i, x->n, &c);
    if (c & BADBYTE)
      return 0;
    i += k;
  }
  return 1;
}

/* pat_suffix with groups: a whole-match search from each start, earliest
 * first for the longest suffix, latest first for the shortest, until one
 * matches. The searches before it all failed, and a failed search leaves
 * only pairs that fail from any start (without the leading-'.' rule, which
 * depends on the start), so they share the visited table. */
static long suffix_groups(px *x, int longest) {
  xmemo memo[XMEMO];
  xm_attach(x, memo);
  int share = !(x->flags & PAT_PERIOD);
  if (!longest && backward_ok(x)) {
    for (size_t k = x->n + 1; k-- > 0;) {
      if (k < x->n && (x->s[k] & 0xC0) == 0x80 && !(x->flags & PAT_BYTES))
        continue; /* inside a character */
      if (xm_search(x, k, 0, 0, k == x->n || !share))
        return (long)(x->n - k);
      if (x->steps <= 0)
        return -1;
    }
    return -1;
  }
  long best = -1;
  int fresh = 1;
  for (size_t k = 0;;) {
    int m = xm_search(x, k, 0, 0, fresh);
    fresh = m || !share;
    if (m) {
      best = (long)(x->n - k);
      if (longest)
        return best;
    }
    if (k >= x->n || x->steps <= 0)
      return best;
    cp_t c;
    k += dec(x, k, x->n, &c);
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
  if (has_groups(&x))
    return suffix_groups(&x, longest);
  long best = -1;
  for (size_t k = 0;;) {
    if (match_range(&x, k, slen)) {
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
  xmemo memo[XMEMO];
  if (groups)
    xm_attach(&x, memo);
  for (size_t i = from;;) {
    long best = -1;
    if (groups) {
      /* the starts before found no match: without the leading-'.' rule
       * their pairs reach no end from any start, and are shared */
      xm_search(&x, i, 1, 1, i == from || (flags & PAT_PERIOD));
      if (x.hi >= 0)
        best = x.hi - (long)i;
    } else {
      for (size_t j = i;;) {
        if (match_range(&x, i, j))
          best = (long)(j - i);
        if (j >= slen)
          break;
        cp_t c;
        j += dec(&x, j, slen, &c);
      }
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
