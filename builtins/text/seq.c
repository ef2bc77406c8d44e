/*
 * seq.c - GNU seq.
 *
 * Non-negative integer operands without -f/-w count in decimal strings, so
 * any size works and a million lines cost little. Otherwise values are long
 * doubles computed as FIRST + i*STEP (no accumulated drift) and printed with
 * GNU's default format: "%.{P}Lf" where P is the larger count of fraction
 * digits of FIRST and STEP (exponents adjust it), zero padded to the widest
 * of FIRST and LAST for -w.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/numfmt.h"
#include "builtins/textutil.h"

const char bi_usage_seq[] = "Usage: seq [OPTION]... LAST\n"
                            "  or:  seq [OPTION]... FIRST LAST\n"
                            "  or:  seq [OPTION]... FIRST INCREMENT LAST";
const char bi_help_seq[] =
    "Count from FIRST to LAST by INCREMENT, printing each number.\n"
    "\n"
    "Where a long option takes a value, its short form takes the same value.\n"
    "  -f, --format=FORMAT      print each number with the printf-style\n"
    "                             floating-point FORMAT\n"
    "  -s, --separator=STRING   the text printed between two numbers\n"
    "                             (default: \\n)\n"
    "  -w, --equal-width        pad with leading zeros so all numbers are\n"
    "                             equally wide\n"
    "      --help               print this summary and quit\n"
    "      --version            print the version line and quit\n"
    "\n"
    "FIRST and INCREMENT are 1 when left out; INCREMENT stays 1 even if LAST "
    "is\n"
    "below FIRST, in which case nothing is printed. Counting stops before the\n"
    "number that would pass LAST. All three values are read as floating-point\n"
    "numbers. To count down, give a negative INCREMENT. An INCREMENT of 0 is\n"
    "refused, and so is NaN for any of the three.\n"
    "FORMAT has to print a single 'double'. Without -f, numbers are printed\n"
    "with %.PRECf when FIRST, INCREMENT and LAST are all plain decimals (PREC\n"
    "being the most digits after the point among them), and with %g "
    "otherwise.\n";

typedef struct operand {
  long double v;
  int prec;  /* fraction digits, INT_MAX when unknown (hex) */
  int width; /* printed width with that precision */
} operand;

static int scan(bi_ctx *c, const char *a, operand *o) {
  char *end;
  errno = 0;
  o->v = strtold(a, &end);
  if (end == a || *end || isspace((unsigned char)a[0])) {
    bi_error(c, "invalid floating point argument: %s", tu_quote(c, a));
    bi_try_help(c);
    return -1;
  }
  if (isnan(o->v)) {
    bi_error(c, "invalid %s argument: %s", tu_quote(c, "not-a-number"),
             tu_quote(c, a));
    bi_try_help(c);
    return -1;
  }
  o->width = (int)strlen(a);
  o->prec = 0;
  const char *s = a;
  while (*s == '-' || *s == '+')
    s++;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    o->prec = INT_MAX;
    return 0;
  }
  if (strpbrk(a, "iInN")) /* inf, infinity */
    return 0;
  const char *dot = strchr(a, '.');
  const char *e = strpbrk(a, "eE");
  size_t frac = 0;
  if (dot) {
    frac = strcspn(dot + 1, "eE");
    o->prec = (int)frac;
    if (frac == 0)
      o->width--;
    else if (dot == a || !isdigit((unsigned char)dot[-1]))
      o->width++; /* ".5" prints as "0.5" */
  }
  if (e) {
    long ex = strtol(e + 1, NULL, 10);
    if (ex < 0)
      o->prec += (int)-ex;
    else
      o->prec -= (int)(ex < o->prec ? ex : o->prec);
    o->width -= (int)strlen(e);
    if (ex < 0) {
      if (!dot || e == dot + 1)
        o->width++;
      ex = -ex;
    } else {
      if (dot && o->prec == 0 && ex)
        o->width--;
      ex -= (long)(frac < (size_t)ex ? frac : (size_t)ex);
    }
    o->width += (int)ex;
  }
  return 0;
}

/* Check a -f format: one float directive, "%%" allowed. Returns the
 * position of the conversion letter (where 'L' goes), or -1. */
static long check_format(bi_ctx *c, const char *f) {
  long conv = -1;
  for (size_t i = 0; f[i]; i++) {
    if (f[i] != '%')
      continue;
    if (f[i + 1] == '%') {
      i++;
      continue;
    }
    if (conv >= 0) {
      bi_error(c, "format %s has too many %% directives", tu_quote(c, f));
      return -1;
    }
    size_t j = i + 1;
    j += strspn(f + j, "-+ #0'I");
    j += strspn(f + j, "0123456789");
    if (f[j] == '.') {
      j++;
      j += strspn(f + j, "0123456789");
    }
    if (!f[j] || !strchr("aAeEfFgG", f[j])) {
      if (!f[j])
        bi_error(c, "format %s ends in %%", tu_quote(c, f));
      else
        bi_error(c, "format %s has unknown %%%c directive", tu_quote(c, f),
                 f[j]);
      return -1;
    }
    conv = (long)j;
    i = j;
  }
  if (conv < 0)
    bi_error(c, "format %s has no %% directive", tu_quote(c, f));
  return conv;
}

/* A -f format split around its one directive, "%%" already made "%". */
typedef struct seqfmt {
  buf pre, post;
  bi_numspec spec;
  char flags[16];
} seqfmt;

static void seqfmt_free(seqfmt *f) {
  buf_free(&f->pre);
  buf_free(&f->post);
}

/* Text of f outside its directive into out, %% as %. */
static int unescape(buf *out, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '%' && i + 1 < n && s[i + 1] == '%')
      i++;
    if (buf_putc(out, s[i]))
      return -1;
  }
  return 0;
}

/* Numbers in a directive, saturating past INT_MAX. */
static long long spec_num(const char *s, size_t *j) {
  long long v = 0;
  while (s[*j] >= '0' && s[*j] <= '9') {
    if (v <= INT_MAX)
      v = v * 10 + (s[*j] - '0');
    (*j)++;
  }
  return v;
}

/* Split a format check_format accepted. GNU's printf cannot print a width
 * or precision past INT_MAX ("Value too large for defined data type"). */
static int parse_format(bi_ctx *c, const char *f, seqfmt *out) {
  memset(out, 0, sizeof *out);
  buf_init(&out->pre, c->m);
  buf_init(&out->post, c->m);
  size_t i = 0;
  while (f[i] && !(f[i] == '%' && f[i + 1] != '%'))
    i += f[i] == '%' ? 2 : 1;
  size_t j = i + 1, nf = 0;
  while (f[j] && strchr("-+ #0'I", f[j])) {
    if (nf < sizeof out->flags && f[j] != 'I')
      out->flags[nf++] = f[j];
    j++;
  }
  bi_numspec *sp = &out->spec;
  sp->flags = out->flags;
  sp->nflags = nf;
  sp->ljust = memchr(out->flags, '-', nf) != NULL;
  sp->width = f[j] >= '0' && f[j] <= '9' ? spec_num(f, &j) : -1;
  sp->prec = -1;
  if (f[j] == '.') {
    j++;
    sp->prec = spec_num(f, &j);
  }
  sp->conv = f[j];
  if (sp->width > INT_MAX || sp->prec > INT_MAX) {
    bi_error(c, "write error: %s", bi_strerror(EOVERFLOW));
    seqfmt_free(out);
    return -1;
  }
  if (unescape(&out->pre, f, i) ||
      unescape(&out->post, f + j + 1, strlen(f + j + 1))) {
    bi_error(c, "memory exhausted");
    seqfmt_free(out);
    return -1;
  }
  return 0;
}

typedef struct sink_ctx {
  writer *w; /* or, with w NULL, into b */
  buf *b;
  int oom;
} sink_ctx;

static int to_sink(void *ud, const char *p, size_t n) {
  sink_ctx *k = ud;
  if (k->w)
    return wr_write(k->w, p, n);
  if (buf_append(k->b, p, n)) {
    k->oom = 1;
    return -1;
  }
  return 0;
}

static int put_number(bi_ctx *c, const seqfmt *f, long double x, sink_ctx *k) {
  if (f->pre.len && to_sink(k, f->pre.data, f->pre.len))
    return -1;
  int r = bi_fmt_number(c->m, &f->spec, 0, 0, x, to_sink, k);
  if (r == -2) {
    k->oom = 1;
    bi_error(c, "memory exhausted");
  }
  if (r)
    return -1;
  return f->post.len ? to_sink(k, f->post.data, f->post.len) : 0;
}

/* Whether a and b print the same under f's directive. The width only adds
 * the same blanks to both, and a precision past what a long double has
 * only zeros: both are left out of the comparison. */
static int same_text(bi_ctx *c, const seqfmt *f, long double a, long double b) {
  seqfmt g = *f;
  g.spec.width = -1;
  if (g.spec.prec > 20000)
    g.spec.prec = 20000;
  g.pre.len = g.post.len = 0;
  buf ba, bb;
  buf_init(&ba, c->m);
  buf_init(&bb, c->m);
  sink_ctx ka = {NULL, &ba, 0}, kb = {NULL, &bb, 0};
  int same = put_number(c, &g, a, &ka) == 0 && put_number(c, &g, b, &kb) == 0 &&
             ba.len == bb.len &&
             (ba.len == 0 || !memcmp(ba.data, bb.data, ba.len));
  buf_free(&ba);
  buf_free(&bb);
  return same;
}

static int all_digits(const char *s) {
  if (!*s)
    return 0;
  for (; *s; s++)
    if (!isdigit((unsigned char)*s))
      return 0;
  return 1;
}

/* Decimal string arithmetic: a += step, in a right-aligned buffer. */
typedef struct bignum {
  char *d; /* digits, most significant first, at d[off..cap) */
  size_t cap, off;
} bignum;

static int big_set(bi_ctx *c, bignum *b, const char *s) {
  while (s[0] == '0' && s[1])
    s++;
  size_t n = strlen(s);
  b->cap = n + 64;
  b->d = mem_alloc(c->m, b->cap);
  if (!b->d)
    return -1;
  b->off = b->cap - n;
  memcpy(b->d + b->off, s, n);
  return 0;
}

static int big_add(bi_ctx *c, bignum *b, unsigned long long step) {
  size_t i = b->cap;
  unsigned long long carry = step;
  while (carry) {
    if (i == b->off) {
      if (b->off == 0) { /* grow to the left */
        size_t nc = b->cap * 2;
        char *nd = mem_alloc(c->m, nc);
        if (!nd)
          return -1;
        memcpy(nd + (nc - b->cap), b->d, b->cap);
        mem_free(c->m, b->d);
        i += nc - b->cap;
        b->off = nc - b->cap;
        b->d = nd;
        b->cap = nc;
      }
      b->d[--b->off] = '0';
    }
    i--;
    unsigned long long v = (unsigned long long)(b->d[i] - '0') + carry % 10;
    carry /= 10;
    if (v >= 10) {
      v -= 10;
      carry++;
    }
    b->d[i] = (char)('0' + v);
  }
  return 0;
}

static int big_cmp(const bignum *a, const bignum *b) {
  size_t la = a->cap - a->off, lb = b->cap - b->off;
  if (la != lb)
    return la < lb ? -1 : 1;
  return memcmp(a->d + a->off, b->d + b->off, la);
}

static int seq_fast(bi_ctx *c, const char *first, const char *last,
                    unsigned long long step, const char *sep) {
  bignum x = {0}, l = {0};
  int rc = 0;
  if (big_set(c, &x, first) || big_set(c, &l, last)) {
    rc = 1;
    goto out;
  }
  writer w;
  wr_init(&w, c->out);
  size_t seplen = strlen(sep);
  int any = 0;
  while (big_cmp(&x, &l) <= 0) {
    if (any)
      wr_write(&w, sep, seplen);
    wr_write(&w, x.d + x.off, x.cap - x.off);
    any = 1;
    if (w.err || big_add(c, &x, step))
      break;
  }
  if (any)
    wr_putc(&w, '\n');
  if (wr_flush(&w))
    rc = bi_stream_status(w.err);
out:
  mem_free(c->m, x.d);
  mem_free(c->m, l.d);
  return rc;
}

static int looks_negative(const char *a) {
  return a[0] == '-' && (a[1] == '.' || isdigit((unsigned char)a[1]));
}

int bi_seq(bi_ctx *c) {
  static const bi_opt opts[] = {{"format", 'f', BI_ARG_REQUIRED},
                                {"separator", 's', BI_ARG_REQUIRED},
                                {"equal-width", 'w', BI_ARG_NONE},
                                BI_OPTS_END};
  /* A negative number ends the options (GNU), so "seq -1 1" works: parse
   * options only up to the first one. */
  int stop = c->argc;
  for (int i = 1; i < c->argc; i++) {
    if (strcmp(c->argv[i], "--") == 0)
      break;
    if (looks_negative(c->argv[i])) {
      stop = i;
      break;
    }
  }
  bi_ctx sub = *c;
  sub.argc = stop;
  bi_getopt g;
  bi_getopt_init(&g, &sub, "+f:s:w", opts);
  /* "+": options and numbers must not mix (numbers may start with '-'). */
  const char *fmt = NULL, *sep = "\n";
  int wide = 0, ch;
  while ((ch = bi_getopt_each(&g, 1)) > 0) {
    switch (ch) {
    case 'f':
      fmt = g.arg;
      break;
    case 's':
      sep = g.arg;
      break;
    case 'w':
      wide = 1;
      break;
    }
  }
  if (ch == BI_OPT_STOP)
    return g.status;
  char *args[3];
  int n = 0;
  for (int i = 0; i < g.noperands; i++) {
    if (n == 3) {
      bi_error(c, "extra operand %s", tu_quote(c, g.operands[i]));
      bi_try_help(c);
      return 1;
    }
    args[n++] = g.operands[i];
  }
  for (int i = g.idx; i < c->argc; i++) {
    if (n == 3) {
      bi_error(c, "extra operand %s", tu_quote(c, c->argv[i]));
      bi_try_help(c);
      return 1;
    }
    args[n++] = c->argv[i];
  }
  if (n == 0)
    return bi_missing_operand(c);
  if (fmt && wide) {
    bi_error(c, "format string may not be specified when printing equal "
                "width strings");
    bi_try_help(c);
    return 1;
  }
  operand first = {1, 0, 1}, step = {1, 0, 1}, last;
  if (scan(c, args[n - 1], &last))
    return 1;
  if (n >= 2 && scan(c, args[0], &first))
    return 1;
  if (n == 3) {
    if (scan(c, args[1], &step))
      return 1;
    if (step.v == 0) {
      bi_error(c, "invalid Zero increment value: %s", tu_quote(c, args[1]));
      bi_try_help(c);
      return 1;
    }
  }
  if (fmt && check_format(c, fmt) < 0)
    return 1;
  if (!fmt && !wide && all_digits(args[n - 1]) &&
      (n < 2 || all_digits(args[0])) &&
      (n < 3 || (all_digits(args[1]) && step.v < 1e18L)))
    return seq_fast(c, n >= 2 ? args[0] : "1", args[n - 1],
                    (unsigned long long)step.v, sep);

  /* Build the format: -f's, or the default one. */
  char dflt[64];
  const char *use;
  if (fmt) {
    use = fmt;
  } else {
    int prec = first.prec > step.prec ? first.prec : step.prec;
    if (prec != INT_MAX && last.prec != INT_MAX) {
      if (wide) {
        int fw = first.width + (prec - first.prec);
        int lw = last.width + (prec - last.prec);
        if (last.prec && prec == 0)
          lw--;
        if (last.prec == 0 && prec)
          lw++;
        if (first.prec == 0 && prec)
          fw++;
        snprintf(dflt, sizeof dflt, "%%0%d.%df", fw > lw ? fw : lw, prec);
      } else {
        snprintf(dflt, sizeof dflt, "%%.%df", prec);
      }
    } else {
      strcpy(dflt, "%g");
    }
    use = dflt;
  }
  seqfmt sf;
  if (parse_format(c, use, &sf))
    return 1;
  writer w;
  wr_init(&w, c->out);
  sink_ctx sk = {&w, NULL, 0};
  size_t seplen = strlen(sep);
  int rc = 0;
  long double x = first.v;
  int beyond = step.v > 0 ? x > last.v : x < last.v;
  if (!beyond) {
    for (unsigned long long i = 1;; i++) {
      if (put_number(c, &sf, x, &sk) || w.err)
        break;
      long double x0 = x;
      x = first.v + (long double)i * step.v;
      if (step.v > 0 ? x > last.v : x < last.v) {
        /* A value just past LAST that prints as LAST is LAST missed by
         * rounding: print it (GNU does the same). */
        if (x0 != x && same_text(c, &sf, x, last.v) &&
            !same_text(c, &sf, x, x0)) {
          wr_write(&w, sep, seplen);
          put_number(c, &sf, x, &sk);
        }
        break;
      }
      if (x == x0) /* the step vanished in the precision: stop */
        break;
      wr_write(&w, sep, seplen);
    }
    wr_putc(&w, '\n');
  }
  if (wr_flush(&w))
    rc = bi_stream_status(w.err);
  else if (sk.oom)
    rc = 1;
  seqfmt_free(&sf);
  return rc;
}
