/*
 * hash.c - the table of commands found on PATH (bash's `hash`): a command
 * found by a PATH search is remembered with its file, and later runs use
 * that file without searching again, until `hash -r` or a change of PATH.
 * A remembered file that has since gone is not looked for elsewhere: the
 * command fails, as in bash.
 *
 * `hash` lists the table in bash's order (the order of its 256-bucket
 * table: buckets by the FNV-1 hash of the name, newest first within a
 * bucket), so listings match bash's line for line.
 */
#include <stdlib.h>
#include <string.h>

#include "shell/sh.h"

typedef struct sh_hash {
  sh_map map; /* of sh_hashent */
  uint32_t seq;
  char *path; /* the PATH the table was made for */
} sh_hash;

/* bash's hash_string(): FNV-1, 32 bits. */
static uint32_t fnv1(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s; s++) {
    h *= 16777619u;
    h ^= (uint32_t)(unsigned char)*s;
  }
  return h;
}

/* An entry and its two strings are one block. */
static void ent_free(mem *m, sh_hashent *e) {
  mem_free(m, e);
}

/* The table, forgotten first when PATH changed since it was made (every
 * way of changing it counts: assignment, export, local, unset, a prefix
 * assignment of one command). */
static sh_hash *current(sh_exec *ex) {
  sh_hash *h = ex->cmdhash;
  if (!h)
    return NULL;
  const char *path = sh_getvar(ex, "PATH");
  if (strcmp(h->path, path ? path : "") == 0)
    return h;
  sh_hash_clear(ex);
  return NULL;
}

const char *sh_hash_get(sh_exec *ex, const char *name, int count) {
  sh_hash *h = current(ex);
  if (!h)
    return NULL;
  sh_hashent *e = sh_map_get(&h->map, name);
  if (!e)
    return NULL;
  if (count)
    e->hits++;
  return e->path;
}

int sh_hash_put(sh_exec *ex, const char *name, const char *path, int hits) {
  sh_hash *h = current(ex);
  if (!h) {
    const char *pv = sh_getvar(ex, "PATH");
    h = mem_calloc(ex->m, 1, sizeof *h);
    char *pc = mem_strdup(ex->m, pv ? pv : "");
    if (!h || !pc) {
      mem_free(ex->m, h);
      mem_free(ex->m, pc);
      return -1;
    }
    h->path = pc;
    ex->cmdhash = h;
  }
  size_t nl = strlen(name) + 1, pl = strlen(path) + 1;
  sh_hashent *e = mem_alloc(ex->m, sizeof *e + nl + pl);
  if (!e)
    return -1;
  e->name = (char *)(e + 1);
  e->path = e->name + nl;
  memcpy(e->name, name, nl);
  memcpy(e->path, path, pl);
  e->hits = hits;
  e->seq = ++h->seq;
  sh_hashent *old = sh_map_del(&h->map, name);
  ent_free(ex->m, old);
  if (sh_map_put(ex->m, &h->map, e)) {
    ent_free(ex->m, e);
    return -1;
  }
  return 0;
}

int sh_hash_remove(sh_exec *ex, const char *name) {
  sh_hash *h = current(ex);
  sh_hashent *e = h ? sh_map_del(&h->map, name) : NULL;
  if (!e)
    return -1;
  ent_free(ex->m, e);
  return 0;
}

void sh_hash_clear(sh_exec *ex) {
  sh_hash *h = ex->cmdhash;
  if (!h)
    return;
  uint32_t i = 0;
  sh_hashent *e;
  while ((e = sh_map_next(&h->map, &i)))
    ent_free(ex->m, e);
  sh_map_free(ex->m, &h->map);
  mem_free(ex->m, h->path);
  mem_free(ex->m, h);
  ex->cmdhash = NULL;
}

void sh_hash_free(sh_exec *ex) {
  sh_hash_clear(ex);
}

int sh_hash_copy(sh_exec *dst, const sh_exec *src) {
  const sh_hash *h = src->cmdhash;
  if (!h)
    return 0;
  uint32_t i = 0;
  sh_hashent *e;
  while ((e = sh_map_next(&h->map, &i)))
    if (sh_hash_put(dst, e->name, e->path, e->hits))
      return -1;
  /* Keep the listing order of the parent. */
  sh_hash *d = dst->cmdhash;
  i = 0;
  while (d && (e = sh_map_next(&d->map, &i))) {
    const sh_hashent *o = sh_map_get(&h->map, e->name);
    if (o)
      e->seq = o->seq;
  }
  if (d)
    d->seq = h->seq;
  return 0;
}

static int by_bucket(const void *a, const void *b) {
  const sh_hashent *x = *(const sh_hashent *const *)a;
  const sh_hashent *y = *(const sh_hashent *const *)b;
  uint32_t bx = fnv1(x->name) & 255, by = fnv1(y->name) & 255;
  if (bx != by)
    return bx < by ? -1 : 1;
  return x->seq > y->seq ? -1 : x->seq < y->seq;
}

sh_hashent **sh_hash_list(sh_exec *ex, arena *ar, size_t *n) {
  sh_hash *h = current(ex);
  *n = 0;
  if (!h || !h->map.n)
    return NULL;
  sh_hashent **v = arena_alloc(ar, h->map.n * sizeof *v);
  if (!v) {
    sh_oom(ex);
    return NULL;
  }
  uint32_t i = 0;
  sh_hashent *e;
  size_t k = 0;
  while (k < h->map.n && (e = sh_map_next(&h->map, &i)))
    v[k++] = e;
  qsort(v, k, sizeof *v, by_bucket);
  *n = k;
  return v;
}
