/*
 * which.c - debianutils which: search PATH (the command's environment) for
 * executable regular files in the VFS. The sandbox has /bin and /usr/bin
 * stubs for every command, so `which ls` answers /usr/bin/ls or /bin/ls by
 * the PATH order, as on the host. A name with a slash is checked as is.
 * Status: 0 all found, 1 some not found, 2 bad usage.
 */
#include <string.h>
#include <unistd.h>

#include "builtins/textutil.h"
#include "vfs/vfs.h"

const char bi_usage_which[] = "Usage: which [-a] args";
const char bi_help_which[] = "";

static int executable(bi_ctx *c, const char *path) {
  vfs_stat_t st;
  if (!c->vfs || vfs_stat(c->vfs, c->cwd, path, &st))
    return 0;
  return st.type == VFS_REG && vfs_access(c->vfs, c->cwd, path, X_OK) == 0;
}

int bi_which(bi_ctx *c) {
  int all = 0, i = 1;
  /* debianutils parses options by hand: -a only, up to "--". */
  for (; i < c->argc; i++) {
    const char *a = c->argv[i];
    if (a[0] != '-' || !a[1])
      break;
    if (!strcmp(a, "--")) {
      i++;
      break;
    }
    for (const char *p = a + 1; *p; p++) {
      if (*p == 'a') {
        all = 1;
        continue;
      }
      stream_printf(c->err, "Illegal option -%c\n", *p);
      stream_printf(c->err, "%s\n", bi_usage_which);
      return 2;
    }
  }
  if (i == c->argc) {
    stream_printf(c->err, "%s\n", bi_usage_which);
    return 1;
  }
  const char *path = c->getenv ? c->getenv(c, "PATH") : NULL;
  if (!path)
    path = "/usr/local/bin:/usr/bin:/bin";
  writer w;
  wr_init(&w, c->out);
  buf cand;
  buf_init(&cand, c->m);
  int status = 0;
  for (; i < c->argc; i++) {
    const char *name = c->argv[i];
    int found = 0;
    if (strchr(name, '/')) {
      if (executable(c, name)) {
        wr_printf(&w, "%s\n", name);
        found = 1;
      }
    } else {
      const char *p = path;
      for (;;) {
        const char *e = strchr(p, ':');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        buf_clear(&cand);
        /* An empty PATH entry is the current directory. */
        if (l)
          buf_append(&cand, p, l);
        else
          buf_putc(&cand, '.');
        buf_putc(&cand, '/');
        buf_puts(&cand, name);
        if (executable(c, buf_cstr(&cand))) {
          wr_printf(&w, "%s\n", buf_cstr(&cand));
          found = 1;
          if (!all)
            break;
        }
        if (!e)
          break;
        p = e + 1;
      }
    }
    if (!found)
      status = 1;
  }
  buf_free(&cand);
  if (wr_flush(&w))
    return bi_stream_status(w.err);
  return status;
}
