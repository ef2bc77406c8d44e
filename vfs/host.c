/*
 * host.c - read-only host directories layered at a virtual path.
 *
 * Safety rules: the only host path string ever opened is the mount root the
 * embedder names. Everything below it is reached component by component
 * with openat(parent, name, O_NOFOLLOW), so no host symlink is followed and
 * `..` is never a host operation (host symlinks become virtual symlinks,
 * resolved in the virtual namespace). Entries that are not regular files,
 * directories or symlinks are listed as inert nodes and never opened; a
 * regular file is opened O_NONBLOCK and checked with fstat, so a file
 * swapped for a FIFO cannot block either.
 *
 * Consistency: a directory is listed once and a file's bytes are read once
 * (at most max_file bytes), in place, under the mount's mutex; the node is
 * shared by every snapshot and fork that holds it, so they all see the same
 * version even if the host changes later.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vfs/internal.h"

#define HOST_DEFAULT_MAX_FILE ((uint64_t)64 << 20)

vmount *vmount_ref(vmount *mt) {
  atomic_fetch_add(&mt->rc, 1);
  return mt;
}

void vmount_unref(vmount *mt) {
  if (!mt || atomic_fetch_sub(&mt->rc, 1) != 1)
    return;
  close(mt->rootfd);
  pthread_mutex_destroy(&mt->mu);
  mem *m = mt->m;
  mem_free(m, mt);
  mem_unref(m);
}

/* Open hpath below the mount root one component at a time. Intermediate
 * components must be directories; the last is opened with last_flags. */
static int open_rel(const vmount *mt, const char *hpath, int last_flags) {
  int cur = mt->rootfd;
  const char *p = hpath;
  if (!*p)
    return openat(cur, ".", last_flags | O_NOFOLLOW | O_CLOEXEC);
  for (;;) {
    const char *s = p;
    while (*p && *p != '/')
      p++;
    char name[VFS_NAME_MAX + 1];
    size_t len = (size_t)(p - s);
    if (len == 0 || len > VFS_NAME_MAX) {
      if (cur != mt->rootfd)
        close(cur);
      errno = ENOENT;
      return -1;
    }
    memcpy(name, s, len);
    name[len] = 0;
    bool last = !*p;
    int fl = last ? last_flags : O_RDONLY | O_DIRECTORY;
    int fd = openat(cur, name, fl | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
    int e = errno;
    if (cur != mt->rootfd)
      close(cur);
    if (fd < 0) {
      errno = e;
      return -1;
    }
    if (last)
      return fd;
    cur = fd;
    p++;
  }
}

static char *join(mem *m, const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  char *p = mem_alloc(m, la + lb + 2);
  if (!p)
    return NULL;
  memcpy(p, a, la);
  size_t k = la;
  if (la)
    p[k++] = '/';
  memcpy(p + k, b, lb + 1);
  return p;
}

static int64_t ts_ns(struct timespec ts) {
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static vnode *host_node(const vnode *parent, vmount *mt, int dfd,
                        const char *name) {
  struct stat st;
  if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
    return NULL;
  mem *m = parent->m;
  vnode *n = mem_calloc(m, 1, sizeof *n);
  if (!n)
    return NULL;
  atomic_init(&n->rc, 1);
  atomic_init(&n->lazy, VN_LAZY_NONE);
  n->m = mem_ref(m);
  n->host = 1;
  n->mode = st.st_mode & 07777;
  n->uid = mt->uid;
  n->gid = mt->gid;
  n->nlink = 1;
  n->ino = mt->ino_base + atomic_fetch_add(&mt->ino_next, 1);
  n->atime = ts_ns(st.st_atim);
  n->mtime = ts_ns(st.st_mtim);
  n->ctime = ts_ns(st.st_ctim);
  if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) {
    n->type = S_ISDIR(st.st_mode) ? VFS_DIR : VFS_REG;
    n->nlink = S_ISDIR(st.st_mode) ? 2 : 1;
    n->size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
    n->host_bytes = 1;
    n->mnt = vmount_ref(mt);
    n->hpath = join(m, parent->hpath ? parent->hpath : "", name);
    if (!n->hpath) {
      vnode_unref(n);
      return NULL;
    }
    atomic_store(&n->lazy, n->type == VFS_DIR ? VN_LAZY_DIR : VN_LAZY_FILE);
  } else if (S_ISLNK(st.st_mode)) {
    char t[VFS_PATH_MAX + 1];
    ssize_t k = readlinkat(dfd, name, t, sizeof t);
    n->type = VFS_LNK;
    n->mode = 0777;
    if (k <= 0 || k > VFS_PATH_MAX) {
      /* unreadable or oversized: show a link to nowhere */
      memcpy(t, "?", 2);
      k = 1;
    }
    n->u.lnk.target = mem_strndup(m, t, (size_t)k);
    n->u.lnk.len = (size_t)k;
    if (!n->u.lnk.target) {
      n->type = VFS_FIFO; /* nothing to free */
      vnode_unref(n);
      return NULL;
    }
  } else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
    n->type = VFS_CHR;
    n->dev = VFS_DEV_OTHER;
  } else {
    n->type = VFS_FIFO; /* FIFOs and sockets */
  }
  return n;
}

int vfs_host_load_dir(vnode *n) {
  if (atomic_load_explicit(&n->lazy, memory_order_acquire) != VN_LAZY_DIR)
    return 0;
  vmount *mt = n->mnt;
  pthread_mutex_lock(&mt->mu);
  int rc = 0;
  if (atomic_load_explicit(&n->lazy, memory_order_acquire) != VN_LAZY_DIR)
    goto out;
  int fd = open_rel(mt, n->hpath, O_RDONLY | O_DIRECTORY);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  if (!d) {
    if (fd >= 0)
      close(fd);
    goto done; /* vanished or replaced on the host: an empty directory */
  }
  struct dirent *de;
  while ((de = readdir(d))) {
    const char *name = de->d_name;
    if (!strcmp(name, ".") || !strcmp(name, ".."))
      continue;
    size_t len = strlen(name);
    if (len > VFS_NAME_MAX)
      continue;
    vnode *c = host_node(n, mt, dirfd(d), name);
    if (!c) {
      if (errno == ENOMEM)
        rc = -ENOMEM;
      continue;
    }
    vnode *old;
    bool isdir = c->type == VFS_DIR;
    if (dmap_put(n->m, &n->u.dir.map, name, len, c, &old)) {
      vnode_unref(c);
      rc = -ENOMEM;
      continue;
    }
    vnode_unref(old);
    if (!old) {
      n->u.dir.count++;
      if (isdir)
        n->nlink++;
    }
  }
  closedir(d);
done:
  atomic_store_explicit(&n->lazy, VN_LAZY_NONE, memory_order_release);
out:
  pthread_mutex_unlock(&mt->mu);
  return rc;
}

int vfs_host_load_file(vnode *n) {
  if (atomic_load_explicit(&n->lazy, memory_order_acquire) != VN_LAZY_FILE)
    return 0;
  vmount *mt = n->mnt;
  pthread_mutex_lock(&mt->mu);
  int rc = 0;
  if (atomic_load_explicit(&n->lazy, memory_order_acquire) != VN_LAZY_FILE)
    goto out;
  blob *b = NULL;
  int fd = open_rel(mt, n->hpath, O_RDONLY | O_NONBLOCK);
  struct stat st;
  if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode)) {
    /* All of it or nothing: a file over the layer's limit, or one the
     * allocator cannot hold, fails every read (the node stays lazy, so a
     * later read tries again) and is never shown cut short. */
    if ((uint64_t)st.st_size > mt->max_file ||
        (uint64_t)st.st_size >= SIZE_MAX / 2)
      rc = -EFBIG;
    else if (!(b = blob_new(n->m, NULL, 0, (size_t)st.st_size)))
      rc = -ENOMEM;
    while (b && b->len < b->cap) {
      ssize_t k = read(fd, b->data + b->len, b->cap - b->len);
      if (k < 0 && errno == EINTR)
        continue;
      if (k < 0) {
        rc = -EIO;
        blob_unref(b);
        b = NULL;
      }
      if (k <= 0)
        break; /* a file that shrank meanwhile: what it holds now */
      b->len += (size_t)k;
    }
    if (b)
      b->data[b->len] = 0;
  }
  if (fd >= 0)
    close(fd);
  if (rc)
    goto out;
  n->u.data = b;
  n->size = b ? b->len : 0;
  atomic_store_explicit(&n->lazy, VN_LAZY_NONE, memory_order_release);
out:
  pthread_mutex_unlock(&mt->mu);
  return rc;
}

int vfs_mount_host(vfs *v, const char *host_dir, const char *vpath,
                   uint64_t max_file) {
  int fd = open(host_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  struct stat st;
  if (fstat(fd, &st)) {
    int e = errno;
    close(fd);
    return -e;
  }
  vmount *mt = mem_calloc(v->m, 1, sizeof *mt);
  if (!mt) {
    close(fd);
    return -ENOMEM;
  }
  atomic_init(&mt->rc, 1);
  mt->m = mem_ref(v->m);
  mt->rootfd = fd;
  mt->max_file = max_file ? max_file : HOST_DEFAULT_MAX_FILE;
  mt->uid = v->uid;
  mt->gid = v->gid;
  /* host inode numbers get a range of their own in this vfs's numbering */
  mt->ino_base = v->next_ino;
  v->next_ino += (uint64_t)1 << 32;
  atomic_init(&mt->ino_next, 1);
  pthread_mutex_init(&mt->mu, NULL);

  v->priv++;
  int rc = vfs_mkdir_p(v, "/", vpath, 0755);
  vres r;
  if (!rc)
    rc = vfs_resolve(v, "/", vpath, R_FOLLOW, &r);
  if (rc)
    goto fail;
  /* lazy first: the count of a lazy directory (maybe shared with a sandbox
   * on another thread that is listing it) is not to be read */
  if (r.node->type != VFS_DIR || r.dot ||
      atomic_load(&r.node->lazy) != VN_LAZY_NONE || r.node->u.dir.count) {
    rc = r.node->type != VFS_DIR ? -ENOTDIR : -EBUSY;
    vres_free(v, &r);
    goto fail;
  }
  vnode *n = mem_calloc(v->m, 1, sizeof *n);
  char *hp = mem_strdup(v->m, "");
  if (!n || !hp) {
    mem_free(v->m, n);
    mem_free(v->m, hp);
    vres_free(v, &r);
    rc = -ENOMEM;
    goto fail;
  }
  atomic_init(&n->rc, 1);
  atomic_init(&n->lazy, VN_LAZY_DIR);
  n->m = mem_ref(v->m);
  n->type = VFS_DIR;
  n->host = 1;
  n->mode = st.st_mode & 07777;
  n->uid = v->uid;
  n->gid = v->gid;
  n->nlink = 2;
  n->ino = mt->ino_base;
  n->atime = n->mtime = n->ctime = vfs_clock(v);
  n->mnt = vmount_ref(mt);
  n->hpath = hp;
  vnode *dir = vfs_mut_dir(v, r.canon, r.clen, &rc);
  vnode *old = NULL;
  if (dir && !(rc = dmap_put(v->m, &dir->u.dir.map, r.name, r.nlen, n, &old)))
    vfs_uncharge_tree(v, old);
  else
    vnode_unref(n);
  vres_free(v, &r);
fail:
  v->priv--;
  vmount_unref(mt);
  return rc;
}
