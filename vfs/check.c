/*
 * check.c - a full consistency check of the live tree, for tests and the
 * fuzzer: link counts, quota counters against a recount, link table
 * reachability, map ordering and balance.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vfs/internal.h"

typedef struct cctx {
  vfs *v;
  char *msg;
  size_t cap;
  uint64_t bytes, inodes;
  uint64_t *stubs; /* inode numbers named by stubs, one per stub */
  size_t nstubs, capstubs;
} cctx;

static int fail(cctx *c, const char *what, const char *name) {
  if (c->cap)
    snprintf(c->msg, c->cap, "%s: %s", what, name ? name : "?");
  return -EUCLEAN;
}

static int count_node(cctx *c, const vnode *n, const char *name) {
  c->inodes += vnode_inodes(n);
  c->bytes += vnode_bytes(n);
  if (n->type == VFS_REG && atomic_load(&n->lazy) == VN_LAZY_NONE &&
      n->size != (n->u.data ? n->u.data->len : 0))
    return fail(c, "file size differs from its content", name);
  return 0;
}

/* The checks of one directory and its entries (not below them). */
static int check_dir(cctx *c, const vnode *dir, const char *name) {
  if (atomic_load(&dir->lazy) == VN_LAZY_DIR)
    return 0; /* an unlisted host directory: nothing of it counts yet */
  if (dmap_check(dir->u.dir.map, c->msg, c->cap))
    return -EUCLEAN;
  size_t count = 0, subdirs = 0;
  dmap_iter it;
  dmap_iter_init(&it, dir->u.dir.map);
  const dmap *d;
  while ((d = dmap_iter_next(&it))) {
    count++;
    if (!d->klen || memchr(d->key, '/', d->klen) ||
        (d->klen == 1 && d->key[0] == '.') ||
        (d->klen == 2 && d->key[0] == '.' && d->key[1] == '.'))
      return fail(c, "invalid name in directory", name);
    const vnode *e = d->val;
    if (atomic_load(&e->rc) < 1)
      return fail(c, "entry with a dead reference count", d->key);
    if (e->type == VN_STUB) {
      if (c->nstubs == c->capstubs) {
        size_t nc = c->capstubs ? c->capstubs * 2 : 64;
        uint64_t *p = mem_realloc(c->v->m, c->stubs, nc * sizeof *p);
        if (!p)
          return -ENOMEM;
        c->stubs = p;
        c->capstubs = nc;
      }
      c->stubs[c->nstubs++] = e->u.link_ino;
      continue;
    }
    int rc = count_node(c, e, d->key);
    if (rc)
      return rc;
    if (e->type == VFS_DIR)
      subdirs++;
    else if (e->nlink != 1)
      return fail(c, "single-name inode with a link count other than 1",
                  d->key);
  }
  if (count != dir->u.dir.count)
    return fail(c, "directory entry count wrong", name);
  if (dir->nlink != 2 + subdirs)
    return fail(c, "directory link count wrong", name);
  return 0;
}

/* Every directory of the tree, iteratively (trees may be deeper than any
 * stack). */
static int walk(cctx *c, const vnode *root) {
  int rc = check_dir(c, root, "/");
  vwalk w;
  vwalk_init(&w, c->v->m, NULL);
  const dmap *d;
  if (!rc)
    rc = vwalk_enter(&w, root);
  while (!rc && (rc = vwalk_next(&w, &d)) == 1) {
    rc = 0;
    if (d->val->type == VFS_DIR && !(rc = check_dir(c, d->val, d->key)) &&
        atomic_load(&d->val->lazy) != VN_LAZY_DIR)
      rc = vwalk_enter(&w, d->val);
  }
  vwalk_free(&w);
  return rc;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

int vfs_check(vfs *v, char *msg, size_t cap) {
  cctx c = {.v = v, .msg = msg, .cap = cap};
  if (cap)
    msg[0] = 0;
  int rc = count_node(&c, v->root, "/");
  if (!rc)
    rc = walk(&c, v->root);
  if (!rc)
    rc = dmap_check(v->links, msg, cap);
  if (!rc && c.nstubs)
    qsort(c.stubs, c.nstubs, sizeof *c.stubs, cmp_u64);
  /* every link-table inode: its link count equals the stubs naming it, and
   * one that no name reaches must be held open */
  dmap_iter it;
  dmap_iter_init(&it, v->links);
  const dmap *d;
  size_t si = 0;
  while (!rc && (d = dmap_iter_next(&it))) {
    const vnode *n = d->val;
    uint64_t ino = 0;
    for (int i = 0; i < 8; i++)
      ino = ino << 8 | (uint8_t)d->key[i];
    if (n->ino != ino || n->type == VN_STUB || n->type == VFS_DIR) {
      rc = fail(&c, "link table entry malformed", "links");
      break;
    }
    while (si < c.nstubs && c.stubs[si] < ino) {
      rc = fail(&c, "stub names an inode missing from the link table", "links");
      break;
    }
    if (rc)
      break;
    uint32_t k = 0;
    while (si < c.nstubs && c.stubs[si] == ino) {
      k++;
      si++;
    }
    if (k != n->nlink) {
      if (cap)
        snprintf(msg, cap, "inode %llu: nlink %u but %u names",
                 (unsigned long long)ino, n->nlink, k);
      rc = -EUCLEAN;
      break;
    }
    bool pin = false;
    for (size_t i = 0; i < v->npins; i++)
      pin |= v->pins[i].ino == ino;
    if (!k && !pin) {
      rc = fail(&c, "unreachable inode in the link table", "links");
      break;
    }
    rc = count_node(&c, n, "links");
  }
  if (!rc && si < c.nstubs)
    rc = fail(&c, "stub names an inode missing from the link table", "links");
  if (!rc && (c.bytes != v->bytes || c.inodes != v->inodes)) {
    if (cap)
      snprintf(msg, cap,
               "quota counters %llu bytes/%llu inodes, recount %llu/%llu",
               (unsigned long long)v->bytes, (unsigned long long)v->inodes,
               (unsigned long long)c.bytes, (unsigned long long)c.inodes);
    rc = -EUCLEAN;
  }
  mem_free(v->m, c.stubs);
  return rc;
}
