/*
 * snap.c - snapshots, restore, and diff between two trees.
 *
 * A snapshot is a reference on the root and the link table plus the
 * counters: O(1). Diff walks both trees in parallel and skips every pair of
 * subtrees that is still the same pointer, at both levels: directory inodes
 * and the nodes of a directory's own map, so a change to one entry of a big
 * directory costs O(log n) map nodes, not a listing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "vfs/internal.h"

int vfs_shared_links(vfs *v, dmap **links, uint64_t *bytes, uint64_t *inodes) {
  /* Inodes kept alive only by this vfs's open handles (unlinked while open)
   * must not travel into a snapshot or fork, where no handle holds them:
   * drop them from a copy of the link table (O(open handles * log n)). */
  dmap *l = dmap_ref(v->links);
  *bytes = v->bytes;
  *inodes = v->inodes;
  for (size_t i = 0; i < v->npins; i++) {
    char k[8];
    ino_key(v->pins[i].ino, k);
    vnode *n = dmap_get(l, k, 8);
    if (!n || n->nlink)
      continue;
    vnode *old;
    if (dmap_del(v->m, &l, k, 8, &old)) {
      dmap_unref(l);
      return -ENOMEM;
    }
    *bytes -= vnode_bytes(old);
    *inodes -= vnode_inodes(old);
    vnode_unref(old);
  }
  *links = l;
  return 0;
}

vfs_snap *vfs_snapshot(vfs *v) {
  vfs_snap *s = mem_alloc(v->m, sizeof *s);
  if (!s)
    return NULL;
  if (vfs_shared_links(v, &s->links, &s->bytes, &s->inodes)) {
    mem_free(v->m, s);
    return NULL;
  }
  atomic_init(&s->rc, 1);
  s->m = mem_ref(v->m);
  s->root = vnode_ref(v->root);
  s->next_ino = v->next_ino;
  return s;
}

vfs_snap *vfs_snap_ref(vfs_snap *s) {
  atomic_fetch_add(&s->rc, 1);
  return s;
}

void vfs_snap_free(vfs_snap *s) {
  if (!s || atomic_fetch_sub(&s->rc, 1) != 1)
    return;
  vnode_unref(s->root);
  dmap_unref(s->links);
  mem *m = s->m;
  mem_free(m, s);
  mem_unref(m);
}

int vfs_restore(vfs *v, const vfs_snap *s) {
  vnode *old = v->root;
  dmap *ol = v->links;
  v->root = vnode_ref(s->root);
  v->links = dmap_ref(s->links);
  vnode_unref(old);
  dmap_unref(ol);
  if (s->next_ino > v->next_ino)
    v->next_ino = s->next_ino;
  v->bytes = s->bytes;
  v->inodes = s->inodes;
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Parallel in-order walk of two maps, skipping shared subtrees             */
/* ------------------------------------------------------------------------ */

typedef struct mw_item {
  const dmap *n;
  bool single; /* the node alone (its subtrees were pushed separately) */
} mw_item;

typedef struct mwalk {
  mw_item st[200];
  int sp;
} mwalk;

static void mw_init(mwalk *w, const dmap *root) {
  w->sp = 0;
  if (root)
    w->st[w->sp++] = (mw_item){root, false};
}

/* Expand the subtree on top into left subtree, node, right subtree. */
static void mw_expand(mwalk *w) {
  const dmap *n = w->st[--w->sp].n;
  if (n->r)
    w->st[w->sp++] = (mw_item){n->r, false};
  w->st[w->sp++] = (mw_item){n, true};
  if (n->l)
    w->st[w->sp++] = (mw_item){n->l, false};
}

/* Make the top a single node. */
static const dmap *mw_peek(mwalk *w) {
  while (w->sp && !w->st[w->sp - 1].single)
    mw_expand(w);
  return w->sp ? w->st[w->sp - 1].n : NULL;
}

/* Advance both walks to the next pair of single nodes that may differ:
 * identical subtrees on top of both stacks are dropped unseen. Sets x and y
 * to the next node of each walk (NULL when exhausted). */
static void mw_sync(mwalk *a, mwalk *b, const dmap **x, const dmap **y) {
  for (;;) {
    if (a->sp && b->sp && a->st[a->sp - 1].n == b->st[b->sp - 1].n &&
        a->st[a->sp - 1].single == b->st[b->sp - 1].single) {
      a->sp--;
      b->sp--;
      continue;
    }
    if (a->sp && b->sp && !a->st[a->sp - 1].single &&
        !b->st[b->sp - 1].single) {
      /* expand the taller one so shared subtrees can line up */
      uint32_t ha = a->st[a->sp - 1].n->height, hb = b->st[b->sp - 1].n->height;
      if (ha >= hb)
        mw_expand(a);
      if (hb >= ha)
        mw_expand(b);
      continue;
    }
    if (a->sp && !a->st[a->sp - 1].single) {
      mw_expand(a);
      continue;
    }
    if (b->sp && !b->st[b->sp - 1].single) {
      mw_expand(b);
      continue;
    }
    break;
  }
  *x = mw_peek(a);
  *y = mw_peek(b);
}

/* ------------------------------------------------------------------------ */
/* Diff                                                                     */
/* ------------------------------------------------------------------------ */

typedef struct dctx {
  const dmap *la, *lb; /* link tables */
  uint64_t *changed;   /* inode numbers whose link-table node differs */
  size_t nchanged;
  vfs_diff_fn fn;
  void *ud;
  buf path;
  int stop;
} dctx;

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static bool ino_changed(const dctx *c, uint64_t ino) {
  return c->nchanged &&
         bsearch(&ino, c->changed, c->nchanged, sizeof ino, cmp_u64);
}

static uint64_t key_ino(const dmap *d) {
  uint64_t x = 0;
  for (int i = 0; i < 8; i++)
    x = x << 8 | (uint8_t)d->key[i];
  return x;
}

static int collect_changed(dctx *c, mem *m) {
  mwalk a, b;
  size_t cap = 0;
  mw_init(&a, c->la);
  mw_init(&b, c->lb);
  for (;;) {
    const dmap *x, *y;
    mw_sync(&a, &b, &x, &y);
    if (!x && !y)
      return 0;
    int k = !x ? 1 : !y ? -1 : dmap_keycmp(x->key, x->klen, y->key, y->klen);
    const dmap *use = k <= 0 ? x : y;
    if (k <= 0)
      a.sp--;
    if (k >= 0)
      b.sp--;
    if (k == 0 && x->val == y->val)
      continue;
    if (c->nchanged == cap) {
      size_t nc = cap ? cap * 2 : 16;
      uint64_t *p = mem_realloc(m, c->changed, nc * sizeof *p);
      if (!p)
        return -ENOMEM;
      c->changed = p;
      cap = nc;
    }
    c->changed[c->nchanged++] = key_ino(use);
  }
}

static int emit(dctx *c, int kind, unsigned what) {
  if (c->stop)
    return c->stop;
  if (c->fn(c->ud, kind, buf_cstr(&c->path), what))
    c->stop = -ECANCELED;
  return c->stop;
}

static int push_name(dctx *c, const char *name, size_t len, size_t *save) {
  *save = c->path.len;
  if ((c->path.len != 1 && buf_putc(&c->path, '/')) ||
      buf_append(&c->path, name, len))
    return -ENOMEM;
  return 0;
}

static void pop_name(dctx *c, size_t save) {
  c->path.len = save;
  c->path.data[save] = 0;
}

/* Report a whole subtree as added or removed (the node first). */
static int report_all(dctx *c, const dmap *links, vnode *e, int kind) {
  int rc = emit(c, kind, 0);
  vnode *n = vfs_deref(links, e);
  if (rc || !n || n->type != VFS_DIR)
    return rc;
  if (atomic_load(&n->lazy) == VN_LAZY_DIR)
    vfs_host_load_dir(n);
  dmap_iter it;
  dmap_iter_init(&it, n->u.dir.map);
  const dmap *d;
  while (!rc && (d = dmap_iter_next(&it))) {
    size_t save;
    if ((rc = push_name(c, d->key, d->klen, &save)))
      break;
    rc = report_all(c, links, d->val, kind);
    pop_name(c, save);
  }
  return rc;
}

static bool same_content(vnode *a, vnode *b) {
  if (a->u.data == b->u.data && atomic_load(&a->lazy) == VN_LAZY_NONE &&
      atomic_load(&b->lazy) == VN_LAZY_NONE)
    return true;
  if (atomic_load(&a->lazy) == VN_LAZY_FILE &&
      atomic_load(&b->lazy) == VN_LAZY_FILE && a->mnt == b->mnt && a->hpath &&
      b->hpath && !strcmp(a->hpath, b->hpath))
    return true;
  if (atomic_load(&a->lazy) == VN_LAZY_FILE)
    vfs_host_load_file(a);
  if (atomic_load(&b->lazy) == VN_LAZY_FILE)
    vfs_host_load_file(b);
  size_t la = a->u.data ? a->u.data->len : 0;
  size_t lb = b->u.data ? b->u.data->len : 0;
  return la == lb && (!la || !memcmp(a->u.data->data, b->u.data->data, la));
}

static int diff_dir(dctx *c, vnode *a, vnode *b);

static int diff_entry(dctx *c, vnode *ea, vnode *eb) {
  vnode *na = vfs_deref(c->la, ea), *nb = vfs_deref(c->lb, eb);
  if (ea == eb && (ea->type != VN_STUB || na == nb)) {
    /* same entry: only links below (or behind a stub) can differ */
    if (ea->type == VFS_DIR && c->nchanged)
      return diff_dir(c, ea, eb);
    return 0;
  }
  if (!na || !nb) /* a dangling stub: treat as a type change */
    return emit(c, VFS_MODIFIED, VFS_CHANGED_TYPE);
  if (na == nb)
    return 0;
  if (na->type != nb->type) {
    int rc;
    if (na->type == VFS_DIR) {
      /* everything below the old directory is gone */
      if ((rc = emit(c, VFS_MODIFIED, VFS_CHANGED_TYPE)))
        return rc;
      dmap_iter it;
      dmap_iter_init(&it, na->u.dir.map);
      const dmap *d;
      while ((d = dmap_iter_next(&it))) {
        size_t save;
        if ((rc = push_name(c, d->key, d->klen, &save)))
          return rc;
        rc = report_all(c, c->la, d->val, VFS_REMOVED);
        pop_name(c, save);
        if (rc)
          return rc;
      }
      return 0;
    }
    if ((rc = emit(c, VFS_MODIFIED, VFS_CHANGED_TYPE)))
      return rc;
    if (nb->type == VFS_DIR) {
      if (atomic_load(&nb->lazy) == VN_LAZY_DIR)
        vfs_host_load_dir(nb);
      dmap_iter it;
      dmap_iter_init(&it, nb->u.dir.map);
      const dmap *d;
      while ((d = dmap_iter_next(&it))) {
        size_t save;
        if ((rc = push_name(c, d->key, d->klen, &save)))
          return rc;
        rc = report_all(c, c->lb, d->val, VFS_ADDED);
        pop_name(c, save);
        if (rc)
          return rc;
      }
    }
    return 0;
  }
  unsigned what = 0;
  if ((na->mode & 07777) != (nb->mode & 07777))
    what |= VFS_CHANGED_MODE;
  switch (na->type) {
  case VFS_REG:
    if (!same_content(na, nb))
      what |= VFS_CHANGED_CONTENT;
    break;
  case VFS_LNK:
    if (na->u.lnk.len != nb->u.lnk.len ||
        memcmp(na->u.lnk.target, nb->u.lnk.target, na->u.lnk.len))
      what |= VFS_CHANGED_TARGET;
    break;
  case VFS_CHR:
    if (na->dev != nb->dev)
      what |= VFS_CHANGED_TYPE;
    break;
  default:
    break;
  }
  int rc = what ? emit(c, VFS_MODIFIED, what) : 0;
  if (!rc && na->type == VFS_DIR)
    rc = diff_dir(c, na, nb);
  return rc;
}

/* Directory pairs. When a == b, only entries whose link-table inode changed
 * can differ, and only when some did. */
static int diff_dir(dctx *c, vnode *a, vnode *b) {
  if (a == b && !c->nchanged)
    return 0;
  if (atomic_load(&a->lazy) == VN_LAZY_DIR)
    vfs_host_load_dir(a);
  if (atomic_load(&b->lazy) == VN_LAZY_DIR)
    vfs_host_load_dir(b);
  if (a == b) {
    dmap_iter it;
    dmap_iter_init(&it, a->u.dir.map);
    const dmap *d;
    int rc = 0;
    while (!rc && (d = dmap_iter_next(&it))) {
      vnode *e = d->val;
      if (e->type == VFS_DIR ||
          (e->type == VN_STUB && ino_changed(c, e->u.link_ino))) {
        size_t save;
        if ((rc = push_name(c, d->key, d->klen, &save)))
          return rc;
        if (e->type == VFS_DIR)
          rc = diff_dir(c, e, e);
        else
          rc = diff_entry(c, e, e);
        pop_name(c, save);
      }
    }
    return rc;
  }
  mwalk wa, wb;
  mw_init(&wa, a->u.dir.map);
  mw_init(&wb, b->u.dir.map);
  for (;;) {
    const dmap *x, *y;
    if (c->nchanged) {
      /* shared map subtrees may hide stubs of changed links: no skipping */
      x = mw_peek(&wa);
      y = mw_peek(&wb);
    } else {
      mw_sync(&wa, &wb, &x, &y);
    }
    if (!x && !y)
      return 0;
    int k = !x ? 1 : !y ? -1 : dmap_keycmp(x->key, x->klen, y->key, y->klen);
    if (k <= 0)
      wa.sp--;
    if (k >= 0)
      wb.sp--;
    const dmap *d = k <= 0 ? x : y;
    size_t save;
    int rc = push_name(c, d->key, d->klen, &save);
    if (!rc) {
      if (k < 0)
        rc = report_all(c, c->la, x->val, VFS_REMOVED);
      else if (k > 0)
        rc = report_all(c, c->lb, y->val, VFS_ADDED);
      else
        rc = diff_entry(c, x->val, y->val);
    }
    pop_name(c, save);
    if (rc)
      return rc;
  }
}

int vfs_diff(vfs *v, const vfs_snap *a, const vfs_snap *b, vfs_diff_fn fn,
             void *ud) {
  vfs_snap *live = NULL;
  if (!b) {
    if (!v)
      return -EINVAL;
    if (!(live = vfs_snapshot(v)))
      return -ENOMEM;
    b = live;
  }
  mem *m = v ? v->m : b->m;
  dctx c = {.la = a->links, .lb = b->links, .fn = fn, .ud = ud};
  buf_init(&c.path, m);
  int rc = collect_changed(&c, m);
  if (!rc && c.nchanged)
    qsort(c.changed, c.nchanged, sizeof *c.changed, cmp_u64);
  if (!rc && buf_putc(&c.path, '/'))
    rc = -ENOMEM;
  if (!rc) {
    vnode *ra = a->root, *rb = b->root;
    unsigned what =
        (ra->mode & 07777) != (rb->mode & 07777) ? VFS_CHANGED_MODE : 0;
    if (what)
      rc = emit(&c, VFS_MODIFIED, what);
    if (!rc)
      rc = diff_dir(&c, ra, rb);
  }
  buf_free(&c.path);
  mem_free(m, c.changed);
  vfs_snap_free(live);
  return rc;
}
