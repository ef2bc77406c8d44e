/* interp.c - the tree-walking evaluator, records and fields, and the main
 * loop. Fields are split only when a field or NF is used, and their string
 * blobs are reused from record to record. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "builtins/data/awk/awk.h"
#include "core/fiber.h"

enum {
  X_NORMAL = 0,
  X_NEXT,
  X_NEXTFILE,
  X_EXIT,
  X_RETURN,
  X_BREAK,
  X_CONTINUE
};

static int exec(awk *A, node *s);

/* Store p[0..n) into *v as a strnum, reusing its blob when we own it. */
static void set_reuse(awk *A, aval *v, const char *p, size_t n) {
  if (v->s && v->s->refs == 1 && v->s->cap >= n) {
    memmove(v->s->p, p, n);
    v->s->p[n] = 0;
    v->s->len = (uint32_t)n;
  } else {
    as_unref(A, v->s);
    size_t cap = n < 32 ? 32 : n + n / 2;
    v->s = mem_alloc(A->m, sizeof(astr) + cap + 1);
    if (!v->s) {
      v->t = V_UNINIT;
      awk_fatal(A, "out of memory");
      return;
    }
    v->s->refs = 1;
    v->s->cap = (uint32_t)cap;
    v->s->len = (uint32_t)n;
    memcpy(v->s->p, p, n);
    v->s->p[n] = 0;
  }
  v->t = V_STRNUM;
  v->f = 0;
}

static astr *gstr(awk *A, int slot) {
  return av_tostr(A, &A->globals[slot].v, 0);
}

/* ---- splitting ---------------------------------------------------------- */

static int sp_push(awk *A, size_t k, size_t st, size_t len) {
  if (2 * k + 2 > A->spcap) {
    size_t nc = A->spcap ? A->spcap * 2 : 64;
    size_t *ns = mem_realloc(A->m, A->sp, nc * sizeof *ns);
    if (!ns)
      return -1;
    A->sp = ns;
    A->spcap = nc;
  }
  A->sp[2 * k] = st;
  A->sp[2 * k + 1] = len;
  return 0;
}

/* Splits s by the separator fs (awk's rules: " " runs of blanks, one other
 * character literally, else an ERE; force_re for split(s, a, /re/)). */
static size_t spans(awk *A, const char *s, size_t n, const char *fs, size_t fsn,
                    int force_re) {
  size_t k = 0;
  if (n == 0)
    return 0;
  int para = A->globals[SV_RS].v.t != V_UNINIT && gstr(A, SV_RS)->len == 0;
  if (!force_re && fsn == 1 && fs[0] == ' ') {
    size_t i = 0;
    for (;;) {
      while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
        i++;
      if (i >= n)
        break;
      size_t st = i;
      while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\n')
        i++;
      if (sp_push(A, k++, st, i - st) < 0)
        return k - 1;
    }
    return k;
  }
  if (!force_re && fsn == 1 && !para) {
    size_t st = 0;
    const char *p;
    while ((p = memchr(s + st, fs[0], n - st)) != NULL) {
      size_t e = (size_t)(p - s);
      if (sp_push(A, k++, st, e - st) < 0)
        return k - 1;
      st = e + 1;
    }
    sp_push(A, k++, st, n - st);
    return k;
  }
  if (fsn == 0) { /* each character its own field */
    for (size_t i = 0, cl; i < n; i += cl) {
      cl = A->utf8 ? awk_char_off(A, s + i, n - i, 1) : 1;
      if (sp_push(A, k++, i, cl) < 0)
        return k - 1;
    }
    return k;
  }
  are *re;
  if (para && !force_re && fsn == 1) {
    /* paragraph mode: newline separates fields too */
    char pat[8];
    size_t pl = 0;
    pat[pl++] = '[';
    if (fs[0] == '\\' || fs[0] == ']' || fs[0] == '^')
      pat[pl++] = '\\';
    pat[pl++] = fs[0];
    pat[pl++] = '\n';
    pat[pl++] = ']';
    re = re_compile(A, pat, pl);
  } else {
    re = re_compile(A, fs, fsn);
  }
  if (!re)
    return 0;
  size_t st = 0, from = 0, ms, me;
  while (from <= n && re_match(A, re, s, n, from, &ms, &me, from > 0)) {
    if (me == ms) {
      from = ms + 1;
      continue;
    }
    if (sp_push(A, k++, st, ms - st) < 0)
      return k - 1;
    st = from = me;
  }
  sp_push(A, k++, st, n - st);
  return k;
}

/* gawk's FPAT: the fields are the matches of fp, an empty match right
 * after a field being no field (it only moves one character on). */
static size_t fpat_spans(awk *A, const char *s, size_t n, const char *fp,
                         size_t fpn) {
  are *re = re_compile(A, fp, fpn);
  size_t k = 0, pos = 0, ms, me;
  int after = 0; /* the last field was not empty */
  if (!re || n == 0)
    return 0;
  while (pos <= n && re_match(A, re, s, n, pos, &ms, &me, pos > 0)) {
    if (ms == me && ms == pos && after) {
      after = 0;
      pos += pos < n ? awk_char_off(A, s + pos, n - pos, 1) : 1;
      continue;
    }
    if (sp_push(A, k++, ms, me - ms) < 0)
      return k - 1;
    after = me > ms;
    pos = me > ms ? me : ms + (ms < n ? awk_char_off(A, s + ms, n - ms, 1) : 1);
    if (A->c->bud && budget_poll(A->c->bud)) {
      A->stop = 1;
      break;
    }
  }
  return k;
}

int awk_patsplit(awk *A, const char *s, size_t n, aarr *arr, aval *fp) {
  char stackbuf[256];
  char *copy = n < sizeof stackbuf ? stackbuf : mem_alloc(A->m, n + 1);
  if (!copy) {
    awk_fatal(A, "out of memory");
    return 0;
  }
  memcpy(copy, s, n);
  astr *f = fp ? av_tostr(A, fp, 0) : gstr(A, SV_FPAT);
  size_t k = fpat_spans(A, copy, n, f->p, f->len);
  arr_clear(A, arr);
  char key[32];
  for (size_t i = 0; i < k; i++) {
    int kl = snprintf(key, sizeof key, "%zu", i + 1);
    aval *v = arr_get(A, arr, key, (size_t)kl, 1);
    if (v)
      set_reuse(A, v, copy + A->sp[2 * i], A->sp[2 * i + 1]);
  }
  if (copy != stackbuf)
    mem_free(A->m, copy);
  return (int)k;
}

int awk_split(awk *A, const char *s, size_t n, aarr *arr, aval *sep, int mode) {
  /* s may live in the array being cleared: copy first */
  char stackbuf[256];
  char *copy = n < sizeof stackbuf ? stackbuf : mem_alloc(A->m, n + 1);
  if (!copy)
    return 0;
  memcpy(copy, s, n);
  astr *fs = mode == 1 ? gstr(A, SV_FS) : av_tostr(A, sep, 0);
  size_t k = spans(A, copy, n, fs->p, fs->len, mode == 2);
  arr_clear(A, arr);
  char key[32];
  for (size_t i = 0; i < k; i++) {
    int kl = snprintf(key, sizeof key, "%zu", i + 1);
    aval *v = arr_get(A, arr, key, (size_t)kl, 1);
    if (v)
      set_reuse(A, v, copy + A->sp[2 * i], A->sp[2 * i + 1]);
  }
  if (copy != stackbuf)
    mem_free(A->m, copy);
  return (int)k;
}

/* Room for fields 0..n (the new ones zeroed): 0, or -1 after a fatal
 * error. */
static int reserve_fields(awk *A, int n) {
  if (n + 1 > A->capf) {
    int nc = n + 16;
    aval *nf = mem_realloc(A->m, A->flds, (size_t)nc * sizeof *nf);
    if (!nf) {
      awk_fatal(A, "out of memory");
      return -1;
    }
    memset(nf + A->capf, 0, (size_t)(nc - A->capf) * sizeof *nf);
    A->flds = nf;
    A->capf = nc;
  }
  return 0;
}

static void split_record(awk *A) {
  if (A->split_done)
    return;
  A->split_done = 1;
  astr *fs = gstr(A, A->fpat ? SV_FPAT : SV_FS);
  astr *r = A->f0.s;
  size_t k = !r        ? 0
             : A->fpat ? fpat_spans(A, r->p, r->len, fs->p, fs->len)
                       : spans(A, r->p, r->len, fs->p, fs->len, 0);
  if (reserve_fields(A, (int)k) < 0)
    return;
  for (size_t i = 0; i < k; i++)
    set_reuse(A, &A->flds[i + 1], r->p + A->sp[2 * i], A->sp[2 * i + 1]);
  /* fields past the new NF keep their blobs for reuse but are emptied */
  for (int i = (int)k + 1; i <= A->nf; i++) {
    if (A->flds[i].t == V_NUM) {
      av_free(A, &A->flds[i]);
    }
    A->flds[i].t = V_UNINIT;
  }
  A->nf = (int)k;
}

void awk_set_record(awk *A, const char *p, size_t n) {
  set_reuse(A, &A->f0, p, n);
  A->split_done = 0;
  A->rec_dirty = 0;
}

static void rebuild(awk *A) {
  if (!A->rec_dirty)
    return;
  A->rec_dirty = 0;
  buf b;
  buf_init(&b, A->m);
  astr *ofs = gstr(A, SV_OFS);
  for (int i = 1; i <= A->nf; i++) {
    if (i > 1)
      buf_append(&b, ofs->p, ofs->len);
    astr *s = av_tostr(A, &A->flds[i], 0);
    buf_append(&b, s->p, s->len);
  }
  set_reuse(A, &A->f0, b.data ? b.data : "", b.len);
  buf_free(&b);
}

static void grow_fields(awk *A, int n) {
  if (reserve_fields(A, n) < 0)
    return;
  for (int i = A->nf + 1; i <= n; i++)
    set_reuse(A, &A->flds[i], "", 0);
}

static void set_nf(awk *A, int n) {
  split_record(A);
  if (n < 0)
    n = 0;
  if (n > 1000000) {
    awk_fatal(A, "NF set to a too large value");
    return;
  }
  if (n > A->nf)
    grow_fields(A, n);
  if (A->stop)
    return;
  for (int i = n + 1; i <= A->nf; i++)
    A->flds[i].t = V_UNINIT;
  A->nf = n;
  A->rec_dirty = 1;
}

void awk_set_field(awk *A, int i, aval v) {
  if (i == 0) {
    astr *s = av_tostr(A, &v, 0);
    awk_set_record(A, s->p, s->len);
    av_free(A, &v);
    return;
  }
  split_record(A);
  if (i > A->nf) {
    if (i > 1000000) {
      awk_fatal(A, "trying to access out of range field %d", i);
      av_free(A, &v);
      return;
    }
    grow_fields(A, i);
    if (A->stop) { /* out of memory: there is no field i */
      av_free(A, &v);
      return;
    }
    A->nf = i;
  }
  av_free(A, &A->flds[i]);
  A->flds[i] = v;
  A->rec_dirty = 1;
}

aval awk_get_field(awk *A, int i) {
  if (i == 0) {
    rebuild(A);
    return av_copy(A->f0);
  }
  split_record(A);
  if (i > A->nf || A->flds[i].t == V_UNINIT) /* "" as text, as gawk */
    return av_empty_field(A);
  return av_copy(A->flds[i]);
}

static int field_index(awk *A, node *x) {
  aval v = awk_eval(A, x);
  double d = av_tonum(A, &v);
  av_free(A, &v);
  if (d < 0) {
    awk_fatal(A, "trying to access out of range field %d", awk_toint(d));
    return -1;
  }
  return awk_toint(d);
}

/* ---- variables ---------------------------------------------------------- */

static cell *raw_cell(awk *A, node *e) {
  return e->local ? &A->fr->locals[e->slot] : &A->globals[e->slot];
}

cell *awk_cell(awk *A, node *e) {
  cell *c = raw_cell(A, e);
  while (c->kind == C_REF)
    c = c->ref;
  return c;
}

/* A cell for scalar use: a parameter bound to an untyped caller variable
 * becomes a local scalar (only arrays are shared). */
static cell *scalar_cell(awk *A, node *e) {
  cell *c = raw_cell(A, e);
  if (c->kind == C_REF) {
    cell *t = awk_cell(A, e);
    if (t->kind != C_UNSET)
      return t;
    c->kind = C_UNSET;
    c->ref = NULL;
  }
  return c;
}

aarr *awk_array(awk *A, node *e) {
  cell *c = awk_cell(A, e);
  if (c->kind == C_UNSET) {
    c->a = arr_new(A);
    if (!c->a) {
      awk_fatal(A, "out of memory");
      return NULL;
    }
    c->kind = C_ARRAY;
  }
  if (c->kind != C_ARRAY) {
    awk_fatal(A, "attempt to use scalar `%s' as an array",
              e->local ? "parameter" : A->gnames[e->slot]);
    return NULL;
  }
  return c->a;
}

typedef struct akey {
  const char *p;
  size_t n;
  aval hold;
  buf b;
  char num[40];
} akey;

static void key_piece(awk *A, aval *v, const char **p, size_t *n, char *num) {
  if (v->t == V_NUM && awk_integral(v->n) && fabs(v->n) < 1e30) {
    *n = awk_int_text(num, 40, v->n);
    *p = num;
    return;
  }
  astr *s = av_tostr(A, v, 0);
  *p = s->p;
  *n = s->len;
}

static void key_make(awk *A, node *subs, akey *k) {
  k->b.data = NULL;
  if (!subs->next) {
    k->hold = awk_eval(A, subs);
    key_piece(A, &k->hold, &k->p, &k->n, k->num);
    return;
  }
  k->hold = (aval){V_UNINIT, 0, 0, NULL};
  buf_init(&k->b, A->m);
  astr *sep = gstr(A, SV_SUBSEP);
  for (node *x = subs; x; x = x->next) {
    if (x != subs)
      buf_append(&k->b, sep->p, sep->len);
    aval v = awk_eval(A, x);
    const char *p;
    size_t n;
    char num[40];
    key_piece(A, &v, &p, &n, num);
    buf_append(&k->b, p, n);
    av_free(A, &v);
  }
  k->p = k->b.data ? k->b.data : "";
  k->n = k->b.len;
}

static void key_done(awk *A, akey *k) {
  av_free(A, &k->hold);
  if (k->b.data)
    buf_free(&k->b);
}

static aval read_var(awk *A, node *e) {
  if (!e->local && e->slot < SV_COUNT) {
    if (e->slot == SV_NF) {
      split_record(A);
      return av_num(A->nf);
    }
    if (e->slot == SV_NR)
      return av_num(A->nr);
    if (e->slot == SV_FNR)
      return av_num(A->fnr);
  }
  cell *c = scalar_cell(A, e);
  if (c->kind == C_ARRAY) {
    awk_fatal(A, "attempt to use array `%s' in a scalar context",
              e->local ? "parameter" : A->gnames[e->slot]);
    return av_num(0);
  }
  return av_copy(c->v);
}

void awk_assign_var(awk *A, node *lv, aval v) {
  switch (lv->op) {
  case N_VAR: {
    if (!lv->local && lv->slot < SV_COUNT) {
      switch (lv->slot) {
      case SV_NF:
        set_nf(A, awk_toint(av_tonum(A, &v)));
        av_free(A, &v);
        return;
      case SV_NR:
        A->nr = av_tonum(A, &v);
        av_free(A, &v);
        return;
      case SV_FNR:
        A->fnr = av_tonum(A, &v);
        av_free(A, &v);
        return;
      case SV_CONVFMT:
        A->convgen++;
        break;
      case SV_IGNORECASE:
        A->icase = av_true(A, &v);
        break;
      case SV_FS: /* the last of FS and FPAT assigned splits the fields */
        A->fpat = 0;
        break;
      case SV_FPAT:
        A->fpat = 1;
        break;
      default:
        break;
      }
    }
    cell *c = scalar_cell(A, lv);
    if (c->kind == C_ARRAY) {
      awk_fatal(A, "attempt to use array `%s' in a scalar context",
                lv->local ? "parameter" : A->gnames[lv->slot]);
      av_free(A, &v);
      return;
    }
    av_free(A, &c->v);
    c->v = v;
    c->kind = C_SCALAR;
    return;
  }
  case N_FIELD: {
    int i = field_index(A, lv->a);
    if (i < 0) {
      av_free(A, &v);
      return;
    }
    awk_set_field(A, i, v);
    return;
  }
  case N_INDEX: {
    aarr *a = awk_array(A, lv->a);
    if (!a) {
      av_free(A, &v);
      return;
    }
    akey k;
    key_make(A, lv->b, &k);
    aval *slot = arr_get(A, a, k.p, k.n, 1);
    key_done(A, &k);
    if (!slot) {
      av_free(A, &v);
      return;
    }
    av_free(A, slot);
    *slot = v;
    return;
  }
  default:
    av_free(A, &v);
  }
}

/* Direct storage of an lvalue when it has some (plain variables and array
 * elements), so `s[k] += x` hashes the key once. */
static aval *lv_slot(awk *A, node *lv) {
  if (lv->op == N_VAR && (lv->local || lv->slot >= SV_COUNT)) {
    cell *c = scalar_cell(A, lv);
    if (c->kind == C_ARRAY)
      return NULL;
    c->kind = C_SCALAR;
    return &c->v;
  }
  if (lv->op == N_INDEX) {
    aarr *a = awk_array(A, lv->a);
    if (!a)
      return NULL;
    akey k;
    key_make(A, lv->b, &k);
    aval *slot = arr_get(A, a, k.p, k.n, 1);
    key_done(A, &k);
    return slot;
  }
  return NULL;
}

/* ---- expressions -------------------------------------------------------- */

static double arith(awk *A, int op, double x, double y) {
  switch (op) {
  case T_ADD:
  case T_ADD_ASSIGN:
    return x + y;
  case T_SUB:
  case T_SUB_ASSIGN:
    return x - y;
  case T_MUL:
  case T_MUL_ASSIGN:
    return x * y;
  case T_DIV:
  case T_DIV_ASSIGN:
    if (y == 0) {
      awk_fatal(A, "division by zero attempted%s",
                op == T_DIV_ASSIGN ? " in `/='" : "");
      return 0;
    }
    return x / y;
  case T_MOD:
  case T_MOD_ASSIGN:
    if (y == 0) {
      awk_fatal(A, "division by zero attempted in `%s'",
                op == T_MOD_ASSIGN ? "%=" : "%");
      return 0;
    }
    return fmod(x, y);
  default:
    return pow(x, y);
  }
}

static int match_node(awk *A, node *rx, const char *s, size_t n) {
  are *re = re_node(A, rx);
  return re && re_test(A, re, s, n);
}

static aval do_getline(awk *A, node *e) {
  const char *p;
  size_t n;
  int rc;
  if (e->sub == G_SIMPLE) {
    rc = awk_next_main_record(A, NULL);
    if (rc <= 0)
      return av_num(rc);
    A->nr++;
    A->fnr++;
    if (e->a) {
      aval v = av_strnum(A, A->para.data ? A->para.data : "", A->para.len);
      awk_assign_var(A, e->a, v);
    } else {
      awk_set_record(A, A->para.data ? A->para.data : "", A->para.len);
    }
    return av_num(1);
  }
  aval nv = awk_eval(A, e->b);
  astr *name = av_tostr(A, &nv, 0);
  aio *io = io_get(A, name->p, e->sub == G_FILE ? 'r' : 'c');
  av_free(A, &nv);
  if (!io)
    return av_num(-1);
  rc = awk_read_rec(A, &io->rd, &io->sb, &p, &n);
  if (rc <= 0)
    return av_num(rc);
  if (e->sub == G_CMD) {
    A->nr++;
    A->fnr++;
  }
  if (e->a)
    awk_assign_var(A, e->a, av_strnum(A, p, n));
  else
    awk_set_record(A, p, n);
  return av_num(1);
}

/* Runs f's body over the locals loc (freed here) and gives its value. */
static aval run_frame(awk *A, afunc *f, cell *loc) {
  int np = f->nparams, i;
  frame fr = {loc, np}, *save = A->fr;
  A->fr = &fr;
  A->depth++;
  int x = exec(A, f->body);
  A->depth--;
  A->fr = save;
  aval r = (aval){V_UNINIT, 0, 0, NULL};
  if (x == X_RETURN) {
    r = A->retval;
    A->retval = (aval){V_UNINIT, 0, 0, NULL};
  } else if (x == X_NEXT || x == X_NEXTFILE) {
    A->pend = x;
  }
  for (i = 0; i < np; i++) {
    if (loc[i].kind == C_SCALAR)
      av_free(A, &loc[i].v);
    else if (loc[i].kind == C_ARRAY)
      arr_free(A, loc[i].a);
  }
  mem_free(A->m, loc);
  return r;
}

aval awk_call_values(awk *A, int fi, aval *args, int nargs) {
  afunc *f = &A->funcs[fi];
  if (A->stop)
    return av_num(0);
  if (A->c->bud && budget_poll(A->c->bud)) {
    A->stop = 1;
    return av_num(0);
  }
  if (A->depth >= 1000 || stack_left() < STACK_RESERVE) {
    awk_fatal(A, "function call nesting too deep");
    return av_num(0);
  }
  int np = f->nparams;
  cell *loc = np ? mem_calloc(A->m, (size_t)np, sizeof *loc) : NULL;
  if (np && !loc) {
    awk_fatal(A, "out of memory");
    return av_num(0);
  }
  for (int i = 0; i < nargs && i < np; i++) {
    loc[i].kind = C_SCALAR;
    loc[i].v = av_copy(args[i]);
  }
  return run_frame(A, f, loc);
}

static aval call(awk *A, node *e) {
  afunc *f = &A->funcs[e->slot];
  /* Once stopped (an error, exit, a limit), no call runs its body: an
   * expression like f(n-1) + f(n-1) would otherwise go on calling, 2^depth
   * times. Every call polls the budget, so recursion without loops still
   * meets the deadline. */
  if (A->stop || A->exiting)
    return av_num(0);
  if (A->c->bud && budget_poll(A->c->bud)) {
    A->stop = 1;
    return av_num(0);
  }
  if (A->depth >= 1000 || stack_left() < STACK_RESERVE) {
    awk_fatal(A, "function call nesting too deep");
    return av_num(0);
  }
  int np = f->nparams;
  cell *loc = np ? mem_calloc(A->m, (size_t)np, sizeof *loc) : NULL;
  if (np && !loc) {
    awk_fatal(A, "out of memory");
    return av_num(0);
  }
  int i = 0;
  for (node *x = e->a; x; x = x->next, i++) {
    if (x->op == N_VAR) {
      cell *src = awk_cell(A, x);
      if (src->kind == C_ARRAY || src->kind == C_UNSET) {
        if (i < np) {
          loc[i].kind = C_REF;
          loc[i].ref = src;
        }
        continue;
      }
    }
    aval v = awk_eval(A, x);
    if (i < np) {
      loc[i].kind = C_SCALAR;
      loc[i].v = v;
    } else {
      av_free(A, &v);
    }
  }
  return run_frame(A, f, loc);
}

static aval concat(awk *A, node *e) {
  aval x = awk_eval(A, e->a), y = awk_eval(A, e->b);
  astr *s = av_tostr(A, &x, 0), *t = av_tostr(A, &y, 0);
  aval r = {V_STR, 0, 0, NULL};
  size_t n = (size_t)s->len + t->len;
  r.s = mem_alloc(A->m, sizeof(astr) + n + 1);
  if (!r.s) {
    r.t = V_UNINIT;
    awk_fatal(A, "out of memory");
  } else {
    r.s->refs = 1;
    r.s->len = r.s->cap = (uint32_t)n;
    memcpy(r.s->p, s->p, s->len);
    memcpy(r.s->p + s->len, t->p, t->len);
    r.s->p[n] = 0;
  }
  av_free(A, &x);
  av_free(A, &y);
  return r;
}

aval awk_eval(awk *A, node *e) {
  aval x, y;
  /* Operands recurse; a chain the parser accepted (- - - ... 1) must still
   * end before the fiber's stack does. */
  if (e->a && stack_left() < STACK_RESERVE) {
    awk_fatal(A, "expression nested too deeply");
    return av_num(0);
  }
  switch (e->op) {
  case N_NUM:
    return e->v;
  case N_STR:
    return av_copy(e->v);
  case N_ERE: {
    rebuild(A);
    are *re = re_node(A, e);
    if (!re)
      return av_num(0);
    return av_num(
        re_test(A, re, A->f0.s ? A->f0.s->p : "", A->f0.s ? A->f0.s->len : 0));
  }
  case N_GROUP:
    return awk_eval(A, e->a);
  case N_VAR:
    return read_var(A, e);
  case N_FIELD: {
    int i = field_index(A, e->a);
    if (i < 0)
      return av_num(0);
    return awk_get_field(A, i);
  }
  case N_INDEX: {
    aarr *a = awk_array(A, e->a);
    if (!a)
      return av_num(0);
    akey k;
    key_make(A, e->b, &k);
    aval *v = arr_get(A, a, k.p, k.n, 1);
    key_done(A, &k);
    return v ? av_copy(*v) : av_num(0);
  }
  case N_IN: {
    aarr *a = awk_array(A, e->b);
    if (!a)
      return av_num(0);
    akey k;
    key_make(A, e->a, &k);
    int r = arr_get(A, a, k.p, k.n, 0) != NULL;
    key_done(A, &k);
    return av_num(r);
  }
  case N_ASSIGN: {
    y = awk_eval(A, e->b);
    if (e->sub == T_ASSIGN) {
      if (y.t == V_NUM && y.s) { /* drop a cached conversion */
        as_unref(A, y.s);
        y.s = NULL;
      }
      aval *slot = lv_slot(A, e->a);
      if (slot) {
        av_free(A, slot);
        *slot = y;
        return av_copy(y);
      }
      aval r = av_copy(y);
      awk_assign_var(A, e->a, y);
      return r;
    }
    double d = av_tonum(A, &y);
    av_free(A, &y);
    aval *slot = lv_slot(A, e->a);
    if (slot) {
      double r = arith(A, e->sub, av_tonum(A, slot), d);
      av_free(A, slot);
      *slot = av_num(r);
      return av_num(r);
    }
    x = awk_eval(A, e->a);
    double r = arith(A, e->sub, av_tonum(A, &x), d);
    av_free(A, &x);
    awk_assign_var(A, e->a, av_num(r));
    return av_num(r);
  }
  case N_PREINC:
  case N_PREDEC:
  case N_POSTINC:
  case N_POSTDEC: {
    double delta = e->op == N_PREINC || e->op == N_POSTINC ? 1 : -1;
    int post = e->op == N_POSTINC || e->op == N_POSTDEC;
    aval *slot = lv_slot(A, e->a);
    double old;
    if (slot) {
      old = av_tonum(A, slot);
      av_free(A, slot);
      *slot = av_num(old + delta);
    } else {
      x = awk_eval(A, e->a);
      old = av_tonum(A, &x);
      av_free(A, &x);
      awk_assign_var(A, e->a, av_num(old + delta));
    }
    return av_num(post ? old : old + delta);
  }
  case N_COND:
    x = awk_eval(A, e->a);
    {
      int t = av_true(A, &x);
      av_free(A, &x);
      return awk_eval(A, t ? e->b : e->c);
    }
  case N_OR:
  case N_AND: {
    x = awk_eval(A, e->a);
    int t = av_true(A, &x);
    av_free(A, &x);
    if (e->op == N_OR ? t : !t)
      return av_num(t);
    y = awk_eval(A, e->b);
    t = av_true(A, &y);
    av_free(A, &y);
    return av_num(t);
  }
  case N_NOT:
    x = awk_eval(A, e->a);
    {
      int t = av_true(A, &x);
      av_free(A, &x);
      return av_num(!t);
    }
  case N_NEG:
  case N_UPLUS: {
    x = awk_eval(A, e->a);
    double d = av_tonum(A, &x);
    av_free(A, &x);
    return av_num(e->op == N_NEG ? -d : d);
  }
  case N_BIN: {
    x = awk_eval(A, e->a);
    y = awk_eval(A, e->b);
    double r = arith(A, e->sub, av_tonum(A, &x), av_tonum(A, &y));
    av_free(A, &x);
    av_free(A, &y);
    return av_num(r);
  }
  case N_CONCAT:
    return concat(A, e);
  case N_CMP: {
    x = awk_eval(A, e->a);
    y = awk_eval(A, e->b);
    int c = av_cmp(A, &x, &y), r;
    av_free(A, &x);
    av_free(A, &y);
    switch (e->sub) {
    case T_LT:
      r = c < 0;
      break;
    case T_LE:
      r = c <= 0;
      break;
    case T_GT:
      r = c > 0;
      break;
    case T_GE:
      r = c >= 0;
      break;
    case T_EQ:
      r = c == 0;
      break;
    default:
      r = c != 0;
      break;
    }
    return av_num(r);
  }
  case N_MATCH: {
    x = awk_eval(A, e->a);
    astr *s = av_tostr(A, &x, 0);
    int r = match_node(A, e->b, s->p, s->len);
    av_free(A, &x);
    return av_num(e->sub ? !r : r);
  }
  case N_CALL:
    return call(A, e);
  case N_BUILTIN:
    return awk_builtin(A, e);
  case N_GETLINE:
    return do_getline(A, e);
  default:
    return av_num(0);
  }
}

/* ---- statements --------------------------------------------------------- */

static int out_fail(awk *A, writer *w) {
  if (w->err == ECANCELED) {
    A->stop = 1;
    A->status = 1;
  } else if (w->err == EPIPE && w == &A->out) {
    A->stop = 1;
    A->status = 141;
  } else {
    awk_fatal(A, "write error: %s", bi_strerror(w->err));
  }
  return X_EXIT;
}

static int do_print(awk *A, node *s) {
  aval target = {V_UNINIT, 0, 0, NULL};
  if (s->sub != R_NONE)
    target = awk_eval(A, s->b);
  int rc = X_NORMAL;
  if (s->op == S_PRINTF) {
    aval f = awk_eval(A, s->a);
    astr *fs = av_tostr(A, &f, 0);
    buf o;
    buf_init(&o, A->m);
    awk_format(A, &o, fs->p, fs->len, s->a->next);
    av_free(A, &f);
    writer *w = A->stop ? NULL : io_out(A, s->sub, &target);
    if (w && wr_write(w, o.data ? o.data : "", o.len) < 0)
      rc = out_fail(A, w);
    if (w && w->s == A->c->err)
      wr_flush(w);
    buf_free(&o);
    av_free(A, &target);
    return rc;
  }
  writer *w = io_out(A, s->sub, &target);
  av_free(A, &target);
  if (!w)
    return X_EXIT;
  int bad = 0;
  if (!s->a) {
    rebuild(A);
    astr *r = A->f0.s;
    if (r)
      bad |= wr_write(w, r->p, r->len);
  } else {
    /* every argument first: an error in one prints nothing */
    aval stackv[8], *vals = stackv;
    size_t na = 0, i = 0;
    for (node *x = s->a; x; x = x->next)
      na++;
    if (na > 8 && !(vals = mem_alloc(A->m, na * sizeof *vals))) {
      awk_fatal(A, "out of memory");
      return X_EXIT;
    }
    for (node *x = s->a; x; x = x->next)
      vals[i++] = awk_eval(A, x);
    astr *ofs = gstr(A, SV_OFS);
    for (i = 0; i < na && !A->stop && !A->exiting; i++) {
      if (i)
        bad |= wr_write(w, ofs->p, ofs->len);
      astr *t = av_tostr(A, &vals[i], 1);
      if (A->stop) /* OFMT failed */
        break;
      bad |= wr_write(w, t->p, t->len);
    }
    for (i = 0; i < na; i++)
      av_free(A, &vals[i]);
    if (vals != stackv)
      mem_free(A->m, vals);
    if (A->stop || A->exiting)
      return X_EXIT;
  }
  astr *ors = gstr(A, SV_ORS);
  bad |= wr_write(w, ors->p, ors->len);
  if (bad)
    return out_fail(A, w);
  if (w->s == A->c->err)
    wr_flush(w);
  return rc;
}

static int cond(awk *A, node *e) {
  aval v = awk_eval(A, e);
  int t = av_true(A, &v);
  av_free(A, &v);
  return t;
}

static int exec_list(awk *A, node *s) {
  for (; s; s = s->next) {
    int r = exec(A, s);
    if (r)
      return r;
    if (A->pend) {
      r = A->pend;
      A->pend = 0;
      return r;
    }
    if (A->stop || A->exiting) /* exit inside a function ends it all */
      return X_EXIT;
  }
  return X_NORMAL;
}

static int loop_body(awk *A, node *b, int *brk) {
  int r = exec(A, b);
  if (A->pend) {
    r = A->pend;
    A->pend = 0;
  }
  *brk = 0;
  if (r == X_BREAK) {
    *brk = 1;
    return X_NORMAL;
  }
  if (r == X_CONTINUE)
    return X_NORMAL;
  if (r) {
    *brk = 1;
    return r;
  }
  if (A->stop || A->exiting) {
    *brk = 1;
    return X_EXIT;
  }
  /* Every iteration polls the budget, so a loop that never reads or writes
   * (while(1);) still ends at the deadline, a cancel or a limit. */
  if (A->c->bud && budget_poll(A->c->bud)) {
    A->stop = 1;
    *brk = 1;
    return X_EXIT;
  }
  return X_NORMAL;
}

/* Does the switch value v equal the case constant k (gawk's rules: a
 * regex matches, a number compares as one when v is numeric, anything
 * else as strings)? */
static int case_matches(awk *A, aval *v, node *k) {
  if (k->op == N_ERE) {
    astr *t = av_tostr(A, v, 0);
    are *re = re_node(A, k);
    return re && re_test(A, re, t->p, t->len);
  }
  double d;
  if (k->op == N_NUM &&
      (v->t == V_NUM ||
       (v->t == V_STRNUM && looks_numeric(v->s->p, v->s->len, &d))))
    return av_tonum(A, v) == k->v.n;
  aval kv = av_copy(k->v);
  int r = awk_strcmp(A, av_tostr(A, v, 0), av_tostr(A, &kv, 0)) == 0;
  av_free(A, &kv);
  return r;
}

static int exec_switch(awk *A, node *s) {
  aval v = awk_eval(A, s->a);
  node *start = NULL, *def = NULL;
  for (node *c = s->b; c && !start && !A->stop; c = c->next) {
    if (!c->a) {
      if (!def)
        def = c;
    } else if (case_matches(A, &v, c->a)) {
      start = c;
    }
  }
  av_free(A, &v);
  if (!start)
    start = def;
  int r = X_NORMAL;
  for (node *c = start; c && !A->stop; c = c->next) {
    r = exec(A, c->b);
    if (r == X_BREAK) /* ends the switch, not a loop around it */
      return X_NORMAL;
    if (r)
      return r;
  }
  return A->stop ? X_EXIT : r;
}

static int exec(awk *A, node *s) {
  int brk, r;
  A->curline = s->line;
  switch (s->op) {
  case S_BLOCK:
    return exec_list(A, s->a);
  case S_EXPR: {
    aval v = awk_eval(A, s->a);
    av_free(A, &v);
    return A->stop || A->exiting ? X_EXIT : X_NORMAL;
  }
  case S_PRINT:
  case S_PRINTF:
    return do_print(A, s);
  case S_IF:
    if (cond(A, s->a))
      return exec(A, s->b);
    return s->c ? exec(A, s->c) : X_NORMAL;
  case S_WHILE:
    while (!A->stop && cond(A, s->a)) {
      r = loop_body(A, s->b, &brk);
      if (brk)
        return r;
    }
    return A->stop ? X_EXIT : X_NORMAL;
  case S_DO:
    do {
      r = loop_body(A, s->b, &brk);
      if (brk)
        return r;
    } while (!A->stop && cond(A, s->a));
    return A->stop ? X_EXIT : X_NORMAL;
  case S_FOR:
    if (s->a && (r = exec(A, s->a)) != X_NORMAL)
      return r;
    while (!A->stop && (!s->b || cond(A, s->b))) {
      r = loop_body(A, s->d, &brk);
      if (brk)
        return r;
      if (s->c && (r = exec(A, s->c)) != X_NORMAL)
        return r;
    }
    return A->stop ? X_EXIT : X_NORMAL;
  case S_FORIN: {
    aarr *a = awk_array(A, s->b);
    if (!a)
      return X_EXIT;
    /* iterate over a snapshot of the keys: the body may delete */
    size_t n = a->n, i = 0;
    astr **keys = n ? mem_alloc(A->m, n * sizeof *keys) : NULL;
    if (n && !keys) {
      awk_fatal(A, "out of memory");
      return X_EXIT;
    }
    for (aent *e = a->first; e && i < n; e = e->next) {
      keys[i++] = e->k;
      e->k->refs++;
    }
    r = X_NORMAL;
    if (awk_sort_keys(A, a, keys, n) < 0) {
      r = X_EXIT;
      n = i;
      for (i = 0; i < n; i++)
        as_unref(A, keys[i]);
      mem_free(A->m, keys);
      return r;
    }
    for (i = 0; i < n; i++) {
      a = awk_array(A, s->b);
      if (!a || !arr_get(A, a, keys[i]->p, keys[i]->len, 0))
        continue; /* deleted meanwhile */
      aval kv = {V_STRNUM, 0, 0, keys[i]};
      keys[i]->refs++;
      awk_assign_var(A, s->a, kv);
      r = loop_body(A, s->d, &brk);
      if (brk)
        break;
    }
    for (i = 0; i < n; i++)
      as_unref(A, keys[i]);
    mem_free(A->m, keys);
    return r;
  }
  case S_NEXT:
    return X_NEXT;
  case S_NEXTFILE:
    return X_NEXTFILE;
  case S_EXIT:
    if (s->a) {
      aval v = awk_eval(A, s->a);
      A->status = (int)(awk_toll(av_tonum(A, &v)) & 0xff);
      av_free(A, &v);
    }
    A->exiting = 1;
    return X_EXIT;
  case S_RETURN:
    av_free(A, &A->retval);
    if (s->a) {
      A->retval = awk_eval(A, s->a);
    }
    return X_RETURN;
  case S_BREAK:
    return X_BREAK;
  case S_CONTINUE:
    return X_CONTINUE;
  case S_SWITCH:
    return exec_switch(A, s);
  case S_DELETE: {
    aarr *a = awk_array(A, s->a);
    if (!a)
      return X_EXIT;
    if (!s->b) {
      arr_clear(A, a);
      return X_NORMAL;
    }
    akey k;
    key_make(A, s->b, &k);
    arr_del(A, a, k.p, k.n);
    key_done(A, &k);
    return X_NORMAL;
  }
  default:
    return X_NORMAL;
  }
}

void awk_cmdline_assign(awk *A, const char *s);

static int run_items(awk *A, item *it);

/* The current main input is done: closed, then the ENDFILE rules. */
static void end_file(awk *A) {
  if (!A->main_open)
    return;
  if (A->main_sb.on)
    buf_free(&A->main_sb.b);
  A->main_sb.on = 0;
  rd_free(&A->main_rd);
  stream_unref(A->main_s);
  A->main_s = NULL;
  A->main_open = 0;
  if (A->efile && !A->stop && run_items(A, A->efile) == X_EXIT)
    A->exiting = 1;
}

/* Next record of the main input (ARGV files, else stdin) into A->para:
 * 1, 0 at the end, -1 on error. line is unused. */
int awk_next_main_record(awk *A, buf *line) {
  (void)line;
  for (;;) {
    if (A->stop || A->exiting)
      return -1;
    if (A->main_open) {
      const char *p;
      size_t n;
      int rc = awk_read_rec(A, &A->main_rd, &A->main_sb, &p, &n);
      if (rc == 1) {
        if (p != A->para.data) {
          buf_clear(&A->para);
          buf_append(&A->para, p, n);
        }
        return 1;
      }
      end_file(A);
      if ((rc < 0 && A->stop) || A->stop || A->exiting)
        return -1;
    }
    if (A->main_eof)
      return 0;
    /* open the next operand */
    aval *argc = &A->globals[SV_ARGC].v;
    int nargs = awk_toint(av_tonum(A, argc));
    const char *name = NULL;
    while (A->argi < nargs) {
      char key[32];
      int kl = snprintf(key, sizeof key, "%d", A->argi++);
      aarr *av =
          A->globals[SV_ARGV].kind == C_ARRAY ? A->globals[SV_ARGV].a : NULL;
      aval *v = av ? arr_get(A, av, key, (size_t)kl, 0) : NULL;
      if (!v)
        continue;
      astr *s = av_tostr(A, v, 0);
      if (s->len == 0)
        continue;
      if (awk_valid_assign(s->p)) {
        awk_cmdline_assign(A, s->p);
        continue;
      }
      name = s->p;
      break;
    }
    if (!name) {
      if (A->ranbegin) { /* a file was read: done */
        A->main_eof = 1;
        return 0;
      }
      name = "-";
      A->main_eof = 1;
    }
    A->ranbegin = 1;
    int err = 0;
    stream *st = bi_open_read(A->c, name, &err);
    av_free(A, &A->globals[SV_FILENAME].v);
    A->globals[SV_FILENAME].v = av_str(A, name, strlen(name));
    A->globals[SV_FILENAME].kind = C_SCALAR;
    A->fnr = 0;
    if (A->bfile) {
      /* ERRNO tells BEGINFILE that the file cannot be read */
      for (int i = SV_COUNT; i < A->ngl; i++)
        if (strcmp(A->gnames[i], "ERRNO") == 0 &&
            A->globals[i].kind != C_ARRAY) {
          const char *e = st ? "" : bi_strerror(err);
          av_free(A, &A->globals[i].v);
          A->globals[i].v = av_str(A, e, strlen(e));
          A->globals[i].kind = C_SCALAR;
        }
      int x = run_items(A, A->bfile);
      if (x == X_NEXTFILE || A->exiting || A->stop) {
        if (st)
          stream_unref(st);
        if (x == X_NEXTFILE && st && A->efile && !A->stop &&
            run_items(A, A->efile) == X_EXIT)
          A->exiting = 1;
        continue;
      }
    }
    if (!st) { /* gawk stops at a file it cannot read */
      wr_flush(&A->out);
      buf b;
      buf_init(&b, A->m);
      if (A->curline > 0) /* gawk names the line of the last rule run */
        awk_where(A, &b, A->curline);
      else
        buf_puts(&b, "awk: ");
      buf_printf(&b, "fatal: cannot open file `%s' for reading: %s\n", name,
                 bi_strerror(err));
      stream_write(A->c->err, b.data ? b.data : "", b.len);
      buf_free(&b);
      A->status = 2;
      A->stop = 1;
      return -1;
    }
    A->main_s = st;
    rd_init(&A->main_rd, A->m, st);
    rd_flush_to(&A->main_rd, &A->out);
    A->main_open = 1;
  }
}

static int run_items(awk *A, item *it) {
  for (; it && !A->stop; it = it->next) {
    int r = exec(A, it->act);
    if (A->pend) {
      r = A->pend;
      A->pend = 0;
    }
    if (r == X_EXIT || A->exiting)
      return X_EXIT;
    if (r == X_NEXTFILE) /* BEGINFILE: skip the file */
      return r;
  }
  return X_NORMAL;
}

int awk_run(awk *A) {
  if (A->begin && run_items(A, A->begin) == X_EXIT)
    goto end;
  if (!A->main && !A->end && !A->bfile && !A->efile)
    goto done;
  while (!A->stop && awk_next_main_record(A, NULL) == 1) {
    awk_set_record(A, A->para.data ? A->para.data : "", A->para.len);
    A->nr++;
    A->fnr++;
    for (item *it = A->main; it; it = it->next) {
      int sel;
      if (!it->pat) {
        sel = 1;
      } else if (!it->pat2) {
        sel = cond(A, it->pat);
      } else if (it->inrange) {
        sel = 1;
        if (cond(A, it->pat2))
          it->inrange = 0;
      } else if (cond(A, it->pat)) {
        sel = 1;
        it->inrange = !cond(A, it->pat2);
      } else {
        sel = 0;
      }
      if (A->exiting) /* exit in a function the pattern called */
        goto end;
      if (A->stop)
        break;
      if (!sel)
        continue;
      int r;
      if (!it->act) {
        node pr = {0};
        pr.op = S_PRINT;
        r = do_print(A, &pr);
      } else {
        r = exec(A, it->act);
      }
      if (A->pend) {
        r = A->pend;
        A->pend = 0;
      }
      if (r == X_NEXT)
        break;
      if (r == X_NEXTFILE) {
        end_file(A);
        break;
      }
      if (r == X_EXIT || A->exiting)
        goto end;
    }
  }
end:
  if (!A->stop) {
    A->exiting = 0;
    run_items(A, A->end);
  }
done:
  return A->status;
}
