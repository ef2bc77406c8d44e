/*
 * fd.c - the fd table of a shell process: what a closed descriptor reads
 * and writes, installing a stream on a descriptor, and opening a path as a
 * stream the way redirections and builtins see it (files on the VFS,
 * /dev/null, /dev/zero, /dev/std*, /dev/fd/N).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shell/sh.h"

/* ---- a closed descriptor ----------------------------------------------------
 */

static long closed_read(stream *s, void *p, size_t n) {
  s->err = EBADF;
  return -1;
}
static long closed_write(stream *s, const void *p, size_t n) {
  s->err = EBADF;
  return -1;
}
static void closed_release(stream *s) {
  mem_free(s->m, s);
}
static const stream_ops closed_ops = {closed_read, closed_write, NULL,
                                      closed_release};

stream *sh_closed_stream(sh_exec *ex) {
  /* One per run, released with the run. */
  sh_run *r = ex->run;
  if (!r->closed) {
    stream *s = mem_calloc(ex->m, 1, sizeof *s);
    if (!s)
      return NULL;
    stream_init(s, &closed_ops, ex->m, &r->bud, STREAM_R | STREAM_W);
    r->closed = s;
  }
  return r->closed;
}

int sh_errno_msg(int err, const char **msg) {
  *msg = bi_strerror(err);
  return err;
}

void sh_set_fd(sh_exec *ex, int fd, stream *s) {
  if (fd < 0 || fd >= SH_NFD) {
    stream_unref(s);
    return;
  }
  stream_unref(ex->fd[fd]);
  ex->fd[fd] = s;
  if (s && fd >= ex->nfd)
    ex->nfd = fd + 1;
}

stream *sh_open_stream(sh_exec *ex, const char *path, int flags, int *err) {
  budget *bud = &ex->run->bud;
  if (strncmp(path, "/dev/", 5) == 0) {
    const char *d = path + 5;
    if (strcmp(d, "null") == 0)
      return stream_null(ex->m, bud);
    if (strcmp(d, "zero") == 0)
      return stream_zero(ex->m, bud);
    int fd = -1;
    if (strcmp(d, "stdin") == 0)
      fd = 0;
    else if (strcmp(d, "stdout") == 0)
      fd = 1;
    else if (strcmp(d, "stderr") == 0)
      fd = 2;
    else if (strncmp(d, "fd/", 3) == 0 && d[3]) {
      char *e;
      long k = strtol(d + 3, &e, 10);
      if (!*e && k >= 0 && k < SH_NFD && ex->fd[k])
        fd = (int)k;
    }
    if (fd >= 0) {
      if (!ex->fd[fd]) {
        *err = EBADF;
        return NULL;
      }
      return stream_ref(ex->fd[fd]);
    }
  }
  vfs_file *f;
  int rc = vfs_open(ex->run->v, ex->cwd, path, flags, 0666, &f);
  if (rc < 0) {
    *err = -rc;
    return NULL;
  }
  int dev = vfs_file_dev(f);
  if (dev != VFS_DEV_NONE) {
    vfs_close(f);
    switch (dev) {
    case VFS_DEV_ZERO:
      return stream_zero(ex->m, bud);
    case VFS_DEV_URANDOM: /* the sandbox's random hook, which outlives ex */
      return stream_random(ex->m, bud, ex->run->host->random, ex->run->host_ud);
    case VFS_DEV_STDIN:
      return ex->fd[0] ? stream_ref(ex->fd[0]) : stream_null(ex->m, bud);
    case VFS_DEV_STDOUT:
      return ex->fd[1] ? stream_ref(ex->fd[1]) : stream_null(ex->m, bud);
    case VFS_DEV_STDERR:
      return ex->fd[2] ? stream_ref(ex->fd[2]) : stream_null(ex->m, bud);
    default:
      return stream_null(ex->m, bud);
    }
  }
  stream *s = vfs_stream_new(ex->m, bud, f, flags);
  if (!s) {
    vfs_close(f);
    *err = ENOMEM;
  }
  return s;
}

int sh_read_text(sh_exec *ex, const char *path, char **text, size_t *len) {
  *text = NULL;
  *len = 0;
  if (strncmp(path, "/dev/fd/", 8) == 0) {
    char *e;
    long k = strtol(path + 8, &e, 10);
    if (path[8] && !*e && k > 2 && k < SH_NFD && ex->fd[k]) {
      buf b;
      buf_init(&b, ex->m);
      char chunk[4096];
      long n;
      size_t max = (size_t)ex->run->bud.lim.max_string_bytes;
      while ((n = stream_read(ex->fd[k], chunk, sizeof chunk)) > 0) {
        if (b.len + (size_t)n > max) {
          budget_set_stop(&ex->run->bud, BUDGET_STRING, max);
          n = -1;
          break;
        }
        if (buf_append(&b, chunk, (size_t)n))
          break;
      }
      if (n < 0 || buf_putc(&b, 0)) {
        int err = n < 0 ? ex->fd[k]->err : ENOMEM;
        buf_free(&b);
        return -(err ? err : EIO);
      }
      *len = b.len - 1;
      *text = b.data; /* the buffer's block, ours now */
      return 0;
    }
  }
  char *data;
  size_t n;
  int e = vfs_read_file(ex->run->v, ex->cwd, path, &data, &n);
  if (e)
    return e;
  *text = mem_alloc(ex->m, n + 1);
  if (*text) {
    memcpy(*text, data, n);
    (*text)[n] = 0;
    *len = n;
  }
  vfs_release(ex->run->v, data);
  return *text ? 0 : -ENOMEM;
}
