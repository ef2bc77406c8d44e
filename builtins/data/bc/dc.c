/*
 * dc.c - the dc command (GNU dc 1.4.1, from GNU bc 1.07.1): a reverse
 * Polish desk calculator on the numbers of num.c.
 *
 * Commands: numbers (_ for negative) and [strings]; p n P f print; c d r
 * z Z X a stack and values; + - * / % ~ ^ | v arithmetic; k i o K I O
 * scale and bases; s l S L registers; : ; arrays; x < > = != !< !> !=
 * macros; ? reads a line of input and runs it; q Q quit; # comments. A macro
 * that runs another as its last command is replaced, not nested (loops written
 * as tail recursion run in constant space); other nesting is bounded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/data/bc/num.h"

enum { DC_DEPTH_MAX = 10000, DC_MAX_DIGITS = 1000000, DC_DIM_MAX = 16777215 };

const char bi_usage_dc[] = "Usage: dc [OPTION]... [FILE]...";
const char bi_help_dc[] =
    "A reverse Polish desk calculator with arbitrary precision: run the\n"
    "expressions and files given, in order, or standard input when none is.\n"
    "\n"
    "  -e, --expression=EXPR  run EXPR\n"
    "  -f, --file=FILE        run the contents of FILE\n"
    "  -h, --help             print this summary and quit\n"
    "  -V, --version          print the version line and quit\n"
    "\n"
    "DC_LINE_LENGTH sets where long numbers are split with a backslash\n"
    "(70 by default; 0 never splits).\n";

typedef struct dval {
  bn *n;   /* a number, or */
  char *s; /* a string (n NULL) */
  size_t len;
} dval;

typedef struct dstack {
  dval *v;
  size_t n, cap;
} dstack;

typedef struct dframe {
  char *text; /* owned copy for macros; NULL for the top level */
  const char *src;
  size_t len, pos;
  int top; /* a top-level source (not a macro) */
} dframe;

typedef struct dc {
  bi_ctx *c;
  bn_env e;
  bn_out out;
  writer w;
  dstack st;
  dstack regs[256];
  dstack arrs[256]; /* the arrays of : and ; (n: slots in use) */
  long scale, ibase, obase;
  dframe *fr;
  size_t nfr;
  /* standard input, for ? (and as the program when nothing else is) */
  char *in;
  size_t in_len, in_pos;
  int in_loaded;
  int quit;
  int status;
  int fatal;
} dc;

static void dval_free(dc *d, dval *v) {
  bn_free(&d->e, v->n);
  mem_free(d->e.m, v->s);
  v->n = NULL;
  v->s = NULL;
}

static void dc_err(dc *d, const char *msg) {
  wr_flush(&d->w);
  stream_printf(d->c->err, "%s: %s\n", d->c->argv[0], msg);
}

static void dc_oom(dc *d) {
  if (d->e.err == BN_ESTOP || budget_poll(d->c->bud)) {
    d->fatal = 1;
    return;
  }
  if (!d->fatal)
    dc_err(d, bi_strerror(ENOMEM));
  d->fatal = 1;
  d->status = 1;
}

static int spush(dc *d, dstack *s, dval v) {
  if (!v.n && !v.s) {
    dc_oom(d);
    return -1;
  }
  if (s->n == s->cap) {
    size_t nc = s->cap ? s->cap * 2 : 16;
    dval *nv = mem_realloc(d->e.m, s->v, nc * sizeof *nv);
    if (!nv) {
      dval_free(d, &v);
      dc_oom(d);
      return -1;
    }
    s->v = nv;
    s->cap = nc;
  }
  s->v[s->n++] = v;
  return 0;
}

static int push_num(dc *d, bn *n) {
  if (!n) {
    int err = d->e.err;
    d->e.err = 0;
    if (err == BN_EDIV0)
      dc_err(d, "divide by zero");
    else if (err == BN_ENEG)
      dc_err(d, "square root of negative number");
    else if (err == BN_EEXP)
      dc_err(d, "Runtime error: exponent too large in raise");
    else if (err == BN_ELIMIT)
      dc_err(d, "number too long (the limit is 1000000 digits)");
    else {
      d->e.err = err;
      dc_oom(d);
    }
    return -1;
  }
  return spush(d, &d->st, (dval){n, NULL, 0});
}

static int dup_val(dc *d, const dval *v, dval *out) {
  out->n = NULL;
  out->s = NULL;
  out->len = v->len;
  if (v->n)
    out->n = bn_copy(&d->e, v->n);
  else
    out->s = mem_memdup(d->e.m, v->s, v->len + 1);
  if (!out->n && !out->s) {
    dc_oom(d);
    return -1;
  }
  return 0;
}

static int need(dc *d, size_t n) {
  if (d->st.n < n) {
    dc_err(d, "stack empty");
    return -1;
  }
  return 0;
}

static int need_nums(dc *d, size_t n) {
  if (need(d, n))
    return -1;
  for (size_t i = 0; i < n; i++)
    if (!d->st.v[d->st.n - 1 - i].n) {
      dc_err(d, "non-numeric value");
      return -1;
    }
  return 0;
}

static void print_val(dc *d, const dval *v, int nl) {
  if (v->n) {
    bn_print(&d->e, &d->out, v->n, (int)d->obase);
  } else {
    wr_write(&d->w, v->s, v->len);
  }
  if (nl) {
    wr_putc(&d->w, '\n');
    d->out.col = 0;
  }
}

/* dc's Z: significant digits of a number (1 for zero). */
static long num_digits(const bn *a) {
  size_t n = a->len + a->scale, s = 0;
  while (s < n && a->d[s] == 0)
    s++;
  return s == n ? 1 : (long)(n - s);
}

static int binary(dc *d, int op) {
  if (need_nums(d, 2))
    return 0;
  bn *y = d->st.v[d->st.n - 1].n, *x = d->st.v[d->st.n - 2].n;
  size_t sc = (size_t)d->scale;
  bn_env *e = &d->e;
  bn *r = NULL, *r2 = NULL;
  switch (op) {
  case '+':
    r = bn_add(e, x, y);
    break;
  case '-':
    r = bn_sub(e, x, y);
    break;
  case '*':
    r = bn_mul(e, x, y, sc);
    break;
  case '/':
    r = bn_div(e, x, y, sc);
    break;
  case '%':
    r = bn_mod(e, x, y, sc);
    break;
  case '~':
    r = bn_div(e, x, y, sc);
    r2 = r ? bn_mod(e, x, y, sc) : NULL;
    if (!r2) {
      bn_free(e, r);
      r = NULL;
    }
    break;
  case '^': {
    bn *t = y;
    if (y->scale) {
      wr_flush(&d->w);
      stream_puts(d->c->err, "Runtime warning: non-zero scale in exponent\n");
      t = bn_copy(e, y);
      if (t)
        t = bn_rescale(e, t, 0);
    }
    r = t ? bn_pow(e, x, t, sc) : NULL;
    if (t != y)
      bn_free(e, t);
    break;
  }
  }
  if (!r)
    return push_num(d, NULL);
  d->st.n -= 2;
  bn_free(e, x);
  bn_free(e, y);
  if (push_num(d, r))
    return -1;
  return r2 ? push_num(d, r2) : 0;
}

/* base ^ exp mod m, integers, by repeated squaring. */
static int modexp(dc *d) {
  if (need_nums(d, 3))
    return 0;
  bn_env *e = &d->e;
  bn *m = d->st.v[d->st.n - 1].n, *ex = d->st.v[d->st.n - 2].n,
     *base = d->st.v[d->st.n - 3].n;
  if (bn_is_zero(m)) {
    e->err = BN_EDIV0;
    return push_num(d, NULL);
  }
  if (ex->neg && !bn_is_zero(ex)) {
    dc_err(d, "Runtime error: negative exponent");
    return 0;
  }
  bn *x = bn_copy(e, ex), *b = bn_copy(e, base), *r = bn_from_long(e, 1);
  bn *two = bn_from_long(e, 2);
  if (x)
    x = bn_rescale(e, x, 0);
  while (x && b && r && two && !bn_is_zero(x)) {
    if (budget_poll(d->c->bud)) {
      e->err = BN_ESTOP;
      break;
    }
    bn *rem = bn_mod(e, x, two, 0);
    if (!rem)
      break;
    if (!bn_is_zero(rem)) {
      bn *t = bn_mul(e, r, b, (size_t)d->scale);
      bn *u = t ? bn_mod(e, t, m, (size_t)d->scale) : NULL;
      bn_free(e, t);
      bn_free(e, r);
      r = u;
    }
    bn_free(e, rem);
    bn *h = bn_div(e, x, two, 0);
    bn_free(e, x);
    x = h;
    if (x && !bn_is_zero(x) && r) {
      bn *t = bn_mul(e, b, b, (size_t)d->scale);
      bn *u = t ? bn_mod(e, t, m, (size_t)d->scale) : NULL;
      bn_free(e, t);
      bn_free(e, b);
      b = u;
    }
  }
  bn_free(e, two);
  bn_free(e, b);
  int bad = !x || e->err;
  bn_free(e, x);
  if (bad) {
    bn_free(e, r);
    return push_num(d, NULL);
  }
  for (int i = 0; i < 3; i++)
    dval_free(d, &d->st.v[--d->st.n]);
  return push_num(d, r);
}

/* Pop a number into a long for k, i, o, Q. */
static int pop_long(dc *d, long *out, int *ok) {
  if (need_nums(d, 1))
    return -1;
  dval v = d->st.v[--d->st.n];
  *out = bn_to_long(v.n, ok);
  if (v.n->neg && !bn_is_zero(v.n))
    *ok = *ok ? -1 : 0;
  dval_free(d, &v);
  return 0;
}

static int run_string(dc *d, const char *s, size_t len, int top);

static int exec_macro(dc *d, dval *v) {
  /* v is owned by the caller's copy: a string to run */
  dframe *cur = &d->fr[d->nfr - 1];
  size_t p = cur->pos;
  while (p < cur->len &&
         (cur->src[p] == ' ' || cur->src[p] == '\t' || cur->src[p] == '\n'))
    p++;
  if (!cur->top && p >= cur->len) {
    /* a tail call: the running macro is done, replace it */
    mem_free(d->e.m, cur->text);
    cur->text = v->s;
    cur->src = v->s;
    cur->len = v->len;
    cur->pos = 0;
    v->s = NULL;
    return 0;
  }
  if (d->nfr >= DC_DEPTH_MAX) {
    dc_err(d, "recursion too deep (the limit is 10000 nested macros)");
    mem_free(d->e.m, v->s);
    v->s = NULL;
    return -1;
  }
  d->fr[d->nfr++] = (dframe){v->s, v->s, v->len, 0, 0};
  v->s = NULL;
  return 0;
}

static int reg_exec(dc *d, int r) {
  dstack *s = &d->regs[r];
  if (!s->n)
    return 0;
  dval v;
  if (dup_val(d, &s->v[s->n - 1], &v))
    return -1;
  if (v.n) {
    return spush(d, &d->st, v);
  }
  return exec_macro(d, &v);
}

static void load_stdin(dc *d) {
  if (d->in_loaded)
    return;
  d->in_loaded = 1;
  stream *s = d->c->in;
  size_t cap = 0;
  for (;;) {
    if (d->in_len + 4096 > cap) {
      size_t nc = cap ? cap * 2 : 8192;
      char *nd = mem_realloc(d->e.m, d->in, nc);
      if (!nd) {
        dc_oom(d);
        return;
      }
      d->in = nd;
      cap = nc;
    }
    long r = stream_read(s, d->in + d->in_len, cap - d->in_len);
    if (r <= 0)
      break;
    d->in_len += (size_t)r;
  }
}

static int reg_name(dc *d, dframe *f) {
  if (f->pos >= f->len) {
    dc_err(d, "stack register name missing");
    return -1;
  }
  return (unsigned char)f->src[f->pos++];
}

/* GNU dc prints the name on stderr but the rest of this one on stdout. */
static void unimpl(dc *d, int ch) {
  wr_flush(&d->w);
  stream_printf(d->c->err, "%s: ", d->c->argv[0]);
  wr_printf(&d->w, "'%c' (%#o) unimplemented\n", ch, ch);
}

/* One command at f->pos. */
static void step(dc *d) {
  dframe *f = &d->fr[d->nfr - 1];
  int ch = (unsigned char)f->src[f->pos++];
  bn_env *e = &d->e;
  switch (ch) {
  case ' ':
  case '\t':
  case '\n':
  case '\r':
    return;
  case '#':
    while (f->pos < f->len && f->src[f->pos] != '\n')
      f->pos++;
    return;
  case '_':
  case '.':
  case '0' ... '9':
  case 'A' ... 'F': {
    size_t st = f->pos - 1;
    int neg = ch == '_';
    if (neg)
      st++;
    int dot = 0;
    size_t p = st;
    while (p < f->len) {
      char x = f->src[p];
      if (x == '.' && !dot)
        dot = 1;
      else if (!((x >= '0' && x <= '9') || (x >= 'A' && x <= 'F')))
        break;
      p++;
    }
    f->pos = p;
    bn *n = p > st ? bn_parse(e, f->src + st, p - st, (int)d->ibase, 0)
                   : bn_from_long(e, 0);
    if (n && neg && !bn_is_zero(n))
      n->neg = 1;
    push_num(d, n);
    return;
  }
  case '[': {
    size_t st = f->pos, depth = 1, p = st;
    while (p < f->len) {
      if (f->src[p] == '[')
        depth++;
      else if (f->src[p] == ']' && --depth == 0)
        break;
      p++;
    }
    char *s = mem_strndup(e->m, f->src + st, p - st);
    f->pos = p < f->len ? p + 1 : p;
    spush(d, &d->st, (dval){NULL, s, p - st});
    return;
  }
  case 'p':
    if (!need(d, 1))
      print_val(d, &d->st.v[d->st.n - 1], 1);
    return;
  case 'n':
    if (!need(d, 1)) {
      print_val(d, &d->st.v[d->st.n - 1], 0);
      dval_free(d, &d->st.v[--d->st.n]);
    }
    return;
  case 'P':
    if (!need(d, 1)) {
      dval *v = &d->st.v[d->st.n - 1];
      if (v->s) {
        wr_write(&d->w, v->s, v->len);
      } else {
        /* the integer part as base-256 bytes, most significant first */
        bn *q = bn_copy(e, v->n), *b256 = bn_from_long(e, 256);
        unsigned char bytes[4096];
        size_t nb = 0;
        if (q)
          q = bn_rescale(e, q, 0);
        if (q)
          q->neg = 0;
        while (q && b256 && !bn_is_zero(q) && nb < sizeof bytes) {
          bn *r = bn_mod(e, q, b256, 0), *t = bn_div(e, q, b256, 0);
          int ok;
          bytes[nb++] = r ? (unsigned char)bn_to_long(r, &ok) : 0;
          bn_free(e, r);
          bn_free(e, q);
          q = t;
        }
        bn_free(e, q);
        bn_free(e, b256);
        e->err = 0;
        while (nb)
          wr_putc(&d->w, bytes[--nb]);
      }
      dval_free(d, &d->st.v[--d->st.n]);
    }
    return;
  case 'f':
    for (size_t i = d->st.n; i-- > 0;)
      print_val(d, &d->st.v[i], 1);
    return;
  case 'c':
    while (d->st.n)
      dval_free(d, &d->st.v[--d->st.n]);
    return;
  case 'd':
    if (!need(d, 1)) {
      dval v;
      if (!dup_val(d, &d->st.v[d->st.n - 1], &v))
        spush(d, &d->st, v);
    }
    return;
  case 'r':
    if (!need(d, 2)) {
      dval t = d->st.v[d->st.n - 1];
      d->st.v[d->st.n - 1] = d->st.v[d->st.n - 2];
      d->st.v[d->st.n - 2] = t;
    }
    return;
  case 'z':
    push_num(d, bn_from_long(e, (long)d->st.n));
    return;
  case 'Z':
  case 'X':
    if (!need(d, 1)) {
      dval v = d->st.v[--d->st.n];
      long r = v.n ? (ch == 'Z' ? num_digits(v.n) : (long)v.n->scale)
                   : (ch == 'Z' ? (long)v.len : 0);
      dval_free(d, &v);
      push_num(d, bn_from_long(e, r));
    }
    return;
  case 'a':
    if (!need(d, 1)) {
      dval v = d->st.v[--d->st.n];
      char s[2] = {0, 0};
      size_t len = 1;
      if (v.n) {
        bn *q = bn_copy(e, v.n), *b256 = bn_from_long(e, 256);
        if (q)
          q = bn_rescale(e, q, 0);
        bn *r = q && b256 ? bn_mod(e, q, b256, 0) : NULL;
        int ok;
        long x = r ? bn_to_long(r, &ok) : 0;
        s[0] = (char)(x < 0 ? -x : x);
        bn_free(e, q);
        bn_free(e, b256);
        bn_free(e, r);
      } else {
        len = v.len ? 1 : 0;
        s[0] = v.len ? v.s[0] : 0;
      }
      dval_free(d, &v);
      spush(d, &d->st, (dval){NULL, mem_memdup(e->m, s, 2), len});
    }
    return;
  case '+':
  case '-':
  case '*':
  case '/':
  case '%':
  case '~':
  case '^':
    binary(d, ch);
    return;
  case '|':
    modexp(d);
    return;
  case 'v':
    if (!need_nums(d, 1)) {
      bn *r = bn_sqrt(e, d->st.v[d->st.n - 1].n, (size_t)d->scale);
      if (r) {
        dval_free(d, &d->st.v[--d->st.n]);
      }
      push_num(d, r);
    }
    return;
  case 'k':
  case 'i':
  case 'o': {
    long v;
    int ok;
    if (pop_long(d, &v, &ok))
      return;
    if (ch == 'k') {
      if (ok != 1)
        dc_err(d, "scale must be a nonnegative number");
      else
        d->scale = v;
    } else if (ch == 'i') {
      if (ok != 1 || v < 2 || v > 16)
        dc_err(d, "input base must be a number between 2 and 16 "
                  "(inclusive)");
      else
        d->ibase = v;
    } else {
      if (ok != 1 || v < 2 || v > 2147483647L)
        dc_err(d, "output base must be a number greater than 1");
      else
        d->obase = v;
    }
    return;
  }
  case 'K':
    push_num(d, bn_from_long(e, d->scale));
    return;
  case 'I':
    push_num(d, bn_from_long(e, d->ibase));
    return;
  case 'O':
    push_num(d, bn_from_long(e, d->obase));
    return;
  case 's':
  case 'S': {
    int r = reg_name(d, f);
    if (r < 0 || need(d, 1))
      return;
    dval v = d->st.v[--d->st.n];
    dstack *rs = &d->regs[r];
    if (ch == 's' && rs->n)
      dval_free(d, &rs->v[--rs->n]);
    spush(d, rs, v);
    return;
  }
  case 'l':
  case 'L': {
    int r = reg_name(d, f);
    if (r < 0)
      return;
    dstack *rs = &d->regs[r];
    if (!rs->n) {
      if (ch == 'l') {
        push_num(d, bn_from_long(e, 0));
      } else {
        char msg[64];
        snprintf(msg, sizeof msg, "stack register '%c' (%#o) is empty", r, r);
        dc_err(d, msg);
      }
      return;
    }
    if (ch == 'L') {
      spush(d, &d->st, rs->v[--rs->n]);
    } else {
      dval v;
      if (!dup_val(d, &rs->v[rs->n - 1], &v))
        spush(d, &d->st, v);
    }
    return;
  }
  case ':':
  case ';': {
    int r = reg_name(d, f);
    if (r < 0 || need_nums(d, 1) || (ch == ':' && need(d, 2)))
      return;
    dval iv = d->st.v[--d->st.n];
    int ok;
    long i = bn_to_long(iv.n, &ok);
    int neg = iv.n->neg && !bn_is_zero(iv.n);
    dval_free(d, &iv);
    if (!ok || neg || i > DC_DIM_MAX) {
      if (ch == ':')
        dval_free(d, &d->st.v[--d->st.n]);
      dc_err(d, "array index must be a nonnegative integer");
      return;
    }
    dstack *a = &d->arrs[r];
    if (ch == ';') {
      dval v = {NULL, NULL, 0};
      if ((size_t)i < a->n && (a->v[i].n || a->v[i].s)) {
        if (dup_val(d, &a->v[i], &v))
          return;
        spush(d, &d->st, v);
      } else {
        push_num(d, bn_from_long(e, 0));
      }
      return;
    }
    dval v = d->st.v[--d->st.n];
    if ((size_t)i >= a->cap) {
      size_t nc = a->cap ? a->cap : 16;
      while (nc <= (size_t)i)
        nc *= 2;
      dval *nv = mem_realloc(e->m, a->v, nc * sizeof *nv);
      if (!nv) {
        dval_free(d, &v);
        dc_oom(d);
        return;
      }
      memset(nv + a->cap, 0, (nc - a->cap) * sizeof *nv);
      a->v = nv;
      a->cap = nc;
    }
    if ((size_t)i >= a->n)
      a->n = (size_t)i + 1;
    dval_free(d, &a->v[i]);
    a->v[i] = v;
    return;
  }
  case 'x':
    if (!need(d, 1)) {
      dval v = d->st.v[d->st.n - 1];
      if (v.n)
        return;
      d->st.n--;
      exec_macro(d, &v);
    }
    return;
  case '<':
  case '>':
  case '=':
  case '!': {
    int neg = 0;
    if (ch == '!') {
      if (f->pos < f->len && (f->src[f->pos] == '<' || f->src[f->pos] == '>' ||
                              f->src[f->pos] == '=')) {
        neg = 1;
        ch = (unsigned char)f->src[f->pos++];
      } else {
        dc_err(d, "running shell commands is not available");
        while (f->pos < f->len && f->src[f->pos] != '\n')
          f->pos++;
        return;
      }
    }
    int r = reg_name(d, f);
    if (r < 0 || need_nums(d, 2))
      return;
    dval a = d->st.v[--d->st.n], b = d->st.v[--d->st.n];
    int c = bn_cmp(a.n, b.n);
    dval_free(d, &a);
    dval_free(d, &b);
    int t = ch == '<' ? c < 0 : ch == '>' ? c > 0 : c == 0;
    if (t != neg)
      reg_exec(d, r);
    return;
  }
  case '?': {
    load_stdin(d);
    const char *src;
    size_t *pos, len;
    dframe *top = &d->fr[0];
    if (top->src == d->in) { /* the program is stdin: read its next line */
      src = top->src;
      pos = &top->pos;
      len = top->len;
    } else {
      src = d->in;
      pos = &d->in_pos;
      len = d->in_len;
    }
    size_t st = *pos;
    while (*pos < len && src[*pos] != '\n')
      (*pos)++;
    if (*pos < len)
      (*pos)++;
    char *s = mem_strndup(e->m, src + st, *pos - st);
    if (!s) {
      dc_oom(d);
      return;
    }
    dval v = {NULL, s, *pos - st};
    exec_macro(d, &v);
    return;
  }
  case 'q':
    if (d->nfr <= 2) {
      d->quit = 1;
      d->status = 1;
      return;
    }
    for (int i = 0; i < 2; i++)
      mem_free(e->m, d->fr[--d->nfr].text);
    return;
  case 'Q': {
    long v;
    int ok;
    if (pop_long(d, &v, &ok))
      return;
    if (ok != 1 || v < 1) {
      dc_err(d, "Q command requires a number >= 1");
      return;
    }
    size_t macros = 0;
    for (size_t i = 0; i < d->nfr; i++)
      macros += !d->fr[i].top;
    if ((size_t)v > macros) {
      dc_err(d, "Q command argument exceeded string execution depth");
      return;
    }
    for (long i = 0; i < v; i++)
      mem_free(e->m, d->fr[--d->nfr].text);
    return;
  }
  default:
    unimpl(d, ch);
    return;
  }
}

static int run_string(dc *d, const char *s, size_t len, int top) {
  (void)top;
  d->nfr = 0;
  d->fr[d->nfr++] = (dframe){NULL, s, len, 0, 1};
  unsigned tick = 0;
  while (d->nfr && !d->quit && !d->fatal) {
    if ((++tick & 127) == 0 && budget_poll(d->c->bud)) {
      d->fatal = 1;
      break;
    }
    dframe *f = &d->fr[d->nfr - 1];
    if (f->pos >= f->len) {
      mem_free(d->e.m, f->text);
      d->nfr--;
      continue;
    }
    step(d);
    if (d->w.err)
      d->fatal = 1;
  }
  while (d->nfr)
    mem_free(d->e.m, d->fr[--d->nfr].text);
  return d->quit || d->fatal ? -1 : 0;
}

static char *read_file(dc *d, const char *path, size_t *len) {
  int err = 0;
  stream *s = bi_open_read(d->c, path, &err);
  if (!s) {
    char msg[512];
    snprintf(msg, sizeof msg, "Could not open file %s", path);
    dc_err(d, msg);
    d->status = 1;
    return NULL;
  }
  char *data = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n + 4096 > cap) {
      size_t nc = cap ? cap * 2 : 8192;
      char *nd = mem_realloc(d->e.m, data, nc);
      if (!nd) {
        mem_free(d->e.m, data);
        stream_unref(s);
        dc_oom(d);
        return NULL;
      }
      data = nd;
      cap = nc;
    }
    long r = stream_read(s, data + n, cap - n);
    if (r <= 0)
      break;
    n += (size_t)r;
  }
  stream_unref(s);
  *len = n;
  return data;
}

int bi_dc(bi_ctx *c) {
  static const bi_opt opts[] = {{"expression", 'e', BI_ARG_REQUIRED},
                                {"file", 'f', BI_ARG_REQUIRED},
                                {"help", 'h', BI_ARG_NONE},
                                {"version", 'V', BI_ARG_NONE},
                                {NULL, 0, 0}};
  bi_getopt g;
  bi_getopt_init(&g, c, "e:f:hV", opts);
  /* first pass: options only, so that --help and errors come first */
  int o;
  while ((o = bi_getopt_next(&g)) != -1) {
    if (o == '?')
      return 1;
    if (o == 'h')
      return bi_print_help(c);
    if (o == 'V') {
      stream_printf(c->out, "dc (GNU bc compatible; vsh) 1.4.1\n");
      return 0;
    }
  }
  dc *d = mem_calloc(c->m, 1, sizeof *d);
  dframe *fr = d ? mem_alloc(c->m, DC_DEPTH_MAX * sizeof *fr) : NULL;
  if (!fr) {
    mem_free(c->m, d);
    bi_error(c, "%s", bi_strerror(ENOMEM));
    return 1;
  }
  d->fr = fr;
  d->c = c;
  d->e.m = c->m;
  d->e.bud = c->bud;
  d->e.max_digits = DC_MAX_DIGITS;
  wr_init(&d->w, c->out);
  d->out.w = &d->w;
  /* dc fits one character more on a line than bc does */
  d->out.line_len = 71;
  const char *ll = c->getenv ? c->getenv(c, "DC_LINE_LENGTH") : NULL;
  if (ll) {
    long v = strtol(ll, NULL, 10);
    d->out.line_len = v < 3 && v != 0 ? 71
                      : v > 1 << 30   ? 1 << 30
                      : v             ? (int)v + 1
                                      : 0;
  }
  d->ibase = d->obase = 10;
  /* second pass: run -e and -f in order, then the file operands */
  int ran = 0;
  bi_getopt_init(&g, c, "e:f:hV", opts);
  while (!d->quit && !d->fatal && (o = bi_getopt_next(&g)) != -1) {
    if (o == 'e') {
      ran = 1;
      run_string(d, g.arg, strlen(g.arg), 1);
    } else if (o == 'f') {
      ran = 1;
      size_t len;
      char *t = read_file(d, g.arg, &len);
      if (t) {
        run_string(d, t, len, 1);
        mem_free(c->m, t);
      }
    }
  }
  for (int i = 0; i < g.noperands && !d->quit && !d->fatal; i++) {
    ran = 1;
    if (!strcmp(g.operands[i], "-")) {
      load_stdin(d);
      if (d->in)
        run_string(d, d->in, d->in_len, 1);
      continue;
    }
    size_t len;
    char *t = read_file(d, g.operands[i], &len);
    if (t) {
      run_string(d, t, len, 1);
      mem_free(c->m, t);
    }
  }
  if (!ran && !d->quit && !d->fatal) {
    load_stdin(d);
    if (d->in)
      run_string(d, d->in, d->in_len, 1);
  }
  int st = d->status;
  if (wr_flush(&d->w) && !st)
    st = bi_stream_status(d->w.err);
  while (d->st.n)
    dval_free(d, &d->st.v[--d->st.n]);
  mem_free(c->m, d->st.v);
  for (int r = 0; r < 256; r++) {
    while (d->regs[r].n)
      dval_free(d, &d->regs[r].v[--d->regs[r].n]);
    mem_free(c->m, d->regs[r].v);
    for (size_t i = 0; i < d->arrs[r].n; i++)
      dval_free(d, &d->arrs[r].v[i]);
    mem_free(c->m, d->arrs[r].v);
  }
  mem_free(c->m, d->in);
  mem_free(c->m, d->fr);
  mem_free(c->m, d);
  return st;
}
