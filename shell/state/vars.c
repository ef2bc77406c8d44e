/*
 * vars.c - the variable store: scopes, scalars, indexed and associative
 * arrays, attributes (-i -l -u -r -x -n), and the overlay rule that makes a
 * subshell's copy O(1): a child process writes into its own overlay scope
 * and reads through to the frozen scopes of its parent.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/sh.h"
#include "shell/state/arith.h"
#include "shell/state/hist.h"

/* ---- map --------------------------------------------------------------- */

static char deleted_marker;
#define DELETED ((void *)&deleted_marker)

static uint32_t hash_name(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 16777619u;
  }
  return h;
}

static const char *ent_name(void *e) {
  return *(char **)e;
}

/* The slot that holds the entry called name, or -1. */
static int64_t map_slot(const sh_map *m, const char *name) {
  if (!m->n)
    return -1;
  uint32_t mask = m->cap - 1, i = hash_name(name) & mask;
  for (;;) {
    void *e = m->slots[i];
    if (!e)
      return -1;
    if (e != DELETED && strcmp(ent_name(e), name) == 0)
      return i;
    i = (i + 1) & mask;
  }
}

void *sh_map_get(const sh_map *m, const char *name) {
  int64_t i = map_slot(m, name);
  return i < 0 ? NULL : m->slots[i];
}

static int map_grow(mem *mm, sh_map *m) {
  uint32_t nc = m->cap ? m->cap * 2 : 16;
  if (m->n * 2 < m->cap)
    nc = m->cap; /* only deleted slots: rehash in place size */
  void **ns = mem_calloc(mm, nc, sizeof *ns);
  if (!ns)
    return -1;
  for (uint32_t i = 0; i < m->cap; i++) {
    void *e = m->slots[i];
    if (!e || e == DELETED)
      continue;
    uint32_t j = hash_name(ent_name(e)) & (nc - 1);
    while (ns[j])
      j = (j + 1) & (nc - 1);
    ns[j] = e;
  }
  mem_free(mm, m->slots);
  m->slots = ns;
  m->cap = nc;
  m->used = m->n;
  return 0;
}

int sh_map_put(mem *mm, sh_map *m, void *ent) {
  if ((m->used + 1) * 4 >= m->cap * 3 && map_grow(mm, m))
    return -1;
  const char *name = ent_name(ent);
  uint32_t mask = m->cap - 1, i = hash_name(name) & mask;
  int32_t tomb = -1;
  for (;;) {
    void *e = m->slots[i];
    if (!e)
      break;
    if (e == DELETED) {
      if (tomb < 0)
        tomb = (int32_t)i;
    } else if (strcmp(ent_name(e), name) == 0) {
      m->slots[i] = ent;
      return 0;
    }
    i = (i + 1) & mask;
  }
  if (tomb >= 0) {
    m->slots[tomb] = ent;
  } else {
    m->slots[i] = ent;
    m->used++;
  }
  m->n++;
  return 0;
}

void *sh_map_del(sh_map *m, const char *name) {
  int64_t i = map_slot(m, name);
  if (i < 0)
    return NULL;
  void *e = m->slots[i];
  m->slots[i] = DELETED;
  m->n--;
  return e;
}

void *sh_map_next(const sh_map *m, uint32_t *i) {
  while (*i < m->cap) {
    void *e = m->slots[(*i)++];
    if (e && e != DELETED)
      return e;
  }
  return NULL;
}

void sh_map_free(mem *mm, sh_map *m) {
  mem_free(mm, m->slots);
  m->slots = NULL;
  m->cap = m->n = m->used = 0;
}

/* ---- arrays ------------------------------------------------------------ */

sh_arr *sh_arr_new(mem *m) {
  return mem_calloc(m, 1, sizeof(sh_arr));
}

void sh_arr_free(mem *m, sh_arr *a, int assoc) {
  if (!a)
    return;
  for (size_t i = 0; i < a->n; i++) {
    mem_free(m, a->e[i].val);
    if (assoc)
      mem_free(m, a->e[i].key);
  }
  mem_free(m, a->e);
  mem_free(m, a);
}

static long ifind(sh_arr *a, int64_t idx, int *found) {
  size_t lo = 0, hi = a->n;
  /* Appending is the common case. */
  if (a->n && a->e[a->n - 1].idx < idx) {
    *found = 0;
    return (long)a->n;
  }
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (a->e[mid].idx < idx)
      lo = mid + 1;
    else
      hi = mid;
  }
  *found = lo < a->n && a->e[lo].idx == idx;
  return (long)lo;
}

sh_aent *sh_arr_iget(sh_arr *a, int64_t idx) {
  if (!a)
    return NULL;
  int f;
  long i = ifind(a, idx, &f);
  return f ? &a->e[i] : NULL;
}

static int arr_reserve(mem *m, sh_arr *a) {
  if (a->n < a->cap)
    return 0;
  size_t nc = a->cap ? a->cap * 2 : 4;
  sh_aent *ne = mem_realloc(m, a->e, nc * sizeof *ne);
  if (!ne)
    return -1;
  a->e = ne;
  a->cap = nc;
  return 0;
}

int sh_arr_iset(mem *m, sh_arr *a, int64_t idx, const char *v, size_t len) {
  int f;
  long i = ifind(a, idx, &f);
  char *nv = mem_strndup(m, v, len);
  if (!nv)
    return -1;
  if (f) {
    mem_free(m, a->e[i].val);
    a->e[i].val = nv;
    return 0;
  }
  if (arr_reserve(m, a)) {
    mem_free(m, nv);
    return -1;
  }
  memmove(&a->e[i + 1], &a->e[i], (a->n - (size_t)i) * sizeof *a->e);
  a->e[i].idx = idx;
  a->e[i].key = NULL;
  a->e[i].val = nv;
  a->e[i].seq = 0;
  a->n++;
  return 0;
}

void sh_arr_iunset(mem *m, sh_arr *a, int64_t idx) {
  int f;
  long i = ifind(a, idx, &f);
  if (!f)
    return;
  mem_free(m, a->e[i].val);
  memmove(&a->e[i], &a->e[i + 1], (a->n - (size_t)i - 1) * sizeof *a->e);
  a->n--;
}

int64_t sh_arr_max_index(sh_arr *a) {
  return a && a->n ? a->e[a->n - 1].idx : -1;
}

sh_aent *sh_arr_aget(sh_arr *a, const char *key) {
  if (!a)
    return NULL;
  for (size_t i = 0; i < a->n; i++)
    if (strcmp(a->e[i].key, key) == 0)
      return &a->e[i];
  return NULL;
}

int sh_arr_aset(mem *m, sh_arr *a, const char *key, const char *v, size_t len) {
  sh_aent *e = sh_arr_aget(a, key);
  char *nv = mem_strndup(m, v, len);
  if (!nv)
    return -1;
  if (e) {
    mem_free(m, e->val);
    e->val = nv;
    return 0;
  }
  char *k = mem_strdup(m, key);
  if (!k || arr_reserve(m, a)) {
    mem_free(m, nv);
    mem_free(m, k);
    return -1;
  }
  e = &a->e[a->n++];
  e->idx = 0;
  e->key = k;
  e->val = nv;
  e->seq = ++a->seq;
  return 0;
}

void sh_arr_aunset(mem *m, sh_arr *a, const char *key) {
  for (size_t i = 0; i < a->n; i++)
    if (strcmp(a->e[i].key, key) == 0) {
      mem_free(m, a->e[i].key);
      mem_free(m, a->e[i].val);
      a->e[i] = a->e[a->n - 1];
      a->n--;
      return;
    }
}

/* bash keeps associative arrays in a 1024-bucket hash table (FNV-1 hash,
 * new entries at the head of their bucket) and prints them in bucket order;
 * scripts' output depends on that order, so reproduce it. */
static uint32_t bash_hash(const char *s) {
  uint32_t i = 2166136261u;
  for (; *s; s++) {
    i *= 16777619u;
    i ^= (uint32_t)(signed char)*s;
  }
  return i;
}

static int aent_cmp(const void *x, const void *y) {
  const sh_aent *a = *(sh_aent *const *)x, *b = *(sh_aent *const *)y;
  uint32_t ha = bash_hash(a->key) & 1023, hb = bash_hash(b->key) & 1023;
  if (ha != hb)
    return ha < hb ? -1 : 1;
  return a->seq > b->seq ? -1 : a->seq < b->seq;
}

sh_aent **sh_arr_assoc_order(arena *ar, sh_arr *a) {
  size_t n = a ? a->n : 0;
  sh_aent **v = arena_alloc(ar, (n + 1) * sizeof *v);
  if (!v)
    return NULL;
  for (size_t i = 0; i < n; i++)
    v[i] = &a->e[i];
  if (n > 1)
    qsort(v, n, sizeof *v, aent_cmp);
  v[n] = NULL;
  return v;
}

static sh_arr *arr_clone(mem *m, sh_arr *a, int assoc) {
  sh_arr *b = sh_arr_new(m);
  if (!b)
    return NULL;
  if (a && a->n) {
    b->e = mem_alloc(m, a->n * sizeof *b->e);
    if (!b->e) {
      mem_free(m, b);
      return NULL;
    }
    b->cap = a->n;
    for (size_t i = 0; i < a->n; i++) {
      b->e[i] = a->e[i];
      b->e[i].val = mem_strdup(m, a->e[i].val);
      if (assoc)
        b->e[i].key = mem_strdup(m, a->e[i].key);
      b->n++;
    }
    b->seq = a->seq;
  }
  return b;
}

/* ---- variables --------------------------------------------------------- */

void sh_var_free(mem *m, sh_var *v) {
  if (!v)
    return;
  mem_free(m, v->name);
  mem_free(m, v->val);
  sh_arr_free(m, v->arr, v->flags & V_ASSOC);
  mem_free(m, v);
}

sh_var *sh_var_clone(mem *m, const sh_var *v) {
  sh_var *n = mem_calloc(m, 1, sizeof *n);
  if (!n)
    return NULL;
  n->name = mem_strdup(m, v->name);
  n->flags = v->flags & ~V_LOCAL;
  n->len = v->len;
  if (v->val)
    n->val = mem_strndup(m, v->val, v->len);
  if (v->arr)
    n->arr = arr_clone(m, v->arr, v->flags & V_ASSOC);
  if (!n->name || (v->val && !n->val) || (v->arr && !n->arr)) {
    sh_var_free(m, n);
    return NULL;
  }
  return n;
}

static sh_var *var_new(mem *m, const char *name) {
  sh_var *v = mem_calloc(m, 1, sizeof *v);
  if (!v)
    return NULL;
  v->name = mem_strdup(m, name);
  if (!v->name) {
    mem_free(m, v);
    return NULL;
  }
  return v;
}

void sh_var_clear_value(sh_exec *ex, sh_var *v) {
  mem_free(ex->m, v->val);
  v->val = NULL;
  v->len = 0;
  sh_arr_free(ex->m, v->arr, v->flags & V_ASSOC);
  v->arr = NULL;
  v->flags &= ~V_SET;
}

int sh_valid_name(const char *s, size_t n) {
  if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
    return 0;
  for (size_t i = 1; i < n; i++)
    if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
      return 0;
  return 1;
}

sh_scope *sh_scope_push(sh_exec *ex, int kind) {
  sh_scope *s = mem_calloc(ex->m, 1, sizeof *s);
  if (!s)
    return NULL;
  s->kind = kind;
  s->up = ex->scope;
  s->owned = 1;
  ex->scope = s;
  return s;
}

static void scope_free(mem *m, sh_scope *s) {
  uint32_t i = 0;
  sh_var *v;
  while ((v = sh_map_next(&s->map, &i)))
    sh_var_free(m, v);
  sh_map_free(m, &s->map);
  mem_free(m, s);
}

void sh_scope_pop(sh_exec *ex) {
  sh_scope *s = ex->scope;
  ex->scope = s->up;
  scope_free(ex->m, s);
}

/* The variable as stored, without following namerefs. */
sh_var *sh_var_find_raw(sh_exec *ex, const char *name, sh_scope **where) {
  for (sh_scope *s = ex->scope; s; s = s->up) {
    sh_var *v = sh_map_get(&s->map, name);
    if (v) {
      if (v->flags & V_TOMB)
        return NULL;
      if (where)
        *where = s;
      return v;
    }
  }
  return NULL;
}

/* Resolve namerefs: name -> final name (a[1] style targets are returned
 * too, the caller handles subscripts). */
/* A nameref's value is followed only when it could name a variable (NAME
 * or NAME[...]): bash reads `ref` itself when it holds "1" or "#". */
static int ref_target_ok(const char *t) {
  const char *br = strchr(t, '[');
  size_t n = br ? (size_t)(br - t) : strlen(t);
  return sh_valid_name(t, n) && (!br || t[strlen(t) - 1] == ']');
}

/* Resolve namerefs: name -> final name (a[1] style targets are returned
 * too, the caller handles subscripts). NULL for a cycle, which bash treats
 * as naming nothing (reads are empty, writes fail). */
static const char *resolve_ref(sh_exec *ex, const char *name) {
  for (int depth = 0; depth < 16; depth++) {
    sh_var *v = sh_var_find_raw(ex, name, NULL);
    if (!v || !(v->flags & V_NAMEREF) || !(v->flags & V_SET) || !v->val ||
        !*v->val || !ref_target_ok(v->val))
      return name;
    name = v->val;
  }
  return NULL;
}

int sh_nameref_elem(sh_exec *ex, const char *name, sh_ref *r) {
  sh_var *v = sh_var_find_raw(ex, name, NULL);
  if (!v || !(v->flags & V_NAMEREF) || !(v->flags & V_SET) || !v->val ||
      !*v->val)
    return 0;
  const char *t = resolve_ref(ex, name);
  const char *br = t ? strchr(t, '[') : NULL;
  if (!br)
    return 0;
  size_t tl = strlen(t);
  const sh_ops *ops = ex->run ? ex->run->ops : NULL;
  if (ops && ops->parse_ref) {
    int rc = ops->parse_ref(ex, t, tl, r);
    if (rc <= 0)
      return rc < 0 ? -1 : 1;
  }
  /* No expander (or text it cannot read): the subscript as written. */
  memset(r, 0, sizeof *r);
  r->name = arena_strndup(ex->ar, t, (size_t)(br - t));
  if (!r->name)
    return sh_oom(ex);
  r->sub = br + 1;
  r->sublen = tl - (size_t)(br - t) - 2;
  if (r->sublen == 1 && (*r->sub == '@' || *r->sub == '*')) {
    r->at = *r->sub == '@' ? 1 : 2;
    r->sub = NULL;
    r->sublen = 0;
  }
  return 1;
}

const char *sh_nameref_target(sh_exec *ex, const char *name) {
  return resolve_ref(ex, name);
}

sh_var *sh_var_find(sh_exec *ex, const char *name) {
  sh_var *v = sh_var_find_raw(ex, name, NULL);
  if (v && (v->flags & V_NAMEREF) && (v->flags & V_SET) && v->val && *v->val) {
    const char *t = resolve_ref(ex, name);
    if (!t || strchr(t, '['))
      return NULL; /* callers needing a[i] targets use sh_getvar */
    return sh_var_find_raw(ex, t, NULL);
  }
  return v;
}

static int owned_scope(sh_exec *ex, sh_scope *where) {
  for (sh_scope *s = ex->scope; s; s = s->up) {
    if (s == where)
      return 1;
    if (s == ex->global)
      return 0;
  }
  return 0;
}

static sh_scope *func_scope(sh_exec *ex) {
  for (sh_scope *s = ex->scope; s; s = s->up) {
    if (s == ex->global)
      break;
    if (s->kind == SC_FUNC)
      return s;
  }
  /* A subshell inside a function: locals go into its overlay. */
  for (sh_scope *s = ex->global; s; s = s->up)
    if (s->kind == SC_FUNC)
      return ex->global;
  return NULL;
}

sh_var *sh_var_lookup_for_write(sh_exec *ex, const char *name, unsigned flags) {
  mem *m = ex->m;
  if (flags & SV_LOCAL) {
    sh_scope *fs = func_scope(ex);
    if (!fs)
      return NULL;
    sh_var *v = sh_map_get(&fs->map, name);
    if (v && !(v->flags & V_TOMB))
      return v;
    /* bash: a new local starts unset, inheriting nothing but the name. */
    sh_var *nv = var_new(m, name);
    if (!nv) {
      sh_oom(ex);
      return NULL;
    }
    nv->flags = V_LOCAL;
    if (v) {
      sh_map_del(&fs->map, name);
      sh_var_free(m, v);
    }
    if (sh_map_put(m, &fs->map, nv)) {
      sh_var_free(m, nv);
      sh_oom(ex);
      return NULL;
    }
    return nv;
  }
  if (flags & SV_TEMP) {
    /* Prefix assignment: a variable of the temporary scope on top. */
    sh_var *vis = sh_var_find_raw(ex, name, NULL);
    if (vis && (vis->flags & V_READONLY)) {
      if (!(flags & SV_QUIET))
        sh_err(ex, "%s: readonly variable", name);
      return NULL;
    }
    sh_var *v = sh_map_get(&ex->scope->map, name);
    if (v)
      return v;
    v = var_new(m, name);
    if (!v) {
      sh_oom(ex);
      return NULL;
    }
    if (vis)
      v->flags = vis->flags & (V_INTEGER | V_LOWER | V_UPPER);
    if (sh_map_put(m, &ex->scope->map, v)) {
      sh_var_free(m, v);
      sh_oom(ex);
      return NULL;
    }
    return v;
  }
  sh_scope *where = NULL;
  sh_var *v;
  if (flags & SV_GLOBAL) {
    where = NULL;
    v = NULL;
    for (sh_scope *s = ex->global; s; s = s->up) {
      if (s->kind == SC_FUNC || s->kind == SC_TEMP)
        continue;
      v = sh_map_get(&s->map, name);
      if (v) {
        where = s;
        break;
      }
    }
    if (v && (v->flags & V_TOMB))
      v = NULL, where = NULL;
  } else {
    v = sh_var_find_raw(ex, name, &where);
    if (v && (v->flags & V_NAMEREF) && (v->flags & V_SET) && v->val &&
        *v->val && !(flags & SV_NOARITH)) {
      const char *t = resolve_ref(ex, name);
      if (!t) {
        sh_err(ex, "%s: circular name reference", name);
        return NULL;
      }
      if (strcmp(t, name) != 0 && sh_valid_name(t, strlen(t)))
        return sh_var_lookup_for_write(ex, t, flags);
    }
  }
  if (v) {
    if (v->flags & V_READONLY) {
      if (!(flags & SV_QUIET))
        sh_err(ex, "%s: readonly variable", name);
      return NULL;
    }
    if (owned_scope(ex, where))
      return v;
    sh_var *c = sh_var_clone(m, v);
    if (!c || sh_map_put(m, &ex->global->map, c)) {
      sh_var_free(m, c);
      sh_oom(ex);
      return NULL;
    }
    /* a clone replaces a tombstone or nothing */
    return c;
  }
  sh_var *nv = var_new(m, name);
  if (!nv) {
    sh_oom(ex);
    return NULL;
  }
  sh_var *old = sh_map_get(&ex->global->map, name); /* a tombstone */
  if (old) {
    sh_map_del(&ex->global->map, name);
    sh_var_free(m, old);
  }
  if (sh_map_put(m, &ex->global->map, nv)) {
    sh_var_free(m, nv);
    sh_oom(ex);
    return NULL;
  }
  return nv;
}

/* Value transformation for -i -l -u; returns arena string (or the input). */
static const char *xform(sh_exec *ex, sh_var *v, const char *val, size_t *len,
                         int append, const char *old, size_t oldlen) {
  if (v->flags & V_INTEGER) {
    int err = 0;
    int64_t r = sh_arith(ex, val, *len, &err);
    if (err) {
      /* bash exits on a bad expression assigned to an integer */
      if (!ex->jump)
        sh_fatal(ex, 1);
      return NULL;
    }
    if (append && old) {
      int e2 = 0;
      r += sh_arith(ex, old, oldlen, &e2);
    }
    char *s = arena_alloc(ex->ar, 24);
    if (!s) {
      sh_oom(ex);
      return NULL;
    }
    *len = sh_fmt_int(s, r);
    return s;
  }
  if (v->flags & (V_LOWER | V_UPPER))
    return sh_case_conv(ex, val, *len, (v->flags & V_UPPER) != 0, 0, len);
  return val;
}

static int set_scalar(sh_exec *ex, sh_var *v, const char *val, size_t len,
                      int append) {
  mem *m = ex->m;
  if (ex->run->bud.lim.max_string_bytes &&
      len + (append ? v->len : 0) > ex->run->bud.lim.max_string_bytes) {
    budget_set_stop(&ex->run->bud, BUDGET_STRING,
                    ex->run->bud.lim.max_string_bytes);
    return -1;
  }
  if (v->flags & (V_ARRAY | V_ASSOC)) {
    /* x=v on an array sets element 0 (assoc: key "0"). */
    if (!v->arr && !(v->arr = sh_arr_new(m)))
      return sh_oom(ex);
    v->flags |= V_SET;
    if (v->flags & V_ASSOC) {
      sh_aent *e = sh_arr_aget(v->arr, "0");
      const char *o = e ? e->val : NULL;
      const char *nv = xform(ex, v, val, &len, append, o, o ? strlen(o) : 0);
      if (!nv)
        return -1;
      if (append && o && !(v->flags & V_INTEGER)) {
        char *j = arena_alloc(ex->ar, strlen(o) + len + 1);
        if (!j)
          return sh_oom(ex);
        memcpy(j, o, strlen(o));
        memcpy(j + strlen(o), nv, len);
        len += strlen(o);
        nv = j;
      }
      return sh_arr_aset(m, v->arr, "0", nv, len) ? sh_oom(ex) : 0;
    }
    sh_aent *e = sh_arr_iget(v->arr, 0);
    const char *o = e ? e->val : NULL;
    const char *nv = xform(ex, v, val, &len, append, o, o ? strlen(o) : 0);
    if (!nv)
      return -1;
    if (append && o && !(v->flags & V_INTEGER)) {
      size_t ol = strlen(o);
      char *j = arena_alloc(ex->ar, ol + len + 1);
      if (!j)
        return sh_oom(ex);
      memcpy(j, o, ol);
      memcpy(j + ol, nv, len);
      len += ol;
      nv = j;
    }
    return sh_arr_iset(m, v->arr, 0, nv, len) ? sh_oom(ex) : 0;
  }
  const char *nv =
      xform(ex, v, val, &len, append && (v->flags & V_SET), v->val, v->len);
  if (!nv)
    return -1;
  if (append && (v->flags & V_SET) && v->val && !(v->flags & V_INTEGER)) {
    char *r = mem_realloc(m, v->val, v->len + len + 1);
    if (!r)
      return sh_oom(ex);
    memcpy(r + v->len, nv, len);
    v->len += len;
    r[v->len] = 0;
    v->val = r;
    return 0;
  }
  if (v->val && len <= v->len && v->len < 256) {
    /* A small value that fits the old one's storage (i=$((i+1)) in a
     * loop): overwrite in place instead of a malloc and a free. The block
     * holds at least v->len + 1 bytes; the waste is bounded by 256. */
    memmove(v->val, nv, len);
    v->val[len] = 0;
    v->len = len;
    v->flags |= V_SET;
    return 0;
  }
  char *c = mem_strndup(m, nv, len);
  if (!c)
    return sh_oom(ex);
  mem_free(m, v->val);
  v->val = c;
  v->len = len;
  v->flags |= V_SET;
  return 0;
}

int sh_var_set_direct(sh_exec *ex, sh_var *v, const char *val, size_t len,
                      int append) {
  return set_scalar(ex, v, val, len, append);
}

static int special_set(sh_exec *ex, const char *name, const char *val,
                       size_t len) {
  if (name[0] == 'R' && strcmp(name, "RANDOM") == 0) {
    int64_t seed;
    if (sh_parse_int(val, &seed))
      seed = 0;
    ex->random_state = (uint32_t)seed;
    ex->random_seeded = 1;
    return 1;
  }
  if (name[0] == 'S' && strcmp(name, "SECONDS") == 0) {
    int64_t s;
    if (sh_parse_int(val, &s))
      s = 0;
    ex->run->start_ns = sh_now_ns(ex) - s * 1000000000LL;
    return 1;
  }
  if (name[0] == 'L' && strcmp(name, "LINENO") == 0)
    return 1;
  if (name[0] == 'P' && strcmp(name, "PATH") == 0)
    sh_hash_clear(ex); /* bash forgets where commands were */
  (void)len;
  return 0;
}

/* The write lookup hands back a nameref itself when it could not follow
 * it: its target is an array element (assign that), a[@] (an error, as in
 * bash), or it has no valid target (2: the nameref takes the value). */
static int ref_elem_assign(sh_exec *ex, const char *name, const char *val,
                           size_t len, unsigned flags) {
  sh_ref r;
  int k = sh_nameref_elem(ex, name, &r);
  if (k < 0)
    return -1;
  if (!k)
    return 2;
  if (r.at) {
    sh_err(ex, "`%s': not a valid identifier", sh_nameref_target(ex, name));
    return -1;
  }
  return sh_setelem(ex, r.name, r.sub, r.sublen, val, len,
                    flags & (SV_APPEND | SV_EXPORT));
}

int sh_setvar(sh_exec *ex, const char *name, const char *val, size_t len,
              unsigned flags) {
  if (!(flags & (SV_LOCAL | SV_GLOBAL)) && special_set(ex, name, val, len))
    return 0;
  if ((flags & (SV_TEMP | SV_APPEND)) == (SV_TEMP | SV_APPEND) &&
      !sh_map_get(&ex->scope->map, name)) {
    /* A+=x before a command: the new temporary starts from A's value */
    sh_var *vis = sh_var_find(ex, name);
    const char *old =
        vis && !(vis->flags & V_INTEGER) ? sh_getvar(ex, name) : NULL;
    if (old && *old) {
      size_t ol = strlen(old);
      char *j = arena_alloc(ex->ar, ol + len + 1);
      if (!j)
        return sh_oom(ex);
      memcpy(j, old, ol);
      memcpy(j + ol, val, len);
      j[ol + len] = 0;
      val = j;
      len += ol;
    }
  }
  sh_var *v = sh_var_lookup_for_write(ex, name, flags);
  if (!v) {
    if ((flags & SV_LOCAL) && !func_scope(ex))
      sh_err(ex, "local: can only be used in a function");
    return -1;
  }
  if ((v->flags & V_NAMEREF) && !(flags & (SV_NOARITH | SV_LOCAL | SV_TEMP))) {
    int r = ref_elem_assign(ex, name, val, len, flags);
    if (r != 2)
      return r;
  }
  if (set_scalar(ex, v, val, len, (flags & SV_APPEND) != 0))
    return -1;
  if ((flags & SV_EXPORT) || (ex->opts & O_ALLEXPORT))
    v->flags |= V_EXPORT;
  /* bash trims the history list and file as soon as these change */
  if (name[0] == 'H' && strncmp(name, "HIST", 4) == 0 &&
      (strcmp(name + 4, "SIZE") == 0 || strcmp(name + 4, "FILESIZE") == 0))
    sh_hist_var_changed(ex, name);
  return 0;
}

int sh_setvar_int(sh_exec *ex, const char *name, int64_t n) {
  char tmp[24];
  int k = (int)sh_fmt_int(tmp, n);
  sh_var *v = sh_var_lookup_for_write(ex, name, 0);
  if (!v)
    return -1;
  if (v->flags & V_NAMEREF) {
    int e = ref_elem_assign(ex, name, tmp, (size_t)k, 0);
    if (e != 2)
      return e;
  }
  unsigned save = v->flags & V_INTEGER;
  v->flags &= ~V_INTEGER; /* already a number */
  int r = set_scalar(ex, v, tmp, (size_t)k, 0);
  v->flags |= save;
  return r;
}

/* The function scope a variable of scope s belongs to: s itself, or the
 * function below a temporary scope (v=x eval 'local v'). */
static sh_scope *owning_func(sh_scope *s) {
  while (s && s->kind == SC_TEMP)
    s = s->up;
  return s && s->kind == SC_FUNC ? s : NULL;
}

/* When a subshell unsets a local of a function other than the one it runs
 * in, bash reveals the next binding of the name: that binding (below
 * where, past the temporary scope of the function's own call, which bash
 * merges with its locals), or NULL to hide the name. */
static sh_var *revealed_below(sh_exec *ex, sh_scope *where, const char *name) {
  sh_scope *fn = owning_func(where);
  sh_scope *cur = NULL;
  for (sh_scope *s = ex->scope; s && !cur; s = s->up)
    if (s->kind == SC_FUNC)
      cur = s;
  if (!fn || fn == cur)
    return NULL;
  for (sh_scope *s = where->up; s; s = s->up) {
    if (s->kind == SC_TEMP && s->up && where->kind == SC_FUNC && s == where->up)
      continue;
    sh_var *v = sh_map_get(&s->map, name);
    if (v)
      return (v->flags & V_TOMB) ? NULL : v;
  }
  return NULL;
}

int sh_unsetvar(sh_exec *ex, const char *name) {
  sh_scope *where = NULL;
  sh_var *v = sh_var_find_raw(ex, name, &where);
  if (!v)
    return 0;
  if (v->flags & V_NAMEREF && v->val && *v->val) {
    const char *t = resolve_ref(ex, name);
    if (t && strcmp(t, name) != 0 && sh_valid_name(t, strlen(t)))
      return sh_unsetvar(ex, t);
    const char *br = t ? strchr(t, '[') : NULL;
    sh_ref r;
    if (br) {
      int k = sh_nameref_elem(ex, name, &r);
      if (k)
        return k < 0 ? 1
                     : sh_unset_elem(
                           ex, &r,
                           arena_strndup(ex->ar, br + 1, strlen(br + 1) - 1));
    }
  }
  if (v->flags & V_READONLY) {
    sh_err(ex, "unset: %s: cannot unset: readonly variable", name);
    return 1;
  }
  if (!owned_scope(ex, where)) {
    /* Below the overlay: hide it with a tombstone, or, for a local of
     * another function than the one running, with a copy of what bash
     * would show once it is gone (the binding below it). */
    sh_var *next =
        (v->flags & V_LOCAL) ? revealed_below(ex, where, name) : NULL;
    sh_var *t = next ? sh_var_clone(ex->m, next) : var_new(ex->m, name);
    if (!t)
      return sh_oom(ex);
    if (!next)
      t->flags = V_TOMB;
    sh_var *old = sh_map_del(&ex->global->map, name);
    sh_var_free(ex->m, old);
    if (sh_map_put(ex->m, &ex->global->map, t)) {
      sh_var_free(ex->m, t);
      return sh_oom(ex);
    }
    return 0;
  }
  if (where->kind == SC_FUNC && where == func_scope(ex) &&
      where != ex->global) {
    /* bash: unsetting a local of the current function leaves it local and
     * unset. */
    sh_var_clear_value(ex, v);
    v->flags &= V_LOCAL;
    return 0;
  }
  sh_map_del(&where->map, name);
  sh_var_free(ex->m, v);
  if (where->kind == SC_FUNC && where->up && where->up->kind == SC_TEMP &&
      owned_scope(ex, where->up)) {
    /* v=x f: bash keeps the call's v and f's local v as one variable, so
     * unsetting the local from elsewhere removes both */
    sh_var *t = sh_map_del(&where->up->map, name);
    sh_var_free(ex->m, t);
  }
  /* If a parent process still has it below an overlay, hide that too. */
  if (where == ex->global && ex->global->kind == SC_OVERLAY &&
      sh_var_find_raw(ex, name, NULL)) {
    sh_var *t = var_new(ex->m, name);
    if (t) {
      t->flags = V_TOMB;
      sh_map_put(ex->m, &ex->global->map, t);
    }
  }
  return 0;
}

int sh_unset_elem(sh_exec *ex, const sh_ref *r, const char *sub_text) {
  if (!sub_text)
    sub_text = "";
  sh_var *v = sh_var_find(ex, r->name);
  if (!v)
    return 0;
  if (!(v->flags & (V_ARRAY | V_ASSOC))) {
    /* A scalar is element 0 of itself; nothing else exists. */
    if (!r->at) {
      int err = 0;
      int64_t k = sh_arith(ex, r->sub, r->sublen, &err);
      if (err) {
        sh_discard(ex);
        return 1;
      }
      if (k == 0)
        return sh_unsetvar(ex, r->name);
    }
    sh_builtin_err(ex, "unset", "%s: not an array variable", r->name);
    return 1;
  }
  if (r->at && (v->flags & V_ARRAY)) {
    /* unset 'a[@]' empties the array but keeps the variable */
    sh_var *w = sh_var_lookup_for_write(ex, r->name, 0);
    if (!w)
      return 1;
    while (w->arr && w->arr->n)
      sh_arr_iunset(ex->m, w->arr, w->arr->e[w->arr->n - 1].idx);
    return 0;
  }
  const char *sub = r->at ? (r->at == 1 ? "@" : "*") : r->sub;
  size_t sl = r->at ? 1 : r->sublen;
  if ((v->flags & V_ASSOC) && sl == 0) {
    sh_builtin_err(ex, "unset", "[%s]: bad array subscript", sub_text);
    return 1;
  }
  int64_t k = 0;
  if (v->flags & V_ARRAY) {
    int err = 0;
    k = sh_arith(ex, sub, sl, &err);
    if (err) {
      sh_discard(ex);
      return 1;
    }
    if (k < 0) {
      k += sh_arr_max_index(v->arr) + 1;
      if (k < 0) {
        sh_builtin_err(ex, "unset", "[%s]: bad array subscript", sub_text);
        return 1;
      }
    }
  }
  sh_var *w = sh_var_lookup_for_write(ex, r->name, 0);
  if (!w)
    return 1;
  if (w->flags & V_ASSOC) {
    char *key = arena_strndup(ex->ar, sub, sl);
    if (!key)
      return sh_oom(ex);
    sh_arr_aunset(ex->m, w->arr, key);
  } else if (w->arr) {
    sh_arr_iunset(ex->m, w->arr, k);
  }
  return 0;
}

int sh_var_make_array(sh_exec *ex, sh_var *v) {
  if (v->flags & (V_ARRAY | V_ASSOC))
    return 0;
  sh_arr *a = sh_arr_new(ex->m);
  if (!a)
    return sh_oom(ex);
  if ((v->flags & V_SET) && v->val &&
      sh_arr_iset(ex->m, a, 0, v->val, v->len)) {
    sh_arr_free(ex->m, a, 0);
    return sh_oom(ex);
  }
  mem_free(ex->m, v->val);
  v->val = NULL;
  v->len = 0;
  v->arr = a;
  v->flags |= V_ARRAY;
  if (a->n)
    v->flags |= V_SET;
  return 0;
}

/* Subscript of an indexed array: arithmetic, negative from the end. */
static int index_of(sh_exec *ex, sh_var *v, const char *sub, size_t len,
                    int64_t *out, int for_write) {
  int err = 0;
  int64_t i = sh_arith(ex, sub, len, &err);
  if (err)
    return -1;
  if (i < 0) {
    int64_t top = sh_arr_max_index(v->arr);
    i = top + 1 + i;
    if (i < 0) {
      if (for_write)
        sh_err(ex, "%s[%.*s]: bad array subscript", v->name, (int)len, sub);
      else
        sh_err(ex, "%s: bad array subscript", v->name);
      return -2;
    }
  }
  *out = i;
  return 0;
}

/* The text element e of v (NULL: a new one) gets from val, *len bytes
 * (then the new length): with SV_APPEND on an existing element of a
 * non-integer array, its old text followed by val; otherwise val through
 * v's attributes (xform: -i adds, -l/-u change case). NULL after an
 * error. */
static const char *elem_value(sh_exec *ex, sh_var *v, sh_aent *e,
                              const char *val, size_t *len, unsigned flags) {
  if ((flags & SV_APPEND) && e && !(v->flags & V_INTEGER)) {
    size_t ol = strlen(e->val);
    char *j = arena_alloc(ex->ar, ol + *len + 1);
    if (!j) {
      sh_oom(ex);
      return NULL;
    }
    memcpy(j, e->val, ol);
    memcpy(j + ol, val, *len);
    *len += ol;
    return j;
  }
  return xform(ex, v, val, len, (flags & SV_APPEND) && e, e ? e->val : NULL,
               e ? strlen(e->val) : 0);
}

int sh_setelem(sh_exec *ex, const char *name, const char *sub, size_t sublen,
               const char *val, size_t len, unsigned flags) {
  sh_var *v = sh_var_lookup_for_write(ex, name, flags);
  if (!v)
    return -1;
  if ((v->flags & V_NAMEREF) && (v->flags & V_SET) && v->val && *v->val &&
      !(flags & SV_LOCAL)) {
    /* ref[0]=x where ref names a[1]: bash takes the target text as the
     * name and rejects it. */
    const char *t = resolve_ref(ex, name);
    if (t && strchr(t, '[')) {
      sh_err(ex, "`%s': not a valid identifier", t);
      return 1;
    }
  }
  if (!(v->flags & V_ASSOC) && sh_var_make_array(ex, v))
    return -1;
  char *key = arena_strndup(ex->ar, sub, sublen);
  if (!key)
    return sh_oom(ex);
  if (v->flags & V_ASSOC) {
    sh_aent *e = sh_arr_aget(v->arr, key);
    const char *nv = elem_value(ex, v, e, val, &len, flags);
    if (!nv)
      return -1;
    if (sh_arr_aset(ex->m, v->arr, key, nv, len))
      return sh_oom(ex);
    v->flags |= V_SET;
    return 0;
  }
  int64_t i;
  int r = index_of(ex, v, key, sublen, &i, 1);
  if (r == -1 && !ex->jump)
    sh_fatal(ex, 1); /* a bad subscript expression ends the shell */
  if (r)
    return r == -2 ? 1 : -1;
  sh_aent *e = sh_arr_iget(v->arr, i);
  const char *nv = elem_value(ex, v, e, val, &len, flags);
  if (!nv)
    return -1;
  if (sh_arr_iset(ex->m, v->arr, i, nv, len))
    return sh_oom(ex);
  v->flags |= V_SET;
  return 0;
}

const char *sh_getelem(sh_exec *ex, sh_var *v, const char *sub, size_t len) {
  if (v->flags & V_ASSOC) {
    char *key = arena_strndup(ex->ar, sub, len);
    sh_aent *e = key ? sh_arr_aget(v->arr, key) : NULL;
    return e ? e->val : NULL;
  }
  int64_t i;
  /* A subscript that is not a valid expression ends the shell, as in bash
   * (the caller sees ex->jump). */
  if (!(v->flags & V_ARRAY)) {
    int err = 0;
    int64_t k = sh_arith(ex, sub, len, &err);
    if (err) {
      if (!ex->jump)
        sh_fatal(ex, 1);
      return NULL;
    }
    if (k == 0 || k == -1)
      return (v->flags & V_SET) ? v->val : NULL;
    return NULL;
  }
  int r = index_of(ex, v, sub, len, &i, 0);
  if (r == -1 && !ex->jump)
    sh_fatal(ex, 1);
  if (r)
    return NULL;
  sh_aent *e = sh_arr_iget(v->arr, i);
  return e ? e->val : NULL;
}

/* ---- reading ----------------------------------------------------------- */

int sh_is_special_var(const char *name) {
  switch (name[0]) {
  case 'R':
    return strcmp(name, "RANDOM") == 0;
  case 'S':
    return strcmp(name, "SECONDS") == 0 || strcmp(name, "SRANDOM") == 0;
  case 'L':
    return strcmp(name, "LINENO") == 0;
  case 'B':
    return strcmp(name, "BASHPID") == 0 || strcmp(name, "BASH_SUBSHELL") == 0;
  case 'E':
    return strcmp(name, "EPOCHSECONDS") == 0 ||
           strcmp(name, "EPOCHREALTIME") == 0;
  }
  return 0;
}

static uint32_t next_random(sh_exec *ex) {
  if (!ex->random_seeded) {
    sh_random_bytes(ex, &ex->random_state, sizeof ex->random_state);
    ex->random_seeded = 1;
  }
  /* bash 5.1+'s generator: a 32-bit LCG-ish (Park-Miller) step. */
  int64_t h, l, t;
  uint32_t s = ex->random_state;
  if (s == 0)
    s = 123459876;
  h = s / 127773;
  l = s % 127773;
  t = 16807 * l - 2836 * h;
  if (t < 0)
    t += 0x7fffffff;
  ex->random_state = (uint32_t)t;
  return ((uint32_t)t >> 16) ^ ((uint32_t)t & 0xffff);
}

static const char *special_get(sh_exec *ex, const char *name) {
  char *b = arena_alloc(ex->ar, 32);
  if (!b)
    return NULL;
  switch (name[0]) {
  case 'R':
    snprintf(b, 32, "%u", next_random(ex) & 32767);
    return b;
  case 'S':
    if (name[1] == 'E') {
      snprintf(b, 32, "%lld",
               (long long)((sh_now_ns(ex) - ex->run->start_ns) / 1000000000));
    } else {
      uint32_t r;
      sh_random_bytes(ex, &r, sizeof r);
      snprintf(b, 32, "%u", r);
    }
    return b;
  case 'L':
    snprintf(b, 32, "%d", ex->lineno);
    return b;
  case 'B':
    if (strcmp(name, "BASHPID") == 0)
      snprintf(b, 32, "%d", ex->pid);
    else
      snprintf(b, 32, "%d", ex->in_subshell);
    return b;
  case 'E': {
    int64_t ns = sh_now_ns(ex);
    if (strcmp(name, "EPOCHSECONDS") == 0)
      snprintf(b, 32, "%lld", (long long)(ns / 1000000000));
    else
      snprintf(b, 32, "%lld.%06lld", (long long)(ns / 1000000000),
               (long long)((ns % 1000000000) / 1000));
    return b;
  }
  }
  return NULL;
}

/* The value a nameref to an array element stands for: the element, or
 * for a[@] / a[*] the elements joined by spaces (a scalar's view; the
 * expander makes "$ref" a list itself). */
static const char *ref_elem_value(sh_exec *ex, const char *name) {
  sh_ref r;
  if (sh_nameref_elem(ex, name, &r) <= 0)
    return NULL;
  sh_var *bv = sh_var_find(ex, r.name);
  if (!bv)
    return NULL;
  if (!r.at)
    return sh_getelem(ex, bv, r.sub, r.sublen);
  if (!(bv->flags & (V_ARRAY | V_ASSOC)))
    return (bv->flags & V_SET) ? bv->val : NULL;
  buf b;
  buf_init(&b, ex->m);
  for (size_t i = 0; bv->arr && i < bv->arr->n; i++) {
    if (i)
      buf_putc(&b, ' ');
    buf_puts(&b, bv->arr->e[i].val);
  }
  char *s = b.oom ? NULL : arena_strndup(ex->ar, buf_cstr(&b), b.len);
  buf_free(&b);
  return s;
}

const char *sh_getvar(sh_exec *ex, const char *name) {
  if (sh_is_special_var(name)) {
    sh_var *ov = sh_var_find_raw(ex, name, NULL);
    if (!ov || !(ov->flags & V_SET))
      return special_get(ex, name);
  }
  sh_var *v = sh_var_find_raw(ex, name, NULL);
  if (!v)
    return NULL;
  if ((v->flags & V_NAMEREF) && (v->flags & V_SET) && v->val && *v->val) {
    const char *t = resolve_ref(ex, name);
    if (!t)
      return NULL;
    if (strchr(t, '['))
      return ref_elem_value(ex, name);
    if (strcmp(t, name) == 0)
      return v->val;
    return sh_getvar(ex, t);
  }
  if (!(v->flags & V_SET))
    return NULL;
  if (v->flags & V_ASSOC) {
    sh_aent *e = sh_arr_aget(v->arr, "0");
    return e ? e->val : NULL;
  }
  if (v->flags & V_ARRAY) {
    sh_aent *e = sh_arr_iget(v->arr, 0);
    return e ? e->val : NULL;
  }
  return v->val;
}

size_t sh_fmt_int(char *b, int64_t v) {
  char t[24];
  size_t n = 0;
  /* negate in unsigned arithmetic so INT64_MIN works */
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  do {
    t[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  size_t k = 0;
  if (v < 0)
    b[k++] = '-';
  while (n)
    b[k++] = t[--n];
  b[k] = 0;
  return k;
}

/* ---- arithmetic glue --------------------------------------------------- */

/* A subscript met while evaluating (x='a[$(echo 2)]'; $((x))): bash
 * expands $ and ` in it then, and an associative array's key loses its
 * quotes (A['k']). NULL after an expansion error. */
static const char *arith_sub(sh_exec *ex, const char *name, const char *sub,
                             size_t *len) {
  *len = strlen(sub);
  const sh_ops *ops = ex->run ? ex->run->ops : NULL;
  if (!ops || !ops->parse_ref)
    return sub;
  if (!strpbrk(sub, "$`")) {
    sh_var *v = strpbrk(sub, "'\\\"") ? sh_var_find(ex, name) : NULL;
    if (!v || !(v->flags & V_ASSOC))
      return sub;
  }
  size_t nl = strlen(name);
  char *t = arena_alloc(ex->ar, nl + *len + 3);
  if (!t) {
    sh_oom(ex);
    return NULL;
  }
  memcpy(t, name, nl);
  t[nl] = '[';
  memcpy(t + nl + 1, sub, *len);
  memcpy(t + nl + 1 + *len, "]", 2);
  sh_ref r;
  int rc = ops->parse_ref(ex, t, nl + *len + 2, &r);
  if (rc < 0)
    return NULL;
  if (rc > 0 || !r.sub)
    return sub;
  *len = r.sublen;
  return r.sub;
}

static const char *ar_get(void *ud, const char *name, const char *sub) {
  sh_exec *ex = ud;
  /* FUNCNAME, BASH_LINENO, ... are computed arrays: not in the tables */
  sh_var *sp = NULL;
  if (!sub) {
    const char *val = sh_getvar(ex, name);
    if (val || !(sp = sh_special_array(ex, name)))
      return val;
    return sp->arr && sp->arr->n ? sp->arr->e[0].val : NULL;
  }
  sh_var *v = sh_var_find(ex, name);
  if (!v)
    v = sh_special_array(ex, name);
  if (!v)
    return NULL;
  size_t sl;
  sub = arith_sub(ex, name, sub, &sl);
  return sub ? sh_getelem(ex, v, sub, sl) : NULL;
}

static int ar_exists(void *ud, const char *name) {
  return sh_var_find(ud, name) != NULL;
}

static int ar_set(void *ud, const char *name, const char *sub, int64_t val) {
  sh_exec *ex = ud;
  char tmp[24];
  int k = (int)sh_fmt_int(tmp, val);
  if (sub) {
    size_t sl;
    sub = arith_sub(ex, name, sub, &sl);
    if (!sub)
      return -1;
    int r = sh_setelem(ex, name, sub, sl, tmp, (size_t)k, 0);
    return r ? -1 : 0;
  }
  sh_var *v = sh_var_lookup_for_write(ex, name, 0);
  if (!v)
    return -1;
  if (v->flags & V_NAMEREF) {
    int e = ref_elem_assign(ex, name, tmp, (size_t)k, 0);
    if (e != 2)
      return e ? -1 : 0;
  }
  unsigned save = v->flags & V_INTEGER;
  v->flags &= ~V_INTEGER;
  int r = set_scalar(ex, v, tmp, (size_t)k, 0);
  v->flags |= save;
  if (ex->opts & O_ALLEXPORT)
    v->flags |= V_EXPORT;
  return r;
}

int64_t sh_arith(sh_exec *ex, const char *expr, size_t len, int *err) {
  int unbound = 0;
  sh_arith_env env = {.ud = ex,
                      .get = ar_get,
                      .set = ar_set,
                      .nounset = (ex->opts & O_NOUNSET) != 0,
                      .unbound = &unbound,
                      .exists = ar_exists};
  int64_t out = 0;
  const char *msg = NULL;
  if (sh_arith_eval(ex->ar, &env, expr, len, &out, &msg)) {
    *err = 1;
    if (unbound && msg && !ex->jump) {
      /* set -u: the shell exits 127 (a subshell, or under set -e, 1) */
      sh_err(ex, "%s", msg);
      sh_fatal(ex, (ex->opts & O_ERREXIT) || ex->in_subshell ? 1 : 127);
      return 0;
    }
    if (msg) {
      /* bash: "EXPR: message" with the expression trimmed. */
      while (len && (*expr == ' ' || *expr == '\t' || *expr == '\n'))
        expr++, len--;
      sh_err(ex, "%.*s: %s", (int)len, expr, msg);
    }
    return 0;
  }
  return out;
}
