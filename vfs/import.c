/*
 * import.c - many files into the tree at once, without resolving each path
 * from the root: an importer keeps the chain of (exclusive) directories of
 * the last file it placed, so the next file of the same directory costs
 * one insertion, and one of a sibling directory a step up and a step down.
 * Contents are copied once: from the caller's memory, or read from a host
 * file straight into the node's buffer.
 *
 * What the fast path does not cover (a name already there, a symlink or a
 * host-layer directory on the way, `..`) goes through the ordinary calls
 * (vfs_mkdir_p, vfs_write_file) with their full semantics.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vfs/internal.h"

typedef struct ilevel {
  size_t end; /* the directory's path is cur[0..end) ("" for the root) */
  vnode *dir; /* exclusive to this tree while the import lasts */
} ilevel;

struct vfs_import {
  vfs *v;
  ilevel *st;
  size_t depth, cap; /* st[0] is the root */
  char base[VFS_PATH_MAX + 1];
  size_t blen;
  char cur[VFS_PATH_MAX + 1];  /* path of st[depth].dir */
  char full[VFS_PATH_MAX + 2]; /* the path being placed, normalized */
};

int vfs_import_begin(vfs *v, const char *cwd, const char *dir,
                     vfs_import **out) {
  *out = NULL;
  v->priv++;
  int rc = vfs_mkdir_p(v, cwd, dir, 0755);
  char *canon = NULL;
  if (!rc)
    rc = vfs_canon_dir(v, cwd, dir, &canon);
  v->priv--;
  if (rc)
    return rc;
  vfs_import *im = mem_calloc(v->m, 1, sizeof *im);
  if (!im) {
    mem_free(v->m, canon);
    return -ENOMEM;
  }
  im->v = v;
  size_t n = strlen(canon);
  if (n == 1) /* "/" */
    n = 0;
  memcpy(im->base, canon, n);
  im->blen = n;
  mem_free(v->m, canon);
  *out = im;
  return 0;
}

void vfs_import_end(vfs_import *im) {
  if (!im)
    return;
  mem_free(im->v->m, im->st);
  mem_free(im->v->m, im);
}

/* Forget the directory chain (after a general call changed the tree). */
static void reset(vfs_import *im) {
  im->depth = 0;
  if (im->st)
    im->st[0].dir = NULL;
}

static int push(vfs_import *im, size_t end, vnode *dir) {
  if (im->depth + 1 >= im->cap) {
    size_t nc = im->cap ? im->cap * 2 : 16;
    ilevel *ns = mem_realloc(im->v->m, im->st, nc * sizeof *ns);
    if (!ns)
      return -ENOMEM;
    im->st = ns;
    im->cap = nc;
  }
  im->st[++im->depth] = (ilevel){end, dir};
  return 0;
}

/* path (relative to the base, or absolute) into im->full as "/a/b/name"
 * without empty or "." components. 1: has "..", or is longer than the
 * buffer, left to the general path; 0 done; <0 error. */
static int normalize(vfs_import *im, const char *path, size_t plen,
                     size_t *flen) {
  size_t n = 0;
  if (!plen)
    return -ENOENT;
  if (path[0] != '/') {
    memcpy(im->full, im->base, im->blen);
    n = im->blen;
  }
  const char *p = path, *end = path + plen;
  while (p < end) {
    while (p < end && *p == '/')
      p++;
    const char *s = p;
    while (p < end && *p != '/')
      p++;
    size_t cl = (size_t)(p - s);
    if (!cl || (cl == 1 && s[0] == '.'))
      continue;
    if (cl == 2 && s[0] == '.' && s[1] == '.')
      return 1;
    if (cl > VFS_NAME_MAX)
      return -ENAMETOOLONG;
    if (n + 1 + cl > VFS_PATH_MAX)
      return 1; /* the general calls decide (a long path under a base) */
    im->full[n++] = '/';
    memcpy(im->full + n, s, cl);
    n += cl;
  }
  if (!n)
    return -EISDIR; /* the base itself */
  im->full[n] = 0;
  *flen = n;
  return 0;
}

/* The exclusive directory name in dir, made when missing (with mode as
 * given: the umask is the caller's to apply). NULL with *err: 1 when the
 * entry is something the fast path leaves alone (not a plain directory),
 * or -errno. */
static vnode *child_dir(vfs *v, vnode *dir, const char *name, size_t nlen,
                        unsigned mode, int *err) {
  vnode *e = dmap_get(dir->u.dir.map, name, nlen);
  if (!e) {
    vnode *n = vnode_new(v, VFS_DIR, mode & 07777);
    if (!n) {
      *err = -ENOMEM;
      return NULL;
    }
    if ((*err = vfs_insert_new(v, dir, name, nlen, n)))
      return NULL;
    return n; /* new, so only this tree holds it */
  }
  if (e->type != VFS_DIR || e->host || e->mnt) {
    *err = 1;
    return NULL;
  }
  vnode **slot = dmap_slot(v->m, &dir->u.dir.map, name, nlen, err);
  if (!slot)
    return NULL;
  if ((*err = vnode_make_mut(v->m, slot)))
    return NULL;
  return *slot;
}

/* Position the chain on the directory im->full[0..dlen), making missing
 * ones: the last component with mode last, those above it with mid (both
 * as given, umask applied). 0, 1 (leave it to the general path) or
 * -errno. */
static int seek_dir(vfs_import *im, size_t dlen, unsigned mid, unsigned last) {
  vfs *v = im->v;
  if (!im->st || !im->st[0].dir) {
    if (!im->st && push(im, 0, NULL))
      return -ENOMEM;
    int rc = vnode_make_mut(v->m, &v->root);
    if (rc)
      return rc;
    im->depth = 0;
    im->st[0] = (ilevel){0, v->root};
  }
  /* the deepest level that is a prefix of the wanted directory */
  while (im->depth > 0) {
    size_t e = im->st[im->depth].end;
    if (e <= dlen && memcmp(im->cur, im->full, e) == 0 &&
        (e == dlen || im->full[e] == '/'))
      break;
    im->depth--;
  }
  size_t at = im->st[im->depth].end;
  while (at < dlen) {
    size_t s = at + 1, e = s;
    while (e < dlen && im->full[e] != '/')
      e++;
    int err = 0;
    vnode *d = child_dir(v, im->st[im->depth].dir, im->full + s, e - s,
                         e == dlen ? last : mid, &err);
    if (!d)
      return err;
    memcpy(im->cur + at, im->full + at, e - at);
    if (push(im, e, d))
      return -ENOMEM;
    at = e;
  }
  return 0;
}

/* The general path for one entry: what a script's own calls would do. */
static int slow_file(vfs_import *im, const char *path, const void *data,
                     size_t len, unsigned mode) {
  vfs *v = im->v;
  reset(im);
  char *dir = mem_strdup(v->m, path);
  if (!dir)
    return -ENOMEM;
  v->priv++;
  char *slash = strrchr(dir, '/');
  int rc = 0;
  if (slash && slash != dir) {
    *slash = 0;
    rc = vfs_mkdir_p(v, im->base[0] ? im->base : "/", dir, 0755);
  }
  if (!rc)
    rc = vfs_write_file(v, im->base[0] ? im->base : "/", path, data, len, mode);
  v->priv--;
  mem_free(v->m, dir);
  return rc;
}

/* Place a new file node holding b at the normalized im->full: 0 or -errno
 * (b consumed), or 1 (b left to the caller) when the general path must
 * do it: a name already there (replacing follows symlinks and keeps hard
 * links), or a directory on the way that is not a plain one. */
static int place(vfs_import *im, size_t flen, blob *b, size_t len,
                 unsigned mode) {
  vfs *v = im->v;
  size_t slash = flen;
  while (im->full[slash - 1] != '/')
    slash--;
  size_t dlen = slash - 1;
  const char *name = im->full + slash;
  size_t nlen = flen - slash;
  unsigned pm = ((0777 & ~v->umask) | 0300) & ~v->umask;
  int rc = seek_dir(im, dlen, pm, pm);
  if (rc == 1)
    return 1;
  vnode *dir = rc ? NULL : im->st[im->depth].dir;
  if (dir && dmap_get(dir->u.dir.map, name, nlen))
    return 1;
  vnode *n = dir ? vnode_new(v, VFS_REG, mode & ~v->umask & 07777) : NULL;
  if (!n) {
    blob_unref(b);
    return rc ? rc : -ENOMEM;
  }
  n->u.data = b;
  n->size = len;
  return vfs_insert_new(v, dir, name, nlen, n);
}

/* Room for len more content bytes under the quota. */
static int room(const vfs *v, size_t len) {
  return v->bytes + len > v->max_bytes || v->bytes + len < v->bytes ? -ENOSPC
                                                                    : 0;
}

int vfs_import_data(vfs_import *im, const char *path, const void *data,
                    size_t len, unsigned mode) {
  vfs *v = im->v;
  mode = mode ? mode : 0644;
  size_t flen = 0;
  int rc = normalize(im, path, strlen(path), &flen);
  if (rc < 0)
    return rc;
  if (rc == 0 && !(rc = room(v, len))) {
    blob *b = NULL;
    if (len && !(b = blob_new(v->m, data, len, len)))
      return -ENOMEM;
    rc = place(im, flen, b, len, mode);
    if (rc == 1)
      blob_unref(b);
  }
  if (rc == 1)
    rc = slow_file(im, path, data, len, mode);
  return rc;
}

int vfs_import_mkdir(vfs_import *im, const char *path, unsigned mode) {
  size_t flen = 0;
  int rc = normalize(im, path, strlen(path), &flen);
  unsigned dm = (mode ? mode : 0755) & ~im->v->umask;
  if (rc == 0)
    rc = seek_dir(im, flen, dm, dm);
  if (rc == 1) {
    reset(im);
    im->v->priv++;
    rc = vfs_mkdir_p(im->v, im->base[0] ? im->base : "/", path,
                     mode ? mode : 0755);
    im->v->priv--;
  }
  return rc;
}

/* ---- nodes made by the caller (hydrate, symlinks) ---- */

const char *vfs_import_base(const vfs_import *im) {
  return im->base[0] ? im->base : "/";
}

void vfs_import_forget(vfs_import *im) {
  reset(im);
}

/* The start of the last component of im->full[0..flen). */
static size_t last_slash(const vfs_import *im, size_t flen) {
  size_t slash = flen;
  while (im->full[slash - 1] != '/')
    slash--;
  return slash;
}

int vfs_import_node(vfs_import *im, const char *path, unsigned mid,
                    unsigned pmode, vnode *n) {
  vfs *v = im->v;
  size_t flen = 0;
  int rc = normalize(im, path, strlen(path), &flen);
  if (!rc) {
    size_t slash = last_slash(im, flen);
    const char *name = im->full + slash;
    size_t nlen = flen - slash;
    if (!(rc = seek_dir(im, slash - 1, mid, pmode))) {
      vnode *dir = im->st[im->depth].dir;
      vnode *e = dmap_get(dir->u.dir.map, name, nlen);
      if (e && e->type == VFS_DIR)
        return 1;
      if (e && (rc = vfs_drop_entry(v, dir, name, nlen)))
        goto fail;
      return vfs_insert_new(v, dir, name, nlen, n);
    }
  }
  if (rc == 1)
    return 1;
fail:
  vnode_unref(n);
  return rc;
}

int vfs_import_dir_at(vfs_import *im, const char *path, unsigned mid,
                      unsigned pmode, unsigned mode, vnode **out) {
  *out = NULL;
  size_t flen = 0;
  int rc = normalize(im, path, strlen(path), &flen);
  if (!rc)
    rc = seek_dir(im, last_slash(im, flen) - 1, mid, pmode);
  if (!rc)
    rc = seek_dir(im, flen, mid, mode);
  if (!rc)
    *out = im->st[im->depth].dir;
  return rc;
}

/* A host file read straight into the node's buffer. */
static int import_fd(vfs_import *im, const char *path, int fd, size_t len,
                     unsigned mode) {
  vfs *v = im->v;
  int rc = room(v, len);
  if (rc)
    return rc;
  blob *b = blob_new(v->m, NULL, 0, len);
  if (!b)
    return -ENOMEM;
  size_t got = 0;
  while (got < len) {
    ssize_t k = read(fd, b->data + got, len - got);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0) {
      blob_unref(b);
      return -errno;
    }
    if (k == 0)
      break; /* shrank meanwhile: what was there */
    got += (size_t)k;
  }
  b->len = got;
  b->data[got] = 0;
  size_t flen = 0;
  rc = normalize(im, path, strlen(path), &flen);
  if (rc == 0 && (rc = place(im, flen, b, got, mode)) != 1)
    return rc; /* b consumed */
  if (rc == 1)
    rc = slow_file(im, path, b->data, got, mode);
  blob_unref(b);
  return rc;
}

/* One directory of the host walk: its files placed, its subdirectories
 * appended to the work list (paths relative to the host root). */
typedef struct hwork {
  char **paths;
  size_t n, cap;
} hwork;

static int work_push(mem *m, hwork *w, const char *a, const char *b) {
  if (w->n == w->cap) {
    size_t nc = w->cap ? w->cap * 2 : 16;
    char **np = mem_realloc(m, w->paths, nc * sizeof *np);
    if (!np)
      return -ENOMEM;
    w->paths = np;
    w->cap = nc;
  }
  size_t al = strlen(a), bl = strlen(b);
  char *p = mem_alloc(m, al + bl + 2);
  if (!p)
    return -ENOMEM;
  memcpy(p, a, al);
  p[al] = al ? '/' : 0;
  memcpy(p + al + (al ? 1 : 0), b, bl + 1);
  w->paths[w->n++] = p;
  return 0;
}

static int host_dir(vfs_import *im, int rootfd, const char *rel, hwork *w) {
  mem *m = im->v->m;
  int fd = *rel ? openat(rootfd, rel,
                         O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                : dup(rootfd);
  if (fd < 0)
    return -errno;
  DIR *d = fdopendir(fd);
  if (!d) {
    int e = -errno;
    close(fd);
    return e;
  }
  int rc = 0;
  char path[VFS_PATH_MAX + 1];
  struct dirent *e;
  while (!rc && (errno = 0, e = readdir(d))) {
    const char *nm = e->d_name;
    if (!strcmp(nm, ".") || !strcmp(nm, ".."))
      continue;
    size_t rl = strlen(rel), nl = strlen(nm);
    if (rl + nl + 2 > sizeof path) {
      rc = -ENAMETOOLONG;
      break;
    }
    memcpy(path, rel, rl);
    path[rl] = rl ? '/' : 0;
    memcpy(path + rl + (rl ? 1 : 0), nm, nl + 1);
    struct stat st;
    if (fstatat(dirfd(d), nm, &st, AT_SYMLINK_NOFOLLOW)) {
      rc = -errno;
      break;
    }
    if (S_ISDIR(st.st_mode)) {
      rc = vfs_import_mkdir(im, path, st.st_mode & 0777);
      if (!rc)
        rc = work_push(m, w, rel, nm);
    } else if (S_ISREG(st.st_mode)) {
      int ffd = openat(dirfd(d), nm, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
      if (ffd < 0) {
        rc = -errno;
        break;
      }
      rc = import_fd(im, path, ffd, (size_t)st.st_size, st.st_mode & 0777);
      close(ffd);
    } else if (S_ISLNK(st.st_mode)) {
      char target[VFS_PATH_MAX + 1];
      ssize_t tl = readlinkat(dirfd(d), nm, target, sizeof target - 1);
      if (tl < 0) {
        rc = -errno;
        break;
      }
      target[tl] = 0;
      unsigned pm = ((0777 & ~im->v->umask) | 0300) & ~im->v->umask;
      vnode *ln = vnode_new(im->v, VFS_LNK, 0777);
      char *t = ln ? mem_strndup(m, target, (size_t)tl) : NULL;
      if (!t) {
        vnode_unref(ln);
        rc = -ENOMEM;
        break;
      }
      ln->u.lnk.target = t;
      ln->u.lnk.len = (size_t)tl;
      if ((rc = vfs_import_node(im, path, pm, pm, ln)) != 1)
        continue; /* placed (an entry that was there replaced), or failed */
      vnode_unref(ln);
      reset(im);
      im->v->priv++;
      const char *at = im->base[0] ? im->base : "/";
      rc = vfs_symlink(im->v, at, target, path);
      vfs_stat_t lst;
      if (rc == -EEXIST && !vfs_lstat(im->v, at, path, &lst) &&
          lst.type != VFS_DIR && !(rc = vfs_unlink(im->v, at, path)))
        rc = vfs_symlink(im->v, at, target, path); /* replaced */
      im->v->priv--;
    }
    /* devices, FIFOs and sockets are not copied */
  }
  if (!rc && errno)
    rc = -errno;
  closedir(d);
  return rc;
}

int vfs_import_host(vfs_import *im, const char *host_root) {
  mem *m = im->v->m;
  int rootfd = open(host_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (rootfd < 0)
    return -errno;
  hwork w = {0};
  int rc = work_push(m, &w, "", "");
  while (!rc && w.n) {
    char *rel = w.paths[--w.n];
    rc = host_dir(im, rootfd, rel, &w);
    mem_free(m, rel);
  }
  while (w.n)
    mem_free(m, w.paths[--w.n]);
  mem_free(m, w.paths);
  close(rootfd);
  return rc;
}
