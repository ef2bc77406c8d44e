/*
 * natives.c - operators and the builtins written in C: the ones on values
 * (cfunctions, whose arguments are evaluated to values first, the last
 * argument varying slowest) and the generators that take closures.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/data/jq/jq.h"

static jv errv(jqs *J, const char *op, jv a, jv b, const char *tail) {
  char x[40], y[40];
  jd_trunc(J, a, x, sizeof x);
  jd_trunc(J, b, y, sizeof y);
  jv_err_str(J, "%s (%s) and %s (%s) cannot be %s%s", jv_kind_name(a.k), x,
             jv_kind_name(b.k), y, op, tail);
  jv_free(J, a);
  jv_free(J, b);
  return jv_invalid();
}

static jv obj_merge(jqs *J, jv a, jv b, int deep) {
  for (uint32_t i = 0; i < b.u.o->n && jv_ok(a); i++) {
    jent *e = &b.u.o->e[i];
    if (!e->k)
      continue;
    jv ks = {JV_STRING, 0, {0}};
    ks.u.s = e->k;
    jv *cur = jv_oget(a, e->k->p, e->k->len);
    jv nv;
    if (deep && cur && cur->k == JV_OBJECT && e->v.k == JV_OBJECT)
      nv = obj_merge(J, jv_copy(*cur), jv_copy(e->v), 1);
    else
      nv = jv_copy(e->v);
    a = jv_oset(J, a, jv_copy(ks), nv);
  }
  jv_free(J, b);
  return a;
}

static jv repeat_str(jqs *J, jv s, double n) {
  if (n < 0 || isnan(n)) {
    jv_free(J, s);
    return jv_null();
  }
  double times = floor(n);
  size_t len = s.u.s->len;
  if (len == 0 || times == 0) {
    jv_free(J, s);
    return jv_str(J, "", 0);
  }
  if ((double)len * times > 536870912.0) {
    jv_free(J, s);
    return jv_err_str(J, "Repeat string result too long");
  }
  size_t total = len * (size_t)times;
  jstr *r = mem_alloc(J->m, sizeof *r + total + 1);
  if (!r) {
    jv_free(J, s);
    return jv_invalid();
  }
  r->rc = 1;
  r->len = (uint32_t)total;
  r->hash = 0;
  /* doubling copies */
  memcpy(r->p, s.u.s->p, len);
  size_t done = len;
  while (done < total) {
    size_t k = done < total - done ? done : total - done;
    memcpy(r->p + done, r->p, k);
    done += k;
  }
  r->p[total] = 0;
  jv_free(J, s);
  jv v = {JV_STRING, 0, {0}};
  v.u.s = r;
  return v;
}

jv jq_split_str(jqs *J, jv s, jv sep);

jv jq_binop(jqs *J, int op, jv a, jv b) {
  switch (op) {
  case '+':
    if (a.k == JV_NULL) {
      jv_free(J, a);
      return b;
    }
    if (b.k == JV_NULL) {
      jv_free(J, b);
      return a;
    }
    if (a.k == JV_NUMBER && b.k == JV_NUMBER)
      return jv_num(a.u.n + b.u.n);
    if (a.k == JV_STRING && b.k == JV_STRING) {
      a = jv_strcat(J, a, b.u.s->p, b.u.s->len);
      jv_free(J, b);
      return a;
    }
    if (a.k == JV_ARRAY && b.k == JV_ARRAY) {
      for (uint32_t i = 0; i < b.u.a->len && jv_ok(a); i++)
        a = jv_apush(J, a, jv_copy(b.u.a->v[i]));
      jv_free(J, b);
      return a;
    }
    if (a.k == JV_OBJECT && b.k == JV_OBJECT)
      return obj_merge(J, a, b, 0);
    return errv(J, "added", a, b, "");
  case '-':
    if (a.k == JV_NUMBER && b.k == JV_NUMBER)
      return jv_num(a.u.n - b.u.n);
    if (a.k == JV_ARRAY && b.k == JV_ARRAY) {
      jv r = jv_arr(J, a.u.a->len + 1);
      for (uint32_t i = 0; i < a.u.a->len && jv_ok(r); i++) {
        int found = 0;
        for (uint32_t j = 0; j < b.u.a->len && !found; j++)
          found = jv_equal(a.u.a->v[i], b.u.a->v[j]);
        if (!found)
          r = jv_apush(J, r, jv_copy(a.u.a->v[i]));
      }
      jv_free(J, a);
      jv_free(J, b);
      return r;
    }
    return errv(J, "subtracted", a, b, "");
  case '*':
    if (a.k == JV_NUMBER && b.k == JV_NUMBER)
      return jv_num(a.u.n * b.u.n);
    if (a.k == JV_STRING && b.k == JV_NUMBER)
      return repeat_str(J, a, b.u.n);
    if (a.k == JV_NUMBER && b.k == JV_STRING)
      return repeat_str(J, b, a.u.n);
    if (a.k == JV_OBJECT && b.k == JV_OBJECT)
      return obj_merge(J, a, b, 1);
    return errv(J, "multiplied", a, b, "");
  case '/':
    if (a.k == JV_NUMBER && b.k == JV_NUMBER) {
      if (b.u.n == 0)
        return errv(J, "divided", a, b, " because the divisor is zero");
      return jv_num(a.u.n / b.u.n);
    }
    if (a.k == JV_STRING && b.k == JV_STRING)
      return jq_split_str(J, a, b);
    return errv(J, "divided", a, b, "");
  case '%':
    if (a.k == JV_NUMBER && b.k == JV_NUMBER) {
      if (isnan(a.u.n) || isnan(b.u.n))
        return jv_num(NAN);
      double bd = b.u.n, ad = a.u.n;
      long long bi = bd >= 9.2e18    ? INT64_MAX
                     : bd <= -9.2e18 ? INT64_MIN
                                     : (long long)bd;
      long long ai = ad >= 9.2e18    ? INT64_MAX
                     : ad <= -9.2e18 ? INT64_MIN
                                     : (long long)ad;
      if (bi == 0)
        return errv(J, "divided (remainder)", a, b,
                    " because the divisor is zero");
      if (bi < 0)
        bi = -bi;
      long long r = bi == -1 ? 0 : ai % bi;
      return jv_num((double)r);
    }
    return errv(J, "divided", a, b, "");
  case 'N': {
    /* a is unused: negate b */
    jv_free(J, a);
    if (b.k == JV_NUMBER)
      return jv_num(-b.u.n);
    char x[40];
    jd_trunc(J, b, x, sizeof x);
    jv_err_str(J, "%s (%s) cannot be negated", jv_kind_name(b.k), x);
    jv_free(J, b);
    return jv_invalid();
  }
  default: {
    int r;
    if (op == 'e')
      r = jv_equal(a, b);
    else if (op == 'n')
      r = !jv_equal(a, b);
    else {
      int c = jv_cmp(a, b);
      r = op == '<' ? c < 0 : op == '>' ? c > 0 : op == 'l' ? c <= 0 : c >= 0;
    }
    jv_free(J, a);
    jv_free(J, b);
    return jv_bool(r);
  }
  }
}

/* ---- calling cfunctions ------------------------------------------------ */

typedef struct cf_ctx {
  jnode *call;
  jenv *env;
  jv in;
  jv args[8];
  int i; /* argument being evaluated (from the last) */
  int tracking;
  jcb cb;
  void *ud;
} cf_ctx;

static int cf_run(jqs *J, cf_ctx *c);

static int cf_arg_cb(jqs *J, jv v, jv p, void *ud) {
  cf_ctx *c = ud;
  jv_free(J, p);
  int i = c->i;
  c->args[i] = v;
  c->i--;
  int rc = cf_run(J, c);
  c->i++;
  jv_free(J, c->args[i]);
  c->args[i] = jv_invalid();
  return rc;
}

static int cf_run(jqs *J, cf_ctx *c) {
  if (c->i >= 0)
    return jq_eval(J, c->call->args[c->i], c->env, jv_copy(c->in), jv_invalid(),
                   cf_arg_cb, c);
  const jnative *nv = &jq_natives[c->call->native];
  jv r = nv->cf(J, jv_copy(c->in), c->args);
  if (!jv_ok(r)) {
    if (J->err.k == JV_INVALID) {
      budget_set_stop(J->bud, BUDGET_MEMORY, 0);
      return JR_HALT;
    }
    return JR_ERR;
  }
  if (c->tracking)
    return c->cb(J, r, jv_null(), c->ud);
  return c->cb(J, r, jv_invalid(), c->ud);
}

int jq_call_cf(jqs *J, jnode *call, jenv *env, jv in, jv path, jcb cb,
               void *ud) {
  cf_ctx c;
  c.call = call;
  c.env = env;
  c.in = in;
  c.i = call->nargs - 1;
  c.tracking = jv_ok(path);
  c.cb = cb;
  c.ud = ud;
  jv_free(J, path);
  for (int i = 0; i < 8; i++)
    c.args[i] = jv_invalid();
  int rc = cf_run(J, &c);
  jv_free(J, in);
  return rc;
}

/* ---- cfunctions -------------------------------------------------------- */

#define CF(name) static jv name(jqs *J, jv in, jv *a)

static jv type_err(jqs *J, jv v, const char *what) {
  char t[40];
  jd_trunc(J, v, t, sizeof t);
  jv_err_str(J, "%s (%s) %s", jv_kind_name(v.k), t, what);
  jv_free(J, v);
  return jv_invalid();
}

CF(f_length) {
  (void)a;
  double n;
  switch (in.k) {
  case JV_NULL:
    n = 0;
    break;
  case JV_TRUE:
  case JV_FALSE:
    return type_err(J, in, "has no length");
  case JV_NUMBER:
    n = fabs(in.u.n);
    break;
  case JV_STRING:
    n = jq_utf8_len(in.u.s->p, in.u.s->len);
    break;
  case JV_ARRAY:
    n = in.u.a->len;
    break;
  default:
    n = in.u.o->live;
    break;
  }
  jv_free(J, in);
  return jv_num(n);
}

CF(f_utf8bytelength) {
  (void)a;
  if (in.k != JV_STRING)
    return type_err(J, in, "only strings have UTF-8 byte length");
  double n = in.u.s->len;
  jv_free(J, in);
  return jv_num(n);
}

CF(f_not) {
  (void)a;
  int t = jv_truthy(in);
  jv_free(J, in);
  return jv_bool(!t);
}

static jv keys_(jqs *J, jv in, int sorted) {
  if (in.k == JV_OBJECT) {
    jv r = jv_keys(J, in, sorted);
    jv_free(J, in);
    return r;
  }
  if (in.k == JV_ARRAY) {
    jv r = jv_arr(J, in.u.a->len + 1);
    for (uint32_t i = 0; i < in.u.a->len && jv_ok(r); i++)
      r = jv_apush(J, r, jv_num(i));
    jv_free(J, in);
    return r;
  }
  return type_err(J, in, "has no keys");
}
CF(f_keys) {
  (void)a;
  return keys_(J, in, 1);
}
CF(f_keys_unsorted) {
  (void)a;
  return keys_(J, in, 0);
}

CF(f_has) {
  jv k = a[0];
  int r;
  if (in.k == JV_OBJECT && k.k == JV_STRING)
    r = jv_oget(in, k.u.s->p, k.u.s->len) != NULL;
  else if (in.k == JV_ARRAY && k.k == JV_NUMBER)
    r = k.u.n >= 0 && k.u.n < in.u.a->len;
  else {
    char t[40];
    jd_trunc(J, k, t, sizeof t);
    jv_err_str(J, "Cannot check whether %s has a %s key", jv_kind_name(in.k),
               jv_kind_name(k.k));
    jv_free(J, in);
    return jv_invalid();
  }
  jv_free(J, in);
  return jv_bool(r);
}

static int contains(jv a, jv b) {
  if (a.k == JV_OBJECT && b.k == JV_OBJECT) {
    for (uint32_t i = 0; i < b.u.o->n; i++) {
      jent *e = &b.u.o->e[i];
      if (!e->k)
        continue;
      jv *x = jv_oget(a, e->k->p, e->k->len);
      if (!x || !contains(*x, e->v))
        return 0;
    }
    return 1;
  }
  if (a.k == JV_ARRAY && b.k == JV_ARRAY) {
    for (uint32_t i = 0; i < b.u.a->len; i++) {
      int f = 0;
      for (uint32_t j = 0; j < a.u.a->len && !f; j++)
        f = contains(a.u.a->v[j], b.u.a->v[i]);
      if (!f)
        return 0;
    }
    return 1;
  }
  if (a.k == JV_STRING && b.k == JV_STRING)
    return memmem(a.u.s->p, a.u.s->len, b.u.s->p, b.u.s->len) != NULL ||
           b.u.s->len == 0;
  return jv_equal(a, b);
}

CF(f_contains) {
  jv b = a[0];
  if (in.k != b.k && !((in.k == JV_TRUE || in.k == JV_FALSE) &&
                       (b.k == JV_TRUE || b.k == JV_FALSE))) {
    char x[40], y[40];
    jd_trunc(J, in, x, sizeof x);
    jd_trunc(J, b, y, sizeof y);
    jv_err_str(J, "%s (%s) and %s (%s) cannot have their containment checked",
               jv_kind_name(in.k), x, jv_kind_name(b.k), y);
    jv_free(J, in);
    return jv_invalid();
  }
  int r = contains(in, b);
  jv_free(J, in);
  return jv_bool(r);
}

CF(f_tostring) {
  (void)a;
  jv r = jv_tostring(J, in);
  jv_free(J, in);
  return r;
}
CF(f_tojson) {
  (void)a;
  jv r = jv_tojson(J, in);
  jv_free(J, in);
  return r;
}

CF(f_fromjson) {
  (void)a;
  if (in.k != JV_STRING)
    return type_err(J, in, "only strings can be parsed");
  char msg[200];
  msg[0] = 0;
  jv r = jp_parse_one(J, in.u.s->p, in.u.s->len, msg, sizeof msg);
  if (!jv_ok(r)) {
    char t[200];
    snprintf(t, sizeof t, "%s", msg);
    jv_err_str(J, "%s (while parsing '%s')", t, in.u.s->p);
  }
  jv_free(J, in);
  return r;
}

CF(f_tonumber) {
  (void)a;
  if (in.k == JV_NUMBER)
    return in;
  if (in.k == JV_STRING) {
    const char *s = in.u.s->p;
    char *e;
    double d = strtod(s, &e);
    int ok = in.u.s->len > 0 && *e == 0 && !strchr(" \t\n\r", s[0]) &&
             !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) &&
             strspn(s, "0123456789+-.eE") == in.u.s->len;
    if (ok) {
      jv_free(J, in);
      return jv_num(d);
    }
  }
  return type_err(J, in, "cannot be parsed as a number");
}

CF(f_type) {
  (void)a;
  jv r = jv_cstr(J, jv_kind_name(in.k));
  jv_free(J, in);
  return r;
}

CF(f_infinite) {
  (void)a;
  jv_free(J, in);
  return jv_num(INFINITY);
}
CF(f_nan) {
  (void)a;
  jv_free(J, in);
  return jv_num(NAN);
}
CF(f_isinfinite) {
  (void)a;
  if (in.k != JV_NUMBER)
    return type_err(J, in, "number required");
  return jv_bool(isinf(in.u.n));
}
CF(f_isnan) {
  (void)a;
  if (in.k != JV_NUMBER)
    return type_err(J, in, "number required");
  return jv_bool(isnan(in.u.n));
}
CF(f_isnormal) {
  (void)a;
  if (in.k != JV_NUMBER)
    return type_err(J, in, "number required");
  return jv_bool(isnormal(in.u.n));
}

CF(f_sort) {
  (void)a;
  if (in.k != JV_ARRAY)
    return type_err(J, in, "cannot be sorted, as it is not an array");
  in = jv_unshare(J, in);
  if (jv_ok(in))
    jv_sort(J, in.u.a->v, in.u.a->len);
  return in;
}

/* The order of in's elements by their keys (stable), as indices. */
static void idx_msort(const jv *keys, uint32_t *v, uint32_t *tmp, size_t n) {
  if (n < 2)
    return;
  if (n <= 8) {
    for (size_t i = 1; i < n; i++) {
      uint32_t x = v[i];
      size_t j = i;
      while (j > 0 && jv_cmp(keys[v[j - 1]], keys[x]) > 0) {
        v[j] = v[j - 1];
        j--;
      }
      v[j] = x;
    }
    return;
  }
  size_t h = n / 2;
  idx_msort(keys, v, tmp, h);
  idx_msort(keys, v + h, tmp, n - h);
  if (jv_cmp(keys[v[h - 1]], keys[v[h]]) <= 0)
    return;
  memcpy(tmp, v, h * sizeof *v);
  size_t a = 0, b = h, k = 0;
  while (a < h && b < n)
    v[k++] = jv_cmp(keys[v[b]], keys[tmp[a]]) < 0 ? v[b++] : tmp[a++];
  while (a < h)
    v[k++] = tmp[a++];
}

static uint32_t *order_by(jqs *J, jv in, jv keys, const char *what) {
  if (in.k != JV_ARRAY) {
    char m[80];
    snprintf(m, sizeof m, "cannot be %s, as it is not an array", what);
    type_err(J, jv_copy(in), m);
    return NULL;
  }
  if (keys.k != JV_ARRAY || keys.u.a->len != in.u.a->len) {
    jv_err_str(J, "bad keys");
    return NULL;
  }
  size_t n = in.u.a->len;
  uint32_t *ord = mem_alloc(J->m, (n + 1) * sizeof *ord);
  uint32_t *tmp = mem_alloc(J->m, (n / 2 + 1) * sizeof *tmp);
  if (!ord || !tmp) {
    mem_free(J->m, ord);
    mem_free(J->m, tmp);
    jv_free(J, J->err);
    J->err = jv_invalid();
    return NULL;
  }
  for (size_t i = 0; i < n; i++)
    ord[i] = (uint32_t)i;
  idx_msort(keys.u.a->v, ord, tmp, n);
  mem_free(J->m, tmp);
  return ord;
}

CF(f_sort_by_impl) {
  uint32_t *ord = order_by(J, in, a[0], "sorted");
  if (!ord) {
    jv_free(J, in);
    return jv_invalid();
  }
  uint32_t n = in.u.a->len;
  jv r = jv_arr(J, n + 1);
  for (uint32_t i = 0; i < n && jv_ok(r); i++)
    r = jv_apush(J, r, jv_copy(in.u.a->v[ord[i]]));
  mem_free(J->m, ord);
  jv_free(J, in);
  return r;
}

CF(f_group_by_impl) {
  uint32_t *ord = order_by(J, in, a[0], "grouped");
  if (!ord) {
    jv_free(J, in);
    return jv_invalid();
  }
  const jv *keys = a[0].u.a->v;
  uint32_t n = in.u.a->len;
  jv r = jv_arr(J, 0), g = jv_invalid();
  for (uint32_t i = 0; i < n && jv_ok(r); i++) {
    if (i == 0 || !jv_equal(keys[ord[i - 1]], keys[ord[i]])) {
      if (jv_ok(g))
        r = jv_apush(J, r, g);
      g = jv_arr(J, 0);
    }
    g = jv_apush(J, g, jv_copy(in.u.a->v[ord[i]]));
  }
  if (jv_ok(g))
    r = jv_apush(J, r, g);
  mem_free(J->m, ord);
  jv_free(J, in);
  return r;
}

CF(f_unique_by_impl) {
  uint32_t *ord = order_by(J, in, a[0], "sorted");
  if (!ord) {
    jv_free(J, in);
    return jv_invalid();
  }
  const jv *keys = a[0].u.a->v;
  uint32_t n = in.u.a->len;
  jv r = jv_arr(J, 0);
  for (uint32_t i = 0; i < n && jv_ok(r); i++)
    if (i == 0 || !jv_equal(keys[ord[i - 1]], keys[ord[i]]))
      r = jv_apush(J, r, jv_copy(in.u.a->v[ord[i]]));
  mem_free(J->m, ord);
  jv_free(J, in);
  return r;
}

static jv minmax_by(jqs *J, jv in, jv keys, int max) {
  if (in.k != JV_ARRAY)
    return type_err(J, in, "cannot be iterated over");
  if (keys.k != JV_ARRAY || keys.u.a->len != in.u.a->len) {
    jv_free(J, in);
    return jv_err_str(J, "bad keys");
  }
  if (in.u.a->len == 0) {
    jv_free(J, in);
    return jv_null();
  }
  uint32_t best = 0;
  for (uint32_t i = 1; i < in.u.a->len; i++) {
    int c = jv_cmp(keys.u.a->v[i], keys.u.a->v[best]);
    if (max ? c >= 0 : c < 0)
      best = i;
  }
  jv r = jv_copy(in.u.a->v[best]);
  jv_free(J, in);
  return r;
}
CF(f_min_by_impl) {
  return minmax_by(J, in, a[0], 0);
}
CF(f_max_by_impl) {
  return minmax_by(J, in, a[0], 1);
}
CF(f_min) {
  (void)a;
  jv r = minmax_by(J, jv_copy(in), in, 0);
  jv_free(J, in);
  return r;
}
CF(f_max) {
  (void)a;
  jv r = minmax_by(J, jv_copy(in), in, 1);
  jv_free(J, in);
  return r;
}

CF(f_unique) {
  (void)a;
  jv r = f_unique_by_impl(J, jv_copy(in), &in);
  jv_free(J, in);
  return r;
}

CF(f_reverse) {
  (void)a;
  if (in.k == JV_STRING) {
    jv e = jq_explode(J, in);
    if (!jv_ok(e))
      return e;
    for (uint32_t i = 0, j = e.u.a->len; i + 1 < j; i++, j--) {
      jv t = e.u.a->v[i];
      e.u.a->v[i] = e.u.a->v[j - 1];
      e.u.a->v[j - 1] = t;
    }
    return jq_implode(J, e);
  }
  if (in.k == JV_NULL)
    return jv_arr(J, 0);
  if (in.k != JV_ARRAY)
    return type_err(J, in, "cannot be reversed, as it is not an array");
  in = jv_unshare(J, in);
  if (!jv_ok(in))
    return in;
  for (uint32_t i = 0, j = in.u.a->len; i + 1 < j; i++, j--) {
    jv t = in.u.a->v[i];
    in.u.a->v[i] = in.u.a->v[j - 1];
    in.u.a->v[j - 1] = t;
  }
  return in;
}

CF(f_setpath) {
  if (a[0].k != JV_ARRAY) {
    jv_free(J, in);
    return jv_err_str(J, "Path must be specified as an array");
  }
  return jq_setpath(J, in, a[0], 0, jv_copy(a[1]));
}

CF(f_delpaths) {
  return jq_delpaths(J, in, jv_copy(a[0]));
}

CF(f_split1) {
  if (in.k != JV_STRING || a[0].k != JV_STRING) {
    jv_free(J, in);
    return jv_err_str(J, "split input and separator must be strings");
  }
  return jq_split_str(J, in, jv_copy(a[0]));
}

CF(f_explode) {
  (void)a;
  if (in.k != JV_STRING)
    return type_err(J, in, "cannot be exploded, as it is not a string");
  return jq_explode(J, in);
}
CF(f_implode) {
  (void)a;
  if (in.k != JV_ARRAY) {
    jv_free(J, in);
    return jv_err_str(J, "implode input must be an array");
  }
  return jq_implode(J, in);
}

static jv trimstr(jqs *J, jv in, jv x, int right) {
  if (in.k != JV_STRING || x.k != JV_STRING) {
    jv_free(J, in);
    return jv_err_str(J, "%s() requires string inputs",
                      right ? "endswith" : "startswith");
  }
  size_t n = in.u.s->len, m = x.u.s->len;
  if (m > n)
    return in;
  const char *p = in.u.s->p;
  if (!right && !memcmp(p, x.u.s->p, m)) {
    jv r = jv_str(J, p + m, n - m);
    jv_free(J, in);
    return r;
  }
  if (right && !memcmp(p + n - m, x.u.s->p, m)) {
    jv r = jv_str(J, p, n - m);
    jv_free(J, in);
    return r;
  }
  return in;
}
CF(f_ltrimstr) {
  return trimstr(J, in, a[0], 0);
}
CF(f_rtrimstr) {
  return trimstr(J, in, a[0], 1);
}

CF(f_startswith) {
  if (in.k != JV_STRING || a[0].k != JV_STRING) {
    jv_free(J, in);
    return jv_err_str(J, "startswith() requires string inputs");
  }
  int r = in.u.s->len >= a[0].u.s->len &&
          !memcmp(in.u.s->p, a[0].u.s->p, a[0].u.s->len);
  jv_free(J, in);
  return jv_bool(r);
}
CF(f_endswith) {
  if (in.k != JV_STRING || a[0].k != JV_STRING) {
    jv_free(J, in);
    return jv_err_str(J, "endswith() requires string inputs");
  }
  int r = in.u.s->len >= a[0].u.s->len &&
          !memcmp(in.u.s->p + in.u.s->len - a[0].u.s->len, a[0].u.s->p,
                  a[0].u.s->len);
  jv_free(J, in);
  return jv_bool(r);
}

jv jq_trim(jqs *J, jv in, int l, int r);
static jv trim_(jqs *J, jv in, int l, int r) {
  if (in.k != JV_STRING) {
    jv_free(J, in);
    return jv_err_str(J, "trim input must be a string");
  }
  return jq_trim(J, in, l, r);
}
CF(f_trim) {
  (void)a;
  return trim_(J, in, 1, 1);
}
CF(f_ltrim) {
  (void)a;
  return trim_(J, in, 1, 0);
}
CF(f_rtrim) {
  (void)a;
  return trim_(J, in, 0, 1);
}

static jv case_(jqs *J, jv in, int up) {
  if (in.k != JV_STRING)
    return type_err(J, in,
                    up ? "cannot be uppercased" : "cannot be lowercased");
  jv r = jv_str(J, in.u.s->p, in.u.s->len);
  if (jv_ok(r))
    for (uint32_t i = 0; i < r.u.s->len; i++) {
      char c = r.u.s->p[i];
      if (up && c >= 'a' && c <= 'z')
        r.u.s->p[i] = (char)(c - 32);
      if (!up && c >= 'A' && c <= 'Z')
        r.u.s->p[i] = (char)(c + 32);
    }
  jv_free(J, in);
  return r;
}
CF(f_ascii_downcase) {
  (void)a;
  return case_(J, in, 0);
}
CF(f_ascii_upcase) {
  (void)a;
  return case_(J, in, 1);
}

#define MATH1(nm, fn)                                                          \
  CF(f_##nm) {                                                                 \
    (void)a;                                                                   \
    if (in.k != JV_NUMBER)                                                     \
      return type_err(J, in, "number required");                               \
    return jv_num(fn(in.u.n));                                                 \
  }
MATH1(floor, floor)
MATH1(ceil, ceil)
MATH1(sqrt, sqrt)
MATH1(fabs, fabs)
MATH1(round, round)
MATH1(trunc, trunc)
MATH1(exp, exp)
MATH1(exp2, exp2)
MATH1(exp10, exp10)
MATH1(log, log)
MATH1(log2, log2)
MATH1(log10, log10)
MATH1(log1p, log1p)
MATH1(expm1, expm1)
MATH1(sin, sin)
MATH1(cos, cos)
MATH1(tan, tan)
MATH1(asin, asin)
MATH1(acos, acos)
MATH1(atan, atan)
MATH1(sinh, sinh)
MATH1(cosh, cosh)
MATH1(tanh, tanh)
MATH1(asinh, asinh)
MATH1(acosh, acosh)
MATH1(atanh, atanh)
MATH1(cbrt, cbrt)
MATH1(rint, rint)
MATH1(nearbyint, nearbyint)
MATH1(significand, significand)
MATH1(logb, logb)
MATH1(gamma, lgamma)
MATH1(lgamma, lgamma)
MATH1(tgamma, tgamma)
MATH1(lgamma_r, lgamma)

CF(f_abs) {
  (void)a;
  if (in.k != JV_NUMBER)
    return type_err(J, in, "has no absolute value");
  return jv_num(in.u.n < 0 ? -in.u.n : in.u.n);
}

CF(f_frexp) {
  (void)a;
  if (in.k != JV_NUMBER)
    return type_err(J, in, "number required");
  int e;
  double m = frexp(in.u.n, &e);
  jv r = jv_arr(J, 2);
  r = jv_apush(J, r, jv_num(m));
  return jv_apush(J, r, jv_num(e));
}
CF(f_modf) {
  (void)a;
  if (in.k != JV_NUMBER)
    return type_err(J, in, "number required");
  double ip;
  double f = modf(in.u.n, &ip);
  jv r = jv_arr(J, 2);
  r = jv_apush(J, r, jv_num(f));
  return jv_apush(J, r, jv_num(ip));
}

#define MATH2(nm, fn)                                                          \
  CF(f_##nm) {                                                                 \
    jv_free(J, in);                                                            \
    if (a[0].k != JV_NUMBER || a[1].k != JV_NUMBER)                            \
      return jv_err_str(J, #nm "/2 number required");                          \
    return jv_num(fn(a[0].u.n, a[1].u.n));                                     \
  }
MATH2(pow, pow)
MATH2(atan2, atan2)
MATH2(fmod, fmod)
MATH2(hypot, hypot)
MATH2(fmin, fmin)
MATH2(fmax, fmax)
MATH2(fdim, fdim)
MATH2(copysign, copysign)
MATH2(drem, remainder)
MATH2(nextafter, nextafter)
MATH2(nexttoward, nextafter)
static double ldexp_d(double a, double b) {
  return ldexp(a, (int)b);
}
static double scalbn_d(double a, double b) {
  return scalbn(a, (int)b);
}
MATH2(scalb, scalbn_d)
MATH2(ldexp, ldexp_d)
MATH2(scalbln, scalbn_d)
CF(f_fma) {
  jv_free(J, in);
  if (a[0].k != JV_NUMBER || a[1].k != JV_NUMBER || a[2].k != JV_NUMBER)
    return jv_err_str(J, "fma/3 number required");
  return jv_num(fma(a[0].u.n, a[1].u.n, a[2].u.n));
}

CF(f_input_filename) {
  (void)a;
  jv_free(J, in);
  return jv_copy(J->cur_filename);
}

CF(f_now) {
  (void)a;
  jv_free(J, in);
  return jv_num((double)J->c->now_ns(J->c) / 1e9);
}

CF(f_builtins) {
  (void)a;
  jv_free(J, in);
  jv r = jv_arr(J, 0);
  for (int i = 0; i < jq_nnatives && jv_ok(r); i++)
    if (jq_natives[i].name[0] != '_') {
      char b[80];
      snprintf(b, sizeof b, "%s/%d", jq_natives[i].name, jq_natives[i].arity);
      r = jv_apush(J, r, jv_cstr(J, b));
    }
  for (int i = 0; i < J->nglobals && jv_ok(r); i++)
    if (J->globals[i]->name[0] != '_') {
      char b[80];
      snprintf(b, sizeof b, "%s/%d", J->globals[i]->name,
               J->globals[i]->nparams);
      r = jv_apush(J, r, jv_cstr(J, b));
    }
  return r;
}

CF(f_env) {
  (void)a;
  jv_free(J, in);
  return jv_copy(J->env_obj);
}

CF(f_halt) {
  (void)a;
  jv_free(J, in);
  J->halted = 1;
  J->halt_status = 0;
  jv_free(J, J->err);
  J->err = jv_invalid();
  return jv_err_str(J, "halt");
}

CF(f_halt_error1) {
  if (a[0].k != JV_NUMBER) {
    jv_free(J, in);
    return jv_err_str(J, "halt_error/1: number required");
  }
  J->halted = 2;
  J->halt_status = (int)a[0].u.n;
  jv_free(J, J->err);
  J->err = in;
  return jv_invalid();
}

CF(f_toarray) {
  (void)a;
  if (in.k == JV_ARRAY)
    return in;
  jv r = jv_arr(J, 1);
  return jv_apush(J, r, in);
}

CF(f_have_decnum) {
  (void)a;
  jv_free(J, in);
  return jv_bool(0);
}
CF(f_have_literal_numbers) {
  (void)a;
  jv_free(J, in);
  return jv_bool(1);
}

CF(f_get_search_list) {
  (void)a;
  jv_free(J, in);
  return jv_arr(J, 0);
}

CF(f_input_line_number) {
  (void)a;
  jv_free(J, in);
  return jv_num(J->cur_line);
}

CF(f_stderr) {
  (void)a;
  buf b;
  buf_init(&b, J->m);
  jd_dump(J, &b, in, 0);
  if (J->errw && b.data)
    wr_write(J->errw, b.data, b.len);
  buf_free(&b);
  return in;
}

CF(f_debug) {
  (void)a;
  buf b;
  buf_init(&b, J->m);
  buf_puts(&b, "[\"DEBUG:\",");
  jd_dump(J, &b, in, 0);
  buf_puts(&b, "]\n");
  if (J->errw && b.data)
    wr_write(J->errw, b.data, b.len);
  buf_free(&b);
  return in;
}

CF(f_ascii) {
  (void)a;
  if (in.k != JV_NUMBER)
    return type_err(J, in, "number required");
  char c = (char)(int)in.u.n;
  return jv_str(J, &c, 1);
}

CF(f_indices_str) {
  /* _strindices */
  if (in.k != JV_STRING || a[0].k != JV_STRING) {
    jv_free(J, in);
    return jv_err_str(J, "_strindices requires string inputs");
  }
  jv r = jv_arr(J, 0);
  const char *p = in.u.s->p;
  size_t n = in.u.s->len, m = a[0].u.s->len;
  if (m)
    for (size_t i = 0; i + m <= n && jv_ok(r); i++)
      if (!memcmp(p + i, a[0].u.s->p, m))
        r = jv_apush(J, r, jv_num((double)jq_utf8_len(p, i)));
  jv_free(J, in);
  return r;
}

CF(f_bsearch) {
  if (in.k != JV_ARRAY) {
    char t[40];
    jd_trunc(J, in, t, sizeof t);
    jv_err_str(J, "%s (%s) cannot be searched from", jv_kind_name(in.k), t);
    jv_free(J, in);
    return jv_invalid();
  }
  long lo = 0, hi = (long)in.u.a->len - 1;
  while (lo <= hi) {
    long mid = (lo + hi) / 2;
    int c = jv_cmp(in.u.a->v[mid], a[0]);
    if (c == 0) {
      jv_free(J, in);
      return jv_num((double)mid);
    }
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  jv_free(J, in);
  return jv_num(-1.0 - (double)lo);
}

CF(f_format) {
  if (a[0].k != JV_STRING) {
    jv_free(J, in);
    return jv_err_str(J, "format requires a string argument");
  }
  return jq_format(J, a[0].u.s->p, in);
}

CF(f_flatten_impl) {
  /* _flatten(depth) */
  if (in.k != JV_ARRAY)
    return type_err(J, in, "cannot be flattened");
  if (a[0].k != JV_NUMBER || a[0].u.n < 0) {
    jv_free(J, in);
    return jv_err_str(J, "flatten depth must not be negative");
  }
  jv r = jv_arr(J, 0);
  /* iterative with an explicit stack of (array, index, depth) */
  struct fr {
    jv a;
    uint32_t i;
    double d;
  };
  size_t cap = 64, sp = 0;
  struct fr *st = mem_alloc(J->m, cap * sizeof *st);
  if (!st) {
    jv_free(J, in);
    jv_free(J, r);
    return jv_invalid();
  }
  st[sp++] = (struct fr){in, 0, a[0].u.n};
  while (sp && jv_ok(r)) {
    struct fr *f = &st[sp - 1];
    if (f->i >= f->a.u.a->len) {
      sp--;
      continue;
    }
    jv x = f->a.u.a->v[f->i++];
    double d = f->d;
    if (x.k == JV_ARRAY && d > 0) {
      if (sp == cap) {
        struct fr *ns = mem_realloc(J->m, st, 2 * cap * sizeof *st);
        if (!ns) {
          jv_free(J, r);
          r = jv_invalid();
          break;
        }
        st = ns;
        cap *= 2;
      }
      st[sp++] = (struct fr){x, 0, d - 1};
    } else
      r = jv_apush(J, r, jv_copy(x));
  }
  mem_free(J->m, st);
  jv_free(J, in);
  return r;
}

/* dates and regexes live in strfn.c */
jv jq_f_mktime(jqs *J, jv in, jv *a);
jv jq_f_gmtime(jqs *J, jv in, jv *a);
jv jq_f_localtime(jqs *J, jv in, jv *a);
jv jq_f_strftime(jqs *J, jv in, jv *a);
jv jq_f_strflocaltime(jqs *J, jv in, jv *a);
jv jq_f_strptime(jqs *J, jv in, jv *a);
jv jq_f_match(jqs *J, jv in, jv *a);
jv jq_f_ltrimstr(jqs *J, jv in, jv *a);

#define GF(name)                                                               \
  static int name(jqs *J, jnode *call, jenv *env, jv in, jv path, jcb cb,      \
                  void *ud)

/* sort_by-like: collect [f] for each element, then call the impl */
typedef struct keys_ctx {
  jv acc;
} keys_ctx;

static int keys_collect_cb(jqs *J, jv v, jv p, void *ud) {
  keys_ctx *c = ud;
  jv_free(J, p);
  c->acc = jv_apush(J, c->acc, v);
  return jv_ok(c->acc) ? 0
                       : (budget_set_stop(J->bud, BUDGET_MEMORY, 0), JR_HALT);
}

static int by_impl(jqs *J, jnode *call, jenv *env, jv in, jv path, jcb cb,
                   void *ud, jv (*impl)(jqs *, jv, jv *), const char *what) {
  jv_free(J, path);
  if (in.k != JV_ARRAY) {
    char t[40], m[200];
    jd_trunc(J, in, t, sizeof t);
    snprintf(m, sizeof m, "%s (%s) cannot be %s, as it is not an array",
             jv_kind_name(in.k), t, what);
    jv_free(J, in);
    return jq_errf(J, "%s", m);
  }
  jv keys = jv_arr(J, in.u.a->len + 1);
  for (uint32_t i = 0; i < in.u.a->len && jv_ok(keys); i++) {
    keys_ctx k = {jv_arr(J, 1)};
    int rc = jq_eval(J, call->args[0], env, jv_copy(in.u.a->v[i]), jv_invalid(),
                     keys_collect_cb, &k);
    if (rc) {
      jv_free(J, k.acc);
      jv_free(J, keys);
      jv_free(J, in);
      return rc;
    }
    keys = jv_apush(J, keys, k.acc);
  }
  if (!jv_ok(keys)) {
    jv_free(J, in);
    budget_set_stop(J->bud, BUDGET_MEMORY, 0);
    return JR_HALT;
  }
  jv r = impl(J, in, &keys);
  jv_free(J, keys);
  if (!jv_ok(r))
    return J->err.k == JV_INVALID ? JR_HALT : JR_ERR;
  return cb(J, r, jv_invalid(), ud);
}

GF(g_sort_by) {
  return by_impl(J, call, env, in, path, cb, ud, f_sort_by_impl, "sorted");
}
GF(g_group_by) {
  return by_impl(J, call, env, in, path, cb, ud, f_group_by_impl, "grouped");
}
GF(g_unique_by) {
  return by_impl(J, call, env, in, path, cb, ud, f_unique_by_impl, "sorted");
}
GF(g_min_by) {
  return by_impl(J, call, env, in, path, cb, ud, f_min_by_impl,
                 "iterated over");
}
GF(g_max_by) {
  return by_impl(J, call, env, in, path, cb, ud, f_max_by_impl,
                 "iterated over");
}

/* gen.c */
int jq_g_empty(jqs *J, jnode *call, jenv *env, jv in, jv path, jcb cb,
               void *ud);
int jq_g_path(jqs *J, jnode *call, jenv *env, jv in, jv path, jcb cb, void *ud);
int jq_g_getpath(jqs *J, jnode *call, jenv *env, jv in, jv path, jcb cb,
                 void *ud);
int jq_g_range(jqs *J, jnode *call, jenv *env, jv in, jv path, jcb cb,
               void *ud);
int jq_g_input(jqs *J, jnode *call, jenv *env, jv in, jv path, jcb cb,
               void *ud);
int jq_g_inputs(jqs *J, jnode *call, jenv *env, jv in, jv path, jcb cb,
                void *ud);
int jq_g_error1(jqs *J, jnode *call, jenv *env, jv in, jv path, jcb cb,
                void *ud);
int jq_g_error0(jqs *J, jnode *call, jenv *env, jv in, jv path, jcb cb,
                void *ud);
int jq_g_map(jqs *J, jnode *call, jenv *env, jv in, jv path, jcb cb, void *ud);
int jq_g_select(jqs *J, jnode *call, jenv *env, jv in, jv path, jcb cb,
                void *ud);

/* ---- the table --------------------------------------------------------- */

#define C0(n, f)                                                               \
  { n, 0, 0, f, NULL }
#define C1(n, f)                                                               \
  { n, 1, 0, f, NULL }
#define C2(n, f)                                                               \
  { n, 2, 0, f, NULL }
#define C3(n, f)                                                               \
  { n, 3, 0, f, NULL }
#define G(n, a, f)                                                             \
  { n, a, 1, NULL, f }

const jnative jq_natives[] = {
    G("empty", 0, jq_g_empty),
    G("path", 1, jq_g_path),
    G("getpath", 1, jq_g_getpath),
    G("range", 2, jq_g_range),
    G("range", 3, jq_g_range),
    G("input", 0, jq_g_input),
    G("inputs", 0, jq_g_inputs),
    G("sort_by", 1, g_sort_by),
    G("group_by", 1, g_group_by),
    G("unique_by", 1, g_unique_by),
    G("min_by", 1, g_min_by),
    G("max_by", 1, g_max_by),
    G("error", 1, jq_g_error1),
    G("error", 0, jq_g_error0),
    G("map", 1, jq_g_map),
    G("select", 1, jq_g_select),
    C0("length", f_length),
    C0("utf8bytelength", f_utf8bytelength),
    C0("not", f_not),
    C0("keys", f_keys),
    C0("keys_unsorted", f_keys_unsorted),
    C1("has", f_has),
    C1("contains", f_contains),
    C0("tostring", f_tostring),
    C0("tojson", f_tojson),
    C0("fromjson", f_fromjson),
    C0("tonumber", f_tonumber),
    C0("type", f_type),
    C0("infinite", f_infinite),
    C0("nan", f_nan),
    C0("isinfinite", f_isinfinite),
    C0("isnan", f_isnan),
    C0("isnormal", f_isnormal),
    C0("sort", f_sort),
    C1("_sort_by_impl", f_sort_by_impl),
    C1("_group_by_impl", f_group_by_impl),
    C1("_unique_by_impl", f_unique_by_impl),
    C1("_min_by_impl", f_min_by_impl),
    C1("_max_by_impl", f_max_by_impl),
    C0("min", f_min),
    C0("max", f_max),
    C0("unique", f_unique),
    C0("reverse", f_reverse),
    C2("setpath", f_setpath),
    C1("delpaths", f_delpaths),
    C1("split", f_split1),
    C0("explode", f_explode),
    C0("implode", f_implode),
    C1("ltrimstr", f_ltrimstr),
    C1("rtrimstr", f_rtrimstr),
    C1("startswith", f_startswith),
    C1("endswith", f_endswith),
    C0("trim", f_trim),
    C0("ltrim", f_ltrim),
    C0("rtrim", f_rtrim),
    C0("ascii_downcase", f_ascii_downcase),
    C0("ascii_upcase", f_ascii_upcase),
    C0("floor", f_floor),
    C0("ceil", f_ceil),
    C0("sqrt", f_sqrt),
    C0("fabs", f_fabs),
    C0("abs", f_abs),
    C0("round", f_round),
    C0("trunc", f_trunc),
    C0("exp", f_exp),
    C0("exp2", f_exp2),
    C0("exp10", f_exp10),
    C0("pow10", f_exp10),
    C0("log", f_log),
    C0("log2", f_log2),
    C0("log10", f_log10),
    C0("log1p", f_log1p),
    C0("expm1", f_expm1),
    C0("sin", f_sin),
    C0("cos", f_cos),
    C0("tan", f_tan),
    C0("asin", f_asin),
    C0("acos", f_acos),
    C0("atan", f_atan),
    C0("sinh", f_sinh),
    C0("cosh", f_cosh),
    C0("tanh", f_tanh),
    C0("asinh", f_asinh),
    C0("acosh", f_acosh),
    C0("atanh", f_atanh),
    C0("cbrt", f_cbrt),
    C0("rint", f_rint),
    C0("nearbyint", f_nearbyint),
    C0("significand", f_significand),
    C0("logb", f_logb),
    C0("gamma", f_gamma),
    C0("lgamma", f_lgamma),
    C0("tgamma", f_tgamma),
    C0("lgamma_r", f_lgamma_r),
    C0("frexp", f_frexp),
    C0("modf", f_modf),
    C2("pow", f_pow),
    C2("atan2", f_atan2),
    C2("fmod", f_fmod),
    C2("hypot", f_hypot),
    C2("fmin", f_fmin),
    C2("fmax", f_fmax),
    C2("fdim", f_fdim),
    C2("copysign", f_copysign),
    C2("drem", f_drem),
    C2("nextafter", f_nextafter),
    C2("nexttoward", f_nexttoward),
    C2("scalb", f_scalb),
    C2("scalbln", f_scalbln),
    C2("ldexp", f_ldexp),
    C3("fma", f_fma),
    C0("input_filename", f_input_filename),
    C0("now", f_now),
    C0("builtins", f_builtins),
    C0("env", f_env),
    C0("halt", f_halt),
    C1("halt_error", f_halt_error1),
    C0("toarray", f_toarray),
    C0("have_decnum", f_have_decnum),
    C0("have_literal_numbers", f_have_literal_numbers),
    C0("get_search_list", f_get_search_list),
    C0("input_line_number", f_input_line_number),
    C0("stderr", f_stderr),
    C0("debug", f_debug),
    C0("ascii", f_ascii),
    C1("_strindices", f_indices_str),
    C1("format", f_format),
    C1("bsearch", f_bsearch),
    C1("_flatten", f_flatten_impl),
    C0("mktime", jq_f_mktime),
    C0("gmtime", jq_f_gmtime),
    C0("localtime", jq_f_localtime),
    C1("strftime", jq_f_strftime),
    C1("strflocaltime", jq_f_strflocaltime),
    C1("strptime", jq_f_strptime),
    C3("_match_impl", jq_f_match),
};
const int jq_nnatives = (int)(sizeof jq_natives / sizeof jq_natives[0]);
