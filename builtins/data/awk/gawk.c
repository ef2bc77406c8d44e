/* gawk.c - the gawk extensions: gensub, asort and asorti, the orders of
 * PROCINFO["sorted_in"], strftime, systime and mktime (in the script's time
 * zone, never the host's), and case mapping by characters. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "builtins/data/awk/awk.h"
#include "builtins/tzutil.h"
#include "core/utf8.h"

/* ---- gensub ------------------------------------------------------------- */

/* Does the replacement name a group (\1 .. \9)? Then the regex must keep
 * its captures. */
static int wants_groups(const astr *r) {
  for (size_t i = 0; i + 1 < r->len; i++)
    if (r->p[i] == '\\') {
      if (r->p[i + 1] >= '1' && r->p[i + 1] <= '9')
        return 1;
      i++;
    }
  return 0;
}

/* gensub's replacement: & and \0 the match, \N group N, \q any other q. */
static void put_repl(awk *A, buf *o, const astr *repl, const char *t, size_t ms,
                     size_t me, are *re) {
  for (size_t i = 0; i < repl->len; i++) {
    char ch = repl->p[i];
    if (ch == '&') {
      buf_append(o, t + ms, me - ms);
    } else if (ch == '\\' && i + 1 < repl->len) {
      char d = repl->p[++i];
      if (d >= '0' && d <= '9') {
        uint32_t k = (uint32_t)(d - '0'), cnt = 0;
        if (k == 0) {
          buf_append(o, t + ms, me - ms);
          continue;
        }
        PCRE2_SIZE *ov = rx_ovector(&re->rx, &cnt);
        if (k < cnt && ov[2 * k] != PCRE2_UNSET)
          buf_append(o, t + ov[2 * k], ov[2 * k + 1] - ov[2 * k]);
      } else {
        buf_putc(o, d);
      }
    } else {
      buf_putc(o, ch);
    }
  }
  (void)A;
}

aval awk_gensub(awk *A, node *e) {
  node *ra = e->a, *rp = ra ? ra->next : NULL, *hw = rp ? rp->next : NULL;
  node *tg = hw ? hw->next : NULL;
  if (!hw) {
    awk_fatal(A, "gensub: not enough arguments");
    return av_num(0);
  }
  /* the regex first, as gawk evaluates it */
  are *re = re_node(A, ra);
  aval rv = awk_eval(A, rp);
  aval hv = awk_eval(A, hw);
  aval tv = tg ? awk_eval(A, tg) : awk_get_field(A, 0);
  astr *repl = av_tostr(A, &rv, 0);
  int global = 0;
  long long nth = 1;
  if (hv.t != V_NUM && hv.s && hv.s->len &&
      (hv.s->p[0] == 'g' || hv.s->p[0] == 'G')) {
    global = 1;
  } else {
    nth = awk_toll(av_tonum(A, &hv));
    if (nth <= 0)
      nth = 1;
  }
  aval r = {V_UNINIT, 0, 0, NULL};
  if (re && wants_groups(repl))
    re = re_compile_caps(A, re->src->p, re->src->len, 1);
  if (!re || A->stop)
    goto out;
  astr *t = av_tostr(A, &tv, 0);
  buf o;
  buf_init(&o, A->m);
  size_t pos = 0, n = t->len, ms, me;
  long long count = 0;
  int lastnonempty = 0; /* an empty match right after a match is none */
  while (pos <= n) {
    int rc = rx_search(&re->rx, t->p, n, pos, pos ? PCRE2_NOTBOL : 0,
                       re->caps ? RX_GROUPS : RX_EXTENT, &ms, &me);
    if (rc < 0) {
      char msg[128];
      if (rc == RX_STOPPED)
        A->stop = 1;
      else
        awk_fatal(A, "regular expression match failed: %s",
                  rx_strerror(rc, msg, sizeof msg));
      break;
    }
    if (rc == 0)
      break;
    if (ms == me && ms == pos && lastnonempty) {
      /* skip this empty match: copy one character and go on */
      lastnonempty = 0;
      if (pos >= n)
        break;
      size_t cl = A->utf8 ? u8_next(t->p + pos, n - pos, &(int32_t){0}) : 1;
      buf_append(&o, t->p + pos, cl);
      pos += cl;
      continue;
    }
    count++;
    buf_append(&o, t->p + pos, ms - pos);
    if (global || count == nth)
      put_repl(A, &o, repl, t->p, ms, me, re);
    else
      buf_append(&o, t->p + ms, me - ms);
    if (me == ms) {
      size_t cl = 0;
      if (ms < n)
        cl = A->utf8 ? u8_next(t->p + ms, n - ms, &(int32_t){0}) : 1;
      buf_append(&o, t->p + ms, cl);
      pos = ms + (cl ? cl : 1);
      lastnonempty = 0;
    } else {
      pos = me;
      lastnonempty = 1;
    }
    if (!global && count >= nth)
      break;
    if (A->c->bud && budget_poll(A->c->bud)) {
      A->stop = 1;
      break;
    }
  }
  if (pos < n)
    buf_append(&o, t->p + pos, n - pos);
  if (!A->stop)
    r = av_str(A, o.data ? o.data : "", o.len);
  buf_free(&o);
out:
  av_free(A, &rv);
  av_free(A, &hv);
  av_free(A, &tv);
  return r;
}

/* ---- sorting ------------------------------------------------------------ */

enum {
  O_UNSORTED,
  O_IND_STR,
  O_IND_NUM,
  O_VAL_TYPE,
  O_VAL_STR,
  O_VAL_NUM,
  O_USER
};

typedef struct sel {
  astr *k;
  aval v;
} sel;

typedef struct sorder {
  int kind, desc, fi;
} sorder;

static int cmp_num(double a, double b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/* Is v a number for ordering (a number, or input text that looks like one)? */
static int num_like(aval *v) {
  double d;
  if (v->t == V_NUM)
    return 1;
  if (v->t == V_STRNUM && looks_numeric(v->s->p, v->s->len, &d)) {
    v->n = d;
    v->f |= VF_NUMOK;
    return 1;
  }
  return 0;
}

static int cmp_elems(awk *A, const sorder *o, sel *x, sel *y) {
  int r = 0;
  switch (o->kind) {
  case O_IND_STR:
    r = awk_strcmp(A, x->k, y->k);
    break;
  case O_IND_NUM:
    r = cmp_num(str2num(x->k->p, x->k->len), str2num(y->k->p, y->k->len));
    if (!r)
      r = awk_strcmp(A, x->k, y->k);
    break;
  case O_VAL_STR:
    r = awk_strcmp(A, av_tostr(A, &x->v, 0), av_tostr(A, &y->v, 0));
    if (!r)
      r = awk_strcmp(A, x->k, y->k);
    break;
  case O_VAL_NUM:
    r = cmp_num(av_tonum(A, &x->v), av_tonum(A, &y->v));
    if (!r)
      r = awk_strcmp(A, av_tostr(A, &x->v, 0), av_tostr(A, &y->v, 0));
    if (!r)
      r = awk_strcmp(A, x->k, y->k);
    break;
  case O_VAL_TYPE: {
    int nx = num_like(&x->v), ny = num_like(&y->v);
    if (nx != ny)
      r = nx ? -1 : 1;
    else if (nx)
      r = cmp_num(av_tonum(A, &x->v), av_tonum(A, &y->v));
    else
      r = awk_strcmp(A, av_tostr(A, &x->v, 0), av_tostr(A, &y->v, 0));
    if (!r)
      r = awk_strcmp(A, x->k, y->k);
    break;
  }
  case O_USER: {
    aval args[4] = {{V_STRNUM, 0, 0, x->k}, x->v, {V_STRNUM, 0, 0, y->k}, y->v};
    aval rv = awk_call_values(A, o->fi, args, 4);
    double d = av_tonum(A, &rv);
    av_free(A, &rv);
    return d < 0 ? -1 : d > 0;
  }
  default:
    return 0;
  }
  return o->desc ? -r : r;
}

/* A stable merge sort (ties keep the array's order), polling the budget
 * once per merge pass. */
static int sort_elems(awk *A, const sorder *o, sel *v, size_t n) {
  if (n < 2)
    return 0;
  sel *tmp = mem_alloc(A->m, n * sizeof *tmp);
  if (!tmp) {
    awk_fatal(A, "out of memory");
    return -1;
  }
  sel *src = v, *dst = tmp;
  for (size_t w = 1; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n;
      size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        if (A->stop)
          break;
        if (cmp_elems(A, o, &src[j], &src[i]) < 0)
          dst[k++] = src[j++];
        else
          dst[k++] = src[i++];
      }
      while (i < mid)
        dst[k++] = src[i++];
      while (j < hi)
        dst[k++] = src[j++];
    }
    sel *t = src;
    src = dst;
    dst = t;
    if (A->stop || (A->c->bud && budget_poll(A->c->bud))) {
      A->stop = 1;
      break;
    }
  }
  if (src != v)
    memcpy(v, src, n * sizeof *v);
  mem_free(A->m, tmp);
  return A->stop ? -1 : 0;
}

/* The order a name gives ("@ind_num_desc", or a function's name); 0, or -1
 * after a fatal error. */
static int parse_order(awk *A, const char *how, size_t n, sorder *o,
                       int deflt) {
  static const struct {
    const char *name;
    int kind, desc;
  } tab[] = {
      {"@unsorted", O_UNSORTED, 0},      {"@ind_str_asc", O_IND_STR, 0},
      {"@ind_str_desc", O_IND_STR, 1},   {"@ind_num_asc", O_IND_NUM, 0},
      {"@ind_num_desc", O_IND_NUM, 1},   {"@val_type_asc", O_VAL_TYPE, 0},
      {"@val_type_desc", O_VAL_TYPE, 1}, {"@val_str_asc", O_VAL_STR, 0},
      {"@val_str_desc", O_VAL_STR, 1},   {"@val_num_asc", O_VAL_NUM, 0},
      {"@val_num_desc", O_VAL_NUM, 1},
  };
  o->kind = deflt;
  o->desc = 0;
  o->fi = -1;
  if (!n)
    return 0;
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (strlen(tab[i].name) == n && memcmp(tab[i].name, how, n) == 0) {
      o->kind = tab[i].kind;
      o->desc = tab[i].desc;
      return 0;
    }
  for (int i = 0; i < A->nfuncs; i++)
    if (strlen(A->funcs[i].name) == n &&
        memcmp(A->funcs[i].name, how, n) == 0) {
      o->kind = O_USER;
      o->fi = i;
      return 0;
    }
  buf b;
  buf_init(&b, A->m);
  buf_append(&b, how, n);
  awk_fatal(A, "sort comparison function `%s' is not defined", buf_cstr(&b));
  buf_free(&b);
  return -1;
}

/* With no order asked for, gawk visits the subscripts of an array in the
 * order of its hash tables, which only it can reproduce, except in one
 * common case: when every subscript is a small whole number (split()'s,
 * NR's), its integer table gives them in ascending order. The same is
 * done here; otherwise the order is that of insertion. */
enum { SMALL_INT_MAX = 2048 };

static int small_int(const astr *k) {
  if (k->len == 0 || k->len > 4 || (k->len > 1 && k->p[0] == '0'))
    return -1;
  int v = 0;
  for (size_t i = 0; i < k->len; i++) {
    if (k->p[i] < '0' || k->p[i] > '9')
      return -1;
    v = v * 10 + (k->p[i] - '0');
  }
  return v < SMALL_INT_MAX ? v : -1;
}

static void small_ints_ascending(awk *A, astr **keys, size_t n) {
  if (n < 2 || n > SMALL_INT_MAX)
    return;
  for (size_t i = 0; i < n; i++)
    if (small_int(keys[i]) < 0)
      return;
  astr **slot = mem_calloc(A->m, SMALL_INT_MAX, sizeof *slot);
  if (!slot) /* the order is only cosmetic: keep the insertion order */
    return;
  for (size_t i = 0; i < n; i++)
    slot[small_int(keys[i])] = keys[i];
  size_t k = 0;
  for (size_t v = 0; v < SMALL_INT_MAX && k < n; v++)
    if (slot[v])
      keys[k++] = slot[v];
  mem_free(A->m, slot);
}

int awk_sort_keys(awk *A, aarr *a, astr **keys, size_t n) {
  cell *pc = &A->globals[SV_PROCINFO];
  if (n == 0)
    return 0;
  aval *hv = pc->kind == C_ARRAY ? arr_get(A, pc->a, "sorted_in", 9, 0) : NULL;
  if (!hv || hv->t == V_UNINIT) {
    small_ints_ascending(A, keys, n);
    return 0;
  }
  astr *how = av_tostr(A, hv, 0);
  sorder o;
  if (parse_order(A, how->p, how->len, &o, O_UNSORTED) < 0)
    return -1;
  if (o.kind == O_UNSORTED)
    small_ints_ascending(A, keys, n);
  if (o.kind == O_UNSORTED || n < 2)
    return 0;
  sel *v = mem_alloc(A->m, n * sizeof *v);
  if (!v) {
    awk_fatal(A, "out of memory");
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    aval *ev = arr_get(A, a, keys[i]->p, keys[i]->len, 0);
    v[i].k = keys[i];
    v[i].v = ev ? av_copy(*ev) : (aval){V_UNINIT, 0, 0, NULL};
  }
  int rc = sort_elems(A, &o, v, n);
  for (size_t i = 0; i < n; i++) {
    keys[i] = v[i].k;
    av_free(A, &v[i].v);
  }
  mem_free(A->m, v);
  return rc;
}

aval awk_asort(awk *A, node *e, int byindex) {
  const char *fn = byindex ? "asorti" : "asort";
  node *src = e->a, *dst = src ? src->next : NULL;
  node *how = dst ? dst->next : NULL;
  if (!src || src->op != N_VAR) {
    awk_fatal(A, "%s: first argument not an array", fn);
    return av_num(0);
  }
  if (dst && dst->op != N_VAR) {
    awk_fatal(A, "%s: second argument not an array", fn);
    return av_num(0);
  }
  aarr *a = awk_array(A, src);
  if (!a)
    return av_num(0);
  sorder o;
  int deflt = byindex ? O_IND_STR : O_VAL_TYPE;
  if (how) {
    aval hv = awk_eval(A, how);
    astr *hs = av_tostr(A, &hv, 0);
    int rc = parse_order(A, hs->p, hs->len, &o, deflt);
    av_free(A, &hv);
    if (rc < 0)
      return av_num(0);
    if (o.kind == O_UNSORTED)
      o.kind = deflt;
  } else {
    o.kind = deflt;
    o.desc = 0;
    o.fi = -1;
  }
  size_t n = a->n, i = 0;
  sel *v = n ? mem_alloc(A->m, n * sizeof *v) : NULL;
  if (n && !v) {
    awk_fatal(A, "out of memory");
    return av_num(0);
  }
  for (aent *x = a->first; x && i < n; x = x->next, i++) {
    v[i].k = x->k;
    x->k->refs++;
    v[i].v = av_copy(x->v);
  }
  sort_elems(A, &o, v, n);
  aarr *d = dst ? awk_array(A, dst) : a;
  if (d && !A->stop) {
    arr_clear(A, d);
    char key[32];
    for (i = 0; i < n && !A->stop; i++) {
      int kl = snprintf(key, sizeof key, "%zu", i + 1);
      aval *slot = arr_get(A, d, key, (size_t)kl, 1);
      if (!slot)
        break;
      if (byindex) {
        *slot = (aval){V_STRNUM, 0, 0, v[i].k};
        v[i].k->refs++;
      } else {
        *slot = av_copy(v[i].v);
      }
    }
  }
  for (i = 0; i < n; i++) {
    as_unref(A, v[i].k);
    av_free(A, &v[i].v);
  }
  mem_free(A->m, v);
  return av_num(A->stop ? 0 : (double)n);
}

/* ---- time --------------------------------------------------------------- */

static const tz_zone *zone(awk *A) {
  if (!A->tz)
    A->tz = bi_tz_open(A->c);
  return A->tz;
}

aval awk_time_fn(awk *A, node *e) {
  node *x = e->a;
  int64_t now = A->c->now_ns(A->c) / 1000000000;
  if (e->sub == B_SYSTIME)
    return av_num((double)now);
  if (e->sub == B_MKTIME) {
    if (!x) {
      awk_fatal(A, "mktime: not enough arguments");
      return av_num(-1);
    }
    aval v = awk_eval(A, x);
    int utc = 0;
    if (x->next) {
      aval u = awk_eval(A, x->next);
      utc = av_true(A, &u);
      av_free(A, &u);
    }
    astr *s = av_tostr(A, &v, 0);
    long long f[7] = {0, 0, 0, 0, 0, 0, -1};
    int k = 0;
    const char *p = s->p, *end = s->p + s->len;
    while (k < 7) {
      while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
        p++;
      if (p >= end)
        break;
      int neg = 0;
      if (*p == '-' || *p == '+')
        neg = *p++ == '-';
      if (p >= end || *p < '0' || *p > '9')
        break;
      long long n = 0;
      while (p < end && *p >= '0' && *p <= '9') {
        if (n < 1000000000000LL)
          n = n * 10 + (*p - '0');
        p++;
      }
      f[k++] = neg ? -n : n;
    }
    av_free(A, &v);
    if (k < 6)
      return av_num(-1);
    int64_t out;
    const tz_zone *z = utc ? tz_utc() : zone(A);
    if (tz_mktime(z, f[0], f[1], f[2], f[3], f[4], f[5],
                  f[6] < 0 ? -1 : f[6] > 0, &out) < 0)
      return av_num(-1);
    return av_num((double)out);
  }
  /* strftime([format [, timestamp [, utc]]]) */
  aval fv = {V_UNINIT, 0, 0, NULL};
  astr *fmt;
  if (x) {
    fv = awk_eval(A, x);
    fmt = av_tostr(A, &fv, 0);
  } else {
    cell *pc = &A->globals[SV_PROCINFO];
    aval *pv = pc->kind == C_ARRAY ? arr_get(A, pc->a, "strftime", 8, 0) : NULL;
    if (pv)
      fv = av_copy(*pv);
    else
      fv = av_str(A, "%a %b %e %H:%M:%S %Z %Y", 23);
    fmt = av_tostr(A, &fv, 0);
  }
  int64_t t = now;
  int utc = 0;
  if (x && x->next) {
    aval tv = awk_eval(A, x->next);
    double d = av_tonum(A, &tv);
    av_free(A, &tv);
    if (d < 0 || d != d) {
      awk_fatal(A, "strftime: second argument less than 0 or too big for "
                   "time_t");
      av_free(A, &fv);
      return av_str(A, "", 0);
    }
    t = awk_toll(d);
    if (x->next->next) {
      aval u = awk_eval(A, x->next->next);
      utc = av_true(A, &u);
      av_free(A, &u);
    }
  }
  tz_tm tm;
  tz_localtime(utc ? tz_utc() : zone(A), t, 0, &tm);
  if (utc) /* gawk's gmtime names the zone GMT */
    memcpy(tm.abbr, "GMT", 4);
  buf o;
  buf_init(&o, A->m);
  tz_format(&o, fmt->p, &tm, 0);
  aval r = av_str(A, o.data ? o.data : "", o.len);
  buf_free(&o);
  av_free(A, &fv);
  return r;
}

/* ---- characters --------------------------------------------------------- */

int awk_case_map(awk *A, buf *o, const char *s, size_t n, int upper) {
  for (size_t i = 0; i < n;) {
    unsigned char ch = (unsigned char)s[i];
    if (ch < 0x80 || !A->utf8) {
      if (upper && ch >= 'a' && ch <= 'z')
        ch = (unsigned char)(ch - 32);
      else if (!upper && ch >= 'A' && ch <= 'Z')
        ch = (unsigned char)(ch + 32);
      buf_putc(o, (char)ch);
      i++;
      continue;
    }
    int32_t cp;
    size_t k = u8_next(s + i, n - i, &cp);
    if (cp < 0) {
      buf_append(o, s + i, k);
    } else {
      char enc[4];
      size_t el = u8_encode(upper ? u8_toupper(cp) : u8_tolower(cp), enc);
      if (el)
        buf_append(o, enc, el);
      else
        buf_append(o, s + i, k);
    }
    i += k;
  }
  return 0;
}
