/* util.c - shared helpers for builtins: messages, help, paths. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "builtins/builtin.h"
#include "builtins/fileutil.h"

int bi_error(bi_ctx *c, const char *fmt, ...) {
  /* Formatted on the stack when it fits: the message that says memory is
   * exhausted must not need memory. */
  char tmp[512];
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  int k = snprintf(tmp, sizeof tmp, "%s: ", c->argv[0]);
  int n = k >= 0 && (size_t)k < sizeof tmp
              ? vsnprintf(tmp + k, sizeof tmp - (size_t)k, fmt, ap)
              : -1;
  if (n >= 0 && (size_t)k + (size_t)n + 1 < sizeof tmp) {
    tmp[k + n] = '\n';
    stream_write(c->err, tmp, (size_t)k + (size_t)n + 1);
  } else {
    buf b;
    buf_init(&b, c->m);
    buf_puts(&b, c->argv[0]);
    buf_puts(&b, ": ");
    buf_vprintf(&b, fmt, again);
    buf_putc(&b, '\n');
    if (!b.oom)
      stream_write(c->err, b.data, b.len);
    buf_free(&b);
  }
  va_end(again);
  va_end(ap);
  return -1;
}

const char *bi_strerror(int err) {
  switch (err) {
  case ENOENT:
    return "No such file or directory";
  case ENOTDIR:
    return "Not a directory";
  case EISDIR:
    return "Is a directory";
  case EEXIST:
    return "File exists";
  case ENOTEMPTY:
    return "Directory not empty";
  case EACCES:
    return "Permission denied";
  case EPERM:
    return "Operation not permitted";
  case ELOOP:
    return "Too many levels of symbolic links";
  case ENAMETOOLONG:
    return "File name too long";
  case ENOSPC:
    return "No space left on device";
  case EINVAL:
    return "Invalid argument";
  case EXDEV:
    return "Invalid cross-device link";
  case ENOMEM:
    return "Cannot allocate memory";
  case EBADF:
    return "Bad file descriptor";
  case EPIPE:
    return "Broken pipe";
  case EBUSY:
    return "Device or resource busy";
  case EROFS:
    return "Read-only file system";
  case EFBIG:
    return "File too large";
  case ECANCELED:
    return "Operation canceled";
  case EIO:
    return "Input/output error";
  case ENOTSUP:
    return "Operation not supported";
  case ERANGE:
    return "Numerical result out of range";
  case E2BIG:
    return "Argument list too long";
  default:
    return strerror(err);
  }
}

int bi_print_help(bi_ctx *c) {
  const bi_def *d = bi_lookup(c->argv[0]);
  if (!d)
    return 0;
  stream_puts(c->out, d->usage);
  stream_puts(c->out, "\n");
  stream_puts(c->out, d->help);
  return 0;
}

void bi_try_help(bi_ctx *c) {
  stream_printf(c->err, "Try '%s --help' for more information.\n", c->argv[0]);
}

int bi_missing_operand(bi_ctx *c) {
  bi_error(c, "missing operand");
  bi_try_help(c);
  return 1;
}

int bi_print_version(bi_ctx *c) {
  /* The tool set a command follows and its version, as the real one's
   * first line names them. "GNU coreutils" stays in the line of the
   * coreutils: scripts grep for it to pick GNU option syntax. */
  static const struct {
    const char *name, *line;
  } others[] = {
      {"strings", "GNU Binutils compatible; vsh) 2.40"},
      {"tree", "tree compatible; vsh) v2.1.0"},
      {"hexdump", "util-linux compatible; vsh) 2.38.1"},
      {"hd", "util-linux compatible; vsh) 2.38.1"},
      {"getconf", "GNU libc compatible; vsh) 2.36"},
  };
  const char *line = "GNU coreutils compatible; vsh) 9.1";
  for (size_t i = 0; i < sizeof others / sizeof *others; i++)
    if (strcmp(c->argv[0], others[i].name) == 0)
      line = others[i].line;
  stream_printf(c->out, "%s (%s\n", c->argv[0], line);
  return 0;
}

void bi_inputs_init(bi_inputs *in, bi_ctx *c, char **names, int n) {
  static char *dash[] = {"-", NULL};
  in->c = c;
  in->names = n ? names : dash;
  in->n = n ? n : 1;
  in->i = 0;
  in->status = 0;
  in->name = NULL;
}

stream *bi_inputs_next(bi_inputs *in) {
  while (in->i < in->n) {
    const char *name = in->names[in->i++];
    int err = 0;
    stream *s = bi_open_read(in->c, name, &err);
    if (s) {
      in->name = name;
      return s;
    }
    bi_error(in->c, "%s: %s", fu_quotef(in->c, name), bi_strerror(err));
    in->status = 1;
  }
  return NULL;
}

int bi_stream_status(int err) {
  return err == EPIPE ? 141 : 1;
}

const char *bi_path(bi_ctx *c, const char *p) {
  if (p[0] == '/')
    return p;
  size_t cl = strlen(c->cwd), pl = strlen(p);
  char *r = arena_alloc(c->scratch, cl + pl + 2);
  if (!r)
    return p;
  memcpy(r, c->cwd, cl);
  size_t k = cl;
  if (k == 0 || r[k - 1] != '/')
    r[k++] = '/';
  memcpy(r + k, p, pl + 1);
  return r;
}
