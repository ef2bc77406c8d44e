/* lib.c - awk values, arrays, regexes, builtin functions, printf and the
 * redirections (files in the VFS, commands through the shell). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/data/awk/awk.h"
#include "builtins/textutil.h"
#include "core/utf8.h"

/* ---- strings and values ------------------------------------------------- */

astr *as_new(awk *A, const char *p, size_t n) {
  astr *s = mem_alloc(A->m, sizeof *s + n + 1);
  if (!s) {
    awk_fatal(A, "out of memory");
    return NULL;
  }
  s->refs = 1;
  s->len = s->cap = (uint32_t)n;
  if (n)
    memcpy(s->p, p, n);
  s->p[n] = 0;
  return s;
}

static astr empty_str = {1u << 30, 0, 0, {0}};

aval av_empty_field(awk *A) {
  if (!A->empty)
    return (aval){V_UNINIT, 0, 0, NULL};
  A->empty->refs++;
  return (aval){V_STRNUM, 0, 0, A->empty};
}

aval av_str(awk *A, const char *p, size_t n) {
  aval v = {V_STR, 0, 0, as_new(A, p, n)};
  if (!v.s)
    v.t = V_UNINIT;
  return v;
}

aval av_strnum(awk *A, const char *p, size_t n) {
  aval v = {V_STRNUM, 0, 0, as_new(A, p, n)};
  if (!v.s)
    v.t = V_UNINIT;
  return v;
}

static int isblank_(int ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' ||
         ch == '\v';
}

/* Length of the decimal number prefix at p (after blanks), 0 if none;
 * *v gets its value. */
static size_t num_prefix(const char *p, size_t n, double *v) {
  size_t i = 0;
  if (i < n && (p[i] == '+' || p[i] == '-'))
    i++;
  size_t ds = i;
  uint64_t iv = 0;
  int digits = 0, simple = 1;
  while (i < n && p[i] >= '0' && p[i] <= '9') {
    if (digits < 18)
      iv = iv * 10 + (uint64_t)(p[i] - '0');
    else
      simple = 0;
    digits++;
    i++;
  }
  if (i < n && p[i] == '.') {
    simple = 0;
    i++;
    while (i < n && p[i] >= '0' && p[i] <= '9') {
      digits++;
      i++;
    }
  }
  if (!digits) {
    *v = 0;
    return 0;
  }
  if (i < n && (p[i] == 'e' || p[i] == 'E')) {
    size_t j = i + 1;
    if (j < n && (p[j] == '+' || p[j] == '-'))
      j++;
    if (j < n && p[j] >= '0' && p[j] <= '9') {
      while (j < n && p[j] >= '0' && p[j] <= '9')
        j++;
      i = j;
      simple = 0;
    }
  }
  if (simple) {
    *v = p[0] == '-' ? -(double)iv : (double)iv;
  } else {
    char tmp[64];
    if (i < sizeof tmp) {
      memcpy(tmp, p, i);
      tmp[i] = 0;
      *v = strtod(tmp, NULL);
    } else {
      /* every string here is an astr, NUL-terminated; strtod stops where
       * the scan above did, as both read the same decimal syntax */
      *v = strtod(p, NULL);
    }
  }
  (void)ds;
  return i;
}

double str2num(const char *p, size_t n) {
  size_t i = 0;
  while (i < n && isblank_((unsigned char)p[i]))
    i++;
  double v;
  num_prefix(p + i, n - i, &v);
  return v;
}

int looks_numeric(const char *p, size_t n, double *d) {
  size_t i = 0;
  while (i < n && isblank_((unsigned char)p[i]))
    i++;
  size_t k = num_prefix(p + i, n - i, d);
  if (!k)
    return 0;
  i += k;
  while (i < n && isblank_((unsigned char)p[i]))
    i++;
  return i == n;
}

enum { VF_LOOKED = 2, VF_LOOKNUM = 4 };

double av_tonum(awk *A, aval *v) {
  (void)A;
  switch (v->t) {
  case V_NUM:
    return v->n;
  case V_UNINIT:
    return 0;
  default:
    if (!(v->f & VF_NUMOK)) {
      v->n = str2num(v->s->p, v->s->len);
      v->f |= VF_NUMOK;
    }
    return v->n;
  }
}

int awk_integral(double d) {
  return isfinite(d) && d == floor(d);
}

size_t awk_int_text(char *out, size_t cap, double d) {
  if (fabs(d) < 9.2e18)
    return (size_t)snprintf(out, cap, "%lld", (long long)d);
  return (size_t)snprintf(out, cap, "%.0f", d); /* every digit, as gawk */
}

/* A number as text: an integral value as an integer (however large, as
 * gawk), NaN and infinities signed, anything else through CONVFMT or OFMT
 * (slot), applied by awk's own printf so that any text there is safe. */
static astr *num_text(awk *A, double d, int slot) {
  char tmp[400];
  if (awk_integral(d)) {
    awk_int_text(tmp, sizeof tmp, d);
    return as_new(A, tmp, strlen(tmp));
  }
  if (isnan(d) || isinf(d)) {
    const char *w =
        isnan(d) ? (signbit(d) ? "-nan" : "+nan") : (d < 0 ? "-inf" : "+inf");
    return as_new(A, w, 4);
  }
  aval *fv = &A->globals[slot].v;
  if (fv->t != V_STR && fv->t != V_STRNUM) {
    snprintf(tmp, sizeof tmp, "%.6g", d);
    return as_new(A, tmp, strlen(tmp));
  }
  astr *f = fv->s;
  if (f->len == 4 && memcmp(f->p, "%.6g", 4) == 0) {
    snprintf(tmp, sizeof tmp, "%.6g", d);
    return as_new(A, tmp, strlen(tmp));
  }
  node arg = {0};
  arg.op = N_NUM;
  arg.v = av_num(d);
  buf b;
  buf_init(&b, A->m);
  f->refs++; /* the format may be reassigned while it runs */
  awk_format(A, &b, f->p, f->len, &arg);
  as_unref(A, f);
  astr *r = as_new(A, b.data ? b.data : "", b.len);
  buf_free(&b);
  return r;
}

astr *av_tostr(awk *A, aval *v, int output) {
  switch (v->t) {
  case V_STR:
  case V_STRNUM:
    return v->s;
  case V_UNINIT:
    return &empty_str;
  default: {
    int integral = awk_integral(v->n);
    if (v->s && integral)
      return v->s;
    astr *s = num_text(A, v->n, output ? SV_OFMT : SV_CONVFMT);
    as_unref(A, v->s);
    v->s = s;
    return v->s ? v->s : &empty_str;
  }
  }
}

int av_true(awk *A, aval *v) {
  switch (v->t) {
  case V_NUM:
    return v->n != 0;
  case V_UNINIT:
    return 0;
  case V_STR:
    return v->s->len != 0;
  default: {
    double d;
    if (looks_numeric(v->s->p, v->s->len, &d))
      return d != 0;
    return v->s->len != 0;
  }
  }
  (void)A;
}

static int is_numeric_val(aval *v) {
  if (v->t == V_NUM || v->t == V_UNINIT)
    return 1;
  if (v->t != V_STRNUM)
    return 0;
  if (!(v->f & VF_LOOKED)) {
    double d;
    v->f |= VF_LOOKED;
    if (looks_numeric(v->s->p, v->s->len, &d)) {
      v->f |= VF_LOOKNUM | VF_NUMOK;
      v->n = d;
    }
  }
  return (v->f & VF_LOOKNUM) != 0;
}

int av_cmp(awk *A, aval *x, aval *y) {
  if (is_numeric_val(x) && is_numeric_val(y)) {
    double a = av_tonum(A, x), b = av_tonum(A, y);
    return a < b ? -1 : a > b ? 1 : a == b ? 0 : 1;
  }
  return awk_strcmp(A, av_tostr(A, x, 0), av_tostr(A, y, 0));
}

int awk_strcmp(awk *A, const astr *s, const astr *t) {
  size_t n = s->len < t->len ? s->len : t->len;
  if (A->icase) { /* IGNORECASE: ASCII letters compare folded */
    for (size_t i = 0; i < n; i++) {
      int a = tolower((unsigned char)s->p[i]),
          b = tolower((unsigned char)t->p[i]);
      if (a != b)
        return a < b ? -1 : 1;
    }
  } else {
    int r = memcmp(s->p, t->p, n);
    if (r)
      return r < 0 ? -1 : 1;
  }
  return s->len < t->len ? -1 : s->len > t->len;
}

/* ---- arrays ------------------------------------------------------------- */

static uint32_t hash(const char *k, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)k[i]) * 16777619u;
  return h;
}

aarr *arr_new(awk *A) {
  aarr *a = mem_calloc(A->m, 1, sizeof *a);
  if (!a)
    return NULL;
  a->mask = 15;
  a->tab = mem_calloc(A->m, 16, sizeof *a->tab);
  if (!a->tab) {
    mem_free(A->m, a);
    return NULL;
  }
  return a;
}

void arr_clear(awk *A, aarr *a) {
  aent *e = a->first;
  while (e) {
    aent *nx = e->next;
    as_unref(A, e->k);
    av_free(A, &e->v);
    mem_free(A->m, e);
    e = nx;
  }
  memset(a->tab, 0, (a->mask + 1) * sizeof *a->tab);
  a->first = a->last = NULL;
  a->n = 0;
}

void arr_free(awk *A, aarr *a) {
  if (!a)
    return;
  arr_clear(A, a);
  mem_free(A->m, a->tab);
  mem_free(A->m, a);
}

static void arr_grow(awk *A, aarr *a) {
  size_t nm = a->mask * 2 + 1;
  aent **t = mem_calloc(A->m, nm + 1, sizeof *t);
  if (!t)
    return;
  for (aent *e = a->first; e; e = e->next) {
    size_t b = e->hash & nm;
    e->chain = t[b];
    t[b] = e;
  }
  mem_free(A->m, a->tab);
  a->tab = t;
  a->mask = nm;
}

aval *arr_get(awk *A, aarr *a, const char *k, size_t n, int create) {
  if (!a) { /* an array that could not be allocated */
    awk_fatal(A, "out of memory");
    return NULL;
  }
  uint32_t h = hash(k, n);
  for (aent *e = a->tab[h & a->mask]; e; e = e->chain)
    if (e->hash == h && e->k->len == n && memcmp(e->k->p, k, n) == 0)
      return &e->v;
  if (!create)
    return NULL;
  aent *e = mem_calloc(A->m, 1, sizeof *e);
  if (!e) {
    awk_fatal(A, "out of memory");
    return NULL;
  }
  e->k = as_new(A, k, n);
  if (!e->k) { /* as_new reported it */
    mem_free(A->m, e);
    return NULL;
  }
  e->hash = h;
  e->chain = a->tab[h & a->mask];
  a->tab[h & a->mask] = e;
  e->prev = a->last;
  if (a->last)
    a->last->next = e;
  else
    a->first = e;
  a->last = e;
  if (++a->n > (a->mask + 1) * 2)
    arr_grow(A, a);
  return &e->v;
}

void arr_del(awk *A, aarr *a, const char *k, size_t n) {
  uint32_t h = hash(k, n);
  aent **pp = &a->tab[h & a->mask];
  for (aent *e = *pp; e; pp = &e->chain, e = *pp)
    if (e->hash == h && e->k->len == n && memcmp(e->k->p, k, n) == 0) {
      *pp = e->chain;
      if (e->prev)
        e->prev->next = e->next;
      else
        a->first = e->next;
      if (e->next)
        e->next->prev = e->prev;
      else
        a->last = e->prev;
      as_unref(A, e->k);
      av_free(A, &e->v);
      mem_free(A->m, e);
      a->n--;
      return;
    }
}

/* ---- printf ------------------------------------------------------------- */

static aval next_arg(awk *A, node **args) {
  if (!*args)
    return (aval){V_UNINIT, 0, 0, NULL};
  aval v = awk_eval(A, *args);
  *args = (*args)->next;
  return v;
}

/* gawk stops when a conversion has no argument left, showing where. */
static void ran_out(awk *A, const char *f, size_t fn, size_t at) {
  buf b;
  buf_init(&b, A->m);
  buf_puts(&b, "not enough arguments to satisfy format string\n\t`");
  buf_append(&b, f, fn);
  buf_puts(&b, "'\n\t");
  for (size_t i = 0; i <= at; i++)
    buf_putc(&b, ' ');
  buf_puts(&b, "^ ran out for this one");
  awk_fatal(A, "%s", buf_cstr(&b));
  buf_free(&b);
}

#define NEED_ARG()                                                             \
  do {                                                                         \
    if (!args) {                                                               \
      ran_out(A, f, fn, st);                                                   \
      return -1;                                                               \
    }                                                                          \
  } while (0)

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
int awk_format(awk *A, buf *o, const char *f, size_t fn, node *args) {
  char spec[64], tmp[512];
  for (size_t i = 0; i < fn; i++) {
    if (f[i] != '%') {
      size_t j = i;
      while (j < fn && f[j] != '%')
        j++;
      buf_append(o, f + i, j - i);
      i = j - 1;
      continue;
    }
    if (i + 1 < fn && f[i + 1] == '%') {
      buf_putc(o, '%');
      i++;
      continue;
    }
    size_t st = i++;
    size_t k = 0;
    spec[k++] = '%';
    while (i < fn && strchr("-+ #0'", f[i])) {
      if (k < 20 && f[i] != '\'')
        spec[k++] = f[i];
      i++;
    }
    int width = -1, prec = -1;
    if (i < fn && f[i] == '*') {
      NEED_ARG();
      aval v = next_arg(A, &args);
      width = awk_toint(av_tonum(A, &v));
      av_free(A, &v);
      /* the same cap as a width written out; negating INT_MIN below
       * would overflow */
      if (width > 100000 || width < -100000)
        width = width < 0 ? -100000 : 100000;
      i++;
    } else {
      while (i < fn && f[i] >= '0' && f[i] <= '9') {
        width = (width < 0 ? 0 : width) * 10 + (f[i] - '0');
        if (width > 100000)
          width = 100000;
        i++;
      }
    }
    if (i < fn && f[i] == '.') {
      i++;
      prec = 0;
      if (i < fn && f[i] == '*') {
        NEED_ARG();
        aval v = next_arg(A, &args);
        prec = awk_toint(av_tonum(A, &v));
        av_free(A, &v);
        if (prec > 100000)
          prec = 100000;
        if (prec < 0) /* as C: a negative precision is none */
          prec = -1;
        i++;
      } else {
        while (i < fn && f[i] >= '0' && f[i] <= '9') {
          prec = prec * 10 + (f[i] - '0');
          if (prec > 100000)
            prec = 100000;
          i++;
        }
      }
    }
    while (i < fn && (f[i] == 'l' || f[i] == 'h' || f[i] == 'L' ||
                      f[i] == 'q' || f[i] == 'j' || f[i] == 'z'))
      i++;
    if (i >= fn) { /* incomplete: printed as is */
      buf_append(o, f + st, fn - st);
      break;
    }
    char conv = f[i];
    if (width >= 0 || width < -1) {
      if (width < 0) {
        spec[k++] = '-';
        width = -width;
      }
      k += (size_t)snprintf(spec + k, sizeof spec - k, "%d", width);
    }
    if (prec >= 0)
      k += (size_t)snprintf(spec + k, sizeof spec - k, ".%d", prec);
    spec[k] = 0;
    aval v;
    switch (conv) {
    case 'd':
    case 'i': {
      NEED_ARG();
      v = next_arg(A, &args);
      double d = av_tonum(A, &v);
      av_free(A, &v);
      if (isnan(d) || isinf(d)) { /* gawk: the signed word, no padding */
        buf_puts(o, isnan(d) ? (signbit(d) ? "-nan" : "+nan")
                             : (d < 0 ? "-inf" : "+inf"));
        break;
      }
      d = trunc(d);
      if (d >= -9.2e18 && d <= 9.2e18) {
        strcpy(spec + k, "lld");
        buf_printf(o, spec, (long long)d);
      } else {
        strcpy(spec + k, ".0f");
        if (prec >= 0) /* precision on a float means digits: drop it */
          spec[k] = 0, strcat(spec, "f");
        snprintf(tmp, sizeof tmp, spec, d);
        buf_puts(o, tmp);
      }
      break;
    }
    case 'o':
    case 'x':
    case 'X':
    case 'u': {
      NEED_ARG();
      v = next_arg(A, &args);
      double d = av_tonum(A, &v);
      av_free(A, &v);
      if (isnan(d) || isinf(d)) {
        buf_puts(o, isnan(d) ? (signbit(d) ? "-nan" : "+nan")
                             : (d < 0 ? "-inf" : "+inf"));
        break;
      }
      if (d >= 18446744073709551616.0 || d < -9223372036854775808.0) {
        /* gawk: out of every integer's range, written as %g */
        snprintf(tmp, sizeof tmp, "%g", d);
        buf_puts(o, tmp);
        break;
      }
      unsigned long long u =
          d < 0 ? (unsigned long long)awk_toll(d) : (unsigned long long)d;
      spec[k] = 'l';
      spec[k + 1] = 'l';
      spec[k + 2] = conv;
      spec[k + 3] = 0;
      buf_printf(o, spec, u);
      break;
    }
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
      NEED_ARG();
      v = next_arg(A, &args);
      double d = av_tonum(A, &v);
      av_free(A, &v);
      spec[k] = conv;
      spec[k + 1] = 0;
      buf_printf(o, spec, d);
      break;
    }
    case 'c':
    case 's': {
      NEED_ARG();
      v = next_arg(A, &args);
      const char *p;
      size_t n;
      char cb[8];
      double num;
      size_t nch; /* characters in p[0..n), for the padding */
      if (conv == 'c') {
        if (v.t == V_NUM ||
            (v.t == V_STRNUM && looks_numeric(v.s->p, v.s->len, &num))) {
          long long cv = awk_toll(av_tonum(A, &v));
          if (A->utf8 && cv >= 128 && cv < 0x110000) {
            n = u8_encode((int32_t)cv, cb);
            if (!n) /* a surrogate: its low byte, as in the C locale */
              cb[0] = (char)(cv & 0xff), n = 1;
          } else {
            cb[0] = (char)(cv & 0xff);
            n = 1;
          }
          p = cb;
        } else {
          astr *s = av_tostr(A, &v, 0);
          p = s->p;
          n = awk_char_off(A, s->p, s->len, 1);
          if (!n) { /* gawk: the string's terminating NUL */
            cb[0] = 0;
            p = cb;
            n = 1;
          }
        }
        nch = 1;
      } else {
        astr *s = av_tostr(A, &v, 0);
        p = s->p;
        n = s->len;
        if (prec >= 0)
          n = awk_char_off(A, s->p, s->len, (size_t)prec);
        nch = awk_chars(A, p, n);
      }
      size_t pad = width > 0 && (size_t)width > nch ? (size_t)width - nch : 0;
      int left = strchr(spec, '-') != NULL;
      if (!left)
        for (size_t q = 0; q < pad; q++)
          buf_putc(o, ' ');
      buf_append(o, p, n);
      if (left)
        for (size_t q = 0; q < pad; q++)
          buf_putc(o, ' ');
      av_free(A, &v);
      break;
    }
    default: /* not a conversion: printed as typed */
      buf_append(o, f + st, i - st + 1);
      break;
    }
  }
  return 0;
}
#pragma GCC diagnostic pop

/* ---- I/O ---------------------------------------------------------------- */

static char *sh_argv[4];

static int run_cmd(awk *A, const char *cmd, stream *in, stream *out) {
  char *argv[4] = {"sh", "-c", (char *)cmd, NULL};
  (void)sh_argv;
  int st = A->c->run_argv(A->c, argv, in, out, NULL);
  return st == BI_NOT_FOUND ? 127 : st; /* sh itself is always there */
}

aio *io_get(awk *A, const char *name, int kind) {
  for (aio *io = A->ios; io; io = io->next)
    if (strcmp(io->name, name) == 0) {
      int isout =
          io->kind == R_FILE || io->kind == R_APPEND || io->kind == R_PIPE;
      int wantout = kind == R_FILE || kind == R_APPEND || kind == R_PIPE;
      if (isout == wantout)
        return io;
    }
  aio *io = mem_calloc(A->m, 1, sizeof *io);
  if (!io)
    return NULL;
  io->name = mem_strdup(A->m, name);
  if (!io->name) {
    mem_free(A->m, io);
    return NULL;
  }
  io->kind = kind;
  buf_init(&io->pipebuf, A->m);
  int err = 0;
  if (kind == R_FILE || kind == R_APPEND) {
    io->s = tu_open_write(A->c, name, kind == R_APPEND, &err);
  } else if (kind == R_PIPE) {
    io->s = stream_capture(A->m, A->c->bud, &io->pipebuf, NULL, NULL, 1, 0);
  } else if (kind == 'r') {
    io->rs = bi_open_read(A->c, name, &err);
    if (io->rs) {
      rd_init(&io->rd, A->m, io->rs);
      rd_flush_to(&io->rd, &A->out);
    }
  } else { /* 'c': run the command now, read its output */
    wr_flush(&A->out);
    buf out;
    buf_init(&out, A->m);
    stream *cap = stream_capture(A->m, A->c->bud, &out, NULL, NULL, 1, 0);
    stream *nul = stream_null(A->m, A->c->bud);
    if (cap && nul)
      io->cmdst = run_cmd(A, name, nul, cap);
    /* waits for background jobs of the command that still hold cap */
    stream_capture_finish(cap);
    stream_unref(nul);
    /* output cut short for lack of memory is no output */
    if (cap && nul && !out.oom)
      io->rs = stream_mem_reader(A->m, A->c->bud, out.data ? out.data : "",
                                 out.len, 0);
    buf_free(&out);
    if (io->rs)
      rd_init(&io->rd, A->m, io->rs);
  }
  if (!io->s && !io->rs) {
    (void)err;
    buf_free(&io->pipebuf);
    mem_free(A->m, io->name);
    mem_free(A->m, io);
    return NULL;
  }
  if (io->s) {
    io->w = mem_alloc(A->m, sizeof *io->w);
    if (!io->w) {
      stream_unref(io->s);
      mem_free(A->m, io->name);
      mem_free(A->m, io);
      return NULL;
    }
    wr_init(io->w, io->s);
  }
  io->next = A->ios;
  A->ios = io;
  return io;
}

static int io_finish(awk *A, aio *io) {
  int st = 0;
  if (io->w) {
    if (wr_flush(io->w) < 0)
      st = -1;
    mem_free(A->m, io->w);
  }
  if (io->s)
    stream_unref(io->s);
  if (io->kind == R_PIPE) {
    wr_flush(&A->out);
    stream *in = stream_mem_reader(A->m, A->c->bud,
                                   io->pipebuf.data ? io->pipebuf.data : "",
                                   io->pipebuf.len, 0);
    st = run_cmd(A, io->name, in, NULL);
    stream_unref(in);
  }
  if (io->rs) {
    rd_free(&io->rd);
    stream_unref(io->rs);
  }
  if (io->kind == 'c') /* the command's exit status, as gawk */
    st = io->cmdst;
  if (io->sb.on)
    buf_free(&io->sb.b);
  buf_free(&io->pipebuf);
  mem_free(A->m, io->name);
  mem_free(A->m, io);
  return st;
}

int io_close(awk *A, const char *name) {
  for (aio **pp = &A->ios; *pp; pp = &(*pp)->next)
    if (strcmp((*pp)->name, name) == 0) {
      aio *io = *pp;
      *pp = io->next;
      return io_finish(A, io);
    }
  return -1;
}

void io_closeall(awk *A) {
  /* in the order they were opened, as pipes run at close */
  while (A->ios) {
    aio **pp = &A->ios;
    while ((*pp)->next)
      pp = &(*pp)->next;
    aio *io = *pp;
    *pp = NULL;
    io_finish(A, io);
  }
}

int awk_flush_all(awk *A) {
  int rc = wr_flush(&A->out);
  for (aio *io = A->ios; io; io = io->next)
    if (io->w && io->kind != R_PIPE)
      wr_flush(io->w);
  return rc;
}

writer *io_out(awk *A, int kind, aval *target) {
  if (kind == R_NONE)
    return &A->out;
  astr *s = av_tostr(A, target, 0);
  if (kind != R_PIPE &&
      (strcmp(s->p, "/dev/stdout") == 0 || strcmp(s->p, "-") == 0))
    return &A->out;
  aio *io = io_get(A, s->p, kind);
  if (!io || !io->w) {
    awk_fatal(A, "can't redirect to %s", s->p);
    return NULL;
  }
  return io->w;
}

void awk_where(awk *A, buf *b, int line) {
  const char *name = NULL;
  int first = 1;
  for (int i = 0; i < A->nsrcs; i++)
    if (A->srcs[i].first <= line) {
      name = A->srcs[i].name;
      first = A->srcs[i].first;
    }
  if (line < 1)
    line = 1;
  if (name)
    buf_printf(b, "awk: %s:%d: ", name, line - first + 1);
  else
    buf_printf(b, "awk: cmd. line:%d: ", line);
}

size_t awk_chars(awk *A, const char *s, size_t n) {
  return A->utf8 ? u8_count(s, n) : n;
}

size_t awk_char_off(awk *A, const char *s, size_t n, size_t ci) {
  if (!A->utf8)
    return ci < n ? ci : n;
  return u8_offset(s, n, ci);
}

void awk_fatal(awk *A, const char *fmt, ...) {
  if (A->stop)
    return;
  buf b;
  buf_init(&b, A->m);
  awk_where(A, &b, A->curline);
  aval *fv = A->globals ? &A->globals[SV_FILENAME].v : NULL;
  if (A->fnr > 0 && fv && (fv->s || fv->t == V_NUM || fv->t == V_UNINIT)) {
    /* gawk names the record being read (FILENAME may be half set when
     * the error is running out of memory while setting it) */
    astr *fn = av_tostr(A, fv, 0);
    char num[40];
    awk_int_text(num, sizeof num, A->fnr);
    buf_printf(&b, "(FILENAME=%s FNR=%s) ", fn->p, num);
  }
  buf_puts(&b, "fatal: ");
  va_list ap;
  va_start(ap, fmt);
  buf_vprintf(&b, fmt, ap);
  va_end(ap);
  buf_putc(&b, '\n');
  wr_flush(&A->out);
  stream_write(A->c->err, b.data, b.len);
  buf_free(&b);
  A->stop = 1;
  A->status = 2;
}

/* ---- builtin functions -------------------------------------------------- */

static aval do_sub(awk *A, node *e, int global) {
  node *ra = e->a, *rp = ra ? ra->next : NULL, *tg = rp ? rp->next : NULL;
  if (!rp) {
    awk_fatal(A, "not enough args in %s", global ? "gsub" : "sub");
    return av_num(0);
  }
  are *re = re_node(A, ra);
  aval rv = awk_eval(A, rp);
  astr *repl = av_tostr(A, &rv, 0);
  aval tv;
  node fld0 = {0};
  node zero = {0};
  if (!tg) {
    zero.op = N_NUM;
    zero.v = av_num(0);
    fld0.op = N_FIELD;
    fld0.a = &zero;
    tg = &fld0;
  }
  tv = awk_eval(A, tg);
  if (!re) {
    av_free(A, &rv);
    av_free(A, &tv);
    return av_num(0);
  }
  astr *t = av_tostr(A, &tv, 0);
  buf o;
  buf_init(&o, A->m);
  size_t pos = 0, n = t->len;
  int count = 0;
  size_t ms, me;
  int lastnonempty = 0; /* gawk: no empty match right after a match */
  while (pos <= n && re_match(A, re, t->p, n, pos, &ms, &me, 0)) {
    if (ms == me && ms == pos && lastnonempty) {
      lastnonempty = 0;
      if (pos >= n)
        break;
      size_t cl = A->utf8 ? awk_char_off(A, t->p + pos, n - pos, 1) : 1;
      buf_append(&o, t->p + pos, cl);
      pos += cl;
      continue;
    }
    buf_append(&o, t->p + pos, ms - pos);
    for (size_t i = 0; i < repl->len; i++) {
      char ch = repl->p[i];
      if (ch == '\\' && i + 1 < repl->len &&
          (repl->p[i + 1] == '&' || repl->p[i + 1] == '\\')) {
        buf_putc(&o, repl->p[++i]);
      } else if (ch == '&') {
        buf_append(&o, t->p + ms, me - ms);
      } else {
        buf_putc(&o, ch);
      }
    }
    count++;
    if (me == ms) { /* empty match: copy one character and move on */
      size_t cl = ms < n ? awk_char_off(A, t->p + ms, n - ms, 1) : 1;
      if (ms < n)
        buf_append(&o, t->p + ms, cl);
      pos = ms + cl;
      lastnonempty = 0;
    } else {
      pos = me;
      lastnonempty = 1;
    }
    if (!global)
      break;
    if (A->c->bud && budget_poll(A->c->bud)) {
      A->stop = 1;
      break;
    }
  }
  if (count) {
    if (pos < n)
      buf_append(&o, t->p + pos, n - pos);
    aval nv = av_str(A, o.data ? o.data : "", o.len);
    awk_assign_var(A, tg, nv);
  }
  buf_free(&o);
  av_free(A, &rv);
  av_free(A, &tv);
  return av_num(count);
}

/* match()'s array: each group that took part, and its start and length
 * (in characters), under the keys N, (N, "start"), (N, "length"). */
static void match_groups(awk *A, aarr *arr, are *re, astr *s) {
  uint32_t cnt = 0;
  PCRE2_SIZE *ov = rx_ovector(&re->rx, &cnt);
  astr *sep = av_tostr(A, &A->globals[SV_SUBSEP].v, 0);
  buf k;
  buf_init(&k, A->m);
  for (uint32_t g = 0; g < cnt && !A->stop; g++) {
    if (ov[2 * g] == PCRE2_UNSET)
      continue;
    size_t a = ov[2 * g], b = ov[2 * g + 1];
    static const char *const part[] = {"", "start", "length"};
    for (int j = 0; j < 3; j++) {
      buf_clear(&k);
      buf_printf(&k, "%u", g);
      if (j) {
        buf_append(&k, sep->p, sep->len);
        buf_puts(&k, part[j]);
      }
      aval *slot = arr_get(A, arr, k.data ? k.data : "", k.len, 1);
      if (!slot)
        break;
      av_free(A, slot);
      if (j == 0)
        *slot = av_strnum(A, s->p + a, b - a);
      else if (j == 1)
        *slot = av_num((double)awk_chars(A, s->p, a) + 1);
      else
        *slot = av_num((double)awk_chars(A, s->p + a, b - a));
    }
  }
  buf_free(&k);
}

/* index(s, t): the character position of the first t in s, 0 if none.
 * IGNORECASE folds ASCII letters (on copies, so the search stays linear);
 * under UTF-8 a match must start on a character, which one walk along s
 * checks for every candidate. */
static double str_index(awk *A, astr *s, astr *t) {
  if (!t->len)
    return 1;
  const char *hs = s->p, *nd = t->p;
  buf fb;
  buf_init(&fb, A->m);
  if (A->icase) {
    /* both folded to lower case; a folding that changes a length (rare
     * letters) leaves the text as it is */
    awk_case_map(A, &fb, s->p, s->len, 0);
    size_t sl = fb.len;
    awk_case_map(A, &fb, t->p, t->len, 0);
    if (fb.oom) {
      buf_free(&fb);
      awk_fatal(A, "out of memory");
      return 0;
    }
    if (sl == s->len && fb.len - sl == t->len) {
      hs = fb.data;
      nd = fb.data + sl;
    }
  }
  size_t from = 0, at = 0, chars = 0;
  double r = 0;
  for (;;) {
    const char *p = memmem(hs + from, s->len - from, nd, t->len);
    if (!p)
      break;
    size_t off = (size_t)(p - hs);
    if (!A->utf8) {
      r = (double)off + 1;
      break;
    }
    while (at < off) { /* the next character start at or after off */
      at += awk_char_off(A, s->p + at, s->len - at, 1);
      chars++;
    }
    if (at == off) {
      r = (double)chars + 1;
      break;
    }
    from = off + 1;
  }
  buf_free(&fb);
  return r;
}

static aval arg_num(awk *A, node *x, double *d) {
  aval v = awk_eval(A, x);
  *d = av_tonum(A, &v);
  return v;
}

aval awk_builtin(awk *A, node *e) {
  node *x = e->a;
  int na = e->slot;
  aval v, r = av_num(0);
  double d, d2;
  switch (e->sub) {
  case B_LENGTH: {
    if (!x) {
      aval f = awk_get_field(A, 0);
      astr *fs = av_tostr(A, &f, 0);
      r = av_num((double)awk_chars(A, fs->p, fs->len));
      av_free(A, &f);
      return r;
    }
    if (x->op == N_VAR) {
      cell *c = awk_cell(A, x);
      if (c && c->kind == C_ARRAY)
        return av_num(c->a->n);
    }
    v = awk_eval(A, x);
    astr *ls = av_tostr(A, &v, 0);
    r = av_num((double)awk_chars(A, ls->p, ls->len));
    av_free(A, &v);
    return r;
  }
  case B_SUBSTR: {
    if (na < 2) {
      awk_fatal(A, "not enough args in substr");
      return r;
    }
    v = awk_eval(A, x);
    astr *s = av_tostr(A, &v, 0);
    aval mv = arg_num(A, x->next, &d);
    av_free(A, &mv);
    double len = (double)awk_chars(A, s->p, s->len);
    /* gawk 5.2: start and length truncate; a start before 1 is 1 (the
     * length is not shortened); a length below 1 gives "" */
    double m = isnan(d) ? 1 : trunc(d), end;
    if (m < 1)
      m = 1;
    if (x->next->next) {
      aval nv = arg_num(A, x->next->next, &d2);
      av_free(A, &nv);
      d2 = isnan(d2) ? 0 : trunc(d2);
      if (d2 > len + 1)
        d2 = len + 1;
      end = d2 < 1 ? m : m + d2;
    } else {
      end = len + 1;
    }
    if (end > len + 1)
      end = len + 1;
    if (end <= m) {
      r = av_str(A, "", 0);
    } else {
      size_t b0 = awk_char_off(A, s->p, s->len, (size_t)m - 1);
      size_t b1 = awk_char_off(A, s->p, s->len, (size_t)end - 1);
      r = av_str(A, s->p + b0, b1 - b0);
    }
    av_free(A, &v);
    return r;
  }
  case B_INDEX: {
    if (na < 2) {
      awk_fatal(A, "not enough args in index");
      return r;
    }
    v = awk_eval(A, x);
    aval w = awk_eval(A, x->next);
    astr *s = av_tostr(A, &v, 0), *t = av_tostr(A, &w, 0);
    r = av_num(str_index(A, s, t));
    av_free(A, &v);
    av_free(A, &w);
    return r;
  }
  case B_SPLIT: {
    if (na < 2 || x->next->op != N_VAR) {
      awk_fatal(A, "split: second argument must be an array");
      return r;
    }
    v = awk_eval(A, x);
    aarr *arr = awk_array(A, x->next);
    if (!arr) {
      av_free(A, &v);
      return r;
    }
    astr *s = av_tostr(A, &v, 0);
    int cnt;
    if (x->next->next) {
      node *sp = x->next->next;
      aval sv;
      if (sp->op == N_ERE) {
        sv.t = V_STR;
        sv.f = 0;
        sv.s = sp->re->src;
        sv.s->refs++;
        cnt = awk_split(A, s->p, s->len, arr, &sv, 2);
      } else {
        sv = awk_eval(A, sp);
        cnt = awk_split(A, s->p, s->len, arr, &sv, 0);
      }
      av_free(A, &sv);
    } else {
      cnt = awk_split(A, s->p, s->len, arr, NULL, 1);
    }
    av_free(A, &v);
    return av_num(cnt);
  }
  case B_SUB:
  case B_GSUB:
    return do_sub(A, e, e->sub == B_GSUB);
  case B_MATCH: {
    if (na < 2) {
      awk_fatal(A, "not enough args in match");
      return r;
    }
    node *an = x->next->next;
    if (an && an->op != N_VAR) {
      awk_fatal(A, "match: third argument is not an array");
      return r;
    }
    v = awk_eval(A, x);
    are *re = re_node(A, x->next);
    aarr *arr = an ? awk_array(A, an) : NULL;
    if (an && !arr) {
      av_free(A, &v);
      return r;
    }
    if (re && arr)
      re = re_compile_caps(A, re->src->p, re->src->len, 1);
    astr *s = av_tostr(A, &v, 0);
    size_t ms, me;
    double rs = 0, rl = -1;
    if (arr)
      arr_clear(A, arr);
    int rc = 0;
    if (re && arr) {
      rc = rx_search(&re->rx, s->p, s->len, 0, 0, RX_GROUPS, &ms, &me);
      if (rc < 0)
        rc = re_failed(A, rc);
    } else if (re) {
      rc = re_match(A, re, s->p, s->len, 0, &ms, &me, 0);
    }
    if (rc > 0) {
      rs = (double)awk_chars(A, s->p, ms) + 1;
      rl = (double)awk_chars(A, s->p + ms, me - ms);
    }
    if (rc > 0 && arr)
      match_groups(A, arr, re, s);
    av_free(A, &v);
    av_free(A, &A->globals[SV_RSTART].v);
    A->globals[SV_RSTART].v = av_num(rs);
    A->globals[SV_RSTART].kind = C_SCALAR;
    av_free(A, &A->globals[SV_RLENGTH].v);
    A->globals[SV_RLENGTH].v = av_num(rl);
    A->globals[SV_RLENGTH].kind = C_SCALAR;
    return av_num(rs);
  }
  case B_SPRINTF: {
    if (!x)
      return av_str(A, "", 0);
    v = awk_eval(A, x);
    astr *f = av_tostr(A, &v, 0);
    buf o;
    buf_init(&o, A->m);
    awk_format(A, &o, f->p, f->len, x->next);
    r = av_str(A, o.data ? o.data : "", o.len);
    buf_free(&o);
    av_free(A, &v);
    return r;
  }
  case B_TOLOWER:
  case B_TOUPPER: {
    if (!x)
      return av_str(A, "", 0);
    v = awk_eval(A, x);
    astr *s = av_tostr(A, &v, 0);
    buf o;
    buf_init(&o, A->m);
    awk_case_map(A, &o, s->p, s->len, e->sub == B_TOUPPER);
    r = av_str(A, o.data ? o.data : "", o.len);
    buf_free(&o);
    av_free(A, &v);
    return r;
  }
  case B_GENSUB:
    return awk_gensub(A, e);
  case B_PATSPLIT: {
    if (na < 2 || x->next->op != N_VAR) {
      awk_fatal(A, "patsplit: second argument is not an array");
      return r;
    }
    if (na > 3) { /* seps: not kept */
      awk_fatal(A, "patsplit: a fourth argument (separators) is not "
                   "supported");
      return r;
    }
    v = awk_eval(A, x);
    aarr *arr = awk_array(A, x->next);
    if (!arr) {
      av_free(A, &v);
      return r;
    }
    astr *s = av_tostr(A, &v, 0);
    aval pv = {V_UNINIT, 0, 0, NULL};
    node *pn = x->next->next;
    if (pn && pn->op == N_ERE) {
      pv.t = V_STR;
      pv.s = pn->re->src;
      pv.s->refs++;
    } else if (pn) {
      pv = awk_eval(A, pn);
    }
    int cnt = awk_patsplit(A, s->p, s->len, arr, pn ? &pv : NULL);
    av_free(A, &pv);
    av_free(A, &v);
    return av_num(cnt);
  }
  case B_ASORT:
  case B_ASORTI:
    return awk_asort(A, e, e->sub == B_ASORTI);
  case B_STRFTIME:
  case B_SYSTIME:
  case B_MKTIME:
    return awk_time_fn(A, e);
  case B_INT:
  case B_SQRT:
  case B_EXP:
  case B_LOG:
  case B_SIN:
  case B_COS:
    d = 0;
    if (x) {
      v = arg_num(A, x, &d);
      av_free(A, &v);
    }
    switch (e->sub) {
    case B_INT:
      return av_num(trunc(d));
    case B_SQRT:
      return av_num(sqrt(d));
    case B_EXP:
      return av_num(exp(d));
    case B_LOG:
      return av_num(log(d));
    case B_SIN:
      return av_num(sin(d));
    default:
      return av_num(cos(d));
    }
  case B_ATAN2:
    if (na < 2) {
      awk_fatal(A, "not enough args in atan2");
      return r;
    }
    v = arg_num(A, x, &d);
    av_free(A, &v);
    v = arg_num(A, x->next, &d2);
    av_free(A, &v);
    return av_num(atan2(d, d2));
  case B_RAND: {
    /* xorshift64*: deterministic from the seed, like awk's random() */
    uint64_t s = A->seed;
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    A->seed = s;
    return av_num((double)((s * 2685821657736338717ull) >> 11) /
                  9007199254740992.0);
  }
  case B_SRAND: {
    double prev = A->prevseed;
    if (x) {
      v = arg_num(A, x, &d);
      av_free(A, &v);
    } else {
      d = (double)(A->c->now_ns(A->c) / 1000000000);
    }
    A->prevseed = d;
    A->seed =
        (uint64_t)awk_toll(d) * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    return av_num(prev);
  }
  case B_CLOSE: {
    if (!x)
      return av_num(-1);
    v = awk_eval(A, x);
    r = av_num(io_close(A, av_tostr(A, &v, 0)->p));
    av_free(A, &v);
    return r;
  }
  case B_FFLUSH: {
    int rc = 0;
    if (x) { /* one output: -1 when it is not open */
      v = awk_eval(A, x);
      astr *nm = av_tostr(A, &v, 0);
      rc = -1;
      if (!strcmp(nm->p, "/dev/stdout") || !strcmp(nm->p, "/dev/stderr") ||
          !strcmp(nm->p, "-"))
        rc = 0;
      for (aio *io = A->ios; io && rc < 0; io = io->next)
        if (io->w && strcmp(io->name, nm->p) == 0)
          rc = 0;
      av_free(A, &v);
    }
    awk_flush_all(A);
    return av_num(rc);
  }
  case B_SYSTEM: {
    if (!x)
      return av_num(0);
    v = awk_eval(A, x);
    awk_flush_all(A);
    int st = run_cmd(A, av_tostr(A, &v, 0)->p, NULL, NULL);
    av_free(A, &v);
    return av_num(st);
  }
  default:
    return r;
  }
}
