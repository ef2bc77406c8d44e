/*
 * vfs.c - a sqlite3_vfs over the sandbox's filesystem.
 *
 * Database files, rollback journals and super-journals are files of the
 * sandbox VFS (vfs_open/vfs_pread/vfs_pwrite), so they take the sandbox's
 * quota, are seen by the next exec, and go with snapshots, forks and
 * persist like any other file. Temporary files (sorts, temp tables,
 * statement journals: SQLite opens them without a name) live in a buffer of
 * the sandbox allocator and vanish on close. No host file is ever opened.
 *
 * How a VFS finds its sandbox. sqlite3_vfs_register is process-global and
 * sqlite3_open_v2 names a VFS by string, while several sandboxes may run
 * sqlite3 on several threads at once. Each connection therefore registers
 * its own sqlite3_vfs, named "vsh-N" with N from an atomic counter (never
 * reused), whose pAppData-like field (the sq_vfs around it) points at the
 * command's context; it is unregistered after the connection closes.
 * SQLite serializes register/unregister/find under its own global mutex
 * (this library is built threadsafe), so concurrent connections never see
 * each other's VFS half made. The alternative of one VFS reading a pointer
 * from a URI parameter was rejected: SQL can open URIs (ATTACH 'file:...'),
 * and a script must never be able to hand SQLite a pointer. For the same
 * reason the shell's authorizer refuses ATTACH of URI names (which could
 * also pick another VFS, e.g. the host's "unix").
 *
 * Locks. Two connections of one sandbox may use one file (a pipeline of two
 * sqlite3 commands runs them interleaved), so the usual SQLite lock levels
 * are kept in a table keyed by (sandbox vfs, inode) under a mutex; a
 * conflict is SQLITE_BUSY ("database is locked"), as between processes.
 * Forks and snapshots are other vfs instances: they never share a lock.
 * There is no shared memory (xShmMap), so WAL needs locking_mode=EXCLUSIVE.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "builtins/data/sqlite3/sq.h"
#include "vfs/vfs.h"

/* ---- the lock table ------------------------------------------------------ */

typedef struct sq_lock {
  struct sq_lock *next;
  const vfs *v;
  uint64_t ino;
  int refs;
  int shared;    /* connections holding SHARED or more */
  int reserved;  /* one holds RESERVED */
  int pending;   /* one holds PENDING (no new SHARED) */
  int exclusive; /* one holds EXCLUSIVE */
} sq_lock;

static pthread_mutex_t sq_lock_mu = PTHREAD_MUTEX_INITIALIZER;
static sq_lock *sq_locks;

/* The entry of (v, ino), made when missing; NULL when out of memory. The
 * entries are few (open database files) and tiny; they are allocated with
 * SQLite's allocator because they outlive no connection but are shared by
 * several sandboxes' threads. */
static sq_lock *lock_get(const vfs *v, uint64_t ino) {
  pthread_mutex_lock(&sq_lock_mu);
  sq_lock *l = sq_locks;
  while (l && !(l->v == v && l->ino == ino))
    l = l->next;
  if (!l) {
    l = sqlite3_malloc(sizeof *l);
    if (l) {
      memset(l, 0, sizeof *l);
      l->v = v;
      l->ino = ino;
      l->next = sq_locks;
      sq_locks = l;
    }
  }
  if (l)
    l->refs++;
  pthread_mutex_unlock(&sq_lock_mu);
  return l;
}

static void lock_put(sq_lock *l) {
  pthread_mutex_lock(&sq_lock_mu);
  if (--l->refs == 0) {
    sq_lock **pp = &sq_locks;
    while (*pp != l)
      pp = &(*pp)->next;
    *pp = l->next;
    sqlite3_free(l);
  }
  pthread_mutex_unlock(&sq_lock_mu);
}

/* ---- files ----------------------------------------------------------------
 */

typedef struct sq_file {
  sqlite3_file base;
  sq_vfs *sv;
  vfs_file *f; /* a sandbox file, or NULL for a temporary one */
  char *tmp;   /* a temporary file's bytes (sandbox allocator) */
  size_t tlen, tcap;
  sq_lock *lk;     /* NULL for temporary files */
  int level;       /* this connection's SQLITE_LOCK_* */
  char *unlink_at; /* delete on close: its path (sandbox allocator) */
} sq_file;

static int io_err(int rc, int dflt) {
  if (rc == -ENOSPC || rc == -EFBIG || rc == -EDQUOT)
    return SQLITE_FULL;
  if (rc == -ENOMEM)
    return SQLITE_IOERR_NOMEM;
  return dflt;
}

static int f_close(sqlite3_file *pf) {
  sq_file *p = (sq_file *)pf;
  bi_ctx *c = p->sv->c;
  if (p->f)
    vfs_close(p->f);
  if (p->lk)
    lock_put(p->lk);
  if (p->unlink_at) {
    vfs_unlink(c->vfs, c->cwd, p->unlink_at);
    mem_free(c->m, p->unlink_at);
  }
  mem_free(c->m, p->tmp);
  p->f = NULL;
  p->lk = NULL;
  p->tmp = NULL;
  p->unlink_at = NULL;
  return SQLITE_OK;
}

static int f_read(sqlite3_file *pf, void *out, int n, sqlite3_int64 off) {
  sq_file *p = (sq_file *)pf;
  size_t got = 0;
  if (!p->f) {
    if ((uint64_t)off < p->tlen) {
      got = p->tlen - (size_t)off;
      if (got > (size_t)n)
        got = (size_t)n;
      memcpy(out, p->tmp + off, got);
    }
  } else {
    long k = vfs_pread(p->f, out, (size_t)n, (uint64_t)off);
    if (k < 0)
      return io_err((int)k, SQLITE_IOERR_READ);
    got = (size_t)k;
  }
  if (got < (size_t)n) {
    memset((char *)out + got, 0, (size_t)n - got);
    return SQLITE_IOERR_SHORT_READ;
  }
  return SQLITE_OK;
}

static int f_write(sqlite3_file *pf, const void *in, int n, sqlite3_int64 off) {
  sq_file *p = (sq_file *)pf;
  if (!p->f) {
    size_t end = (size_t)off + (size_t)n;
    if (end > p->tcap) {
      size_t cap = p->tcap ? p->tcap : 4096;
      while (cap < end)
        cap *= 2;
      char *t = mem_realloc(p->sv->c->m, p->tmp, cap);
      if (!t)
        return SQLITE_IOERR_NOMEM;
      p->tmp = t;
      p->tcap = cap;
    }
    if ((size_t)off > p->tlen)
      memset(p->tmp + p->tlen, 0, (size_t)off - p->tlen);
    memcpy(p->tmp + off, in, (size_t)n);
    if (end > p->tlen)
      p->tlen = end;
    return SQLITE_OK;
  }
  long k = vfs_pwrite(p->f, in, (size_t)n, (uint64_t)off);
  if (k < 0)
    return io_err((int)k, SQLITE_IOERR_WRITE);
  return k == n ? SQLITE_OK : SQLITE_FULL;
}

static int f_truncate(sqlite3_file *pf, sqlite3_int64 size) {
  sq_file *p = (sq_file *)pf;
  if (!p->f) {
    if ((uint64_t)size < p->tlen)
      p->tlen = (size_t)size;
    return SQLITE_OK;
  }
  int rc = vfs_ftruncate(p->f, (uint64_t)size);
  return rc ? io_err(rc, SQLITE_IOERR_TRUNCATE) : SQLITE_OK;
}

static int f_sync(sqlite3_file *pf, int flags) {
  /* Memory is as durable as the sandbox gets. */
  return SQLITE_OK;
}

static int f_size(sqlite3_file *pf, sqlite3_int64 *size) {
  sq_file *p = (sq_file *)pf;
  *size = p->f ? (sqlite3_int64)vfs_file_size(p->f) : (sqlite3_int64)p->tlen;
  return SQLITE_OK;
}

static int f_lock(sqlite3_file *pf, int level) {
  sq_file *p = (sq_file *)pf;
  sq_lock *l = p->lk;
  if (!l || p->level >= level) {
    if (!l)
      p->level = level;
    return SQLITE_OK;
  }
  int rc = SQLITE_OK;
  pthread_mutex_lock(&sq_lock_mu);
  if (level == SQLITE_LOCK_SHARED) {
    if (l->pending || l->exclusive)
      rc = SQLITE_BUSY;
    else {
      l->shared++;
      p->level = SQLITE_LOCK_SHARED;
    }
  } else if (level == SQLITE_LOCK_RESERVED) {
    if (l->reserved)
      rc = SQLITE_BUSY;
    else {
      l->reserved = 1;
      p->level = SQLITE_LOCK_RESERVED;
    }
  } else { /* EXCLUSIVE, through PENDING */
    if (p->level < SQLITE_LOCK_PENDING) {
      if (l->pending)
        rc = SQLITE_BUSY;
      else {
        l->pending = 1;
        p->level = SQLITE_LOCK_PENDING;
      }
    }
    if (rc == SQLITE_OK) {
      if (l->shared > 1)
        rc = SQLITE_BUSY; /* readers left: stay PENDING */
      else {
        l->exclusive = 1;
        p->level = SQLITE_LOCK_EXCLUSIVE;
      }
    }
  }
  pthread_mutex_unlock(&sq_lock_mu);
  return rc;
}

static int f_unlock(sqlite3_file *pf, int level) {
  sq_file *p = (sq_file *)pf;
  sq_lock *l = p->lk;
  if (p->level <= level)
    return SQLITE_OK;
  if (!l) {
    p->level = level;
    return SQLITE_OK;
  }
  pthread_mutex_lock(&sq_lock_mu);
  if (p->level >= SQLITE_LOCK_EXCLUSIVE)
    l->exclusive = 0;
  if (p->level >= SQLITE_LOCK_PENDING)
    l->pending = 0;
  if (p->level >= SQLITE_LOCK_RESERVED)
    l->reserved = 0;
  if (level == SQLITE_LOCK_NONE && p->level >= SQLITE_LOCK_SHARED)
    l->shared--;
  p->level = level;
  pthread_mutex_unlock(&sq_lock_mu);
  return SQLITE_OK;
}

static int f_check_reserved(sqlite3_file *pf, int *out) {
  sq_file *p = (sq_file *)pf;
  *out = 0;
  if (p->lk) {
    pthread_mutex_lock(&sq_lock_mu);
    *out = p->lk->reserved || p->lk->pending || p->lk->exclusive;
    pthread_mutex_unlock(&sq_lock_mu);
  }
  return SQLITE_OK;
}

static int f_control(sqlite3_file *pf, int op, void *arg) {
  return SQLITE_NOTFOUND;
}

static int f_sector(sqlite3_file *pf) {
  return 4096;
}

static int f_caps(sqlite3_file *pf) {
  return SQLITE_IOCAP_POWERSAFE_OVERWRITE;
}

static const sqlite3_io_methods sq_io = {
    1,         f_close,  f_read, f_write,  f_truncate,
    f_sync,    f_size,   f_lock, f_unlock, f_check_reserved,
    f_control, f_sector, f_caps, NULL,     NULL,
    NULL,      NULL,     NULL,   NULL};

/* ---- the VFS --------------------------------------------------------------
 */

static int v_open(sqlite3_vfs *pv, sqlite3_filename name, sqlite3_file *pf,
                  int flags, int *out_flags) {
  sq_vfs *sv = (sq_vfs *)pv;
  bi_ctx *c = sv->c;
  sq_file *p = (sq_file *)pf;
  memset(p, 0, sizeof *p);
  p->sv = sv;
  if (!name) { /* a temporary file: sandbox memory only */
    p->base.pMethods = &sq_io;
    if (out_flags)
      *out_flags = flags;
    return SQLITE_OK;
  }
  int rw = (flags & SQLITE_OPEN_READWRITE) != 0;
  int of = rw ? O_RDWR : O_RDONLY;
  if (flags & SQLITE_OPEN_CREATE)
    of |= O_CREAT;
  if (flags & SQLITE_OPEN_EXCLUSIVE)
    of |= O_EXCL;
  vfs_file *f = NULL;
  int rc = vfs_open(c->vfs, c->cwd, name, of, 0644, &f);
  if (rc && rw && (rc == -EACCES || rc == -EPERM || rc == -EROFS)) {
    /* As the unix VFS: a file that cannot be written opens read-only. */
    rc = vfs_open(c->vfs, c->cwd, name, O_RDONLY, 0, &f);
    if (!rc)
      flags = (flags & ~(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)) |
              SQLITE_OPEN_READONLY;
  }
  if (rc)
    return rc == -ENOMEM ? SQLITE_NOMEM : SQLITE_CANTOPEN;
  vfs_stat_t st;
  if (vfs_fstat(f, &st) == 0 && st.type != VFS_REG) {
    vfs_close(f);
    return SQLITE_CANTOPEN;
  }
  if (flags & SQLITE_OPEN_DELETEONCLOSE) {
    p->unlink_at = mem_strdup(c->m, name);
    if (!p->unlink_at) {
      vfs_close(f);
      return SQLITE_NOMEM;
    }
  }
  if (flags & SQLITE_OPEN_MAIN_DB) {
    p->lk = lock_get(c->vfs, st.ino);
    if (!p->lk) {
      mem_free(c->m, p->unlink_at);
      p->unlink_at = NULL;
      vfs_close(f);
      return SQLITE_NOMEM;
    }
  }
  p->f = f;
  p->base.pMethods = &sq_io;
  if (out_flags)
    *out_flags = flags;
  return SQLITE_OK;
}

static int v_delete(sqlite3_vfs *pv, const char *name, int sync) {
  bi_ctx *c = ((sq_vfs *)pv)->c;
  int rc = vfs_unlink(c->vfs, c->cwd, name);
  if (rc == -ENOENT)
    return SQLITE_IOERR_DELETE_NOENT;
  return rc ? SQLITE_IOERR_DELETE : SQLITE_OK;
}

static int v_access(sqlite3_vfs *pv, const char *name, int what, int *out) {
  bi_ctx *c = ((sq_vfs *)pv)->c;
  vfs_stat_t st;
  *out = 0;
  if (what == SQLITE_ACCESS_EXISTS) {
    /* As the unix VFS: an empty file is as good as none. */
    if (vfs_stat(c->vfs, c->cwd, name, &st) == 0)
      *out = st.type != VFS_REG || st.size > 0;
  } else {
    int amode = what == SQLITE_ACCESS_READWRITE ? R_OK | W_OK : R_OK;
    *out = vfs_access(c->vfs, c->cwd, name, amode) == 0;
  }
  return SQLITE_OK;
}

/* The absolute path; a symbolic link is followed (so that the journal goes
 * beside the file it names, as with the unix VFS) and reported with
 * SQLITE_OK_SYMLINK, which -nofollow turns into a refusal. */
static int v_fullpath(sqlite3_vfs *pv, const char *name, int n, char *out) {
  bi_ctx *c = ((sq_vfs *)pv)->c;
  vfs_stat_t st;
  if (vfs_lstat(c->vfs, c->cwd, name, &st) == 0 && st.type == VFS_LNK) {
    char *real = NULL;
    int k = -1;
    if (vfs_realpath(c->vfs, c->cwd, name, &real) == 0) {
      k = snprintf(out, (size_t)n, "%s", real);
      vfs_release(c->vfs, real);
    }
    if (k >= 0 && k < n)
      return SQLITE_OK_SYMLINK;
  }
  int k;
  if (name[0] == '/')
    k = snprintf(out, (size_t)n, "%s", name);
  else {
    const char *cwd = c->cwd && *c->cwd ? c->cwd : "/";
    k = snprintf(out, (size_t)n, "%s%s%s", cwd,
                 cwd[strlen(cwd) - 1] == '/' ? "" : "/", name);
  }
  return k < 0 || k >= n ? SQLITE_CANTOPEN : SQLITE_OK;
}

static void *v_dlopen(sqlite3_vfs *pv, const char *name) {
  return NULL;
}

static void v_dlerror(sqlite3_vfs *pv, int n, char *out) {
  snprintf(out, (size_t)n, "loading extensions is not supported");
}

static void (*v_dlsym(sqlite3_vfs *pv, void *h, const char *sym))(void) {
  return NULL;
}

static void v_dlclose(sqlite3_vfs *pv, void *h) {}

static int v_random(sqlite3_vfs *pv, int n, char *out) {
  bi_ctx *c = ((sq_vfs *)pv)->c;
  if (c->random)
    c->random(c, out, (size_t)n);
  else
    memset(out, 0, (size_t)n);
  return n;
}

static int v_sleep(sqlite3_vfs *pv, int us) {
  /* Nothing else of this sandbox can run while the command blocks the
   * thread, so waiting would not free a lock: return at once. */
  return us;
}

static int v_time64(sqlite3_vfs *pv, sqlite3_int64 *out) {
  bi_ctx *c = ((sq_vfs *)pv)->c;
  int64_t ns = c->now_ns ? c->now_ns(c) : 0;
  /* Julian day number in milliseconds: the Unix epoch is day 2440587.5. */
  *out = (sqlite3_int64)(ns / 1000000) + (sqlite3_int64)210866760000000LL;
  return SQLITE_OK;
}

static int v_time(sqlite3_vfs *pv, double *out) {
  sqlite3_int64 ms;
  v_time64(pv, &ms);
  *out = (double)ms / 86400000.0;
  return SQLITE_OK;
}

static int v_last_error(sqlite3_vfs *pv, int n, char *out) {
  return 0;
}

static atomic_uint sq_vfs_serial;

int sq_vfs_init(sq_vfs *sv, bi_ctx *c) {
  memset(sv, 0, sizeof *sv);
  sv->c = c;
  snprintf(sv->name, sizeof sv->name, "vsh-%u",
           atomic_fetch_add(&sq_vfs_serial, 1) + 1);
  sqlite3_vfs *v = &sv->base;
  v->iVersion = 2;
  v->szOsFile = (int)sizeof(sq_file);
  v->mxPathname = VFS_PATH_MAX + 1;
  v->zName = sv->name;
  v->pAppData = sv;
  v->xOpen = v_open;
  v->xDelete = v_delete;
  v->xAccess = v_access;
  v->xFullPathname = v_fullpath;
  v->xDlOpen = v_dlopen;
  v->xDlError = v_dlerror;
  v->xDlSym = v_dlsym;
  v->xDlClose = v_dlclose;
  v->xRandomness = v_random;
  v->xSleep = v_sleep;
  v->xCurrentTime = v_time;
  v->xGetLastError = v_last_error;
  v->xCurrentTimeInt64 = v_time64;
  int rc = sqlite3_vfs_register(v, 0);
  sv->registered = rc == SQLITE_OK;
  return rc;
}

void sq_vfs_done(sq_vfs *sv) {
  if (sv->registered)
    sqlite3_vfs_unregister(&sv->base);
  sv->registered = 0;
}
