/*
 * open.c - bi_open_read: a file operand as a read stream.
 *
 * Regular files become a stream over a read-only vfs handle whose take_all
 * hands out the vfs_file_data view (zero copy: a read-only handle keeps the
 * content it opened, so later writes elsewhere do not disturb the view).
 * "-", /dev/stdin and /dev/fd/0 are the command's stdin; /dev/fd/N above 2
 * is what the shell has open on N (a process substitution's pipe); the
 * /dev devices read as themselves (null empty, zero endless zeros).
 */
#include <errno.h>
#include <string.h>

#include "builtins/textutil.h"
#include "vfs/vfs.h"

/* /dev/urandom's bytes come from the sandbox random hook. */
static void ctx_random(void *ud, void *p, size_t n) {
  bi_ctx *c = ud;
  c->random(c, p, n);
}

stream *bi_open_fd(bi_ctx *c, const char *path) {
  if (!c->open_fd || strncmp(path, "/dev/fd/", 8) != 0)
    return NULL;
  const char *d = path + 8;
  int fd = 0;
  for (; *d >= '0' && *d <= '9' && fd < 1000; d++)
    fd = fd * 10 + (*d - '0');
  if (*d || d == path + 8 || fd <= 2)
    return NULL;
  return c->open_fd(c, fd);
}

stream *bi_open_read(bi_ctx *c, const char *path, int *err) {
  if (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdin") == 0 ||
      strcmp(path, "/dev/fd/0") == 0)
    return stream_ref(c->in);
  stream *fs = bi_open_fd(c, path);
  if (fs)
    return fs;
  if (!c->vfs) {
    *err = ENOENT;
    return NULL;
  }
  vfs_file *f;
  int rc = vfs_open(c->vfs, c->cwd, path, O_RDONLY, 0, &f);
  if (rc < 0) {
    *err = -rc;
    return NULL;
  }
  stream *s = NULL;
  switch (vfs_file_dev(f)) {
  case VFS_DEV_NONE:
    s = vfs_stream_new(c->m, c->bud, f, O_RDONLY);
    if (s)
      return s;
    break;
  case VFS_DEV_STDIN: /* reached through a symlink or another name */
    vfs_close(f);
    return stream_ref(c->in);
  case VFS_DEV_ZERO:
    s = stream_zero(c->m, c->bud);
    break;
  case VFS_DEV_URANDOM:
    s = c->random ? stream_random(c->m, c->bud, ctx_random, c)
                  : stream_zero(c->m, c->bud);
    break;
  default: /* null, stdout/stderr (nothing to read), host specials */
    s = stream_null(c->m, c->bud);
    break;
  }
  vfs_close(f);
  if (!s)
    *err = ENOMEM;
  return s;
}

/* ---- writing ----------------------------------------------------------- */

stream *tu_open_write(bi_ctx *c, const char *path, int append, int *err) {
  if (strcmp(path, "/dev/stdout") == 0 || strcmp(path, "/dev/fd/1") == 0)
    return stream_ref(c->out);
  if (strcmp(path, "/dev/stderr") == 0 || strcmp(path, "/dev/fd/2") == 0)
    return stream_ref(c->err);
  stream *fs = bi_open_fd(c, path);
  if (fs)
    return fs;
  if (!c->vfs) {
    *err = ENOENT;
    return NULL;
  }
  vfs_file *f;
  int rc =
      vfs_open(c->vfs, c->cwd, path,
               O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0666, &f);
  if (rc < 0) {
    *err = -rc;
    return NULL;
  }
  switch (vfs_file_dev(f)) {
  case VFS_DEV_STDOUT:
    vfs_close(f);
    return stream_ref(c->out);
  case VFS_DEV_STDERR:
    vfs_close(f);
    return stream_ref(c->err);
  default:
    break;
  }
  stream *s = vfs_stream_new(c->m, c->bud, f, O_WRONLY);
  if (!s) {
    vfs_close(f);
    *err = ENOMEM;
  }
  return s;
}
