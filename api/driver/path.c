/*
 * path.c - the helpers above the driver: lexical path resolution and
 * write-with-parents, plus the error and environment helpers the drivers
 * share.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/driver/drv.h"

/* ---------------------------------------------------------------- errors */

int drv_fail(vsh_drv_err *err, vsh_drv_error kind, int code, const char *fmt,
             ...) {
  if (!err)
    return -1;
  err->kind = kind;
  err->code = code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return -1;
}

void drv_err_clear(vsh_drv_err *err) {
  if (!err)
    return;
  err->kind = VSH_DRV_OK;
  err->code = 0;
  err->message[0] = 0;
}

/* Names and descriptions as libuv (hence Node) prints them. Only codes a
 * file or process operation can plausibly produce are listed; others fall
 * back to strerror, which is still factual. */
static const struct {
  int code;
  const char *name, *desc;
} errnames[] = {
    {ENOENT, "ENOENT", "no such file or directory"},
    {EISDIR, "EISDIR", "illegal operation on a directory"},
    {ENOTDIR, "ENOTDIR", "not a directory"},
    {EEXIST, "EEXIST", "file already exists"},
    {ENOTEMPTY, "ENOTEMPTY", "directory not empty"},
    {EACCES, "EACCES", "permission denied"},
    {EPERM, "EPERM", "operation not permitted"},
    {ELOOP, "ELOOP", "too many symbolic links encountered"},
    {ENAMETOOLONG, "ENAMETOOLONG", "name too long"},
    {ENOSPC, "ENOSPC", "no space left on device"},
    {EROFS, "EROFS", "read-only file system"},
    {EINVAL, "EINVAL", "invalid argument"},
    {EBUSY, "EBUSY", "resource busy or locked"},
    {EXDEV, "EXDEV", "cross-device link not permitted"},
    {EFBIG, "EFBIG", "file too large"},
    {ENOMEM, "ENOMEM", "not enough memory"},
    {EIO, "EIO", "i/o error"},
    {EMFILE, "EMFILE", "too many open files"},
    {ENOBUFS, "ENOBUFS", "no buffer space available"},
    {EDQUOT, "EDQUOT", "disk quota exceeded"},
    {ETIMEDOUT, "ETIMEDOUT", "connection timed out"},
    {ENOSYS, "ENOSYS", "function not implemented"},
    {ENOTSUP, "ENOTSUP", "operation not supported"},
    {ECANCELED, "ECANCELED", "operation canceled"},
};

const char *drv_errno_name(int code) {
  for (size_t i = 0; i < sizeof errnames / sizeof *errnames; i++)
    if (errnames[i].code == code)
      return errnames[i].name;
  return "EIO";
}

const char *drv_errno_desc(int code) {
  for (size_t i = 0; i < sizeof errnames / sizeof *errnames; i++)
    if (errnames[i].code == code)
      return errnames[i].desc;
  return strerror(code);
}

int drv_fail_errno(vsh_drv_err *err, int code, const char *syscall,
                   const char *path) {
  if (code == 0)
    code = EIO; /* never report an error with "success" */
  return drv_fail(err, VSH_DRV_ERRNO, code, "%s: %s, %s '%s'",
                  drv_errno_name(code), drv_errno_desc(code), syscall,
                  path ? path : "");
}

int drv_fail_rm_isdir(vsh_drv_err *err, const char *path) {
  return drv_fail(err, VSH_DRV_ERRNO, EISDIR,
                  "EISDIR: is a directory, rm '%s' (pass recursive to remove "
                  "a directory)",
                  path);
}

int drv_fail_rm_root(vsh_drv_err *err, const char *path) {
  return drv_fail(err, VSH_DRV_ERRNO, EBUSY,
                  "EBUSY: resource busy or locked, rm '%s' (the root of the "
                  "sandbox cannot be removed)",
                  path);
}

int drv_fail_empty(vsh_drv_err *err, const char *syscall) {
  return drv_fail_errno(err, ENOENT, syscall, "");
}

int drv_fail_abort(vsh_drv_err *err) {
  return drv_fail(err, VSH_DRV_ABORT, ECANCELED,
                  "AbortError: the operation was aborted");
}

/* ------------------------------------------------------------------- env */

size_t drv_env_keylen(const char *kv) {
  const char *eq = strchr(kv, '=');
  return eq ? (size_t)(eq - kv) : strlen(kv);
}

int drv_env_is_unset(const char *kv) {
  const char *eq = strchr(kv, '=');
  return eq && strcmp(eq + 1, "unset") == 0;
}

int drv_is_ident(const char *s, size_t n) {
  if (n == 0)
    return 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    int ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
             (i > 0 && c >= '0' && c <= '9');
    if (!ok)
      return 0;
  }
  return 1;
}

int drv_result_append_err(vsh_result *res, const char *note) {
  size_t n = strlen(note);
  /* Keep the note on a line of its own. */
  int nl = res->err_len > 0 && res->err[res->err_len - 1] != '\n';
  char *p = realloc(res->err, res->err_len + nl + n + 2);
  if (!p)
    return -1;
  if (nl)
    p[res->err_len++] = '\n';
  memcpy(p + res->err_len, note, n);
  res->err_len += n;
  p[res->err_len++] = '\n';
  p[res->err_len] = 0;
  res->err = p;
  return 0;
}

int drv_result_timeout_note(vsh_result *res, int64_t ms) {
  char note[80];
  snprintf(note, sizeof note, "vsh: timeout: deadline of %lld ms exceeded",
           (long long)ms);
  return drv_result_append_err(res, note);
}

/* ------------------------------------------------------------ resolution */

/* Append the segments of p to out (which holds an absolute, normalised path
 * of length *len), applying `.`, `..` and empty segments lexically. `..`
 * at the root stays at the root, as the kernel does for "/..". */
static void push_segments(char *out, size_t *len, const char *p) {
  while (*p) {
    while (*p == '/')
      p++;
    const char *s = p;
    while (*p && *p != '/')
      p++;
    size_t n = (size_t)(p - s);
    if (n == 0 || (n == 1 && s[0] == '.'))
      continue;
    if (n == 2 && s[0] == '.' && s[1] == '.') {
      while (*len > 1 && out[*len - 1] != '/')
        (*len)--;
      if (*len > 1)
        (*len)--; /* the separator before the dropped segment */
      out[*len] = 0;
      continue;
    }
    if (*len > 1)
      out[(*len)++] = '/';
    memcpy(out + *len, s, n);
    *len += n;
    out[*len] = 0;
  }
}

char *vsh_resolve_path(const char *cwd, const char *p) {
  if (!p)
    return NULL;
  if (!cwd || !*cwd)
    cwd = "/";
  /* Each segment costs its bytes plus one separator, so the result fits in
   * "/" + cwd + "/" + p + "/" and the NUL. */
  size_t cap = strlen(cwd) + strlen(p) + 4;
  char *out = malloc(cap);
  if (!out)
    return NULL;
  size_t len = 1;
  out[0] = '/';
  out[1] = 0;
  if (p[0] != '/')
    push_segments(out, &len, cwd); /* a relative cwd counts from "/" */
  push_segments(out, &len, p);
  return out;
}

/* -------------------------------------------------------------- mkdir -p */

/* One level of mkdir -p: 0 when abs (cut at this level) is a directory
 * afterwards, or an errno value. last: whether this is the final level. */
static int mkdir_level(char *abs, int last, const drv_mkdir_ops *ops,
                       void *ctx) {
  int k = ops->kind(ctx, abs);
  if (k == -ENOENT) {
    if (ops->lexists(ctx, abs))
      return ENOENT; /* a dangling link: Node's stat of it says ENOENT */
    int r = ops->mkdir_one(ctx, abs);
    if (r != -EEXIST)
      return -r;
    k = ops->kind(ctx, abs); /* created meanwhile: look again */
  }
  if (k == 1)
    return 0;
  if (k == 0)
    return last ? EEXIST : ENOTDIR;
  return -k;
}

int drv_mkdir_p(char *abs, const drv_mkdir_ops *ops, void *ctx) {
  if (ops->kind(ctx, abs) == 1)
    return 0; /* the common case: nothing to do */
  /* Top-down: every prefix must be (or become) a directory. "/" always
   * is one. */
  for (char *p = abs + 1;; p++) {
    if (*p != '/' && *p != 0)
      continue;
    char c = *p;
    *p = 0;
    int rc = p > abs + 1 ? mkdir_level(abs, c == 0, ops, ctx) : 0;
    *p = c;
    if (rc || c == 0)
      return rc;
  }
}

/* -------------------------------------------------------- write+parents */

int vsh_drv_write_with_parents(vsh_driver *d, const char *path,
                               const void *data, size_t len, vsh_drv_err *err) {
  vsh_drv_err local;
  if (!err)
    err = &local;
  if (!d || !path)
    return drv_fail(err, VSH_DRV_ERRNO, EINVAL,
                    "EINVAL: invalid argument, open '%s'", path ? path : "");
  if (d->write_file(d, path, data, len, err) == 0)
    return 0;
  if (err->kind != VSH_DRV_ERRNO || err->code != ENOENT)
    return -1;
  /* The parent as the driver will resolve it: an absolute path
   * normalised, a relative one cut at its last '/' (the driver resolves it
   * against its own cwd, as it does the file's path). */
  char *abs = path[0] == '/' ? vsh_resolve_path("/", path) : strdup(path);
  if (!abs)
    return drv_fail(err, VSH_DRV_ERRNO, ENOMEM,
                    "ENOMEM: not enough memory, open '%s'", path);
  size_t n = strlen(abs);
  while (n > 1 && abs[n - 1] == '/')
    abs[--n] = 0;
  char *slash = strrchr(abs, '/');
  if (!slash || slash == abs) {
    /* The parent is "/" or the cwd, which exist: the ENOENT stands. */
    free(abs);
    return -1;
  }
  *slash = 0;
  int rc = d->mkdir(d, abs, 1, err);
  free(abs);
  if (rc != 0)
    return -1;
  drv_err_clear(err);
  return d->write_file(d, path, data, len, err);
}

int drv_exec_begin(const char *command, const vsh_drv_exec_opts **o,
                   const vsh_drv_exec_opts *none, vsh_result *res,
                   vsh_drv_err *err) {
  memset(res, 0, sizeof *res);
  drv_err_clear(err);
  if (!*o)
    *o = none;
  if (!command)
    return drv_fail(err, VSH_DRV_ERRNO, EINVAL,
                    "EINVAL: invalid argument, exec (no command)");
  if ((*o)->signal && vsh_cancel_is_set((*o)->signal))
    return drv_fail_abort(err);
  return 0;
}
