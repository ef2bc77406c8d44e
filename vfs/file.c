/*
 * file.c - file contents: whole-file read/write/append/truncate and open
 * handles.
 *
 * Quotas are charged before anything changes and refunded if a later step
 * fails, so a write over quota leaves the old content untouched. A read-only
 * handle keeps a reference on the inode it opened, which both keeps its view
 * stable and makes later writes through the tree copy the content. A
 * writable handle pins its inode in the link table (see internal.h) and
 * looks it up by inode number on each call.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "vfs/internal.h"

struct vfs_file {
  vfs *v;
  int acc; /* O_RDONLY / O_WRONLY / O_RDWR */
  bool append;
  int dev;      /* enum vfs_dev, NONE for files */
  vnode *ro;    /* read-only handles: the inode as opened */
  uint64_t ino; /* writable handles: the pinned inode */
  bool pinned;
  uint64_t pos;
  char *dcanon, *name; /* where the inode was opened, to unpin cleanly */
};

/* Resize the exclusive, loaded file node n to size bytes (zero fill). */
static int set_size(vnode *n, uint64_t size) {
  if (size > SIZE_MAX / 2)
    return -EFBIG;
  int rc = vnode_blob_mut(n, (size_t)size);
  if (rc)
    return rc;
  blob *b = n->u.data;
  if (size > b->len)
    memset(b->data + b->len, 0, (size_t)size - b->len);
  b->len = (size_t)size;
  b->data[b->len] = 0;
  n->size = size;
  n->host_bytes = 0;
  return 0;
}

/* A host file's bytes, read whole, or the error (-EFBIG over the layer's
 * limit, -ENOMEM): the caller fails rather than see an empty or cut file.
 * Out of memory also ends the running exec at the memory limit, since the
 * allocator refused before its cap was crossed. */
static int load_if_lazy(vfs *v, vnode *n) {
  if (atomic_load_explicit(&n->lazy, memory_order_acquire) != VN_LAZY_FILE)
    return 0;
  int rc = vfs_host_load_file(n);
  if (rc == -ENOMEM && v->bud)
    budget_set_stop(v->bud, BUDGET_MEMORY, v->bud->lim.max_memory);
  return rc;
}

/* Resolve for a content change. Returns 1 for a device node (writes are
 * swallowed), 0 when r->node is a writable regular file or missing with a
 * writable parent (create allowed), else -errno. */
static int prep_write(vfs *v, const char *cwd, const char *path, bool create,
                      vres *r) {
  int rc = vfs_resolve(v, cwd, path, R_FOLLOW | (create ? R_PARENT : 0), r);
  if (rc)
    return rc;
  vnode *n = r->node;
  if (r->dot || (n && n->type == VFS_DIR))
    rc = -EISDIR;
  else if (!n)
    rc = r->trailing ? -EISDIR : !vfs_perm(v, r->dir, 3) ? -EACCES : 0;
  else if (n->type == VFS_CHR)
    rc = n->dev == VFS_DEV_OTHER ? -ENXIO : 1;
  else if (n->type != VFS_REG)
    rc = -ENXIO;
  else if (!vfs_perm(v, n, 2))
    rc = -EACCES;
  else
    rc = load_if_lazy(v, n);
  if (rc < 0)
    vres_free(v, r);
  return rc;
}

static int create_file(vfs *v, vres *r, const void *data, size_t len,
                       unsigned mode) {
  blob *b = NULL;
  if (len && !(b = blob_new(v->m, data, len, len)))
    return -ENOMEM;
  int rc;
  vnode *dir = vfs_mut_dir(v, r->canon, r->clen, &rc);
  if (!dir) {
    blob_unref(b);
    return rc;
  }
  vnode *n = vnode_new(v, VFS_REG, mode & ~v->umask & 07777);
  if (!n) {
    blob_unref(b);
    return -ENOMEM;
  }
  n->u.data = b;
  n->size = len;
  return vfs_insert_new(v, dir, r->name, r->nlen, n);
}

/* The start of a whole-file write or append: resolve, swallow a write to a
 * device, create a missing file with the data. Returns 1 when that ended
 * the call (*rc its result, r released), 0 when r names the existing
 * regular file to change. */
static int write_begin(vfs *v, const char *cwd, const char *path,
                       const void *data, size_t len, unsigned mode, vres *r,
                       int *rc) {
  *rc = prep_write(v, cwd, path, true, r);
  if (*rc < 0)
    return 1;
  if (*rc == 1 || !r->node) {
    *rc = *rc == 1 ? 0 : create_file(v, r, data, len, mode);
    vres_free(v, r);
    return 1;
  }
  return 0;
}

int vfs_write_file(vfs *v, const char *cwd, const char *path, const void *data,
                   size_t len, unsigned mode) {
  vres r;
  int rc;
  if (write_begin(v, cwd, path, data, len, mode ? mode : 0644, &r, &rc))
    return rc;
  int64_t delta = (int64_t)len - (int64_t)vnode_bytes(r.node);
  blob *b = NULL;
  if (len && !(b = blob_new(v->m, data, len, len)))
    rc = -ENOMEM;
  else
    rc = vfs_charge(v, delta, 0);
  if (!rc) {
    vnode *dir = vfs_mut_dir(v, r.canon, r.clen, &rc);
    vnode *n = dir ? vfs_mut_file(v, dir, r.name, r.nlen, &rc) : NULL;
    if (n) {
      blob_unref(n->u.data);
      n->u.data = b;
      b = NULL;
      n->size = len;
      n->host_bytes = 0;
      n->mtime = n->ctime = vfs_clock(v);
    } else {
      vfs_charge(v, -delta, 0);
    }
  }
  blob_unref(b);
  vres_free(v, &r);
  return rc;
}

int vfs_append_file(vfs *v, const char *cwd, const char *path, const void *data,
                    size_t len) {
  vres r;
  int rc;
  if (write_begin(v, cwd, path, data, len, 0666, &r, &rc))
    return rc;
  uint64_t old = r.node->size;
  int64_t delta = (int64_t)(old + len) - (int64_t)vnode_bytes(r.node);
  rc = vfs_charge(v, delta, 0);
  if (!rc) {
    vnode *dir = vfs_mut_dir(v, r.canon, r.clen, &rc);
    vnode *n = dir ? vfs_mut_file(v, dir, r.name, r.nlen, &rc) : NULL;
    if (n && !(rc = set_size(n, old + len))) {
      if (len)
        memcpy(n->u.data->data + old, data, len);
      n->mtime = n->ctime = vfs_clock(v);
    } else {
      vfs_charge(v, -delta, 0);
    }
  }
  vres_free(v, &r);
  return rc;
}

int vfs_truncate(vfs *v, const char *cwd, const char *path, uint64_t size) {
  vres r;
  int rc = prep_write(v, cwd, path, false, &r);
  if (rc < 0)
    return rc;
  if (rc == 1) {
    vres_free(v, &r);
    return 0;
  }
  int64_t delta = (int64_t)size - (int64_t)vnode_bytes(r.node);
  rc = vfs_charge(v, delta, 0);
  if (!rc) {
    vnode *dir = vfs_mut_dir(v, r.canon, r.clen, &rc);
    vnode *n = dir ? vfs_mut_file(v, dir, r.name, r.nlen, &rc) : NULL;
    if (n && !(rc = set_size(n, size)))
      n->mtime = n->ctime = vfs_clock(v);
    else
      vfs_charge(v, -delta, 0);
  }
  vres_free(v, &r);
  return rc;
}

/* Whether a node can be read as bytes: 0, or -errno; *empty for devices
 * that read as nothing. */
static int readable(const vfs *v, const vnode *n, bool *empty) {
  *empty = false;
  if (n->type == VFS_DIR)
    return -EISDIR;
  if (n->type == VFS_CHR) {
    if (n->dev == VFS_DEV_OTHER)
      return -ENXIO;
    *empty = true;
    return 0;
  }
  if (n->type != VFS_REG)
    return -ENXIO;
  return vfs_perm(v, n, 4) ? 0 : -EACCES;
}

int vfs_read_file(vfs *v, const char *cwd, const char *path, char **data,
                  size_t *len) {
  vres r;
  int rc = vfs_resolve(v, cwd, path, R_FOLLOW, &r);
  if (rc)
    return rc;
  vnode *n = r.node;
  vres_free(v, &r);
  bool empty;
  if ((rc = readable(v, n, &empty)))
    return rc;
  if (n->type == VFS_CHR &&
      (n->dev == VFS_DEV_ZERO || n->dev == VFS_DEV_URANDOM))
    return -EFBIG; /* endless */
  if (!empty && (rc = load_if_lazy(v, n)))
    return rc;
  const blob *b = empty ? NULL : n->u.data;
  size_t l = b ? b->len : 0;
  *data = mem_memdup(v->m, b ? b->data : "", l + 1);
  if (!*data)
    return -ENOMEM;
  (*data)[l] = 0;
  *len = l;
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Handles                                                                  */
/* ------------------------------------------------------------------------ */

static vnode *hnode(const vfs_file *f) {
  if (f->ro)
    return f->ro;
  char k[8];
  ino_key(f->ino, k);
  return dmap_get(f->v->links, k, 8);
}

int vfs_open(vfs *v, const char *cwd, const char *path, int flags,
             unsigned mode, vfs_file **out) {
  *out = NULL;
  int acc = flags & O_ACCMODE;
  bool wr = acc == O_WRONLY || acc == O_RDWR;
  bool creat = (flags & O_CREAT) != 0;
  vres r;
  int rc = vfs_resolve(
      v, cwd, path,
      (creat ? R_PARENT : 0) | ((flags & O_NOFOLLOW) ? 0 : R_FOLLOW), &r);
  if (rc)
    return rc;
  vnode *n = r.node;
  vfs_file *f = NULL;
  if (n && creat && (flags & O_EXCL)) {
    rc = -EEXIST;
  } else if (n && n->type == VFS_LNK) {
    rc = -ELOOP;
  } else if (r.dot || (n && n->type == VFS_DIR)) {
    rc = -EISDIR;
  } else if ((flags & O_DIRECTORY) && n) {
    rc = -ENOTDIR;
  } else if (!n) {
    if (r.trailing)
      rc = -EISDIR;
    else if (!vfs_perm(v, r.dir, 3))
      rc = -EACCES;
    else
      rc = create_file(v, &r, NULL, 0, mode);
    creat = true;
  } else if (n->type == VFS_CHR) {
    rc = n->dev == VFS_DEV_OTHER ? -ENXIO : 0;
  } else if (n->type != VFS_REG) {
    rc = -ENXIO;
  } else if ((acc != O_WRONLY && !vfs_perm(v, n, 4)) ||
             (wr && !vfs_perm(v, n, 2))) {
    rc = -EACCES;
  }
  if (!rc && !(f = mem_calloc(v->m, 1, sizeof *f)))
    rc = -ENOMEM;
  if (rc) {
    vres_free(v, &r);
    return rc;
  }
  f->v = v;
  f->acc = acc;
  f->append = (flags & O_APPEND) != 0;
  if (n && n->type == VFS_CHR) {
    f->dev = n->dev;
    vres_free(v, &r);
    *out = f;
    return 0;
  }
  if (n && (rc = load_if_lazy(v, n))) {
    vres_free(v, &r);
    mem_free(v->m, f);
    return rc;
  }
  if (!wr) {
    if (!n) { /* just created */
      vnode *dir = vfs_mut_dir(v, r.canon, r.clen, &rc);
      n = dir ? vfs_deref(v->links, dmap_get(dir->u.dir.map, r.name, r.nlen))
              : NULL;
      if (!n && !rc)
        rc = -ENOENT;
    }
    f->ro = vnode_ref(n);
  } else {
    vnode *dir = vfs_mut_dir(v, r.canon, r.clen, &rc);
    if (dir)
      rc = vfs_pin(v, dir, r.name, r.nlen, &f->ino);
    if (!rc) {
      f->pinned = true;
      f->dcanon = mem_strndup(v->m, r.canon, r.clen);
      f->name = mem_strndup(v->m, r.name, r.nlen);
      if (!f->dcanon || !f->name)
        rc = -ENOMEM;
    }
    if (!rc && (flags & O_TRUNC) && n)
      rc = vfs_ftruncate(f, 0);
  }
  vres_free(v, &r);
  if (rc) {
    vfs_close(f);
    return rc;
  }
  *out = f;
  return 0;
}

long vfs_pread(vfs_file *f, void *buf, size_t n, uint64_t off) {
  if (f->dev) {
    if (f->dev == VFS_DEV_ZERO) {
      memset(buf, 0, n);
      return (long)n;
    }
    return 0;
  }
  if (f->acc == O_WRONLY)
    return -EBADF;
  vnode *node = hnode(f);
  if (!node)
    return -ESTALE;
  const blob *b = node->u.data;
  size_t len = b ? b->len : 0;
  if (off >= len)
    return 0;
  size_t k = len - (size_t)off < n ? len - (size_t)off : n;
  if (k > LONG_MAX)
    k = LONG_MAX;
  memcpy(buf, b->data + off, k);
  return (long)k;
}

long vfs_read(vfs_file *f, void *buf, size_t n) {
  long k = vfs_pread(f, buf, n, f->pos);
  if (k > 0)
    f->pos += (uint64_t)k;
  return k;
}

long vfs_pwrite(vfs_file *f, const void *buf, size_t n, uint64_t off) {
  if (f->dev)
    return (long)n;
  if (!f->pinned)
    return -EBADF;
  vfs *v = f->v;
  vnode *node = hnode(f);
  if (!node)
    return -ESTALE;
  if (n > LONG_MAX || off > SIZE_MAX / 4 || n > SIZE_MAX / 4)
    return -EFBIG;
  uint64_t size = node->size;
  uint64_t nsize = off + n > size ? off + n : size;
  int64_t delta = (int64_t)nsize - (int64_t)vnode_bytes(node);
  int rc = vfs_charge(v, delta, 0);
  if (rc)
    return rc;
  vnode *m = vfs_mut_link_ino(v, f->ino, &rc);
  if (!m || (rc = set_size(m, nsize))) {
    vfs_charge(v, -delta, 0);
    return rc;
  }
  if (n)
    memcpy(m->u.data->data + off, buf, n);
  m->mtime = m->ctime = vfs_clock(v);
  return (long)n;
}

long vfs_write(vfs_file *f, const void *buf, size_t n) {
  uint64_t off = f->pos;
  if (f->append && !f->dev) {
    vnode *node = hnode(f);
    off = node ? node->size : 0;
  }
  long k = vfs_pwrite(f, buf, n, off);
  if (k > 0)
    f->pos = off + (uint64_t)k;
  return k;
}

int64_t vfs_seek(vfs_file *f, int64_t off, int whence) {
  int64_t base = 0;
  if (whence == SEEK_CUR)
    base = (int64_t)f->pos;
  else if (whence == SEEK_END)
    base = (int64_t)vfs_file_size(f);
  else if (whence != SEEK_SET)
    return -EINVAL;
  if (base + off < 0)
    return -EINVAL;
  f->pos = (uint64_t)(base + off);
  return (int64_t)f->pos;
}

int vfs_ftruncate(vfs_file *f, uint64_t size) {
  if (f->dev)
    return 0;
  if (!f->pinned)
    return -EINVAL;
  vnode *node = hnode(f);
  if (!node)
    return -ESTALE;
  int64_t delta = (int64_t)size - (int64_t)vnode_bytes(node);
  int rc = vfs_charge(f->v, delta, 0);
  if (rc)
    return rc;
  vnode *m = vfs_mut_link_ino(f->v, f->ino, &rc);
  if (!m || (rc = set_size(m, size))) {
    vfs_charge(f->v, -delta, 0);
    return rc;
  }
  m->mtime = m->ctime = vfs_clock(f->v);
  return 0;
}

int vfs_fstat(vfs_file *f, vfs_stat_t *st) {
  if (f->dev) {
    memset(st, 0, sizeof *st);
    st->type = VFS_CHR;
    st->mode = 0666;
    st->nlink = 1;
    st->dev = f->dev;
    return 0;
  }
  vnode *n = hnode(f);
  if (!n)
    return -ESTALE;
  vnode_stat(n, st);
  return 0;
}

uint64_t vfs_file_size(vfs_file *f) {
  vnode *n = f->dev ? NULL : hnode(f);
  return n ? n->size : 0;
}

int vfs_file_dev(const vfs_file *f) {
  return f->dev;
}

const char *vfs_file_data(vfs_file *f, size_t *len) {
  vnode *n = f->dev ? NULL : hnode(f);
  const blob *b = n ? n->u.data : NULL;
  *len = b ? b->len : 0;
  return b && b->len ? b->data : NULL;
}

void vfs_close(vfs_file *f) {
  if (!f)
    return;
  vfs *v = f->v;
  if (f->pinned) {
    vfs_unpin(v, f->ino);
    if (f->dcanon && f->name)
      vfs_unlink_table(v, f->dcanon, f->name, f->ino);
  }
  vnode_unref(f->ro);
  mem_free(v->m, f->dcanon);
  mem_free(v->m, f->name);
  mem_free(v->m, f);
}
