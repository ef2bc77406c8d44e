/*
 * walk.c - pre-order walks of directory trees without recursion.
 *
 * Directories nest without bound: `mv` can hang a deep tree under another
 * deep tree, one level at a time, so a tree may be far deeper than any path
 * that names it. Every walk over whole trees therefore keeps its position on
 * the heap: one stack of map nodes holds the in-order position in each open
 * directory, and one frame per open directory remembers where its part of
 * that stack and of the path starts.
 */
#include <errno.h>
#include <string.h>

#include "vfs/internal.h"

void vwalk_init(vwalk *w, mem *m, buf *path) {
  memset(w, 0, sizeof *w);
  w->m = m;
  w->path = path;
}

void vwalk_free(vwalk *w) {
  mem_free(w->m, w->st);
  mem_free(w->m, w->fr);
  w->st = NULL;
  w->fr = NULL;
  w->sp = w->cap = w->nfr = w->capfr = 0;
}

static int push(vwalk *w, const dmap *d) {
  if (w->sp == w->cap) {
    size_t nc = w->cap ? w->cap * 2 : 64;
    const dmap **p = mem_realloc(w->m, w->st, nc * sizeof *p);
    if (!p)
      return -ENOMEM;
    w->st = p;
    w->cap = nc;
  }
  w->st[w->sp++] = d;
  return 0;
}

static int push_left(vwalk *w, const dmap *d) {
  for (; d; d = d->l)
    if (push(w, d))
      return -ENOMEM;
  return 0;
}

int vwalk_enter(vwalk *w, const vnode *dir) {
  if (w->nfr == w->capfr) {
    size_t nc = w->capfr ? w->capfr * 2 : 16;
    struct vwalk_fr *p = mem_realloc(w->m, w->fr, nc * sizeof *p);
    if (!p)
      return -ENOMEM;
    w->fr = p;
    w->capfr = nc;
  }
  w->fr[w->nfr].base = w->sp;
  w->fr[w->nfr].plen = w->path ? w->path->len : 0;
  w->nfr++;
  return push_left(w, dir->u.dir.map);
}

int vwalk_next(vwalk *w, const dmap **out) {
  while (w->nfr) {
    struct vwalk_fr *f = &w->fr[w->nfr - 1];
    if (w->sp == f->base) {
      w->nfr--; /* this directory is done */
      continue;
    }
    const dmap *d = w->st[--w->sp];
    if (push_left(w, d->r))
      return -ENOMEM;
    if (w->path) {
      w->path->len = f->plen;
      if ((f->plen && buf_putc(w->path, '/')) ||
          buf_append(w->path, d->key, d->klen))
        return -ENOMEM;
    }
    *out = d;
    return 1;
  }
  return 0;
}
