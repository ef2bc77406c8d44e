/*
 * regex.c - POSIX basic and extended regular expressions, as GNU grep 3.8
 * reads them, translated to PCRE2 pattern text.
 *
 * The translation keeps capturing groups and their numbers (for \1..\9), and
 * wraps with non-capturing groups where PCRE2 needs it:
 *   - stacked repetitions (GNU accepts a** and a{1}{2}; PCRE2 would read
 *     a*? as lazy and a*+ as possessive), so the repeated atom is wrapped;
 *   - repetition of an assertion (a^* in ERE, \<* ...).
 * Context rules of GNU:
 *   BRE  * at the start of an expression (or after \( \| ^) is literal;
 *        \{ there is a literal {; ^ anchors only at the start of an
 *        expression, $ only at its end (before \) \| or the pattern end);
 *        \+ \? \| are the GNU extensions.
 *   ERE  * + ? at the start of an expression repeat nothing and vanish,
 *        with GNU's warning; { not followed by a valid interval is
 *        literal; an unmatched ) is literal; ^ and $ always anchor.
 * Escapes: \< \> \b \B \w \W \s \S \` \' and back-references; a backslash
 * before any other character stands for that character.
 * Bracket expressions: ']' first is literal, backslash is literal, classes
 * [:name:] (PCRE2 knows the same names), equivalence [=c=] and collating
 * [.c.] of one character, ranges checked for order.
 * Record delimiters: a negated class or \W must not match the delimiter, so
 * it is added to them; '.' leaves it out through PCRE2's newline setting.
 */
#include <stdio.h>
#include <string.h>

#include "builtins/search/grep/grep.h"
#include "builtins/textutil.h"

#define GR_DUP_MAX 32767 /* RE_DUP_MAX of glibc */
#define GR_MAX_DEPTH 240 /* below PCRE2's default nesting limit */

typedef struct xl {
  bi_ctx *c;
  buf *o;
  const unsigned char *p;
  size_t n, i;
  int ere, eol, utf8, icase, base;
  int ngroups;
  unsigned closed; /* bit k: group k (1..9) is complete */
  long atom;       /* offset in o of the last atom, -1: none */
  int atom_rep;    /* that atom already carries a repetition */
  int atom_assert; /* that atom is an assertion */
  int start;       /* at the start of an expression (GNU context rules) */
  int depth;
  long gstart[GR_MAX_DEPTH];
  int gnum[GR_MAX_DEPTH];
  int backref;
} xl;

static int xl_err(xl *x, const char *msg) {
  bi_error(x->c, "%s", msg);
  return -1;
}

static void warn(xl *x, const char *what) {
  bi_error(x->c, "warning: %s at start of expression", what);
}

/* One character as PCRE2 text that means exactly that character. */
static void put_char(buf *o, const unsigned char *s, size_t len, int utf8) {
  unsigned ch = s[0];
  if (ch >= 0x80) {
    if (utf8) {
      buf_append(o, (const char *)s, len);
    } else {
      buf_printf(o, "\\x{%02x}", ch);
    }
    return;
  }
  if ((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
      (ch >= 'A' && ch <= 'Z') || ch == '_') {
    buf_putc(o, (int)ch);
  } else if (ch < 0x20 || ch == 0x7f) {
    buf_printf(o, "\\x{%02x}", ch);
  } else {
    buf_putc(o, '\\'); /* backslash + ASCII punctuation: always literal */
    buf_putc(o, (int)ch);
  }
}

/* Length of the character at p[i] (1 outside UTF-8 mode or when invalid). */
static size_t char_len(const xl *x, size_t i, uint32_t *cp) {
  if (!x->utf8 || x->p[i] < 0x80) {
    *cp = x->p[i];
    return 1;
  }
  return tu_utf8_get((const char *)x->p + i, x->n - i, cp);
}

void gr_quote(buf *out, const char *p, size_t n, int utf8) {
  const unsigned char *u = (const unsigned char *)p;
  for (size_t i = 0; i < n;) {
    size_t len = 1;
    if (utf8 && u[i] >= 0x80) {
      uint32_t cp;
      len = tu_utf8_get(p + i, n - i, &cp);
    }
    put_char(out, u + i, len, utf8);
    i += len;
  }
}

int gr_is_literal(const char *p, size_t n, int ere) {
  const char *special = ere ? "\\[.*^$+?{}()|" : "\\[.*^$";
  for (size_t i = 0; i < n; i++)
    if (strchr(special, p[i]) || p[i] == 0)
      return 0;
  return 1;
}

/* Begin a new atom at the current end of the output. */
static void atom_begin(xl *x, int is_assert) {
  x->atom = (long)x->o->len;
  x->atom_rep = 0;
  x->atom_assert = is_assert;
  x->start = 0;
}

/* Insert "(?:" at the atom's offset and ")" at the end. */
static void wrap_atom(xl *x) {
  buf *o = x->o;
  size_t at = (size_t)x->atom, tail = o->len - at;
  buf_append(o, "(?:", 3);
  memmove(o->data + at + 3, o->data + at, tail);
  memcpy(o->data + at, "(?:", 3);
  buf_putc(o, ')');
}

static void repeat(xl *x, const char *q) {
  if (x->atom_rep || x->atom_assert)
    wrap_atom(x);
  buf_puts(x->o, q);
  x->atom_rep = 1;
  x->atom_assert = 0;
}

/* Parse an interval body at x->i (just after "{" or "\{"). Returns 1 with
 * lo and hi (-1: no upper bound) and x->i after the closing brace; 0 when the
 * text is not an interval (x->i unchanged); -1 after an error message. */
static int interval(xl *x, long *lo, long *hi) {
  size_t i = x->i;
  const unsigned char *p = x->p;
  long a = -1, b = -1;
  int comma = 0;
  while (i < x->n && p[i] >= '0' && p[i] <= '9') {
    a = (a < 0 ? 0 : a) * 10 + (p[i++] - '0');
    if (a > GR_DUP_MAX + 1)
      a = GR_DUP_MAX + 1;
  }
  if (i < x->n && p[i] == ',') {
    comma = 1;
    i++;
    while (i < x->n && p[i] >= '0' && p[i] <= '9') {
      b = (b < 0 ? 0 : b) * 10 + (p[i++] - '0');
      if (b > GR_DUP_MAX + 1)
        b = GR_DUP_MAX + 1;
    }
  }
  int closed;
  if (x->ere) {
    closed = i < x->n && p[i] == '}';
    if (closed)
      i++;
  } else {
    closed = i + 1 < x->n && p[i] == '\\' && p[i + 1] == '}';
    if (closed)
      i += 2;
  }
  if (!closed || (a < 0 && !comma)) {
    if (x->ere && closed && i == x->i + 1)
      return xl_err(x, "Invalid content of \\{\\}"); /* "{}" */
    if (x->ere)
      return 0; /* not an interval: '{' is an ordinary character */
    /* BRE: an unterminated \{ or bad content are errors. */
    for (size_t j = x->i; j + 1 < x->n; j++)
      if (p[j] == '\\' && p[j + 1] == '}')
        return xl_err(x, "Invalid content of \\{\\}");
    return xl_err(x, "Unmatched \\{");
  }
  if (a < 0)
    a = 0;
  if (!comma)
    b = a;
  if (b >= 0 && b < a)
    return xl_err(x, "Invalid content of \\{\\}");
  if (a > GR_DUP_MAX || b > GR_DUP_MAX)
    return xl_err(x, "Regular expression too big");
  *lo = a;
  *hi = b;
  x->i = i;
  return 1;
}

static int do_interval(xl *x) {
  long lo, hi;
  int r = interval(x, &lo, &hi);
  if (r <= 0)
    return r;
  char q[48];
  if (hi < 0)
    snprintf(q, sizeof q, "{%ld,}", lo);
  else if (hi == lo)
    snprintf(q, sizeof q, "{%ld}", lo);
  else
    snprintf(q, sizeof q, "{%ld,%ld}", lo, hi);
  repeat(x, q);
  return 1;
}

static const char *const class_names[] = {
    "alpha", "upper", "lower", "digit", "xdigit", "space", "print",
    "punct", "graph", "cntrl", "blank", "alnum",  NULL};

/* One bracket element that can be a range endpoint: a character, a
 * collating symbol or an equivalence class ("[.c.]", "[=c=]"). Sets *cp, *s and
 * *len (its bytes). Returns 1, 0 for a [:class:] (already emitted into cls), -1
 * on error. */
static int bracket_elem(xl *x, buf *cls, uint32_t *cp, const unsigned char **s,
                        size_t *len, int *is_equiv) {
  const unsigned char *p = x->p;
  size_t i = x->i;
  *is_equiv = 0;
  if (p[i] == '[' && i + 1 < x->n &&
      (p[i + 1] == ':' || p[i + 1] == '=' || p[i + 1] == '.')) {
    int kind = p[i + 1];
    size_t j = i + 2;
    while (j + 1 < x->n && !(p[j] == kind && p[j + 1] == ']'))
      j++;
    if (j + 1 >= x->n)
      return xl_err(x, "Unmatched [, [^, [:, [., or [=");
    size_t nl = j - (i + 2);
    const unsigned char *name = p + i + 2;
    x->i = j + 2;
    if (kind == ':') {
      for (int k = 0; class_names[k]; k++)
        if (strlen(class_names[k]) == nl &&
            memcmp(class_names[k], name, nl) == 0) {
          /* With PCRE2_UCP, [:upper:] is \p{Lu}, which caseless matching
           * leaves alone; GNU's -i makes it match every cased letter. */
          if (x->icase && x->utf8 && (k == 1 || k == 2))
            buf_puts(cls, "\\p{L&}");
          else
            buf_printf(cls, "[:%s:]", class_names[k]);
          return 0;
        }
      return xl_err(x, "Invalid character class name");
    }
    /* [=c=] and [.c.]: one character (no multi-character collating
     * elements in the C and UTF-8 locales grep runs in). */
    uint32_t c1;
    size_t l1 = nl ? char_len(x, (size_t)(name - p), &c1) : 0;
    if (nl == 0 || l1 != nl)
      return xl_err(x, "Invalid collation character");
    *cp = c1;
    *s = name;
    *len = nl;
    *is_equiv = kind == '=';
    return 1;
  }
  *len = char_len(x, i, cp);
  *s = p + i;
  x->i = i + *len;
  return 1;
}

static int bracket(xl *x) {
  const unsigned char *p = x->p;
  int neg = 0;
  if (x->i < x->n && p[x->i] == '^') {
    neg = 1;
    x->i++;
  }
  /* "[:space:]" is almost certainly meant as [[:space:]]: GNU refuses it. */
  if (x->i < x->n && p[x->i] == ':') {
    size_t j = x->i + 1;
    while (j < x->n && p[j] != ']')
      j++;
    if (j < x->n && j > x->i + 1 && p[j - 1] == ':') {
      bi_error(x->c, "character class syntax is [[:space:]], not [:space:]");
      return -1;
    }
  }
  buf cls;
  buf_init(&cls, x->c->m);
  int first = 1, rc = 0;
  for (;;) {
    if (x->i >= x->n) {
      rc = xl_err(x, "Unmatched [, [^, [:, [., or [=");
      break;
    }
    if (p[x->i] == ']' && !first) {
      x->i++;
      break;
    }
    first = 0;
    uint32_t c1;
    const unsigned char *s1;
    size_t l1;
    int eq;
    int r = bracket_elem(x, &cls, &c1, &s1, &l1, &eq);
    if (r < 0) {
      rc = -1;
      break;
    }
    if (r == 0)
      continue; /* a class */
    if (!eq && x->i + 1 < x->n && p[x->i] == '-' && p[x->i + 1] != ']') {
      x->i++;
      uint32_t c2;
      const unsigned char *s2;
      size_t l2;
      int eq2;
      r = bracket_elem(x, &cls, &c2, &s2, &l2, &eq2);
      if (r <= 0 || eq2) {
        if (r >= 0)
          xl_err(x, "Invalid range end");
        rc = -1;
        break;
      }
      if (c2 < c1) {
        rc = xl_err(x, "Invalid range end");
        break;
      }
      put_char(&cls, s1, l1, x->utf8);
      buf_putc(&cls, '-');
      put_char(&cls, s2, l2, x->utf8);
      /* a range cannot start where one ends: [1-3-5] */
      if (x->i + 1 < x->n && p[x->i] == '-' && p[x->i + 1] != ']') {
        rc = xl_err(x, "Invalid range end");
        break;
      }
      continue;
    }
    put_char(&cls, s1, l1, x->utf8);
  }
  if (rc == 0) {
    atom_begin(x, 0);
    buf_puts(x->o, neg ? "[^" : "[");
    buf_append(x->o, cls.data ? cls.data : "", cls.len);
    if (neg)
      buf_puts(x->o, x->eol ? "\\n" : "\\x00");
    buf_putc(x->o, ']');
  }
  buf_free(&cls);
  return rc;
}

static void assertion(xl *x, const char *text) {
  atom_begin(x, 1);
  buf_puts(x->o, text);
}

static int open_group(xl *x) {
  if (x->depth >= GR_MAX_DEPTH)
    return xl_err(x, "Regular expression too big");
  x->gstart[x->depth] = (long)x->o->len;
  x->gnum[x->depth] = ++x->ngroups;
  x->depth++;
  buf_putc(x->o, '(');
  x->atom = -1;
  x->start = 1;
  return 0;
}

static int close_group(xl *x) {
  if (x->depth == 0)
    return xl_err(x, "Unmatched ) or \\)");
  x->depth--;
  buf_putc(x->o, ')');
  int g = x->gnum[x->depth];
  if (g <= 9)
    x->closed |= 1u << g;
  x->atom = x->gstart[x->depth];
  x->atom_rep = 0;
  x->atom_assert = 0;
  x->start = 0;
  return 0;
}

static void alternation(xl *x) {
  buf_putc(x->o, '|');
  x->atom = -1;
  x->start = 1;
}

/* Is a BRE '$' at x->i (already consumed) at the end of an expression? */
static int bre_dollar_anchors(const xl *x) {
  size_t i = x->i;
  if (i >= x->n)
    return 1;
  return i + 1 < x->n && x->p[i] == '\\' &&
         (x->p[i + 1] == ')' || x->p[i + 1] == '|');
}

static void literal(xl *x, size_t at) {
  uint32_t cp;
  size_t len = char_len(x, at, &cp);
  atom_begin(x, 0);
  put_char(x->o, x->p + at, len, x->utf8);
  x->i = at + len;
}

/* A repetition operator in ERE at the start of an expression: GNU drops it
 * (it repeats nothing) and warns. */
static int ere_leading(xl *x, const char *what) {
  warn(x, what);
  return 0;
}

static int escape(xl *x) {
  if (x->i + 1 >= x->n)
    return xl_err(x, "Trailing backslash");
  int d = x->p[x->i + 1];
  x->i += 2;
  if (!x->ere) {
    switch (d) {
    case '(':
      return open_group(x);
    case ')':
      return close_group(x);
    case '|':
      alternation(x);
      return 0;
    case '{':
      if (x->start || x->atom < 0) {
        atom_begin(x, 0);
        buf_puts(x->o, "\\{");
        return 0;
      }
      return do_interval(x) < 0 ? -1 : 0;
    case '+':
    case '?':
      if (x->start || x->atom < 0) {
        atom_begin(x, 0);
        buf_putc(x->o, '\\');
        buf_putc(x->o, d);
        return 0;
      }
      repeat(x, d == '+' ? "+" : "?");
      return 0;
    default:
      break;
    }
  }
  if (d >= '1' && d <= '9') {
    int g = d - '0';
    if (g > x->ngroups || !(x->closed & (1u << g)))
      return xl_err(x, "Invalid back reference");
    atom_begin(x, 0);
    buf_printf(x->o, "\\g{%d}", g + x->base);
    x->backref = 1;
    return 0;
  }
  switch (d) {
  case '<':
    assertion(x, "\\b(?=\\w)");
    return 0;
  case '>':
    assertion(x, "\\b(?<=\\w)");
    return 0;
  case 'b':
    assertion(x, "\\b");
    return 0;
  case 'B':
    assertion(x, "\\B");
    return 0;
  case '`':
    assertion(x, "^");
    return 0;
  case '\'':
    assertion(x, "$");
    return 0;
  case 'w':
    atom_begin(x, 0);
    buf_puts(x->o, "\\w");
    return 0;
  case 'W':
    atom_begin(x, 0);
    buf_puts(x->o, x->eol ? "[^\\w\\n]" : "[^\\w\\x00]");
    return 0;
  case 's':
    atom_begin(x, 0);
    buf_puts(x->o, x->eol ? "[^\\S\\n]" : "\\s");
    return 0;
  case 'S':
    atom_begin(x, 0);
    buf_puts(x->o, x->eol ? "\\S" : "[^\\s\\x00]");
    return 0;
  default:
    /* A stray backslash: the character itself. */
    literal(x, x->i - 1);
    return 0;
  }
}

int gr_translate(bi_ctx *c, buf *out, const char *p, size_t n, int ere, int eol,
                 int utf8, int icase, int group_base, int *ngroups,
                 int *backref) {
  xl *x = mem_calloc(c->m, 1, sizeof *x);
  if (!x)
    return bi_error(c, "memory exhausted");
  x->c = c;
  x->o = out;
  x->p = (const unsigned char *)p;
  x->n = n;
  x->ere = ere;
  x->eol = eol == '\n';
  x->utf8 = utf8;
  x->icase = icase;
  x->base = group_base;
  x->atom = -1;
  x->start = 1;
  int rc = 0;
  while (rc == 0 && x->i < x->n) {
    int ch = x->p[x->i];
    if (ch == '\\') {
      rc = escape(x);
      continue;
    }
    if (ch == '[') {
      x->i++;
      rc = bracket(x);
      continue;
    }
    if (ch == '.') {
      x->i++;
      atom_begin(x, 0);
      buf_putc(out, '.');
      continue;
    }
    if (ch == '*' || (ere && (ch == '+' || ch == '?'))) {
      if (x->start || x->atom < 0) {
        if (!ere) {
          literal(x, x->i);
        } else {
          x->i++;
          char w[2] = {(char)ch, 0};
          rc = ere_leading(x, w);
        }
        continue;
      }
      x->i++;
      char q[2] = {(char)ch, 0};
      repeat(x, q);
      continue;
    }
    if (ere && ch == '{') {
      x->i++;
      if (x->start || x->atom < 0) {
        long lo, hi;
        int r = interval(x, &lo, &hi);
        if (r < 0) {
          rc = -1;
          continue;
        }
        if (r > 0) {
          /* Like a leading '*': it repeats nothing (GNU warns). */
          warn(x, "{...}");
          continue;
        }
        atom_begin(x, 0);
        buf_puts(out, "\\{");
        continue;
      }
      int r = do_interval(x);
      if (r < 0)
        rc = -1;
      else if (r == 0) {
        atom_begin(x, 0);
        buf_puts(out, "\\{");
      }
      continue;
    }
    if (ere && ch == '(') {
      x->i++;
      rc = open_group(x);
      continue;
    }
    if (ere && ch == ')') {
      x->i++;
      if (x->depth == 0) {
        atom_begin(x, 0);
        buf_puts(out, "\\)");
      } else {
        rc = close_group(x);
      }
      continue;
    }
    if (ere && ch == '|') {
      x->i++;
      alternation(x);
      continue;
    }
    if (ch == '^') {
      x->i++;
      if (ere || x->start) {
        int was_start = x->start;
        assertion(x, "^");
        /* after a leading ^, a repetition is still "at the start" */
        if (was_start || ere) {
          x->start = 1;
          x->atom = -1;
        }
      } else {
        atom_begin(x, 0);
        buf_puts(out, "\\^");
      }
      continue;
    }
    if (ch == '$') {
      x->i++;
      if (ere || bre_dollar_anchors(x)) {
        assertion(x, "$");
      } else {
        atom_begin(x, 0);
        buf_puts(out, "\\$");
      }
      continue;
    }
    literal(x, x->i);
  }
  if (rc == 0 && x->depth > 0)
    rc = xl_err(x, "Unmatched ( or \\(");
  *ngroups = x->ngroups;
  *backref = x->backref;
  mem_free(c->m, x);
  return rc;
}
