/*
 * tar_extract.c - hydrate's second half: the destination checked against
 * the (sorted, validated) members, then the members written through the
 * batch importer (import.c), which keeps the chain of directories of the
 * last member placed: a member of the same or a nearby directory costs one
 * insertion, not a resolution from the root. Contents are copied once: a
 * member read from a stream already holds its own blob, which becomes the
 * file's; one in the caller's buffer is copied into the file.
 *
 * What the importer leaves alone (a host layer's directory on the way, a
 * directory where a file goes) takes the general calls, as a script's own
 * would, with the same result.
 */
#include <errno.h>
#include <string.h>

#include "vfs/tar.h"

/* ---- the destination ---- */

typedef struct dlevel {
  size_t end; /* the directory is path[0..end) of the last member seen */
  vnode *dir;
} dlevel;

/* No member may pass through an existing symlink or non-directory, or swap
 * a directory for a non-directory. A read-only walk that keeps the chain of
 * directories of the previous member (members are sorted by path, so
 * neighbours share most of it). */
static int check_dest(hctx *h, vnode *top) {
  vfs *v = h->v;
  mem *m = v->m;
  dlevel *st = NULL;
  size_t depth = 0, cap = 0;
  const char *prev = "";
  int rc = 0;
  for (size_t i = 0; i < h->n && !rc; i++) {
    const member *mb = &h->ms[i];
    const char *path = mb->path;
    size_t plen = strlen(path);
    if (!plen)
      continue;
    /* the deepest level that is a directory above this member too */
    while (depth > 0) {
      size_t e = st[depth - 1].end;
      if (e < plen && path[e] == '/' && !memcmp(prev, path, e))
        break;
      depth--;
    }
    prev = path;
    vnode *d = depth ? st[depth - 1].dir : top;
    size_t at = depth ? st[depth - 1].end + 1 : 0;
    for (;;) {
      size_t e = at;
      while (e < plen && path[e] != '/')
        e++;
      if (atomic_load_explicit(&d->lazy, memory_order_acquire) == VN_LAZY_DIR &&
          vfs_host_load_dir(d) == -ENOMEM) {
        rc = -ENOMEM;
        break;
      }
      vnode *x = vfs_deref(v->links, dmap_get(d->u.dir.map, path + at, e - at));
      if (!x)
        break; /* nothing below exists either */
      if (e < plen) {
        if (x->type == VFS_LNK)
          rc = tar_reject(h, path, "would follow an existing symlink");
        else if (x->type != VFS_DIR)
          rc = tar_reject(h, path, "under an existing non-directory");
        if (rc)
          break;
        if (depth == cap) {
          size_t nc = cap ? cap * 2 : 16;
          dlevel *ns = mem_realloc(m, st, nc * sizeof *ns);
          if (!ns) {
            rc = -ENOMEM;
            break;
          }
          st = ns;
          cap = nc;
        }
        st[depth++] = (dlevel){e, x};
        d = x;
        at = e + 1;
        continue;
      }
      if (x->type == VFS_DIR && mb->type != M_DIR)
        rc = tar_reject(h, path, "would replace an existing directory");
      else if (x->type != VFS_DIR && mb->type == M_DIR)
        rc = tar_reject(h, path, "directory over an existing non-directory");
      break;
    }
  }
  mem_free(m, st);
  return rc;
}

/* ---- the general calls, for what the importer leaves alone ---- */

/* Parents the archive does not list are made as GNU tar makes them. */
static int make_parents(vfs *v, const char *base, const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return 0;
  char *dir = mem_strndup(v->m, path, (size_t)(slash - path));
  if (!dir)
    return -ENOMEM;
  int rc = vfs_mkdir_p(v, base, dir, 0777);
  mem_free(v->m, dir);
  return rc;
}

/* A member by the general calls (what hydrate did for each before the
 * importer): data is a file member's content. */
static int general(vfs *v, const char *base, const member *m,
                   const char *data) {
  const char *p = *m->path ? m->path : ".";
  int rc = make_parents(v, base, m->path);
  if (rc)
    return rc;
  vfs_stat_t st;
  bool exists = vfs_lstat(v, base, p, &st) == 0;
  if (m->type == M_DIR)
    return exists ? 0 : vfs_mkdir(v, base, p, 0700);
  if (exists && st.type != VFS_DIR && (rc = vfs_unlink(v, base, p)))
    return rc; /* never write through a symlink */
  if (m->type == M_FILE) {
    rc = vfs_write_file(v, base, p, data, (size_t)m->size, 0600);
    if (!rc)
      rc = vfs_chmod(v, base, p, m->mode);
  } else if (m->type == M_HARD) {
    return vfs_link(v, base, m->link, p); /* mode and time: the inode's */
  } else {
    rc = vfs_symlink(v, base, m->link, p);
  }
  if (!rc)
    rc = vfs_utimes(v, base, p, m->mtime, m->mtime, VFS_NOFOLLOW);
  return rc;
}

static int general_dir_attrs(vfs *v, const char *base, const member *m) {
  const char *p = *m->path ? m->path : ".";
  int rc = vfs_chmod(v, base, p, m->mode);
  if (!rc)
    rc = vfs_utimes(v, base, p, m->mtime, m->mtime, 0);
  return rc;
}

/* ---- through the importer ---- */

typedef struct xctx {
  vfs *v;
  vfs_import *im;
  const char *base;
  unsigned mid, pmode; /* modes of missing parents (see make_parents) */
} xctx;

static int one_general(xctx *x, const member *m, const char *data) {
  vfs_import_forget(x->im);
  return general(x->v, x->base, m, data);
}

/* A file or symlink member (n made for it, consumed). */
static int place(xctx *x, member *m, vnode *n) {
  n->atime = n->mtime = m->mtime;
  int rc = vfs_import_node(x->im, m->path, x->mid, x->pmode, n);
  if (rc != 1)
    return rc;
  rc =
      one_general(x, m, n->type == VFS_REG && n->u.data ? n->u.data->data : "");
  vnode_unref(n);
  return rc;
}

static int file_member(xctx *x, member *m) {
  vfs *v = x->v;
  blob *b = m->b;
  m->b = NULL; /* the file's from here on */
  if (!b && m->size && !m->data)
    return -ENOSPC; /* not kept: over the quota */
  if (!b && m->size &&
      !(b = blob_new(v->m, m->data, (size_t)m->size, (size_t)m->size)))
    return -ENOMEM;
  vnode *n = vnode_new(v, VFS_REG, m->mode);
  if (!n) {
    blob_unref(b);
    return -ENOMEM;
  }
  n->u.data = b;
  n->size = m->size;
  return place(x, m, n);
}

static int symlink_member(xctx *x, member *m) {
  vnode *n = vnode_new(x->v, VFS_LNK, 0777);
  size_t tl = strlen(m->link);
  char *t = n ? mem_strndup(x->v->m, m->link, tl) : NULL;
  if (!t) {
    vnode_unref(n);
    return -ENOMEM;
  }
  n->u.lnk.target = t;
  n->u.lnk.len = tl;
  return place(x, m, n);
}

/* A directory member made when missing (pass 0), or given its mode and
 * times (last, once everything below it is written). */
static int dir_member(xctx *x, member *m, bool attrs) {
  if (!*m->path) /* the destination itself */
    return attrs ? general_dir_attrs(x->v, x->base, m) : 0;
  vnode *d = NULL;
  int rc = vfs_import_dir_at(x->im, m->path, x->mid, x->pmode,
                             0700 & ~x->v->umask, &d);
  if (rc == 1) {
    vfs_import_forget(x->im);
    return attrs ? general_dir_attrs(x->v, x->base, m)
                 : general(x->v, x->base, m, NULL);
  }
  if (!rc && attrs) {
    d->mode = m->mode & 07777;
    d->atime = d->mtime = m->mtime;
    d->ctime = vfs_clock(x->v);
  }
  return rc;
}

static int extract(xctx *x, hctx *h) {
  int rc = 0;
  /* directories and files in path order (parents first), then hard links
   * (their targets exist by then), symlinks last */
  for (size_t i = 0; i < h->n && !rc; i++) {
    member *m = &h->ms[i];
    if (m->type == M_DIR)
      rc = dir_member(x, m, false);
    else if (m->type == M_FILE)
      rc = file_member(x, m);
  }
  for (size_t i = 0; i < h->n && !rc; i++)
    if (h->ms[i].type == M_HARD)
      rc = one_general(x, &h->ms[i], NULL);
  for (size_t i = 0; i < h->n && !rc; i++)
    if (h->ms[i].type == M_LINK)
      rc = symlink_member(x, &h->ms[i]);
  /* directory modes and times last: creating entries touched them */
  for (size_t i = 0; i < h->n && !rc; i++)
    if (h->ms[i].type == M_DIR)
      rc = dir_member(x, &h->ms[i], true);
  return rc;
}

int tar_extract(hctx *h, const char *cwd, const char *dir) {
  vfs *v = h->v;
  v->priv++;
  vfs_import *im = NULL;
  int rc = vfs_import_begin(v, cwd, dir, &im);
  xctx x = {v, im, im ? vfs_import_base(im) : "/", 0, 0};
  x.pmode = 0777 & ~v->umask;
  x.mid = x.pmode | 0300;
  vres r;
  if (!rc && !(rc = vfs_resolve(v, "/", x.base, R_FOLLOW, &r))) {
    rc = r.node->type == VFS_DIR ? check_dest(h, r.node) : -ENOTDIR;
    vres_free(v, &r);
  }
  /* quota before writing: a too-big archive fails without partial files */
  if (!rc &&
      (v->bytes + h->total > v->max_bytes || v->inodes + h->n > v->max_inodes))
    rc = -ENOSPC;
  if (!rc)
    rc = extract(&x, h);
  vfs_import_end(im);
  v->priv--;
  return rc;
}
