/*
 * node.c - inodes and content blobs: allocation, reference counts, copies.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "vfs/internal.h"

int64_t vfs_clock(const vfs *v) {
  if (v->clock)
    return v->clock(v->clock_ud, 0);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

vnode *vnode_new(vfs *v, int type, unsigned mode) {
  vnode *n = mem_calloc(v->m, 1, sizeof *n);
  if (!n)
    return NULL;
  atomic_init(&n->rc, 1);
  atomic_init(&n->lazy, VN_LAZY_NONE);
  n->m = mem_ref(v->m);
  n->type = (uint8_t)type;
  n->mode = mode & 07777;
  n->uid = v->uid;
  n->gid = v->gid;
  n->nlink = type == VFS_DIR ? 2 : 1;
  n->ino = v->next_ino++;
  n->atime = n->mtime = n->ctime = vfs_clock(v);
  return n;
}

vnode *vnode_ref(vnode *n) {
  if (n)
    atomic_fetch_add_explicit(&n->rc, 1, memory_order_relaxed);
  return n;
}

dmap *vnode_free_shell(vnode *n) {
  dmap *map = NULL;
  switch (n->type) {
  case VFS_REG:
    blob_unref(n->u.data);
    break;
  case VFS_DIR:
    map = n->u.dir.map;
    break;
  case VFS_LNK:
    mem_free(n->m, n->u.lnk.target);
    break;
  default:
    break;
  }
  if (n->mnt)
    vmount_unref(n->mnt);
  mem_free(n->m, n->hpath);
  mem *m = n->m;
  mem_free(m, n);
  mem_unref(m);
  return map;
}

void vnode_unref(vnode *n) {
  if (!n || atomic_fetch_sub_explicit(&n->rc, 1, memory_order_acq_rel) != 1)
    return;
  /* a directory's entries are freed by an iterative walk (dmap_free_dead),
   * never by recursion: trees may be deeper than any stack */
  dmap_unref(vnode_free_shell(n));
}

vnode *vnode_copy(mem *m, vnode *n) {
  /* A lazy host node is loaded before it is copied, so the original and the
   * copy can never see two different versions of the host file. */
  if (atomic_load_explicit(&n->lazy, memory_order_acquire) == VN_LAZY_DIR)
    vfs_host_load_dir(n);
  else if (atomic_load_explicit(&n->lazy, memory_order_acquire) == VN_LAZY_FILE)
    vfs_host_load_file(n);
  vnode *c = mem_alloc(m, sizeof *c);
  if (!c)
    return NULL;
  /* Everything after the atomics: another thread may be moving n->rc right
   * now, and a plain copy of it would be a data race. A node still lazy
   * (its load failed) may be loaded by another thread meanwhile: copy it
   * under the mount's mutex, and take references on what was copied. */
  _Static_assert(offsetof(vnode, rc) < offsetof(vnode, m) &&
                     offsetof(vnode, lazy) < offsetof(vnode, m),
                 "vnode: the atomic fields must precede m");
  bool lazy =
      atomic_load_explicit(&n->lazy, memory_order_acquire) != VN_LAZY_NONE;
  if (lazy)
    pthread_mutex_lock(&n->mnt->mu);
  memcpy((char *)c + offsetof(vnode, m), (const char *)n + offsetof(vnode, m),
         sizeof *c - offsetof(vnode, m));
  if (lazy)
    pthread_mutex_unlock(&n->mnt->mu);
  atomic_init(&c->rc, 1);
  atomic_init(&c->lazy, VN_LAZY_NONE);
  c->m = mem_ref(m);
  c->mnt = NULL;
  c->hpath = NULL;
  switch (c->type) {
  case VFS_REG:
    c->u.data = blob_ref(c->u.data);
    break;
  case VFS_DIR:
    c->u.dir.map = dmap_ref(c->u.dir.map);
    break;
  case VFS_LNK:
    c->u.lnk.target = mem_memdup(m, n->u.lnk.target, n->u.lnk.len + 1);
    if (!c->u.lnk.target) {
      mem_free(m, c);
      mem_unref(m);
      return NULL;
    }
    break;
  default:
    break;
  }
  return c;
}

int vnode_make_mut(mem *m, vnode **slot) {
  vnode *n = *slot;
  if (atomic_load_explicit(&n->rc, memory_order_acquire) == 1 &&
      atomic_load_explicit(&n->lazy, memory_order_acquire) == VN_LAZY_NONE)
    return 0;
  if (atomic_load_explicit(&n->rc, memory_order_acquire) == 1) {
    /* exclusive but lazy: load in place */
    int rc = n->type == VFS_DIR ? vfs_host_load_dir(n) : vfs_host_load_file(n);
    return rc < 0 ? rc : 0;
  }
  /* a shared host file that cannot be read whole is not copied as empty */
  if (atomic_load_explicit(&n->lazy, memory_order_acquire) == VN_LAZY_FILE) {
    int rc = vfs_host_load_file(n);
    if (rc < 0)
      return rc;
  }
  vnode *c = vnode_copy(m, n);
  if (!c)
    return -ENOMEM;
  *slot = c;
  vnode_unref(n);
  return 0;
}

blob *blob_new(mem *m, const void *data, size_t len, size_t cap) {
  if (cap < len)
    cap = len;
  if (cap > SIZE_MAX - sizeof(blob) - 1)
    return NULL;
  blob *b = mem_alloc(m, sizeof *b + cap + 1);
  if (!b)
    return NULL;
  atomic_init(&b->rc, 1);
  b->m = mem_ref(m);
  b->len = len;
  b->cap = cap;
  if (len)
    memcpy(b->data, data, len);
  b->data[len] = 0;
  return b;
}

blob *blob_ref(blob *b) {
  if (b)
    atomic_fetch_add_explicit(&b->rc, 1, memory_order_relaxed);
  return b;
}

void blob_unref(blob *b) {
  if (!b || atomic_fetch_sub_explicit(&b->rc, 1, memory_order_acq_rel) != 1)
    return;
  mem *m = b->m;
  mem_free(m, b);
  mem_unref(m);
}

int vnode_blob_mut(vnode *n, size_t cap) {
  blob *b = n->u.data;
  if (!b) {
    n->u.data = blob_new(n->m, NULL, 0, cap < 16 ? 16 : cap);
    return n->u.data ? 0 : -ENOMEM;
  }
  bool shared = atomic_load_explicit(&b->rc, memory_order_acquire) != 1;
  if (!shared && b->cap >= cap)
    return 0;
  size_t ncap = cap;
  if (b->cap >= cap) /* shared, room enough: copy at the same size */
    ncap = b->cap;
  else if (ncap < b->cap * 2) /* growth doubles: appends are amortised O(1) */
    ncap = b->cap * 2;
  if (shared) {
    blob *c = blob_new(n->m, b->data, b->len, ncap);
    if (!c)
      return -ENOMEM;
    n->u.data = c;
    blob_unref(b);
    return 0;
  }
  if (ncap > SIZE_MAX - sizeof(blob) - 1)
    return -ENOMEM;
  blob *c = mem_realloc(b->m, b, sizeof *b + ncap + 1);
  if (!c && ncap > cap) /* the doubling was too greedy: try the exact size */
    c = mem_realloc(b->m, b, sizeof *b + (ncap = cap) + 1);
  if (!c)
    return -ENOMEM;
  c->cap = ncap;
  n->u.data = c;
  return 0;
}

vnode *vfs_deref(const dmap *links, vnode *entry) {
  if (entry && entry->type == VN_STUB) {
    char k[8];
    ino_key(entry->u.link_ino, k);
    return dmap_get(links, k, 8);
  }
  return entry;
}

uint64_t vnode_bytes(const vnode *n) {
  return n->type == VFS_REG && !n->host_bytes ? n->size : 0;
}

uint64_t vnode_inodes(const vnode *n) {
  return n->type == VN_STUB || n->host ? 0 : 1;
}

static void stat_fields(const vnode *n, vfs_stat_t *st) {
  memset(st, 0, sizeof *st);
  st->type = n->type;
  st->mode = n->mode & 07777;
  st->ino = n->ino;
  st->nlink = n->nlink;
  st->uid = n->uid;
  st->gid = n->gid;
  switch (n->type) {
  case VFS_REG:
    st->size = n->size;
    break;
  case VFS_DIR:
    st->size = 4096;
    break;
  case VFS_LNK:
    st->size = n->u.lnk.len;
    break;
  default:
    break;
  }
  st->atime_ns = n->atime;
  st->mtime_ns = n->mtime;
  st->ctime_ns = n->ctime;
  st->dev = n->type == VFS_CHR ? n->dev : VFS_DEV_NONE;
}

void vnode_stat(const vnode *n, vfs_stat_t *st) {
  /* A stat does not load a lazy host node (listing a directory to stat it
   * would cost a readdir per `ls -l` entry), but another sandbox sharing
   * the node may be loading it right now, changing nlink and size: until
   * the load is published, read under the mount's mutex. */
  if (atomic_load_explicit(&n->lazy, memory_order_acquire) != VN_LAZY_NONE) {
    pthread_mutex_lock(&n->mnt->mu);
    stat_fields(n, st);
    pthread_mutex_unlock(&n->mnt->mu);
    return;
  }
  stat_fields(n, st);
}
