/*
 * api_files.c - the public file API: thin wrappers over vfs.h, resolving
 * relative paths against the sandbox cwd, with the error kept on the
 * handle. Returned buffers are malloc'd (vsh_free).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api/sandbox.h"

/* The embedder owns its sandbox: file calls from the host are not subject
 * to the script user's permissions (new files still belong to that user). */
static void fs_lock(vsh_sandbox *sb) {
  api_lock(sb);
  vfs_privileged_enter(sb->v);
}

static void fs_unlock(vsh_sandbox *sb) {
  vfs_privileged_leave(sb->v);
  api_unlock(sb);
}

/* The usual end of a file call: unlock, then the status of rc (an error
 * recorded on the handle, naming the operation and the path). */
static vsh_status fs_done(vsh_sandbox *sb, int rc, const char *what,
                          const char *path) {
  fs_unlock(sb);
  return api_fs_fail(sb, rc, what, path);
}

/* The end of a call that hands out a string the VFS allocated (t, n
 * bytes): a malloc'd copy in *out, then t released and the lock dropped. */
static vsh_status fs_string_out(vsh_sandbox *sb, int rc, char *t, size_t n,
                                char **out, const char *what,
                                const char *path) {
  if (rc == 0) {
    *out = api_strdup_out(t, n);
    vfs_release(sb->v, t);
  }
  fs_unlock(sb);
  if (rc)
    return api_fs_fail(sb, rc, what, path);
  return *out ? VSH_OK : api_fail(sb, VSH_NOMEM, ENOMEM, "out of memory");
}

#define CHECK(sb, p)                                                           \
  do {                                                                         \
    if (!(sb) || !(p))                                                         \
      return api_fail((sb), VSH_MISUSE, EINVAL, "invalid argument");           \
  } while (0)

vsh_status vsh_read_file(vsh_sandbox *sb, const char *path, char **data,
                         size_t *len) {
  CHECK(sb, path);
  if (!data)
    return VSH_MISUSE;
  fs_lock(sb);
  char *d = NULL;
  size_t n = 0;
  int rc = vfs_read_file(sb->v, sb->cwd, path, &d, &n);
  if (rc == 0) {
    *data = api_strdup_out(d, n);
    vfs_release(sb->v, d);
    if (len)
      *len = n;
    fs_unlock(sb);
    if (!*data)
      return api_fail(sb, VSH_NOMEM, ENOMEM, "out of memory");
    return VSH_OK;
  }
  fs_unlock(sb);
  return api_fs_fail(sb, rc, "read", path);
}

vsh_status vsh_write_file(vsh_sandbox *sb, const char *path, const void *data,
                          size_t len, unsigned mode) {
  CHECK(sb, path);
  fs_lock(sb);
  return fs_done(
      sb, vfs_write_file(sb->v, sb->cwd, path, data ? data : "", len, mode),
      "write", path);
}

vsh_status vsh_append_file(vsh_sandbox *sb, const char *path, const void *data,
                           size_t len) {
  CHECK(sb, path);
  fs_lock(sb);
  return fs_done(sb,
                 vfs_append_file(sb->v, sb->cwd, path, data ? data : "", len),
                 "append", path);
}

static vsh_status do_stat(vsh_sandbox *sb, const char *path, vsh_stat *st,
                          int follow) {
  CHECK(sb, path);
  if (!st)
    return VSH_MISUSE;
  fs_lock(sb);
  vfs_stat_t vs;
  int rc = follow ? vfs_stat(sb->v, sb->cwd, path, &vs)
                  : vfs_lstat(sb->v, sb->cwd, path, &vs);
  fs_unlock(sb);
  if (rc)
    return api_fs_fail(sb, rc, "stat", path);
  vfs_to_vsh_stat(&vs, st);
  return VSH_OK;
}

vsh_status vsh_stat_path(vsh_sandbox *sb, const char *path, vsh_stat *st) {
  return do_stat(sb, path, st, 1);
}

vsh_status vsh_lstat_path(vsh_sandbox *sb, const char *path, vsh_stat *st) {
  return do_stat(sb, path, st, 0);
}

vsh_status vsh_readdir(vsh_sandbox *sb, const char *path, char ***names,
                       size_t *n) {
  CHECK(sb, path);
  if (!names || !n)
    return VSH_MISUSE;
  fs_lock(sb);
  char **vn = NULL;
  size_t k = 0;
  int rc = vfs_readdir(sb->v, sb->cwd, path, &vn, &k);
  if (rc) {
    fs_unlock(sb);
    return api_fs_fail(sb, rc, "readdir", path);
  }
  char **out = calloc(k + 1, sizeof *out);
  int bad = !out;
  for (size_t i = 0; !bad && i < k; i++) {
    out[i] = api_strdup_out(vn[i], strlen(vn[i]));
    if (!out[i])
      bad = 1;
  }
  vfs_free_names(sb->v, vn, k);
  fs_unlock(sb);
  if (bad) {
    vsh_free_names(sb, out, k);
    return api_fail(sb, VSH_NOMEM, ENOMEM, "out of memory");
  }
  *names = out;
  *n = k;
  return VSH_OK;
}

void vsh_free_names(vsh_sandbox *sb, char **names, size_t n) {
  (void)sb;
  if (!names)
    return;
  for (size_t i = 0; i < n; i++)
    free(names[i]);
  free(names);
}

int vsh_exists(vsh_sandbox *sb, const char *path) {
  if (!sb || !path)
    return 0;
  fs_lock(sb);
  int r = vfs_exists(sb->v, sb->cwd, path);
  fs_unlock(sb);
  return r;
}

vsh_status vsh_mkdir(vsh_sandbox *sb, const char *path, unsigned flags) {
  CHECK(sb, path);
  fs_lock(sb);
  return fs_done(sb, vfs_vsh_mkdir(sb->v, sb->cwd, path, flags), "mkdir", path);
}

vsh_status vsh_rm(vsh_sandbox *sb, const char *path, unsigned flags) {
  CHECK(sb, path);
  fs_lock(sb);
  return fs_done(sb, vfs_vsh_rm(sb->v, sb->cwd, path, flags), "rm", path);
}

vsh_status vsh_rename(vsh_sandbox *sb, const char *from, const char *to) {
  CHECK(sb, from);
  if (!to)
    return VSH_MISUSE;
  fs_lock(sb);
  return fs_done(sb, vfs_rename(sb->v, sb->cwd, from, to), "rename", from);
}

vsh_status vsh_link(vsh_sandbox *sb, const char *target, const char *path) {
  CHECK(sb, target);
  if (!path)
    return VSH_MISUSE;
  fs_lock(sb);
  return fs_done(sb, vfs_link(sb->v, sb->cwd, target, path), "link", path);
}

vsh_status vsh_symlink(vsh_sandbox *sb, const char *target, const char *path) {
  CHECK(sb, target);
  if (!path)
    return VSH_MISUSE;
  fs_lock(sb);
  return fs_done(sb, vfs_symlink(sb->v, sb->cwd, target, path), "symlink",
                 path);
}

vsh_status vsh_readlink(vsh_sandbox *sb, const char *path, char **target) {
  CHECK(sb, path);
  if (!target)
    return VSH_MISUSE;
  fs_lock(sb);
  char *t = NULL;
  size_t n = 0;
  int rc = vfs_readlink(sb->v, sb->cwd, path, &t, &n);
  return fs_string_out(sb, rc, t, n, target, "readlink", path);
}

vsh_status vsh_realpath(vsh_sandbox *sb, const char *path, char **resolved) {
  CHECK(sb, path);
  if (!resolved)
    return VSH_MISUSE;
  fs_lock(sb);
  char *t = NULL;
  int rc = vfs_realpath(sb->v, sb->cwd, path, &t);
  return fs_string_out(sb, rc, t, rc ? 0 : strlen(t), resolved, "realpath",
                       path);
}

vsh_status vsh_chmod(vsh_sandbox *sb, const char *path, unsigned mode) {
  CHECK(sb, path);
  fs_lock(sb);
  return fs_done(sb, vfs_chmod(sb->v, sb->cwd, path, mode), "chmod", path);
}

vsh_status vsh_utimes(vsh_sandbox *sb, const char *path, int64_t atime_ns,
                      int64_t mtime_ns) {
  CHECK(sb, path);
  fs_lock(sb);
  return fs_done(sb, vfs_utimes(sb->v, sb->cwd, path, atime_ns, mtime_ns, 0),
                 "utimes", path);
}

vsh_status vsh_truncate(vsh_sandbox *sb, const char *path, uint64_t size) {
  CHECK(sb, path);
  fs_lock(sb);
  return fs_done(sb, vfs_truncate(sb->v, sb->cwd, path, size), "truncate",
                 path);
}

/* ---- batch import ------------------------------------------------------ */

vsh_status vsh_import_files(vsh_sandbox *sb, const char *dir,
                            const vsh_file_init *files, size_t n) {
  if (!sb || (!files && n))
    return api_fail(sb, VSH_MISUSE, EINVAL, "invalid argument");
  fs_lock(sb);
  const char *d = dir ? dir : sb->cwd;
  vfs_import *im = NULL;
  int rc = vfs_import_begin(sb->v, sb->cwd, d, &im);
  if (rc)
    return fs_done(sb, rc, "import", d);
  const char *what = d;
  for (size_t i = 0; i < n && !rc; i++) {
    const vsh_file_init *f = &files[i];
    if (!f->path || (!f->data && f->len)) {
      vfs_import_end(im);
      fs_unlock(sb);
      return api_fail(sb, VSH_MISUSE, EINVAL, "invalid file at %zu", i);
    }
    what = f->path;
    rc = vfs_import_data(im, f->path, f->data ? f->data : "", f->len, f->mode);
  }
  vfs_import_end(im);
  return fs_done(sb, rc, "import", what);
}

vsh_status vsh_import_dir(vsh_sandbox *sb, const char *host_dir,
                          const char *dir) {
  CHECK(sb, host_dir);
  fs_lock(sb);
  const char *d = dir ? dir : sb->cwd;
  vfs_import *im = NULL;
  int rc = vfs_import_begin(sb->v, sb->cwd, d, &im);
  if (!rc)
    rc = vfs_import_host(im, host_dir);
  vfs_import_end(im);
  return fs_done(sb, rc, "import", rc ? host_dir : d);
}
