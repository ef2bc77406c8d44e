/*
 * ops.c - name operations: stat, access, mkdir, rmdir, unlink, rm -r,
 * rename, link, symlink, readlink, realpath, chmod, utimes, directory
 * listing, and the entry bookkeeping they share (link counts, quotas).
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "vfs/internal.h"

/* ------------------------------------------------------------------------ */
/* Entry bookkeeping                                                        */
/* ------------------------------------------------------------------------ */

void vfs_touch_dir(vfs *v, vnode *dir) {
  dir->mtime = dir->ctime = vfs_clock(v);
}

vnode *vfs_mut_link_ino(vfs *v, uint64_t ino, int *err) {
  char k[8];
  ino_key(ino, k);
  vnode **slot = dmap_slot(v->m, &v->links, k, 8, err);
  if (!slot)
    return NULL;
  if ((*err = vnode_make_mut(v->m, slot)))
    return NULL;
  return *slot;
}

vnode *vfs_mut_file(vfs *v, vnode *dir, const char *name, size_t nlen,
                    int *err) {
  vnode *e = dmap_get(dir->u.dir.map, name, nlen);
  if (!e) {
    *err = -ENOENT;
    return NULL;
  }
  if (e->type == VN_STUB)
    return vfs_mut_link_ino(v, e->u.link_ino, err);
  vnode **slot = dmap_slot(v->m, &dir->u.dir.map, name, nlen, err);
  if (!slot)
    return NULL;
  if ((*err = vnode_make_mut(v->m, slot)))
    return NULL;
  return *slot;
}

int vfs_insert_new(vfs *v, vnode *dir, const char *name, size_t nlen,
                   vnode *n) {
  int rc = vfs_charge(v, (int64_t)vnode_bytes(n), (int64_t)vnode_inodes(n));
  if (rc) {
    vnode_unref(n);
    return rc;
  }
  vnode *old;
  bool isdir = n->type == VFS_DIR;
  uint64_t b = vnode_bytes(n), i = vnode_inodes(n);
  rc = dmap_put(v->m, &dir->u.dir.map, name, nlen, n, &old);
  if (rc) {
    vfs_charge(v, -(int64_t)b, -(int64_t)i);
    vnode_unref(n);
    return rc;
  }
  if (old) /* callers check for absence first; keep counts right anyway */
    vfs_uncharge_tree(v, old);
  else
    dir->u.dir.count++;
  if (isdir)
    dir->nlink++;
  vfs_touch_dir(v, dir);
  return 0;
}

static bool pinned(const vfs *v, uint64_t ino) {
  for (size_t i = 0; i < v->npins; i++)
    if (v->pins[i].ino == ino)
      return true;
  return false;
}

/* One name of a link-table inode goes away. */
static void drop_link(vfs *v, uint64_t ino) {
  int err;
  vnode *n = vfs_mut_link_ino(v, ino, &err);
  if (!n)
    return;
  if (n->nlink)
    n->nlink--;
  n->ctime = vfs_clock(v);
  if (n->nlink == 0 && !pinned(v, ino)) {
    char k[8];
    ino_key(ino, k);
    vnode *old;
    if (!dmap_del(v->m, &v->links, k, 8, &old) && old) {
      vfs_charge(v, -(int64_t)vnode_bytes(old), -(int64_t)vnode_inodes(old));
      vnode_unref(old);
    }
  }
}

static void uncharge_one(vfs *v, const vnode *e) {
  if (e->type == VN_STUB)
    drop_link(v, e->u.link_ino);
  else
    vfs_charge(v, -(int64_t)vnode_bytes(e), -(int64_t)vnode_inodes(e));
}

/* Consumes one reference of entry, which left the live tree. */
void vfs_uncharge_tree(vfs *v, vnode *e) {
  uncharge_one(v, e);
  if (e->type == VFS_DIR) {
    vwalk w;
    vwalk_init(&w, v->m, NULL);
    const dmap *d;
    int rc = vwalk_enter(&w, e);
    while (!rc && (rc = vwalk_next(&w, &d)) == 1) {
      rc = 0;
      uncharge_one(v, d->val);
      if (d->val->type == VFS_DIR)
        rc = vwalk_enter(&w, d->val);
    }
    /* Out of memory (past the allocator's reserve, so hardly ever): what
     * was not reached stays counted, which errs towards the limit. */
    vwalk_free(&w);
  }
  vnode_unref(e);
}

int vfs_drop_entry(vfs *v, vnode *dir, const char *name, size_t nlen) {
  vnode *old;
  int rc = dmap_del(v->m, &dir->u.dir.map, name, nlen, &old);
  if (rc)
    return rc;
  if (!old)
    return -ENOENT;
  dir->u.dir.count--;
  if (old->type == VFS_DIR)
    dir->nlink--;
  vfs_touch_dir(v, dir);
  vfs_uncharge_tree(v, old);
  return 0;
}

/* Move a plain entry's inode into the link table, leaving a stub. */
static int to_link_table(vfs *v, vnode *dir, const char *name, size_t nlen,
                         uint64_t *ino) {
  int err;
  vnode **slot = dmap_slot(v->m, &dir->u.dir.map, name, nlen, &err);
  if (!slot)
    return err;
  vnode *n = *slot;
  if (n->type == VN_STUB) {
    *ino = n->u.link_ino;
    return 0;
  }
  if (atomic_load(&n->lazy) == VN_LAZY_FILE)
    vfs_host_load_file(n);
  vnode *stub = mem_calloc(v->m, 1, sizeof *stub);
  if (!stub)
    return -ENOMEM;
  atomic_init(&stub->rc, 1);
  atomic_init(&stub->lazy, VN_LAZY_NONE);
  stub->m = mem_ref(v->m);
  stub->type = VN_STUB;
  stub->ino = stub->u.link_ino = n->ino;
  char k[8];
  ino_key(n->ino, k);
  vnode *old;
  int rc = dmap_put(v->m, &v->links, k, 8, vnode_ref(n), &old);
  if (rc) {
    vnode_unref(n);
    vnode_unref(stub);
    return rc;
  }
  vnode_unref(old); /* a stale orphan with the same number; none expected */
  *slot = stub;
  *ino = n->ino;
  vnode_unref(n);
  return 0;
}

int vfs_pin(vfs *v, vnode *dir, const char *name, size_t nlen, uint64_t *ino) {
  if (v->npins == v->cappins) {
    size_t nc = v->cappins ? v->cappins * 2 : 8;
    struct pin *p = mem_realloc(v->m, v->pins, nc * sizeof *p);
    if (!p)
      return -ENOMEM;
    v->pins = p;
    v->cappins = nc;
  }
  int rc = to_link_table(v, dir, name, nlen, ino);
  if (rc)
    return rc;
  for (size_t i = 0; i < v->npins; i++)
    if (v->pins[i].ino == *ino) {
      v->pins[i].count++;
      return 0;
    }
  v->pins[v->npins].ino = *ino;
  v->pins[v->npins++].count = 1;
  return 0;
}

void vfs_unpin(vfs *v, uint64_t ino) {
  for (size_t i = 0; i < v->npins; i++) {
    if (v->pins[i].ino != ino)
      continue;
    if (--v->pins[i].count > 0)
      return;
    v->pins[i] = v->pins[--v->npins];
    char k[8];
    ino_key(ino, k);
    vnode *n = dmap_get(v->links, k, 8);
    if (n && n->nlink == 0) {
      vnode *old;
      if (!dmap_del(v->m, &v->links, k, 8, &old) && old) {
        vfs_charge(v, -(int64_t)vnode_bytes(old), -(int64_t)vnode_inodes(old));
        vnode_unref(old);
      }
    }
    return;
  }
}

/* Move a single-name link-table inode back into its directory entry, so
 * files that were only opened do not stay in the link table. */
int vfs_unlink_table(vfs *v, const char *dcanon, const char *name,
                     uint64_t ino) {
  char k[8];
  ino_key(ino, k);
  vnode *n = dmap_get(v->links, k, 8);
  if (!n || n->nlink != 1 || pinned(v, ino))
    return 0;
  /* only when the name still holds the stub (no renames meanwhile) */
  vres r;
  v->priv++;
  int rc = vfs_resolve(v, dcanon, name, R_PARENT, &r);
  v->priv--;
  if (rc)
    return rc;
  if (!r.entry || r.entry->type != VN_STUB || r.entry->u.link_ino != ino) {
    vres_free(v, &r);
    return 0;
  }
  vnode *dir = vfs_mut_dir(v, r.canon, r.clen, &rc);
  vnode **slot =
      dir ? dmap_slot(v->m, &dir->u.dir.map, r.name, r.nlen, &rc) : NULL;
  if (slot) {
    vnode *old;
    rc = dmap_del(v->m, &v->links, k, 8, &old);
    if (!rc && old) {
      vnode_unref(*slot);
      *slot = old;
    }
  }
  vres_free(v, &r);
  return rc;
}

/* The exclusive node a resolution names (the dir itself for "."). */
static vnode *mut_target(vfs *v, vres *r, int *err) {
  if (r->dot)
    return vfs_mut_dir(v, r->canon, r->clen, err);
  vnode *dir = vfs_mut_dir(v, r->canon, r->clen, err);
  if (!dir)
    return NULL;
  return vfs_mut_file(v, dir, r->name, r->nlen, err);
}

/* Sticky directories: only the owner of the entry or the directory (or
 * root) may remove or rename it. */
static bool sticky_ok(const vfs *v, const vnode *dir, const vnode *n) {
  if (v->priv || v->uid == 0 || !(dir->mode & S_ISVTX))
    return true;
  return n->uid == v->uid || dir->uid == v->uid;
}

static char *full_path(vfs *v, const vres *r) {
  if (r->dot)
    return mem_strndup(v->m, r->canon, r->clen);
  size_t n = r->clen + 1 + r->nlen;
  char *p = mem_alloc(v->m, n + 1);
  if (!p)
    return NULL;
  size_t k = r->clen;
  memcpy(p, r->canon, k);
  if (k > 1)
    p[k++] = '/';
  memcpy(p + k, r->name, r->nlen);
  p[k + r->nlen] = 0;
  return p;
}

/* ------------------------------------------------------------------------ */
/* Queries                                                                  */
/* ------------------------------------------------------------------------ */

static int do_stat(vfs *v, const char *cwd, const char *path, vfs_stat_t *st,
                   int flags) {
  vres r;
  int rc = vfs_resolve(v, cwd, path, flags | R_NOSTORE, &r);
  if (rc)
    return rc;
  vnode_stat(r.node, st);
  vres_free(v, &r);
  return 0;
}

int vfs_stat(vfs *v, const char *cwd, const char *path, vfs_stat_t *st) {
  return do_stat(v, cwd, path, st, R_FOLLOW);
}

int vfs_lstat(vfs *v, const char *cwd, const char *path, vfs_stat_t *st) {
  return do_stat(v, cwd, path, st, 0);
}

int vfs_access(vfs *v, const char *cwd, const char *path, int amode) {
  vres r;
  int rc = vfs_resolve(v, cwd, path, R_FOLLOW | R_NOSTORE, &r);
  if (rc)
    return rc;
  int want = 0;
  if (amode & R_OK)
    want |= 4;
  if (amode & W_OK)
    want |= 2;
  if (amode & X_OK)
    want |= 1;
  if (want && !vfs_perm(v, r.node, want))
    rc = -EACCES;
  vres_free(v, &r);
  return rc;
}

int vfs_stat_x(vfs *v, const char *cwd, const char *path, vfs_stat_t *st,
               int *xok) {
  vres r;
  int rc = vfs_resolve(v, cwd, path, R_FOLLOW | R_NOSTORE, &r);
  if (rc)
    return rc;
  vnode_stat(r.node, st);
  *xok = vfs_perm(v, r.node, 1);
  return 0;
}

int vfs_exists(vfs *v, const char *cwd, const char *path) {
  vfs_stat_t st;
  return vfs_stat(v, cwd, path, &st) == 0;
}

int vfs_realpath(vfs *v, const char *cwd, const char *path, char **out) {
  vres r;
  int rc = vfs_resolve(v, cwd, path, R_FOLLOW, &r);
  if (rc)
    return rc;
  *out = full_path(v, &r);
  vres_free(v, &r);
  return *out ? 0 : -ENOMEM;
}

int vfs_canon_dir(vfs *v, const char *cwd, const char *path, char **out) {
  vres r;
  int rc = vfs_resolve(v, cwd, path, R_FOLLOW, &r);
  if (rc)
    return rc;
  if (r.node->type != VFS_DIR)
    rc = -ENOTDIR;
  else if (!vfs_perm(v, r.node, 1))
    rc = -EACCES;
  else if (!(*out = full_path(v, &r)))
    rc = -ENOMEM;
  vres_free(v, &r);
  return rc;
}

int vfs_readlink(vfs *v, const char *cwd, const char *path, char **out,
                 size_t *len) {
  vres r;
  int rc = vfs_resolve(v, cwd, path, 0, &r);
  if (rc)
    return rc;
  if (r.node->type != VFS_LNK) {
    rc = -EINVAL;
  } else {
    *out = mem_strndup(v->m, r.node->u.lnk.target, r.node->u.lnk.len);
    if (!*out)
      rc = -ENOMEM;
    else if (len)
      *len = r.node->u.lnk.len;
  }
  vres_free(v, &r);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* Metadata changes                                                         */
/* ------------------------------------------------------------------------ */

int vfs_chmod(vfs *v, const char *cwd, const char *path, unsigned mode) {
  vres r;
  int rc = vfs_resolve(v, cwd, path, R_FOLLOW, &r);
  if (rc)
    return rc;
  if (!v->priv && v->uid != 0 && r.node->uid != v->uid) {
    vres_free(v, &r);
    return -EPERM;
  }
  vnode *n = mut_target(v, &r, &rc);
  if (n) {
    n->mode = mode & 07777;
    n->ctime = vfs_clock(v);
  }
  vres_free(v, &r);
  return rc;
}

int vfs_utimes(vfs *v, const char *cwd, const char *path, int64_t atime_ns,
               int64_t mtime_ns, unsigned flags) {
  vres r;
  int rc = vfs_resolve(v, cwd, path, (flags & VFS_NOFOLLOW) ? 0 : R_FOLLOW, &r);
  if (rc)
    return rc;
  bool owner = v->priv || v->uid == 0 || r.node->uid == v->uid;
  bool both_now = (atime_ns == VFS_UTIME_NOW || atime_ns == VFS_UTIME_OMIT) &&
                  (mtime_ns == VFS_UTIME_NOW || mtime_ns == VFS_UTIME_OMIT);
  if (!owner && !(both_now && vfs_perm(v, r.node, 2))) {
    vres_free(v, &r);
    return owner || both_now ? -EACCES : -EPERM;
  }
  vnode *n = mut_target(v, &r, &rc);
  if (n) {
    int64_t now = vfs_clock(v);
    if (atime_ns != VFS_UTIME_OMIT)
      n->atime = atime_ns == VFS_UTIME_NOW ? now : atime_ns;
    if (mtime_ns != VFS_UTIME_OMIT)
      n->mtime = mtime_ns == VFS_UTIME_NOW ? now : mtime_ns;
    n->ctime = now;
  }
  vres_free(v, &r);
  return rc;
}

/* ------------------------------------------------------------------------ */
/* Directories                                                              */
/* ------------------------------------------------------------------------ */

int vfs_mkdir(vfs *v, const char *cwd, const char *path, unsigned mode) {
  vres r;
  int rc = vfs_resolve(v, cwd, path, R_PARENT, &r);
  if (rc)
    return rc;
  if (r.dot || r.entry) {
    rc = -EEXIST;
  } else if (!vfs_perm(v, r.dir, 3)) {
    rc = -EACCES;
  } else {
    vnode *dir = vfs_mut_dir(v, r.canon, r.clen, &rc);
    if (dir) {
      vnode *n = vnode_new(v, VFS_DIR, mode & ~v->umask & 07777);
      rc = n ? vfs_insert_new(v, dir, r.name, r.nlen, n) : -ENOMEM;
    }
  }
  vres_free(v, &r);
  return rc;
}

int vfs_mkdir_p(vfs *v, const char *cwd, const char *path, unsigned mode) {
  size_t plen = path ? strlen(path) : 0;
  if (!plen)
    return -ENOENT;
  if (plen > VFS_PATH_MAX)
    return -ENAMETOOLONG;
  vfs_stat_t st;
  int rc = vfs_stat(v, cwd, path, &st);
  if (rc == 0)
    return st.type == VFS_DIR ? 0 : -EEXIST;
  if (rc != -ENOENT)
    return rc;
  /* create each missing prefix in turn, like mkdir -p */
  char *buf = mem_strdup(v->m, path);
  if (!buf)
    return -ENOMEM;
  /* parents get 0777 & ~umask plus u+wx, like GNU mkdir -p */
  unsigned pmode = (0777 & ~v->umask) | 0300;
  rc = 0;
  for (size_t i = 1; i <= plen && !rc; i++) {
    if (i < plen && (buf[i] != '/' || buf[i - 1] == '/'))
      continue;
    char save = buf[i];
    buf[i] = 0;
    bool final = i == plen;
    if (!final) {
      rc = vfs_stat(v, cwd, buf, &st);
      if (rc == 0 && st.type != VFS_DIR)
        rc = -ENOTDIR;
      else if (rc == -ENOENT) {
        unsigned om = v->umask;
        v->umask = 0;
        rc = vfs_mkdir(v, cwd, buf, pmode);
        v->umask = om;
      }
    } else {
      rc = vfs_mkdir(v, cwd, buf, mode);
      if (rc == -EEXIST && vfs_stat(v, cwd, buf, &st) == 0 &&
          st.type == VFS_DIR)
        rc = 0;
    }
    buf[i] = save;
  }
  mem_free(v->m, buf);
  return rc;
}

int vfs_rmdir(vfs *v, const char *cwd, const char *path) {
  vres r;
  int rc = vfs_resolve(v, cwd, path, 0, &r);
  if (rc)
    return rc;
  if (r.dot) {
    rc = r.dir ? -EINVAL : -EBUSY;
  } else if (r.node->type != VFS_DIR) {
    rc = -ENOTDIR;
  } else {
    if (atomic_load(&r.node->lazy) == VN_LAZY_DIR)
      vfs_host_load_dir(r.node);
    if (r.node->u.dir.count)
      rc = -ENOTEMPTY;
    else if (!vfs_perm(v, r.dir, 3) || !sticky_ok(v, r.dir, r.node))
      rc = -EACCES;
    else {
      vnode *dir = vfs_mut_dir(v, r.canon, r.clen, &rc);
      if (dir)
        rc = vfs_drop_entry(v, dir, r.name, r.nlen);
    }
  }
  vres_free(v, &r);
  return rc;
}

int vfs_unlink(vfs *v, const char *cwd, const char *path) {
  vres r;
  int rc = vfs_resolve(v, cwd, path, 0, &r);
  if (rc)
    return rc;
  if (r.dot || r.node->type == VFS_DIR) {
    rc = -EISDIR;
  } else if (!vfs_perm(v, r.dir, 3) || !sticky_ok(v, r.dir, r.node)) {
    rc = -EACCES;
  } else {
    vnode *dir = vfs_mut_dir(v, r.canon, r.clen, &rc);
    if (dir)
      rc = vfs_drop_entry(v, dir, r.name, r.nlen);
  }
  vres_free(v, &r);
  return rc;
}

/* Empty the exclusive directory top, depth first, with its stack of open
 * directories on the heap (trees may be deeper than any C stack). */
static int rm_contents(vfs *v, vnode *top) {
  struct rmfr {
    vnode *dir;
    char *name; /* its name in the directory below it on the stack */
    size_t nlen;
  } *st = NULL;
  size_t n = 0, cap = 0;
  int rc = 0;
  vnode *push_dir = top;
  char *push_name = NULL;
  size_t push_len = 0;
  for (;;) {
    if (push_dir) {
      if (n == cap) {
        size_t nc = cap ? cap * 2 : 16;
        struct rmfr *p = mem_realloc(v->m, st, nc * sizeof *p);
        if (!p) {
          mem_free(v->m, push_name);
          rc = -ENOMEM;
          break;
        }
        st = p;
        cap = nc;
      }
      st[n++] = (struct rmfr){push_dir, push_name, push_len};
      push_dir = NULL;
      push_name = NULL;
    }
    if (!n)
      break;
    vnode *dir = st[n - 1].dir;
    if (atomic_load(&dir->lazy) == VN_LAZY_DIR)
      vfs_host_load_dir(dir);
    if (!dir->u.dir.count) {
      /* emptied: its own entry goes, in the directory below it */
      n--;
      if (n)
        rc = vfs_drop_entry(v, st[n - 1].dir, st[n].name, st[n].nlen);
      mem_free(v->m, st[n].name);
      if (rc)
        break;
      continue;
    }
    if (!vfs_perm(v, dir, 7)) {
      rc = -EACCES;
      break;
    }
    const dmap *d = dir->u.dir.map; /* the root entry: any order works */
    size_t klen = d->klen;
    /* a heap copy: the map node may go away */
    char *name = mem_strndup(v->m, d->key, klen);
    if (!name) {
      rc = -ENOMEM;
      break;
    }
    vnode *e = d->val;
    vnode *nd = vfs_deref(v->links, e);
    if (nd && !sticky_ok(v, dir, nd))
      rc = -EACCES;
    if (!rc && e->type == VFS_DIR) {
      vnode **slot = dmap_slot(v->m, &dir->u.dir.map, name, klen, &rc);
      if (slot && !(rc = vnode_make_mut(v->m, slot))) {
        push_dir = *slot;
        push_name = name;
        push_len = klen;
        continue;
      }
    }
    if (!rc)
      rc = vfs_drop_entry(v, dir, name, klen);
    mem_free(v->m, name);
    if (rc)
      break;
  }
  while (n)
    mem_free(v->m, st[--n].name);
  mem_free(v->m, st);
  return rc;
}

int vfs_rm_rf(vfs *v, const char *cwd, const char *path) {
  vres r;
  int rc = vfs_resolve(v, cwd, path, 0, &r);
  if (rc)
    return rc;
  if (r.dot) {
    rc = r.dir ? -EINVAL : -EBUSY;
  } else if (!vfs_perm(v, r.dir, 3) || !sticky_ok(v, r.dir, r.node)) {
    rc = -EACCES;
  } else {
    vnode *dir = vfs_mut_dir(v, r.canon, r.clen, &rc);
    if (dir && r.node->type == VFS_DIR) {
      vnode **slot = dmap_slot(v->m, &dir->u.dir.map, r.name, r.nlen, &rc);
      if (slot && !(rc = vnode_make_mut(v->m, slot)))
        rc = rm_contents(v, *slot);
    }
    if (dir && !rc)
      rc = vfs_drop_entry(v, dir, r.name, r.nlen);
  }
  vres_free(v, &r);
  return rc;
}

int vfs_readdir(vfs *v, const char *cwd, const char *path, char ***names,
                size_t *n) {
  vfs_dir *d;
  *names = NULL;
  *n = 0;
  int rc = vfs_opendir(v, cwd, path, &d);
  if (rc)
    return rc;
  size_t cap = 0;
  vfs_dirent e;
  while ((rc = vfs_dir_next(d, &e)) == 1) {
    if (*n == cap) {
      size_t nc = cap ? cap * 2 : 16;
      char **p = mem_realloc(v->m, *names, nc * sizeof *p);
      if (!p) {
        rc = -ENOMEM;
        break;
      }
      *names = p;
      cap = nc;
    }
    if (!((*names)[*n] = mem_strndup(v->m, e.name, e.name_len))) {
      rc = -ENOMEM;
      break;
    }
    (*n)++;
  }
  vfs_closedir(d);
  if (rc < 0) {
    vfs_free_names(v, *names, *n);
    *names = NULL;
    *n = 0;
    return rc;
  }
  return 0;
}

void vfs_free_names(vfs *v, char **names, size_t n) {
  for (size_t i = 0; i < n; i++)
    mem_free(v->m, names[i]);
  mem_free(v->m, names);
}

struct vfs_dir {
  vfs *v;
  vnode *dir; /* a reference: the listing is stable */
  dmap_iter it;
};

int vfs_opendir(vfs *v, const char *cwd, const char *path, vfs_dir **out) {
  vres r;
  int rc = vfs_resolve(v, cwd, path, R_FOLLOW, &r);
  if (rc)
    return rc;
  vnode *n = r.node;
  vres_free(v, &r);
  if (n->type != VFS_DIR)
    return -ENOTDIR;
  if (!vfs_perm(v, n, 4))
    return -EACCES;
  if (atomic_load(&n->lazy) == VN_LAZY_DIR && vfs_host_load_dir(n) == -ENOMEM)
    return -ENOMEM;
  vfs_dir *d = mem_alloc(v->m, sizeof *d);
  if (!d)
    return -ENOMEM;
  d->v = v;
  d->dir = vnode_ref(n);
  dmap_iter_init(&d->it, n->u.dir.map);
  *out = d;
  return 0;
}

int vfs_dir_next(vfs_dir *d, vfs_dirent *e) {
  const dmap *m = dmap_iter_next(&d->it);
  if (!m)
    return 0;
  e->name = m->key;
  e->name_len = m->klen;
  vnode *n = vfs_deref(d->v->links, m->val);
  e->type = n ? n->type : VFS_REG;
  e->ino = m->val->ino;
  return 1;
}

void vfs_closedir(vfs_dir *d) {
  if (!d)
    return;
  vnode_unref(d->dir);
  mem_free(d->v->m, d);
}

/* ------------------------------------------------------------------------ */
/* Rename and links                                                         */
/* ------------------------------------------------------------------------ */

int vfs_rename(vfs *v, const char *cwd, const char *from, const char *to) {
  vres a, b;
  int rc = vfs_resolve(v, cwd, from, 0, &a);
  if (rc)
    return rc;
  rc = vfs_resolve(v, cwd, to, R_PARENT, &b);
  if (rc) {
    vres_free(v, &a);
    return rc;
  }
  vnode *src = a.node, *dst = b.node;
  bool sdir = src->type == VFS_DIR;
  char *spath = NULL;
  if (a.dot || b.dot) {
    rc = a.dot && a.dir ? -EINVAL : -EBUSY;
    goto out;
  }
  if (dst && (dst == src || dst->ino == src->ino))
    goto out; /* same inode: nothing to do */
  if (b.trailing && !sdir) {
    rc = -ENOTDIR;
    goto out;
  }
  if (dst) {
    if (sdir && dst->type != VFS_DIR) {
      rc = -ENOTDIR;
      goto out;
    }
    if (!sdir && dst->type == VFS_DIR) {
      rc = -EISDIR;
      goto out;
    }
    if (dst->type == VFS_DIR) {
      if (atomic_load(&dst->lazy) == VN_LAZY_DIR)
        vfs_host_load_dir(dst);
      if (dst->u.dir.count) {
        rc = -ENOTEMPTY;
        goto out;
      }
    }
  }
  if (sdir) {
    /* the target's parent must not be the source or inside it */
    if (!(spath = full_path(v, &a))) {
      rc = -ENOMEM;
      goto out;
    }
    size_t sl = strlen(spath);
    if (b.clen >= sl && !memcmp(b.canon, spath, sl) &&
        (b.clen == sl || b.canon[sl] == '/' || sl == 1)) {
      rc = -EINVAL;
      goto out;
    }
  }
  if (!vfs_perm(v, a.dir, 3) || !vfs_perm(v, b.dir, 3) ||
      !sticky_ok(v, a.dir, src) || (dst && !sticky_ok(v, b.dir, dst)) ||
      (sdir && a.dir != b.dir && !vfs_perm(v, src, 2))) {
    rc = -EACCES;
    goto out;
  }
  vnode *pd = vfs_mut_dir(v, b.canon, b.clen, &rc);
  vnode *ps = pd ? vfs_mut_dir(v, a.canon, a.clen, &rc) : NULL;
  if (!ps)
    goto out;
  vnode *e = dmap_get(ps->u.dir.map, a.name, a.nlen);
  vnode *old = NULL;
  rc = dmap_put(v->m, &pd->u.dir.map, b.name, b.nlen, vnode_ref(e), &old);
  if (rc) {
    vnode_unref(e);
    goto out;
  }
  vnode *gone;
  rc = dmap_del(v->m, &ps->u.dir.map, a.name, a.nlen, &gone);
  if (rc) {
    /* undo: put the old target back (or drop the new name) */
    vnode *x = NULL;
    if (old)
      dmap_put(v->m, &pd->u.dir.map, b.name, b.nlen, old, &x);
    else
      dmap_del(v->m, &pd->u.dir.map, b.name, b.nlen, &x);
    vnode_unref(x);
    goto out;
  }
  vnode_unref(gone);
  ps->u.dir.count--;
  if (!old)
    pd->u.dir.count++;
  if (sdir) {
    ps->nlink--;
    pd->nlink++;
  }
  if (old) {
    if (old->type == VFS_DIR)
      pd->nlink--;
    vfs_uncharge_tree(v, old);
  }
  vfs_touch_dir(v, ps);
  vfs_touch_dir(v, pd);
out:
  mem_free(v->m, spath);
  vres_free(v, &a);
  vres_free(v, &b);
  return rc;
}

int vfs_link(vfs *v, const char *cwd, const char *target, const char *newpath) {
  vres a, b;
  int rc = vfs_resolve(v, cwd, target, 0, &a);
  if (rc)
    return rc;
  rc = vfs_resolve(v, cwd, newpath, R_PARENT, &b);
  if (rc) {
    vres_free(v, &a);
    return rc;
  }
  if (a.dot || a.node->type == VFS_DIR) {
    rc = -EPERM;
  } else if (b.dot || b.entry) {
    rc = -EEXIST;
  } else if (b.trailing) {
    rc = -ENOENT;
  } else if (!vfs_perm(v, b.dir, 3)) {
    rc = -EACCES;
  } else {
    uint64_t ino = 0;
    vnode *ad = vfs_mut_dir(v, a.canon, a.clen, &rc);
    if (ad)
      rc = to_link_table(v, ad, a.name, a.nlen, &ino);
    vnode *bd = rc ? NULL : vfs_mut_dir(v, b.canon, b.clen, &rc);
    if (bd) {
      /* the stub just made (or found) under the target's name is immutable
       * and can be shared by both entries */
      vnode *ad2 = vfs_mut_dir(v, a.canon, a.clen, &rc);
      vnode *stub = ad2 ? dmap_get(ad2->u.dir.map, a.name, a.nlen) : NULL;
      vnode *n = stub ? vfs_mut_link_ino(v, ino, &rc) : NULL;
      vnode *old = NULL;
      if (n && !(rc = dmap_put(v->m, &bd->u.dir.map, b.name, b.nlen,
                               vnode_ref(stub), &old))) {
        vnode_unref(old);
        bd->u.dir.count++;
        vfs_touch_dir(v, bd);
        n->nlink++;
        n->ctime = vfs_clock(v);
      } else if (n) {
        vnode_unref(stub);
      }
    }
  }
  vres_free(v, &a);
  vres_free(v, &b);
  return rc;
}

int vfs_symlink(vfs *v, const char *cwd, const char *target,
                const char *linkpath) {
  size_t tl = target ? strlen(target) : 0;
  if (!tl)
    return -ENOENT;
  if (tl > VFS_PATH_MAX)
    return -ENAMETOOLONG;
  vres r;
  int rc = vfs_resolve(v, cwd, linkpath, R_PARENT, &r);
  if (rc)
    return rc;
  if (r.dot || r.entry) {
    rc = -EEXIST;
  } else if (r.trailing) {
    rc = -ENOENT;
  } else if (!vfs_perm(v, r.dir, 3)) {
    rc = -EACCES;
  } else {
    vnode *dir = vfs_mut_dir(v, r.canon, r.clen, &rc);
    if (dir) {
      vnode *n = vnode_new(v, VFS_LNK, 0777);
      char *t = n ? mem_strndup(v->m, target, tl) : NULL;
      if (!t) {
        vnode_unref(n);
        rc = -ENOMEM;
      } else {
        n->u.lnk.target = t;
        n->u.lnk.len = tl;
        rc = vfs_insert_new(v, dir, r.name, r.nlen, n);
      }
    }
  }
  vres_free(v, &r);
  return rc;
}
