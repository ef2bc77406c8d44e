/*
 * paths.c - indexing, slices, and the path functions getpath, setpath and
 * delpaths, with jq's messages.
 */
#include <math.h>
#include <string.h>

#include "builtins/data/jq/jq.h"

/* ---- indexing ---------------------------------------------------------- */

jv jq_index(jqs *J, jv t, jv k) {
  jv r;
  if (t.k == JV_OBJECT && k.k == JV_STRING) {
    jv *p = jv_oget(t, k.u.s->p, k.u.s->len);
    r = p ? jv_copy(*p) : jv_null();
  } else if (t.k == JV_ARRAY && k.k == JV_NUMBER) {
    if (isnan(k.u.n))
      r = jv_null();
    else {
      double d = floor(k.u.n);
      if (d < 0)
        d += t.u.a->len;
      r = d < 0 || d >= t.u.a->len ? jv_null() : jv_copy(t.u.a->v[(size_t)d]);
    }
  } else if (t.k == JV_NULL &&
             (k.k == JV_STRING || k.k == JV_NUMBER || k.k == JV_OBJECT)) {
    r = jv_null();
  } else if (t.k == JV_ARRAY && k.k == JV_ARRAY) {
    /* indices of a sub-array */
    r = jv_arr(J, 0);
    jarr *a = t.u.a, *b = k.u.a;
    if (b->len)
      for (uint32_t i = 0; i + b->len <= a->len && jv_ok(r); i++) {
        uint32_t j = 0;
        while (j < b->len && jv_equal(a->v[i + j], b->v[j]))
          j++;
        if (j == b->len)
          r = jv_apush(J, r, jv_num(i));
      }
    else {
      jv_free(J, r);
      r = jv_null();
    }
  } else if (t.k == JV_ARRAY && k.k == JV_OBJECT) {
    /* .[{"start":a,"end":b}] as a slice */
    jv *s = jv_oget(k, "start", 5), *e = jv_oget(k, "end", 3);
    (void)s;
    (void)e;
    r = jv_err_str(J, "Cannot index array with object");
  } else {
    char ks[40];
    if (k.k == JV_STRING) {
      jd_trunc(J, k, ks, sizeof ks);
      r = jv_err_str(J, "Cannot index %s with string %s", jv_kind_name(t.k),
                     ks);
    } else
      r = jv_err_str(J, "Cannot index %s with %s", jv_kind_name(t.k),
                     jv_kind_name(k.k));
  }
  jv_free(J, t);
  jv_free(J, k);
  return r;
}

static int utf8_offset(const char *p, size_t n, long cps) {
  size_t i = 0;
  while (cps > 0 && i < n) {
    i++;
    while (i < n && ((unsigned char)p[i] & 0xC0) == 0x80)
      i++;
    cps--;
  }
  return (int)i;
}

void jq_slice_bounds(double len, jv from, jv to, long *s, long *e) {
  double a = from.k == JV_NUMBER && !isnan(from.u.n) ? from.u.n : 0;
  double b = to.k == JV_NUMBER && !isnan(to.u.n) ? to.u.n : len;
  if (a < 0)
    a += len;
  if (b < 0)
    b += len;
  if (a < 0)
    a = 0;
  if (b > len)
    b = len;
  a = floor(a);
  b = ceil(b);
  if (a > len)
    a = len;
  if (b < a)
    b = a;
  *s = (long)a;
  *e = (long)b;
}

jv jq_slice(jqs *J, jv t, jv from, jv to) {
  if ((from.k != JV_NUMBER && from.k != JV_NULL) ||
      (to.k != JV_NUMBER && to.k != JV_NULL)) {
    jv_free(J, t);
    return jv_err_str(
        J, "Start and end indices of an array slice must be numbers");
  }
  if (t.k == JV_NULL)
    return t;
  long s, e;
  if (t.k == JV_ARRAY) {
    jq_slice_bounds(t.u.a->len, from, to, &s, &e);
    jv r = jv_arr(J, (size_t)(e - s) + 1);
    for (long i = s; i < e && jv_ok(r); i++)
      r = jv_apush(J, r, jv_copy(t.u.a->v[i]));
    jv_free(J, t);
    return r;
  }
  if (t.k == JV_STRING) {
    int len = jq_utf8_len(t.u.s->p, t.u.s->len);
    jq_slice_bounds(len, from, to, &s, &e);
    int bs = utf8_offset(t.u.s->p, t.u.s->len, s);
    int be = utf8_offset(t.u.s->p, t.u.s->len, e);
    jv r = jv_str(J, t.u.s->p + bs, (size_t)(be - bs));
    jv_free(J, t);
    return r;
  }
  jv r = jv_err_str(J, "Cannot index %s with object", jv_kind_name(t.k));
  jv_free(J, t);
  return r;
}

/* ---- paths ------------------------------------------------------------- */

jv jq_getpath(jqs *J, jv v, jv path) {
  for (uint32_t i = 0; i < path.u.a->len; i++) {
    if (v.k == JV_NULL) {
      return v;
    }
    jv k = path.u.a->v[i];
    if (k.k == JV_OBJECT) {
      jv *s = jv_oget(k, "start", 5), *e = jv_oget(k, "end", 3);
      v = jq_slice(J, v, s ? *s : jv_null(), e ? *e : jv_null());
    } else
      v = jq_index(J, v, jv_copy(k));
    if (!jv_ok(v))
      return v;
  }
  return v;
}

jv jq_setpath(jqs *J, jv v, jv path, size_t i, jv x) {
  if (!jv_ok(v) || !jv_ok(x)) {
    jv_free(J, v);
    jv_free(J, x);
    return jv_invalid();
  }
  if (i >= path.u.a->len) {
    jv_free(J, v);
    return x;
  }
  jv k = path.u.a->v[i];
  if (k.k == JV_STRING) {
    if (v.k == JV_NULL) {
      v = jv_obj(J);
    } else if (v.k != JV_OBJECT) {
      char ks[40];
      jd_trunc(J, k, ks, sizeof ks);
      jv_err_str(J, "Cannot index %s with %s", jv_kind_name(v.k), ks);
      jv_free(J, v);
      jv_free(J, x);
      return jv_invalid();
    }
    jv *cur = jv_oget(v, k.u.s->p, k.u.s->len);
    jv sub = cur ? jv_copy(*cur) : jv_null();
    /* drop our reference in the parent so sub can change in place */
    if (cur && v.u.o->rc == 1) {
      jv_free(J, *cur);
      *cur = jv_null();
    }
    sub = jq_setpath(J, sub, path, i + 1, x);
    if (!jv_ok(sub)) {
      jv_free(J, v);
      return sub;
    }
    return jv_oset(J, v, jv_copy(k), sub);
  }
  if (k.k == JV_NUMBER) {
    if (v.k == JV_NULL)
      v = jv_arr(J, 0);
    else if (v.k != JV_ARRAY) {
      jv_err_str(J, "Cannot index %s with number", jv_kind_name(v.k));
      jv_free(J, v);
      jv_free(J, x);
      return jv_invalid();
    }
    if (!jv_ok(v)) {
      jv_free(J, x);
      return v;
    }
    if (isnan(k.u.n)) {
      jv_free(J, v);
      jv_free(J, x);
      return jv_err_str(J, "Cannot set array element at NaN index");
    }
    long idx = (long)floor(k.u.n);
    if (idx < 0 && idx + (long)v.u.a->len < 0) {
      jv_free(J, v);
      jv_free(J, x);
      return jv_err_str(J, "Out of bounds negative array index");
    }
    if (idx < 0)
      idx += v.u.a->len;
    jv sub = jv_copy(jv_aget(v, idx));
    v = jv_unshare(J, v);
    if (jv_ok(v) && (size_t)idx < v.u.a->len) {
      jv_free(J, v.u.a->v[idx]);
      v.u.a->v[idx] = jv_null();
    }
    sub = jq_setpath(J, sub, path, i + 1, x);
    if (!jv_ok(sub)) {
      jv_free(J, v);
      return sub;
    }
    return jv_aset(J, v, idx, sub);
  }
  if (k.k == JV_ARRAY && v.k == JV_ARRAY) {
    jv_free(J, v);
    jv_free(J, x);
    return jv_err_str(J, "Cannot update field at array index of array");
  }
  if (k.k == JV_OBJECT && v.k == JV_STRING) {
    jv_free(J, v);
    jv_free(J, x);
    return jv_err_str(J, "Cannot update string slices");
  }
  if (k.k == JV_OBJECT) {
    if (v.k == JV_NULL)
      v = jv_arr(J, 0);
    if (v.k != JV_ARRAY) {
      jv_err_str(J, "Cannot update field at object index of %s",
                 jv_kind_name(v.k));
      jv_free(J, v);
      jv_free(J, x);
      return jv_invalid();
    }
    jv *sp = jv_oget(k, "start", 5), *ep = jv_oget(k, "end", 3);
    long s, e;
    jq_slice_bounds(v.u.a->len, sp ? *sp : jv_null(), ep ? *ep : jv_null(), &s,
                    &e);
    jv sub =
        jq_slice(J, jv_copy(v), sp ? *sp : jv_null(), ep ? *ep : jv_null());
    sub = jq_setpath(J, sub, path, i + 1, x);
    if (!jv_ok(sub)) {
      jv_free(J, v);
      return sub;
    }
    if (sub.k != JV_ARRAY) {
      jv_free(J, v);
      jv_free(J, sub);
      return jv_err_str(
          J, "A slice of an array can only be assigned another array");
    }
    jv r = jv_arr(J, v.u.a->len + sub.u.a->len);
    for (long q = 0; q < s && jv_ok(r); q++)
      r = jv_apush(J, r, jv_copy(v.u.a->v[q]));
    for (uint32_t q = 0; q < sub.u.a->len && jv_ok(r); q++)
      r = jv_apush(J, r, jv_copy(sub.u.a->v[q]));
    for (long q = e; q < (long)v.u.a->len && jv_ok(r); q++)
      r = jv_apush(J, r, jv_copy(v.u.a->v[q]));
    jv_free(J, v);
    jv_free(J, sub);
    return r;
  }
  if (k.k == JV_NULL && (v.k == JV_NULL)) {
    jv_free(J, v);
    return jq_setpath(J, jv_null(), path, i + 1, x);
  }
  char ks[40];
  jd_trunc(J, k, ks, sizeof ks);
  if (v.k == JV_OBJECT || v.k == JV_ARRAY || v.k == JV_NULL)
    jv_err_str(J, "Cannot update field at object index of %s",
               jv_kind_name(v.k));
  if (v.k == JV_ARRAY)
    jv_err_str(J, "Cannot update field at object index of array");
  else
    jv_err_str(J, "Cannot index %s with %s", jv_kind_name(v.k),
               jv_kind_name(k.k));
  jv_free(J, v);
  jv_free(J, x);
  return jv_invalid();
}

static jv delpath1(jqs *J, jv v, jv path, size_t i) {
  if (v.k == JV_NULL)
    return v;
  jv k = path.u.a->v[i];
  if (i + 1 == path.u.a->len) {
    if (v.k == JV_OBJECT && k.k == JV_STRING)
      return jv_odel(J, v, k.u.s);
    if (v.k == JV_ARRAY && k.k == JV_NUMBER) {
      long idx = (long)floor(k.u.n);
      if (idx < 0)
        idx += v.u.a->len;
      if (idx < 0) {
        jv_free(J, v);
        return jv_err_str(J, "Out of bounds negative array index");
      }
      if ((size_t)idx >= v.u.a->len)
        return v;
      v = jv_unshare(J, v);
      if (!jv_ok(v))
        return v;
      jv_free(J, v.u.a->v[idx]);
      memmove(v.u.a->v + idx, v.u.a->v + idx + 1,
              (v.u.a->len - idx - 1) * sizeof(jv));
      v.u.a->len--;
      return v;
    }
    if (v.k == JV_ARRAY && k.k == JV_OBJECT) {
      jv *sp = jv_oget(k, "start", 5), *ep = jv_oget(k, "end", 3);
      long s, e;
      jq_slice_bounds(v.u.a->len, sp ? *sp : jv_null(), ep ? *ep : jv_null(),
                      &s, &e);
      v = jv_unshare(J, v);
      if (!jv_ok(v))
        return v;
      for (long q = s; q < e; q++)
        jv_free(J, v.u.a->v[q]);
      memmove(v.u.a->v + s, v.u.a->v + e, (v.u.a->len - e) * sizeof(jv));
      v.u.a->len -= (uint32_t)(e - s);
      return v;
    }
    char ks[40];
    jd_trunc(J, k, ks, sizeof ks);
    if (k.k == JV_STRING)
      jv_err_str(J, "Cannot delete field at object index of %s",
                 jv_kind_name(v.k));
    else
      jv_err_str(J, "Cannot delete field at index of %s", jv_kind_name(v.k));
    if (v.k == JV_OBJECT)
      jv_err_str(J, "Cannot delete field at index of object");
    if (v.k == JV_ARRAY && k.k == JV_STRING)
      jv_err_str(J, "Cannot delete field at object index of array");
    jv_free(J, v);
    return jv_invalid();
  }
  /* descend one level */
  jv child;
  if (k.k == JV_OBJECT) {
    jv *sp = jv_oget(k, "start", 5), *ep = jv_oget(k, "end", 3);
    child = jq_slice(J, jv_copy(v), sp ? *sp : jv_null(), ep ? *ep : jv_null());
  } else
    child = jq_index(J, jv_copy(v), jv_copy(k));
  if (!jv_ok(child)) {
    jv_free(J, v);
    return child;
  }
  if (child.k == JV_NULL) {
    jv_free(J, child);
    return v;
  }
  child = delpath1(J, child, path, i + 1);
  if (!jv_ok(child)) {
    jv_free(J, v);
    return child;
  }
  jv one = jv_arr(J, 1);
  one = jv_apush(J, one, jv_copy(k));
  if (!jv_ok(one)) {
    jv_free(J, v);
    jv_free(J, child);
    return one;
  }
  v = jq_setpath(J, v, one, 0, child);
  jv_free(J, one);
  return v;
}

jv jq_delpaths(jqs *J, jv v, jv paths) {
  if (paths.k != JV_ARRAY) {
    jv_free(J, v);
    jv_free(J, paths);
    return jv_err_str(J, "Paths must be specified as an array");
  }
  /* negative indices count from the end of the array they index: make
   * them positive first, so that the order of deletion is right; one
   * before the start deletes nothing */
  jv norm = jv_arr(J, paths.u.a->len + 1);
  for (uint32_t i = 0; i < paths.u.a->len && jv_ok(norm); i++) {
    jv p = paths.u.a->v[i];
    if (p.k != JV_ARRAY) {
      norm = jv_apush(J, norm, jv_copy(p));
      continue;
    }
    jv q = jv_copy(p), cur = jv_copy(v);
    int skip = 0;
    for (uint32_t k = 0; k < p.u.a->len && jv_ok(q); k++) {
      jv key = p.u.a->v[k];
      if (key.k == JV_NUMBER && key.u.n < 0 && cur.k == JV_ARRAY) {
        double x = floor(key.u.n) + cur.u.a->len;
        if (x < 0) {
          skip = 1;
          break;
        }
        q = jv_aset(J, q, k, jv_num(x));
        key = jv_num(x);
      }
      if (cur.k != JV_ARRAY && cur.k != JV_OBJECT)
        break;
      if (key.k == JV_OBJECT || (cur.k == JV_ARRAY && key.k != JV_NUMBER) ||
          (cur.k == JV_OBJECT && key.k != JV_STRING))
        break;
      cur = jq_index(J, cur, jv_copy(key));
      if (!jv_ok(cur))
        break;
    }
    jv_free(J, cur);
    if (skip)
      jv_free(J, q);
    else
      norm = jv_apush(J, norm, q);
  }
  jv_free(J, paths);
  paths = norm;
  if (!jv_ok(paths)) {
    jv_free(J, v);
    return paths;
  }
  jv_sort(J, paths.u.a->v, paths.u.a->len);
  for (long i = (long)paths.u.a->len - 1; i >= 0 && jv_ok(v); i--) {
    jv p = paths.u.a->v[i];
    if (p.k != JV_ARRAY) {
      jv_free(J, v);
      jv_free(J, paths);
      return jv_err_str(J, "Path must be specified as an array");
    }
    if (p.u.a->len == 0) {
      jv_free(J, v);
      jv_free(J, paths);
      return jv_null();
    }
    v = delpath1(J, v, p, 0);
  }
  jv_free(J, paths);
  return v;
}
