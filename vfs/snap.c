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

/* The walk's stack lives on the heap and is shared by every directory open
 * in the diff (each uses the part above its base), so the depth of the
 * trees never reaches the C stack. */
typedef struct mw_item {
  const dmap *n;
  bool single; /* the node alone (its subtrees were pushed separately) */
} mw_item;

typedef struct mwalk {
  mem *m;
  mw_item *st;
  size_t sp, cap, base;
  int err; /* -ENOMEM once a push failed */
} mwalk;

static bool mw_any(const mwalk *w) {
  return w->sp > w->base;
}

static const mw_item *mw_top(const mwalk *w) {
  return &w->st[w->sp - 1];
}

static void mw_push(mwalk *w, const dmap *n, bool single) {
  if (w->sp == w->cap) {
    size_t nc = w->cap ? w->cap * 2 : 64;
    mw_item *p = mem_realloc(w->m, w->st, nc * sizeof *p);
    if (!p) {
      w->err = -ENOMEM;
      return;
    }
    w->st = p;
    w->cap = nc;
  }
  w->st[w->sp++] = (mw_item){n, single};
}

/* Start walking root above what the walk holds; returns the old base. */
static size_t mw_open(mwalk *w, const dmap *root) {
  size_t old = w->base;
  w->base = w->sp;
  if (root)
    mw_push(w, root, false);
  return old;
}

static void mw_close(mwalk *w, size_t old) {
  w->sp = w->base;
  w->base = old;
}

/* Expand the subtree on top into left subtree, node, right subtree. */
static void mw_expand(mwalk *w) {
  const dmap *n = w->st[--w->sp].n;
  if (n->r)
    mw_push(w, n->r, false);
  mw_push(w, n, true);
  if (n->l)
    mw_push(w, n->l, false);
}

/* Make the top a single node. */
static const dmap *mw_peek(mwalk *w) {
  while (!w->err && mw_any(w) && !mw_top(w)->single)
    mw_expand(w);
  return !w->err && mw_any(w) ? mw_top(w)->n : NULL;
}

/* Advance both walks to the next pair of single nodes that may differ:
 * identical subtrees on top of both stacks are dropped unseen. Sets x and y
 * to the next node of each walk (NULL when exhausted). */
static void mw_sync(mwalk *a, mwalk *b, const dmap **x, const dmap **y) {
  while (!a->err && !b->err) {
    if (mw_any(a) && mw_any(b) && mw_top(a)->n == mw_top(b)->n &&
        mw_top(a)->single == mw_top(b)->single) {
      a->sp--;
      b->sp--;
      continue;
    }
    if (mw_any(a) && mw_any(b) && !mw_top(a)->single && !mw_top(b)->single) {
      /* expand the taller one so shared subtrees can line up */
      uint32_t ha = mw_top(a)->n->height, hb = mw_top(b)->n->height;
      if (ha >= hb)
        mw_expand(a);
      if (hb >= ha)
        mw_expand(b);
      continue;
    }
    if (mw_any(a) && !mw_top(a)->single) {
      mw_expand(a);
      continue;
    }
    if (mw_any(b) && !mw_top(b)->single) {
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

/* One open directory of the diff. ALL reports every entry below a
 * directory that was added or removed as a whole; SAME walks a directory
 * shared by both trees for entries whose link-table inode changed; PAIR
 * merges the entries of two versions of a directory. */
enum { FR_ALL, FR_SAME, FR_PAIR };

typedef struct dframe {
  int kind;
  int report;          /* FR_ALL: VFS_ADDED or VFS_REMOVED */
  const dmap *links;   /* FR_ALL: the link table of that tree */
  size_t plen;         /* length of the directory's path */
  size_t abase, bbase; /* the walks' bases to restore on close */
} dframe;

typedef struct dctx {
  const dmap *la, *lb; /* link tables */
  uint64_t *changed;   /* inode numbers whose link-table node differs */
  size_t nchanged;
  vfs_diff_fn fn;
  void *ud;
  buf path;
  int stop;
  mwalk wa, wb; /* used by every open directory, each above its base */
  dframe *fr;
  size_t nfr, capfr;
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
  mwalk a = {.m = m}, b = {.m = m};
  size_t cap = 0;
  int rc = 0;
  mw_open(&a, c->la);
  mw_open(&b, c->lb);
  for (;;) {
    const dmap *x, *y;
    mw_sync(&a, &b, &x, &y);
    if (a.err || b.err) {
      rc = -ENOMEM;
      break;
    }
    if (!x && !y)
      break;
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
      if (!p) {
        rc = -ENOMEM;
        break;
      }
      c->changed = p;
      cap = nc;
    }
    c->changed[c->nchanged++] = key_ino(use);
  }
  mem_free(m, a.st);
  mem_free(m, b.st);
  return rc;
}

static int emit(dctx *c, int kind, unsigned what) {
  if (c->stop)
    return c->stop;
  if (c->fn(c->ud, kind, buf_cstr(&c->path), what))
    c->stop = -ECANCELED;
  return c->stop;
}

/* The path of an entry of the innermost open directory. */
static int set_name(dctx *c, const dmap *d) {
  size_t plen = c->fr[c->nfr - 1].plen;
  c->path.len = plen;
  if ((plen != 1 && buf_putc(&c->path, '/')) ||
      buf_append(&c->path, d->key, d->klen))
    return -ENOMEM;
  return 0;
}

/* Open a directory: its entries are reported next, before the entries
 * after it in the directory that holds it. */
static int open_frame(dctx *c, int kind, const dmap *amap, const dmap *bmap,
                      int report, const dmap *links) {
  if (c->nfr == c->capfr) {
    size_t nc = c->capfr ? c->capfr * 2 : 16;
    dframe *p = mem_realloc(c->wa.m, c->fr, nc * sizeof *p);
    if (!p)
      return -ENOMEM;
    c->fr = p;
    c->capfr = nc;
  }
  dframe *f = &c->fr[c->nfr++];
  f->kind = kind;
  f->report = report;
  f->links = links;
  f->plen = c->path.len;
  f->abase = mw_open(&c->wa, amap);
  f->bbase = mw_open(&c->wb, kind == FR_PAIR ? bmap : NULL);
  return c->wa.err ? c->wa.err : c->wb.err;
}

static void close_frame(dctx *c) {
  dframe *f = &c->fr[--c->nfr];
  mw_close(&c->wa, f->abase);
  mw_close(&c->wb, f->bbase);
}

/* Report an entry as added or removed; a directory's entries follow. */
static int report_all(dctx *c, const dmap *links, vnode *e, int kind) {
  int rc = emit(c, kind, 0);
  vnode *n = vfs_deref(links, e);
  if (rc || !n || n->type != VFS_DIR)
    return rc;
  if (atomic_load(&n->lazy) == VN_LAZY_DIR)
    vfs_host_load_dir(n);
  return open_frame(c, FR_ALL, n->u.dir.map, NULL, kind, links);
}

static bool same_content(vnode *a, vnode *b) {
  if (a->u.data == b->u.data && atomic_load(&a->lazy) == VN_LAZY_NONE &&
      atomic_load(&b->lazy) == VN_LAZY_NONE)
    return true;
  if (atomic_load(&a->lazy) == VN_LAZY_FILE &&
      atomic_load(&b->lazy) == VN_LAZY_FILE && a->mnt == b->mnt && a->hpath &&
      b->hpath && !strcmp(a->hpath, b->hpath))
    return true;
  /* a host file that cannot be read whole counts as changed */
  if (atomic_load(&a->lazy) == VN_LAZY_FILE && vfs_host_load_file(a) < 0)
    return false;
  if (atomic_load(&b->lazy) == VN_LAZY_FILE && vfs_host_load_file(b) < 0)
    return false;
  size_t la = a->u.data ? a->u.data->len : 0;
  size_t lb = b->u.data ? b->u.data->len : 0;
  return la == lb && (!la || !memcmp(a->u.data->data, b->u.data->data, la));
}

/* Directory pairs. When a == b, only entries whose link-table inode changed
 * can differ, and only when some did. */
static int open_dir(dctx *c, vnode *a, vnode *b) {
  if (a == b && !c->nchanged)
    return 0;
  if (atomic_load(&a->lazy) == VN_LAZY_DIR)
    vfs_host_load_dir(a);
  if (atomic_load(&b->lazy) == VN_LAZY_DIR)
    vfs_host_load_dir(b);
  if (a == b)
    return open_frame(c, FR_SAME, a->u.dir.map, NULL, 0, NULL);
  return open_frame(c, FR_PAIR, a->u.dir.map, b->u.dir.map, 0, NULL);
}

static int diff_entry(dctx *c, vnode *ea, vnode *eb) {
  vnode *na = vfs_deref(c->la, ea), *nb = vfs_deref(c->lb, eb);
  if (ea == eb && (ea->type != VN_STUB || na == nb)) {
    /* same entry: only links below (or behind a stub) can differ */
    if (ea->type == VFS_DIR && c->nchanged)
      return open_dir(c, ea, eb);
    return 0;
  }
  if (!na || !nb) /* a dangling stub: treat as a type change */
    return emit(c, VFS_MODIFIED, VFS_CHANGED_TYPE);
  if (na == nb)
    return 0;
  if (na->type != nb->type) {
    int rc = emit(c, VFS_MODIFIED, VFS_CHANGED_TYPE);
    if (rc)
      return rc;
    if (na->type == VFS_DIR) /* everything below the old directory is gone */
      return open_frame(c, FR_ALL, na->u.dir.map, NULL, VFS_REMOVED, c->la);
    if (nb->type == VFS_DIR) {
      if (atomic_load(&nb->lazy) == VN_LAZY_DIR)
        vfs_host_load_dir(nb);
      return open_frame(c, FR_ALL, nb->u.dir.map, NULL, VFS_ADDED, c->lb);
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
    rc = open_dir(c, na, nb);
  return rc;
}

/* One step of the innermost open directory: its next entry (or pair of
 * entries), or closing it when it has no more. */
static int diff_step(dctx *c) {
  dframe *f = &c->fr[c->nfr - 1];
  const dmap *x, *y = NULL;
  if (f->kind != FR_PAIR) {
    x = mw_peek(&c->wa);
    if (c->wa.err)
      return c->wa.err;
    if (!x) {
      close_frame(c);
      return 0;
    }
    c->wa.sp--;
    vnode *e = x->val;
    if (f->kind == FR_SAME && e->type != VFS_DIR &&
        !(e->type == VN_STUB && ino_changed(c, e->u.link_ino)))
      return 0;
    int rc = set_name(c, x);
    if (rc)
      return rc;
    if (f->kind == FR_ALL)
      return report_all(c, f->links, e, f->report);
    return e->type == VFS_DIR ? open_dir(c, e, e) : diff_entry(c, e, e);
  }
  if (c->nchanged) {
    /* shared map subtrees may hide stubs of changed links: no skipping */
    x = mw_peek(&c->wa);
    y = mw_peek(&c->wb);
  } else {
    mw_sync(&c->wa, &c->wb, &x, &y);
  }
  if (c->wa.err || c->wb.err)
    return -ENOMEM;
  if (!x && !y) {
    close_frame(c);
    return 0;
  }
  int k = !x ? 1 : !y ? -1 : dmap_keycmp(x->key, x->klen, y->key, y->klen);
  if (k <= 0)
    c->wa.sp--;
  if (k >= 0)
    c->wb.sp--;
  int rc = set_name(c, k <= 0 ? x : y);
  if (rc)
    return rc;
  if (k < 0)
    return report_all(c, c->la, x->val, VFS_REMOVED);
  if (k > 0)
    return report_all(c, c->lb, y->val, VFS_ADDED);
  return diff_entry(c, x->val, y->val);
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
  dctx c = {.la = a->links,
            .lb = b->links,
            .fn = fn,
            .ud = ud,
            .wa = {.m = m},
            .wb = {.m = m}};
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
      rc = open_dir(&c, ra, rb);
    while (!rc && c.nfr)
      rc = diff_step(&c);
  }
  buf_free(&c.path);
  mem_free(m, c.changed);
  mem_free(m, c.wa.st);
  mem_free(m, c.wb.st);
  mem_free(m, c.fr);
  vfs_snap_free(live);
  return rc;
}
