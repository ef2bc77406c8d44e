/*
 * map.c - persistent AVL tree (key -> vnode) with reference-counted nodes.
 *
 * A node with count 1 reached through an exclusive parent is changed in
 * place; a shared node is copied first, so a mutation copies at most the
 * O(log n) nodes on its path and snapshots keep seeing their version.
 * If an allocation fails half way, every step taken so far left a valid
 * tree (a copy replaces a node with an equal one; a rotation that cannot copy
 * is skipped, leaving the tree a little less balanced but correct).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "vfs/internal.h"

int dmap_keycmp(const char *a, size_t al, const char *b, size_t bl) {
  size_t n = al < bl ? al : bl;
  int c = n ? memcmp(a, b, n) : 0;
  if (c)
    return c;
  return al < bl ? -1 : al > bl;
}

void ino_key(uint64_t ino, char out[8]) {
  for (int i = 0; i < 8; i++)
    out[i] = (char)(ino >> (56 - 8 * i));
}

dmap *dmap_ref(dmap *d) {
  if (d)
    atomic_fetch_add_explicit(&d->rc, 1, memory_order_relaxed);
  return d;
}

/* Frees a tree of map nodes whose root's count already reached 0, with no
 * recursion and no allocation: directories nest without bound (a tree built
 * with mv one level at a time can be deeper than any path), so the walk
 * rotates each dead left child up (d's right subtree hangs below it) and the
 * map of a directory that dies is hung, with its reference, in the free left
 * slot of the node that held it. Every node is visited a bounded number of
 * times. */
void dmap_free_dead(dmap *d) {
  while (d) {
    if (d->l) {
      dmap *l = d->l;
      if (atomic_fetch_sub_explicit(&l->rc, 1, memory_order_acq_rel) == 1) {
        /* l is dead: rotate it above d. Every child slot holds a reference
         * not yet dropped, so d (ours alone) goes there with a count of 1. */
        d->l = l->r;
        atomic_store_explicit(&d->rc, 1, memory_order_relaxed);
        l->r = d;
        d = l;
      } else {
        d->l = NULL; /* shared: our reference is dropped */
      }
      continue;
    }
    if (d->val) {
      vnode *n = d->val;
      d->val = NULL;
      if (atomic_fetch_sub_explicit(&n->rc, 1, memory_order_acq_rel) == 1)
        d->l = vnode_free_shell(n); /* its map's reference: dropped next */
      continue;
    }
    dmap *r = d->r;
    mem *m = d->m;
    mem_free(m, d);
    mem_unref(m);
    d = r && atomic_fetch_sub_explicit(&r->rc, 1, memory_order_acq_rel) == 1
            ? r
            : NULL;
  }
}

void dmap_unref(dmap *d) {
  if (d && atomic_fetch_sub_explicit(&d->rc, 1, memory_order_acq_rel) == 1)
    dmap_free_dead(d);
}

static dmap *node_alloc(mem *m, const char *key, size_t klen) {
  dmap *d = mem_alloc(m, sizeof *d + klen + 1);
  if (!d)
    return NULL;
  atomic_init(&d->rc, 1);
  d->m = mem_ref(m);
  d->l = d->r = NULL;
  d->val = NULL;
  d->height = 1;
  d->klen = (uint32_t)klen;
  memcpy(d->key, key, klen);
  d->key[klen] = 0;
  return d;
}

static int make_mut(mem *m, dmap **p) {
  dmap *d = *p;
  if (atomic_load_explicit(&d->rc, memory_order_acquire) == 1)
    return 0;
  dmap *c = node_alloc(m, d->key, d->klen);
  if (!c)
    return -ENOMEM;
  c->l = dmap_ref(d->l);
  c->r = dmap_ref(d->r);
  c->val = vnode_ref(d->val);
  c->height = d->height;
  *p = c;
  dmap_unref(d);
  return 0;
}

static uint32_t h(const dmap *d) {
  return d ? d->height : 0;
}

static void fix_height(dmap *d) {
  uint32_t a = h(d->l), b = h(d->r);
  d->height = (a > b ? a : b) + 1;
}

/* Rotations move references around without changing any count. */
static int rot_right(mem *m, dmap **p) {
  dmap *x = *p;
  if (make_mut(m, &x->l))
    return -ENOMEM;
  dmap *y = x->l;
  x->l = y->r;
  y->r = x;
  *p = y;
  fix_height(x);
  fix_height(y);
  return 0;
}

static int rot_left(mem *m, dmap **p) {
  dmap *x = *p;
  if (make_mut(m, &x->r))
    return -ENOMEM;
  dmap *y = x->r;
  x->r = y->l;
  y->l = x;
  *p = y;
  fix_height(x);
  fix_height(y);
  return 0;
}

/* *p is exclusive. */
static void rebalance(mem *m, dmap **p) {
  dmap *d = *p;
  fix_height(d);
  int bf = (int)h(d->l) - (int)h(d->r);
  if (bf > 1) {
    if (h(d->l->l) < h(d->l->r)) {
      if (make_mut(m, &d->l) || rot_left(m, &d->l))
        return;
    }
    rot_right(m, p);
  } else if (bf < -1) {
    if (h(d->r->r) < h(d->r->l)) {
      if (make_mut(m, &d->r) || rot_right(m, &d->r))
        return;
    }
    rot_left(m, p);
  }
}

static int put(mem *m, dmap **p, const char *key, size_t klen, vnode *val,
               vnode **old, dmap **fresh) {
  if (!*p) {
    (*fresh)->val = val;
    *p = *fresh;
    *fresh = NULL;
    return 0;
  }
  if (make_mut(m, p))
    return -ENOMEM;
  dmap *d = *p;
  int c = dmap_keycmp(key, klen, d->key, d->klen);
  if (c == 0) {
    *old = d->val;
    d->val = val;
    return 0;
  }
  int rc = put(m, c < 0 ? &d->l : &d->r, key, klen, val, old, fresh);
  if (rc)
    return rc;
  rebalance(m, p);
  return 0;
}

int dmap_put(mem *m, dmap **root, const char *key, size_t klen, vnode *val,
             vnode **old) {
  *old = NULL;
  dmap *fresh = node_alloc(m, key, klen);
  if (!fresh)
    return -ENOMEM;
  int rc = put(m, root, key, klen, val, old, &fresh);
  if (fresh)
    dmap_unref(fresh); /* replaced in place, or failed */
  return rc;
}

/* Detach the smallest node of *p (made exclusive) into *out. */
static int del_min(mem *m, dmap **p, dmap **out) {
  if (make_mut(m, p))
    return -ENOMEM;
  dmap *d = *p;
  if (!d->l) {
    *out = d;
    *p = d->r;
    d->r = NULL;
    return 0;
  }
  int rc = del_min(m, &d->l, out);
  if (rc)
    return rc;
  rebalance(m, p);
  return 0;
}

static int del(mem *m, dmap **p, const char *key, size_t klen, vnode **old) {
  if (!*p)
    return 0;
  if (make_mut(m, p))
    return -ENOMEM;
  dmap *d = *p;
  int c = dmap_keycmp(key, klen, d->key, d->klen);
  if (c) {
    int rc = del(m, c < 0 ? &d->l : &d->r, key, klen, old);
    if (rc)
      return rc;
    if (*old)
      rebalance(m, p);
    return 0;
  }
  if (d->l && d->r) {
    dmap *mn;
    int rc = del_min(m, &d->r, &mn);
    if (rc)
      return rc;
    mn->l = d->l;
    mn->r = d->r;
    *p = mn;
    rebalance(m, p);
  } else {
    *p = d->l ? d->l : d->r;
  }
  *old = d->val;
  d->val = NULL;
  d->l = d->r = NULL;
  dmap_unref(d);
  return 0;
}

int dmap_del(mem *m, dmap **root, const char *key, size_t klen, vnode **old) {
  *old = NULL;
  return del(m, root, key, klen, old);
}

vnode *dmap_get(const dmap *d, const char *key, size_t klen) {
  while (d) {
    int c = dmap_keycmp(key, klen, d->key, d->klen);
    if (!c)
      return d->val;
    d = c < 0 ? d->l : d->r;
  }
  return NULL;
}

vnode **dmap_slot(mem *m, dmap **root, const char *key, size_t klen, int *err) {
  dmap **p = root;
  *err = 0;
  while (*p) {
    int c = dmap_keycmp(key, klen, (*p)->key, (*p)->klen);
    if (make_mut(m, p)) {
      *err = -ENOMEM;
      return NULL;
    }
    if (!c)
      return &(*p)->val;
    p = c < 0 ? &(*p)->l : &(*p)->r;
  }
  *err = -ENOENT;
  return NULL;
}

static void push_left(dmap_iter *it, const dmap *d) {
  while (d && it->sp < (int)(sizeof it->stack / sizeof it->stack[0])) {
    it->stack[it->sp++] = d;
    d = d->l;
  }
}

void dmap_iter_init(dmap_iter *it, const dmap *root) {
  it->sp = 0;
  push_left(it, root);
}

void dmap_iter_from(dmap_iter *it, const dmap *d, const char *key,
                    size_t klen) {
  it->sp = 0;
  if (!key) {
    push_left(it, d);
    return;
  }
  while (d && it->sp < (int)(sizeof it->stack / sizeof it->stack[0])) {
    if (dmap_keycmp(d->key, d->klen, key, klen) > 0) {
      it->stack[it->sp++] = d;
      d = d->l;
    } else {
      d = d->r;
    }
  }
}

const dmap *dmap_iter_next(dmap_iter *it) {
  if (!it->sp)
    return NULL;
  const dmap *d = it->stack[--it->sp];
  push_left(it, d->r);
  return d;
}

static int check(const dmap *d, const char *lo, size_t lol, const char *hi,
                 size_t hil, char *msg, size_t cap, uint32_t *height) {
  if (!d) {
    *height = 0;
    return 0;
  }
  if (atomic_load(&d->rc) < 1 || !d->val) {
    snprintf(msg, cap, "map node '%s' with bad count or no value", d->key);
    return -EUCLEAN;
  }
  if ((lo && dmap_keycmp(d->key, d->klen, lo, lol) <= 0) ||
      (hi && dmap_keycmp(d->key, d->klen, hi, hil) >= 0)) {
    snprintf(msg, cap, "map key '%s' out of order", d->key);
    return -EUCLEAN;
  }
  uint32_t a, b;
  if (check(d->l, lo, lol, d->key, d->klen, msg, cap, &a) ||
      check(d->r, d->key, d->klen, hi, hil, msg, cap, &b))
    return -EUCLEAN;
  uint32_t want = (a > b ? a : b) + 1;
  if (d->height != want || a > b + 1 || b > a + 1) {
    snprintf(msg, cap, "map node '%s' height/balance wrong", d->key);
    return -EUCLEAN;
  }
  *height = want;
  return 0;
}

int dmap_check(const dmap *d, char *msg, size_t cap) {
  uint32_t hh;
  return check(d, NULL, 0, NULL, 0, msg, cap, &hh);
}
