/*
 * stream.c - an open VFS file as a core stream: what redirections hand to
 * commands and what builtins read file operands through. A read-only
 * stream offers the zero-copy take_all view (a read-only handle keeps the
 * content it opened, so later writes elsewhere do not disturb it); one that
 * may write does not, since the content may change under it.
 */
#include <errno.h>

#include "vfs/vfs.h"

typedef struct fstream {
  stream s;
  vfs_file *f;
  uint64_t max_size; /* a write may not grow the file past it */
  int append;
} fstream;

static long fs_read(stream *s, void *p, size_t n) {
  long k = vfs_read(((fstream *)s)->f, p, n);
  if (k < 0) {
    s->err = (int)-k;
    return -1;
  }
  return k;
}

static long fs_write(stream *s, const void *p, size_t n) {
  fstream *fs = (fstream *)s;
  if (fs->max_size != UINT64_MAX) {
    size_t len = 0;
    int64_t at;
    if (fs->append) {
      vfs_file_data(fs->f, &len);
      at = (int64_t)len;
    } else {
      at = vfs_seek(fs->f, 0, SEEK_CUR);
    }
    uint64_t room = at < 0 || (uint64_t)at >= fs->max_size
                        ? 0
                        : fs->max_size - (uint64_t)at;
    if (room < n) {
      /* as write(2) under RLIMIT_FSIZE: what fits, then EFBIG */
      if (room == 0) {
        s->err = EFBIG;
        return -1;
      }
      n = (size_t)room;
    }
  }
  long k = vfs_write(fs->f, p, n);
  if (k < 0) {
    s->err = (int)-k;
    return -1;
  }
  return k;
}

static int fs_take_all(stream *s, const char **p, size_t *n) {
  if (s->flags & STREAM_W)
    return -1;
  vfs_file *f = ((fstream *)s)->f;
  size_t len = 0;
  const char *d = vfs_file_data(f, &len);
  int64_t pos = vfs_seek(f, 0, SEEK_CUR);
  if (pos < 0)
    return -1;
  if ((uint64_t)pos > len)
    pos = (int64_t)len;
  *p = d ? d + pos : "";
  *n = len - (size_t)pos;
  vfs_seek(f, 0, SEEK_END);
  return 0;
}

static void fs_release(stream *s) {
  vfs_close(((fstream *)s)->f);
  mem_free(s->m, s);
}

static const stream_ops fs_ops = {fs_read, fs_write, fs_take_all, fs_release};

stream *vfs_stream_new(mem *m, budget *bud, vfs_file *f, int oflags) {
  fstream *s = mem_calloc(m, 1, sizeof *s);
  if (!s)
    return NULL;
  s->f = f;
  s->max_size = UINT64_MAX;
  s->append = (oflags & O_APPEND) != 0;
  unsigned sf = 0;
  int acc = oflags & O_ACCMODE;
  if (acc == O_RDONLY || acc == O_RDWR)
    sf |= STREAM_R;
  if (acc == O_WRONLY || acc == O_RDWR)
    sf |= STREAM_W;
  stream_init(&s->s, &fs_ops, m, bud, sf);
  return &s->s;
}

void vfs_stream_max_size(stream *s, uint64_t max) {
  if (s && s->ops == &fs_ops)
    ((fstream *)s)->max_size = max;
}
