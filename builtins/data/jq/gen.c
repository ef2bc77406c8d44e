/*
 * gen.c - builtins that are generators or take closures: empty, path,
 * getpath, range, input(s), error, map, select.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "builtins/data/jq/jq.h"

#define GF(name)                                                               \
  int name(jqs *J, jnode *call, jenv *env, jv in, jv path, jcb cb, void *ud)

GF(jq_g_empty) {
  (void)call;
  (void)env;
  (void)cb;
  (void)ud;
  jv_free(J, in);
  jv_free(J, path);
  return 0;
}

typedef struct path_ctx {
  jcb cb;
  void *ud;
} path_ctx;

static int path_out_cb(jqs *J, jv v, jv p, void *ud) {
  path_ctx *c = ud;
  if (p.k == JV_NULL) {
    char t[40];
    jd_trunc(J, v, t, sizeof t);
    jv_free(J, v);
    return jq_errf(J, "Invalid path expression with result %s", t);
  }
  jv_free(J, v);
  return c->cb(J, p, jv_invalid(), c->ud);
}

GF(jq_g_path) {
  if (jv_ok(path)) {
    jv_free(J, path);
    jv_free(J, in);
    return jq_errf(J, "Invalid path expression");
  }
  path_ctx c = {cb, ud};
  jv p = jv_arr(J, 0);
  if (!jv_ok(p)) {
    jv_free(J, in);
    budget_set_stop(J->bud, BUDGET_MEMORY, 0);
    return JR_HALT;
  }
  return jq_eval(J, call->args[0], env, in, p, path_out_cb, &c);
}

typedef struct gp_ctx {
  jv in, path;
  jcb cb;
  void *ud;
} gp_ctx;

static int getpath_cb(jqs *J, jv p, jv pp, void *ud) {
  gp_ctx *c = ud;
  jv_free(J, pp);
  if (p.k != JV_ARRAY) {
    jv_free(J, p);
    return jq_errf(J, "Path must be specified as an array");
  }
  jv r = jq_getpath(J, jv_copy(c->in), p);
  if (!jv_ok(r)) {
    /* a path into a wrong type: null, as jq's getpath does when the
     * value is missing; a type error otherwise */
    jv_free(J, p);
    return JR_ERR;
  }
  if (c->path.k == JV_NULL) {
    jv_free(J, p);
    return c->cb(J, r, jv_null(), c->ud);
  }
  if (jv_ok(c->path)) {
    jv np = jv_copy(c->path);
    for (uint32_t i = 0; i < p.u.a->len && jv_ok(np); i++)
      np = jv_apush(J, np, jv_copy(p.u.a->v[i]));
    jv_free(J, p);
    if (!jv_ok(np)) {
      jv_free(J, r);
      budget_set_stop(J->bud, BUDGET_MEMORY, 0);
      return JR_HALT;
    }
    return c->cb(J, r, np, c->ud);
  }
  jv_free(J, p);
  return c->cb(J, r, jv_invalid(), c->ud);
}

GF(jq_g_getpath) {
  gp_ctx c = {in, path, cb, ud};
  int rc =
      jq_eval(J, call->args[0], env, jv_copy(in), jv_invalid(), getpath_cb, &c);
  jv_free(J, in);
  jv_free(J, path);
  return rc;
}

/* range($from; $upto; $by): from varies slowest */
typedef struct range_ctx {
  jnode *call;
  jenv *env;
  jv in;
  jv from, upto;
  jcb cb;
  void *ud;
} range_ctx;

static int range_loop(jqs *J, range_ctx *c, jv byv) {
  if (c->from.k != JV_NUMBER || c->upto.k != JV_NUMBER || byv.k != JV_NUMBER)
    return jq_errf(J, "Range bounds must be numeric");
  double by = byv.u.n;
  double x = c->from.u.n, end = c->upto.u.n;
  int rc = 0;
  if (by > 0) {
    for (; x < end && !rc; x += by)
      rc = jq_poll(J) ? JR_HALT : c->cb(J, jv_num(x), jv_invalid(), c->ud);
  } else if (by < 0) {
    for (; x > end && !rc; x += by)
      rc = jq_poll(J) ? JR_HALT : c->cb(J, jv_num(x), jv_invalid(), c->ud);
  } else if (x < end) {
    /* by 0: jq loops forever; the budget ends it */
    while (!rc)
      rc = jq_poll(J) ? JR_HALT : c->cb(J, jv_num(x), jv_invalid(), c->ud);
  }
  return rc;
}

static int range_by_cb(jqs *J, jv by, jv bp, void *ud) {
  jv_free(J, bp);
  int rc = range_loop(J, ud, by);
  jv_free(J, by);
  return rc;
}

static int range_upto_cb(jqs *J, jv upto, jv up, void *ud) {
  range_ctx *c = ud;
  jv_free(J, up);
  c->upto = upto;
  int rc;
  if (c->call->nargs == 3)
    rc = jq_eval(J, c->call->args[2], c->env, jv_copy(c->in), jv_invalid(),
                 range_by_cb, c);
  else
    rc = range_loop(J, c, jv_num(1));
  jv_free(J, c->upto);
  c->upto = jv_invalid();
  return rc;
}

static int range_from_cb(jqs *J, jv from, jv fp, void *ud) {
  range_ctx *c = ud;
  jv_free(J, fp);
  c->from = from;
  int rc = jq_eval(J, c->call->args[1], c->env, jv_copy(c->in), jv_invalid(),
                   range_upto_cb, c);
  jv_free(J, c->from);
  c->from = jv_invalid();
  return rc;
}

GF(jq_g_range) {
  jv_free(J, path);
  range_ctx c = {call, env, in, jv_invalid(), jv_invalid(), cb, ud};
  int rc = jq_eval(J, call->args[0], env, jv_copy(in), jv_invalid(),
                   range_from_cb, &c);
  jv_free(J, in);
  return rc;
}

/* input / inputs */
GF(jq_g_input) {
  (void)call;
  (void)env;
  jv_free(J, in);
  jv_free(J, path);
  jv v;
  int r = J->next_input ? J->next_input(J, &v) : 0;
  if (r < 0)
    return JR_ERR;
  if (r == 0)
    return jq_errf(J, "No more inputs");
  return cb(J, v, jv_invalid(), ud);
}

GF(jq_g_inputs) {
  (void)call;
  (void)env;
  jv_free(J, in);
  jv_free(J, path);
  for (;;) {
    jv v;
    int r = J->next_input ? J->next_input(J, &v) : 0;
    if (r < 0)
      return JR_ERR;
    if (r == 0)
      return 0;
    int rc = cb(J, v, jv_invalid(), ud);
    if (rc)
      return rc;
  }
}

/* error(msg) as a generator so that error(empty) is empty */
typedef struct err_ctx {
  int dummy;
} err_ctx;

static int error_cb(jqs *J, jv v, jv p, void *ud) {
  (void)ud;
  jv_free(J, p);
  return jq_error(J, v);
}

GF(jq_g_error1) {
  jv_free(J, path);
  int rc = jq_eval(J, call->args[0], env, in, jv_invalid(), error_cb, NULL);
  (void)cb;
  (void)ud;
  return rc;
}

GF(jq_g_error0) {
  (void)call;
  (void)env;
  (void)cb;
  (void)ud;
  jv_free(J, path);
  return jq_error(J, in);
}

/* map(f) = [.[] | f], written natively for speed */
typedef struct map_ctx {
  jv acc;
} map_ctx;

static int map_cb(jqs *J, jv v, jv p, void *ud) {
  map_ctx *c = ud;
  jv_free(J, p);
  c->acc = jv_apush(J, c->acc, v);
  return jv_ok(c->acc) ? 0
                       : (budget_set_stop(J->bud, BUDGET_MEMORY, 0), JR_HALT);
}

GF(jq_g_map) {
  if (jv_ok(path) || (in.k != JV_ARRAY && in.k != JV_OBJECT)) {
    /* the general form: [.[] | f] */
    jnode it = {0}, id = {0}, pipe = {0}, arr = {0};
    id.t = N_IDENT;
    it.t = N_ITER;
    it.a = &id;
    pipe.t = N_PIPE;
    pipe.a = &it;
    pipe.b = call->args[0];
    arr.t = N_ARRAY;
    arr.a = &pipe;
    (void)arr;
    /* pipe.b is evaluated in env: the closure's own env is ours */
    if (jv_ok(path)) {
      jv_free(J, path);
      jv_free(J, in);
      return jq_errf(J, "Invalid path expression with result [...]");
    }
    map_ctx c = {jv_arr(J, 0)};
    int rc = jq_eval(J, &pipe, env, in, jv_invalid(), map_cb, &c);
    if (rc) {
      jv_free(J, c.acc);
      return rc;
    }
    return cb(J, c.acc, jv_invalid(), ud);
  }
  uint32_t n = in.k == JV_ARRAY ? in.u.a->len : in.u.o->live;
  map_ctx c = {jv_arr(J, n + 1)};
  int rc = 0;
  if (in.k == JV_ARRAY) {
    for (uint32_t i = 0; i < in.u.a->len && !rc; i++)
      rc = jq_eval(J, call->args[0], env, jv_copy(in.u.a->v[i]), jv_invalid(),
                   map_cb, &c);
  } else {
    for (uint32_t i = 0; i < in.u.o->n && !rc; i++)
      if (in.u.o->e[i].k)
        rc = jq_eval(J, call->args[0], env, jv_copy(in.u.o->e[i].v),
                     jv_invalid(), map_cb, &c);
  }
  jv_free(J, in);
  if (rc) {
    jv_free(J, c.acc);
    return rc;
  }
  return cb(J, c.acc, jv_invalid(), ud);
}

/* select(f) natively: keeps paths */
typedef struct sel_ctx {
  jv in, path;
  jcb cb;
  void *ud;
} sel_ctx;

static int select_cb(jqs *J, jv v, jv p, void *ud) {
  sel_ctx *c = ud;
  jv_free(J, p);
  int t = jv_truthy(v);
  jv_free(J, v);
  if (!t)
    return 0;
  return c->cb(J, jv_copy(c->in), jv_copy(c->path), c->ud);
}

GF(jq_g_select) {
  sel_ctx c = {in, path, cb, ud};
  int rc =
      jq_eval(J, call->args[0], env, jv_copy(in), jv_invalid(), select_cb, &c);
  jv_free(J, in);
  jv_free(J, path);
  return rc;
}
