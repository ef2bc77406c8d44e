/*
 * eval.c - the evaluator. jq_eval(n, env, in, path, cb) calls cb once for
 * each output of n applied to in, in order; a non-zero return of cb (an
 * error downstream, a break, a halt) ends the generation and is passed up.
 * path is JV_INVALID unless the caller tracks paths (path(f), updates), in
 * which case each output comes with the path that reaches it from the
 * root of the path expression.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "builtins/data/jq/jq.h"

#define JQ_PEND 32
/* without a fiber (unit tests), the C stack used is measured from the
 * command's first frame */
#define JQ_NOFIBER_STACK ((size_t)3 * 1024 * 1024)
#define JQ_STACK_RESERVE ((size_t)192 * 1024)

int jq_error(jqs *J, jv v) {
  jv_free(J, J->err);
  J->err = v;
  return JR_ERR;
}

int jq_errf(jqs *J, const char *fmt, ...) {
  char b[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  jv s = jv_cstr(J, b);
  if (!jv_ok(s)) {
    budget_set_stop(J->bud, BUDGET_MEMORY, 0);
    return JR_HALT;
  }
  return jq_error(J, s);
}

int jq_poll(jqs *J) {
  return budget_poll(J->bud) ? JR_HALT : JR_OK;
}

/* a value that could not be made: out of memory, or an error already set */
static int fail(jqs *J) {
  if (J->err.k == JV_INVALID) {
    budget_set_stop(J->bud, BUDGET_MEMORY, 0);
    return JR_HALT;
  }
  return JR_ERR;
}

static jv path_add(jqs *J, jv path, jv k) {
  if (!jv_ok(path)) {
    jv_free(J, k);
    return path;
  }
  return jv_apush(J, path, k);
}

static int emit(jqs *J, jv v, jv path, jcb cb, void *ud, int tracking) {
  if (!jv_ok(v) || (tracking && !jv_ok(path))) {
    jv_free(J, v);
    jv_free(J, path);
    return fail(J);
  }
  return cb(J, v, path, ud);
}

static int bad_path(jqs *J, jv v) {
  char t[40];
  jd_trunc(J, v, t, sizeof t);
  jv_free(J, v);
  return jq_errf(J, "Invalid path expression with result %s", t);
}

/* In a path expression, a value computed rather than reached goes on with
 * a null path; a path step or the end of path(f) then reports it. */
typedef struct nopath_ctx {
  jcb cb;
  void *ud;
} nopath_ctx;

static int nopath_cb(jqs *J, jv v, jv p, void *ud) {
  nopath_ctx *c = ud;
  jv_free(J, p);
  return c->cb(J, v, jv_null(), c->ud);
}

/* ---- the evaluator ----------------------------------------------------- */

typedef struct pipe_ctx {
  jnode *n;
  jenv *env;
  jcb cb;
  void *ud;
} pipe_ctx;

static int pipe_cb(jqs *J, jv v, jv path, void *ud) {
  pipe_ctx *c = ud;
  return jq_eval(J, c->n, c->env, v, path, c->cb, c->ud);
}

/* index: outer loop over keys, inner over targets */
typedef struct idx_ctx {
  jnode *n;
  jenv *env;
  jv key, from, to;
  int stage;
  jv in, inpath;
  jcb cb;
  void *ud;
} idx_ctx;

/* A value that is not a path (tracked path null) reaching a path step. */
static int not_path_at(jqs *J, jv t, jv key, const char *what) {
  char ts[40], ks[40];
  jd_trunc(J, t, ts, sizeof ts);
  int rc;
  if (jv_ok(key)) {
    jd_trunc(J, key, ks, sizeof ks);
    rc = jq_errf(J, "Invalid path expression near attempt to %s %s of %s", what,
                 ks, ts);
  } else
    rc = jq_errf(J, "Invalid path expression near attempt to %s %s", what, ts);
  jv_free(J, t);
  return rc;
}

static int index_target_cb(jqs *J, jv t, jv tp, void *ud) {
  idx_ctx *c = ud;
  int tracking = jv_ok(c->inpath);
  jv r;
  jv pk;
  if (tracking && tp.k == JV_NULL) {
    if (c->n->t == N_SLICE) {
      jv o = jv_obj(J);
      o = jv_oset(J, o, jv_cstr(J, "start"), jv_copy(c->from));
      o = jv_oset(J, o, jv_cstr(J, "end"), jv_copy(c->to));
      if (!jv_ok(o)) {
        jv_free(J, t);
        return fail(J);
      }
      int rc = not_path_at(J, t, o, "access element");
      jv_free(J, o);
      return rc;
    }
    return not_path_at(J, t, c->key, "access element");
  }
  if (c->n->t == N_SLICE) {
    if (tracking && t.k == JV_NULL && 0) {
    }
    r = jq_slice(J, jv_copy(t), c->from, c->to);
    jv_free(J, t);
    if (tracking) {
      jv o = jv_obj(J);
      o = jv_oset(J, o, jv_cstr(J, "start"), jv_copy(c->from));
      o = jv_oset(J, o, jv_cstr(J, "end"), jv_copy(c->to));
      pk = o;
    } else
      pk = jv_invalid();
  } else {
    if (tracking && t.k == JV_NULL) {
      r = jv_null();
      jv_free(J, t);
    } else if (c->key.k == JV_OBJECT && t.k == JV_ARRAY) {
      jv *s = jv_oget(c->key, "start", 5), *e = jv_oget(c->key, "end", 3);
      r = jq_slice(J, t, s ? *s : jv_null(), e ? *e : jv_null());
    } else
      r = jq_index(J, t, jv_copy(c->key));
    pk = tracking ? jv_copy(c->key) : jv_invalid();
  }
  if (!jv_ok(r)) {
    jv_free(J, tp);
    jv_free(J, pk);
    return fail(J);
  }
  if (tracking)
    tp = path_add(J, tp, pk);
  return emit(J, r, tp, c->cb, c->ud, tracking);
}

static int index_key_cb(jqs *J, jv k, jv kp, void *ud) {
  idx_ctx *c = ud;
  jv_free(J, kp);
  if (c->n->t == N_SLICE) {
    if (c->stage == 0) {
      /* got "to"; now "from" */
      c->to = k;
      c->stage = 1;
      int rc;
      if (c->n->b)
        rc = jq_eval(J, c->n->b, c->env, jv_copy(c->in), jv_invalid(),
                     index_key_cb, c);
      else
        rc = index_key_cb(J, jv_null(), jv_invalid(), c);
      c->stage = 0;
      jv_free(J, c->to);
      c->to = jv_null();
      return rc;
    }
    c->from = k;
    c->stage = 2;
    int rc = jq_eval(J, c->n->a, c->env, jv_copy(c->in), jv_copy(c->inpath),
                     index_target_cb, c);
    c->stage = 1;
    jv_free(J, c->from);
    c->from = jv_null();
    return rc;
  }
  c->key = k;
  int rc = jq_eval(J, c->n->a, c->env, jv_copy(c->in), jv_copy(c->inpath),
                   index_target_cb, c);
  jv_free(J, c->key);
  c->key = jv_null();
  return rc;
}

typedef struct iter_ctx {
  jcb cb;
  void *ud;
  int tracking;
} iter_ctx;

static int iter_cb(jqs *J, jv t, jv tp, void *ud) {
  iter_ctx *c = ud;
  int rc = 0;
  if (c->tracking && tp.k == JV_NULL)
    return not_path_at(J, t, jv_invalid(), "iterate through");
  if (t.k == JV_ARRAY) {
    for (uint32_t i = 0; i < t.u.a->len && !rc; i++) {
      if ((rc = jq_poll(J)))
        break;
      jv p = c->tracking ? path_add(J, jv_copy(tp), jv_num(i)) : jv_invalid();
      rc = emit(J, jv_copy(t.u.a->v[i]), p, c->cb, c->ud, c->tracking);
      if (i >= t.u.a->len)
        break;
    }
  } else if (t.k == JV_OBJECT) {
    for (uint32_t i = 0; i < t.u.o->n && !rc; i++) {
      jent *e = &t.u.o->e[i];
      if (!e->k)
        continue;
      if ((rc = jq_poll(J)))
        break;
      jv p = jv_invalid();
      if (c->tracking) {
        jv ks = {JV_STRING, 0, {0}};
        ks.u.s = e->k;
        p = path_add(J, jv_copy(tp), jv_copy(ks));
      }
      rc = emit(J, jv_copy(e->v), p, c->cb, c->ud, c->tracking);
    }
  } else if (t.k == JV_NULL && c->tracking) {
    /* path(null[]) is empty */
  } else {
    char ts[40];
    jd_trunc(J, t, ts, sizeof ts);
    rc = jq_errf(J, "Cannot iterate over %s%s%s%s", jv_kind_name(t.k),
                 t.k == JV_NULL ? "" : " (", t.k == JV_NULL ? "" : ts,
                 t.k == JV_NULL ? "" : ")");
  }
  jv_free(J, t);
  jv_free(J, tp);
  return rc;
}

/* try: errors raised by the body are caught, not those downstream */
typedef struct try_ctx {
  jcb cb;
  void *ud;
  int downstream;
} try_ctx;

static int try_cb(jqs *J, jv v, jv p, void *ud) {
  try_ctx *c = ud;
  int rc = c->cb(J, v, p, c->ud);
  if (rc)
    c->downstream = 1;
  return rc;
}

/* binary operators: outer loop over the right side */
typedef struct bin_ctx {
  jnode *n;
  jenv *env;
  jv in;
  jv rhs;
  jcb cb;
  void *ud;
} bin_ctx;

jv jq_binop(jqs *J, int op, jv a, jv b);

static int bin_lhs_cb(jqs *J, jv a, jv ap, void *ud) {
  bin_ctx *c = ud;
  jv_free(J, ap);
  jv r = jq_binop(J, c->n->op, a, jv_copy(c->rhs));
  if (!jv_ok(r))
    return fail(J);
  return c->cb(J, r, jv_invalid(), c->ud);
}

static int bin_rhs_cb(jqs *J, jv b, jv bp, void *ud) {
  bin_ctx *c = ud;
  jv_free(J, bp);
  c->rhs = b;
  int rc =
      jq_eval(J, c->n->a, c->env, jv_copy(c->in), jv_invalid(), bin_lhs_cb, c);
  jv_free(J, c->rhs);
  c->rhs = jv_invalid();
  return rc;
}

/* and/or */
typedef struct andor_ctx {
  jnode *n;
  jenv *env;
  jv in;
  jcb cb;
  void *ud;
} andor_ctx;

static int andor_rhs_cb(jqs *J, jv b, jv bp, void *ud) {
  andor_ctx *c = ud;
  jv_free(J, bp);
  int t = jv_truthy(b);
  jv_free(J, b);
  return c->cb(J, jv_bool(t), jv_invalid(), c->ud);
}

static int andor_lhs_cb(jqs *J, jv a, jv ap, void *ud) {
  andor_ctx *c = ud;
  jv_free(J, ap);
  int t = jv_truthy(a);
  jv_free(J, a);
  if (c->n->t == N_AND && !t)
    return c->cb(J, jv_bool(0), jv_invalid(), c->ud);
  if (c->n->t == N_OR && t)
    return c->cb(J, jv_bool(1), jv_invalid(), c->ud);
  return jq_eval(J, c->n->b, c->env, jv_copy(c->in), jv_invalid(), andor_rhs_cb,
                 c);
}

/* a // b */
typedef struct alt_ctx {
  jcb cb;
  void *ud;
  int any;
  int downstream;
} alt_ctx;

static int alt_cb(jqs *J, jv v, jv p, void *ud) {
  alt_ctx *c = ud;
  if (!jv_truthy(v)) {
    jv_free(J, v);
    jv_free(J, p);
    return 0;
  }
  c->any = 1;
  int rc = c->cb(J, v, p, c->ud);
  if (rc)
    c->downstream = 1;
  return rc;
}

/* [e] */
typedef struct coll_ctx {
  jv acc;
} coll_ctx;

static int collect_cb(jqs *J, jv v, jv p, void *ud) {
  coll_ctx *c = ud;
  jv_free(J, p);
  c->acc = jv_apush(J, c->acc, v);
  if (!jv_ok(c->acc))
    return fail(J);
  return jq_poll(J);
}

/* the one value of an expression that has exactly one */
static int one_cb(jqs *J, jv v, jv p, void *ud) {
  coll_ctx *c = ud;
  jv_free(J, p);
  jv_free(J, c->acc);
  c->acc = v;
  return 0;
}

/* objects: a chain over the key/value pairs */
typedef struct obj_ctx {
  jnode *n;
  jenv *env;
  jv in;
  int i;
  jv acc;
  jv key;
  jcb cb;
  void *ud;
} obj_ctx;

static int obj_step(jqs *J, obj_ctx *c);

static int obj_val_cb(jqs *J, jv v, jv p, void *ud) {
  obj_ctx *c = ud;
  jv_free(J, p);
  jv save = c->acc;
  c->acc = jv_oset(J, jv_copy(save), jv_copy(c->key), v);
  if (!jv_ok(c->acc)) {
    c->acc = save;
    return fail(J);
  }
  jv save_key = c->key;
  c->i += 2;
  int rc = obj_step(J, c);
  c->i -= 2;
  jv_free(J, c->acc);
  c->acc = save;
  c->key = save_key;
  return rc;
}

static int obj_key_cb(jqs *J, jv k, jv p, void *ud) {
  obj_ctx *c = ud;
  jv_free(J, p);
  if (k.k != JV_STRING) {
    char t[40];
    jd_trunc(J, k, t, sizeof t);
    int rc;
    if (k.k == JV_OBJECT && 0)
      rc = 0;
    else
      rc = jq_errf(J, "Object keys must be strings");
    jv_free(J, k);
    return rc;
  }
  jv save = c->key;
  c->key = k;
  int rc = jq_eval(J, c->n->args[c->i + 1], c->env, jv_copy(c->in),
                   jv_invalid(), obj_val_cb, c);
  jv_free(J, c->key);
  c->key = save;
  return rc;
}

static int obj_step(jqs *J, obj_ctx *c) {
  if (c->i >= c->n->nargs)
    return c->cb(J, jv_copy(c->acc), jv_invalid(), c->ud);
  jnode *k = c->n->args[c->i];
  if (k->t == N_LIT)
    return obj_key_cb(J, jv_copy(k->lit), jv_invalid(), c);
  return jq_eval(J, k, c->env, jv_copy(c->in), jv_invalid(), obj_key_cb, c);
}

/* if */
typedef struct if_ctx {
  jnode *n;
  jenv *env;
  jv in, path;
  jcb cb;
  void *ud;
} if_ctx;

static int if_cb(jqs *J, jv cv, jv cp, void *ud) {
  if_ctx *c = ud;
  jv_free(J, cp);
  int t = jv_truthy(cv);
  jv_free(J, cv);
  jnode *br = t ? c->n->b : c->n->c;
  if (!br)
    return c->cb(J, jv_copy(c->in), jv_copy(c->path), c->ud);
  return jq_eval(J, br, c->env, jv_copy(c->in), jv_copy(c->path), c->cb, c->ud);
}

/* ---- patterns ---------------------------------------------------------- */

typedef struct bind_ctx bind_ctx;
typedef int (*bind_k)(jqs *J, bind_ctx *b);
struct bind_ctx {
  jenv *frames; /* nvars frames */
  jenv *env;    /* for key expressions */
  jv in;
  bind_k k;
  void *kud;
  /* work list of (pattern, value) pairs still to destructure */
  jnode *pend[JQ_PEND];
  jv pendv[JQ_PEND];
  int npend;
};

static int bind_run(jqs *J, bind_ctx *b);

typedef struct bkey_ctx {
  bind_ctx *b;
  jnode *pat;
  jv val;
} bkey_ctx;

/* The pending (pattern, value) pairs are borrowed by bind_run and stay
 * owned by whoever pushed them, so that a key generator can run the rest
 * of the binding once per key. */
static int push_pend(jqs *J, bind_ctx *b, jnode *p, jv v) {
  if (b->npend >= JQ_PEND) {
    jv_free(J, v);
    return jq_errf(J, "pattern too deep");
  }
  b->pend[b->npend] = p;
  b->pendv[b->npend++] = v;
  return 0;
}

static void pop_pend(jqs *J, bind_ctx *b, int to) {
  while (b->npend > to)
    jv_free(J, b->pendv[--b->npend]);
}

static int bind_key_cb(jqs *J, jv k, jv kp, void *ud) {
  bkey_ctx *c = ud;
  jv_free(J, kp);
  if (k.k != JV_STRING) {
    int rc = jq_errf(J, "Cannot index %s with %s", jv_kind_name(c->val.k),
                     jv_kind_name(k.k));
    jv_free(J, k);
    return rc;
  }
  jv sub = c->val.k == JV_NULL ? jv_null()
                               : jq_index(J, jv_copy(c->val), jv_copy(k));
  jv_free(J, k);
  if (!jv_ok(sub))
    return fail(J);
  bind_ctx *b = c->b;
  int base = b->npend;
  int rc = push_pend(J, b, c->pat, sub);
  if (!rc)
    rc = bind_run(J, b);
  pop_pend(J, b, base);
  return rc;
}

static int bind_run(jqs *J, bind_ctx *b) {
  if (b->npend == 0)
    return b->k(J, b);
  jnode *p = b->pend[--b->npend];
  jv v = b->pendv[b->npend]; /* borrowed */
  int base = b->npend;
  int rc = 0;
  if (p->pkind == P_VAR) {
    jenv *f = &b->frames[p->slot];
    jv old = f->val;
    f->val = jv_copy(v);
    rc = bind_run(J, b);
    jv_free(J, f->val);
    f->val = old;
  } else if (p->pkind == P_ARRAY + 10) {
    /* {$name: pattern}: bind the name, then destructure */
    jenv *f = &b->frames[p->a->slot];
    jv old = f->val;
    f->val = jv_copy(v);
    rc = push_pend(J, b, p->b, jv_copy(v));
    if (!rc)
      rc = bind_run(J, b);
    pop_pend(J, b, base);
    jv_free(J, f->val);
    f->val = old;
  } else if (p->pkind == P_ARRAY) {
    if (v.k != JV_ARRAY && v.k != JV_NULL)
      rc = jq_errf(J, "Cannot index %s with number", jv_kind_name(v.k));
    else {
      /* pushed in reverse so the first element binds first */
      for (int i = p->nargs - 1; i >= 0 && !rc; i--)
        rc = push_pend(J, b, p->args[i],
                       v.k == JV_NULL ? jv_null() : jv_copy(jv_aget(v, i)));
      if (!rc)
        rc = bind_run(J, b);
      pop_pend(J, b, base);
    }
  } else if (v.k != JV_OBJECT && v.k != JV_NULL) {
    jnode *k0 = p->nargs ? p->args[0] : NULL;
    if (k0 && k0->t == N_LIT && k0->lit.k == JV_STRING) {
      char t[40];
      jd_trunc(J, k0->lit, t, sizeof t);
      rc = jq_errf(J, "Cannot index %s with string %s", jv_kind_name(v.k), t);
    } else
      rc = jq_errf(J, "Cannot index %s with string", jv_kind_name(v.k));
  } else if (p->nargs == 0) {
    rc = bind_run(J, b);
  } else {
    /* the first entry now; the others as a pattern pushed below it */
    jnode tail = *p;
    tail.args = p->args + 2;
    tail.nargs = p->nargs - 2;
    if (tail.nargs > 0)
      rc = push_pend(J, b, &tail, jv_copy(v));
    if (!rc) {
      bkey_ctx kc = {b, p->args[1], v};
      jnode *kn = p->args[0];
      if (kn->t == N_LIT)
        rc = bind_key_cb(J, jv_copy(kn->lit), jv_invalid(), &kc);
      else
        rc = jq_eval(J, kn, b->env, jv_copy(b->in), jv_invalid(), bind_key_cb,
                     &kc);
    }
    pop_pend(J, b, base);
  }
  /* the entry is the pusher's again (its slot may have been reused) */
  b->pend[base] = p;
  b->pendv[base] = v;
  b->npend = base + 1;
  return rc;
}

/* as: for each source value, each alternative pattern */
typedef struct as_ctx {
  jnode *n;
  jenv *env;
  jenv *frames;
  jv in, path;
  jcb cb;
  void *ud;
  int downstream;
  jnode *body;
  int alt_last;
} as_ctx;

static int as_body_k(jqs *J, bind_ctx *b) {
  as_ctx *c = b->kud;
  jenv *top = c->n->nvars ? &c->frames[c->n->nvars - 1] : c->env;
  if (c->n->t == N_AS) {
    try_ctx tc = {c->cb, c->ud, 0};
    int rc =
        jq_eval(J, c->body, top, jv_copy(c->in), jv_copy(c->path), try_cb, &tc);
    if (tc.downstream)
      c->downstream = 1;
    return rc;
  }
  return 0;
}

static int as_src_cb(jqs *J, jv v, jv vp, void *ud) {
  as_ctx *c = ud;
  jv_free(J, vp);
  int rc = 0;
  for (jnode *pat = c->n->b; pat; pat = pat->next) {
    for (int i = 0; i < c->n->nvars; i++) {
      jv_free(J, c->frames[i].val);
      c->frames[i].val = jv_null();
    }
    bind_ctx b;
    b.frames = c->frames;
    b.env = c->env;
    b.in = c->in;
    b.k = as_body_k;
    b.kud = c;
    b.npend = 1;
    b.pend[0] = pat;
    b.pendv[0] = jv_copy(v);
    c->downstream = 0;
    rc = bind_run(J, &b);
    jv_free(J, b.pendv[0]);
    if (rc == JR_ERR && pat->next && !c->downstream) {
      continue;
    }
    break;
  }
  jv_free(J, v);
  return rc;
}

static int eval_as(jqs *J, jnode *n, jenv *env, jv in, jv path, jcb cb,
                   void *ud) {
  jenv small[4];
  jenv *frames =
      n->nvars <= 4 ? small : mem_alloc(J->m, sizeof(jenv) * (size_t)n->nvars);
  if (!frames) {
    jv_free(J, in);
    jv_free(J, path);
    return fail(J);
  }
  for (int i = 0; i < n->nvars; i++) {
    frames[i].up = i ? &frames[i - 1] : env;
    frames[i].kind = F_VAR;
    frames[i].val = jv_null();
  }
  as_ctx c = {n, env, frames, in, path, cb, ud, 0, n->c, 0};
  int rc = jq_eval(J, n->a, env, jv_copy(in), jv_invalid(), as_src_cb, &c);
  for (int i = 0; i < n->nvars; i++)
    jv_free(J, frames[i].val);
  if (frames != small)
    mem_free(J->m, frames);
  jv_free(J, in);
  jv_free(J, path);
  return rc;
}

/* reduce / foreach */
typedef struct red_ctx {
  jnode *n;
  jenv *env;
  jenv *frames;
  jv in;
  jv acc; /* JV_INVALID: empty */
  jcb cb;
  void *ud;
  int downstream;
} red_ctx;

static int red_upd_cb(jqs *J, jv v, jv p, void *ud) {
  red_ctx *c = ud;
  jv_free(J, p);
  if (c->n->t == N_REDUCE) {
    jv_free(J, c->acc);
    c->acc = v;
    return 0;
  }
  /* foreach: every update output is a state and is extracted */
  jv_free(J, c->acc);
  c->acc = jv_copy(v);
  jenv *top = c->n->nvars ? &c->frames[c->n->nvars - 1] : c->env;
  int rc;
  if (c->n->e) {
    try_ctx tc = {c->cb, c->ud, 0};
    rc = jq_eval(J, c->n->e, top, v, jv_invalid(), try_cb, &tc);
    if (tc.downstream)
      c->downstream = 1;
  } else {
    rc = c->cb(J, v, jv_invalid(), c->ud);
    if (rc)
      c->downstream = 1;
  }
  return rc;
}

static int red_bound_k(jqs *J, bind_ctx *b) {
  red_ctx *c = b->kud;
  jenv *top = c->n->nvars ? &c->frames[c->n->nvars - 1] : c->env;
  jv cur = c->acc;
  if (!jv_ok(cur))
    cur = jv_null();
  c->acc = jv_invalid();
  if (c->n->t == N_REDUCE) {
    int rc = jq_eval(J, c->n->d, top, cur, jv_invalid(), red_upd_cb, c);
    if (!rc && !jv_ok(c->acc))
      c->acc = jv_null(); /* an empty update leaves null */
    return rc;
  }
  jv keep = jv_copy(cur);
  int rc = jq_eval(J, c->n->d, top, cur, jv_invalid(), red_upd_cb, c);
  if (!jv_ok(c->acc))
    c->acc = keep;
  else
    jv_free(J, keep);
  return rc;
}

static int red_src_cb(jqs *J, jv v, jv vp, void *ud) {
  red_ctx *c = ud;
  jv_free(J, vp);
  int rc = jq_poll(J);
  if (rc) {
    jv_free(J, v);
    return rc;
  }
  bind_ctx b;
  b.frames = c->frames;
  b.env = c->env;
  b.in = c->in;
  b.k = red_bound_k;
  b.kud = c;
  b.npend = 1;
  b.pend[0] = c->n->b;
  b.pendv[0] = v;
  rc = bind_run(J, &b);
  jv_free(J, v);
  return rc;
}

typedef struct red_init_ctx {
  red_ctx *r;
} red_init_ctx;

static int red_init_cb(jqs *J, jv init, jv ip, void *ud) {
  red_ctx *c = ud;
  jv_free(J, ip);
  c->acc = init;
  int rc =
      jq_eval(J, c->n->a, c->env, jv_copy(c->in), jv_invalid(), red_src_cb, c);
  jv acc = c->acc;
  c->acc = jv_invalid();
  if (rc) {
    jv_free(J, acc);
    return rc;
  }
  if (c->n->t == N_REDUCE) {
    if (!jv_ok(acc))
      acc = jv_null();
    return c->cb(J, acc, jv_invalid(), c->ud);
  }
  jv_free(J, acc);
  return 0;
}

static int eval_reduce(jqs *J, jnode *n, jenv *env, jv in, jv path, jcb cb,
                       void *ud) {
  jenv small[4];
  jv_free(J, path);
  jenv *frames =
      n->nvars <= 4 ? small : mem_alloc(J->m, sizeof(jenv) * (size_t)n->nvars);
  if (!frames) {
    jv_free(J, in);
    return fail(J);
  }
  for (int i = 0; i < n->nvars; i++) {
    frames[i].up = i ? &frames[i - 1] : env;
    frames[i].kind = F_VAR;
    frames[i].val = jv_null();
  }
  red_ctx c = {n, env, frames, in, jv_invalid(), cb, ud, 0};
  int rc = jq_eval(J, n->c, env, jv_copy(in), jv_invalid(), red_init_cb, &c);
  for (int i = 0; i < n->nvars; i++)
    jv_free(J, frames[i].val);
  if (frames != small)
    mem_free(J->m, frames);
  jv_free(J, in);
  return rc;
}

/* label */
static int eval_label(jqs *J, jnode *n, jenv *env, jv in, jv path, jcb cb,
                      void *ud) {
  jenv f;
  f.up = env;
  f.kind = F_LABEL;
  f.val = jv_null();
  f.label = ++J->nlabels;
  int rc = jq_eval(J, n->a, &f, in, path, cb, ud);
  if (rc == JR_BREAK && J->brk == f.label)
    rc = 0;
  return rc;
}

static jenv *walk(jenv *e, int hops) {
  while (hops-- > 0 && e)
    e = e->up;
  return e;
}

/* formats: @base64 "...\(e)" and lone @base64 */
typedef struct fmt_ctx {
  const char *fmt;
  jcb cb;
  void *ud;
} fmt_ctx;

static int fmt_cb(jqs *J, jv v, jv p, void *ud) {
  fmt_ctx *c = ud;
  jv_free(J, p);
  jv r = jq_format(J, c->fmt, v);
  if (!jv_ok(r))
    return fail(J);
  return c->cb(J, r, jv_invalid(), c->ud);
}

/* updates: reduce path(lhs) as $p (.; setpath($p; getpath($p) | f)) */
/* Updates. The paths of the left side are collected first, so that the
 * value being changed holds the only reference to its parts and setpath
 * changes it in place (a reduce building an object stays linear). */
typedef struct pcol_ctx {
  jv paths;
} pcol_ctx;

static int pcol_cb(jqs *J, jv v, jv p, void *ud) {
  pcol_ctx *c = ud;
  if (p.k == JV_NULL)
    return bad_path(J, v);
  jv_free(J, v);
  c->paths = jv_apush(J, c->paths, p);
  return jv_ok(c->paths) ? jq_poll(J) : fail(J);
}

static int collect_paths(jqs *J, jnode *n, jenv *env, jv in, jv *out) {
  jenv *penv = n->opt ? env->up : env;
  pcol_ctx c = {jv_arr(J, 0)};
  jv root = jv_arr(J, 0);
  if (!jv_ok(c.paths) || !jv_ok(root)) {
    jv_free(J, c.paths);
    jv_free(J, root);
    jv_free(J, in);
    return fail(J);
  }
  int rc = jq_eval(J, n->a, penv, in, root, pcol_cb, &c);
  if (rc) {
    jv_free(J, c.paths);
    return rc;
  }
  *out = c.paths;
  return 0;
}

typedef struct first_ctx {
  jv first;
  int got;
} first_ctx;

static int first_cb(jqs *J, jv v, jv p, void *ud) {
  first_ctx *c = ud;
  jv_free(J, p);
  c->first = v;
  c->got = 1;
  return -1; /* stop after the first output */
}

/* acc |= f along paths (borrowed); consumes acc */
static int apply_update(jqs *J, jnode *f, jenv *env, jv acc, jv paths,
                        jv *out) {
  jv dels = jv_arr(J, 0);
  if (!jv_ok(dels)) {
    jv_free(J, acc);
    return fail(J);
  }
  for (uint32_t i = 0; i < paths.u.a->len; i++) {
    jv p = paths.u.a->v[i];
    int rc = jq_poll(J);
    jv old = rc ? jv_invalid() : jq_getpath(J, jv_copy(acc), p);
    if (!rc && !jv_ok(old))
      rc = fail(J);
    if (!rc && old.k >= JV_STRING) {
      /* let go of the parent's reference so f can change it in place */
      acc = jq_setpath(J, acc, p, 0, jv_null());
      if (!jv_ok(acc)) {
        jv_free(J, old);
        rc = fail(J);
      }
    }
    first_ctx fc = {jv_invalid(), 0};
    if (!rc) {
      rc = jq_eval(J, f, env, old, jv_invalid(), first_cb, &fc);
      if (rc == -1)
        rc = 0;
    }
    if (!rc) {
      if (!fc.got) {
        dels = jv_apush(J, dels, jv_copy(p));
        if (!jv_ok(dels))
          rc = fail(J);
      } else {
        acc = jq_setpath(J, acc, p, 0, fc.first);
        if (!jv_ok(acc))
          rc = fail(J);
      }
    }
    if (rc) {
      jv_free(J, acc);
      jv_free(J, dels);
      return rc;
    }
  }
  if (dels.u.a->len)
    acc = jq_delpaths(J, acc, dels);
  else
    jv_free(J, dels);
  if (!jv_ok(acc))
    return fail(J);
  *out = acc;
  return 0;
}

/* a = b: every output of b, each set along every path of a */
typedef struct asg_ctx {
  jv in;
  jv paths;
  jv pending; /* the last value of b, set once b is done or goes on */
  jcb cb;
  void *ud;
} asg_ctx;

static int asg_apply(jqs *J, asg_ctx *c, jv acc, jv v) {
  for (uint32_t i = 0; i < c->paths.u.a->len && jv_ok(acc); i++)
    acc = jq_setpath(J, acc, c->paths.u.a->v[i], 0, jv_copy(v));
  jv_free(J, v);
  if (!jv_ok(acc))
    return fail(J);
  return c->cb(J, acc, jv_invalid(), c->ud);
}

static int asg_val_cb(jqs *J, jv v, jv p, void *ud) {
  asg_ctx *c = ud;
  jv_free(J, p);
  jv prev = c->pending;
  c->pending = v;
  if (!jv_ok(prev))
    return 0;
  return asg_apply(J, c, jv_copy(c->in), prev);
}

/* calls */
static int call_fn(jqs *J, jnode *call, jnode *def, jenv *defenv, jenv *env,
                   jv in, jv path, jcb cb, void *ud) {
  jenv small[4];
  int np = def->nparams;
  jenv *params = np <= 4 ? small : mem_alloc(J->m, sizeof(jenv) * (size_t)np);
  if (!params) {
    jv_free(J, in);
    jv_free(J, path);
    return fail(J);
  }
  for (int i = 0; i < np; i++) {
    params[i].up = i ? &params[i - 1] : defenv;
    params[i].kind = F_CLOSURE;
    params[i].node = call->args[i];
    params[i].cenv = env;
  }
  jenv *top = np ? &params[np - 1] : defenv;
  int rc = jq_eval(J, def->a, top, in, path, cb, ud);
  if (params != small)
    mem_free(J->m, params);
  return rc;
}

/* Does the generator keep paths (empty, getpath, select, error)? */
static int jq_gen_pathaware(const jnative *nv) {
  static const char *const names[] = {"empty", "getpath", "select", "error",
                                      NULL};
  for (int i = 0; names[i]; i++)
    if (!strcmp(nv->name, names[i]))
      return 1;
  return 0;
}

int jq_eval(jqs *J, jnode *n, jenv *env, jv in, jv path, jcb cb, void *ud) {
  int tracking = jv_ok(path);
  int rc;
  char here;
  if (++J->depth > J->maxdepth || stack_left() < JQ_STACK_RESERVE ||
      (size_t)(J->stack_base - &here) > JQ_NOFIBER_STACK) {
    J->depth--;
    jv_free(J, in);
    jv_free(J, path);
    budget_set_stop(J->bud, BUDGET_DEPTH, (uint64_t)J->maxdepth);
    return JR_HALT;
  }
  if ((rc = jq_poll(J))) {
    J->depth--;
    jv_free(J, in);
    jv_free(J, path);
    return rc;
  }
  if (tracking) {
    switch (n->t) {
    case N_LIT:
    case N_BIN:
    case N_NEG:
    case N_AND:
    case N_OR:
    case N_ARRAY:
    case N_OBJECT:
    case N_FORMAT:
    case N_UPDATE:
    case N_ASSIGN:
    case N_VAR:
    case N_REDUCE:
    case N_FOREACH:
      jv_free(J, path);
      nopath_ctx npc = {cb, ud};
      rc = jq_eval(J, n, env, in, jv_invalid(), nopath_cb, &npc);
      J->depth--;
      return rc;
    default:
      break;
    }
  }
  switch (n->t) {
  case N_IDENT:
    rc = cb(J, in, path, ud);
    break;
  case N_EMPTY:
    jv_free(J, in);
    jv_free(J, path);
    rc = 0;
    break;
  case N_LIT:
    jv_free(J, in);
    if (tracking) {
      if (n->lit.k == JV_NULL) {
        /* path(null) is allowed as the empty path's value in jq */
        rc = bad_path(J, jv_copy(n->lit));
        jv_free(J, path);
        break;
      }
      jv_free(J, path);
      rc = bad_path(J, jv_copy(n->lit));
      break;
    }
    rc = cb(J, jv_copy(n->lit), jv_invalid(), ud);
    break;
  case N_INDEX:
  case N_SLICE: {
    idx_ctx c = {n, env, jv_null(), jv_null(), jv_null(), 0, in, path, cb, ud};
    if (n->t == N_SLICE) {
      if (n->c)
        rc = jq_eval(J, n->c, env, jv_copy(in), jv_invalid(), index_key_cb, &c);
      else
        rc = index_key_cb(J, jv_null(), jv_invalid(), &c);
    } else if (n->b->t == N_LIT)
      rc = index_key_cb(J, jv_copy(n->b->lit), jv_invalid(), &c);
    else
      rc = jq_eval(J, n->b, env, jv_copy(in), jv_invalid(), index_key_cb, &c);
    jv_free(J, in);
    jv_free(J, path);
    break;
  }
  case N_ITER: {
    iter_ctx c = {cb, ud, tracking};
    rc = jq_eval(J, n->a, env, in, path, iter_cb, &c);
    break;
  }
  case N_TRY: {
    try_ctx c = {cb, ud, 0};
    jv keep = n->b ? jv_copy(in) : jv_invalid();
    rc = jq_eval(J, n->a, env, in, path, try_cb, &c);
    if (rc == JR_ERR && !c.downstream) {
      jv e = J->err;
      J->err = jv_invalid();
      if (e.k == JV_OBJECT && jv_oget(e, "__jq", 4)) {
        /* break out of a `?` the way jq's internal errors do */
      }
      if (n->b) {
        /* error(null) is caught as null */
        rc = jq_eval(J, n->b, env, e, jv_invalid(), cb, ud);
      } else {
        jv_free(J, e);
        rc = 0;
      }
    }
    jv_free(J, keep);
    break;
  }
  case N_PIPE: {
    pipe_ctx c = {n->b, env, cb, ud};
    rc = jq_eval(J, n->a, env, in, path, pipe_cb, &c);
    break;
  }
  case N_COMMA:
    rc = jq_eval(J, n->a, env, jv_copy(in), jv_copy(path), cb, ud);
    if (!rc)
      rc = jq_eval(J, n->b, env, in, path, cb, ud);
    else {
      jv_free(J, in);
      jv_free(J, path);
    }
    break;
  case N_NEG: {
    if (tracking) {
      jv_free(J, path);
      jv_free(J, in);
      rc = jq_errf(J, "Invalid path expression");
      break;
    }
    jnode lit = {0};
    lit.t = N_LIT;
    lit.lit = jv_num(0);
    jnode bin = {0};
    bin.t = N_BIN;
    bin.op = '-';
    bin.a = &lit;
    bin.b = n->a;
    /* -x is 0 - x, but jq's message names negation */
    bin_ctx c = {&bin, env, in, jv_invalid(), cb, ud};
    bin.op = 'N';
    rc = jq_eval(J, n->a, env, jv_copy(in), jv_invalid(), bin_rhs_cb, &c);
    jv_free(J, in);
    break;
  }
  case N_BIN: {
    if (n->a->t == N_IDENT &&
        (n->b->t == N_LIT || n->b->t == N_VAR || n->b->t == N_ARRAY)) {
      /* . OP x with x one value: the input goes to the operator itself,
       * so `. + [$x]` appends in place */
      coll_ctx one = {jv_invalid()};
      rc = jq_eval(J, n->b, env, jv_copy(in), jv_invalid(), one_cb, &one);
      if (rc) {
        jv_free(J, one.acc);
        jv_free(J, in);
        break;
      }
      jv r = jq_binop(J, n->op, in, one.acc);
      rc = jv_ok(r) ? cb(J, r, jv_invalid(), ud) : fail(J);
      break;
    }
    bin_ctx c = {n, env, in, jv_invalid(), cb, ud};
    rc = jq_eval(J, n->b, env, jv_copy(in), jv_invalid(), bin_rhs_cb, &c);
    jv_free(J, in);
    break;
  }
  case N_AND:
  case N_OR: {
    jv_free(J, path);
    andor_ctx c = {n, env, in, cb, ud};
    rc = jq_eval(J, n->a, env, jv_copy(in), jv_invalid(), andor_lhs_cb, &c);
    jv_free(J, in);
    break;
  }
  case N_ALT: {
    alt_ctx c = {cb, ud, 0, 0};
    rc = jq_eval(J, n->a, env, jv_copy(in), jv_copy(path), alt_cb, &c);
    if (rc == JR_ERR && !c.downstream) {
      jv_free(J, J->err);
      J->err = jv_invalid();
      rc = 0;
    }
    if (!rc && !c.any)
      rc = jq_eval(J, n->b, env, in, path, cb, ud);
    else {
      jv_free(J, in);
      jv_free(J, path);
    }
    break;
  }
  case N_ARRAY: {
    if (tracking) {
      jv_free(J, path);
      jv_free(J, in);
      rc = jq_errf(J, "Invalid path expression with result [...]");
      break;
    }
    coll_ctx c = {jv_arr(J, 0)};
    if (!jv_ok(c.acc)) {
      jv_free(J, in);
      rc = fail(J);
      break;
    }
    rc = n->a ? jq_eval(J, n->a, env, in, jv_invalid(), collect_cb, &c)
              : (jv_free(J, in), 0);
    if (rc)
      jv_free(J, c.acc);
    else
      rc = cb(J, c.acc, jv_invalid(), ud);
    break;
  }
  case N_OBJECT: {
    jv_free(J, path);
    obj_ctx c = {n, env, in, 0, jv_obj(J), jv_null(), cb, ud};
    if (!jv_ok(c.acc)) {
      jv_free(J, in);
      rc = fail(J);
      break;
    }
    rc = obj_step(J, &c);
    jv_free(J, c.acc);
    jv_free(J, in);
    break;
  }
  case N_IF: {
    if_ctx c = {n, env, in, path, cb, ud};
    rc = jq_eval(J, n->a, env, jv_copy(in), jv_invalid(), if_cb, &c);
    jv_free(J, in);
    jv_free(J, path);
    break;
  }
  case N_REDUCE:
  case N_FOREACH:
    rc = eval_reduce(J, n, env, in, path, cb, ud);
    break;
  case N_FUNCDEF: {
    jenv f;
    f.up = env;
    f.kind = F_FUNC;
    f.node = n;
    f.cenv = &f;
    f.val = jv_null();
    rc = jq_eval(J, n->b, &f, in, path, cb, ud);
    break;
  }
  case N_CALL:
    if (n->ckind == C_NATIVE) {
      const jnative *nv = &jq_natives[n->native];
      if (nv->gen) {
        if (tracking && !jq_gen_pathaware(nv)) {
          /* generators that make values, not paths */
          jv_free(J, path);
          nopath_ctx npc = {cb, ud};
          rc = nv->gf(J, n, env, in, jv_invalid(), nopath_cb, &npc);
          break;
        }
        rc = nv->gf(J, n, env, in, path, cb, ud);
        break;
      }
      /* cfunctions: arguments by value, the last one varying slowest */
      extern int jq_call_cf(jqs * J, jnode * call, jenv * env, jv in, jv path,
                            jcb cb, void *ud);
      rc = jq_call_cf(J, n, env, in, path, cb, ud);
      break;
    }
    if (n->ckind == C_GLOBAL) {
      rc = call_fn(J, n, n->def, NULL, env, in, path, cb, ud);
      break;
    }
    {
      jenv *f = walk(env, n->hops);
      if (f->kind == F_CLOSURE)
        rc = jq_eval(J, f->node, f->cenv, in, path, cb, ud);
      else
        rc = call_fn(J, n, f->node, f, env, in, path, cb, ud);
    }
    break;
  case N_VAR:
    jv_free(J, in);
    if (n->ckind == C_GLOBAL) {
      if (tracking) {
        jv_free(J, path);
        rc = bad_path(J, jv_copy(J->env_obj));
        break;
      }
      rc = cb(J, jv_copy(J->env_obj), jv_invalid(), ud);
      break;
    }
    if (n->ckind == C_NATIVE) {
      jv_free(J, path);
      jv o = jv_obj(J);
      o = jv_oset(J, o, jv_cstr(J, "positional"), jv_arr(J, 0));
      o = jv_oset(J, o, jv_cstr(J, "named"), jv_copy(J->named));
      rc = jv_ok(o) ? cb(J, o, jv_invalid(), ud) : fail(J);
      break;
    }
    {
      jenv *f = walk(env, n->hops);
      if (tracking) {
        jv_free(J, path);
        rc = bad_path(J, jv_copy(f->val));
        break;
      }
      rc = cb(J, jv_copy(f->val), jv_invalid(), ud);
    }
    break;
  case N_AS:
    rc = eval_as(J, n, env, in, path, cb, ud);
    break;
  case N_LABEL:
    rc = eval_label(J, n, env, in, path, cb, ud);
    break;
  case N_BREAK: {
    jv_free(J, in);
    jv_free(J, path);
    jenv *f = walk(env, n->hops);
    J->brk = f->label;
    rc = JR_BREAK;
    break;
  }
  case N_FORMAT: {
    jv_free(J, path);
    fmt_ctx c = {n->name, cb, ud};
    if (n->a)
      rc = jq_eval(J, n->a, env, in, jv_invalid(), fmt_cb, &c);
    else
      rc = fmt_cb(J, in, jv_invalid(), &c);
    break;
  }
  case N_UPDATE: {
    jv_free(J, path);
    jv paths, acc;
    rc = collect_paths(J, n, env, jv_copy(in), &paths);
    if (rc) {
      jv_free(J, in);
      break;
    }
    rc = apply_update(J, n->b, env, in, paths, &acc);
    jv_free(J, paths);
    if (!rc)
      rc = cb(J, acc, jv_invalid(), ud);
    break;
  }
  case N_ASSIGN: {
    jv_free(J, path);
    asg_ctx c = {in, jv_invalid(), jv_invalid(), cb, ud};
    rc = collect_paths(J, n, env, jv_copy(in), &c.paths);
    if (!rc)
      rc = jq_eval(J, n->b, env, jv_copy(in), jv_invalid(), asg_val_cb, &c);
    if (!rc && jv_ok(c.pending)) {
      /* the last value: the input is no longer needed, change it in place */
      jv v = c.pending;
      c.pending = jv_invalid();
      c.in = jv_invalid();
      rc = asg_apply(J, &c, in, v);
    } else
      jv_free(J, in);
    jv_free(J, c.pending);
    jv_free(J, c.paths);
    break;
  }
  default:
    jv_free(J, in);
    jv_free(J, path);
    rc = jq_errf(J, "unsupported expression");
    break;
  }
  J->depth--;
  return rc;
}
