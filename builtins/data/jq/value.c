/*
 * value.c - JSON values: reference-counted strings, arrays, objects with
 * insertion order and a hash index; jq's ordering of values.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins/data/jq/jq.h"

const char *jv_kind_name(int k) {
  static const char *const names[] = {"<invalid>", "null",   "boolean",
                                      "boolean",   "number", "string",
                                      "array",     "object"};
  return names[k];
}

/* Containers whose count reached zero are freed from a worklist threaded
 * through themselves: deep nesting needs no C stack. */
void jv_free_(jqs *J, jv v) {
  if (v.k == JV_STRING) {
    mem_free(J->m, v.u.s);
    return;
  }
  uint8_t k = v.k;
  void *c = v.u.rc;
  while (c) {
    uint8_t nk;
    void *next;
    if (k == JV_ARRAY) {
      jarr *a = c;
      nk = a->fkind;
      next = a->fnext;
      for (uint32_t i = 0; i < a->len; i++) {
        jv x = a->v[i];
        if (x.k == JV_STRING) {
          jv_free(J, x);
        } else if (x.k >= JV_ARRAY && --(*x.u.rc) == 0) {
          if (x.k == JV_ARRAY) {
            x.u.a->fkind = nk;
            x.u.a->fnext = next;
          } else {
            x.u.o->fkind = nk;
            x.u.o->fnext = next;
          }
          nk = x.k;
          next = x.u.rc;
        }
      }
      mem_free(J->m, a->v);
      mem_free(J->m, a);
    } else {
      jobj *o = c;
      nk = o->fkind;
      next = o->fnext;
      for (uint32_t i = 0; i < o->n; i++) {
        if (!o->e[i].k)
          continue;
        jv ks = {JV_STRING, 0, {0}};
        ks.u.s = o->e[i].k;
        jv_free(J, ks);
        jv x = o->e[i].v;
        if (x.k == JV_STRING) {
          jv_free(J, x);
        } else if (x.k >= JV_ARRAY && --(*x.u.rc) == 0) {
          if (x.k == JV_ARRAY) {
            x.u.a->fkind = nk;
            x.u.a->fnext = next;
          } else {
            x.u.o->fkind = nk;
            x.u.o->fnext = next;
          }
          nk = x.k;
          next = x.u.rc;
        }
      }
      mem_free(J->m, o->e);
      mem_free(J->m, o->idx);
      mem_free(J->m, o);
    }
    k = nk;
    c = next;
  }
}

jv jv_str(jqs *J, const char *p, size_t n) {
  if (n > UINT32_MAX - 64)
    return jv_invalid();
  jstr *s = mem_alloc(J->m, sizeof *s + n + 1);
  if (!s)
    return jv_invalid();
  s->rc = 1;
  s->len = (uint32_t)n;
  s->hash = 0;
  if (n)
    memcpy(s->p, p, n);
  s->p[n] = 0;
  jv v = {JV_STRING, 0, {0}};
  v.u.s = s;
  return v;
}

jv jv_cstr(jqs *J, const char *s) {
  return jv_str(J, s, strlen(s));
}

jv jv_strcat(jqs *J, jv a, const char *p, size_t n) {
  if (!jv_ok(a))
    return a;
  jstr *s = a.u.s;
  if ((uint64_t)s->len + n > UINT32_MAX - 64) {
    jv_free(J, a);
    return jv_invalid();
  }
  if (s->rc == 1) {
    jstr *t = mem_realloc(J->m, s, sizeof *s + s->len + n + 1);
    if (!t) {
      jv_free(J, a);
      return jv_invalid();
    }
    memcpy(t->p + t->len, p, n);
    t->len += (uint32_t)n;
    t->p[t->len] = 0;
    t->hash = 0;
    a.u.s = t;
    return a;
  }
  jv r = jv_str(J, NULL, 0);
  if (!jv_ok(r)) {
    jv_free(J, a);
    return r;
  }
  r = jv_strcat(J, r, s->p, s->len);
  jv_free(J, a);
  return jv_strcat(J, r, p, n);
}

uint32_t jv_strhash(jstr *s) {
  if (s->hash)
    return s->hash;
  uint32_t h = 2166136261u;
  for (uint32_t i = 0; i < s->len; i++)
    h = (h ^ (unsigned char)s->p[i]) * 16777619u;
  if (!h)
    h = 1;
  s->hash = h;
  return h;
}

static uint32_t hash_bytes(const char *p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)p[i]) * 16777619u;
  return h ? h : 1;
}

/* ---- arrays ------------------------------------------------------------ */

jv jv_arr(jqs *J, size_t cap) {
  jarr *a = mem_alloc(J->m, sizeof *a);
  if (!a)
    return jv_invalid();
  a->rc = 1;
  a->len = 0;
  a->fnext = NULL;
  a->fkind = 0;
  a->cap = cap ? (uint32_t)cap : 4;
  a->v = mem_alloc(J->m, a->cap * sizeof(jv));
  if (!a->v) {
    mem_free(J->m, a);
    return jv_invalid();
  }
  jv v = {JV_ARRAY, 0, {0}};
  v.u.a = a;
  return v;
}

jv jv_unshare(jqs *J, jv v) {
  if (v.k == JV_ARRAY && v.u.a->rc > 1) {
    jarr *a = v.u.a;
    jv r = jv_arr(J, a->len ? a->len : 1);
    if (!jv_ok(r)) {
      jv_free(J, v);
      return r;
    }
    for (uint32_t i = 0; i < a->len; i++)
      r.u.a->v[i] = jv_copy(a->v[i]);
    r.u.a->len = a->len;
    jv_free(J, v);
    return r;
  }
  if (v.k == JV_OBJECT && v.u.o->rc > 1) {
    jobj *o = v.u.o;
    jv r = jv_obj(J);
    if (!jv_ok(r)) {
      jv_free(J, v);
      return r;
    }
    for (uint32_t i = 0; i < o->n; i++)
      if (o->e[i].k) {
        o->e[i].k->rc++;
        jv ks = {JV_STRING, 0, {0}};
        ks.u.s = o->e[i].k;
        r = jv_oset(J, r, ks, jv_copy(o->e[i].v));
        if (!jv_ok(r))
          break;
      }
    jv_free(J, v);
    return r;
  }
  return v;
}

static int agrow(jqs *J, jarr *a, size_t need) {
  if (need <= a->cap)
    return 0;
  if (need > (1u << 28))
    return -1;
  size_t nc = a->cap * 2;
  if (nc < need)
    nc = need;
  jv *nv = mem_realloc(J->m, a->v, nc * sizeof(jv));
  if (!nv)
    return -1;
  a->v = nv;
  a->cap = (uint32_t)nc;
  return 0;
}

jv jv_apush(jqs *J, jv a, jv x) {
  if (!jv_ok(a) || !jv_ok(x)) {
    jv_free(J, a);
    jv_free(J, x);
    return jv_invalid();
  }
  a = jv_unshare(J, a);
  if (!jv_ok(a) || agrow(J, a.u.a, (size_t)a.u.a->len + 1)) {
    jv_free(J, a);
    jv_free(J, x);
    return jv_invalid();
  }
  a.u.a->v[a.u.a->len++] = x;
  return a;
}

jv jv_aset(jqs *J, jv a, long i, jv x) {
  a = jv_unshare(J, a);
  if (!jv_ok(a) || !jv_ok(x)) {
    jv_free(J, a);
    jv_free(J, x);
    return jv_invalid();
  }
  jarr *r = a.u.a;
  if (i < 0)
    i += r->len;
  if (i < 0) {
    jv_free(J, a);
    jv_free(J, x);
    return jv_err_str(J, "Out of bounds negative array index");
  }
  if ((size_t)i >= r->len) {
    if (i > (1L << 27) || agrow(J, r, (size_t)i + 1)) {
      jv_free(J, a);
      jv_free(J, x);
      return jv_err_str(J, "Array index too large");
    }
    while (r->len <= (size_t)i)
      r->v[r->len++] = jv_null();
  }
  jv_free(J, r->v[i]);
  r->v[i] = x;
  return a;
}

jv jv_aget(jv a, long i) {
  if (i < 0)
    i += a.u.a->len;
  if (i < 0 || (size_t)i >= a.u.a->len)
    return jv_null();
  return a.u.a->v[i];
}

/* ---- objects ----------------------------------------------------------- */

jv jv_obj(jqs *J) {
  jobj *o = mem_calloc(J->m, 1, sizeof *o);
  if (!o)
    return jv_invalid();
  o->rc = 1;
  jv v = {JV_OBJECT, 0, {0}};
  v.u.o = o;
  return v;
}

static int32_t ofind(jobj *o, const char *k, size_t n, uint32_t h) {
  if (!o->idx) {
    for (uint32_t i = 0; i < o->n; i++)
      if (o->e[i].k && o->e[i].k->len == n && !memcmp(o->e[i].k->p, k, n))
        return (int32_t)i;
    return -1;
  }
  for (uint32_t j = h & o->mask;; j = (j + 1) & o->mask) {
    int32_t x = o->idx[j];
    if (x == -1)
      return -1;
    if (x >= 0 && o->e[x].k && o->e[x].k->len == n &&
        !memcmp(o->e[x].k->p, k, n))
      return x;
  }
}

static int oreindex(jqs *J, jobj *o) {
  /* compact deleted slots, then rebuild the index when large */
  uint32_t w = 0;
  for (uint32_t i = 0; i < o->n; i++)
    if (o->e[i].k)
      o->e[w++] = o->e[i];
  o->n = w;
  mem_free(J->m, o->idx);
  o->idx = NULL;
  if (o->cap < 8)
    return 0;
  uint32_t sz = 16;
  while (sz < o->cap * 2)
    sz *= 2;
  o->idx = mem_alloc(J->m, sz * sizeof(int32_t));
  if (!o->idx)
    return -1;
  memset(o->idx, 0xff, sz * sizeof(int32_t));
  o->mask = sz - 1;
  for (uint32_t i = 0; i < o->n; i++) {
    uint32_t j = jv_strhash(o->e[i].k) & o->mask;
    while (o->idx[j] != -1)
      j = (j + 1) & o->mask;
    o->idx[j] = (int32_t)i;
  }
  return 0;
}

jv *jv_oget(jv o, const char *k, size_t n) {
  jobj *ob = o.u.o;
  int32_t i = ofind(ob, k, n, ob->idx ? hash_bytes(k, n) : 0);
  return i < 0 ? NULL : &ob->e[i].v;
}

jv jv_oset(jqs *J, jv o, jv key, jv val) {
  if (!jv_ok(o) || !jv_ok(key) || !jv_ok(val)) {
    jv_free(J, o);
    jv_free(J, key);
    jv_free(J, val);
    return jv_invalid();
  }
  o = jv_unshare(J, o);
  if (!jv_ok(o)) {
    jv_free(J, key);
    jv_free(J, val);
    return o;
  }
  jobj *ob = o.u.o;
  jstr *ks = key.u.s;
  uint32_t h = jv_strhash(ks);
  int32_t i = ofind(ob, ks->p, ks->len, h);
  if (i >= 0) {
    jv_free(J, ob->e[i].v);
    ob->e[i].v = val;
    jv_free(J, key);
    return o;
  }
  if (ob->n == ob->cap) {
    uint32_t nc = ob->cap ? ob->cap * 2 : 4;
    if (ob->live < ob->n / 2 && ob->cap) {
      if (oreindex(J, ob))
        goto oom;
      nc = ob->cap;
    }
    if (nc != ob->cap || ob->n == ob->cap) {
      if (ob->n == ob->cap) {
        jent *ne = mem_realloc(J->m, ob->e, nc * sizeof(jent));
        if (!ne)
          goto oom;
        ob->e = ne;
        ob->cap = nc;
      }
      if (oreindex(J, ob))
        goto oom;
    }
  }
  ob->e[ob->n].k = ks;
  ob->e[ob->n].v = val;
  if (ob->idx) {
    uint32_t j = h & ob->mask;
    while (ob->idx[j] >= 0)
      j = (j + 1) & ob->mask;
    ob->idx[j] = (int32_t)ob->n;
  }
  ob->n++;
  ob->live++;
  return o;
oom:
  jv_free(J, o);
  jv_free(J, key);
  jv_free(J, val);
  return jv_invalid();
}

jv jv_odel(jqs *J, jv o, jstr *key) {
  int32_t i = ofind(o.u.o, key->p, key->len, o.u.o->idx ? jv_strhash(key) : 0);
  if (i < 0)
    return o;
  o = jv_unshare(J, o);
  if (!jv_ok(o))
    return o;
  jobj *ob = o.u.o;
  i = ofind(ob, key->p, key->len, ob->idx ? jv_strhash(key) : 0);
  jv ks = {JV_STRING, 0, {0}};
  ks.u.s = ob->e[i].k;
  jv_free(J, ks);
  jv_free(J, ob->e[i].v);
  ob->e[i].k = NULL;
  ob->live--;
  if (oreindex(J, ob)) {
    jv_free(J, o);
    return jv_invalid();
  }
  return o;
}

static int cmp_keys(const void *a, const void *b) {
  const jstr *x = *(jstr *const *)a, *y = *(jstr *const *)b;
  size_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(x->p, y->p, n);
  if (c)
    return c;
  return x->len < y->len ? -1 : x->len > y->len;
}

jv jv_keys(jqs *J, jv o, int sorted) {
  jobj *ob = o.u.o;
  jv r = jv_arr(J, ob->live ? ob->live : 1);
  if (!jv_ok(r))
    return r;
  for (uint32_t i = 0; i < ob->n; i++)
    if (ob->e[i].k) {
      ob->e[i].k->rc++;
      jv ks = {JV_STRING, 0, {0}};
      ks.u.s = ob->e[i].k;
      r.u.a->v[r.u.a->len++] = ks;
    }
  if (sorted && r.u.a->len > 1) {
    jstr **tmp = mem_alloc(J->m, r.u.a->len * sizeof(jstr *));
    if (!tmp) {
      jv_free(J, r);
      return jv_invalid();
    }
    for (uint32_t i = 0; i < r.u.a->len; i++)
      tmp[i] = r.u.a->v[i].u.s;
    qsort(tmp, r.u.a->len, sizeof(jstr *), cmp_keys);
    for (uint32_t i = 0; i < r.u.a->len; i++)
      r.u.a->v[i].u.s = tmp[i];
    mem_free(J->m, tmp);
  }
  return r;
}

/* ---- ordering ---------------------------------------------------------- */

static int kind_rank(int k) {
  return k;
}

static int str_cmp(const jstr *x, const jstr *y) {
  size_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(x->p, y->p, n);
  if (c)
    return c < 0 ? -1 : 1;
  return x->len < y->len ? -1 : x->len > y->len;
}

/* The smallest key of o greater than prev (NULL: the smallest). */
static jstr *next_key(jobj *o, jstr *prev) {
  jstr *best = NULL;
  for (uint32_t i = 0; i < o->n; i++) {
    jstr *k = o->e[i].k;
    if (k && (!prev || str_cmp(k, prev) > 0) && (!best || str_cmp(k, best) < 0))
      best = k;
  }
  return best;
}

static int obj_cmp(jv a, jv b) {
  /* keys (sorted) first, then the values in key order */
  jobj *x = a.u.o, *y = b.u.o;
  jstr *kx = NULL, *ky = NULL;
  for (;;) {
    kx = next_key(x, kx);
    ky = next_key(y, ky);
    if (!kx || !ky) {
      if (kx || ky)
        return kx ? 1 : -1;
      break;
    }
    int r = str_cmp(kx, ky);
    if (r)
      return r;
  }
  for (;;) {
    kx = next_key(x, kx);
    if (!kx)
      return 0;
    jv *va = jv_oget(a, kx->p, kx->len);
    jv *vb = jv_oget(b, kx->p, kx->len);
    int r = jv_cmp(*va, *vb);
    if (r)
      return r;
  }
}

int jv_cmp(jv a, jv b) {
  int ka = kind_rank(a.k), kb = kind_rank(b.k);
  if (ka != kb)
    return ka < kb ? -1 : 1;
  switch (a.k) {
  case JV_NUMBER:
    return a.u.n < b.u.n ? -1 : a.u.n > b.u.n ? 1 : 0;
  case JV_STRING:
    return a.u.s == b.u.s ? 0 : str_cmp(a.u.s, b.u.s);
  case JV_ARRAY: {
    if (a.u.a == b.u.a)
      return 0;
    uint32_t n = a.u.a->len < b.u.a->len ? a.u.a->len : b.u.a->len;
    for (uint32_t i = 0; i < n; i++) {
      int c = jv_cmp(a.u.a->v[i], b.u.a->v[i]);
      if (c)
        return c;
    }
    return a.u.a->len < b.u.a->len ? -1 : a.u.a->len > b.u.a->len;
  }
  case JV_OBJECT:
    return a.u.o == b.u.o ? 0 : obj_cmp(a, b);
  default:
    return 0;
  }
}

int jv_equal(jv a, jv b) {
  if (a.k != b.k)
    return 0;
  if (a.k == JV_STRING)
    return a.u.s == b.u.s || (a.u.s->len == b.u.s->len &&
                              !memcmp(a.u.s->p, b.u.s->p, a.u.s->len));
  if (a.k == JV_OBJECT && a.u.o->live != b.u.o->live)
    return 0;
  return jv_cmp(a, b) == 0;
}

static void msort(jv *v, jv *tmp, size_t n) {
  if (n < 2)
    return;
  if (n <= 8) {
    for (size_t i = 1; i < n; i++) {
      jv x = v[i];
      size_t j = i;
      while (j > 0 && jv_cmp(v[j - 1], x) > 0) {
        v[j] = v[j - 1];
        j--;
      }
      v[j] = x;
    }
    return;
  }
  size_t h = n / 2;
  msort(v, tmp, h);
  msort(v + h, tmp, n - h);
  if (jv_cmp(v[h - 1], v[h]) <= 0)
    return;
  memcpy(tmp, v, h * sizeof(jv));
  size_t i = 0, j = h, k = 0;
  while (i < h && j < n)
    v[k++] = jv_cmp(v[j], tmp[i]) < 0 ? v[j++] : tmp[i++];
  while (i < h)
    v[k++] = tmp[i++];
}

void jv_sort(jqs *J, jv *v, size_t n) {
  if (n < 2)
    return;
  jv *tmp = mem_alloc(J->m, (n / 2 + 1) * sizeof(jv));
  if (!tmp) {
    for (size_t i = 1; i < n; i++) {
      jv x = v[i];
      size_t j = i;
      while (j > 0 && jv_cmp(v[j - 1], x) > 0) {
        v[j] = v[j - 1];
        j--;
      }
      v[j] = x;
    }
    return;
  }
  msort(v, tmp, n);
  mem_free(J->m, tmp);
}

jv jv_err_str(jqs *J, const char *fmt, ...) {
  char b[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  jv_free(J, J->err);
  J->err = jv_cstr(J, b);
  if (!jv_ok(J->err))
    J->err = jv_null();
  return jv_invalid();
}
