/*
 * vm.c - bc's machine: names, constants, variables (a stack of values
 * each, for the dynamic scoping of parameters and autos), arrays, calls
 * and the loop that runs compiled code.
 *
 * A runtime error prints GNU's "Runtime error (func=F, adr=N): ..." and
 * abandons the rest of the line; calls nest at most BC_CALL_DEPTH deep.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "builtins/data/bc/bc.h"

void bc_error_msg(bc *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n >= sizeof tmp)
    n = sizeof tmp - 1;
  wr_flush(&b->w);
  stream_write(b->c->err, tmp, (size_t)n);
}

void bc_fatal(bc *b) {
  if (b->fatal || b->stopped)
    return;
  if (b->e.err == BN_ESTOP || budget_poll(b->c->bud)) {
    b->stopped = 1;
    return;
  }
  b->fatal = 1;
  wr_flush(&b->w);
  bi_error(b->c, "%s", bi_strerror(12 /* ENOMEM */));
}

static int grow(bc *b, void **p, size_t *cap, size_t need, size_t size) {
  if (need <= *cap)
    return 0;
  size_t nc = *cap ? *cap * 2 : 16;
  while (nc < need)
    nc *= 2;
  void *np = mem_realloc(b->e.m, *p, nc * size);
  if (!np)
    return -1;
  memset((char *)np + *cap * size, 0, (nc - *cap) * size);
  *p = np;
  *cap = nc;
  return 0;
}

int bc_name(bc *b, bc_names *t, const char *s, size_t n) {
  for (size_t i = 0; i < t->n; i++)
    if (strlen(t->v[i]) == n && !memcmp(t->v[i], s, n))
      return (int)i;
  if (t->n >= 32767)
    return -1;
  if (grow(b, (void **)&t->v, &t->cap, t->n + 1, sizeof *t->v))
    return -1;
  int r;
  if (t == &b->vnames)
    r = grow(b, (void **)&b->vars, &b->nvars_cap, t->n + 1, sizeof *b->vars);
  else if (t == &b->anames)
    r = grow(b, (void **)&b->arrs, &b->narrs_cap, t->n + 1, sizeof *b->arrs);
  else
    r = grow(b, (void **)&b->funcs, &b->nfuncs_cap, t->n + 1, sizeof *b->funcs);
  char *cp = r ? NULL : mem_strndup(b->e.m, s, n);
  if (!cp)
    return -1;
  t->v[t->n] = cp;
  if (t == &b->fnames)
    b->funcs[t->n].name = cp;
  return (int)t->n++;
}

bc_func *bc_func_at(bc *b, int idx) {
  return idx >= 0 && (size_t)idx < b->fnames.n ? &b->funcs[idx] : NULL;
}

int bc_emit(bc *b, bc_code *k, int v) {
  if (grow(b, (void **)&k->v, &k->cap, k->n + 1, sizeof *k->v)) {
    bc_fatal(b);
    return -1;
  }
  k->v[k->n++] = v;
  return 0;
}

int bc_add_const(bc *b, const char *s, size_t n) {
  if (grow(b, (void **)&b->consts, &b->consts_cap, b->nconsts + 1,
           sizeof *b->consts))
    goto oom;
  char *t = mem_strndup(b->e.m, s, n);
  if (!t)
    goto oom;
  b->consts[b->nconsts].text = t;
  b->consts[b->nconsts].cache = NULL;
  return (int)b->nconsts++;
oom:
  bc_fatal(b);
  return -1;
}

int bc_add_str(bc *b, const char *s, size_t n) {
  if (grow(b, (void **)&b->strs, &b->strs_cap, b->nstrs + 1, sizeof *b->strs))
    goto oom;
  char *t = mem_strndup(b->e.m, s, n);
  if (!t)
    goto oom;
  b->strs[b->nstrs] = t;
  return (int)b->nstrs++;
oom:
  bc_fatal(b);
  return -1;
}

/* ---- the machine ----------------------------------------------------------
 */

typedef struct run {
  bc *b;
  int err; /* a runtime error ended the line */
} run;

static const char *fname(bc *b) {
  bc_frame *f = &b->frames[b->nframes - 1];
  return f->fidx < 0 ? "(main)" : b->funcs[f->fidx].name;
}

static void rt_error(run *r, size_t adr, const char *fmt, const char *arg) {
  bc *b = r->b;
  char msg[256];
  snprintf(msg, sizeof msg, fmt, arg ? arg : "");
  bc_error_msg(b, "Runtime error (func=%s, adr=%zu): %s\n", fname(b), adr, msg);
  r->err = 1;
}

static void rt_warn(run *r, size_t adr, const char *msg) {
  bc_error_msg(r->b, "Runtime warning (func=%s, adr=%zu): %s\n", fname(r->b),
               adr, msg);
}

/* An error of the number library: its message, or the end of bc. */
static void num_error(run *r, size_t adr, int op) {
  bc *b = r->b;
  int err = b->e.err;
  b->e.err = 0;
  switch (err) {
  case BN_EDIV0:
    /* a negative power divides inside raise, which words it so */
    rt_error(r, adr,
             op == OP_MOD   ? "Modulo by zero"
             : op == OP_POW ? "divide by zero"
                            : "Divide by zero",
             NULL);
    break;
  case BN_ENEG:
    rt_error(r, adr, "Square root of a negative number", NULL);
    break;
  case BN_EEXP:
    rt_error(r, adr, "exponent too large in raise", NULL);
    break;
  case BN_ELIMIT: {
    char m[96];
    snprintf(m, sizeof m, "number too long (the limit is %zu digits)",
             b->e.max_digits);
    rt_error(r, adr, "%s", m);
    break;
  }
  case BN_ESTOP:
    b->stopped = 1;
    r->err = 1;
    break;
  default:
    b->e.err = BN_EOOM;
    bc_fatal(b);
    r->err = 1;
    break;
  }
}

static int push(run *r, bn *v, int arr) {
  bc *b = r->b;
  if (!v && arr < 0)
    return -1;
  if (b->sp >= BC_STACK_MAX) {
    bn_free(&b->e, v);
    rt_error(r, 0, "stack overflow", NULL);
    return -1;
  }
  if (grow(b, (void **)&b->stack, &b->stack_cap, b->sp + 1, sizeof *b->stack)) {
    bn_free(&b->e, v);
    b->e.err = BN_EOOM;
    return -1;
  }
  b->stack[b->sp].n = v;
  b->stack[b->sp].arr = arr;
  b->sp++;
  return 0;
}

static bn *pop(bc *b) {
  if (!b->sp)
    return NULL;
  return b->stack[--b->sp].n;
}

static void var_pop(bc *b, int idx) {
  bc_var *v = b->vars[idx];
  if (v) {
    b->vars[idx] = v->prev;
    bn_free(&b->e, v->v);
    mem_free(b->e.m, v);
  }
}

static void arr_free(bc *b, bc_arr *a) {
  for (size_t i = 0; i < a->n; i++)
    bn_free(&b->e, a->v[i]);
  mem_free(b->e.m, a->v);
  mem_free(b->e.m, a);
}

static void arr_pop(bc *b, int idx) {
  bc_arr *a = b->arrs[idx];
  if (a) {
    b->arrs[idx] = a->prev;
    arr_free(b, a);
  }
}

/* A new top of variable idx holding v (owned). */
static int var_push(bc *b, int idx, bn *v) {
  bc_var *n = mem_alloc(b->e.m, sizeof *n);
  if (!n) {
    bn_free(&b->e, v);
    return -1;
  }
  n->v = v;
  n->prev = b->vars[idx];
  b->vars[idx] = n;
  return 0;
}

/* A new top of array idx, a copy of from (or empty). 0, -1 when memory
 * ran out after the new top was linked, 1 when before. */
static int arr_push(bc *b, int idx, const bc_arr *from) {
  bc_arr *a = mem_calloc(b->e.m, 1, sizeof *a);
  if (!a)
    return 1;
  a->prev = b->arrs[idx];
  b->arrs[idx] = a;
  if (from && from->n) {
    a->v = mem_calloc(b->e.m, from->n, sizeof *a->v);
    if (!a->v)
      return -1;
    a->n = from->n;
    for (size_t i = 0; i < from->n; i++)
      if (from->v[i] && !(a->v[i] = bn_copy(&b->e, from->v[i])))
        return -1;
  }
  return 0;
}

/* The slot of element i of array idx, created with its parents. */
static bn **arr_slot(bc *b, int idx, size_t i, int create) {
  bc_arr *a = b->arrs[idx];
  if (!a) {
    if (!create)
      return NULL;
    if (arr_push(b, idx, NULL))
      return NULL; /* an empty top needs no undoing */
    a = b->arrs[idx];
  }
  if (i >= a->n) {
    if (!create)
      return NULL;
    size_t nc = a->n ? a->n : 16;
    while (nc <= i)
      nc *= 2;
    bn **nv = mem_realloc(b->e.m, a->v, nc * sizeof *nv);
    if (!nv)
      return NULL;
    memset(nv + a->n, 0, (nc - a->n) * sizeof *nv);
    a->v = nv;
    a->n = nc;
  }
  return &a->v[i];
}

static int array_index(run *r, size_t adr, int idx, long *out) {
  bc *b = r->b;
  bn *iv = pop(b);
  int ok = 0;
  long i = iv ? bn_to_long(iv, &ok) : 0;
  bn_free(&b->e, iv);
  if (!ok || i < 0 || i >= BC_DIM_MAX) {
    rt_error(r, adr, "Array %s subscript out of bounds.", b->anames.v[idx]);
    return -1;
  }
  *out = i;
  return 0;
}

static bn *load(run *r, size_t adr, int lv, long *aidx) {
  bc *b = r->b;
  int idx = LV_IDX(lv);
  switch (LV_KIND(lv)) {
  case LV_VAR:
    return b->vars[idx] && b->vars[idx]->v ? bn_copy(&b->e, b->vars[idx]->v)
                                           : bn_from_long(&b->e, 0);
  case LV_ARR: {
    if (array_index(r, adr, idx, aidx))
      return NULL;
    bn **s = arr_slot(b, idx, (size_t)*aidx, 0);
    return s && *s ? bn_copy(&b->e, *s) : bn_from_long(&b->e, 0);
  }
  case LV_SCALE:
    return bn_from_long(&b->e, b->scale);
  case LV_IBASE:
    return bn_from_long(&b->e, b->ibase);
  case LV_OBASE:
    return bn_from_long(&b->e, b->obase);
  default:
    return b->last ? bn_copy(&b->e, b->last) : bn_from_long(&b->e, 0);
  }
}

/* Store a copy of v. Returns -1 on a runtime error or memory. */
static int store(run *r, size_t adr, int lv, const bn *v, long aidx) {
  bc *b = r->b;
  int idx = LV_IDX(lv);
  int kind = LV_KIND(lv);
  if (kind == LV_SCALE || kind == LV_IBASE || kind == LV_OBASE) {
    int ok;
    long x = bn_to_long(v, &ok);
    if (kind == LV_SCALE) {
      if (v->neg && !bn_is_zero(v)) {
        rt_warn(r, adr, "negative scale, set to 0");
        x = 0;
      } else if (!ok || x > BC_SCALE_MAX) {
        rt_warn(r, adr, "scale too large, set to 2147483647");
        x = BC_SCALE_MAX;
      }
      b->scale = x;
    } else if (kind == LV_IBASE) {
      if (v->neg || (ok && x < 2)) {
        rt_warn(r, adr, "ibase too small, set to 2");
        x = 2;
      } else if (!ok || x > 36) {
        rt_warn(r, adr, "ibase too large, set to 36");
        x = 36;
      }
      b->ibase = x;
    } else {
      if (v->neg || (ok && x < 2)) {
        rt_warn(r, adr, "obase too small, set to 2");
        x = 2;
      } else if (!ok || x > BC_BASE_MAX) {
        rt_warn(r, adr, "obase too large, set to 2147483647");
        x = BC_BASE_MAX;
      }
      b->obase = x;
    }
    return 0;
  }
  bn *cp = bn_copy(&b->e, v);
  if (!cp)
    return -1;
  if (kind == LV_VAR) {
    if (!b->vars[idx])
      return var_push(b, idx, cp);
    bn_free(&b->e, b->vars[idx]->v);
    b->vars[idx]->v = cp;
  } else if (kind == LV_ARR) {
    bn **s = arr_slot(b, idx, (size_t)aidx, 1);
    if (!s) {
      bn_free(&b->e, cp);
      return -1;
    }
    bn_free(&b->e, *s);
    *s = cp;
  } else {
    bn_free(&b->e, b->last);
    b->last = cp;
  }
  return 0;
}

static void print_num(bc *b, const bn *v, int nl) {
  bn_print(&b->e, &b->out, v, (int)b->obase);
  if (nl)
    bn_out_char(&b->out, '\n');
}

static void print_escaped(bc *b, const char *s) {
  for (; *s; s++) {
    if (*s != '\\') {
      bn_out_char(&b->out, (unsigned char)*s);
      continue;
    }
    if (!*++s)
      break;
    const char *from = "abfnqrt\\", *to = "\a\b\f\n\"\r\t\\";
    const char *k = strchr(from, *s);
    if (k)
      bn_out_char(&b->out, to[k - from]);
  }
}

static void set_last(bc *b, bn *v) {
  bn_free(&b->e, b->last);
  b->last = v;
}

/* Leave a function: its locals go, the frame goes. */
static void leave(bc *b) {
  bc_frame *f = &b->frames[b->nframes - 1];
  if (f->fidx >= 0) {
    bc_func *fn = &b->funcs[f->fidx];
    for (int i = 0; i < f->pushed; i++) {
      int lv = fn->params[i];
      if (LV_KIND(lv) == LV_ARR)
        arr_pop(b, LV_IDX(lv));
      else
        var_pop(b, lv);
    }
  }
  b->nframes--;
}

static int call(run *r, size_t at, const int *code) {
  bc *b = r->b;
  int fidx = code[at + 1], n = code[at + 2];
  bc_func *fn = &b->funcs[fidx];
  if (!fn->defined) {
    rt_error(r, at + 2, "Function %s not defined.", fn->name);
    return -1;
  }
  /* GNU bc's code lists the arguments last first and checks them so
   * against the parameters, last first: its messages follow that order */
  for (int i = 0; i < n && i < fn->nparams; i++) {
    int lv = fn->params[fn->nparams - 1 - i];
    if ((LV_KIND(lv) == LV_ARR) != (code[at + 3 + n - 1 - i] == 1)) {
      const char *pn =
          LV_KIND(lv) == LV_ARR ? b->anames.v[LV_IDX(lv)] : b->vnames.v[lv];
      rt_error(r, at + 3 + (size_t)i, "Parameter type mismatch parameter %s.",
               pn);
      rt_error(r, at + 3 + (size_t)n, "Parameter number mismatch", NULL);
      return -1;
    }
  }
  if (n != fn->nparams) {
    rt_error(r, at + 3 + (size_t)n, "Parameter number mismatch", NULL);
    return -1;
  }
  if (b->nframes >= BC_CALL_DEPTH) {
    rt_error(r, at + 3 + (size_t)n,
             "function call nesting too deep (the limit is %s calls)", "2000");
    return -1;
  }
  /* the arguments are the top n entries of the stack */
  size_t base = b->sp - (size_t)n;
  bc_frame *f = &b->frames[b->nframes];
  f->fidx = fidx;
  f->code = fn->code.v;
  f->n = fn->code.n;
  f->pc = 0;
  b->nframes++;
  f->pushed = 0;
  int fail = 0;
  for (int i = 0; i < fn->nlocals && !fail; i++) {
    int lv = fn->params[i];
    if (LV_KIND(lv) == LV_ARR) {
      const bc_arr *from = NULL;
      if (i < n) {
        int src = b->stack[base + (size_t)i].arr;
        from = src >= 0 ? b->arrs[src] : NULL;
      }
      int rc = arr_push(b, LV_IDX(lv), from);
      if (rc != 1)
        f->pushed++;
      fail = rc != 0;
    } else {
      bn *v = NULL;
      if (i < n) {
        v = b->stack[base + (size_t)i].n;
        b->stack[base + (size_t)i].n = NULL;
      }
      if (!v)
        v = bn_from_long(&b->e, 0);
      if (!v || var_push(b, lv, v))
        fail = 1;
      else
        f->pushed++;
    }
  }
  while (b->sp > base)
    bn_free(&b->e, b->stack[--b->sp].n);
  f->sp = b->sp;
  if (fail) {
    b->e.err = BN_EOOM;
    return -1;
  }
  return 0;
}

static int binop(run *r, size_t adr, int op) {
  bc *b = r->b;
  bn *y = pop(b), *x = pop(b), *z = NULL;
  bn_env *e = &b->e;
  size_t sc = (size_t)b->scale;
  switch (op) {
  case OP_ADD:
    z = bn_add(e, x, y);
    break;
  case OP_SUB:
    z = bn_sub(e, x, y);
    break;
  case OP_MUL:
    z = bn_mul(e, x, y, sc);
    break;
  case OP_DIV:
    z = bn_div(e, x, y, sc);
    break;
  case OP_MOD:
    z = bn_mod(e, x, y, sc);
    break;
  case OP_POW:
    if (y->scale) {
      rt_warn(r, adr, "non-zero scale in exponent");
      y->scale = 0;
    }
    z = bn_pow(e, x, y, sc);
    break;
  default: {
    int c = bn_cmp(x, y);
    int t = op == OP_EQ   ? c == 0
            : op == OP_NE ? c != 0
            : op == OP_LT ? c < 0
            : op == OP_LE ? c <= 0
            : op == OP_GT ? c > 0
                          : c >= 0;
    z = bn_from_long(e, t);
  }
  }
  bn_free(e, x);
  bn_free(e, y);
  if (!z) {
    num_error(r, adr, op);
    return -1;
  }
  return push(r, z, -1);
}

static int step_incdec(run *r, size_t at, const int *code) {
  bc *b = r->b;
  int lv = code[at + 1], fl = code[at + 2];
  size_t adr = at + (LV_KIND(lv) == LV_ARR ? 5 : 4);
  long ai = 0;
  bn *old = load(r, adr, lv, &ai);
  if (!old)
    return -1;
  bn *one = bn_from_long(&b->e, 1);
  bn *nv =
      one ? (fl & ID_DEC ? bn_sub(&b->e, old, one) : bn_add(&b->e, old, one))
          : NULL;
  bn_free(&b->e, one);
  if (!nv || store(r, adr, lv, nv, ai)) {
    bn_free(&b->e, old);
    bn_free(&b->e, nv);
    return -1;
  }
  if (fl & ID_PRE) {
    bn_free(&b->e, old);
    return push(r, nv, -1);
  }
  bn_free(&b->e, nv);
  return push(r, old, -1);
}

static int oneop(run *r, size_t adr, int op) {
  bc *b = r->b;
  bn *x = pop(b), *z = NULL;
  switch (op) {
  case OP_NEG:
    z = x;
    x = NULL;
    if (!bn_is_zero(z))
      z->neg = !z->neg;
    break;
  case OP_NOT:
    z = bn_from_long(&b->e, bn_is_zero(x));
    break;
  case OP_SQRT:
    z = bn_sqrt(&b->e, x, (size_t)b->scale);
    break;
  case OP_LENGTH:
    z = bn_from_long(&b->e, (long)bn_length(x));
    break;
  default:
    z = bn_from_long(&b->e, (long)x->scale);
    break;
  }
  bn_free(&b->e, x);
  if (!z) {
    num_error(r, adr, op);
    return -1;
  }
  return push(r, z, -1);
}

void bc_run(bc *b, const int *code, size_t n) {
  run rr = {b, 0}, *r = &rr;
  if (!b->frames) {
    b->frames = mem_alloc(b->e.m, BC_CALL_DEPTH * sizeof *b->frames);
    if (!b->frames) {
      bc_fatal(b);
      return;
    }
  }
  b->nframes = 1;
  b->frames[0] = (bc_frame){-1, code, n, 0, 0, 0};
  unsigned tick = 0;
  while (!r->err && !b->halted) {
    bc_frame *f = &b->frames[b->nframes - 1];
    if ((++tick & 127) == 0 && budget_poll(b->c->bud)) {
      b->stopped = 1;
      break;
    }
    if (f->pc >= f->n) {
      if (f->fidx < 0)
        break;
      leave(b);
      if (push(r, bn_from_long(&b->e, 0), -1)) {
        num_error(r, f->pc, OP_RET0);
        break;
      }
      continue;
    }
    size_t at = f->pc;
    const int *c = f->code;
    int op = c[at];
    int rc = 0;
    switch (op) {
    case OP_PAD:
      f->pc++;
      continue;
    case OP_ZERO:
    case OP_ONE:
      rc = push(r, bn_from_long(&b->e, op == OP_ONE), -1);
      f->pc = at + 1;
      break;
    case OP_CONST: {
      bc_const *k = &b->consts[c[at + 1]];
      f->pc = at + 2 + strlen(k->text);
      if (!k->cache || k->cache_base != b->ibase) {
        bn_free(&b->e, k->cache);
        k->cache = bn_parse(&b->e, k->text, strlen(k->text), (int)b->ibase, 1);
        k->cache_base = (int)b->ibase;
        if (!k->cache) {
          num_error(r, f->pc, OP_CONST);
          break;
        }
      }
      rc = push(r, bn_copy(&b->e, k->cache), -1);
      break;
    }
    case OP_LOAD: {
      long ai;
      f->pc = at + 2;
      bn *v = load(r, f->pc, c[at + 1], &ai);
      rc = v ? push(r, v, -1) : -1;
      break;
    }
    case OP_STORE: {
      f->pc = at + 2;
      int lv = c[at + 1];
      bn *v = pop(b);
      long ai = 0;
      if (LV_KIND(lv) == LV_ARR && array_index(r, f->pc, LV_IDX(lv), &ai)) {
        bn_free(&b->e, v);
        break;
      }
      if (store(r, f->pc, lv, v, ai)) {
        bn_free(&b->e, v);
        rc = -1;
        break;
      }
      rc = push(r, v, -1);
      break;
    }
    case OP_INCDEC:
      f->pc = at + (LV_KIND(c[at + 1]) == LV_ARR ? 5 : 4);
      rc = step_incdec(r, at, c);
      break;
    case OP_DUP:
      f->pc = at + 1;
      rc = push(r, bn_copy(&b->e, b->stack[b->sp - 1].n), -1);
      break;
    case OP_POP:
      f->pc = at + 1;
      bn_free(&b->e, pop(b));
      break;
    case OP_PRINT:
    case OP_PRINTV: {
      f->pc = at + 1;
      bn *v = pop(b);
      print_num(b, v, op == OP_PRINT);
      set_last(b, v);
      if (b->e.err)
        num_error(r, f->pc, op);
      break;
    }
    case OP_STR:
    case OP_PSTR: {
      const char *s = b->strs[c[at + 1]];
      f->pc = at + 2 + strlen(s);
      if (op == OP_STR)
        bn_out_str(&b->out, s, strlen(s));
      else
        print_escaped(b, s);
      break;
    }
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_DIV:
    case OP_MOD:
    case OP_POW:
    case OP_EQ:
    case OP_NE:
    case OP_LT:
    case OP_LE:
    case OP_GT:
    case OP_GE:
      f->pc = at + 1;
      rc = binop(r, f->pc, op);
      break;
    case OP_NEG:
    case OP_NOT:
      f->pc = at + 1;
      rc = oneop(r, f->pc, op);
      break;
    case OP_SQRT:
    case OP_LENGTH:
    case OP_SCALEF:
      f->pc = at + 2;
      rc = oneop(r, f->pc, op);
      break;
    case OP_JUMP:
      f->pc = (size_t)c[at + 1];
      break;
    case OP_JZ:
    case OP_JNZ: {
      bn *v = pop(b);
      int z = bn_is_zero(v);
      bn_free(&b->e, v);
      f->pc = (op == OP_JZ) == z ? (size_t)c[at + 1] : at + 3;
      break;
    }
    case OP_ARRARG:
      f->pc = at + 3;
      rc = push(r, NULL, c[at + 1]);
      break;
    case OP_CALL:
      f->pc = at + 3 + (size_t)c[at + 2];
      rc = call(r, at, c);
      break;
    case OP_RET:
    case OP_RET0: {
      bn *v = op == OP_RET ? pop(b) : bn_from_long(&b->e, 0);
      if (f->fidx < 0) {
        bn_free(&b->e, v);
        f->pc = f->n;
        break;
      }
      leave(b);
      rc = push(r, v, -1);
      break;
    }
    case OP_READ:
      f->pc = at + 1;
      rt_error(r, f->pc, "read() is not supported", NULL);
      break;
    case OP_HALT:
      b->halted = 1;
      break;
    default:
      f->pc = at + 1;
      break;
    }
    if (rc && !r->err) {
      if (!b->e.err)
        b->e.err = BN_EOOM;
      num_error(r, f->pc, op);
    }
  }
  /* unwind what an error left */
  while (b->nframes > 1)
    leave(b);
  while (b->sp)
    bn_free(&b->e, b->stack[--b->sp].n);
  wr_flush(&b->w);
}

void bc_free_all(bc *b) {
  for (size_t i = 0; i < b->vnames.n; i++)
    while (b->vars[i])
      var_pop(b, (int)i);
  for (size_t i = 0; i < b->anames.n; i++)
    while (b->arrs[i])
      arr_pop(b, (int)i);
  for (size_t i = 0; i < b->fnames.n; i++) {
    mem_free(b->e.m, b->funcs[i].code.v);
    mem_free(b->e.m, b->funcs[i].params);
  }
  bc_names *t[3] = {&b->vnames, &b->anames, &b->fnames};
  for (int k = 0; k < 3; k++) {
    for (size_t i = 0; i < t[k]->n; i++)
      mem_free(b->e.m, t[k]->v[i]);
    mem_free(b->e.m, t[k]->v);
  }
  for (size_t i = 0; i < b->nconsts; i++) {
    mem_free(b->e.m, b->consts[i].text);
    bn_free(&b->e, b->consts[i].cache);
  }
  for (size_t i = 0; i < b->nstrs; i++)
    mem_free(b->e.m, b->strs[i]);
  mem_free(b->e.m, b->consts);
  mem_free(b->e.m, b->strs);
  mem_free(b->e.m, b->vars);
  mem_free(b->e.m, b->arrs);
  mem_free(b->e.m, b->funcs);
  mem_free(b->e.m, b->main.v);
  mem_free(b->e.m, b->stack);
  mem_free(b->e.m, b->frames);
  bn_free(&b->e, b->last);
}
