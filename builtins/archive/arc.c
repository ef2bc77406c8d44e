/*
 * arc.c - libarchive over the builtins' streams and the vfs (see arc.h).
 */
#include "builtins/archive/arc.h"

#include <errno.h>
#include <string.h>

#include "builtins/fileutil.h"

#define ARC_BLOCK 65536

static la_ssize_t rd_cb(struct archive *a, void *ud, const void **out) {
  arc_io *io = ud;
  if (fu_poll(io->c)) {
    io->err = ECANCELED;
    archive_set_error(a, ECANCELED, "stopped");
    return -1;
  }
  long r = stream_read(io->s, io->buf, ARC_BLOCK);
  if (r < 0) {
    io->err = io->s->err ? io->s->err : EIO;
    archive_set_error(a, io->err, "%s", bi_strerror(io->err));
    return -1;
  }
  *out = io->buf;
  return r;
}

static la_ssize_t wr_cb(struct archive *a, void *ud, const void *p, size_t n) {
  arc_io *io = ud;
  if (stream_write(io->s, p, n)) {
    io->err = io->s->err ? io->s->err : EIO;
    archive_set_error(a, io->err, "%s", bi_strerror(io->err));
    return -1;
  }
  return (la_ssize_t)n;
}

/* Enables a read filter only when libarchive has it built in: the
 * fallback it would otherwise register runs a host program (ARCHIVE_WARN),
 * which a sandbox must never do. */
static void builtin_filter(struct archive *a, int (*add)(struct archive *)) {
  struct archive *probe = archive_read_new();
  if (!probe)
    return;
  int r = add(probe);
  archive_read_free(probe);
  if (r == ARCHIVE_OK)
    add(a);
}

struct archive *arc_reader(arc_io *io, bi_ctx *c, stream *s, int kinds) {
  memset(io, 0, sizeof *io);
  io->c = c;
  io->s = s;
  io->buf = mem_alloc(c->m, ARC_BLOCK);
  struct archive *a = io->buf ? archive_read_new() : NULL;
  if (!a)
    return NULL;
  if (kinds & ARC_TAR) {
    builtin_filter(a, archive_read_support_filter_gzip);
    builtin_filter(a, archive_read_support_filter_bzip2);
    builtin_filter(a, archive_read_support_filter_xz);
    builtin_filter(a, archive_read_support_filter_lzma);
    builtin_filter(a, archive_read_support_filter_zstd);
    archive_read_support_format_tar(a);
    archive_read_support_format_gnutar(a);
  }
  if (kinds & ARC_ZIP) {
    /* A file's bytes are at hand (zero copy): read it as Info-ZIP does,
     * from the central directory, which alone keeps modes and symlinks. */
    const char *p;
    size_t n;
    if (stream_take_all(s, &p, &n) == 0) {
      archive_read_support_format_zip_seekable(a);
      archive_read_open_memory(a, p, n);
      return a;
    }
    archive_read_support_format_zip_streamable(a);
  }
  if (archive_read_open(a, io, NULL, rd_cb, NULL) != ARCHIVE_OK)
    return a; /* the caller sees archive_errno / the first header fail */
  return a;
}

struct archive *arc_writer(bi_ctx *c) {
  (void)c;
  return archive_write_new();
}

int arc_open_w(struct archive *a, arc_io *io, bi_ctx *c, stream *s) {
  memset(io, 0, sizeof *io);
  io->c = c;
  io->s = s;
  return archive_write_open(a, io, NULL, wr_cb, NULL);
}

void arc_io_free(arc_io *io) {
  if (io->buf)
    mem_free(io->c->m, io->buf);
  io->buf = NULL;
}

int arc_type(struct archive_entry *e) {
  switch (archive_entry_filetype(e)) {
  case AE_IFREG:
    return VFS_REG;
  case AE_IFDIR:
    return VFS_DIR;
  case AE_IFLNK:
    return VFS_LNK;
  default:
    return 0;
  }
}

/* GNU tar's safer_name_suffix: drops leading "/" and every prefix up to a
 * last "../"; says whether ".." is a component. */
int arc_name_check(const char *name, size_t *drop) {
  size_t d = 0;
  int dotdot = 0;
  const char *p = name;
  while (*p) {
    const char *s = p;
    while (*p && *p != '/')
      p++;
    if (p - s == 2 && s[0] == '.' && s[1] == '.') {
      dotdot = 1;
      if (*p == '/')
        d = (size_t)(p + 1 - name);
      else
        d = (size_t)(p - name);
    }
    while (*p == '/')
      p++;
  }
  if (!dotdot) {
    while (name[d] == '/')
      d++;
  }
  *drop = d;
  return dotdot;
}

const char *arc_strip(const char *name, int n) {
  const char *rel = name;
  for (int k = 0; k < n && *rel; k++) {
    const char *sl = strchr(rel, '/');
    rel = sl ? sl + 1 : rel + strlen(rel);
    while (*rel == '/')
      rel++;
  }
  return rel;
}

/* ---- extraction ---------------------------------------------------------- */

typedef struct arc_defer {
  char *path;   /* absolute */
  char *target; /* symlink target, or NULL for a directory */
  unsigned mode;
  int64_t mtime_ns;
} arc_defer;

static int defer(arc_x *x, const char *path, const char *target, unsigned mode,
                 int64_t mt) {
  mem *m = x->c->m;
  if (x->ndefer == x->cap) {
    size_t cap = x->cap ? x->cap * 2 : 16;
    arc_defer *d = mem_realloc(m, x->defer, cap * sizeof *d);
    if (!d)
      return ENOMEM;
    x->defer = d;
    x->cap = cap;
  }
  arc_defer *d = &x->defer[x->ndefer];
  d->path = mem_strdup(m, path);
  d->target = target ? mem_strdup(m, target) : NULL;
  if (!d->path || (target && !d->target)) {
    mem_free(m, d->path);
    mem_free(m, d->target);
    return ENOMEM;
  }
  d->mode = mode;
  d->mtime_ns = mt;
  x->ndefer++;
  return 0;
}

static int64_t entry_mtime(struct archive_entry *e) {
  return (int64_t)archive_entry_mtime(e) * 1000000000 +
         archive_entry_mtime_nsec(e);
}

/* Parents of path, made as needed (mode 0777 & ~umask). */
static int parents(arc_x *x, const char *path) {
  bi_ctx *c = x->c;
  size_t n = fu_dir_len(path);
  if (n == 0)
    return 0;
  char *d = arena_strndup(c->scratch, path, n);
  if (!d)
    return ENOMEM;
  int rc = vfs_mkdir_p(c->vfs, "/", d, 0777);
  /* a part of the way that is not a directory (a placeholder among them) */
  return rc == -EEXIST ? ENOTDIR : rc < 0 ? -rc : 0;
}

static int copy_data(arc_x *x, struct archive *a, vfs_file *f) {
  const void *p;
  size_t n;
  la_int64_t off;
  for (;;) {
    if (fu_poll(x->c))
      return ECANCELED;
    int r = archive_read_data_block(a, &p, &n, &off);
    if (r == ARCHIVE_EOF)
      return 0;
    if (r < ARCHIVE_WARN)
      return archive_errno(a) > 0 ? archive_errno(a) : EIO;
    if (n) {
      long w = vfs_pwrite(f, p, n, (uint64_t)off);
      if (w < 0)
        return (int)-w;
    }
  }
}

int arc_extract(arc_x *x, struct archive *a, struct archive_entry *e,
                const char *name, const char **what) {
  bi_ctx *c = x->c;
  const char *path = fu_join(c, x->dir, name);
  if (!path)
    return ENOMEM;
  path = fu_strip_slashes(c, path);
  unsigned umask = x->keep_perms ? 0 : vfs_get_umask(c->vfs);
  unsigned mode = (unsigned)archive_entry_perm(e) & 07777 & ~umask;
  int64_t mt = x->no_mtime ? VFS_UTIME_NOW : entry_mtime(e);
  const char *hl = archive_entry_hardlink(e);
  int type = arc_type(e);
  *what = "Cannot open";
  int rc = parents(x, path);
  if (rc)
    return rc;
  fu_stat st;
  int exists = vfs_lstat(c->vfs, "/", path, &st) == 0;
  if (type == VFS_DIR && !hl) {
    *what = "Cannot mkdir";
    if (exists && st.type == VFS_DIR)
      return defer(x, path, NULL, mode, mt);
    if (exists && x->keep_old)
      return EEXIST;
    if (exists)
      vfs_unlink(c->vfs, "/", path);
    rc = vfs_mkdir(c->vfs, "/", path, 0700);
    if (rc < 0)
      return -rc;
    return defer(x, path, NULL, mode, mt);
  }
  if (exists) {
    if (x->keep_old) {
      if (type == VFS_LNK && !hl)
        *what = "Cannot create symlink";
      return EEXIST;
    }
    if (st.type == VFS_DIR)
      rc = vfs_rmdir(c->vfs, "/", path);
    else
      rc = vfs_unlink(c->vfs, "/", path);
    if (rc < 0)
      return -rc;
  }
  if (hl) {
    size_t drop;
    *what = "Cannot hard link";
    if (arc_name_check(hl, &drop))
      return EPERM;
    const char *hs = arc_strip(hl + drop, x->strip);
    if (!*hs)
      return ENOENT;
    const char *t = fu_join(c, x->dir, hs);
    rc = t ? vfs_link(c->vfs, "/", t, path) : -ENOMEM;
    return rc < 0 ? -rc : 0;
  }
  if (type == VFS_LNK) {
    const char *t = archive_entry_symlink(e);
    if (!t)
      t = "";
    size_t drop;
    *what = "Cannot create symlink";
    if (t[0] == '/' || arc_name_check(t, &drop)) {
      /* As GNU tar: a placeholder now, the link at the end, so no later
       * member can be written through it. */
      vfs_file *f;
      *what = "Cannot open";
      rc = vfs_open(c->vfs, "/", path, O_WRONLY | O_CREAT | O_EXCL, 0, &f);
      if (rc < 0)
        return -rc;
      vfs_close(f);
      return defer(x, path, t, 0, mt);
    }
    rc = vfs_symlink(c->vfs, "/", t, path);
    if (rc < 0)
      return -rc;
    if (mt != VFS_UTIME_NOW)
      vfs_utimes(c->vfs, "/", path, VFS_UTIME_OMIT, mt, VFS_NOFOLLOW);
    return 0;
  }
  if (type != VFS_REG) {
    *what = "Cannot mknod";
    return EPERM;
  }
  vfs_file *f;
  rc = vfs_open(c->vfs, "/", path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
                0600, &f);
  if (rc < 0)
    return -rc;
  rc = copy_data(x, a, f);
  vfs_close(f);
  if (rc) {
    *what = "Cannot write";
    return rc;
  }
  vfs_chmod(c->vfs, "/", path, mode);
  vfs_utimes(c->vfs, "/", path, VFS_UTIME_OMIT, mt, 0);
  return 0;
}

void arc_finish(arc_x *x,
                void (*report)(void *ud, const char *name, const char *what,
                               int err),
                void *ud) {
  bi_ctx *c = x->c;
  /* Symlinks first, then directories deepest first (reverse order). */
  for (size_t i = 0; i < x->ndefer; i++) {
    arc_defer *d = &x->defer[i];
    if (!d->target)
      continue;
    fu_stat st;
    if (vfs_lstat(c->vfs, "/", d->path, &st) == 0 && st.type == VFS_REG &&
        st.size == 0) {
      vfs_unlink(c->vfs, "/", d->path);
      int rc = vfs_symlink(c->vfs, "/", d->target, d->path);
      if (rc < 0 && report)
        report(ud, d->path, "Cannot create symlink", -rc);
      else if (d->mtime_ns != VFS_UTIME_NOW)
        vfs_utimes(c->vfs, "/", d->path, VFS_UTIME_OMIT, d->mtime_ns,
                   VFS_NOFOLLOW);
    }
  }
  for (size_t i = x->ndefer; i-- > 0;) {
    arc_defer *d = &x->defer[i];
    if (d->target)
      continue;
    vfs_chmod(c->vfs, "/", d->path, d->mode);
    vfs_utimes(c->vfs, "/", d->path, VFS_UTIME_OMIT, d->mtime_ns, 0);
  }
  for (size_t i = 0; i < x->ndefer; i++) {
    mem_free(c->m, x->defer[i].path);
    mem_free(c->m, x->defer[i].target);
  }
  mem_free(c->m, x->defer);
  x->defer = NULL;
  x->ndefer = x->cap = 0;
}
