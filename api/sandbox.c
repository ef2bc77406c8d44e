/*
 * sandbox.c - vsh_open/vsh_close and the sandbox-wide pieces of the public
 * API: version and status strings, errors (SQLite style, kept on the
 * handle), memory accounting, host command registration, snapshots, fork,
 * and the hooks the shell uses (clock, random, network).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "api/sandbox.h"
#ifdef VSH_HAVE_NET
#include "net/net.h"
#include "shell/exec/exec.h"
#endif

int vsh_version_number(void) {
  return VSH_VERSION_NUMBER;
}
const char *vsh_version_string(void) {
  return VSH_VERSION_STRING;
}

const char *vsh_status_str(vsh_status st) {
  switch (st) {
  case VSH_OK:
    return "ok";
  case VSH_ERROR:
    return "error";
  case VSH_NOMEM:
    return "out of memory";
  case VSH_MISUSE:
    return "misuse";
  case VSH_FS:
    return "filesystem error";
  case VSH_ABORT:
    return "aborted";
  case VSH_TIMEOUT:
    return "timed out";
  case VSH_LIMIT:
    return "limit reached";
  case VSH_UNSUPPORTED:
    return "operation unsupported";
  case VSH_REJECTED:
    return "rejected";
  case VSH_DIED:
    return "sandbox died";
  }
  return "unknown status";
}

void vsh_config_init(vsh_config *cfg) {
  if (cfg)
    memset(cfg, 0, sizeof *cfg);
}

/* The last error of each thread, so that a thread reads its own failure
 * even when another thread's call on the same sandbox failed meanwhile.
 * The sandbox's serial (never reused) tells a later sandbox at the same
 * address from the one that failed. */
static _Thread_local struct {
  uint64_t serial;
  int code;
  char msg[512];
} tl_err;
static _Thread_local char tl_copy[512];
static atomic_uint_fast64_t next_serial = 1;

vsh_status api_fail(vsh_sandbox *sb, vsh_status st, int code, const char *fmt,
                    ...) {
  if (!sb)
    return st;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tl_err.msg, sizeof tl_err.msg, fmt, ap);
  va_end(ap);
  tl_err.code = code;
  tl_err.serial = sb->serial;
  /* Some calls record their error after dropping the lock: the shared
   * copy is written under it (re-entered by callers that still hold it). */
  api_lock(sb);
  memcpy(sb->errmsg, tl_err.msg, sizeof sb->errmsg);
  sb->errcode = code;
  api_unlock(sb);
  return st;
}

vsh_status api_fs_fail(vsh_sandbox *sb, int rc, const char *what,
                       const char *path) {
  if (rc >= 0)
    return VSH_OK;
  return api_fail(sb, vfs_status(rc), -rc, "%s: %s: %s", what, path,
                  bi_strerror(-rc));
}

const char *vsh_errmsg(const vsh_sandbox *sb) {
  if (!sb)
    return "no sandbox";
  if (tl_err.serial == sb->serial)
    return tl_err.msg;
  /* this thread made no failing call here: the sandbox's last error */
  vsh_sandbox *w = (vsh_sandbox *)sb;
  api_lock(w);
  memcpy(tl_copy, w->errmsg, sizeof tl_copy);
  api_unlock(w);
  return tl_copy;
}

int vsh_errcode(const vsh_sandbox *sb) {
  if (!sb)
    return 0;
  if (tl_err.serial == sb->serial)
    return tl_err.code;
  vsh_sandbox *w = (vsh_sandbox *)sb;
  api_lock(w);
  int c = w->errcode;
  api_unlock(w);
  return c;
}

void vsh_free(vsh_sandbox *sb, void *p) {
  (void)sb;
  free(p); /* every buffer handed out is malloc'd */
}

size_t vsh_memory_used(const vsh_sandbox *sb) {
  return sb ? mem_used(sb->m) : 0;
}

char *api_strdup_out(const char *s, size_t n) {
  char *p = malloc(n + 1);
  if (!p)
    return NULL;
  if (n)
    memcpy(p, s, n);
  p[n] = 0;
  return p;
}

/* A token per thread: the address of a thread-local (never written). */
static const void *api_thread_id(void) {
  static _Thread_local char me;
  return &me;
}

static void take(vsh_sandbox *sb, unsigned depth) {
  pthread_mutex_lock(&sb->lock);
  uint64_t t = sb->tk_next++;
  if (t != sb->tk_serving) {
    atomic_fetch_add_explicit(&sb->waiting, 1, memory_order_relaxed);
    while (t != sb->tk_serving)
      pthread_cond_wait(&sb->turn, &sb->lock);
    atomic_fetch_sub_explicit(&sb->waiting, 1, memory_order_relaxed);
  }
  pthread_mutex_unlock(&sb->lock);
  atomic_store_explicit(&sb->owner, api_thread_id(), memory_order_relaxed);
  sb->depth = depth;
}

static void give(vsh_sandbox *sb) {
  atomic_store_explicit(&sb->owner, NULL, memory_order_relaxed);
  pthread_mutex_lock(&sb->lock);
  sb->tk_serving++;
  /* every waiter checks whether the next ticket is its own */
  if (sb->tk_next != sb->tk_serving)
    pthread_cond_broadcast(&sb->turn);
  pthread_mutex_unlock(&sb->lock);
}

void api_lock(vsh_sandbox *sb) {
  /* Only this thread ever stores its own token, so seeing it (even with a
   * relaxed load) means this thread holds the lock. */
  if (atomic_load_explicit(&sb->owner, memory_order_relaxed) ==
      api_thread_id()) {
    sb->depth++;
    return;
  }
  take(sb, 1);
}

void api_unlock(vsh_sandbox *sb) {
  if (--sb->depth)
    return;
  give(sb);
}

unsigned api_letgo(vsh_sandbox *sb) {
  unsigned d = sb->depth;
  give(sb);
  return d;
}

void api_relock(vsh_sandbox *sb, unsigned depth) {
  take(sb, depth);
}

/* ---- hooks for the shell ---------------------------------------------------
 */

static int64_t api_now_ns(void *ud) {
  vsh_sandbox *sb = ud;
  if (sb->clock)
    return sb->clock(sb->clock_ud, 0);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void api_random(vsh_sandbox *sb, void *p, size_t n) {
  if (sb->random) {
    sb->random(sb->random_ud, p, n);
    return;
  }
  unsigned char *o = p;
  while (n) {
    /* xorshift64*, seeded once from the host */
    uint64_t x = sb->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    sb->rng = x;
    uint64_t r = x * 2685821657736338717ULL;
    size_t k = n < 8 ? n : 8;
    memcpy(o, &r, k);
    o += k;
    n -= k;
  }
}

static void api_random_hook(void *ud, void *p, size_t n) {
  api_random(ud, p, n);
}

static const sh_host_cmd *api_find_cmd(void *ud, const char *name) {
  vsh_sandbox *sb = ud;
  for (size_t i = 0; i < sb->nhosts; i++)
    if (strcmp(sb->hosts[i].name, name) == 0)
      return &sb->hosts[i];
  return NULL;
}

const sh_host api_host = {api_now_ns, api_random_hook, api_find_cmd,
                          api_call_cmd};

/* ---- open / close
 * ---------------------------------------------------------------- */

static vsh_status copy_env(vsh_sandbox *sb, const char *const *env) {
  size_t n = 0;
  while (env && env[n])
    n++;
  sb->env = mem_calloc(sb->m, n + 1, sizeof *sb->env);
  if (!sb->env)
    return VSH_NOMEM;
  for (size_t i = 0; i < n; i++) {
    sb->env[i] = mem_strdup(sb->m, env[i]);
    if (!sb->env[i])
      return VSH_NOMEM;
  }
  sb->nenv = n;
  return VSH_OK;
}

static vsh_sandbox *api_alloc(const vsh_config *cfg, mem *m) {
  vsh_sandbox *sb = mem_calloc(m, 1, sizeof *sb);
  if (!sb)
    return NULL;
  sb->m = m;
  pthread_mutex_init(&sb->lock, NULL);
  pthread_cond_init(&sb->turn, NULL);
  atomic_init(&sb->owner, NULL);
  atomic_init(&sb->waiting, 0);
  sb->serial = atomic_fetch_add(&next_serial, 1);
  sb->lim = sb->lim_asked = cfg->limits;
  budget_defaults(&sb->lim);
  sb->clock = cfg->clock;
  sb->clock_ud = cfg->clock_ud;
  sb->random = cfg->random;
  sb->random_ud = cfg->random_ud;
  sb->flags = cfg->flags;
  uint64_t seed = 0;
  if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) != (ssize_t)sizeof seed)
    seed = (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)sb;
  sb->rng = seed ? seed : 88172645463325252ULL;
  return sb;
}

static void api_free_parts(vsh_sandbox *sb) {
  mem *m = sb->m;
  if (sb->sc)
    sched_free(sb->sc);
  if (sb->v)
    vfs_free(sb->v);
#ifdef VSH_HAVE_NET
  if (sb->net)
    net_policy_free(sb->net);
#endif
  for (size_t i = 0; i < sb->nhosts; i++)
    mem_free(m, sb->hosts[i].name);
  mem_free(m, sb->hosts);
  sh_base_free(m, sb->base);
  sh_base_free(m, sb->base_at);
  mem_free(m, sb->cwd_seen);
  for (size_t i = 0; sb->env && i < sb->nenv; i++)
    mem_free(m, sb->env[i]);
  mem_free(m, sb->env);
  mem_free(m, sb->cwd);
  pthread_mutex_destroy(&sb->lock);
  pthread_cond_destroy(&sb->turn);
  mem_free(m, sb);
  mem_unref(m);
}

static vsh_status finish_open(vsh_sandbox *sb, const vsh_config *cfg,
                              int fresh_tree) {
  vsh_status st = copy_env(sb, cfg->env);
  if (st)
    return st;
  sb->cwd = mem_strdup(sb->m, cfg->cwd ? cfg->cwd : "/home/user");
  if (!sb->cwd)
    return VSH_NOMEM;
  if (sb->cwd[0] != '/')
    return api_fail(sb, VSH_MISUSE, EINVAL, "cwd must be absolute: %s",
                    sb->cwd);
    /* sb->base, the variables execs share, is built by the first exec that
     * can use it (exec.c), so an idle sandbox holds none. */
#ifdef VSH_HAVE_NET
  if (cfg->net) {
    char err[256] = "";
    int rc = net_policy_compile(sb->m, cfg->net, &sb->net, err, sizeof err);
    if (rc == -2)
      return VSH_NOMEM;
    if (rc)
      return api_fail(sb, VSH_MISUSE, EINVAL, "network policy: %s", err);
    sb->net_src = cfg->net;
  }
#endif
  /* Setting up is the host's doing: no permission checks (a failure below
   * destroys the sandbox, so the count needs no unwinding). */
  vfs_privileged_enter(sb->v);
  /* (the default cwd is part of the default layout) */
  if (fresh_tree && ((cfg->flags & VSH_CFG_NO_DEFAULT_LAYOUT) ||
                     strcmp(sb->cwd, "/home/user") != 0)) {
    int rc = vfs_mkdir_p(sb->v, "/", sb->cwd, 0755);
    (void)rc;
  }
  for (size_t i = 0; i < cfg->nmounts; i++) {
    const vsh_mount *mt = &cfg->mounts[i];
    int rc = vfs_mount_host(sb->v, mt->host_dir, mt->virtual_path, 0);
    if (rc)
      return api_fail(sb, vfs_status(rc), -rc, "mount %s at %s: %s",
                      mt->host_dir, mt->virtual_path, bi_strerror(-rc));
  }
  if (cfg->nfiles) {
    /* placed by the batch import, relative to the cwd */
    vfs_import *im = NULL;
    int rc = vfs_import_begin(sb->v, "/", sb->cwd, &im);
    const char *what = sb->cwd;
    for (size_t i = 0; i < cfg->nfiles && !rc; i++) {
      const vsh_file_init *f = &cfg->files[i];
      if (!f->path)
        continue;
      what = f->path;
      rc =
          vfs_import_data(im, f->path, f->data ? f->data : "", f->len, f->mode);
    }
    vfs_import_end(im);
    if (rc)
      return api_fail(sb, vfs_status(rc), -rc, "%s: %s", what,
                      bi_strerror(-rc));
  }
  vfs_privileged_leave(sb->v);
  sb->sc = sched_new(0);
  if (!sb->sc)
    return VSH_NOMEM;
  return VSH_OK;
}

static vsh_status open_common(const vsh_config *cfg, const vfs_snap *snap,
                              vsh_sandbox **out) {
  vsh_config dflt;
  if (!cfg) {
    vsh_config_init(&dflt);
    cfg = &dflt;
  }
  *out = NULL;
  vsh_limits lim = cfg->limits;
  budget_defaults(&lim);
  mem *m = mem_new(cfg->alloc, cfg->alloc_ud, (size_t)lim.max_memory);
  if (!m)
    return VSH_NOMEM;
  vsh_sandbox *sb = api_alloc(cfg, m);
  if (!sb) {
    mem_unref(m);
    return VSH_NOMEM;
  }
  vfs_config vc = {cfg->clock, cfg->clock_ud, lim.max_fs_bytes,
                   lim.max_fs_inodes};
  int rc = -ENOMEM;
#ifdef VSH_HAVE_NET
  int net = cfg->net != NULL; /* the network commands are there */
#else
  int net = 0;
#endif
  if (snap)
    sb->v = vfs_new_from(m, snap, &vc);
  else if (cfg->flags & VSH_CFG_NO_DEFAULT_LAYOUT)
    sb->v = vfs_new(m, &vc);
  else
    sb->v = api_layout_vfs(m, &vc, net, &rc);
  if (!sb->v) {
    vsh_status st = rc == -ENOMEM
                        ? VSH_NOMEM
                        : api_fail(sb, vfs_status(rc), -rc,
                                   "default layout: %s", bi_strerror(-rc));
    api_free_parts(sb);
    return st;
  }
  vsh_status st = finish_open(sb, cfg, snap == NULL);
  if (st) {
    api_free_parts(sb);
    return st;
  }
  *out = sb;
  return VSH_OK;
}

vsh_status vsh_open(const vsh_config *cfg, vsh_sandbox **out) {
  if (!out)
    return VSH_MISUSE;
  return open_common(cfg, NULL, out);
}

void vsh_close(vsh_sandbox *sb) {
  if (!sb)
    return;
  api_free_parts(sb);
}

/* ---- host commands
 * ------------------------------------------------------------------ */

vsh_status vsh_register_command(vsh_sandbox *sb, const char *name,
                                vsh_command_fn fn, void *ud) {
  if (!sb || !name || !*name || !fn || strchr(name, '/'))
    return api_fail(sb, VSH_MISUSE, EINVAL, "invalid command registration");
  api_lock(sb);
  for (size_t i = 0; i < sb->nhosts; i++)
    if (strcmp(sb->hosts[i].name, name) == 0) {
      sb->hosts[i].fn = fn;
      sb->hosts[i].ud = ud;
      api_unlock(sb);
      return VSH_OK;
    }
  if (sb->nhosts == sb->caphosts) {
    size_t nc = sb->caphosts ? sb->caphosts * 2 : 8;
    sh_host_cmd *nh = mem_realloc(sb->m, sb->hosts, nc * sizeof *nh);
    if (!nh) {
      api_unlock(sb);
      return api_fail(sb, VSH_NOMEM, ENOMEM, "out of memory");
    }
    sb->hosts = nh;
    sb->caphosts = nc;
  }
  char *nm = mem_strdup(sb->m, name);
  if (!nm) {
    api_unlock(sb);
    return api_fail(sb, VSH_NOMEM, ENOMEM, "out of memory");
  }
  sb->hosts[sb->nhosts].name = nm;
  sb->hosts[sb->nhosts].fn = fn;
  sb->hosts[sb->nhosts].ud = ud;
  sb->nhosts++;
  /* A /bin entry makes `which`, `type` and `command -v` find it, unless a
   * real file is already there. */
  if (!(sb->flags & VSH_CFG_NO_DEFAULT_LAYOUT)) {
    char path[512];
    snprintf(path, sizeof path, "/usr/bin/%s", name);
    if (!vfs_exists(sb->v, "/", path))
      vfs_add_command_stub(sb->v, name);
  }
  api_unlock(sb);
  return VSH_OK;
}

/* ---- snapshots, fork
 * ------------------------------------------------------------------ */

vsh_status vsh_snapshot_take(vsh_sandbox *sb, vsh_snapshot **out) {
  if (!sb || !out)
    return VSH_MISUSE;
  api_lock(sb);
  vfs_snap *s = vfs_snapshot(sb->v);
  api_unlock(sb);
  if (!s)
    return api_fail(sb, VSH_NOMEM, ENOMEM, "snapshot: out of memory");
  *out = (vsh_snapshot *)s;
  return VSH_OK;
}

vsh_status vsh_restore(vsh_sandbox *sb, const vsh_snapshot *snap) {
  if (!sb || !snap)
    return VSH_MISUSE;
  api_lock(sb);
  int rc = vfs_restore(sb->v, (const vfs_snap *)snap);
  api_unlock(sb);
  return api_fs_fail(sb, rc, "restore", "/");
}

void vsh_snapshot_free(vsh_snapshot *snap) {
  if (snap)
    vfs_snap_free((vfs_snap *)snap);
}

static void config_of(vsh_sandbox *sb, vsh_config *cfg) {
  vsh_config_init(cfg);
  cfg->cwd = sb->cwd;
  cfg->env = (const char *const *)sb->env;
  cfg->limits = sb->lim_asked;
  cfg->clock = sb->clock;
  cfg->clock_ud = sb->clock_ud;
  cfg->random = sb->random;
  cfg->random_ud = sb->random_ud;
  cfg->net = sb->net_src;
  cfg->flags = sb->flags | VSH_CFG_NO_DEFAULT_LAYOUT;
}

vsh_status vsh_fork(vsh_sandbox *sb, vsh_sandbox **out) {
  if (!sb || !out)
    return VSH_MISUSE;
  api_lock(sb);
  vfs_snap *s = vfs_snapshot(sb->v);
  if (!s) {
    api_unlock(sb);
    return api_fail(sb, VSH_NOMEM, ENOMEM, "fork: out of memory");
  }
  vsh_config cfg;
  config_of(sb, &cfg);
  vsh_status st = open_common(&cfg, s, out);
  vfs_snap_free(s);
  if (st == VSH_OK) {
    for (size_t i = 0; i < sb->nhosts; i++)
      vsh_register_command(*out, sb->hosts[i].name, sb->hosts[i].fn,
                           sb->hosts[i].ud);
    (*out)->flags = sb->flags;
  }
  api_unlock(sb);
  return st;
}

vsh_status vsh_open_from(const vsh_snapshot *snap, const vsh_config *cfg,
                         vsh_sandbox **out) {
  if (!snap || !out)
    return VSH_MISUSE;
  return open_common(cfg, (const vfs_snap *)snap, out);
}

vsh_status vsh_diff(vsh_sandbox *sb, const vsh_snapshot *a,
                    const vsh_snapshot *b, vsh_diff_fn fn, void *ud) {
  if (!a || !fn || (!sb && !b))
    return VSH_MISUSE;
  if (sb)
    api_lock(sb);
  int rc = vfs_vsh_diff(sb ? sb->v : NULL, (const vfs_snap *)a,
                        (const vfs_snap *)b, fn, ud);
  if (sb)
    api_unlock(sb);
  return api_fs_fail(sb, rc, "diff", "/");
}

vsh_status vsh_persist(vsh_sandbox *sb, const char *dir,
                       const char *const *skip, vsh_write_fn fn, void *ud) {
  if (!sb || !fn)
    return VSH_MISUSE;
  api_lock(sb);
  int rc = vfs_persist(sb->v, sb->cwd, dir ? dir : sb->cwd, skip, fn, ud);
  api_unlock(sb);
  return api_fs_fail(sb, rc, "persist", dir ? dir : sb->cwd);
}

vsh_status vsh_hydrate(vsh_sandbox *sb, const char *dir, const void *tar,
                       size_t len) {
  if (!sb || (!tar && len))
    return VSH_MISUSE;
  api_lock(sb);
  char msg[256] = "";
  int rc = vfs_hydrate(sb->v, sb->cwd, dir ? dir : sb->cwd, tar, len, msg,
                       sizeof msg);
  api_unlock(sb);
  if (rc == -EBADMSG)
    return api_fail(sb, VSH_REJECTED, EBADMSG, "hydrate: %s", msg);
  return api_fs_fail(sb, rc, "hydrate", dir ? dir : sb->cwd);
}

vsh_status vsh_import_tar(vsh_sandbox *sb, const char *dir, vsh_read_fn fn,
                          void *ud) {
  if (!sb || !fn)
    return VSH_MISUSE;
  api_lock(sb);
  char msg[256] = "";
  int rc = vfs_hydrate_stream(sb->v, sb->cwd, dir ? dir : sb->cwd, fn, ud, msg,
                              sizeof msg);
  api_unlock(sb);
  if (rc == -EBADMSG)
    return api_fail(sb, VSH_REJECTED, EBADMSG, "hydrate: %s", msg);
  return api_fs_fail(sb, rc, "hydrate", dir ? dir : sb->cwd);
}
