/*
 * path.c - path resolution inside the virtual namespace.
 *
 * Resolution is read-only: it yields the canonical path of the parent
 * directory (no symlinks, no . or ..), the last name and what it names.
 * Mutations then walk that canonical path again with vfs_mut_dir, which
 * makes every node on it exclusive; since a canonical path crosses no
 * symlink, the second walk cannot go anywhere the first did not check.
 */
#include <errno.h>
#include <string.h>

#include "vfs/internal.h"

#define MAXDEPTH 2050
#define CANON_MAX 8192
#define WORK_MAX (2 * VFS_PATH_MAX + 4)

/* The walk's state: the directories on the way (for ".."), the canonical
 * path so far and the text still to walk (two buffers, for splicing in
 * symlink targets). Most paths are short and shallow, so a walk starts in
 * a small context on the C stack and is redone in a full one (on the
 * heap: ~57 KB) only when it outgrows it. */
typedef struct rctx {
  vnode **stack;
  size_t *off; /* canon length before each pushed name */
  int maxdepth;
  int depth;
  size_t clen, canon_max, work_max;
  char *canon;
  char *work[2];
} rctx;

#define SMALL_DEPTH 64
#define SMALL_CANON 1024
#define SMALL_WORK 1024
typedef struct rsmall {
  vnode *stack[SMALL_DEPTH];
  size_t off[SMALL_DEPTH];
  char canon[SMALL_CANON];
  char work[2][SMALL_WORK];
} rsmall;

typedef struct rbig {
  vnode *stack[MAXDEPTH];
  size_t off[MAXDEPTH];
  char canon[CANON_MAX];
  char work[2][WORK_MAX];
} rbig;

/* Returned by a walk in the small context that needs the full one. */
#define OUTGROWN 1

bool vfs_perm(const vfs *v, const vnode *n, int want) {
  if (v->priv)
    return true;
  if (v->uid == 0) {
    if ((want & 1) && n->type != VFS_DIR)
      return (n->mode & 0111) != 0;
    return true;
  }
  unsigned bits = n->mode;
  if (n->uid == v->uid)
    bits >>= 6;
  else if (n->gid == v->gid)
    bits >>= 3;
  return ((int)bits & want) == want;
}

static void reset_root(vfs *v, rctx *c) {
  c->depth = 1;
  c->stack[0] = v->root;
  c->off[0] = 0;
  c->canon[0] = '/';
  c->clen = 1;
}

/* Replace the unprocessed text with target + sep + rest. */
static int rsplice(rctx *c, int *cur, const char *target, size_t tlen,
                   const char *rest, bool sep) {
  size_t rlen = strlen(rest);
  if (tlen + 1 + rlen + 1 > c->work_max)
    return c->work_max < WORK_MAX ? OUTGROWN : -ENAMETOOLONG;
  char *dst = c->work[!*cur];
  memcpy(dst, target, tlen);
  size_t k = tlen;
  if (sep)
    dst[k++] = '/';
  memcpy(dst + k, rest, rlen + 1);
  *cur = !*cur;
  return 0;
}

/* Walk path in c; OUTGROWN when c is too small for it. */
static int walk(vfs *v, const char *cwd, const char *path, size_t plen,
                int flags, vres *r, rctx *c) {
  int cur = 0, rc = 0, hops = 0;
  if (path[0] != '/' && cwd && cwd[0] == '/') {
    size_t cl = strlen(cwd);
    if (cl > VFS_PATH_MAX)
      return -ENAMETOOLONG;
    if (cl + 1 + plen + 1 > c->work_max)
      return OUTGROWN;
    memcpy(c->work[0], cwd, cl);
    c->work[0][cl] = '/';
    memcpy(c->work[0] + cl + 1, path, plen + 1);
  } else {
    if (plen + 1 > c->work_max)
      return OUTGROWN;
    memcpy(c->work[0], path, plen + 1);
  }
  reset_root(v, c);
  const char *p = c->work[cur];
  vnode *dir = NULL, *entry = NULL, *node = NULL;
  const char *name = NULL;
  size_t nlen = 0;
  bool dot = true, trailing = false;
  for (;;) {
    while (*p == '/')
      p++;
    if (!*p)
      break;
    const char *s = p;
    while (*p && *p != '/')
      p++;
    size_t len = (size_t)(p - s);
    const char *q = p;
    while (*q == '/')
      q++;
    bool last = !*q;
    bool slash = last && p != q;
    if (len > VFS_NAME_MAX) {
      rc = -ENAMETOOLONG;
      goto out;
    }
    vnode *d = c->stack[c->depth - 1];
    if (!(flags & R_NOPERM) && !vfs_perm(v, d, 1)) {
      rc = -EACCES;
      goto out;
    }
    if (len == 1 && s[0] == '.') {
      dot = true;
      trailing = slash;
      continue;
    }
    if (len == 2 && s[0] == '.' && s[1] == '.') {
      if (c->depth > 1) {
        c->depth--;
        c->clen = c->off[c->depth];
        if (c->clen == 0)
          c->clen = 1;
      }
      dot = true;
      trailing = slash;
      continue;
    }
    if (atomic_load_explicit(&d->lazy, memory_order_acquire) == VN_LAZY_DIR) {
      rc = vfs_host_load_dir(d);
      if (rc == -ENOMEM)
        goto out;
      rc = 0;
    }
    vnode *e = dmap_get(d->u.dir.map, s, len);
    vnode *n = vfs_deref(v->links, e);
    if (n && n->type == VFS_LNK && (!last || slash || (flags & R_FOLLOW))) {
      if (++hops > VFS_SYMLOOP_MAX) {
        rc = -ELOOP;
        goto out;
      }
      const char *t = n->u.lnk.target;
      size_t tl = n->u.lnk.len;
      if (tl == 0) {
        rc = -ENOENT;
        goto out;
      }
      if (t[0] == '/')
        reset_root(v, c);
      rc = rsplice(c, &cur, t, tl, last ? (slash ? "/" : "") : q, !last);
      if (rc)
        goto out;
      p = c->work[cur];
      continue;
    }
    if (last) {
      dir = d;
      entry = e;
      node = n;
      name = s;
      nlen = len;
      dot = false;
      trailing = slash;
      break;
    }
    if (!n) {
      rc = -ENOENT;
      goto out;
    }
    if (n->type != VFS_DIR) {
      rc = -ENOTDIR;
      goto out;
    }
    if (c->depth >= c->maxdepth || c->clen + 1 + len + 1 > c->canon_max) {
      rc = c->maxdepth < MAXDEPTH ? OUTGROWN : -ENAMETOOLONG;
      goto out;
    }
    c->off[c->depth] = c->clen == 1 ? 0 : c->clen;
    c->stack[c->depth++] = n;
    if (c->clen > 1)
      c->canon[c->clen++] = '/';
    memcpy(c->canon + c->clen, s, len);
    c->clen += len;
  }
  if (dot) {
    /* "/", ".", "..", "a/.": the directory on top of the stack itself */
    node = entry = c->stack[c->depth - 1];
    dir = c->depth > 1 ? c->stack[c->depth - 2] : NULL;
    name = ".";
    nlen = 1;
  } else if (!node) {
    if (!(flags & R_PARENT)) {
      rc = -ENOENT;
      goto out;
    }
  } else if (trailing && node->type != VFS_DIR) {
    rc = -ENOTDIR;
    goto out;
  }
  r->dir = dir;
  r->entry = entry;
  r->node = node;
  r->dot = dot;
  r->trailing = trailing;
  if (flags & R_NOSTORE)
    goto out;
  r->storage = mem_alloc(v->m, c->clen + nlen + 2);
  if (!r->storage) {
    rc = -ENOMEM;
    goto out;
  }
  memcpy(r->storage, c->canon, c->clen);
  r->storage[c->clen] = 0;
  memcpy(r->storage + c->clen + 1, name, nlen);
  r->storage[c->clen + 1 + nlen] = 0;
  r->canon = r->storage;
  r->clen = c->clen;
  r->name = r->storage + c->clen + 1;
  r->nlen = nlen;
out:
  return rc;
}

int vfs_resolve(vfs *v, const char *cwd, const char *path, int flags, vres *r) {
  memset(r, 0, sizeof *r);
  if (!path)
    return -EINVAL;
  size_t plen = strlen(path);
  if (plen == 0)
    return -ENOENT;
  if (plen > VFS_PATH_MAX)
    return -ENAMETOOLONG;
  rsmall sm;
  rctx c = {sm.stack,   sm.off,   SMALL_DEPTH,
            0,          0,        SMALL_CANON,
            SMALL_WORK, sm.canon, {sm.work[0], sm.work[1]}};
  int rc = walk(v, cwd, path, plen, flags, r, &c);
  if (rc != OUTGROWN)
    return rc;
  /* A walk is read-only (a host directory it listed stays listed), so
   * doing it again in the full context gives the same answer. */
  memset(r, 0, sizeof *r);
  rbig *big = mem_alloc(v->m, sizeof *big);
  if (!big)
    return -ENOMEM;
  rctx bc = {big->stack, big->off,   MAXDEPTH,
             0,          0,          CANON_MAX,
             WORK_MAX,   big->canon, {big->work[0], big->work[1]}};
  rc = walk(v, cwd, path, plen, flags, r, &bc);
  mem_free(v->m, big);
  return rc;
}

void vres_free(vfs *v, vres *r) {
  mem_free(v->m, r->storage);
  r->storage = NULL;
}

vnode *vfs_mut_dir(vfs *v, const char *canon, size_t clen, int *err) {
  *err = vnode_make_mut(v->m, &v->root);
  if (*err)
    return NULL;
  vnode *cur = v->root;
  const char *p = canon, *end = canon + clen;
  while (p < end) {
    while (p < end && *p == '/')
      p++;
    if (p >= end)
      break;
    const char *s = p;
    while (p < end && *p != '/')
      p++;
    vnode **slot = dmap_slot(v->m, &cur->u.dir.map, s, (size_t)(p - s), err);
    if (!slot)
      return NULL;
    if ((*err = vnode_make_mut(v->m, slot)))
      return NULL;
    cur = *slot;
    if (cur->type != VFS_DIR) {
      *err = -ENOTDIR;
      return NULL;
    }
  }
  return cur;
}
