/*
 * isolate.c - the isolate driver: a vsh sandbox behind the driver vtable.
 *
 * Most operations map one to one onto the file API. The driver adds what the
 * contract promises beyond the API: Node-style messages naming the path,
 * checks that make mkdir/rm follow Node's rules whatever the VFS reports, the
 * "unset" environment mark, and the timeout note.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/driver/drv.h"

typedef struct drv_isolate {
  vsh_driver base;
  vsh_sandbox *sb;
} drv_isolate;

static vsh_sandbox *iso_sandbox(vsh_driver *d) {
  return ((drv_isolate *)d)->sb;
}

/* An API failure as a driver error. Filesystem errors become Node-style
 * errno errors; VSH_DIED stays "died" (never an abort, per the contract). */
static int fail_from(vsh_drv_err *err, vsh_sandbox *sb, vsh_status st,
                     const char *syscall, const char *path) {
  switch (st) {
  case VSH_FS:
    return drv_fail_errno(err, vsh_errcode(sb), syscall, path);
  case VSH_NOMEM:
    return drv_fail_errno(err, ENOMEM, syscall, path);
  case VSH_ABORT:
    return drv_fail_abort(err);
  case VSH_DIED:
    return drv_fail(err, VSH_DRV_DIED, EIO, "sandbox died during %s '%s': %s",
                    syscall, path, vsh_errmsg(sb));
  case VSH_UNSUPPORTED:
    return drv_fail(err, VSH_DRV_UNSUPPORTED, ENOTSUP,
                    "operation unsupported: %s '%s': %s", syscall, path,
                    vsh_errmsg(sb));
  default: {
    int code = vsh_errcode(sb);
    if (code)
      return drv_fail_errno(err, code, syscall, path);
    return drv_fail(err, VSH_DRV_ERRNO, EIO, "%s '%s' failed: %s", syscall,
                    path, vsh_errmsg(sb));
  }
  }
}

/* ------------------------------------------------------------------ exec */

/* Whether a later entry sets or unsets the same key (the last one wins, as
 * in the local driver). */
static int overridden(const char *const *env, size_t i, size_t n) {
  size_t kl = drv_env_keylen(env[i]);
  for (size_t j = i + 1; j < n; j++)
    if (strchr(env[j], '=') && drv_env_keylen(env[j]) == kl &&
        memcmp(env[j], env[i], kl) == 0)
      return 1;
  return 0;
}

static int iso_exec(vsh_driver *d, const char *command,
                    const vsh_drv_exec_opts *o, vsh_result *res,
                    vsh_drv_err *err) {
  vsh_sandbox *sb = iso_sandbox(d);
  vsh_drv_exec_opts none = {0};
  if (drv_exec_begin(command, &o, &none, res, err))
    return -1;

  /* vsh_exec layers env over the base environment but has no removal, so a
   * key marked "unset" becomes an `unset -v` in front of the command. It is
   * put on the command's first line so that $LINENO and the line numbers in
   * syntax errors stay those of the command. Shell state is fresh for each
   * exec, so nothing else can observe the prefix. */
  size_t nenv = 0, prefix_len = 0;
  if (o->env)
    for (const char *const *e = o->env; *e; e++) {
      nenv++;
      if (drv_env_is_unset(*e))
        prefix_len += drv_env_keylen(*e) + 1;
    }
  const char **env = calloc(nenv + 1, sizeof *env);
  size_t cmdlen = strlen(command);
  char *script = malloc(prefix_len + sizeof "unset -v ; " + cmdlen);
  if (!env || !script) {
    free(env);
    free(script);
    return drv_fail(err, VSH_DRV_ERRNO, ENOMEM,
                    "ENOMEM: not enough memory, exec");
  }
  size_t k = 0, slen = 0;
  if (prefix_len) {
    memcpy(script, "unset -v", 8);
    slen = 8;
  }
  for (size_t i = 0; i < nenv; i++) {
    const char *kv = o->env[i];
    size_t kl = drv_env_keylen(kv);
    if (!strchr(kv, '=') || overridden(o->env, i, nenv)) {
      continue; /* not an assignment, or a later entry wins */
    } else if (!drv_env_is_unset(kv)) {
      env[k++] = kv;
    } else if (drv_is_ident(kv, kl)) {
      script[slen++] = ' ';
      memcpy(script + slen, kv, kl);
      slen += kl;
    }
  }
  if (prefix_len) {
    memcpy(script + slen, "; ", 2);
    slen += 2;
  }
  memcpy(script + slen, command, cmdlen);
  slen += cmdlen;
  script[slen] = 0;

  vsh_exec_opts eo = {0};
  eo.cwd = o->cwd;
  eo.env = k ? env : NULL;
  eo.timeout_ms = o->timeout_ms;
  eo.cancel = o->signal;
  vsh_status st = vsh_exec_n(sb, script, slen, &eo, res);
  free(script);
  free(env);

  if (st == VSH_ABORT ||
      (st == VSH_OK && (res->flags & VSH_RESULT_CANCELLED))) {
    vsh_result_free(res);
    memset(res, 0, sizeof *res);
    return drv_fail_abort(err);
  }
  if (st != VSH_OK) {
    vsh_result_free(res);
    memset(res, 0, sizeof *res);
    if (st == VSH_FS && o->cwd)
      return drv_fail_errno(err, vsh_errcode(sb), "chdir", o->cwd);
    if (st == VSH_DIED)
      return drv_fail(err, VSH_DRV_DIED, EIO, "sandbox died: %s",
                      vsh_errmsg(sb));
    return drv_fail(err, VSH_DRV_ERRNO, st == VSH_NOMEM ? ENOMEM : EIO,
                    "exec failed: %s", vsh_errmsg(sb));
  }
  if (res->flags & VSH_RESULT_TIMED_OUT) {
    res->status = 124;
    /* The interpreter may already have written a note; one is enough. */
    if (!res->err ||
        (!strstr(res->err, "timed out") && !strstr(res->err, "timeout"))) {
      char note[96];
      snprintf(note, sizeof note, "vsh: command timed out after %lld ms",
               (long long)o->timeout_ms);
      drv_result_append_err(res, note);
    }
  }
  return 0;
}

/* ----------------------------------------------------------------- files */

static int iso_read_file(vsh_driver *d, const char *path, char **data,
                         size_t *len, vsh_drv_err *err) {
  vsh_sandbox *sb = iso_sandbox(d);
  *data = NULL;
  *len = 0;
  vsh_stat st;
  /* Check the type first: EISDIR is promised whatever the VFS reports for
   * reading a directory. */
  if (vsh_stat_path(sb, path, &st) == VSH_OK && st.type == VSH_TYPE_DIR)
    return drv_fail_errno(err, EISDIR, "read", path);
  vsh_status rc = vsh_read_file(sb, path, data, len);
  if (rc != VSH_OK)
    return fail_from(err, sb, rc, "open", path);
  return 0;
}

static int iso_write_file(vsh_driver *d, const char *path, const void *data,
                          size_t len, vsh_drv_err *err) {
  vsh_sandbox *sb = iso_sandbox(d);
  vsh_status rc = vsh_write_file(sb, path, data, len, 0);
  if (rc != VSH_OK)
    return fail_from(err, sb, rc, "open", path);
  return 0;
}

static int iso_stat(vsh_driver *d, const char *path, vsh_drv_stat *out,
                    vsh_drv_err *err) {
  vsh_sandbox *sb = iso_sandbox(d);
  memset(out, 0, sizeof *out);
  vsh_stat lst, st;
  vsh_status rc = vsh_lstat_path(sb, path, &lst);
  if (rc != VSH_OK)
    return fail_from(err, sb, rc, "stat", path);
  out->is_symlink = lst.type == VSH_TYPE_SYMLINK;
  if (out->is_symlink) {
    /* Type, size and mtime describe the target; a dangling link has none,
     * so stat fails as Node's fs.stat does. */
    rc = vsh_stat_path(sb, path, &st);
    if (rc != VSH_OK)
      return fail_from(err, sb, rc, "stat", path);
  } else {
    st = lst;
  }
  out->is_file = st.type == VSH_TYPE_FILE;
  out->is_directory = st.type == VSH_TYPE_DIR;
  out->size = st.size;
  out->mtime_ms = st.mtime_ns / 1000000;
  out->fields = VSH_DRV_HAS_SYMLINK | VSH_DRV_HAS_SIZE | VSH_DRV_HAS_MTIME;
  return 0;
}

static int iso_readdir(vsh_driver *d, const char *path, char ***names,
                       size_t *n, vsh_drv_err *err) {
  vsh_sandbox *sb = iso_sandbox(d);
  *names = NULL;
  *n = 0;
  vsh_stat st;
  vsh_status rc = vsh_stat_path(sb, path, &st);
  if (rc != VSH_OK)
    return fail_from(err, sb, rc, "scandir", path);
  if (st.type != VSH_TYPE_DIR)
    return drv_fail_errno(err, ENOTDIR, "scandir", path);
  rc = vsh_readdir(sb, path, names, n);
  if (rc != VSH_OK)
    return fail_from(err, sb, rc, "scandir", path);
  return 0;
}

/* Follows symlinks (a dangling link does not "exist"), like Node's
 * existsSync and like the local driver. */
static int iso_exists(vsh_driver *d, const char *path) {
  vsh_stat st;
  return path && vsh_stat_path(iso_sandbox(d), path, &st) == VSH_OK ? 1 : 0;
}

static int iso_mkdir(vsh_driver *d, const char *path, int recursive,
                     vsh_drv_err *err) {
  vsh_sandbox *sb = iso_sandbox(d);
  vsh_stat st;
  /* Node's rules, checked here so they hold whatever the VFS does:
   * -p tolerates an existing directory (also through a symlink) but not a
   * file; without -p any existing entry is EEXIST. */
  if (vsh_stat_path(sb, path, &st) == VSH_OK) {
    if (recursive && st.type == VSH_TYPE_DIR)
      return 0;
    return drv_fail_errno(err, EEXIST, "mkdir", path);
  }
  if (!recursive && vsh_lstat_path(sb, path, &st) == VSH_OK)
    return drv_fail_errno(err, EEXIST, "mkdir", path); /* dangling link */
  vsh_status rc = vsh_mkdir(sb, path, recursive ? VSH_RECURSIVE : 0);
  if (rc != VSH_OK)
    return fail_from(err, sb, rc, "mkdir", path);
  return 0;
}

static int iso_rm(vsh_driver *d, const char *path, int recursive, int force,
                  vsh_drv_err *err) {
  vsh_sandbox *sb = iso_sandbox(d);
  vsh_stat st;
  vsh_status rc = vsh_lstat_path(sb, path, &st);
  if (rc != VSH_OK) {
    if (force && rc == VSH_FS &&
        (vsh_errcode(sb) == ENOENT || vsh_errcode(sb) == ENOTDIR))
      return 0;
    return fail_from(err, sb, rc, "rm", path);
  }
  if (st.type == VSH_TYPE_DIR && !recursive)
    return drv_fail_rm_isdir(err, path);
  rc = vsh_rm(sb, path, recursive ? VSH_RECURSIVE : 0);
  if (rc != VSH_OK)
    return fail_from(err, sb, rc, "rm", path);
  return 0;
}

static void iso_free_buf(vsh_driver *d, void *p) {
  vsh_free(iso_sandbox(d), p);
}

static void iso_destroy(vsh_driver *d) {
  if (!d)
    return;
  vsh_close(iso_sandbox(d));
  free(d);
}

vsh_driver *vsh_driver_isolate(vsh_sandbox *sb) {
  if (!sb)
    return NULL;
  drv_isolate *iso = calloc(1, sizeof *iso);
  if (!iso) {
    vsh_close(sb); /* ownership passed to us even when we fail */
    return NULL;
  }
  iso->sb = sb;
  vsh_driver *d = &iso->base;
  d->self = iso;
  d->name = "isolate";
  d->exec = iso_exec;
  d->read_file = iso_read_file;
  d->write_file = iso_write_file;
  d->stat = iso_stat;
  d->readdir = iso_readdir;
  d->exists = iso_exists;
  d->mkdir = iso_mkdir;
  d->rm = iso_rm;
  d->free_buf = iso_free_buf;
  d->destroy = iso_destroy;
  return d;
}
