/*
 * isolate.c - the isolate driver: a vsh sandbox behind the driver vtable.
 *
 * Most operations map one to one onto the file API. The driver adds what the
 * contract promises beyond the API: Node-style messages naming the path,
 * checks that make mkdir/rm follow Node's rules whatever the VFS reports, the
 * "unset" environment mark, and the timeout note.
 *
 * Paths are normalised lexically before the VFS sees them (relative ones
 * against the sandbox cwd), as the local driver does, so that two spellings
 * of one path get one answer from both drivers. An exec cwd must name a
 * directory (ENOENT/ENOTDIR otherwise, nothing runs) and the command starts
 * in its physical path, as a host process started in that directory sees
 * it: $PWD is what `pwd -P` prints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/driver/drv.h"

typedef struct drv_isolate {
  vsh_driver base;
  vsh_sandbox *sb;
  char *cwd; /* the sandbox cwd, which relative paths start from */
} drv_isolate;

static vsh_sandbox *iso_sandbox(vsh_driver *d) {
  return ((drv_isolate *)d)->sb;
}

/* The path the VFS is given (free), or NULL when out of memory. */
static char *iso_path(vsh_driver *d, const char *path) {
  return vsh_resolve_path(((drv_isolate *)d)->cwd, path);
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

/* The directory a command starts in: *out (vsh_free) is the physical path
 * of cwd, which must be a directory. 0, or -1 with *err (a chdir error). */
static int iso_exec_cwd(vsh_driver *d, const char *cwd, char **out,
                        vsh_drv_err *err) {
  vsh_sandbox *sb = iso_sandbox(d);
  *out = NULL;
  if (!*cwd)
    return drv_fail_empty(err, "chdir");
  char *np = iso_path(d, cwd);
  if (!np)
    return drv_fail_errno(err, ENOMEM, "chdir", cwd);
  vsh_stat st;
  vsh_status rc = vsh_stat_path(sb, np, &st);
  if (rc == VSH_OK && st.type != VSH_TYPE_DIR) {
    free(np);
    return drv_fail_errno(err, ENOTDIR, "chdir", cwd);
  }
  if (rc == VSH_OK)
    rc = vsh_realpath(sb, np, out);
  free(np);
  if (rc != VSH_OK)
    return fail_from(err, sb, rc, "chdir", cwd);
  return 0;
}

static int iso_exec(vsh_driver *d, const char *command,
                    const vsh_drv_exec_opts *o, vsh_result *res,
                    vsh_drv_err *err) {
  vsh_sandbox *sb = iso_sandbox(d);
  vsh_drv_exec_opts none = {0};
  if (drv_exec_begin(command, &o, &none, res, err))
    return -1;
  /* vsh_exec would run in a directory that does not exist: check first. */
  char *cwd = NULL;
  if (o->cwd && iso_exec_cwd(d, o->cwd, &cwd, err))
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
    vsh_free(sb, cwd);
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
  eo.cwd = cwd;
  eo.env = k ? env : NULL;
  eo.timeout_ms = o->timeout_ms;
  eo.cancel = o->signal;
  vsh_status st = vsh_exec_n(sb, script, slen, &eo, res);
  free(script);
  free(env);
  vsh_free(sb, cwd);

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
      drv_result_timeout_note(res, o->timeout_ms);
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
  if (!path || !*path)
    return drv_fail_empty(err, "open");
  char *np = iso_path(d, path);
  if (!np)
    return drv_fail_errno(err, ENOMEM, "open", path);
  vsh_stat st;
  /* Check the type first: EISDIR is promised whatever the VFS reports for
   * reading a directory. */
  int isdir = vsh_stat_path(sb, np, &st) == VSH_OK && st.type == VSH_TYPE_DIR;
  vsh_status rc = isdir ? VSH_OK : vsh_read_file(sb, np, data, len);
  free(np);
  if (isdir)
    return drv_fail_errno(err, EISDIR, "read", path);
  if (rc != VSH_OK)
    return fail_from(err, sb, rc, "open", path);
  return 0;
}

static int iso_write_file(vsh_driver *d, const char *path, const void *data,
                          size_t len, vsh_drv_err *err) {
  vsh_sandbox *sb = iso_sandbox(d);
  if (!path || !*path)
    return drv_fail_empty(err, "open");
  char *np = iso_path(d, path);
  if (!np)
    return drv_fail_errno(err, ENOMEM, "open", path);
  vsh_status rc = vsh_write_file(sb, np, data, len, 0);
  free(np);
  if (rc != VSH_OK)
    return fail_from(err, sb, rc, "open", path);
  return 0;
}

/* A directory's size is the VFS's own figure, 4096 (one ext4 block), the
 * one `stat -c %s` and `ls -l` print inside the sandbox: known, not made up
 * for the driver. The local driver reports the host's figure the same
 * way. */
static int iso_stat(vsh_driver *d, const char *path, vsh_drv_stat *out,
                    vsh_drv_err *err) {
  vsh_sandbox *sb = iso_sandbox(d);
  memset(out, 0, sizeof *out);
  if (!path || !*path)
    return drv_fail_empty(err, "stat");
  char *np = iso_path(d, path);
  if (!np)
    return drv_fail_errno(err, ENOMEM, "stat", path);
  vsh_stat lst, st;
  vsh_status rc = vsh_lstat_path(sb, np, &lst);
  st = lst;
  /* Type, size and mtime describe the target; a dangling link has none,
   * so stat fails as Node's fs.stat does. */
  if (rc == VSH_OK && lst.type == VSH_TYPE_SYMLINK)
    rc = vsh_stat_path(sb, np, &st);
  free(np);
  if (rc != VSH_OK)
    return fail_from(err, sb, rc, "stat", path);
  out->is_symlink = lst.type == VSH_TYPE_SYMLINK;
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
  if (!path || !*path)
    return drv_fail_empty(err, "scandir");
  char *np = iso_path(d, path);
  if (!np)
    return drv_fail_errno(err, ENOMEM, "scandir", path);
  vsh_stat st;
  vsh_status rc = vsh_stat_path(sb, np, &st);
  int notdir = rc == VSH_OK && st.type != VSH_TYPE_DIR;
  if (rc == VSH_OK && !notdir)
    rc = vsh_readdir(sb, np, names, n);
  free(np);
  if (notdir)
    return drv_fail_errno(err, ENOTDIR, "scandir", path);
  if (rc != VSH_OK)
    return fail_from(err, sb, rc, "scandir", path);
  return 0;
}

/* Follows symlinks (a dangling link does not "exist"), like Node's
 * existsSync and like the local driver; "" names nothing. */
static int iso_exists(vsh_driver *d, const char *path) {
  if (!path || !*path)
    return 0;
  char *np = iso_path(d, path);
  if (!np)
    return 0;
  vsh_stat st;
  int r = vsh_stat_path(iso_sandbox(d), np, &st) == VSH_OK;
  free(np);
  return r;
}

/* The callbacks of drv_mkdir_p; st keeps the last failing status so that
 * one which is not a file system error (no memory, sandbox died) is
 * reported as what it is. */
typedef struct iso_mk {
  vsh_sandbox *sb;
  vsh_status st;
} iso_mk;

static int iso_errno(iso_mk *m, vsh_status rc) {
  m->st = rc;
  if (rc == VSH_NOMEM)
    return -ENOMEM;
  int code = vsh_errcode(m->sb);
  return -(code ? code : EIO);
}

static int iso_kind(void *ctx, const char *p) {
  iso_mk *m = ctx;
  vsh_stat st;
  vsh_status rc = vsh_stat_path(m->sb, p, &st);
  return rc == VSH_OK ? st.type == VSH_TYPE_DIR : iso_errno(m, rc);
}

static int iso_lexists(void *ctx, const char *p) {
  vsh_stat st;
  return vsh_lstat_path(((iso_mk *)ctx)->sb, p, &st) == VSH_OK;
}

static int iso_mkdir_one(void *ctx, const char *p) {
  iso_mk *m = ctx;
  vsh_status rc = vsh_mkdir(m->sb, p, 0);
  return rc == VSH_OK ? 0 : iso_errno(m, rc);
}

static int iso_mkdir(vsh_driver *d, const char *path, int recursive,
                     vsh_drv_err *err) {
  vsh_sandbox *sb = iso_sandbox(d);
  if (!path || !*path)
    return drv_fail_empty(err, "mkdir");
  char *np = iso_path(d, path);
  if (!np)
    return drv_fail_errno(err, ENOMEM, "mkdir", path);
  iso_mk m = {sb, VSH_OK};
  int code;
  if (recursive) {
    /* Node's rules, the same code as the local driver's. */
    static const drv_mkdir_ops ops = {iso_kind, iso_lexists, iso_mkdir_one};
    code = drv_mkdir_p(np, &ops, &m);
  } else {
    /* Any existing entry, a dangling link too, is EEXIST. */
    vsh_stat st;
    code =
        vsh_lstat_path(sb, np, &st) == VSH_OK ? EEXIST : -iso_mkdir_one(&m, np);
  }
  free(np);
  if (code && m.st != VSH_OK && m.st != VSH_FS)
    return fail_from(err, sb, m.st, "mkdir", path);
  return code ? drv_fail_errno(err, code, "mkdir", path) : 0;
}

/* Node's fs.rm: force ignores ENOENT only (a path under a file stays
 * ENOTDIR, as with GNU rm -f); a directory needs recursive. */
static int iso_rm(vsh_driver *d, const char *path, int recursive, int force,
                  vsh_drv_err *err) {
  vsh_sandbox *sb = iso_sandbox(d);
  if (!path || !*path)
    return force ? 0 : drv_fail_empty(err, "rm");
  char *np = iso_path(d, path);
  if (!np)
    return drv_fail_errno(err, ENOMEM, "rm", path);
  vsh_stat st;
  vsh_status rc = vsh_lstat_path(sb, np, &st);
  int ret = 0;
  if (rc != VSH_OK) {
    if (!(force && rc == VSH_FS && vsh_errcode(sb) == ENOENT))
      ret = fail_from(err, sb, rc, "rm", path);
  } else if (st.type == VSH_TYPE_DIR && !recursive) {
    ret = drv_fail_rm_isdir(err, path);
  } else if (strcmp(np, "/") == 0) {
    ret = drv_fail_rm_root(err, path);
  } else if ((rc = vsh_rm(sb, np, recursive ? VSH_RECURSIVE : 0)) != VSH_OK) {
    ret = fail_from(err, sb, rc, "rm", path);
  }
  free(np);
  return ret;
}

static void iso_free_buf(vsh_driver *d, void *p) {
  vsh_free(iso_sandbox(d), p);
}

static void iso_destroy(vsh_driver *d) {
  if (!d)
    return;
  vsh_close(iso_sandbox(d));
  free(((drv_isolate *)d)->cwd);
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
  /* Relative paths start where the sandbox's commands do. */
  char *cwd = NULL;
  if (vsh_realpath(sb, ".", &cwd) == VSH_OK && cwd)
    iso->cwd = strdup(cwd);
  else
    iso->cwd = strdup("/");
  vsh_free(sb, cwd);
  if (!iso->cwd) {
    free(iso);
    vsh_close(sb);
    return NULL;
  }
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
